/* SPDX-License-Identifier: MIT */
/*
 * A job's thread from start to end (worker_main): it waits its turn, takes
 * its process-side settings (proc/proc.c), sets the worker up (engine,
 * workload, files, verification, the buffers and their contents, the
 * queue options), prefaults the histograms it will fill, runs the I/O
 * (worker.c), then the last syncs, the verification's end, the logs and
 * the result; and the teardown.
 */
#include "run/worker_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "opt/pace_opts.h"
#include "opt/prio_opts.h"
#include "workload/buffer.h"
#include "machine/clock.h"
#include "machine/cpus.h"
#include "target/fileopts.h"
#include "run/flow.h"
#include "run/iolog_write.h"
#include "run/lattarget.h"
#include "run/overlap.h"
#include "run/pace.h"
#include "proc/prio.h"
#include "run/stall.h"
#include "proc/proc.h"
#include "run/steady.h"
#include "run/stuck.h"
#include "run/wfiles.h"
#include "stats/log.h"
#include "util/debug.h"
#include "util/log.h"
#include "verify/async.h"
#include "verify/verify.h"
#include "workload/workload.h"
#include "zbd/zbd.h"

/*
 * The parts of worker_setup() return 0, or on failure a negative errno
 * (the job's error, unless one is set already) or 1 (EINVAL unless one
 * is set), with the message in err.
 */

/*
 * The files open at their first I/O (FILE_OP engines: when the run
 * starts, worker_file_op_open()); an engine without file I/O opens them
 * at setup, once: its open is its setup (exec's program, a socket), and
 * so does mmap_populate, whose prefault belongs before the run;
 * create_only opens nothing, as fio (create_on_open makes nothing).
 */
static bool opens_now(const struct worker *w)
{
	const struct job_options *o = &w->p->o;

	return !o->create_only && ((w->ops->flags & ENGINE_F_NOFILEIO) ||
		((w->ops->flags & ENGINE_F_MAPS) && o->mmap_populate));
}

/* The engine, the workload, the files' opening, the verification. */
static int setup_engine(struct worker *w, struct strbuf *err)
{
	struct run_job *rj = w->rj;
	const struct job_plan *p = w->p;
	const struct job_options *o = &p->o;
	const struct engine_ops *eo;
	int ret;

	w->depth = o->iodepth ? o->iodepth : 1;
	/* verify_async: the job's depth is that many reads being checked */
	if ((w->ops->flags & ENGINE_F_SYNC) && !(o->verify_async && o->verify))
		w->depth = 1;
	if ((ret = w->ops->init(p, w->depth, &w->e, err)))
		return ret;
	w->e->files = rj->files->files;
	w->e->nr_files = rj->files->nr_files;
	w->e->run_stop = &rj->ctx->stop;
	w->e->job_stop = &rj->stop;
	fcycle_init(&w->fc, w->ops, w->e, p, w->st);
	if (workload_init(&w->wl, p, rj->files->files, rj->files->nr_files,
			  err))
		return 1;
	if (o->zonemode == ZONE_MODE_ZBD) {
		w->zbd = zbd_new(p, rj->files->files, rj->files->nr_files);
		w->zoned = true;
		if (!o->read_beyond_wp)
			workload_read_gate(w->wl, zbd_read_ok, w->zbd);
	}
	/* openfiles: only the files in use are opened now */
	if (wfiles_init(&w->wf, p, w->wl, &w->fc, w->depth + 1, w, err))
		return 1;
	w->file_events = w->wf != NULL;
	/* complete_is_rare()'s one test: wfiles and zbd see each I/O */
	w->nr_split = w->wf != NULL || w->zoned;
	if (opens_now(w)) {
		if ((ret = worker_open_now(w, err)))
			return ret;
	} else if (!(w->ops->flags & ENGINE_F_FILE_OP)) {
		worker_lazy_start(w, false);
	}
	if (verify_init(&w->vf, p, rj->files->files, rj->files->nr_files,
			w->depth + 1, w->wl, err))
		return 1;
	w->verifies = w->vf != NULL;	/* next_io()'s one test */
	/* io_size beyond the regions: a loop's end at each wrap */
	w->wraps = workload_may_wrap(w->wl) && !w->vf &&
		   !(w->ops->flags & (ENGINE_F_NOFILEIO | ENGINE_F_FILE_OP)) &&
		   !(o->read_iolog && *o->read_iolog);
	/* the engine itself: offload's wrapper does not say */
	eo = engine_find(p->o.ioengine);
	if (w->vf && eo && (eo->flags & ENGINE_F_FAKEIO))
		verify_fake_io(w->vf);
	fault_policy_init(&w->fp, o);
	return 0;
}

/* The I/O buffers, their contents, the io_us and the free list. */
static int setup_buffers(struct worker *w, struct strbuf *err)
{
	struct run_job *rj = w->rj;
	const struct job_plan *p = w->p;
	unsigned int i;
	int ret;

	/* mem=, iomem_align: proc/mem.c lays the buffers out */
	ret = iomem_alloc(&w->iom, p, plan_buf_bs(p), w->depth + 1, err);
	if (ret) {
		rj->st->error = -ret;
		return 1;
	}
	w->mem = w->iom.base;
	w->buf_size = w->iom.stride;
	w->mem_size = w->iom.len;
	w->ios = xcalloc(w->depth + 1, sizeof(*w->ios));
	w->freel = xcalloc(w->depth + 1, sizeof(*w->freel));
	w->batch = xcalloc(w->depth + 1, sizeof(*w->batch));
	w->xfer_done = xcalloc(w->depth + 1, sizeof(*w->xfer_done));
	w->requeue = xcalloc(w->depth + 1, sizeof(*w->requeue));
	/* the contents go on from the layout's (workload/buffer.h) */
	buffer_fill_init(&w->bfill, &w->wmode, p, rj->files->fill_drawn,
			 w->mem, w->buf_size, w->depth + 1);
	w->scramble_key = buffer_scramble_key(p);
	for (i = 0; i <= w->depth; i++) {
		struct io_u *u = &w->ios[i];

		u->index = i;
		u->buf = (char *)w->mem + (size_t)i * w->buf_size;
		/* the job's priority; engines with cmdprio set it per I/O */
		u->ioprio = p->prio ? p->prio->def : 0;
		if (w->ops->prep && (ret = w->ops->prep(w->e, u))) {
			strbuf_addf(err, "engine '%s' could not prepare its "
				    "buffers%s%s", w->ops->name,
				    ret < 0 ? ": " : "",
				    ret < 0 ? strerror(-ret) : "");
			return ret;
		}
		if (i < w->depth)
			w->freel[w->nr_free++] = i;
	}
	return 0;
}

/* Which loop, which latencies are measured, the syncs. */
static void setup_measures(struct worker *w)
{
	const struct job_plan *p = w->p;
	const struct job_options *o = &p->o;
	unsigned int i;

	w->va = verify_async_of(w->vf);
	/* verify_async keeps io_us in the checks: the queueing loop */
	w->inline_engine = !w->va && ((w->ops->flags & ENGINE_F_SYNC) ||
			   (w->depth == 1 && (w->ops->flags & ENGINE_F_INLINE_DEPTH1)));
	w->inline_calls = !(w->ops->flags & ENGINE_F_INLINE_DEPTH1);
	/* fio counts a loop's bytes as it queues them (not sync engines') */
	if (!w->inline_engine && !(w->ops->flags & ENGINE_F_SYNC))
		workload_loops_queued(w->wl);
	w->ovl = overlap_new(o->serialize_overlap && !w->inline_engine,
			     w->depth + 1);
	w->clat_on = !o->disable_clat;
	w->ss_lat = o->ss_dur_us && ss_mode_is_lat(o->ss_mode);
	w->lat_on = !o->disable_lat;
	if (w->inline_engine && w->clat_on && w->lat_on) {
		/* one clock read starts and issues an inline I/O */
		w->lat_on = 0;
		w->lat_from_clat = 1;
	}
	w->slat_on = !o->disable_slat &&
		     !(w->ops->flags & (ENGINE_F_SYNC | ENGINE_F_NOSLAT));
	if (w->ops->flags & ENGINE_F_FILE_OP) {
		/* timed: the file operations (take_lat), not the I/Os */
		w->file_op = 1;
		w->file_op_dir = ddir_used(p, DDIR_READ) ? DDIR_READ :
				 DDIR_WRITE;
		w->clat_on = w->lat_on = w->slat_on = w->lat_from_clat = 0;
	}
	/* fio's should_fsync: only a job that writes syncs */
	if (ddir_used(p, DDIR_WRITE)) {
		w->fsync_n = o->fsync;
		w->fdatasync_n = o->fdatasync;
		w->sfr_n = o->sync_file_range ? o->sync_file_range_nr : 0;
	}
	w->sync_any = w->fsync_n | w->fdatasync_n | w->sfr_n;
	if (w->sfr_n) {
		w->sfr_range = xcalloc(2 * (size_t)w->rj->files->nr_files,
				       sizeof(*w->sfr_range));
		for (i = 0; i < w->rj->files->nr_files; i++)
			worker_sfr_reset(w, i);
	}
}

/* The queue's batches, the loops, priorities and latency target. */
static void setup_queue(struct worker *w)
{
	const struct job_plan *p = w->p;
	const struct job_options *o = &p->o;

	/* fio: batch_submit 0 means the whole depth; complete_min 0 polls */
	w->batch_submit = o->iodepth_batch_submit ? o->iodepth_batch_submit :
			  w->depth;
	if (w->batch_submit > w->depth)
		w->batch_submit = w->depth;
	w->complete_min = o->iodepth_batch_complete_min;
	/*
	 * fio: with iodepth_batch_complete_min=0 and no _max, each I/O is
	 * committed and waited for before the next is queued, whatever
	 * iodepth says (its figures: 100% at depth 1)
	 */
	w->one_by_one = !w->complete_min && !o->iodepth_batch_complete_max;
	w->depth_batch = w->batch_submit;
	if (w->one_by_one)
		w->batch_submit = 1;	/* commit each, drain it */
	/* fio: complete_max defaults to complete_min (at least 1) */
	w->complete_max = o->iodepth_batch_complete_max ?
			  o->iodepth_batch_complete_max :
			  (w->complete_min ? w->complete_min : 1);
	if (w->complete_max < w->complete_min)
		w->complete_max = w->complete_min;
	w->submit_wait = w->ops->commit_wait && w->complete_min &&
			 !w->one_by_one &&
			 o->io_submit_mode == IO_SUBMIT_INLINE &&
			 o->submit_and_wait;
	w->depth_low = o->iodepth_low && o->iodepth_low < w->depth ?
		       o->iodepth_low : w->depth;
	w->retry = -1;
	w->time_based = o->time_based;
	/* fio: the dry run of verify_only gives writes no time */
	w->run_dirs = p->ddir_mask & ~(o->verify_only ? 1u << DDIR_WRITE : 0);
	/* time_based random files start over one by one (workload.c) */
	w->drop_invalidate = o->invalidate && workload_drops_in_place(w->wl);
	w->wrap_invalidate = o->invalidate && worker_pass_uses_files_up(p) &&
			     !w->drop_invalidate;
	w->loops_left = o->loops ? o->loops : 1;
	w->prio = w->st->prio = prio_stats_new(p);
	w->lt = lat_target_new(p, w->depth, w->lat_on);
	if (w->lt)
		lat_target_start(w->lt, w->st, clock_now_ns(), w->freel,
				 &w->nr_free);
}

/* write_iolog: the log opened, with the files open from the start. */
static int setup_iolog(struct worker *w, struct strbuf *err)
{
	struct run_job *rj = w->rj;
	const struct job_options *o = &w->p->o;
	uint64_t now;
	unsigned int i;

	w->dbg_io = dbg_on(DBG_IO);
	if ((!o->write_iolog || !*o->write_iolog) && !w->dbg_io)
		return 0;
	now = clock_now_ns();
	if (iolog_writer_open(&w->iolog, o->write_iolog && *o->write_iolog ?
			      o->write_iolog : NULL, rj->files->files,
			      rj->files->nr_files, now, w->dbg_io, err))
		return 1;
	/* the files opened above, or when the run starts (FILE_OP) */
	for (i = 0; i < rj->files->nr_files; i++)
		if ((opens_now(w) || (w->ops->flags & ENGINE_F_FILE_OP)) &&
		    wfiles_open_at_start(w->wf, i))
			iolog_writer_file(w->iolog, i, true, now);
	w->fc.iolog = w->iolog;
	return 0;
}

static int worker_setup(struct worker *w, struct run_job *rj)
{
	const struct job_options *o = &rj->plan->o;
	struct strbuf err = STRBUF_INIT;
	int ret;

	memset(w, 0, sizeof(*w));
	w->rj = rj;
	rj->w = w;
	w->p = rj->plan;
	w->st = rj->st;
	w->ops = engine_for_plan(w->p);
	if (!w->ops) {
		snprintf(rj->errmsg, sizeof(rj->errmsg),
			 "job '%s': ioengine '%s' not found", o->name,
			 o->ioengine);
		return -1;
	}
	ret = setup_engine(w, &err);
	if (!ret)
		ret = setup_buffers(w, &err);
	if (!ret) {
		setup_measures(w);
		setup_queue(w);
		ret = setup_iolog(w, &err);
	}
	if (!ret) {
		strbuf_release(&err);
		return 0;
	}
	/* the engine's own errno (EAGAIN from io_setup, EPERM from open) */
	if (ret < 0 && !rj->st->error)
		rj->st->error = -ret;
	snprintf(rj->errmsg, sizeof(rj->errmsg), "job '%s': %s", o->name,
		 strbuf_str(&err));
	strbuf_release(&err);
	if (!rj->st->error)
		rj->st->error = EINVAL;
	return -1;
}

static void worker_teardown(struct worker *w)
{
	struct run_job *rj = w->rj;
	unsigned int i;

	if (w->e) {
		/*
		 * fsync_on_close: fcycle_close() syncs an unsynced file (none
		 * is open when the engine's init failed: fc is not set up)
		 */
		for (i = 0; w->fc.e && i < rj->files->nr_files; i++)
			if (fcycle_is_open(&w->fc, i))
				fcycle_close(&w->fc, i);
		w->ops->cleanup(w->e);
	}
	wfiles_free(w->wf);
	verify_free(w->vf);
	overlap_free(w->ovl);
	pace_free(w->pace);
	flow_job_done(rj->ctx->flows, (unsigned int)(rj - rj->ctx->jobs));
	lat_target_free(w->lt);
	buffer_fill_free(w->bfill);
	if (w->wl)
		workload_free(w->wl);
	rj->res.zone_resets = zbd_resets(w->zbd);
	zbd_free(w->zbd);
	iomem_free(&w->iom);
	free(w->ios);
	free(w->freel);
	free(w->batch);
	free(w->xfer_done);
	free(w->requeue);
	free(w->sfr_range);
}

/*
 * exit_on_io_done (cpuio): such jobs stop once every job that does I/O
 * (any but an ENGINE_F_NOIO engine's) has finished, those not started
 * yet included, as fio. Called with ctx->lock held when a job finishes,
 * and when such a job starts (there may be none to wait for).
 */
static void io_done_check(struct run_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_jobs; i++) {
		const struct run_job *o = &ctx->jobs[i];
		const struct engine_ops *ops = engine_find(o->plan->o.ioengine);

		if (atomic_load(&o->state) != WS_DONE &&
		    !(ops && (ops->flags & ENGINE_F_NOIO)))
			return;
	}
	for (i = 0; i < ctx->nr_jobs; i++) {
		const struct job_options *o = &ctx->jobs[i].plan->o;
		const struct engine_ops *ops = engine_find(o->ioengine);

		if (o->exit_on_io_done && ops && (ops->flags & ENGINE_F_NOIO))
			ctx->jobs[i].stop = 1;
	}
}

static void job_finished(struct run_job *rj)
{
	struct run_ctx *ctx = rj->ctx;

	pthread_mutex_lock(&ctx->lock);
	atomic_store(&rj->state, WS_DONE);
	exit_what_finished(rj);
	io_done_check(ctx);
	pthread_cond_broadcast(&ctx->cond);
	pthread_mutex_unlock(&ctx->lock);
}

/*
 * wait_for=name: block until every instance of that job defined before
 * this one has finished (main refused a name with none: a later job
 * could be waiting for this one).
 */
static void wait_for_job(struct run_job *rj)
{
	struct run_ctx *ctx = rj->ctx;
	const char *name = rj->plan->o.wait_for;
	unsigned int i, self = (unsigned int)(rj - ctx->jobs);

	if (!name || !*name)
		return;
	pthread_mutex_lock(&ctx->lock);
	for (;;) {
		int pending = 0;

		for (i = 0; i < self; i++) {
			struct run_job *o = &ctx->jobs[i];

			if (!strcmp(o->plan->o.name, name) &&
			    atomic_load(&o->state) != WS_DONE)
				pending = 1;
		}
		if (!pending || ctx->stop)
			break;
		pthread_cond_wait(&ctx->cond, &ctx->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
}

/* Touches each page of h, leaving its contents as they are. */
static void touch_hist(struct hist *h)
{
	volatile unsigned char *c = (volatile unsigned char *)h;
	size_t off;

	for (off = 0; off < sizeof(*h); off += 4096)
		c[off] = c[off];
	c[sizeof(*h) - 1] = c[sizeof(*h) - 1];
}

/*
 * The histograms this job will fill, touched before the run so that it
 * takes no page faults for them; the others stay untouched and cost no
 * memory (stats/stats.c: worker_stats_init()).
 */
static void prefault_stats(struct worker *w)
{
	struct worker_stats *st = w->st;
	unsigned int d, dirs = w->p->ddir_mask;

	if (w->vf)
		dirs |= 1u << DDIR_READ;	/* the read-backs */
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!(dirs & (1u << d)))
			continue;
		if (w->clat_on)
			touch_hist(&st->dir[d].clat_hist);
		/* inline engines copy clat's into it at the end */
		if (w->lat_on || w->lat_from_clat)
			touch_hist(&st->dir[d].lat_hist);
		if (w->slat_on)
			touch_hist(&st->dir[d].slat_hist);
		if (pace_rate_bps(w->p, d))
			touch_hist(&st->co_hist[d]);
	}
	if (w->sync_any)	/* end syncs are not counted */
		touch_hist(&st->sync_hist);
}

static void add_rusage(struct worker_result *res, const struct rusage *a,
		       const struct rusage *b)
{
	struct rusage *r = &res->ru;

	timersub(&b->ru_utime, &a->ru_utime, &r->ru_utime);
	timersub(&b->ru_stime, &a->ru_stime, &r->ru_stime);
	r->ru_nvcsw = b->ru_nvcsw - a->ru_nvcsw;
	r->ru_nivcsw = b->ru_nivcsw - a->ru_nivcsw;
	r->ru_majflt = b->ru_majflt - a->ru_majflt;
	r->ru_minflt = b->ru_minflt - a->ru_minflt;
}

/* A job that ends before its I/O: the reason in errmsg, its error e. */
static void *job_ends_early(struct run_job *rj, struct strbuf *err, int e)
{
	snprintf(rj->errmsg, sizeof(rj->errmsg), "job '%s': %s",
		 rj->plan->o.name, strbuf_str(err));
	strbuf_release(err);
	rj->st->error = rj->res.error = e;
	job_finished(rj);
	return NULL;
}

/*
 * pre_read failed: fio goes on to issue the job's first I/O, and its
 * error stops the job after it (fio checks for one after each I/O): no
 * read-back, no end syncs, the job fails with the error.
 */
static void pre_read_failed(struct worker *w, int e, struct strbuf *err)
{
	snprintf(w->rj->errmsg, sizeof(w->rj->errmsg), "job '%s': %s",
		 w->p->o.name, strbuf_str(err));
	strbuf_reset(err);
	w->st->error = e;
	w->loops_left = 1;
	w->time_based = 0;
	workload_cap_pass(w->wl, 1);
}

/*
 * Before the job's setup: its thread placed (CPUs, priority), wait_for,
 * startdelay, the process side (proc_job_begin) and exec_prerun.
 * Returns 0, or -1 once the job has ended early.
 */
static int worker_begin(struct run_job *rj, struct proc_job *pj)
{
	const struct job_options *o = &rj->plan->o;
	struct strbuf err = STRBUF_INIT;
	int ret;

	rj->res.tid = gettid();
	if (rj->iowq)
		rj->iowq->owner = rj->res.tid;
	if (cpus_place_thread(rj->plan, &err) ||
	    prio_place_thread(rj->plan, &err)) {
		clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
		job_ends_early(rj, &err, EINVAL);
		return -1;
	}
	strbuf_release(&err);
	wait_for_job(rj);
	if (o->startdelay_us)
		clock_sleep_us(o->startdelay_us, &rj->ctx->stop);

	clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
	/* uid, gid, lockmem, cgroup, nice, ioscheduler: proc/proc.c */
	ret = proc_job_begin(rj->plan, rj->files, pj, &err);
	if (ret) {
		proc_job_end(rj->plan, pj, 0);
		job_ends_early(rj, &err, -ret);
		return -1;
	}
	/*
	 * exec_prerun before the job opens its files, as fio: a file
	 * create_on_open makes is not there yet when the command runs
	 */
	if (proc_job_prerun(rj->plan, &err)) {
		proc_job_end(rj->plan, pj, 0);
		job_ends_early(rj, &err, ECANCELED);
		return -1;
	}
	strbuf_release(&err);
	return 0;
}

/* The run starts: its clocks, the ramp or the stats' start. */
static void worker_start(struct worker *w)
{
	struct run_job *rj = w->rj;
	const struct job_options *o = &rj->plan->o;

	clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
	/* a clock this kernel lacks: realtime's, as fio 3.42 prints */
	if (clock_gettime((clockid_t)o->job_start_clock_id,
			  &rj->res.start_clock))
		rj->res.start_clock = rj->res.start_wall;
	w->now = clock_now_ns();
	rj->res.start_us = w->now / 1000;
	/* ramp_size: the runtime counts from the ramp's end (worker.c) */
	if (o->runtime_us && !o->ramp_size)
		w->end_ns = w->now + (o->ramp_time_us + o->runtime_us) * 1000;
	if (o->ramp_time_us || o->ramp_size) {
		w->ramping = 1;
		w->ramp_end_ns = o->ramp_size ? UINT64_MAX :
				 w->now + o->ramp_time_us * 1000;
		w->ramp_bytes = o->ramp_size;
		if (o->ramp_size && o->group_reporting && rj->ctx->ramp_bytes)
			w->ramp_group = &rj->ctx->ramp_bytes[rj->plan->groupid];
		atomic_store(&rj->state, WS_RAMP);
		getrusage(RUSAGE_THREAD, &w->ru_start);
		rj->delay0_ns = stall_delay_ns(0);
		rj->run_start_ns = w->now;
		/* a job that ends during its ramp counts from its start */
		w->phase_ns = w->now;
	} else {
		worker_reset_stats(w);
	}
}

/* lat taken from clat where they are one */
static void lat_from_clat(struct worker *w)
{
	unsigned int d;

	if (!w->lat_from_clat)
		return;
	/* issue and start times are one clock read: lat is clat */
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct dir_stats *ds = &w->st->dir[d];

		ds->lat = ds->clat;
		/* its used range: the rest would only cost memory */
		if (ds->clat.n)
			hist_add_range(&ds->lat_hist, &ds->clat_hist,
				       ds->clat.min, ds->clat.max);
	}
}

/* What the engine dropped, and lat taken from clat where they are one. */
static void worker_end_stats(struct worker *w)
{
	if (w->ops->dropped) {
		uint64_t lost = w->ops->dropped(w->e);

		w->st->dir[DDIR_READ].drop_ios += lost;
		w->st->issued_drop[DDIR_READ] += lost;
	}
	lat_from_clat(w);
}

/*
 * After the I/O: the last loop's end syncs, the verify's last checks,
 * a ramp never left, the iolog closed.
 */
static void worker_finish_io(struct worker *w, struct strbuf *err)
{
	struct run_job *rj = w->rj;
	const struct job_options *o = &rj->plan->o;

	/* the last loop's end_fsync (fsync_on_close's, as fio) */
	if (!w->st->error)
		worker_io_end(w, false);
	if (w->vf && verify_finish(w->vf, err) && !w->st->error) {
		w->st->error = EIO;
		snprintf(rj->errmsg, sizeof(rj->errmsg), "job '%s': %s",
			 o->name, strbuf_str(err));
	}
	/* ended during its ramp: fio counts the I/O, records no latency */
	if (w->ramping) {
		worker_stats_drop_lat(w->st);
		rj->res.ramp_end = true;
	}
	w->now = clock_now_ns();
	if (w->iolog) {
		int e = iolog_writer_close(w->iolog, w->now);

		w->iolog = w->fc.iolog = NULL;
		if (e && !w->st->error) {
			w->st->error = -e;
			snprintf(rj->errmsg, sizeof(rj->errmsg),
				 "job '%s': write_iolog '%s': %s", o->name,
				 o->write_iolog, strerror(-e));
		}
	}
}

/* The job's result: its CPU, its time, the engine's words, io-wq. */
static void worker_result_fill(struct worker *w)
{
	struct run_job *rj = w->rj;
	struct rusage ru_end;

	getrusage(RUSAGE_THREAD, &ru_end);
	add_rusage(&rj->res, &w->ru_start, &ru_end);
	rj->res.run_delay_ns = stall_since(0, rj->delay0_ns);
	rj->res.elapsed_us = (w->now - rj->run_start_ns) / 1000;
	end_phase(w);
	if (w->e && w->ops->describe) {
		struct strbuf sb = STRBUF_INIT;

		w->ops->describe(w->e, &sb);
		snprintf(rj->describe, sizeof(rj->describe), "%s",
			 strbuf_str(&sb));
		strbuf_release(&sb);
	}
	if (w->e && w->ops->reqstats)
		rj->res.reqs = w->ops->reqstats(w->e);
	/*
	 * Only an error that stopped the job fails it (and the run): one
	 * continued past is the report's first_error (st->first_error), as
	 * with fio, which exits 0 after ignore_error=,ENOSPC let every
	 * ENOSPC through.
	 */
	rj->res.error = w->st->error;
	rj->res.latency_depth = lat_target_depth(w->lt);
	if (rj->iowq) {
		/* before the ring closes and its workers exit with it */
		iowq_scan(rj->iowq);
		rj->res.iowq_cpu_ns = iowq_total_ns(rj->iowq) - rj->iowq_base_ns;
		rj->res.iowq_threads = rj->iowq->nr;
		rj->res.iowq_max_threads = rj->iowq->max_alive;
	}
}

/* The thread's CPU time from /proc (another thread's getrusage). */
static void abandon_rusage(struct worker *w)
{
	struct run_job *rj = w->rj;
	unsigned long long ut, st;
	char path[64], buf[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	struct rusage ru = w->ru_start;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat",
		 (int)rj->res.tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || hz <= 0)
		return;
	buf[n] = '\0';
	/* after "(comm)": state and 10 more fields, then utime stime */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			 "%*u %llu %llu", &ut, &st) != 2)
		return;
	ru.ru_utime.tv_sec = (time_t)(ut / (unsigned long long)hz);
	ru.ru_utime.tv_usec = (suseconds_t)(ut % (unsigned long long)hz *
					    1000000 / (unsigned long long)hz);
	ru.ru_stime.tv_sec = (time_t)(st / (unsigned long long)hz);
	ru.ru_stime.tv_usec = (suseconds_t)(st % (unsigned long long)hz *
					    1000000 / (unsigned long long)hz);
	add_rusage(&rj->res, &w->ru_start, &ru);
}

/*
 * The steps of worker_main()'s end a given-up job had not done, without
 * what would need its engine or its device: its figures as they stand.
 */
static void abandon_end(struct worker *w, uint64_t now)
{
	struct run_job *rj = w->rj;

	w->now = now;
	if (w->end_stage < END_STATS)
		lat_from_clat(w);
	if (w->end_stage < END_FINISHED) {
		if (w->ramping) {
			worker_stats_drop_lat(w->st);
			rj->res.ramp_end = true;
		}
		if (w->iolog) {
			iolog_writer_close(w->iolog, now);
			w->iolog = w->fc.iolog = NULL;
		}
	}
	if (w->end_stage < END_LOGGED)
		worker_log_end(w);
	if (w->end_stage < END_FILLED) {
		abandon_rusage(w);
		rj->res.run_delay_ns = stall_since(rj->res.tid, rj->delay0_ns);
		rj->res.elapsed_us = (now - rj->run_start_ns) / 1000;
		end_phase(w);
	}
}

void worker_abandon(struct run_job *rj, uint64_t now, uint64_t idle_ns)
{
	struct worker *w = rj->w;
	int st = atomic_load(&rj->state);

	if (w && st != WS_INIT)
		abandon_end(w, now);
	snprintf(rj->errmsg, sizeof(rj->errmsg), "job '%s': given up: its "
		 "I/O has not moved for %llu s since it was told to stop (a "
		 "device or server that does not answer); the report holds "
		 "what it did until then", rj->plan->o.name,
		 (unsigned long long)(idle_ns / 1000000000ull));
	rj->st->error = rj->res.error = ETIMEDOUT;
	job_finished(rj);
}

void *worker_main(void *arg)
{
	struct run_job *rj = arg;
	const struct job_options *o = &rj->plan->o;
	struct worker w;
	struct proc_job pj;
	struct strbuf err = STRBUF_INIT;
	int ret;

	__atomic_store_n(&rj->parked, stuck_thread_flag(), __ATOMIC_RELEASE);
	if (worker_begin(rj, &pj))
		return NULL;
	if (worker_setup(&w, rj)) {
		proc_job_end(rj->plan, &pj, 0);
		worker_teardown(&w);
		rj->res.error = rj->st->error;
		job_finished(rj);
		return NULL;
	}
	ret = o->pre_read ? fileopts_pre_read(rj->plan, rj->files, &err) : 0;
	prefault_stats(&w);
	if (o->exit_on_io_done) {
		pthread_mutex_lock(&rj->ctx->lock);
		io_done_check(rj->ctx);
		pthread_mutex_unlock(&rj->ctx->lock);
	}
	worker_start(&w);
	if (ret)	/* pre_read's, once the stats are reset */
		pre_read_failed(&w, -ret, &err);
	worker_pace_start(&w);

	worker_run(&w);
	if (w.file_op)
		worker_file_op_lat(&w);
	worker_end_stats(&w);
	w.end_stage = END_STATS;
	worker_finish_io(&w, &err);
	w.end_stage = END_FINISHED;
	strbuf_release(&err);
	worker_log_end(&w);
	w.end_stage = END_LOGGED;
	worker_result_fill(&w);
	w.end_stage = END_FILLED;
	proc_job_end(rj->plan, &pj, 1);
	worker_teardown(&w);
	job_finished(rj);
	return NULL;
}

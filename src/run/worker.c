/* SPDX-License-Identifier: MIT */
/*
 * The worker: one thread per job instance. The workload says what the next
 * I/O is, the engine does it, the worker times it and counts it. This file
 * has the I/O loops and everything they do per I/O; the passes and files
 * are in worker_files.c, the job's setup and teardown in worker_setup.c,
 * its faults in worker_err.c (worker_int.h says what crosses between
 * them).
 *
 * The I/O loop follows design.md's hot-path rules: it touches only this
 * worker's memory (io_u array, free list, stats), allocates nothing, calls
 * no stdio and makes no syscall but the engine's; the clock is read once
 * per submit batch and once per reap batch. Two loops are chosen once at
 * start: one for engines that complete inline (sync engines: one clock
 * read per I/O, shared by the completion of one I/O and the issue of the
 * next) and one for queueing engines.
 */
#include "run/worker_int.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "machine/clock.h"
#include "proc/prio.h"
#include "run/iolog_write.h"
#include "run/lattarget.h"
#include "run/overlap.h"
#include "run/pace.h"
#include "run/stall.h"
#include "run/wfiles.h"
#include "stats/log.h"
#include "util/log.h"
#include "verify/async.h"
#include "verify/verify.h"
#include "workload/buffer.h"
#include "workload/workload.h"
#include "zbd/zbd.h"

/*
 * Write buffer contents (workload/buffer.h has fio's rules): verify's blocks,
 * new contents, a scrambled buffer or the buffer as it is.
 */
static inline void prep_write(struct worker *w, struct io_u *u)
{
	if (w->vf) {
		verify_prep_write(w->vf, u);
		return;
	}
	if (w->wmode == BUF_SCRAMBLE)
		buffer_scramble(u->buf, u->len, u->offset, w->nr_writes++,
				w->scramble_key);
	else if (w->wmode == BUF_REFILL)
		buffer_fill_write(w->bfill, u->buf, u->len);
}

/* faults and short transfers: run/worker_err.c (verify/fault.h's policy) */

static int drain(struct worker *w);
static int commit_batch(struct worker *w, unsigned int queued, uint64_t t0,
			unsigned int wait);

/* The zones could not be read or reset: the job stops with the error. */
static __attribute__((cold)) int zoned_fail(struct worker *w)
{
	struct run_job *rj = w->rj;

	w->st->error = EIO;
	if (!rj->errmsg[0])
		snprintf(rj->errmsg, sizeof(rj->errmsg), "%s",
			 zbd_errmsg(w->zbd));
	rj->stop = 1;
	return 1;
}

/*
 * What the current batch of loop_async() queued is committed, then
 * everything in flight completes (fio's io_u_quiesce()). Non-zero: the
 * job stops.
 */
static int quiesce(struct worker *w)
{
	if (w->zq) {
		unsigned int n = w->zq;

		w->zq = 0;
		if (commit_batch(w, n, w->zt0, 0))
			return 1;
	}
	return drain(w);
}

/*
 * zonemode=zbd: the I/O fitted to the zones (zbd/zbd.h); a full zone is
 * reset once what is in flight has completed, as fio does, and a zone
 * another job writes to (or the open-zone limit) is waited for. 1: the
 * pass ends (nothing fits), or the job stops on an error.
 */
static int next_zoned(struct worker *w, struct io_u *u)
{
	/* a read-back is of where the data went: fio leaves it as it is */
	if (w->vf && verify_reading(w->vf))
		return 0;
	for (;;) {
		switch (zbd_adjust(w->zbd, u)) {
		case ZBD_OK:
			workload_moved(w->wl, u);
			return 0;
		case ZBD_END:
			return 1;
		case ZBD_SKIP:
			workload_skip(w->wl, u);
			if (workload_next(w->wl, u))
				return 1;
			continue;
		case ZBD_RESET:
			if (quiesce(w))
				return 1;
			if (!zbd_reset(w->zbd, u))
				continue;
			return zoned_fail(w);
		case ZBD_WAIT:
			if (quiesce(w) || engine_stopping(w->e))
				return 1;
			zbd_wait(w->zbd, u);
			continue;
		case ZBD_FAIL:
			return zoned_fail(w);
		}
	}
}

static int sync_due(const struct worker *w);

/*
 * io_size's wrap, before the new sweep's first I/O (chosen, not issued):
 * as at fio's loop end, what is in flight completes and the sync fsync=N
 * has due is made (on the last write's file), then worker_wrap().
 * Non-zero: the job stops.
 */
static __attribute__((noinline)) int wrap_files(struct worker *w)
{
	int d = 0;

	if (quiesce(w))
		return 1;
	if (w->sync_any)
		d = sync_due(w);
	if (d && worker_do_sync(w, (enum ddir)d, w->sync_file))
		return 1;
	return worker_wrap(w) != 0;
}

/*
 * After the next I/O was chosen: openfiles' opens and closes, the cache
 * of a file started over dropped, the I/O's file opened. 1: a file that
 * cannot be opened stops the job (next_pass).
 */
static __attribute__((noinline)) int next_io_extra(struct worker *w,
						   struct io_u *u)
{
	if (w->wraps && workload_take_wrap(w->wl) && wrap_files(w))
		return 1;
	if (w->file_events)
		worker_file_events(w);
	if (w->drop_invalidate)
		worker_drop_restarted(w);
	if (w->lazy_open && worker_lazy_open(w, u->file))
		return 1;
	if (w->zoned)
		return next_zoned(w, u);
	return 0;
}

static __attribute__((noinline)) int next_io_slow(struct worker *w,
						  struct io_u *u)
{
	int ret = w->vf ? verify_next(w->vf, u) : workload_next(w->wl, u);

	if (!ret && (w->file_events | w->lazy_open | w->drop_invalidate |
		     w->zoned | w->wraps))
		return next_io_extra(w, u);
	return ret;
}

/* The next I/O: the workload's, or verification's when the job verifies. */
static inline int next_io(struct worker *w, struct io_u *u)
{
	if (likely(!w->next_extra))
		return workload_next(w->wl, u);
	return next_io_slow(w, u);
}

/*
 * next_io() in loop_async(), whose batch has *queued I/Os not committed
 * yet (queued at t0): zbd commits them before it waits (quiesce()), so
 * the slow path hands them over and back, by value (the fast path keeps
 * them in registers).
 */
static inline int next_io_batch(struct worker *w, struct io_u *u,
				unsigned int *queued, uint64_t t0)
{
	int ret;

	if (likely(!w->next_extra))
		return workload_next(w->wl, u);
	w->zq = *queued;
	w->zt0 = t0;
	ret = next_io_slow(w, u);
	*queued = w->zq;
	w->zq = 0;
	return ret;
}

/* --- logs and reports while the run goes on (run/runner.c) ----------- */

/* Per-I/O completion extras: logs, co_lat (after either changes) */
static void worker_set_io_hook(struct worker *w)
{
	w->io_hook = log_job_per_io(w->log) || w->co || w->dbg_io;
	w->log_only = log_job_rec_only(w->log) && !w->lat_on && !w->vf &&
		      !w->co && !w->prio && !w->dbg_io;
}

/* Counting starts (the end of ramp_time): so does logging. */
static void worker_log_start(struct worker *w)
{
	unsigned int valid = 0;

	if (!w->rj->log)
		return;
	if (w->lat_on || w->lat_from_clat)
		valid |= LOGV_LAT;
	if (w->clat_on)
		valid |= LOGV_CLAT;
	/* an I/O that completes inline was never queued: no slat, as fio */
	if (w->slat_on && !w->inline_engine)
		valid |= LOGV_SLAT;
	log_job_start(w->rj->log, w->now, w->st, valid);
	w->log = w->rj->log;
	worker_set_io_hook(w);
}

/*
 * u's direction and priority as the log takes them (log_dp()): on a
 * little-endian machine one load, the io_u's ddir, prio_idx and ioprio
 * being one word (prio_idx masked off).
 */
static inline uint32_t io_dp(const struct io_u *u)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t w;

	_Static_assert(offsetof(struct io_u, ioprio) ==
		       offsetof(struct io_u, ddir) + 2, "ddir, prio_idx, ioprio");
	memcpy(&w, &u->ddir, sizeof(w));
	return w & 0xffff00ffu;
#else
	return log_dp(u->ddir, u->ioprio);
#endif
}

/*
 * One completed I/O into the log records and the co_lat stats (rated
 * jobs), inside complete_more(), which is out of line: a per-I/O log
 * record is a few stores, one call more would double its cost.
 */
static inline __attribute__((always_inline)) void
worker_log_io(struct worker *w, const struct io_u *u, uint64_t now)
{
	if (w->log)
		log_io(w->log, io_dp(u), u->len, u->offset, u->start_time,
		       u->issue_time, now);
	if (w->co)
		pace_done(w->co, u, now);
	if (unlikely(w->dbg_io))
		iolog_writer_dbg(w->iolog, "complete", u);
}

/*
 * The job's I/O is over: the last log windows close. The time the job
 * waited for the log writer goes to the report.
 */
void worker_log_end(struct worker *w)
{
	if (w->log) {
		log_job_end(w->log, w->now);
		w->rj->res.logs = w->log->any_file;
		w->rj->res.log_wait_ns = w->log->wait_ns;
		w->rj->res.log_dropped = atomic_load(&w->log->dropped);
	}
	w->log = NULL;
}

/*
 * A report while the run goes on (SIGUSR1, --status-interval) wants this
 * job's stats. The worker copies them itself, between two batches, so
 * the copy is consistent (no histogram or Welford half-updated) and the
 * I/O path takes no lock: the cost is two relaxed loads per batch, and
 * the copy when asked.
 */
static __attribute__((noinline, cold)) void worker_snapshot(struct worker *w)
{
	struct run_job *rj = w->rj;
	unsigned int gen = atomic_load_explicit(&rj->ctx->snap_gen,
						memory_order_acquire);
	struct rusage ru;

	if (rj->snap) {
		memcpy(rj->snap, w->st, sizeof(*w->st));
		getrusage(RUSAGE_THREAD, &ru);
		timersub(&ru.ru_utime, &w->ru_start.ru_utime,
			 &rj->snap_ru.ru_utime);
		timersub(&ru.ru_stime, &w->ru_start.ru_stime,
			 &rj->snap_ru.ru_stime);
		rj->snap_ru.ru_nvcsw = ru.ru_nvcsw - w->ru_start.ru_nvcsw;
		rj->snap_ru.ru_nivcsw = ru.ru_nivcsw - w->ru_start.ru_nivcsw;
		rj->snap_ru.ru_majflt = ru.ru_majflt - w->ru_start.ru_majflt;
		rj->snap_ru.ru_minflt = ru.ru_minflt - w->ru_start.ru_minflt;
		rj->snap_ns = clock_now_ns();
		rj->snap_start_ns = rj->run_start_ns;
		rj->snap_counting = atomic_load_explicit(&rj->state,
				memory_order_relaxed) == WS_RUNNING;
		/* the open phase counts as far as it got */
		stats_runtime_add(rj->snap, w->run_dirs, w->in_verify,
				  rj->snap_ns - w->phase_ns);
	}
	w->snap_seen = gen;
	atomic_store_explicit(&rj->snap_done, gen, memory_order_release);
}

static inline void worker_poll_snapshot(struct worker *w)
{
	if (unlikely(atomic_load_explicit(&w->rj->ctx->snap_gen,
					  memory_order_relaxed) != w->snap_seen))
		worker_snapshot(w);
}

/*
 * The rest of a completion, out of line: lat (queueing engines), the
 * io_hook (logs, co_lat), verification. done_more says whether the job
 * has lat or verification at all: one test per I/O for both.
 */
static __attribute__((noinline)) int complete_all(struct worker *w,
						  struct io_u *u, uint64_t now)
{
	if (w->lat_on) {
		struct dir_stats *ds = &w->st->dir[u->ddir];
		uint64_t lat = now - u->start_time;

		moments_add(&ds->lat, lat);
		hist_add(&ds->lat_hist, lat);
	}
	if (w->prio)
		prio_stats_add(w->prio, u->ddir, u->prio_idx, now -
			       (w->prio->total ? u->start_time : u->issue_time));
	if (unlikely(w->io_hook))
		worker_log_io(w, u, now);
	if (w->vf) {
		int ret = verify_complete(w->vf, u);

		if (likely(!ret))
			return 0;
		if (ret == VERIFY_QUEUED) {
			/* the checker threads have u: off the free list */
			if (w->freel[--w->nr_free] != u->index)
				BUG("verify_async: io_u %u not on top", u->index);
			return 0;
		}
		return worker_io_error(w, u, EILSEQ, FAULT_VERIFY,
				verify_errmsg(w->vf));
	}
	return 0;
}

/*
 * verify_async: the checks done, in the order they were handed over;
 * their io_us come back to the free list. wait: block for the next one.
 * Non-zero: a failed check stops the job.
 */
static __attribute__((noinline)) int worker_verify_reap(struct worker *w,
							 bool wait)
{
	unsigned int i;
	const char *msg;
	int ret, stop = 0;

	while (verify_async_reap(w->va, wait, &i, &ret, &msg)) {
		w->freel[w->nr_free++] = i;
		if (ret && !stop)
			stop = worker_io_error(w, &w->ios[i], ret, FAULT_VERIFY, msg);
		wait = false;
	}
	return stop;
}

static __attribute__((noinline)) int complete_more(struct worker *w,
						   struct io_u *u,
						   uint64_t now)
{
	/* a per-I/O log record and nothing else: tail calls, no frame */
	if (w->log_only)
		return log_io_rec(w->log, io_dp(u), u->len, u->offset,
				  u->start_time, u->issue_time, now);
	return complete_all(w, u, now);
}

/* The common completion: a read, write or trim that moved all its bytes. */
static inline __attribute__((always_inline)) int
complete_count(struct worker *w, struct io_u *u, uint64_t now)
{
	struct worker_stats *st = w->st;
	struct dir_stats *ds = &st->dir[u->ddir];

	ds->ios++;
	ds->bytes += u->len;	/* resid is 0: shorts went to complete_rare() */
	if (w->clat_on)
		stats_clat_add(st, ds, now - u->issue_time);
	/* the sampler's live counters: publish_live(), once per batch */
	if (unlikely(w->done_more | w->io_hook))
		return complete_more(w, u, now);
	return 0;
}

/*
 * The engine has nothing more to do (engine.h's ENGINE_ERR_END: the
 * network peer closed, the program of an exec job has ended): the job
 * ends here without an error, and that I/O does not count.
 */
static __attribute__((noinline, cold)) int engine_end(struct worker *w,
						      struct io_u *u)
{
	w->st->issued[issued_slot(u->ddir)]--;
	if (w->inline_engine)
		w->inline_ios--;
	return 1;
}

/*
 * A completion event that moved no bytes (a read at or past the end of
 * the file, with libaio, io_uring or posixaio): fio takes it as done,
 * without an error, the I/O counted with what its earlier pieces moved.
 * Only an I/O that completed in queue() (fio's synchronous path) makes
 * it an EIO (short_xfer()).
 */
static __attribute__((noinline, cold)) int complete_empty(struct worker *w,
							  struct io_u *u,
							  uint64_t now)
{
	uint32_t done = w->xfer_done[u->index];

	if (done)
		short_restore(w, u);
	u->len = done;
	u->resid = 0;
	return complete_count(w, u, now);
}

/*
 * zbd_done() failed: recover_zbd_write_error could not move the write
 * pointer past u, a failed write (u's error counts as any other, and
 * the job stops with it whatever continue_on_error says, as fio's), or
 * the zone u left a tail in could not be finished.
 */
static __attribute__((noinline, cold)) int zoned_unrecovered(struct worker *w,
							     struct io_u *u)
{
	int err = u->error;

	if (!err)	/* the zone finish after a write that did not fail */
		return zoned_fail(w);
	worker_io_error(w, u, err, FAULT_WRITE, NULL);
	if (!w->st->error)
		w->st->error = err;
	snprintf(w->rj->errmsg, sizeof(w->rj->errmsg), "job '%s': %s",
		 w->p->o.name, zbd_errmsg(w->zbd));
	w->rj->stop = 1;
	return 1;
}

/*
 * Out of line: fsync/fdatasync, errors, short transfers and their pieces.
 * ev: u came back as a completion event (reap()), not from queue().
 */
static __attribute__((noinline)) int complete_rare(struct worker *w,
						   struct io_u *u,
						   uint64_t now, bool ev)
{
	struct worker_stats *st = w->st;
	unsigned int d = u->ddir;
	uint64_t clat = now - u->issue_time;

	/* a zbd write's zone let go: complete or failed, not a piece */
	if (w->zbd && d == DDIR_WRITE &&
	    !(u->resid && !u->error && u->resid < u->len) &&
	    zbd_done(w->zbd, u))
		return zoned_unrecovered(w, u);
	if (unlikely(u->error == ENGINE_ERR_END))
		return engine_end(w, u);

	if (w->wf)
		wfiles_done(w->wf, u);	/* before a short one's rest is queued */
	if (d >= DDIR_RWDIR_CNT) {
		if (w->quiet_sync)	/* fio counts no end_fsync */
			return u->error ? worker_io_error(w, u, u->error, FAULT_WRITE,
						   NULL) : 0;
		st->sync_ios++;
		moments_add(&st->sync_lat, clat);
		hist_add(&st->sync_hist, clat);
		if (unlikely(u->error))
			return worker_io_error(w, u, u->error, FAULT_WRITE, NULL);
		return 0;
	}
	if (u->error) {
		/*
		 * fio logged its slat when it queued it (LOGV_SLAT's rule).
		 * Not kernel AIO's: an iocb io_submit refuses (EINVAL on
		 * /dev/full) comes back here as an event, though fio never
		 * queued it (one that fails once queued lacks the line)
		 */
		if (ev && w->log && w->slat_on && !w->inline_engine &&
		    !(w->ops->flags & ENGINE_F_AIO_CTX))
			log_io_failed(w->log, io_dp(u), u->len, u->offset,
				      u->start_time, u->issue_time);
		return worker_io_error(w, u, u->error, fault_class_of(d), NULL);
	}
	if (u->resid) {
		if (ev && u->resid == u->len)
			return complete_empty(w, u, now);
		return worker_short_xfer(w, u) < 0;
	}
	if (w->xfer_done[u->index])
		short_restore(w, u);
	return complete_count(w, u, now);
}

/* Anything but a whole read, write or trim: complete_rare()'s. */
static inline bool complete_is_rare(const struct worker *w,
				    const struct io_u *u)
{
	return (u->ddir >= DDIR_RWDIR_CNT) | (u->error != 0) |
	       (u->resid != 0) | (w->nr_split != 0);	/* (and wf) */
}

/*
 * Returns non-zero when the job must stop because of this I/O's error.
 * One test sends everything but a whole read, write or trim out of line.
 * The caller has put u back on the free list (loop_sync has no list).
 */
static inline __attribute__((always_inline)) int
complete(struct worker *w, struct io_u *u, uint64_t now, bool ev)
{
	if (unlikely(complete_is_rare(w, u)))
		return complete_rare(w, u, now, ev);
	return complete_count(w, u, now);
}

void worker_reset_stats(struct worker *w)
{
	worker_stats_reset(w->st);
	w->sync_wr = 0;		/* the write count starts again */
	if (w->rj->iowq) {
		iowq_scan(w->rj->iowq);
		w->rj->iowq_base_ns = iowq_total_ns(w->rj->iowq);
	}
	getrusage(RUSAGE_THREAD, &w->ru_start);
	w->rj->delay0_ns = stall_delay_ns(0);
	w->rj->run_start_ns = w->now;
	w->phase_ns = w->now;
	if (!w->log)	/* latency_target restarts the stats, not the logs */
		worker_log_start(w);
	atomic_store(&w->rj->state, WS_RUNNING);
}

/* The sampler's view of the counts: stored once per batch, not per I/O. */
static inline void publish_live(struct worker *w)
{
	struct worker_stats *st = w->st;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		atomic_store_explicit(&st->live_bytes[d], st->dir[d].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&st->live_ios[d], st->dir[d].ios,
				      memory_order_relaxed);
	}
	/* steady state on latency, and the pictures' latency over time */
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		atomic_store_explicit(&st->live_clat_n[d], st->dir[d].clat.n,
				      memory_order_relaxed);
		atomic_store_explicit(&st->live_clat_sum[d],
				      st->dir[d].clat.sum,
				      memory_order_relaxed);
	}
}

static int worker_lat_check(struct worker *w);

/*
 * ramp_size (fio 3.42): the job's bytes so far (every direction), or
 * with group_reporting its group's, reach it. Checked once per batch
 * while the job ramps.
 */
static __attribute__((noinline)) bool ramp_size_done(struct worker *w)
{
	uint64_t b = 0;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		b += w->st->dir[d].bytes;
	if (w->ramp_group) {
		atomic_fetch_add_explicit(w->ramp_group, b - w->ramp_told,
					  memory_order_relaxed);
		w->ramp_told = b;
		b = atomic_load_explicit(w->ramp_group, memory_order_relaxed);
	}
	return b >= w->ramp_bytes;
}

/* A ramp by bytes ended: the runtime starts now (the pace's end too). */
static void ramp_ends(struct worker *w)
{
	const struct job_options *o = &w->p->o;

	/* the engine's requests count from here too, as the I/Os */
	if (w->e && w->ops->reqstats)
		free(w->ops->reqstats(w->e));
	if (!w->ramp_bytes || !o->runtime_us)
		return;
	w->end_ns = w->now + o->runtime_us * 1000;
	pace_set_end(w->pace, w->end_ns);
}

/* Once-per-batch checks: stop, ramp end, runtime. Non-zero = stop. */
static inline int check_time(struct worker *w)
{
	publish_live(w);
	if (unlikely(w->rj->ctx->stop | w->rj->stop))
		return 1;
	if (unlikely(w->lt) && worker_lat_check(w))
		return 1;
	worker_poll_snapshot(w);
	if (unlikely(w->ramping) && (w->now >= w->ramp_end_ns ||
				      (w->ramp_bytes && ramp_size_done(w)))) {
		w->ramping = 0;
		ramp_ends(w);
		worker_reset_stats(w);
	}
	return w->end_ns && w->now >= w->end_ns;
}

/*
 * Completions of one reap that share their direction, start and issue
 * time (the I/Os of one submit batch: one clock read each side, design.md
 * rule 4) have the same clat and lat: their statistics are added once,
 * k at a time, with the same figures as one by one.
 */
struct done_run {
	struct dir_stats *ds;
	uint64_t start, issue;
	uint32_t n;
};

static void done_run_flush(struct worker *w, struct done_run *r, uint64_t now)
{
	if (!r->n)
		return;
	if (w->clat_on)
		stats_clat_add_n(w->st, r->ds, now - r->issue, r->n);
	if (w->lat_on) {
		moments_add_n(&r->ds->lat, now - r->start, r->n);
		hist_add_n(&r->ds->lat_hist, now - r->start, r->n);
	}
	r->n = 0;
}

/*
 * complete() for a whole read, write or trim of a job whose completion
 * is counts and latencies only (no verify, priorities, per-I/O logs):
 * counted now, its latencies added with its run's. False: not such a
 * completion, complete() has it.
 */
static inline bool done_batched(struct worker *w, struct done_run *r,
				struct io_u *u, uint64_t now)
{
	struct dir_stats *ds;

	if (unlikely(complete_is_rare(w, u)))
		return false;
	ds = &w->st->dir[u->ddir];
	ds->ios++;
	ds->bytes += u->len;
	if (r->n && ds == r->ds && u->issue_time == r->issue &&
	    u->start_time == r->start) {
		r->n++;
		return true;
	}
	done_run_flush(w, r, now);
	r->ds = ds;
	r->start = u->start_time;
	r->issue = u->issue_time;
	r->n = 1;
	return true;
}

/*
 * Returns how many completed, -1 when one of them stops the job (all of
 * them are still accounted for), -2 when reaping itself failed.
 */
static int reap(struct worker *w, unsigned int min)
{
	struct done_run run = { .n = 0 };
	unsigned int refused;
	bool batch;
	int i, n, stop = 0;

	w->e->nr_refused = 0;
	n = w->ops->getevents(w->e, min,
			      w->inflight < w->complete_max ? w->inflight :
			      w->complete_max, NULL);
	w->now = clock_now_ns();
	if (n < 0) {
		if (n == -EINTR || n == -EAGAIN)
			return 0;
		if (w->st->error)
			return -2;	/* stopped already: that error stands */
		w->st->error = -n;
		snprintf(w->rj->errmsg, sizeof(w->rj->errmsg),
			 "job '%s': reaping completions failed: %s",
			 w->p->o.name, strerror(-n));
		return -2;
	}
	if (n > 0) {
		unsigned int k = (unsigned int)n;

		w->st->complete[submit_index(k)]++;
		w->st->complete_calls++;
		w->inflight -= k;
	}
	refused = w->e->nr_refused;
	w->in_event = !refused;
	batch = !(w->vf || w->prio || w->io_hook || w->log_only);
	for (i = 0; i < n; i++) {
		struct io_u *u = w->ops->event(w->e, (unsigned int)i);

		w->freel[w->nr_free++] = u->index;
		if (unlikely(w->ovl))
			overlap_done(w->ovl, u);
		if (unlikely(refused) && (unsigned int)i == refused)
			w->in_event = true;
		if (likely(batch) && done_batched(w, &run, u, w->now))
			continue;
		done_run_flush(w, &run, w->now);
		if (complete(w, u, w->now, true))
			stop = 1;
	}
	done_run_flush(w, &run, w->now);
	w->in_event = false;
	return stop ? -1 : n;
}

/* Waits for everything in flight, errors or not (-1 after any). */
static int drain(struct worker *w)
{
	int ret = 0, r;

	while (w->inflight) {
		r = reap(w, 1);
		if (r == -2)
			return -1;
		if (r < 0)
			ret = -1;
	}
	return ret;
}

int worker_drain(struct worker *w)
{
	return drain(w);
}

static int worker_quiesce(void *arg)
{
	return drain(arg);
}

/* Whether u waits for the pace: verify read-backs do not, as in fio. */
static inline bool paced(struct worker *w, struct io_u *u)
{
	if (w->vf && verify_reading(w->vf)) {
		pace_skip(w->pace, u);
		return false;
	}
	return true;
}

/* Rate, think time, flows: the pace, when the job has one (pace.h). */
void worker_pace_start(struct worker *w)
{
	struct run_job *rj = w->rj;
	struct pace_env env = {
		.plan = w->p, .st = w->st, .wl = w->wl,
		.flows = rj->ctx->flows,
		.job = (unsigned int)(rj - rj->ctx->jobs),
		.nr_io_u = w->depth + 1,
		.quiesce = worker_quiesce, .arg = w,
		.stop = &rj->ctx->stop, .job_stop = &rj->stop,
		.now = w->now, .end_ns = w->end_ns,
		.count_ns = w->ramping && w->ramp_end_ns != UINT64_MAX ?
			    w->ramp_end_ns : w->now,
		.errmsg = rj->errmsg, .errmsg_size = sizeof(rj->errmsg),
	};

	pace_init(&w->pace, &env);
	w->co = pace_records(w->pace) ? w->pace : NULL;
	worker_set_io_hook(w);
}

/* latency_target, max_latency: run/lattarget.c decides, between batches */
static __attribute__((noinline)) int worker_lat_check(struct worker *w)
{
	int act = lat_target_check(w->lt, w->rj, w->st, w->now);

	if ((act & LT_STOP) || !act)
		return act;
	if ((act & LT_DRAIN) && drain(w))
		return 1;
	if ((act & LT_RESET) && !w->ramping)
		worker_reset_stats(w);
	lat_target_apply(w->lt, w->st, w->now, w->freel, &w->nr_free);
	return 0;
}

/*
 * sync_file_range's range: what the file's writes covered since its last
 * sync, as fio tracks it; false when nothing was written (fio makes no
 * call then). A range of 4 GiB or more does not fit the io_u's length:
 * it goes as length 0, the kernel's "to the end of the file".
 */
static bool sfr_set_range(struct worker *w, struct io_u *u)
{
	const uint64_t *r = &w->sfr_range[2 * u->file];

	if (r[1] <= r[0])
		return false;
	u->offset = r[0];
	u->len = r[1] - r[0] > UINT32_MAX ? 0 : (uint32_t)(r[1] - r[0]);
	return true;
}

/* fsync / fdatasync / sync_file_range of one file, after a drain. */
int worker_do_sync(struct worker *w, enum ddir d, unsigned int file)
{
	struct io_u *u = &w->ios[w->depth];
	enum engine_q q;

	if (drain(w))
		return -1;
	/* a file not opened yet (or brought in by openfiles) opens now */
	if (unlikely(!fcycle_is_open(&w->fc, file)) &&
	    worker_lazy_open(w, file))
		return -1;
	u->ddir = (uint8_t)d;
	u->file = file;
	u->offset = 0;
	u->len = 0;
	u->resid = 0;
	u->error = 0;
	if (!w->quiet_sync)
		w->st->issued[DDIR_RWDIR_CNT]++;
	u->start_time = u->issue_time = w->now = clock_now_ns();
	if (unlikely(w->iolog))
		iolog_writer_io(w->iolog, u, w->now);	/* fio: length 0 */
	if (w->sfr_range) {
		bool none = d == DDIR_SYNC_FILE_RANGE && !sfr_set_range(w, u);

		worker_sfr_reset(w, file);	/* any sync, as fio */
		if (none)
			goto done;
	}
	q = w->ops->queue(w->e, u);
	if (q == ENGINE_Q_QUEUED) {
		if (w->ops->commit)
			w->ops->commit(w->e);
		w->inflight++;
		/* reap() pushes the sync slot on the free list: undo */
		if (reap(w, 1) < 0)
			return -1;
		while (w->inflight && reap(w, 1) >= 0)
			;
		w->nr_free--;
		if (w->st->error)
			return -1;
		worker_synced(w);
		return 0;
	}
done:
	w->now = clock_now_ns();
	if (complete(w, u, w->now, false))
		return -1;
	worker_synced(w);
	return 0;
}

/*
 * fsync=N, fdatasync=N: before an I/O is issued, the job syncs when the
 * writes it issued so far are a non-zero multiple of N it has not
 * synced at yet, and it issued anything since its last sync or the
 * start of the loop (fcycle_unsynced()). No sync follows the job's last
 * write (16 writes, fsync=4: 3 syncs), the end of a loop that another
 * follows gets one (new_loop()), and the next loop may begin with one,
 * as in fio 3.33. Only writes count, as the HOWTO says ("sync the file
 * after every 32 writes issued"): fio 3.33 makes the same multiple due
 * again after a read ("sync, read, sync": 33 syncs for 35 writes with
 * fsync=2 on randrw, fio 3.42 17). sync_file_range=flags:N counts the
 * same way. Returns DDIR_SYNC, DDIR_DATASYNC, DDIR_SYNC_FILE_RANGE or 0.
 */
static int sync_due(const struct worker *w)
{
	uint64_t wr = w->st->issued[DDIR_WRITE];

	if (!wr || wr == w->sync_wr || !fcycle_unsynced(&w->fc))
		return 0;
	if (w->fsync_n && wr % w->fsync_n == 0)
		return DDIR_SYNC;
	if (w->fdatasync_n && wr % w->fdatasync_n == 0)
		return DDIR_DATASYNC;
	if (w->sfr_n && wr % w->sfr_n == 0)
		return DDIR_SYNC_FILE_RANGE;
	return 0;
}

/*
 * The sync due before an I/O just chosen: none before verify's reads. In
 * fio a verify_backlog round comes before the sync that is due (which
 * follows the round), and the read-back phase makes no fsync=N syncs.
 */
static inline int sync_due_before(const struct worker *w)
{
	if (w->vf && verify_reading(w->vf))
		return 0;
	return sync_due(w);
}

/*
 * A write about to be issued, after the sync due before it: its file is
 * the one a loop's end syncs, and sync_file_range's range grows by it.
 */
static inline void sync_note_write(struct worker *w, const struct io_u *u)
{
	uint64_t *r;

	w->sync_file = u->file;
	if (!w->sfr_range)
		return;
	r = &w->sfr_range[2 * u->file];
	if (u->offset < r[0])
		r[0] = u->offset;
	if (u->offset + u->len > r[1])
		r[1] = u->offset + u->len;
}

/*
 * The sync due before the next I/O is chosen, and its file: in fio it
 * takes an I/O's place, so it takes that I/O's turn in the file service
 * (workload_sync_file()). 0 when none is due, or when the next I/O must
 * say the file (then sync_inline() or sync_async() sync u's file), or
 * is verify's read-back (the sync waits for the workload's next I/O).
 */
static inline int sync_turn_due(struct worker *w, unsigned int *file)
{
	int d = sync_due(w);

	if (!d || (w->vf && verify_round_due(w->vf)))
		return 0;
	*file = workload_sync_file(w->wl, false);
	return *file == UINT_MAX ? 0 : d;
}

/* The inline loop's sync_turn_due(). Non-zero: stop. */
static __attribute__((noinline)) int sync_turn(struct worker *w)
{
	unsigned int file;
	int d = sync_turn_due(w, &file);

	return d && worker_do_sync(w, (enum ddir)d, file);
}

/*
 * The inline loop's due sync, before u (just chosen, not issued) goes:
 * to u's file, as fio syncs the file its next I/O takes. Non-zero: stop.
 */
static __attribute__((noinline)) int sync_inline(struct worker *w,
						 const struct io_u *u)
{
	int d = sync_due_before(w);

	if (d && worker_do_sync(w, (enum ddir)d, u->file))
		return 1;
	if (u->ddir == DDIR_WRITE)
		sync_note_write(w, u);
	return 0;
}

/*
 * The inline loop's batch boundary, at most INLINE_CHECK_NS apart: the
 * I/Os since the last one are added to the depth, submit and complete
 * distributions (each was a batch of one), then check_time(). Returns
 * when the next one is due, 0 to stop.
 */
#define INLINE_CHECK_NS 50000

static void loop_sync_fold(struct worker *w)
{
	struct worker_stats *st = w->st;
	uint64_t k = w->inline_ios;

	st->depth[1] += k;
	w->inline_ios = 0;
	if (!w->inline_calls)
		return;
	st->submit[1] += k;
	st->submit_calls += k;
	st->complete[1] += k;
	st->complete_calls += k;
}

static __attribute__((noinline)) uint64_t loop_sync_tick(struct worker *w)
{
	uint64_t next;

	loop_sync_fold(w);
	if (unlikely(w->file_op))
		worker_file_op_lat(w);
	if (check_time(w))
		return 0;
	next = w->now + INLINE_CHECK_NS;
	if (w->end_ns && w->end_ns < next)
		next = w->end_ns;
	if (w->ramping && w->ramp_end_ns < next)
		next = w->ramp_end_ns;
	return next ? next : 1;
}

/*
 * The coarse clock of loop_sync_run(): read every stride I/Os, the stride
 * doubled while that many take under an eighth of INLINE_CHECK_NS and
 * halved past half of it (at most COARSE_STRIDE_MAX: fio's gtod_reduce
 * reads the time for about 0.4% of the I/Os). Returns the next stride.
 */
#define COARSE_STRIDE_MAX 256

static __attribute__((noinline)) unsigned int coarse_clock(struct worker *w,
							  unsigned int stride)
{
	uint64_t now = clock_now_ns(), d = now - w->now;

	w->now = now;
	if (d < INLINE_CHECK_NS / 8 && stride < COARSE_STRIDE_MAX)
		return stride * 2;
	if (d > INLINE_CHECK_NS / 2 && stride > 1)
		return stride / 2;
	return stride;
}

/*
 * Engines that complete inline: issue, time, count, repeat. The checks
 * of check_time() wait for loop_sync_tick(): one comparison per I/O.
 * coarse (a constant: two copies of the loop): nothing needs an I/O's
 * own time (gtod_reduce=1 and no log, pace, hook or latency target), so
 * the clock is read every few I/Os by coarse_clock(), not after each:
 * on a CPU where a time-stamp read waits for the copy before it (mmap's
 * rep movsb), that read is a third of a 4k copy's cost (performance.md).
 */
static inline __attribute__((always_inline)) void
loop_sync_run(struct worker *w, const bool coarse)
{
	struct io_u *u = &w->ios[0];
	struct worker_stats *st = w->st;
	uint64_t next_check = 0;
	unsigned int left = 1, stride = 1;
	/* per-I/O extras below: one test for a job that has none of them */
	const bool hooks = w->p->writes || w->pace || w->iolog ||
			   w->sync_any || w->wf;

	for (;;) {
		if (unlikely(w->now >= next_check)) {
			next_check = loop_sync_tick(w);
			if (!next_check)
				break;
		}
		/* one test for the rest of a short I/O and a sync's turn */
		if (unlikely(w->nr_requeue | w->sync_any)) {
			if (w->nr_requeue) {
				w->nr_requeue = 0;	/* the rest of a short one */
				goto issue;
			}
			if (sync_turn(w))
				break;
		}
		if (next_io(w, u)) {
			if (unlikely(w->sync_any))
				w->end_sync = sync_due(w);
			if (!worker_next_pass(w))
				break;
			continue;
		}
		if (!hooks)
			goto issue;
		if (unlikely(w->sync_any) && sync_inline(w, u))
			break;
		if (u->ddir == DDIR_WRITE)
			prep_write(w, u);
		if (unlikely(w->pace) && paced(w, u) &&
		    pace_io(w->pace, u, &w->now))
			break;
		/* (a file openfiles brings in opens first, as fio logs) */
		if (unlikely(w->wf))
			wfiles_hold(w->wf, u, 0);	/* may wait */
		if (unlikely(w->iolog))
			iolog_writer_io(w->iolog, u, w->now);
issue:
		st->issued[issued_slot(u->ddir)]++;
		w->inline_ios++;
		u->start_time = u->issue_time = w->now;
		w->ops->queue(w->e, u);
		if (!coarse)
			w->now = clock_now_ns();
		else if (!--left)
			left = stride = coarse_clock(w, stride);
		if (complete(w, u, w->now, false))
			break;
		w->nr_free = 0;
	}
}

/* Which time nothing of the job needs per I/O: loop_sync_run()'s coarse. */
static bool loop_sync_coarse(const struct worker *w)
{
	return !w->clat_on && !w->lat_on && !w->lat_from_clat &&
	       !w->done_more && !w->io_hook && !w->file_op && !w->ss_lat &&
	       !w->lt && !w->log && !w->pace && !w->iolog && !w->sync_any &&
	       !w->wf;
}

static void loop_sync(struct worker *w)
{
	w->done_more = w->lat_on || w->vf || w->prio;
	w->nr_free = 0;	/* the one io_u is always ours */
	if (loop_sync_coarse(w))
		loop_sync_run(w, true);
	else
		loop_sync_run(w, false);
	loop_sync_fold(w);	/* the last I/Os' distributions */
	publish_live(w);
}

/*
 * How many completions the commit of the batch loop_async() filled should
 * wait for in the same system call (0: none). Only when the worker would
 * wait right after it: the batch filled the queue and nothing is left to
 * retry (not before a pause of the pace or a sync, which commit first).
 * Then the submission cannot be timed apart from the wait: slat is the
 * worker's own time up to the system call, and the call's time counts
 * in clat (lat, start to completion, is the same either way).
 */
static inline unsigned int commit_waits(struct worker *w)
{
	unsigned int min;

	if (!w->submit_wait || w->nr_free || w->retry >= 0 ||
	    w->nr_requeue)
		return 0;
	min = w->complete_min;
	return min < w->inflight ? min : w->inflight;
}

/*
 * Commits what the current batch queued: one clock read for the batch, the
 * same submission latency for each of its I/Os (design.md rule 4).
 */
static int commit_batch(struct worker *w, unsigned int queued, uint64_t t0,
			unsigned int wait)
{
	struct worker_stats *st = w->st;
	unsigned int i, nd[DDIR_RWDIR_CNT] = { 0 };
	uint64_t issued = 0;

	if (w->ops->commit) {
		int ret;

		if (wait) {
			/* the submission's own time is in clat: see above */
			issued = clock_now_ns();
			ret = w->ops->commit_wait(w->e, wait);
		} else {
			ret = w->ops->commit(w->e);
		}
		if (ret < 0) {
			st->error = -ret;
			snprintf(w->rj->errmsg, sizeof(w->rj->errmsg),
				 "job '%s': submitting I/O failed: %s",
				 w->p->o.name, strerror(-ret));
			return -1;
		}
	}
	w->now = clock_now_ns();
	if (!wait)
		issued = w->now;
	st->submit[submit_index(queued)]++;
	st->submit_calls++;
	for (i = 0; i < queued; i++) {
		struct io_u *u = &w->ios[w->batch[i]];

		u->issue_time = issued;
		if (u->ddir < DDIR_RWDIR_CNT)
			nd[u->ddir]++;
	}
	/* every I/O of the batch has the same slat: added once per direction */
	for (i = 0; w->slat_on && i < DDIR_RWDIR_CNT; i++) {
		if (nd[i]) {
			struct dir_stats *ds = &st->dir[i];

			moments_add_n(&ds->slat, issued - t0, nd[i]);
			hist_add_n(&ds->slat_hist, issued - t0, nd[i]);
		}
	}
	return 0;
}

/*
 * A paced job's next I/O (run/pace.h): what the batch queued is submitted
 * first, so that no I/O waits out another's pause unsubmitted; pace_io()
 * may complete what is in flight and wait. Non-zero: stop the job.
 */
static __attribute__((noinline)) int pace_async(struct worker *w,
						struct io_u *u,
						unsigned int *queued,
						uint64_t *t0)
{
	if (*queued && commit_batch(w, *queued, *t0, 0))
		return 1;
	*queued = 0;
	if (pace_io(w->pace, u, &w->now))
		return 1;
	*t0 = w->now;
	return 0;
}

/*
 * fsync=N / fdatasync=N with a queueing engine: sync d of file. What the
 * batch queued is submitted first and worker_do_sync() waits for
 * everything in flight, so the sync covers every write before it.
 * Non-zero: stop the job.
 */
static int sync_async_file(struct worker *w, int d, unsigned int file,
			   unsigned int *queued, uint64_t *t0)
{
	if (*queued && commit_batch(w, *queued, *t0, 0))
		return 1;
	*queued = 0;
	if (worker_do_sync(w, (enum ddir)d, file))
		return 1;
	*t0 = w->now;
	return 0;
}

/* The queueing loop's sync_turn_due(), before it takes an io_u. */
static __attribute__((noinline)) int sync_turn_async(struct worker *w,
						     unsigned int *queued,
						     uint64_t *t0)
{
	unsigned int file;
	int d = sync_turn_due(w, &file);

	return d && sync_async_file(w, d, file, queued, t0);
}

/* The due sync sync_turn_due() left to u (chosen, not queued). */
static __attribute__((noinline)) int sync_async(struct worker *w,
						const struct io_u *u,
						unsigned int *queued,
						uint64_t *t0)
{
	int d = sync_due_before(w);

	if (d && sync_async_file(w, d, u->file, queued, t0))
		return 1;
	if (u->ddir == DDIR_WRITE)
		sync_note_write(w, u);
	return 0;
}

/*
 * Queueing engines, with fio's queue options: I/Os are committed in
 * batches of iodepth_batch_submit; when the queue is full (or the pass is
 * done) the worker reaps at least iodepth_batch_complete_min and at most
 * iodepth_batch_complete_max completions per call, and keeps reaping
 * until no more than iodepth_low I/Os are in flight before it fills the
 * queue again.
 */
static void loop_async(struct worker *w)
{
	struct worker_stats *st = w->st;
	int pass_done = 0;

	w->done_more = w->lat_on || w->vf || w->prio;
	for (;;) {
		unsigned int queued = 0;
		int busy = 0;
		uint64_t t0;

		if (unlikely(w->va) &&
		    worker_verify_reap(w, !w->inflight &&
				       (!w->nr_free || pass_done)))
			break;
		if (check_time(w))
			break;
		t0 = w->now;
		while ((w->nr_free || w->retry >= 0 || w->nr_requeue) &&
		       (!pass_done || w->retry >= 0 || w->nr_requeue)) {
			struct io_u *u;
			enum engine_q q;

			if (w->retry >= 0) {
				/* refused as BUSY last time: same I/O again */
				u = &w->ios[w->retry];
				w->retry = -1;
			} else if (unlikely(w->nr_requeue)) {
				/* the rest of a short transfer */
				u = &w->ios[w->requeue[--w->nr_requeue]];
			} else {
				if (unlikely(w->sync_any) &&
				    sync_turn_async(w, &queued, &t0))
					goto out;
				u = &w->ios[w->freel[--w->nr_free]];
				if (next_io_batch(w, u, &queued, t0)) {
					/*
					 * fio ends a queueing engine's pass on
					 * the bytes issued, without asking for
					 * another I/O; one that ran out of I/O
					 * first (a region of no whole number
					 * of blocks) asks, and takes the sync
					 * due: vsync fsync=1 size=20000, 4
					 */
					if (unlikely(w->sync_any) &&
					    !workload_pass_spent(w->wl))
						w->end_sync = sync_due(w);
					w->nr_free++;
					pass_done = 1;
					break;
				}
				t0 = w->now;	/* a lazy open moved it */
				if (unlikely(w->sync_any) &&
				    sync_async(w, u, &queued, &t0))
					goto out;
				if (u->ddir == DDIR_WRITE)
					prep_write(w, u);
				if (unlikely(w->pace) && paced(w, u) &&
				    pace_async(w, u, &queued, &t0))
					goto out;
				if (unlikely(w->iolog))
					iolog_writer_io(w->iolog, u, t0);
			}
			u->start_time = u->issue_time = t0;
			if ((unlikely(w->wf) &&
			     wfiles_hold(w->wf, u, w->inflight)) ||
			    (unlikely(w->ovl) && overlap_busy(w->ovl, u))) {
				/*
				 * another job holds the file, or u overlaps
				 * an I/O in flight: reap, retry
				 */
				w->retry = (int)u->index;
				busy = 1;
				break;
			}
			q = w->ops->queue(w->e, u);
			if (q == ENGINE_Q_BUSY) {
				w->retry = (int)u->index;
				busy = 1;
				break;
			}
			st->issued[issued_slot(u->ddir)]++;
			if (q == ENGINE_Q_DONE) {
				/* completed inline: a batch of its own */
				w->now = clock_now_ns();
				st->depth[depth_index(w->inflight + 1)]++;
				st->submit[submit_index(1)]++;
				st->submit_calls++;
				st->complete[submit_index(1)]++;
				st->complete_calls++;
				w->freel[w->nr_free++] = u->index;
				if (complete(w, u, w->now, false) ||
				    check_time(w))
					goto out;
				t0 = w->now;
				continue;
			}
			w->inflight++;
			/*
			 * fio's IO depths: every iodepth_batch_submit-th
			 * I/O queued counts that many at the depth then
			 * (a batch the queue or the pass cut short counts
			 * with the next; the last one's rest never does)
			 */
			if (++w->depth_mark == w->depth_batch) {
				st->depth[depth_index(w->inflight)] +=
					w->depth_mark;
				w->depth_mark = 0;
			}
			if (unlikely(w->ovl))
				overlap_issue(w->ovl, u);
			w->batch[queued++] = u->index;
			if (queued >= w->batch_submit) {
				if (commit_batch(w, queued, t0,
						 commit_waits(w)))
					goto out;
				queued = 0;
				if (w->one_by_one && drain(w))
					goto out;
				t0 = w->now;
				if (check_time(w))
					goto out;
			}
		}
		if (queued && commit_batch(w, queued, t0, commit_waits(w)))
			goto out;
		/* iodepth_batch_complete_min=0: look after every commit */
		if (queued && !w->complete_min && w->inflight &&
		    reap(w, 0) < 0)
			goto out;
		if (pass_done && !w->inflight && w->retry < 0 &&
		    !w->nr_requeue &&
		    !(w->va && verify_async_pending(w->va))) {
			if (!worker_next_pass(w))
				break;
			pass_done = 0;
			continue;
		}
		if (!w->inflight) {
			if (busy) {
				/* BUSY with nothing in flight cannot resolve */
				st->error = EBUSY;
				snprintf(w->rj->errmsg, sizeof(w->rj->errmsg),
					 "job '%s': engine '%s' refused an I/O with none in flight",
					 w->p->o.name, w->ops->name);
				goto out;
			}
			continue;
		}
		if (w->nr_free && !pass_done && !busy) {
			/* room left: only take what is already there */
			if (w->complete_min == 0 && reap(w, 0) < 0)
				goto out;
			continue;
		}
		do {
			unsigned int min = w->complete_min ? w->complete_min : 1;

			if (min > w->inflight)
				min = w->inflight;
			if (reap(w, min) < 0)
				goto out;
		} while (w->inflight > w->depth_low);
	}
out:
	drain(w);
	if (w->va)
		while (verify_async_pending(w->va))
			worker_verify_reap(w, true);
	publish_live(w);
}

/* The job's I/O, in the loop its engine takes (chosen once, here). */
void worker_run(struct worker *w)
{
	if (w->file_op && worker_file_op_open(w, false))
		return;	/* the error is the job's: no I/O */
	if (w->p->o.create_only)
		return;	/* the files are laid out: that was all */
	if (w->inline_engine)
		loop_sync(w);
	else
		loop_async(w);
}

/* SPDX-License-Identifier: MIT */
/*
 * The worker's passes and files: what happens when a pass over the region
 * ends (wrap, verify read-back, another loop, the end), the opens and
 * closes of each loop as fio makes them, end_fsync, end_syncfs and
 * fsync_on_close, openfiles' file events, and the engines whose I/O is a
 * file operation (ENGINE_F_FILE_OP). Called per pass, per loop or out of line from the
 * loops in worker.c, never per I/O of an ordinary job.
 */
#include "run/worker_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/clock.h"
#include "opt/opt.h"
#include "run/pace.h"
#include "run/wfiles.h"
#include "target/fileopts.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "verify/verify.h"
#include "workload/workload.h"

/*
 * A file could not be opened (err: the engine's message): the job stops
 * with that errno (a negative one, -errno, as the engines return).
 */
static void worker_file_error(struct worker *w, int e, const struct strbuf *err)
{
	if (!w->st->error)
		w->st->error = e < 0 ? -e : EIO;
	if (!w->rj->errmsg[0])
		snprintf(w->rj->errmsg, sizeof(w->rj->errmsg), "job '%s': %s",
			 w->p->o.name, strbuf_str(err));
	w->end_ns = 1;	/* stop at the next check */
}

/*
 * openfiles: the files the workload retires and brings in. A file that
 * cannot be opened again stops the job (the I/O to it fails).
 */
void worker_file_events(struct worker *w)
{
	struct strbuf err = STRBUF_INIT;

	if (wfiles_events(w->wf, &err)) {
		if (!w->st->error)
			w->st->error = EIO;
		if (!w->rj->errmsg[0])
			snprintf(w->rj->errmsg, sizeof(w->rj->errmsg),
				 "job '%s': %s", w->p->o.name,
				 strbuf_str(&err));
		w->end_ns = 1;	/* stop at the next check */
	}
	strbuf_release(&err);
}

/*
 * ENGINE_F_FILE_OP engines (engine/fsmeta.c): the durations of the file
 * operations the engine timed become completion latencies of the job's
 * direction; the I/Os themselves have none (fio's FIO_NOSTATS).
 */
__attribute__((cold)) void worker_file_op_lat(struct worker *w)
{
	struct dir_stats *ds = &w->st->dir[w->file_op_dir];
	const uint64_t *ns;
	unsigned int i, n = w->ops->take_lat(w->e, &ns);

	if (w->p->o.disable_lat || w->p->o.disable_clat)
		return;
	for (i = 0; i < n; i++)
		stats_clat_add(w->st, ds, ns[i]);
}

/*
 * ... and their files are opened when the run starts, so that the time
 * the operations take is the job's runtime, and each new pass over the
 * files opens them again, as fio's passes do: for these engines the open
 * is the operation. With openfiles, the files come and go with the
 * workload after the first ones. Non-zero: stop (the error is the job's).
 */
__attribute__((cold)) int worker_file_op_open(struct worker *w, bool again)
{
	struct strbuf err = STRBUF_INIT;
	unsigned int i;
	int ret = 0;

	if (again && w->wf)
		return 0;
	for (i = 0; i < w->e->nr_files && !ret; i++) {
		if (!wfiles_open_at_start(w->wf, i))
			continue;
		if (again)
			w->ops->close_file(w->e, &w->e->files[i]);
		ret = w->ops->open_file(w->e, &w->e->files[i], &err);
	}
	worker_file_op_lat(w);
	if (ret) {
		w->st->error = -ret;
		snprintf(w->rj->errmsg, sizeof(w->rj->errmsg), "job '%s': %s",
			 w->p->o.name, strbuf_str(&err));
	}
	strbuf_release(&err);
	return ret;
}

/*
 * end_syncfs (fio 3.42): one syncfs(2) where end_fsync would fsync each
 * file, made through the directory of the job's first file, as fio 3.42
 * does (strace: the directory opened, syncfs on it, closed; one call for
 * any number of files). It takes end_fsync's place and, as a sync of the
 * job's own, leaves fsync_on_close's closes nothing to sync (fio 3.42:
 * no fsync with both). Not counted, as end_fsync's; not in write_iolog
 * (fio 3.42 writes a line ". wait OFFSET 0" that its own read_iolog
 * cannot replay). 0, or -1 when it failed (the job stops).
 */
static int end_syncfs(struct worker *w)
{
	const char *path = w->rj->files->files[0].path;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : slash - path)
			  : xstrdup(".");
	struct strbuf err = STRBUF_INIT;
	int fd = -1, ret = 0;

	if (worker_drain(w))
		ret = -1;
	else if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
		 syncfs(fd)) {
		ret = -errno;
		strbuf_addf(&err, "end_syncfs of '%s': %s", dir, strerror(errno));
		worker_file_error(w, ret, &err);
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	if (!ret)
		worker_synced(w);
	strbuf_release(&err);
	free(dir);
	return ret;
}

/*
 * end_fsync, fsync_on_close: at the end of each loop, when the job is
 * unsynced, every file is synced (one that is closed is opened for it),
 * as fio does; fio leaves these syncs out of the statistics, so does
 * this. create_only has no loop: the layout (create_fsync) was all, as
 * in fio. 0, or -1 when one failed.
 */
int worker_end_syncs(struct worker *w)
{
	const struct job_options *o = &w->p->o;
	unsigned int i;
	int ret = 0;

	if (!(o->end_fsync || o->fsync_on_close || o->end_syncfs) ||
	    o->create_only || (w->ops->flags & ENGINE_F_NOFILEIO) ||
	    !fcycle_unsynced(&w->fc))
		return 0;
	if (o->end_syncfs)
		return end_syncfs(w);
	w->quiet_sync = 1;
	for (i = 0; i < w->rj->files->nr_files && !ret; i++) {
		bool was_open = fcycle_is_open(&w->fc, i);
		struct strbuf err = STRBUF_INIT;

		if (!was_open && (ret = fcycle_open(&w->fc, i, &err))) {
			worker_file_error(w, ret, &err);
			ret = -1;
		} else {
			ret = worker_do_sync(w, DDIR_SYNC, i);
			if (!was_open)
				fcycle_close(&w->fc, i);
		}
		strbuf_release(&err);
	}
	w->quiet_sync = 0;
	return ret;
}

/*
 * A pass begins with its files closed: as fio, each is opened (created,
 * with create_on_open) just before its first I/O or sync, so a job that
 * stops early never opens the files it did not reach. openfiles: wfiles
 * opens the files brought in (wfiles_hold()), within the limit, unless
 * every: the verify phase opens what it reads, openfiles or not.
 */
void worker_lazy_start(struct worker *w, bool every)
{
	w->lazy_open = false;
	if (w->ops->flags & ENGINE_F_NOFILEIO)
		return;
	if (w->wf)
		wfiles_restart(w->wf, false);
	w->lazy_open = every || !wfiles_limited(w->wf);
	w->lazy_left = w->rj->files->nr_files;
}

/* unlink_each_loop, with the files closed (target/fileopts.c) */
static int unlink_loop(struct worker *w)
{
	struct strbuf err = STRBUF_INIT;
	int ret = fileopts_unlink_loop(w->p, w->rj->files, &err);

	if (ret)
		worker_file_error(w, ret, &err);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* Closes every open file (wfiles keeps its own count when there is one). */
static void close_files(struct worker *w)
{
	unsigned int i;

	if (w->ops->flags & ENGINE_F_NOFILEIO)
		return;
	if (w->wf) {
		wfiles_close_all(w->wf);
		return;
	}
	for (i = 0; i < w->rj->files->nr_files; i++)
		if (fcycle_is_open(&w->fc, i))
			fcycle_close(&w->fc, i);
}

/*
 * Did the pass run out of I/O before its budget was spent (a region that
 * is not whole blocks, holes)? fio then asks for one more I/O (and makes
 * the sync that is due), finds the files done and closes them, as at the
 * end of a loop that another follows, where a pass that spent its
 * budget ends with them open (workload_pass_spent()).
 */
static bool pass_ran_out(const struct worker *w)
{
	const struct job_plan *p = w->p;

	if (w->time_based || (p->o.read_iolog && *p->o.read_iolog))
		return false;
	return !workload_pass_spent(w->wl);
}

/*
 * The end of a loop's I/O phase, as fio makes it, once per loop. When
 * another loop follows (or the pass ran out), fio's pass runs out of
 * I/O: it takes the sync
 * fsync=N had due (end_sync: fio asks an inline engine for the next I/O
 * and gets the sync; a queueing engine's pass ends on the bytes issued,
 * unless it ran out first), finds the files done and closes them. The
 * last loop ends on its bytes with the files open. Then end_fsync's and fsync_on_close's
 * syncs (worker_end_syncs()). 0, or -1 when a sync or an open failed.
 */
int worker_io_end(struct worker *w, bool more)
{
	int d = w->end_sync;

	w->end_sync = 0;
	if (w->io_ended)
		return 0;
	w->io_ended = true;
	more |= w->ran_out;
	if (more && d) {
		/* it takes the next file's turn, as any sync (fio) */
		unsigned int f = workload_sync_file(w->wl, true);

		if (worker_do_sync(w, (enum ddir)d,
				   f != UINT_MAX ? f : w->sync_file))
			return -1;
	}
	if (more)
		close_files(w);
	return worker_end_syncs(w);
}

/*
 * fio's verify phase (do_verify=1) follows the loop's I/O phase and its
 * end syncs: the job's I/O state is reset, so a close syncs again with
 * fsync_on_close, and every file is closed; the read-back then opens
 * each file when its first read comes (invalidate=1 drops the cache
 * there, fadvise_hint advises), whatever openfiles says, and the files
 * stay open until the next loop or the end. The phase runs, and closes
 * the files, even with nothing to read back. 0, or -1 (job stops).
 */
static int verify_phase_begin(struct worker *w)
{
	if (worker_io_end(w, w->loops_left > 1))
		return -1;
	fcycle_new_loop(&w->fc);
	close_files(w);
	worker_lazy_start(w, true);
	return 0;
}

/*
 * Opens the files in use now, not at their first I/O (worker_setup()'s
 * exceptions). 0 or the open's -errno (err says).
 */
int worker_open_now(struct worker *w, struct strbuf *err)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < w->rj->files->nr_files && !ret; i++)
		if (wfiles_open_at_start(w->wf, i))
			ret = w->wf ? wfiles_open(w->wf, i, err) :
				      fcycle_open(&w->fc, i, err);
	w->lazy_open = false;
	return ret;
}

/*
 * The next I/O or sync goes to file i: open it if it is closed (the lazy
 * opens of worker_lazy_start()). 0, or -1: the file cannot be opened,
 * the job stops with the open's error and the I/O is not issued.
 */
int worker_lazy_open(struct worker *w, unsigned int i)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (fcycle_is_open(&w->fc, i))
		return 0;
	ret = w->wf ? wfiles_open(w->wf, i, &err) :
		      fcycle_open(&w->fc, i, &err);
	if (ret)
		worker_file_error(w, ret, &err);
	else if (w->lazy_open && !--w->lazy_left)
		w->lazy_open = false;	/* all open: no more checks */
	w->now = clock_now_ns();	/* the I/O's latency is not the open's */
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/*
 * The end of a loop that another follows: fio closes the job's files
 * (after the I/O phase's end, unless a verify phase came between) and
 * opens them again for the next loop (so invalidate=1 drops their cache
 * again, and fsync_on_close syncs at each close); the new loop starts
 * unsynced. Returns 0, or -1 when a sync or an open failed.
 */
static int new_loop(struct worker *w)
{
	if (worker_io_end(w, true))
		return -1;
	close_files(w);
	w->lazy_open = false;
	if (w->p->o.unlink_each_loop && unlink_loop(w))
		return -1;
	fcycle_new_loop(&w->fc);
	w->sync_wr = 0;
	w->io_ended = w->ran_out = false;
	if (w->vf)
		verify_new_loop(w->vf, w->loops_left <= 1);
	workload_rewind(w->wl);
	worker_lazy_start(w, false);
	w->now = clock_now_ns();
	return 0;
}

/*
 * io_size beyond the regions: the workload started its used-up files
 * over. fio runs each sweep as a loop of the job, so there, with what
 * was in flight done: the files are closed, end_fsync's and
 * fsync_on_close's syncs made (a file opened, synced and closed again,
 * as at a loop's end), and the next sweep opens each file again at its
 * first I/O (invalidate=1 drops its cache there). The fsync=N count
 * goes on: the sync due at the wrap is not made twice (fio 3.42).
 * 0, or -1 when a sync or an open failed.
 */
int worker_wrap(struct worker *w)
{
	close_files(w);
	if (worker_end_syncs(w))
		return -1;
	fcycle_new_loop(&w->fc);
	worker_lazy_start(w, false);
	w->now = clock_now_ns();
	return 0;
}

/*
 * Does a pass end with the files used up (fio: "done")? Sequential
 * passes do, and random ones that cover every block (the random map,
 * lfsr); random offsets without a map (norandommap, blockalign,
 * distributions) never use a file up, their passes only end on the byte
 * budget (workload.h).
 */
bool worker_pass_uses_files_up(const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	if (!p->random)
		return true;
	if (o->random_distribution != RDIST_RANDOM)
		return false;
	return o->random_generator == RANDGEN_LFSR ||
	       (!o->norandommap && !p->ba_nomap);
}

/*
 * time_based random offsets: a file whose map was used up started over
 * in place, and fio drops its cache then (invalidate=1)
 */
void worker_drop_restarted(struct worker *w)
{
	unsigned int fi = workload_take_dropped(w->wl);

	if (fi != UINT_MAX)
		fcycle_invalidate(&w->fc, fi);
}

/*
 * A time_based pass wraps: the files stay open, and when
 * they were used up fio drops their cache again (invalidate=1) before
 * the next pass. Random files that start over in place end a pass only
 * when draws past a direction's last block have ended them all: they
 * were used up too.
 */
static void wrap_pass(struct worker *w)
{
	unsigned int i;

	workload_rewind(w->wl);
	if (w->wrap_invalidate || w->drop_invalidate)
		for (i = 0; i < w->rj->files->nr_files; i++)
			fcycle_invalidate(&w->fc, i);
}

/*
 * After its loops fio runs the job once more while it is short of its
 * size (io_size, else the regions) by at least its largest block, if a
 * verify phase ran (its read-backs count, and the files it opened again
 * are no longer done) or io_size was given: files used up early (strided
 * zones, holes from an offset) get another loop, until one moves nothing.
 */
static bool short_of_size(struct worker *w, bool verify_phase)
{
	const struct job_options *o = &w->p->o;
	const struct worker_stats *st = w->st;
	uint64_t limit = workload_pass_bytes(w->wl), done = 0;
	unsigned int d;

	/*
	 * io_size as the user gave it in bytes: files.c derives one from
	 * filesize, and io_size=N% only caps the pass (fio 3.33 and 3.42:
	 * rw=write:16k size=64000 bs=4000 io_size=50% writes 3 blocks, where
	 * io_size=32000 writes 8, going over the file again)
	 */
	if ((!verify_phase && (!opt_is_set(o, "io_size") || o->io_size.pct)) ||
	    (o->number_ios && !verify_phase))
		return false;
	/*
	 * verify= without a read-back (do_verify=0): fio leaves the files
	 * a single loop used up done, and runs nothing more (io_size=2m
	 * over 256k: 16 writes); after loops=N it goes on to io_size
	 */
	if (!verify_phase && workload_verifies(o) && w->p->o.loops <= 1)
		return false;
	w->short_nios = UINT64_MAX;
	if (o->number_ios) {
		/*
		 * number_ios counts every I/O, read-backs too, over all the
		 * passes (fio 3.33: size=64k io_size=512k number_ios=44
		 * verify=md5: 16 writes and 16 reads, then 12 and 12)
		 */
		uint64_t ios = 0, cap = (uint64_t)o->number_ios *
					(o->loops ? o->loops : 1);

		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			ios += st->dir[d].ios;
		if (ios >= cap)
			return false;
		w->short_nios = cap - ios;
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		done += st->dir[d].bytes;
	/* a loop that moved nothing ends it (fio too) */
	if (done == w->extra_done)
		return false;
	w->extra_done = done;
	if (done >= limit || limit - done < w->p->max_bs)
		return false;
	/*
	 * fio's extra loop ends where the job's bytes reach io_size (not a
	 * whole budget later): nrfiles=4 size=128KiB io_size=128KiB is 28
	 * whole blocks, then 4 more. A verify phase's pass keeps its own
	 * target (workload.c's vcap), which counts only the writes.
	 */
	w->short_by = verify_phase ? UINT64_MAX : limit - done;
	return true;
}

/* Did the time_based pass that just ended issue no I/O at all? */
static bool tb_pass_empty(struct worker *w)
{
	uint64_t n = 0;
	unsigned int d;

	for (d = 0; d <= DDIR_RWDIR_CNT; d++)
		n += w->st->issued[d];
	if (n == w->tb_issued)
		return true;
	w->tb_issued = n;
	return false;
}

/* End of a pass over the region: wrap, loop again, or finish. */
int worker_next_pass(struct worker *w)
{
	/* read_iolog: a pause until the next logged I/O is due, not an end */
	if (workload_wait(w->wl, &w->rj->ctx->stop, !w->end_ns ? UINT64_MAX :
			  w->end_ns > w->now ? w->end_ns - w->now : 0)) {
		w->now = clock_now_ns();
		return 1;
	}
	int verified = w->in_verify;

	if (unlikely(w->st->error))
		return 0;	/* it stops the job: no other pass */
	/* fio asks once more, waiting for the rate first */
	if (!verified && w->pace && !workload_pass_spent(w->wl))
		pace_tail(w->pace, &w->now);
	if (!verified && !w->io_ended)
		w->ran_out = pass_ran_out(w);

	/* a verify phase ends here, an I/O phase where one begins */
	if (verified) {
		end_phase(w);
		verify_pass_end(w->vf);	/* the pass's log is done with */
	} else if (w->vf && verify_pass_end(w->vf)) {
		/* read back what the pass wrote before going on */
		if (!w->time_based) {	/* fio: all of it is the I/O phase */
			end_phase(w);
			if (verify_phase_begin(w))
				return 0;
		}
		w->in_verify = !w->time_based;
		return 1;
	}
	/*
	 * ramp_time does not make a job longer: one that ends during its
	 * ramp has done its I/O and counts all of it, as fio
	 */
	if (w->time_based) {
		/*
		 * A pass that issued nothing would be followed by another
		 * (a later sweep from offset=100% of the file its first one
		 * wrote has no room): fio ends the job there, and so must
		 * iolite, or it spins without reading the clock
		 */
		if (tb_pass_empty(w))
			return 0;
		if (unlikely(w->file_op) && worker_file_op_open(w, true))
			return 0;
		wrap_pass(w);
		return 1;
	}
	if (!verified && w->vf && w->p->o.do_verify) {
		/*
		 * fio's verify phase runs at the end of every loop, even with
		 * nothing left to read back (verify_backlog checked it all):
		 * its few microseconds, rounded up, are 1 msec of reads
		 */
		end_phase(w);
		stats_runtime_add(w->st, 0, true, 1000);
		if (verify_phase_begin(w))
			return 0;
	}
	/* fio: a loop left with nothing to do ends the job, unopened */
	if (w->loops_left > 1 && workload_spent(w->wl))
		w->loops_left = 1;
	if (w->loops_left > 1) {
		w->loops_left--;
		if (unlikely(w->file_op)) {
			if (worker_file_op_open(w, true))
				return 0;
			workload_rewind(w->wl);
			return 1;
		}
		return !new_loop(w);
	}
	if (!w->file_op && short_of_size(w, verified || (w->vf &&
						      w->p->o.do_verify))) {
		if (new_loop(w))
			return 0;
		workload_cap_bytes(w->wl, w->short_by);
		if (w->short_nios != UINT64_MAX)
			workload_cap_pass(w->wl, w->short_nios);
		return 1;
	}
	return 0;
}

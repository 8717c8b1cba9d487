/* SPDX-License-Identifier: MIT */
/*
 * The worker: one thread per job instance. The workload says what the next
 * I/O is, the engine does it, the worker times it and counts it.
 *
 * The I/O loop follows design.md's hot-path rules: it touches only this
 * worker's memory (io_u array, free list, stats), allocates nothing, calls
 * no stdio and makes no syscall but the engine's; the clock is read once
 * per submit batch and once per reap batch. Two loops are chosen once at
 * start: one for engines that complete inline (sync engines: one clock
 * read per I/O, shared by the completion of one I/O and the issue of the
 * next) and one for queueing engines.
 */
#include "run/worker.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "opt/pace_opts.h"
#include "opt/opt.h"
#include "opt/prio_opts.h"
#include "run/buffer.h"
#include "run/clock.h"
#include "run/cpus.h"
#include "run/fcycle.h"
#include "run/wfiles.h"
#include "run/iolog_write.h"
#include "run/lattarget.h"
#include "run/mem.h"
#include "run/proc.h"
#include "run/steady.h"
#include "run/flow.h"
#include "run/pace.h"
#include "run/prio.h"
#include "run/stall.h"
#include "stats/log.h"
#include "stats/stats.h"
#include "util/log.h"
#include "verify/fault.h"
#include "verify/verify.h"
#include "workload/workload.h"

struct worker {
	struct run_job *rj;
	const struct job_plan *p;
	const struct engine_ops *ops;
	struct engine *e;
	struct workload *wl;
	struct worker_stats *st;
	struct io_u *ios;	/* depth + 1: the last is for syncs */
	unsigned int depth;
	unsigned int *freel;
	unsigned int nr_free;
	unsigned int inflight;
	unsigned int *batch;	/* indexes queued in the current batch */
	struct iomem iom;	/* the buffers' memory (run/mem.h) */
	void *mem;
	size_t mem_size;
	size_t buf_size;

	uint64_t now;
	uint64_t end_ns;	/* 0: no runtime limit */
	uint64_t ramp_end_ns;
	int ramping;
	unsigned int loops_left;
	int time_based;

	int clat_on, lat_on, slat_on;
	int lat_from_clat;	/* inline engine: lat == clat, copied at end */
	int inline_engine;	/* queue() always completes: loop_sync */
	int file_op;		/* ENGINE_F_FILE_OP: take_lat() has the times */
	unsigned int file_op_dir;	/* ... of this direction */
	int done_more;		/* lat_on || vf: complete_more() (loops set it) */
	uint64_t inline_ios;	/* loop_sync: I/Os not yet in st->depth... */
	/*
	 * fsync=N, fdatasync=N (fio's rule, see sync_due()); fc: the files'
	 * opens and closes, and whether the job is synced (run/fcycle.h).
	 */
	unsigned int fsync_n, fdatasync_n;
	unsigned int sync_file;		/* file of the last write */
	int end_sync;			/* sync_due() when the pass ended */
	int quiet_sync;			/* end_fsync's: not in the stats */
	bool wrap_invalidate;		/* wrap_pass() drops the cache */
	struct file_cycle fc;
	unsigned int coe;	/* continue_on_error mask */

	unsigned int batch_submit;	/* commit every this many queued */
	unsigned int complete_min;	/* reap at least (0: poll) */
	unsigned int complete_max;	/* reap at most */
	unsigned int depth_low;		/* refill when this few in flight */
	int retry;			/* io_u the engine refused, or -1 */

	int refill, scramble;	/* refill 2: bfill fills each write */
	uint64_t rnd;		/* buffer-content PRNG state */
	struct buf_fill *bfill;	/* run/buffer.h; NULL: defaults above */
	struct rusage ru_start;

	/* verification and faults (verify/; see io_error()) */
	struct verify *vf;		/* NULL: the job does not verify */
	struct fault_policy fp;		/* continue_on_error, ignore_error */
	int first_err;			/* first error continued past */
	unsigned int errs_shown;
	uint32_t *xfer_done;		/* per io_u: bytes of a short one done */
	unsigned int nr_split;		/* io_us with xfer_done != 0 */
	unsigned int *requeue;		/* io_us whose rest is to be issued */
	unsigned int nr_requeue;

	struct job_log *log;	/* from the end of ramp_time; NULL: none */
	struct wfiles *wf;	/* openfiles, lockfile (run/wfiles.h) or NULL */
	struct iolog_writer *iolog;	/* write_iolog; NULL: none */
	unsigned int snap_seen;	/* last report generation served */
	struct lat_target *lt;	/* latency_target, max_latency; or NULL */

	/* per-direction runtime (stats_runtime_add): the open phase */
	uint64_t phase_ns;	/* when it began */
	int in_verify;		/* it is a verify read-back */
	unsigned int run_dirs;	/* directions an I/O phase counts for */

	/*
	 * Rate, think time, flows (run/pace.h): pace is NULL unless the job
	 * paces; co is pace when it records co_lat. io_hook: log or co is
	 * set, one test per completion for both; log_only: a log record per
	 * I/O is all complete_more() has to do.
	 */
	struct pace *pace;
	struct pace *co;
	int io_hook;
	int log_only;

	/* per-I/O priorities (cmdprio): each priority's latency, or NULL */
	struct prio_stats *prio;
};

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Word stores through memcpy: iomem_align may leave buffers unaligned. */
static inline void put_u64(void *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void fill_random(struct worker *w, void *buf, size_t len)
{
	char *q = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		put_u64(q + 8 * i, xorshift64(&w->rnd));
}

/*
 * Write buffer contents: random by default (fio's default), zeros with
 * zero_buffers, refilled per write with refill_buffers; scramble_buffers
 * (on by default, off with zero_buffers) stamps the offset into the
 * first and middle words so identical blocks don't dedupe.
 */
static inline void prep_write(struct worker *w, struct io_u *u)
{
	if (w->vf) {
		verify_prep_write(w->vf, u);
		return;
	}
	if (w->refill) {
		if (w->refill == 1)
			fill_random(w, u->buf, u->len);
		else
			buffer_fill_write(w->bfill, u->buf, u->len);
	} else if (w->scramble && u->len >= 16) {
		char *q = u->buf;

		put_u64(q, u->offset ^ w->rnd);
		put_u64(q + u->len / 16 * 8, u->offset + w->rnd);
	}
}

/* ---- faults and short transfers (verify/fault.h has the policy) ---- */

#define ERRS_SHOWN_MAX 20

/* Back to the whole I/O after the pieces of a short transfer. */
static inline void short_restore(struct worker *w, struct io_u *u)
{
	uint32_t done = w->xfer_done[u->index];

	u->buf = (char *)u->buf - done;
	u->offset -= done;
	u->len += done;
	w->xfer_done[u->index] = 0;
	w->nr_split--;
}

/*
 * An I/O error, a transfer that made no progress, or a block that failed
 * verification: counted, reported with job, direction, file, offset and
 * errno, and the job goes on when continue_on_error / ignore_error let it
 * (verify_fatal stops it at a bad block whatever they say). The error
 * that stops a job is its errmsg, printed by main after the run; errors
 * continued past are printed as they happen, the first ERRS_SHOWN_MAX of
 * them (I/O errors only with error_dump, the default). Returns non-zero
 * when the job must stop.
 */
static int io_error(struct worker *w, struct io_u *u, int err,
		    enum fault_class cls, const char *msg)
{
	static const char *const dn[] = { "read", "write", "trim", "fsync",
					  "fdatasync" };
	struct run_job *rj = w->rj;
	char buf[sizeof(rj->errmsg)];
	uint32_t done = w->xfer_done[u->index];
	int cont;

	if (done)
		short_restore(w, u);
	/* fill_device: a full device is where the job ends, not an error */
	if (w->p->o.fill_device && cls == FAULT_WRITE &&
	    (err == ENOSPC || err == EDQUOT))
		return 1;
	if (w->vf && cls != FAULT_VERIFY)
		verify_failed(w->vf, u);
	w->st->total_err++;
	cont = fault_non_fatal(&w->fp, cls, err) &&
	       !(cls == FAULT_VERIFY && w->p->o.verify_fatal);
	if (!msg) {
		const char *path = rj->files->nr_files ?
			rj->files->files[u->file].path : "";
		int n = snprintf(buf, sizeof(buf),
				 "job '%s': %s of %u bytes at offset %llu of '%s' failed: ",
				 w->p->o.name, dn[u->ddir], u->len,
				 (unsigned long long)u->offset, path);

		if (n > 0 && (size_t)n < sizeof(buf)) {
			if (u->error)
				snprintf(buf + n, sizeof(buf) - (size_t)n,
					 "%s (%s)", strerror(err),
					 strerrorname_np(err) ?
					 strerrorname_np(err) : "?");
			else if (done)
				snprintf(buf + n, sizeof(buf) - (size_t)n,
					 "short %s: %u of %u bytes, then no more (%s)",
					 dn[u->ddir], done, u->len,
					 strerrorname_np(err));
			else
				snprintf(buf + n, sizeof(buf) - (size_t)n,
					 "short %s: no bytes transferred (%s)",
					 dn[u->ddir], strerrorname_np(err));
		}
		msg = buf;
	}
	if (!cont) {
		w->st->error = err;
		if (!rj->errmsg[0])
			snprintf(rj->errmsg, sizeof(rj->errmsg), "%s", msg);
		return 1;
	}
	if (!w->first_err)
		w->first_err = err;
	/* error_dump=0: I/O errors let through go unsaid (fio's rule) */
	if (!w->p->o.error_dump && cls != FAULT_VERIFY)
		return 0;
	if (w->errs_shown < ERRS_SHOWN_MAX)
		error("%s", msg);
	else if (w->errs_shown == ERRS_SHOWN_MAX)
		error("job '%s': more errors: counted, not shown",
		      w->p->o.name);
	w->errs_shown++;
	return 0;
}

static inline enum fault_class fault_class_of(unsigned int d)
{
	return d == DDIR_READ ? FAULT_READ : FAULT_WRITE;
}

/*
 * A short transfer: as fio, the rest is issued again (counted as short);
 * a piece that moves nothing is an error (EIO). Returns 1 when the rest
 * was queued for reissue, 0 when the error was let through, -1 to stop
 * the job.
 */
static int short_xfer(struct worker *w, struct io_u *u)
{
	uint32_t done = u->len - u->resid;

	if (!done) {
		u->error = 0;
		return io_error(w, u, EIO, fault_class_of(u->ddir), NULL) ?
		       -1 : 0;
	}
	w->st->dir[u->ddir].short_ios++;
	w->st->issued_short[u->ddir]++;
	if (!w->xfer_done[u->index])
		w->nr_split++;
	w->xfer_done[u->index] += done;
	u->buf = (char *)u->buf + done;
	u->offset += done;
	u->len = u->resid;
	u->resid = 0;
	/* reap() put it on the free list: it is not free yet (loop_sync
	 * has no list and resets nr_free after each I/O) */
	w->nr_free--;
	w->requeue[w->nr_requeue++] = u->index;
	return 1;
}

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
static __attribute__((noinline)) void worker_file_events(struct worker *w)
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

/* The next I/O: the workload's, or verification's when the job verifies. */
static inline int next_io(struct worker *w, struct io_u *u)
{
	int ret = likely(!w->vf) ? workload_next(w->wl, u) :
		  verify_next(w->vf, u);

	if (unlikely(w->wf) && !ret)
		worker_file_events(w);
	return ret;
}

/* --- logs and reports while the run goes on (run/runner.c) ----------- */

/* Per-I/O completion extras: logs, co_lat (after either changes) */
static void worker_set_io_hook(struct worker *w)
{
	w->io_hook = log_job_per_io(w->log) || w->co;
	w->log_only = log_job_rec_only(w->log) && !w->lat_on && !w->vf &&
		      !w->co && !w->prio;
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
}

/*
 * The job's I/O is over: the last log windows close. The time the job
 * waited for the log writer goes to the report.
 */
static void worker_log_end(struct worker *w)
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
	if (w->vf && unlikely(verify_complete(w->vf, u)))
		return io_error(w, u, EILSEQ, FAULT_VERIFY,
				verify_errmsg(w->vf));
	return 0;
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
	w->st->issued[u->ddir]--;
	if (w->inline_engine)
		w->inline_ios--;
	return 1;
}

/* Out of line: fsync/fdatasync, errors, short transfers and their pieces. */
static __attribute__((noinline)) int complete_rare(struct worker *w,
						   struct io_u *u,
						   uint64_t now)
{
	struct worker_stats *st = w->st;
	unsigned int d = u->ddir;
	uint64_t clat = now - u->issue_time;

	if (unlikely(u->error == ENGINE_ERR_END))
		return engine_end(w, u);

	if (w->wf)
		wfiles_done(w->wf, u);	/* before a short one's rest is queued */
	if (d >= DDIR_RWDIR_CNT) {
		if (w->quiet_sync)	/* fio counts no end_fsync */
			return u->error ? io_error(w, u, u->error, FAULT_WRITE,
						   NULL) : 0;
		st->sync_ios++;
		moments_add(&st->sync_lat, clat);
		hist_add(&st->sync_hist, clat);
		if (unlikely(u->error))
			return io_error(w, u, u->error, FAULT_WRITE, NULL);
		return 0;
	}
	if (u->error)
		return io_error(w, u, u->error, fault_class_of(d), NULL);
	if (u->resid)
		return short_xfer(w, u) < 0;
	if (w->xfer_done[u->index])
		short_restore(w, u);
	return complete_count(w, u, now);
}

/*
 * Returns non-zero when the job must stop because of this I/O's error.
 * One test sends everything but a whole read, write or trim out of line.
 * The caller has put u back on the free list (loop_sync has no list).
 */
static inline __attribute__((always_inline)) int
complete(struct worker *w, struct io_u *u, uint64_t now)
{
	if (unlikely((u->ddir >= DDIR_RWDIR_CNT) | (u->error != 0) |
		     (u->resid != 0) | (w->nr_split != 0) | (w->wf != NULL)))
		return complete_rare(w, u, now);
	return complete_count(w, u, now);
}

static void reset_stats(struct worker *w)
{
	worker_stats_reset(w->st);
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
}

static int worker_lat_check(struct worker *w);

/* Once-per-batch checks: stop, ramp end, runtime. Non-zero = stop. */
static inline int check_time(struct worker *w)
{
	publish_live(w);
	if (unlikely(w->rj->ctx->stop | w->rj->stop))
		return 1;
	if (unlikely(w->lt) && worker_lat_check(w))
		return 1;
	worker_poll_snapshot(w);
	if (unlikely(w->ramping) && w->now >= w->ramp_end_ns) {
		w->ramping = 0;
		reset_stats(w);
	}
	return w->end_ns && w->now >= w->end_ns;
}

/* Credits the open phase's time to the directions it counts for. */
static void end_phase(struct worker *w)
{
	stats_runtime_add(w->st, w->run_dirs, w->in_verify,
			  w->now - w->phase_ns);
	w->phase_ns = w->now;
	w->in_verify = 0;
}

/*
 * ENGINE_F_FILE_OP engines (engine/fsmeta.c): the durations of the file
 * operations the engine timed become completion latencies of the job's
 * direction; the I/Os themselves have none (fio's FIO_NOSTATS).
 */
static __attribute__((noinline, cold)) void worker_file_op_lat(struct worker *w)
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
static __attribute__((noinline, cold)) int worker_file_op_open(struct worker *w,
							       bool again)
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

static int new_loop(struct worker *w);
static void wrap_pass(struct worker *w);

/* End of a pass over the region: wrap, loop again, or finish. */
static int next_pass(struct worker *w)
{
	/* read_iolog: a pause until the next logged I/O is due, not an end */
	if (workload_wait(w->wl, &w->rj->ctx->stop, !w->end_ns ? UINT64_MAX :
			  w->end_ns > w->now ? w->end_ns - w->now : 0)) {
		w->now = clock_now_ns();
		return 1;
	}
	int verified = w->in_verify;

	/* a verify phase ends here, an I/O phase where one begins */
	if (verified) {
		end_phase(w);
		verify_pass_end(w->vf);	/* the pass's log is done with */
	} else if (w->vf && verify_pass_end(w->vf)) {
		/* read back what the pass wrote before going on */
		if (!w->time_based)	/* fio: all of it is the I/O phase */
			end_phase(w);
		w->in_verify = !w->time_based;
		return 1;
	}
	if (w->time_based || w->ramping) {
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
	}
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
	return 0;
}

/*
 * Returns how many completed, -1 when one of them stops the job (all of
 * them are still accounted for), -2 when reaping itself failed.
 */
static int reap(struct worker *w, unsigned int min)
{
	int i, n, stop = 0;

	n = w->ops->getevents(w->e, min,
			      w->inflight < w->complete_max ? w->inflight :
			      w->complete_max, NULL);
	w->now = clock_now_ns();
	if (n < 0) {
		if (n == -EINTR || n == -EAGAIN)
			return 0;
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
	for (i = 0; i < n; i++) {
		struct io_u *u = w->ops->event(w->e, (unsigned int)i);

		w->freel[w->nr_free++] = u->index;
		if (complete(w, u, w->now))
			stop = 1;
	}
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
static void worker_pace_start(struct worker *w)
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
		.count_ns = w->ramping ? w->ramp_end_ns : w->now,
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
		reset_stats(w);
	lat_target_apply(w->lt, w->st, w->now, w->freel, &w->nr_free);
	return 0;
}

/* fsync / fdatasync of one file through the engine, after a drain. */
static int do_sync(struct worker *w, enum ddir d, unsigned int file)
{
	struct io_u *u = &w->ios[w->depth];
	enum engine_q q;

	if (drain(w))
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
		iolog_writer_io(w->iolog, u, w->now);
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
		fcycle_synced(&w->fc);
		return 0;
	}
	w->now = clock_now_ns();
	if (complete(w, u, w->now))
		return -1;
	fcycle_synced(&w->fc);
	return 0;
}

/*
 * fsync=N, fdatasync=N as fio 3.33 counts them: before an I/O is
 * issued, the job syncs when the writes it issued so far are a non-zero
 * multiple of N and it has issued anything since its last sync or the
 * start of the loop (fcycle_unsynced()). No sync follows the job's last
 * write (16 writes, fsync=4: 3 syncs), the end of a loop that another
 * follows gets one (new_loop()), the next loop may begin with one, and
 * in a mixed job a read after a sync makes the same multiple due again.
 * Returns DDIR_SYNC, DDIR_DATASYNC or 0.
 */
static int sync_due(const struct worker *w)
{
	uint64_t wr = w->st->issued[DDIR_WRITE];

	if (!wr || !fcycle_unsynced(&w->fc))
		return 0;
	if (w->fsync_n && wr % w->fsync_n == 0)
		return DDIR_SYNC;
	if (w->fdatasync_n && wr % w->fdatasync_n == 0)
		return DDIR_DATASYNC;
	return 0;
}

/*
 * The inline loop's due sync, before u (just chosen, not issued) goes:
 * to u's file, as fio syncs the file its next I/O takes. Non-zero: stop.
 */
static __attribute__((noinline)) int sync_inline(struct worker *w,
						 const struct io_u *u)
{
	int d = sync_due(w);

	if (u->ddir == DDIR_WRITE)
		w->sync_file = u->file;
	return d ? do_sync(w, (enum ddir)d, u->file) : 0;
}

/* fcycle_open() / fcycle_close() in a running job: write_iolog says so. */
static int file_open(struct worker *w, unsigned int i, struct strbuf *err)
{
	int ret = fcycle_open(&w->fc, i, err);

	if (!ret && unlikely(w->iolog))
		iolog_writer_file(w->iolog, i, true, clock_now_ns());
	return ret;
}

static void file_close(struct worker *w, unsigned int i)
{
	fcycle_close(&w->fc, i);
	if (unlikely(w->iolog))
		iolog_writer_file(w->iolog, i, false, clock_now_ns());
}

/*
 * end_fsync, fsync_on_close: at the end of each loop, when the job is
 * unsynced, every file is synced (one that is closed is opened for it),
 * as fio does; fio leaves these syncs out of the statistics, so does
 * this. 0, or -1 when one failed.
 */
static int end_syncs(struct worker *w)
{
	const struct job_options *o = &w->p->o;
	unsigned int i;
	int ret = 0;

	if (!(o->end_fsync || o->fsync_on_close) ||
	    (w->ops->flags & ENGINE_F_NOFILEIO) || !fcycle_unsynced(&w->fc))
		return 0;
	w->quiet_sync = 1;
	for (i = 0; i < w->rj->files->nr_files && !ret; i++) {
		bool was_open = fcycle_is_open(&w->fc, i);
		struct strbuf err = STRBUF_INIT;

		if (!was_open && (ret = file_open(w, i, &err))) {
			worker_file_error(w, ret, &err);
			ret = -1;
		} else {
			ret = do_sync(w, DDIR_SYNC, i);
			if (!was_open)
				file_close(w, i);
		}
		strbuf_release(&err);
	}
	w->quiet_sync = 0;
	return ret;
}

/* Opens every file the job starts a pass with. 0 or -1 (job stops). */
static int open_files(struct worker *w)
{
	struct strbuf err = STRBUF_INIT;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < w->rj->files->nr_files && !ret; i++)
		if (wfiles_open_at_start(w->wf, i) &&
		    (ret = file_open(w, i, &err)) < 0)
			worker_file_error(w, ret, &err);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/*
 * The end of a loop that another follows. fio closes the job's files
 * and opens them again for the next loop (so invalidate=1 drops their
 * cache again, and fsync_on_close syncs at each close); before that the
 * sync fsync=N had due when the pass ran out of I/O (end_sync, inline
 * engines only: fio asks them for the next I/O, gets the sync, then
 * finds the files done; a queueing engine's pass ends on the bytes
 * issued) and
 * end_fsync's are made, and the new loop starts unsynced. Returns 0, or
 * -1 when a sync or an open failed.
 */
static int new_loop(struct worker *w)
{
	unsigned int i, n = w->rj->files->nr_files;
	int d = w->end_sync;

	w->end_sync = 0;
	if (d && do_sync(w, (enum ddir)d, w->sync_file))
		return -1;
	if (!(w->ops->flags & ENGINE_F_NOFILEIO))
		for (i = 0; i < n; i++)
			if (fcycle_is_open(&w->fc, i))
				file_close(w, i);
	if (end_syncs(w))
		return -1;
	fcycle_new_loop(&w->fc);
	workload_rewind(w->wl);
	if (w->wf)
		wfiles_restart(w->wf);
	if (!(w->ops->flags & ENGINE_F_NOFILEIO) && open_files(w))
		return -1;
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
static bool pass_uses_files_up(const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	if (!p->random)
		return true;
	if (o->random_distribution != RDIST_RANDOM)
		return false;
	return o->random_generator == RANDGEN_LFSR ||
	       (!o->norandommap && !opt_is_set(o, "ba"));
}

/*
 * A time_based (or ramp_time) pass wraps: the files stay open, and when
 * they were used up fio drops their cache again (invalidate=1) before
 * the next pass.
 */
static void wrap_pass(struct worker *w)
{
	unsigned int i;

	workload_rewind(w->wl);
	if (w->wrap_invalidate)
		for (i = 0; i < w->rj->files->nr_files; i++)
			fcycle_invalidate(&w->fc, i);
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
	st->submit[1] += k;
	st->submit_calls += k;
	st->complete[1] += k;
	st->complete_calls += k;
	w->inline_ios = 0;
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
 * Engines that complete inline: issue, time, count, repeat. The checks
 * of check_time() wait for loop_sync_tick(): one comparison per I/O.
 */
static void loop_sync(struct worker *w)
{
	struct io_u *u = &w->ios[0];
	struct worker_stats *st = w->st;
	uint64_t next_check = 0;
	/* per-I/O extras below: one test for a job that has none of them */
	const bool hooks = w->p->writes || w->pace || w->iolog ||
			   w->fsync_n || w->fdatasync_n || w->wf;

	w->done_more = w->lat_on || w->vf || w->prio;
	w->nr_free = 0;	/* the one io_u is always ours */
	for (;;) {
		if (unlikely(w->now >= next_check)) {
			next_check = loop_sync_tick(w);
			if (!next_check)
				break;
		}
		if (unlikely(w->nr_requeue)) {
			w->nr_requeue = 0;	/* the rest of a short one */
		} else {
			if (next_io(w, u)) {
				if (unlikely(w->fsync_n | w->fdatasync_n))
					w->end_sync = sync_due(w);
				if (!next_pass(w))
					break;
				continue;
			}
			if (!hooks)
				goto issue;
			if (unlikely(w->fsync_n | w->fdatasync_n) &&
			    sync_inline(w, u))
				break;
			if (u->ddir == DDIR_WRITE)
				prep_write(w, u);
			if (unlikely(w->pace) && paced(w, u) &&
			    pace_io(w->pace, u, &w->now))
				break;
			if (unlikely(w->iolog))
				iolog_writer_io(w->iolog, u, w->now);
			if (unlikely(w->wf))
				wfiles_hold(w->wf, u, 0);	/* may wait */
		}
issue:
		st->issued[u->ddir]++;
		w->inline_ios++;
		u->start_time = u->issue_time = w->now;
		w->ops->queue(w->e, u);
		w->now = clock_now_ns();
		if (complete(w, u, w->now))
			break;
		w->nr_free = 0;
	}
	loop_sync_fold(w);	/* the last I/Os' distributions */
	publish_live(w);
}

/*
 * Commits what the current batch queued: one clock read for the batch, the
 * same submission latency for each of its I/Os (design.md rule 4).
 */
static int commit_batch(struct worker *w, unsigned int queued, uint64_t t0)
{
	struct worker_stats *st = w->st;
	unsigned int i, nd[DDIR_RWDIR_CNT] = { 0 };

	if (w->ops->commit) {
		int ret = w->ops->commit(w->e);

		if (ret < 0) {
			st->error = -ret;
			snprintf(w->rj->errmsg, sizeof(w->rj->errmsg),
				 "job '%s': submitting I/O failed: %s",
				 w->p->o.name, strerror(-ret));
			return -1;
		}
	}
	w->now = clock_now_ns();
	/* as fio: a batch counts at the depth it leaves the queue at */
	st->depth[depth_index(w->inflight)] += queued;
	st->submit[submit_index(queued)]++;
	st->submit_calls++;
	for (i = 0; i < queued; i++) {
		struct io_u *u = &w->ios[w->batch[i]];

		u->issue_time = w->now;
		if (u->ddir < DDIR_RWDIR_CNT)
			nd[u->ddir]++;
	}
	/* every I/O of the batch has the same slat: added once per direction */
	for (i = 0; w->slat_on && i < DDIR_RWDIR_CNT; i++) {
		if (nd[i]) {
			struct dir_stats *ds = &st->dir[i];

			moments_add_n(&ds->slat, w->now - t0, nd[i]);
			hist_add_n(&ds->slat_hist, w->now - t0, nd[i]);
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
	if (*queued && commit_batch(w, *queued, *t0))
		return 1;
	*queued = 0;
	if (pace_io(w->pace, u, &w->now))
		return 1;
	*t0 = w->now;
	return 0;
}

/*
 * fsync=N / fdatasync=N with a queueing engine: the sync sync_due()
 * says, before u (chosen, not queued) goes. What the batch queued is
 * submitted first and do_sync() waits for everything in flight, so the
 * sync covers every write before it. Non-zero: stop the job.
 */
static __attribute__((noinline)) int sync_async(struct worker *w,
						const struct io_u *u,
						unsigned int *queued,
						uint64_t *t0)
{
	int d = sync_due(w);

	if (u->ddir == DDIR_WRITE)
		w->sync_file = u->file;
	if (!d)
		return 0;
	if (*queued && commit_batch(w, *queued, *t0))
		return 1;
	*queued = 0;
	if (do_sync(w, (enum ddir)d, u->file))
		return 1;
	*t0 = w->now;
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
				u = &w->ios[w->freel[--w->nr_free]];
				if (next_io(w, u)) {
					/*
					 * no end_sync: fio ends a queueing
					 * engine's pass on the bytes issued,
					 * without asking for another I/O
					 */
					w->nr_free++;
					pass_done = 1;
					break;
				}
				if (unlikely(w->fsync_n | w->fdatasync_n) &&
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
			if (unlikely(w->wf) &&
			    wfiles_hold(w->wf, u, w->inflight)) {
				/* another job holds the file: reap, retry */
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
			st->issued[u->ddir]++;
			if (q == ENGINE_Q_DONE) {
				/* completed inline: a batch of its own */
				w->now = clock_now_ns();
				st->depth[depth_index(w->inflight + 1)]++;
				st->submit[submit_index(1)]++;
				st->submit_calls++;
				st->complete[submit_index(1)]++;
				st->complete_calls++;
				w->freel[w->nr_free++] = u->index;
				if (complete(w, u, w->now) || check_time(w))
					goto out;
				t0 = w->now;
				continue;
			}
			w->inflight++;
			w->batch[queued++] = u->index;
			if (queued >= w->batch_submit) {
				if (commit_batch(w, queued, t0))
					goto out;
				queued = 0;
				t0 = w->now;
				if (check_time(w))
					goto out;
			}
		}
		if (queued && commit_batch(w, queued, t0))
			goto out;
		/* iodepth_batch_complete_min=0: look after every commit */
		if (queued && !w->complete_min && w->inflight &&
		    reap(w, 0) < 0)
			goto out;
		if (pass_done && !w->inflight && w->retry < 0 &&
		    !w->nr_requeue) {
			if (!next_pass(w))
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
	publish_live(w);
}

static int worker_setup(struct worker *w, struct run_job *rj)
{
	const struct job_plan *p = rj->plan;
	const struct job_options *o = &p->o;
	struct strbuf err = STRBUF_INIT;
	unsigned int i;
	int ret;

	memset(w, 0, sizeof(*w));
	w->rj = rj;
	w->p = p;
	w->st = rj->st;
	w->ops = engine_for_plan(p);
	if (!w->ops) {
		snprintf(rj->errmsg, sizeof(rj->errmsg),
			 "job '%s': ioengine '%s' not found", o->name,
			 o->ioengine);
		return -1;
	}
	w->depth = o->iodepth ? o->iodepth : 1;
	if (w->ops->flags & ENGINE_F_SYNC)
		w->depth = 1;
	if ((ret = w->ops->init(p, w->depth, &w->e, &err)))
		goto fail_errno;
	w->e->files = rj->files->files;
	w->e->nr_files = rj->files->nr_files;
	w->e->run_stop = &rj->ctx->stop;
	w->e->job_stop = &rj->stop;
	fcycle_init(&w->fc, w->ops, w->e, p, w->st);
	if (workload_init(&w->wl, p, rj->files->files, rj->files->nr_files,
			  &err))
		goto fail;
	/* openfiles: only the files in use are opened now */
	if (wfiles_init(&w->wf, p, w->wl, &w->fc, w->depth + 1, w, &err))
		goto fail;
	/* FILE_OP engines: when the run starts (worker_file_op_open) */
	for (i = 0; i < rj->files->nr_files; i++)
		if (wfiles_open_at_start(w->wf, i) &&
		    !(w->ops->flags & ENGINE_F_FILE_OP) &&
		    (ret = fcycle_open(&w->fc, i, &err)))
			goto fail_errno;
	if (verify_init(&w->vf, p, rj->files->files, rj->files->nr_files,
			w->depth + 1, w->wl, &err))
		goto fail;
	fault_policy_init(&w->fp, o);

	/* mem=, iomem_align: run/mem.c lays the buffers out */
	ret = iomem_alloc(&w->iom, p, p->max_bs, w->depth + 1, &err);
	if (ret) {
		rj->st->error = -ret;
		goto fail;
	}
	w->mem = w->iom.base;
	w->buf_size = w->iom.stride;
	w->mem_size = w->iom.len;
	w->ios = xcalloc(w->depth + 1, sizeof(*w->ios));
	w->freel = xcalloc(w->depth + 1, sizeof(*w->freel));
	w->batch = xcalloc(w->depth + 1, sizeof(*w->batch));
	w->xfer_done = xcalloc(w->depth + 1, sizeof(*w->xfer_done));
	w->requeue = xcalloc(w->depth + 1, sizeof(*w->requeue));
	w->rnd = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)p->job_index << 32) ^
		 o->randseed;
	if (!o->zero_buffers)
		fill_random(w, w->mem, w->mem_size);
	w->refill = o->refill_buffers && !o->zero_buffers;
	w->scramble = o->scramble_buffers && !o->zero_buffers && !w->refill;
	/* buffer_pattern, compress, dedupe: run/buffer.c owns the contents */
	if (buffer_fill_init(&w->bfill, p, w->rnd, w->mem, w->buf_size,
			     w->depth + 1, &err))
		goto fail;
	if (w->bfill) {
		w->scramble = 0;
		w->refill = buffer_fill_refills(w->bfill) ? 2 : 0;
	}
	for (i = 0; i <= w->depth; i++) {
		struct io_u *u = &w->ios[i];

		u->index = i;
		u->buf = (char *)w->mem + (size_t)i * w->buf_size;
		/* the job's priority; engines with cmdprio set it per I/O */
		u->ioprio = p->prio ? p->prio->def : 0;
		if (w->ops->prep && (ret = w->ops->prep(w->e, u)))
			goto fail_prep;
		if (i < w->depth)
			w->freel[w->nr_free++] = i;
	}

	w->inline_engine = (w->ops->flags & ENGINE_F_SYNC) ||
			   (w->depth == 1 && (w->ops->flags & ENGINE_F_INLINE_DEPTH1));
	w->clat_on = !o->disable_clat;
	w->lat_on = !o->disable_lat;
	if (w->inline_engine && w->clat_on && w->lat_on) {
		/* one clock read starts and issues an inline I/O */
		w->lat_on = 0;
		w->lat_from_clat = 1;
	}
	w->slat_on = !o->disable_slat &&
		     !(w->ops->flags & ENGINE_F_SYNC);
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
	}
	/* fio: batch_submit 0 means the whole depth; complete_min 0 polls */
	w->batch_submit = o->iodepth_batch_submit ? o->iodepth_batch_submit :
			  w->depth;
	if (w->batch_submit > w->depth)
		w->batch_submit = w->depth;
	w->complete_min = o->iodepth_batch_complete_min;
	/* fio: complete_max defaults to complete_min (at least 1) */
	w->complete_max = o->iodepth_batch_complete_max ?
			  o->iodepth_batch_complete_max :
			  (w->complete_min ? w->complete_min : 1);
	if (w->complete_max < w->complete_min)
		w->complete_max = w->complete_min;
	w->depth_low = o->iodepth_low && o->iodepth_low < w->depth ?
		       o->iodepth_low : w->depth;
	w->retry = -1;
	w->coe = o->continue_on_error;
	w->time_based = o->time_based;
	/* fio: the dry run of verify_only gives writes no time */
	w->run_dirs = p->ddir_mask & ~(o->verify_only ? 1u << DDIR_WRITE : 0);
	w->wrap_invalidate = o->invalidate && pass_uses_files_up(p);
	w->loops_left = o->loops ? o->loops : 1;
	w->prio = w->st->prio = prio_stats_new(p);
	w->lt = lat_target_new(p, w->depth, w->lat_on);
	if (w->lt)
		lat_target_start(w->lt, w->st, clock_now_ns(), w->freel,
				 &w->nr_free);
	if (o->write_iolog && *o->write_iolog &&
	    iolog_writer_open(&w->iolog, o->write_iolog, rj->files->files,
			      rj->files->nr_files, clock_now_ns(), &err))
		goto fail;
	strbuf_release(&err);
	return 0;
fail_prep:
	strbuf_addf(&err, "engine '%s' could not prepare its buffers%s%s",
		    w->ops->name, ret < 0 ? ": " : "",
		    ret < 0 ? strerror(-ret) : "");
fail_errno:
	/* the engine's own errno (EAGAIN from io_setup, EPERM from open) */
	if (ret < 0 && !rj->st->error)
		rj->st->error = -ret;
fail:
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
	pace_free(w->pace);
	flow_job_done(rj->ctx->flows, (unsigned int)(rj - rj->ctx->jobs));
	lat_target_free(w->lt);
	buffer_fill_free(w->bfill);
	if (w->wl)
		workload_free(w->wl);
	iomem_free(&w->iom);
	free(w->ios);
	free(w->freel);
	free(w->batch);
	free(w->xfer_done);
	free(w->requeue);
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

/* wait_for=name: block until every instance of that job has finished. */
static void wait_for_job(struct run_job *rj)
{
	struct run_ctx *ctx = rj->ctx;
	const char *name = rj->plan->o.wait_for;
	unsigned int i;

	if (!name || !*name)
		return;
	pthread_mutex_lock(&ctx->lock);
	for (;;) {
		int pending = 0;

		for (i = 0; i < ctx->nr_jobs; i++) {
			struct run_job *o = &ctx->jobs[i];

			if (o != rj && !strcmp(o->plan->o.name, name) &&
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
	if (w->fsync_n || w->fdatasync_n)	/* end syncs are not counted */
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

void *worker_main(void *arg)
{
	struct run_job *rj = arg;
	const struct job_options *o = &rj->plan->o;
	struct worker w;
	struct proc_job pj;
	struct rusage ru_end;
	struct strbuf err = STRBUF_INIT;
	int ret;

	rj->res.tid = gettid();
	if (rj->iowq)
		rj->iowq->owner = rj->res.tid;
	if (cpus_place_thread(rj->plan, &err) ||
	    prio_place_thread(rj->plan, &err)) {
		clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
		return job_ends_early(rj, &err, EINVAL);
	}
	strbuf_release(&err);
	wait_for_job(rj);
	if (o->startdelay_us)
		clock_sleep_us(o->startdelay_us, &rj->ctx->stop);

	clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
	/* uid, gid, lockmem, cgroup, nice, ioscheduler: run/proc.c */
	ret = proc_job_begin(rj->plan, rj->files, &pj, &err);
	if (ret) {
		proc_job_end(rj->plan, &pj, 0);
		return job_ends_early(rj, &err, -ret);
	}
	if (worker_setup(&w, rj)) {
		proc_job_end(rj->plan, &pj, 0);
		worker_teardown(&w);
		rj->res.error = rj->st->error;
		job_finished(rj);
		return NULL;
	}
	if (proc_job_prerun(rj->plan, &err)) {
		proc_job_end(rj->plan, &pj, 0);
		worker_teardown(&w);
		return job_ends_early(rj, &err, ECANCELED);
	}
	prefault_stats(&w);
	if (o->exit_on_io_done) {
		pthread_mutex_lock(&rj->ctx->lock);
		io_done_check(rj->ctx);
		pthread_mutex_unlock(&rj->ctx->lock);
	}
	clock_gettime(CLOCK_REALTIME, &rj->res.start_wall);
	w.now = clock_now_ns();
	rj->res.start_us = w.now / 1000;
	if (o->runtime_us)
		w.end_ns = w.now + (o->ramp_time_us + o->runtime_us) * 1000;
	if (o->ramp_time_us) {
		w.ramping = 1;
		w.ramp_end_ns = w.now + o->ramp_time_us * 1000;
		atomic_store(&rj->state, WS_RAMP);
		getrusage(RUSAGE_THREAD, &w.ru_start);
		rj->delay0_ns = stall_delay_ns(0);
		rj->run_start_ns = w.now;
	} else {
		reset_stats(&w);
	}
	worker_pace_start(&w);

	if (w.file_op && worker_file_op_open(&w, false))
		;	/* the error is the job's: no I/O */
	else if (w.inline_engine)
		loop_sync(&w);
	else
		loop_async(&w);
	if (w.file_op)
		worker_file_op_lat(&w);
	if (w.ops->dropped) {
		uint64_t lost = w.ops->dropped(w.e);

		w.st->dir[DDIR_READ].drop_ios += lost;
		w.st->issued_drop[DDIR_READ] += lost;
	}
	if (w.lat_from_clat) {
		unsigned int d;

		/* issue and start times are one clock read: lat is clat */
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			struct dir_stats *ds = &w.st->dir[d];

			ds->lat = ds->clat;
			/* its used range: the rest would only cost memory */
			if (ds->clat.n)
				hist_add_range(&ds->lat_hist, &ds->clat_hist,
					       ds->clat.min, ds->clat.max);
		}
	}

	/* the last loop's end_fsync (fsync_on_close's, as fio) */
	if (!w.st->error)
		end_syncs(&w);
	if (w.vf && verify_finish(w.vf, &err) && !w.st->error) {
		w.st->error = EIO;
		snprintf(rj->errmsg, sizeof(rj->errmsg), "job '%s': %s",
			 o->name, strbuf_str(&err));
	}
	strbuf_release(&err);
	w.now = clock_now_ns();
	if (w.iolog) {
		int e = iolog_writer_close(w.iolog, w.now);

		w.iolog = NULL;
		if (e && !w.st->error) {
			w.st->error = -e;
			snprintf(rj->errmsg, sizeof(rj->errmsg),
				 "job '%s': write_iolog '%s': %s", o->name,
				 o->write_iolog, strerror(-e));
		}
	}
	worker_log_end(&w);
	getrusage(RUSAGE_THREAD, &ru_end);
	add_rusage(&rj->res, &w.ru_start, &ru_end);
	rj->res.run_delay_ns = stall_since(0, rj->delay0_ns);
	rj->res.elapsed_us = (w.now - rj->run_start_ns) / 1000;
	end_phase(&w);
	if (w.e && w.ops->describe) {
		struct strbuf sb = STRBUF_INIT;

		w.ops->describe(w.e, &sb);
		snprintf(rj->describe, sizeof(rj->describe), "%s",
			 strbuf_str(&sb));
		strbuf_release(&sb);
	}
	rj->res.error = w.st->error;
	rj->res.latency_depth = lat_target_depth(w.lt);
	/*
	 * Errors continued past: the report's error is the first of them
	 * and the run fails, but the job did not stop on an error, so
	 * exitall_on_error (which reads st->error) lets the others be.
	 */
	if (!rj->res.error)
		rj->res.error = w.first_err;
	if (rj->iowq) {
		/* before the ring closes and its workers exit with it */
		iowq_scan(rj->iowq);
		rj->res.iowq_cpu_ns = iowq_total_ns(rj->iowq) - rj->iowq_base_ns;
		rj->res.iowq_threads = rj->iowq->nr;
		rj->res.iowq_max_threads = rj->iowq->max_alive;
	}
	proc_job_end(rj->plan, &pj, 1);
	worker_teardown(&w);
	job_finished(rj);
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * The worker's own state, shared by its three files (private to them):
 * worker.c has the I/O loops and what they do per I/O (issue, complete,
 * reap, errors, the syncs of fsync=N); worker_files.c the passes and the
 * files (opens and closes per loop, end_fsync, FILE_OP engines);
 * worker_setup.c a job's thread from start to end (setup, buffers,
 * prefaulting, teardown). Nothing a loop does per I/O calls across them:
 * what crosses is per pass, per loop or per job, or already out of line.
 */
#ifndef IOLITE_RUN_WORKER_INT_H
#define IOLITE_RUN_WORKER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/engine.h"
#include "proc/mem.h"
#include "run/fcycle.h"
#include "run/worker.h"
#include "stats/stats.h"
#include "verify/fault.h"
#include "workload/buffer.h"

struct buf_fill;
struct iolog_writer;
struct job_log;
struct lat_target;
struct pace;
struct prio_stats;
struct verify;
struct wfiles;
struct workload;
struct zbd;

/* worker.end_stage: the steps of a job's end done */
enum { END_RUNNING, END_STATS, END_FINISHED, END_LOGGED, END_FILLED };

struct worker {
	struct run_job *rj;
	/* the steps of the job's end done (worker_main()), for a job given
	 * up in the middle of them (worker_abandon()) */
	int end_stage;
	const struct job_plan *p;
	const struct engine_ops *ops;
	struct engine *e;
	struct workload *wl;
	struct zbd *zbd;	/* zonemode=zbd (zbd/zbd.h), else NULL */
	/* zbd: loop_async()'s batch, queued and not committed, and its t0,
	 * while next_io_batch() asks the slow path (0 otherwise) */
	unsigned int zq;
	uint64_t zt0;
	struct worker_stats *st;
	struct io_u *ios;	/* depth + 1: the last is for syncs */
	unsigned int depth;
	unsigned int *freel;
	unsigned int nr_free;
	unsigned int inflight;
	unsigned int *batch;	/* indexes queued in the current batch */
	struct iomem iom;	/* the buffers' memory (proc/mem.h) */
	void *mem;
	size_t mem_size;
	size_t buf_size;

	uint64_t now;
	uint64_t end_ns;	/* 0: no runtime limit */
	uint64_t ramp_end_ns;	/* UINT64_MAX: ramp_size's ramp */
	int ramping;
	/* ramp_size: bytes that end the ramp, those told to the group */
	uint64_t ramp_bytes, ramp_told;
	_Atomic uint64_t *ramp_group;	/* group_reporting: the group's */
	unsigned int loops_left;
	uint64_t extra_done;		/* bytes when short_of_size() last ran */
	uint64_t short_by;		/* what short_of_size() found missing */
	uint64_t short_nios;		/* ... and number_ios left (or MAX) */
	uint64_t tb_issued;		/* I/Os issued when the last pass ended */
	int time_based;

	int clat_on, lat_on, slat_on;
	/* commit_batch(): a full queue's commit waits too (commit_waits) */
	bool submit_wait;
	bool in_event;	/* reap(): the I/O came back as a completion event */
	int ss_lat;		/* steady state on latency: publish clat */
	int lat_from_clat;	/* inline engine: lat == clat, copied at end */
	int inline_engine;	/* queue() always completes: loop_sync */
	int file_op;		/* ENGINE_F_FILE_OP: take_lat() has the times */
	unsigned int file_op_dir;	/* ... of this direction */
	int done_more;		/* lat_on || vf: complete_more() (loops set it) */
	uint64_t inline_ios;	/* loop_sync: I/Os not yet in st->depth... */
	int inline_calls;	/* ... and in submit/complete: not for null,
				 * which commits at depth > 1 (fio counts no
				 * calls for its inline completions) */
	/*
	 * fsync=N, fdatasync=N, sync_file_range=flags:N (fio's rule, see
	 * sync_due()); sync_any: any of them, one test per I/O; sfr_range:
	 * per file, the first byte and the end of the writes issued since
	 * its last sync (sync_file_range only, else NULL); fc: the files'
	 * opens and closes, and whether the job is synced (run/fcycle.h).
	 */
	unsigned int fsync_n, fdatasync_n, sfr_n, sync_any;
	uint64_t sync_wr;	/* writes issued at the last sync (0: none
				 * since the loop began) */
	uint64_t *sfr_range;
	unsigned int sync_file;		/* file of the last write */
	int end_sync;			/* sync_due() when the pass ended */
	int quiet_sync;			/* end_fsync's: not in the stats */
	bool io_ended;			/* worker_io_end() ran this loop */
	bool ran_out;			/* the pass ran out: pass_ran_out() */
	/*
	 * What next_io() does besides asking the workload for the I/O, in
	 * one word so that a job with none of it pays one test per I/O
	 */
	union {
		struct {
			bool file_events;	/* openfiles' (w->wf) */
			bool lazy_open;		/* files open at first I/O */
			bool drop_invalidate;	/* a file started over */
			bool zoned;		/* zonemode=zbd: w->zbd */
			bool verifies;		/* w->vf: it gives the I/O */
			bool wraps;		/* io_size: worker_wrap() */
		};
		uint64_t next_extra;
	};
	unsigned int lazy_left;		/* files worker_lazy_open() may open */
	bool wrap_invalidate;		/* wrap_pass() drops the cache */
	struct file_cycle fc;

	unsigned int batch_submit;	/* commit every this many queued */
	unsigned int depth_batch;	/* iodepth_batch_submit's, for ... */
	unsigned int depth_mark;	/* ... the IO depths: queued since */
	int one_by_one;			/* complete_min=max=0: fio's QD1 */
	unsigned int complete_min;	/* reap at least (0: poll) */
	unsigned int complete_max;	/* reap at most */
	unsigned int depth_low;		/* refill when this few in flight */
	int retry;			/* io_u the engine refused, or -1 */

	enum buf_write wmode;	/* what a write does to its buffer */
	uint64_t nr_writes, scramble_key;	/* for BUF_SCRAMBLE */
	struct buf_fill *bfill;	/* BUF_REFILL's contents (workload/buffer.h) */
	struct rusage ru_start;

	/* verification and faults (verify/; see io_error()) */
	struct verify *vf;		/* NULL: the job does not verify */
	struct fault_policy fp;		/* continue_on_error, ignore_error */
	uint32_t *xfer_done;		/* per io_u: bytes of a short one done */
	/*
	 * io_us with xfer_done != 0, plus one while wf is set: one test
	 * per completion sends both to complete_rare()
	 */
	unsigned int nr_split;
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
	bool dbg_io;		/* --debug=io: lines through iolog (a hook) */

	/* per-I/O priorities (cmdprio): each priority's latency, or NULL */
	struct prio_stats *prio;
	struct overlap *ovl;	/* serialize_overlap (run/overlap.h) or NULL */
	struct verify_async *va;	/* verify_async (verify/async.h) or NULL */
};

/* The job's own loop synced (fsync=N, the end syncs): sync_due() */
static inline void worker_synced(struct worker *w)
{
	fcycle_synced(&w->fc);
	w->sync_wr = w->st->issued[DDIR_WRITE];
}

/* Credits the open phase's time to the directions it counts for. */
static inline void end_phase(struct worker *w)
{
	stats_runtime_add(w->st, w->run_dirs, w->in_verify,
			  w->now - w->phase_ns);
	w->phase_ns = w->now;
	w->in_verify = 0;
}

/* sync_file_range: file i has no write since its last sync */
static inline void worker_sfr_reset(struct worker *w, unsigned int i)
{
	w->sfr_range[2 * i] = UINT64_MAX;
	w->sfr_range[2 * i + 1] = 0;
}

/* worker.c: the loops, and what the other two call in them */
void worker_run(struct worker *w);
int worker_do_sync(struct worker *w, enum ddir d, unsigned int file);
int worker_drain(struct worker *w);
void worker_reset_stats(struct worker *w);
void worker_pace_start(struct worker *w);
void worker_log_end(struct worker *w);

/* worker_files.c: passes and files */
int worker_next_pass(struct worker *w);
void worker_file_events(struct worker *w);
void worker_drop_restarted(struct worker *w);
int worker_wrap(struct worker *w);
void worker_file_op_lat(struct worker *w);
int worker_file_op_open(struct worker *w, bool again);
int worker_end_syncs(struct worker *w);
int worker_io_end(struct worker *w, bool more);
void worker_lazy_start(struct worker *w, bool every);
int worker_open_now(struct worker *w, struct strbuf *err);
int worker_lazy_open(struct worker *w, unsigned int file);

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

static inline enum fault_class fault_class_of(unsigned int d)
{
	return d == DDIR_READ ? FAULT_READ : FAULT_WRITE;
}

/*
 * run/worker_err.c: an I/O's error (err, of class cls; msg or one made
 * up), counted and said as continue_on_error and ignore_error rule;
 * non-zero: the job stops. A short transfer: its rest queued again (1),
 * its error let through (0) or the job stopped (-1).
 */
int worker_io_error(struct worker *w, struct io_u *u, int err,
		    enum fault_class cls, const char *msg);
int worker_short_xfer(struct worker *w, struct io_u *u);

#endif

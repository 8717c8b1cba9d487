/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_WORKER_H
#define IOLITE_RUN_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "opt/plan.h"
#include "run/iowq.h"
#include "stats/worker_result.h"
#include "target/files.h"

enum worker_state {
	WS_INIT,	/* created, not yet started its I/O */
	WS_RAMP,	/* issuing I/O during ramp_time (not counted) */
	WS_RUNNING,
	WS_DONE,
};

struct job_log;
struct flow_table;

/* continued errors a job keeps the message of (the rest are counted) */
#define RUN_CONT_ERRS 8

/* One job instance: its plan, its files and what it measured. */
struct run_job {
	struct job_plan *plan;		/* borrowed */
	struct job_files *files;	/* borrowed */
	struct worker_stats *st;	/* owned, large: heap */
	struct worker_result res;
	pthread_t thread;
	_Atomic int state;		/* enum worker_state */
	uint64_t run_start_ns;		/* when counting started */
	int64_t delay0_ns;		/* run-queue delay then (run/stall.h) */
	struct run_ctx *ctx;
	volatile int stop;		/* set to end this job now (steady
					 * state, exit_what: run/steady.c) */
	struct iowq_track *iowq;	/* io_uring jobs only, else NULL */
	uint64_t iowq_base_ns;		/* io-wq time before counting began */
	char errmsg[512];		/* the error that stopped it: stderr */
	char describe[256];		/* the engine's own line, for notes */
	/* errors continued past, for the report's notes: the first ones */
	char cont_err[RUN_CONT_ERRS][512];
	unsigned int nr_cont_errs;	/* all of them */

	/*
	 * Logs and reports while the run goes on (run/runner.c): log is set
	 * by the runner (NULL: the job logs nothing). When ctx->snap_gen
	 * moves, the worker copies its stats into snap (the runner's) at a
	 * batch boundary, with its CPU use so far and the time, then stores
	 * the generation in snap_done (release).
	 */
	struct job_log *log;
	struct worker_stats *snap;
	struct rusage snap_ru;
	uint64_t snap_ns;
	/* the snapshot's counting start, and whether it counted (not a
	 * ramp's figures, which the reset at its end throws away) */
	uint64_t snap_start_ns;
	bool snap_counting;
	_Atomic unsigned int snap_done;
	/* run/stuck.h: the thread is up (rj->thread set), the job given
	 * up, its thread parked; the worker, for worker_abandon() only */
	_Atomic int thread_up;
	_Atomic int abandoned;
	_Atomic int *parked;		/* the thread's own (stuck_thread_flag) */
	struct worker *w;
};

/* State shared by all workers of a run (read-mostly). */
struct run_ctx {
	volatile int stop;		/* set to end every job now */
	_Atomic unsigned int snap_gen;	/* a report wants the stats */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* signalled when a job finishes */
	struct run_job *jobs;
	unsigned int nr_jobs;
	struct flow_table *flows;	/* run/flow.h; NULL: no job flows */
	/* ramp_size with group_reporting: bytes per group id, else NULL */
	_Atomic uint64_t *ramp_bytes;
};

/* Thread entry: runs one job instance to completion. */
void *worker_main(void *arg);

/*
 * A job given up (run/stuck.h): its result from its figures as they
 * stand, failed with the reason, and the job marked done. Its thread is
 * parked or blocked in the kernel; idle_ns: how long its I/O count has
 * not moved.
 */
void worker_abandon(struct run_job *rj, uint64_t now, uint64_t idle_ns);

/*
 * Whether a pass of the job reads or writes each block of its region once
 * (sequential, or random with a random map): fio then drops the files'
 * cache again (invalidate=1) before the next pass, so a buffered pass
 * starts cold. Otherwise blocks come round again within a pass.
 */
bool worker_pass_uses_files_up(const struct job_plan *p);

#endif

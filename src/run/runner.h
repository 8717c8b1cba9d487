/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_RUNNER_H
#define IOLITE_RUN_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"
#include "stats/log.h"
#include "stats/run_status.h"
#include "util/strbuf.h"

enum run_phase { RUN_PHASE_BEGIN, RUN_PHASE_PAUSE, RUN_PHASE_RESUME,
		 RUN_PHASE_END };

/*
 * How a run reports while it goes on. Every hook is called from the
 * reporter thread (never from a worker), one at a time; NULL hooks are
 * skipped. All fields are optional: a zeroed struct runs quietly.
 */
struct runner_opts {
	uint64_t eta_interval_ms;	/* status line period; 0: none */
	uint64_t status_interval_ms;	/* full report period; 0: none */
	uint64_t interval_ms;		/* live interval period; 0: none */
	struct log_set *logs;		/* log files; NULL: none */
	void *arg;			/* passed to the hooks */
	/* the status line; s == NULL: the run is over or a report or a
	 * message follows, end the line */
	void (*status)(void *arg, const struct run_status *s);
	/*
	 * A report of what ran so far (SIGUSR1, status_interval): wr[i] is
	 * job i's result, its st a consistent copy of the worker's stats
	 * (see runner.c), valid during the call only. Jobs not started yet
	 * (later stonewall groups) are left out: nr counts the others.
	 */
	void (*report)(void *arg, struct worker_result *wr, unsigned int nr);
	/*
	 * The live interval (src/live/), every interval_ms and once more
	 * when every job is done (final): wr[i] as for report, every job
	 * listed, with its figures' times (count_ns, at_ns; at_ns 0: no
	 * counting figures this time: not started, ramping, or its copy
	 * did not come in time) and done. Not called for SIGUSR1.
	 */
	void (*interval)(void *arg, struct worker_result *wr, unsigned int nr,
			 bool final);
	/*
	 * The measured phase of a stonewall group (groupid: its first
	 * job's): RUN_PHASE_BEGIN once some job of the group counts and
	 * none ramps, PAUSE while one ramps again, RESUME, END when every
	 * job of the group is done. The reporter calls it, so the moves are
	 * seen within its 10 ms tick.
	 */
	void (*phase)(void *arg, unsigned int groupid, enum run_phase what);
	/*
	 * A run in step with other processes (iolite-mpi, src/mpi/):
	 * segment_start is called by the runner before each stonewall
	 * segment seg starts (0, 1, ...; non-zero: the run stops there);
	 * sync_poll by the reporter thread every tick, stopping set once
	 * this run stops (a signal, a job's error); non-zero from it stops
	 * the run as a signal would (another process asked). Both get
	 * sync_arg.
	 */
	int (*segment_start)(void *sync_arg, unsigned int seg);
	int (*sync_poll)(void *sync_arg, bool stopping);
	/*
	 * After the first segment_start: the time (clock_now_ns()) the live
	 * intervals are to be whole periods from, so that they end where
	 * the other processes' do; 0: the run's start as without it
	 */
	uint64_t (*interval_epoch)(void *sync_arg);
	void *sync_arg;
	/* a job told to stop whose I/O has not moved this long is given
	 * up (run/stuck.h); 0: STUCK_TIMEOUT_DEFAULT_MS */
	uint64_t stuck_timeout_ms;
	/* out: SIGINT or SIGTERM when a signal stopped the run, else 0 */
	int signal;
	/* out: jobs given up (their threads are parked: end the process
	 * after the report rather than run again) */
	unsigned int abandoned;
};

/*
 * Runs every job instance with fio's grouping semantics: jobs up to the
 * next stonewall run together; a stonewall job waits for everything
 * before it. One thread per instance, plus the reporter thread: it takes
 * bandwidth and IOPS samples from the workers' live counters every
 * bwavgtime / iopsavgtime, writes the logs, draws the status line and
 * prints reports on request. Fills each job's res (worker_result).
 *
 * While it runs, SIGINT and SIGTERM stop every job cleanly (in-flight
 * I/O completes, files close, logs are flushed; ro->signal says which),
 * a second SIGINT or SIGTERM ends the process at once with status
 * 128 + signal, and SIGUSR1 asks for a report. The previous handlers
 * are back when it returns.
 *
 * ro may be NULL. Returns 0 when every job ran without error, 1 when
 * some job reported an error (messages already in the jobs' errmsg),
 * -1 when the run could not start.
 */
int runner_run(struct run_job *jobs, unsigned int nr, struct runner_opts *ro,
	       struct strbuf *err);

/*
 * Before building more instances of a job: have are built already, more
 * are asked for, max is --max-jobs (0: RUNNER_MAX_JOBS, opt/plan.h).
 * Returns 0, or -1
 * with "option 'numjobs': ..." (what, the limit and why) in err.
 */
int runner_jobs_check(unsigned int have, unsigned int more,
		      unsigned long max, struct strbuf *err);

/* Asks every running job to stop (exitall and the like). */
void runner_stop(void);

/* The signal (SIGINT, SIGTERM) that stopped the run, or 0. */
int runner_signal(void);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_WORKER_RESULT_H
#define IOLITE_STATS_WORKER_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "opt/plan.h"
#include "stats/series.h"
#include "stats/stats.h"
#include "stats/steady_result.h"
#include "util/reqstat.h"

/*
 * What the runner hands to stats/ for each job instance after the run:
 * the plan, the worker's own stats, the samples taken by the sampler
 * thread, its CPU use and its timing. stats/results.c turns an array of
 * these into the results model the report writers read.
 */
struct worker_result {
	const struct job_plan *plan;
	struct worker_stats *st;

	/* bandwidth (KiB/s) and IOPS samples, taken every bwavgtime /
	 * iopsavgtime by the sampler thread (never by the worker); the
	 * last ones sample the directions' sum (unified_rw_reporting) */
	struct welford bw_samples[DDIR_RWDIR_CNT + 1];
	struct welford iops_samples[DDIR_RWDIR_CNT + 1];
	/* the same samples over time (bytes/s and IOPS), for the pictures;
	 * owned, worker_result_release() frees them */
	struct series bw_series[DDIR_RWDIR_CNT + 1];
	struct series iops_series[DDIR_RWDIR_CNT + 1];

	struct rusage ru;	/* this thread's usage over the job (delta) */
	/* the time it was runnable but not running over the job (ns), -1:
	 * the kernel does not say, 0 also when the job never counted */
	int64_t run_delay_ns;
	uint64_t elapsed_us;	/* job wall time after ramp_time */
	uint64_t start_us;	/* CLOCK_MONOTONIC at job start */
	struct timespec start_wall;	/* CLOCK_REALTIME at job start */
	struct timespec start_clock;	/* job_start_clock_id's, then */
	/*
	 * The live stream's clock (src/live/): when counting began
	 * (ramp_time's end, a latency_target restart) and the time the
	 * figures are of (a snapshot's, or the end), the run's clock in
	 * ns; at_ns 0: no figures this time. done: the job ended.
	 */
	uint64_t count_ns, at_ns;
	bool done;
	pid_t tid;
	int error;		/* errno of the error that ended the job, or 0 */
	bool running;		/* a report made while the job runs */
	bool ramp_end;		/* it ended during its ramp_time: counted,
				 * no latencies (fio) */

	dev_t *devs;		/* block devices behind the job's files */
	unsigned int nr_devs;

	/*
	 * iolite's own cost: the worker thread's user-space CPU time over
	 * the counted part of the job (ru.ru_utime), reported per I/O.
	 * io_uring punts some requests to kernel io-wq worker threads
	 * ("iou-wrk-<tid>"); their CPU time on this job's behalf and how
	 * many there were are sampled from /proc by the runner.
	 */
	uint64_t iowq_cpu_ns;		/* usr + sys of this job's iou-wrk */
	unsigned int iowq_threads;	/* distinct iou-wrk threads seen */
	unsigned int iowq_max_threads;	/* most alive at one time */

	/*
	 * Log files (stats/log.h): whether the job writes any, the time it
	 * waited for the log writer (its I/O stood still meanwhile) and the
	 * entries dropped instead with log_drop_when_behind.
	 */
	bool logs;
	uint64_t log_wait_ns;
	uint64_t log_dropped;
	uint64_t zone_resets;	/* zonemode=zbd */

	/*
	 * latency_target: the queue depth the search settled on (0: no
	 * search); steady state: the judgement of the job (or its
	 * group_reporting group), NULL when off; owned, free() it.
	 */
	unsigned int latency_depth;
	struct ss_result *ss;
	/*
	 * The requests the engine sent to its server, by kind (http's
	 * methods: util/reqstat.h); NULL for other engines. Owned.
	 */
	struct reqstats *reqs;
};

/* Frees what the runner made for w (ss, the series); stats/results.c. */
void worker_result_release(struct worker_result *w);

#endif

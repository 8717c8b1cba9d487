/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_WORKER_RESULT_H
#define IOLITE_STATS_WORKER_RESULT_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "opt/plan.h"
#include "stats/stats.h"

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
	 * iopsavgtime by the sampler thread (never by the worker) */
	struct welford bw_samples[DDIR_RWDIR_CNT];
	struct welford iops_samples[DDIR_RWDIR_CNT];

	struct rusage ru;	/* this thread's usage over the job (delta) */
	uint64_t elapsed_us;	/* job wall time after ramp_time */
	uint64_t start_us;	/* CLOCK_MONOTONIC at job start */
	struct timespec start_wall;	/* CLOCK_REALTIME at job start */
	pid_t tid;
	int error;		/* errno of the error that ended the job, or 0 */

	dev_t *devs;		/* block devices behind the job's files */
	unsigned int nr_devs;
};

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_RUN_STATUS_H
#define IOLITE_STATS_RUN_STATUS_H

#include <stdint.h>

#include "opt/options.h"

/*
 * What the status line shows: a snapshot of the run in progress, worked
 * out by the runner's reporter thread from the workers' live counters
 * and handed to the status hook (runner_opts.status), which borrows it
 * for the duration of the call; report/status.c draws it. It lives with
 * the results, as the model the other report writers read does, so that
 * report/ never includes the runner.
 */
struct run_status {
	unsigned int nr_jobs;
	const char *states;	/* nr_jobs letters, in job order (fio's:
				 * P not started, C starting, / ramp, R r W w
				 * M m D d running, _ done, X failed) */
	unsigned int running;	/* jobs issuing I/O, ramp included */
	unsigned int files;	/* files those jobs have open */
	double pct;		/* of the whole run, 0..100; < 0: unknown */
	int64_t eta_s;		/* seconds left in the run; < 0: unknown */
	uint64_t bw[DDIR_RWDIR_CNT];	/* bytes/s since the last line */
	uint64_t iops[DDIR_RWDIR_CNT];
	unsigned int dir_mask;	/* directions to show */
	/*
	 * The running jobs' rate limits, summed over them and the
	 * directions each uses (fio's ", 0-200 IOPS" part): rate_min and
	 * rate (bytes/s), or when neither is set rate_iops_min and
	 * rate_iops; all 0: no limit to show
	 */
	uint64_t rate_lo, rate_hi;
	uint64_t iops_lo, iops_hi;
	unsigned int kb_base;	/* the first job's: 1024 or 1000 */
	uint64_t elapsed_ms;	/* since the run started */
	/* the job list entry (desc_index) of the first job not done */
	unsigned int desc;
	/*
	 * Filled by main, not the runner: --sweep's point running, from 1,
	 * of nr_points (0: no sweep); --repeat's run, from 1, of nr_rounds
	 * (0: one run), and the seconds left in all of them (< 0: unknown)
	 */
	unsigned int point, nr_points;
	unsigned int round, nr_rounds;
	int64_t eta_all_s;
};

#endif

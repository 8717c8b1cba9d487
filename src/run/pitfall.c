/* SPDX-License-Identifier: MIT */
/*
 * Pitfall notes: see run/pitfall.h. Everything here runs before the
 * first job starts or after the last one ends.
 */
#include "run/pitfall.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

/* The tester's stalls: more than 1% of the run waiting for a CPU. */
static void stall_notes(const struct run_result *rr, struct notes *out)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];
		double pct;

		if (!j->run_delay_known || !j->run_ms || j->not_started)
			continue;
		pct = (double)j->run_delay_ns / 1e4 / (double)j->run_ms;
		if (pct <= 1.0)
			continue;
		notes_add(out, "job '%s': the tester was starved of CPU: its worker %s runnable but not running for %.1f ms (%.1f%% of %llu ms run; %llu involuntary context switches): a dip in IOPS may be the tester's, not the device's",
			  j->name, j->members > 1 ? "threads were" : "thread was",
			  (double)j->run_delay_ns / 1e6, pct,
			  (unsigned long long)j->run_ms,
			  (unsigned long long)j->nivcsw);
	}
}

void pitfall_before(const struct job_plan *plans, const struct job_files *files,
		    unsigned int nr, struct notes *out)
{
	(void)plans;
	(void)files;
	(void)nr;
	(void)out;
}

void pitfall_after(const struct run_result *rr, struct notes *out)
{
	stall_notes(rr, out);
}

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_CPUS_H
#define IOLITE_RUN_CPUS_H

#include <sched.h>

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * Parses a cpus_allowed list ("0-3,6,8-11") into set. 0 or -1 with a
 * message naming the bad part in err.
 */
int cpus_parse_list(const char *s, cpu_set_t *set, struct strbuf *err);

/*
 * The CPU set a job instance runs on (cpus_allowed / cpumask, with
 * cpus_allowed_policy=split giving clone k the k-th CPU of the set).
 * Returns 0 with *any = 0 when the job does not restrict CPUs.
 */
int cpus_for_job(const struct job_plan *p, cpu_set_t *set, int *any,
		 struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_CPU_OPTS_H
#define IOLITE_OPT_CPU_OPTS_H

#include <sched.h>

#include "opt/plan.h"
#include "util/strbuf.h"

/* numa_mem_policy's modes, as set_mempolicy(2) knows them. */
enum numa_mode {
	NUMA_MODE_NONE,		/* option not given: leave the policy be */
	NUMA_MODE_DEFAULT,
	NUMA_MODE_PREFER,
	NUMA_MODE_BIND,
	NUMA_MODE_INTERLEAVE,
	NUMA_MODE_LOCAL,
};

/*
 * Parses numa_mem_policy ("bind:0-1", "prefer:1", "local", ...) into its
 * mode and node set. prefer takes exactly one node; bind and interleave
 * a list or "all"; default and local none. Returns 0 or -1 with the
 * reason in err.
 */
int numa_policy_parse(const char *s, enum numa_mode *mode, cpu_set_t *nodes,
		      struct strbuf *err);

/*
 * Checks the CPU and NUMA placement options against this machine, before
 * anything runs: cpus_allowed and cpumask name CPUs that exist,
 * numa_cpu_nodes and numa_mem_policy nodes that exist, and the CPUs left
 * after numa_cpu_nodes and cpus_allowed are combined are not none.
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int cpu_plan_check(struct job_plan *p, struct strbuf *err);

#endif

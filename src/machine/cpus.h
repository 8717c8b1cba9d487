/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_MACHINE_CPUS_H
#define IOLITE_MACHINE_CPUS_H

#include <sched.h>

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The CPU set a job instance runs on: cpus_allowed or cpumask, narrowed
 * to the CPUs of numa_cpu_nodes when that is given (auto: of the node
 * target/numa.c found, p->numa_node), with
 * cpus_allowed_policy=split giving clone k the k-th CPU of the set.
 * Returns 0 with *any = 0 when the job does not restrict CPUs, -1 with
 * the reason in err (the plan checks make that rare: opt/cpu_opts.c).
 */
int cpus_for_job(const struct job_plan *p, cpu_set_t *set, int *any,
		 struct strbuf *err);

/*
 * Places the calling thread as the job asks, before it allocates its
 * buffers: CPU affinity (cpus_for_job) and the memory policy
 * (numa_mem_policy, through set_mempolicy(2); auto binds to
 * p->numa_node). Returns 0, or -1 with
 * the reason in err (the kernel refused).
 */
int cpus_place_thread(const struct job_plan *p, struct strbuf *err);

#endif

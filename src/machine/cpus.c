/* SPDX-License-Identifier: MIT */
/*
 * CPU affinity and NUMA memory policy of a job's thread. The options are
 * checked before the run (opt/cpu_opts.c); this carries them out. The
 * memory policy is one set_mempolicy(2) call: the kernel's interface,
 * not worth a library for.
 */
#include "machine/cpus.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "opt/cpu_opts.h"
#include "util/cpulist.h"

static int numa_cpus(const struct job_plan *p, cpu_set_t *set,
		     struct strbuf *err)
{
	const char *list = p->o.numa_cpu_nodes;
	cpu_set_t nodes, one;
	unsigned int i;

	if (!strcmp(list, "auto")) {	/* target/numa.c found the node */
		CPU_ZERO(&nodes);
		CPU_SET(p->numa_node, &nodes);
	} else if (cpulist_parse(list, "node", cpulist_nr_nodes(), 1, &nodes,
				 err)) {
		return -1;
	}
	CPU_ZERO(set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &nodes) && !cpulist_node_cpus(i, &one))
			CPU_OR(set, set, &one);
	return 0;
}

int cpus_for_job(const struct job_plan *p, cpu_set_t *set, int *any,
		 struct strbuf *err)
{
	const struct job_options *o = &p->o;
	int i;

	*any = 0;
	CPU_ZERO(set);
	if (o->cpus_allowed && *o->cpus_allowed) {
		if (cpulist_parse(o->cpus_allowed, "cpu", CPU_SETSIZE, 0, set,
				  err))
			return -1;
		*any = 1;
	} else if (o->cpumask) {
		for (i = 0; i < 64; i++)
			if (o->cpumask & (1ull << i))
				CPU_SET(i, set);
		*any = 1;
	}
	if (o->numa_cpu_nodes && *o->numa_cpu_nodes) {
		cpu_set_t ncpus;

		if (numa_cpus(p, &ncpus, err))
			return -1;
		if (*any)
			CPU_AND(set, set, &ncpus);
		else
			*set = ncpus;
		*any = 1;
		if (!CPU_COUNT(set) && !strcmp(o->numa_cpu_nodes, "auto")) {
			strbuf_addf(err, "no cpu of numa node %d (the job's target's) is in %s",
				    p->numa_node, o->cpus_allowed ?
				    "cpus_allowed" : "cpumask");
			return -1;
		}
		if (!CPU_COUNT(set)) {
			strbuf_addf(err, "no cpu left of nodes '%s'",
				    o->numa_cpu_nodes);
			return -1;
		}
	}
	if (*any && o->cpus_allowed_policy == CPUS_SPLIT) {
		int n = CPU_COUNT(set), want = (int)(p->clone % (unsigned)n);
		cpu_set_t one;

		CPU_ZERO(&one);
		for (i = 0; i < CPU_SETSIZE; i++) {
			if (!CPU_ISSET(i, set))
				continue;
			if (want-- == 0) {
				CPU_SET(i, &one);
				break;
			}
		}
		*set = one;
	}
	return 0;
}

static int set_mempolicy_of(const struct job_plan *p, struct strbuf *err)
{
	const char *policy = p->o.numa_mem_policy;
	static const int modes[] = {
		[NUMA_MODE_DEFAULT] = MPOL_DEFAULT,
		[NUMA_MODE_PREFER] = MPOL_PREFERRED,
		[NUMA_MODE_BIND] = MPOL_BIND,
		[NUMA_MODE_INTERLEAVE] = MPOL_INTERLEAVE,
		[NUMA_MODE_LOCAL] = MPOL_LOCAL,
	};
	unsigned long mask[CPU_SETSIZE / (8 * sizeof(unsigned long))];
	enum numa_mode mode;
	cpu_set_t nodes;
	unsigned int i;

	if (!strcmp(policy, "auto")) {	/* the target's node (target/numa.c) */
		mode = NUMA_MODE_BIND;
		CPU_ZERO(&nodes);
		CPU_SET(p->numa_node, &nodes);
	} else if (numa_policy_parse(policy, &mode, &nodes, err)) {
		return -1;
	}
	memset(mask, 0, sizeof(mask));
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &nodes))
			mask[i / (8 * sizeof(long))] |=
				1ul << (i % (8 * sizeof(long)));
	if (syscall(SYS_set_mempolicy, modes[mode],
		    CPU_COUNT(&nodes) ? mask : NULL,
		    CPU_COUNT(&nodes) ? (unsigned long)CPU_SETSIZE + 1 : 0UL)) {
		if (!strcmp(policy, "auto"))
			strbuf_addf(err, "numa_mem_policy 'auto' (bind:%d): set_mempolicy: %s",
				    p->numa_node, strerror(errno));
		else
			strbuf_addf(err, "numa_mem_policy '%s': set_mempolicy: %s",
				    policy, strerror(errno));
		return -1;
	}
	return 0;
}

int cpus_place_thread(const struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	cpu_set_t set;
	int any, ret;

	if (cpus_for_job(p, &set, &any, err))
		return -1;
	if (any) {
		ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (ret) {
			strbuf_addf(err, "cannot run on the cpus asked: %s",
				    strerror(ret));
			return -1;
		}
	}
	if (o->numa_mem_policy && *o->numa_mem_policy)
		return set_mempolicy_of(p, err);
	return 0;
}

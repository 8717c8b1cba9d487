/* SPDX-License-Identifier: MIT */
/*
 * CPU and NUMA placement options: checked here against the machine (the
 * CPUs and nodes that exist), carried out by machine/cpus.c in the job's
 * thread.
 */
#include "opt/cpu_opts.h"

#include <string.h>
#include <unistd.h>

#include "opt/internal.h"
#include "util/cpulist.h"

static const struct {
	const char *name;
	enum numa_mode mode;
} numa_modes[] = {
	{ "default", NUMA_MODE_DEFAULT },
	{ "prefer", NUMA_MODE_PREFER },
	{ "bind", NUMA_MODE_BIND },
	{ "interleave", NUMA_MODE_INTERLEAVE },
	{ "local", NUMA_MODE_LOCAL },
};

int numa_policy_parse(const char *s, enum numa_mode *mode, cpu_set_t *nodes,
		      struct strbuf *err)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	unsigned int i;

	CPU_ZERO(nodes);
	*mode = NUMA_MODE_NONE;
	for (i = 0; i < sizeof(numa_modes) / sizeof(numa_modes[0]); i++)
		if (strlen(numa_modes[i].name) == len &&
		    !strncmp(numa_modes[i].name, s, len))
			*mode = numa_modes[i].mode;
	if (*mode == NUMA_MODE_NONE) {
		strbuf_addf(err, "unknown mode '%.*s' (valid: default, prefer, bind, interleave, local)",
			    (int)len, s);
		return -1;
	}
	if (*mode == NUMA_MODE_DEFAULT || *mode == NUMA_MODE_LOCAL) {
		if (colon) {
			strbuf_addf(err, "mode '%.*s' takes no nodes",
				    (int)len, s);
			return -1;
		}
		return 0;
	}
	if (!colon || !colon[1]) {
		strbuf_addf(err, "mode '%.*s' needs nodes, as in '%.*s:0'",
			    (int)len, s, (int)len, s);
		return -1;
	}
	if (cpulist_parse(colon + 1, "node", cpulist_nr_nodes(),
			  *mode != NUMA_MODE_PREFER, nodes, err))
		return -1;
	if (*mode == NUMA_MODE_PREFER && CPU_COUNT(nodes) != 1) {
		strbuf_addf(err, "mode 'prefer' takes one node, not '%s'",
			    colon + 1);
		return -1;
	}
	return 0;
}

int cpu_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int ncpu = nr > 0 ? (unsigned int)nr : 1;
	struct strbuf why = STRBUF_INIT;
	cpu_set_t cpus, nodes;
	enum numa_mode mode;
	const char *opt = NULL;
	unsigned int i;

	CPU_ZERO(&cpus);
	if (o->cpus_allowed && *o->cpus_allowed) {
		opt = "cpus_allowed";
		if (cpulist_parse(o->cpus_allowed, "cpu", ncpu, 0, &cpus, &why))
			goto fail;
	} else if (o->cpumask) {
		opt = "cpumask";
		if (ncpu < 64 && o->cpumask >> ncpu) {
			strbuf_addf(&why, "0x%llx names cpus this machine does not have (it has cpus 0-%u)",
				    (unsigned long long)o->cpumask, ncpu - 1);
			goto fail;
		}
	}
	if (o->numa_cpu_nodes && *o->numa_cpu_nodes &&
	    strcmp(o->numa_cpu_nodes, "auto")) {	/* auto: target/numa.c */
		cpu_set_t ncpus, one;

		opt = "numa_cpu_nodes";
		if (cpulist_parse(o->numa_cpu_nodes, "node", cpulist_nr_nodes(),
				  1, &nodes, &why))
			goto fail;
		CPU_ZERO(&ncpus);
		for (i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &nodes) && !cpulist_node_cpus(i, &one))
				CPU_OR(&ncpus, &ncpus, &one);
		if (!CPU_COUNT(&ncpus)) {
			strbuf_addf(&why, "node list '%s' has no cpus",
				    o->numa_cpu_nodes);
			goto fail;
		}
		if (o->cpus_allowed && *o->cpus_allowed) {
			CPU_AND(&ncpus, &ncpus, &cpus);
			if (!CPU_COUNT(&ncpus)) {
				strbuf_addf(&why, "no cpu of nodes '%s' is in cpus_allowed '%s'",
					    o->numa_cpu_nodes, o->cpus_allowed);
				goto fail;
			}
		}
	}
	if (o->numa_mem_policy && *o->numa_mem_policy &&
	    strcmp(o->numa_mem_policy, "auto")) {
		opt = "numa_mem_policy";
		if (numa_policy_parse(o->numa_mem_policy, &mode, &nodes, &why))
			goto fail;
	}
	strbuf_release(&why);
	return 0;
fail:
	plan_fail(p, err, "option '%s': %s", opt, strbuf_str(&why));
	strbuf_release(&why);
	return -1;
}

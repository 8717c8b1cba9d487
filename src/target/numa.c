/* SPDX-License-Identifier: MIT */
/*
 * NUMA node of a target, and numa_cpu_nodes=auto / numa_mem_policy=auto:
 * see target/numa.h. sysfs is read before the run only.
 */
#include "target/numa.h"

#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "machine/cpus.h"
#include "util/cpulist.h"

static long read_node(const char *base, const char *rel)
{
	char path[PATH_MAX + 64];
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1 || v < 0)
		v = -1;
	fclose(f);
	return v;
}

static long dev_node(const char *kind, dev_t dev)
{
	static const char *const rel[] = {
		"numa_node", "device/numa_node", "device/device/numa_node",
		"../device/numa_node", "../device/device/numa_node",
	};
	char base[PATH_MAX];
	unsigned int i;
	long node = -1;

	snprintf(base, sizeof(base), "%s/dev/%s/%u:%u", cpulist_sysfs_root(),
		 kind, major(dev), minor(dev));
	for (i = 0; node < 0 && i < sizeof(rel) / sizeof(rel[0]); i++)
		node = read_node(base, rel[i]);
	return node;
}

long numa_file_node(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		char *dup = strdup(path);
		int bad = !dup || stat(dirname(dup), &st);

		free(dup);
		if (bad)
			return -1;
	}
	if (S_ISBLK(st.st_mode))
		return dev_node("block", st.st_rdev);
	if (S_ISCHR(st.st_mode))
		return dev_node("char", st.st_rdev);
	return dev_node("block", st.st_dev);
}

bool numa_cpu_on_node(int cpu, long node)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%ld/cpu%d",
		 cpulist_sysfs_root(), node, cpu);
	return stat(path, &st) == 0;
}

/* The node of all of a job's files, or -1 with the reason in why. */
static long job_node(const struct job_files *jf, struct strbuf *why)
{
	long node = -1;
	unsigned int k;

	for (k = 0; k < jf->nr_files; k++) {
		long n = numa_file_node(jf->files[k].path);

		if (n < 0) {
			strbuf_addf(why, "sysfs does not say which numa node '%s' is on",
				    jf->files[k].path);
			return -1;
		}
		if (node >= 0 && n != node) {
			strbuf_addf(why, "the job's files are on numa nodes %ld and %ld ('%s')",
				    node, n, jf->files[k].path);
			return -1;
		}
		node = n;
	}
	if (node < 0)
		strbuf_addstr(why, "the job has no file to place it by");
	return node;
}

static bool is_auto(const char *v)
{
	return v && !strcmp(v, "auto");
}

int numa_auto_resolve(struct job_plan *plans, const struct job_files *files,
		      unsigned int nr, struct strbuf *err)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct job_plan *p = &plans[i];
		const char *opt = is_auto(p->o.numa_cpu_nodes) ?
				  "numa_cpu_nodes" : "numa_mem_policy";
		struct strbuf why = STRBUF_INIT;
		cpu_set_t cpus;
		long node;

		if (!is_auto(p->o.numa_cpu_nodes) &&
		    !is_auto(p->o.numa_mem_policy))
			continue;
		node = cpulist_nr_nodes() == 1 ? 0 : job_node(&files[i], &why);
		if (node >= CPU_SETSIZE) {
			strbuf_addf(&why, "numa node %ld is out of range", node);
			node = -1;
		}
		if (node >= 0 && is_auto(p->o.numa_cpu_nodes)) {
			int any;

			p->numa_node = (int)node;
			if (cpulist_node_cpus((unsigned int)node, &cpus) ||
			    !CPU_COUNT(&cpus))
				strbuf_addf(&why, "numa node %ld of the job's target has no cpus",
					    node);
			else
				cpus_for_job(p, &cpus, &any, &why);
		}
		if (why.len) {
			plan_fail(p, err, "option '%s': auto: %s", opt,
				  strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
		p->numa_node = (int)node;
		strbuf_release(&why);
	}
	return 0;
}

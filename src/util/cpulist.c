/* SPDX-License-Identifier: MIT */
#include "util/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad_list(const char *s, const char *what, struct strbuf *err)
{
	strbuf_addf(err, "invalid %s list '%s'", what, s);
	return -1;
}

int cpulist_parse(const char *s, const char *what, unsigned int limit,
		  int all_ok, cpu_set_t *set, struct strbuf *err)
{
	const char *p = s;
	unsigned long i;

	CPU_ZERO(set);
	if (limit > CPU_SETSIZE)
		limit = CPU_SETSIZE;
	if (all_ok && !strcmp(s, "all")) {
		for (i = 0; i < limit; i++)
			CPU_SET(i, set);
		return 0;
	}
	while (*p) {
		char *end;
		unsigned long a, b;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			return bad_list(s, what, err);
		errno = 0;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return bad_list(s, what, err);
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (errno || b < a || (*p && *p != ',' &&
				       !isspace((unsigned char)*p)))
			return bad_list(s, what, err);
		if (b >= limit) {
			if (limit == 1)
				strbuf_addf(err, "%s %lu does not exist (this machine has %s 0 only)",
					    what, b, what);
			else
				strbuf_addf(err, "%s %lu does not exist (this machine has %ss 0-%u)",
					    what, b, what, limit - 1);
			return -1;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
	}
	if (!CPU_COUNT(set))
		return bad_list(s, what, err);
	return 0;
}

int cpulist_read(const char *path, cpu_set_t *set)
{
	struct strbuf err = STRBUF_INIT;
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n;
	int ret;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	if (!n) {
		CPU_ZERO(set);	/* a node without CPUs */
		return 0;
	}
	ret = cpulist_parse(buf, "cpu", CPU_SETSIZE, 0, set, &err) ?
	      -EINVAL : 0;
	strbuf_release(&err);
	return ret;
}

const char *cpulist_sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

unsigned int cpulist_nr_nodes(void)
{
	char path[4096];
	cpu_set_t set;
	int i, last = 0;

	snprintf(path, sizeof(path), "%s/devices/system/node/possible",
		 cpulist_sysfs_root());
	if (cpulist_read(path, &set) || !CPU_COUNT(&set))
		return 1;	/* no NUMA in this kernel: one node */
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	return (unsigned int)last + 1;
}

int cpulist_node_cpus(unsigned int node, cpu_set_t *set)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/devices/system/node/node%u/cpulist",
		 cpulist_sysfs_root(), node);
	return cpulist_read(path, set);
}

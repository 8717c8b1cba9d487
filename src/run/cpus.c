/* SPDX-License-Identifier: MIT */
#include "run/cpus.h"

#include <ctype.h>
#include <stdlib.h>

int cpus_parse_list(const char *s, cpu_set_t *set, struct strbuf *err)
{
	const char *p = s;

	CPU_ZERO(set);
	while (*p) {
		char *end;
		unsigned long a, b;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (b < a || b >= CPU_SETSIZE)
			goto bad;
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*p && *p != ',')
			goto bad;
	}
	if (!CPU_COUNT(set))
		goto bad;
	return 0;
bad:
	strbuf_addf(err, "invalid cpu list '%s'", s);
	return -1;
}

int cpus_for_job(const struct job_plan *p, cpu_set_t *set, int *any,
		 struct strbuf *err)
{
	const struct job_options *o = &p->o;
	int i;

	*any = 0;
	CPU_ZERO(set);
	if (o->cpus_allowed && *o->cpus_allowed) {
		if (cpus_parse_list(o->cpus_allowed, set, err))
			return -1;
		*any = 1;
	} else if (o->cpumask) {
		for (i = 0; i < 64; i++)
			if (o->cpumask & (1ull << i))
				CPU_SET(i, set);
		*any = 1;
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

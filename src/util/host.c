/* SPDX-License-Identifier: MIT */
/* The machine a run ran on: see host.h. */
#include "util/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The value of the first "key : value" line of path with one of keys. */
static void proc_field(const char *path, const char *const *keys,
		       char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *const *k;
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		for (k = keys; *k; k++)
			if (!strncmp(line, *k, strlen(*k)) &&
			    strspn(line + strlen(*k), " \t") ==
			    (size_t)(colon - line) - strlen(*k))
				break;
		if (!*k)
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

void host_info_get(struct host_info *h)
{
	/* x86, then what arm64 and others call it */
	static const char *const model[] = { "model name", "Hardware",
					     "cpu model", "cpu", NULL };
	static const char *const mem[] = { "MemTotal", NULL };
	struct utsname u;
	char kb[64] = "";
	long n;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->hostname, sizeof(h->hostname) - 1))
		h->hostname[0] = '\0';
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s %s",
			 u.sysname, u.release, u.version, u.machine);
	proc_field("/proc/cpuinfo", model, h->cpu_model, sizeof(h->cpu_model));
	n = sysconf(_SC_NPROCESSORS_ONLN);
	h->cpus = n > 0 ? (unsigned int)n : 0;
	proc_field("/proc/meminfo", mem, kb, sizeof(kb));
	/* "16318412 kB" */
	h->mem_bytes = strtoull(kb, NULL, 10) * 1024;
}

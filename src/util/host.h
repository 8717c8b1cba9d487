/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_HOST_H
#define IOLITE_UTIL_HOST_H

#include <stdint.h>

/*
 * The machine a run ran on, for the report's summary: read from
 * uname(2), /proc/cpuinfo and /proc/meminfo. What cannot be read is
 * left empty (or 0); nothing here fails.
 */
struct host_info {
	char hostname[256];
	char kernel[400];	/* "Linux 6.1.0-13-amd64 #1 SMP ... x86_64" */
	char cpu_model[160];	/* "AMD EPYC 7B13 64-Core Processor" */
	unsigned int cpus;	/* online */
	uint64_t mem_bytes;	/* MemTotal */
};

void host_info_get(struct host_info *h);

#endif

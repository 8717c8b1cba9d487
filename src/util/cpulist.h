/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_CPULIST_H
#define IOLITE_UTIL_CPULIST_H

#include <sched.h>

#include "util/strbuf.h"

/*
 * Lists of CPU or NUMA node numbers as fio and the kernel write them:
 * "0-3,6,8-11" (spaces allowed after commas), or "all" when all_ok.
 * Numbers must be below limit (the count of CPUs or nodes that exist);
 * "all" sets 0..limit-1. The set is a cpu_set_t for both kinds: node
 * numbers fit it as well as CPU numbers do.
 *
 * Returns 0, or -1 with a message in err naming what ("cpu", "node")
 * and the bad part: "cpu 7 does not exist (this machine has cpus 0-1)",
 * "invalid cpu list 'x'".
 */
int cpulist_parse(const char *s, const char *what, unsigned int limit,
		  int all_ok, cpu_set_t *set, struct strbuf *err);

/* Reads a kernel list file (sysfs "cpulist"); 0 or -errno. */
int cpulist_read(const char *path, cpu_set_t *set);

/* "/sys", or $IOLITE_SYSFS_ROOT when set (tests stand in a fake tree). */
const char *cpulist_sysfs_root(void);

/*
 * NUMA nodes: how many node numbers there are (the highest possible
 * node + 1, from ROOT/devices/system/node/possible; 1 without NUMA), and
 * the CPUs of one node (ROOT/devices/system/node/nodeN/cpulist; 0 or
 * -errno).
 */
unsigned int cpulist_nr_nodes(void);
int cpulist_node_cpus(unsigned int node, cpu_set_t *set);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_NUMA_H
#define IOLITE_TARGET_NUMA_H

#include "opt/plan.h"
#include "target/files.h"
#include "util/strbuf.h"

/*
 * The NUMA node of a job's target, from sysfs (IOLITE_SYSFS_ROOT stands
 * in for /sys): a block or character device by its number
 * (dev/{block,char}/M:m), a regular file by the device of its file
 * system (of its directory when it does not exist yet). The node is the
 * first of: the device's own numa_node (a dax device), its parent
 * device's (device/numa_node: a disk's controller), the one behind that
 * (device/device/numa_node: an NVMe namespace's PCI function), and for a
 * partition its disk's. -1 when none says (numa_node -1, no sysfs entry,
 * a file system without a device).
 */
long numa_file_node(const char *path);

/* Whether cpu is on node (ROOT/devices/system/node/nodeN/cpuK). */
bool numa_cpu_on_node(int cpu, long node);

/*
 * numa_cpu_nodes=auto, numa_mem_policy=auto: sets each such job's
 * numa_node to its target's (every file of a job must agree). A machine
 * with one node is node 0. Returns 0, or -1 with "file:line: option
 * 'x': auto: ..." in err when the node cannot be told, the files
 * disagree, or the node has no CPU left for the job.
 */
int numa_auto_resolve(struct job_plan *plans, const struct job_files *files,
		      unsigned int nr, struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_DISK_H
#define IOLITE_STATS_DISK_H

#include <stdint.h>
#include <sys/types.h>

#include "stats/results.h"

/*
 * Disk statistics, fio's "Disk stats (read/write)": the block devices
 * behind the jobs' files, read from /sys/block/<dev>/stat before the first
 * job starts and after the last one ends. Reading sysfs is never on the
 * I/O path.
 *
 * Usage (runner): disk_set_init(); disk_set_add() for every dev_t of every
 * job (duplicates are ignored); disk_set_begin() just before the run;
 * disk_set_end() just after; disk_set_results() into the run_result;
 * disk_set_release().
 */

struct disk_entry {
	char name[64];		/* /sys/block/<name> */
	uint64_t start[11];	/* the stat file's first 11 fields */
	uint64_t end[11];
};

struct disk_set {
	struct disk_entry *d;
	unsigned int nr, alloc;
	uint64_t begin_ns, end_ns;	/* CLOCK_MONOTONIC */
};

void disk_set_init(struct disk_set *ds);
void disk_set_release(struct disk_set *ds);

/*
 * Adds the device dev: a partition maps to its whole disk (as fio
 * reports). Devices without a /sys/block entry (e.g. a tmpfs' anonymous
 * dev_t, or 0) are silently skipped. Returns 0, or -errno on failure to
 * read sysfs for an existing entry.
 */
int disk_set_add(struct disk_set *ds, dev_t dev);

/* Snapshots every device's stat. 0 or -errno. */
int disk_set_begin(struct disk_set *ds);
/* Snapshots again; the delta is what disk_set_results() reports. */
int disk_set_end(struct disk_set *ds);

/*
 * Fills rr->disks (allocated, freed by run_result_release()) with the
 * deltas: ios, merges, sectors, ticks per direction, in_queue and
 * util = io_ticks / elapsed, capped at 100%.
 */
void disk_set_results(const struct disk_set *ds, struct run_result *rr);

#endif

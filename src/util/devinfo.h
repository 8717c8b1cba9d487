/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_DEVINFO_H
#define IOLITE_UTIL_DEVINFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a run's targets are, for the html report: what an unprivileged
 * process can read of a block device in sysfs (/sys/block/NAME: its
 * model, the I/O scheduler, the queue's settings) and of the file system
 * a path is on (/proc/self/mountinfo: its type, mount point, source and
 * options). Read when the report is written, on the machine that ran;
 * nothing is written and nothing here fails: what cannot be read stays
 * empty (or 0).
 */
struct dev_info {
	char model[96];		/* "Samsung SSD 980"; "driver virtio_blk" */
	char scheduler[24];	/* the one in use: "none", "mq-deadline" */
	int rotational;		/* 1, 0; -1: unknown */
	uint64_t size_bytes;
	unsigned int nr_requests, max_sectors_kb, read_ahead_kb;
	unsigned int logical_block, physical_block;
	unsigned int nr_hw_queues;	/* blk-mq hardware queues */
};

/*
 * The first line of a small file (sysfs's attributes) into buf, without
 * its newline and trailing spaces (sysfs pads a model); "" when none.
 */
void devinfo_read_line(const char *path, char *buf, size_t len);

/* Device name ("vda", "nvme0n1"): out zeroed, then what sysfs gives. */
void dev_info_get(const char *name, struct dev_info *out);

struct fs_info {
	char type[32];		/* "ext4", "tmpfs" */
	char mount[256];	/* its mount point */
	char source[128];	/* "/dev/vda1" */
	char opts[256];		/* the mount's options, "rw,relatime" */
	char dev[64];		/* the disk under it, "vda"; "" when none */
};

/*
 * The file system path is on (or its directory, when path does not
 * exist yet). Returns 0, or -1 when neither can be looked at (out is
 * left empty); a block device gives type "block device".
 */
int fs_info_get(const char *path, struct fs_info *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Disk statistics from /sys/block/<dev>/stat, snapshotted before and after
 * the run. Like fio, a partition is reported as its whole disk and a loop
 * device as itself (fio does not follow a loop device to the disk behind
 * its backing file).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "stats/disk.h"
#include "util/log.h"

/* stat fields: r ios, r merges, r sectors, r ticks, w ..., in flight,
 * io_ticks, time_in_queue */
enum {
	ST_R_IOS, ST_R_MERGES, ST_R_SECTORS, ST_R_TICKS,
	ST_W_IOS, ST_W_MERGES, ST_W_SECTORS, ST_W_TICKS,
	ST_IN_FLIGHT, ST_IO_TICKS, ST_IN_QUEUE, ST_NR,
};

void disk_set_init(struct disk_set *ds)
{
	memset(ds, 0, sizeof(*ds));
}

void disk_set_release(struct disk_set *ds)
{
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int read_stat(const char *name, uint64_t *out)
{
	char path[PATH_MAX];
	FILE *f;
	int n, err = 0;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64, &out[0], &out[1],
		   &out[2], &out[3], &out[4], &out[5], &out[6], &out[7],
		   &out[8], &out[9], &out[10]);
	if (n != ST_NR)
		err = -EINVAL;
	fclose(f);
	return err;
}

/*
 * The /sys/block name for dev: /sys/dev/block/M:m points into the device
 * tree; a partition's directory sits inside its disk's and has a
 * "partition" file.
 */
static int dev_block_name(dev_t dev, char *name, size_t len)
{
	char link[PATH_MAX + 16], real[PATH_MAX], *slash;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(link, real))
		return -ENOENT;
	snprintf(link, sizeof(link), "%s/partition", real);
	if (!stat(link, &st)) {
		slash = strrchr(real, '/');
		if (!slash)
			return -ENOENT;
		*slash = '\0';
	}
	slash = strrchr(real, '/');
	if (!slash || !slash[1] || strlen(slash + 1) >= len)
		return -ENOENT;
	strcpy(name, slash + 1);
	return 0;
}

int disk_set_add(struct disk_set *ds, dev_t dev)
{
	char name[64];
	uint64_t st[ST_NR];
	unsigned int i;
	int ret;

	if (!major(dev) || dev_block_name(dev, name, sizeof(name)))
		return 0;	/* not a block device we can report */
	for (i = 0; i < ds->nr; i++)
		if (!strcmp(ds->d[i].name, name))
			return 0;
	ret = read_stat(name, st);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	if (ds->nr == ds->alloc) {
		ds->alloc = ds->alloc ? 2 * ds->alloc : 4;
		ds->d = xrealloc(ds->d, ds->alloc * sizeof(*ds->d));
	}
	memset(&ds->d[ds->nr], 0, sizeof(ds->d[ds->nr]));
	strcpy(ds->d[ds->nr].name, name);
	ds->nr++;
	return 0;
}

int disk_set_begin(struct disk_set *ds)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ds->nr; i++) {
		ret = read_stat(ds->d[i].name, ds->d[i].start);
		if (ret)
			return ret;
		memcpy(ds->d[i].end, ds->d[i].start, sizeof(ds->d[i].end));
	}
	ds->begin_ns = ds->end_ns = now_ns();
	return 0;
}

int disk_set_end(struct disk_set *ds)
{
	unsigned int i;
	int ret;

	ds->end_ns = now_ns();
	for (i = 0; i < ds->nr; i++) {
		ret = read_stat(ds->d[i].name, ds->d[i].end);
		if (ret)
			return ret;
	}
	return 0;
}

/* Counter delta; a device reset between snapshots reads as zero. */
static uint64_t delta(const struct disk_entry *e, unsigned int f)
{
	return e->end[f] >= e->start[f] ? e->end[f] - e->start[f] : 0;
}

void disk_set_results(const struct disk_set *ds, struct run_result *rr)
{
	uint64_t elapsed_ms = (ds->end_ns - ds->begin_ns) / 1000000;
	unsigned int i;

	free(rr->disks);
	rr->disks = NULL;
	rr->nr_disks = 0;
	if (!ds->nr)
		return;
	rr->disks = xcalloc(ds->nr, sizeof(*rr->disks));
	for (i = 0; i < ds->nr; i++) {
		const struct disk_entry *e = &ds->d[i];
		struct disk_result *r = &rr->disks[i];

		memcpy(r->name, e->name, sizeof(r->name));
		r->ios[0] = delta(e, ST_R_IOS);
		r->ios[1] = delta(e, ST_W_IOS);
		r->merges[0] = delta(e, ST_R_MERGES);
		r->merges[1] = delta(e, ST_W_MERGES);
		r->sectors[0] = delta(e, ST_R_SECTORS);
		r->sectors[1] = delta(e, ST_W_SECTORS);
		r->ticks[0] = delta(e, ST_R_TICKS);
		r->ticks[1] = delta(e, ST_W_TICKS);
		r->io_ticks = delta(e, ST_IO_TICKS);
		r->time_in_queue = delta(e, ST_IN_QUEUE);
		r->util = 0.0;
		if (elapsed_ms) {
			r->util = (double)r->io_ticks * 100.0 /
				  (double)elapsed_ms;
			if (r->util > 100.0)
				r->util = 100.0;
		}
	}
	rr->nr_disks = ds->nr;
}

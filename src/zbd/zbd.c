// SPDX-License-Identifier: MIT
/*
 * zonemode=zbd (zbd.h): the zones of a job's zoned block devices, read
 * from the kernel, and each I/O fitted to them as fio 3.33 does, as
 * seen from its write_iolog and the write pointers it leaves (doc/vm.md's
 * guest): writes at the write pointer, a full zone reset when a write
 * comes back to it, reads below the write pointer.
 */
#include "zbd/zbd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/log.h"
#include "util/strbuf.h"

struct zbd_zone {
	uint64_t start, cap, wp;	/* bytes, absolute */
	bool seq;			/* has a write pointer */
	bool open;			/* in its file's open list */
};

struct zbd_file {
	uint64_t zsize;			/* the device's zone size */
	uint64_t first;			/* the first zone's start */
	unsigned int nr;
	unsigned int with_data;		/* zones conventional or written */
	struct zbd_zone *z;		/* the region's zones */
	unsigned int *open;		/* open zones (indexes), in order */
	uint64_t data;			/* bytes below the write pointers */
	unsigned int write_cnt;		/* writes to the next reset */
	unsigned int nr_open, max_open;	/* max_open 0: no limit */
	bool read;			/* the zones are known */
};

struct zbd {
	struct zbd_file *f;
	unsigned int nr_files;
	uint64_t min_bs;
	const struct engine_file *files;	/* borrowed: their fds */
	uint64_t resets;
	unsigned int max_open, job_max_open, nr_open;	/* options */
	double reset_at, reset_freq;	/* zone_reset_threshold, _frequency */
	bool random, beyond_wp, ignore_limits, limited;
	bool verify;			/* writes that verify: no resets */
	bool again;			/* the write of a reset, once more */
	struct strbuf err;
};

/* The value of the device's queue attribute NAME, or -1. */
static long long queue_attr(const struct stat *st, const char *name,
			    char *buf, size_t size)
{
	static const char *const where[] = { "queue", "../queue" };
	char path[128];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		FILE *fp;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/%s",
			 major(st->st_rdev), minor(st->st_rdev), where[i],
			 name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (!fgets(buf, (int)size, fp))
			buf[0] = 0;
		fclose(fp);
		buf[strcspn(buf, "\n")] = 0;
		return strtoll(buf, NULL, 10);
	}
	buf[0] = 0;
	return -1;
}

/* What of zbd is not there yet, refused by name before any I/O. */
static int check_options(const struct job_plan *p, struct strbuf *err)
{
	if (ddir_used(p, DDIR_WRITE) && !p->o.direct)
		return plan_fail(p, err, "option 'direct': zonemode=zbd "
				 "writes need direct=1 (the page cache would "
				 "write out of order)");
	if (ddir_used(p, DDIR_TRIM))
		return plan_fail(p, err, "option 'rw': zonemode=zbd with "
				 "trims is not supported yet");
	if (p->o.verify && p->o.zone_reset_frequency)
		return plan_fail(p, err, "option 'zone_reset_frequency': its "
				 "resets would lose what verify reads back");
	/* fio shares write pointers and open zones between its jobs */
	if (ddir_used(p, DDIR_WRITE) && p->o.numjobs > 1)
		return plan_fail(p, err, "option 'numjobs': zonemode=zbd "
				 "writes from several jobs at once are not "
				 "supported yet");
	return 0;
}

/*
 * fio 3.33: max_open_zones above the device's own limit is an error,
 * unless ignore_zone_limits=1; job_max_open_zones needs a limit for the
 * device, given or the device's.
 */
static int check_open_limit(const struct job_plan *p, const struct stat *st,
			    const char *path, struct strbuf *err)
{
	char buf[32];
	long long dev = p->o.ignore_zone_limits ? 0 :
			queue_attr(st, "max_open_zones", buf, sizeof(buf));

	if (dev > 0 && p->o.max_open_zones > dev)
		return plan_fail(p, err, "option 'max_open_zones': %u is "
				 "more than the %lld zones '%s' can have open "
				 "(queue/max_open_zones; ignore_zone_limits=1 "
				 "overrides)", p->o.max_open_zones, dev, path);
	if (p->o.job_max_open_zones && !p->o.max_open_zones && dev <= 0)
		return plan_fail(p, err, "option 'job_max_open_zones': needs "
				 "an open-zone limit for '%s' (max_open_zones; "
				 "the device has none%s)", path,
				 p->o.ignore_zone_limits ?
				 " with ignore_zone_limits=1" : "");
	return 0;
}

int zbd_check_target(const struct job_plan *p, const char *path,
		     bool blockdev, uint64_t *off, uint64_t *len,
		     struct strbuf *err)
{
	uint64_t zs, start, end;
	struct stat st;
	char buf[64];

	if (check_options(p, err))
		return -1;
	if (!blockdev || stat(path, &st) || !S_ISBLK(st.st_mode))
		return plan_fail(p, err, "option 'zonemode': '%s' is not a "
				 "block device: zones emulated on files are "
				 "not supported yet", path);
	queue_attr(&st, "zoned", buf, sizeof(buf));
	if (strcmp(buf, "host-managed") && strcmp(buf, "host-aware"))
		return plan_fail(p, err, "option 'zonemode': '%s' is not a "
				 "zoned block device (zoned: %s): zones "
				 "emulated on it are not supported yet", path,
				 buf[0] ? buf : "unknown");
	zs = (uint64_t)queue_attr(&st, "chunk_sectors", buf, sizeof(buf)) << 9;
	if (!zs)
		return plan_fail(p, err, "option 'zonemode': '%s' has no "
				 "zone size", path);
	if (p->o.zonesize && p->o.zonesize != zs)
		return plan_fail(p, err, "option 'zonesize': %llu does not "
				 "match the zone size of '%s' (%llu)",
				 (unsigned long long)p->o.zonesize, path,
				 (unsigned long long)zs);
	if (check_open_limit(p, &st, path, err))
		return -1;
	/* fio: the region in whole zones, else nothing to do */
	start = (*off + zs - 1) / zs * zs;
	end = (*off + *len) / zs * zs;
	if (end <= start)
		return plan_fail(p, err, "option 'size': zonemode=zbd needs "
				 "one zone (%llu bytes) of '%s' at least "
				 "from the offset", (unsigned long long)zs,
				 path);
	*off = start;
	*len = end - start;
	return 0;
}

/* Reads the zones of f's region into zf (BLKREPORTZONE, in batches). */
static int report_zones(struct zbd_file *zf, const struct engine_file *f,
			int fd, struct strbuf *err)
{
	enum { BATCH = 128 };
	size_t size = sizeof(struct blk_zone_report) +
		      BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *r = xmalloc(size);
	uint64_t sector = f->io_offset >> 9, end = f->io_offset + f->io_size;
	unsigned int i, want = (unsigned int)(f->io_size / zf->zsize);

	/* read again after a failure: from the start */
	free(zf->z);
	free(zf->open);
	zf->z = xcalloc(want, sizeof(*zf->z));
	zf->open = xcalloc(want, sizeof(*zf->open));
	zf->nr = zf->with_data = zf->nr_open = 0;
	zf->data = 0;
	zf->first = f->io_offset;
	while (zf->nr < want) {
		memset(r, 0, size);
		r->sector = sector;
		r->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, r) || !r->nr_zones) {
			strbuf_addf(err, "'%s': zone report: %s", f->path,
				    r->nr_zones ? strerror(errno) :
				    "no zones");
			free(r);
			return -1;
		}
		for (i = 0; i < r->nr_zones && zf->nr < want; i++) {
			const struct blk_zone *b = &r->zones[i];
			struct zbd_zone *z = &zf->z[zf->nr++];

			z->start = b->start << 9;
			z->cap = (r->flags & BLK_ZONE_REP_CAPACITY ?
				  b->capacity : b->len) << 9;
			z->wp = b->wp << 9;
			z->seq = b->type != BLK_ZONE_TYPE_CONVENTIONAL;
			if (b->cond == BLK_ZONE_COND_FULL)
				z->wp = z->start + z->cap;
			/* taken into the open list by file_zones() */
			z->open = b->cond == BLK_ZONE_COND_IMP_OPEN ||
				  b->cond == BLK_ZONE_COND_EXP_OPEN;
			zf->with_data += !z->seq || z->wp > z->start;
			if (z->seq)
				zf->data += z->wp - z->start;
			sector = b->start + b->len;
		}
		if ((sector << 9) >= end)
			break;
	}
	free(r);
	return 0;
}

struct zbd *zbd_new(const struct job_plan *p,
		   const struct engine_file *files, unsigned int nr_files)
{
	struct zbd *z = xcalloc(1, sizeof(*z));

	z->f = xcalloc(nr_files, sizeof(*z->f));
	z->nr_files = nr_files;
	z->files = files;
	z->min_bs = p->min_bs;
	z->random = p->random;
	z->beyond_wp = p->o.read_beyond_wp;
	z->max_open = p->o.max_open_zones;
	z->job_max_open = p->o.job_max_open_zones;
	z->ignore_limits = p->o.ignore_zone_limits;
	z->verify = p->o.verify && ddir_used(p, DDIR_WRITE);
	z->reset_at = p->o.zone_reset_threshold;
	z->reset_freq = p->o.zone_reset_frequency;
	strbuf_init(&z->err);
	return z;
}

/*
 * Takes zone zn into its file's open list, within max_open_zones and
 * job_max_open_zones; an open zone with no room left (filled by the
 * writes issued) counts as not open, as in fio 3.33.
 */
static bool zone_open(struct zbd *z, struct zbd_file *zf,
		      struct zbd_zone *zn)
{
	/* a reset would lose what verify reads back (fio 3.33) */
	if (z->verify && zn->wp + z->min_bs > zn->start + zn->cap)
		return false;
	if (!z->limited)
		return true;
	if (zn->open)
		return zn->wp < zn->start + zn->cap;
	if ((z->job_max_open && z->nr_open >= z->job_max_open) ||
	    (zf->max_open && zf->nr_open >= zf->max_open))
		return false;
	zf->open[zf->nr_open++] = (unsigned int)(zn - zf->z);
	z->nr_open++;
	zn->open = true;
	return true;
}

/* A zone written up to its capacity leaves the open list. */
static void zone_close(struct zbd *z, struct zbd_file *zf,
		       struct zbd_zone *zn)
{
	unsigned int i, idx = (unsigned int)(zn - zf->z);

	for (i = 0; i < zf->nr_open && zf->open[i] != idx; i++)
		;
	if (i == zf->nr_open)
		return;
	memmove(&zf->open[i], &zf->open[i + 1],
		(zf->nr_open - i - 1) * sizeof(*zf->open));
	zf->nr_open--;
	z->nr_open--;
	zn->open = false;
}

/*
 * A job that writes and verifies starts on empty zones, as fio 3.33's
 * (8 MiB of zone 0 written: its writes start at 0), so that no zone is
 * reset under data still to be read back.
 */
static int reset_region(struct zbd *z, struct zbd_file *zf, int fd)
{
	unsigned int k;

	for (k = 0; k < zf->nr; k++) {
		struct zbd_zone *zn = &zf->z[k];
		struct blk_zone_range r = {
			.sector = zn->start >> 9, .nr_sectors = zf->zsize >> 9
		};

		if (!zn->seq || zn->wp == zn->start)
			continue;
		if (ioctl(fd, BLKRESETZONE, &r)) {
			strbuf_addf(&z->err, "zone reset at %llu: %s",
				    (unsigned long long)zn->start,
				    strerror(errno));
			return -1;
		}
		zf->data -= zn->wp - zn->start;
		zf->with_data--;
		zn->wp = zn->start;
		zn->open = false;
		z->resets++;
	}
	return 0;
}

/*
 * The open-zone limit of file i: max_open_zones, else the device's own
 * (queue/max_open_zones) unless ignore_zone_limits=1; the zones the
 * device has open already are the first in the list, as fio's.
 */
static void file_limits(struct zbd *z, unsigned int i, const struct stat *st)
{
	struct zbd_file *zf = &z->f[i];
	char buf[32];
	long long dev = z->ignore_limits ? 0 :
			queue_attr(st, "max_open_zones", buf, sizeof(buf));
	unsigned int k;

	zf->max_open = z->max_open ? z->max_open :
		       dev > 0 ? (unsigned int)dev : 0;
	if (zf->max_open || z->job_max_open)
		z->limited = true;
	for (k = 0; k < zf->nr; k++) {
		if (!zf->z[k].open)
			continue;
		zf->z[k].open = false;
		zone_open(z, zf, &zf->z[k]);
	}
}

/*
 * The zones of file i, read at its first I/O (the file is open then),
 * or before it by zbd_read_ok() (the file opened for the report).
 */
static int file_zones(struct zbd *z, unsigned int i)
{
	struct zbd_file *zf = &z->f[i];
	const struct engine_file *f = &z->files[i];
	int fd = f->fd >= 0 ? f->fd : open(f->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char buf[32];
	int ret = -1;

	if (fd < 0 || fstat(fd, &st) ||
	    (zf->zsize = (uint64_t)queue_attr(&st, "chunk_sectors", buf,
					      sizeof(buf)) << 9) == 0)
		strbuf_addf(&z->err, "'%s': no zone size", f->path);
	else if (!report_zones(zf, f, fd, &z->err) &&
		 !(z->verify && fd == f->fd && reset_region(z, zf, fd))) {
		file_limits(z, i, &st);
		ret = 0;
	}
	if (fd >= 0 && fd != f->fd)
		close(fd);
	/* (the reset of a verifying job needs the job's own fd: again) */
	zf->read = !ret && !(z->verify && fd != f->fd);
	return ret;
}

const char *zbd_errmsg(const struct zbd *z)
{
	return z->err.buf;
}

void zbd_free(struct zbd *z)
{
	unsigned int i;

	if (!z)
		return;
	for (i = 0; i < z->nr_files; i++) {
		free(z->f[i].z);
		free(z->f[i].open);
	}
	free(z->f);
	strbuf_release(&z->err);
	free(z);
}

static struct zbd_zone *zone_of(struct zbd_file *zf, uint64_t off)
{
	uint64_t i;

	if (off < zf->first)
		return NULL;
	i = (off - zf->first) / zf->zsize;
	return i < zf->nr ? &zf->z[i] : NULL;
}

/*
 * A write drawn for zone zn, which cannot be opened (the limits): fio
 * 3.33's choice, an open zone picked by where the offset falls in the
 * region, else, when that one has no room, the first zone after it
 * that can be opened, else any open zone with room. NULL: none.
 */
static struct zbd_zone *other_zone(struct zbd *z, struct zbd_file *zf,
				   struct zbd_zone *zn, const struct io_u *u)
{
	uint64_t span = (uint64_t)zf->nr * zf->zsize;
	struct zbd_zone *c = zn;
	unsigned int i;

	if (zf->nr_open) {
		c = &zf->z[zf->open[(u->offset - zf->first) * zf->nr_open /
				    span]];
		if (c->start + c->cap - c->wp >= z->min_bs)
			return c;
	}
	for (i = 0; i < zf->nr; i++) {
		if (++c == zf->z + zf->nr)
			c = zf->z;
		if (c->seq && !c->open && zone_open(z, zf, c))
			return c;
	}
	for (i = 0; i < zf->nr_open; i++) {
		c = &zf->z[zf->open[i]];
		if (c->start + c->cap - c->wp >= z->min_bs)
			return c;
	}
	return NULL;
}

/* The writes from one reset to the next: 1 / zone_reset_frequency. */
static unsigned int reset_every(const struct zbd *z)
{
	double n = 1.0 / z->reset_freq;

	return n >= UINT32_MAX ? UINT32_MAX : n < 1 ? 1 : (unsigned int)n;
}

/*
 * zone_reset_threshold: while the region's zones hold that share of it
 * (bytes below the write pointers, counted as the writes are issued),
 * every 1/zone_reset_frequency-th write resets its zone first, as fio
 * 3.33 (zone_reset_frequency=0.25 on two full zones: writes at blocks
 * 0 1 2 0 1 2 3 0 ...). Once per write: not again after its reset.
 */
static bool reset_due(struct zbd *z, struct zbd_file *zf, bool again)
{
	if (!z->reset_freq || again)
		return false;
	if ((double)zf->data < (double)zf->nr * (double)zf->zsize *
			       z->reset_at)
		return false;
	if (!zf->write_cnt)
		zf->write_cnt = reset_every(z);
	if (--zf->write_cnt)
		return false;
	zf->write_cnt = reset_every(z);
	return true;
}

/*
 * A write: at the write pointer of its zone, the zone reset when full.
 * A sequential write past its zone's capacity (a zone smaller than its
 * size) goes on at the next zone's start, as fio 3.33: zcap's zones of
 * 12 MiB in 16 take 12 MiB each, with no reset between. Under an open-
 * zone limit a zone that cannot be opened gives its write to another.
 */
static enum zbd_verdict adjust_write(struct zbd *z, struct zbd_file *zf,
				     struct zbd_zone *zn, struct io_u *u)
{
	uint64_t end, len;
	bool again = z->again;

	z->again = false;
	if (!z->random && u->offset >= zn->start + zn->cap) {
		if (++zn == zf->z + zf->nr) {
			u->offset = zf->first + (uint64_t)zf->nr * zf->zsize;
			return ZBD_SKIP;
		}
		u->offset = zn->start;
		if (!zn->seq)
			return ZBD_OK;
	}
	if (!zone_open(z, zf, zn)) {
		zn = other_zone(z, zf, zn, u);
		if (!zn)
			return ZBD_END;
		u->offset = zn->start;
	}
	end = zn->start + zn->cap;
	if ((reset_due(z, zf, again) && zn->wp > zn->start) ||
	    zn->wp + z->min_bs > end)
		return ZBD_RESET;
	u->offset = zn->wp;
	len = end - zn->wp < u->len ? end - zn->wp : u->len;
	len = len / z->min_bs * z->min_bs;
	if (!len)
		return ZBD_END;
	u->len = (uint32_t)len;
	if (zn->wp == zn->start)
		zf->with_data++;
	zn->wp += len;
	zf->data += len;
	if (zn->open && zn->wp >= end)
		zone_close(z, zf, zn);
	return ZBD_OK;
}

/*
 * The next zone with min_bs bytes written, from zn on: sequential I/O
 * looks forward only, random I/O at the nearest on either side.
 */
static struct zbd_zone *zone_with_data(struct zbd *z, struct zbd_file *zf,
				       struct zbd_zone *zn)
{
	struct zbd_zone *lo = zn, *hi = zn, *endz = zf->z + zf->nr;

	for (;;) {
		bool more = false;

		if (++hi < endz) {
			more = true;
			if (!hi->seq || hi->wp - hi->start >= z->min_bs)
				return hi;
		} else if (!z->random) {
			return NULL;
		}
		if (z->random && lo > zf->z) {
			more = true;
			if (!(--lo)->seq || lo->wp - lo->start >= z->min_bs)
				return lo;
		}
		if (!more)
			return NULL;
	}
}

/* A read: below the write pointer, or in the next zone with data. */
static enum zbd_verdict adjust_read(struct zbd *z, struct zbd_file *zf,
				    struct zbd_zone *zn, struct io_u *u)
{
	struct zbd_zone *orig = zn;
	uint64_t range = zn->wp - zn->start, len;

	if (range < z->min_bs ||
	    (!z->random && u->offset + z->min_bs > zn->wp)) {
		zn = zone_with_data(z, zf, zn);
		if (!zn)
			return ZBD_END;
		range = zn->wp - zn->start;
		if (!z->random)
			u->offset = zn->start;
	}
	if (!zn->seq)
		return ZBD_OK;
	if (range <= u->len)
		u->offset = zn->start;
	else if (z->random)
		u->offset = zn->start + (u->offset - orig->start) %
			    (range - u->len) / z->min_bs * z->min_bs;
	len = zn->wp - u->offset < u->len ? zn->wp - u->offset : u->len;
	len = len / z->min_bs * z->min_bs;
	if (len < u->len)
		u->len = (uint32_t)len;
	return len ? ZBD_OK : ZBD_END;
}

enum zbd_verdict zbd_adjust(struct zbd *z, struct io_u *u)
{
	struct zbd_file *zf = &z->f[u->file];
	struct zbd_zone *zn;

	if (unlikely(!zf->read) && file_zones(z, u->file))
		return ZBD_FAIL;
	zn = zone_of(zf, u->offset);
	if (!zn || !zn->seq)
		return ZBD_OK;
	if (u->ddir == DDIR_WRITE) {
		if (u->len > zf->zsize)
			return ZBD_END;
		return adjust_write(z, zf, zn, u);
	}
	if (u->ddir == DDIR_READ && !z->beyond_wp)
		return adjust_read(z, zf, zn, u);
	return ZBD_OK;
}

int zbd_reset(struct zbd *z, const struct io_u *u)
{
	struct zbd_file *zf = &z->f[u->file];
	struct zbd_zone *zn = zone_of(zf, u->offset);
	struct blk_zone_range r;

	if (!zn)
		return 0;
	r.sector = zn->start >> 9;
	r.nr_sectors = zf->zsize >> 9;
	if (ioctl(z->files[u->file].fd, BLKRESETZONE, &r)) {
		strbuf_addf(&z->err, "zone reset at %llu: %s",
			    (unsigned long long)zn->start, strerror(errno));
		return -1;
	}
	if (zn->wp > zn->start)
		zf->with_data--;
	zf->data -= zn->wp - zn->start;
	zn->wp = zn->start;
	z->resets++;
	z->again = true;
	return 0;
}

uint64_t zbd_resets(const struct zbd *z)
{
	return z ? z->resets : 0;
}

bool zbd_read_ok(void *arg)
{
	struct zbd *z = arg;
	unsigned int i;

	for (i = 0; i < z->nr_files; i++) {
		/* unreadable: zbd_adjust() says so */
		if (!z->f[i].read && file_zones(z, i))
			return true;
		if (z->f[i].with_data)
			return true;
	}
	return false;
}

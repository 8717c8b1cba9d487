// SPDX-License-Identifier: MIT
/*
 * zonemode=zbd (zbd.h): the zones of a job's zoned block devices, read
 * from the kernel, and each I/O fitted to them as fio 3.33 does, as
 * seen from its write_iolog and the write pointers it leaves (doc/vm.md's
 * guest): writes at the write pointer, a full zone reset when a write
 * comes back to it, reads below the write pointer; a device's zones
 * shared by its jobs; fio 3.42's zone tails, write_zone_remainder and
 * recover_zbd_write_error.
 */
#include "zbd/zbd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "opt/engine_decl.h"
#include "util/log.h"
#include "util/strbuf.h"

struct zbd;

struct zbd_zone {
	uint64_t start, cap, wp;	/* bytes, absolute; wp as issued */
	struct zbd *opener;		/* the job that opened it, or NULL */
	struct zbd *holder;		/* the job with writes in flight to it */
	unsigned int held;		/* how many */
	bool seq;			/* a write pointer to write at (SWR) */
	bool open;			/* in its device's open list */
	bool dev_open;			/* open on the device when reported */
	bool known;			/* reported by the kernel */
};

/*
 * A zoned device, shared by every job of the run that uses it (jobs are
 * threads): its write pointers and open zones are the device's, as in
 * fio, where max_open_zones is per device. lock guards all of it; cond
 * tells the jobs waiting for a zone that one was let go, closed or reset
 * (gen counts those events, so that a wait misses none).
 */
struct zbd_dev {
	struct zbd_dev *next;
	dev_t rdev;
	unsigned int refs;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t gen;
	uint64_t zsize;			/* the device's zone size */
	unsigned int nz;		/* the device's zones */
	struct zbd_zone *z;		/* all of them, known as jobs ask */
	unsigned int *open;		/* open zones (indexes), in order */
	unsigned int nr_open, max_open;	/* max_open 0: no limit */
	bool limits_set;		/* max_open: the first job's */
	uint64_t data;			/* bytes below the known write pointers */
	unsigned int write_cnt;		/* writes to the next reset */
};

struct zbd_file {
	struct zbd_dev *dev;		/* NULL until the zones are read */
	uint64_t first;			/* the region's first zone's start */
	unsigned int lo, nr;		/* the region: dev->z[lo, lo + nr) */
	bool read;			/* the zones are known */
};

struct zbd {
	struct zbd_file *f;
	unsigned int nr_files;
	uint64_t min_bs;
	const struct engine_file *files;	/* borrowed: their fds */
	uint64_t resets;
	unsigned int max_open, job_max_open;	/* options */
	unsigned int nr_open;		/* zones this job opened, still open */
	unsigned int held;		/* its writes in flight (zone holds) */
	double reset_at, reset_freq;	/* zone_reset_threshold, _frequency */
	bool random, beyond_wp, ignore_limits, limited;
	bool verify;			/* writes that verify: no resets */
	bool remainder;			/* write_zone_remainder */
	bool recover;			/* recover_zbd_write_error */
	bool again;			/* the write of a reset, once more */
	uint64_t reset_wp;		/* the wp ZBD_RESET was said at */
	uint64_t wait_gen;		/* the device's gen at ZBD_WAIT */
	struct strbuf err;
};

/* The run's zoned devices: a list, as a run has few */
static pthread_mutex_t devs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zbd_dev *devs;

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
	/* fio 3.42's HOWTO: "If continue_on_error is not specified,
	 * errors out", and with an asynchronous engine and verify */
	if (p->o.recover_zbd_write_error && !p->o.continue_on_error)
		return plan_fail(p, err, "option 'recover_zbd_write_error': "
				 "needs continue_on_error (the writes go on "
				 "after an error only then)");
	if (p->o.recover_zbd_write_error && p->o.verify &&
	    !(engine_decl_flags(p->o.ioengine) & ENGINE_F_SYNC))
		return plan_fail(p, err, "option 'recover_zbd_write_error': "
				 "with an asynchronous engine, moving a write "
				 "pointer writes zeroes over what verify "
				 "reads back");
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

static inline struct zbd_zone *rz(const struct zbd_file *zf)
{
	return zf->dev->z + zf->lo;
}

/* A zone as the kernel reports it, unless a job knows it already. */
static void zone_fill(struct zbd_dev *d, const struct blk_zone *b,
		      uint32_t flags)
{
	uint64_t k = (b->start << 9) / d->zsize;
	struct zbd_zone *zn;

	if (k >= d->nz || d->z[k].known)
		return;
	zn = &d->z[k];
	zn->start = b->start << 9;
	zn->cap = (flags & BLK_ZONE_REP_CAPACITY ? b->capacity : b->len) << 9;
	zn->wp = b->wp << 9;
	/*
	 * fio's rule: only sequential-write-required zones have a write
	 * pointer to write at; a host-aware device's sequential-write-
	 * preferred zones are written, read and left unreset as
	 * conventional ones (fio 3.33 and 3.42 alike, in the test guest)
	 */
	zn->seq = b->type == BLK_ZONE_TYPE_SEQWRITE_REQ;
	if (b->cond == BLK_ZONE_COND_FULL)
		zn->wp = zn->start + zn->cap;
	/* taken into the open list by file_limits() */
	zn->dev_open = b->cond == BLK_ZONE_COND_IMP_OPEN ||
		       b->cond == BLK_ZONE_COND_EXP_OPEN;
	zn->known = true;
	if (zn->seq)
		d->data += zn->wp - zn->start;
}

/* Reads zones [from, to) of d (BLKREPORTZONE, in batches). */
static int report_zones(struct zbd_dev *d, int fd, unsigned int from,
			unsigned int to, const char *path, struct strbuf *err)
{
	enum { BATCH = 128 };
	size_t size = sizeof(struct blk_zone_report) +
		      BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *r = xmalloc(size);
	uint64_t sector = (uint64_t)from * d->zsize >> 9;
	uint64_t end = (uint64_t)to * d->zsize >> 9;
	unsigned int i;

	while (sector < end) {
		memset(r, 0, size);
		r->sector = sector;
		r->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, r) || !r->nr_zones) {
			strbuf_addf(err, "'%s': zone report: %s", path,
				    r->nr_zones ? strerror(errno) :
				    "no zones");
			free(r);
			return -1;
		}
		for (i = 0; i < r->nr_zones; i++) {
			zone_fill(d, &r->zones[i], r->flags);
			sector = r->zones[i].start + r->zones[i].len;
		}
	}
	free(r);
	return 0;
}

/* The device of st, shared: found, or made and counted (zbd_free()). */
static struct zbd_dev *dev_get(int fd, const struct stat *st, uint64_t zs,
			       const char *path, struct strbuf *err)
{
	struct zbd_dev *d;
	uint64_t size = 0;

	if (ioctl(fd, BLKGETSIZE64, &size) || size < zs) {
		strbuf_addf(err, "'%s': device size: %s", path,
			    size ? "less than a zone" : strerror(errno));
		return NULL;
	}
	pthread_mutex_lock(&devs_lock);
	for (d = devs; d && d->rdev != st->st_rdev; d = d->next)
		;
	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->rdev = st->st_rdev;
		d->zsize = zs;
		d->nz = (unsigned int)((size + zs - 1) / zs);
		/* (calloc: the pages of zones no job asks for stay untouched) */
		d->z = xcalloc(d->nz, sizeof(*d->z));
		d->open = xcalloc(d->nz, sizeof(*d->open));
		pthread_mutex_init(&d->lock, NULL);
		pthread_cond_init(&d->cond, NULL);
		d->next = devs;
		devs = d;
	}
	d->refs++;
	pthread_mutex_unlock(&devs_lock);
	return d;
}

static void dev_put(struct zbd_dev *d)
{
	struct zbd_dev **pp;

	pthread_mutex_lock(&devs_lock);
	if (--d->refs) {
		pthread_mutex_unlock(&devs_lock);
		return;
	}
	for (pp = &devs; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
	pthread_mutex_unlock(&devs_lock);
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	free(d->z);
	free(d->open);
	free(d);
}

/* Something a waiting job may want changed: a zone let go, closed, reset. */
static void dev_changed(struct zbd_dev *d)
{
	d->gen++;
	pthread_cond_broadcast(&d->cond);
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
	z->remainder = p->o.write_zone_remainder;
	z->recover = p->o.recover_zbd_write_error;
	strbuf_init(&z->err);
	return z;
}

/*
 * Takes zone zn into its device's open list, within max_open_zones and
 * job_max_open_zones; an open zone with no room left (filled by the
 * writes issued) counts as not open, as in fio 3.33. Under d->lock.
 */
static bool zone_open(struct zbd *z, struct zbd_dev *d, struct zbd_zone *zn)
{
	/* a reset would lose what verify reads back (fio 3.33) */
	if (z->verify && zn->wp + z->min_bs > zn->start + zn->cap)
		return false;
	if (!z->limited)
		return true;
	if (zn->open)
		return zn->wp < zn->start + zn->cap;
	if ((z->job_max_open && z->nr_open >= z->job_max_open) ||
	    (d->max_open && d->nr_open >= d->max_open))
		return false;
	d->open[d->nr_open++] = (unsigned int)(zn - d->z);
	z->nr_open++;
	zn->opener = z;
	zn->open = true;
	return true;
}

/* A zone written up to its capacity leaves the open list. */
static void zone_close(struct zbd_dev *d, struct zbd_zone *zn)
{
	unsigned int i, idx = (unsigned int)(zn - d->z);

	if (zn->opener)
		zn->opener->nr_open--;
	zn->opener = NULL;
	zn->open = false;
	for (i = 0; i < d->nr_open && d->open[i] != idx; i++)
		;
	if (i == d->nr_open)
		return;
	memmove(&d->open[i], &d->open[i + 1],
		(d->nr_open - i - 1) * sizeof(*d->open));
	d->nr_open--;
	dev_changed(d);
}

/*
 * A job that writes and verifies starts on empty zones, as fio 3.33's
 * (8 MiB of zone 0 written: its writes start at 0), so that no zone is
 * reset under data still to be read back. Under d->lock.
 */
static int reset_region(struct zbd *z, struct zbd_file *zf, int fd)
{
	struct zbd_dev *d = zf->dev;
	unsigned int k;

	for (k = 0; k < zf->nr; k++) {
		struct zbd_zone *zn = &rz(zf)[k];
		struct blk_zone_range r = {
			.sector = zn->start >> 9, .nr_sectors = d->zsize >> 9
		};

		if (!zn->seq || zn->wp == zn->start)
			continue;
		if (ioctl(fd, BLKRESETZONE, &r)) {
			strbuf_addf(&z->err, "zone reset at %llu: %s",
				    (unsigned long long)zn->start,
				    strerror(errno));
			return -1;
		}
		d->data -= zn->wp - zn->start;
		zn->wp = zn->start;
		if (zn->open)
			zone_close(d, zn);
		z->resets++;
	}
	return 0;
}

/*
 * The open-zone limit of the device: max_open_zones, else the device's
 * own (queue/max_open_zones) unless ignore_zone_limits=1, as the first
 * job on it says (fio: a limit per device); the zones the device has
 * open already are the first in the list, as fio's. Under d->lock.
 */
static void file_limits(struct zbd *z, struct zbd_file *zf,
			const struct stat *st)
{
	struct zbd_dev *d = zf->dev;
	char buf[32];
	unsigned int k;

	if (!d->limits_set) {
		long long dev = z->ignore_limits ? 0 :
			queue_attr(st, "max_open_zones", buf, sizeof(buf));

		d->max_open = z->max_open ? z->max_open :
			      dev > 0 ? (unsigned int)dev : 0;
		d->limits_set = true;
	}
	if (d->max_open || z->job_max_open)
		z->limited = true;
	for (k = 0; k < zf->nr; k++) {
		struct zbd_zone *zn = &rz(zf)[k];

		/* open on the device when reported, not yet in the list */
		if (!zn->dev_open)
			continue;
		zn->dev_open = false;
		if (!zn->open)
			zone_open(z, d, zn);
	}
}

/* Reads what no job knows yet of zf's zones. Under d->lock. */
static int region_zones(struct zbd *z, struct zbd_file *zf, int fd,
			const char *path)
{
	unsigned int a, b;

	for (a = 0; a < zf->nr && rz(zf)[a].known; a++)
		;
	for (b = zf->nr; b > a && rz(zf)[b - 1].known; b--)
		;
	if (a == b)
		return 0;
	return report_zones(zf->dev, fd, zf->lo + a, zf->lo + b, path,
			    &z->err);
}

/* The device and the region of file i, at its first zones' read. */
static int file_dev(struct zbd *z, unsigned int i, int fd,
		    const struct stat *st)
{
	struct zbd_file *zf = &z->f[i];
	const struct engine_file *f = &z->files[i];
	char buf[32];
	uint64_t zs;

	if (zf->dev)
		return 0;
	zs = (uint64_t)queue_attr(st, "chunk_sectors", buf, sizeof(buf)) << 9;
	if (!zs) {
		strbuf_addf(&z->err, "'%s': no zone size", f->path);
		return -1;
	}
	zf->dev = dev_get(fd, st, zs, f->path, &z->err);
	if (!zf->dev)
		return -1;
	zf->first = f->io_offset;
	zf->lo = (unsigned int)(f->io_offset / zs);
	zf->nr = (unsigned int)(f->io_size / zs);
	if (zf->lo + zf->nr > zf->dev->nz)
		zf->nr = zf->dev->nz - zf->lo;
	return 0;
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
	int ret = -1;

	if (fd < 0 || fstat(fd, &st)) {
		strbuf_addf(&z->err, "'%s': %s", f->path, strerror(errno));
	} else if (!file_dev(z, i, fd, &st)) {
		pthread_mutex_lock(&zf->dev->lock);
		if (!region_zones(z, zf, fd, f->path) &&
		    !(z->verify && fd == f->fd && reset_region(z, zf, fd))) {
			file_limits(z, zf, &st);
			ret = 0;
		}
		pthread_mutex_unlock(&zf->dev->lock);
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

/* The job ends: what it holds is let go, the zones it opened no one's. */
static void file_release(struct zbd *z, struct zbd_file *zf)
{
	struct zbd_dev *d = zf->dev;
	unsigned int k;

	pthread_mutex_lock(&d->lock);
	for (k = 0; k < zf->nr; k++) {
		struct zbd_zone *zn = &rz(zf)[k];

		if (zn->holder == z) {
			zn->holder = NULL;
			zn->held = 0;
		}
		if (zn->opener == z)
			zn->opener = NULL;
	}
	dev_changed(d);
	pthread_mutex_unlock(&d->lock);
	dev_put(d);
}

void zbd_free(struct zbd *z)
{
	unsigned int i;

	if (!z)
		return;
	for (i = 0; i < z->nr_files; i++)
		if (z->f[i].dev)
			file_release(z, &z->f[i]);
	free(z->f);
	strbuf_release(&z->err);
	free(z);
}

static struct zbd_zone *zone_of(struct zbd_file *zf, uint64_t off)
{
	uint64_t i;

	if (off < zf->first)
		return NULL;
	i = (off - zf->first) / zf->dev->zsize;
	return i < zf->nr ? &rz(zf)[i] : NULL;
}

static inline bool in_region(const struct zbd_file *zf, unsigned int idx)
{
	return idx >= zf->lo && idx - zf->lo < zf->nr;
}

static inline uint64_t room(const struct zbd_zone *zn)
{
	return zn->start + zn->cap - zn->wp;
}

/* Whether no zone can be opened now: max_open_zones, job_max_open_zones. */
static bool at_limit(const struct zbd *z, const struct zbd_dev *d)
{
	return (z->job_max_open && z->nr_open >= z->job_max_open) ||
	       (d->max_open && d->nr_open >= d->max_open);
}

/*
 * Whether a zone of the region has writes in flight (fio: "any I/O in
 * flight" may close a zone once it completes).
 */
static bool zones_busy(const struct zbd_file *zf)
{
	unsigned int k;

	for (k = 0; k < zf->nr; k++)
		if (rz(zf)[k].held)
			return true;
	return false;
}

static enum zbd_verdict wait_for(struct zbd *z, struct zbd_dev *d);

/*
 * A write drawn for zone *zp, which cannot be opened (the limits): fio
 * 3.33's choice, an open zone of the region picked by where the offset
 * falls in it; when that one has no room and no zone can be opened, the
 * job's writes in flight complete first (ZBD_WAIT: they may close it);
 * then the first zone after it that can be opened, else any open zone
 * with room; else, while writes are in flight, ZBD_WAIT, else ZBD_END.
 */
static enum zbd_verdict other_zone(struct zbd *z, struct zbd_file *zf,
				   struct zbd_zone **zp, const struct io_u *u)
{
	struct zbd_dev *d = zf->dev;
	uint64_t span = (uint64_t)zf->nr * d->zsize;
	struct zbd_zone *c = *zp, *end = rz(zf) + zf->nr;
	unsigned int i, n = 0, pick;

	for (i = 0; i < d->nr_open; i++)
		n += in_region(zf, d->open[i]);
	if (n) {
		pick = (unsigned int)((u->offset - zf->first) * n / span);
		for (i = 0; !in_region(zf, d->open[i]) || pick--; i++)
			;
		c = &d->z[d->open[i]];
		*zp = c;
		if (room(c) >= z->min_bs)
			return ZBD_OK;
		if (z->held && at_limit(z, d))
			return wait_for(z, d);
	}
	for (i = 0; i < zf->nr; i++) {
		if (++c == end)
			c = rz(zf);
		*zp = c;
		if (c->seq && !c->open && zone_open(z, d, c))
			return ZBD_OK;
	}
	for (i = 0; i < d->nr_open; i++) {
		c = &d->z[d->open[i]];
		*zp = c;
		if (in_region(zf, d->open[i]) && room(c) >= z->min_bs)
			return ZBD_OK;
	}
	return zones_busy(zf) ? wait_for(z, d) : ZBD_END;
}

/* The writes from one reset to the next: 1 / zone_reset_frequency. */
static unsigned int reset_every(const struct zbd *z)
{
	double n = 1.0 / z->reset_freq;

	return n >= UINT32_MAX ? UINT32_MAX : n < 1 ? 1 : (unsigned int)n;
}

/*
 * zone_reset_threshold: while the zones hold that share of the region
 * (bytes below the write pointers, counted as the writes are issued),
 * every 1/zone_reset_frequency-th write resets its zone first, as fio
 * 3.33 (zone_reset_frequency=0.25 on two full zones: writes at blocks
 * 0 1 2 0 1 2 3 0 ...). Once per write: not again after its reset.
 * The bytes and the count are the device's, as fio's (whose HOWTO
 * wants the same region for every write job then).
 */
static bool reset_due(struct zbd *z, struct zbd_file *zf, bool again)
{
	struct zbd_dev *d = zf->dev;

	if (!z->reset_freq || again)
		return false;
	if ((double)d->data < (double)zf->nr * (double)d->zsize *
			      z->reset_at)
		return false;
	if (!d->write_cnt)
		d->write_cnt = reset_every(z);
	if (--d->write_cnt)
		return false;
	d->write_cnt = reset_every(z);
	return true;
}

/* Whether zone zn takes no more writes (write_zone_remainder: none
 * at all; else, as fio 3.33, none of min_bs). */
static inline bool zone_full(const struct zbd *z, const struct zbd_zone *zn)
{
	return z->remainder ? !room(zn) : room(zn) < z->min_bs;
}

/* Another job's writes to zn are in flight: wait (zbd_wait()). */
static enum zbd_verdict wait_for(struct zbd *z, struct zbd_dev *d)
{
	z->wait_gen = d->gen;
	return ZBD_WAIT;
}

/*
 * The write u, issued now at zn's write pointer: its length within the
 * capacity (write_zone_remainder: the rest of the zone, when less than
 * the block is left, else whole min_bs blocks), the zone held until it
 * completes (zbd_done()).
 */
static enum zbd_verdict take_write(struct zbd *z, struct zbd_dev *d,
				   struct zbd_zone *zn, struct io_u *u)
{
	uint64_t len = room(zn) < u->len ? room(zn) : u->len;

	if (!z->remainder || len == u->len)
		len = len / z->min_bs * z->min_bs;
	if (!len)
		return ZBD_END;
	u->offset = zn->wp;
	u->len = (uint32_t)len;
	zn->wp += len;
	d->data += len;
	zn->held++;
	zn->holder = z;
	z->held++;
	return ZBD_OK;
}

/*
 * Whether a sequential write at u's offset is past what zone zn takes:
 * its capacity, or (fio 3.42, without write_zone_remainder) a tail too
 * small for a block, which finish_tail() finishes: the write goes on at
 * the next zone, where fio 3.33 reset the zone and wrote it again.
 */
static inline bool past_end(const struct zbd *z, const struct zbd_zone *zn,
			    const struct io_u *u)
{
	uint64_t end = zn->start + zn->cap;

	return u->offset >= end ||
	       (!z->remainder && u->offset + z->min_bs > end);
}

/*
 * A write: at the write pointer of its zone, the zone reset when full.
 * A sequential write past its zone's capacity (a zone smaller than its
 * size) goes on at the next zone's start, as fio 3.33: zcap's zones of
 * 12 MiB in 16 take 12 MiB each, with no reset between. Under an open-
 * zone limit a zone that cannot be opened gives its write to another.
 * A zone another job writes to is waited for, as fio's zone locks do.
 */
static enum zbd_verdict adjust_write(struct zbd *z, struct zbd_file *zf,
				     struct zbd_zone *zn, struct io_u *u)
{
	struct zbd_dev *d = zf->dev;
	bool again = z->again;

	z->again = false;
	if (!z->random && past_end(z, zn, u)) {
		if (++zn == rz(zf) + zf->nr) {
			u->offset = zf->first + (uint64_t)zf->nr * d->zsize;
			return ZBD_SKIP;
		}
		u->offset = zn->start;
		if (!zn->seq)
			return ZBD_OK;
	}
	if (!zone_open(z, d, zn)) {
		enum zbd_verdict v = other_zone(z, zf, &zn, u);

		if (v != ZBD_OK)
			return v;
		u->offset = zn->start;
	}
	if (zn->held && zn->holder != z)
		return wait_for(z, d);
	if ((reset_due(z, zf, again) && zn->wp > zn->start) ||
	    zone_full(z, zn)) {
		z->reset_wp = zn->wp;
		return ZBD_RESET;
	}
	return take_write(z, d, zn, u);
}

/*
 * The next zone with min_bs bytes written, from zn on: sequential I/O
 * looks forward only, random I/O at the nearest on either side.
 */
static struct zbd_zone *zone_with_data(struct zbd *z, struct zbd_file *zf,
				       struct zbd_zone *zn)
{
	struct zbd_zone *lo = zn, *hi = zn, *endz = rz(zf) + zf->nr;

	for (;;) {
		bool more = false;

		if (++hi < endz) {
			more = true;
			if (!hi->seq || hi->wp - hi->start >= z->min_bs)
				return hi;
		} else if (!z->random) {
			return NULL;
		}
		if (z->random && lo > rz(zf)) {
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
	enum zbd_verdict v = ZBD_OK;

	if (unlikely(!zf->read) && file_zones(z, u->file))
		return ZBD_FAIL;
	pthread_mutex_lock(&zf->dev->lock);
	zn = zone_of(zf, u->offset);
	if (!zn || !zn->seq)
		;
	else if (u->ddir == DDIR_WRITE)
		v = u->len > zf->dev->zsize ? ZBD_END :
		    adjust_write(z, zf, zn, u);
	else if (u->ddir == DDIR_READ && !z->beyond_wp)
		v = adjust_read(z, zf, zn, u);
	pthread_mutex_unlock(&zf->dev->lock);
	return v;
}

void zbd_wait(struct zbd *z, const struct io_u *u)
{
	struct zbd_dev *d = z->f[u->file].dev;
	struct timespec ts;

	if (!d)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 20 * 1000 * 1000;		/* then the stop is looked at */
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&d->lock);
	if (d->gen == z->wait_gen && !z->held)
		pthread_cond_timedwait(&d->cond, &d->lock, &ts);
	pthread_mutex_unlock(&d->lock);
}

int zbd_reset(struct zbd *z, const struct io_u *u)
{
	struct zbd_file *zf = &z->f[u->file];
	struct zbd_dev *d = zf->dev;
	struct zbd_zone *zn;
	struct blk_zone_range r;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	zn = zone_of(zf, u->offset);
	/* another job wrote to it or reset it meanwhile: ask again */
	if (!zn || zn->held || zn->wp != z->reset_wp)
		goto out;
	r.sector = zn->start >> 9;
	r.nr_sectors = d->zsize >> 9;
	if (ioctl(z->files[u->file].fd, BLKRESETZONE, &r)) {
		strbuf_addf(&z->err, "zone reset at %llu: %s",
			    (unsigned long long)zn->start, strerror(errno));
		ret = -1;
		goto out;
	}
	d->data -= zn->wp - zn->start;
	zn->wp = zn->start;
	z->resets++;
	z->again = true;
	dev_changed(d);
out:
	pthread_mutex_unlock(&d->lock);
	return ret;
}

/* Writes zeroes over [from, to) of fd, O_DIRECT-aligned: 0, or errno. */
static int write_zeroes(int fd, uint64_t from, uint64_t to)
{
	enum { CHUNK = 128 << 10 };
	void *buf;
	int ret = 0;

	if (posix_memalign(&buf, 4096, CHUNK))
		return ENOMEM;
	memset(buf, 0, CHUNK);
	while (from < to && !ret) {
		size_t n = to - from < CHUNK ? (size_t)(to - from) : CHUNK;
		ssize_t w = pwrite(fd, buf, n, (off_t)from);

		if (w <= 0)
			ret = w < 0 ? errno : EIO;
		else
			from += (uint64_t)w;
	}
	free(buf);
	return ret;
}

/*
 * recover_zbd_write_error (fio 3.42): a write to zn failed, and the
 * device's write pointer is short of where the write would have left
 * it: the gap is written with zeroes (fio "moves the write pointer"),
 * so that the writes after it land where they were meant to. -1 when
 * that fails too (the job stops, as fio's). Under d->lock.
 */
static int recover_wp(struct zbd *z, struct zbd_zone *zn,
		      const struct io_u *u, int fd)
{
	struct blk_zone_report *r = xcalloc(1, sizeof(*r) +
					      sizeof(struct blk_zone));
	uint64_t wp, want = u->offset + u->len;
	int ret;

	r->sector = zn->start >> 9;
	r->nr_zones = 1;
	ret = ioctl(fd, BLKREPORTZONE, r) || !r->nr_zones ? errno : 0;
	wp = r->zones[0].cond == BLK_ZONE_COND_FULL ? zn->start + zn->cap :
	     r->zones[0].wp << 9;
	free(r);
	if (!ret && wp < want)
		ret = write_zeroes(fd, wp, want);
	if (!ret)
		return 0;
	strbuf_reset(&z->err);
	strbuf_addf(&z->err, "recover_zbd_write_error: moving the write "
		    "pointer of the zone at %llu from %llu to %llu: %s",
		    (unsigned long long)zn->start, (unsigned long long)wp,
		    (unsigned long long)want, strerror(ret ? ret : EIO));
	return -1;
}

/*
 * fio 3.42: a zone whose writes leave less than a block of its capacity
 * (bs=40k in 12 MiB: 8 KiB) is finished (BLKFINISHZONE), once no write
 * to it is in flight, so that it is full and leaves the open ones;
 * write_zone_remainder writes the tail instead. 0, or -1 (z->err).
 * Under d->lock.
 */
static int finish_tail(struct zbd *z, struct zbd_dev *d, struct zbd_zone *zn,
		       int fd)
{
	struct blk_zone_range r = {
		.sector = zn->start >> 9, .nr_sectors = d->zsize >> 9
	};

	if (z->remainder || !room(zn) || room(zn) >= z->min_bs)
		return 0;
	if (ioctl(fd, BLKFINISHZONE, &r)) {
		strbuf_reset(&z->err);
		strbuf_addf(&z->err, "zone finish at %llu: %s",
			    (unsigned long long)zn->start, strerror(errno));
		return -1;
	}
	d->data += room(zn);
	zn->wp = zn->start + zn->cap;
	if (zn->open)
		zone_close(d, zn);
	return 0;
}

int zbd_done(struct zbd *z, const struct io_u *u)
{
	struct zbd_file *zf = &z->f[u->file];
	struct zbd_dev *d = zf->dev;
	struct zbd_zone *zn;
	int ret = 0;

	if (!d)
		return 0;
	pthread_mutex_lock(&d->lock);
	zn = zone_of(zf, u->offset);
	if (!zn || !zn->seq || zn->holder != z || !zn->held)
		goto out;
	z->held--;
	if (!--zn->held) {
		zn->holder = NULL;
		dev_changed(d);
	}
	if (u->error && z->recover)
		ret = recover_wp(z, zn, u, z->files[u->file].fd);
	else if (!u->error && !zn->held)
		ret = finish_tail(z, d, zn, z->files[u->file].fd);
	if (!ret && zn->open &&
	    u->offset + u->len >= zn->start + zn->cap)
		zone_close(d, zn);	/* fio: when the write filling it ends */
out:
	pthread_mutex_unlock(&d->lock);
	return ret;
}

uint64_t zbd_resets(const struct zbd *z)
{
	return z ? z->resets : 0;
}

/* Whether zf's region has a zone with data (conventional, or written). */
static bool region_has_data(const struct zbd_file *zf)
{
	unsigned int k;
	bool yes = false;

	pthread_mutex_lock(&zf->dev->lock);
	for (k = 0; k < zf->nr && !yes; k++)
		yes = !rz(zf)[k].seq || rz(zf)[k].wp > rz(zf)[k].start;
	pthread_mutex_unlock(&zf->dev->lock);
	return yes;
}

bool zbd_read_ok(void *arg)
{
	struct zbd *z = arg;
	unsigned int i;

	for (i = 0; i < z->nr_files; i++) {
		/* unreadable: zbd_adjust() says so */
		if (!z->f[i].read && file_zones(z, i))
			return true;
		if (region_has_data(&z->f[i]))
			return true;
	}
	return false;
}

/* SPDX-License-Identifier: MIT */
/*
 * A job's region in each of its targets (files_resolve() asks): where it
 * starts (offset=, offset_increment=, their percentages, file_append),
 * how long it is (size=, its percentage, filesize= and its drawn sizes,
 * fill_device, the file's own size), where later sweeps start, and a
 * character device's end. Looks at the file system only for
 * fill_device's free space; decides, creates nothing.
 */
#include "target/files_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "util/log.h"
#include "util/prng.h"

/* Rounds v up to a multiple of a (a may be 0). */
static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* the smallest block of any direction, used or not: fio's rounding unit */
uint64_t region_least_bs(const struct job_plan *p)
{
	uint64_t least = p->dir_min_bs[0];
	unsigned int d;

	for (d = 1; d < DDIR_RWDIR_CNT; d++)
		if (p->dir_min_bs[d] && (!least || p->dir_min_bs[d] < least))
			least = p->dir_min_bs[d];
	return least;
}

/*
 * The files' sizes from a filesize= range, as fio draws them: one draw
 * per file, in order, from the job's file-size generator (fio's seed
 * and generator: taus88, taus258 with random_generator=tausworthe64),
 * scaled to the range and rounded down to the smallest block size of
 * any direction, used or not, which may take it below the range, as in
 * fio. Without randrepeat or randseed they change from run to run, as
 * fio's do. NULL when filesize= is one size.
 */
uint64_t *region_draw_filesizes(const struct job_plan *p, unsigned int n)
{
	const struct bs_range *r = &p->o.filesize;
	uint64_t seed = plan_fio_seed(p, FIO_STREAM_FILESIZE), span = r->max - r->min, align;
	bool wide = p->o.random_generator == RANDGEN_TAUSWORTHE64;
	struct prng_taus64 t64;
	struct prng_taus t;
	uint64_t *v;
	unsigned int i;

	if (!r->min || r->max <= r->min)
		return NULL;
	align = region_least_bs(p);
	if (wide)
		prng_taus64_seed_fio(&t64, seed);
	else
		prng_taus_seed_fio(&t, seed);
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		double u = wide ? prng_taus64_next(&t64) / 18446744073709551616.0 :
				  prng_taus_next(&t) / 4294967296.0;

		v[i] = r->min + (uint64_t)((double)span * u);
		if (align)
			v[i] -= v[i] % align;
	}
	return v;
}

/*
 * The size the target has before this job (what is on disk, or what an
 * earlier job sharing it will have made it), or 0 when unknown.
 */
uint64_t region_known_size(const struct target *t)
{
	if (t->kind == EF_CHARDEV)
		return t->sized ? t->cur_size : 0;
	return t->cur_size > t->want_size ? t->cur_size : t->want_size;
}

const char *region_offset_opt(const struct job_plan *p)
{
	return p->clone && (p->o.offset_increment.bytes ||
			    p->o.offset_increment.pct) ? "offset_increment" :
						   "offset";
}

/*
 * fill_device without size=: the free space of the filesystem holding
 * the file, shared by the job's files, plus what the file already holds
 * past the offset, so that writing it all ends at ENOSPC or just before.
 */
static int fill_size(const struct job_plan *p, const struct target *t,
		     uint64_t off, unsigned int nr_files, uint64_t *size,
		     struct strbuf *err)
{
	struct statvfs vfs;
	struct stat st;
	char *where = t->exists ? xstrdup(t->path) :
				  files_existing_ancestor(t->path, &st);
	uint64_t have = region_known_size(t);

	if (statvfs(where, &vfs)) {
		files_fail(err, p, "fill_device", "cannot read the free space of "
		     "'%s': %s", where, strerror(errno));
		free(where);
		return -1;
	}
	free(where);
	*size = (have > off ? have - off : 0) +
		(uint64_t)vfs.f_bavail * vfs.f_frsize / nr_files;
	if (p->min_bs)
		*size -= *size % p->min_bs;
	if (!*size)
		return files_fail(err, p, "fill_device", "no free space left for "
			    "'%s'", t->path);
	return 0;
}

uint64_t region_pct_of(uint64_t base, unsigned int pct)
{
	return base / 100 * pct + base % 100 * pct / 100;
}

/*
 * offset= plus this clone's offset_increment, each in bytes or as a
 * percentage of base (the file's size). As fio, a sum with a percentage
 * in it is rounded up to offset_align (default: the smallest block).
 */
static uint64_t region_offset(const struct job_plan *p, uint64_t base)
{
	const struct job_options *o = &p->o;
	const struct size_pct *inc = &o->offset_increment;
	uint64_t off = o->offset.pct ? region_pct_of(base, o->offset.pct) :
				       o->offset.bytes;
	uint64_t align = o->offset_align ? o->offset_align : p->min_bs;

	off += (uint64_t)p->clone * (inc->pct ? region_pct_of(base, inc->pct) :
						inc->bytes);
	return o->offset.pct || inc->pct ? align_up(off, align) : off;
}

/*
 * Where the file's later sweeps (loops, io_size beyond the region, a
 * time_based wrap) start: fio takes a percentage offset again when it
 * opens the file for them, of the size the first sweep left it (the new
 * file it took 0% of is size long by then: size=256k offset=50%
 * io_size=512k writes 0-256k, then 128k-256k twice). The end stays.
 * size: the file's size by then (a null engine's: its region's end).
 */
uint64_t region_later_offset(const struct job_plan *p, uint64_t size,
			     uint64_t off)
{
	const struct job_options *o = &p->o;
	uint64_t later;

	if (!o->offset.pct && !(p->clone && o->offset_increment.pct))
		return off;
	if (o->file_append)
		return off;	/* of the same size again */
	later = region_offset(p, size);
	return later > off ? later : off;
}

/*
 * A character device has no end of its own: fio ends its region at
 * size= (split over the files), or at filesize= when that is smaller,
 * and offset= moves the start inside it (size=256k offset=16k reads
 * 240k; offset=25% starts at 64k). UINT64_MAX when no such end applies.
 */
uint64_t region_chardev_end(const struct job_plan *p, const struct target *t,
			    unsigned int nr_files, bool nofile)
{
	if (nofile || t->kind != EF_CHARDEV || t->sized || !p->o.size.bytes)
		return UINT64_MAX;
	return p->o.size.bytes / nr_files;
}

/*
 * What offset=N% (and offset_increment=N%) is of with filesize=: as
 * without it, the file's size before the job (fio: filesize=1m
 * offset=25% writes a new file from 0, reads an existing 2m one from
 * 512k); a character device or an engine without files has none but
 * size=, and without size= fio takes the percentage of no end at all
 * ("you need to specify valid offset="): refused here by name.
 */
static int filesize_pct_base(const struct job_plan *p, const struct target *t,
			     unsigned int nr_files, bool nofile,
			     uint64_t *base, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (!nofile && (t->kind != EF_CHARDEV || t->sized)) {
		*base = region_known_size(t);
		return 0;
	}
	*base = o->size.bytes / nr_files;
	if (*base || (!o->offset.pct && !(p->clone &&
					  o->offset_increment.pct)))
		return 0;
	return files_fail(err, p, o->offset.pct ? "offset" :
			  "offset_increment", "a percentage of '%s' needs "
			  "size=: %s has no size of its own to take it of",
			  t->path, nofile ? "an engine without files" :
			  "a character device");
}

/*
 * size=N% with filesize=: the region is N% of the file (its whole size,
 * the offset included), at most what the offset leaves, in whole blocks
 * of the smallest size; a file still to be made is laid out only to the
 * region's end, as fio 3.33 and 3.42 do (filesize=1m size=25% offset=64k
 * writes 64k-320k of a file left 320KiB long). size=100% is fio's whole
 * file: what the offset leaves, whole blocks or not (size=100%
 * offset=16k bs=64k lays out all of 1MiB and writes 15 blocks).
 */
static uint64_t filesize_pct(const struct job_plan *p, uint64_t real,
			     uint64_t left)
{
	uint64_t v = region_pct_of(real, p->o.size.pct), least = region_least_bs(p);

	if (p->o.size.pct >= 100)
		return left;
	if (v > left)
		v = left;
	return least ? v - v % least : v;
}

/*
 * filesize= is the file's size; offset= moves the region's start inside
 * it, not the file's end (size= is only the default io_size then:
 * resolve_job()). fio refuses an offset past the smallest size the range
 * allows, whatever was drawn; a file that ends at the offset gets no
 * I/O. filesize: this file's (region_draw_filesizes()).
 */
static int filesize_region(const struct job_plan *p, const struct target *t,
			   uint64_t filesize, unsigned int nr_files,
			   bool nofile, uint64_t *off, uint64_t *size,
			   struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t cend = region_chardev_end(p, t, nr_files, nofile);
	uint64_t real = filesize < cend ? filesize : cend, base;

	if (filesize_pct_base(p, t, nr_files, nofile, &base, err))
		return -1;
	*off = region_offset(p, base);
	if (*off > o->filesize.min)
		return files_fail(err, p, region_offset_opt(p), "%llu is "
				  "beyond the end of '%s' (filesize "
				  "%s%llu)", (unsigned long long)*off,
				  t->path, o->filesize.max >
				  o->filesize.min ? "range from " : "",
				  (unsigned long long)o->filesize.min);
	*size = *off < real ? real - *off : 0;
	if (o->size.pct)
		*size = filesize_pct(p, real, *size);
	return 0;
}

/* No size given: the file's own from the offset, or why there is none. */
static int rest_of_file(const struct job_plan *p, const struct target *t,
			uint64_t real, bool nofile, uint64_t off,
			uint64_t *size, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (nofile)
		return files_fail(err, p, "size", "ioengine '%s' has no file "
			    "to take a size from: size= is required",
			    o->ioengine);
	if (t->kind == EF_CHARDEV && !t->sized)
		return files_fail(err, p, "size", "'%s' is a character "
			    "device: size= is required (only device "
			    "DAX nodes such as /dev/dax0.0 and NVMe "
			    "namespaces' generic nodes are sized)",
			    t->path);
	if (!real)
		return files_fail(err, p, "size", "'%s' %s: size= is "
			    "required to create it", t->path,
			    t->exists || t->want_size ? "is empty" :
			    "does not exist");
	if (off >= real)
		return files_fail(err, p, region_offset_opt(p), "%llu is at "
			    "or beyond the end of '%s' (%llu bytes)",
			    (unsigned long long)off, t->path,
			    (unsigned long long)real);
	*size = real - off;
	return 0;
}

/*
 * The region within a device's end (a region smaller than a block:
 * workload_check() decides); *len gets its size. opt: the option to
 * blame.
 */
static int region_fits(const struct job_plan *p, const struct target *t,
		       uint64_t off, uint64_t size, const char *opt,
		       uint64_t *len, struct strbuf *err)
{
	if ((t->kind == EF_BLOCKDEV || t->sized) && !t->unknown &&
	    (off >= t->cur_size || size > t->cur_size - off))
		return files_fail(err, p, opt,
			    "%llu bytes from offset %llu go beyond the end "
			    "of %s '%s' (%llu bytes)",
			    (unsigned long long)size,
			    (unsigned long long)off,
			    t->remote ? t->remote : t->dax ? "DAX device" :
			    t->sized ? "NVMe namespace" :
			    "block device", t->path,
			    (unsigned long long)t->cur_size);
	*len = size;
	return 0;
}

int region_of_job(const struct job_plan *p, const struct target *t,
		  uint64_t filesize, unsigned int nr_files, bool nofile,
		  uint64_t *off, uint64_t *len, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t real = nofile ? 0 : region_known_size(t);
	uint64_t cend = region_chardev_end(p, t, nr_files, nofile);
	uint64_t size = 0;
	bool have_size = false;

	if (o->filesize.min)
		return filesize_region(p, t, filesize, nr_files, nofile, off,
				       &size, err) ||
		       region_fits(p, t, *off, size, "filesize", len, err) ?
		       -1 : 0;
	if (o->size.pct) {
		if (!real)
			return files_fail(err, p, "size", "%u%% of '%s' needs "
				    "an existing file or device to take it "
				    "from", o->size.pct, t->path);
		size = region_pct_of(real, o->size.pct);
		have_size = true;
	} else if (o->size.bytes) {
		size = o->size.bytes / nr_files;
		have_size = size != 0;
	}
	/*
	 * A percentage is of the file's size before the job, as fio: a
	 * file still to be made has none, so offset=N% of it is 0 (its
	 * size would be offset + size: the percentage has nothing else to
	 * be of). Engines without files take it of size=, as fio's do;
	 * a character device ends at size= (region_chardev_end()).
	 */
	if (cend != UINT64_MAX) {
		*off = region_offset(p, cend);
		size = *off < cend ? cend - *off : 0;
		return region_fits(p, t, *off, size, have_size ? "size" :
				   region_offset_opt(p), len, err);
	}
	*off = region_offset(p, nofile && !real ? size : real);
	/* file_append: from the end of a regular file, as fio */
	if (o->file_append && t->kind == EF_REGULAR && !nofile)
		*off = real;
	/*
	 * an engine without files: fio takes the size it gives the file
	 * as its end (null size=64k: 64k-128k, whatever offset= says)
	 */
	else if (o->file_append && nofile && have_size)
		*off = size;

	if (!have_size && o->fill_device && !nofile &&
	    t->kind == EF_REGULAR) {
		if (fill_size(p, t, *off, nr_files, &size, err))
			return -1;
		have_size = true;
	}
	if (!have_size &&
	    rest_of_file(p, t, real, nofile, *off, &size, err))
		return -1;
	return region_fits(p, t, *off, size, have_size ? "size" :
			   region_offset_opt(p), len, err);
}

/* SPDX-License-Identifier: MIT */
/*
 * What workload_init() works out once (workload.c has the rest): the
 * random streams and their seeds, block sizes, the random mode, each
 * file's region, window and random state, strided zones, the file
 * service; and workload_check(), the plan's regions against its block
 * sizes before anything is created.
 */
#include "workload/workload_int.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "util/log.h"
#include "workload/iolog.h"

int wl_fail(const struct job_plan *p, struct strbuf *err, const char *fmt,
	    ...)
{
	va_list ap;

	if (p->src_file)
		strbuf_addf(err, "%s:%d: ", p->src_file, p->src_line);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *const ddir_name[DDIR_RWDIR_CNT] = {
	"read", "write", "trim"
};

/*
 * b from sizes lo to hi: the nsplit entries of split (bssplit), else a
 * range, else one size; what names them in an error.
 */
static int bs_build(struct wl_bs *b, const struct job_plan *p,
		    uint64_t lo, uint64_t hi, const struct bssplit *split,
		    unsigned int nsplit, const char *what, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int i, j, slot = 0;

	if (!lo || hi > UINT32_MAX)
		return wl_fail(p, err, "%s block size %" PRIu64 " is not "
			       "supported (1 to 4294967295 bytes)",
			       what, lo ? hi : lo);
	b->min = (uint32_t)lo;
	b->max = (uint32_t)hi;
	if (nsplit) {
		unsigned int order[BSSPLIT_MAX], n = 0, k;
		uint64_t cut;

		b->kind = BS_SPLIT;
		/* fio's order: by percentage, the smallest first (stable) */
		for (i = 0; i < nsplit && i < BSSPLIT_MAX; i++) {
			for (k = n; k && split[order[k - 1]].perc >
					 split[i].perc; k--)
				order[k] = order[k - 1];
			order[k] = i;
			n++;
		}
		for (k = 0; k < n; k++) {
			const struct bssplit *s = &split[order[k]];

			if (slot + s->perc > SPLIT_SLOTS)
				return wl_fail(p, err, "option 'bssplit': "
					       "percentages add up to more "
					       "than 100");
			/*
			 * fio: a size is cut to a multiple of the smallest,
			 * unless bs_unaligned (512/75:4KiB/25: 4000, not 3584)
			 */
			cut = o->bs_unaligned ? 0 : s->bs % lo;
			for (j = 0; j < s->perc; j++)
				b->split[slot++] = (uint32_t)(s->bs - cut);
		}
		if (!slot)
			return wl_fail(p, err, "option 'bssplit': all "
				       "percentages are 0");
		b->nsplit = slot;
		for (j = 0; j < slot && b->split[j] == lo; j++)
			;
		if (j == slot)
			b->kind = BS_FIXED;	/* one size after all */
	} else if (lo != hi) {
		b->kind = BS_RANGE;
		b->nmult = (uint32_t)(hi / lo);
		/* bs_unaligned: fio's draw, not cut to a multiple of min */
		b->unaligned = o->bs_unaligned;
		b->ragged = hi % lo != 0 || b->unaligned;
	} else {
		b->kind = BS_FIXED;
	}
	return 0;
}

int wl_bs_init(struct wl_bs *b, const struct job_plan *p, enum ddir d,
		   struct strbuf *err)
{
	return bs_build(b, p, p->dir_min_bs[d], p->dir_max_bs[d],
			p->o.bssplit[d], p->o.nr_bssplit[d], ddir_name[d], err);
}

/* bs_is_seq_rand: the sizes of a random job's sequential I/Os. */
int wl_bs_seq_init(struct wl_bs *b, const struct job_plan *p,
		       struct strbuf *err)
{
	return bs_build(b, p, p->seq_min_bs, p->seq_max_bs, p->seq_bssplit,
			p->nr_seq_bssplit, "sequential", err);
}

static uint64_t base_seed(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	struct timespec ts;
	uint64_t s;

	if (o->randrepeat || opt_is_set(o, "randseed"))
		return o->randseed;
	if (getrandom(&s, sizeof(s), 0) == (ssize_t)sizeof(s))
		return s;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
	       ((uint64_t)getpid() << 16);
}

void wl_seed_streams(struct workload *w, const struct job_plan *p)
{
	uint64_t s = prng_derive(base_seed(p), p->job_index), off_seed;
	unsigned int d;

	/*
	 * random offsets: fio's stream, which randrepeat (the default)
	 * seeds from the job's number alone, randseed or not
	 */
	off_seed = p->o.randrepeat ? FIO_BLOCK_SEED * plan_fio_jobnr(p) :
		   plan_fio_seed(p, FIO_STREAM_BLOCK);
	prng_taus_seed_fio(&w->r_off, off_seed);
	prng_taus64_seed_fio(&w->r_off64, off_seed);
	/*
	 * rw=rw and randrw: fio's direction draws (one per I/O from its
	 * own taus88, even with tausworthe64), so a mixed job reads and
	 * writes in fio's order, which zonemode=zbd's write pointers and
	 * the read that ends a job on an empty zone depend on
	 */
	prng_taus_seed_fio(&w->r_ddir, plan_fio_seed(p, FIO_STREAM_MIX));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		/*
		 * fio's first three streams: the block sizes by direction;
		 * a job that verifies draws its writes' from the reads'
		 * seed (bssplit=65536/50:8KiB/50: 26 writes, 33 with
		 * verify=); trimwrite's trims draw the writes' sequence
		 * (measured: the k-th trim's draw is the k-th write's, so
		 * with the same sizes each write is as long as its trim)
		 */
		unsigned int wd = p->o.verify != VERIFY_NONE ? DDIR_READ :
				  DDIR_WRITE;
		unsigned int sd = d == DDIR_WRITE ? wd :
				  d == DDIR_TRIM && (p->o.rw == RW_TRIMWRITE ||
				  p->o.rw == RW_RANDTRIMWRITE) ? wd : d;

		prng_taus_seed_fio(&w->r_bs.t[d], plan_fio_seed(p, sd));
		prng_taus64_seed_fio(&w->r_bs.t64[d], plan_fio_seed(p, sd));
	}
	w->bs64 = p->o.random_generator == RANDGEN_TAUSWORTHE64;
	prng_taus64_seed(&w->r_dist, prng_derive(s, 4));
	w->key_state = prng_derive(s, 5);
	prng_taus_seed(&w->r_file, prng_derive(s, 6));
	prng_taus64_seed(&w->r_file64, prng_derive(s, 6));
	/* file_service_type=random: fio's stream, so its files in its order */
	if (p->o.file_service_type == FSRV_RANDOM) {
		prng_taus_seed_fio(&w->r_file,
				   plan_fio_seed(p, FIO_STREAM_FILE));
		prng_taus64_seed_fio(&w->r_file64,
				     plan_fio_seed(p, FIO_STREAM_FILE));
	}
	prng_taus_seed(&w->r_zone, prng_derive(s, 7));
	/* percentage_random: fio's draw of 1..100 from its own stream */
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		prng_taus_seed_fio(&w->r_seq.t[d],
				   plan_fio_seed(p, FIO_STREAM_SEQ_RAND));
}

/*
 * fio 3.33 keeps one random map per file in units of the smallest block
 * size of all three directions, used or not (bs=512,4k for randwrite
 * too), and its lfsr runs over the region in those units. The unit, when
 * some used direction's block differs from it (the map or the LFSR then
 * acts as fio's does: w->xmap, w->xlfsr), or 0.
 */
static uint64_t xmap_unit(const struct workload *w, const struct job_plan *p)
{
	uint64_t unit = p->dir_min_bs[0];
	unsigned int d;
	bool differ = false;

	for (d = 1; d < DDIR_RWDIR_CNT; d++)
		if (p->dir_min_bs[d] && p->dir_min_bs[d] < unit)
			unit = p->dir_min_bs[d];
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if ((w->dmask & 1u << d) && w->bs[d].min != unit)
			differ = true;
	return differ ? unit : 0;
}

enum wl_rand_mode wl_rand_mode(const struct workload *w,
				   const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	if (o->act_segs)
		return RM_SEGS;
	if (o->random_distribution == RDIST_ZONED ||
	    o->random_distribution == RDIST_ZONED_ABS)
		return RM_ZONED;
	if (o->random_distribution != RDIST_RANDOM)
		return RM_DIST;
	if (o->random_generator == RANDGEN_LFSR)
		return RM_LFSR;
	/*
	 * fio: a blockalign other than the minimum block size turns the
	 * random map off (plan.h ba_nomap). The map is fio's bitmap
	 * (blkmap.h), where a draw on a done block takes the next free one
	 * and an I/O is cut to the free run it starts: fio's order (a huge
	 * one-size map takes the permutation: wl_rand_setup())
	 */
	/* fio 3.42 sets norandommap for write_zone_remainder's short writes */
	if (!o->norandommap && !p->ba_nomap &&
	    !(o->zonemode == ZONE_MODE_ZBD && o->write_zone_remainder))
		return RM_BITMAP;
	if (o->random_generator == RANDGEN_TAUSWORTHE64)
		return RM_UNIFORM64;
	return RM_UNIFORM32;
}

/* Can direction d use the random state of direction e? */
static bool rand_shareable(const struct workload *w, enum ddir d, enum ddir e)
{
	const struct job_options *o = w->o;

	/* xlfsr: one LFSR for all directions (fio) */
	if (w->xlfsr && (w->dmask & 1u << e))
		return true;
	if (!(w->dmask & 1u << e) || w->align[e] != w->align[d] ||
	    w->bs[e].min != w->bs[d].min)
		return false;
	if (w->rmode == RM_SEGS)	/* the positions: per largest block */
		return w->bs[e].max == w->bs[d].max;
	if (w->rmode != RM_ZONED)
		return true;
	return o->nr_rdist_zones[e] == o->nr_rdist_zones[d] &&
	       !memcmp(o->rdist_zones[e], o->rdist_zones[d],
		       o->nr_rdist_zones[d] * sizeof(o->rdist_zones[d][0]));
}

/*
 * xmap: f's one map, of its region in units of the smallest block; no
 * room for it with softrandommap: the job runs without a map (fio).
 */
static int xmap_init(struct workload *w, struct wl_file *f)
{
	uint64_t n;
	int ret;

	if (!w->xmap)
		return 0;
	/* strided zones: a zonerange's map, started over with the zone */
	n = (w->zones ? w->zrange : f->whi) / w->xunit;
	ret = blkmap_init(&f->xbm, n ? n : 1);
	if (ret != -ENOMEM || !w->o->softrandommap)
		return ret;
	w->xmap = false;
	w->rmode = w->o->random_generator == RANDGEN_TAUSWORTHE64 ||
		   n > (1ULL << 32) ? RM_UNIFORM64 : RM_UNIFORM32;
	return 0;
}

void wl_files_free(struct workload *w)
{
	unsigned int i, d;

	for (i = 0; w->files && i < w->nr_files; i++) {
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			free(w->files[i].rnd[d].zt);
			free(w->files[i].rnd[d].segs);
			blkmap_free(&w->files[i].rnd[d].bm);
		}
		blkmap_free(&w->files[i].xbm);
	}
	free(w->files);
}

int wl_files_init(struct workload *w, const struct job_plan *p,
		      const struct engine_file *files, struct strbuf *err)
{
	unsigned int i, d, e;
	uint64_t real;
	int ret;

	w->xunit = w->random && (w->rmode == RM_BITMAP ||
				 w->rmode == RM_LFSR) ? xmap_unit(w, p) : 0;
	w->xmap = w->xunit && w->rmode == RM_BITMAP;
	/* strided zones: a zone window's own LFSR, of its own blocks */
	w->xlfsr = w->xunit && w->rmode == RM_LFSR && !w->zones;
	if (w->zones && !w->xmap)
		w->xunit = 0;
	for (i = 0; i < w->nr_files; i++) {
		struct wl_file *f = &w->files[i];

		f->start = files[i].io_offset;
		f->size = files[i].io_size;
		f->start2 = files[i].io_offset_later > f->start ?
			    files[i].io_offset_later : f->start;
		/*
		 * the file as fio sets the job up (a clone set up before
		 * the others that share it sees it smaller); a target not
		 * laid out yet: the region is its extent
		 */
		real = files[i].setup_size ? files[i].setup_size :
		       files[i].real_size;
		f->real = real > f->start + f->size ? real : f->start + f->size;
		f->whi = f->size;
		if (xmap_init(w, f))
			return wl_fail(p, err, "'%s': no memory for the random "
				       "map of %" PRIu64 " blocks; norandommap "
				       "needs none, softrandommap runs without",
				       files[i].path ? files[i].path : "",
				       f->whi / w->xunit);
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t min = w->bs[d].min, nblk;
			struct wl_rand *q = &f->rnd[d];

			f->rp[d] = q;
			q->bmp = w->xmap ? &f->xbm : &q->bm;
			/*
			 * a region smaller than the direction's block: no
			 * I/O of it goes to the file (file_next())
			 */
			if (!ddir_used(p, (enum ddir)d) || f->size < min)
				continue;
			if (!w->random)
				continue;
			/* share one grid (and map) between directions */
			for (e = 0; e < d; e++)
				if (rand_shareable(w, (enum ddir)d,
						   (enum ddir)e))
					break;
			/* (xlfsr: a direction with no room has no LFSR) */
			if (e < d && (!w->xlfsr || f->rp[e]->nblk)) {
				f->rp[d] = f->rp[e];
				continue;
			}
			nblk = w->zones ? wl_zone_blocks(w, (enum ddir)d) :
			       wl_rand_blocks(w, (enum ddir)d, f->whi);
			/* fio switches to the 64-bit generator past 2^32 */
			if (w->rmode == RM_UNIFORM32 && nblk > (1ULL << 32))
				w->rmode = RM_UNIFORM64;
			q->zdir = (enum ddir)d;
			if (w->rmode == RM_ZONED) {
				unsigned int nz = p->o.nr_rdist_zones[d];

				q->zdir = (enum ddir)d;
				q->zt = xcalloc(1, sizeof(*q->zt) +
						(nz ? nz : 1) *
						sizeof(q->zt->z[0]));
			}
			ret = wl_rand_setup(w, q, nblk, w->zones ? w->zrange :
					    f->whi, w->align[d]);
			if (ret == -ENOMEM)
				return wl_fail(p, err, "'%s': no memory for "
					       "the random map of %" PRIu64
					       " blocks (%" PRIu64 " MiB); "
					       "norandommap needs none, "
					       "softrandommap runs without",
					       files[i].path ? files[i].path :
					       "", nblk, nblk >> 23);
			if (ret == -ERANGE)	/* the region's message */
				return wl_segs_check(p, &files[i], 1, err) ?
				       -1 : wl_fail(p, err, "option "
					       "'active_segments': no room "
					       "for the segments apart in "
					       "'%s'", files[i].path ?
					       files[i].path : "");
			if (ret)
				return wl_fail(p, err, "option "
					       "'random_distribution': "
					       "parameter %g is out of range",
					       p->o.rdist_param);
		}
	}
	return 0;
}

/*
 * The zone options against each other and the block sizes. Reads only
 * the plan (so files_resolve() can ask before creating anything).
 */
static int zones_check(const struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	switch (o->zonemode) {
	case ZONE_MODE_NONE:
		/* fio 3.33 refuses a zone size without a zone mode */
		if (o->zonesize)
			return wl_fail(p, err, "option 'zonesize': zones need "
				       "zonemode=strided");
		return 0;
	case ZONE_MODE_ZBD:
		/* the device's zones: zbd_check_target() */
		return 0;
	case ZONE_MODE_STRIDED:
		break;
	}
	/*
	 * A zone smaller than a block is no error (fio 3.33): sequential
	 * I/O starts at each zone's start and runs past its end, random
	 * I/O finds no offset (checks.c notes it)
	 */
	if (!o->zonesize)
		return wl_fail(p, err, "option 'zonesize': zonemode=strided "
			       "needs a zone size");
	return 0;
}

int wl_zones_init(struct workload *w, const struct job_plan *p,
		      struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (zones_check(p, err))
		return -1;
	w->zbd = o->zonemode == ZONE_MODE_ZBD;
	if (o->zonemode != ZONE_MODE_STRIDED)
		return 0;
	w->zones = true;
	w->zsize = o->zonesize;
	w->zrange = o->zonerange ? o->zonerange : o->zonesize;
	w->zskip = o->zoneskip;
	return 0;
}

void wl_fsrv_init(struct workload *w, const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	unsigned int i;

	w->fsrv = o->file_service_type;
	w->fs_nr = o->file_service_nr ? o->file_service_nr : 1;
	if (w->fsrv == FSRV_SEQUENTIAL)
		w->fs_nr = UINT32_MAX;	/* keeps its turn until done */
	else if (w->fsrv > FSRV_RANDOM)
		w->fs_nr = 1;
	/* the parser checked the parameter */
	w->skewed = w->fsrv > FSRV_RANDOM &&
		    !fsrv_skew_init(&w->fskew, w->fsrv, o->file_service_param,
				    w->nr_files, &w->r_file64);
	w->max_open = o->openfiles && o->openfiles < w->nr_files ?
		      o->openfiles : w->nr_files;
	w->limited = w->max_open < w->nr_files;
	w->act = xcalloc(w->max_open, sizeof(*w->act));
	if (!w->limited) {
		for (i = 0; i < w->nr_files; i++) {
			w->act[i] = i;
			w->files[i].open = true;
			w->files[i].slot = i;
		}
		w->nact = w->nr_files;
	} else {
		/*
		 * a pass retires and brings in each file at most once, and
		 * a call restarts at most SKEW_TRIES skewed files
		 */
		w->ev_cap = 2 * w->nr_files + 2 * w->max_open +
			    2 * SKEW_TRIES + 4;
		w->ev = xcalloc(w->ev_cap, sizeof(*w->ev));
	}
}

/*
 * fio builds the zoned_abs table over what a file's random state spans:
 * its region, or a strided zone's range where that is smaller (fio 3.33
 * and 3.42: "zoned_abs sizes exceed file size" for 64k of zones over a
 * 64k file with zonerange=48k; the job then does a few I/Os or none).
 */
static uint64_t zoned_abs_span(const struct job_options *o, uint64_t region,
			       const char **what)
{
	uint64_t zr = o->zonerange ? o->zonerange : o->zonesize;

	*what = "region";
	if (o->zonemode != ZONE_MODE_STRIDED || !zr || zr >= region)
		return region;
	*what = "strided zone range";
	return zr;
}

static int zoned_abs_check(const struct job_plan *p,
			   const struct engine_file *files,
			   unsigned int nr_files, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int d, i, k;

	if (o->random_distribution != RDIST_ZONED_ABS)
		return 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t bs = p->dir_min_bs[d] ? p->dir_min_bs[d] : p->min_bs;
		uint64_t sum = 0;

		if (!ddir_used(p, (enum ddir)d) || !bs)
			continue;
		for (k = 0; k < o->nr_rdist_zones[d]; k++)
			if (!o->rdist_zones[d][k].rest)
				sum += o->rdist_zones[d][k].size;
		for (i = 0; i < nr_files; i++) {
			const struct engine_file *f = &files[i];
			const char *what;
			uint64_t span = zoned_abs_span(o, f->io_size, &what);

			if (!f->io_size || sum / bs <= span / bs)
				continue;
			return wl_fail(p, err, "option 'random_distribution': "
				       "the zoned_abs sizes add up to %" PRIu64
				       " bytes (%" PRIu64 " blocks of %" PRIu64
				       "), more than the %" PRIu64 " of the "
				       "%" PRIu64 "-byte %s of '%s'", sum,
				       sum / bs, bs, span / bs, span, what,
				       f->path ? f->path : "");
		}
	}
	return 0;
}

/*
 * As in fio, a file whose region is smaller than a direction's block
 * gets no I/O of that direction (nrfiles=4 size=16k bs=8k: files of 4k).
 * fio 3.33 then runs a job that can do no I/O at all and exits 0 (it
 * only refuses when the regions together are smaller than a block);
 * its HOWTO says a job runs until size bytes are done, and a job that
 * cannot do one block is refused here, before anything is created.
 *
 * zoned_abs zones laid end to end must fit each file's region (not a
 * strided zone's window), counted in blocks of the direction's smallest
 * size as fio counts them (20k of zones over 18k at bs=4k: 5 blocks in
 * 4). fio says "zoned_abs sizes exceed file size" and runs on with the
 * zones cut, doing a few I/Os or none, and exits 0; iolite refuses.
 */
int workload_check(const struct job_plan *p,
		   const struct engine_file *files, unsigned int nr_files,
		   struct strbuf *err)
{
	unsigned int i, big = 0;

	if (p->replay)
		return 0;	/* the log's regions: iolog_plan() checked */
	if (zones_check(p, err) || zoned_abs_check(p, files, nr_files, err) ||
	    wl_spr_check(p, files, nr_files, err) ||
	    wl_segs_check(p, files, nr_files, err))
		return -1;
	for (i = 0; i < nr_files; i++)
		if (files[i].io_size > files[big].io_size)
			big = i;
	if (!nr_files || !p->min_bs || files[big].io_size >= p->min_bs)
		return 0;
	return wl_fail(p, err, "option '%s': the job could do no I/O: the "
		       "region of '%s' is %" PRIu64 " bytes%s, smaller than "
		       "the block size %" PRIu64, p->o.filesize.min ?
		       "filesize" : "size", files[big].path ?
		       files[big].path : "", files[big].io_size,
		       nr_files > 1 ? " (the largest of its files)" : "",
		       p->min_bs);
}

/* ---- the workload ---------------------------------------------------- */

/* read_iolog: a workload whose next() is the log's (workload/iolog.c) */
static int next_replay(struct workload *w, struct io_u *u)
{
	return iolog_replay_next(w->replay, u);
}

static int replay_init(struct workload **out, const struct job_plan *p,
		       struct strbuf *err)
{
	struct workload *w = xcalloc(1, sizeof(*w));

	if (iolog_replay_init(&w->replay, p, err)) {
		free(w);
		return -1;
	}
	w->o = &p->o;
	w->next = next_replay;
	*out = w;
	return 0;
}

/* The pattern: random or not, the mix, trimwrite, rw's modifiers. */
static void init_pattern(struct workload *w, const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	w->random = o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE ||
		    o->rw == RW_RANDTRIM || o->rw == RW_RANDRW ||
		    o->rw == RW_RANDTRIMWRITE;
	w->mixed = o->rw == RW_RW || o->rw == RW_RANDRW;
	w->want_ddir = -1;
	w->trimwrite = o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE;
	w->nrange = plan_nrange(p);
	/* randtrimwrite writes what it trimmed, whatever the sizes (fio) */
	w->tw_seq = o->rw == RW_TRIMWRITE &&
		    (p->dir_min_bs[DDIR_WRITE] != p->dir_min_bs[DDIR_TRIM] ||
		     p->dir_max_bs[DDIR_WRITE] != p->dir_max_bs[DDIR_TRIM] ||
		     o->nr_bssplit[DDIR_WRITE] || o->nr_bssplit[DDIR_TRIM]);
	w->tw_lastw = UINT64_MAX;
	/* fio reads when floor(100 * draw / 2^32) < rwmixread */
	w->mix_thresh = (((uint64_t)o->rwmixread << 32) + 99) / 100;
	w->mix_pct[DDIR_READ] = (uint8_t)o->rwmixread;
	w->mix_pct[DDIR_WRITE] = (uint8_t)(100 - o->rwmixread);
	w->dmask = p->ddir_mask;
	if (w->random) {
		w->seq_nr = o->rw_seq_nr;
		w->identical = o->rw_sequencer == RW_SEQ_IDENTICAL;
	} else {
		w->add = o->rw_seq_add;
	}
}

/* Each direction's block sizes and alignment; the sequential sizes. */
static int init_sizes(struct workload *w, const struct job_plan *p,
		      struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!ddir_used(p, (enum ddir)d))
			continue;
		w->ddir = (uint8_t)d;
		w->align[d] = p->dir_align[d] ? p->dir_align[d] :
						p->dir_min_bs[d];
		if (wl_bs_init(&w->bs[d], p, (enum ddir)d, err))
			return -1;
		/* fio: random when 1 + 100 x draw / 2^32 is at most P */
		w->perc_thresh[d] = (((uint64_t)o->perc_rand[d] << 32) + 99) /
				    100;
		if (w->random && o->perc_rand[d] < 100)
			w->perc_on = true;
	}
	if (w->random && p->seq_max_bs) {
		if (wl_bs_seq_init(&w->bs_seq, p, err))
			return -1;
		w->seq_sizes = true;
	}
	w->dunit = p->dir_min_bs[DDIR_READ];
	if (!w->dunit || (p->dir_min_bs[DDIR_WRITE] &&
			  p->dir_min_bs[DDIR_WRITE] < w->dunit))
		w->dunit = p->dir_min_bs[DDIR_WRITE];
	return 0;
}

/* How many bytes a pass moves, and how passes and loops count. */
static void init_budget(struct workload *w, const struct job_plan *p,
			const struct engine_file *files, unsigned int nr_files)
{
	const struct job_options *o = &p->o;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < nr_files; i++) {
		uint64_t b = files[i].io_size;

		/*
		 * a character device in strided zones: fio counts size=
		 * whole, not the region offset= leaves of it, and its zones
		 * go round the region until then (size=1m offset=16k of
		 * /dev/zero in 16000-byte zones: 256 reads, not 252)
		 */
		if (w->zones && (files[i].flags & EF_CHARDEV) &&
		    o->size.bytes && !o->size.pct)
			b = o->size.bytes / nr_files;
		/*
		 * ... and so does a sequential mix there, each direction
		 * going its own way up to the region's end (rw=rw size=256k
		 * offset=64k of /dev/zero: 29 reads and 35 writes, 256k,
		 * where one direction alone stops at the end, 48); not
		 * where filesize= ends the region first (filesize=20K
		 * size=1m: 40 I/Os, 20K)
		 */
		if (!w->zones && !w->random && (files[i].flags & EF_CHARDEV) &&
		    __builtin_popcount(w->dmask) > 1 && o->size.bytes &&
		    !o->size.pct && o->size.bytes / nr_files > b &&
		    files[i].io_offset + b >= o->size.bytes / nr_files)
			b = o->size.bytes / nr_files;
		total += b;
	}
	w->budget = o->io_size.bytes ? o->io_size.bytes : total;
	/*
	 * time_based: fio's loop ignores the job's bytes and a round ends
	 * when the files are used up, so regions larger than size (filesize,
	 * an offset) are swept whole before they start over (and before
	 * invalidate=1 drops their cache again); each direction of a mix
	 * sweeps them on its own
	 */
	if (o->time_based && !opt_is_set(o, "io_size") && !w->zones) {
		uint64_t regions = 0;

		for (i = 0; i < w->nr_files; i++)
			regions += w->files[i].size;
		regions *= (unsigned int)__builtin_popcount(w->dmask);
		if (regions > w->budget)
			w->budget = regions;
	}
	/*
	 * A job that verifies what it writes never starts used-up files
	 * over inside a pass (fio 3.33 and 3.42): its pass ends at the
	 * regions' end (or where the job's bytes reach loops x io_size),
	 * the read-back follows, and passes are run again while io_size
	 * is not reached, read-backs counted (short_of_size in
	 * run/worker_files.c): rw=write size=256k io_size=2m bs=16k
	 * verify=crc64 is 16 writes and 16 reads, four times
	 */
	w->vcap = opt_is_set(o, "io_size") && o->io_size.bytes &&
		  !o->time_based && workload_verifies(o);
	w->vpass = total;
	if (w->vcap && o->io_size.bytes < total / (o->loops ? o->loops : 1))
		w->vpass = (uint64_t)(o->loops ? o->loops : 1) *
			   o->io_size.bytes;
	w->wrap = o->io_size.bytes > total && !w->vcap;
	/* io_size=N% is at most the regions: it only caps each loop (fio) */
	w->io_loops = o->io_size.bytes && !o->io_size.pct &&
		      !o->time_based && (o->loops > 1 || w->wrap) && !w->vcap;
	w->loops = o->loops ? o->loops : 1;
	w->io_size = o->io_size.bytes;
	w->max_bs = p->max_bs;
	/* fio (3.33 and 3.42) ignores number_ios in a time_based job */
	w->nios_job = o->number_ios && !o->time_based ?
		      o->number_ios * w->loops : UINT64_MAX;
	w->plain_loops = w->loops > 1 && !w->io_loops && !w->vcap &&
			 !o->time_based &&
			 !o->ramp_time_us;
}

/* What a new pass does with used-up files, and the files' redraws. */
static void init_passes(struct workload *w, const struct job_options *o)
{
	unsigned int i;

	/* passes that start used-up files over at once (files_next_pass) */
	w->restarts = o->time_based || o->ramp_time_us || w->io_loops ||
		      w->wrap;
	/* with randseed, fio's later passes draw anew (not the first's) */
	w->replays = o->randrepeat && !opt_is_set(o, "randseed") &&
		     !o->time_based;
	w->tb_random = o->time_based && w->random && !w->zones &&
		       !w->skewed && (w->rmode == RM_MAP ||
				      w->rmode == RM_BITMAP ||
				      w->rmode == RM_LFSR) &&
		       w->next == wl_next_general; /* a fast path's pass does */
	w->tb_replays = w->tb_random && o->randrepeat &&
			!opt_is_set(o, "randseed");
	/*
	 * time_based random I/O starts its files over in place, never
	 * reopened, so fio takes a percentage offset only once: offset=50%
	 * of a new 16k file writes 0-16k again and again (and offset=100%
	 * does not end the job after its first sweep)
	 */
	if (o->time_based && w->random && !w->zones && !w->skewed)
		for (i = 0; i < w->nr_files; i++)
			w->files[i].start2 = w->files[i].start;
	/*
	 * skewed file service: a used-up file is closed and the next one
	 * drawn (fio), but for sequential I/O in a time_based job with
	 * every file open, which starts the file over where it is; with
	 * openfiles below the files fio closes it and draws again there
	 * too, so the files not open take turns
	 */
	w->skew_redraw = w->skewed &&
			 (w->random || !o->time_based || w->limited);
}

int workload_init(struct workload **out, const struct job_plan *p,
		  const struct engine_file *files, unsigned int nr_files,
		  struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct workload *w;

	*out = NULL;
	if (!nr_files)
		return wl_fail(p, err, "job '%s' has no files",
			       o->name ? o->name : "");
	if (p->replay)
		return replay_init(out, p, err);
	w = xcalloc(1, sizeof(*w));
	w->o = o;
	w->nr_files = nr_files;
	w->files = xcalloc(nr_files, sizeof(*w->files));
	wl_seed_streams(w, p);
	init_pattern(w, p);
	if (init_sizes(w, p, err) || wl_zones_init(w, p, err))
		goto fail;
	w->rmode = wl_rand_mode(w, p);
	if (wl_files_init(w, p, files, err))
		goto fail;
	wl_fsrv_init(w, p);
	init_budget(w, p, files, nr_files);

	w->next = wl_next_general;
	wl_pick_fast_path(w);
	if (o->sprandom && wl_spr_init(w, p, err))
		goto fail;
	init_passes(w, o);
	w->dropped = UINT_MAX;
	wl_streams_save(w);
	wl_pass_start(w, true);
	/* the files in use at start are the worker's to open, not events */
	w->ev_head = w->ev_nr = 0;
	*out = w;
	return 0;
fail:
	workload_free(w);
	return -1;
}

/* SPDX-License-Identifier: MIT */
/*
 * The workload: which file, offset, length and direction comes next.
 *
 * workload_init() looks at the plan once and picks one of a few next()
 * functions: fast paths for the common shape (one file, one direction,
 * one block size: sequential, random over the map, random without a map,
 * LFSR) that are a countdown and a handful of integer operations, and a
 * general path for everything else (several files, mixed directions,
 * bsrange/bssplit, distributions, rw=...:N, trimwrite).
 *
 * A pass ends, as in fio, when the byte budget is spent (io_size, else the
 * sum of the regions; the last I/O may cross it), when number_ios I/Os are
 * issued, or when every file is exhausted: a sequential file at its end, a
 * random-map or LFSR file once every block is done. When io_size is
 * larger than the regions, exhausted files start over instead (wrap), as
 * fio does. Random offsets without a map never exhaust a file.
 *
 * Offsets for random I/O are multiples of the direction's alignment
 * (blockalign, default the minimum block size) with room for the minimum
 * block size before the region end, so a partial last block is skipped.
 * Any explicit blockalign turns the random map off, as in fio; so does a
 * non-uniform random_distribution.
 *
 * Seeds: randseed when given, else a fixed seed with randrepeat=1 (the
 * default), else one from the kernel; the job instance's index is mixed
 * in, so numjobs clones and other jobs get different sequences while a
 * rerun gets the same. Offsets, directions, sizes, distribution draws and
 * map keys have separate streams, so changing rwmixread does not change
 * the offsets of a norandommap job.
 */
#include "workload/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "util/log.h"
#include "util/prng.h"
#include "workload/dist.h"
#include "workload/randmap.h"

#define NO_BLOCK UINT64_MAX
#define SPLIT_SLOTS 100

enum wl_bs_kind { BS_FIXED, BS_RANGE, BS_SPLIT };

/* Block sizes of one direction. */
struct wl_bs {
	enum wl_bs_kind kind;
	uint32_t min, max;
	uint32_t nmult;			/* range: min * (1 .. nmult) */
	uint32_t nsplit;		/* split: slots used (percents) */
	uint32_t split[SPLIT_SLOTS];	/* split: the size of each percent */
};

enum wl_rand_mode { RM_MAP, RM_LFSR, RM_DIST, RM_UNIFORM32, RM_UNIFORM64 };

/* Random state of one file for one block grid (shared by directions). */
struct wl_rand {
	uint64_t nblk;			/* valid random positions */
	struct randmap map;		/* the map, or a dist's scatter */
	struct prng_lfsr lfsr;
	uint64_t lfsr_left;		/* LFSR outputs left in this cycle */
	struct dist dist;
};

struct wl_file {
	uint64_t start, size;			/* region */
	uint64_t pos[DDIR_RWDIR_CNT];		/* next sequential offset */
	struct wl_rand rnd[DDIR_RWDIR_CNT];
	struct wl_rand *rp[DDIR_RWDIR_CNT];	/* the state a direction uses */
	bool done;
};

struct workload {
	int (*next)(struct workload *w, struct io_u *u);

	/* fast paths: one file, one direction, one block size */
	uint64_t ios_left;	/* I/Os left in this pass */
	uint64_t ios_pass;	/* I/Os per pass */
	uint64_t start, size, pos;
	uint64_t unit;		/* random alignment */
	uint64_t nblk;		/* random positions */
	uint32_t bsz;
	uint8_t ddir;
	struct randmap *map0;
	struct prng_lfsr *lfsr0;

	/* general path */
	uint64_t budget;	/* bytes per pass */
	uint64_t bytes_left;
	uint64_t nios_pass;	/* number_ios, or UINT64_MAX */
	uint64_t nios_left;
	bool wrap;		/* io_size beyond the regions: start over */
	bool random;
	bool mixed;		/* rwmixread picks the direction */
	bool trimwrite;		/* every block trimmed, then written */
	bool pending;		/* the write half of a trimwrite pair */
	uint32_t pending_len, pending_file;
	uint64_t pending_off;
	uint64_t mix_thresh;	/* read when a 32-bit draw is below this */
	uint64_t hole;		/* sequential: bytes skipped after each I/O */
	unsigned int seq_nr;	/* random: I/Os per new random offset */
	unsigned int seq_left;
	enum wl_rand_mode rmode;
	uint64_t align[DDIR_RWDIR_CNT];
	struct wl_bs bs[DDIR_RWDIR_CNT];
	unsigned int cur_file, nr_files, nr_done;
	struct wl_file *files;

	struct prng_taus r_off, r_ddir, r_bs;
	struct prng_taus64 r_off64, r_dist;
	uint64_t key_state;	/* map keys: one splitmix64 stream */
};

__attribute__((format(printf, 3, 4)))
static int wl_fail(const struct job_plan *p, struct strbuf *err,
		   const char *fmt, ...)
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

static inline uint64_t next_key(struct workload *w)
{
	return prng_splitmix64(&w->key_state);
}

/* ---- block sizes ---------------------------------------------------- */

static int bs_init(struct wl_bs *b, const struct job_plan *p, enum ddir d,
		   struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t lo = p->dir_min_bs[d], hi = p->dir_max_bs[d];
	unsigned int i, j, slot = 0;

	if (!lo || hi > UINT32_MAX)
		return wl_fail(p, err, "%s block size %" PRIu64 " is not "
			       "supported (1 to 4294967295 bytes)",
			       ddir_name[d], lo ? hi : lo);
	b->min = (uint32_t)lo;
	b->max = (uint32_t)hi;
	if (o->nr_bssplit[d]) {
		b->kind = BS_SPLIT;
		for (i = 0; i < o->nr_bssplit[d]; i++) {
			const struct bssplit *s = &o->bssplit[d][i];

			if (slot + s->perc > SPLIT_SLOTS)
				return wl_fail(p, err, "option 'bssplit': "
					       "percentages add up to more "
					       "than 100");
			for (j = 0; j < s->perc; j++)
				b->split[slot++] = (uint32_t)s->bs;
		}
		if (!slot)
			return wl_fail(p, err, "option 'bssplit': all "
				       "percentages are 0");
		b->nsplit = slot;
	} else if (lo != hi) {
		b->kind = BS_RANGE;
		b->nmult = (uint32_t)(hi / lo);
	} else {
		b->kind = BS_FIXED;
	}
	return 0;
}

static inline uint32_t bs_pick(struct workload *w, const struct wl_bs *b)
{
	switch (b->kind) {
	case BS_RANGE:
		return b->min * (1 + (uint32_t)prng_scale32(
					prng_taus_next(&w->r_bs), b->nmult));
	case BS_SPLIT:
		return b->split[prng_scale32(prng_taus_next(&w->r_bs),
					     b->nsplit)];
	case BS_FIXED:
		break;
	}
	return b->min;
}

/* The largest size of b that fits in avail (>= b->min) bytes. */
static uint32_t bs_fit(const struct wl_bs *b, uint64_t avail)
{
	uint32_t best = b->min;
	unsigned int i;

	if (b->kind != BS_SPLIT)
		return (uint32_t)(avail - avail % b->min);
	for (i = 0; i < b->nsplit; i++)
		if (b->split[i] <= avail && b->split[i] > best)
			best = b->split[i];
	return best;
}

/* ---- files and random state ----------------------------------------- */

static void rand_reset(struct workload *w, struct wl_rand *q)
{
	switch (w->rmode) {
	case RM_MAP:
		randmap_rekey(&q->map, next_key(w));
		break;
	case RM_LFSR:
		prng_lfsr_reset(&q->lfsr);
		q->lfsr_left = q->nblk;
		break;
	default:
		/* a distribution keeps its scatter: hot blocks stay hot */
		break;
	}
}

static void file_reset(struct workload *w, struct wl_file *f)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		f->pos[d] = 0;
		if (f->rp[d] == &f->rnd[d])
			rand_reset(w, &f->rnd[d]);
	}
	f->done = false;
}

static inline uint64_t rand_block(struct workload *w, struct wl_rand *q)
{
	switch (w->rmode) {
	case RM_MAP:
		if (randmap_exhausted(&q->map))
			return NO_BLOCK;
		return randmap_next(&q->map);
	case RM_LFSR:
		if (!q->lfsr_left)
			return NO_BLOCK;
		q->lfsr_left--;
		return prng_lfsr_next(&q->lfsr);
	case RM_DIST:
		return randmap_permute(&q->map,
				       dist_next(&q->dist, &w->r_dist));
	case RM_UNIFORM32:
		return prng_scale32(prng_taus_next(&w->r_off), q->nblk);
	case RM_UNIFORM64:
		break;
	}
	return prng_scale64(prng_taus64_next(&w->r_off64), q->nblk);
}

/*
 * Offset and length of the next I/O of direction d in file f. Returns 0,
 * or -1 when the file has nothing left for this pass.
 */
static int file_next(struct workload *w, struct wl_file *f, enum ddir d,
		     uint32_t *len, uint64_t *off)
{
	const struct wl_bs *b = &w->bs[d];
	uint64_t o = 0, avail, blk;
	bool rnd = w->random;

	if (rnd && w->seq_nr > 1) {
		/* rw=randread:N: a new random offset every N I/Os */
		if (w->seq_left) {
			w->seq_left--;
			o = f->pos[d];
			rnd = o + b->min > f->size;	/* off the end */
		} else {
			w->seq_left = w->seq_nr - 1;
		}
	}
	if (rnd) {
		blk = rand_block(w, f->rp[d]);
		if (blk == NO_BLOCK)
			return -1;
		o = blk * w->align[d];
	} else if (!w->random) {
		o = f->pos[d];
		if (o + b->min > f->size) {
			/* rw=write:4k: holes wrap around, as in fio */
			if (!w->hole)
				return -1;
			o = 0;
		}
	}
	avail = f->size - o;
	if (*len > avail)
		*len = bs_fit(b, avail);
	f->pos[d] = o + *len + w->hole;
	*off = f->start + o;
	return 0;
}

/* ---- next(): the general path --------------------------------------- */

static inline enum ddir pick_ddir(struct workload *w)
{
	if (w->mixed)
		return prng_taus_next(&w->r_ddir) < w->mix_thresh ?
			DDIR_READ : DDIR_WRITE;
	if (w->trimwrite)
		return DDIR_TRIM;
	return (enum ddir)w->ddir;
}

static int next_general(struct workload *w, struct io_u *u)
{
	enum ddir d;
	uint32_t len;
	uint64_t off = 0;
	unsigned int fi;
	bool wrapped = false;

	if (w->pending) {
		w->pending = false;
		u->file = w->pending_file;
		u->offset = w->pending_off;
		u->len = w->pending_len;
		u->ddir = DDIR_WRITE;
		return 0;
	}
	if (!w->bytes_left || !w->nios_left)
		return 1;

	d = pick_ddir(w);
	len = bs_pick(w, &w->bs[d]);
	for (;;) {
		struct wl_file *f;

		if (w->nr_done == w->nr_files) {
			unsigned int i;

			/* only io_size beyond the regions starts over */
			if (!w->wrap || wrapped)
				return 1;
			for (i = 0; i < w->nr_files; i++)
				file_reset(w, &w->files[i]);
			w->nr_done = 0;
			wrapped = true;
		}
		/* round robin: the next file on every I/O */
		fi = w->cur_file;
		f = &w->files[fi];
		if (++w->cur_file == w->nr_files)
			w->cur_file = 0;
		if (f->done)
			continue;
		if (!file_next(w, f, d, &len, &off))
			break;
		f->done = true;
		w->nr_done++;
	}

	u->file = fi;
	u->offset = off;
	u->len = len;
	u->ddir = (uint8_t)d;
	w->nios_left--;
	w->bytes_left = len >= w->bytes_left ? 0 : w->bytes_left - len;
	if (w->trimwrite) {
		w->pending = true;
		w->pending_file = u->file;
		w->pending_off = off;
		w->pending_len = len;
	}
	return 0;
}

/* ---- next(): fast paths --------------------------------------------- */

static int next_seq_fixed(struct workload *w, struct io_u *u)
{
	if (unlikely(!w->ios_left))
		return 1;
	w->ios_left--;
	/* only reached with io_size beyond the region */
	if (unlikely(w->pos + w->bsz > w->size))
		w->pos = 0;
	u->file = 0;
	u->offset = w->start + w->pos;
	u->len = w->bsz;
	u->ddir = w->ddir;
	w->pos += w->bsz;
	return 0;
}

static int next_rand_map_fixed(struct workload *w, struct io_u *u)
{
	if (unlikely(!w->ios_left))
		return 1;
	w->ios_left--;
	/* the pass wraps past the last block: a new order */
	if (unlikely(randmap_exhausted(w->map0)))
		randmap_rekey(w->map0, next_key(w));
	u->file = 0;
	u->offset = w->start + randmap_next(w->map0) * w->bsz;
	u->len = w->bsz;
	u->ddir = w->ddir;
	return 0;
}

static int next_rand_lfsr_fixed(struct workload *w, struct io_u *u)
{
	if (unlikely(!w->ios_left))
		return 1;
	w->ios_left--;
	/* after n outputs the LFSR starts its cycle over by itself */
	u->file = 0;
	u->offset = w->start + prng_lfsr_next(w->lfsr0) * w->unit;
	u->len = w->bsz;
	u->ddir = w->ddir;
	return 0;
}

static int next_rand_nomap_fixed(struct workload *w, struct io_u *u)
{
	if (unlikely(!w->ios_left))
		return 1;
	w->ios_left--;
	u->file = 0;
	u->offset = w->start +
		    prng_scale32(prng_taus_next(&w->r_off), w->nblk) * w->unit;
	u->len = w->bsz;
	u->ddir = w->ddir;
	return 0;
}

/* ---- init ----------------------------------------------------------- */

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

static void seed_streams(struct workload *w, const struct job_plan *p)
{
	uint64_t s = prng_derive(base_seed(p), p->job_index);

	prng_taus_seed(&w->r_off, prng_derive(s, 1));
	prng_taus64_seed(&w->r_off64, prng_derive(s, 1));
	prng_taus_seed(&w->r_ddir, prng_derive(s, 2));
	prng_taus_seed(&w->r_bs, prng_derive(s, 3));
	prng_taus64_seed(&w->r_dist, prng_derive(s, 4));
	w->key_state = prng_derive(s, 5);
}

static enum wl_rand_mode rand_mode(const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	if (o->random_distribution != RDIST_RANDOM)
		return RM_DIST;
	if (o->random_generator == RANDGEN_LFSR)
		return RM_LFSR;
	/* fio: any blockalign turns the random map off */
	if (!o->norandommap && !opt_is_set(o, "ba"))
		return RM_MAP;
	if (o->random_generator == RANDGEN_TAUSWORTHE64)
		return RM_UNIFORM64;
	return RM_UNIFORM32;
}

static int rand_init(struct workload *w, const struct job_plan *p,
		     struct wl_rand *q, uint64_t nblk)
{
	const struct job_options *o = &p->o;

	q->nblk = nblk;
	switch (w->rmode) {
	case RM_MAP:
		randmap_init(&q->map, nblk, next_key(w));
		break;
	case RM_LFSR:
		prng_lfsr_init(&q->lfsr, nblk, next_key(w));
		q->lfsr_left = nblk;
		break;
	case RM_DIST:
		randmap_init(&q->map, nblk, next_key(w));
		if (dist_init(&q->dist, o->random_distribution,
			      o->rdist_param, nblk))
			return -EINVAL;
		break;
	case RM_UNIFORM32:
		/* fio switches to the 64-bit generator past 2^32 blocks */
		if (nblk > (1ULL << 32))
			w->rmode = RM_UNIFORM64;
		break;
	case RM_UNIFORM64:
		break;
	}
	return 0;
}

static int files_init(struct workload *w, const struct job_plan *p,
		      const struct engine_file *files, struct strbuf *err)
{
	unsigned int i, d, e;

	for (i = 0; i < w->nr_files; i++) {
		struct wl_file *f = &w->files[i];

		f->start = files[i].io_offset;
		f->size = files[i].io_size;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t min = w->bs[d].min, nblk;

			f->rp[d] = &f->rnd[d];
			if (!ddir_used(p, (enum ddir)d))
				continue;
			if (f->size < min)
				return wl_fail(p, err, "'%s': the region is "
					       "%" PRIu64 " bytes, smaller "
					       "than the %s block size %"
					       PRIu64, files[i].path ?
					       files[i].path : "",
					       f->size, ddir_name[d], min);
			if (!w->random)
				continue;
			/* share one grid (and map) between directions */
			for (e = 0; e < d; e++)
				if (ddir_used(p, (enum ddir)e) &&
				    w->align[e] == w->align[d] &&
				    w->bs[e].min == w->bs[d].min)
					break;
			if (e < d) {
				f->rp[d] = f->rp[e];
				continue;
			}
			nblk = (f->size - min) / w->align[d] + 1;
			if (rand_init(w, p, &f->rnd[d], nblk)) {
				return wl_fail(p, err, "option "
					       "'random_distribution': "
					       "parameter %g is out of range",
					       p->o.rdist_param);
			}
		}
	}
	return 0;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* One file, one direction, one size, no modifiers: a fast path. */
static void pick_fast_path(struct workload *w)
{
	struct wl_file *f = &w->files[0];
	enum ddir d = (enum ddir)w->ddir;
	bool exhausts;
	uint64_t n;

	if (w->nr_files != 1 || w->mixed || w->trimwrite ||
	    w->bs[d].kind != BS_FIXED || w->hole || w->seq_nr > 1)
		return;
	w->start = f->start;
	w->size = f->size;
	w->bsz = w->bs[d].min;
	w->unit = w->align[d];
	if (!w->random) {
		w->next = next_seq_fixed;
		n = w->size / w->bsz;
		exhausts = true;
	} else {
		n = f->rp[d]->nblk;
		w->nblk = n;
		switch (w->rmode) {
		case RM_MAP:
			if (w->unit != w->bsz)
				return;
			w->map0 = &f->rp[d]->map;
			w->next = next_rand_map_fixed;
			exhausts = true;
			break;
		case RM_LFSR:
			w->lfsr0 = &f->rp[d]->lfsr;
			w->next = next_rand_lfsr_fixed;
			exhausts = true;
			break;
		case RM_UNIFORM32:
			w->next = next_rand_nomap_fixed;
			exhausts = false;
			break;
		default:
			return;
		}
	}
	w->ios_pass = div_up(w->budget, w->bsz);
	if (exhausts && !w->wrap && w->ios_pass > n)
		w->ios_pass = n;
	if (w->ios_pass > w->nios_pass)
		w->ios_pass = w->nios_pass;
}

int workload_init(struct workload **out, const struct job_plan *p,
		  const struct engine_file *files, unsigned int nr_files,
		  struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct workload *w;
	uint64_t total = 0;
	unsigned int i, d;

	*out = NULL;
	if (!nr_files)
		return wl_fail(p, err, "job '%s' has no files",
			       o->name ? o->name : "");
	w = xcalloc(1, sizeof(*w));
	w->nr_files = nr_files;
	w->files = xcalloc(nr_files, sizeof(*w->files));
	seed_streams(w, p);

	w->random = o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE ||
		    o->rw == RW_RANDTRIM || o->rw == RW_RANDRW ||
		    o->rw == RW_RANDTRIMWRITE;
	w->mixed = o->rw == RW_RW || o->rw == RW_RANDRW;
	w->trimwrite = o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE;
	w->mix_thresh = ((uint64_t)o->rwmixread << 32) / 100;
	if (w->random)
		w->seq_nr = o->rw_seq_nr;
	else
		w->hole = o->rw_seq_nr;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!ddir_used(p, (enum ddir)d))
			continue;
		w->ddir = (uint8_t)d;
		w->align[d] = p->dir_align[d] ? p->dir_align[d] :
						p->dir_min_bs[d];
		if (bs_init(&w->bs[d], p, (enum ddir)d, err))
			goto fail;
	}
	w->rmode = rand_mode(p);
	if (files_init(w, p, files, err))
		goto fail;

	for (i = 0; i < nr_files; i++)
		total += files[i].io_size;
	w->budget = o->io_size ? o->io_size : total;
	w->wrap = o->io_size > total;
	w->nios_pass = o->number_ios ? o->number_ios : UINT64_MAX;

	w->next = next_general;
	pick_fast_path(w);
	workload_rewind(w);
	*out = w;
	return 0;
fail:
	workload_free(w);
	return -1;
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	free(w->files);
	free(w);
}

int workload_next(struct workload *w, struct io_u *u)
{
	return w->next(w, u);
}

void workload_rewind(struct workload *w)
{
	unsigned int i;

	w->ios_left = w->ios_pass;
	w->pos = 0;
	w->bytes_left = w->budget;
	w->nios_left = w->nios_pass;
	w->pending = false;
	w->seq_left = 0;
	w->cur_file = 0;
	w->nr_done = 0;
	for (i = 0; i < w->nr_files; i++)
		file_reset(w, &w->files[i]);
}

uint64_t workload_pass_bytes(const struct workload *w)
{
	if (w->next != next_general)
		return w->ios_pass * w->bsz;
	return w->budget;
}

/* SPDX-License-Identifier: MIT */
/*
 * The workload: which file, offset, length and direction comes next.
 *
 * workload_init() (workload_init.c) looks at the plan once and picks one
 * of a few next() functions: fast paths for the common shape (one file,
 * one direction, one block size: sequential, random over the map, random
 * without a map, LFSR) that are a countdown and a handful of integer
 * operations (fast.c), and the general path here for everything else
 * (several files, mixed directions, bsrange/bssplit, distributions,
 * rw=...:N, trimwrite).
 *
 * A pass ends, as in fio, when the byte budget is spent (io_size, else the
 * sum of the regions; the last I/O may cross it), when number_ios I/Os are
 * issued, or when every file is exhausted: a sequential file at its end, a
 * random-map or LFSR file once every block is done. When io_size is
 * larger than the regions, exhausted files start over instead (wrap), as
 * fio does; with loops, as fio 3.33, loop k ends at k x io_size bytes over
 * the job, and only the last loop wraps, while the job is short of io_size
 * by at least its largest block (io_loops). Loops without io_size end at
 * loops x the budget over the job (plain_loops), and number_ios counts
 * the job's I/Os, loops times as many (a time_based job ignores it, as
 * fio). Random offsets without a map never exhaust a file. A pass that starts after the files were used up
 * (a loop, a wrap) draws what the first pass drew, as fio's generators
 * seeded again do (randrepeat without randseed, not time_based):
 * wl_replay_first_pass().
 *
 * Offsets for random I/O are multiples of the direction's alignment
 * (blockalign, default the minimum block size) with room for the minimum
 * block size before the region end, so a partial last block is skipped.
 * A blockalign other than the minimum block size turns the random map
 * off, as in fio; so does a non-uniform random_distribution.
 *
 * Strided zones (zonemode=strided) follow fio 3.33's steps (zone_prep):
 * the window starts at the file's current zone; the job's zone bytes move
 * the zone of whichever file takes the I/O after zonesize bytes; random
 * state (map, LFSR, distribution, zone table) is sized once for a whole
 * zonerange and started over at each whole zonerange of the job's bytes,
 * which costs O(1) (a bitmap: O(blocks / 64)) per zone change; xmap: in
 * a smaller block's units, a next free block may lie past the zone.
 *
 * random_distribution=zoned / zoned_abs: a 100-slot table picks a zone by
 * its access percentage, then a block of the zone uniformly: two PRNG
 * steps. Zones left empty once cut to the region give their share to the
 * others. No map, as with every non-uniform distribution.
 *
 * Files: file_service_type picks which file gets the next I/O among the
 * files in use (all of them, or openfiles of them at a time: a finished
 * file is retired and another takes its slot, as fio picks it: the next
 * unused one, a random draw, or sequential's next in order; the worker
 * is told so it can close and open them).
 *
 * Seeds: randseed when given, else a fixed seed with randrepeat=1 (the
 * default), else one from the kernel; the job instance's index is mixed
 * in, so numjobs clones and other jobs get different sequences while a
 * rerun gets the same. Offsets, directions, sizes, distribution draws,
 * map keys, file picks, zone picks and the random/sequential mix of
 * percentage_random have separate streams, so changing rwmixread does not
 * change the offsets of a norandommap job. The directions' stream is
 * fio's own (its seed and its rule), so rw=rw issues fio's sequence;
 * so are percentage_random's (one a direction), so its runs begin where
 * fio's do, and as in fio the blocks of a run (and a random one drawn
 * where a run left the region) are not marked in the random map.
 */
#include "workload/workload_int.h"
#include "workload/bsdraw.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "util/log.h"
#include "workload/iolog.h"

/* ---- block sizes ---------------------------------------------------- */

/* ---- zoned distributions ------------------------------------------- */

static inline uint64_t zoned_block(struct workload *w,
				   const struct wl_zoned *t)
{
	const struct wl_zone *z = &t->z[t->slot[prng_scale32(
				prng_taus_next(&w->r_zone), t->nslots)]];

	return z->first + prng_scale64(prng_taus64_next(&w->r_dist), z->n);
}

/* ---- files and random state ----------------------------------------- */

static void rand_reset(struct workload *w, struct wl_rand *q)
{
	switch (w->rmode) {
	case RM_MAP:
		randmap_rekey(&q->map, next_key(w));
		break;
	case RM_BITMAP:
		blkmap_reset(q->bmp, q->bmp == &q->bm ? q->nblk : q->bmp->n);
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

/*
 * A distribution's rank goes to block (scatter(rank) mod n + turn) mod n,
 * as in fio: scatter is fio's multiplicative hash (rank 0 stays 0, so
 * the likeliest rank of zipf and pareto is at the turn); the turn is
 * random_distribution's centre, fio's "base": zipf and pareto put their
 * likeliest rank on the block centre x n (without one, on a block drawn
 * at random), normal turns its scattered bell by (centre - 0.5) x n
 * blocks (without one, 0.5: not at all), truncated toward zero as fio.
 */
static inline uint64_t dist_scatter(uint64_t rank)
{
	return rank * 0x61c8864680b583ebULL;
}

static uint64_t dist_turn(struct workload *w, uint64_t n)
{
	const struct job_options *o = w->o;
	int64_t turn;

	if (o->random_distribution == RDIST_NORMAL) {
		if (!o->rdist_centred)
			return 0;
		turn = (int64_t)((o->rdist_center - 0.5) * (double)n) %
		       (int64_t)n;
		return (uint64_t)(turn < 0 ? turn + (int64_t)n : turn);
	}
	if (!o->rdist_centred)
		return next_key(w) % n;
	return (uint64_t)(o->rdist_center * (double)n) % n;
}

/*
 * The ranges zipf, pareto and normal draw from, as fio counts them: the
 * window in units of the smallest block of reads and writes, used or
 * not (w->dunit: a write job's read size too, not the trim size),
 * rounded up. The last (a block that would run past the end) and, with
 * a larger block in the job's direction, those past the last position,
 * do not fit: drawing one ends the file in fio, and so here.
 */
static uint64_t dist_ranges(const struct workload *w, uint64_t nblk,
			    uint64_t wsize)
{
	uint64_t unit = w->dunit, n;

	if (!unit)
		return nblk;
	n = wsize / unit + (wsize % unit != 0);
	return n > nblk ? n : nblk;
}

/*
 * fio's map is a bitmap of n / 8 bytes; past this many blocks (a 1 GiB
 * bitmap: 32 TiB of 4 KiB blocks) a job of one file and one block size
 * takes the permutation instead (randmap.h: no memory, the same blocks
 * once per pass, in an order of iolite's own).
 */
#define WL_BITMAP_MAX (1ULL << 33)

static bool perm_will_do(const struct workload *w, uint64_t nblk)
{
	unsigned int d;

	if (nblk <= WL_BITMAP_MAX || w->nr_files != 1 || w->xmap ||
	    w->zones)
		return false;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if ((w->dmask & 1u << d) && w->bs[d].kind != BS_FIXED)
			return false;
	return true;
}

/*
 * (Re)builds q for a window of wsize bytes, nblk positions: at start and
 * at every strided zone change. nblk 0 (a zone cut shorter than a block)
 * leaves q unused. Returns 0, -EINVAL for a distribution parameter out
 * of range or -ENOMEM when the bitmap cannot be allocated.
 */
int wl_rand_setup(struct workload *w, struct wl_rand *q, uint64_t nblk,
		      uint64_t wsize, uint64_t align)
{
	const struct job_options *o = w->o;

	q->nblk = nblk;
	if (!nblk)
		return 0;
	if (w->rmode == RM_BITMAP && perm_will_do(w, nblk))
		w->rmode = RM_MAP;
	switch (w->rmode) {
	case RM_MAP:
		randmap_init(&q->map, nblk, next_key(w));
		break;
	case RM_BITMAP:
		if (q->bmp != &q->bm)
			break;	/* xmap: the file's map is set up already */
		/* the first window is the largest: zones reuse its room */
		if (!q->bm.nlv) {
			int ret = blkmap_init(&q->bm, nblk);

			/*
			 * softrandommap (fio): no room for the map, the job
			 * runs without one (the files set up before too)
			 */
			if (ret != -ENOMEM || !o->softrandommap)
				return ret;
			w->rmode = o->random_generator == RANDGEN_TAUSWORTHE64
				   || nblk > (1ULL << 32) ? RM_UNIFORM64 :
				   RM_UNIFORM32;
		} else {
			blkmap_reset(&q->bm, nblk);
		}
		break;
	case RM_LFSR:
		prng_lfsr_init(&q->lfsr, nblk, next_key(w));
		q->lfsr_left = nblk;
		break;
	case RM_DIST:
		q->dist_n = dist_ranges(w, nblk, wsize);
		if (dist_init(&q->dist, o->random_distribution,
			      o->rdist_param, q->dist_n))
			return -EINVAL;
		q->dist_off = dist_turn(w, q->dist_n);
		break;
	case RM_ZONED:
		zoned_build(w, q, wsize, align);
		break;
	case RM_SEGS:
		return wl_segs_build(w, q, wsize, align);
	case RM_UNIFORM32:
	case RM_UNIFORM64:
		break;
	}
	return 0;
}

/*
 * The random state's positions for direction d in a file window of
 * wsize bytes: xlfsr's LFSR runs over the smallest blocks (fio), the
 * rest over d's own.
 */
uint64_t wl_rand_blocks(const struct workload *w, enum ddir d,
			uint64_t wsize)
{
	if (w->xlfsr)
		return wsize / w->xunit;
	return wl_window_blocks(w, d, wsize);
}

/* Random positions of direction d in a window of wsize bytes. */
uint64_t wl_window_blocks(const struct workload *w, enum ddir d,
			      uint64_t wsize)
{
	uint64_t min = w->bs[d].min;

	return wsize < min ? 0 : (wsize - min) / w->align[d] + 1;
}

/*
 * Random positions of direction d in a strided zone, as fio counts them:
 * room for the smallest block past an aligned offset; the block may run
 * past the zone's end, and the count stays that of a whole zone where
 * the region end cuts one short (a draw past the end ends the file).
 */
uint64_t wl_zone_blocks(const struct workload *w, enum ddir d)
{
	uint64_t min = w->bs[d].min, a = w->align[d], r = w->zrange;

	if (min > a) {
		if (r < min - a)
			return 0;
		r -= min - a;
	}
	return r / a;
}

/* Sequential positions back to the zone start, random state afresh. */
static void zone_rewind(struct workload *w, struct wl_file *f)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		f->pos[d] = f->last[d] = f->wlo;
		if (w->random && (w->dmask & 1u << d) &&
		    f->rp[d] == &f->rnd[d])
			rand_reset(w, &f->rnd[d]);
	}
}

/*
 * Before an I/O of direction d on f (fio's order): after zsize bytes of
 * the job f's zone moves zonerange + zoneskip on, back to where later
 * sweeps start (start2) when it would begin past the target's end; a
 * sequential position at or past the zone's end goes back to its start;
 * and each time the
 * job's count is a whole number of zoneranges (a new zone, or zonesize
 * larger than zonerange) f starts the zone over.
 */
static void zone_prep(struct workload *w, struct wl_file *f, enum ddir d)
{
	if (w->zone_bytes >= w->zsize) {
		uint64_t lo = f->wlo + w->zrange + w->zskip;

		w->zone_bytes = 0;
		/*
		 * fio takes a percentage offset again there: back to where
		 * later sweeps start (offset=50%: zones at 0, 192k, 384k,
		 * then 256k of a 512k file)
		 */
		if (lo < f->wlo || lo >= f->real - f->start)
			lo = f->start2 - f->start;
		f->wlo = lo;
		f->pos[d] = lo;
	}
	/* (unsigned: a position below the zone is past it too) */
	if (f->pos[d] - f->wlo >= w->zrange)
		f->pos[d] = f->wlo;
	if (w->zone_bytes % w->zrange == 0)
		zone_rewind(w, f);
}

/*
 * f's region after its first sweep: from start2 to the same end, as fio
 * (a percentage offset taken again); its random state fits it again.
 */
static void file_move(struct workload *w, struct wl_file *f)
{
	uint64_t end = f->start + f->size;
	unsigned int d;

	f->start = f->start2;
	f->size = end > f->start ? end - f->start : 0;
	f->whi = f->size;
	if (w->zones)
		return;		/* the random state is a zonerange's */
	if (w->xmap)
		blkmap_reset(&f->xbm, f->whi / w->xunit);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (w->random && (w->dmask & 1u << d) &&
		    f->rp[d] == &f->rnd[d])
			wl_rand_setup(w, &f->rnd[d],
				      wl_rand_blocks(w, (enum ddir)d, f->whi),
				      f->whi, w->align[d]);
}

/* f starts over from its beginning: a fresh sweep. */
void wl_file_reset(struct workload *w, struct wl_file *f)
{
	unsigned int d;

	if (unlikely(f->later && f->start2 != f->start))
		file_move(w, f);
	f->done = false;
	f->fresh = true;
	f->wlo = 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		f->pos[d] = f->last[d] = 0;
		if (f->rp[d] == &f->rnd[d])
			rand_reset(w, &f->rnd[d]);
	}
}

static inline uint64_t rand_block(struct workload *w, struct wl_rand *q)
{
	switch (w->rmode) {
	case RM_MAP:
		if (randmap_exhausted(&q->map))
			return NO_BLOCK;
		return randmap_next(&q->map);
	case RM_BITMAP: {
		/* fio's rule: a done block gives the next free one */
		uint64_t b = q->nblk <= 1ULL << 32 ?
			     prng_scale32(prng_taus_next(&w->r_off), q->nblk) :
			     prng_scale64(prng_taus64_next(&w->r_off64),
					  q->nblk);

		if (blkmap_is_free(q->bmp, b))
			return b;
		b = blkmap_next_free(q->bmp, b);
		return b == BLKMAP_NONE ? NO_BLOCK : b;
	}
	case RM_LFSR:
		if (!q->lfsr_left)
			return NO_BLOCK;
		q->lfsr_left--;
		return prng_lfsr_next(&q->lfsr);
	case RM_DIST: {
		uint64_t b = dist_scatter(dist_next(&q->dist, &w->r_dist)) %
			     q->dist_n + q->dist_off;

		if (b >= q->dist_n)
			b -= q->dist_n;
		/* fio: a range whose block does not fit ends the file */
		return b < q->nblk ? b : NO_BLOCK;
	}
	case RM_ZONED:
		return zoned_block(w, q->zt);
	case RM_SEGS:
		return wl_segs_block(w, q->segs);
	case RM_UNIFORM32:
		return prng_scale32(prng_taus_next(&w->r_off), q->nblk);
	case RM_UNIFORM64:
		break;
	}
	return prng_scale64(prng_taus64_next(&w->r_off64), q->nblk);
}

/*
 * fio's sequential step, offsets relative to the window start 'base'
 * (absolute), 'size' the region's length, 'real' the absolute end of the
 * target and 'fit' the bytes from base to the region end: from the end
 * of the last I/O (*last, 0 at the start), plus the offset modifier
 * 'add' except for the first I/O. A step that goes past the target's end
 * (or below 0: the sum wraps) wraps to the start when going forward and
 * to the end plus 'add' when going backward. The results of fio 3.33 are
 * kept where the window does not start at 0, odd as they are: a forward
 * step past the target end goes to 'base' as a relative offset, so holes
 * that reach the end of a region starting at an offset end the file
 * instead of wrapping; a backward job that starts at an offset and is no
 * longer than the offset starts at its end, one that is longer starts at
 * offset 'size' (rw=read:-8k offset=256k size=512k reads 504k, 500k, ...
 * 256k, then 760k ...). The step fails (the window is used up) at an
 * offset 'size' or more past base or past the target, or a block of min
 * bytes that would not fit in 'fit' (the region, or where fio lets a
 * block of a fixed size cross its end, the target: wl_seq_fit()).
 */
static bool seq_step(uint64_t base, uint64_t size, uint64_t real,
		     uint64_t fit, int64_t add, uint64_t last, uint64_t min,
		     uint64_t *out)
{
	uint64_t top = size < real ? size : real, pos;

	if (base + last >= real)
		return false;
	if (!last && base && add < 0)
		last = top - base;
	pos = last;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= real)
			pos = add > 0 ? base : top + (uint64_t)add;
	}
	if (pos >= size || base + pos >= real || fit < min ||
	    pos > fit - min)
		return false;
	*out = pos;
	return true;
}

/*
 * The bytes a sequential block of direction d may use from the region
 * start: the region, or with a fixed block size the target (fio bounds
 * such a block by the file's end, not the region's: size=30000 bs=4k over
 * a 1 MiB file reads 8 blocks, the last to 32768; a size drawn from a
 * range or split must fit the region).
 */
uint64_t wl_seq_fit(const struct workload *w, const struct wl_file *f,
		    enum ddir d)
{
	/* whole blocks without holes never cross: the fast path stays */
	if (w->bs[d].kind == BS_FIXED && f->real - f->start > f->size &&
	    (w->add || f->size % w->bs[d].min))
		return f->real - f->start;
	return f->size;
}

/*
 * Backwards in a strided zone (rw=read:-8k): fio 3.33 leaves the zone and
 * reads one block over and over; iolite keeps to the HOWTO (I/O stays in
 * the zone) and steps the zone, cut by the region end, as a target of
 * its own: 0, then back from its end, wrapping (doc/compat.md).
 */
static int zone_back_next(const struct workload *w, struct wl_file *f,
			  enum ddir d, uint64_t min, uint64_t *pos)
{
	uint64_t wsize = f->size - f->wlo < w->zrange ? f->size - f->wlo :
			 w->zrange;

	if (!seq_step(0, wsize, wsize, wsize, w->add, f->pos[d] - f->wlo,
		      min, pos) &&
	    (wsize < w->zrange ||
	     !seq_step(0, wsize, wsize, wsize, w->add, 0, min, pos)))
		return -1;
	return 0;
}

/*
 * The next sequential offset of direction d in f (relative to the region
 * start). A strided zone's start is the base of fio's step: its I/O goes
 * on from the last one's end (zone_prep() brings it back to the zone
 * start once it is at or past the zone's end), so a block may run past
 * the zone, up to the region end. Returns 0, or -1 when f is used up.
 */
static int seq_next(const struct workload *w, struct wl_file *f,
		    enum ddir d, uint64_t min, uint64_t *o)
{
	uint64_t pos;

	if (!w->zones) {
		if (!seq_step(f->start, f->size, f->real, wl_seq_fit(w, f, d),
			      w->add, f->pos[d], min, &pos))
			return -1;
		*o = pos;
		return 0;
	}
	if (f->wlo > f->size)
		return -1;
	if (w->add < 0 ? zone_back_next(w, f, d, min, &pos) :
	    !seq_step(f->start + f->wlo, f->size, f->real, f->size - f->wlo,
		      w->add, f->pos[d] - f->wlo, min, &pos))
		return -1;
	*o = f->wlo + pos;
	return 0;
}

/*
 * RM_BITMAP: the I/O of len bytes at block blk takes the free blocks it
 * covers, and is cut where a done one begins (fio's rule): every byte of
 * a pass is covered once, and a cut I/O is a whole number of blocks.
 */
static uint32_t bitmap_take(struct wl_rand *q, uint64_t blk, uint32_t unit,
			    uint32_t len)
{
	uint64_t nb = !(unit & (unit - 1)) ?
		      (len + unit - 1) >> __builtin_ctz(unit) :
		      len / unit + (len % unit != 0);
	uint64_t got = blkmap_claim(q->bmp, blk, nb);

	return got * unit < len ? (uint32_t)(got * unit) : len;
}

static inline bool in_window(const struct wl_file *f, uint64_t o,
			     uint32_t len)
{
	return o >= f->wlo && o + len <= f->whi;
}

/*
 * Offset and length of the next I/O of direction d in file f. Returns 0,
 * or -1 when the file has nothing left for this pass.
 */
static int file_next(struct workload *w, struct wl_file *f, enum ddir d,
		     uint32_t *len, uint64_t *off)
{
	const struct wl_bs *b = &w->bs[d];
	/* bs_is_seq_rand: the sizes of the sequential ones */
	const struct wl_bs *sb = unlikely(w->seq_sizes) ? &w->bs_seq : b;
	uint64_t o = 0, avail, blk, whi = f->whi;
	bool rnd = w->random, cont = false;

	w->drew_past = false;
	/* a zone that starts too near the region end for a block */
	if (unlikely(f->wlo > f->whi || f->whi - f->wlo < b->min))
		return -1;
	if (rnd) {
		if (w->seq_nr > 1 && w->seq_left) {
			/* rw=randread:N: the I/Os after a random one */
			w->seq_left--;
			o = w->identical ? f->last[d] : f->pos[d];
			rnd = !in_window(f, o, sb->min);	/* off the end */
			cont = true;
		} else {
			if (w->seq_nr > 1)
				w->seq_left = w->seq_nr - 1;
			/* percentage_random: this one continues instead */
			if (w->perc_on && prng_taus_next(&w->r_seq.t[d]) >=
					  w->perc_thresh[d]) {
				o = f->pos[d];
				rnd = !in_window(f, o, sb->min);
				cont = true;
			}
		}
		/*
		 * fio: a continuation (o is 0 but for one) past the end is
		 * drawn at random, but one that starts inside the region
		 * with no room for its block ends the file (randread:2 over
		 * 16000 bytes: 0, 4k, 8k, and 12k has no room: 3 reads)
		 */
		if (rnd && o && !w->zones && o < f->whi)
			return -1;
		/* (fio: a sequential one's size is drawn after its offset) */
		if (!rnd && sb != b) {
			b = sb;
			*len = bs_pick(w, b, d);
		}
	}
	if (rnd) {
		/* a zone smaller than a block: no random offset (fio) */
		if (unlikely(!f->rp[d]->nblk))
			return -1;
		blk = rand_block(w, f->rp[d]);
		if (blk == NO_BLOCK)
			return -1;
		/* xmap: the next free block of another's units (fio) */
		if (unlikely(blk >= f->rp[d]->nblk) && !w->zones) {
			w->drew_past = true;
			return -1;
		}
		o = f->wlo + blk * w->align[d];
		/* xlfsr: an output whose block does not fit ends it (fio) */
		if (unlikely(w->xlfsr && o + b->min > f->whi)) {
			w->drew_past = true;
			return -1;
		}
		/*
		 * fio: a zone's draw at or past the region (or the target)
		 * end, or with no room for the smallest block before it,
		 * ends the file
		 */
		if (w->zones && (o - f->wlo >= f->size ||
				 f->start + o >= f->real ||
				 o + b->min > f->whi))
			return -1;
	} else if (!w->random) {
		if (seq_next(w, f, d, b->min, &o))
			return -1;
		if (!w->zones)
			whi = wl_seq_fit(w, f, d);
	}
	avail = whi - o;
	if (*len > avail)
		*len = bs_fit(w, b, avail, d);
	/*
	 * fio marks no block for a continuation, nor for the random one
	 * drawn where it ran off the end: a later draw may land there
	 */
	if (rnd && !cont && w->rmode == RM_BITMAP) {
		uint32_t run = bitmap_take(f->rp[d], blk, b->min, *len);

		/* fio 3.42 marks a range of a trim of several, uncut */
		if (likely(w->nrange <= 1))
			*len = run;
	}
	f->pos[d] = o + *len;
	f->last[d] = o;
	*off = f->start + o;
	return 0;
}

/* ---- next(): the general path --------------------------------------- */

/*
 * rwmixread's direction, as fio's: a draw only while the direction it is
 * on has issued its share since the last change (so a direction far
 * behind keeps the turn: randrw randseed=1, the 13th I/O a read again)
 */
static inline enum ddir mix_pick(struct workload *w)
{
	unsigned int d;

	if (w->mix_n[w->mix_dir] < w->mix_issues)
		return (enum ddir)w->mix_dir;
	d = prng_taus_next(&w->r_ddir) >= w->mix_thresh ? DDIR_WRITE :
							  DDIR_READ;
	if (d != w->mix_dir)
		w->mix_issues = w->mix_n[w->mix_dir] *
				w->mix_pct[w->mix_dir ^ 1] / 100;
	w->mix_dir = (uint8_t)d;
	return (enum ddir)d;
}

static inline enum ddir pick_ddir(struct workload *w)
{
	if (w->mixed) {
		if (unlikely(w->want_ddir >= 0))
			return (enum ddir)w->want_ddir;
		if (mix_pick(w) == DDIR_WRITE)
			return DDIR_WRITE;
		if (unlikely(w->read_ok != NULL) && !w->read_ok(w->read_ok_arg))
			return DDIR_WRITE;
		return DDIR_READ;
	}
	if (w->trimwrite)
		return DDIR_TRIM;
	return (enum ddir)w->ddir;
}

enum ddir wl_pick_ddir(struct workload *w)
{
	return pick_ddir(w);
}

static void files_start_over(struct workload *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_files; i++)
		wl_file_reset(w, &w->files[i]);
	w->nr_done = 0;
	w->fs_left = 0;
	w->zone_bytes = 0;
	wl_act_refill(w);
}

/* ---- replaying the first pass ---------------------------------------- */

#define STREAMS(X) X(r_off) X(r_ddir) X(r_bs) X(r_file) X(r_zone) X(r_seq) \
		   X(r_off64) X(r_dist) X(r_file64) X(key_state)

void wl_streams_save(struct workload *w)
{
#define SAVE(f) w->first.f = w->f;
	STREAMS(SAVE)
#undef SAVE
}

static void streams_restore(struct workload *w)
{
#define RESTORE(f) w->f = w->first.f;
	STREAMS(RESTORE)
#undef RESTORE
}

static bool rand_exhausted(const struct workload *w, const struct wl_rand *q)
{
	switch (w->rmode) {
	case RM_MAP:
		return randmap_exhausted(&q->map);
	case RM_BITMAP:
		return !q->bmp->nfree;
	case RM_LFSR:
		return !q->lfsr_left;
	default:
		return false;	/* no map: never used up */
	}
}

/*
 * Is f used up, though maybe not marked done yet (a pass that ended on
 * its byte budget with the last block)? Some direction has nothing left.
 */
static bool file_used_up(const struct workload *w, struct wl_file *f)
{
	unsigned int d;
	uint64_t o;

	if (f->done)
		return true;
	if (w->zones)
		return false;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!(w->dmask & 1U << d) || !f->rp[d])
			continue;
		if (w->random ? rand_exhausted(w, f->rp[d]) :
		    seq_next(w, f, (enum ddir)d, w->bs[d].min, &o) < 0)
			return true;
	}
	return false;
}

static bool all_used_up(const struct workload *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_files; i++)
		if (!file_used_up(w, &w->files[i]))
			return false;
	return true;
}

/*
 * The file service's place at a pass's start: round robin starts with
 * the first file in use, and in a later pass (fio) goes on after the
 * last file it tried; the others start at the first slot.
 */
static void slot_restart(struct workload *w)
{
	if (w->fsrv != FSRV_ROUNDROBIN)
		w->cur_slot = 0;
	else if (w->cur_slot >= w->nact)
		w->cur_slot = w->nact - 1;
}

/*
 * fio starts a pass after the files were used up by seeding its random
 * generators again (randrepeat): the pass draws what the first one drew.
 * The files start over with the streams as the first pass found them;
 * round robin goes on with its turn (fio keeps it).
 */
void wl_replay_first_pass(struct workload *w)
{
	streams_restore(w);
	files_start_over(w);
	w->seq_left = 0;
	w->tw_lastw = UINT64_MAX;
	slot_restart(w);
}

/*
 * A new pass (time_based, ramp_time, io_size's passes): as in fio, a
 * file used up in the last pass starts over, and one that is not goes
 * on where it was (its sequential position, its random map), no longer
 * fresh: when it is used up in this pass it starts over at once
 * (restarts) instead of ending it. A plain loop (loops=N) starts every
 * file over instead: wl_pass_start().
 */
static void files_next_pass(struct workload *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_files; i++) {
		struct wl_file *f = &w->files[i];

		if (f->done)
			wl_file_reset(w, f);
		else
			f->fresh = false;
	}
	w->nr_done = 0;
	w->fs_left = 0;
	wl_act_refill(w);
}

/*
 * Files used up: does the pass start them over? io_size beyond the
 * regions does; with io_loops (fio 3.33) only in the last loop, and only
 * while the job is short of io_size by at least its largest block.
 */
static bool may_wrap(const struct workload *w)
{
	if (!w->io_loops)
		return w->wrap;
	return w->loop_k >= w->loops && w->cum < w->io_size &&
	       w->io_size - w->cum >= w->max_bs;
}

/*
 * The write after a trim of sequential trimwrite when the two block sizes
 * differ (fio's rule, see tw_seq). Returns 0 with a write in u, or 1 when
 * the next I/O is a trim. As in fio, the file is done when either
 * sequence reaches its end.
 */
static int trimwrite_seq_write(struct workload *w, struct io_u *u)
{
	const struct wl_file *f = &w->files[w->tw_file];
	const struct wl_bs *b = &w->bs[DDIR_WRITE];
	uint64_t avail;
	uint32_t len;

	if (w->tw_lastw == w->pending_off) {
		w->pending = false;
		return 1;
	}
	/* (drawn only for a write that is due: the stream is fio's) */
	len = bs_pick(w, b, DDIR_WRITE);
	avail = f->start + f->whi - w->tw_wpos;
	if (w->tw_wpos + b->min > f->start + f->whi) {
		w->pending = false;
		if (!f->done)
			wl_file_done(w, w->tw_file);
		return 1;
	}
	if (len > avail)	/* a size that fits, as fio draws one */
		len = bs_fit(w, b, avail, DDIR_WRITE);
	u->file = w->tw_file;
	u->offset = w->tw_wpos;
	u->len = len;
	u->ddir = DDIR_WRITE;
	w->tw_lastw = w->tw_wpos;
	w->tw_wpos += len;
	return 0;
}

/* trimwrite's write of the block it just trimmed, if one is due. */
static inline bool pending_write(struct workload *w, struct io_u *u)
{
	if (w->pending && w->tw_seq)
		return !trimwrite_seq_write(w, u);
	if (!w->pending)
		return false;
	w->pending = false;
	u->file = w->pending_file;
	u->offset = w->pending_off;
	u->len = w->pending_len;
	u->ddir = DDIR_WRITE;
	return true;
}

/* A new draw of the direction and its block size. */
static inline void redraw(struct workload *w, enum ddir *d, uint32_t *len)
{
	*d = pick_ddir(w);
	*len = bs_pick(w, &w->bs[*d], *d);
}

/*
 * A used-up file that starts over where it is (a later pass's sweep, a
 * time_based random file, a skewed service's file): true when it then
 * gives the I/O (*len, *off).
 */
static inline bool start_again(struct workload *w, struct wl_file *f,
			       unsigned int fi, enum ddir d, uint32_t *len,
			       uint64_t *off)
{
	/*
	 * a sequential file of a skewed service that draws anew is
	 * closed and redrawn (skew_restart) whenever it is used
	 * up, in a later pass too
	 */
	bool again = (!f->fresh && w->restarts &&
		      !(w->skew_redraw && !w->random)) || w->tb_random;

	/*
	 * time_based: a file a draw ended is done (the next file, or the
	 * next pass once all are: bs=4k,8k nrfiles=2 goes round both)
	 */
	if (w->tb_random && w->drew_past)
		return false;

	if (!again && !(w->skewed && !w->skew_redraw) &&
	    !(w->skewed && w->random))
		return false;
	/*
	 * a skewed file starts over in place, still open: fio takes a
	 * percentage offset again only when it opens the file
	 * (skew_restart)
	 */
	if (again)
		f->later = true;
	wl_file_reset(w, f);
	if (w->tb_random)
		w->dropped = fi;
	return !file_next(w, f, d, len, off);
}

/* The I/O drawn, into u and the pass's counts. */
static inline void issue(struct workload *w, struct io_u *u, unsigned int fi,
			 uint64_t off, uint32_t len, enum ddir d)
{
	w->zone_bytes += len;
	u->file = fi;
	u->offset = off;
	u->len = len;
	u->ddir = (uint8_t)d;
	if (w->mixed && d <= DDIR_WRITE)
		w->mix_n[d]++;
	w->nios_left--;
	w->cum += len;
	w->bytes_left = len >= w->bytes_left ? 0 : w->bytes_left - len;
	if (w->tw_seq && (u->file != w->tw_file || w->tw_lastw == UINT64_MAX)) {
		/* a new pass or file: its writes start with its first trim */
		w->tw_file = u->file;
		w->tw_wpos = off;
		w->tw_lastw = UINT64_MAX;
	}
	if (w->trimwrite) {
		w->pending = true;
		w->pending_file = u->file;
		w->pending_off = off;
		w->pending_len = len;
	}
}

int wl_next_general(struct workload *w, struct io_u *u)
{
	struct wl_file *f;
	enum ddir d;
	uint32_t len;
	uint64_t off = 0;
	unsigned int fi, redraws = 0;
	bool wrapped = false;

	if (pending_write(w, u))
		return 0;
	if (!w->bytes_left || !w->nios_left)
		return 1;

	redraw(w, &d, &len);
	for (;;) {
		if (w->nr_done == w->nr_files) {
			/* only io_size beyond the regions starts over */
			if (!may_wrap(w) || wrapped)
				return 1;
			wrapped = w->wrapped = true;
			if (w->replays) {
				/* a new pass in fio: the first one's draws */
				wl_replay_first_pass(w);
				redraw(w, &d, &len);
				continue;
			}
			files_start_over(w);
			if (w->mixed)
				redraw(w, &d, &len);
		}
		fi = wl_pick_file(w);
		f = &w->files[fi];
		if (w->zones)
			zone_prep(w, f, d);
		if (!file_next(w, f, d, &len, &off))
			break;
		/*
		 * A sweep an earlier pass began starts over (files_next_pass),
		 * and so does a random one with a skewed file_service_type
		 * (fio draws once more at once): there a file never ends,
		 * it is read or written again from its start, and only the
		 * budget ends the pass.
		 */
		if (!f->fresh && w->restarts && w->replays &&
		    w->nr_files == 1 && !wrapped) {
			/* where fio's pass ends: the next one replays */
			wrapped = w->wrapped = true;
			wl_replay_first_pass(w);
			redraw(w, &d, &len);
			continue;
		}
		if (start_again(w, f, fi, d, &len, &off))
			break;
		/* fio: closed and started over, the next file drawn anew
		 * (a file that never takes an I/O ends after a while) */
		if (w->skew_redraw && redraws++ < SKEW_TRIES) {
			wl_skew_restart(w, fi);
			if (w->mixed)
				redraw(w, &d, &len);
			continue;
		}
		wl_file_done(w, fi);
		/*
		 * fio: the next file's I/O is drawn anew, its direction too;
		 * with none left its pass ends there, and the next one's
		 * first I/O draws (below), which the mix's rule counts
		 */
		if (w->mixed && w->nr_done < w->nr_files)
			redraw(w, &d, &len);
	}
	if (unlikely(w->nrange > 1) && d == DDIR_TRIM)
		return wl_next_ranges(w, u, fi, off, len);
	issue(w, u, fi, off, len, d);
	return 0;
}

int wl_range_next(struct workload *w, unsigned int fi, uint32_t *len,
		  uint64_t *off)
{
	struct wl_file *f = &w->files[fi];

	*len = bs_pick(w, &w->bs[DDIR_TRIM], DDIR_TRIM);
	if (!file_next(w, f, DDIR_TRIM, len, off))
		return 0;
	/* fio: a time_based job's used-up map starts over in the draw */
	return w->tb_random && start_again(w, f, fi, DDIR_TRIM, len, off) ?
	       0 : -1;
}

void wl_issue(struct workload *w, struct io_u *u, unsigned int fi,
	      uint64_t off, uint32_t len, enum ddir d)
{
	issue(w, u, fi, off, len, d);
}

bool workload_wait(struct workload *w, volatile int *stop, uint64_t max_ns)
{
	return w->replay && iolog_replay_wait(w->replay, stop, max_ns);
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	wl_files_free(w);
	free(w->act);
	free(w->ev);
	iolog_replay_free(w->replay);
	wl_spr_free(w);
	free(w);
}

int workload_next(struct workload *w, struct io_u *u)
{
	return w->next(w, u);
}

unsigned int workload_sync_file(struct workload *w, bool pass_end)
{
	/* one file (the fast paths count otherwise): no turn to take */
	if (w->replay || w->nr_files == 1 || w->pending ||
	    (!pass_end && (!w->bytes_left || !w->nios_left)) ||
	    w->nr_done == w->nr_files)
		return UINT_MAX;
	return wl_pick_file(w);
}

void wl_pass_start(struct workload *w, bool first)
{
	unsigned int i;

	w->ios_left = w->ios_pass;
	/* never used up: the first loop issues the job's bytes (fio) */
	if (w->plain_loops && wl_fast_nomap(w) &&
	    !w->loop_queued)
		w->ios_left = first ? w->ios_pass * w->loops : 0;
	w->bytes_left = w->budget;
	if (w->io_loops || w->vcap) {
		uint64_t target;

		w->loop_k = first ? 1 : w->loop_k + 1;
		target = (uint64_t)(w->vcap ? w->loops : w->loop_k) *
			 w->io_size;
		w->bytes_left = target > w->cum ? target - w->cum : 0;
	} else if (w->plain_loops) {
		uint64_t target = (uint64_t)w->loops * w->budget;

		w->bytes_left = target > w->cum ? target - w->cum : 0;
		if (w->loop_queued && w->bytes_left > w->budget)
			w->bytes_left = w->budget;
	}
	if (first)
		w->nios_left = w->nios_job;
	w->pending = false;
	w->tw_lastw = UINT64_MAX;
	w->seq_left = 0;
	for (i = 0; !first && i < w->nr_files; i++)
		w->files[i].later = true;
	if (first) {
		files_start_over(w);
		w->cur_slot = w->nact;
		slot_restart(w);
	} else if ((w->replays && (w->plain_loops || all_used_up(w))) ||
		   (w->tb_replays && w->nr_done == w->nr_files)) {
		wl_replay_first_pass(w);
	} else if (w->plain_loops) {
		/* fio's next loop: every file from its start */
		files_start_over(w);
		slot_restart(w);
	} else {
		files_next_pass(w);
		slot_restart(w);
	}
}

void workload_rewind(struct workload *w)
{
	if (w->replay) {
		iolog_replay_rewind(w->replay);
		return;
	}
	if (w->spr)
		return;	/* sprandom writes once: a later pass has nothing */
	wl_pass_start(w, false);
}

void workload_nios_refund(struct workload *w)
{
	if (w->nios_job != UINT64_MAX)
		w->nios_left++;
}

void workload_nios_take(struct workload *w)
{
	/* such a job takes the general path (pick_fast_path()) */
	if (w->nios_job != UINT64_MAX && w->nios_left)
		w->nios_left--;
}

void workload_cap_pass(struct workload *w, uint64_t n)
{
	if (w->ios_left > n)
		w->ios_left = n;
	if (w->nios_left > n)
		w->nios_left = n;
}

void workload_cap_bytes(struct workload *w, uint64_t n)
{
	uint64_t ios = w->bsz ? div_up(n, w->bsz) : 0;

	if (w->bytes_left > n)
		w->bytes_left = n;
	/* the fast paths count I/Os of one size */
	if (w->next != wl_next_general && w->bsz && w->ios_left > ios)
		w->ios_left = ios;
}

void workload_loops_queued(struct workload *w)
{
	if (!w->plain_loops)
		return;
	w->loop_queued = true;
	if (w->bytes_left > w->budget)
		w->bytes_left = w->budget;
	if (w->ios_left > w->ios_pass)
		w->ios_left = w->ios_pass;
}

bool workload_spent(const struct workload *w)
{
	if (w->spr)
		return true;	/* fio 3.42: loops=2 writes what 1 does */
	if (!w->plain_loops)
		return false;
	if (w->next == wl_next_general)
		return !w->nios_left ||
		       w->cum >= (uint64_t)w->loops * w->budget;
	/* random offsets without a map: the first loop took it all */
	return wl_fast_nomap(w) && !w->loop_queued;
}

bool workload_drops_in_place(const struct workload *w)
{
	return w->tb_random;
}

bool workload_may_wrap(const struct workload *w)
{
	return (w->wrap || w->io_loops) && !w->o->time_based;
}

bool workload_take_wrap(struct workload *w)
{
	bool r = w->wrapped;

	w->wrapped = false;
	return r;
}

unsigned int workload_take_dropped(struct workload *w)
{
	unsigned int fi = w->dropped;

	w->dropped = UINT_MAX;
	return fi;
}

bool workload_verifies(const struct job_options *o)
{
	return o->verify != VERIFY_NONE && !o->experimental_verify;
}

bool workload_pass_spent(const struct workload *w)
{
	if (w->replay)
		return true;
	if (w->spr)
		return wl_spr_done(w);
	if (w->next != wl_next_general)
		return !w->ios_left && !w->runs_out;
	return !w->bytes_left || !w->nios_left;
}

uint64_t workload_pass_max(const struct workload *w)
{
	if (w->vcap && w->vpass > w->budget)
		return w->vpass;
	return workload_pass_bytes(w);
}

uint64_t workload_pass_bytes(const struct workload *w)
{
	if (w->replay)
		return iolog_replay_bytes(w->replay);
	if (w->spr)	/* at most: the physical capacity */
		return w->spr->phys * w->bsz;
	if (w->next != wl_next_general)
		return w->ios_pass * w->bsz;
	return w->budget;
}

unsigned int workload_open_limit(const struct workload *w)
{
	return w->limited ? w->max_open : 0;
}

bool workload_file_in_use(const struct workload *w, unsigned int file)
{
	return file < w->nr_files && w->files[file].open;
}

bool workload_file_event(struct workload *w, unsigned int *file, bool *open)
{
	const struct wl_event *e;

	if (!w->ev_nr)
		return false;
	e = &w->ev[w->ev_head];
	w->ev_head = (w->ev_head + 1) % w->ev_cap;
	w->ev_nr--;
	*file = e->file;
	*open = e->open;
	return true;
}

void workload_want_ddir(struct workload *w, int d)
{
	w->want_ddir = (int8_t)(w->mixed ? d : -1);
}

void workload_read_gate(struct workload *w, bool (*ok)(void *), void *arg)
{
	w->read_ok = w->mixed ? ok : NULL;
	w->read_ok_arg = arg;
}

void workload_moved(struct workload *w, const struct io_u *u)
{
	struct wl_file *f = &w->files[u->file];

	f->last[u->ddir] = u->offset - f->start;
	f->pos[u->ddir] = f->last[u->ddir] + u->len;
}

void workload_skip(struct workload *w, const struct io_u *u)
{
	struct wl_file *f = &w->files[u->file];

	f->pos[u->ddir] = u->offset - f->start;
	w->zone_bytes -= u->len;
	w->nios_left++;
	w->cum -= u->len;
	w->bytes_left += u->len;
}

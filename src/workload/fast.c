/* SPDX-License-Identifier: MIT */
/*
 * The fast paths of next() (workload.c has the general one): one file,
 * one direction, one block size, no zones, mixes or skips. A sequential
 * sweep, a random map, an LFSR or plain uniform draws, each a few
 * instructions per I/O; wl_pick_fast_path() chooses one when the job
 * allows it, or leaves wl_next_general in place.
 */
#include "workload/workload_int.h"

#include "util/log.h"

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

/* The map is used up within a pass: fio's order again, or a new one. */
static __attribute__((noinline, cold)) void map0_restart(struct workload *w)
{
	if (w->replays)
		wl_replay_first_pass(w);
	else
		randmap_rekey(w->map0, next_key(w));
}

/* next_rand_map_fixed()'s rare cases: a pass that wraps, a cycle-walk */
static __attribute__((noinline)) int map_fixed_slow(struct workload *w,
						     struct io_u *u)
{
	w->ios_left--;
	/* the pass wraps past the last block */
	if (unlikely(randmap_exhausted(w->map0)))
		map0_restart(w);
	u->file = 0;
	u->offset = w->start + randmap_next(w->map0) * w->bsz;
	u->len = w->bsz;
	u->ddir = w->ddir;
	return 0;
}

/* next_rand_map_fixed()'s cycle-walk, block x outside the map */
static __attribute__((noinline)) int map_fixed_walk(struct workload *w,
						     struct io_u *u,
						     uint64_t x)
{
	u->offset = w->start + randmap_walk(w->map0, x) * w->bsz;
	return 0;
}

/*
 * The common case calls nothing: the rare ones leave by a tail call, so
 * nothing lives across a call and no register needs saving.
 */
static int next_rand_map_fixed(struct workload *w, struct io_u *u)
{
	struct randmap *m = w->map0;
	uint64_t i = m->next, x;

	if (unlikely(!w->ios_left))
		return 1;
	if (unlikely(i >= m->n))
		return map_fixed_slow(w, u);
	m->next = i + 1;
	w->ios_left--;
	u->file = 0;
	u->len = w->bsz;
	u->ddir = w->ddir;
	x = randmap_mix(m, i);
	if (unlikely(x >= m->n))
		return map_fixed_walk(w, u, x);
	u->offset = w->start + x * w->bsz;
	return 0;
}

/* The bitmap is full within a pass: fio's order again, or a fresh map. */
static __attribute__((noinline, cold)) void bm0_restart(struct workload *w)
{
	if (w->replays)
		wl_replay_first_pass(w);
	else
		blkmap_reset(w->bm0, w->nblk);
}

static inline int bm_fixed_fill(struct workload *w, struct io_u *u,
				uint64_t b)
{
	w->ios_left--;
	u->file = 0;
	u->offset = w->start + b * w->bsz;
	u->len = w->bsz;
	u->ddir = w->ddir;
	return 0;
}

static int bm_fixed_slow(struct workload *w, struct io_u *u, uint64_t b);

/* bm_fixed_taken() past b's word: the map's search */
static __attribute__((noinline)) int bm_fixed_far(struct workload *w,
						  struct io_u *u, uint64_t b)
{
	b = blkmap_next_free(w->bm0, b);
	blkmap_claim1(w->bm0, b);
	return bm_fixed_fill(w, u, b);
}

/*
 * next_rand_bitmap_fixed() with block b done: the next free one, most
 * often further in the same word (no call: the rest are tail calls)
 */
static __attribute__((noinline)) int bm_fixed_taken(struct workload *w,
						    struct io_u *u,
						    uint64_t b)
{
	struct blkmap *m = w->bm0;
	uint64_t *word = &m->lv[0][b >> 6];
	uint64_t rest = *word | ((2ULL << (b & 63)) - 1);

	if (!~rest || (b | 63) >= m->n)
		return bm_fixed_far(w, u, b);
	b = (b & ~63ULL) + (uint64_t)__builtin_ctzll(~rest);
	*word |= 1ULL << (b & 63);
	m->nfree--;
	if (unlikely(*word == ~0ULL))
		return bm_fixed_slow(w, u, b);
	return bm_fixed_fill(w, u, b);
}

/* next_rand_bitmap_fixed()'s rare cases: a pass that wraps, a full word */
static __attribute__((noinline)) int bm_fixed_slow(struct workload *w,
						   struct io_u *u,
						   uint64_t b)
{
	/* UINT64_MAX: the map is full; else b's word just became full */
	if (b == UINT64_MAX) {
		bm0_restart(w);
		b = prng_scale32(prng_taus_next(&w->r_off), w->nblk);
		if (!blkmap_is_free(w->bm0, b))
			return bm_fixed_taken(w, u, b);
		blkmap_claim1(w->bm0, b);
	} else {
		blkmap_word_full(w->bm0, b >> 6);
	}
	return bm_fixed_fill(w, u, b);
}

/*
 * fio's random map: a uniform draw from fio's stream; a block done in
 * this pass gives the next free one (wrapping), as fio's axmap does.
 * The common case calls nothing (the others leave by tail calls).
 */
static int next_rand_bitmap_fixed(struct workload *w, struct io_u *u)
{
	struct blkmap *m = w->bm0;
	uint64_t b, *word, bit;

	if (unlikely(!w->ios_left))
		return 1;
	if (unlikely(!m->nfree))
		return bm_fixed_slow(w, u, UINT64_MAX);
	b = prng_scale32(prng_taus_next(&w->r_off), w->nblk);
	word = &m->lv[0][b >> 6];
	bit = 1ULL << (b & 63);
	if (*word & bit)
		return bm_fixed_taken(w, u, b);
	*word |= bit;
	m->nfree--;
	if (unlikely(*word == ~0ULL))
		return bm_fixed_slow(w, u, b);
	return bm_fixed_fill(w, u, b);
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

/* One file, one direction, one size, no modifiers: a fast path. */
void wl_pick_fast_path(struct workload *w)
{
	struct wl_file *f = &w->files[0];
	enum ddir d = (enum ddir)w->ddir;
	bool exhausts;
	uint64_t n;

	/*
	 * (number_ios over loops, with I/O errors let through, which it
	 * does not count, or with verify_backlog's read-backs, which it
	 * does: nios_left counts the job's I/Os)
	 */
	/*
	 * (loops with io_size=N%: a loop goes on past the budget to the
	 * file's end, until the job's loops x budget bytes, which only the
	 * general path counts: loops=3 io_size=25% of 1e6 bytes in 4k
	 * blocks is 184 writes in one sweep, not 3 x 62)
	 */
	if (w->nr_files != 1 || w->mixed || w->trimwrite || w->io_loops ||
	    w->nrange > 1 ||
	    w->vcap || w->xlfsr || (w->plain_loops && w->o->io_size.bytes) ||
	    w->bs[d].kind != BS_FIXED || w->add || w->seq_nr > 1 ||
	    w->zones || w->zbd || w->perc_on || f->start2 != f->start ||
	    (!w->random && wl_seq_fit(w, f, d) != f->size) ||
	    (w->nios_job != UINT64_MAX &&
	     (w->loops > 1 || (w->o->continue_on_error & COE_IO) ||
	      w->o->verify_backlog)))
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
		case RM_BITMAP:
			/* one size, the file's own map, 32-bit draws */
			if (w->unit != w->bsz || w->xmap || w->bs64 ||
			    f->rp[d]->bmp != &f->rp[d]->bm ||
			    n > (1ULL << 32))
				return;
			w->bm0 = f->rp[d]->bmp;
			w->next = next_rand_bitmap_fixed;
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
	if (w->ios_pass > w->nios_job)
		w->ios_pass = w->nios_job;
	/* the pass ends on the file's end, short of budget and number_ios */
	w->runs_out = w->ios_pass * w->bsz < w->budget &&
		      w->ios_pass < w->nios_job;
}

bool wl_fast_nomap(const struct workload *w)
{
	return w->next == next_rand_nomap_fixed;
}

/* SPDX-License-Identifier: MIT */
/*
 * The bytes a job writes (workload/buffer.h has fio's rules). A job's
 * contents are a stream of chunks, chunk n made from the seed (job, n):
 * a deduplicated write makes earlier chunks again from their seeds
 * instead of keeping copies, and the layout and the job's writes read
 * one stream without sharing anything but its position.
 */
#include "workload/buffer.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "util/pattern.h"
#include "util/prng.h"

enum buf_kind { BK_RANDOM, BK_ZERO, BK_PATTERN, BK_MIXED };

struct buf_fill {
	enum buf_kind kind;
	const struct byte_pattern *pat;	/* the fixed bytes; NULL: zeroes */
	unsigned int rnd_pct;	/* random share of each chunk */
	size_t chunk;		/* buffer_compress_chunk (0: none) */
	size_t min_write;	/* chunks are at most this */

	/*
	 * The job's stream: chunk n holds prng_derive(base, n)'s bytes
	 * (random fills: fill n). next: the position; last: where the last
	 * new fill started.
	 */
	uint64_t base, next, last;
	bool same;		/* dedupe_percentage=100: one chunk */
	uint64_t dedupe_thresh;	/* repeat when a 32-bit draw is below */
	struct prng_taus r_dedupe;
	uint64_t ws_nr;		/* working set blocks; 0: repeat mode */
	uint64_t ws_adv;	/* chunks of the smallest write block */
	uint64_t ws_per;	/* dedupe_global: blocks from each job */
	unsigned int rank, ranks;	/* dedupe_global: 0 ranks: own set */
	uint64_t global_seed;	/* dedupe_global: job q's base from q */
};

/* xorshift64*: fast enough to fill blocks at memory speed */
static inline uint64_t xs_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void fill_rand(uint64_t *state, unsigned char *b, size_t len)
{
	size_t i;
	uint64_t v;

	for (i = 0; i + 8 <= len; i += 8) {
		v = xs_next(state);
		memcpy(b + i, &v, 8);
	}
	if (i < len) {
		v = xs_next(state);
		memcpy(b + i, &v, len - i);
	}
}

static void fill_fixed(const struct buf_fill *bf, unsigned char *b, size_t len)
{
	if (bf->pat)
		pattern_fill(bf->pat, b, len, 0);
	else
		memset(b, 0, len);
}

/* Bytes of the next chunk of a fill with len bytes left. */
static inline size_t chunk_len(const struct buf_fill *bf, size_t len)
{
	size_t c = bf->min_write < len ? bf->min_write : len;

	return bf->chunk && bf->chunk < c ? bf->chunk : c;
}

/*
 * len bytes of the stream at base from chunk idx on: each chunk random
 * for its share, from its own seed, then fixed (dedupe_percentage=100:
 * every chunk from one seed, so all are alike, as fio's). Returns the
 * index after the last chunk.
 */
static uint64_t fill_stream(const struct buf_fill *bf, unsigned char *b,
			    size_t len, uint64_t base, uint64_t idx)
{
	while (len) {
		size_t c = chunk_len(bf, len), r = c * bf->rnd_pct / 100;
		/* xorshift's state must not be 0 */
		uint64_t st = prng_derive(base, bf->same ? 0 : idx) | 1;

		fill_rand(&st, b, r);
		fill_fixed(bf, b + r, c - r);
		b += c;
		len -= c;
		idx++;
	}
	return idx;
}

/* dedupe_global: job rank's base seed, known to every sharing job */
static uint64_t rank_base(const struct buf_fill *bf, unsigned int rank)
{
	return prng_derive(bf->global_seed, rank);
}

/*
 * A fill from block i of the working set: the stream from the i-th
 * smallest write block on (with dedupe_global ws_per blocks from each
 * sharing job in turn, starting with ours), the job's own untouched.
 */
static void fill_ws(const struct buf_fill *bf, unsigned char *b, size_t len,
		    uint64_t i)
{
	uint64_t base = bf->base;

	if (bf->ranks) {
		base = rank_base(bf, (unsigned int)((bf->rank + i / bf->ws_per) %
						    bf->ranks));
		i %= bf->ws_per;
	}
	fill_stream(bf, b, len, base, i * bf->ws_adv);
}

/*
 * Compressible or deduplicated contents. The job's stream has a
 * position: a new fill reads on from it; dedupe_mode=repeat moves it
 * back to where the last new fill started and reads on from there, so
 * that after a short repeat of a long block the next new fill repeats
 * the rest of it, as fio 3.33's do (with block size ranges more than
 * dedupe_percentage of the data repeats); working_set leaves it alone.
 */
static void fill_mixed(struct buf_fill *bf, unsigned char *b, size_t len)
{
	if (bf->dedupe_thresh &&
	    prng_taus_next(&bf->r_dedupe) < bf->dedupe_thresh) {
		if (bf->ws_nr) {
			fill_ws(bf, b, len, ((uint64_t)prng_taus_next(&bf->r_dedupe) << 32 |
					     prng_taus_next(&bf->r_dedupe)) % bf->ws_nr);
			return;
		}
		bf->next = bf->last;
	} else {
		bf->last = bf->next;
	}
	bf->next = fill_stream(bf, b, len, bf->base, bf->next);
}

void buffer_fill_write(struct buf_fill *bf, void *buf, size_t len)
{
	uint64_t st;

	switch (bf->kind) {
	case BK_ZERO:
	case BK_PATTERN:
		fill_fixed(bf, buf, len);
		break;
	case BK_RANDOM:
		st = prng_derive(bf->base, bf->next++) | 1;
		fill_rand(&st, buf, len);
		break;
	case BK_MIXED:
		fill_mixed(bf, buf, len);
		break;
	}
}

bool buffer_fill_static(const struct buf_fill *bf)
{
	return bf->kind == BK_ZERO || bf->kind == BK_PATTERN;
}

uint64_t buffer_fill_drawn(const struct buf_fill *bf)
{
	return bf->next;
}

/* Blocks in the working set: a share of size in write blocks, >= 1. */
static uint64_t ws_blocks(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	uint64_t bs = p->dir_min_bs[DDIR_WRITE] ? p->dir_min_bs[DDIR_WRITE] : 1;
	uint64_t pct = o->dedupe_working_set_percentage;
	uint64_t n = (o->size.bytes / 100 * pct +
		      o->size.bytes % 100 * pct / 100) / bs;

	return n ? n : 1;
}

/* Chunks in a fill of the smallest write block: the set's spacing. */
static uint64_t ws_adv(const struct job_plan *p)
{
	uint64_t bs = p->dir_min_bs[DDIR_WRITE] ? p->dir_min_bs[DDIR_WRITE] : 1;
	uint64_t c = p->o.buffer_compress_chunk;

	if (!c || c > bs)
		c = bs;
	return (bs + c - 1) / c;
}

static bool shares_set(const struct job_plan *p)
{
	return p->o.dedupe_global && p->o.dedupe_percentage &&
	       p->o.dedupe_mode == DEDUPE_WORKING_SET;
}

void buffer_dedupe_link(struct job_plan *const *plans, unsigned int nr)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr; i++)
		if (shares_set(plans[i]))
			plans[i]->dedupe_rank = n++;
	for (i = 0; i < nr; i++)
		if (shares_set(plans[i]))
			plans[i]->dedupe_ranks = n;
}

/* A job's stream's seeds; the dedupe_global jobs' follow from rank. */
#define BUF_SEED 0x6275666665727321ULL
#define DEDUPE_GLOBAL_SEED 0x646564757065676cULL
#define SCRAMBLE_SEED 0x736372616d626c65ULL

/* A fill state for p with its contents; the dedupe part is seeded apart. */
static struct buf_fill *fill_new(const struct job_plan *p, unsigned int rank,
				 unsigned int ranks, uint64_t start,
				 size_t min_write)
{
	const struct job_options *o = &p->o;
	struct buf_fill *bf = xcalloc(1, sizeof(*bf));
	unsigned int pct = o->buffer_compress_percentage;

	/* fio: 100% compressible is zero_buffers */
	bool zero = o->zero_buffers || pct == 100;

	if (pct == 100)
		pct = 0;
	bf->pat = o->buffer_pattern.len ? &o->buffer_pattern : NULL;
	if (pct || o->dedupe_percentage)
		bf->kind = BK_MIXED;
	else if (bf->pat)
		bf->kind = BK_PATTERN;
	else if (zero)
		bf->kind = BK_ZERO;
	else
		bf->kind = BK_RANDOM;
	bf->rnd_pct = 100 - pct;
	bf->chunk = (size_t)o->buffer_compress_chunk;
	bf->min_write = min_write ? min_write : 1;
	bf->base = prng_derive(o->randseed ^ BUF_SEED, p->job_index);
	bf->global_seed = o->randseed ^ DEDUPE_GLOBAL_SEED;
	if (ranks) {
		bf->rank = rank;
		bf->ranks = ranks;
		bf->base = rank_base(bf, rank);
	}
	bf->next = bf->last = start;
	bf->same = o->dedupe_percentage == 100;
	if (o->dedupe_percentage) {
		bf->dedupe_thresh = ((uint64_t)o->dedupe_percentage << 32) / 100;
		/* the layout's draws and the job's are not the same ones */
		prng_taus_seed(&bf->r_dedupe, prng_derive(bf->base ^ start,
							  ~0ULL));
		if (o->dedupe_mode == DEDUPE_WORKING_SET)
			bf->ws_nr = ws_blocks(p);
		bf->ws_per = ranks && bf->ws_nr / ranks ? bf->ws_nr / ranks : 1;
		bf->ws_adv = ws_adv(p);
	}
	return bf;
}

/* fio's rules: what each write does to its buffer. */
static enum buf_write write_mode(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	bool pct_given = opt_is_set(o, "buffer_compress_percentage");
	unsigned int pct = o->buffer_compress_percentage;

	if (o->refill_buffers ||
	    (pct && pct < 100 && !opt_is_set(o, "refill_buffers")) ||
	    (o->pattern_refill && (ddir_used(p, DDIR_READ) || pct)))
		return BUF_REFILL;
	if (pct_given || opt_is_set(o, "dedupe_percentage"))
		return BUF_KEEP;
	if (o->scramble_buffers &&
	    (!o->zero_buffers || opt_is_set(o, "scramble_buffers")))
		return BUF_SCRAMBLE;
	return BUF_KEEP;
}

void buffer_fill_init(struct buf_fill **out, enum buf_write *mode,
		      const struct job_plan *p, uint64_t start, void *mem,
		      size_t buf_size, unsigned int nr)
{
	struct buf_fill *bf;
	unsigned int i;

	*out = NULL;
	*mode = BUF_KEEP;
	if (!ddir_used(p, DDIR_WRITE)) {
		/* nothing is written: touched so the reads take no faults */
		memset(mem, 0, (size_t)nr * buf_size);
		return;
	}
	*mode = write_mode(p);
	bf = fill_new(p, p->dedupe_rank, p->dedupe_ranks, start,
		      (size_t)p->dir_min_bs[DDIR_WRITE]);
	/* the first contents draw from the job's blocks, as fio's do */
	for (i = 0; i < nr; i++)
		buffer_fill_write(bf, (char *)mem + (size_t)i * buf_size,
				  buf_size);
	if (*mode != BUF_REFILL)
		buffer_fill_free(bf);
	else
		*out = bf;
}

/*
 * Scrambling differs from run to run, as fio's (it stamps the time into
 * every sector): a second run of a job must not write what the first
 * wrote, or storage that deduplicates would measure its own hits. The
 * rest of the contents follow randseed.
 */
uint64_t buffer_scramble_key(const struct job_plan *p)
{
	static uint64_t nonce;
	struct timespec ts;

	if (!__atomic_load_n(&nonce, __ATOMIC_RELAXED)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		__atomic_store_n(&nonce, ((uint64_t)ts.tv_sec << 30 ^
					  (uint64_t)ts.tv_nsec ^
					  (uint64_t)getpid() << 48) | 1,
				 __ATOMIC_RELAXED);
	}
	return prng_derive(p->o.randseed ^ SCRAMBLE_SEED ^
			   __atomic_load_n(&nonce, __ATOMIC_RELAXED),
			   p->job_index);
}

struct buf_fill *buffer_layout_new(const struct job_plan *plans,
				   unsigned int nr, unsigned int i,
				   size_t *blk)
{
	const struct job_plan *p = &plans[i];
	unsigned int k, rank = 0, ranks = 0;

	/* the runner's buffer_dedupe_link() has not run yet */
	for (k = 0; shares_set(p) && k < nr; k++) {
		if (k == i)
			rank = ranks;
		ranks += shares_set(&plans[k]);
	}
	*blk = (size_t)p->dir_max_bs[DDIR_WRITE];
	if (!*blk)
		*blk = (size_t)(p->max_bs ? p->max_bs : 4096);
	return fill_new(p, rank, ranks, 0, *blk);
}

void buffer_fill_free(struct buf_fill *bf)
{
	free(bf);
}

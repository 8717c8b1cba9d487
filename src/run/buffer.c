/* SPDX-License-Identifier: MIT */
/*
 * Write buffer contents asked for by buffer_pattern, buffer_compress_*
 * and dedupe_* (run/buffer.h has the rules). Every block's contents
 * follow from one 64-bit seed: a deduplicated write regenerates an
 * earlier block from its seed instead of keeping a copy of it.
 */
#include "run/buffer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/pattern.h"
#include "util/prng.h"

struct buf_fill {
	const struct byte_pattern *pat;	/* the plan's; NULL: zeroes */
	bool refill;		/* every write goes through us */
	bool mixed;		/* compress or dedupe: random + fixed */
	unsigned int rnd_pct;	/* random share of each chunk */
	size_t chunk;		/* 0: the whole block */

	uint64_t seeds;		/* splitmix64 state: a seed per new block */
	uint64_t last;		/* seed of the last new block */
	bool have_last;
	uint64_t dedupe_thresh;	/* repeat when a 32-bit draw is below */
	struct prng_taus r_dedupe;
	bool working_set;
	uint64_t ws_base;	/* working set block i: derive(ws_base, i) */
	uint64_t ws_nr;
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

/* One block from its seed: chunks of random, then fixed, bytes. */
static void fill_block(const struct buf_fill *bf, unsigned char *b,
		       size_t len, uint64_t seed)
{
	uint64_t st = seed | 1;	/* xorshift state must not be 0 */
	size_t chunk = bf->chunk && bf->chunk < len ? bf->chunk : len;

	while (len) {
		size_t c = chunk < len ? chunk : len;
		size_t r = c * bf->rnd_pct / 100;

		fill_rand(&st, b, r);
		fill_fixed(bf, b + r, c - r);
		b += c;
		len -= c;
	}
}

/* The seed of the next block: a new one, or an earlier one's (dedupe). */
static uint64_t next_seed(struct buf_fill *bf)
{
	if (bf->dedupe_thresh &&
	    prng_taus_next(&bf->r_dedupe) < bf->dedupe_thresh) {
		if (bf->working_set) {
			uint64_t i = ((uint64_t)prng_taus_next(&bf->r_dedupe) << 32 |
				      prng_taus_next(&bf->r_dedupe)) % bf->ws_nr;

			return prng_derive(bf->ws_base, i);
		}
		if (bf->have_last)
			return bf->last;
	}
	bf->last = prng_splitmix64(&bf->seeds);
	bf->have_last = true;
	return bf->last;
}

void buffer_fill_write(struct buf_fill *bf, void *buf, size_t len)
{
	if (!bf->mixed) {
		fill_fixed(bf, buf, len);
		return;
	}
	fill_block(bf, buf, len, next_seed(bf));
}

bool buffer_fill_refills(const struct buf_fill *bf)
{
	return bf->refill;
}

/* Blocks in the working set: a share of size in write blocks, >= 1. */
static uint64_t ws_blocks(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	uint64_t bs = p->dir_min_bs[DDIR_WRITE] ? p->dir_min_bs[DDIR_WRITE] : 1;
	uint64_t n = o->size.bytes / 100 * o->dedupe_working_set_percentage / bs;

	return n ? n : 1;
}

/* The shared working set's blocks derive from this, whatever the job. */
#define DEDUPE_GLOBAL_SEED 0x646564757065676cULL

static bool shares_set(const struct job_plan *p)
{
	return p->o.dedupe_global && p->o.dedupe_percentage &&
	       p->o.dedupe_mode == DEDUPE_WORKING_SET;
}

void buffer_dedupe_link(struct job_plan *const *plans, unsigned int nr)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (shares_set(plans[i]))
			total += ws_blocks(plans[i]);
	for (i = 0; i < nr; i++)
		if (shares_set(plans[i]))
			plans[i]->dedupe_ws_global = total;
}

int buffer_fill_init(struct buf_fill **out, const struct job_plan *p,
		     uint64_t seed, void *mem, size_t buf_size,
		     unsigned int nr, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct buf_fill *bf;
	unsigned int i;

	*out = NULL;
	if (!o->buffer_pattern.len && !o->buffer_compress_percentage &&
	    !o->dedupe_percentage)
		return 0;
	bf = calloc(1, sizeof(*bf));
	if (!bf) {
		strbuf_addstr(err, "cannot allocate the buffer fill state");
		return -ENOMEM;
	}
	bf->pat = o->buffer_pattern.len ? &o->buffer_pattern : NULL;
	bf->mixed = o->buffer_compress_percentage || o->dedupe_percentage;
	bf->rnd_pct = 100 - o->buffer_compress_percentage;
	bf->chunk = (size_t)o->buffer_compress_chunk;
	/* a read overwrites a buffer: a pattern must be written again */
	bf->refill = bf->mixed || o->refill_buffers ||
		     ddir_used(p, DDIR_READ);
	bf->seeds = prng_derive(seed, 1);
	if (o->dedupe_percentage) {
		bf->dedupe_thresh = ((uint64_t)o->dedupe_percentage << 32) / 100;
		prng_taus_seed(&bf->r_dedupe, prng_derive(seed, 2));
		if (o->dedupe_mode == DEDUPE_WORKING_SET) {
			bf->working_set = true;
			bf->ws_base = prng_derive(seed, 3);
			bf->ws_nr = ws_blocks(p);
			if (o->dedupe_global && p->dedupe_ws_global) {
				/* every such job draws from one set */
				bf->ws_base = DEDUPE_GLOBAL_SEED;
				bf->ws_nr = p->dedupe_ws_global;
			}
		}
	}
	for (i = 0; i < nr; i++)
		buffer_fill_write(bf, (char *)mem + (size_t)i * buf_size,
				  buf_size);
	/* the first write is new, whatever the start-up fill drew */
	bf->have_last = false;
	*out = bf;
	return 0;
}

void buffer_fill_free(struct buf_fill *bf)
{
	free(bf);
}

/* SPDX-License-Identifier: MIT */
/*
 * The bitmap random map for mixed block sizes (see blkmap.h). Level 0
 * holds a bit per block; level k + 1 a bit per word of level k, set
 * when the word is full. Padding bits past the end of the levels above
 * are set; level 0's are free, for I/Os that run on past the last block
 * (fio's map), and searches never return them.
 */
#include "workload/blkmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t words(uint64_t bits)
{
	return (bits + 63) >> 6;
}

int blkmap_init(struct blkmap *m, uint64_t cap)
{
	uint64_t bits = cap ? cap : 1;
	unsigned int k = 0;

	memset(m, 0, sizeof(*m));
	m->cap = bits;
	for (;;) {
		if (k == BLKMAP_LEVELS) {
			blkmap_free(m);
			return -ENOMEM;
		}
		/* calloc: a large map costs only the pages a pass touches */
		m->lv[k] = calloc(words(bits), sizeof(uint64_t));
		if (!m->lv[k]) {
			blkmap_free(m);
			return -ENOMEM;
		}
		k++;
		if (bits <= 64)
			break;
		bits = words(bits);
	}
	m->nlv = k;
	blkmap_reset(m, m->cap);
	return 0;
}

void blkmap_free(struct blkmap *m)
{
	unsigned int k;

	for (k = 0; k < BLKMAP_LEVELS; k++) {
		free(m->lv[k]);
		m->lv[k] = NULL;
	}
	m->nlv = 0;
}

void blkmap_reset(struct blkmap *m, uint64_t n)
{
	uint64_t bits = n ? n : 1;
	unsigned int k;

	if (bits > m->cap)
		bits = m->cap;
	m->n = bits;
	m->nfree = bits;
	m->lim = words(bits) << 6;
	for (k = 0; k < m->nlv; k++) {
		uint64_t nw = words(bits), tail = bits & 63;

		m->nbits[k] = bits;
		memset(m->lv[k], 0, nw * sizeof(uint64_t));
		if (tail && k)
			m->lv[k][nw - 1] = ~0ULL << tail;
		bits = nw;
	}
}

/* Word idx of level lvl became full: tell the levels above. */
static void mark_full(struct blkmap *m, unsigned int lvl, uint64_t idx)
	__attribute__((noinline));
void blkmap_word_full(struct blkmap *m, uint64_t idx)
{
	mark_full(m, 0, idx);
}

static void mark_full(struct blkmap *m, unsigned int lvl, uint64_t idx)
{
	while (++lvl < m->nlv) {
		uint64_t *w = &m->lv[lvl][idx >> 6];

		*w |= 1ULL << (idx & 63);
		if (*w != ~0ULL)
			return;
		idx >>= 6;
	}
}

/* The first clear bit of level lvl at or after idx, or NONE. */
static uint64_t find_zero(const struct blkmap *m, unsigned int lvl,
			  uint64_t idx)
{
	while (idx < m->nbits[lvl]) {
		uint64_t wi = idx >> 6;
		uint64_t w = m->lv[lvl][wi] | ((1ULL << (idx & 63)) - 1);

		if (~w) {
			idx = (wi << 6) + (uint64_t)__builtin_ctzll(~w);
			/* level 0's padding: free, but no block */
			return idx < m->nbits[lvl] ? idx : BLKMAP_NONE;
		}
		/* the rest of this word is full: the next word not full */
		if (lvl + 1 < m->nlv) {
			wi = find_zero(m, lvl + 1, wi + 1);
			if (wi == BLKMAP_NONE)
				return BLKMAP_NONE;
		} else {
			wi++;
		}
		idx = wi << 6;
	}
	return BLKMAP_NONE;
}

uint64_t blkmap_next_free(const struct blkmap *m, uint64_t b)
{
	uint64_t r;

	if (!m->nfree)
		return BLKMAP_NONE;
	r = find_zero(m, 0, b);
	return r != BLKMAP_NONE ? r : find_zero(m, 0, 0);
}

/* Of the got blocks claimed from b, those before the end (not padding). */
static uint64_t real_blocks(const struct blkmap *m, uint64_t b, uint64_t got)
{
	return b >= m->n ? 0 : b + got <= m->n ? got : m->n - b;
}

uint64_t blkmap_claim(struct blkmap *m, uint64_t b, uint64_t max)
{
	uint64_t got = 0, bit = b & 63;

	/* the common case: the I/O fits in b's word */
	if (bit + max <= 64 && b + max <= m->lim) {
		uint64_t *w = &m->lv[0][b >> 6];
		uint64_t busy = (*w >> bit) &
				(max == 64 ? ~0ULL : (1ULL << max) - 1);

		/* cut at the first done block */
		got = busy ? (uint64_t)__builtin_ctzll(busy) : max;
		*w |= (got == 64 ? ~0ULL : (1ULL << got) - 1) << bit;
		if (*w == ~0ULL)
			mark_full(m, 0, b >> 6);
		m->nfree -= real_blocks(m, b, got);
		return got;
	}

	while (got < max && b < m->lim) {
		uint64_t wi = b >> 6, *w = &m->lv[0][wi], above;
		uint64_t run, take;

		bit = b & 63;
		above = *w >> bit;
		/* free bits from b to the first done one, or the word end */
		run = above ? (uint64_t)__builtin_ctzll(above) : 64 - bit;
		take = run < max - got ? run : max - got;

		if (!take)
			break;
		*w |= (take == 64 ? ~0ULL : (1ULL << take) - 1) << bit;
		if (*w == ~0ULL)
			mark_full(m, 0, wi);
		got += take;
		b += take;
		if (bit + take < 64)
			break;	/* a done block, or max, inside the word */
	}
	m->nfree -= real_blocks(m, b - got, got);
	return got;
}

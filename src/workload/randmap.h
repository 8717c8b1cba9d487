/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_RANDMAP_H
#define IOLITE_WORKLOAD_RANDMAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The random map: a keyed pseudo-random permutation of [0, n), walked in
 * index order, so that one pass visits every block exactly once in a
 * random-looking order with no bitmap. See randmap.c for the method and
 * its cost. The struct is the whole state (O(1) memory whatever n);
 * nothing is allocated.
 */
struct randmap {
	uint64_t n;		/* blocks */
	uint64_t next;		/* index of the next block of this pass */
	uint64_t key[3];	/* one per Feistel round */
	unsigned int lo_bits;	/* width of the low half */
	unsigned int hi_bits;	/* width of the high half */
	uint64_t lo_mask;
};

/* n >= 1. The key picks the order; randmap_rekey() picks another. */
void randmap_init(struct randmap *m, uint64_t n, uint64_t key);
/* A new order for the next pass, starting from its first block. */
void randmap_rekey(struct randmap *m, uint64_t key);

/* Feistel round function: the top 'bits' bits of a keyed 64-bit hash. */
static inline uint64_t randmap_round(uint64_t x, uint64_t key,
				     unsigned int bits)
{
	uint64_t h = (x ^ key) * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	return h >> (64 - bits);
}

/* One evaluation of the bijection on [0, 2^(lo_bits + hi_bits)). */
static inline uint64_t randmap_mix(const struct randmap *m, uint64_t x)
{
	unsigned int a = m->lo_bits, b = m->hi_bits;
	uint64_t l = x >> a, r = x & m->lo_mask, t;

	/* the halves swap widths every round: (b, a) -> (a, b) -> ... */
	t = l ^ randmap_round(r, m->key[0], b);
	l = r;
	r = t;
	t = l ^ randmap_round(r, m->key[1], a);
	l = r;
	r = t;
	t = l ^ randmap_round(r, m->key[2], b);
	l = r;
	r = t;
	return (l << b) | r;
}

/* The i-th block of the current order, i < n (cycle-walking). */
static inline uint64_t randmap_permute(const struct randmap *m, uint64_t i)
{
	uint64_t x = randmap_mix(m, i);

	while (x >= m->n)
		x = randmap_mix(m, x);
	return x;
}

static inline bool randmap_exhausted(const struct randmap *m)
{
	return m->next >= m->n;
}

/* The next block of this pass; only when !randmap_exhausted(). */
static inline uint64_t randmap_next(struct randmap *m)
{
	return randmap_permute(m, m->next++);
}

#endif

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
	uint64_t a;		/* radix of the high part: ceil(n / 2^j) */
	uint64_t lo_mask;	/* 2^j - 1: the low part */
	unsigned int lo_bits;	/* j */
	unsigned int hi_shift;	/* 64 - j */
	/*
	 * The hash's multipliers, in memory rather than immediates: an
	 * x86 multiply takes a memory operand but not a 64-bit constant,
	 * and two registers fewer keep the caller free of spills.
	 */
	uint64_t mul1, mul2;
};

/* n >= 1. The key picks the order; randmap_rekey() picks another. */
void randmap_init(struct randmap *m, uint64_t n, uint64_t key);
/* A new order for the next pass, starting from its first block. */
void randmap_rekey(struct randmap *m, uint64_t key);

/* Feistel round function: a keyed 64-bit hash. */
static inline uint64_t randmap_hash(const struct randmap *m, uint64_t x,
				    uint64_t key)
{
	uint64_t h;

	/*
	 * m as the compiler cannot follow: each round reads the
	 * multipliers as memory operands, rather than holding them in
	 * registers that the caller then has to save (no instruction)
	 */
	__asm__("" : "+r"(m));
	h = (x ^ key) * m->mul1;

	h ^= h >> 32;
	return h * m->mul2;
}

/* (l + hash scaled to [0, a)) mod a, without a division */
static inline uint64_t randmap_add_mod(uint64_t l, uint64_t h, uint64_t a)
{
	uint64_t t = l + (uint64_t)(((unsigned __int128)h * a) >> 64);

	return t >= a ? t - a : t;
}

/* One evaluation of the bijection on [0, a * 2^j). */
static inline uint64_t randmap_mix(const struct randmap *m, uint64_t x)
{
	unsigned int j = m->lo_bits;
	uint64_t a = m->a, l = x >> j, r = x & m->lo_mask, t;

	/* (l, r) in [0, a) x [0, 2^j); the parts swap ranges each round */
	t = randmap_add_mod(l, randmap_hash(m, r, m->key[0]), a);
	l = r;
	r = t;
	t = (l + (randmap_hash(m, r, m->key[1]) >> m->hi_shift)) & m->lo_mask;
	l = r;
	r = t;
	t = randmap_add_mod(l, randmap_hash(m, r, m->key[2]), a);
	l = r;
	r = t;
	/* now (l, r) in [0, 2^j) x [0, a) */
	return l * a + r;
}

/* Cycle-walking, out of line: rare once n is more than a few blocks. */
uint64_t randmap_walk(const struct randmap *m, uint64_t x);

/* The i-th block of the current order, i < n. */
static inline uint64_t randmap_permute(const struct randmap *m, uint64_t i)
{
	uint64_t x = randmap_mix(m, i);

	return x < m->n ? x : randmap_walk(m, x);
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

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_PRNG_H
#define IOLITE_UTIL_PRNG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Small, fast pseudo-random generators for the I/O path. None allocates;
 * every state is a plain struct owned by the caller, seeded once from a
 * 64-bit seed and then stepped with a few shifts and xors.
 *
 *   prng_taus    32-bit output, three combined Tausworthe components
 *                (L'Ecuyer's "taus88", period about 2^88).
 *   prng_taus64  64-bit output, five combined components (L'Ecuyer's
 *                "lfsr258", period about 2^258).
 *   prng_lfsr    a maximal-length Galois LFSR sized to a range [0, n):
 *                every value comes out exactly once per cycle of n
 *                outputs, so it needs no map to cover a file.
 *
 * Seeding expands the 64-bit seed with splitmix64, so nearby seeds (job
 * 0, job 1, ...) give unrelated streams.
 */

/* One splitmix64 step: advances *x and returns a well-mixed value. */
static inline uint64_t prng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A 64-bit seed derived from a base seed and a stream number. */
uint64_t prng_derive(uint64_t base, uint64_t stream);

struct prng_taus {
	uint32_t s1, s2, s3;
};

void prng_taus_seed(struct prng_taus *t, uint64_t seed);

static inline uint32_t prng_taus_next(struct prng_taus *t)
{
	uint32_t b;

	/* component (k, q, s) = (31, 13, 12), (29, 2, 4), (28, 3, 17) */
	b = ((t->s1 << 13) ^ t->s1) >> 19;
	t->s1 = ((t->s1 & 0xfffffffeU) << 12) ^ b;
	b = ((t->s2 << 2) ^ t->s2) >> 25;
	t->s2 = ((t->s2 & 0xfffffff8U) << 4) ^ b;
	b = ((t->s3 << 3) ^ t->s3) >> 11;
	t->s3 = ((t->s3 & 0xfffffff0U) << 17) ^ b;
	return t->s1 ^ t->s2 ^ t->s3;
}

struct prng_taus64 {
	uint64_t s1, s2, s3, s4, s5;
};

void prng_taus64_seed(struct prng_taus64 *t, uint64_t seed);

static inline uint64_t prng_taus64_next(struct prng_taus64 *t)
{
	uint64_t b;

	/*
	 * (k, q, s) = (63, 1, 10), (55, 24, 5), (52, 3, 29), (47, 5, 23),
	 * (41, 3, 8); each mask keeps the k high bits of its component.
	 */
	b = ((t->s1 << 1) ^ t->s1) >> 53;
	t->s1 = ((t->s1 & 0xfffffffffffffffeULL) << 10) ^ b;
	b = ((t->s2 << 24) ^ t->s2) >> 50;
	t->s2 = ((t->s2 & 0xfffffffffffffe00ULL) << 5) ^ b;
	b = ((t->s3 << 3) ^ t->s3) >> 23;
	t->s3 = ((t->s3 & 0xfffffffffffff000ULL) << 29) ^ b;
	b = ((t->s4 << 5) ^ t->s4) >> 24;
	t->s4 = ((t->s4 & 0xfffffffffffe0000ULL) << 23) ^ b;
	b = ((t->s5 << 3) ^ t->s5) >> 33;
	t->s5 = ((t->s5 & 0xffffffffff800000ULL) << 8) ^ b;
	return t->s1 ^ t->s2 ^ t->s3 ^ t->s4 ^ t->s5;
}

/*
 * fio's own seeding, where iolite must draw what fio draws (filesize=
 * ranges). fio seeds each of a job's random streams from a 64-bit seed
 * of its own: with randrepeat (or randseed=) a function of randseed, the
 * job's number (1, 2, ... over all instances, numjobs clones included)
 * and the stream's place in fio's list; with allrandrepeat a function of
 * the job's number and the place only. Its generators are taus88 (the
 * seed's low 32 bits) and, with random_generator=tausworthe64, taus258,
 * each filled from the seed by a multiply-xor chain and stepped 6 times.
 * Worked out from fio 3.33's output (t/unit/prng.c has its figures).
 */
uint64_t prng_fio_seed(uint64_t randseed, unsigned int job_nr,
		       unsigned int stream);
uint64_t prng_fio_allrand_seed(unsigned int job_nr, unsigned int stream);
void prng_taus_seed_fio(struct prng_taus *t, uint64_t seed);
void prng_taus64_seed_fio(struct prng_taus64 *t, uint64_t seed);

/*
 * Scales a uniform random word to [0, n) with one multiply (Lemire's
 * multiply-high without the rejection step: the bias is at most n / 2^32
 * resp. n / 2^64, far below anything an I/O pattern can show).
 * prng_scale32 needs n <= 2^32.
 */
static inline uint64_t prng_scale32(uint32_t r, uint64_t n)
{
	return ((uint64_t)r * n) >> 32;
}

static inline uint64_t prng_scale64(uint64_t r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)r * n) >> 64);
}

/* Uniform doubles in [0, 1). */
static inline double prng_u01_32(uint32_t r)
{
	return r * (1.0 / 4294967296.0);
}

static inline double prng_u01_64(uint64_t r)
{
	return (r >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * Galois LFSR over [0, n). The register is the smallest width w with
 * 2^w - 1 >= n; its 2^w - 1 non-zero states map to state - 1, and values
 * >= n are skipped. Since 2^w - 1 < 2n, fewer than two steps are taken
 * per output on average. After n outputs the same cycle starts again.
 */
struct prng_lfsr {
	uint64_t state;
	uint64_t mask;		/* toggle mask: a primitive polynomial */
	uint64_t n;
	uint64_t start;
	unsigned int width;
};

/* 0, or -EINVAL for n == 0. */
int prng_lfsr_init(struct prng_lfsr *l, uint64_t n, uint64_t seed);

/* Back to the first value of the cycle (same order again). */
static inline void prng_lfsr_reset(struct prng_lfsr *l)
{
	l->state = l->start;
}

static inline uint64_t prng_lfsr_next(struct prng_lfsr *l)
{
	uint64_t v;

	do {
		uint64_t lsb = l->state & 1;

		l->state = (l->state >> 1) ^ (-lsb & l->mask);
		v = l->state - 1;
	} while (v >= l->n);
	return v;
}

/* The toggle mask for a width (1..64), for tests. */
uint64_t prng_lfsr_mask(unsigned int width);

#endif

/* SPDX-License-Identifier: MIT */
/* The PRNGs (src/util/prng.[ch]): determinism, spread, LFSR cycles. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/prng.h"

#define DRAWS 1000000

/* Chi-square over 16 buckets of the top bits, and the balance of each bit. */
static void check_spread(const char *name, const uint64_t *v, size_t n,
			 unsigned int bits)
{
	size_t bucket[16] = { 0 }, ones[64] = { 0 }, i;
	unsigned int b, worst = 0;
	double chi = 0, e = (double)n / 16, dev = 0;

	for (i = 0; i < n; i++) {
		bucket[v[i] >> (bits - 4)]++;
		for (b = 0; b < bits; b++)
			ones[b] += (v[i] >> b) & 1;
	}
	for (i = 0; i < 16; i++)
		chi += (bucket[i] - e) * (bucket[i] - e) / e;
	for (b = 0; b < bits; b++) {
		double d = ones[b] > n / 2 ? ones[b] - n / 2.0 :
					     n / 2.0 - ones[b];

		if (d > dev) {
			dev = d;
			worst = b;
		}
	}
	/* 15 degrees of freedom: p = 0.001 at 37.7 */
	ok(chi < 37.7, "%s: top 4 bits uniform (chi-square %.1f)", name, chi);
	/* 5 sigma of a fair coin over n draws */
	ok(dev < 5 * 0.5 * 1000, "%s: every bit balanced (worst bit %u off "
	   "by %.0f)", name, worst, dev);
}

static void test_taus(void)
{
	struct prng_taus a, b, c;
	uint64_t *v = malloc(DRAWS * sizeof(*v));
	size_t i, same = 0;
	int eq = 1;

	prng_taus_seed(&a, 42);
	prng_taus_seed(&b, 42);
	prng_taus_seed(&c, 43);
	for (i = 0; i < 1000; i++) {
		uint32_t x = prng_taus_next(&a);

		eq &= x == prng_taus_next(&b);
		same += x == prng_taus_next(&c);
	}
	ok(eq, "tausworthe: the same seed gives the same sequence");
	ok(same < 3, "tausworthe: seeds 42 and 43 give unrelated sequences");

	/* tiny seeds must not leave a component stuck at zero */
	prng_taus_seed(&a, 0);
	for (i = 0; i < DRAWS; i++)
		v[i] = prng_taus_next(&a);
	check_spread("tausworthe", v, DRAWS, 32);
	free(v);
}

static void test_taus64(void)
{
	struct prng_taus64 a, b;
	uint64_t *v = malloc(DRAWS * sizeof(*v));
	size_t i;
	int eq = 1;

	prng_taus64_seed(&a, 7);
	prng_taus64_seed(&b, 7);
	for (i = 0; i < 1000; i++)
		eq &= prng_taus64_next(&a) == prng_taus64_next(&b);
	ok(eq, "tausworthe64: the same seed gives the same sequence");
	prng_taus64_seed(&a, 0);
	for (i = 0; i < DRAWS; i++)
		v[i] = prng_taus64_next(&a);
	check_spread("tausworthe64", v, DRAWS, 64);
	free(v);
}

/*
 * fio's seeding, checked against what fio 3.33 made: the sizes (KiB) of
 * --filesize=16k-64k --nrfiles=4 --bs=4k files (its file-size stream,
 * 7), a draw scaled to the 48k span and rounded down to 4k.
 */
static void fio_sizes(uint64_t seed, bool wide, unsigned int *kb)
{
	struct prng_taus t;
	struct prng_taus64 t64;
	unsigned int i;

	prng_taus_seed_fio(&t, seed);
	prng_taus64_seed_fio(&t64, seed);
	for (i = 0; i < 4; i++) {
		double u = wide ? prng_taus64_next(&t64) / 18446744073709551616.0 :
				  prng_taus_next(&t) / 4294967296.0;
		uint64_t v = 16384 + (uint64_t)(49152.0 * u);

		kb[i] = (unsigned int)(v / 4096 * 4);
	}
}

static void test_fio_seeds(void)
{
	static const struct {
		const char *what;
		uint64_t randseed;
		unsigned int job;
		bool all, wide;
		unsigned int kb[4];
	} c[] = {
		{ "randseed=0x89 (the default), job 1",
		  0x89, 1, false, false, { 20, 28, 28, 56 } },
		{ "randseed=1, job 1", 1, 1, false, false, { 36, 28, 40, 56 } },
		{ "job 2 (numjobs=2)", 0x89, 2, false, false, { 28, 56, 20, 48 } },
		{ "random_generator=tausworthe64",
		  0x89, 1, false, true, { 32, 28, 48, 36 } },
		{ "allrandrepeat=1 (randseed=1 or not)",
		  1, 1, true, false, { 48, 20, 20, 36 } },
	};
	unsigned int i, kb[4];

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t seed = c[i].all ? prng_fio_allrand_seed(c[i].job, 7) :
				prng_fio_seed(c[i].randseed, c[i].job, 7);

		fio_sizes(seed, c[i].wide, kb);
		ok(!memcmp(kb, c[i].kb, sizeof(kb)),
		   "fio's file sizes, %s: %u %u %u %u", c[i].what, kb[0], kb[1],
		   kb[2], kb[3]);
	}
}

static void test_scale(void)
{
	uint64_t n = 1000, max = 0, i;
	struct prng_taus t;
	int good = 1;

	prng_taus_seed(&t, 1);
	for (i = 0; i < 100000; i++) {
		uint64_t x = prng_scale32(prng_taus_next(&t), n);

		good &= x < n;
		if (x > max)
			max = x;
	}
	ok(good && max == n - 1, "scale32 stays in [0, n) and reaches n - 1");
	ok(prng_scale32(0xffffffffU, 1ULL << 32) == 0xffffffffU &&
	   prng_scale64(~0ULL, 10) == 9 && prng_scale64(0, 10) == 0,
	   "scale at the edges");
	ok(prng_u01_32(0xffffffffU) < 1.0 && prng_u01_64(~0ULL) < 1.0,
	   "u01 is below 1");
	ok(prng_derive(1, 0) != prng_derive(1, 1) &&
	   prng_derive(1, 0) != prng_derive(2, 0),
	   "derive: streams and bases differ");
}

/* Walks the whole LFSR cycle of each width up to 20 from state 1. */
static void test_lfsr_masks(void)
{
	unsigned int w, bad = 0;

	for (w = 1; w <= 20; w++) {
		uint64_t mask = prng_lfsr_mask(w), s = 1, steps = 0;

		do {
			s = (s >> 1) ^ (-(s & 1) & mask);
			steps++;
		} while (s != 1 && steps <= (1ULL << w));
		if (steps != (1ULL << w) - 1) {
			diag("width %u: period %llu", w,
			     (unsigned long long)steps);
			bad++;
		}
	}
	ok(!bad, "lfsr masks of widths 1..20 have period 2^w - 1");
	ok(prng_lfsr_mask(64) >> 63 && prng_lfsr_mask(33) >> 32 == 1 &&
	   !prng_lfsr_mask(0) && !prng_lfsr_mask(65),
	   "lfsr masks have their top tap");
}

static void test_lfsr_ranges(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 1000, 4096, 65537 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], j, first[4];
		unsigned char *seen = calloc(n, 1);
		struct prng_lfsr l;
		int good = !prng_lfsr_init(&l, n, 99), again = 1;

		for (j = 0; good && j < n; j++) {
			uint64_t v = prng_lfsr_next(&l);

			if (j < 4)
				first[j] = v;
			good = v < n && !seen[v]++;
		}
		/* the next n outputs are the same cycle */
		for (j = 0; j < 4 && j < n; j++)
			again &= prng_lfsr_next(&l) == first[j];
		prng_lfsr_reset(&l);
		again &= prng_lfsr_next(&l) == first[0];
		ok(good && again, "lfsr over %llu: each value once per cycle, "
		   "then the cycle repeats", (unsigned long long)n);
		free(seen);
	}
	{
		struct prng_lfsr l;

		ok(prng_lfsr_init(&l, 0, 1) < 0, "lfsr over 0 values fails");
		ok(!prng_lfsr_init(&l, ~0ULL, 1) && l.width == 64 &&
		   prng_lfsr_next(&l) < ~0ULL, "lfsr over 2^64 - 1 values");
	}
}

int main(void)
{
	test_taus();
	test_taus64();
	test_fio_seeds();
	test_scale();
	test_lfsr_masks();
	test_lfsr_ranges();
	return done_testing();
}

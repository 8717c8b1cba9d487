/* SPDX-License-Identifier: MIT */
/* The random map (src/workload/randmap.[ch]): a keyed permutation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "workload/randmap.h"

/* One pass: each block once; returns the order's signature, 0 if not. */
static uint64_t one_pass(struct randmap *m, uint64_t n, uint64_t *first)
{
	unsigned char *seen = calloc(n, 1);
	uint64_t i, sig = 1;

	for (i = 0; i < n; i++) {
		uint64_t b;

		if (randmap_exhausted(m))
			break;
		b = randmap_next(m);
		if (b >= n || seen[b]++)
			break;
		if (i < 4)
			first[i] = b;
		sig = sig * 1000003 + b;
	}
	if (i != n || !randmap_exhausted(m)) {
		diag("pass over %llu blocks broke at I/O %llu",
		     (unsigned long long)n, (unsigned long long)i);
		sig = 0;
	}
	free(seen);
	return sig ? sig : 0;
}

static void test_coverage(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 1000, 4096, 4097,
					  (1ULL << 20) + 7 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], f1[4], f2[4], s1, s2;
		struct randmap m;

		randmap_init(&m, n, 12345);
		s1 = one_pass(&m, n, f1);
		randmap_rekey(&m, 67890);
		s2 = one_pass(&m, n, f2);
		ok(s1 && s2, "%llu blocks: every block exactly once in two "
		   "passes", (unsigned long long)n);
		if (n >= 1000)
			ok(s1 != s2, "%llu blocks: a new key, a new order",
			   (unsigned long long)n);
	}
}

/*
 * The cost bound in randmap.c: over a pass, cycle-walking evaluates the
 * network fewer than n + 2^j <= n + sqrt(2n) times.
 */
static void test_cost(void)
{
	static const uint64_t sizes[] = { 3, 1000, 4097, 65537, 300000,
					  (1ULL << 20) + 7 };
	size_t t;

	for (t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		uint64_t n = sizes[t], i, evals = 0, worst = 0;
		uint64_t space;
		struct randmap m;

		randmap_init(&m, n, t + 1);
		space = n + (1ULL << m.lo_bits);
		for (i = 0; i < n; i++) {
			uint64_t x = randmap_mix(&m, i), e = 1;

			while (x >= n) {
				x = randmap_mix(&m, x);
				e++;
			}
			evals += e;
			if (e > worst)
				worst = e;
		}
		ok(evals < space && evals <= n + (uint64_t)sqrt(2.0 * n),
		   "%llu blocks: %llu evaluations per pass (bound %llu), "
		   "longest walk %llu", (unsigned long long)n,
		   (unsigned long long)evals, (unsigned long long)space,
		   (unsigned long long)worst);
	}
}

/* Consecutive I/Os land on unrelated blocks. */
static void test_quality(void)
{
	uint64_t n = (1ULL << 20) + 7, i, prev, adjacent = 0;
	uint64_t diff8[8] = { 0 };
	double sum_gap = 0, corr = 0, mu = (n - 1) / 2.0, chi = 0, e;
	struct randmap m;

	randmap_init(&m, n, 4242);
	prev = randmap_next(&m);
	corr += (0 - mu) * (prev - mu);
	for (i = 1; i < n; i++) {
		uint64_t b = randmap_next(&m);

		sum_gap += fabs((double)b - (double)prev);
		adjacent += b == prev + 1 || prev == b + 1;
		diff8[(b - prev) & 7]++;
		corr += ((double)i - mu) * ((double)b - mu);
		prev = b;
	}
	corr /= (double)n * ((double)n * n / 12.0);
	e = (n - 1) / 8.0;
	for (i = 0; i < 8; i++)
		chi += (diff8[i] - e) * (diff8[i] - e) / e;
	/* for a random order the mean gap is n/3 */
	ok(fabs(sum_gap / (n - 1) / n - 1.0 / 3) < 0.01,
	   "mean gap between consecutive blocks is n/3 (%.4f n)",
	   sum_gap / (n - 1) / n);
	ok(adjacent < 20, "consecutive I/Os are rarely neighbours (%llu)",
	   (unsigned long long)adjacent);
	ok(fabs(corr) < 0.005, "block and position uncorrelated (%.5f)", corr);
	/* 7 degrees of freedom: p = 0.001 at 24.3 */
	ok(chi < 24.3, "low bits of the steps uniform (chi-square %.1f)", chi);
}

int main(void)
{
	test_coverage();
	test_cost();
	test_quality();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * The random maps: the keyed permutation (src/workload/randmap.[ch]) for
 * one block size, and the bitmap (src/workload/blkmap.[ch]) for more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/prng.h"
#include "workload/blkmap.h"
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

/* ---- the bitmap ------------------------------------------------------- */

/* The reference: first free at or after b, wrapping; n if none. */
static uint64_t ref_next(const unsigned char *used, uint64_t n, uint64_t b)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (!used[(b + i) % n])
			return (b + i) % n;
	return BLKMAP_NONE;
}

/*
 * Random claims of 1 to maxrun blocks at random starts (moved to the next
 * free one), checked step by step against a byte per block, until full.
 * Returns the number of claims, or 0 when the map and the reference part.
 */
static uint64_t fill_checked(struct blkmap *m, uint64_t n, unsigned maxrun,
			     struct prng_taus *r)
{
	uint64_t lim = (n + 63) & ~63ULL;	/* to the last word's end */
	unsigned char *used = calloc(lim, 1);
	uint64_t done = 0, claims = 0, bad = 0;

	while (done < n && !bad) {
		uint64_t b = prng_scale32(prng_taus_next(r), n), want, got, i;
		uint64_t real;

		if (blkmap_is_free(m, b) != !used[b])
			bad++;
		if (!blkmap_is_free(m, b))
			b = blkmap_next_free(m, b);
		if (b != ref_next(used, n, b)) {
			bad++;
			break;
		}
		want = 1 + prng_scale32(prng_taus_next(r), maxrun);
		got = blkmap_claim(m, b, want);
		/*
		 * the free run from b, cut at want blocks and at the end
		 * of the last block's word: its padding is taken, never
		 * found, never counted free
		 */
		for (i = 0; i < want && b + i < lim && !used[b + i]; i++)
			used[b + i] = 1;
		real = b + i <= n ? i : n - b;
		bad += got != i || m->nfree != n - done - real;
		done += real;
		claims++;
	}
	bad += blkmap_next_free(m, 0) != BLKMAP_NONE;
	free(used);
	return bad ? 0 : claims;
}

static void test_blkmap(void)
{
	/* one word, word edges, three levels, and past them */
	static const uint64_t sizes[] = { 1, 63, 64, 65, 4095, 4096, 4097,
					  262144 + 5 };
	struct prng_taus r;
	size_t i;

	prng_taus_seed(&r, 99);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], c1, c2;
		struct blkmap m;

		if (blkmap_init(&m, n)) {
			ok(0, "%llu blocks: allocated", (unsigned long long)n);
			continue;
		}
		c1 = fill_checked(&m, n, 4, &r);
		blkmap_reset(&m, n);
		c2 = fill_checked(&m, n, n < 200 ? 3 : 130, &r);
		ok(c1 && c2, "%llu blocks: runs of up to 4 and of up to %u "
		   "fill the map exactly, next-free as the reference (%llu, "
		   "%llu claims)", (unsigned long long)n, n < 200 ? 3 : 130,
		   (unsigned long long)c1, (unsigned long long)c2);
		/* a smaller window in the same room (strided zones) */
		blkmap_reset(&m, n / 2 + 1);
		ok(fill_checked(&m, n / 2 + 1, 8, &r) &&
		   m.n == n / 2 + 1, "%llu blocks: a window of %llu fills "
		   "too", (unsigned long long)n,
		   (unsigned long long)(n / 2 + 1));
		blkmap_free(&m);
	}
}

/* A claim stops at the first done block, including across words. */
static void test_blkmap_cuts(void)
{
	struct blkmap m;

	blkmap_init(&m, 200);
	ok(blkmap_claim(&m, 62, 4) == 4 && !blkmap_is_free(&m, 65) &&
	   blkmap_is_free(&m, 66), "a run across a word edge");
	ok(blkmap_claim(&m, 60, 7) == 2, "cut at the next done block");
	ok(blkmap_next_free(&m, 60) == 66, "next free skips the done run");
	ok(blkmap_claim(&m, 198, 8) == 8, "a claim runs on past the end, "
	   "into the last word's padding (fio's map)");
	ok(blkmap_next_free(&m, 199) == 0, "next free wraps to the start");
	ok(blkmap_claim(&m, 0, 1000) == 60, "a long claim stops at block 60");
	ok(m.nfree == 200 - 68, "free count follows, padding not counted "
	   "(%llu)", (unsigned long long)m.nfree);
	ok(blkmap_claim(&m, 190, 100) == 8, "cut at the padding taken");
	blkmap_reset(&m, 200);
	ok(blkmap_claim(&m, 190, 100) == 66, "cut at the last word's end");
	ok(m.nfree == 190 && blkmap_next_free(&m, 195) == 0,
	   "the padding is never found");
	blkmap_free(&m);
}

int main(void)
{
	test_coverage();
	test_cost();
	test_quality();
	test_blkmap();
	test_blkmap_cuts();
	return done_testing();
}

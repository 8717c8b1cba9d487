/* SPDX-License-Identifier: MIT */
/*
 * Rate series: bounded by halving (each point the mean of two, covering
 * twice the time), and summed point by point for side-by-side members.
 */
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "stats/series.h"

static void test_bounded(void)
{
	struct series *s = calloc(1, sizeof(*s));
	uint64_t sum = 0, got = 0;
	uint32_t i;
	int mono = 1;

	for (i = 0; i < SERIES_MAX; i++)
		series_add(s, 100 + i, 500);
	ok(s->nr == SERIES_MAX && s->period_ms == 500,
	   "full at %u points of 500 ms (%u, %u)", SERIES_MAX, s->nr,
	   s->period_ms);
	series_add(s, 100 + SERIES_MAX, 500);
	ok(s->nr == SERIES_MAX / 2 && s->period_ms == 1000,
	   "one more halves it: %u points of %u ms", s->nr, s->period_ms);
	ok(s->v[0] == 101 && s->v[1] == 103,
	   "a point is the mean of its pair, rounded (%lu %lu)",
	   (unsigned long)s->v[0], (unsigned long)s->v[1]);
	series_add(s, 101 + SERIES_MAX, 500);
	ok(s->nr == SERIES_MAX / 2 + 1 && s->v[s->nr - 1] == 101 + SERIES_MAX,
	   "new samples make points of the new width (%lu)",
	   (unsigned long)s->v[s->nr - 1]);

	/* ten times the capacity: still bounded, the mean kept */
	memset(s, 0, sizeof(*s));
	for (i = 0; i < 10 * SERIES_MAX; i++) {
		series_add(s, 1000 + (i % 7) * 2, 100);
		sum += 1000 + (i % 7) * 2;
	}
	for (i = 0; i < s->nr; i++) {
		got += s->v[i];
		mono &= s->v[i] >= 1000 && s->v[i] <= 1012;
	}
	ok(s->nr >= SERIES_MAX / 2 && s->nr <= SERIES_MAX && s->period_ms == 1600,
	   "%u samples keep %u points of %u ms", 10 * SERIES_MAX, s->nr,
	   s->period_ms);
	diag("%u samples of 100 ms: %u points of %u ms", 10 * SERIES_MAX,
	     s->nr, s->period_ms);
	ok(mono, "every point within the samples' range");
	ok(llabs((long long)(got * 16) - (long long)sum) <= 16 * (long long)s->nr,
	   "the points' mean is the samples' mean (%.2f vs %.2f)",
	   (double)got / s->nr, (double)sum / (10 * SERIES_MAX));
	free(s);
}

static void test_sum(void)
{
	struct series *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	uint32_t i;

	series_sum(a, b);
	ok(a->nr == 0, "an empty sum is empty");
	for (i = 0; i < 4; i++)
		series_add(b, 10, 500);
	series_sum(a, b);
	ok(a->nr == 4 && a->v[3] == 10 && a->period_ms == 500,
	   "the first member is copied");
	for (i = 0; i < 6; i++)
		series_add(b, 10, 500);
	series_sum(a, b);
	ok(a->nr == 10 && a->v[0] == 20 && a->v[3] == 20 && a->v[4] == 10,
	   "point by point; a point only one member has stays its own");

	/* a coarser member: the finer one is paired up first */
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	for (i = 0; i < 8; i++)
		series_add(a, 4, 250);
	for (i = 0; i < 4; i++)
		series_add(b, 6, 500);
	series_sum(a, b);
	ok(a->nr == 4 && a->period_ms == 500 && a->v[0] == 10 && a->v[3] == 10,
	   "periods matched before adding (%u points of %u ms, %lu)", a->nr,
	   a->period_ms, (unsigned long)a->v[0]);
	free(a);
	free(b);
}

int main(void)
{
	test_bounded();
	test_sum();
	return done_testing();
}

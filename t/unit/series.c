/* SPDX-License-Identifier: MIT */
/*
 * The bounded sample series (stats/series.h): exact while it fits, then
 * pairs merged so that the mean, the extremes and the time span survive;
 * the group_reporting sum.
 */
#include <math.h>
#include <string.h>

#include "unit/tap.h"
#include "stats/series.h"

static void test_fits(void)
{
	struct series s;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	for (i = 1; i <= 10; i++)
		series_add(&s, i * 500, i * 100.0);
	ok(s.nr == 10 && s.pt[9].t_ms == 5000 && s.pt[9].v == 1000.0,
	   "10 samples are 10 points, as taken (nr %u)", s.nr);
	series_release(&s);
	ok(!s.pt && !s.nr, "released series is empty");
}

/* A long run: bounded, and the whole-run mean and extremes are kept. */
static void test_bounded(void)
{
	struct series s;
	unsigned int i, n = 100000, over = 0;
	double sum = 0, mean = 0, lo = 1e300, hi = 0;
	unsigned int total = 0;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < n; i++) {
		double v = 1000.0 + (double)(i % 97) * 3.0 + (i == 4321 ? 1e6 : 0);

		sum += v;
		series_add(&s, (uint64_t)(i + 1) * 10, v);
		if (s.nr > SERIES_MAX)
			over++;
	}
	ok(!over && s.nr <= SERIES_MAX && s.nr > SERIES_MAX / 2,
	   "100000 samples keep %u points (at most %u)", s.nr, SERIES_MAX);
	for (i = 0; i < s.nr; i++) {
		mean += s.pt[i].v * s.pt[i].n;
		total += s.pt[i].n;
		if (s.pt[i].lo < lo)
			lo = s.pt[i].lo;
		if (s.pt[i].hi > hi)
			hi = s.pt[i].hi;
	}
	diag("%u points of %u samples each", s.nr, s.per_point);
	ok(total == n, "every sample is in a point (%u)", total);
	ok(fabs(mean / total - sum / n) < 1e-6 * (sum / n),
	   "the mean survives the merges (%f vs %f)", mean / total, sum / n);
	ok(lo == 1000.0 && hi == 1e6 + 1000.0 + (4321 % 97) * 3.0,
	   "the extremes survive the merges (%f, %f)", lo, hi);
	ok(s.pt[s.nr - 1].t_ms == (uint64_t)n * 10 && s.pt[0].t_ms > 10,
	   "the last point ends at the last sample (%llu)",
	   (unsigned long long)s.pt[s.nr - 1].t_ms);
	for (i = 1; i < s.nr; i++)
		if (s.pt[i].t_ms <= s.pt[i - 1].t_ms)
			break;
	ok(i == s.nr, "times keep increasing");
	series_reset(&s);
	series_add(&s, 7, 1.0);
	ok(s.nr == 1 && s.pt[0].n == 1 && s.pt[0].t_ms == 7,
	   "a reset series starts again one sample a point");
	series_release(&s);
}

static void test_sum(void)
{
	struct series a, b;
	unsigned int i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (i = 1; i <= 4; i++)
		series_add(&a, i * 100, 10.0);
	for (i = 1; i <= 6; i++)
		series_add(&b, i * 100 + 1, 5.0);
	series_sum(&a, &b);
	ok(a.nr == 6 && a.pt[0].v == 15.0 && a.pt[3].v == 15.0 &&
	   a.pt[4].v == 5.0 && a.pt[5].t_ms == 601,
	   "side-by-side jobs add up, the longer one's tail kept");
	series_release(&b);
	series_sum(&b, &a);
	ok(b.nr == 6 && b.pt != a.pt && b.pt[0].v == 15.0,
	   "a sum into an empty series is a copy");
	series_release(&a);
	series_release(&b);

	/* a coarser series: the finer one is merged to match first */
	for (i = 1; i <= 2 * SERIES_MAX + 2; i++)
		series_add(&a, i, 2.0);
	for (i = 1; i <= 8; i++)
		series_add(&b, i, 1.0);
	series_sum(&a, &b);
	ok(a.per_point == 4 && a.pt[0].v == 3.0 && a.pt[1].v == 3.0 &&
	   a.pt[2].v == 2.0, "per_point %u: sums point by point after "
	   "coarsening (%f %f %f)", a.per_point, a.pt[0].v, a.pt[1].v,
	   a.pt[2].v);
	series_release(&a);
	series_release(&b);
}

int main(void)
{
	test_fits();
	test_bounded();
	test_sum();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * Histogram geometry, percentiles against exact order statistics, the
 * lat buckets, the depth indexes, and merging: a merge of parts must equal
 * one pass over the whole.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "stats/results.h"
#include "stats/stats.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	/* xorshift64*: deterministic, good enough for test data */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static double unif(void)
{
	return ((double)(next_rand() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_geometry(void)
{
	unsigned int i, bad = 0, gaps = 0, mid = 0;

	for (i = 0; i < HIST_NR; i++) {
		uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
		uint64_t v = hist_bucket_val(i);

		if (hist_index(lo) != i || hist_index(hi) != i)
			bad++;
		if (i && hist_bucket_lo(i) != hist_bucket_hi(i - 1) + 1)
			gaps++;
		if (v < lo || v > hi)
			mid++;
	}
	ok(!bad, "every bucket's lo and hi map back to it (%u bad)", bad);
	ok(!gaps, "buckets are contiguous (%u gaps)", gaps);
	ok(!mid, "every bucket's value lies in its range (%u bad)", mid);
	ok(hist_bucket_hi(HIST_NR - 1) == (1ull << (HIST_GROUPS + HIST_BITS - 1)) - 1,
	   "top bucket ends at 2^34 - 1");

	for (i = 0, bad = 0; i < 100000; i++) {
		uint64_t v = next_rand() >> (next_rand() % 64);
		unsigned int idx = hist_index(v);

		if (idx < HIST_NR &&
		    (v < hist_bucket_lo(idx) || v > hist_bucket_hi(idx)))
			bad++;
		if (idx >= HIST_NR && v < (1ull << 34))
			bad++;
	}
	ok(!bad, "random values fall in the bucket they index (%u bad)", bad);
	ok(hist_index(127) == 127 && hist_index(128) == 128 &&
	   hist_index(129) == 128 && hist_index(130) == 129,
	   "exact below 128, two-wide buckets from 128");
}

/*
 * The reported percentile must be within one half bucket of the exact
 * order statistic of rank ceil(p/100 * n): relative error <= 1/128.
 */
static void check_dist(const char *what, uint64_t *v, unsigned int n)
{
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t out[32], *sorted = malloc(n * sizeof(*sorted));
	struct welford w = { 0 };
	unsigned int i, bad = 0, above = 0;
	double worst = 0.0;

	for (i = 0; i < n; i++) {
		hist_add(h, v[i]);
		welford_add(&w, v[i]);
	}
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	hist_percentiles(h, w.min, w.max, hist_default_pct,
			 hist_default_pct_nr, out);
	for (i = 0; i < hist_default_pct_nr; i++) {
		long double want = (long double)hist_default_pct[i] / 100.0L * n;
		unsigned long r = (unsigned long)ceill(want);
		double x = (double)sorted[r ? r - 1 : 0];
		double rel = fabs((double)out[i] - x) / (x ? x : 1.0);

		if (rel > worst)
			worst = rel;
		if (rel > 1.0 / 128 + 1e-12)
			bad++;
		if (out[i] > w.max)
			above++;
	}
	ok(!bad, "%s: percentiles within 1/128 of exact (worst %.5f)", what,
	   worst);
	ok(!above, "%s: no percentile above the max", what);
	ok(w.min == sorted[0] && w.max == sorted[n - 1],
	   "%s: welford min/max exact", what);
	free(sorted);
	free(h);
}

static void test_percentiles(void)
{
	const unsigned int n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t out[4];
	const double p100[] = { 50, 99.99, 100 };
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = 1000 + (uint64_t)(unif() * 999000.0);
	check_dist("uniform 1us-1ms", v, n);

	for (i = 0; i < n; i++)
		v[i] = (uint64_t)(-log(unif()) * 50000.0);
	check_dist("exponential mean 50us", v, n);

	for (i = 0; i < n; i++)
		v[i] = next_rand() % 100;
	check_dist("small values (exact buckets)", v, n);

	/* one value: every percentile is that value, never beyond it */
	hist_add(h, 1000003);
	hist_percentiles(h, 1000003, 1000003, p100, 3, out);
	ok(out[0] == 1000003 && out[1] == 1000003 && out[2] == 1000003,
	   "a single sample reports itself (%llu)",
	   (unsigned long long)out[0]);

	/* overflow: counted apart, reported as the max */
	memset(h, 0, sizeof(*h));
	hist_add(h, 10);
	hist_add(h, 1ull << 40);
	ok(h->overflow == 1 && h->bucket[10] == 1, "overflow counted apart");
	hist_percentiles(h, 10, 1ull << 40, p100, 3, out);
	ok(out[0] == 10 && out[2] == 1ull << 40,
	   "overflowed sample reported as max");

	/*
	 * The 100th is the max exactly, though the max's bucket midpoint
	 * lies below it; a rank inside the max's bucket never passes it.
	 */
	memset(h, 0, sizeof(*h));
	for (i = 0; i < 100; i++)
		hist_add(h, 1000);
	hist_add(h, 15942964);
	hist_percentiles(h, 1000, 15942964, p100, 3, out);
	ok(out[0] >= 1000 && out[0] < 1008 && out[2] == 15942964,
	   "100th percentile is the max (%llu)", (unsigned long long)out[2]);
	ok(hist_bucket_val(hist_index(15942964)) < 15942964,
	   "(the max's bucket value is below it)");

	/* a custom list, as percentile_list gives it (sorted) */
	{
		const double list[] = { 0.5, 10, 33.3, 66.6, 90, 99.5 };
		uint64_t got[6];
		unsigned int k, bad = 0;

		memset(h, 0, sizeof(*h));
		for (i = 1; i <= 1000; i++)
			hist_add(h, i * 1000ull);
		hist_percentiles(h, 1000, 1000000, list, 6, got);
		for (k = 0; k < 6; k++) {
			/* exact: the ceil(p/100 * n)-th smallest sample */
			double want = ceil(list[k] * 10.0) * 1000.0;

			if (fabs((double)got[k] - want) > want / 128.0 + 0.5)
				bad++;
		}
		ok(!bad, "custom list: each within 1/128 of exact");
	}

	memset(h, 0, sizeof(*h));
	hist_percentiles(h, 0, 0, p100, 3, out);
	ok(!out[0] && !out[2], "empty histogram gives zeros");
	free(h);
	free(v);
}

static void test_merge(void)
{
	const unsigned int n = 100000, parts = 7;
	struct welford whole = { 0 }, part[7], merged = { 0 };
	struct hist *hw = calloc(1, sizeof(*hw));
	struct hist *hp = calloc(parts, sizeof(*hp));
	struct hist *hm = calloc(1, sizeof(*hm));
	unsigned int i;

	memset(part, 0, sizeof(part));
	for (i = 0; i < n; i++) {
		uint64_t v = (uint64_t)(-log(unif()) * 20000.0) + i % 13;
		/* uneven parts, one left empty */
		unsigned int k = (unsigned int)(next_rand() % (parts - 1));

		welford_add(&whole, v);
		welford_add(&part[k], v);
		hist_add(hw, v);
		hist_add(&hp[k], v);
	}
	for (i = 0; i < parts; i++) {
		welford_merge(&merged, &part[i]);
		hist_merge(hm, &hp[i]);
	}
	ok(merged.n == whole.n && merged.min == whole.min &&
	   merged.max == whole.max, "welford merge: n, min, max exact");
	ok(fabs(merged.mean - whole.mean) <= 1e-9 * whole.mean,
	   "welford merge: mean %.6f vs %.6f", merged.mean, whole.mean);
	ok(fabs(merged.m2 - whole.m2) <= 1e-9 * whole.m2,
	   "welford merge: m2 matches one pass");
	ok(fabs(welford_stdev(&merged) - welford_stdev(&whole)) <=
	   1e-9 * welford_stdev(&whole), "welford merge: stdev matches");
	ok(!memcmp(hm, hw, sizeof(*hw)), "hist merge equals one pass");
	free(hw);
	free(hp);
	free(hm);
}

static void test_welford_sum(void)
{
	struct welford a = { 0 }, b = { 0 }, s = { 0 };
	const uint64_t va[] = { 102576, 102528, 102584, 102160, 102760 };
	const uint64_t vb[] = { 102496, 102388, 102592, 102472, 102448 };
	unsigned int i;

	for (i = 0; i < 5; i++) {
		welford_add(&a, va[i]);
		welford_add(&b, vb[i]);
	}
	welford_sum(&s, &a);
	welford_sum(&s, &b);
	/* fio printed min=204548, max=205352, avg=205000.80, stdev=155.22 */
	ok(s.n == 10 && s.min == 204548 && s.max == 205352,
	   "bw samples of side-by-side jobs add up (fio's group_reporting)");
	ok(fabs(s.mean - 205000.8) < 1e-6 &&
	   fabs(welford_stdev(&s) - 155.22) < 0.005,
	   "summed mean %.2f and stdev %.2f as fio", s.mean,
	   welford_stdev(&s));
}

/* Reference: bucket labels are the exclusive upper edges */
static unsigned int ref_lat(uint64_t v, unsigned int nr)
{
	static const uint64_t edge[] = {
		2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
	};
	unsigned int i;

	for (i = 0; i < nr - 1 && i < 11; i++)
		if (v < edge[i])
			return i;
	return nr - 1;
}

static int lat_where(uint64_t ns, unsigned int *unit, unsigned int *idx)
{
	struct worker_stats *s = malloc(sizeof(*s));
	unsigned int i, found = 0;

	worker_stats_init(s);
	stats_lat_bucket(s, ns);
	for (i = 0; i < LAT_NS_NR; i++)
		if (s->lat_ns[i]) {
			*unit = 0;
			*idx = i;
			found++;
		}
	for (i = 0; i < LAT_US_NR; i++)
		if (s->lat_us[i]) {
			*unit = 1;
			*idx = i;
			found++;
		}
	for (i = 0; i < LAT_MS_NR; i++)
		if (s->lat_ms[i]) {
			*unit = 2;
			*idx = i;
			found++;
		}
	free(s);
	return found == 1 ? 0 : -1;
}

static void test_lat_buckets(void)
{
	unsigned int bad = 0, unit, idx, i;
	uint64_t v;

	for (v = 0; v < 5000; v++) {
		/* the same value as ns, us and ms */
		const uint64_t mul[3] = { 1, 1000, 1000000 };

		for (i = 0; i < 3; i++) {
			uint64_t ns = v * mul[i];
			unsigned int want_unit = ns < 1000 ? 0 :
						 ns < 1000000 ? 1 : 2;
			uint64_t scaled = ns / mul[want_unit];
			unsigned int nr = want_unit == 2 ? LAT_MS_NR : LAT_NS_NR;

			if (lat_where(ns, &unit, &idx) || unit != want_unit ||
			    idx != ref_lat(scaled, nr))
				bad++;
		}
	}
	ok(!bad, "lat buckets match fio's edges for 0..5000 ns/us/ms (%u bad)",
	   bad);
	ok(!lat_where(1999, &unit, &idx) && unit == 1 && idx == 0,
	   "1999ns is '2=' usec");
	ok(!lat_where(2000000000ull, &unit, &idx) && unit == 2 && idx == 11,
	   "2s is '>=2000=' msec");
	ok(!lat_where(UINT64_MAX, &unit, &idx) && unit == 2 && idx == 11,
	   "huge values stay in '>=2000='");
}

static void test_depth_index(void)
{
	static const unsigned int d[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 }, { 7, 3 },
		{ 8, 4 }, { 16, 5 }, { 32, 6 }, { 63, 6 }, { 64, 7 }, { 1000, 7 },
	};
	static const unsigned int s[][2] = {
		{ 0, 0 }, { 1, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 }, { 9, 3 },
		{ 16, 3 }, { 17, 4 }, { 32, 4 }, { 33, 5 }, { 64, 5 }, { 65, 6 },
		{ 4096, 6 },
	};
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (depth_index(d[i][0]) != d[i][1])
			bad++;
	ok(!bad, "depth_index: 1 2 4 8 16 32 >=64 columns");
	for (i = 0, bad = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (submit_index(s[i][0]) != s[i][1])
			bad++;
	ok(!bad, "submit_index: 0 4 8 16 32 64 >=64 columns");
}

int main(void)
{
	diag("histograms, percentiles, merging");
	test_geometry();
	test_percentiles();
	test_merge();
	test_welford_sum();
	test_lat_buckets();
	test_depth_index();
	return done_testing();
}

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

/*
 * The I/O path's integer moments: the same population as Welford's
 * running update, with merges through welford_merge() exact, a batch of
 * k equal samples the same as k samples, and no cancellation when the
 * spread is tiny against the mean.
 */
static void test_moments(void)
{
	const unsigned int n = 100000, parts = 5;
	struct moments m, part[5], mk, m1;
	struct welford w = { 0 }, fw, merged = { 0 }, pw;
	long double sum = 0, mean, ss = 0;
	uint64_t *v = malloc(n * sizeof(*v));
	unsigned int i;

	memset(&m, 0, sizeof(m));
	m.min = UINT64_MAX;
	for (i = 0; i < parts; i++)
		part[i] = m;
	mk = m1 = m;
	for (i = 0; i < n; i++) {
		v[i] = (uint64_t)(-log(unif()) * 50000.0) + 1000;
		moments_add(&m, v[i]);
		moments_add(&part[i % parts], v[i]);
		welford_add(&w, v[i]);
		sum += v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	moments_welford(&fw, &m);
	ok(fw.n == w.n && fw.min == w.min && fw.max == w.max,
	   "moments: n, min, max as Welford's");
	ok(fabsl(fw.mean - mean) <= 1e-12L * mean &&
	   fabsl(fw.m2 - ss) <= 1e-12L * ss,
	   "moments: mean and M2 exact to 1e-12 (%.6f, %.6e)", fw.mean,
	   fw.m2);
	for (i = 0; i < parts; i++) {
		moments_welford(&pw, &part[i]);
		welford_merge(&merged, &pw);
	}
	ok(merged.n == n && fabs(merged.mean - fw.mean) <= 1e-9 * fw.mean &&
	   fabs(merged.m2 - fw.m2) <= 1e-9 * fw.m2,
	   "moments of parts, merged: the whole's mean and M2");
	/* a huge mean, a spread of one: sum^2/n would cancel in doubles */
	memset(&m, 0, sizeof(m));
	m.min = UINT64_MAX;
	for (i = 0; i < 1000; i++)
		moments_add(&m, (UINT64_C(1) << 40) + (i & 1));
	moments_welford(&fw, &m);
	ok(fabs(fw.m2 - 250.0) < 1e-9 && fw.mean == (double)(UINT64_C(1) << 40) + 0.5,
	   "moments: M2 of 2^40 + {0, 1} is 250 (%.9f)", fw.m2);
	for (i = 0; i < 8; i++) {
		moments_add_n(&mk, 12345 + i * 1000, i + 1);
		for (unsigned int k = 0; k <= i; k++)
			moments_add(&m1, 12345 + i * 1000);
	}
	ok(!memcmp(&mk, &m1, sizeof(mk)),
	   "moments_add_n(v, k) is k times moments_add(v)");
	memset(&m, 0, sizeof(m));
	m.min = UINT64_MAX;
	moments_add(&m, UINT64_MAX);
	moments_add(&m, UINT64_MAX);
	moments_welford(&fw, &m);
	ok(m.sum_hi == 1 && fw.mean == (double)UINT64_MAX && fw.m2 == 0,
	   "moments: the sum carries past 64 bits");
	free(v);
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
	uint64_t lat_ns[LAT_NS_NR] = { 0 }, lat_us[LAT_US_NR] = { 0 };
	uint64_t lat_ms[LAT_MS_NR] = { 0 };
	unsigned int i, found = 0;

	/* as the worker counts a clat, and as results derive the buckets */
	worker_stats_init(s);
	stats_clat_add(s, &s->dir[DDIR_WRITE], ns);
	stats_lat_buckets(s, lat_ns, lat_us, lat_ms);
	for (i = 0; i < LAT_NS_NR; i++)
		if (lat_ns[i]) {
			*unit = 0;
			*idx = i;
			found++;
		}
	for (i = 0; i < LAT_US_NR; i++)
		if (lat_us[i]) {
			*unit = 1;
			*idx = i;
			found++;
		}
	for (i = 0; i < LAT_MS_NR; i++)
		if (lat_ms[i]) {
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

/*
 * Lat buckets from the clat histograms: many samples on both sides of
 * every edge, in every direction, counted as fio counts them.
 */
static void test_lat_from_hist(void)
{
	static const uint64_t edge[] = {
		2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 4000, 10000,
		20000, 50000, 100000, 250000, 500000, 750000, 1000000,
		2000000, 4000000, 10000000, 20000000, 50000000, 100000000,
		250000000, 500000000, 750000000, 1000000000, 2000000000,
	};
	struct worker_stats *s = malloc(sizeof(*s));
	uint64_t got[LAT_NR] = { 0 }, want[LAT_NR] = { 0 };
	unsigned int i, k, bad = 0, straddle = 0;

	worker_stats_init(s);
	for (i = 0; i < 200000; i++) {
		/* near an edge, or anywhere up to 4 s */
		uint64_t v = i & 1 ?
			edge[next_rand() % 31] + next_rand() % 64 - 32 :
			next_rand() % 4000000000u;
		unsigned int want_k;

		if (v > (UINT64_C(1) << 63))
			v = 0;
		for (want_k = 0; want_k < 31 && v >= edge[want_k]; want_k++)
			;
		want[want_k]++;
		stats_clat_add(s, &s->dir[i % DDIR_RWDIR_CNT], v);
	}
	stats_lat_buckets(s, got, got + LAT_NS_NR,
			  got + LAT_NS_NR + LAT_US_NR);
	for (k = 0; k < LAT_NR; k++)
		bad += got[k] != want[k];
	for (k = 0; k < HIST_NR; k++)
		straddle += stats_lat_split_of[k] != 0;
	ok(!bad, "lat buckets from 3 directions' clat histograms: all %u exact",
	   LAT_NR);
	ok(straddle > 0 && straddle < 31,
	   "%u histogram buckets hold an edge (the others need no test)",
	   straddle);
	free(s);
}

/*
 * A reap batch's completions of one submit batch are added k at a time
 * (run/worker.c's done_run): the worker's statistics must come out the
 * same as one by one, lat buckets included (values near their edges).
 */
static void test_clat_add_n(void)
{
	static const uint64_t vals[] = {
		1, 3, 999, 1000, 1001, 3999, 4000, 123456, 750000, 999999,
		1000000, 2000000, 7777777, 1999999999, 2000000000,
		UINT64_C(1) << 40,
	};
	struct worker_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	unsigned int i, k;

	worker_stats_init(a);
	worker_stats_init(b);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		unsigned int n = 1 + i % 8;
		struct dir_stats *da = &a->dir[i % DDIR_RWDIR_CNT];
		struct dir_stats *db = &b->dir[i % DDIR_RWDIR_CNT];

		stats_clat_add_n(a, da, vals[i], n);
		for (k = 0; k < n; k++)
			stats_clat_add(b, db, vals[i]);
	}
	ok(!memcmp(a, b, sizeof(*a)),
	   "stats_clat_add_n(v, k) is k times stats_clat_add(v): the same stats");
	free(a);
	free(b);
}

/*
 * A job that ends during its ramp: the latencies go, the counts stay,
 * and the emptied figures take samples again as fresh ones do.
 */
static void test_drop_lat(void)
{
	struct worker_stats *s = malloc(sizeof(*s));
	uint64_t lat[LAT_NR] = { 0 };
	unsigned int k, left = 0;

	worker_stats_init(s);
	s->dir[DDIR_WRITE].ios = 3;
	s->dir[DDIR_WRITE].bytes = 12288;
	s->sync_ios = 1;
	stats_clat_add(s, &s->dir[DDIR_WRITE], 15000);
	moments_add(&s->dir[DDIR_WRITE].lat, 16000);
	hist_add(&s->dir[DDIR_WRITE].lat_hist, 16000);
	moments_add(&s->sync_lat, 900000);
	hist_add(&s->sync_hist, 900000);
	worker_stats_drop_lat(s);
	stats_lat_buckets(s, lat, lat + LAT_NS_NR, lat + LAT_NS_NR + LAT_US_NR);
	for (k = 0; k < LAT_NR; k++)
		left += lat[k] != 0;
	for (k = 0; k < HIST_NR; k++)
		left += s->dir[DDIR_WRITE].clat_hist.bucket[k] != 0 ||
			s->dir[DDIR_WRITE].lat_hist.bucket[k] != 0 ||
			s->sync_hist.bucket[k] != 0;
	ok(!s->dir[DDIR_WRITE].clat.n && !s->dir[DDIR_WRITE].lat.n &&
	   !s->sync_lat.n && !left,
	   "drop_lat: no latency, histogram or lat bucket is left");
	ok(s->dir[DDIR_WRITE].ios == 3 && s->dir[DDIR_WRITE].bytes == 12288 &&
	   s->sync_ios == 1, "drop_lat: the counts stay");
	stats_clat_add(s, &s->dir[DDIR_WRITE], 7000);
	ok(s->dir[DDIR_WRITE].clat.min == 7000 &&
	   s->dir[DDIR_WRITE].clat.max == 7000,
	   "drop_lat: the next sample is the minimum and the maximum");
	free(s);
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
	test_moments();
	test_lat_buckets();
	test_lat_from_hist();
	test_clat_add_n();
	test_drop_lat();
	test_depth_index();
	return done_testing();
}

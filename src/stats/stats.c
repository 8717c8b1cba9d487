/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stats/stats.h"

/*
 * Zeroing a job's statistics. Their histograms are most of them (13 of
 * about 15 KiB each), and a job fills few: writing zeroes over the
 * untouched pages of fresh (calloc'd) stats, or even reading them on
 * some kernels, would make every page resident for nothing. A histogram
 * is cleared only when its count says it holds something: every
 * hist_add() goes with a moments_add() to the count beside it.
 */
struct hist_slot {
	struct hist *h;
	bool used;
};

static void slot(struct hist_slot *hs, unsigned int *n, struct hist *h,
		 uint64_t count)
{
	unsigned int i = (*n)++;

	/* in address order, for the gaps between them */
	while (i && hs[i - 1].h > h) {
		hs[i] = hs[i - 1];
		i--;
	}
	hs[i].h = h;
	hs[i].used = count != 0;
}

void worker_stats_init(struct worker_stats *s)
{
	struct hist_slot hs[3 * DDIR_RWDIR_CNT + 1 + DDIR_RWDIR_CNT];
	char *p = (char *)s, *end = p + sizeof(*s);
	unsigned int d, i, n = 0;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct dir_stats *ds = &s->dir[d];

		slot(hs, &n, &ds->clat_hist, ds->clat.n);
		slot(hs, &n, &ds->lat_hist, ds->lat.n);
		slot(hs, &n, &ds->slat_hist, ds->slat.n);
		slot(hs, &n, &s->co_hist[d], s->co_lat[d].n);
	}
	slot(hs, &n, &s->sync_hist, s->sync_lat.n);
	for (i = 0; i < n; i++) {
		char *h = (char *)hs[i].h;

		memset(p, 0, (size_t)(h - p));
		if (hs[i].used)
			memset(h, 0, sizeof(struct hist));
		p = h + sizeof(struct hist);
	}
	memset(p, 0, (size_t)(end - p));
	/* min "unset": the first sample always replaces it */
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		s->dir[d].slat.min = UINT64_MAX;
		s->dir[d].clat.min = UINT64_MAX;
		s->dir[d].lat.min = UINT64_MAX;
		s->co_lat[d].min = UINT64_MAX;
	}
	s->sync_lat.min = UINT64_MAX;
}

void hist_add_range(struct hist *dst, const struct hist *src, uint64_t min,
		    uint64_t max)
{
	unsigned int i = hist_index(min), last = hist_index(max);

	if (last >= HIST_NR) {
		last = HIST_NR - 1;
		dst->overflow += src->overflow;
	}
	for (; i <= last; i++)
		if (src->bucket[i])
			dst->bucket[i] += src->bucket[i];
}

void stats_runtime_add(struct worker_stats *s, unsigned int dirs,
		       bool verify_phase, uint64_t ns)
{
	unsigned int d;

	if (verify_phase) {
		s->dir[DDIR_READ].runtime_us += ns / 1000;
		return;
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if ((dirs & (1u << d)) && s->dir[d].bytes)
			s->dir[d].runtime_us += ns / 1000;
}

void worker_stats_reset(struct worker_stats *s)
{
	struct prio_stats *ps = s->prio;

	worker_stats_init(s);
	s->prio = ps;
	prio_stats_reset(ps);
}

static void lat_clear(struct moments *m, struct hist *h)
{
	if (m->n)
		memset(h, 0, sizeof(*h));
	memset(m, 0, sizeof(*m));
	m->min = UINT64_MAX;
}

void worker_stats_drop_lat(struct worker_stats *s)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct dir_stats *ds = &s->dir[d];

		lat_clear(&ds->slat, &ds->slat_hist);
		lat_clear(&ds->clat, &ds->clat_hist);
		lat_clear(&ds->lat, &ds->lat_hist);
		lat_clear(&s->co_lat[d], &s->co_hist[d]);
	}
	lat_clear(&s->sync_lat, &s->sync_hist);
	memset(s->lat_split, 0, sizeof(s->lat_split));
	prio_stats_reset(s->prio);
}

void worker_stats_release(struct worker_stats *s)
{
	prio_stats_free(s->prio);
	s->prio = NULL;
}

void moments_welford(struct welford *dst, const struct moments *m)
{
	unsigned __int128 sum, q, rem, t;
	double m2;

	memset(dst, 0, sizeof(*dst));
	dst->n = m->n;
	dst->min = m->min;
	dst->max = m->max;
	if (!m->n)
		return;
	/*
	 * With sum = q n + rem (0 <= rem < n), the sum of squared deviations
	 * is sumsq - sum^2 / n = (sumsq - q^2 n - 2 q rem) - rem^2 / n. The
	 * first part is an exact integer (it cannot go below zero, and it
	 * fits whenever sumsq does), the second is less than n: no large
	 * number is subtracted from another in floating point.
	 */
	sum = ((unsigned __int128)m->sum_hi << 64) | m->sum;
	q = sum / m->n;
	rem = sum - q * m->n;
	t = m->sumsq - q * q * m->n - 2 * q * rem;
	m2 = (double)t - (double)rem * (double)rem / (double)m->n;
	dst->mean = (double)q + (double)rem / (double)m->n;
	dst->m2 = m2 > 0 ? m2 : 0;
}

/*
 * fio's lat buckets are labelled by their exclusive upper edge: "2=" holds
 * 0-1, "4=" 2-3, "10=" 4-9, "20=" 10-19, "50=" 20-49, "100=" 50-99,
 * "250=" 100-249, "500=" 250-499, "750=" 500-749, "1000=" 750-999, and in
 * milliseconds also "2000=" 1000-1999 and ">=2000=". A value's bit length
 * picks a row; within a row at most two edges remain, so the bucket is
 * the row's first index plus two comparisons. 0xffff is "no edge".
 */
struct lat_row {
	uint8_t first;
	uint16_t edge1, edge2;
};

static const struct lat_row lat_rows[13] = {
	[0] = { 0, 0xffff, 0xffff },	/* 0 */
	[1] = { 0, 0xffff, 0xffff },	/* 1 */
	[2] = { 1, 0xffff, 0xffff },	/* 2-3 */
	[3] = { 2, 0xffff, 0xffff },	/* 4-7 */
	[4] = { 2, 10, 0xffff },	/* 8-15 */
	[5] = { 3, 20, 0xffff },	/* 16-31 */
	[6] = { 4, 50, 0xffff },	/* 32-63 */
	[7] = { 5, 100, 0xffff },	/* 64-127 */
	[8] = { 6, 250, 0xffff },	/* 128-255 */
	[9] = { 7, 500, 0xffff },	/* 256-511 */
	[10] = { 8, 750, 1000 },	/* 512-1023 */
	[11] = { 10, 2000, 0xffff },	/* 1024-2047 */
	[12] = { 11, 0xffff, 0xffff },	/* 2048-4095 */
};

static inline unsigned int lat_index(uint64_t v)
{
	unsigned int bits;
	const struct lat_row *r;

	bits = v ? 64u - (unsigned int)__builtin_clzll(v) : 0;
	if (bits > 12)
		return LAT_MS_NR - 1;
	r = &lat_rows[bits];
	return r->first + (v >= r->edge1) + (v >= r->edge2);
}

/* The lat bucket of ns over the three rows: ns 0-9, us 10-19, ms 20-31. */
static unsigned int lat_flat(uint64_t ns)
{
	if (ns < 1000)
		return lat_index(ns);
	if (ns < 1000000)
		return LAT_NS_NR + lat_index(ns / 1000);
	return LAT_NS_NR + LAT_US_NR + lat_index(ns / 1000000);
}

/* Exclusive upper edge (ns) of lat bucket k, k < LAT_NR - 1. */
static const uint64_t lat_edge[LAT_NR - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
	1000000,
	2000000, 4000000, 10000000, 20000000, 50000000, 100000000,
	250000000, 500000000, 750000000, 1000000000, 2000000000,
};

uint8_t stats_lat_split_of[HIST_NR];
static uint8_t hist_lat_flat[HIST_NR];	/* lat bucket of a bucket's start */

/* Smallest value of histogram bucket b (hist_index()'s inverse). */
static uint64_t hist_lower(unsigned int b)
{
	unsigned int shift;

	if (b < 2 * HIST_VAL)
		return b;
	shift = (b >> HIST_BITS) - 1;
	return (uint64_t)(HIST_VAL + (b & (HIST_VAL - 1))) << shift;
}

/*
 * The tables are the same for every run: built before main(), so that
 * workers only read them. A bucket is at most 1/64 of its power of two
 * wide and the lat edges are at least 4/3 apart, so no bucket holds two.
 */
static void __attribute__((constructor)) lat_tables_init(void)
{
	unsigned int b, k;

	for (b = 0; b < HIST_NR; b++) {
		uint64_t lo = hist_lower(b), hi;

		hi = b < 2 * HIST_VAL ? lo :
		     lo + (1ull << ((b >> HIST_BITS) - 1)) - 1;
		k = lat_flat(lo);
		hist_lat_flat[b] = (uint8_t)k;
		if (lat_flat(hi) != k)
			stats_lat_split_of[b] = (uint8_t)(k + 1);
	}
}

void stats_lat_split(struct worker_stats *s, unsigned int idx, uint64_t v)
{
	unsigned int k = stats_lat_split_of[idx] - 1u;

	if (v >= lat_edge[k])
		s->lat_split[k]++;
}

void stats_lat_buckets(const struct worker_stats *s, uint64_t *ns,
		       uint64_t *us, uint64_t *ms)
{
	uint64_t flat[LAT_NR] = { 0 };
	unsigned int d, b, k;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct hist *h = &s->dir[d].clat_hist;

		for (b = 0; b < HIST_NR; b++)
			flat[hist_lat_flat[b]] += h->bucket[b];
		flat[LAT_NR - 1] += h->overflow;	/* beyond 17 s */
	}
	/* a straddling bucket's samples at or above its edge move up one */
	for (k = 0; k < LAT_NR - 1; k++) {
		flat[k] -= s->lat_split[k];
		flat[k + 1] += s->lat_split[k];
	}
	for (k = 0; k < LAT_NS_NR; k++)
		ns[k] += flat[k];
	for (k = 0; k < LAT_US_NR; k++)
		us[k] += flat[LAT_NS_NR + k];
	for (k = 0; k < LAT_MS_NR; k++)
		ms[k] += flat[LAT_NS_NR + LAT_US_NR + k];
}

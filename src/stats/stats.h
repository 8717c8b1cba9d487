/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_STATS_H
#define IOLITE_STATS_STATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "opt/options.h"

/*
 * Per-worker statistics, written only by the worker thread on the I/O path
 * (a few integer operations per I/O, design.md rule 5), merged after join.
 * The live counters are the only fields another thread reads while the
 * run goes on (the sampler / status thread), with relaxed atomics.
 */

/*
 * Latency histogram with fio's geometry, so json+ bins line up with fio's:
 * values below 128 ns have a bucket each; above, every power-of-two range
 * [2^k, 2^(k+1)) is split into 64 equal buckets. 29 groups of 64 buckets
 * cover up to 2^34 ns (~17 s). A value in bucket i is known to within one
 * bucket width, which is 1/64 of its power of two: the relative error of a
 * value reported as its bucket's midpoint is at most 1/128 (0.78%).
 * Values beyond the top bucket are counted in 'overflow', not folded in.
 */
#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t bucket[HIST_NR];
	uint64_t overflow;	/* samples beyond the top bucket's range */
};

static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb, shift, idx;

	if (v < 2 * HIST_VAL)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - HIST_BITS;
	idx = ((shift + 1) << HIST_BITS) + (unsigned int)((v >> shift) & (HIST_VAL - 1));
	return idx;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	unsigned int idx = hist_index(v);

	if (__builtin_expect(idx >= HIST_NR, 0))
		h->overflow++;
	else
		h->bucket[idx]++;
}

/* Running mean and variance (Welford), with min and max. */
struct welford {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2;
};

static inline void welford_add(struct welford *w, uint64_t v)
{
	double d;

	w->n++;
	if (v < w->min || w->n == 1)
		w->min = v;
	if (v > w->max)
		w->max = v;
	d = (double)v - w->mean;
	w->mean += d / (double)w->n;
	w->m2 += d * ((double)v - w->mean);
}

/* fio's lat buckets: 2us .. >=2s in the us/ms ranges, plus ns ones */
#define LAT_NS_NR 10	/* 2 4 10 20 50 100 250 500 750 1000 ns */
#define LAT_US_NR 10	/* same, microseconds */
#define LAT_MS_NR 12	/* 2 4 10 20 50 100 250 500 750 1000 2000 >=2000 ms */

/* io depth / submit / complete distributions: 0 1 2 4 8 16 32 >=64 */
#define DEPTH_NR 8

struct dir_stats {
	uint64_t ios;		/* completed I/Os */
	uint64_t bytes;		/* completed bytes */
	uint64_t short_ios;
	uint64_t drop_ios;
	struct welford slat, clat, lat;
	struct hist clat_hist;
	struct hist lat_hist;
	struct hist slat_hist;
	uint64_t runtime_us;	/* time this direction was active */
};

struct worker_stats {
	struct dir_stats dir[DDIR_RWDIR_CNT];
	struct welford sync_lat;	/* fsync/fdatasync latency */
	struct hist sync_hist;
	uint64_t sync_ios;

	uint64_t issued[DDIR_RWDIR_CNT + 1];	/* r, w, t, sync issued */
	uint64_t issued_short[DDIR_RWDIR_CNT + 1];
	uint64_t issued_drop[DDIR_RWDIR_CNT + 1];

	uint64_t lat_ns[LAT_NS_NR];
	uint64_t lat_us[LAT_US_NR];
	uint64_t lat_ms[LAT_MS_NR];

	/* per issued I/O: depth_index(I/Os in flight including it) */
	uint64_t depth[DEPTH_NR];
	/* per submit / reap call: submit_index(I/Os in the call) */
	uint64_t submit[DEPTH_NR];
	uint64_t complete[DEPTH_NR];
	uint64_t submit_calls;
	uint64_t complete_calls;

	int error;		/* first error (errno), 0 if none */
	uint64_t total_err;	/* errors met, continued past or not */

	/* read by the sampler thread while the run goes on */
	_Atomic uint64_t live_bytes[DDIR_RWDIR_CNT];
	_Atomic uint64_t live_ios[DDIR_RWDIR_CNT];
};

/* Zeroes the stats (min fields start unset). */
void worker_stats_init(struct worker_stats *s);

/* Index into the depth / submit / complete distributions for n. */
static inline unsigned int depth_index(unsigned int n)
{
	if (n == 0)
		return 0;
	if (n >= 64)
		return 7;
	return 1 + (31u - (unsigned int)__builtin_clz(n));
}

/*
 * Index into the submit / complete distributions for n I/Os per call,
 * fio's columns: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 (slot 7 unused).
 */
static inline unsigned int submit_index(unsigned int n)
{
	if (n == 0)
		return 0;
	if (n > 64)
		return 6;
	return 1 + (n <= 4 ? 0 : 30u - (unsigned int)__builtin_clz(n - 1));
}

/* Records fio's lat buckets (2us .. >=2s) for one completion latency. */
void stats_lat_bucket(struct worker_stats *s, uint64_t ns);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_STATS_H
#define IOLITE_STATS_STATS_H

#include <stdatomic.h>
#include <stdbool.h>
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

/*
 * Without a branch: for v >= 128, v >> shift is 64 + the position within
 * the group, so the group's base (shift + 1) * 64 needs no mask; below
 * 128 the shift is 0 and the index is v itself.
 */
static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb = 63u - (unsigned int)__builtin_clzll(v | 1);
	unsigned int shift = msb > HIST_BITS ? msb - HIST_BITS : 0;

	return (shift << HIST_BITS) + (unsigned int)(v >> shift);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	unsigned int idx = hist_index(v);

	if (__builtin_expect(idx >= HIST_NR, 0))
		h->overflow++;
	else
		h->bucket[idx]++;
}

/* k samples of the same value v. */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t k)
{
	unsigned int idx = hist_index(v);

	if (__builtin_expect(idx >= HIST_NR, 0))
		h->overflow += k;
	else
		h->bucket[idx] += k;
}

/*
 * Adds src's counts to dst, reading src only between the buckets of min
 * and max, the range of its samples (n > 0): src holds nothing outside
 * it, and reading a histogram's untouched pages would make them resident
 * on some kernels. dst is written only where src has counts.
 */
void hist_add_range(struct hist *dst, const struct hist *src, uint64_t min,
		    uint64_t max);

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

/*
 * What the I/O path keeps for a latency: count, min, max and the exact
 * integer sums of the values and of their squares. No division and no
 * floating point per sample (Welford's update costs a division and two
 * integer-to-double conversions); moments_welford() makes the mean and M2
 * once, when results are built. 128-bit sums do not overflow in practice:
 * the sum of squares holds 10^15 samples of 5 minutes each.
 */
struct moments {
	uint64_t n;
	uint64_t min;		/* UINT64_MAX while n == 0 */
	uint64_t max;
	uint64_t sum, sum_hi;	/* 128 bits: (sum_hi << 64) + sum */
	unsigned __int128 sumsq;
};

static inline void moments_add(struct moments *m, uint64_t v)
{
	uint64_t mn = m->min, mx = m->max;

	/* no branch: one block, so the compiler keeps m in a register */
	m->n++;
	m->min = v < mn ? v : mn;
	m->max = v > mx ? v : mx;
	/* a carry by hand: gcc goes through the stack for u128 += u64 */
	m->sum += v;
	m->sum_hi += m->sum < v;
	m->sumsq += (unsigned __int128)v * v;
}

/* k samples of the same value v (a submit batch's slat), k >= 1. */
static inline void moments_add_n(struct moments *m, uint64_t v, uint64_t k)
{
	unsigned __int128 vk = (unsigned __int128)v * k;

	m->n += k;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->sumsq += vk * v;
	vk += m->sum;
	m->sum = (uint64_t)vk;
	m->sum_hi += (uint64_t)(vk >> 64);
}

/*
 * The same population as a struct welford (n, min, max, mean, M2), as
 * the results model and the reports use it. M2 is computed from the
 * integer sums without cancellation (see stats.c).
 */
void moments_welford(struct welford *dst, const struct moments *m);

/*
 * fio's lat buckets: 2us .. >=2s in the us/ms ranges, plus ns ones. They
 * are not counted per I/O: stats_lat_buckets() derives them from the
 * clat histograms (fio counts them from clat too, and not at all when
 * clat is off). A histogram bucket that straddles a lat-bucket edge
 * (750 ns, 10 us, ...) cannot say on which side its samples were, so
 * stats_clat_add() counts the samples at or above the edge of such a
 * bucket in lat_split[]: one byte test per I/O.
 */
#define LAT_NS_NR 10	/* 2 4 10 20 50 100 250 500 750 1000 ns */
#define LAT_US_NR 10	/* same, microseconds */
#define LAT_MS_NR 12	/* 2 4 10 20 50 100 250 500 750 1000 2000 >=2000 ms */
#define LAT_NR (LAT_NS_NR + LAT_US_NR + LAT_MS_NR)

/*
 * Per histogram bucket: 0, or 1 + k when the bucket holds the edge
 * between lat buckets k and k + 1 (k counts over ns, us, ms). Set up
 * before main() runs; read-only afterwards.
 */
extern uint8_t stats_lat_split_of[HIST_NR];

/* io depth / submit / complete distributions: 0 1 2 4 8 16 32 >=64 */
#define DEPTH_NR 8

struct dir_stats {
	uint64_t ios;		/* completed I/Os */
	uint64_t bytes;		/* completed bytes */
	uint64_t short_ios;
	uint64_t drop_ios;
	struct moments slat, clat, lat;	/* ns */
	uint64_t runtime_us;	/* time this direction was active */
	/* last: a job's unused ones stay untouched (worker_stats_init) */
	struct hist clat_hist;
	struct hist lat_hist;
	struct hist slat_hist;
};

/*
 * Per-priority latency of a job with per-I/O priorities (cmdprio): per
 * direction (read, write) one entry for each distinct priority value
 * the plan can give (opt/prio_opts.h, prio_dir.vals: index 0 is the
 * job's own), each with the moments and histogram of its I/Os'
 * completion latency, or total latency with lat_percentiles (fio's
 * rule). Counted in the worker's out-of-line completion, so a job
 * without priorities pays nothing.
 */
struct prio_stat {
	uint16_t ioprio;
	struct moments lat;
	struct hist hist;
};

struct prio_stats {
	bool total;			/* lat (start to completion), not clat */
	struct prio_stat *dir[2];	/* NULL: the direction has none */
	unsigned int nr[2];
};

static inline void prio_stats_add(struct prio_stats *ps, unsigned int d,
				  unsigned int idx, uint64_t v)
{
	struct prio_stat *s;

	if (d >= 2 || !ps->dir[d])
		return;
	s = &ps->dir[d][idx];
	moments_add(&s->lat, v);
	hist_add(&s->hist, v);
}

/*
 * The slot of issued[] (and issued_short[], issued_drop[]) an I/O of
 * direction d counts in: fsync, fdatasync and sync_file_range share the
 * last one, fio's "issued rwts". A replayed log's datasync is an I/O
 * like any other in the worker's loops: indexing by d would go past it.
 */
static inline unsigned int issued_slot(unsigned int d)
{
	return d < DDIR_RWDIR_CNT ? d : DDIR_RWDIR_CNT;
}

/*
 * The small fields first, the histograms last (in the directions' and
 * at the end): a job touches a few pages of its ~190 KiB of statistics
 * (worker_stats_init()).
 */
struct worker_stats {
	struct moments sync_lat;	/* fsync/fdatasync latency */
	uint64_t sync_ios;

	uint64_t issued[DDIR_RWDIR_CNT + 1];	/* r, w, t, sync issued */
	uint64_t issued_short[DDIR_RWDIR_CNT + 1];
	uint64_t issued_drop[DDIR_RWDIR_CNT + 1];

	/* clat samples at or above the edge inside a straddling bucket */
	uint64_t lat_split[LAT_NR];

	/* per issued I/O: depth_index(I/Os in flight including it) */
	uint64_t depth[DEPTH_NR];
	/* per submit / reap call: submit_index(I/Os in the call) */
	uint64_t submit[DEPTH_NR];
	uint64_t complete[DEPTH_NR];
	uint64_t submit_calls;
	uint64_t complete_calls;

	int error;		/* the error that stopped the job, 0 if none */
	/* with continue_on_error, the errors of the classes it covers,
	 * continued past or not, and the first of them (fault.h) */
	uint64_t total_err;
	int first_error;

	/* read by the sampler thread while the run goes on */
	_Atomic uint64_t live_bytes[DDIR_RWDIR_CNT];
	_Atomic uint64_t live_ios[DDIR_RWDIR_CNT];
	/* clat count and sum (ns, mod 2^64): steady state on latency, and
	 * the latency over time of the pictures */
	_Atomic uint64_t live_clat_n[DDIR_RWDIR_CNT];
	_Atomic uint64_t live_clat_sum[DDIR_RWDIR_CNT];

	/*
	 * Rated jobs (run/pace.c): latency from each I/O's intended issue
	 * time, its place in the rate schedule (coordinated omission); n 0
	 * for directions without a rate
	 */
	struct moments co_lat[DDIR_RWDIR_CNT];

	struct dir_stats dir[DDIR_RWDIR_CNT];
	struct hist sync_hist;
	struct hist co_hist[DDIR_RWDIR_CNT];

	/*
	 * Per-I/O priorities: the latency of each priority, or NULL; made
	 * by the worker (prio_stats_new()), freed by worker_stats_release().
	 * A snapshot (a report while the run goes on) shares it with the
	 * worker, which may be a batch ahead in it.
	 */
	struct prio_stats *prio;
};

/* Zeroes the stats (min fields start unset). */
void worker_stats_init(struct worker_stats *s);
/* Zeroes them again, the per-priority figures too (ramp_time's end). */
void worker_stats_reset(struct worker_stats *s);
/*
 * Forgets the latencies (slat, clat, lat, co_lat, sync, per priority)
 * and keeps the counts: a job that ended during its ramp_time, whose
 * I/O fio counts but whose latencies it never records.
 */
void worker_stats_drop_lat(struct worker_stats *s);
/* Frees what the stats own (the per-priority figures). */
void worker_stats_release(struct worker_stats *s);

/*
 * The per-priority figures of a plan with per-I/O priorities (NULL
 * without): an entry for each value of each direction that has them.
 */
struct job_plan;
struct prio_stats *prio_stats_new(const struct job_plan *p);
void prio_stats_reset(struct prio_stats *ps);	/* NULL: nothing */
void prio_stats_free(struct prio_stats *ps);

/*
 * Per-direction runtime, fio's rule: the time of an I/O phase (a pass, or
 * the run until it stopped) counts for each direction in dirs (bit per
 * enum ddir: the job's rw mode, without the writes of verify_only) that
 * has moved bytes so far; the time of a verify read-back phase counts for
 * reads whatever they moved (verify_phase). ns: the phase's length.
 * Called at phase ends, never per I/O.
 */
void stats_runtime_add(struct worker_stats *s, unsigned int dirs,
		       bool verify_phase, uint64_t ns);

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

/* Out of line: a clat sample in a bucket that straddles a lat edge. */
void stats_lat_split(struct worker_stats *s, unsigned int idx, uint64_t v);

/*
 * One completion latency (ns) of a read, write or trim: moments,
 * histogram and, rarely, the lat-bucket split.
 */
static inline void stats_clat_add(struct worker_stats *s, struct dir_stats *ds,
				  uint64_t v)
{
	unsigned int idx = hist_index(v);

	moments_add(&ds->clat, v);
	if (__builtin_expect(idx < HIST_NR, 1)) {
		ds->clat_hist.bucket[idx]++;
		if (__builtin_expect(stats_lat_split_of[idx] != 0, 0))
			stats_lat_split(s, idx, v);
	} else {
		ds->clat_hist.overflow++;
	}
}

/* k completions with the same clat v (a reap batch of one submit batch). */
static inline void stats_clat_add_n(struct worker_stats *s,
				    struct dir_stats *ds, uint64_t v,
				    uint64_t k)
{
	unsigned int idx = hist_index(v);

	moments_add_n(&ds->clat, v, k);
	if (__builtin_expect(idx < HIST_NR, 1)) {
		ds->clat_hist.bucket[idx] += k;
		if (__builtin_expect(stats_lat_split_of[idx] != 0, 0))
			while (k--)
				stats_lat_split(s, idx, v);
	} else {
		ds->clat_hist.overflow += k;
	}
}

/*
 * Adds the worker's lat buckets (fio's "lat (nsec/usec/msec)" lines),
 * derived from its clat histograms, to ns[], us[] and ms[].
 */
void stats_lat_buckets(const struct worker_stats *s, uint64_t *ns,
		       uint64_t *us, uint64_t *ms);

#endif

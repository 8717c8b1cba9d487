/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_SERIES_H
#define IOLITE_STATS_SERIES_H

#include <stdint.h>

/*
 * A bounded time series: one job's bandwidth or IOPS samples for one
 * direction over the run, as the sampler thread takes them (every
 * bwavgtime / iopsavgtime), kept for the pictures (report/html.c). The
 * Welford summaries give the figures; this gives the curve.
 *
 * At most SERIES_MAX points, whatever the run's length: when the array
 * is full, neighbours are merged in pairs (the mean of their samples,
 * the lowest and highest kept) and from then on each point covers twice
 * as many samples. A point's time is the end of the last interval it
 * covers, in ms from the start of the job's counted part.
 *
 * Never touched on the I/O path: the sampler adds, results_build copies
 * and sums (group_reporting), run_result_release frees. A zeroed struct
 * is an empty series.
 */
#define SERIES_MAX 1024

struct series_point {
	uint64_t t_ms;		/* end of the last interval it covers */
	double v;		/* mean of its samples */
	double lo, hi;		/* the lowest and highest of them */
	unsigned int n;		/* samples in it: at most per_point */
	/*
	 * The IOPS series only: the mean completion latency (ns) of the
	 * I/Os it counts, weighted by them as points merge; 0: none
	 */
	double lat;
};

struct series {
	struct series_point *pt;	/* owned; NULL while empty */
	unsigned int nr, alloc;
	unsigned int per_point;	/* samples a full point holds (0: 1) */
};

/* One sample v, over the interval that ends at t_ms. */
void series_add(struct series *s, uint64_t t_ms, double v);
/* The same, an IOPS sample with its I/Os' mean latency lat (ns). */
void series_add_lat(struct series *s, uint64_t t_ms, double v, double lat);

/* dst = a copy of src (dst's own points are not freed: zeroed or empty). */
void series_copy(struct series *dst, const struct series *src);

/*
 * group_reporting: jobs side by side add up, point by point (the first
 * point with the first, ...), after the finer series is coarsened to the
 * other's per_point; a point only one has is kept as it is.
 */
void series_sum(struct series *dst, const struct series *src);

/* Empties s (latency_target restarts the samples). */
void series_reset(struct series *s);
void series_release(struct series *s);

#endif

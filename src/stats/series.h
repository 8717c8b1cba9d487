/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_SERIES_H
#define IOLITE_STATS_SERIES_H

#include <stdint.h>

/*
 * A rate series: the bandwidth or IOPS samples of one job and direction
 * in the order they were taken, for the JSON report (and through it
 * `iolite compare`, whose batch means need the series, not only its
 * mean and spread). Bounded: at most SERIES_MAX points; when full,
 * neighbours pair up (their mean) and a point covers twice the time, so
 * a run of any length keeps between SERIES_MAX/2 and SERIES_MAX points.
 * Filled by the sampler thread, never on the I/O path. Plain data: no
 * pointers, copied by value.
 */
#define SERIES_MAX 512

struct series {
	uint32_t nr;
	uint32_t period_ms;	/* time one point covers; 0 while empty */
	uint32_t stride;	/* samples per point (0 while empty) */
	uint32_t pend_n;	/* samples waiting to make the next point; a */
	uint64_t pend_sum;	/* run's last partial point is left out */
	uint64_t v[SERIES_MAX];
};

/* Appends one sample taken over period_ms (the sampling period). */
void series_add(struct series *s, uint64_t v, uint32_t period_ms);

/*
 * Adds src to dst point by point, for jobs that ran side by side
 * (group_reporting sums their rates, as fio's sample merge does); the
 * finer series is coarsened to the other's period first, and a point
 * one series lacks counts as zero (that member was not running).
 */
void series_sum(struct series *dst, const struct series *src);

#endif

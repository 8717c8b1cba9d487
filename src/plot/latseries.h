/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_LATSERIES_H
#define IOLITE_PLOT_LATSERIES_H

#include <stdint.h>

#include "plot/chart.h"
#include "stats/stats.h"

/*
 * Latency series from a histogram of fio's geometry (stats/stats.h),
 * shared by the HTML report (a run's own histograms) and `iolite plot`
 * (json+ "bins", fio's or iolite's, put back into their buckets), so
 * that both draw the same curve from the same counts.
 */

/*
 * The quantile function: each non-empty bucket's value (its midpoint,
 * within min and max, as fio reports it) from the share of samples
 * below it, flat to the next; the last runs to 100%.
 */
void lat_quantile_series(struct chart_series *s, const struct hist *h,
			 double min, double max);

/* Share of the samples (%) in each twentieth of a decade. */
void lat_hist_series(struct chart_series *s, const struct hist *h);

/* The percentile axis's end: the one-in-n sample (99% to 99.99999%). */
double lat_pct_axis_max(uint64_t n);

/* A sample count of h (the overflow too). */
uint64_t lat_hist_total(const struct hist *h);

#endif

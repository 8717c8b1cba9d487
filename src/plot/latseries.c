/* SPDX-License-Identifier: MIT */
/* Latency series from histograms: see latseries.h. */
#include "plot/latseries.h"

#include <math.h>
#include <stdlib.h>

#include "stats/results.h"
#include "util/log.h"

/* histogram bins a decade (latency histogram) */
#define BINS_PER_DECADE 20

uint64_t lat_hist_total(const struct hist *h)
{
	uint64_t n = h->overflow;
	unsigned int i;

	for (i = 0; i < HIST_NR; i++)
		n += h->bucket[i];
	return n;
}

void lat_quantile_series(struct chart_series *s, const struct hist *h,
			 double min, double max)
{
	uint64_t total = lat_hist_total(h), cum = 0;
	double last = 0;
	unsigned int i;

	for (i = 0; i < HIST_NR && total; i++) {
		double v = (double)hist_bucket_val(i);

		if (!h->bucket[i])
			continue;
		v = fmax(fmin(v, max), min);
		chart_point(s, (double)cum * 100.0 / (double)total, v);
		cum += h->bucket[i];
		last = v;
	}
	if (h->overflow) {
		chart_point(s, (double)cum * 100.0 / (double)total, max);
		last = max;
	}
	if (total)
		chart_point(s, 100.0, last);
}

double lat_pct_axis_max(uint64_t n)
{
	int t = (int)ceil(log10((double)(n ? n : 1)) - 1e-9);

	t = t < 2 ? 2 : t > 7 ? 7 : t;
	return 100.0 - 100.0 * pow(10, -t);
}

static double bin_edge(int b)
{
	return pow(10, (double)b / BINS_PER_DECADE);
}

static int bin_of(double v)
{
	return (int)floor(log10(v) * BINS_PER_DECADE + 1e-9);
}

/* Bucket [lo, hi] (ns, integers) spread over the bins it overlaps. */
static void spread(double *bins, int b0, uint64_t lo, uint64_t hi, double n)
{
	double a = lo ? (double)lo : 0.5, z = (double)hi + 1;
	int b;

	for (b = bin_of(a); b <= bin_of(z - 1e-9); b++) {
		double e0 = fmax(bin_edge(b), a), e1 = fmin(bin_edge(b + 1), z);

		if (e1 > e0)
			bins[b - b0] += n * (e1 - e0) / (z - a);
	}
}

void lat_hist_series(struct chart_series *s, const struct hist *h)
{
	uint64_t total = lat_hist_total(h);
	int first = -1, last = -1, b0, b1, b;
	unsigned int i;
	double *bins;

	for (i = 0; i < HIST_NR; i++) {
		if (!h->bucket[i])
			continue;
		if (first < 0)
			first = (int)i;
		last = (int)i;
	}
	if (first < 0 || !total)
		return;
	b0 = bin_of(hist_bucket_lo((unsigned int)first) ?
		    (double)hist_bucket_lo((unsigned int)first) : 0.5);
	b1 = bin_of((double)hist_bucket_hi((unsigned int)last) + 1 - 1e-9);
	bins = xcalloc((size_t)(b1 - b0 + 1), sizeof(*bins));
	for (i = (unsigned int)first; i <= (unsigned int)last; i++)
		if (h->bucket[i])
			spread(bins, b0, hist_bucket_lo(i), hist_bucket_hi(i),
			       (double)h->bucket[i]);
	bins[b1 - b0] += (double)h->overflow;
	chart_point(s, bin_edge(b0), 0);
	for (b = b0; b <= b1; b++)
		chart_point(s, bin_edge(b), bins[b - b0] * 100.0 / (double)total);
	chart_point(s, bin_edge(b1 + 1), 0);
	free(bins);
}

/* SPDX-License-Identifier: MIT */
/*
 * SNIA PTS's steady-state rule (pts/steady.h): a window of five rounds,
 * its range and its least-squares line against the window's average.
 * Pure arithmetic, so that the unit tests (t/unit/pts_steady.c) check it
 * on hand-made series.
 */
#include "pts/steady.h"

#include <math.h>

int pts_ss_judge(const double *y, unsigned int n, struct pts_ss *ss)
{
	const double *w;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, den;
	unsigned int k;

	if (n < PTS_SS_WINDOW)
		return -1;
	w = y + n - PTS_SS_WINDOW;
	ss->first = n - PTS_SS_WINDOW + 1;
	ss->last = n;
	ss->min = ss->max = w[0];
	for (k = 0; k < PTS_SS_WINDOW; k++) {
		double x = ss->first + k;

		sx += x;
		sy += w[k];
		sxx += x * x;
		sxy += x * w[k];
		if (w[k] < ss->min)
			ss->min = w[k];
		if (w[k] > ss->max)
			ss->max = w[k];
	}
	ss->avg = sy / PTS_SS_WINDOW;
	ss->range = ss->max - ss->min;
	den = PTS_SS_WINDOW * sxx - sx * sx;
	ss->slope = (PTS_SS_WINDOW * sxy - sx * sy) / den;
	ss->intercept = (sy - ss->slope * sx) / PTS_SS_WINDOW;
	ss->excursion = fabs(ss->slope) * (PTS_SS_WINDOW - 1);
	/*
	 * "Within 20% (10%) of the average": at most, inclusive; an
	 * average of zero (nothing moved) is steady only if flat.
	 */
	ss->range_ok = ss->range <= PTS_SS_RANGE * fabs(ss->avg);
	ss->slope_ok = ss->excursion <= PTS_SS_SLOPE * fabs(ss->avg);
	ss->reached = ss->range_ok && ss->slope_ok;
	return 0;
}

int pts_ss_done(const double *y, unsigned int n, unsigned int max_rounds,
		struct pts_ss *ss)
{
	if (pts_ss_judge(y, n, ss))
		return 0;
	return ss->reached || n >= max_rounds;
}

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PTS_STEADY_H
#define IOLITE_PTS_STEADY_H

#include <stdbool.h>

/*
 * SNIA PTS's steady-state rule, as a pure function of the tracked
 * variable's figures, one per round (round 1 first):
 *
 *  - the measurement window is the last PTS_SS_WINDOW rounds;
 *  - range: max - min of the window's figures is at most 20% of their
 *    average;
 *  - slope: the least-squares line through the window's points (round
 *    number, figure) moves by at most 10% of the average across the
 *    window: |slope| x (PTS_SS_WINDOW - 1) <= 0.10 x average;
 *  - steady state is reached when both hold; the test stops at the first
 *    round where they do, or at the last round allowed (PTS_SS_MAX_ROUNDS
 *    by the spec), whose last five rounds are then the window, reported
 *    as not steady.
 */

#define PTS_SS_WINDOW 5
#define PTS_SS_MAX_ROUNDS 25
#define PTS_SS_RANGE 0.20	/* max - min within 20% of the average */
#define PTS_SS_SLOPE 0.10	/* the line's excursion within 10% */

struct pts_ss {
	unsigned int first, last;	/* the window's rounds, from 1 */
	double avg, min, max;
	double range;		/* max - min */
	double slope, intercept;	/* y = slope x round + intercept */
	double excursion;	/* |slope| x (window - 1) */
	bool range_ok, slope_ok;
	bool reached;		/* range_ok && slope_ok */
};

/*
 * Judges the window made of the last PTS_SS_WINDOW of y[0 .. n - 1]
 * (round k is y[k - 1]). Returns 0 with ss filled, or -1 (ss untouched)
 * when n < PTS_SS_WINDOW: no window yet.
 */
int pts_ss_judge(const double *y, unsigned int n, struct pts_ss *ss);

/*
 * The loop's decision after round n (y[0 .. n - 1] measured) with at
 * most max_rounds rounds: 1 stop (ss is the window to report: reached,
 * or the last five when n == max_rounds), 0 go on.
 */
int pts_ss_done(const double *y, unsigned int n, unsigned int max_rounds,
		struct pts_ss *ss);

#endif

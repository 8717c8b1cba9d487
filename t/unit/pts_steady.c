/* SPDX-License-Identifier: MIT */
/*
 * SNIA PTS's steady-state rule (pts/steady.c) on hand-made series whose
 * figures are worked out here by hand: reached at round 5, reached late
 * (round 25), never reached, a series that passes the range test and
 * fails the slope test, and the reverse.
 */
#include <math.h>

#include "tap.h"
#include "pts/steady.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* Runs the loop's decision round by round; returns the round it stops. */
static unsigned int stop_round(const double *y, unsigned int n,
			       unsigned int max, struct pts_ss *ss)
{
	unsigned int r;

	for (r = 1; r <= n; r++)
		if (pts_ss_done(y, r, max, ss))
			return r;
	return 0;
}

static void flat_at_five(void)
{
	double y[] = { 100, 100, 100, 100, 100, 100 };
	struct pts_ss ss;

	ok(pts_ss_judge(y, 4, &ss) == -1, "four rounds make no window");
	if (!ok(stop_round(y, 6, 25, &ss) == 5,
		"a flat series is steady at round 5"))
		diag("range %g, excursion %g", ss.range, ss.excursion);
	ok(ss.reached && ss.first == 1 && ss.last == 5 && NEAR(ss.avg, 100) &&
	   NEAR(ss.range, 0) && NEAR(ss.slope, 0), "its window: rounds 1-5, "
	   "average 100, range 0, slope 0");
}

/*
 * A straight line 100, 103 ... 112: average 106, range 12 (11.3% of it,
 * within 20%), slope 3 per round, so the line moves 12 over the window:
 * 11.3% > 10%. Passes the range test, fails the slope test.
 */
static void range_ok_slope_not(void)
{
	double y[] = { 100, 103, 106, 109, 112 };
	struct pts_ss ss;

	ok(!pts_ss_judge(y, 5, &ss), "five rounds make a window");
	ok(NEAR(ss.avg, 106) && NEAR(ss.range, 12) && NEAR(ss.slope, 3) &&
	   NEAR(ss.intercept, 97) && NEAR(ss.excursion, 12),
	   "line 100..112: average 106, range 12, slope 3, intercept 97, "
	   "excursion 12");
	ok(ss.range_ok && !ss.slope_ok && !ss.reached,
	   "range within 20%%, excursion 11.3%% > 10%%: not steady");
	/* 100, 102.5 ... 110: excursion 10 = 9.5% of 105: steady */
	{
		double z[] = { 100, 102.5, 105, 107.5, 110 };

		pts_ss_judge(z, 5, &ss);
		ok(ss.range_ok && ss.slope_ok && ss.reached,
		   "line 100..110: excursion 10 within 10%% of 105: steady");
	}
}

/*
 * 100, 130, 100, 130, 100: average 112, range 30 (26.8% > 20%); the
 * least-squares slope is 0 (the series is symmetric about round 3).
 * Fails the range test, passes the slope test.
 */
static void slope_ok_range_not(void)
{
	double y[] = { 100, 130, 100, 130, 100 };
	struct pts_ss ss;

	pts_ss_judge(y, 5, &ss);
	ok(NEAR(ss.avg, 112) && NEAR(ss.range, 30) && NEAR(ss.slope, 0) &&
	   NEAR(ss.intercept, 112), "zigzag: average 112, range 30, slope 0");
	ok(!ss.range_ok && ss.slope_ok && !ss.reached,
	   "range 26.8%% > 20%%, flat line: not steady");
	/* the edge: range exactly 20% of the average counts as within */
	{
		double z[] = { 90, 110, 100, 110, 90 };

		pts_ss_judge(z, 5, &ss);
		ok(NEAR(ss.range, 20) && NEAR(ss.avg, 100) && ss.range_ok,
		   "range exactly 20%% of the average is within");
	}
}

/* Rounds 1-20 alternate 100 and 200; rounds 21-25 are 150. */
static void late_and_never(void)
{
	double y[25];
	struct pts_ss ss;
	unsigned int k;

	for (k = 0; k < 25; k++)
		y[k] = k < 20 ? (k % 2 ? 200 : 100) : 150;
	ok(stop_round(y, 25, 25, &ss) == 25 && ss.reached &&
	   ss.first == 21 && ss.last == 25 && NEAR(ss.avg, 150),
	   "steady first at round 25, window 21-25");
	/* the window 20-24 holds round 20's 200: range 50 of 160 */
	pts_ss_judge(y, 24, &ss);
	ok(!ss.reached && NEAR(ss.range, 50) && NEAR(ss.avg, 160),
	   "window 20-24 is not steady (range 31%%)");
	for (k = 0; k < 25; k++)
		y[k] = k % 2 ? 200 : 100;
	ok(stop_round(y, 25, 25, &ss) == 25 && !ss.reached &&
	   ss.first == 21 && ss.last == 25 && NEAR(ss.avg, 140),
	   "never steady: stops at round 25 with the last five "
	   "(average 140)");
	ok(stop_round(y, 25, 8, &ss) == 8 && !ss.reached && ss.first == 4,
	   "a lower round limit stops there, window 4-8");
	/* a window later in the run: its x are the rounds 3-7 */
	{
		double z[] = { 1, 1, 50, 60, 70, 80, 90 };

		pts_ss_judge(z, 7, &ss);
		ok(ss.first == 3 && NEAR(ss.slope, 10) &&
		   NEAR(ss.intercept, 20), "window 3-7: slope 10 per round, "
		   "line 10x + 20");
	}
}

int main(void)
{
	flat_at_five();
	range_ok_slope_not();
	slope_ok_range_not();
	late_and_never();
	return done_testing();
}

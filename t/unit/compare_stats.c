/* SPDX-License-Identifier: MIT */
/*
 * compare's statistics against known values: Student's t quantiles
 * (table values and high-precision ones computed with mpmath for
 * fractional df), the normal limit, closed forms for df 1 and 2, a
 * Welch interval worked by hand, Fieller's ratio interval agreeing with
 * it on significance, and batch means on a series with a known answer.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "unit/tap.h"
#include "compare/stats.h"

static int close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void test_quantiles(void)
{
	static const struct { double p, df, t; } tab[] = {
		{ 0.975, 1, 12.706204736174705 },
		{ 0.975, 2, 4.3026527297494639 },
		{ 0.975, 3, 3.1824463052837096 },
		{ 0.975, 4, 2.7764451051977944 },
		{ 0.975, 5, 2.5705818356363155 },
		{ 0.975, 10, 2.2281388519862747 },
		{ 0.975, 30, 2.0422724563012383 },
		{ 0.975, 100, 1.9839715185235523 },
		{ 0.975, 243.0 / 49.0, 2.5769584490090559 },
		{ 0.975, 2.5, 3.5746548420036832 },
		{ 0.975, 0.5, 164.55767348048853 },
		{ 0.995, 5, 4.0321429835552281 },
		{ 0.95, 10, 1.8124611228116764 },
		{ 0.9999, 3, 22.203742273204183 },
	};
	unsigned int i, bad = 0;
	double p;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double t = cmp_t_quantile(tab[i].p, tab[i].df);

		if (!close_to(t, tab[i].t, 1e-10)) {
			diag("t(%g, df %g) = %.15g, want %.15g", tab[i].p,
			     tab[i].df, t, tab[i].t);
			bad++;
		}
	}
	ok(!bad, "t quantiles match the table to 1e-10 (%u wrong)", bad);
	ok(close_to(cmp_t_quantile(0.025, 4), -2.7764451051977944, 1e-10),
	   "lower quantiles are the upper ones negated");
	ok(close_to(cmp_normal_quantile(0.975), 1.9599639845400536, 1e-12) &&
	   close_to(cmp_normal_quantile(0.001), -3.0902323061678132, 1e-12),
	   "normal quantiles");
	ok(close_to(cmp_t_quantile(0.975, 1e7), 1.9599639845400536, 1e-6) &&
	   close_to(cmp_t_quantile(0.975, INFINITY), 1.9599639845400536, 1e-12),
	   "large df tends to the normal quantile");
	for (bad = 0, p = 0.51; p < 0.999; p += 0.01) {
		double t1 = tan(M_PI * (p - 0.5));
		double t2 = (2 * p - 1) / sqrt(2 * p * (1 - p));

		bad += !close_to(cmp_t_quantile(p, 1), t1, 1e-10);
		bad += !close_to(cmp_t_quantile(p, 2), t2, 1e-10);
		bad += fabs(cmp_t_cdf(cmp_t_quantile(p, 7.3), 7.3) - p) > 1e-12;
	}
	ok(!bad, "df 1 and 2 closed forms; cdf(quantile(p)) = p (%u wrong)",
	   bad);
}

static void test_welch(void)
{
	/* A = 10 12 14, B = 15 17 19 21: worked by hand */
	const double a[] = { 10, 12, 14 }, b[] = { 15, 17, 19, 21 };
	struct cmp_est ea, eb;
	struct cmp_ci ci;
	double t;

	ok(!cmp_est_runs(a, 3, &ea) && ea.mean == 12 &&
	   close_to(ea.se2, 4.0 / 3, 1e-12) && ea.df == 2,
	   "runs: mean 12, se^2 4/3, df 2");
	cmp_est_runs(b, 4, &eb);
	ok(close_to(cmp_welch_df(&ea, &eb), 243.0 / 49, 1e-12),
	   "Welch-Satterthwaite df 243/49 (%.6f)", cmp_welch_df(&ea, &eb));
	cmp_interval(&ea, &eb, 0.95, &ci);
	t = 2.5769584490090559;
	ok(close_to(ci.diff_lo, 6 - t * sqrt(3), 1e-9) &&
	   close_to(ci.diff_hi, 6 + t * sqrt(3), 1e-9) && ci.significant,
	   "difference 6 +- t(0.975, 243/49) sqrt(3): [%.4f, %.4f]",
	   ci.diff_lo, ci.diff_hi);
	/* Fieller's bounds r solve (18 - 12 r)^2 = t^2 (5/3 + r^2 4/3) */
	ok(fabs(pow(18 - 12 * ci.ratio_lo, 2) -
		t * t * (5.0 / 3 + ci.ratio_lo * ci.ratio_lo * 4 / 3)) < 1e-8 &&
	   fabs(pow(18 - 12 * ci.ratio_hi, 2) -
		t * t * (5.0 / 3 + ci.ratio_hi * ci.ratio_hi * 4 / 3)) < 1e-8 &&
	   ci.ratio_lo > 1 && ci.ratio_lo < 1.5 && ci.ratio_hi > 1.5,
	   "Fieller ratio interval [%.4f, %.4f] around 1.5", ci.ratio_lo,
	   ci.ratio_hi);

	/* B barely above A: both intervals hold the null together */
	eb.mean = 12.5;
	cmp_interval(&ea, &eb, 0.95, &ci);
	ok(!ci.significant && ci.ratio_lo < 1 && ci.ratio_hi > 1,
	   "not significant: difference holds 0 and ratio holds 1");
	ea.mean = 1;
	ea.se2 = 4;
	cmp_interval(&ea, &eb, 0.95, &ci);
	ok(!ci.ratio_bounded, "A not away from zero: ratio unbounded");

	ea.mean = 1000;
	ea.se2 = 0;
	eb.mean = 1000;
	eb.se2 = 0;
	cmp_interval(&ea, &eb, 0.95, &ci);
	ok(!ci.significant && ci.diff_lo == 0 && ci.diff_hi == 0,
	   "exact and equal: no difference");
}

static void test_batches(void)
{
	double v[105], lag;
	struct cmp_est e;
	unsigned int i;

	/* 5 leading samples are left out; batch b holds 10 copies of b */
	for (i = 0; i < 105; i++)
		v[i] = i < 5 ? 1e6 : (double)((i - 5) / 10);
	ok(cmp_batches_for(105) == 10 && cmp_batches_for(19) == 0,
	   "10 batches from 20 samples on, none below");
	i = cmp_est_batches(v, 105, 10, &e, &lag);
	ok(!i && close_to(e.mean, 4.5, 1e-12) &&
	   close_to(e.se2, 55.0 / 6 / 10, 1e-12) && e.df == 9,
	   "batch means 0..9: mean 4.5, se^2 var/10, df 9 (%.4f %.4f)",
	   e.mean, e.se2);
	ok(lag > 0.6, "batch means that trend are correlated (lag-1 %.2f)", lag);
	ok(cmp_est_batches(v, 19, 10, &e, NULL) == -EINVAL,
	   "too few samples refused");
	for (i = 0; i < 100; i++)
		v[i] = i % 2 ? 1 : -1;
	ok(close_to(cmp_lag1(v, 100), -0.99, 1e-9),
	   "lag-1 autocorrelation of an alternating series (%.3f)",
	   cmp_lag1(v, 100));
}

int main(void)
{
	test_quantiles();
	test_welch();
	test_batches();
	return done_testing();
}

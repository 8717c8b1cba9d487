/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_COMPARE_STATS_H
#define IOLITE_COMPARE_STATS_H

#include <stdbool.h>

/*
 * The statistics behind `iolite compare`: Student's t quantiles (any
 * degrees of freedom, fractional too), Welch's interval for the
 * difference of two means and Fieller's for their ratio, and batch
 * means for the precision of one run's mean from its correlated
 * per-interval samples. Plain numerics on doubles, no I/O.
 */

/* Standard normal quantile: Phi^-1(p), 0 < p < 1. */
double cmp_normal_quantile(double p);

/* Student's t distribution with df > 0 degrees of freedom. */
double cmp_t_cdf(double t, double df);
double cmp_t_quantile(double p, double df);	/* 0 < p < 1 */

/*
 * An estimate of one side's mean: the mean, the squared standard error
 * of it (se2) and the degrees of freedom behind se2 (n - 1 for n runs,
 * k - 1 for k batches). se2 == 0 with df == 0: known exactly.
 */
struct cmp_est {
	double mean;
	double se2;
	double df;
};

/* From n >= 2 independent values (runs): mean, s^2 / n, n - 1. */
int cmp_est_runs(const double *v, unsigned int n, struct cmp_est *out);

/*
 * Batch means: the series (in time order) split into k batches of
 * equal length, the leading remainder left out (the start is where
 * warm-up is); se2 = var(batch means) / k, df = k - 1. Neighbouring
 * samples are correlated, batch means of long enough batches nearly
 * are not: that is what makes the interval valid where a t interval
 * over the samples themselves would be far too narrow. lag1 (NULL: not
 * wanted) gets the batch means' lag-1 autocorrelation: high, the batches
 * are too short. Returns -EINVAL when n < 2k.
 */
int cmp_est_batches(const double *v, unsigned int n, unsigned int k,
		    struct cmp_est *out, double *lag1);

/* The number of batches used for n samples: 10, or 0 when n < 20. */
/*
 * The mean of n >= 2 runs' figures and its conf interval: Student t over
 * the figures' logarithms, taken back, when all are positive (IOPS,
 * bandwidth, latencies spread by factors: the interval stays above zero;
 * widened to hold the mean where it would not), else over the figures.
 * Returns 0, or -EINVAL for fewer than 2.
 */
int cmp_runs_interval(const double *v, unsigned int n, double conf,
		      double *mean, double *lo, double *hi);

unsigned int cmp_batches_for(unsigned int n);

/* Lag-1 autocorrelation of v (0 when undefined): a check on batches. */
double cmp_lag1(const double *v, unsigned int n);

/* Welch-Satterthwaite degrees of freedom of a.se2 + b.se2. */
double cmp_welch_df(const struct cmp_est *a, const struct cmp_est *b);

/*
 * B against A at confidence conf (0.95): the difference B - A with
 * Welch's interval, and the ratio B / A with Fieller's interval at the
 * same t quantile. The ratio interval holds 1 exactly when the
 * difference interval holds 0, so one verdict serves both. ratio_bounded
 * is false when A's mean is not significantly away from zero (Fieller's
 * interval is then unbounded).
 */
struct cmp_ci {
	double diff, diff_lo, diff_hi;
	double ratio, ratio_lo, ratio_hi;
	bool ratio_bounded;
	double df, t;
	bool significant;	/* the interval leaves out no difference */
};

int cmp_interval(const struct cmp_est *a, const struct cmp_est *b,
		 double conf, struct cmp_ci *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Numerics for `iolite compare` (compare/stats.h). Student's t comes
 * from the regularized incomplete beta function, evaluated by its
 * continued fraction (DLMF 8.17.22) with the modified Lentz method, and
 * is inverted by Newton's method kept inside a bracket; accurate to
 * about 1e-12 for any df > 0, fractional df (Welch) included.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "compare/stats.h"
#include "util/strbuf.h"

#define TINY 1e-300

/* The continued fraction of I_x(a, b), good for x < (a + 1)/(a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double f = TINY, c = TINY, d = 0.0, num, delta;
	unsigned int j, m;

	for (j = 1; j < 1000; j++) {
		if (j == 1) {
			num = 1.0;
		} else if (j % 2 == 0) {	/* d_{2m+1}, m = (j - 2) / 2 */
			m = (j - 2) / 2;
			num = -(a + m) * (a + b + m) * x /
			      ((a + 2 * m) * (a + 2 * m + 1));
		} else {			/* d_{2m}, m = (j - 1) / 2 */
			m = (j - 1) / 2;
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		}
		d = 1.0 + num * d;
		if (fabs(d) < TINY)
			d = TINY;
		d = 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < TINY)
			c = TINY;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(a * log(x) + b * log1p(-x) -
		    (lgamma(a) + lgamma(b) - lgamma(a + b)));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* P(T > t) for t >= 0 */
static double t_upper(double t, double df)
{
	if (isinf(df))
		return 0.5 * erfc(t / M_SQRT2);
	return 0.5 * inc_beta(df / 2.0, 0.5, df / (df + t * t));
}

static double t_pdf(double t, double df)
{
	if (isinf(df))
		return exp(-t * t / 2.0) / sqrt(2.0 * M_PI);
	return exp(lgamma((df + 1.0) / 2.0) - lgamma(df / 2.0) -
		   0.5 * log(df * M_PI) - (df + 1.0) / 2.0 * log1p(t * t / df));
}

double cmp_t_cdf(double t, double df)
{
	return t >= 0 ? 1.0 - t_upper(t, df) : t_upper(-t, df);
}

double cmp_normal_quantile(double p)
{
	double q = p < 0.5 ? p : 1.0 - p, x, s;
	unsigned int i;

	if (p <= 0.0)
		return -INFINITY;
	if (p >= 1.0)
		return INFINITY;
	/* a start within 5e-4 (Abramowitz & Stegun 26.2.23), then Newton */
	s = sqrt(-2.0 * log(q));
	x = -(s - (2.515517 + 0.802853 * s + 0.010328 * s * s) /
	      (1.0 + 1.432788 * s + 0.189269 * s * s + 0.001308 * s * s * s));
	for (i = 0; i < 20; i++) {
		double step = (0.5 * erfc(-x / M_SQRT2) - q) /
			      (exp(-x * x / 2.0) / sqrt(2.0 * M_PI));

		x -= step;
		if (fabs(step) < 1e-15 * (fabs(x) + 1e-300))
			break;
	}
	return p < 0.5 ? x : -x;
}

double cmp_t_quantile(double p, double df)
{
	double q, x, lo = 0.0, hi, z;
	unsigned int i;

	if (p <= 0.0 || p >= 1.0 || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -cmp_t_quantile(1.0 - p, df);
	q = 1.0 - p;	/* solve P(T > x) = q, no cancellation near 1 */
	z = cmp_normal_quantile(p);
	if (isinf(df))
		return z;
	/* Cornish-Fisher start; then a bracket the Newton steps stay in */
	x = z + (z * z * z + z) / (4.0 * df);
	hi = x > 1.0 ? 2.0 * x : 2.0;
	while (t_upper(hi, df) > q && hi < 1e300)
		hi *= 2.0;
	if (x <= lo || x >= hi)
		x = (lo + hi) / 2.0;
	for (i = 0; i < 200; i++) {
		double f = t_upper(x, df) - q, nx;

		if (f > 0)
			lo = x;	/* tail too heavy: x too small */
		else
			hi = x;
		nx = x + f / t_pdf(x, df);
		if (!(nx > lo && nx < hi))
			nx = (lo + hi) / 2.0;
		if (fabs(nx - x) <= 1e-14 * x)
			return nx;
		x = nx;
	}
	return x;
}

int cmp_est_runs(const double *v, unsigned int n, struct cmp_est *out)
{
	double mean = 0.0, m2 = 0.0;
	unsigned int i;

	if (n < 2)
		return -EINVAL;
	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	out->mean = mean;
	out->se2 = m2 / (n - 1) / n;
	out->df = n - 1;
	return 0;
}

int cmp_runs_interval(const double *v, unsigned int n, double conf,
		      double *mean, double *lo, double *hi)
{
	struct cmp_est e;
	double half, *l;
	unsigned int i;
	bool pos = true;

	if (cmp_est_runs(v, n, &e))
		return -EINVAL;
	half = cmp_t_quantile(0.5 + conf / 2, e.df) * sqrt(e.se2);
	*mean = e.mean;
	*lo = e.mean - half;
	*hi = e.mean + half;
	for (i = 0; i < n; i++)
		pos &= v[i] > 0;
	if (!pos)
		return 0;
	l = xcalloc(n, sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = log(v[i]);
	if (!cmp_est_runs(l, n, &e)) {
		half = cmp_t_quantile(0.5 + conf / 2, e.df) * sqrt(e.se2);
		*lo = fmin(exp(e.mean - half), *mean);
		*hi = fmax(exp(e.mean + half), *mean);
	}
	free(l);
	return 0;
}

unsigned int cmp_batches_for(unsigned int n)
{
	return n >= 20 ? 10 : 0;
}

int cmp_est_batches(const double *v, unsigned int n, unsigned int k,
		    struct cmp_est *out, double *lag1)
{
	double means[64];
	unsigned int len, skip, b, i;

	if (k < 2 || k > 64 || n < 2 * k)
		return -EINVAL;
	len = n / k;
	skip = n - len * k;
	for (b = 0; b < k; b++) {
		double s = 0.0;

		for (i = 0; i < len; i++)
			s += v[skip + b * len + i];
		means[b] = s / len;
	}
	if (lag1)
		*lag1 = cmp_lag1(means, k);
	return cmp_est_runs(means, k, out);
}

double cmp_lag1(const double *v, unsigned int n)
{
	double mean = 0.0, num = 0.0, den = 0.0;
	unsigned int i;

	if (n < 3)
		return 0.0;
	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++) {
		den += (v[i] - mean) * (v[i] - mean);
		if (i)
			num += (v[i] - mean) * (v[i - 1] - mean);
	}
	return den > 0 ? num / den : 0.0;
}

double cmp_welch_df(const struct cmp_est *a, const struct cmp_est *b)
{
	double s = a->se2 + b->se2, den = 0.0;

	if (a->se2 > 0 && a->df > 0)
		den += a->se2 * a->se2 / a->df;
	if (b->se2 > 0 && b->df > 0)
		den += b->se2 * b->se2 / b->df;
	return den > 0 ? s * s / den : INFINITY;
}

int cmp_interval(const struct cmp_est *a, const struct cmp_est *b,
		 double conf, struct cmp_ci *out)
{
	double t, se2, qa, disc, ma = a->mean, mb = b->mean;

	if (!(conf > 0 && conf < 1))
		return -EINVAL;
	out->df = cmp_welch_df(a, b);
	t = cmp_t_quantile(1.0 - (1.0 - conf) / 2.0, out->df);
	out->t = t;
	se2 = a->se2 + b->se2;
	out->diff = mb - ma;
	out->diff_lo = out->diff - t * sqrt(se2);
	out->diff_hi = out->diff + t * sqrt(se2);
	out->significant = out->diff_lo > 0 || out->diff_hi < 0;

	/*
	 * Fieller: the ratios r with (mb - r ma)^2 <= t^2 (b.se2 + r^2
	 * a.se2), a quadratic in r; bounded when ma^2 > t^2 a.se2.
	 */
	out->ratio = ma != 0 ? mb / ma : NAN;
	qa = ma * ma - t * t * a->se2;
	out->ratio_bounded = qa > 0;
	if (!out->ratio_bounded) {
		out->ratio_lo = -INFINITY;
		out->ratio_hi = INFINITY;
		return 0;
	}
	disc = t * t * (b->se2 * qa + a->se2 * mb * mb);
	out->ratio_lo = (ma * mb - sqrt(disc)) / qa;
	out->ratio_hi = (ma * mb + sqrt(disc)) / qa;
	return 0;
}

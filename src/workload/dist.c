/* SPDX-License-Identifier: MIT */
/*
 * Skewed rank distributions, each O(1) per draw with no table:
 *
 * zipf:theta  P(rank k) proportional to 1 / k^theta, k = 1..n. Sampled by
 *             rejection-inversion (W. Hoermann, G. Derflinger, "Rejection-
 *             inversion to generate variates from monotone discrete
 *             distributions", 1996): invert the integral H of the hat
 *             function h(x) = x^-theta over [1.5, n + 0.5], round to the
 *             nearest integer k and accept when the uniform falls under
 *             the area of k's bar. Acceptance is close to 1 for every
 *             theta and n, so about one log and one exp per draw. Unlike
 *             fio's method it needs no sum over the n ranks at start.
 * pareto:h    inverse transform of a power law: rank = n * u^p with
 *             p = ln(h) / ln(1 - h), so the first fraction h of the ranks
 *             takes a share 1 - h of the draws (h = 0.2: the 80/20 rule).
 * normal:s    the shape fio 3.33 gives (measured from its write_iolog:
 *             the variance, kurtosis and range of the ranks): the mean of
 *             12 uniform ranks in [0, n] rounded up (an Irwin-Hall bell,
 *             standard deviation n/12 whatever s is), moved by a uniform
 *             jitter s percent of n wide (at most n/2), centred; a jitter
 *             that takes the rank out of [0, n) is halved until it does
 *             not. So s widens the bell from 8.3% of n (s = 0) to 16.7%
 *             (s >= 50), not to s percent. 13 PRNG steps, no libm.
 */
#include "workload/dist.h"

#include <errno.h>
#include <math.h>

/* log1p(x) / x, continuous at 0 */
static double log1p_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

/* expm1(x) / x, continuous at 0 */
static double expm1_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

/* the hat h(x) = x^-s */
static double zipf_h(const struct dist *d, double x)
{
	return exp(-d->s * log(x));
}

/* H(x) = (x^(1-s) - 1) / (1 - s), or log(x) for s = 1 */
static double zipf_hint(const struct dist *d, double x)
{
	double lx = log(x);

	return expm1_over_x((1.0 - d->s) * lx) * lx;
}

/* the inverse of H */
static double zipf_hint_inv(const struct dist *d, double y)
{
	double t = y * (1.0 - d->s);

	if (t < -1.0)	/* rounding at the far end of the range */
		t = -1.0;
	return exp(log1p_over_x(t) * y);
}

static uint64_t zipf_next(struct dist *d, struct prng_taus64 *r)
{
	for (;;) {
		double u = d->h_n + prng_u01_64(prng_taus64_next(r)) *
				    (d->h_x1 - d->h_n);
		double x = zipf_hint_inv(d, u);
		double kd = floor(x + 0.5);
		uint64_t k;

		if (kd < 1.0)
			kd = 1.0;
		else if (kd > (double)d->n)
			kd = (double)d->n;
		k = (uint64_t)kd;
		if (kd - x <= d->s_const ||
		    u >= zipf_hint(d, kd + 0.5) - zipf_h(d, kd))
			return k - 1;
	}
}

static uint64_t pareto_next(struct dist *d, struct prng_taus64 *r)
{
	double u = prng_u01_64(prng_taus64_next(r));
	uint64_t k = (uint64_t)((double)d->n * pow(u, d->pow));

	return k < d->n ? k : d->n - 1;
}

static uint64_t normal_next(struct dist *d, struct prng_taus64 *r)
{
	uint64_t sum = 0;
	int64_t rank, j = 0;
	unsigned int i;

	for (i = 0; i < DIST_NORMAL_TERMS; i++)
		sum += prng_scale64(prng_taus64_next(r), d->n + 1);
	rank = (int64_t)((sum + DIST_NORMAL_TERMS - 1) / DIST_NORMAL_TERMS);
	if (d->width)
		j = (int64_t)prng_scale64(prng_taus64_next(r), d->width) -
		    (int64_t)(d->width / 2);
	while (j && (rank + j < 0 || rank + j >= (int64_t)d->n))
		j /= 2;
	/* rank n (every term at n) is rank 0, as the range wraps */
	return (uint64_t)(rank + j) % d->n;
}

int dist_init(struct dist *d, enum random_dist type, double param,
	      uint64_t n)
{
	*d = (struct dist){ .type = type, .n = n ? n : 1 };
	switch (type) {
	case RDIST_ZIPF:
		if (!(param > 0.0))
			return -EINVAL;
		d->s = param;
		d->h_x1 = zipf_hint(d, 1.5) - 1.0;
		d->h_n = zipf_hint(d, (double)d->n + 0.5);
		d->s_const = 2.0 - zipf_hint_inv(d, zipf_hint(d, 2.5) -
						    zipf_h(d, 2.0));
		return 0;
	case RDIST_PARETO:
		if (!(param > 0.0 && param < 1.0))
			return -EINVAL;
		d->pow = log(param) / log(1.0 - param);
		return 0;
	case RDIST_NORMAL:
		if (!(param >= 0.0 && param < 100.0))
			return -EINVAL;
		d->width = (uint64_t)(param / 100.0 * (double)d->n);
		if (d->width > d->n / 2)
			d->width = d->n / 2;
		return 0;
	case RDIST_RANDOM:
		return 0;
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		/* zone tables: the workload's own */
		break;
	}
	return -EINVAL;
}

uint64_t dist_next(struct dist *d, struct prng_taus64 *r)
{
	switch (d->type) {
	case RDIST_ZIPF:
		return zipf_next(d, r);
	case RDIST_PARETO:
		return pareto_next(d, r);
	case RDIST_NORMAL:
		return normal_next(d, r);
	case RDIST_RANDOM:
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		break;
	}
	return prng_scale64(prng_taus64_next(r), d->n);
}

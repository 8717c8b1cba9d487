/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_DIST_H
#define IOLITE_WORKLOAD_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/options.h"
#include "util/prng.h"

/*
 * Skewed random ranks for random_distribution=zipf:theta, pareto:h and
 * normal:dev. dist_next() returns a rank in [0, n): rank 0 is the most
 * likely (zipf, pareto); normal's are a bell over [0, n). The workload
 * maps ranks to blocks as fio does (its multiplicative hash, then a turn
 * by random_distribution's centre: workload.c, dist_turn()), so the hot
 * blocks are spread over the region and stay the same pass to pass.
 * Every draw is O(1): see dist.c for the methods. No allocation.
 */
struct dist {
	enum random_dist type;
	uint64_t n;
	/* zipf, rejection-inversion (Hoermann and Derflinger) */
	double s;		/* exponent theta */
	double h_x1;		/* H(1.5) - 1 */
	double h_n;		/* H(n + 0.5) */
	double s_const;		/* squeeze: accept k - x <= s_const */
	/* pareto: rank = n * u^pow */
	double pow;
	/* normal: the jitter's width in ranks (dist.c) */
	uint64_t width;
};

/* normal: the bell is the mean of this many uniform ranks */
#define DIST_NORMAL_TERMS 12

/*
 * param is theta (> 0), h (0 < h < 1) or the normal's deviation (percent
 * of the range, 0 <= dev < 100: the jitter's width, dist.c). Returns 0 or
 * -EINVAL for a parameter out of range.
 */
int dist_init(struct dist *d, enum random_dist type, double param,
	      uint64_t n);

uint64_t dist_next(struct dist *d, struct prng_taus64 *r);

#endif

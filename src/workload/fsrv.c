/* SPDX-License-Identifier: MIT */
/*
 * Skewed file picks for file_service_type (see fsrv.h). The shapes are
 * fio 3.33's, measured per file with write_iolog over many seeds: fio
 * spreads 1024 ranks per file, turns zipf and pareto by a random offset
 * and builds its normal from a sum of uniforms. Only the shape is kept;
 * the generators are iolite's (dist.c, util/prng.h).
 */
#include "workload/fsrv.h"

#include <errno.h>
#include <math.h>

#define NORMAL_TERMS 12

int fsrv_skew_init(struct fsrv_skew *s, enum file_service type, double param,
		   unsigned int nr_files, struct prng_taus64 *r)
{
	uint64_t n = (uint64_t)(nr_files ? nr_files : 1) << FSRV_RANK_SHIFT;

	*s = (struct fsrv_skew){ .type = type, .n = n };
	switch (type) {
	case FSRV_ZIPF:
		if (dist_init(&s->d, RDIST_ZIPF, param, n))
			return -EINVAL;
		break;
	case FSRV_PARETO:
		if (dist_init(&s->d, RDIST_PARETO, param, n))
			return -EINVAL;
		break;
	case FSRV_NORMAL:
		if (!(param >= 0.0 && param < 100.0))
			return -EINVAL;
		s->spread = (int64_t)ceil((double)n * param / 100.0);
		if (s->spread > (int64_t)(n / 2))
			s->spread = (int64_t)(n / 2);
		return 0;
	default:
		return -EINVAL;
	}
	s->off = prng_scale64(prng_taus64_next(r), n);
	return 0;
}

/* A rank of the bell: see fsrv.h. */
static uint64_t normal_rank(const struct fsrv_skew *s, struct prng_taus64 *r)
{
	uint64_t sum = 0;
	int64_t dev, x;
	unsigned int i;

	/* NORMAL_TERMS uniform ranks in [0, n], their mean rounded up */
	for (i = 0; i < NORMAL_TERMS; i++)
		sum += prng_scale64(prng_taus64_next(r), s->n + 1);
	sum = (sum + NORMAL_TERMS - 1) / NORMAL_TERMS;
	if (!s->spread)
		return sum % s->n;
	dev = (int64_t)prng_scale64(prng_taus64_next(r), (uint64_t)s->spread) -
	      s->spread / 2;
	/* a spread that would leave [0, n) shrinks towards the mean */
	while ((x = (int64_t)sum + dev) < 0 || x >= (int64_t)s->n)
		dev /= 2;
	return (uint64_t)x;
}

unsigned int fsrv_skew_next(struct fsrv_skew *s, struct prng_taus64 *r)
{
	uint64_t rank;

	if (s->type == FSRV_NORMAL) {
		rank = normal_rank(s, r);
	} else {
		rank = dist_next(&s->d, r) + s->off;
		if (rank >= s->n)
			rank -= s->n;
	}
	return (unsigned int)(rank >> FSRV_RANK_SHIFT);
}

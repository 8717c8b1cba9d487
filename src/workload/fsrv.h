/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_FSRV_H
#define IOLITE_WORKLOAD_FSRV_H

#include <stdint.h>

#include "opt/options.h"
#include "util/prng.h"
#include "workload/dist.h"

/*
 * The skewed file picks of file_service_type=zipf:theta, pareto:h and
 * normal:dev (gauss), with fio's shape: each file is a run of 1024 ranks
 * (FSRV_RANKS) and the pick is the file of a skewed rank.
 *
 *   zipf, pareto  the rank distribution of random_distribution (dist.h),
 *                 rank 0 the hottest, turned by an offset drawn once, so
 *                 that the hot spot lies at a random place: the file
 *                 holding it takes most of the I/O (zipf:1.2 over 8
 *                 files: about 91% when the spot starts a file) and the
 *                 next one the tail of it.
 *   normal        the mean of 12 uniform ranks in [0, n] (a bell around
 *                 the middle with a deviation of n / 12), plus, for dev
 *                 above 0, a uniform spread of dev percent of the ranks
 *                 (at most half), halved while it would leave the range.
 *                 normal:0 over 8 files: files 3 and 4 take about 87%.
 *
 * No allocation; every draw is O(1).
 */
#define FSRV_RANK_SHIFT 10

struct fsrv_skew {
	enum file_service type;
	uint64_t n;		/* ranks: files << FSRV_RANK_SHIFT */
	uint64_t off;		/* zipf, pareto: the hottest rank */
	int64_t spread;		/* normal: width of the uniform part */
	struct dist d;		/* zipf, pareto */
};

/*
 * type is FSRV_ZIPF, FSRV_PARETO or FSRV_NORMAL, param its parameter
 * (checked by the option parser), r the stream the offset is drawn
 * from. Returns 0 or -EINVAL for a parameter out of range.
 */
int fsrv_skew_init(struct fsrv_skew *s, enum file_service type, double param,
		   unsigned int nr_files, struct prng_taus64 *r);

/* The next file, in [0, nr_files). */
unsigned int fsrv_skew_next(struct fsrv_skew *s, struct prng_taus64 *r);

#endif

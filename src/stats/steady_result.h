/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_STEADY_RESULT_H
#define IOLITE_STATS_STEADY_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/options.h"

/*
 * What steady state detection (run/steady.c) concluded for one job, or
 * for a group_reporting group judged as one: plain data for the report
 * writers (fio's JSON "steadystate" object and its normal-report line).
 *
 * The window holds nr samples, one a second, oldest first (the lat
 * samples, each the mean completion latency in ns of the second's I/Os,
 * only for the lat criteria, as fio); a window not
 * yet full when the job ended has zeros at its end (as fio's). The means
 * are over all nr slots (integers, as fio prints them). criterion is
 * the last value judged (a percentage of the mean when pct), with
 * max_dev (iops, bw) or slope (the _slope modes) it came from; all 0
 * until the window first filled.
 *
 * One allocation: free() it.
 */
struct ss_result {
	enum ss_mode mode;
	bool pct;
	double limit;
	bool attained;
	uint64_t attained_ms;	/* when, from the start of counting */
	double criterion;
	double max_dev;
	double slope;
	uint64_t iops_mean;
	uint64_t bw_mean;	/* bytes/s */
	uint64_t lat_mean;	/* ns; lat criteria only */
	unsigned int nr;	/* window length in samples (seconds) */
	uint64_t data[];	/* nr IOPS samples, nr bw (bytes/s), nr lat */
};

static inline const uint64_t *ss_result_iops(const struct ss_result *r)
{
	return r->data;
}

static inline const uint64_t *ss_result_bw(const struct ss_result *r)
{
	return r->data + r->nr;
}

static inline const uint64_t *ss_result_lat(const struct ss_result *r)
{
	return r->data + 2 * r->nr;
}

/* "iops_slope" and so on */
static inline const char *ss_mode_name(enum ss_mode m)
{
	switch (m) {
	case SS_IOPS:
		return "iops";
	case SS_BW:
		return "bw";
	case SS_BW_SLOPE:
		return "bw_slope";
	case SS_LAT:
		return "lat";
	case SS_LAT_SLOPE:
		return "lat_slope";
	default:
		return "iops_slope";
	}
}

#endif

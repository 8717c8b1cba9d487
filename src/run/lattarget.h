/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_LATTARGET_H
#define IOLITE_RUN_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/plan.h"
#include "run/worker.h"
#include "stats/stats.h"

/*
 * latency_target and max_latency, for one worker.
 *
 * latency_target searches for the highest queue depth (up to iodepth)
 * at which latency_percentile percent of the I/Os completed in each
 * latency_window take no longer than the target. The worker starts at
 * depth 1. A window that meets the target raises the depth: doubling
 * until a window first fails, then halfway towards the lowest depth
 * that failed. A window that misses it lowers the depth halfway towards
 * the highest that met it, after the I/O in flight completes (a burst
 * of slow completions is not judged again at the lower depth). When the
 * depth stops moving, the statistics restart and one more window runs
 * at that depth: if it meets the target the job ends there (fio's
 * behaviour, so the report shows the depth found), unless latency_run
 * keeps the search going until the job's own end. A window is judged
 * from the job's latency histogram (total latency, or completion
 * latency where only that is measured), so the I/O path does no extra
 * work: the target's own histogram bucket counts as meeting it (an
 * error of at most 1/64 of the target).
 *
 * The depth is capped by parking io_us: the free list the worker
 * issues from holds only as many as the depth allows.
 *
 * max_latency: the job fails with ETIMEDOUT when an I/O's latency
 * (total, or completion where only that is measured) exceeds the
 * direction's limit; checked once per batch from the maxima the worker
 * keeps anyway.
 */
struct lat_target {
	uint64_t next_ns;		/* the current window ends */
	uint64_t window_ns;
	uint64_t max_lat[DDIR_RWDIR_CNT];	/* ns; UINT64_MAX: none */
	bool search;			/* latency_target set */
	bool use_lat;			/* judge lat, else clat */
	bool run;			/* latency_run */
	bool final;			/* the window that confirms the depth */
	bool failed;			/* some window missed the target */
	double pct;
	unsigned int bucket;		/* histogram index of the target */
	unsigned int depth;		/* the job's iodepth */
	unsigned int qd, lo, hi;	/* current, highest met, lowest missed */
	unsigned int *parked;		/* io_u indexes kept off the free list */
	unsigned int nr_parked;
	uint64_t n0, over0;		/* counts when the window began */
};

/* What lat_target_check() asks of the worker; bits. */
enum {
	LT_DRAIN = 1,	/* complete what is in flight first */
	LT_RESET = 2,	/* restart the statistics */
	LT_APPLY = 4,	/* the depth changed: lat_target_apply() */
	LT_STOP = 8,	/* the job ends (depth found, or max_latency) */
};

/*
 * A new state for a job, or NULL when it sets neither latency_target nor
 * max_latency. depth: the worker's io_u count; use_lat: the worker
 * measures total latency (else only completion latency). Free with
 * lat_target_free().
 */
struct lat_target *lat_target_new(const struct job_plan *p,
				  unsigned int depth, bool use_lat);
void lat_target_free(struct lat_target *lt);

/*
 * The first window begins: parks io_us down to depth 1. Every io_u is
 * on the free list (freel[0 .. *nr_free)).
 */
void lat_target_start(struct lat_target *lt, const struct worker_stats *st,
		      uint64_t now, unsigned int *freel, unsigned int *nr_free);

/*
 * Once per batch: max_latency (on failure: rj->errmsg, st->error =
 * ETIMEDOUT and LT_STOP), then, when a window is over, the next depth.
 * Returns LT_* bits; with LT_DRAIN or LT_RESET, the worker does those,
 * then calls lat_target_apply().
 */
int lat_target_check(struct lat_target *lt, struct run_job *rj,
		     struct worker_stats *st, uint64_t now);

/*
 * Parks or unparks io_us so that the free list plus what is in flight
 * matches the new depth, and starts the next window. When the depth
 * went down the worker has drained: every unparked io_u is free.
 */
void lat_target_apply(struct lat_target *lt, const struct worker_stats *st,
		      uint64_t now, unsigned int *freel, unsigned int *nr_free);

/* The depth the search is at (for the report); 0 without a search. */
unsigned int lat_target_depth(const struct lat_target *lt);

#endif

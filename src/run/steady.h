/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_STEADY_H
#define IOLITE_RUN_STEADY_H

#include <stdint.h>

#include "run/checks.h"
#include "run/worker.h"
#include "stats/results.h"

/*
 * Steady state detection (steadystate, ss_dur, ss_ramp), run by the
 * runner's reporter thread, never by the workers.
 *
 * A unit is what fio judges as one: a job instance, or the jobs reported
 * together under group_reporting (stats/results.c's rule), whose rates
 * add up. Once every member counts (ramp_time over) and ss_ramp more has
 * passed, the unit's IOPS and bandwidth are sampled once a second from
 * the workers' live counters into a window of ss_dur seconds (and, for
 * the lat criteria, the mean completion latency of the second's I/Os over
 * every direction, from the clat counts the workers then publish too).
 * Each time the window is full the criterion is judged over it:
 *
 *   iops, bw, lat: the largest distance of a sample from the window's mean
 *     (as a percentage of the mean with LIMIT%) is at most LIMIT;
 *   iops_slope, bw_slope, lat_slope: the least-squares slope of the samples, per
 *     second (as a percentage of the mean with LIMIT%), in absolute
 *     value, is below LIMIT.
 *
 * When it holds, every member's stop flag is set: the workers end at
 * their next batch, as at the end of their runtime.
 */
struct steady;

/* NULL when no job asks for steady state (steadystate_duration 0). */
struct steady *steady_init(struct run_job *jobs, unsigned int nr);
/* Reporter thread, every tick (about 10 ms); samples once a second. */
void steady_tick(struct steady *s, uint64_t now);
/*
 * After the run: each member's res.ss gets its own copy of its unit's
 * result (freed with free(), see worker_result). Frees s; s may be NULL.
 */
void steady_finish(struct steady *s);

/*
 * The steady-state block of rj's unit as it stands (for reports made
 * while the run goes on), or NULL when rj does not judge steady state.
 * The caller frees it. Call from the reporter thread, as steady_tick().
 */
struct ss_result *steady_result_of(const struct steady *s,
				   const struct run_job *rj);

/* A note per job that reached steady state and stopped early. */
void steady_notes(const struct run_result *rr, struct notes *out);

/*
 * exit_what: job rj has finished (called with ctx->lock held). As fio,
 * exitall set in any job applies to every job: the jobs rj's exit_what
 * names are told to stop (group: rj's group; stonewall: every job
 * running now, the next stonewall group still starts; all: everything,
 * later groups do not start). exitall_on_error does the same when rj
 * failed.
 */
void exit_what_finished(struct run_job *rj);

#endif

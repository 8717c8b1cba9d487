/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_PACE_H
#define IOLITE_RUN_PACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "opt/plan.h"
#include "stats/stats.h"
#include "util/prng.h"

/*
 * Pacing: when a job issues its I/Os. Rate caps (rate, rate_iops, per
 * direction), think time (thinktime*), flows (run/flow.h) and the
 * minimum-rate checks (rate_min, rate_iops_min over rate_cycle).
 *
 * The worker calls pace_io() before it issues each new I/O, only when
 * the job paces (w->pace != NULL): a job without any of these options
 * pays one predicted branch per I/O and nothing else. pace_io() reads
 * the clock only when it has to wait.
 *
 * Rates follow a schedule: direction d's I/O is due at start + (bytes of
 * d issued before it) / rate[d] (rate_process=linear), or after an
 * exponentially distributed gap with that mean (poisson); a replay's
 * rate_iops counts I/Os instead of bytes (pace_rate_by_count()). A job that
 * falls behind issues at once until it has caught up, as fio does; one
 * that is ahead waits (in-flight I/O first completes, as fio's
 * quiescing, so that completion times are not taken late), sleeping for
 * long waits and spinning for the last stretch.
 *
 * Beyond fio: each rated I/O's due time is its intended issue time, and
 * pace_done() records its latency from then (the co_lat stats): a device
 * that stalls makes every I/O scheduled during the stall late, and that
 * shows there, where lat only shows the few I/Os that were in flight.
 */

struct pace;
struct workload;
struct flow_table;

struct pace_env {
	const struct job_plan *plan;
	struct worker_stats *st;	/* co_lat goes here */
	struct workload *wl;		/* direction picks of mixed jobs */
	struct flow_table *flows;	/* the run's, or NULL */
	unsigned int job;		/* index in the run (flows) */
	unsigned int nr_io_u;		/* io_u indexes are below this */
	/*
	 * Completes every I/O in flight (the worker's drain); non-zero
	 * when one of them stops the job. NULL: nothing is ever in flight.
	 */
	int (*quiesce)(void *arg);
	void *arg;
	const volatile int *stop;	/* the run's stop flag */
	const volatile int *job_stop;	/* this job's, or NULL */
	uint64_t now;			/* the job starts (ns) */
	uint64_t end_ns;		/* runtime end, 0: none */
	uint64_t count_ns;		/* counting starts (after ramp) */
	char *errmsg;			/* the job's, for rate_min */
	size_t errmsg_size;
};

/*
 * Sets *out to a new pace for the job, or to NULL when the job has
 * nothing to pace. Returns 0 (allocation failure dies, as xmalloc).
 * pace_free() frees; NULL is fine. The job leaves its flow with
 * flow_job_done() (run/flow.h), which the worker calls however it ends.
 */
int pace_init(struct pace **out, const struct pace_env *env);
void pace_free(struct pace *pc);
/* The job's end moved (ramp_size's ramp ended): 0 none; NULL is fine. */
void pace_set_end(struct pace *pc, uint64_t end_ns);

/*
 * Before issuing u (a new I/O: direction and length set): thinks when
 * due, waits for the flow and the rate schedule, and checks the minimum
 * rates. *now is the caller's latest clock reading, updated when this
 * waited. Returns 0 to issue u now; 1 to stop the job: its runtime is
 * over, the run stops, quiescing failed, or a minimum rate was missed
 * (then st->error is EIO and errmsg says which).
 */
int pace_io(struct pace *pc, struct io_u *u, uint64_t *now);

/*
 * A pass ran out of I/O short of its budget: waits, as fio, for the rate
 * of the direction it would have moved next. Returns 1 when the run
 * stops or the runtime ends first.
 */
int pace_tail(struct pace *pc, uint64_t *now);

/*
 * u is issued without pacing (a verify read-back: fio paces neither its
 * verify phase nor its verify_backlog reads): no co_lat sample for it.
 */
void pace_skip(struct pace *pc, const struct io_u *u);

/* u (a read, write or trim) completed at now: its co_lat sample. */
void pace_done(struct pace *pc, const struct io_u *u, uint64_t now);

/* Whether pace_done() has anything to record (a rate is set). */
bool pace_records(const struct pace *pc);

/*
 * The schedule's arithmetic, for the unit tests: the offset (ns) from
 * the schedule's start of the I/O that follows 'bytes' bytes at 'bps'
 * bytes per second; and one exponential gap of the given mean (ns),
 * from a draw of the generator (ns, of a mean in whole us, as fio).
 */
uint64_t pace_linear_offset(uint64_t bytes, uint64_t bps);
uint64_t pace_exp_gap(struct prng_taus *r, uint64_t mean_us);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_FLOW_H
#define IOLITE_RUN_FLOW_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Flows (flow_id, flow, flow_sleep): the running jobs that share a
 * flow_id and set a flow weight issue I/Os in the ratio of their
 * weights. Each flow is two shared counters, the I/Os its members have
 * issued and the sum of their weights; a job may issue its next I/O
 * while its own share of the flow's I/Os is not above its share of the
 * weights. A job joins when its stonewall segment starts (or, when it
 * waits first, when its I/O starts) and leaves, taking
 * its weight and its I/Os with it, when its I/O ends: a job that has
 * finished never holds the others back, and of the jobs held back at
 * least one may always go on.
 *
 * Only jobs with flow set touch the counters: one relaxed atomic add
 * per I/O and two loads. Jobs without flow never see this file.
 */

struct run_job;
struct flow_table;

/* A job's membership of its flow (in the table, one per job). */
struct flow_member {
	struct flow *f;		/* NULL: the job is in no flow */
	uint64_t weight;
	uint64_t issued;	/* this job's I/Os while in the flow */
	unsigned int held;	/* consecutive checks held back */
	bool joined;
	bool late;		/* joins when its I/O starts */
};

/*
 * One table per run, shared by its jobs (run_ctx.flows): a flow per
 * flow_id that some job with flow set uses, and a membership per job.
 * Returns NULL when no job sets flow (nothing to share), and then every
 * call below does nothing with it. flow_table_free(NULL) does nothing.
 */
struct flow_table *flow_table_new(const struct run_job *jobs, unsigned int nr);
void flow_table_free(struct flow_table *t);

/*
 * Jobs [from, to) are about to start (a stonewall segment): they join
 * their flows now, from the runner, so that none runs ahead alone while
 * the others' threads are still starting. Jobs that wait first
 * (startdelay, wait_for) join when their I/O starts, flow_job_start():
 * a job waiting for another of its flow must not hold that one back.
 */
void flow_start_jobs(struct flow_table *t, unsigned int from,
		     unsigned int to);
/* Job i's I/O starts: it joins its flow if it has not yet. */
void flow_job_start(struct flow_table *t, unsigned int job);

/* Job i's membership, or NULL when job i is in no flow. */
struct flow_member *flow_member_of(struct flow_table *t, unsigned int job);

/*
 * Job i's I/O is over (or never started): it leaves its flow, taking its
 * weight and its I/Os with it. Called by the job's own thread; a second
 * call does nothing.
 */
void flow_job_done(struct flow_table *t, unsigned int job);

/*
 * The rule, as a pure function: a member that issued 'own' of the
 * flow's 'total' I/Os, with 'weight' of its 'total_weight', may issue
 * the next one when own / total <= weight / total_weight.
 */
static inline bool flow_share_ok(uint64_t own, uint64_t weight,
				 uint64_t total, uint64_t total_weight)
{
	return (unsigned __int128)own * total_weight <=
	       (unsigned __int128)weight * total;
}

/* Whether m may issue now; if so, counts the I/O. */
bool flow_try_issue(struct flow_member *m);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Flows: shared I/O counters per flow_id (see flow.h for the rule).
 */
#include "run/flow.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "run/worker.h"
#include "util/log.h"

struct flow {
	unsigned int id;
	_Atomic uint64_t issued;	/* I/Os of the members in the flow */
	_Atomic uint64_t weight;	/* sum of the members' weights */
};

struct flow_table {
	struct flow *flows;
	unsigned int nr_flows;
	struct flow_member *members;	/* one per job */
	unsigned int nr_jobs;
};

static struct flow *flow_find(struct flow_table *t, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < t->nr_flows; i++)
		if (t->flows[i].id == id)
			return &t->flows[i];
	return NULL;
}

struct flow_table *flow_table_new(const struct run_job *jobs, unsigned int nr)
{
	struct flow_table *t = NULL;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct job_options *o = &jobs[i].plan->o;
		struct flow *f;

		if (!o->flow)
			continue;
		if (!t) {
			t = xcalloc(1, sizeof(*t));
			/* at most one flow per job */
			t->flows = xcalloc(nr, sizeof(*t->flows));
			t->members = xcalloc(nr, sizeof(*t->members));
			t->nr_jobs = nr;
		}
		f = flow_find(t, o->flow_id);
		if (!f) {
			f = &t->flows[t->nr_flows++];
			f->id = o->flow_id;
			atomic_init(&f->issued, 0);
			atomic_init(&f->weight, 0);
		}
		t->members[i].f = f;
		t->members[i].weight = o->flow;
		t->members[i].late = o->startdelay_us ||
				     (o->wait_for && *o->wait_for);
	}
	return t;
}

void flow_table_free(struct flow_table *t)
{
	if (!t)
		return;
	free(t->flows);
	free(t->members);
	free(t);
}

static void join(struct flow_member *m)
{
	if (!m->f || m->joined)
		return;
	m->joined = true;
	atomic_fetch_add_explicit(&m->f->weight, m->weight,
				  memory_order_relaxed);
}

void flow_start_jobs(struct flow_table *t, unsigned int from,
		     unsigned int to)
{
	unsigned int i;

	for (i = from; t && i < to && i < t->nr_jobs; i++)
		if (!t->members[i].late)
			join(&t->members[i]);
}

void flow_job_start(struct flow_table *t, unsigned int job)
{
	struct flow_member *m = flow_member_of(t, job);

	if (m)
		join(m);
}

struct flow_member *flow_member_of(struct flow_table *t, unsigned int job)
{
	if (!t || job >= t->nr_jobs || !t->members[job].f)
		return NULL;
	return &t->members[job];
}

void flow_job_done(struct flow_table *t, unsigned int job)
{
	struct flow_member *m = flow_member_of(t, job);

	if (!m || !m->joined)
		return;
	m->joined = false;
	atomic_fetch_sub_explicit(&m->f->issued, m->issued,
				  memory_order_relaxed);
	atomic_fetch_sub_explicit(&m->f->weight, m->weight,
				  memory_order_relaxed);
	m->issued = 0;
}

bool flow_try_issue(struct flow_member *m)
{
	struct flow *f = m->f;
	uint64_t total, tw;

	if (!m->joined)
		return true;
	/*
	 * Counts read a little stale only move the boundary by an I/O or
	 * two: the ratio over the run is what the rule keeps.
	 */
	total = atomic_load_explicit(&f->issued, memory_order_relaxed);
	tw = atomic_load_explicit(&f->weight, memory_order_relaxed);
	if (!flow_share_ok(m->issued, m->weight, total, tw)) {
		m->held++;
		return false;
	}
	m->held = 0;
	m->issued++;
	atomic_fetch_add_explicit(&f->issued, 1, memory_order_relaxed);
	return true;
}

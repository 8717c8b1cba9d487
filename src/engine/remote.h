/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_REMOTE_H
#define IOLITE_ENGINE_REMOTE_H

/*
 * Private to the engines of storage on a server (nbd.c, libiscsi.c): how
 * long they wait for a server that has stopped answering. They wait in
 * slices; once the job is stopped or its runtime is over (the engine
 * cannot see the worker's clock: from its setup, the job's delays and
 * runtime, a bound later than the worker's), a server that has not
 * answered for REMOTE_STALL_MS more has its commands failed with
 * ETIMEDOUT, so that a stalled server cannot hold the run forever.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engines.h"
#include "util/strbuf.h"

#define REMOTE_SLICE_MS 100
#define REMOTE_STALL_MS 5000

struct remote_wait {
	uint64_t end_ns;	/* the runtime's end; 0: none */
	uint64_t since;		/* past it, no reply since; 0: replies */
};

/* At the job's setup (its connection made). */
static inline void remote_wait_start(struct remote_wait *w,
				     const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	w->since = 0;
	w->end_ns = o->runtime_us ? engine_mono_ns() + (o->startdelay_us +
		    o->ramp_time_us + o->runtime_us) * 1000 : 0;
}

/*
 * After a slice's wait: progress, or none. True when the engine is to
 * give up on what is in flight.
 */
static inline bool remote_wait_stalled(struct remote_wait *w,
				       const struct engine *e, bool progress)
{
	uint64_t now;

	if (progress) {
		w->since = 0;
		return false;
	}
	now = engine_mono_ns();
	if (!engine_stopping(e) && (!w->end_ns || now < w->end_ns))
		return false;
	if (!w->since)
		w->since = now;
	return now - w->since > REMOTE_STALL_MS * 1000000ULL;
}

/*
 * The I/Os of a queue whose completions come from the library's
 * callbacks: queued counts those sent, done those completed and not yet
 * handed out by getevents(), out those it handed out last (event()).
 * cap: the io_u indexes (depth + 1: the worker may hold one io_u more
 * than the depth, for syncs).
 */
struct remote_q {
	struct io_u **done, **out;
	unsigned int nr_done, queued, cap;
};

static inline void remote_q_init(struct remote_q *q, unsigned int depth)
{
	q->cap = depth + 1;
	q->done = xcalloc(q->cap, sizeof(*q->done));
	q->out = xcalloc(q->cap, sizeof(*q->out));
}

static inline void remote_q_free(struct remote_q *q)
{
	free(q->done);
	free(q->out);
}

/* u completed with error (0: whole) */
static inline void remote_q_done(struct remote_q *q, struct io_u *u,
				 int error)
{
	u->error = error;
	u->resid = error ? u->len : 0;
	q->done[q->nr_done++] = u;
	q->queued--;
}

/* getevents()'s end: up to max of the completions handed out */
static inline int remote_q_take(struct remote_q *q, unsigned int max)
{
	unsigned int n = q->nr_done < max ? q->nr_done : max;

	memcpy(q->out, q->done, n * sizeof(*q->out));
	q->nr_done -= n;
	memmove(q->done, q->done + n, q->nr_done * sizeof(*q->done));
	return (int)n;
}

/* A connection (session) and why it broke, kept the first time. */
struct remote_link {
	bool dead;		/* broken: every I/O fails at once */
	char reason[200];
};

static inline void remote_link_break(struct remote_link *l, const char *why)
{
	if (!l->dead)
		snprintf(l->reason, sizeof(l->reason), "%s", why);
	l->dead = true;
}

#endif

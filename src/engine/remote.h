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

#include "engine/engines.h"

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

#endif

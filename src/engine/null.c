/* SPDX-License-Identifier: MIT */
/*
 * null: transfers nothing, every I/O succeeds. It measures the benchmark
 * itself, so it behaves like a real engine of its kind, and as fio's null
 * engine does, for the same IO depth figures: at depth 1 queue()
 * completes inline; at depth > 1 queue() returns QUEUED, commit() makes
 * the batch complete and getevents() hands all of it back, whatever its
 * max (fio's counts one reap of the batch). Until that batch is reaped,
 * queue() says BUSY: one batch in flight at a time, so at iodepth=8 and
 * iodepth_batch=1 every I/O goes at depth 1 (fio: 100% at 1), at
 * iodepth_batch=4 at depth 4.
 * No file is opened (ENGINE_F_NOFILEIO): files.c neither creates nor sizes
 * anything for it beyond what size= says.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engines.h"
#include "util/strbuf.h"

struct null_engine {
	struct engine e;
	struct io_u **queued;	/* accepted, not yet committed */
	unsigned int nr_queued;
	struct io_u **done;	/* committed: complete, not yet reaped */
	unsigned int nr_done;
	unsigned int nr_reaped;	/* handed out by the last getevents() */
	unsigned int cap;
};

static inline struct null_engine *to_null(struct engine *e)
{
	return (struct null_engine *)e;
}

static int null_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	struct null_engine *ne = xcalloc(1, sizeof(*ne));

	ne->e.plan = plan;
	ne->e.depth = depth ? depth : 1;
	/* the worker may hold one io_u more than the depth, for syncs */
	ne->cap = ne->e.depth + 1;
	ne->queued = xcalloc(ne->cap, sizeof(*ne->queued));
	ne->done = xcalloc(ne->cap, sizeof(*ne->done));
	*out = &ne->e;
	return 0;
}

static void null_cleanup(struct engine *e)
{
	struct null_engine *ne = to_null(e);

	free(ne->queued);
	free(ne->done);
	free(ne);
}

static int null_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	return 0;
}

static int null_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

static enum engine_q null_queue(struct engine *e, struct io_u *u)
{
	struct null_engine *ne = to_null(e);

	u->error = 0;
	u->resid = 0;
	if (e->depth == 1)
		return ENGINE_Q_DONE;
	/* a committed batch not handed back yet: fio's null waits for it */
	if (ne->nr_done > ne->nr_reaped || ne->nr_queued >= ne->cap)
		return ENGINE_Q_BUSY;
	ne->queued[ne->nr_queued++] = u;
	return ENGINE_Q_QUEUED;
}

static void null_trim_reaped(struct null_engine *ne)
{
	if (!ne->nr_reaped)
		return;
	ne->nr_done -= ne->nr_reaped;
	memmove(ne->done, ne->done + ne->nr_reaped,
		ne->nr_done * sizeof(*ne->done));
	ne->nr_reaped = 0;
}

static int null_commit(struct engine *e)
{
	struct null_engine *ne = to_null(e);

	null_trim_reaped(ne);
	memcpy(ne->done + ne->nr_done, ne->queued,
	       ne->nr_queued * sizeof(*ne->queued));
	ne->nr_done += ne->nr_queued;
	ne->nr_queued = 0;
	return 0;
}

static int null_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	struct null_engine *ne = to_null(e);
	unsigned int n;

	null_trim_reaped(ne);
	/* a caller that waits for more than was committed gets the rest */
	if (ne->nr_done < min)
		null_commit(e);
	/* the whole batch, past max: it is done, and fio hands it all */
	n = ne->nr_done;
	ne->nr_reaped = n;
	return (int)n;
}

static struct io_u *null_event(struct engine *e, unsigned int i)
{
	return to_null(e)->done[i];
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.help = "transfers nothing, every I/O succeeds (measures iolite)",
	.flags = ENGINE_F_NOFILEIO | ENGINE_F_INLINE_DEPTH1 | ENGINE_F_FAKEIO |
		 ENGINE_F_OFFLOAD_SHARED,
	.init = null_init,
	.cleanup = null_cleanup,
	.open_file = null_open,
	.close_file = null_close,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
};

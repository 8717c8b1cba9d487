/* SPDX-License-Identifier: MIT */
/*
 * io_submit_mode=offload: the job's thread does not call the engine; a
 * pool of submitter threads does. This file is an engine that wraps the
 * job's engine: queue() puts the io_u on a submission queue, a submitter
 * takes it and does it with the wrapped engine, then puts it on the
 * completion queue that getevents() reaps. The worker sees a queueing
 * engine of depth iodepth, with one thread per slot (up to
 * OFFLOAD_THREADS_MAX), so up to iodepth I/Os are in the kernel at once.
 *
 * Engines that complete inline and keep no state between calls
 * (ENGINE_F_OFFLOAD_SHARED: psync, pvsync, pvsync2, null) are shared by
 * the submitters: one instance. Queueing engines (ENGINE_F_OFFLOAD_OWN:
 * libaio, io_uring, posixaio) get one instance per submitter (a context or ring of its own), each doing one I/O at a
 * time: queue, commit, wait for its completion, as fio's offload does.
 * The first instance opens and closes the files; the others use its
 * descriptors.
 *
 * Both queues are rings of depth + 1 slots (the worker never has more in
 * flight) under one mutex, with a condition variable each: this mode is
 * off the fast path by the user's choice. It cannot deadlock: a
 * submitter waits only for work or for the exit flag, every io_u taken
 * is completed and posted, and the worker waits only for I/O it queued.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engines.h"
#include "util/log.h"

#define OFFLOAD_THREADS_MAX 64

struct submitter_arg;

/* A ring of io_u pointers; head and tail only grow. */
struct uring_q {
	struct io_u **slot;
	unsigned int cap;
	unsigned int head, tail;
};

struct offload_engine {
	struct engine e;
	const struct engine_ops *iops;	/* the wrapped engine */
	struct engine *inner;		/* = inst[0] */
	struct engine **inst;		/* per submitter, or all = inner */
	unsigned int nr_inst;
	pthread_t *thr;
	unsigned int nr_thr;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* submitters wait here */
	pthread_cond_t done;		/* the job waits here */
	struct uring_q sq, cq;
	unsigned int nr_new;		/* queued since the last commit */
	bool exit;
	struct io_u **events;		/* the last getevents() */
	struct submitter_arg *sargs;
};

static struct offload_engine *to_off(struct engine *e)
{
	return (struct offload_engine *)e;
}

static void q_push(struct uring_q *q, struct io_u *u)
{
	if (q->head - q->tail >= q->cap)
		BUG("offload: queue of %u overflows", q->cap);
	q->slot[q->head++ % q->cap] = u;
}

static struct io_u *q_pop(struct uring_q *q)
{
	return q->slot[q->tail++ % q->cap];
}

static unsigned int q_len(const struct uring_q *q)
{
	return q->head - q->tail;
}

/* A submitter's own instance of the wrapped engine, and the pool. */
struct submitter_arg {
	struct offload_engine *oe;
	struct engine *e;
};

/* One I/O through the wrapped engine, to its end. */
static void offload_one(struct offload_engine *oe, struct engine *e,
			struct io_u *u)
{
	enum engine_q q = oe->iops->queue(e, u);
	int n;

	if (q == ENGINE_Q_DONE)
		return;
	if (q == ENGINE_Q_BUSY) {
		/* nothing else is in flight on this instance */
		u->error = EBUSY;
		return;
	}
	if (oe->iops->commit) {
		n = oe->iops->commit(e);
		if (n < 0) {
			u->error = -n;
			return;
		}
	}
	do {
		n = oe->iops->getevents(e, 1, 1, NULL);
	} while (n == -EINTR || n == -EAGAIN || n == 0);
	if (n < 0)
		u->error = -n;
	else if (oe->iops->event(e, 0) != u)
		BUG("offload: engine '%s' completed another I/O",
		    oe->iops->name);
}

static void *submitter(void *arg)
{
	struct submitter_arg *sa = arg;
	struct offload_engine *oe = sa->oe;
	struct io_u *u;

	pthread_mutex_lock(&oe->lock);
	for (;;) {
		while (!q_len(&oe->sq) && !oe->exit)
			pthread_cond_wait(&oe->work, &oe->lock);
		if (!q_len(&oe->sq))
			break;	/* exit, and nothing left to do */
		u = q_pop(&oe->sq);
		pthread_mutex_unlock(&oe->lock);
		offload_one(oe, sa->e, u);
		pthread_mutex_lock(&oe->lock);
		q_push(&oe->cq, u);
		pthread_cond_signal(&oe->done);
	}
	pthread_mutex_unlock(&oe->lock);
	return NULL;
}

static void off_stop(struct offload_engine *oe)
{
	unsigned int i;

	pthread_mutex_lock(&oe->lock);
	oe->exit = true;
	pthread_cond_broadcast(&oe->work);
	pthread_mutex_unlock(&oe->lock);
	for (i = 0; i < oe->nr_thr; i++)
		pthread_join(oe->thr[i], NULL);
	oe->nr_thr = 0;
}

static void off_cleanup(struct engine *e)
{
	struct offload_engine *oe = to_off(e);

	unsigned int i;

	off_stop(oe);
	for (i = 0; i < oe->nr_inst; i++)
		oe->iops->cleanup(oe->inst[i]);
	free(oe->inst);
	free(oe->sargs);
	pthread_mutex_destroy(&oe->lock);
	pthread_cond_destroy(&oe->work);
	pthread_cond_destroy(&oe->done);
	free(oe->sq.slot);
	free(oe->cq.slot);
	free(oe->events);
	free(oe->thr);
	free(oe);
}

static int off_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	struct offload_engine *oe = xcalloc(1, sizeof(*oe));
	unsigned int i, want, flags;
	bool own;
	int ret;

	oe->e.plan = plan;
	oe->e.depth = depth;
	pthread_mutex_init(&oe->lock, NULL);
	pthread_cond_init(&oe->work, NULL);
	pthread_cond_init(&oe->done, NULL);
	oe->sq.cap = oe->cq.cap = depth + 1;
	oe->sq.slot = xcalloc(depth + 1, sizeof(*oe->sq.slot));
	oe->cq.slot = xcalloc(depth + 1, sizeof(*oe->cq.slot));
	oe->events = xcalloc(depth + 1, sizeof(*oe->events));
	oe->iops = engine_find(plan->o.ioengine);
	*out = &oe->e;
	flags = oe->iops ? oe->iops->flags : 0;
	own = flags & ENGINE_F_OFFLOAD_OWN;
	if (!(flags & (ENGINE_F_OFFLOAD_SHARED | ENGINE_F_OFFLOAD_OWN))) {
		strbuf_addf(err, "io_submit_mode=offload: ioengine '%s' cannot "
			    "be offloaded", plan->o.ioengine);
		return -EINVAL;
	}
	want = depth < OFFLOAD_THREADS_MAX ? depth : OFFLOAD_THREADS_MAX;
	/*
	 * An inline engine does one I/O per call: depth 1, shared. A
	 * queueing one is made at the job's depth (its per-io_u arrays are
	 * indexed by io_u), one per thread, each with one I/O in flight.
	 */
	oe->inst = xcalloc(want, sizeof(*oe->inst));
	for (i = 0; i < (own ? want : 1); i++) {
		ret = oe->iops->init(plan, own ? depth : 1, &oe->inst[i], err);
		if (ret)
			return ret;
		oe->nr_inst++;
	}
	oe->inner = oe->inst[0];
	oe->thr = xcalloc(want, sizeof(*oe->thr));
	oe->sargs = xcalloc(want, sizeof(*oe->sargs));
	for (i = 0; i < want; i++) {
		oe->sargs[i].oe = oe;
		oe->sargs[i].e = oe->inst[i < oe->nr_inst ? i : 0];
		ret = pthread_create(&oe->thr[i], NULL, submitter,
				     &oe->sargs[i]);
		if (ret) {
			strbuf_addf(err, "io_submit_mode=offload: cannot start "
				    "a submission thread: %s", strerror(ret));
			return -ret;
		}
		oe->nr_thr++;
	}
	return 0;
}

static int off_open(struct engine *e, struct engine_file *f,
		    struct strbuf *err)
{
	struct offload_engine *oe = to_off(e);
	unsigned int i;

	for (i = 0; i < oe->nr_inst; i++) {
		oe->inst[i]->files = e->files;
		oe->inst[i]->nr_files = e->nr_files;
	}
	/* the others use the descriptor the first one opens */
	return oe->iops->open_file(oe->inner, f, err);
}

static int off_close(struct engine *e, struct engine_file *f)
{
	struct offload_engine *oe = to_off(e);

	return oe->iops->close_file(oe->inner, f);
}

/* Every instance may be the one that does this io_u. */
static int off_prep(struct engine *e, struct io_u *u)
{
	struct offload_engine *oe = to_off(e);
	unsigned int i;
	int ret;

	for (i = 0; oe->iops->prep && i < oe->nr_inst; i++) {
		ret = oe->iops->prep(oe->inst[i], u);
		if (ret)
			return ret;
	}
	return 0;
}

static enum engine_q off_queue(struct engine *e, struct io_u *u)
{
	struct offload_engine *oe = to_off(e);

	pthread_mutex_lock(&oe->lock);
	q_push(&oe->sq, u);
	oe->nr_new++;
	pthread_mutex_unlock(&oe->lock);
	return ENGINE_Q_QUEUED;
}

/* Wakes as many submitters as there is new work for. */
static int off_commit(struct engine *e)
{
	struct offload_engine *oe = to_off(e);

	pthread_mutex_lock(&oe->lock);
	if (oe->nr_new > 1)
		pthread_cond_broadcast(&oe->work);
	else if (oe->nr_new)
		pthread_cond_signal(&oe->work);
	oe->nr_new = 0;
	pthread_mutex_unlock(&oe->lock);
	return 0;
}

static int off_getevents(struct engine *e, unsigned int min, unsigned int max,
			 const struct timespec *timeout)
{
	struct offload_engine *oe = to_off(e);
	unsigned int n = 0;

	pthread_mutex_lock(&oe->lock);
	/* what queue() took but no commit() announced yet goes now */
	if (oe->nr_new) {
		pthread_cond_broadcast(&oe->work);
		oe->nr_new = 0;
	}
	while (q_len(&oe->cq) < min) {
		if (timeout) {
			struct timespec abs;

			clock_gettime(CLOCK_REALTIME, &abs);
			abs.tv_sec += timeout->tv_sec;
			abs.tv_nsec += timeout->tv_nsec;
			if (abs.tv_nsec >= 1000000000L) {
				abs.tv_sec++;
				abs.tv_nsec -= 1000000000L;
			}
			if (pthread_cond_timedwait(&oe->done, &oe->lock,
						   &abs) == ETIMEDOUT)
				break;
		} else {
			pthread_cond_wait(&oe->done, &oe->lock);
		}
	}
	while (n < max && q_len(&oe->cq))
		oe->events[n++] = q_pop(&oe->cq);
	pthread_mutex_unlock(&oe->lock);
	return (int)n;
}

static struct io_u *off_event(struct engine *e, unsigned int i)
{
	return to_off(e)->events[i];
}

static void off_describe(struct engine *e, struct strbuf *out)
{
	struct offload_engine *oe = to_off(e);

	strbuf_addf(out, "io_submit_mode=offload: %u submission thread%s "
		    "calling %s", oe->nr_thr, oe->nr_thr == 1 ? "" : "s",
		    oe->iops->name);
	if (oe->iops->describe) {
		struct strbuf in = STRBUF_INIT;

		oe->iops->describe(oe->inner, &in);
		if (in.len)
			strbuf_addf(out, "; %s", strbuf_str(&in));
		strbuf_release(&in);
	}
}

#define OFFLOAD_OPS(n, fl) {						\
	.name = n,							\
	.help = "io_submit_mode=offload around another engine",	\
	.flags = fl,							\
	.init = off_init,						\
	.cleanup = off_cleanup,						\
	.open_file = off_open,						\
	.close_file = off_close,					\
	.prep = off_prep,						\
	.queue = off_queue,						\
	.commit = off_commit,						\
	.getevents = off_getevents,					\
	.event = off_event,						\
	.describe = off_describe,					\
}

static const struct engine_ops engine_offload_ops =
	OFFLOAD_OPS("offload", 0);
/* around null: no files to sync or close, as null says */
static const struct engine_ops engine_offload_nofile_ops =
	OFFLOAD_OPS("offload", ENGINE_F_NOFILEIO);

const struct engine_ops *engine_for_plan(const struct job_plan *p)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);

	if (!ops || p->o.io_submit_mode != IO_SUBMIT_OFFLOAD)
		return ops;
	return (ops->flags & ENGINE_F_NOFILEIO) ? &engine_offload_nofile_ops :
						  &engine_offload_ops;
}

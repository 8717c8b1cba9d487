/* SPDX-License-Identifier: MIT */
/*
 * libaio: Linux native AIO through the libaio library. queue() prepares an
 * iocb and parks it; commit() hands every parked iocb to io_submit() in
 * one call; getevents() first reads the completion ring the kernel shares
 * with us (no syscall when the completions are already there, as they
 * are after io_submit() on a fast device) and calls io_getevents() only
 * for what is still missing. userspace_reap=1 is fio's: a reap that asks
 * for no minimum never calls io_getevents().
 *
 * fsync, fdatasync and trims are done inline (DONE): kernel AIO fsync is
 * not supported by every filesystem, and fio does the same.
 *
 * Without the library the engine is declared all the same (its options,
 * its flags) but has no functions: ioengine=libaio is then refused with
 * the package to install.
 */
#include "engine/engines.h"

#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cmdprio.h"
#include "engine/rwflags.h"

#include "util/log.h"

struct aio_engine {
	struct engine e;
	io_context_t ctx;
	struct iocb *iocbs;		/* one per io_u, by index */
	struct iocb **pending;		/* parked for the next commit */
	unsigned int nr_pending;
	unsigned int queued;		/* submitted, not yet reaped */
	/*
	 * iocbs io_submit() refused (EINVAL for a file without AIO, such
	 * as /dev/full): each is the error of its io_u, handed back by
	 * the next getevents as a completion, as fio makes it the I/O's
	 * error; counted in queued meanwhile
	 */
	struct io_u **failed;
	unsigned int nr_failed;
	struct io_event *events;
	struct io_u **done;		/* reaped by the last getevents */
	int userspace_reap;
	bool user_ring;			/* the kernel's ring is readable */
	/*
	 * cmdprio: a request given a priority of its own carries it in
	 * aio_reqprio with IOCB_FLAG_IOPRIO; the others have the job's
	 * thread's (prio, prioclass: set by proc/prio.c), as fio
	 */
	bool prio;
	struct cmdprio cp;
	struct rwflags rf;	/* nowait, atomic: aio_rw_flags */
};

#ifndef IOCB_FLAG_IOPRIO	/* linux/aio_abi.h, which clashes with libaio.h */
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

static inline struct aio_engine *to_aio(struct engine *e)
{
	return (struct aio_engine *)e;
}

/*
 * The completion ring the kernel maps into the process at the address of
 * the io_context_t (its layout is kernel ABI: struct aio_ring in
 * fs/aio.c). Reading it saves the io_getevents() call when completions
 * are already there.
 */
struct aio_user_ring {
	unsigned int id, nr, head, tail, magic, compat_features,
		     incompat_features, header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1

/* Whether the kernel gave us a ring we know how to read. */
static bool user_ring_ok(io_context_t ctx)
{
	const struct aio_user_ring *ring = (const struct aio_user_ring *)ctx;

	return ring->magic == AIO_RING_MAGIC && ring->nr &&
	       ring->header_length == sizeof(*ring);
}

static int aio_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	struct aio_engine *ae = xcalloc(1, sizeof(*ae));
	int ret;

	ae->e.plan = plan;
	ae->e.depth = depth;
	ret = io_setup((int)depth, &ae->ctx);
	if (ret < 0) {
		strbuf_addf(err, "libaio: io_setup(%u) failed: %s%s", depth,
			    strerror(-ret), ret == -EAGAIN ?
			    " (raise /proc/sys/fs/aio-max-nr)" : "");
		free(ae);
		return ret;
	}
	ae->iocbs = xcalloc(depth + 1, sizeof(*ae->iocbs));
	ae->pending = xcalloc(depth + 1, sizeof(*ae->pending));
	ae->events = xcalloc(depth + 1, sizeof(*ae->events));
	ae->done = xcalloc(depth + 1, sizeof(*ae->done));
	ae->failed = xcalloc(depth + 1, sizeof(*ae->failed));
	ae->userspace_reap = plan->o.userspace_reap;
	ae->user_ring = user_ring_ok(ae->ctx);
	ae->prio = cmdprio_init(&ae->cp, plan);
	rwflags_init(&ae->rf, plan, false);
	*out = &ae->e;
	return 0;
}

static void aio_cleanup(struct engine *e)
{
	struct aio_engine *ae = to_aio(e);

	io_destroy(ae->ctx);
	free(ae->iocbs);
	free(ae->pending);
	free(ae->events);
	free(ae->done);
	free(ae->failed);
	free(ae);
}

static enum engine_q aio_queue(struct engine *e, struct io_u *u)
{
	struct aio_engine *ae = to_aio(e);
	struct engine_file *f = &e->files[u->file];
	struct iocb *cb = &ae->iocbs[u->index];

	if (u->ddir >= DDIR_TRIM) {
		/* every I/O: a reused io_u must not keep an earlier one's */
		if (unlikely(ae->prio))
			cmdprio_pick(&ae->cp, u);
		engine_io_result(u, engine_do_other(e, f, u));
		return ENGINE_Q_DONE;
	}
	/* a refused submission is reaped before anything else is queued */
	if (ae->queued + ae->nr_pending >= e->depth || ae->nr_failed)
		return ENGINE_Q_BUSY;
	if (u->ddir == DDIR_READ)
		io_prep_pread(cb, f->fd, u->buf, u->len, (long long)u->offset);
	else
		io_prep_pwrite(cb, f->fd, u->buf, u->len, (long long)u->offset);
	cb->aio_rw_flags = rwflags_get(&ae->rf, u->ddir);
	if (unlikely(ae->prio) && cmdprio_pick(&ae->cp, u)) {
		cb->aio_reqprio = (short)u->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = u;
	ae->pending[ae->nr_pending++] = cb;
	return ENGINE_Q_QUEUED;
}

/*
 * io_submit() said EAGAIN with nothing in flight (no completion to make
 * room): the kernel's requests are all taken for now, by what was just
 * reaped and not yet counted back. As fio, the submission is tried
 * again after a microsecond, for 30 seconds at most (fio: "aio appears
 * to be stalled, giving up"). *since: 0 before the first wait.
 */
static __attribute__((noinline)) bool aio_stall_wait(uint64_t *since)
{
	const struct timespec us = { 0, 1000 };
	struct timespec now;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	if (!*since)
		*since = t;
	else if (t - *since > 30000000000u)
		return false;
	nanosleep(&us, NULL);
	return true;
}

static int aio_commit(struct engine *e)
{
	struct aio_engine *ae = to_aio(e);
	unsigned int off = 0;
	uint64_t since = 0;

	while (off < ae->nr_pending) {
		int ret = io_submit(ae->ctx, (long)(ae->nr_pending - off),
				    ae->pending + off);

		if (ret > 0) {
			off += (unsigned int)ret;
			ae->queued += (unsigned int)ret;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN && ae->queued)
			break;	/* the worker reaps, then commits again */
		if (ret == -EAGAIN && aio_stall_wait(&since))
			continue;
		if (ret < 0 && ret != -EAGAIN) {
			/*
			 * the first iocb was refused: its I/O failed, and so
			 * do the rest (fio submits none of them)
			 */
			for (; off < ae->nr_pending; off++) {
				struct io_u *u = ae->pending[off]->data;

				engine_io_result(u, ret);
				ae->failed[ae->nr_failed++] = u;
				ae->queued++;
			}
			break;
		}
		/* refused: move the rest down and report */
		memmove(ae->pending, ae->pending + off,
			(ae->nr_pending - off) * sizeof(*ae->pending));
		ae->nr_pending -= off;
		return ret ? ret : -EIO;
	}
	memmove(ae->pending, ae->pending + off,
		(ae->nr_pending - off) * sizeof(*ae->pending));
	ae->nr_pending -= off;
	return 0;
}

static int user_reap(struct aio_engine *ae, unsigned int max)
{
	struct aio_user_ring *ring = (struct aio_user_ring *)ae->ctx;
	unsigned int head, tail, n = 0;

	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && n < max) {
		ae->events[n++] = ring->events[head];
		head = (head + 1) % ring->nr;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static int aio_getevents(struct engine *e, unsigned int min, unsigned int max,
			 const struct timespec *timeout)
{
	struct aio_engine *ae = to_aio(e);
	struct timespec ts, *tp = NULL;
	unsigned int nf = 0;
	int i, n = 0;

	if (ae->nr_pending) {
		int ret = aio_commit(e);

		if (ret < 0)
			return ret;
	}
	/* refused ones first, in the order they were queued */
	while (nf < max && nf < ae->nr_failed) {
		ae->done[nf] = ae->failed[nf];
		nf++;
	}
	ae->nr_failed -= nf;
	memmove(ae->failed, ae->failed + nf, ae->nr_failed * sizeof(*ae->failed));
	e->nr_refused = nf;
	ae->queued -= nf;
	max -= nf;
	min = min > nf ? min - nf : 0;
	if (max > ae->queued)
		max = ae->queued;
	if (min > max)
		min = max;
	if (timeout) {
		ts = *timeout;
		tp = &ts;
	}
	if (ae->user_ring)
		n = user_reap(ae, max);
	while (max && ((unsigned int)n < min ||
		       (!n && !min && !nf &&
			!(ae->userspace_reap && ae->user_ring)))) {
		struct timespec zero = { 0, 0 };
		int got = io_getevents(ae->ctx, (long)(min - (unsigned int)n),
				       (long)(max - (unsigned int)n),
				       ae->events + n, min ? tp : &zero);

		if (got == -EINTR)
			continue;
		if (got < 0)
			return got;
		n += got;
		if (tp || !min)
			break;
	}
	for (i = 0; i < n; i++) {
		struct io_u *u = ae->events[i].data;
		long res = (long)ae->events[i].res;

		engine_io_result(u, res);
		ae->done[nf + (unsigned int)i] = u;
	}
	ae->queued -= (unsigned int)n;
	return (int)nf + n;
}

static struct io_u *aio_event(struct engine *e, unsigned int i)
{
	return to_aio(e)->done[i];
}

#endif	/* HAVE_LIBAIO */

/* in fio's order (--enghelp=libaio) */
static const char *const aio_options[] = {
	"userspace_reap", "cmdprio_percentage", "cmdprio_class", "cmdprio_hint",
	"cmdprio",
	"cmdprio_bssplit", "nowait", NULL,
};

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.help = "Linux native asynchronous I/O (io_submit / io_getevents)",
	.flags = ENGINE_F_RWFLAGS | ENGINE_F_OFFLOAD_OWN | ENGINE_F_AIO_CTX,
	.options = aio_options,
#ifdef HAVE_LIBAIO
	.init = aio_init,
	.cleanup = aio_cleanup,
	.open_file = engine_open_fd,
	.close_file = engine_close_fd,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
#endif
};

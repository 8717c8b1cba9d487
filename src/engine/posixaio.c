/* SPDX-License-Identifier: MIT */
/*
 * posixaio: POSIX asynchronous I/O (aio_read(3), aio_write(3),
 * aio_fsync(3)), reaped with aio_error(3) / aio_return(3) and waited for
 * with aio_suspend(3). glibc implements it in user space with a pool of
 * threads doing pread/pwrite; it is in libc itself since glibc 2.34 (no
 * -lrt).
 *
 * One aiocb per io_u, indexed by io_u->index. The I/Os in flight are kept
 * in an array in submission order; getevents() scans it for the ones no
 * longer EINPROGRESS and moves them to the events array, waiting in
 * aio_suspend() while fewer than min are done.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engines.h"
#include "util/log.h"

struct posixaio_engine {
	struct engine e;
	struct aiocb *cbs;		/* [depth + 1], by io_u index */
	struct io_u **flight;		/* submitted, not yet reaped */
	const struct aiocb **wait;	/* aio_suspend's list */
	unsigned int nr_flight;
	struct io_u **events;		/* what the last getevents() found */
	unsigned int nr_events;
};

static struct posixaio_engine *to_pa(struct engine *e)
{
	return (struct posixaio_engine *)e;
}

static int pa_init(const struct job_plan *plan, unsigned int depth,
		   struct engine **out, struct strbuf *err)
{
	struct posixaio_engine *pe = xcalloc(1, sizeof(*pe));
	unsigned int n = depth + 1;

	pe->e.plan = plan;
	pe->e.depth = depth;
	pe->cbs = xcalloc(n, sizeof(*pe->cbs));
	pe->flight = xcalloc(n, sizeof(*pe->flight));
	pe->wait = xcalloc(n, sizeof(*pe->wait));
	pe->events = xcalloc(n, sizeof(*pe->events));
	*out = &pe->e;
	return 0;
}

static void pa_cleanup(struct engine *e)
{
	struct posixaio_engine *pe = to_pa(e);

	free(pe->cbs);
	free(pe->flight);
	free(pe->wait);
	free(pe->events);
	free(pe);
}

static int pa_open(struct engine *e, struct engine_file *f,
		   struct strbuf *err)
{
	return engine_open_fd(e, f, err);
}

static int pa_close(struct engine *e, struct engine_file *f)
{
	return engine_close_fd(e, f);
}

static enum engine_q pa_queue(struct engine *e, struct io_u *u)
{
	struct posixaio_engine *pe = to_pa(e);
	struct engine_file *f = &e->files[u->file];
	struct aiocb *cb = &pe->cbs[u->index];
	int ret;

	if (u->ddir == DDIR_TRIM || u->ddir == DDIR_SYNC_FILE_RANGE) {
		/* POSIX AIO has neither: done here, as fio does */
		engine_io_result(u, engine_do_other(e, f, u));
		return ENGINE_Q_DONE;
	}
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = f->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	switch (u->ddir) {
	case DDIR_READ:
		ret = aio_read(cb);
		break;
	case DDIR_WRITE:
		ret = aio_write(cb);
		break;
	case DDIR_SYNC:
		ret = aio_fsync(O_SYNC, cb);
		break;
	default:
		ret = aio_fsync(O_DSYNC, cb);
		break;
	}
	if (ret) {
		if (errno == EAGAIN && pe->nr_flight)
			return ENGINE_Q_BUSY;
		engine_io_result(u, -errno);
		return ENGINE_Q_DONE;
	}
	u->engine_data = cb;
	pe->flight[pe->nr_flight++] = u;
	return ENGINE_Q_QUEUED;
}

/* Moves what has completed from flight[] to events[] (up to max). */
static void pa_collect(struct posixaio_engine *pe, unsigned int max)
{
	unsigned int i = 0;

	while (i < pe->nr_flight && pe->nr_events < max) {
		struct io_u *u = pe->flight[i];
		struct aiocb *cb = u->engine_data;
		int st = aio_error(cb);
		ssize_t ret;

		if (st == EINPROGRESS) {
			i++;
			continue;
		}
		ret = aio_return(cb);
		engine_io_result(u, ret < 0 ? -(long)st : (long)ret);
		pe->events[pe->nr_events++] = u;
		pe->flight[i] = pe->flight[--pe->nr_flight];
	}
}

static int pa_getevents(struct engine *e, unsigned int min, unsigned int max,
			const struct timespec *timeout)
{
	struct posixaio_engine *pe = to_pa(e);
	unsigned int i;

	pe->nr_events = 0;
	if (min > pe->nr_flight)
		min = pe->nr_flight;
	for (;;) {
		pa_collect(pe, max);
		if (pe->nr_events >= min)
			break;
		for (i = 0; i < pe->nr_flight; i++)
			pe->wait[i] = pe->flight[i]->engine_data;
		if (aio_suspend(pe->wait, (int)pe->nr_flight, timeout)) {
			if (errno == EAGAIN && timeout)
				break;	/* timed out */
			if (errno != EINTR)
				return -errno;
		}
	}
	return (int)pe->nr_events;
}

static struct io_u *pa_event(struct engine *e, unsigned int i)
{
	return to_pa(e)->events[i];
}

const struct engine_ops engine_posixaio_ops = {
	.name = "posixaio",
	.help = "POSIX asynchronous I/O: aio_read(3), aio_write(3)",
	.flags = ENGINE_F_OFFLOAD_OWN,
	.init = pa_init,
	.cleanup = pa_cleanup,
	.open_file = pa_open,
	.close_file = pa_close,
	.queue = pa_queue,
	.getevents = pa_getevents,
	.event = pa_event,
};

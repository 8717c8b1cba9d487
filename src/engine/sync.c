/* SPDX-License-Identifier: MIT */
/*
 * The synchronous engines, one syscall per I/O:
 *
 *   sync     read(2) / write(2), lseek(2) only when the file position is
 *            not already where the I/O starts
 *   psync    pread(2) / pwrite(2)
 *   vsync    readv(2) / writev(2), lseek(2) as sync; with iodepth > 1 it
 *            queues contiguous I/Os of one direction on one file and
 *            submits them as one vector (fio's vsync does the same)
 *   pvsync   preadv(2) / pwritev(2)
 *   pvsync2  preadv2(2) / pwritev2(2) with RWF_HIPRI (hipri=1) and
 *            RWF_NOWAIT (nowait=1)
 *
 * Every engine also does syncs (fsync, fdatasync) and trims. queue() does
 * the syscall and nothing else: no allocation, no stdio, no clock.
 * EAGAIN from nowait=1 is the I/O's result (an error), never retried: the
 * point of RWF_NOWAIT is to see when the kernel would have blocked.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fs.h>

#include "engine/engines.h"
#include "engine/rwflags.h"
#include "util/log.h"

#define POS_UNKNOWN UINT64_MAX

struct sync_engine {
	struct engine e;
	struct rwflags rf;	/* pvsync2: RWF_* for reads and writes */

	/* vsync with depth > 1: one run of contiguous I/Os */
	struct iovec *iovs;
	struct io_u **queued;
	unsigned int nr_queued;
	unsigned int max_queued;
	uint64_t q_end;		/* offset just past the queued run */
	struct io_u **events;	/* completed, not yet reaped */
	unsigned int nr_events;
	unsigned int nr_reaped;	/* handed out by the last getevents() */
};

/* Per file for sync and vsync: where the file position is. */
struct sync_file {
	uint64_t pos;
};

static inline struct sync_engine *to_sync(struct engine *e)
{
	return (struct sync_engine *)e;
}

long engine_do_other(const struct engine *e, const struct engine_file *f,
		     const struct io_u *u)
{
	int ret;

	switch (u->ddir) {
	case DDIR_SYNC:
		ret = fsync(f->fd);
		break;
	case DDIR_DATASYNC:
		ret = fdatasync(f->fd);
		break;
	case DDIR_SYNC_FILE_RANGE:
		ret = sync_file_range(f->fd, (off_t)u->offset, (off_t)u->len,
				      e->plan->o.sync_file_range);
		break;
	case DDIR_TRIM:
		if (f->flags & EF_BLOCKDEV) {
			uint64_t range[2] = { u->offset, u->len };

			ret = ioctl(f->fd, BLKDISCARD, range);
		} else {
			/* keep the size: a trim frees blocks, not the file */
			ret = fallocate(f->fd, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
					(off_t)u->len);
		}
		break;
	default:
		return -EINVAL;
	}
	return ret < 0 ? -errno : (long)u->len;
}

static int sync_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	struct sync_engine *se = xcalloc(1, sizeof(*se));

	se->e.plan = plan;
	se->e.depth = depth ? depth : 1;
	*out = &se->e;
	return 0;
}

static int pvsync2_init(const struct job_plan *plan, unsigned int depth,
			struct engine **out, struct strbuf *err)
{
	struct sync_engine *se;

	sync_init(plan, depth, out, err);
	se = to_sync(*out);
	rwflags_init(&se->rf, plan, true);
	return 0;
}

static int vsync_init(const struct job_plan *plan, unsigned int depth,
		      struct engine **out, struct strbuf *err)
{
	struct sync_engine *se;

	sync_init(plan, depth, out, err);
	se = to_sync(*out);
	se->max_queued = se->e.depth < IOV_MAX ? se->e.depth : IOV_MAX;
	/* depth + 1: the worker has one more io_u, for syncs */
	se->iovs = xcalloc(se->max_queued, sizeof(*se->iovs));
	se->queued = xcalloc(se->max_queued, sizeof(*se->queued));
	se->events = xcalloc(se->e.depth + 1, sizeof(*se->events));
	return 0;
}

static void sync_cleanup(struct engine *e)
{
	struct sync_engine *se = to_sync(e);

	free(se->iovs);
	free(se->queued);
	free(se->events);
	free(se);
}

/* Every I/O completed in queue(): nothing is ever pending. */
static int sync_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	return 0;
}

static struct io_u *sync_event(struct engine *e, unsigned int i)
{
	BUG("sync engine has no events");
}

static int sync_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	return engine_open_fd(e, f, err);
}

static int sync_close(struct engine *e, struct engine_file *f)
{
	return engine_close_fd(e, f);
}

/* sync and vsync track the file position to skip needless lseeks. */
static int seek_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	struct sync_file *sf;
	int ret = engine_open_fd(e, f, err);

	if (ret)
		return ret;
	sf = xmalloc(sizeof(*sf));
	sf->pos = 0;	/* a fresh open file description is at 0 */
	f->engine_data = sf;
	return 0;
}

static int seek_close(struct engine *e, struct engine_file *f)
{
	free(f->engine_data);
	f->engine_data = NULL;
	return engine_close_fd(e, f);
}

static inline long ret_or_errno(long ret)
{
	return ret < 0 ? -errno : ret;
}

/* Positions the file for u; 0 or -errno. */
static inline long seek_to(struct engine_file *f, uint64_t off)
{
	struct sync_file *sf = f->engine_data;

	if (sf->pos == off)
		return 0;
	if (lseek(f->fd, (off_t)off, SEEK_SET) < 0) {
		sf->pos = POS_UNKNOWN;
		return -errno;
	}
	sf->pos = off;
	return 0;
}

/* After a transfer from off: where the file position now is. */
static inline void seek_done(struct engine_file *f, uint64_t off, long ret)
{
	struct sync_file *sf = f->engine_data;

	sf->pos = ret < 0 ? POS_UNKNOWN : off + (uint64_t)ret;
}

static enum engine_q sync_queue(struct engine *e, struct io_u *u)
{
	struct engine_file *f = &e->files[u->file];
	long ret;

	if (unlikely(u->ddir > DDIR_WRITE)) {
		engine_io_result(u, engine_do_other(e, f, u));
		return ENGINE_Q_DONE;
	}
	ret = seek_to(f, u->offset);
	if (likely(!ret)) {
		if (u->ddir == DDIR_READ)
			ret = ret_or_errno(read(f->fd, u->buf, u->len));
		else
			ret = ret_or_errno(write(f->fd, u->buf, u->len));
		seek_done(f, u->offset, ret);
	}
	engine_io_result(u, ret);
	return ENGINE_Q_DONE;
}

static enum engine_q psync_queue(struct engine *e, struct io_u *u)
{
	struct engine_file *f = &e->files[u->file];
	long ret;

	if (likely(u->ddir == DDIR_READ))
		ret = pread(f->fd, u->buf, u->len, (off_t)u->offset);
	else if (u->ddir == DDIR_WRITE)
		ret = pwrite(f->fd, u->buf, u->len, (off_t)u->offset);
	else
		ret = engine_do_other(e, f, u);
	engine_io_result(u, ret_or_errno(ret));
	return ENGINE_Q_DONE;
}

static enum engine_q pvsync_queue(struct engine *e, struct io_u *u)
{
	struct engine_file *f = &e->files[u->file];
	struct iovec iov = { u->buf, u->len };
	long ret;

	if (likely(u->ddir == DDIR_READ))
		ret = preadv(f->fd, &iov, 1, (off_t)u->offset);
	else if (u->ddir == DDIR_WRITE)
		ret = pwritev(f->fd, &iov, 1, (off_t)u->offset);
	else
		ret = engine_do_other(e, f, u);
	engine_io_result(u, ret_or_errno(ret));
	return ENGINE_Q_DONE;
}

static enum engine_q pvsync2_queue(struct engine *e, struct io_u *u)
{
	struct engine_file *f = &e->files[u->file];
	struct iovec iov = { u->buf, u->len };
	struct rwflags *rf = &to_sync(e)->rf;
	long ret;

	if (likely(u->ddir == DDIR_READ))
		ret = preadv2(f->fd, &iov, 1, (off_t)u->offset,
			      rwflags_get(rf, DDIR_READ));
	else if (u->ddir == DDIR_WRITE)
		ret = pwritev2(f->fd, &iov, 1, (off_t)u->offset,
			       rwflags_get(rf, DDIR_WRITE));
	else
		ret = engine_do_other(e, f, u);
	engine_io_result(u, ret_or_errno(ret));
	return ENGINE_Q_DONE;
}

/* vsync at depth 1, and any I/O it cannot queue: one readv/writev now. */
static long vsync_one(const struct engine *e, struct engine_file *f,
		      struct io_u *u)
{
	struct iovec iov = { u->buf, u->len };
	long ret;

	if (u->ddir > DDIR_WRITE)
		return engine_do_other(e, f, u);
	ret = seek_to(f, u->offset);
	if (ret)
		return ret;
	if (u->ddir == DDIR_READ)
		ret = ret_or_errno(readv(f->fd, &iov, 1));
	else
		ret = ret_or_errno(writev(f->fd, &iov, 1));
	seek_done(f, u->offset, ret);
	return ret;
}

/*
 * Queues u when it continues the current run (same file, same direction,
 * starts where the run ends); a run is submitted by commit(). Anything
 * else waits (BUSY) until the run is submitted and reaped; syncs and
 * trims with nothing queued are done at once.
 */
static enum engine_q vsync_queue(struct engine *e, struct io_u *u)
{
	struct sync_engine *se = to_sync(e);
	struct io_u *first;

	if (e->depth == 1) {
		engine_io_result(u, vsync_one(e, &e->files[u->file], u));
		return ENGINE_Q_DONE;
	}
	if (!se->nr_queued) {
		if (u->ddir > DDIR_WRITE) {
			engine_io_result(u, vsync_one(e, &e->files[u->file], u));
			return ENGINE_Q_DONE;
		}
		se->queued[se->nr_queued++] = u;
		se->q_end = u->offset + u->len;
		return ENGINE_Q_QUEUED;
	}
	first = se->queued[0];
	if (se->nr_queued < se->max_queued && u->ddir == first->ddir &&
	    u->file == first->file && u->offset == se->q_end) {
		se->queued[se->nr_queued++] = u;
		se->q_end += u->len;
		return ENGINE_Q_QUEUED;
	}
	return ENGINE_Q_BUSY;
}

/* Drops the events the last getevents() handed out. */
static void events_trim(struct sync_engine *se)
{
	if (!se->nr_reaped)
		return;
	se->nr_events -= se->nr_reaped;
	memmove(se->events, se->events + se->nr_reaped,
		se->nr_events * sizeof(*se->events));
	se->nr_reaped = 0;
}

static int vsync_commit(struct engine *e)
{
	struct sync_engine *se = to_sync(e);
	struct engine_file *f;
	struct io_u *first;
	unsigned int i, n = se->nr_queued;
	long ret;

	/* the worker is done with what the last getevents() handed out */
	events_trim(se);
	if (!n)
		return 0;
	first = se->queued[0];
	f = &e->files[first->file];
	for (i = 0; i < n; i++) {
		se->iovs[i].iov_base = se->queued[i]->buf;
		se->iovs[i].iov_len = se->queued[i]->len;
	}
	ret = seek_to(f, first->offset);
	if (!ret) {
		if (first->ddir == DDIR_READ)
			ret = ret_or_errno(readv(f->fd, se->iovs, (int)n));
		else
			ret = ret_or_errno(writev(f->fd, se->iovs, (int)n));
		seek_done(f, first->offset, ret);
	}
	/* A short transfer is short for the I/Os at the end of the run. */
	for (i = 0; i < n; i++) {
		struct io_u *u = se->queued[i];
		long done = ret;

		if (ret >= 0) {
			done = ret < (long)u->len ? ret : (long)u->len;
			ret -= done;
		}
		engine_io_result(u, done);
		se->events[se->nr_events++] = u;
	}
	se->nr_queued = 0;
	return 0;
}

static int vsync_getevents(struct engine *e, unsigned int min,
			   unsigned int max, const struct timespec *timeout)
{
	struct sync_engine *se = to_sync(e);
	unsigned int n;

	events_trim(se);
	if (se->nr_events < min)
		vsync_commit(e);
	n = se->nr_events < max ? se->nr_events : max;
	se->nr_reaped = n;
	return (int)n;
}

static struct io_u *vsync_event(struct engine *e, unsigned int i)
{
	return to_sync(e)->events[i];
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.help = "read(2) and write(2), lseek(2) to position",
	.flags = ENGINE_F_SYNC,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.open_file = seek_open,
	.close_file = seek_close,
	.queue = sync_queue,
	.getevents = sync_getevents,
	.event = sync_event,
};

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.help = "pread(2) and pwrite(2) (the default)",
	.flags = ENGINE_F_SYNC | ENGINE_F_OFFLOAD_SHARED,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.open_file = sync_open,
	.close_file = sync_close,
	.queue = psync_queue,
	.getevents = sync_getevents,
	.event = sync_event,
};

const struct engine_ops engine_vsync_ops = {
	.name = "vsync",
	.help = "readv(2) and writev(2); coalesces adjacent I/Os at depth > 1",
	.flags = ENGINE_F_NOSLAT,
	.init = vsync_init,
	.cleanup = sync_cleanup,
	.open_file = seek_open,
	.close_file = seek_close,
	.queue = vsync_queue,
	.commit = vsync_commit,
	.getevents = vsync_getevents,
	.event = vsync_event,
};

const struct engine_ops engine_pvsync_ops = {
	.name = "pvsync",
	.help = "preadv(2) and pwritev(2)",
	.flags = ENGINE_F_SYNC | ENGINE_F_OFFLOAD_SHARED,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.open_file = sync_open,
	.close_file = sync_close,
	.queue = pvsync_queue,
	.getevents = sync_getevents,
	.event = sync_event,
};

static const char *const pvsync2_options[] = {
	"hipri", "hipri_percentage", "uncached", "nowait", NULL,
};

const struct engine_ops engine_pvsync2_ops = {
	.name = "pvsync2",
	.help = "preadv2(2) and pwritev2(2) with per-I/O flags",
	.flags = ENGINE_F_SYNC | ENGINE_F_RWFLAGS | ENGINE_F_OFFLOAD_SHARED,
	.options = pvsync2_options,
	.init = pvsync2_init,
	.cleanup = sync_cleanup,
	.open_file = sync_open,
	.close_file = sync_close,
	.queue = pvsync2_queue,
	.getevents = sync_getevents,
	.event = sync_event,
};

/* SPDX-License-Identifier: MIT */
/*
 * The engines that change a file's allocation or size instead of moving
 * data, one syscall per I/O, as fio's:
 *
 *   falloc     fallocate(2) of the I/O's range: a read allocates without
 *              changing the size (FALLOC_FL_KEEP_SIZE), a write allocates
 *              and extends (mode 0), a trim punches a hole
 *              (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)
 *   ftruncate  ftruncate(2) to the write's offset (its length is not
 *              used); writes only, opt/engine_opts.c refuses the rest
 *
 * Both work on regular files only, never on a device, and open them for
 * writing whatever the direction (every direction changes the file).
 * Syncs are fsync(2) / fdatasync(2). Nothing is read into or written from
 * the I/O buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engines.h"
#include "engine/rwflags.h"
#include "opt/engine_opts.h"
#include "util/log.h"

static int alloc_init(const struct job_plan *plan, unsigned int depth,
		      struct engine **out, struct strbuf *err)
{
	struct engine *e = xcalloc(1, sizeof(*e));

	e->plan = plan;
	e->depth = 1;
	*out = e;
	return 0;
}

static void alloc_cleanup(struct engine *e)
{
	free(e);
}

static int alloc_open(struct engine *e, struct engine_file *f,
		      struct strbuf *err)
{
	int fd, ret;

	if (!(f->flags & EF_REGULAR)) {
		strbuf_addf(err, "ioengine '%s' works on regular files only, "
			    "and '%s' is not one", e->plan->o.ioengine,
			    f->path);
		return -EINVAL;
	}
	/* read-write for every job: a falloc read allocates blocks */
	do {
		fd = open(f->path, O_RDWR | O_CLOEXEC | engine_nofollow(f));
	} while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		int saved = errno;

		strbuf_addf(err, "cannot open '%s': %s", f->path,
			    strerror(saved));
		return -saved;
	}
	/* write_hint, as every engine's open (engine/rwflags.c) */
	ret = rwflags_open(e->plan, f, fd, err);
	if (ret) {
		close(fd);
		return ret;
	}
	f->fd = fd;
	return 0;
}

static int alloc_close(struct engine *e, struct engine_file *f)
{
	return engine_close_fd(e, f);
}

static enum engine_q falloc_queue(struct engine *e, struct io_u *u)
{
	static const int mode[DDIR_RWDIR_CNT] = {
		[DDIR_READ] = FALLOC_FL_KEEP_SIZE,
		[DDIR_WRITE] = 0,
		[DDIR_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	struct engine_file *f = &e->files[u->file];
	long ret;

	if (u->ddir >= DDIR_RWDIR_CNT)
		ret = engine_do_other(e, f, u);
	else if (fallocate(f->fd, mode[u->ddir], (off_t)u->offset,
			   (off_t)u->len))
		ret = -errno;
	else
		ret = (long)u->len;
	engine_io_result(u, ret);
	return ENGINE_Q_DONE;
}

static enum engine_q ftruncate_queue(struct engine *e, struct io_u *u)
{
	struct engine_file *f = &e->files[u->file];
	long ret;

	if (u->ddir != DDIR_WRITE)
		ret = u->ddir > DDIR_TRIM ? engine_do_other(e, f, u) : -EINVAL;
	else if (ftruncate(f->fd, (off_t)u->offset))
		ret = -errno;
	else
		ret = (long)u->len;
	engine_io_result(u, ret);
	return ENGINE_Q_DONE;
}

const struct engine_ops engine_falloc_ops = {
	.name = "falloc",
	.help = "fallocate(2) each I/O's range: read keeps the size, write "
		"extends, trim punches",
	.flags = ENGINE_F_SYNC | ENGINE_F_NO_ODIRECT,
	.plan_check = falloc_plan_check,
	.init = alloc_init,
	.cleanup = alloc_cleanup,
	.open_file = alloc_open,
	.close_file = alloc_close,
	.queue = falloc_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
};

const struct engine_ops engine_ftruncate_ops = {
	.name = "ftruncate",
	.help = "ftruncate(2) the file to each write's offset",
	.flags = ENGINE_F_SYNC | ENGINE_F_NO_ODIRECT,
	.plan_check = ftruncate_plan_check,
	.init = alloc_init,
	.cleanup = alloc_cleanup,
	.open_file = alloc_open,
	.close_file = alloc_close,
	.queue = ftruncate_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
};

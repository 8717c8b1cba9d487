/* SPDX-License-Identifier: MIT */
/* A job's files through its run: see fcycle.h. */
#include "run/fcycle.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "machine/clock.h"
#include "run/iolog_write.h"

void fcycle_init(struct file_cycle *fc, const struct engine_ops *ops,
		 struct engine *e, const struct job_plan *p,
		 const struct worker_stats *st)
{
	fc->ops = ops;
	fc->e = e;
	fc->p = p;
	fc->st = st;
	fc->writer = ddir_used(p, DDIR_WRITE);
	fc->syncs = p->o.fsync_on_close;
	fc->iolog = NULL;
	fcycle_new_loop(fc);
}

bool fcycle_is_open(const struct file_cycle *fc, unsigned int i)
{
	return (fc->ops->flags & ENGINE_F_NOFILEIO) || fc->e->files[i].fd >= 0;
}

/*
 * invalidate=1: the pages of the job's region (a regular file) or the
 * whole device's buffers go, so that reads reach the device. Failures
 * change nothing the job does: fio goes on too (a block device wants
 * CAP_SYS_ADMIN, which checks.c notes up front).
 */
void fcycle_invalidate(const struct file_cycle *fc, unsigned int i)
{
	const struct engine_file *f = &fc->e->files[i];

	if (!fc->p->o.invalidate || f->fd < 0)
		return;
	if (f->flags & EF_REGULAR)
		posix_fadvise(f->fd, (off_t)f->io_offset, (off_t)f->io_size,
			      POSIX_FADV_DONTNEED);
	else if (f->flags & EF_BLOCKDEV)
		ioctl(f->fd, BLKFLSBUF, 0);
}

/*
 * fadvise_hint: the access pattern, after the invalidation, as fio does
 * at every open. FADV_RANDOM turns the kernel's readahead off, which a
 * buffered random job would otherwise pay for on every read.
 */
static void advise(const struct file_cycle *fc, const struct engine_file *f)
{
	enum fadvise_hint h = fc->p->o.fadvise_hint;
	int adv;

	if (h == FADVISE_NONE || f->fd < 0 ||
	    !(f->flags & (EF_REGULAR | EF_BLOCKDEV)))
		return;
	if (h == FADVISE_AUTO)
		h = fc->p->random ? FADVISE_RANDOM : FADVISE_SEQUENTIAL;
	adv = h == FADVISE_RANDOM ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	posix_fadvise(f->fd, (off_t)f->io_offset, (off_t)f->io_size, adv);
}

int fcycle_open(struct file_cycle *fc, unsigned int i, struct strbuf *err)
{
	struct engine_file *f = &fc->e->files[i];
	int ret = fc->ops->open_file(fc->e, f, err);

	if (!ret) {
		if (fc->iolog)
			iolog_writer_file(fc->iolog, i, true, clock_now_ns());
		fcycle_invalidate(fc, i);
		advise(fc, f);
	}
	return ret;
}

int fcycle_close(struct file_cycle *fc, unsigned int i)
{
	struct engine_file *f = &fc->e->files[i];
	int ret = 0;

	if (fc->syncs && f->fd >= 0 && fcycle_unsynced(fc) && fsync(f->fd))
		ret = -errno;
	fc->ops->close_file(fc->e, f);
	if (fc->iolog)
		iolog_writer_file(fc->iolog, i, false, clock_now_ns());
	return ret;
}

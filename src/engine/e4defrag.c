/* SPDX-License-Identifier: MIT */
/*
 * e4defrag: each write swaps the blocks of its range with the same range
 * of a donor file (the EXT4_IOC_MOVE_EXT ioctl e4defrag(8) uses), as
 * fio's engine: the data stays, its layout on disk changes. Writes only
 * (opt/engine_opts.c refuses the rest), ext4 regular files only.
 *
 * The donor is donorname= (in directory= when set), created if missing
 * and kept after the run, as fio. inplace=0 allocates its blocks over
 * the job's whole region before the first write; inplace=1 allocates
 * each write's range just before the swap and truncates the donor to
 * nothing after it. A swap that moves part of the range is a short
 * write; one that moves nothing is EINVAL (the range is beyond the end
 * of the file). Each file is synced when opened, before the run, so that
 * freshly written data can move (see defrag_open()).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "engine/engines.h"
#include "opt/engine_opts.h"
#include "util/log.h"
#include "util/safefile.h"

/* The kernel's interface (fs/ext4/ext4.h), which no uapi header has. */
struct ext4_move_ext {
	uint32_t reserved;	/* 0 */
	uint32_t donor_fd;
	uint64_t orig_start;	/* in blocks */
	uint64_t donor_start;	/* in blocks */
	uint64_t len;		/* blocks to move */
	uint64_t moved_len;	/* blocks moved (out) */
};
#define IOLITE_EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct ext4_move_ext)

struct defrag_engine {
	struct engine e;
	char *donor_path;
	int donor_fd;
	uint64_t bsz;		/* the donor's block size */
	uint64_t moved;		/* bytes swapped */
};

static inline struct defrag_engine *to_defrag(struct engine *e)
{
	return (struct defrag_engine *)e;
}

static int defrag_init(const struct job_plan *plan, unsigned int depth,
		       struct engine **out, struct strbuf *err)
{
	struct defrag_engine *de = xcalloc(1, sizeof(*de));
	const struct job_options *o = &plan->o;
	struct strbuf path = STRBUF_INIT;

	de->e.plan = plan;
	de->e.depth = 1;
	de->donor_fd = -1;
	if (o->directory && *o->directory)
		strbuf_addf(&path, "%s/", o->directory);
	strbuf_addstr(&path, o->donorname);
	de->donor_path = strbuf_detach(&path);
	*out = &de->e;
	return 0;
}

static void defrag_cleanup(struct engine *e)
{
	struct defrag_engine *de = to_defrag(e);

	if (de->donor_fd >= 0)
		close(de->donor_fd);
	free(de->donor_path);
	free(de);
}

/*
 * The donor, once the files are known: created, and (inplace=0) given
 * blocks over the region every file of the job covers.
 */
static int donor_open(struct defrag_engine *de, struct strbuf *err)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	const char *why;
	struct stat st;
	unsigned int i;

	de->donor_fd = sf_open(de->donor_path, O_WRONLY, 0644,
			       SF_NAMED | SF_CREATE, &why);
	if (de->donor_fd < 0) {
		int e = errno;

		strbuf_addf(err, "cannot open donor '%s': %s",
			    de->donor_path, why);
		return -e;
	}
	for (i = 0; i < de->e.nr_files; i++) {
		const struct engine_file *f = &de->e.files[i];

		if (f->io_offset < lo)
			lo = f->io_offset;
		if (f->io_offset + f->io_size > hi)
			hi = f->io_offset + f->io_size;
	}
	if (!de->e.plan->o.inplace && hi > lo &&
	    fallocate(de->donor_fd, 0, (off_t)lo, (off_t)(hi - lo))) {
		strbuf_addf(err, "cannot allocate %llu bytes of donor '%s': %s",
			    (unsigned long long)(hi - lo), de->donor_path,
			    strerror(errno));
		return -errno;
	}
	if (fstat(de->donor_fd, &st)) {
		strbuf_addf(err, "cannot stat donor '%s': %s", de->donor_path,
			    strerror(errno));
		return -errno;
	}
	de->bsz = st.st_blksize ? (uint64_t)st.st_blksize : 4096;
	return 0;
}

static int defrag_open(struct engine *e, struct engine_file *f,
		       struct strbuf *err)
{
	struct defrag_engine *de = to_defrag(e);
	struct statfs sfs;
	int fd, ret;

	if (!(f->flags & EF_REGULAR)) {
		strbuf_addf(err, "ioengine 'e4defrag' works on regular files "
			    "only, and '%s' is not one", f->path);
		return -EINVAL;
	}
	fd = open(f->path, O_RDWR | O_CLOEXEC | engine_nofollow(f));
	if (fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", f->path,
			    strerror(errno));
		return -errno;
	}
	if (fstatfs(fd, &sfs) || sfs.f_type != EXT4_SUPER_MAGIC) {
		close(fd);
		strbuf_addf(err, "'%s' is not on an ext4 file system: "
			    "EXT4_IOC_MOVE_EXT needs one", f->path);
		return -EOPNOTSUPP;
	}
	/*
	 * Blocks written but not yet allocated (ext4's delayed allocation)
	 * cannot move: the ioctl fails with EBUSY. Like e4defrag(8), write
	 * them out first (fio does not, and fails on a fresh file).
	 */
	if (fdatasync(fd)) {
		ret = -errno;
		close(fd);
		strbuf_addf(err, "cannot sync '%s': %s", f->path,
			    strerror(-ret));
		return ret;
	}
	f->fd = fd;
	if (de->donor_fd < 0 && (ret = donor_open(de, err)))
		return ret;
	return 0;
}

static int defrag_close(struct engine *e, struct engine_file *f)
{
	return engine_close_fd(e, f);
}

/* One swap: bytes moved, or -errno. */
static long move_ext(struct defrag_engine *de, int fd, const struct io_u *u)
{
	struct ext4_move_ext me;
	uint64_t moved;
	long ret = 0;

	if (de->e.plan->o.inplace &&
	    fallocate(de->donor_fd, 0, (off_t)u->offset, (off_t)u->len))
		return -errno;
	memset(&me, 0, sizeof(me));
	me.donor_fd = (uint32_t)de->donor_fd;
	me.orig_start = u->offset / de->bsz;
	me.donor_start = me.orig_start;
	me.len = (u->offset + u->len + de->bsz - 1) / de->bsz - me.orig_start;
	if (ioctl(fd, IOLITE_EXT4_IOC_MOVE_EXT, &me))
		ret = -errno;
	moved = me.moved_len * de->bsz;
	if (moved > u->len)
		moved = u->len;
	if (!ret)
		ret = moved ? (long)moved : -EINVAL;
	if (de->e.plan->o.inplace && ftruncate(de->donor_fd, 0) && ret >= 0)
		ret = -errno;
	return ret;
}

static enum engine_q defrag_queue(struct engine *e, struct io_u *u)
{
	struct defrag_engine *de = to_defrag(e);
	struct engine_file *f = &e->files[u->file];
	long ret;

	if (u->ddir == DDIR_WRITE) {
		ret = move_ext(de, f->fd, u);
		if (ret > 0)
			de->moved += (uint64_t)ret;
	} else {
		ret = u->ddir > DDIR_TRIM ? engine_do_other(e, f, u) : -EINVAL;
	}
	engine_io_result(u, ret);
	return ENGINE_Q_DONE;
}

static void defrag_describe(struct engine *e, struct strbuf *out)
{
	struct defrag_engine *de = to_defrag(e);

	if (de->donor_fd < 0)
		return;
	strbuf_addf(out, "e4defrag: %llu bytes of extents swapped with donor "
		    "'%s' (kept), %s", (unsigned long long)de->moved,
		    de->donor_path, e->plan->o.inplace ?
		    "allocated for each write" : "allocated at start");
}

static const char *const defrag_options[] = {
	"donorname", "inplace", NULL,
};

const struct engine_ops engine_e4defrag_ops = {
	.name = "e4defrag",
	.help = "swaps each write's blocks with a donor file's "
		"(EXT4_IOC_MOVE_EXT)",
	.flags = ENGINE_F_SYNC | ENGINE_F_NO_ODIRECT,
	.options = defrag_options,
	.plan_check = e4defrag_plan_check,
	.init = defrag_init,
	.cleanup = defrag_cleanup,
	.open_file = defrag_open,
	.close_file = defrag_close,
	.queue = defrag_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.describe = defrag_describe,
};

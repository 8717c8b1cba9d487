/* SPDX-License-Identifier: MIT */
/*
 * files_prepare(): what files_resolve() decided, done. Missing
 * directories and files are created and every file a job needs bigger is
 * laid out before any job starts, as fio does: to full size with written
 * data when a job reads it, else allocated only, as fallocate= says
 * (create_on_open's files are left to the job's open).
 *
 * fio's line "NAME: Laying out IO file (1 file / 1MiB)" says what each
 * job lays out. SIGINT or SIGTERM during the layout stop it within a
 * chunk: the file being laid out is removed when this run created it (or
 * cut back to the size it had), so no partial file is left behind.
 */
#include "target/files.h"
#include "target/files_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/safefile.h"
#include "workload/buffer.h"

#define LAYOUT_CHUNK (1u << 20)

/* The signal that stopped the layout, or 0 (set by the handler). */
static volatile sig_atomic_t layout_signal;

static void on_signal(int sig)
{
	layout_signal = sig;
}

/* mkdir -p of path's parent directories. */
static int make_parents(const char *path)
{
	char *d = files_dir_of(path);
	char *s;
	int ret = 0;

	for (s = d + 1; ; s++) {
		char c = *s;

		if (c != '/' && c)
			continue;
		*s = '\0';
		if (mkdir(d, 0755) && errno != EEXIST) {
			ret = -errno;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(d);
	return ret;
}

/*
 * Layout data. A file a job reads must hold written blocks: a hole or an
 * unwritten extent (what fallocate leaves) reads back as zeros without
 * touching the device on ext4 and xfs, and the job would measure the page
 * cache or the allocator instead of the disk. Like fio, the layout writes
 * what the job's buffers hold (workload/buffer.h: random, a new block each
 * time, unless zero_buffers, buffer_pattern, buffer_compress_percentage
 * or dedupe_percentage say otherwise), a fill per block of the job's
 * largest write size, so storage that compresses or deduplicates sees
 * the data the job asked for. The writes are of whole blocks, about
 * LAYOUT_CHUNK bytes each.
 */
struct layout_fill {
	struct buf_fill *bf;
	size_t blk;		/* a fill per block */
	size_t chunk;		/* bytes per write: whole blocks */
	size_t have;		/* static contents: bytes of buf filled */
	unsigned char *buf;
};

static void layout_fill_init(struct layout_fill *lf,
			     const struct job_plan *plans, unsigned int nr,
			     unsigned int i)
{
	memset(lf, 0, sizeof(*lf));
	lf->bf = buffer_layout_new(plans, nr, i, &lf->blk);
	lf->chunk = lf->blk >= LAYOUT_CHUNK ? lf->blk :
		    LAYOUT_CHUNK / lf->blk * lf->blk;
}

/* The job's buffers go on from where the layout left its stream. */
static void layout_fill_release(struct layout_fill *lf, struct job_files *jf)
{
	jf->fill_drawn = buffer_fill_drawn(lf->bf);
	buffer_fill_free(lf->bf);
	free(lf->buf);
}

/* The next n bytes of the layout into lf->buf. */
static void layout_contents(struct layout_fill *lf, size_t n)
{
	size_t b;

	if (!lf->buf)
		lf->buf = xmalloc(lf->chunk);
	if (lf->have >= n)
		return;	/* zeroes or a pattern: filled already */
	for (b = 0; b < n; b += lf->blk)
		buffer_fill_write(lf->bf, lf->buf + b,
				  n - b < lf->blk ? n - b : lf->blk);
	if (buffer_fill_static(lf->bf))
		lf->have = n;
}

static int write_layout(int fd, uint64_t from, uint64_t to,
			struct layout_fill *lf)
{
	uint64_t off = from;

	while (off < to) {
		size_t n = to - off < lf->chunk ? (size_t)(to - off) :
						  lf->chunk;
		size_t done = 0;

		if (layout_signal)
			return -EINTR;
		layout_contents(lf, n);
		while (done < n) {
			ssize_t w = pwrite(fd, lf->buf + done, n - done,
					   (off_t)(off + done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -errno;
			if (w == 0)
				return -ENOSPC;
			done += (size_t)w;
		}
		off += n;
	}
	return 0;
}

/*
 * The allocation step of every layout, as fio makes it whether a job
 * reads the file or not: fallocate= says how. By default (native)
 * allocated but not written, so the writes measure the device and not
 * block allocation, and nothing where the filesystem cannot fallocate
 * (fio falls back to none); posix insists (posix_fallocate(3) writes
 * zeros where the filesystem cannot allocate); keep allocates with
 * FALLOC_FL_KEEP_SIZE; truncate sets the size alone; none does nothing.
 * A file no job reads gets nothing more: after none or keep it keeps
 * its size until the job's writes make it, as with fio (a write job
 * with io_size below size leaves a shorter file).
 */
static int allocate_layout(int fd, uint64_t from, uint64_t to,
			   enum fallocate_mode mode)
{
	off_t off = (off_t)from, len = (off_t)(to - from);
	int ret;

	switch (mode) {
	case FALLOCATE_NONE:
		break;
	case FALLOCATE_TRUNCATE:
		return ftruncate(fd, (off_t)to) ? -errno : 0;
	case FALLOCATE_POSIX:
		ret = posix_fallocate(fd, off, len);
		return -ret;
	case FALLOCATE_NATIVE:
	case FALLOCATE_KEEP:
		if (!fallocate(fd, mode == FALLOCATE_KEEP ?
			       FALLOC_FL_KEEP_SIZE : 0, off, len))
			break;
		if (errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
		break;
	}
	return 0;
}

/*
 * fill_device, a job that reads: the layout wrote until the filesystem
 * was full, so the region is what got written (whole blocks), as fio
 * fills the mount point and then reads the result.
 */
static int fill_device_full(const struct job_plan *p, struct job_files *jf,
			    unsigned int k, int fd)
{
	struct engine_file *f = &jf->files[k];
	uint64_t end, bs = p->min_bs ? p->min_bs : 1;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	end = (uint64_t)st.st_size;
	if (end < f->io_offset + bs)
		return -ENOSPC;
	end -= (end - f->io_offset) % bs;
	jf->total_io_size -= f->io_size - (end - f->io_offset);
	f->io_size = end - f->io_offset;
	f->real_size = end;
	f->setup_size = end;
	return 0;
}

/*
 * Interrupted: a file this run created goes, one it extended gets its
 * size back. The error says which.
 */
static int layout_undo(const struct job_plan *p, const struct engine_file *f,
		       int fd, bool created, uint64_t size, struct strbuf *err)
{
	const char *what = "removed";

	if (created ? unlink(f->path) : ftruncate(fd, (off_t)size))
		what = created ? "could not be removed" :
				 "could not be cut back";
	else if (!created)
		what = "cut back to its size";
	return files_fail(err, p, NULL, "interrupted by %s while laying out "
			  "'%s': %s", layout_signal == SIGINT ? "SIGINT" :
			  "SIGTERM", f->path, what);
}

static int prepare_file(const struct job_plan *p, struct job_files *jf,
			unsigned int k, struct layout_fill *lf,
			struct strbuf *err)
{
	struct engine_file *f = &jf->files[k];
	bool wrote = false;
	const char *why;
	struct stat st;
	int fd, ret = 0;

	if (layout_signal)
		return -1;	/* another thread's layout said why */
	if (jf->need_create[k] && (ret = make_parents(f->path)))
		return files_fail(err, p, files_name_opt(p), "cannot create the "
			    "directories of '%s': %s", f->path,
			    strerror(-ret));
	if (f->flags & EF_CREATE)
		return 0;	/* create_on_open: the job's open makes it */
	fd = sf_open(f->path, O_WRONLY, 0644, SF_CREATE |
		     (f->flags & EF_MADE ? 0 : SF_NAMED), &why);
	if (fd < 0)
		return files_fail(err, p, files_name_opt(p), "cannot create '%s': %s",
			    f->path, why);
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if ((uint64_t)st.st_size >= f->real_size)
		goto out;
	if (jf->need_fill[k]) {
		/*
		 * fio's calls for a file a job reads: the allocation, the
		 * size (ftruncate), then the data
		 */
		if (!p->o.fill_device) {
			ret = allocate_layout(fd, (uint64_t)st.st_size,
					      f->real_size, p->o.fallocate);
			if (!ret && ftruncate(fd, (off_t)f->real_size))
				ret = -errno;
		}
		if (!ret)
			ret = write_layout(fd, (uint64_t)st.st_size,
					   f->real_size, lf);
		if ((ret == -ENOSPC || ret == -EDQUOT) && p->o.fill_device)
			ret = fill_device_full(p, jf, k, fd);
		wrote = true;
	} else if (!p->o.fill_device) {
		ret = allocate_layout(fd, (uint64_t)st.st_size, f->real_size,
				      p->o.fallocate);
	}
	if (ret != -EINTR && layout_signal)
		ret = -EINTR;	/* a signal during fallocate */
	if (ret == -EINTR) {
		ret = layout_undo(p, f, fd, jf->need_create[k],
				  (uint64_t)st.st_size, err);
		close(fd);
		return ret;
	}
	/*
	 * Written data is on disk before the job starts, as with fio's
	 * create_fsync=1 default; an allocation alone is not synced (fio
	 * neither).
	 */
	if (!ret && wrote && p->o.create_fsync && fsync(fd))
		ret = -errno;
	/*
	 * Whatever the layout put in the page cache goes, or the first
	 * reads would be served from memory (fio does this whatever
	 * invalidate= says).
	 */
	if (!ret)
		posix_fadvise(fd, 0, (off_t)f->real_size, POSIX_FADV_DONTNEED);
out:
	close(fd);
	if (ret)
		return files_fail(err, p, files_name_opt(p), "cannot lay out '%s' "
			    "(%llu bytes): %s", f->path,
			    (unsigned long long)f->real_size, strerror(-ret));
	return 0;
}

/* One job's files, with the contents its buffers would hold. */
static int prepare_files(const struct job_plan *plans, unsigned int nr,
			 unsigned int i, struct job_files *jf,
			 struct strbuf *err)
{
	struct layout_fill lf;
	unsigned int k;
	int ret = 0;

	layout_fill_init(&lf, plans, nr, i);
	for (k = 0; k < jf->nr_files && !ret; k++)
		if (jf->need_create[k] || jf->need_layout[k])
			ret = prepare_file(&plans[i], jf, k, &lf, err);
	layout_fill_release(&lf, jf);
	return ret;
}

/* create_serialize=0: one job's files, in a thread of its own. */
struct prepare_job {
	const struct job_plan *plans;
	unsigned int nr, i;
	struct job_files *jf;
	struct strbuf err;
	pthread_t thread;
	bool started;
	int ret;
};

static void *prepare_job_files(void *arg)
{
	struct prepare_job *pj = arg;

	pj->ret = prepare_files(pj->plans, pj->nr, pj->i, pj->jf, &pj->err);
	return NULL;
}

/*
 * create_serialize=0: the jobs that ask for it lay out their files at
 * the same time, a thread each, after the serialized ones (fio has each
 * such job lay out its own files as it starts). 0, or -1 with the first
 * failing job's message.
 */
static int prepare_parallel(const struct job_plan *plans, unsigned int nr,
			    struct job_files *jf, struct strbuf *err)
{
	struct prepare_job *pj = xcalloc(nr ? nr : 1, sizeof(*pj));
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		if (plans[i].o.create_serialize)
			continue;
		pj[i].plans = plans;
		pj[i].nr = nr;
		pj[i].i = i;
		pj[i].jf = &jf[i];
		strbuf_init(&pj[i].err);
		if (pthread_create(&pj[i].thread, NULL, prepare_job_files,
				   &pj[i]))
			prepare_job_files(&pj[i]);	/* no thread: here */
		else
			pj[i].started = true;
	}
	for (i = 0; i < nr; i++) {
		if (!pj[i].plans)
			continue;
		if (pj[i].started)
			pthread_join(pj[i].thread, NULL);
		/* the first message (one stopped by a signal may have none) */
		if (pj[i].ret && !err->len)
			strbuf_addstr(err, strbuf_str(&pj[i].err));
		if (pj[i].ret)
			ret = -1;
		strbuf_release(&pj[i].err);
	}
	free(pj);
	return ret;
}

/* fio's line: what the job lays out, on the report's stream. */
static void say_layout(const struct job_plan *p, const struct job_files *jf,
		       FILE *progress)
{
	uint64_t bytes = 0;
	unsigned int k, n = 0;

	if (!progress)
		return;
	for (k = 0; k < jf->nr_files; k++) {
		if ((!jf->need_create[k] && !jf->need_layout[k]) ||
		    (jf->files[k].flags & EF_CREATE))
			continue;
		n++;
		bytes += jf->files[k].real_size;
	}
	if (n == 1)
		fprintf(progress, "%s: Laying out IO file (1 file / %lluMiB)\n",
			p->o.name, (unsigned long long)(bytes >> 20));
	else if (n)
		fprintf(progress, "%s: Laying out IO files (%u files / total "
			"%lluMiB)\n", p->o.name, n,
			(unsigned long long)(bytes >> 20));
	fflush(progress);
}

int files_prepare(const struct job_plan *plans, unsigned int nr,
		  struct job_files *jf, FILE *progress, struct strbuf *err)
{
	struct sigaction sa, old_int, old_term;
	unsigned int i;
	int ret = 0;

	/* the first signal stops the layout, a second one the process */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = (int)SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	layout_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	for (i = 0; i < nr && !ret; i++) {
		if (!plans[i].o.create_serialize)
			continue;
		say_layout(&plans[i], &jf[i], progress);
		ret = prepare_files(plans, nr, i, &jf[i], err);
	}
	for (i = 0; i < nr && !ret; i++)
		if (!plans[i].o.create_serialize)
			say_layout(&plans[i], &jf[i], progress);
	if (!ret)
		ret = prepare_parallel(plans, nr, jf, err);

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (layout_signal) {
		if (!err->len)
			files_fail(err, &plans[0], NULL, "interrupted by %s "
				   "before the layout", layout_signal ==
				   SIGINT ? "SIGINT" : "SIGTERM");
		return layout_signal;
	}
	return ret ? -1 : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * File options around the I/O (see fileopts.h).
 */
#include "target/fileopts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/engine.h"
#include "opt/opt.h"
#include "target/files_priv.h"
#include "util/log.h"
#include "util/safefile.h"

static const char *sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

/* queue/io_poll of a disk (or of the disk a partition is on): 1 or 0 */
static int dev_polls(dev_t dev)
{
	char path[256];
	FILE *fp;
	int v = 0;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/queue/io_poll",
		 sysfs_root(), major(dev), minor(dev));
	fp = fopen(path, "r");
	if (!fp) {
		snprintf(path, sizeof(path),
			 "%s/dev/block/%u:%u/../queue/io_poll", sysfs_root(),
			 major(dev), minor(dev));
		fp = fopen(path, "r");
	}
	if (!fp)
		return 0;
	if (fscanf(fp, "%d", &v) != 1)
		v = 0;
	fclose(fp);
	return v == 1;
}

void fileopts_notes(const struct job_plan *plans,
		    const struct job_files *files, unsigned int nr,
		    struct notes *out)
{
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct job_options *o = &plans[i].o;

		/* the engines of RWF_HIPRI per I/O (pvsync2) have its share */
		if (!o->hipri || !o->hipri_percentage || plans[i].clone ||
		    !engine_has_option(engine_find(o->ioengine),
				       "hipri_percentage"))
			continue;
		if (!o->direct) {
			notes_add(out, "job '%s': hipri on buffered I/O: the kernel polls only O_DIRECT I/O (direct=1), so RWF_HIPRI changes nothing here",
				  o->name);
			continue;
		}
		for (k = 0; k < files[i].nr_devs; k++)
			if (!dev_polls(files[i].devs[k]))
				notes_add(out, "job '%s': hipri: device %u:%u has no poll queues (queue/io_poll is not 1; NVMe needs nvme.poll_queues): RWF_HIPRI I/Os complete by interrupt, as without hipri",
					  o->name, major(files[i].devs[k]),
					  minor(files[i].devs[k]));
	}
}

struct name_list {
	char **v;
	size_t n, alloc;
};

static void name_add(struct name_list *l, char *s)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = s;
}

static int walk_dir(const char *dir, struct name_list *l, unsigned int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		struct stat st;
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xmalloc(strlen(dir) + strlen(de->d_name) + 2);
		sprintf(path, "%s/%s", dir, de->d_name);
		if (lstat(path, &st)) {
			ret = -errno;
			free(path);
		} else if (S_ISDIR(st.st_mode) && depth < 64) {
			ret = walk_dir(path, l, depth + 1);
			free(path);
		} else if (S_ISREG(st.st_mode)) {
			name_add(l, path);
		} else {
			free(path);
		}
	}
	closedir(d);
	return ret;
}

int fileopts_opendir(const struct job_plan *p, char ***v, size_t *nr,
		     struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct name_list l = { NULL, 0, 0 };
	size_t i, keep;
	int ret;

	if (!*o->opendir)
		return files_fail(err, p, "opendir", "an empty value names no "
				  "directory");
	ret = walk_dir(o->opendir, &l, 0);
	if (ret) {
		for (i = 0; i < l.n; i++)
			free(l.v[i]);
		free(l.v);
		return files_fail(err, p, "opendir", "cannot list '%s': %s",
				  o->opendir, strerror(-ret));
	}
	if (!l.n) {
		free(l.v);
		return files_fail(err, p, "opendir", "'%s' holds no regular "
				  "file", o->opendir);
	}
	/* filename= adds its files after them; generated names go */
	for (i = 0; i < *nr; i++) {
		if (o->filename && *o->filename)
			name_add(&l, (*v)[i]);
		else
			free((*v)[i]);
	}
	free(*v);
	keep = l.n;
	if (opt_is_set(o, "nrfiles") && o->nrfiles < keep)
		keep = o->nrfiles;
	for (i = keep; i < l.n; i++)
		free(l.v[i]);
	*v = l.v;
	*nr = keep;
	return 0;
}

int fileopts_pre_read(const struct job_plan *p, const struct job_files *jf,
		      struct strbuf *err)
{
	size_t len = p->max_bs ? (size_t)p->max_bs : 4096;
	char *buf = xmalloc(len);
	unsigned int i;
	int ret = 0;

	for (i = 0; i < jf->nr_files && !ret; i++) {
		const struct engine_file *f = &jf->files[i];
		uint64_t pos = f->io_offset, end = f->io_offset + f->io_size;
		int fd;

		if (!(f->flags & (EF_REGULAR | EF_BLOCKDEV)))
			continue;
		/*
		 * create_on_open: the file the job's open would create is
		 * made here, as fio's pre_read opens the job's files first
		 */
		fd = open(f->path, O_RDONLY | O_CLOEXEC |
			  (p->o.create_on_open ? O_CREAT : 0), 0600);
		if (fd < 0) {
			ret = -errno;
			strbuf_addf(err, "option 'pre_read': cannot open '%s': %s",
				    f->path, strerror(errno));
			break;
		}
		while (pos < end) {
			size_t want = end - pos < len ? (size_t)(end - pos) : len;
			ssize_t got = pread(fd, buf, want, (off_t)pos);

			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0) {
				ret = -errno;
				strbuf_addf(err, "option 'pre_read': reading '%s' "
					    "failed: %s", f->path,
					    strerror(errno));
				break;
			}
			if ((size_t)got < want) {
				ret = -EIO;
				strbuf_addf(err, "option 'pre_read': reading '%s' "
					    "failed: %zd of %zu bytes at offset "
					    "%llu (the file is shorter than its "
					    "region%s)", f->path, got, want,
					    (unsigned long long)pos,
					    p->o.create_on_open ?
					    ": option 'create_on_open' creates "
					    "it empty, leave one of them out" :
					    "");
				break;
			}
			pos += (uint64_t)got;
		}
		close(fd);
	}
	free(buf);
	return ret;
}

int fileopts_unlink_loop(const struct job_plan *p,
			 const struct job_files *jf, struct strbuf *err)
{
	unsigned int i;

	for (i = 0; i < jf->nr_files; i++) {
		const struct engine_file *f = &jf->files[i];
		const char *why;
		int fd;

		if (!(f->flags & EF_REGULAR))
			continue;
		if (unlink(f->path) && errno != ENOENT) {
			strbuf_addf(err, "option 'unlink_each_loop': cannot "
				    "delete '%s': %s", f->path, strerror(errno));
			return -errno;
		}
		fd = sf_open(f->path, O_WRONLY, 0644, SF_CREATE |
			     (f->flags & EF_MADE ? 0 : SF_NAMED), &why);
		if (fd < 0) {
			int e = errno;

			strbuf_addf(err, "option 'unlink_each_loop': cannot "
				    "create '%s' again: %s", f->path, why);
			return -e;
		}
		close(fd);
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Opening the files iolite writes: see safefile.h and doc/safety.md. */
#include "util/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The directory a path's last component is in: is it shared? The opens
 * below name the whole path (O_NOFOLLOW concerns its last component
 * only; the directories on the way are the user's choice), so that
 * strace shows the file each call is about.
 */
struct sf_dir {
	bool shared;		/* sticky, and others may create there */
	uid_t uid;
};

static int fail(const char **why)
{
	if (why)
		*why = strerror(errno);
	return -1;
}

static int refuse(int e, const char *text, const char **why)
{
	if (why)
		*why = text;
	errno = e;
	return -1;
}

/* Looks at path's directory (following it): 0, or -1 with errno. */
static int dir_look(const char *path, struct sf_dir *d)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *dir;
	int ret;

	if (!slash)
		dir = strdup(".");
	else
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir)
		return -1;
	ret = stat(dir, &st);
	free(dir);
	if (ret)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	d->shared = (st.st_mode & S_ISVTX) && (st.st_mode & (S_IWGRP | S_IWOTH));
	d->uid = st.st_uid;
	return 0;
}

/* The symlink lst at the name: may it be followed? */
static int judge_link(const struct sf_dir *d, const struct stat *lst,
		      unsigned int how, const char **why)
{
	if (!(how & SF_NAMED))
		return refuse(ELOOP, "a symbolic link where iolite makes a file "
			      "of its own: not followed", why);
	if (d->shared && lst->st_uid != geteuid() && lst->st_uid != d->uid)
		return refuse(ELOOP, "a symbolic link owned by another user in "
			      "a sticky directory others can write: not "
			      "followed", why);
	return 0;
}

/*
 * An existing file at the name (not through a symlink): may it be
 * written? The rules of the kernel's protected_regular and
 * protected_hardlinks, kept whatever the sysctls say.
 */
static int judge_file(const struct sf_dir *d, const struct stat *st,
		      bool write, unsigned int how, const char **why)
{
	if (!(how & SF_NAMED) && !S_ISREG(st->st_mode))
		return refuse(EINVAL, "not a regular file, where iolite makes "
			      "a file of its own", why);
	if (!write || !S_ISREG(st->st_mode) || !d->shared)
		return 0;
	if (st->st_uid != geteuid() && st->st_uid != d->uid)
		return refuse(EACCES, "a file owned by another user in a sticky "
			      "directory others can write: not written", why);
	if (st->st_nlink > 1)
		return refuse(EMLINK, "a file with other hard links, in a sticky "
			      "directory others can write: not written", why);
	return 0;
}

/* The open itself: created, existing (no symlink) or through one. */
static int open_at(const struct sf_dir *d, const char *path, int flags,
		   mode_t mode, unsigned int how, bool *created, bool *linked,
		   const char **why)
{
	struct stat st;
	int tries, e, fd = -1;

	for (tries = 0; tries < 8; tries++) {
		if (how & SF_CREATE) {
			fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW,
				  mode);
			if (fd >= 0) {
				*created = true;
				return fd;
			}
			if (errno != EEXIST)
				return fail(why);
		}
		/* a FIFO planted under a name of ours must not hang us */
		fd = open(path, flags | O_NOFOLLOW |
			  (how & SF_NAMED ? 0 : O_NONBLOCK));
		if (fd >= 0)
			return fd;
		if (errno == ENOENT && (how & SF_CREATE))
			continue;	/* removed meanwhile: create it */
		e = errno;
		if (e != ELOOP && e != ENXIO)
			return fail(why);
		if (lstat(path, &st))
			return fail(why);
		if (!S_ISLNK(st.st_mode)) {	/* ENXIO: a FIFO, a socket */
			if (judge_file(d, &st, true, how, why))
				return -1;
			errno = e;
			return fail(why);
		}
		if (judge_link(d, &st, how, why))
			return -1;
		*linked = true;
		fd = open(path, flags | (how & SF_CREATE ? O_CREAT : 0), mode);
		return fd < 0 ? fail(why) : fd;
	}
	return fail(why);
}

int sf_open(const char *path, int flags, mode_t mode, unsigned int how,
	    const char **why)
{
	bool write = (flags & O_ACCMODE) != O_RDONLY;
	bool created = false, linked = false;
	struct sf_dir d;
	struct stat st;
	int fd;

	if (why)
		*why = NULL;
	flags = (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC;
	if (dir_look(path, &d))
		return fail(why);
	fd = open_at(&d, path, flags, mode, how, &created, &linked, why);
	if (fd < 0 || created)
		return fd;
	if (fstat(fd, &st) ||
	    (!linked && judge_file(&d, &st, write, how, why)) ||
	    (!(how & SF_NAMED) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) ||
	    ((how & SF_TRUNC) && S_ISREG(st.st_mode) && st.st_size &&
	     ftruncate(fd, 0))) {
		if (why && !*why)
			fail(why);
		close(fd);
		fd = -1;
	}
	return fd;
}

FILE *sf_fopen_w(const char *path, unsigned int how, const char **why)
{
	int fd = sf_open(path, O_WRONLY, 0666, how | SF_CREATE | SF_TRUNC, why);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		fail(why);
		close(fd);
	}
	return f;
}

int sf_check(const char *path, bool write, unsigned int how,
	     const char **why)
{
	struct sf_dir d;
	struct stat st;

	/* missing, or under a file: the open will say (or make the parents) */
	if (dir_look(path, &d))
		return errno == ENOENT || errno == ENOTDIR ? 0 : fail(why);
	if (lstat(path, &st))
		return errno == ENOENT || errno == ENOTDIR ? 0 : fail(why);
	if (S_ISLNK(st.st_mode))
		return judge_link(&d, &st, how, why);
	return judge_file(&d, &st, write, how, why);
}

int sf_replace_open(const char *path, mode_t mode, struct strbuf *tmp)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	int fd;

	/* mkostemp: O_CREAT | O_EXCL, so never through a symlink */
	strbuf_reset(tmp);
	strbuf_add(tmp, path, dlen);
	strbuf_addf(tmp, ".%s.XXXXXX", path + dlen);
	fd = mkostemp(tmp->buf, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fchmod(fd, mode)) {
		int e = errno;

		close(fd);
		unlink(tmp->buf);
		errno = e;
		return -1;
	}
	return fd;
}

int sf_replace_commit(int fd, const char *tmp, const char *path)
{
	int e;

	/* rename replaces whatever the name held; it follows nothing */
	if (!close(fd) && !rename(tmp, path))
		return 0;
	e = errno;
	unlink(tmp);
	errno = e;
	return -1;
}

/* realpath() of path's directory, then its last component (malloc'd). */
static char *dir_real(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;
	char *dir, *real;

	dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) :
		      xstrdup(".");
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return NULL;
	strbuf_addf(&sb, "%s/%s", real, slash ? slash + 1 : path);
	free(real);
	return strbuf_detach(&sb);
}

bool sf_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ra, *rb;
	bool same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ra = dir_real(a);
	rb = dir_real(b);
	same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

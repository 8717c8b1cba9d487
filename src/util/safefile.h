/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_SAFEFILE_H
#define IOLITE_UTIL_SAFEFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/strbuf.h"

/*
 * Opening the files iolite writes: every writer goes through here
 * (doc/safety.md). iolite often runs as root, in directories other
 * users can write; the kernel's fs.protected_symlinks and
 * fs.protected_regular may be off. So:
 *
 * - A name iolite made up (JOB.0.0, JOB_lat.1.log, agg-read_bw.log, a
 *   page's .html, a verify dump) is never followed through a final
 *   symlink, and must be a regular file when it exists.
 * - A path the user named is followed (a symlink to the device they
 *   meant), except the kernel's protected_symlinks case: a symlink in a
 *   sticky directory others can write, owned by neither the caller nor
 *   the directory's owner.
 * - A new file is created with O_EXCL and O_NOFOLLOW; an existing one
 *   opened for writing in such a shared sticky directory must belong to
 *   the caller or the directory's owner (protected_regular's rule) and
 *   have no other hard link (a link to a file elsewhere); it is cut to
 *   size only after these checks, never by O_TRUNC at open.
 * - A file replaced whole (the verify state) is written under a fresh
 *   O_EXCL name in the same directory and renamed over the old one.
 *
 * A refusal sets errno (ELOOP: a symlink not followed; EACCES: owned by
 * another user; EMLINK: hard-linked; EINVAL: not a regular file) and
 * *why to a sentence saying which rule; any other failure leaves the
 * system's errno and *why = strerror(errno). why may be NULL.
 */

#define SF_NAMED	0x1u	/* the user named the path itself */
#define SF_CREATE	0x2u	/* create it when missing */
#define SF_TRUNC	0x4u	/* cut an existing regular file to 0 */

/* An fd (O_CLOEXEC) opened with flags (access mode and O_APPEND, O_DIRECT
 * ...; O_CREAT, O_EXCL and O_TRUNC are how's), or -1. */
int sf_open(const char *path, int flags, mode_t mode, unsigned int how,
	    const char **why);

/* sf_open() for writing (O_WRONLY, SF_CREATE | SF_TRUNC) as a stdio
 * stream; NULL with errno and *why. */
FILE *sf_fopen_w(const char *path, unsigned int how, const char **why);

/*
 * What sf_open() would refuse, looked at without opening or creating
 * anything (files_resolve, the log names): 0, or -1 with errno and *why.
 * A missing file is fine.
 */
int sf_check(const char *path, bool write, unsigned int how,
	     const char **why);

/*
 * A file replaced whole: sf_replace_open() creates a new file under a
 * fresh name beside path (its name in tmp), sf_replace_commit() closes
 * it and renames it over path (a symlink or link there is replaced, not
 * followed); on failure the new file is removed. 0 / an fd, or -1 with
 * errno.
 */
int sf_replace_open(const char *path, mode_t mode, struct strbuf *tmp);
int sf_replace_commit(int fd, const char *tmp, const char *path);

/*
 * Do a and b name the same file: one existing file (device and inode),
 * or, where one is still to be made, one name in one directory?
 */
bool sf_same_file(const char *a, const char *b);

#endif

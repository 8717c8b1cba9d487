/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_FILES_PRIV_H
#define IOLITE_TARGET_FILES_PRIV_H

/*
 * Shared by files.c (resolve), region.c (a job's region in a target),
 * layout.c (prepare) and fileopts.c.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "io/io_u.h"
#include "opt/plan.h"
#include "util/strbuf.h"

struct engine_ops;

/* One file or device, however many jobs use it. */
struct target {
	char *path;
	bool exists;
	struct stat st;		/* valid when exists */
	unsigned int kind;	/* EF_BLOCKDEV, EF_CHARDEV, EF_REGULAR */
	uint64_t cur_size;	/* on disk now (file) or device size */
	uint64_t want_size;	/* largest end any job so far needs */
	bool fill;		/* some job reads it: lay out with data */
	bool layout;		/* a job without create_on_open uses it:
				 * created and laid out before the run */
	bool claimed;		/* need_create/need_layout reported once */
	dev_t fs_dev;		/* device of the filesystem holding it */
	unsigned int lbs;	/* logical block size, 0 = not known yet */
	bool odirect_ok;	/* O_DIRECT probe passed */
	bool dax;		/* a device DAX character device (sized) */
	/*
	 * a character device whose size is known: a DAX node (sysfs), an
	 * NVMe namespace's generic node (Identify Namespace, as fio 3.42's
	 * io_uring_cmd sizes it): regions as a block device's
	 */
	bool sized;
	/*
	 * a target on a server (engine_ops.remote_probe: "NBD export",
	 * "iSCSI LUN"), sized as a device; NULL for a local one
	 */
	const char *remote;
	bool unknown;	/* on a server not reached: no end to check */
};

/* "file:line: option 'x': " then the message (opt may be NULL); -1. */
__attribute__((format(printf, 4, 5)))
int files_fail(struct strbuf *err, const struct job_plan *p,
	       const char *opt, const char *fmt, ...);
/* Which option named the job's files (filename, directory or NULL). */
const char *files_name_opt(const struct job_plan *p);
/* The directory part of path (malloc'd): "." or "/" at the top. */
char *files_dir_of(const char *path);
/* The deepest directory of path that exists (malloc'd), its stat in st. */
char *files_existing_ancestor(const char *path, struct stat *st);

/*
 * remote.c: name, a target on a server, as ops->remote_probe finds it
 * (t zeroed first; t->path is the probe's name for it, not owned). 0, or
 * -1 with "job 'x': option 'o': why" in err.
 */
int remote_target(const struct job_plan *p, const struct engine_ops *ops,
		  const char *name, struct target *t, struct strbuf *err);

/* region.c: a job's region in target t (files_resolve()) */
/* the smallest block of any direction, used or not: fio's rounding unit */
uint64_t region_least_bs(const struct job_plan *p);
/* filesize= a range: each of the n files' size, drawn as fio; else NULL */
uint64_t *region_draw_filesizes(const struct job_plan *p, unsigned int n);
/* t's size before this job (on disk, or an earlier job's), 0: unknown */
uint64_t region_known_size(const struct target *t);
/* "offset_increment" for a clone that has one, else "offset" */
const char *region_offset_opt(const struct job_plan *p);
/* pct% of base, without overflow */
uint64_t region_pct_of(uint64_t base, unsigned int pct);
/* where later sweeps of a file of size bytes start (first at off) */
uint64_t region_later_offset(const struct job_plan *p, uint64_t size,
			     uint64_t off);
/* a character device's end (size= over the files), or UINT64_MAX */
uint64_t region_chardev_end(const struct job_plan *p, const struct target *t,
			    unsigned int nr_files, bool nofile);
/*
 * The region [*off, *off + *len) the job uses in t; filesize: the file's
 * size when filesize= is set (region_draw_filesizes()); nofile: an
 * engine without files. -1 with the reason in err.
 */
int region_of_job(const struct job_plan *p, const struct target *t,
		  uint64_t filesize, unsigned int nr_files, bool nofile,
		  uint64_t *off, uint64_t *len, struct strbuf *err);

#endif

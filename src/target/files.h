/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_FILES_H
#define IOLITE_TARGET_FILES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine/engine.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * Targets: which files a job uses and the region of each it touches.
 *
 * Two phases so that bad input never creates a file or issues I/O:
 * files_resolve() works out every job's files, sizes and regions and
 * checks them (a missing /dev path is never created; allow_file_create=0;
 * a parent that is a regular file; size beyond a block device; O_DIRECT
 * alignment against the logical block size) touching nothing;
 * files_prepare() then creates missing directories and files and lays
 * them out to full size before any job reads them, as fio does.
 */

struct job_files {
	struct engine_file *files;	/* fd = -1, path and region filled */
	unsigned int nr_files;
	dev_t *devs;		/* block devices behind the files (disk stats) */
	unsigned int nr_devs;
	uint64_t total_io_size;	/* sum of the files' io_size */
	/*
	 * What files_prepare() does, per file. A file several jobs share is
	 * flagged in the first job that uses it only, and its real_size is
	 * the largest any of them needs, so it is laid out once.
	 */
	bool *need_create;	/* per file: missing, to be created */
	bool *need_layout;	/* per file: to be extended/written to size */
	bool *need_fill;	/* per file: lay out with written data (a job
				 * reads or trims it, or overwrite=1), not
				 * just allocated (write-only jobs) */
	uint64_t fill_drawn;	/* where the layout left the job's stream
				 * of contents (workload/buffer.h) */
};

/*
 * Resolves the files of all job instances (plans[i] -> out[i]). Jobs that
 * name the same file share its layout. Returns 0 or -1 with a message
 * naming job file:line, option and path in err. Creates nothing. The
 * one thing it completes in a plan is the io_size that follows from the
 * files (filesize= with size=, see files.c).
 */
int files_resolve(struct job_plan *plans, unsigned int nr,
		  struct job_files *out, struct strbuf *err);

/*
 * Creates and lays out what files_resolve() found missing. Before each
 * job's layout, fio's "NAME: Laying out IO file (1 file / 1MiB)" goes to
 * progress (NULL: nothing said). Returns 0, -1 with the message in err,
 * or SIGINT / SIGTERM when one stopped the layout (the partial file
 * removed or cut back, err says which; the caller ends the run).
 */
int files_prepare(const struct job_plan *plans, unsigned int nr,
		  struct job_files *jf, FILE *progress, struct strbuf *err);

/*
 * Engine files: flags is EF_REGULAR / EF_BLOCKDEV / EF_CHARDEV, or 0 for
 * engines without files (null: names only, nothing looked at or
 * created). real_size is the target's size once prepared; the job's
 * region is [io_offset, io_offset + io_size). The paths are owned by the
 * job_files; job_files_release() frees them and the arrays.
 */

/* After the run: unlink=1 removes the files the job used. */
void files_finish(const struct job_plan *p, struct job_files *jf);

void job_files_release(struct job_files *jf);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_FILEOPTS_H
#define IOLITE_TARGET_FILEOPTS_H

#include "opt/plan.h"
#include "target/files.h"
#include "util/notes.h"

/*
 * The file options of issue 15.7 that act around the I/O rather than in
 * it, and their notes. Called once per job or per pass, never per I/O.
 */

/*
 * Notes before the run: pvsync2 hipri on buffered I/O (the kernel ignores
 * RWF_HIPRI there) or on a device without poll queues (completions come
 * by interrupt as without it).
 */
void fileopts_notes(const struct job_plan *plans,
		    const struct job_files *files, unsigned int nr,
		    struct notes *out);

/*
 * opendir: the regular files below p->o.opendir, recursively, in the
 * order readdir(3) gives them (fio's), put before the *nr names in *v
 * when the job also names files with filename= (otherwise the generated
 * names are dropped); nrfiles= given keeps only the first ones. Touches
 * nothing. 0, or -1 with the reason in err.
 */
int fileopts_opendir(const struct job_plan *p, char ***v, size_t *nr,
		     struct strbuf *err);

/*
 * pre_read: reads the job's region of each regular file and block device
 * once, with read(2) in blocks of the job's largest block size, so that
 * the page cache holds it when the job starts. A read that comes back
 * short (a file create_on_open has just made, one shorter than its
 * region) is an error, -EIO, as in fio. 0 or -errno (err says).
 */
int fileopts_pre_read(const struct job_plan *p, const struct job_files *jf,
		      struct strbuf *err);

/*
 * unlink_each_loop, between loops with the files closed: deletes each
 * regular file and creates it again empty (fio's next loop opens with
 * O_CREAT). 0 or -errno (err says).
 */
int fileopts_unlink_loop(const struct job_plan *p,
			 const struct job_files *jf, struct strbuf *err);

#endif

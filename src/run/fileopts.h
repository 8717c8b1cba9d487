/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_FILEOPTS_H
#define IOLITE_RUN_FILEOPTS_H

#include "opt/plan.h"
#include "run/checks.h"
#include "run/files.h"

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

#endif

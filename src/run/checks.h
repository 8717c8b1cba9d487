/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_CHECKS_H
#define IOLITE_RUN_CHECKS_H

#include "opt/plan.h"
#include "stats/results.h"
#include "target/files.h"
#include "util/notes.h"

/*
 * Measurement checks: things that make a run's figures mislead without
 * any error, said as notes in the report (never on stderr):
 *
 *  - a job measured for less than a second (a 5 ms run is noise);
 *  - I/O buffers of the jobs running together larger than the CPU's
 *    last-level cache, on memory-speed targets (tmpfs, mmap, DAX): the
 *    copies then measure DRAM, not the device path;
 *  - a job allowed on CPUs of another NUMA node than its device's;
 *  - invalidate=1 on a block device without CAP_SYS_ADMIN (BLKFLSBUF):
 *    its cached pages stay.
 *
 * IOLITE_SYSFS_ROOT replaces /sys, so tests can stand in a fake tree.
 * The notes go into a struct notes (util/notes.h).
 */

/*
 * A reported job as the notes name it: "'qd'", or with --sweep "'qd' at
 * iodepth=4" (the point's values), since every point's job has its name.
 * Returns sb's text.
 */
const char *notes_job(const struct run_result *rr, const struct job_result *j,
		      struct strbuf *sb);

void checks_before(const struct job_plan *plans, const struct job_files *files,
		   unsigned int nr, struct notes *out);
/*
 * The notes of checks_before() that are about the job options themselves
 * (fio's parser warnings; --warnings-fatal makes them errors).
 */
void checks_options(const struct job_plan *plans, unsigned int nr,
		    struct notes *out);
void checks_after(const struct run_result *rr, struct notes *out);

#endif

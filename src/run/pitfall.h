/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_PITFALL_H
#define IOLITE_RUN_PITFALL_H

#include "run/checks.h"
#include "stats/results.h"
#include "target/files.h"

/*
 * Pitfalls: runs that complete without an error but whose figures are
 * not the device's, said as notes in the report (run/checks.h).
 *
 * Before the run (files laid out, nothing issued), per job:
 *  - it reads regions of a regular file that were never written (holes
 *    of a sparse file, or unwritten extents): the file system returns
 *    zeros without touching the device. Found with SEEK_DATA/SEEK_HOLE
 *    over the job's region of each file.
 *  - it is buffered (direct=0) and its working set fits in the page
 *    cache (MemAvailable of /proc/meminfo): reads of blocks read before
 *    in the same pass (io_size beyond the region, random offsets without
 *    a map) or cached already (invalidate=0), and writes never synced,
 *    are served by memory. With invalidate=1 a pass that reads each
 *    block once starts cold (the cache is dropped at each loop and
 *    time_based wrap), so its reads are the device's.
 *
 * After the run:
 *  - a job's worker thread waited for a CPU (run-queue delay,
 *    run/stall.h) more than 1% of its run: the tester was starved.
 *  - a disk behind the jobs stayed nearly idle: it moved less than a
 *    tenth of the bytes the jobs moved on disks, so the I/O was served
 *    above it (its utilisation is in the note).
 *
 * IOLITE_MEMINFO replaces /proc/meminfo, for tests (proc/mem.h).
 */
void pitfall_before(const struct job_plan *plans, const struct job_files *files,
		    unsigned int nr, struct notes *out);
void pitfall_after(const struct run_result *rr, struct notes *out);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ZBD_ZBD_H
#define IOLITE_ZBD_ZBD_H

#include <stdbool.h>
#include <stdint.h>

#include "io/io_u.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * zonemode=zbd: a job's zoned block devices, as fio 3.33 drives them.
 *
 * Contract:
 * - zbd_check_target(): files_resolve() asks it, before anything is
 *   created, for each target of a zbd job: the device must be zoned (the
 *   kernel's queue/zoned), zonesize= must be the device's, writes need
 *   direct=1; the job's region is rounded to whole zones (offset up, end
 *   down) and must hold one zone at least.
 * - zbd_new(): the worker's, per job; at a file's first I/O (it is open
 *   then) the zones of its region from the kernel (BLKREPORTZONE):
 *   start, capacity, write pointer, type. Only sequential-write-required
 *   zones are written at their write pointers; conventional ones and a
 *   host-aware device's sequential-write-preferred ones are written and
 *   read anywhere and never reset, as fio does.
 * - zbd_adjust(): the workload's next I/O made to fit the zones: a
 *   write goes to its zone's write pointer (the zone reset first when it
 *   is full: ZBD_RESET, the caller waits for what is in flight and calls
 *   zbd_reset()) and stops at the zone's capacity; a sequential one past
 *   the capacity goes on at the next zone (past the last: ZBD_SKIP, the
 *   caller gives the I/O back with workload_skip() and draws again);
 *   under an open-zone limit (max_open_zones, else the device's own
 *   unless ignore_zone_limits=1; job_max_open_zones) a write whose zone
 *   cannot be opened goes to an open one (none with room, but one
 *   whose last write is in flight: ZBD_WAIT), and a zone leaves the
 *   open ones when the write that fills it completes, as fio. A read
 *   stays below the write pointer unless read_beyond_wp=1 (a zone
 *   without data: the next one with some, or the end). The write
 *   pointer moves when the write is issued, as fio.
 * - zbd_resets(): the zones reset, for the report.
 * - Sharing: a device's zones (write pointers, open zones, the
 *   max_open_zones limit) are one state for every job of the run on it
 *   (jobs are threads; a mutex per device), as in fio; a write holds its
 *   zone until it completes (zbd_done()), and another job's write to it
 *   waits (ZBD_WAIT) as behind fio's zone locks, after completing what
 *   it has in flight, so that no job waits while holding a zone.
 * Conventional zones are left alone. The hot path of a job without
 * zonemode=zbd never sees this module.
 */

struct zbd;

enum zbd_verdict {
	ZBD_OK,		/* u adjusted: issue it */
	ZBD_RESET,	/* reset u's zone first (zbd_reset()), then ask again */
	ZBD_SKIP,	/* u moved to its region's end: workload_skip(), draw */
	ZBD_END,	/* no I/O fits: the pass ends */
	ZBD_FAIL,	/* the zones could not be read: zbd_errmsg() */
	ZBD_WAIT,	/* another write must complete first: the caller
			 * completes what it has in flight, zbd_wait(),
			 * then asks again */
};

/*
 * path: a target of a zbd job, *off and *len its region, rounded here.
 * Returns 0 or -1 with "file:line: option 'x': ..." in err.
 */
int zbd_check_target(const struct job_plan *p, const char *path,
		     bool blockdev, uint64_t *off, uint64_t *len,
		     struct strbuf *err);

/* files: borrowed, their fds read at each file's first I/O */
struct zbd *zbd_new(const struct job_plan *p,
		   const struct engine_file *files, unsigned int nr_files);
void zbd_free(struct zbd *z);

enum zbd_verdict zbd_adjust(struct zbd *z, struct io_u *u);
/*
 * After ZBD_WAIT, with nothing of the job's in flight: waits (a slice
 * of 20 ms at most, so that the caller can look at its stop flags) for
 * another job to let a zone go, close or reset one.
 */
void zbd_wait(struct zbd *z, const struct io_u *u);
/*
 * A write zbd_adjust() passed has completed (or failed: u->error): its
 * zone let go, and closed when the write reaches its capacity (fio);
 * with recover_zbd_write_error a failed one's zone is written with
 * zeroes from the device's write pointer to the write's end. 0, or -1
 * when that failed (zbd_errmsg(): the job stops).
 */
int zbd_done(struct zbd *z, const struct io_u *u);
/*
 * Resets u's zone (BLKRESETZONE): 0, or -1 (zbd_errmsg()); 0 without a
 * reset when another job wrote to it or reset it since ZBD_RESET.
 */
int zbd_reset(struct zbd *z, const struct io_u *u);
const char *zbd_errmsg(const struct zbd *z);
uint64_t zbd_resets(const struct zbd *z);
/*
 * For workload_read_gate(): false while no zone of the job's region has
 * data (conventional, or written), when fio 3.33 makes a mixed job's
 * read a write (a read there would end the job before it wrote).
 */
bool zbd_read_ok(void *z);

#endif

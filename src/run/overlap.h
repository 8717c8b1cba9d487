/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_OVERLAP_H
#define IOLITE_RUN_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

/*
 * serialize_overlap (fio): with a queue deeper than one, an I/O that
 * overlaps one in flight on the same file (by a byte or more, whatever
 * the directions) is not queued until that one has completed.
 *
 * The worker asks overlap_busy() before it queues an I/O; when it says
 * so, the worker treats the I/O as an engine's BUSY (submits what it
 * has, reaps, asks again). overlap_issue() and overlap_done() keep the
 * set of I/Os in flight: the io_u index is the slot. The check scans
 * the I/Os in flight, O(iodepth) per I/O, and costs nothing to a job
 * without the option (the worker's pointer is NULL). Single-threaded:
 * the worker's own memory.
 */

struct overlap;

/* NULL when the job does not serialize (no option, or a depth of 1). */
struct overlap *overlap_new(bool on, unsigned int nr_ios);
void overlap_free(struct overlap *o);

/* Whether u overlaps an I/O in flight. */
bool overlap_busy(const struct overlap *o, const struct io_u *u);
/* u is in flight (queued, not completed inline) / has completed. */
void overlap_issue(struct overlap *o, const struct io_u *u);
void overlap_done(struct overlap *o, const struct io_u *u);

#endif

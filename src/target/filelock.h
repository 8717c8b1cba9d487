/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_FILELOCK_H
#define IOLITE_TARGET_FILELOCK_H

#include <stdbool.h>

#include "opt/options.h"

/*
 * lockfile=exclusive|readwrite: I/O to a file that several jobs share is
 * serialized between the jobs, as fio does to emulate applications that
 * share files. Jobs are threads, so a lock is a mutex and a condition
 * variable in memory, one per file (same device and inode, whatever the
 * path says), shared by every job that uses the file.
 *
 * A hold covers one I/O, from before it is queued to its completion. An
 * owner (the worker: any pointer unique to it) may hold a lock many
 * times at once (I/O in flight at depth > 1); each acquire is matched by
 * one release.
 *
 *   exclusive  one owner at a time, whatever the direction
 *   readwrite  reads share the file with other reads; a write (or trim)
 *              excludes every other owner; the writer's own reads count
 *              as its holds
 *
 * The worker part, per I/O when lockfile is not none:
 *   before queue: filelock_acquire(lock, w, mode, ddir != READ, false);
 *     on -EBUSY with I/O in flight: reap, then try the same I/O again
 *     (the lock may wait on this worker's own reads); with nothing in
 *     flight: filelock_acquire(..., true), which blocks until it holds
 *     (it holds nothing then, so it cannot wait on itself)
 *   after completion: filelock_release(lock, w)
 */
struct filelock;

/*
 * The lock of the file at path (created on first use; the file should
 * exist, else the path names it). Counted: filelock_put() per get.
 * Thread-safe. Never NULL.
 */
struct filelock *filelock_get(const char *path);
void filelock_put(struct filelock *l);

/*
 * Takes one hold. write: the I/O writes or trims. wait: block until it
 * can, else return -EBUSY at once. Returns 0 when held, or -EBUSY.
 * mode LOCKFILE_NONE always succeeds at once (and needs no release).
 */
int filelock_acquire(struct filelock *l, const void *owner,
		     enum lockfile_mode mode, bool write, bool wait);
/* Gives one hold back; wakes the waiters when the file is free. */
void filelock_release(struct filelock *l, const void *owner,
		      enum lockfile_mode mode);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_FCYCLE_H
#define IOLITE_RUN_FCYCLE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "opt/plan.h"
#include "stats/stats.h"
#include "util/strbuf.h"

/*
 * A job's files through its run, as fio treats them:
 *
 *  - every open (the first, and again for each loop and each time_based
 *    pass) drops the file's cached pages when invalidate=1 (the
 *    default): posix_fadvise(POSIX_FADV_DONTNEED) of the job's region of
 *    a regular file, ioctl(BLKFLSBUF) on a block device (root only, as
 *    fio; checks.c says so in the notes otherwise), nothing on a
 *    character device. direct=1 and mmap jobs too, as fio does;
 *  - then fadvise_hint's advice (FADV_RANDOM for random jobs, else
 *    FADV_SEQUENTIAL) of the same region, files and block devices;
 *  - every close runs fsync_on_close's fsync(2) when the job wrote since
 *    its last sync.
 *
 * "Wrote since its last sync" is fio's should_fsync: the job has writes,
 * and some read, write or trim completed since the last fsync/fdatasync
 * the job's own I/O loop made (fsync=N, end_fsync; not fsync_on_close's,
 * which fio does outside its I/O) or since the loop started. The worker
 * marks those syncs with fcycle_synced() and a new loop with
 * fcycle_new_loop(); it is a comparison of counters, nothing per I/O.
 * Completed, not issued, as fio clears its last_was_sync on completions:
 * with a queueing engine a write queued right after a sync does not make
 * the next multiple of fsync=N due until some I/O has completed.
 */
struct file_cycle {
	const struct engine_ops *ops;
	struct engine *e;
	const struct job_plan *p;
	const struct worker_stats *st;	/* completion counts */
	uint64_t sync_mark;	/* completed r+w+t at the last sync */
	bool writer;		/* the job writes (fio's td_write) */
	bool syncs;		/* fsync_on_close */
};

void fcycle_init(struct file_cycle *fc, const struct engine_ops *ops,
		 struct engine *e, const struct job_plan *p,
		 const struct worker_stats *st);

static inline uint64_t fcycle_done(const struct file_cycle *fc)
{
	const struct dir_stats *d = fc->st->dir;

	return d[DDIR_READ].ios + d[DDIR_WRITE].ios + d[DDIR_TRIM].ios +
	       fc->st->total_err;
}

/* fio's should_fsync: a writer with I/O completed since its last sync. */
static inline bool fcycle_unsynced(const struct file_cycle *fc)
{
	return fc->writer && fcycle_done(fc) != fc->sync_mark;
}

static inline void fcycle_synced(struct file_cycle *fc)
{
	fc->sync_mark = fcycle_done(fc);
}

static inline void fcycle_new_loop(struct file_cycle *fc)
{
	fc->sync_mark = UINT64_MAX;
}

/* Opens file i through the engine, then invalidates it. 0 or -errno. */
int fcycle_open(struct file_cycle *fc, unsigned int i, struct strbuf *err);

/*
 * Closes file i through the engine, after fsync_on_close's fsync when
 * the job is unsynced. Returns 0 or the fsync's -errno (the file is
 * closed either way).
 */
int fcycle_close(struct file_cycle *fc, unsigned int i);

/* invalidate=1: drops file i's cached pages (open files only). */
void fcycle_invalidate(const struct file_cycle *fc, unsigned int i);

/* Is file i open (an engine without files: always). */
bool fcycle_is_open(const struct file_cycle *fc, unsigned int i);

#endif

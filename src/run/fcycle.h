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
 *    its last sync;
 *  - write_iolog logs each open and close (iolog, once the writer is
 *    open: the worker logs the files it opened before).
 *
 * "Wrote since its last sync" is fio's should_fsync: the job has writes,
 * and some read, write or trim was issued since the last fsync/fdatasync
 * the job's own I/O loop made (fsync=N, end_fsync; not fsync_on_close's,
 * which fio does outside its I/O) or since the loop started. The worker
 * marks those syncs with fcycle_synced() and a new loop with
 * fcycle_new_loop(); it is a comparison of counters, nothing per I/O.
 * fio clears its flag when an I/O completes, so with a queueing engine
 * its count depends on when completions are reaped; counting issues
 * gives the same count for inline engines and one that does not depend
 * on timing for the others (doc/compat.md).
 */
struct iolog_writer;

struct file_cycle {
	const struct engine_ops *ops;
	struct engine *e;
	const struct job_plan *p;
	const struct worker_stats *st;	/* issued counts */
	uint64_t sync_mark;	/* issued r+w+t at the last sync */
	bool writer;		/* the job writes (fio's td_write) */
	bool syncs;		/* fsync_on_close */
	struct iolog_writer *iolog;	/* write_iolog's open/close lines */
};

void fcycle_init(struct file_cycle *fc, const struct engine_ops *ops,
		 struct engine *e, const struct job_plan *p,
		 const struct worker_stats *st);

static inline uint64_t fcycle_issued(const struct file_cycle *fc)
{
	const uint64_t *n = fc->st->issued;

	return n[DDIR_READ] + n[DDIR_WRITE] + n[DDIR_TRIM];
}

/* fio's should_fsync: a writer that issued I/O since its last sync. */
static inline bool fcycle_unsynced(const struct file_cycle *fc)
{
	return fc->writer && fcycle_issued(fc) != fc->sync_mark;
}

static inline void fcycle_synced(struct file_cycle *fc)
{
	fc->sync_mark = fcycle_issued(fc);
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

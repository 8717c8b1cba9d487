/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_WFILES_H
#define IOLITE_RUN_WFILES_H

#include <stdbool.h>

#include "engine/engine.h"
#include "opt/plan.h"
#include "run/fcycle.h"
#include "util/strbuf.h"
#include "workload/workload.h"

/*
 * The worker's per-file duties that most jobs do not have, kept out of
 * worker.c's loops (one unlikely branch at each hook when off):
 *
 *  openfiles   only workload_open_limit() files open at once: the
 *              worker opens at start the ones in use; after each
 *              workload_next() the workload's file events retire files
 *              (closed once their I/O in flight has completed) and bring
 *              others in (opened before their first I/O is queued, once
 *              there is room: until then wfiles_hold() says "reap").
 *  lockfile    each I/O holds its file's lock (target/filelock.h) from
 *              before it is queued to its completion.
 *
 * Hooks, as run/worker.c calls them:
 *   wfiles_events()  after the next I/O was chosen (0 from next())
 *   wfiles_hold()    before queue(); 1 means "reap, then queue it again"
 *   wfiles_done()    when an I/O completes (before a short transfer's
 *                    rest is queued again: its hold is kept)
 */
struct wfiles;

/*
 * *out is NULL when the job needs none of this. Files open and close
 * through fc (run/fcycle.h): the worker opens each at its first I/O
 * (worker_lazy_start()), wfiles_hold() those openfiles brings in; the
 * FILE_OP engines open the files wfiles_open_at_start() names when the
 * run starts. nr_ios: io_u slots (indexes below it). owner: unique to
 * the worker (lock holder). Returns 0 or -1 with a message. wfiles_free()
 * frees, and gives back any hold still taken.
 */
int wfiles_init(struct wfiles **out, const struct job_plan *p,
		struct workload *wl, struct file_cycle *fc,
		unsigned int nr_ios, const void *owner, struct strbuf *err);
bool wfiles_open_at_start(const struct wfiles *wf, unsigned int file);
/*
 * A new pass with every file closed (in_use_open: but the ones
 * wfiles_open_at_start() names, opened by the caller).
 * wfiles_limited(): openfiles is below the number of files.
 */
void wfiles_restart(struct wfiles *wf, bool in_use_open);
bool wfiles_limited(const struct wfiles *wf);
/*
 * fio's verify phase: every file is closed before the read-back
 * (wfiles_close_all()), which then opens the files it reads as it
 * reaches them (wfiles_open(): 0 or -errno), openfiles or not.
 */
void wfiles_close_all(struct wfiles *wf);
int wfiles_open(struct wfiles *wf, unsigned int file, struct strbuf *err);
void wfiles_free(struct wfiles *wf);

/* Takes the workload's file events. 0 (-1 with err set: none yet). */
int wfiles_events(struct wfiles *wf, struct strbuf *err);
/*
 * Takes u's hold, opening its file first if it was brought in. inflight:
 * the worker's I/Os queued and not reaped; with none, it waits for the
 * lock (holding nothing then, it cannot wait on itself), else returns 1
 * when the lock is taken by another job or no file can be opened yet.
 */
int wfiles_hold(struct wfiles *wf, struct io_u *u, unsigned int inflight);
void wfiles_done(struct wfiles *wf, const struct io_u *u);

/* The most files open at once so far (openfiles). */
unsigned int wfiles_max_open(const struct wfiles *wf);

#endif

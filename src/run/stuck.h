/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_STUCK_H
#define IOLITE_RUN_STUCK_H

/*
 * Jobs that cannot stop. A job told to stop (a stop signal, exitall,
 * another job's error, its own runtime over) whose I/O count has not
 * moved for the stuck timeout (fio's 300 s unless --stuck-timeout says)
 * waits for an I/O the device does not answer. The reporter gives it
 * up: the worker thread is parked (a signal whose handler never returns,
 * so the thread runs no more of iolite's code, whenever its system call
 * comes back), the job's result is made from its figures as they stand
 * (worker_abandon()), it fails with the reason, and the run ends with
 * its report. A second stop signal gives up every unfinished job at
 * once; a third exits without a report.
 *
 * What a given-up job holds (its buffers, its files, its engine) is
 * never freed: the kernel may still write into its buffers.
 */
#include <stdbool.h>
#include <stdint.h>

struct run_ctx;

#define STUCK_TIMEOUT_DEFAULT_MS 300000ull	/* fio's, for a stop signal */

struct stuck_watch;

/* The park signal's handler, installed once per process. */
void stuck_signal_install(void);

/* The calling thread's parked flag, set when it parks (thread-local). */
_Atomic int *stuck_thread_flag(void);

struct stuck_watch *stuck_watch_new(unsigned int nr_jobs);
void stuck_watch_free(struct stuck_watch *sw);

/*
 * Once per reporter tick. stopping: the run was told to stop (a signal,
 * an error, exitall); hurry: a second stop signal, give up every job
 * still running now. Returns how many jobs were given up this time.
 */
unsigned int stuck_tick(struct stuck_watch *sw, struct run_ctx *ctx,
			uint64_t now, uint64_t timeout_ns, bool stopping,
			bool hurry);

#endif

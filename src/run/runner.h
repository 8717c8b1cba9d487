/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_RUNNER_H
#define IOLITE_RUN_RUNNER_H

#include "run/worker.h"
#include "util/strbuf.h"

/*
 * Runs every job instance with fio's grouping semantics: jobs up to the
 * next stonewall run together; a stonewall job waits for everything
 * before it. One thread per instance. A sampler thread takes bandwidth
 * and IOPS samples from the workers' live counters every bwavgtime.
 * Fills each job's res (worker_result). Returns 0 when every job ran
 * without error, 1 when some job reported an error (messages already in
 * the jobs' errmsg), -1 when the run could not start.
 */
int runner_run(struct run_job *jobs, unsigned int nr, struct strbuf *err);

/* Asks every running job to stop (signal handlers, exitall). */
void runner_stop(void);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_IOWQ_H
#define IOLITE_RUN_IOWQ_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * CPU time of io_uring's async workers on a job's behalf. When io_uring
 * cannot complete a request inline (buffered reads that miss the page
 * cache, force_async) it punts it to io-wq worker threads, which live in
 * our thread group as "iou-wrk-<tid>" where tid is the task that owns the
 * ring: the job's worker thread. Their CPU time is read from
 * /proc/self/task/<id>/schedstat (nanoseconds of run time, precise) by the
 * sampler every 100 ms and by the worker just before it closes its ring,
 * so a thread's last slice is counted even when it exits with the ring.
 */

#define IOWQ_MAX 1024

struct iowq_track {
	pthread_mutex_t lock;
	pid_t owner;			/* the job's worker thread */
	pid_t tid[IOWQ_MAX];		/* workers seen */
	uint64_t ns[IOWQ_MAX];		/* their run time at last look */
	unsigned int nr;
	unsigned int max_alive;
};

void iowq_track_init(struct iowq_track *t, pid_t owner);
void iowq_track_release(struct iowq_track *t);
/* Looks at this process's threads; cheap when there are none. */
void iowq_scan(struct iowq_track *t);
/* Sum of the workers' run time, in ns. */
uint64_t iowq_total_ns(struct iowq_track *t);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_STALL_H
#define IOLITE_RUN_STALL_H

#include <stdint.h>
#include <sys/types.h>

/*
 * The tester's own stalls: how long a worker thread was runnable but not
 * running, waiting for a CPU (the scheduler's run-queue delay, the second
 * field of /proc/<tid>/schedstat). The worker reads it when counting
 * begins and when it ends, never per I/O; its involuntary context
 * switches come with its rusage (ru_nivcsw). The report's note (see
 * stall_notes() in run/pitfall.h) tells a dip in IOPS that was the
 * tester's from one that was the device's.
 */

/*
 * The run-queue delay of thread tid of this process so far (ns); tid 0:
 * the calling thread. -1 when the kernel does not say (no schedstat:
 * CONFIG_SCHED_INFO off).
 */
int64_t stall_delay_ns(pid_t tid);

/* The delay since start (a stall_delay_ns() value), or -1 if unknown. */
int64_t stall_since(pid_t tid, int64_t start);

#endif

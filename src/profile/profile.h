/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PROFILE_PROFILE_H
#define IOLITE_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

/*
 * --profile: where the CPU time of the measured phase went.
 *
 * Contract. The runner tells this module when the measured phase of a
 * stonewall group begins, pauses (a job of the group ramps again),
 * resumes and ends (profile_phase(), from one thread at a time); it
 * knows nothing else about it. At a group's begin the module samples
 * every thread of the process (workers, the reporter, log writers, and
 * the io_uring threads already there: SQPOLL, iou-wrk) with perf's
 * software cpu-clock event, one event per thread and CPU, inherited by
 * the threads they create afterwards (io-wq workers come and go), all
 * of a CPU's events writing into one ring buffer that a reader thread
 * of its own drains into a table of distinct call chains. In system
 * mode (root) the events are per CPU for every task instead. Nothing
 * runs on the I/O path: the sampling is the kernel's timer interrupt.
 *
 * After the run, profile_results() symbolises (kernel: /proc/kallsyms;
 * user space: elfutils' libdwfl when built with libdw, else
 * module+offset) and returns one plain profile_result per group that
 * had a measured phase. Whatever refuses (perf_event_paranoid, a
 * container, kptr_restrict) becomes a note naming the setting and how
 * to change it; the benchmark itself never fails for it and nothing is
 * written to stderr.
 *
 * For the tests: IOLITE_PERF_REFUSE=all (or =kernel) makes
 * perf_event_open refuse every event (or those that include the kernel)
 * with EACCES, as a kernel with perf_event_paranoid set high does;
 * IOLITE_KALLSYMS=FILE reads FILE for /proc/kallsyms.
 */

enum profile_mode { PROFILE_OFF, PROFILE_THREADS, PROFILE_SYSTEM };

/* Where a sample's own function lives (the leaf of its call chain). */
enum profile_area {
	PA_IOLITE,		/* the iolite executable */
	PA_LIBS,		/* shared libraries, the vdso */
	PA_K_IO_URING,
	PA_K_AIO,
	PA_K_BLOCK,
	PA_K_DRIVER,
	PA_K_FS,
	PA_K_COPY,		/* memory copy and clear */
	PA_K_SCHED,		/* scheduler and idle */
	PA_K_IRQ,		/* interrupts, softirqs, timers */
	PA_K_SYSCALL,		/* system call entry and exit */
	PA_K_OTHER,
	PA_K_HIDDEN,		/* in the kernel, not sampled (paranoid) */
	PA_OTHER_PROC,		/* user space of other processes (system) */
	PA_NR,
};

/* Short name of an area ("iolite", "io_uring", "memory copy" ...). */
const char *profile_area_name(enum profile_area a);
/* The area of a kernel function, by its name and module (NULL: none). */
enum profile_area profile_kernel_area(const char *name, const char *module);

struct profile_fn {
	char *name;		/* "copy_user_generic", "libc.so.6+0x9a3f0" */
	char *module;		/* "kernel", "iolite", "libc.so.6", "nvme" */
	enum profile_area area;
	uint64_t self;		/* samples with it as the leaf */
	uint64_t total;		/* samples with it anywhere in the chain */
};

/*
 * The call tree of the samples, for a flame graph: node 0 is the root
 * (every sample), its children the threads (by name), theirs the
 * outermost frames of the chains, down to the leaves. count: samples
 * through the node; child and sibling: node indexes, 0 for none.
 */
struct profile_node {
	const char *name;	/* the thread's or the function's */
	const char *module;	/* NULL for the root and the threads */
	enum profile_area area;
	uint64_t count;
	unsigned int child, sibling;
	bool kernel;
};

struct profile_result {
	unsigned int groupid;	/* the stonewall group's first group id */
	unsigned int run;	/* --repeat: the run (1..N) it was in; 0: one run */
	const char *mode;	/* "threads" or "system" */
	uint64_t period_ns;	/* the sampling period */
	uint64_t samples;	/* taken; area[PA_K_HIDDEN] not included */
	uint64_t lost;		/* records the ring buffers lost */
	uint64_t cpu_ns;	/* CPU time of the sampled threads (the event) */
	uint64_t wall_ns;	/* length of the measured phase */
	unsigned int threads;	/* threads sampled at the phase's start;
				 * system mode: the CPUs */
	uint64_t area[PA_NR];	/* self samples per area */
	struct profile_fn *fn;	/* by self, then total, descending */
	unsigned int nr_fn;
	struct profile_node *node;	/* the call tree; nr_node >= 1 */
	unsigned int nr_node;
	/* the profiler's own cost: samples x per_sample + reading + set-up */
	uint64_t per_sample_ns;
	uint64_t read_ns;
	double cost_pct;	/* of cpu_ns */
};

struct profile;

/*
 * A profiler for the run, or NULL when mode is PROFILE_OFF or perf
 * events are refused (the reason, with the setting to change, is then
 * appended to note). Measures the cost of one sample here, before the
 * jobs start, and sets the rate from it unless hz (samples a second of
 * CPU) is given. cpus (system mode): the CPUs to watch, NULL: all
 * online. Nothing goes to stderr.
 */
struct profile *profile_new(enum profile_mode mode, unsigned int hz,
			    const int *cpus, unsigned int nr_cpus,
			    struct strbuf *note);

enum profile_phase { PROFILE_BEGIN, PROFILE_PAUSE, PROFILE_RESUME,
		     PROFILE_END };
/* The measured phase of the group groupid moves (p may be NULL). */
void profile_phase(struct profile *p, unsigned int groupid,
		   enum profile_phase what);

/*
 * The groups' profiles (owned by p, valid until profile_free), symbolised
 * on the first call; notes about the symbols (hidden kernel addresses,
 * no libdw) are appended to note, one per line.
 */
const struct profile_result *profile_results(struct profile *p,
					     unsigned int *nr,
					     struct strbuf *note);

/*
 * Folded stacks ("thread;outer;...;leaf count" lines, root first, as
 * flame graph tools read them) of every group; with more than one group
 * the root is "group N". Returns 0 or -errno.
 */
int profile_write_folded(struct profile *p, FILE *f);

void profile_free(struct profile *p);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_LIMITS_H
#define IOLITE_TARGET_LIMITS_H

#include <stdbool.h>

#include "opt/plan.h"
#include "target/files.h"
#include "util/strbuf.h"

/*
 * What the kernel would refuse once the jobs start, checked before any
 * file is created: the jobs that run together (a stonewall group) are
 * counted against
 *
 *  - libaio: io_setup(iodepth) per job against what fs.aio-max-nr leaves
 *    (/proc/sys/fs/aio-max-nr minus aio-nr), else EAGAIN;
 *  - io_uring: at most 32768 entries a ring; registered buffers
 *    (fixedbufs), and before Linux 5.12 the rings themselves, count
 *    against RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK.
 *
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int limits_check(const struct job_plan *plans, unsigned int nr,
		 struct strbuf *err);

/*
 * The log files of the run (stats/log.h: all open from start to end),
 * and the first job that asks for one, with the option that does.
 */
struct limits_logs {
	unsigned int nr_files;
	unsigned int job;
	const char *opt;
};

/*
 * RLIMIT_NOFILE against the most the run keeps open at once: the log
 * files, and for the jobs running together their files (openfiles= of
 * them at most) and a few descriptors each of their engines. The soft
 * limit is raised towards the hard one when that is enough; else the
 * part that weighs most is named (the log option, numjobs, or nrfiles,
 * filename, openfiles). Returns 0, or -1 with "file:line: option 'x':
 * ..." in err.
 */
int limits_check_fds(const struct job_plan *plans, unsigned int nr,
		     const struct job_files *jf, const struct limits_logs *logs,
		     struct strbuf *err);

/* The number a /proc or /sys file starts with, 0 when unreadable. */
unsigned long long limits_read_ull(const char *path);

/* Does the process have capability cap (CAP_* of linux/capability.h)? */
bool limits_has_cap(unsigned int cap);

#endif

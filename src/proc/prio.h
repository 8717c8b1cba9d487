/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PROC_PRIO_H
#define IOLITE_PROC_PRIO_H

#include "opt/plan.h"
#include "target/files.h"
#include "util/notes.h"
#include "util/strbuf.h"

/*
 * I/O priorities at run time (the options: opt/prio_opts.h; per I/O:
 * engine/cmdprio.h):
 *
 *  - prio_check_caps(), before anything is created: the real-time class
 *    needs CAP_SYS_NICE or CAP_SYS_ADMIN (the kernel's rule, for
 *    ioprio_set(2) and for each request); without them the job is
 *    refused up front rather than failing with EPERM on its first I/O.
 *    A priority hint (priohint, cmdprio_hint, cmdprio_bssplit's fifth
 *    field) needs Linux 6.10 or later: tried once on the calling
 *    thread (and its priority put back), refused up front when EINVAL.
 *  - prio_place_thread(), on the job's thread before its engine starts:
 *    ioprio_set(IOPRIO_WHO_PROCESS) for prio / prioclass, checked with
 *    ioprio_get (the --debug=process line shows both). Threads the
 *    engine starts afterwards (offload) inherit it.
 *  - prio_notes(): where priorities cannot matter, a note: a target on
 *    no block device (tmpfs), a device whose I/O scheduler ignores
 *    them (only mq-deadline and bfq order requests by priority), and
 *    buffered writes (the kernel's writeback issues them, without the
 *    job's priority). IOLITE_SYSFS_ROOT replaces /sys.
 */
int prio_check_caps(const struct job_plan *plans, unsigned int nr,
		    struct strbuf *err);
int prio_place_thread(const struct job_plan *p, struct strbuf *err);
void prio_notes(const struct job_plan *plans, const struct job_files *files,
		unsigned int nr, struct notes *out);

#endif

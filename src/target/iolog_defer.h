/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_IOLOG_DEFER_H
#define IOLITE_TARGET_IOLOG_DEFER_H

#include "opt/plan.h"
#include "target/files.h"
#include "util/strbuf.h"

/*
 * read_iolog of a log that an earlier stonewall group writes in the same
 * run (workload/iolog.h, iolog_plan()): the log is read when the job
 * starts, as fio does, and the checks before the run go by the jobs that
 * write it.
 *
 * iolog_defer_files(): from files_resolve(), before plans[i]'s files are
 * resolved (those of the writers, out[0..i), are): gives a deferred
 * plans[i] the writers' files and regions (the names the log will
 * carry; with replay_redirect, its target, as large as the writers'
 * largest region), so that they are checked (device safety, --readonly)
 * and laid out as any job's. Fills plans[i].replay; 0 for any other
 * job. Returns 0 or -1 with err.
 *
 * iolog_defer_start(): from the runner, in its own thread, before the
 * job's group starts: reads and checks the log (iolog_plan_start()) and
 * fills the plan p, whose files are jf, from it. A log that is bad, or
 * goes beyond what was checked, leaves the message in p->replay->error:
 * the job then fails when it sets up, before it opens a file or writes
 * anything.
 */
int iolog_defer_files(const struct job_plan *plans, unsigned int i,
		      const struct job_files *out, struct strbuf *err);
void iolog_defer_start(struct job_plan *p, const struct job_files *jf);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_MISC_OPTS_H
#define IOLITE_OPT_MISC_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The rules of io_submit_mode, log_compression / log_store_compressed,
 * openfiles and time_based against the rest of the job:
 *  - offload wraps the engines flagged ENGINE_F_OFFLOAD_SHARED or _OWN
 *    (engine/offload.c), an io_uring one (ENGINE_F_URING) only without
 *    registerfiles or sqthread_poll;
 *  - log compression needs zlib, and a compressed histogram log has no
 *    format fio can read back (fio writes an unreadable one): refused;
 *  - openfiles below nrfiles cannot verify (the read-back goes to every
 *    file) nor use io_uring's registerfiles (a table filled once);
 *  - time_based needs a runtime.
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int misc_plan_check(struct job_plan *p, struct strbuf *err);

/* A double at def->off from 0 to 1 (zone_reset_threshold, ...). */
int ratio_cb(const struct opt_def *def, struct job_options *o,
	     const char *val, struct strbuf *err);
void ratio_fmt(const struct opt_def *def, const struct job_options *o,
	       struct strbuf *out);

/*
 * profile=none|0, cpu|1, system (iolite's CPU profile); fio's workload
 * profiles (tiobench, act) are refused as not supported yet.
 */
int profile_cb(const struct opt_def *def, struct job_options *o,
	       const char *val, struct strbuf *err);
void profile_fmt(const struct opt_def *def, const struct job_options *o,
		 struct strbuf *out);

#endif

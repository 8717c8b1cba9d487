/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_MISC_OPTS_H
#define IOLITE_OPT_MISC_OPTS_H

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The rules of io_submit_mode, log_compression / log_store_compressed
 * and openfiles against the rest of the job:
 *  - offload wraps only engines that complete inline and whose calls are
 *    independent (engine/offload.c): psync, pvsync, pvsync2, null;
 *  - log compression needs zlib, and a compressed histogram log has no
 *    format fio can read back (fio writes an unreadable one): refused;
 *  - openfiles below nrfiles cannot verify (the read-back goes to every
 *    file) nor use io_uring's registerfiles (a table filled once).
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int misc_plan_check(struct job_plan *p, struct strbuf *err);

#endif

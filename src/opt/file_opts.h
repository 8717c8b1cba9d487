/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_FILE_OPTS_H
#define IOLITE_OPT_FILE_OPTS_H

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The file and per-I/O flag options of issue 15.7 (atomic, uncached,
 * hipri_percentage, write_hint, ...): their rules against each other and
 * the engine, checked once per job. engine/rwflags.c and target/fileopts.c
 * carry them out. Returns 0, or -1 with "file:line: option 'x': ..." in
 * err.
 */
int file_plan_check(struct job_plan *p, struct strbuf *err);

/*
 * Before the block sizes are derived: bs_is_seq_rand turns the job's
 * read,write block size settings into the ones of its kind (sequential
 * or random) for every direction; allrandrepeat implies randrepeat.
 */
int file_plan_bs(struct job_plan *p, struct strbuf *err);

#endif

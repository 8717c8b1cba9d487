/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_JOB_JOB_INTERNAL_H
#define IOLITE_JOB_JOB_INTERNAL_H

#include <stdint.h>

#include "job/job.h"

/*
 * Pieces of src/job/ shared between its files (and its unit test); not
 * for other modules.
 */

/* Appends s with every ${VAR} replaced; -1 on an unterminated "${". */
int job_expand_env(const char *s, struct strbuf *out);
/* Appends s with $ncpus, $pagesize, $mb_memory replaced (and evaluated). */
void job_expand_keywords(const char *s, struct strbuf *out);
/* Evaluates an integer expression; 0 or -EINVAL (syntax, overflow, /0). */
int job_eval_expr(const char *s, int64_t *out);

/* Starts a new job named name, inheriting the entries of global. */
struct job_desc *job_list_new_job(struct job_list *jl, const char *name,
				  const struct job_desc *global,
				  const char *file, int line);

#endif

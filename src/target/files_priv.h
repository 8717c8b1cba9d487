/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_FILES_PRIV_H
#define IOLITE_TARGET_FILES_PRIV_H

/* Shared by files.c (resolve), layout.c (prepare) and fileopts.c. */

#include "opt/plan.h"
#include "util/strbuf.h"

/* "file:line: option 'x': " then the message (opt may be NULL); -1. */
__attribute__((format(printf, 4, 5)))
int files_fail(struct strbuf *err, const struct job_plan *p,
	       const char *opt, const char *fmt, ...);
/* Which option named the job's files (filename, directory or NULL). */
const char *files_name_opt(const struct job_plan *p);
/* The directory part of path (malloc'd): "." or "/" at the top. */
char *files_dir_of(const char *path);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_BUFFER_OPTS_H
#define IOLITE_OPT_BUFFER_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The buffer-content options (buffer_pattern, buffer_compress_*,
 * dedupe_*): the parse callback and formatter of buffer_pattern's row in
 * opt/table.c, and the plan rule that checks them together. workload/buffer.c
 * fills the buffers as they ask.
 */

/* buffer_pattern: verify_pattern's grammar without %o (opt_cb_fn). */
int buffer_pattern_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err);
void buffer_pattern_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out);

/* refill_buffers: after the store, overrides buffer_pattern's rule. */
int refill_buffers_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err);

/* dedupe_percentage: the value, and refill_buffers on (opt_cb_fn). */
int dedupe_percentage_cb(const struct opt_def *def, struct job_options *o,
			 const char *val, struct strbuf *err);
void dedupe_percentage_fmt(const struct opt_def *def,
			   const struct job_options *o, struct strbuf *out);

/*
 * The plan rule (called by plan_build): dedupe_mode=working_set needs a
 * size in bytes and one file, as fio. Returns 0 or -1 with
 * "file:line: option 'x': ..." in err.
 */
int buffer_plan_check(struct job_plan *p, struct strbuf *err);

#endif

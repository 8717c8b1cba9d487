/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_SPR_OPTS_H
#define IOLITE_OPT_SPR_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * sprandom, spr_op, spr_num_regions, spr_cs (fio 3.42): the parse
 * callback of spr_op and the plan rule. workload/sprandom.c carries the
 * option out; what needs the file's size (one file, regions of at least
 * one block, spr_cs below a region) is checked there, before any file is
 * created (workload_check()).
 */

/* spr_op=F, 0 <= F < 1 (opt_cb_fn / opt_fmt_fn) */
int spr_op_cb(const struct opt_def *def, struct job_options *o,
	      const char *val, struct strbuf *err);
void spr_op_fmt(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out);

/*
 * The rule of one job (called by plan_build): sprandom needs
 * rw=randwrite (or randrw), random_generator=lfsr and norandommap=1,
 * and sets the latter two when they are not given (fio 3.42); iolite
 * also needs one block size and none of the options that move offsets
 * elsewhere.
 * Returns 0 or -1 with "file:line: option 'x': ..." in err.
 */
int spr_plan_check(struct job_plan *p, struct strbuf *err);

#endif

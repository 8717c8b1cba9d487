/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_STEADY_OPTS_H
#define IOLITE_OPT_STEADY_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * Latency targets, steady state and exit_what: the parse callbacks and
 * formatters of their rows in opt/table.c, and the plan rules.
 * run/lattarget.c and run/steady.c carry them out.
 */

extern const struct opt_enum steady_mode_enums[];
extern const struct opt_enum exit_what_enums[];

/* steadystate=MODE:LIMIT[%] (opt_cb_fn / opt_fmt_fn) */
int steady_ss_cb(const struct opt_def *def, struct job_options *o,
		 const char *val, struct strbuf *err);
void steady_ss_fmt(const struct opt_def *def, const struct job_options *o,
		   struct strbuf *out);
/* max_latency=r[,w[,t]], times (microseconds without a unit) */
int steady_maxlat_cb(const struct opt_def *def, struct job_options *o,
		     const char *val, struct strbuf *err);
void steady_maxlat_fmt(const struct opt_def *def,
		       const struct job_options *o, struct strbuf *out);
/* latency_percentile=P, 0 <= P <= 100 */
int steady_latpct_cb(const struct opt_def *def, struct job_options *o,
		     const char *val, struct strbuf *err);
void steady_latpct_fmt(const struct opt_def *def,
		       const struct job_options *o, struct strbuf *out);

/*
 * The rule of one job (called by plan_build): a latency target needs
 * latency measurement, steady state whole seconds of window. Returns 0
 * or -1 with "file:line: option 'x': ..." in err.
 */
int steady_plan_check(struct job_plan *p, struct strbuf *err);

/*
 * The rule across jobs (after every plan is built, groups assigned):
 * as fio, the jobs reported together (group_reporting) must agree on
 * their steady state options, since they are judged as one. Returns 0
 * or -1 with the message in err.
 */
int steady_plans_check(const struct job_plan *plans, unsigned int nr,
		       struct strbuf *err);

#endif

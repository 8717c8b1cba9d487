/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_PACE_OPTS_H
#define IOLITE_OPT_PACE_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The rate, think time and flow options (rate, rate_iops, rate_min,
 * rate_iops_min, rate_process, rate_cycle, thinktime*, flow*): the value
 * lists for opt/table.c's rows and the plan rule that checks them against
 * each other. run/pace.c and run/flow.c carry them out.
 */

extern const struct opt_enum rate_process_enums[];
extern const struct opt_enum thinktime_type_enums[];

/*
 * Refuses what cannot be honoured, as fio does or more plainly: a
 * minimum above its cap (rate_min over rate, rate_iops_min over
 * rate_iops), and two caps or two minimums given for the same direction
 * in bytes and in I/Os (fio would silently use the bytes one).
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int pace_plan_check(struct job_plan *p, struct strbuf *err);

/*
 * A direction's rate cap in bytes per second: rate, else rate_iops times
 * the direction's smallest block size (fio's rule for block size
 * ranges); 0 when the direction has no cap.
 */
uint64_t pace_rate_bps(const struct job_plan *p, unsigned int d);

/*
 * Whether direction d's cap counts I/Os rather than bytes: rate_iops
 * (not rate) in a job that replays a log (read_iolog). The log's sizes
 * are the log's, not a block size range the job chose: pacing them in
 * bytes at the smallest would turn one 1-byte I/O in the log into a
 * rate of rate_iops bytes per second. The cap is then rate_iops[d].
 */
bool pace_rate_by_count(const struct job_plan *p, unsigned int d);

/* Whether the job paces at all: a rate, a minimum, think time or flow. */
bool pace_wanted(const struct job_plan *p);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_SEG_OPTS_H
#define IOLITE_OPT_SEG_OPTS_H

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * active_segments, active_segment_size (iolite's own): the plan rule.
 * workload/segments.c places the segments and draws the offsets; what
 * needs the region's size (room for the segments apart) is checked
 * there, before any file is created (workload_check()).
 *
 * The rule of one job (called by plan_build): both options or neither;
 * random offsets only (rw=rand*, percentage_random=100, the uniform
 * distribution, no zonemode, no sprandom); no random map (norandommap
 * is implied, refused when set to 0); the segment size a multiple of
 * every direction's block sizes and alignment.
 * Returns 0 or -1 with "file:line: option 'x': ..." in err.
 */
int seg_plan_check(struct job_plan *p, struct strbuf *err);

#endif

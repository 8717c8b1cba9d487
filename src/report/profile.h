/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_PROFILE_H
#define IOLITE_REPORT_PROFILE_H

#include <stdio.h>

#include "stats/results.h"
#include "util/json.h"
#include "util/strbuf.h"

struct profile_result;
/*
 * profile=system: the tasks the samples fell in, by thread name, busiest
 * first ("cc1 30.2%, iolite 20.1%, ..., 12 more 4.1%"), at most top.
 */
void report_profile_tasks(struct strbuf *sb, const struct profile_result *p,
			  unsigned int top);

/* The groups' "CPU profile" blocks (rr->profiles), normal layout. */
void report_profile_normal(FILE *f, const struct run_result *rr);
/* "cpu_profile": [ one object per group ], inside the "iolite" object. */
void report_profile_json(struct json_writer *w, const struct run_result *rr);

#endif

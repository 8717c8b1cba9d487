/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_PROFILE_H
#define IOLITE_REPORT_PROFILE_H

#include <stdio.h>

#include "stats/results.h"
#include "util/json.h"

/* The groups' "CPU profile" blocks (rr->profiles), normal layout. */
void report_profile_normal(FILE *f, const struct run_result *rr);
/* "cpu_profile": [ one object per group ], inside the "iolite" object. */
void report_profile_json(struct json_writer *w, const struct run_result *rr);

#endif

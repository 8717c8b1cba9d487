/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_STEADY_H
#define IOLITE_REPORT_STEADY_H

#include <stdio.h>

#include "stats/results.h"
#include "util/json.h"

/*
 * A job's steady state judgement (j->ss, stats/steady_result.h) as fio
 * 3.33 shows it: the "steadystate" object of a JSON job, and the
 * "steadystate  :" line of the normal report. Both write nothing when
 * the job did not look for steady state.
 */
void report_steady_json(struct json_writer *w, const struct job_result *j);
void report_steady_normal(FILE *f, const struct job_result *j);

#endif

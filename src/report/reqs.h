/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_REQS_H
#define IOLITE_REPORT_REQS_H

#include <stdio.h>

#include "stats/results.h"
#include "util/json.h"

/*
 * The requests an engine sent to its server, by kind (j->reqs: the http
 * engine's PUT, GET, HEAD and DELETE), which fio does not report: per
 * method the count, the rate over the job's run time, the errors, the
 * bytes, the latency (min, mean, percentiles, max) and, for GET, the time
 * to the first byte of the answer. The normal report's block after the
 * job's directions; the JSON job's object named after the engine
 * ("http") at the end of its "iolite" object, beside iolite's other
 * figures, so that fio's keys stay as they are. Both write nothing for a
 * job without j->reqs.
 */
void report_reqs_normal(FILE *f, const struct job_result *j);
void report_reqs_json(struct json_writer *w, const struct job_result *j);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_HTTP_OPTS_H
#define IOLITE_OPT_HTTP_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The http engine's options (engine/http.c carries them out): the value
 * lists of https, http_mode and http_object_mode, and the engine's rule
 * on a job's plan. The rows are at the end of opt/table.c's table.
 */

extern const struct opt_enum http_tls_enums[];
extern const struct opt_enum http_mode_enums[];
extern const struct opt_enum http_object_enums[];

/*
 * Refuses what cannot make a request: an object path that does not
 * begin with '/', S3 without its keys, Swift without its token, a user
 * without a password, S3 and Swift in a build without libcrypto.
 */
int http_plan_check(struct job_plan *p, struct strbuf *err);

#endif

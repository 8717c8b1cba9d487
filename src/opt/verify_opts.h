/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_VERIFY_OPTS_H
#define IOLITE_OPT_VERIFY_OPTS_H

#include <stdbool.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The verification and error options: parse callbacks and formatters for
 * the rows of opt/table.c (verify, verify_pattern, ignore_error), the
 * plan rule that checks them against each other, and the facts opt/ must
 * know about verify/'s block header to check block sizes before any
 * file is created.
 */

/* Option callbacks (opt_cb_fn / opt_fmt_fn). */
int verify_mode_cb(const struct opt_def *def, struct job_options *o,
		   const char *val, struct strbuf *err);
void verify_mode_fmt(const struct opt_def *def, const struct job_options *o,
		     struct strbuf *out);
int verify_pattern_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err);
void verify_pattern_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out);
int ignore_error_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err);
void ignore_error_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out);

/* The verify= value list, for --cmdhelp (NULL-name terminated). */
extern const struct opt_enum verify_mode_enums[];

/* "crc32c", "md5" ... for a mode; "none" for VERIFY_NONE. */
const char *verify_mode_name(enum verify_mode m);

/*
 * The Debian package that brings the library mode m needs, when this
 * build lacks it ("libssl-dev" for md5 and sha*, "libxxhash-dev"); else
 * NULL.
 */
const char *verify_mode_missing_lib(enum verify_mode m);

/* Bytes of the mode's checksum (0 for none, pattern, null). */
unsigned int verify_csum_size(enum verify_mode m);

/* The Debian package a mode needs, when this build lacks it; else NULL. */
const char *verify_mode_missing_lib(enum verify_mode m);

/*
 * Bytes of the header verify/ stamps at the start of every chunk of a
 * block for mode m: a fixed part and the checksum, rounded up to 8. 0 for
 * modes without a header (none, pattern, null). verify/header.h lays the
 * header out; a unit test keeps the two in step.
 */
unsigned int verify_hdr_size(enum verify_mode m);

/*
 * The plan rule (called by plan_build): verify_pattern alone means
 * verify=pattern; verify=pattern needs a pattern; verify_only needs
 * verify= and no time_based; the smallest block (or verify_interval, when
 * smaller: a larger one makes each block one chunk, as fio) must
 * hold the header at verify_offset. May set p->o.verify. Returns 0 or -1
 * with "file:line: option 'x': ..." in err.
 */
int verify_plan_check(struct job_plan *p, struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * pi_chk=GUARD,REFTAG,APPTAG (fio 3.35+, io_uring_cmd): which fields of
 * the end-to-end protection information the controller checks, stored
 * as the PRCHK bits of a read's or write's CDW12 (engine/uring_cmd.c
 * puts them in the command as they are). An empty value checks nothing.
 */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "opt/internal.h"

static const struct {
	const char *name;
	unsigned int flag;
} pi_chk_names[] = {
	{ "GUARD", PI_CHK_GUARD },
	{ "REFTAG", PI_CHK_REFTAG },
	{ "APPTAG", PI_CHK_APPTAG },
};

#define NR_PI_CHK (sizeof(pi_chk_names) / sizeof(pi_chk_names[0]))

int opt_pi_chk_cb(const struct opt_def *def, struct job_options *o,
		  const char *val, struct strbuf *err)
{
	unsigned int flags = 0;
	const char *p = val;

	(void)def;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NR_PI_CHK; i++)
			if (len == strlen(pi_chk_names[i].name) &&
			    !strncasecmp(p, pi_chk_names[i].name, len))
				break;
		if (i == NR_PI_CHK) {
			strbuf_addf(err, "invalid value '%.*s' (valid: GUARD, REFTAG, APPTAG)",
				    (int)len, p);
			return -1;
		}
		flags |= pi_chk_names[i].flag;
		p += len;
		if (*p)
			p++;
	}
	o->pi_chk = flags;
	return 0;
}

void opt_pi_chk_fmt(const struct opt_def *def, const struct job_options *o,
		    struct strbuf *out)
{
	bool first = true;

	(void)def;
	for (size_t i = 0; i < NR_PI_CHK; i++) {
		if (!(o->pi_chk & pi_chk_names[i].flag))
			continue;
		strbuf_addf(out, "%s%s", first ? "" : ",", pi_chk_names[i].name);
		first = false;
	}
}

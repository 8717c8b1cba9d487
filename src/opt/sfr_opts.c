/* SPDX-License-Identifier: MIT */
/*
 * sync_file_range=flags[:N]: a comma list of wait_before, write and
 * wait_after (the SYNC_FILE_RANGE_* flags, stored as the kernel's
 * values), then every how many writes (fio's default: 1; 0: never).
 * run/worker.c makes the syncs.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"

static const struct {
	const char *name;
	unsigned int flag;
} sfr_names[] = {
	{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "write", SYNC_FILE_RANGE_WRITE },
	{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
};

#define NR_SFR (sizeof(sfr_names) / sizeof(sfr_names[0]))

static int sfr_nr(const char *s, unsigned int *out, struct strbuf *err)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9' || (v = strtoul(s, &end, 10), *end) ||
	    v > 0xffffffffUL) {
		strbuf_addf(err, "invalid number of writes '%s' (an integer "
			    "after ':', 0 for never)", s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

int opt_sfr_cb(const struct opt_def *def, struct job_options *o,
	       const char *val, struct strbuf *err)
{
	const char *colon = strchr(val, ':'), *p = val;
	size_t flen = colon ? (size_t)(colon - val) : strlen(val);
	unsigned int flags = 0, nr = 1;

	(void)def;
	for (;;) {
		size_t len = strcspn(p, ",:"), i;

		for (i = 0; i < NR_SFR; i++)
			if (len == strlen(sfr_names[i].name) &&
			    !strncmp(p, sfr_names[i].name, len))
				break;
		if (i == NR_SFR) {
			strbuf_addf(err, "invalid value '%.*s' (valid: "
				    "wait_before, write, wait_after, then "
				    "':N')", (int)len, p);
			return -1;
		}
		flags |= sfr_names[i].flag;
		p += len;
		if ((size_t)(p - val) >= flen)
			break;
		p++;	/* the ',' */
	}
	if (colon && sfr_nr(colon + 1, &nr, err))
		return -1;
	o->sync_file_range = flags;
	o->sync_file_range_nr = nr;
	return 0;
}

void opt_sfr_fmt(const struct opt_def *def, const struct job_options *o,
		 struct strbuf *out)
{
	bool first = true;
	size_t i;

	(void)def;
	for (i = 0; i < NR_SFR; i++) {
		if (!(o->sync_file_range & sfr_names[i].flag))
			continue;
		strbuf_addf(out, "%s%s", first ? "" : ",", sfr_names[i].name);
		first = false;
	}
	strbuf_addf(out, ":%u", o->sync_file_range_nr);
}

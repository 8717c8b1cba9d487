/* SPDX-License-Identifier: MIT */
/* replay_skip=read,write,trim,sync: which logged actions a replay skips. */
#include <string.h>

#include "opt/internal.h"

static const struct {
	const char *name;
	unsigned int bit;
} skip_names[] = {
	{ "read", 1u << DDIR_READ },
	{ "write", 1u << DDIR_WRITE },
	{ "trim", 1u << DDIR_TRIM },
	{ "sync", 1u << DDIR_SYNC },	/* sync and datasync, as fio */
};

#define NR_SKIP (sizeof(skip_names) / sizeof(skip_names[0]))

int opt_replay_skip_cb(const struct opt_def *def, struct job_options *o,
		       const char *val, struct strbuf *err)
{
	unsigned int mask = 0;
	const char *p = val;

	for (;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NR_SKIP; i++)
			if (len == strlen(skip_names[i].name) &&
			    !strncmp(p, skip_names[i].name, len))
				break;
		if (i == NR_SKIP) {
			strbuf_addf(err, "invalid value '%.*s' (valid: read, "
				    "write, trim, sync)", (int)len, p);
			return -1;
		}
		mask |= skip_names[i].bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	o->replay_skip = mask;
	return 0;
}

void opt_replay_skip_fmt(const struct opt_def *def,
			 const struct job_options *o, struct strbuf *out)
{
	size_t i;
	bool first = true;

	for (i = 0; i < NR_SKIP; i++) {
		if (!(o->replay_skip & skip_names[i].bit))
			continue;
		strbuf_addf(out, "%s%s", first ? "" : ",", skip_names[i].name);
		first = false;
	}
}

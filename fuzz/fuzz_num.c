/* SPDX-License-Identifier: MIT */
/*
 * The number grammar and option values. The first input byte picks what
 * to parse, the rest (up to a NUL) is the text:
 *   'u' integer, 's' size (kb_base 1024), 'S' size (kb_base 1000),
 *   't' time (default unit us), 'T' time (default unit s), 'b' bool,
 *   'd' double; any other byte: the text is "name=value" for an option.
 * Checks beyond the sanitizers: a number that parses prints back as plain
 * decimal that parses to the same value (sizes with either kb_base), and
 * an option value that parses formats to its canonical text, which parses
 * back (with either kb_base) and formats the same, as opt_format()
 * promises.
 */
#include "fuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "util/num.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_write_dict("", "");
	return 0;
}

static void same(uint64_t a, uint64_t b, const char *what, const char *s)
{
	if (a == b)
		return;
	fprintf(stderr, "%s '%s': %" PRIu64 " then %" PRIu64 "\n", what, s,
		a, b);
	abort();
}

static void numbers(char kind, const char *s)
{
	char back[32];
	uint64_t v, w;
	double dv;
	bool bv;

	switch (kind) {
	case 'u':
		if (num_parse_u64(s, &v))
			return;
		snprintf(back, sizeof(back), "%" PRIu64, v);
		if (num_parse_u64(back, &w))
			abort();
		same(v, w, "integer", s);
		break;
	case 's':
	case 'S':
		if (num_parse_size(s, kind == 's' ? 1024 : 1000, &v))
			return;
		snprintf(back, sizeof(back), "%" PRIu64, v);
		if (num_parse_size(back, 1024, &w))
			abort();
		same(v, w, "size", s);
		if (num_parse_size(back, 1000, &w))
			abort();
		same(v, w, "size", s);
		break;
	case 't':
	case 'T':
		if (num_parse_time_us(s, kind == 't' ? 1 : 1000000, &v))
			return;
		snprintf(back, sizeof(back), "%" PRIu64 "us", v);
		if (num_parse_time_us(back, 1000000, &w))
			abort();
		same(v, w, "time", s);
		break;
	case 'b':
		num_parse_bool(s, &bv);
		break;
	case 'd':
		num_parse_double(s, &dv);
		break;
	}
}

/* opt_set, then opt_format; 0 and the canonical text on success. */
static int set_format(const struct opt_def *def, const char *val,
		      unsigned int kb_base, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	int ret;

	opt_defaults(&o);
	ret = opt_set_def(def, &o, val, kb_base, &err);
	if (!ret)
		opt_format(def, &o, out);
	job_options_release(&o);
	strbuf_release(&err);
	return ret;
}

static void option(char *text)
{
	struct strbuf canon = STRBUF_INIT, again = STRBUF_INIT;
	const struct opt_def *def;
	char *val = strchr(text, '=');
	unsigned int kb;

	if (!val)
		return;
	*val++ = '\0';
	def = opt_lookup(text);
	if (!def || set_format(def, val, 1024, &canon) || !canon.len ||
	    def->type == OPT_UNSUPPORTED || def->type == OPT_TOOL)
		goto out;
	for (kb = 1000; kb <= 1024; kb += 24) {
		strbuf_reset(&again);
		if (set_format(def, canon.buf, kb, &again) ||
		    strcmp(canon.buf, strbuf_str(&again))) {
			fprintf(stderr, "option '%s': '%s' formats as '%s', "
				"which reads back (kb_base=%u) as '%s'\n",
				def->name, val, canon.buf, kb,
				strbuf_str(&again));
			abort();
		}
	}
out:
	strbuf_release(&canon);
	strbuf_release(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	fuzz_selftest(data, size);

	if (!size || size > 4096)
		return -1;
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		abort();
	if (strchr("usStTbd", data[0]))
		numbers((char)data[0], s);
	else
		option(s);
	free(s);
	return 0;
}

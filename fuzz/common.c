/* SPDX-License-Identifier: MIT */
/* What the harnesses share: building jobs as main does, the dictionary. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "opt/plan.h"

/* numjobs=100000 would only repeat the same work */
#define MAX_CLONES 4

int fuzz_build_jobs(const struct job_list *jl, struct strbuf *dump)
{
	struct strbuf err = STRBUF_INIT;
	int bad = 0;
	size_t i;

	for (i = 0; i < jl->nr; i++) {
		const struct job_desc *jd = &jl->jobs[i];
		struct job_options o;
		unsigned int k, n;

		if (job_build(jd, &o, &err)) {
			job_options_release(&o);
			strbuf_reset(&err);
			bad = 1;
			continue;
		}
		n = o.numjobs ? o.numjobs : 1;
		for (k = 0; k < n && k < MAX_CLONES; k++) {
			struct job_plan p;

			if (plan_build(&p, &o, jd->file, jd->line, &err)) {
				strbuf_reset(&err);
				bad = 1;
				break;
			}
			plan_release(&p);
		}
		job_options_release(&o);
	}
	if (dump && job_list_dump(jl, dump, &err))
		bad = 1;
	strbuf_release(&err);
	return bad ? -1 : 0;
}

/* A dictionary entry: libFuzzer's "..." with \xNN for odd bytes. */
static void dict_entry(FILE *f, const char *pre, const char *word,
		       const char *post)
{
	const char *parts[3] = { pre, word, post };
	const unsigned char *s;
	int i;

	fputc('"', f);
	for (i = 0; i < 3; i++)
		for (s = (const unsigned char *)parts[i]; *s; s++)
			if (*s == '"' || *s == '\\' || *s < 0x20 || *s > 0x7e)
				fprintf(f, "\\x%02x", *s);
			else
				fputc(*s, f);
	fputs("\"\n", f);
}

void fuzz_write_dict(const char *prefix, const char *suffix)
{
	const char *path = getenv("FUZZ_WRITE_DICT");
	size_t i;
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < opt_table_size; i++) {
		const struct opt_def *d = &opt_table[i];
		const struct opt_enum *e;

		dict_entry(f, prefix, d->name, suffix);
		for (e = d->enums; e && e->name; e++)
			dict_entry(f, "", e->name, "");
	}
	fclose(f);
}

void fuzz_write_words(const char *const *words, size_t n)
{
	const char *path = getenv("FUZZ_WRITE_DICT");
	size_t i;
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < n; i++)
		dict_entry(f, "", words[i], "");
	fclose(f);
}

void fuzz_selftest(const uint8_t *data, size_t size)
{
	static const char magic[] = "iolite-fuzz-selftest";
	static int on = -1;

	if (on < 0)
		on = getenv("IOLITE_FUZZ_SELFTEST") != NULL;
	if (on && size >= sizeof(magic) - 1 &&
	    !memcmp(data, magic, sizeof(magic) - 1)) {
		fprintf(stderr, "fuzz: self-test finding\n");
		abort();
	}
}

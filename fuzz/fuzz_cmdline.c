/* SPDX-License-Identifier: MIT */
/*
 * Command-line jobs: the input is an argument list, one argument per
 * line ("--name=a", "--bs=4k", "--norandommap"). Each is split at the
 * first '=' as main does and given to job_cmdline_add(); then every job is
 * built and planned and the --parse-only dump made. main's own tool
 * options (--output, --readonly) are not job options and not reached.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "opt/opt.h"

/* main's own options: handled there, never job options */
static const char *const tool_opts[] = {
	"output", "output-format", "minimal", "terse-version", "parse-only",
	"showcmd", "readonly", "eta", "max-jobs", "section", "version",
	"help",
};

/* 1 when main would have taken key itself; --cmdhelp/--enghelp run */
static int tool_option(const char *key, const char *val)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	if (!strcmp(key, "cmdhelp")) {
		if (val && !strcmp(val, "markdown"))
			opt_doc_markdown(&out);
		else
			opt_cmdhelp(val && strcmp(val, "all") ? val : NULL,
				    &out);
	} else if (!strcmp(key, "enghelp")) {
		if (val && *val)
			engine_help(val, &out);
		else
			engine_list(&out);
	} else {
		for (i = 0; i < sizeof(tool_opts) / sizeof(*tool_opts); i++)
			if (!strcmp(key, tool_opts[i]))
				return 1;
		return 0;
	}
	strbuf_release(&out);
	return 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_write_dict("--", "=");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, dump = STRBUF_INIT;
	char *buf, *line, *save = NULL;
	struct job_list jl;
	int argi = 1;

	fuzz_selftest(data, size);

	if (size > 16384)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	job_list_init(&jl);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), argi++) {
		char *eq;

		/* as main: "--" then key[=value]; anything else is a file */
		if (strncmp(line, "--", 2) || !line[2])
			continue;
		eq = strchr(line + 2, '=');
		if (eq)
			*eq = '\0';
		if (tool_option(line + 2, eq ? eq + 1 : NULL))
			continue;
		if (job_cmdline_add(&jl, line + 2, eq ? eq + 1 : NULL, argi,
				    &err))
			break;
	}
	fuzz_build_jobs(&jl, &dump);
	job_list_release(&jl);
	strbuf_release(&dump);
	strbuf_release(&err);
	free(buf);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The command-line table (src/cli/options.c): every row parses (or is
 * refused with its reason), --help shows every row, no name twice, no
 * tool option hides a job option of the same name.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "cli/cli.h"
#include "opt/opt.h"

/* Parses argv (NULL-terminated, argv[0] included); the error or "". */
static const char *parse(const char **argv, struct cli *c)
{
	static struct strbuf err = STRBUF_INIT;
	struct job_list jl;
	int argc = 0;

	while (argv[argc])
		argc++;
	strbuf_reset(&err);
	memset(c, 0, sizeof(*c));
	job_list_init(&jl);
	if (cli_parse(argc, (char **)argv, c, &jl, &err) &&
	    !strbuf_str(&err)[0])
		strbuf_addstr(&err, "(no message)");
	job_list_release(&jl);
	return strbuf_str(&err);
}

static void check_row(const struct cli_row_info *r)
{
	char arg[256];
	/* a trigger command needs something to fire it */
	const char *more = !strcmp(r->name, "trigger") ? "--trigger-timeout=9" :
			   NULL;
	const char *argv[5] = { "iolite", arg, more, NULL, NULL };
	const char *e;
	struct cli c;

	if (r->example)
		snprintf(arg, sizeof(arg), "--%s=%s", r->name, r->example);
	else
		snprintf(arg, sizeof(arg), "--%s", r->name);
	e = parse(argv, &c);
	if (r->refused) {
		ok(strstr(e, "is not supported: ") != NULL,
		   "--%s is refused with a reason: %s", r->name, e);
	} else {
		ok(!*e, "%s parses: %s", arg, e);
	}
	cli_release(&c);
	if (r->refused || !r->example)
		return;
	/* "--name value" as two arguments, as getopt takes it */
	if (!strcmp(r->name, "crctest") || !strcmp(r->name, "cmdhelp") ||
	    !strcmp(r->name, "enghelp"))
		return;		/* optional values go with '=' only */
	snprintf(arg, sizeof(arg), "--%s", r->name);
	argv[2] = r->example;
	argv[3] = more;
	e = parse(argv, &c);
	ok(!*e && !c.nr_jobfiles, "--%s %s parses as one option: %s", r->name,
	   r->example, e);
	cli_release(&c);
	argv[1] = more ? more : arg;
	argv[2] = more ? arg : NULL;
	argv[3] = NULL;
	e = parse(argv, &c);
	ok(strstr(e, "needs a value") != NULL, "--%s alone: %s", r->name, e);
	cli_release(&c);
}

int main(void)
{
	struct cli_row_info r, q;
	char *help = NULL;
	size_t help_len = 0;
	FILE *f = open_memstream(&help, &help_len);
	unsigned int i, j, rows = 0;
	struct cli c;

	cli_help(f);
	fclose(f);
	for (i = 0; cli_row(i, &r); i++) {
		char key[64];

		rows++;
		check_row(&r);
		snprintf(key, sizeof(key), "  --%s", r.name);
		ok(strstr(help, key) != NULL, "--help lists --%s", r.name);
		for (j = i + 1; cli_row(j, &q); j++)
			if (!strcmp(r.name, q.name))
				ok(0, "--%s has two rows", r.name);
		ok(!opt_lookup(r.name), "--%s is no job option's name", r.name);
	}
	ok(rows >= 36, "the table has fio's %u options", rows);
	diag("%u rows", rows);

	{
		const char *argv[] = { "iolite", "--output-format=json,", NULL };

		ok(strstr(parse(argv, &c), "empty format") != NULL,
		   "--output-format=json, is refused");
		cli_release(&c);
	}
	{
		const char *argv[] = { "iolite", "--readonly=1", NULL };

		ok(strstr(parse(argv, &c), "takes no value") != NULL,
		   "--readonly=1 is refused");
		cli_release(&c);
	}
	{
		const char *argv[] = { "iolite", "--version", "--nosuch", NULL };

		ok(!*parse(argv, &c) && c.action == CLI_VERSION,
		   "the first action ends the parse, as fio");
		cli_release(&c);
	}
	{
		const char *argv[] = { "iolite", "--terse-version=6", NULL };

		ok(*parse(argv, &c) != 0, "--terse-version=6 is refused");
		cli_release(&c);
	}
	free(help);
	return done_testing();
}

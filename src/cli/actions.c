/* SPDX-License-Identifier: MIT */
/*
 * The options that print something and exit (--version, --help,
 * --cmdhelp, --enghelp, --inflate-log, --crctest, --cpuclock-test,
 * --debug=help): cli_parse() records the first one, cli_action() does it
 * and returns the exit status. --showcmd prints the job files read.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "opt/opt.h"
#include "stats/log.h"
#include "util/debug.h"
#include "util/log.h"

static int cmdhelp(const char *val, struct strbuf *out)
{
	int ret = 0;

	if (val && !strcmp(val, "markdown"))
		opt_doc_markdown(out);
	else if (val && !strcmp(val, "table"))
		opt_table_tsv(out);
	else
		ret = opt_cmdhelp(val && strcmp(val, "all") ? val : NULL, out);
	fputs(strbuf_str(out), ret ? stderr : stdout);
	if (ret)
		error("no option '%s' (see --cmdhelp)", val);
	return ret ? 1 : 0;
}

/* --enghelp=ENGINE,OPTION: that one option of the engine, as fio. */
static int enghelp_opt(const char *val, const char *comma)
{
	char *name = xstrndup(val, (size_t)(comma - val));
	const struct engine_ops *ops = engine_find(name);
	struct strbuf out = STRBUF_INIT;
	int ret = 1;

	if (!ops)
		error("unknown ioengine '%s' (see --enghelp)", name);
	else if (engine_help_option(ops, comma + 1, &out))
		ret = 0;
	else
		error("ioengine '%s' has no option '%s' (see --enghelp=%s)",
		      name, comma + 1, name);
	fputs(strbuf_str(&out), stdout);
	strbuf_release(&out);
	free(name);
	return ret;
}

static int enghelp(const char *val, struct strbuf *out)
{
	int ret = 0;

	if (val && strchr(val, ','))
		return enghelp_opt(val, strchr(val, ','));
	if (val && *val)
		ret = engine_help(val, out);
	else
		engine_list(out);
	if (ret)
		error("%s", strbuf_str(out));
	else
		fputs(strbuf_str(out), stdout);
	return ret ? 1 : 0;
}

int cli_action(const struct cli *c)
{
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	switch (c->action) {
	case CLI_RUN:
		BUG("cli_action() without an action");
	case CLI_VERSION:
		printf("iolite-%s\n", IOLITE_VERSION);
		break;
	case CLI_HELP:
		cli_help(stdout);
		break;
	case CLI_CMDHELP:
		ret = cmdhelp(c->action_arg, &out);
		break;
	case CLI_ENGHELP:
		ret = enghelp(c->action_arg, &out);
		break;
	case CLI_INFLATE_LOG:
		if (log_inflate(c->action_arg, stdout, &out)) {
			error("%s", strbuf_str(&out));
			ret = 1;
		}
		break;
	case CLI_CRCTEST:
		ret = cli_crctest(c->action_arg, stdout);
		break;
	case CLI_CPUCLOCK_TEST:
		ret = cli_cpuclock_test(stdout);
		break;
	case CLI_IDLE_CALIBRATE:
		ret = cli_idle_calibrate(stdout);
		break;
	case CLI_DEBUG_HELP:
		dbg_help(&out);
		fputs(strbuf_str(&out), stdout);
		break;
	}
	strbuf_release(&out);
	if (fflush(stdout) && !ret) {
		error("cannot write to stdout");
		ret = 1;
	}
	return ret;
}

/* --showcmd: the job files read, as one command line. */
void cli_showcmd(const struct job_list *jl)
{
	size_t i, k;

	fputs("iolite", stdout);
	for (i = 0; i < jl->global.nr; i++) {
		const struct job_entry *e = &jl->global.ents[i];

		if (i == 0)
			fputs(" --name=global", stdout);
		printf(" --%s%s%s", e->key, e->val ? "=" : "",
		       e->val ? e->val : "");
	}
	for (i = 0; i < jl->nr; i++) {
		const struct job_desc *jd = &jl->jobs[i];

		printf(" --name=%s", jd->name);
		for (k = 0; k < jd->nr; k++) {
			const struct job_entry *e = &jd->ents[k];

			if (!strcmp(e->key, "name"))
				continue;
			printf(" --%s%s%s", e->key, e->val ? "=" : "",
			       e->val ? e->val : "");
		}
	}
	putchar('\n');
}

/* SPDX-License-Identifier: MIT */
/*
 * iolite's entry point: parse the command line and job files, check every
 * job, create what the jobs need, run them, write the reports, exit 0 on
 * success and 1 on any error. Nothing else lives here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "job/job.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "opt/steady_opts.h"
#include "report/report.h"
#include "report/status.h"
#include "run/checks.h"
#include "run/clock.h"
#include "run/files.h"
#include "run/runner.h"
#include "run/safety.h"
#include "stats/disk.h"
#include "stats/log.h"
#include "stats/results.h"
#include "util/log.h"
#include "util/num.h"
#include "workload/iolog.h"

enum eta_mode { ETA_AUTO, ETA_ALWAYS, ETA_NEVER };

struct cli {
	const char *output;
	const char *formats;
	enum eta_mode eta;
	uint64_t eta_newline_ms;
	uint64_t eta_interval_ms;	/* 0: fio's default, a second */
	uint64_t status_interval_ms;
	int parse_only;
	int showcmd;
	int readonly;
	unsigned long max_jobs;
	const char **sections;	/* NULL-terminated */
	size_t nr_sections;
	const char **jobfiles;
	size_t nr_jobfiles;
};

static void usage(FILE *f)
{
	fprintf(f,
"iolite-%s: fio-compatible storage I/O benchmark\n"
"usage: iolite [options] [jobfile]...\n"
"\n"
"  --output=FILE         write the report to FILE\n"
"  --output-format=LIST  normal (more formats to come)\n"
"  --parse-only          parse and check the jobs, print them, run nothing\n"
"  --showcmd             print each job file as a command line\n"
"  --section=NAME        run only job NAME (may be repeated)\n"
"  --readonly            refuse any job that writes\n"
"  --max-jobs=N          refuse more than N job instances\n"
"  --eta=WHEN            status line: auto (on a terminal), always, never\n"
"  --eta-newline=TIME    start a new status line every TIME (seconds)\n"
"  --eta-interval=TIME   status line period (default 1s, at least 250ms)\n"
"  --status-interval=TIME  print the full report every TIME (seconds)\n"
"  --cmdhelp[=OPTION]    job options, or one option in detail\n"
"  --enghelp[=ENGINE]    I/O engines, or one engine's options\n"
"  --inflate-log=FILE    print a compressed log (.fz) as text\n"
"  --version, --help\n"
"\n"
"Job options go on the command line as --name=job --rw=randread ...;\n"
"options before the first --name apply to every job.\n"
"\n"
"SIGINT or SIGTERM stops the jobs and reports what ran (exit status 128 +\n"
"the signal); a second one ends iolite at once. SIGUSR1 prints the report\n"
"so far.\n",
		IOLITE_VERSION);
}

/* A --eta-* / --status-interval time: seconds without a unit. */
static uint64_t tool_time_ms(const char *key, const char *val)
{
	uint64_t us;

	if (!val || !*val)
		die("option '--%s' needs a time", key);
	if (num_parse_time_us(val, 1000000, &us))
		die("option '--%s': invalid time '%s'", key, val);
	return us / 1000;
}

static int tool_option(struct cli *c, const char *key, const char *val,
		       int *exit_now)
{
	struct strbuf out = STRBUF_INIT;

	*exit_now = -1;
	if (!strcmp(key, "output")) {
		c->output = val;
	} else if (!strcmp(key, "output-format")) {
		c->formats = val;
	} else if (!strcmp(key, "minimal")) {
		c->formats = "terse";
	} else if (!strcmp(key, "terse-version")) {
		/* fio knows 2 to 5; iolite writes version 3 only */
		if (!val || strcmp(val, "3"))
			die("option '--terse-version': version '%s' is not supported (only 3)",
			    val ? val : "");
	} else if (!strcmp(key, "parse-only")) {
		c->parse_only = 1;
	} else if (!strcmp(key, "showcmd")) {
		c->showcmd = 1;
	} else if (!strcmp(key, "readonly")) {
		c->readonly = 1;
	} else if (!strcmp(key, "eta")) {
		if (val && !strcmp(val, "auto"))
			c->eta = ETA_AUTO;
		else if (val && !strcmp(val, "always"))
			c->eta = ETA_ALWAYS;
		else if (val && !strcmp(val, "never"))
			c->eta = ETA_NEVER;
		else
			die("option '--eta': invalid value '%s' (valid: auto, always, never)",
			    val ? val : "");
	} else if (!strcmp(key, "eta-newline")) {
		c->eta_newline_ms = tool_time_ms(key, val);
	} else if (!strcmp(key, "eta-interval")) {
		c->eta_interval_ms = tool_time_ms(key, val);
		/* as fio: a faster status line would flood the terminal */
		if (c->eta_interval_ms < 250)
			die("option '--eta-interval': '%s' is too short (250ms at least)",
			    val);
	} else if (!strcmp(key, "status-interval")) {
		c->status_interval_ms = tool_time_ms(key, val);
		if (!c->status_interval_ms)
			die("option '--status-interval': '%s' is too short (1ms at least)",
			    val);
	} else if (!strcmp(key, "max-jobs")) {
		char *end;

		if (!val || !*val)
			die("option '--max-jobs' needs a number");
		c->max_jobs = strtoul(val, &end, 10);
		if (*end || !c->max_jobs)
			die("option '--max-jobs': invalid number '%s'", val);
	} else if (!strcmp(key, "section")) {
		c->sections = xrealloc(c->sections,
				       (c->nr_sections + 2) * sizeof(char *));
		c->sections[c->nr_sections++] = val;
		c->sections[c->nr_sections] = NULL;
	} else if (!strcmp(key, "version")) {
		printf("iolite-%s\n", IOLITE_VERSION);
		*exit_now = 0;
	} else if (!strcmp(key, "help")) {
		usage(stdout);
		*exit_now = 0;
	} else if (!strcmp(key, "cmdhelp")) {
		int ret;

		if (val && !strcmp(val, "markdown")) {
			opt_doc_markdown(&out);
			ret = 0;
		} else {
			ret = opt_cmdhelp(val && strcmp(val, "all") ? val : NULL,
					  &out);
		}
		fputs(strbuf_str(&out), ret ? stderr : stdout);
		if (ret)
			error("no option '%s' (see --cmdhelp)", val);
		*exit_now = ret ? 1 : 0;
	} else if (!strcmp(key, "inflate-log")) {
		if (!val || !*val)
			die("option '--inflate-log' needs a file");
		if (log_inflate(val, stdout, &out)) {
			error("%s", strbuf_str(&out));
			*exit_now = 1;
		} else {
			*exit_now = fflush(stdout) ? 1 : 0;
		}
	} else if (!strcmp(key, "enghelp")) {
		int ret = 0;

		if (val && *val)
			ret = engine_help(val, &out);
		else
			engine_list(&out);
		if (ret)
			error("%s", strbuf_str(&out));
		else
			fputs(strbuf_str(&out), stdout);
		*exit_now = ret ? 1 : 0;
	} else {
		strbuf_release(&out);
		return 0;
	}
	strbuf_release(&out);
	return 1;
}

/*
 * 1: "--key value" takes the next argument as the value; 2: only when it
 * is not an option itself ("--write_bw_log --name=x": a bare log name).
 */
static int needs_value(const char *key)
{
	static const char *const with_value[] = {
		"output", "output-format", "section", "max-jobs",
		"terse-version", "eta", "eta-newline", "eta-interval",
		"status-interval", "inflate-log", NULL,
	};
	const struct opt_def *def;
	size_t i;

	for (i = 0; with_value[i]; i++)
		if (!strcmp(key, with_value[i]))
			return 1;
	def = opt_lookup(key);
	if (def && (def->flags & OPT_F_OPTVAL))
		return 2;
	return def && def->type != OPT_BOOL && def->type != OPT_TOOL;
}

static void parse_argv(int argc, char **argv, struct cli *c,
		       struct job_list *jl)
{
	struct strbuf err = STRBUF_INIT;
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		char *key;
		const char *val = NULL, *eq;
		int exit_now;

		if (arg[0] != '-' || arg[1] != '-' || !arg[2]) {
			if (arg[0] == '-' && arg[1] && arg[1] != '-')
				die("unknown command-line option '%s' (see --help)",
				    arg);
			c->jobfiles = xrealloc(c->jobfiles,
					       (c->nr_jobfiles + 1) *
					       sizeof(char *));
			c->jobfiles[c->nr_jobfiles++] = arg;
			continue;
		}
		eq = strchr(arg + 2, '=');
		if (eq) {
			key = xstrndup(arg + 2, (size_t)(eq - arg - 2));
			val = eq + 1;
		} else {
			int nv;

			key = xstrdup(arg + 2);
			nv = needs_value(key);
			if (nv && i + 1 < argc &&
			    (nv == 1 || argv[i + 1][0] != '-'))
				val = argv[++i];
		}
		if (tool_option(c, key, val, &exit_now)) {
			free(key);
			if (exit_now >= 0)
				exit(exit_now);
			continue;
		}
		if (job_cmdline_add(jl, key, val, i, &err))
			die("%s", strbuf_str(&err));
		free(key);
	}
	strbuf_release(&err);
}

static void showcmd(const struct job_list *jl)
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

/* Job descriptions -> checked plans, numjobs clones expanded. */
static struct job_plan *build_plans(const struct job_list *jl,
				    const struct cli *c, unsigned int *nr)
{
	struct strbuf err = STRBUF_INIT;
	struct job_plan *plans = NULL;
	unsigned int n = 0, alloc = 0, groupid = 0;
	size_t i;

	for (i = 0; i < jl->nr; i++) {
		const struct job_desc *jd = &jl->jobs[i];
		struct job_options o;
		unsigned int k;

		if (job_build(jd, &o, &err))
			die("%s", strbuf_str(&err));
		if (n && (o.stonewall || o.new_group))
			groupid++;
		if (!engine_find(o.ioengine)) {
			const char *hint = engine_missing_hint(o.ioengine);

			if (hint)
				die("%s:%d: %s", jd->file, jd->line, hint);
			die("%s:%d: unknown ioengine '%s' (see --enghelp)",
			    jd->file, jd->line, o.ioengine);
		}
		for (k = 0; k < (o.numjobs ? o.numjobs : 1); k++) {
			if (n == alloc) {
				alloc = alloc ? alloc * 2 : 8;
				plans = xrealloc(plans, alloc * sizeof(*plans));
			}
			memset(&plans[n], 0, sizeof(plans[n]));
			if (plan_build(&plans[n], &o, jd->file, jd->line, &err))
				die("%s", strbuf_str(&err));
			plans[n].clone = k;
			plans[n].job_index = n;
			plans[n].groupid = groupid;
			/* read_iolog: files, directions and sizes from the log */
			if (iolog_plan(plans, n, &err))
				die("%s", strbuf_str(&err));
			if (c->readonly && plans[n].writes)
				die("%s:%d: job '%s' writes, and --readonly refuses jobs that write",
				    jd->file, jd->line, o.name);
			n++;
		}
		job_options_release(&o);
	}
	if (c->max_jobs && n > c->max_jobs)
		die("%u job instances exceed --max-jobs=%lu", n, c->max_jobs);
	if (steady_plans_check(plans, n, &err))
		die("%s", strbuf_str(&err));
	strbuf_release(&err);
	*nr = n;
	return plans;
}

/*
 * One clock for the run: the TSC unless a job asks for clock_gettime
 * (or gettimeofday); clocksource=cpu makes the TSC a requirement.
 */
static void choose_clock(const struct job_plan *plans, unsigned int nr,
			 struct strbuf *note)
{
	const struct opt_def *def = opt_lookup("clocksource");
	int source = 0;
	unsigned int i;

	for (i = 0; i < nr && def; i++) {
		if (!plans[i].o.set[opt_index(def)])
			continue;
		if (plans[i].o.clocksource == CLOCK_SRC_CPU)
			source = 2;
		else if (source == 0)
			source = 1;
	}
	if (clock_init(source, note))
		die("%s", strbuf_str(note));
}

/* Is name one of the comma-separated formats? */
static int format_listed(const char *formats, const char *name)
{
	size_t len = strlen(name);
	const char *p = formats;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, len))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/*
 * Like fio, the formats asked for are written in a fixed order whatever
 * the order given: terse, json (json+ when both), normal.
 */
static int write_reports(const struct cli *c, const struct run_result *rr,
			 FILE *out)
{
	static const char *const order[] = { "terse", "json+", "json", "normal" };
	const char *formats = c->formats ? c->formats : "normal";
	size_t k;

	for (k = 0; k < ARRAY_SIZE(order); k++) {
		const struct report_ops *r = report_find(order[k]);

		if (!format_listed(formats, order[k]))
			continue;
		if (!strcmp(order[k], "json") && format_listed(formats, "json+"))
			continue;
		if (!r || r->write(rr, out))
			return -1;
	}
	return 0;
}

/* A job_desc's options as the results model's option list. */
static struct result_opt *result_opts(const struct job_entry *e, size_t nr,
				      const char *name, unsigned int *out_nr)
{
	struct result_opt *o = xcalloc(nr + 1, sizeof(*o));
	unsigned int n = 0;
	size_t i;

	if (name) {
		o[n].key = "name";
		o[n++].val = name;
	}
	for (i = 0; i < nr; i++) {
		o[n].key = e[i].key;
		o[n++].val = e[i].val;
	}
	*out_nr = n;
	return o;
}

/*
 * JSON's "global options" and each job's "job options" (its own section's
 * entries; fio shows a merged group's last member's, and "name" first for
 * command-line jobs). The lists borrow jl's strings; free with
 * free_result_opts().
 */
static void fill_result_opts(struct run_result *rr, const struct job_list *jl,
			     const struct job_plan *plans, unsigned int nr)
{
	unsigned int i;
	size_t k;

	rr->global_opts = result_opts(jl->global.ents, jl->global.nr, NULL,
				      &rr->nr_global_opts);
	for (i = 0; i < rr->nr_jobs; i++) {
		struct job_result *j = &rr->jobs[i];
		/* members are adjacent: the last is before the next's first */
		unsigned int last = i + 1 < rr->nr_jobs ?
				    rr->jobs[i + 1].plan->job_index - 1 : nr - 1;
		const struct job_plan *p = &plans[last];

		for (k = 0; k < jl->nr; k++) {
			const struct job_desc *jd = &jl->jobs[k];

			if (jd->line != p->src_line || strcmp(jd->file, p->src_file))
				continue;
			j->opts = result_opts(jd->ents + jd->inherited,
					      jd->nr - jd->inherited,
					      strcmp(jd->file, "<cmdline>") ?
					      NULL : jd->name, &j->nr_opts);
			break;
		}
	}
}

static void free_result_opts(struct run_result *rr)
{
	unsigned int i;

	free((void *)rr->global_opts);
	for (i = 0; i < rr->nr_jobs; i++)
		free((void *)rr->jobs[i].opts);
}

static void check_formats(const struct cli *c)
{
	char *list, *save = NULL, *name;

	if (!c->formats)
		return;
	list = xstrdup(c->formats);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save))
		if (!report_find(name))
			die("option '--output-format': unknown format '%s'",
			    name);
	free(list);
}

/* What the reports need, while the jobs run (reporter thread) and after. */
struct report_ctx {
	const struct cli *c;
	const struct job_list *jl;
	const struct job_plan *plans;
	FILE *out;
	struct status_printer sp;
	const char *notes[40];
	unsigned int nr_notes;
};

/* Builds the results model from wr and writes every report asked for. */
static int emit_report(struct report_ctx *rc, struct worker_result *wr,
		       unsigned int nr, struct disk_set *disks)
{
	struct strbuf err = STRBUF_INIT;
	struct run_result rr;
	int ret = 0;

	if (results_build(&rr, wr, nr, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return -1;
	}
	if (disks)
		disk_set_results(disks, &rr);
	fill_result_opts(&rr, rc->jl, rc->plans, nr);
	rr.clock = clock_name();
	{
		/* the run's notes, then what the figures themselves show */
		const char *all[ARRAY_SIZE(rc->notes) + 8];
		struct notes after = { NULL, 0 };
		unsigned int n = 0, k;

		for (k = 0; k < rc->nr_notes; k++)
			all[n++] = rc->notes[k];
		checks_after(&rr, &after);
		for (k = 0; k < after.nr && n < ARRAY_SIZE(all); k++)
			all[n++] = after.v[k];
		rr.notes = all;
		rr.nr_notes = n;
		if (write_reports(rc->c, &rr, rc->out))
			ret = -1;
		notes_release(&after);
	}
	fflush(rc->out);
	free_result_opts(&rr);
	run_result_release(&rr);
	strbuf_release(&err);
	return ret;
}

static void hook_status(void *arg, const struct run_status *s)
{
	struct report_ctx *rc = arg;

	status_print(&rc->sp, s);
}

/* SIGUSR1 and --status-interval: the report so far, where reports go. */
static void hook_report(void *arg, struct worker_result *wr, unsigned int nr)
{
	emit_report(arg, wr, nr, NULL);
}

/*
 * The status line goes to stdout, like fio's, when --eta asks for it
 * (auto: stdout is a terminal) -- but never into a JSON or terse report
 * on stdout, which it would corrupt (fio 3.33 leaves it out there too).
 * With --output=FILE the report goes to the file and the line stays on
 * stdout.
 */
static bool status_wanted(const struct cli *c)
{
	static const char *const machine[] = { "json", "json+", "terse" };
	size_t k;

	if (c->eta == ETA_NEVER)
		return false;
	for (k = 0; k < ARRAY_SIZE(machine) && !c->output && c->formats; k++)
		if (format_listed(c->formats, machine[k]))
			return false;
	return c->eta == ETA_ALWAYS || isatty(STDOUT_FILENO);
}

static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct job_list jl;
	struct strbuf err = STRBUF_INIT, clock_note = STRBUF_INIT;
	struct notes before = { NULL, 0 };
	struct strbuf int_note = STRBUF_INIT, log_note = STRBUF_INIT;
	struct report_ctx rc;
	struct runner_opts ro;
	struct log_set logs;
	struct job_plan *plans;
	struct job_files *files;
	struct run_job *jobs;
	struct worker_result *wr;
	struct disk_set disks;
	unsigned int nr, i;
	FILE *out = stdout;
	int ret, failed;
	uint64_t dropped;
	size_t k;

	job_list_init(&jl);
	parse_argv(argc, argv, &c, &jl);
	check_formats(&c);
	for (k = 0; k < c.nr_jobfiles; k++)
		if (job_file_read(&jl, c.jobfiles[k], c.sections, &err))
			die("%s", strbuf_str(&err));
	if (c.showcmd) {
		showcmd(&jl);
		return 0;
	}
	if (!jl.nr) {
		if (argc > 1 && !c.nr_jobfiles && !jl.global.nr)
			return 0;
		die("no jobs to run (see --help)");
	}
	if (c.parse_only) {
		struct strbuf out_sb = STRBUF_INIT;

		if (job_list_dump(&jl, &out_sb, &err))
			die("%s", strbuf_str(&err));
		plans = build_plans(&jl, &c, &nr);
		fputs(strbuf_str(&out_sb), stdout);
		strbuf_release(&out_sb);
		return 0;
	}
	plans = build_plans(&jl, &c, &nr);

	choose_clock(plans, nr, &clock_note);
	files = xcalloc(nr, sizeof(*files));
	if (files_resolve(plans, nr, files, &err))
		die("%s", strbuf_str(&err));
	if (c.readonly && safety_check_readonly(plans, nr, files, &err))
		die("%s", strbuf_str(&err));
	if (log_set_init(&logs, plans, nr, &err))
		die("%s", strbuf_str(&err));
	if (c.output) {
		out = fopen(c.output, "w");
		if (!out)
			die("cannot open output file '%s': %s", c.output,
			    strerror(errno));
	}
	/* fio's order: the job lines, then what each job lays out */
	if (!c.formats || format_listed(c.formats, "normal"))
		report_normal_preamble(plans, nr, out);
	fflush(out);
	ret = files_prepare(plans, nr, files, !c.formats ||
			    format_listed(c.formats, "normal") ? out : NULL,
			    &err);
	if (ret > 0) {	/* a signal stopped the layout */
		error("%s", strbuf_str(&err));
		exit(128 + ret);
	}
	if (ret)
		die("%s", strbuf_str(&err));
	if (log_set_active(&logs) && log_set_open(&logs, &err))
		die("%s", strbuf_str(&err));

	jobs = xcalloc(nr, sizeof(*jobs));
	for (i = 0; i < nr; i++) {
		jobs[i].plan = &plans[i];
		jobs[i].files = &files[i];
	}
	disk_set_init(&disks);
	for (i = 0; i < nr; i++)
		for (k = 0; k < files[i].nr_devs; k++)
			disk_set_add(&disks, files[i].devs[k]);

	memset(&rc, 0, sizeof(rc));
	rc.c = &c;
	rc.jl = &jl;
	rc.plans = plans;
	rc.out = out;
	status_printer_init(&rc.sp, stdout, c.eta_newline_ms);
	if (clock_note.len)
		rc.notes[rc.nr_notes++] = clock_note.buf;
	checks_before(plans, files, nr, &before);
	for (k = 0; k < before.nr && rc.nr_notes < 32; k++)
		rc.notes[rc.nr_notes++] = before.v[k];
	memset(&ro, 0, sizeof(ro));
	ro.arg = &rc;
	ro.report = hook_report;
	ro.status_interval_ms = c.status_interval_ms;
	if (status_wanted(&c)) {
		ro.status = hook_status;
		ro.eta_interval_ms = c.eta_interval_ms ? c.eta_interval_ms : 1000;
	}
	ro.logs = log_set_active(&logs) ? &logs : NULL;

	disk_set_begin(&disks);
	ret = runner_run(jobs, nr, &ro, &err);
	disk_set_end(&disks);
	if (ret < 0)
		die("%s", strbuf_str(&err));
	failed = ret;
	for (i = 0; i < nr; i++)
		if (jobs[i].errmsg[0])
			error("%s", jobs[i].errmsg);

	/* what the engines said about themselves (mmap: pages, copy) */
	for (i = 0; i < nr && rc.nr_notes < 36; i++) {
		unsigned int j;

		if (!jobs[i].describe[0])
			continue;
		for (j = 0; j < rc.nr_notes; j++)
			if (!strcmp(rc.notes[j], jobs[i].describe))
				break;
		if (j == rc.nr_notes)
			rc.notes[rc.nr_notes++] = jobs[i].describe;
	}
	if (ro.signal) {
		strbuf_addf(&int_note, "interrupted by %s: the figures cover "
			    "the I/O done until then", sig_name(ro.signal));
		rc.notes[rc.nr_notes++] = int_note.buf;
	}
	dropped = log_set_dropped(&logs);
	if (dropped) {
		strbuf_addf(&log_note, "log files: %llu entries dropped "
			    "(the log writer fell behind)",
			    (unsigned long long)dropped);
		rc.notes[rc.nr_notes++] = log_note.buf;
	}
	ret = log_set_release(&logs);
	if (ret) {
		error("cannot write the log files: %s", strerror(-ret));
		failed = 1;
	}

	/*
	 * Jobs that never started (a signal or exit_what stopped the run
	 * before their stonewall group) are reported with zeros, as fio:
	 * JSON and terse list them, the normal report leaves them out.
	 */
	wr = xcalloc(nr, sizeof(*wr));
	for (i = 0; i < nr; i++)
		wr[i] = jobs[i].res;
	if (emit_report(&rc, wr, nr, &disks))
		failed = 1;
	if (fflush(out) || (out != stdout && fclose(out))) {
		error("cannot write the report: %s", strerror(errno));
		failed = 1;
	}

	for (i = 0; i < nr; i++)
		files_finish(&plans[i], &files[i]);
	disk_set_release(&disks);
	for (i = 0; i < nr; i++) {
		free(jobs[i].st);
		free(jobs[i].res.ss);
		job_files_release(&files[i]);
		plan_release(&plans[i]);
	}
	status_printer_release(&rc.sp);
	free(wr);
	free(jobs);
	free(files);
	free(plans);
	free(c.sections);
	free(c.jobfiles);
	job_list_release(&jl);
	strbuf_release(&err);
	strbuf_release(&clock_note);
	notes_release(&before);
	strbuf_release(&int_note);
	strbuf_release(&log_note);
	/* interrupted: 128 + the signal, the shell's convention */
	if (ro.signal)
		return 128 + ro.signal;
	return failed ? 1 : 0;
}

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

#include "cli/cli.h"
#include "cli/cli_debug.h"
#include "compare/compare.h"
#include "engine/engine.h"
#include "main.h"
#include "job/job.h"
#include "live/live.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "opt/steady_opts.h"
#include "profile/profile.h"
#include "report/report.h"
#include "report/status.h"
#include "run/checks.h"
#include "machine/cpus.h"
#include "machine/clock.h"
#include "target/files.h"
#include "target/limits.h"
#include "target/numa.h"
#include "proc/prio.h"
#include "proc/proc.h"
#include "run/plans.h"
#include "run/runner.h"
#include "target/safety.h"
#include "stats/disk.h"
#include "stats/log.h"
#include "stats/results.h"
#include "sweep/sweep.h"
#include "util/host.h"
#include "util/debug.h"
#include "util/log.h"
#include "util/safefile.h"
#include "verify/verify.h"
#include "workload/iolog.h"

/* Dies with err, its location moved to the option's own line (job.h). */
static __attribute__((noreturn)) void die_at(const struct job_list *jl,
					     struct strbuf *err)
{
	job_list_relocate(jl, err);
	die("%s", strbuf_str(err));
}

/*
 * Like fio, the formats asked for are written in a fixed order whatever
 * the order given: terse, json (json+ when both), normal.
 */
static int write_reports(const struct cli *c, const struct run_result *rr,
			 FILE *out, FILE *html)
{
	static const char *const order[] = { "terse", "json+", "json", "normal" };
	bool json = cli_format_listed(c, "json") || cli_format_listed(c, "json+");
	size_t k;

	for (k = 0; k < ARRAY_SIZE(order); k++) {
		const struct report_ops *r = report_find(order[k]);
		bool listed = cli_format_listed(c, order[k]);

		/* fio's --append-terse: terse lines before a normal report */
		if (k == 0 && c->append_terse && !json &&
		    cli_format_listed(c, "normal"))
			listed = true;
		if (!listed)
			continue;
		if (!strcmp(order[k], "json") && cli_format_listed(c, "json+"))
			continue;
		if (k == 0) {
			if (report_terse_write(rr, out, c->terse_version ?
					       c->terse_version : 3))
				return -1;
		} else if (!r || r->write(rr, out)) {
			return -1;
		} else if (!strcmp(order[k], "normal") &&
			   (sweep_table_write(rr, out) ||
			    repeat_block_write(rr, out))) {
			return -1;
		}
	}
	if (!cli_format_listed(c, "html"))
		return 0;
	/* a page of its own holds the latest report only */
	if (html != out && (fseek(html, 0, SEEK_SET) ||
			    ftruncate(fileno(html), 0)))
		return -1;
	return report_html.write(rr, html);
}

/*
 * --output-format=html alone goes where a report goes (stdout or
 * --output). Beside other formats the page is a file of its own, named
 * after --output with ".html" for its extension (run.json -> run.html,
 * run -> run.html; run.html -> run.html.html); without --output that is
 * refused: a page inside a text report on stdout would be neither.
 */
static FILE *open_html(const struct cli *c, FILE *out, struct strbuf *path)
{
	const char *base, *dot, *why;
	FILE *f;

	if (!cli_format_listed(c, "html"))
		return NULL;
	if (!strcmp(c->formats, "html"))
		return out;
	if (!c->output)
		die("option '--output-format': html with other formats needs "
		    "--output=FILE (the page goes to FILE's name with .html)");
	base = strrchr(c->output, '/');
	base = base ? base + 1 : c->output;
	dot = strrchr(base, '.');
	/* ".hidden" has no extension */
	strbuf_add(path, c->output, dot && dot != base ?
		   (size_t)(dot - c->output) : strlen(c->output));
	strbuf_addstr(path, ".html");
	if (!strcmp(path->buf, c->output))
		strbuf_addstr(path, ".html");
	/* the page's name is iolite's own: never through a symlink */
	f = sf_fopen_w(path->buf, 0, &why);
	if (!f)
		die("cannot open output file '%s': %s", path->buf, why);
	return f;
}

/* What the reports need, while the jobs run (reporter thread) and after. */
struct report_ctx {
	const struct cli *c;
	const struct job_list *jl;
	const struct job_plan *plans;
	FILE *out;
	FILE *html;		/* the HTML page's file, or out, or NULL */
	int out_err, html_err;	/* the first write error of each, or 0 */
	struct status_printer sp;
	struct notes notes;		/* the run's own: clock, checks... */
	const struct main_hooks *h;	/* NULL: a plain run */
	const struct idle_result *idle;	/* the final report's */
	const struct result_sweep *sweep;	/* --sweep; NULL: none */
	struct repeat_set *reps;	/* --repeat=N > 1; NULL: one run */
	unsigned int nr_rounds;		/* --repeat=N: N */
	struct profile *prof;		/* --profile, or NULL */
	const struct profile_result *profiles;	/* the final report's */
	unsigned int nr_profiles;
	/* the HTML report's summary (run_info()) */
	const char *const *argv;
	unsigned int argc;
	struct run_source *src;
	unsigned int nr_src;
	struct host_info host;
	struct live *live;		/* src/live/, or NULL */
};

/* What the HTML report shows of the run: command line, job files, host. */
static void run_info(struct report_ctx *rc, int argc, char **argv)
{
	size_t k;

	rc->argv = (const char *const *)argv;
	rc->argc = (unsigned int)argc;
	rc->src = xcalloc(rc->c->nr_jobfiles + 1, sizeof(*rc->src));
	for (k = 0; k < rc->c->nr_jobfiles; k++) {
		struct strbuf sb = STRBUF_INIT;

		rc->src[k].path = rc->c->jobfiles[k];
		if (!strbuf_read_file(&sb, rc->c->jobfiles[k]))
			rc->src[k].text = strbuf_detach(&sb);
		strbuf_release(&sb);
	}
	rc->nr_src = (unsigned int)rc->c->nr_jobfiles;
	host_info_get(&rc->host);
}

static void run_info_release(struct report_ctx *rc)
{
	unsigned int k;

	for (k = 0; k < rc->nr_src; k++)
		free((char *)rc->src[k].text);
	free(rc->src);
}

/*
 * Builds the results model from wr into rr, with the run's notes and what
 * the figures themselves show in notes (rr borrows them); the caller
 * releases rr (results_release_opts, run_result_release) and notes.
 */
static int build_report(struct report_ctx *rc, struct worker_result *wr,
			unsigned int nr, struct disk_set *disks,
			struct run_result *rr, struct notes *notes)
{
	struct strbuf err = STRBUF_INIT;
	unsigned int k;

	if (results_build(rr, wr, nr, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return -1;
	}
	if (disks)
		disk_set_results(disks, rr);
	results_fill_opts(rr, rc->jl, rc->plans, nr);
	rr->clock = clock_name();
	rr->idle = rc->idle;
	rr->profiles = rc->profiles;
	rr->nr_profiles = rc->nr_profiles;
	rr->argv = rc->argv;
	rr->argc = rc->argc;
	rr->sources = rc->src;
	rr->nr_sources = rc->nr_src;
	rr->host = rc->argv ? &rc->host : NULL;
	rr->sweep = rc->sweep;
	for (k = 0; k < rc->notes.nr; k++)
		notes_add(notes, "%s", rc->notes.v[k]);
	checks_after(rr, notes);
	sweep_notes(rr, notes);
	rr->notes = (const char *const *)notes->v;
	rr->nr_notes = notes->nr;
	strbuf_release(&err);
	return 0;
}

/*
 * Builds the results model from wr and writes every report asked for.
 * With --repeat the final report is the last run's, kept with the
 * others (rc->reps), which the writers list.
 */
/*
 * Which file a failed report write belongs to, and its error, kept for
 * the end of the run: a report cut short by ENOSPC must be named on
 * stderr, since a script that sends stdout to a file sees nothing else.
 */
static void note_write_error(struct report_ctx *rc, int e)
{
	bool html = rc->html && rc->html != rc->out;

	if (!e)
		e = EIO;
	if (html && ferror(rc->html)) {
		if (!rc->html_err)
			rc->html_err = e;
	} else if (!rc->out_err) {
		rc->out_err = e;
	}
}

/* Flushes and closes a report file (NULL name: stdout); 0, or -1 said. */
static int close_report(FILE *f, const char *name, int e)
{
	if (!e && ferror(f))
		e = EIO;
	if (fflush(f) && !e)
		e = errno;
	if (f != stdout && fclose(f) && !e)
		e = errno;
	if (!e)
		return 0;
	if (name)
		error("cannot write the report to '%s': %s", name, strerror(e));
	else
		error("cannot write the report to standard output: %s",
		      strerror(e));
	return -1;
}

static int emit_report(struct report_ctx *rc, struct worker_result *wr,
		       unsigned int nr, struct disk_set *disks, bool final)
{
	struct notes notes = { NULL, 0 };
	struct run_result rr, *doc = &rr;
	int ret = 0;

	if (build_report(rc, wr, nr, disks, &rr, &notes)) {
		notes_release(&notes);
		return -1;
	}
	if (final && rc->reps) {
		repeat_add(rc->reps, &rr);
		rr = rc->reps->runs[rc->reps->nr - 1];
		rr.repeats = rc->reps->runs;
		rr.nr_repeats = rc->reps->nr;
		repeat_summarize(rc->reps);
		rr.repeat_sum = &rc->reps->sum;
	}
	/* the stream is closed by now (session_notes) */
	if (final && rc->c->interval_output &&
	    strcmp(rc->c->interval_output, "-"))
		rr.interval_stream = rc->c->interval_output;
	if (rc->h && rc->h->report) {
		if (rc->h->report(rc->h->arg, rc->c, doc, rc->out, rc->html))
			ret = -1;
	} else if (write_reports(rc->c, doc, rc->out, rc->html)) {
		ret = -1;
	}
	/* a failure of the files themselves (a hook's may be no write) */
	if (fflush(rc->out) || ferror(rc->out) ||
	    (rc->html && (fflush(rc->html) || ferror(rc->html)))) {
		note_write_error(rc, errno);
		ret = -1;
	}
	if (!(final && rc->reps)) {
		results_release_opts(&rr);
		run_result_release(&rr);
	}
	notes_release(&notes);
	return ret;
}

/* --repeat: a run before the last, kept for the final report */
static int keep_run(struct report_ctx *rc, struct worker_result *wr,
		    unsigned int nr, struct disk_set *disks)
{
	struct notes notes = { NULL, 0 };
	struct run_result rr;

	if (build_report(rc, wr, nr, disks, &rr, &notes)) {
		notes_release(&notes);
		return -1;
	}
	repeat_add(rc->reps, &rr);
	notes_release(&notes);
	return 0;
}

/*
 * The status line; a sweep's point and a repeat's run added, the ETA of
 * the rounds left (each as long as this one looks to be) to this one's
 */
static void hook_status(void *arg, const struct run_status *s)
{
	struct report_ctx *rc = arg;
	unsigned int done = rc->reps ? rc->reps->nr : 0;
	struct run_status t;

	if (!s) {	/* the line ends */
		status_print(&rc->sp, NULL);
		return;
	}
	t = *s;
	if (rc->sweep && rc->sweep->jobs_per_point) {
		t.nr_points = rc->sweep->nr_points;
		t.point = s->desc / rc->sweep->jobs_per_point + 1;
		if (t.point > t.nr_points)
			t.point = t.nr_points;
	}
	t.eta_all_s = s->eta_s;
	if (rc->nr_rounds > 1) {
		t.nr_rounds = rc->nr_rounds;
		t.round = done + 1 < rc->nr_rounds ? done + 1 : rc->nr_rounds;
		if (s->eta_s >= 0) {
			double len = (double)s->elapsed_ms / 1000 +
				     (double)s->eta_s;	/* a round's */

			t.eta_all_s = s->eta_s + (int64_t)((rc->nr_rounds -
				      t.round) * len + 0.5);
			/* the percentage too is of all the rounds */
			if (len > 0)
				t.pct = 100.0 * ((t.round - 1) * len +
					(double)s->elapsed_ms / 1000) /
					(rc->nr_rounds * len);
		}
	}
	status_print(&rc->sp, &t);
}

static void hook_phase(void *arg, unsigned int groupid, enum run_phase what)
{
	struct report_ctx *rc = arg;
	static const enum profile_phase map[] = {
		[RUN_PHASE_BEGIN] = PROFILE_BEGIN,
		[RUN_PHASE_PAUSE] = PROFILE_PAUSE,
		[RUN_PHASE_RESUME] = PROFILE_RESUME,
		[RUN_PHASE_END] = PROFILE_END,
	};

	profile_phase(rc->prof, groupid, map[what]);
}

/*
 * --profile or profile= in any job: the run's profiler (NULL: none, or
 * refused, with the reason in note). System mode watches the jobs' CPUs,
 * all of them when some job may run anywhere.
 */
static struct profile *start_profile(const struct cli *c,
				     const struct job_plan *plans,
				     unsigned int nr, struct strbuf *note)
{
	int mode = c->profile, *cpus = NULL, any = 0;
	unsigned int i, nr_cpus = 0, k;
	struct strbuf err = STRBUF_INIT;
	struct profile *p;
	cpu_set_t set, all;

	for (i = 0; i < nr; i++)
		if ((int)plans[i].o.profile > mode)
			mode = (int)plans[i].o.profile;
	if (mode == JOB_PROFILE_NONE)
		return NULL;
	CPU_ZERO(&all);
	for (i = 0; i < nr && mode == JOB_PROFILE_SYSTEM && !any; i++) {
		if (cpus_for_job(&plans[i], &set, &any, &err))
			any = 1;
		else if (!any)
			CPU_OR(&all, &all, &set);
	}
	strbuf_release(&err);
	if (mode == JOB_PROFILE_SYSTEM && !any && CPU_COUNT(&all)) {
		cpus = xcalloc(CPU_SETSIZE, sizeof(*cpus));
		for (k = 0; k < CPU_SETSIZE; k++)
			if (CPU_ISSET(k, &all))
				cpus[nr_cpus++] = (int)k;
	}
	p = profile_new(mode == JOB_PROFILE_SYSTEM ? PROFILE_SYSTEM :
			PROFILE_THREADS, c->profile_hz, cpus, nr_cpus, note);
	free(cpus);
	return p;
}

/* Each line of a note as a note of the run. */
static void add_note_lines(struct report_ctx *rc, struct strbuf *sb)
{
	char *line = sb->buf, *nl;

	while (sb->len && line && *line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		notes_add(&rc->notes, "%s", line);
		line = nl;
	}
}

/* The live interval: the stream and the metrics (src/live/). */
static void hook_interval(void *arg, struct worker_result *wr,
			  unsigned int nr, bool final)
{
	struct report_ctx *rc = arg;

	live_interval(rc->live, wr, nr, final);
}

/* SIGUSR1 and --status-interval: the report so far, where reports go. */
static void hook_report(void *arg, struct worker_result *wr, unsigned int nr)
{
	emit_report(arg, wr, nr, NULL, false);
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
	static const char *const machine[] = { "json", "json+", "terse", "html" };
	size_t k;

	if (c->eta == ETA_NEVER)
		return false;
	for (k = 0; k < ARRAY_SIZE(machine) && !c->output && c->formats; k++)
		if (cli_format_listed(c, machine[k]))
			return false;
	return c->eta == ETA_ALWAYS || isatty(STDOUT_FILENO);
}

/* --warnings-fatal: fio's parser warnings, iolite's option notes, fail */
static void warnings_fatal(const struct job_plan *plans, unsigned int nr)
{
	struct notes w = { NULL, 0 };

	checks_options(plans, nr, &w);
	if (w.nr)
		die("%s (--warnings-fatal)", w.v[0]);
	notes_release(&w);
}

/* The jobs made ready for another run: a fresh start, same stats memory. */
static void jobs_reset(struct run_job *jobs, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct run_job keep = jobs[i];

		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].plan = keep.plan;
		jobs[i].files = keep.files;
		jobs[i].st = keep.st;
	}
}

/*
 * Runs the jobs nr_runs times (--repeat; a signal ends the rounds). The
 * runs before the last go to rc->reps, their workers' results (which
 * the kept results borrow from) to *kept, (nr_runs - 1) * nr of them;
 * jobs[] hold the last run's. Returns runner_run()'s status over all.
 */
static int run_rounds(struct report_ctx *rc, struct run_job *jobs,
		      unsigned int nr, struct runner_opts *ro,
		      struct disk_set *disks, unsigned int nr_runs,
		      struct worker_result **kept, struct strbuf *err)
{
	struct worker_result *wr;
	unsigned int run, i;
	int ret, failed = 0;

	if (nr_runs > 1)
		*kept = xcalloc((size_t)(nr_runs - 1) * nr, sizeof(**kept));
	for (run = 1; ; run++) {
		if (rc->live)
			live_round(rc->live, run - 1);
		disk_set_begin(disks);
		ret = runner_run(jobs, nr, ro, err);
		disk_set_end(disks);
		if (ret < 0)
			return ret;
		failed |= ret;
		for (i = 0; i < nr; i++)
			if (jobs[i].errmsg[0])
				error("%s", jobs[i].errmsg);
		/* jobs given up: their threads are parked, no more runs */
		if (run == nr_runs || ro->signal || ro->abandoned)
			break;
		wr = *kept + (size_t)(run - 1) * nr;
		for (i = 0; i < nr; i++)
			wr[i] = jobs[i].res;
		if (keep_run(rc, wr, nr, disks))
			failed = 1;
		jobs_reset(jobs, nr);
	}
	return failed;
}

/* "job 'x': what failed" without its "job 'x': ", for a job's note */
static const char *past_job_name(const char *msg)
{
	const char *end;

	if (strncmp(msg, "job '", 5) || !(end = strstr(msg + 5, "': ")))
		return msg;
	return end + 3;
}

/* A job's errors continued past: a note each (the first few), a count */
static void cont_errs_notes(const struct run_job *rj, struct notes *out)
{
	unsigned int k, n = rj->nr_cont_errs;

	if (!n)
		return;
	notes_add(out, "job '%s': %u error%s continued past "
		  "(continue_on_error, ignore_error)%s", rj->plan->o.name, n,
		  n == 1 ? "" : "s", n > RUN_CONT_ERRS ? "; the first:" : ":");
	for (k = 0; k < n && k < RUN_CONT_ERRS; k++)
		notes_add(out, "job '%s': %s", rj->plan->o.name,
			  past_job_name(rj->cont_err[k]));
}

static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/*
 * --output and --profile-folded must not name what the run reads or
 * writes: a job file, or a job's data file. Opening the report would cut
 * it to nothing before the first I/O; refused before anything runs.
 */
static void check_output(const struct cli *c, const char *path,
			 const char *opt, const struct job_plan *plans,
			 const struct job_files *files, unsigned int nr)
{
	unsigned int i, j;
	size_t k;

	for (k = 0; path && k < c->nr_jobfiles; k++)
		if (strcmp(c->jobfiles[k], "-") &&
		    sf_same_file(path, c->jobfiles[k]))
			die("option '%s': '%s' is the job file '%s': not "
			    "overwritten", opt, path, c->jobfiles[k]);
	for (i = 0; path && i < nr; i++) {
		const struct job_plan *p = &plans[i];

		if (p->src_file[0] != '<' && sf_same_file(path, p->src_file))
			die("option '%s': '%s' is the job file '%s': not "
			    "overwritten", opt, path, p->src_file);
		for (j = 0; j < files[i].nr_files; j++)
			if ((files[i].files[j].flags & EF_KIND) &&
			    sf_same_file(path, files[i].files[j].path))
				die("%s:%d: option '%s': '%s' is the data file "
				    "'%s' of job '%s': not overwritten",
				    p->src_file, p->src_line, opt, path,
				    files[i].files[j].path, p->o.name);
	}
}

/*
 * One run of iolite, from the command line to the exit status: what the
 * phases below share. Each phase dies on bad input before anything is
 * created (read, plan), or records a failure that still lets the reports
 * be written (run, report).
 */
struct session {
	int argc;
	char **argv;
	const struct main_hooks *h;
	struct cli c;
	struct job_list jl;
	struct strbuf err;
	struct sweep_spec sweep;
	struct repeat_set reps;
	/* the jobs: nr plans, their targets and their runs */
	struct job_plan *plans;
	struct job_files *files;
	struct run_job *jobs;
	unsigned int nr, nr_runs;
	struct notes before;		/* notes made before the run */
	struct strbuf clock_note, html_path;
	FILE *out, *html, *folded;
	struct log_set logs;
	struct disk_set disks;
	struct report_ctx rc;
	struct runner_opts ro;
	struct trigger *trig;
	struct idle_prof *idle;
	struct idle_result idle_res;
	struct worker_result *kept;	/* --repeat's earlier runs */
	struct live_opts live;		/* --interval-output, --metrics-* */
	int failed, trig_sig;
};

static struct job_plan *plans_or_die(struct session *s)
{
	struct job_plan *plans;

	if (plans_build(&s->jl, s->c.max_jobs, s->c.readonly, &plans, &s->nr,
			&s->err))
		die("%s", strbuf_str(&s->err));
	return plans;
}

/*
 * Reads the command line and the job files. Returns -1 when there are
 * jobs to run, else the exit status (a tool of its own, an action, a
 * dump).
 */
static int session_read(struct session *s)
{
	struct cli *c = &s->c;
	size_t k;

	job_list_init(&s->jl);
	if (cli_parse(s->argc, s->argv, c, &s->jl, &s->err))
		die("%s", strbuf_str(&s->err));
	if (c->action != CLI_RUN)
		return cli_action(c);
	for (k = 0; k < c->nr_sweeps; k++)
		if (sweep_parse(&s->sweep, c->sweeps[k], &s->err))
			die("%s", strbuf_str(&s->err));
	verify_set_aux_path(c->aux_path);
	for (k = 0; k < c->nr_jobfiles; k++)
		if (job_file_read(&s->jl, c->jobfiles[k], c->sections, &s->err))
			die("%s", strbuf_str(&s->err));
	if (job_list_check_globals(&s->jl, &s->err) ||
	    job_list_check_wait_for(&s->jl, &s->err))
		die("%s", strbuf_str(&s->err));
	if (s->h && s->h->loaded &&
	    s->h->loaded(s->h->arg, c, &s->jl, &s->err))
		die("%s", strbuf_str(&s->err));
	if (c->showcmd) {
		cli_showcmd(&s->jl);
		return 0;
	}
	if (!s->jl.nr && !(s->h && s->h->empty_ok)) {
		if (s->argc > 1 && !c->nr_jobfiles && !s->jl.global.nr)
			return 0;
		/* fio parses the global options given and is done */
		if (c->parse_only && !c->nr_jobfiles)
			return 0;
		die("no jobs to run (see --help)");
	}
	if (sweep_expand(&s->sweep, &s->jl, &s->err))
		die("%s", strbuf_str(&s->err));
	if (c->parse_only) {
		struct strbuf out_sb = STRBUF_INIT;

		if (job_list_dump(&s->jl, &out_sb, &s->err))
			die("%s", strbuf_str(&s->err));
		/* the plans are checked, then let go */
		s->plans = plans_or_die(s);
		for (k = 0; k < s->nr; k++)
			plan_release(&s->plans[k]);
		free(s->plans);
		s->plans = NULL;
		fputs(strbuf_str(&out_sb), stdout);
		strbuf_release(&out_sb);
		return 0;
	}
	return -1;
}

/* The live options checked (src/live/): before anything is created. */
static void live_plan(struct session *s)
{
	const struct cli *c = &s->c;
	struct live_opts *lo = &s->live;

	lo->stream = c->interval_output;
	lo->listen = c->metrics_listen;
	lo->push = c->metrics_push;
	lo->linger_ms = c->metrics_linger_ms;
	lo->interval_ms = c->interval_ms ? c->interval_ms :
			  c->status_interval_ms ? c->status_interval_ms : 1000;
	if (!lo->stream && !lo->listen && !lo->push) {
		if (c->interval_ms || c->metrics_linger_ms)
			die("option '--%s': needs --interval-output, --metrics-listen or --metrics-push",
			    c->interval_ms ? "interval-period" : "metrics-linger");
		return;
	}
	if (c->metrics_linger_ms && !lo->listen)
		die("option '--metrics-linger': needs --metrics-listen");
	if (lo->stream && !strcmp(lo->stream, "-") && !c->output)
		die("option '--interval-output': '-' needs the report elsewhere (--output=FILE)");
	if (lo->stream && strcmp(lo->stream, "-")) {
		check_output(c, lo->stream, "--interval-output", s->plans,
			     s->files, s->nr);
		if (c->output && sf_same_file(lo->stream, c->output))
			die("option '--interval-output': '%s' is the --output file",
			    lo->stream);
	}
	if (live_check(lo, &s->err))
		die("%s", strbuf_str(&s->err));
	if (s->h && s->h->live)
		s->h->live(s->h->arg, lo);
}

/*
 * Plans every job and checks it against the machine (privileges, the
 * targets, the outputs, descriptors): every refusal comes here, before
 * any file is created.
 */
static void session_plan(struct session *s)
{
	const struct cli *c = &s->c;
	struct limits_logs lim_logs;
	struct strbuf *err = &s->err;

	s->plans = plans_or_die(s);
	if (c->warnings_fatal)
		warnings_fatal(s->plans, s->nr);
	if (prio_check_caps(s->plans, s->nr, err))
		die_at(&s->jl, err);
	if (plans_clock_init(s->plans, s->nr, &s->clock_note))
		die("%s", strbuf_str(&s->clock_note));
	s->files = xcalloc(s->nr, sizeof(*s->files));
	if (files_resolve(s->plans, s->nr, s->files, err) ||
	    numa_auto_resolve(s->plans, s->files, s->nr, err))
		die_at(&s->jl, err);
	cli_debug_before(s->plans, s->nr, s->files);
	check_output(c, c->output, "--output", s->plans, s->files, s->nr);
	check_output(c, c->profile_folded, "--profile-folded", s->plans,
		     s->files, s->nr);
	live_plan(s);
	if (c->readonly &&
	    safety_check_readonly(s->plans, s->nr, s->files, err))
		die_at(&s->jl, err);
	if (proc_check(s->plans, s->files, s->nr, &s->before, err))
		die_at(&s->jl, err);
	if (log_set_init(&s->logs, s->plans, s->nr, err))
		die_at(&s->jl, err);
	if (c->bandwidth_log &&
	    log_set_bandwidth_log(&s->logs, s->plans, s->nr, err))
		die_at(&s->jl, err);
	lim_logs.nr_files = log_set_nr_files(&s->logs, &lim_logs.job,
					     &lim_logs.opt);
	if (limits_check_fds(s->plans, s->nr, s->files, &lim_logs, err))
		die_at(&s->jl, err);
	if (repeat_check(c->repeat, log_set_active(&s->logs) ||
			 c->bandwidth_log,
			 c->trigger_file || c->trigger_timeout_us, err))
		die_at(&s->jl, err);
}

/*
 * Opens the report's outputs, prints fio's preamble and lays the files
 * out: the first things the run creates.
 */
static void session_prepare(struct session *s)
{
	const struct cli *c = &s->c;
	const struct main_hooks *h = s->h;
	const char *why;
	int ret;

	/* a wrapper's processes agree to start, or none does (src/mpi/) */
	if (h && h->ready && h->ready(h->arg))
		exit(1);
	/* the endpoint's port taken first: a busy one creates nothing */
	if ((s->live.stream || s->live.listen || s->live.push ||
	     s->live.tap) &&
	    !(s->rc.live = live_start(&s->live, &s->err)))
		die("%s", strbuf_str(&s->err));
	s->out = stdout;
	if (h && h->quiet) {
		s->out = fopen("/dev/null", "w");
		if (!s->out)
			die("cannot open /dev/null: %s", strerror(errno));
	} else if (c->output) {
		s->out = sf_fopen_w(c->output, SF_NAMED, &why);
		if (!s->out)
			die("cannot open output file '%s': %s", c->output, why);
	}
	dbg_set_output(s->out);
	/* a quiet process's report goes to another: no page of its own */
	s->html = h && h->quiet ? NULL : open_html(c, s->out, &s->html_path);
	if (c->profile_folded) {
		s->folded = sf_fopen_w(c->profile_folded, SF_NAMED, &why);
		if (!s->folded)
			die("cannot open '%s' (--profile-folded): %s",
			    c->profile_folded, why);
	}
	/* fio's order: the job lines, then what each job lays out */
	if (cli_format_listed(c, "normal"))
		report_normal_preamble(s->plans, s->nr, s->out);
	fflush(s->out);
	ret = files_prepare(s->plans, s->nr, s->files,
			    cli_format_listed(c, "normal") ? s->out : NULL,
			    &s->err);
	if (ret > 0) {	/* a signal stopped the layout */
		error("%s", strbuf_str(&s->err));
		exit(128 + ret);
	}
	if (ret)
		die_at(&s->jl, &s->err);
	if (log_set_active(&s->logs) && log_set_open(&s->logs, &s->err))
		die_at(&s->jl, &s->err);
}

/* The runner's jobs and disks, the report's context, the runner's hooks. */
static void session_setup_run(struct session *s)
{
	const struct cli *c = &s->c;
	const struct main_hooks *h = s->h;
	struct report_ctx *rc = &s->rc;
	struct runner_opts *ro = &s->ro;
	struct strbuf prof_note = STRBUF_INIT;
	unsigned int i;
	size_t k;

	s->jobs = xcalloc(s->nr, sizeof(*s->jobs));
	disk_set_init(&s->disks);
	for (i = 0; i < s->nr; i++) {
		s->jobs[i].plan = &s->plans[i];
		s->jobs[i].files = &s->files[i];
		for (k = 0; k < s->files[i].nr_devs &&
			    !s->plans[i].o.no_disk_util; k++)
			disk_set_add(&s->disks, s->files[i].devs[k]);
	}
	rc->c = c;
	rc->jl = &s->jl;
	rc->plans = s->plans;
	rc->out = s->out;
	rc->html = s->html;
	rc->h = h;
	if (s->html)
		run_info(rc, s->argc, s->argv);
	status_printer_init(&rc->sp, stdout, c->eta_newline_ms);
	if (s->clock_note.len)
		notes_add(&rc->notes, "%s", s->clock_note.buf);
	checks_before(s->plans, s->files, s->nr, &s->before);
	prio_notes(s->plans, s->files, s->nr, &s->before);
	for (k = 0; k < s->before.nr; k++)
		notes_add(&rc->notes, "%s", s->before.v[k]);
	ro->arg = rc;
	ro->report = h && h->report ? NULL : hook_report;
	if (h) {
		ro->segment_start = h->segment_start;
		ro->sync_poll = h->sync_poll;
		ro->interval_epoch = h->interval_epoch;
		ro->sync_arg = h->arg;
	}
	ro->status_interval_ms = c->status_interval_ms;
	ro->stuck_timeout_ms = c->stuck_timeout_ms;
	if (rc->live) {
		ro->interval = hook_interval;
		ro->interval_ms = s->live.interval_ms;
	}
	if (status_wanted(c) && !(h && h->quiet)) {
		ro->status = hook_status;
		ro->eta_interval_ms = c->eta_interval_ms ? c->eta_interval_ms :
							   1000;
	}
	ro->logs = log_set_active(&s->logs) ? &s->logs : NULL;
	if (s->sweep.nr_points)
		rc->sweep = &s->sweep.rs;
	rc->prof = start_profile(c, s->plans, s->nr, &prof_note);
	add_note_lines(rc, &prof_note);
	strbuf_release(&prof_note);
	if (rc->prof)
		ro->phase = hook_phase;
	s->nr_runs = c->repeat > 1 ? c->repeat : 1;
	rc->nr_rounds = s->nr_runs;
	if (s->nr_runs > 1)
		rc->reps = &s->reps;
}

/* The run itself (its rounds), with the trigger, idle and CPU profiles. */
static void session_run(struct session *s)
{
	struct report_ctx *rc = &s->rc;
	struct strbuf trig_note = STRBUF_INIT, prof_after = STRBUF_INIT;
	int ret;

	s->trig = trigger_start(&s->c);
	s->idle = idle_prof_start(s->c.idle_prof);
	ret = run_rounds(rc, s->jobs, s->nr, &s->ro, &s->disks, s->nr_runs,
			 &s->kept, &s->err);
	idle_prof_stop(s->idle, &s->idle_res);
	if (s->idle)
		rc->idle = &s->idle_res;
	if (ret < 0)
		die("%s", strbuf_str(&s->err));
	s->failed = ret;
	cli_debug_after(s->jobs, s->nr);
	if (trigger_end(s->trig, &trig_note, &s->trig_sig) < 0)
		s->failed = 1;
	if (trig_note.len)
		notes_add(&rc->notes, "%s", trig_note.buf);
	strbuf_release(&trig_note);
	rc->profiles = profile_results(rc->prof, &rc->nr_profiles,
				       &prof_after);
	add_note_lines(rc, &prof_after);
	strbuf_release(&prof_after);
	if (s->folded && (profile_write_folded(rc->prof, s->folded) ||
			  fclose(s->folded))) {
		error("cannot write '%s': %s", s->c.profile_folded,
		      strerror(errno));
		s->failed = 1;
	}
}

/*
 * What the run leaves for the report's notes: the engines' own words,
 * errors continued past (never on stderr: the run may succeed), the
 * process side's ends, an interruption, the logs.
 */
static void session_notes(struct session *s)
{
	struct notes *notes = &s->rc.notes;
	struct notes proc_out = { NULL, 0 };
	struct strbuf log_note = STRBUF_INIT;
	unsigned int i;
	size_t k;

	for (i = 0; i < s->nr; i++)
		if (s->jobs[i].describe[0])	/* each text once */
			notes_add(notes, "%s", s->jobs[i].describe);
	for (i = 0; i < s->nr; i++)
		cont_errs_notes(&s->jobs[i], &proc_out);
	/* cgroups removed; the commands' output files, their failures */
	proc_finish(&proc_out);
	for (k = 0; k < proc_out.nr; k++)
		notes_add(notes, "%s", proc_out.v[k]);
	notes_release(&proc_out);
	if (s->ro.signal)
		notes_add(notes, "interrupted by %s: the figures cover the "
			  "I/O done until then", sig_name(s->ro.signal));
	if (s->ro.abandoned)
		notes_add(notes, "%u job(s) given up with an I/O that never "
			  "completed (its stderr line says which): their "
			  "figures cover the I/O completed until then",
			  s->ro.abandoned);
	log_set_finish(&s->logs);
	log_set_notes(&s->logs, &log_note);
	if (log_note.len)
		notes_add(notes, "%s", log_note.buf);
	strbuf_release(&log_note);
	if (s->rc.live) {
		struct strbuf live_note = STRBUF_INIT;

		if (live_finish(s->rc.live, &live_note))
			s->failed = 1;
		s->rc.live = NULL;
		add_note_lines(&s->rc, &live_note);
		strbuf_release(&live_note);
	}
	if (log_set_release(&s->logs, &s->err)) {
		error("%s", strbuf_str(&s->err));
		strbuf_reset(&s->err);
		s->failed = 1;
	}
}

/*
 * The reports. Jobs that never started (a signal or exit_what stopped
 * the run before their stonewall group) are reported with zeros, as fio:
 * JSON and terse list them, the normal report leaves them out.
 */
static void session_report(struct session *s)
{
	struct report_ctx *rc = &s->rc;
	const struct main_hooks *h = s->h;
	struct worker_result *wr = xcalloc(s->nr, sizeof(*wr));
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		wr[i] = s->jobs[i].res;
	if (emit_report(rc, wr, s->nr, &s->disks, true))
		s->failed = 1;
	if (close_report(s->out, h && h->quiet ? "/dev/null" : s->c.output,
			 rc->out_err))
		s->failed = 1;
	if (s->html && s->html != s->out &&
	    close_report(s->html, s->html_path.buf, rc->html_err))
		s->failed = 1;
	free(wr);
}

static void session_release(struct session *s)
{
	unsigned int i;
	size_t k;

	run_info_release(&s->rc);
	for (k = 0; k < s->reps.nr; k++)
		results_release_opts(&s->reps.runs[k]);
	repeat_release(&s->reps);
	for (k = 0; s->kept && k < (size_t)(s->nr_runs - 1) * s->nr; k++)
		worker_result_release(&s->kept[k]);
	free(s->kept);
	sweep_release(&s->sweep);
	for (i = 0; i < s->nr; i++)
		files_finish(&s->plans[i], &s->files[i]);
	disk_set_release(&s->disks);
	for (i = 0; i < s->nr; i++) {
		if (s->jobs[i].st)
			worker_stats_release(s->jobs[i].st);
		free(s->jobs[i].st);
		worker_result_release(&s->jobs[i].res);
		job_files_release(&s->files[i]);
		plan_release(&s->plans[i]);
	}
	status_printer_release(&s->rc.sp);
	notes_release(&s->rc.notes);
	idle_prof_free(s->idle);
	profile_free(s->rc.prof);
	free(s->jobs);
	free(s->files);
	free(s->plans);
	cli_release(&s->c);
	job_list_release(&s->jl);
	strbuf_release(&s->err);
	strbuf_release(&s->clock_note);
	notes_release(&s->before);
	strbuf_release(&s->html_path);
}

int iolite_main(int argc, char **argv, const struct main_hooks *h)
{
	struct session s;
	int ret;

	/* `iolite compare ...` reads finished runs: a tool of its own */
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	/* a command of its own: pictures from saved results */
	if (argc > 1 && !strcmp(argv[1], "plot"))
		return cli_plot(argc - 1, argv + 1);
	/* SNIA PTS: its phases are runs of this main (src/pts/) */
	if (argc > 1 && !strcmp(argv[1], "pts"))
		return pts_main(argc - 1, argv + 1, iolite_main);
	memset(&s, 0, sizeof(s));
	s.argc = argc;
	s.argv = argv;
	s.h = h;
	strbuf_init(&s.err);
	strbuf_init(&s.clock_note);
	strbuf_init(&s.html_path);
	ret = session_read(&s);
	if (ret >= 0) {
		/* the job list and plans are the suppressed ones (lsan.supp) */
		strbuf_release(&s.err);
		strbuf_release(&s.clock_note);
		strbuf_release(&s.html_path);
		return ret;
	}
	session_plan(&s);
	session_prepare(&s);
	session_setup_run(&s);
	session_run(&s);
	session_notes(&s);
	session_report(&s);
	/* interrupted: 128 + the signal, the shell's convention */
	if (!s.ro.signal)
		s.ro.signal = s.trig_sig;
	ret = s.ro.signal ? 128 + s.ro.signal : s.failed ? 1 : 0;
	session_release(&s);
	return h && h->finish ? h->finish(h->arg, ret) : ret;
}

#ifndef IOLITE_NO_MAIN
int main(int argc, char **argv)
{
	return iolite_main(argc, argv, NULL);
}
#endif

/* SPDX-License-Identifier: MIT */
/*
 * `iolite compare` (compare/compare.h): the command line, the sides and
 * their runs, the job options that differ, then one table per matched
 * job (compare/table.c) and the exit status. Reads the results model of
 * resultsio/ only; with --run the runs come from child iolites
 * (compare/run.c), never from the runner in this process.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/internal.h"
#include "util/log.h"
#include "util/safefile.h"

#define EXIT_REGRESSION 1
#define EXIT_USAGE 2

static const char usage_text[] =
"usage: iolite compare [options] A.json B.json [C.json ...]\n"
"       iolite compare --run [--repeat=N] [options] A.fio B.fio [-- iolite options]\n"
"\n"
"Compares benchmark results side by side: each later side against A, per\n"
"job (matched by name), direction and metric (IOPS, bandwidth, mean clat\n"
"and lat, p50 p90 p99 p99.9 p99.99), with the relative change, its\n"
"confidence interval and a verdict. A side is a fio or iolite JSON or\n"
"json+ report, or several runs of the same jobs: A1.json,A2.json,A3.json\n"
"(or one iolite file holding repeats). Several runs per side give an\n"
"interval by Welch's t over the runs; one run per side gives one for\n"
"IOPS and bandwidth from iolite's per-interval samples (batch means).\n"
"\n"
"  --fail-if-slower=P%   exit 1 when a metric is significantly slower by\n"
"                        more than P percent (a regression gate)\n"
"  --confidence=P        confidence of the intervals, percent (95)\n"
"  --metrics=M[,M]       only these metrics: IOPS, bw, clat-mean, clat-p50,\n"
"                        clat-p90, clat-p99, clat-p99.9, clat-p99.99,\n"
"                        lat-mean, lat-p50 ... (all)\n"
"  --changed=OPT[,OPT]   the options meant to differ: others that differ\n"
"                        are flagged\n"
"  --tsv                 tab-separated lines, one per metric, for scripts\n"
"  --run                 the sides are job files: run them here, taking\n"
"                        turns (A B A B ...), each run a child iolite\n"
"  --repeat=N            --run: rounds (3)\n"
"  --save=DIR            --run: keep each run's JSON as DIR/A-1.json ...\n"
"  --output-format=FMT   normal (the tables) or html: the sides overlaid\n"
"                        in one page of charts with the intervals drawn\n"
"  -o, --output=FILE     the html page's file (FILE.html: html); the\n"
"                        tables still go to stdout\n"
"\n"
"Exit status: 0 compared, 1 a regression beyond --fail-if-slower,\n"
"2 a usage or input error, or something --fail-if-slower could not\n"
"judge (a job or direction B lacks, a figure that is no number).\n"
"See doc/compare.md for the methods.\n";

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("iolite: compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see iolite compare --help)\n", stderr);
	return EXIT_USAGE;
}

/* "5", "5%", "5.5%" -> 0.05; -1 when not a percentage in [0, 1000) */
static double parse_pct(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !(v >= 0 && v < 1000))
		return -1;
	return v / 100.0;
}

static void split_changed(struct cmp_args *a, const char *list)
{
	char *dup = xstrdup(list), *save = NULL, *tok;

	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		a->changed = xrealloc(a->changed,
				      (a->nr_changed + 1) * sizeof(*a->changed));
		a->changed[a->nr_changed++] = xstrdup(tok);
	}
	free(dup);
}

static int parse_metrics(struct cmp_args *a, const char *list)
{
	char *dup = xstrdup(list), *save = NULL, *tok;
	int i, ret = 0;

	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		i = cmp_metric_index(tok);
		if (i < 0)
			ret = usage_error("--metrics: unknown metric '%s' (IOPS, "
					  "bw, clat-mean, clat-p50 .. "
					  "clat-p99.99, lat-mean, lat-p50 ..)",
					  tok);
		else
			a->metrics |= 1ul << i;
	}
	free(dup);
	return ret;
}

static int parse_value(const char *arg, const char *name, const char **val)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n) || arg[n] != '=')
		return 0;
	*val = arg + n + 1;
	return 1;
}

/* -o's file; a name ending in .html or .htm asks for the page */
static void set_output(struct cmp_args *a, const char *v)
{
	size_t n = strlen(v);

	a->output = v;
	if (n > 5 && (!strcmp(v + n - 5, ".html") ||
		      !strcmp(v + n - 4, ".htm")))
		a->html = true;
}

/*
 * The option argv[*i] (-o FILE moves *i on to FILE), or a side. Returns
 * -1 to go on, or the exit status (help: 0, errors: 2).
 */
static int parse_option(int argc, char **argv, int *i, struct cmp_args *a)
{
	const char *arg = argv[*i];
	const char *v;
	char *end;

	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		fputs(usage_text, stdout);
		return 0;
	} else if (!strcmp(arg, "--tsv")) {
		a->tsv = true;
	} else if (!strcmp(arg, "--run")) {
		a->run = true;
	} else if (parse_value(arg, "--fail-if-slower", &v)) {
		a->fail_if_slower = parse_pct(v);
		if (a->fail_if_slower < 0)
			return usage_error("--fail-if-slower: '%s' is "
					   "not a percentage", v);
	} else if (parse_value(arg, "--confidence", &v)) {
		a->conf = parse_pct(v);
		if (!(a->conf >= 0.5 && a->conf < 1))
			return usage_error("--confidence: '%s' is not "
					   "a percentage from 50 to "
					   "below 100", v);
	} else if (parse_value(arg, "--metrics", &v)) {
		if (parse_metrics(a, v))
			return EXIT_USAGE;
	} else if (parse_value(arg, "--changed", &v)) {
		split_changed(a, v);
	} else if (parse_value(arg, "--repeat", &v)) {
		unsigned long n = strtoul(v, &end, 10);

		if (end == v || *end || !n || n > 1000)
			return usage_error("--repeat: '%s' is not a "
					   "count from 1 to 1000", v);
		a->repeat = (unsigned int)n;
	} else if (parse_value(arg, "--save", &v)) {
		a->save_dir = v;
	} else if (parse_value(arg, "--output-format", &v)) {
		if (strcmp(v, "html") && strcmp(v, "normal"))
			return usage_error("--output-format: '%s' is not "
					   "a format here (normal, html)", v);
		a->html = !strcmp(v, "html");
	} else if (parse_value(arg, "--output", &v) ||
		   ((!strcmp(arg, "-o") || !strcmp(arg, "--output")) &&
		    *i + 1 < argc && (v = argv[++*i]))) {
		set_output(a, v);
	} else if (arg[0] == '-' && arg[1]) {
		return usage_error("unknown option '%s'", arg);
	} else {
		a->specs[a->nr_specs++] = arg;
	}
	return -1;
}

/* What the options say together; -1 when they agree, else 2 */
static int check_args(const struct cmp_args *a)
{
	if (a->nr_specs < 2)
		return usage_error("%s", a->nr_specs ? "one side given, two "
				   "or more needed" : "no sides given, two or "
				   "more needed");
	if (a->nr_specs > CMP_MAX_SIDES)
		return usage_error("%s", "more than 26 sides");
	if (!a->run && (a->save_dir || a->nr_child_args))
		return usage_error("%s", "--save and '--' go with --run");
	if (a->output && !a->html)
		return usage_error("-o '%s': the tables go to stdout; -o names "
				   "the html page (--output-format=html, or a "
				   "name ending in .html)", a->output);
	if (a->html && a->tsv)
		return usage_error("%s", "--tsv and html: one or the other on "
				   "stdout (-o FILE.html writes the page "
				   "beside the tables)");
	return -1;
}

/* Returns -1 to go on, or the exit status (help: 0, errors: 2). */
static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	int i, ret;

	a->conf = 0.95;
	a->fail_if_slower = -1;
	a->repeat = 3;
	a->specs = xcalloc((size_t)argc + 1, sizeof(*a->specs));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			a->child_args = (const char **)argv + i + 1;
			a->nr_child_args = (unsigned int)(argc - i - 1);
			break;
		}
		ret = parse_option(argc, argv, &i, a);
		if (ret >= 0)
			return ret;
	}
	return check_args(a);
}

/* A side's files: "a.json" or "a1.json,a2.json,..." */
static int load_side(struct cmp_side *s, struct strbuf *err)
{
	char *list = xstrdup(s->spec), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(list, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = rio_read_file(&s->doc, tok, err);
	free(list);
	if (!ret && !s->doc.nr_runs) {
		strbuf_addf(err, "side %c ('%s') names no file", s->label,
			    s->spec);
		ret = -EINVAL;
	}
	return ret;
}

/* --- sweep points -------------------------------------------------- */

/* Do x and y hold the same swept values (a set: the order aside)? */
bool cmp_same_point(const struct rio_job *x, const struct rio_job *y)
{
	unsigned int i, k;

	if (x->nr_sweep != y->nr_sweep || strcmp(x->name, y->name))
		return false;
	for (i = 0; i < x->nr_sweep; i++) {
		for (k = 0; k < y->nr_sweep; k++)
			if (!strcmp(x->sweep[i].key, y->sweep[k].key) &&
			    !strcmp(x->sweep[i].val, y->sweep[k].val))
				break;
		if (k == y->nr_sweep)
			return false;
	}
	return true;
}

static void point_name(struct strbuf *sb, const struct rio_job *j)
{
	unsigned int k;

	strbuf_addstr(sb, j->name);
	for (k = 0; k < j->nr_sweep; k++)
		strbuf_addf(sb, "%s%s=%s", k ? "," : " at ", j->sweep[k].key,
			    j->sweep[k].val);
}

/* The point of run r matching x, or NULL. */
static struct rio_job *find_point(const struct rio_run *r,
				  const struct rio_job *x)
{
	unsigned int i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].nr_sweep && cmp_same_point(x, &r->jobs[i]))
			return &r->jobs[i];
	return NULL;
}

/*
 * The sweep points of run r (of side lb) take the numbers of A's first
 * run's points with the same values, so that the tables pair points by
 * what was swept, not by their order. A point either lacks is refused.
 */
static int match_run_points(const struct rio_run *ra, struct rio_run *r,
			    char la, char lb, struct strbuf *err)
{
	unsigned int i, *dup = xcalloc(r->nr_jobs + 1, sizeof(*dup));
	const struct rio_job *miss = NULL;
	char in = lb, lacks = la;

	for (i = 0; i < r->nr_jobs && !miss; i++) {
		const struct rio_job *x;

		dup[i] = r->jobs[i].dup;
		if (!r->jobs[i].nr_sweep)
			continue;
		x = find_point(ra, &r->jobs[i]);
		if (x)
			dup[i] = x->dup;
		else
			miss = &r->jobs[i];
	}
	for (i = 0; i < ra->nr_jobs && !miss; i++)
		if (ra->jobs[i].nr_sweep && !find_point(r, &ra->jobs[i])) {
			miss = &ra->jobs[i];
			in = la;
			lacks = lb;
		}
	if (miss) {
		strbuf_addf(err, "compare: the sweeps do not match: %c has ",
			    in);
		point_name(err, miss);
		strbuf_addf(err, " and %c has no such point (points are paired "
			    "by their swept values)", lacks);
		free(dup);
		return -EINVAL;
	}
	for (i = 0; i < r->nr_jobs; i++)
		r->jobs[i].dup = dup[i];
	free(dup);
	return 0;
}

/* Every side's runs (and A's own repeats) against A's first run. */
static int match_sweeps(struct cmp_side *sides, unsigned int nr,
			struct strbuf *err)
{
	const struct rio_run *ra = &sides[0].doc.runs[0];
	unsigned int s, r;
	bool any = false;

	for (r = 0; r < ra->nr_jobs; r++)
		any |= ra->jobs[r].nr_sweep > 0;
	for (s = 0; any && s < nr; s++)
		for (r = s ? 0 : 1; r < sides[s].doc.nr_runs; r++)
			if (match_run_points(ra, &sides[s].doc.runs[r],
					     sides[0].label, sides[s].label,
					     err))
				return -EINVAL;
	return 0;
}

static void print_side(const struct cmp_args *args, const struct cmp_side *s,
		       FILE *out)
{
	const char *ver = s->doc.runs[0].version;
	unsigned int r;
	bool mixed = false;

	for (r = 1; r < s->doc.nr_runs; r++)
		mixed |= strcmp(s->doc.runs[r].version, ver) != 0;
	fprintf(out, "%c: %s (%u run%s%s%s%s)\n", s->label, s->spec,
		s->doc.nr_runs, s->doc.nr_runs == 1 ? "" : "s",
		args->run ? " here" : "", *ver ? ", " : "",
		mixed ? "several tools" : ver);
}

/* --- job options ---------------------------------------------------- */

/* A job's option key as its run has it: its own, else the global one. */
static const char *opt_of(const struct rio_run *r, const struct rio_job *j,
			  const char *key, bool *set)
{
	unsigned int i;

	*set = true;
	for (i = j->nr_opts; i-- > 0;)
		if (!strcmp(j->opts[i].key, key))
			return j->opts[i].val ? j->opts[i].val : "";
	for (i = r->nr_global; i-- > 0;)
		if (!strcmp(r->global[i].key, key))
			return r->global[i].val ? r->global[i].val : "";
	*set = false;
	return "(not set)";
}

static bool is_changed(const struct cmp_args *args, const char *key)
{
	unsigned int i;

	for (i = 0; i < args->nr_changed; i++)
		if (!strcmp(args->changed[i], key))
			return true;
	return false;
}

/*
 * One key of job x against job y: a line when their values differ.
 * Returns 0 (the same), 1 (differs, as stated by --changed) or 2.
 */
static int diff_key(const struct cmp_args *args, const char *key,
		    const char *who, const struct rio_run *rx,
		    const struct rio_job *x, const char *lx,
		    const struct rio_run *ry, const struct rio_job *y,
		    const char *ly, FILE *out)
{
	bool sx, sy;
	const char *vx = opt_of(rx, x, key, &sx), *vy = opt_of(ry, y, key, &sy);
	bool stated = is_changed(args, key);

	if (sx == sy && !strcmp(vx, vy))
		return 0;
	if (args->tsv)
		fprintf(out, "#option\t%s\t%s\t%s=%s\t%s=%s%s\n", who, key, lx,
			vx, ly, vy, stated ? "\tstated" : "");
	else
		fprintf(out, "  %s: %s: %s %s, %s %s%s\n", who, key, lx, vx, ly,
			vy, stated ? " (stated)" : "");
	return stated ? 1 : 2;
}

static void add_keys(const char ***keys, unsigned int *nr,
		     const struct rio_opt *o, unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < *nr; k++)
			if (!strcmp((*keys)[k], o[i].key))
				break;
		if (k < *nr)
			continue;
		*keys = xrealloc(*keys, (*nr + 1) * sizeof(**keys));
		(*keys)[(*nr)++] = o[i].key;
	}
}

/*
 * Every option either job has (its own or its run's global) whose value
 * differs, one line each. Counts the lines, and those not stated.
 */
static void diff_jobs(const struct cmp_args *args, const char *who,
		      const struct rio_run *rx, const struct rio_job *x,
		      const char *lx, const struct rio_run *ry,
		      const struct rio_job *y, const char *ly, FILE *out,
		      unsigned int *lines, unsigned int *unstated)
{
	const char **keys = NULL;
	unsigned int nr = 0, i;

	add_keys(&keys, &nr, rx->global, rx->nr_global);
	add_keys(&keys, &nr, x->opts, x->nr_opts);
	add_keys(&keys, &nr, ry->global, ry->nr_global);
	add_keys(&keys, &nr, y->opts, y->nr_opts);
	for (i = 0; i < nr; i++) {
		int d = diff_key(args, keys[i], who, rx, x, lx, ry, y, ly, out);

		*lines += d != 0;
		*unstated += d == 2;
	}
	free(keys);
}

static void job_label(char *buf, size_t n, const struct rio_job *j)
{
	if (j->dup)
		snprintf(buf, n, "%s#%u", j->name, j->dup + 1);
	else
		snprintf(buf, n, "%s", j->name);
}

/*
 * The job options that differ, first: between A's first run and each
 * other side's (per matched job), and among one side's own runs.
 */
static void list_option_diffs(const struct cmp_args *args,
			      const struct cmp_side *sides, unsigned int nr,
			      FILE *out)
{
	const struct rio_run *ra = &sides[0].doc.runs[0];
	unsigned int s, r, i, lines = 0, unstated = 0;
	char who[256], lb[2] = { 0, 0 }, l0[24], l1[24];

	if (!args->tsv)
		fputs("\nJob options that differ:\n", out);
	for (s = 1; s < nr; s++) {
		const struct rio_run *rb = &sides[s].doc.runs[0];

		lb[0] = sides[s].label;
		for (i = 0; i < ra->nr_jobs; i++) {
			const struct rio_job *x = &ra->jobs[i];
			const struct rio_job *y = rio_find_job(rb, x->name, x->dup);

			if (!y)
				continue;
			job_label(who, sizeof(who), x);
			diff_jobs(args, who, ra, x, "A", rb, y, lb, out, &lines,
				  &unstated);
		}
	}
	/* the runs of one side are meant to be the same jobs */
	for (s = 0; s < nr; s++) {
		const struct rio_run *r0 = &sides[s].doc.runs[0];

		for (r = 1; r < sides[s].doc.nr_runs; r++) {
			const struct rio_run *rr = &sides[s].doc.runs[r];

			snprintf(l0, sizeof(l0), "%c1", sides[s].label);
			snprintf(l1, sizeof(l1), "%c%u", sides[s].label, r + 1);
			for (i = 0; i < r0->nr_jobs; i++) {
				const struct rio_job *x = &r0->jobs[i];
				const struct rio_job *y = rio_find_job(rr, x->name,
								 x->dup);

				if (!y)
					continue;
				job_label(who, sizeof(who), x);
				diff_jobs(args, who, r0, x, l0, rr, y, l1, out,
					  &lines, &unstated);
			}
		}
	}
	if (args->tsv)
		return;
	if (!lines)
		fputs("  none\n", out);
	else if (args->nr_changed && unstated)
		fputs("  note: the sides differ in more than the options stated "
		      "with --changed: the comparison may not measure the "
		      "change meant\n", out);
}

/* Jobs of side s that side a lacks (or the other way round). */
static void list_unmatched(const struct cmp_side *x, const struct cmp_side *y,
			   FILE *out)
{
	const struct rio_run *r = &x->doc.runs[0];
	unsigned int i, k;
	char who[256];

	for (i = 0; i < r->nr_jobs; i++) {
		bool found = false;

		for (k = 0; k < y->doc.nr_runs && !found; k++)
			found = rio_find_job(&y->doc.runs[k], r->jobs[i].name,
				       r->jobs[i].dup) != NULL;
		if (found)
			continue;
		job_label(who, sizeof(who), &r->jobs[i]);
		fprintf(out, "\n%s: only in %c (no job of that name in %c)\n",
			who, x->label, y->label);
	}
}

/*
 * Many metrics tested at once: how many would differ by chance alone,
 * and how many of the differences found hold with every interval
 * widened for all of them (Bonferroni: confidence 1 - (1 - conf) / m).
 */
static void multiple_tests(const struct cmp_args *args,
			   const struct cmp_tally *t, FILE *out)
{
	struct cmp_tests c;

	cmp_tests_count(t, args->conf, &c);
	if (c.m < 2)
		return;
	fprintf(out, "%u metrics tested at %g%%: by chance alone about %.1f "
		"of them would differ%s\n", c.m, args->conf * 100,
		c.m * (1 - args->conf), c.found ? "." : "; none does.");
	if (c.found)
		fprintf(out, "With each interval widened for all %u (Bonferroni, "
			"%.4g%%): %u of the %u difference%s hold%s.\n", c.m,
			c.conf_all * 100, c.hold, c.found,
			c.found == 1 ? "" : "s", c.found == 1 ? "s" : "");
}

static void summary(const struct cmp_args *args, const struct cmp_tally *t,
		    FILE *out)
{
	fprintf(out, "\n%u metric%s compared, %u of them without an "
		"interval.\n", t->rows, t->rows == 1 ? "" : "s",
		t->no_interval);
	multiple_tests(args, t, out);
	if (args->fail_if_slower < 0)
		return;
	fprintf(out, "--fail-if-slower=%g%%: ", args->fail_if_slower * 100);
	if (t->regressions)
		fprintf(out, "%u regression%s", t->regressions,
			t->regressions == 1 ? "" : "s");
	else
		fprintf(out, t->unjudged ? "no regression in what could be "
			"judged" : "no regression");
	if (t->no_interval)
		fprintf(out, " (%u metric%s without an interval could not be "
			"judged)", t->no_interval,
			t->no_interval == 1 ? "" : "s");
	fprintf(out, "%s\n%s", t->regressions ? ":" : "",
		strbuf_str(&t->regressed));
	if (t->unjudged)
		fprintf(out, "--fail-if-slower=%g%%: %u thing%s could not be "
			"judged, so the gate fails:\n%s",
			args->fail_if_slower * 100, t->unjudged,
			t->unjudged == 1 ? "" : "s", strbuf_str(&t->unjudgeable));
}

static void release(struct cmp_args *args, struct cmp_side *sides,
		    unsigned int nr, struct cmp_tally *t)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		rio_doc_release(&sides[i].doc);
	for (i = 0; i < args->nr_changed; i++)
		free(args->changed[i]);
	free(args->changed);
	free(args->specs);
	strbuf_release(&t->regressed);
	strbuf_release(&t->unjudgeable);
	free(t->vrows);
}

/* The page to -o's file, or to stdout; 0 or -1 (said on stderr) */
/* The job options that differ, as the text lists them (for the page). */
static char *option_diffs_text(const struct cmp_args *args,
			       const struct cmp_side *sides, unsigned int nr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return xstrdup("");
	list_option_diffs(args, sides, nr, f);
	fclose(f);
	if (buf) {
		/* the page has its own heading */
		const char *head = "\nJob options that differ:\n";
		size_t n = strlen(head);

		if (!strncmp(buf, head, n))
			memmove(buf, buf + n, strlen(buf + n) + 1);
		return buf;
	}
	return xstrdup("");
}

static int write_html(const struct cmp_args *args, const struct cmp_side *sides,
		      unsigned int nr, const struct cmp_tally *t)
{
	struct strbuf page = STRBUF_INIT;
	const char *why = NULL;
	char *diffs;
	FILE *f = args->output ? sf_fopen_w(args->output, SF_NAMED, &why) :
		  stdout;
	int ret = 0;

	if (!f) {
		error("compare: cannot create '%s': %s", args->output, why);
		return -1;
	}
	diffs = option_diffs_text(args, sides, nr);
	cmp_html(args, sides, nr, t, diffs, &page);
	free(diffs);
	if (fwrite(page.buf, 1, page.len, f) != page.len || fflush(f)) {
		error("compare: cannot write '%s': %s", args->output ?
		      args->output : "the page", strerror(errno));
		ret = -1;
	}
	if (f != stdout && fclose(f) && !ret) {
		error("compare: cannot write '%s': %s", args->output,
		      strerror(errno));
		ret = -1;
	}
	strbuf_release(&page);
	return ret;
}

/*
 * The sides, labelled A, B, ...: run here (--run) or read from their
 * files. Returns 0, or -1 said on stderr.
 */
static int read_sides(const struct cmp_args *args, struct cmp_side *sides,
		      unsigned int nr)
{
	struct strbuf err = STRBUF_INIT;
	unsigned int s;
	int ret = 0;

	memset(sides, 0, CMP_MAX_SIDES * sizeof(*sides));
	for (s = 0; s < nr; s++) {
		sides[s].label = (char)('A' + s);
		sides[s].spec = args->specs[s];
	}
	if (!rio_available()) {
		error("compare: reading JSON needs jansson, and this iolite "
		      "was built without it (apt install libjansson-dev, then "
		      "rebuild)");
		return -1;
	}
	if (args->run)
		ret = cmp_run_sides(args, sides, nr, &err);
	for (s = 0; s < nr && !ret && !args->run; s++)
		ret = load_side(&sides[s], &err);
	if (!ret)
		ret = match_sweeps(sides, nr, &err);
	if (ret)
		error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* Side s against A: a table per job of A, then the jobs either lacks */
static void compare_side(const struct cmp_args *args,
			 const struct cmp_side *sides, unsigned int s,
			 FILE *out, struct cmp_tally *t)
{
	const struct rio_run *ra = &sides[0].doc.runs[0];
	unsigned int i;

	for (i = 0; i < ra->nr_jobs; i++)
		if (cmp_job_table(args, &sides[0], &sides[s],
				  ra->jobs[i].name, ra->jobs[i].dup,
				  out, t) == -ENOENT &&
		    args->fail_if_slower >= 0)
			cmp_unjudged(t, "%s: %c (%s) has no job of "
				     "that name%s", ra->jobs[i].name,
				     sides[s].label, sides[s].spec,
				     sides[s].doc.runs[0].nr_jobs ? "" :
				     " (it has no jobs at all)");
	if (!args->tsv) {
		list_unmatched(&sides[0], &sides[s], out);
		list_unmatched(&sides[s], &sides[0], out);
	}
}

/* The sides, the options that differ, the tables and the summary */
static void print_comparison(const struct cmp_args *args,
			     const struct cmp_side *sides, unsigned int nr,
			     FILE *out, struct cmp_tally *t)
{
	unsigned int s;

	if (!args->tsv) {
		for (s = 0; s < nr; s++)
			print_side(args, &sides[s], out);
		if (args->run)
			fprintf(out, "The sides ran here taking turns (%s), %u "
				"round%s.\n", nr == 2 ? "A B A B ..." :
				"A B C A B C ...", args->repeat,
				args->repeat == 1 ? "" : "s");
	}
	list_option_diffs(args, sides, nr, out);
	if (args->tsv)
		cmp_tsv_header(out);
	for (s = 1; s < nr; s++)
		compare_side(args, sides, s, out, t);
	if (args->fail_if_slower >= 0 && !t->rows && !t->unjudged)
		cmp_unjudged(t, "no metric was compared (%c has no jobs)",
			     sides[0].label);
	if (!args->tsv)
		summary(args, t, out);
}

/* 1 for a regression; 2 for what the gate could not judge; else 0 */
static int gate_status(const struct cmp_tally *t)
{
	if (t->regressions)
		return EXIT_REGRESSION;
	/* a gate fails closed: what it could not judge is an error */
	if (t->unjudged) {
		error("compare: --fail-if-slower cannot judge %u thing%s, so "
		      "the gate fails:\n%.*s", t->unjudged,
		      t->unjudged == 1 ? "" : "s",
		      (int)t->unjudgeable.len - 1, t->unjudgeable.buf);
		return EXIT_USAGE;
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct cmp_args args = { 0 };
	struct cmp_side sides[CMP_MAX_SIDES];
	struct cmp_tally t = { .regressed = STRBUF_INIT,
				.unjudgeable = STRBUF_INIT };
	FILE *out = stdout;
	unsigned int nr;
	int ret = parse_args(argc, argv, &args);

	if (ret >= 0) {
		release(&args, sides, 0, &t);
		return ret;
	}
	/* the page alone on stdout: the tables are worked out, not shown */
	if (args.html && !args.output) {
		out = fopen("/dev/null", "w");
		if (!out) {
			error("compare: cannot open /dev/null: %s",
			      strerror(errno));
			release(&args, sides, 0, &t);
			return EXIT_USAGE;
		}
	}
	nr = args.nr_specs;
	if (read_sides(&args, sides, nr)) {
		release(&args, sides, nr, &t);
		return EXIT_USAGE;
	}
	print_comparison(&args, sides, nr, out, &t);
	ret = gate_status(&t);
	if (args.html && write_html(&args, sides, nr, &t))
		ret = EXIT_USAGE;
	if (fflush(out)) {
		error("compare: cannot write the comparison: %s",
		      strerror(errno));
		ret = EXIT_USAGE;
	}
	if (out != stdout)
		fclose(out);
	release(&args, sides, nr, &t);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * --sweep: the values of a swept option (lists and ranges), the cross
 * product of several, and the job list made one copy per point
 * (sweep/sweep.h has the contract). Everything here happens before any
 * file is touched: every value is parsed by the option table, every
 * copied job is built and planned once.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/log.h"
#include "util/num.h"

#define AXIS_MAX_VALUES 1000

static void axis_add(struct sweep_axis *a, const char *v)
{
	a->vals = xrealloc(a->vals, (a->nr + 1) * sizeof(*a->vals));
	a->vals[a->nr++] = xstrdup(v);
}

static bool is_size_type(const struct opt_def *def)
{
	return def->type == OPT_SIZE || def->type == OPT_SIZE_DIR ||
	       def->type == OPT_SIZE_PCT || def->type == OPT_RANGE ||
	       def->type == OPT_RANGE_DIR;
}

/* A range's value as a job file would write it: 4096 -> "4k" for sizes. */
static void range_value(const struct opt_def *def, uint64_t v, char *buf,
			size_t len)
{
	static const char suffix[] = "kmgtp";
	unsigned int k = 0;

	while (is_size_type(def) && v && !(v % 1024) && k < 5) {
		v /= 1024;
		k++;
	}
	if (k)
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[k - 1]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* "A..B*F" or "A..B+S" into the axis. */
static int parse_range(const struct opt_def *def, struct sweep_axis *a,
		       const char *item, struct strbuf *err)
{
	const char *dots = strstr(item, "..");
	const char *op = strpbrk(dots + 2, "*+");
	char *lo_s, *hi_s;
	uint64_t lo, hi, step, v;
	int ret = -1;

	if (!op) {
		strbuf_addf(err, "option '--sweep': %s: range '%s' needs a step: "
			    "A..B*F (geometric) or A..B+S (arithmetic)",
			    def->name, item);
		return -1;
	}
	lo_s = xstrndup(item, (size_t)(dots - item));
	hi_s = xstrndup(dots + 2, (size_t)(op - dots - 2));
	if (num_parse_size(lo_s, 1024, &lo) || num_parse_size(hi_s, 1024, &hi) ||
	    num_parse_size(op + 1, 1024, &step)) {
		strbuf_addf(err, "option '--sweep': %s: range '%s': not numbers",
			    def->name, item);
		goto out;
	}
	if (lo > hi || (*op == '*' && (step < 2 || !lo)) ||
	    (*op == '+' && !step)) {
		strbuf_addf(err, "option '--sweep': %s: range '%s' is empty or "
			    "endless (A <= B; a factor of 2 or more from A > 0; "
			    "a step of 1 or more)", def->name, item);
		goto out;
	}
	for (v = lo; v <= hi; ) {
		char buf[32];

		if (a->nr >= AXIS_MAX_VALUES) {
			strbuf_addf(err, "option '--sweep': %s: more than %d values",
				    def->name, AXIS_MAX_VALUES);
			goto out;
		}
		range_value(def, v, buf, sizeof(buf));
		axis_add(a, buf);
		/* the next value would pass B (or overflow): the last */
		if (*op == '*' ? v > hi / step : step > hi - v)
			break;
		v = *op == '*' ? v * step : v + step;
	}
	ret = 0;
out:
	free(lo_s);
	free(hi_s);
	return ret;
}

/* Every value of the axis parsed by the option's own row. */
static int check_values(const struct opt_def *def, const struct sweep_axis *a,
			struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < a->nr && !ret; i++) {
		struct job_options o;

		memset(&o, 0, sizeof(o));
		opt_defaults(&o);
		if (opt_set_def(def, &o, a->vals[i], 1024, &e)) {
			strbuf_addf(err, "option '--sweep': %s", strbuf_str(&e));
			ret = -1;
		}
		job_options_release(&o);
	}
	strbuf_release(&e);
	return ret;
}

int sweep_parse(struct sweep_spec *s, const char *arg, struct strbuf *err)
{
	const char *eq = strchr(arg, '='), *p;
	const struct opt_def *def;
	struct sweep_axis a = { NULL, NULL, 0 };
	char *name;
	unsigned int i;

	if (!eq || eq == arg || !eq[1]) {
		strbuf_addf(err, "option '--sweep': '%s' is not OPTION=VALUES "
			    "(iodepth=1,2,4 or iodepth=1..128*2)", arg);
		return -1;
	}
	name = xstrndup(arg, (size_t)(eq - arg));
	def = opt_lookup(name);
	if (!def) {
		const char *hint = opt_suggest(name);

		strbuf_addf(err, "option '--sweep': unknown option '%s'", name);
		if (hint)
			strbuf_addf(err, " (did you mean '%s'?)", hint);
		free(name);
		return -1;
	}
	free(name);
	if (def->type == OPT_UNSUPPORTED || def->type == OPT_TOOL ||
	    !strcmp(def->name, "name") || (def->flags & OPT_F_GLOBAL_ONLY)) {
		strbuf_addf(err, "option '--sweep': option '%s' cannot be swept%s",
			    def->name, def->type == OPT_UNSUPPORTED ?
			    " (iolite does not support it yet)" : "");
		return -1;
	}
	for (i = 0; i < s->nr_axes; i++)
		if (!strcmp(s->axes[i].opt, def->name)) {
			strbuf_addf(err, "option '--sweep': '%s' is swept twice",
				    def->name);
			return -1;
		}
	a.opt = xstrdup(def->name);
	for (p = eq + 1; ; ) {
		const char *end = strchrnul(p, ',');
		char *item = xstrndup(p, (size_t)(end - p));
		int ret = 0;

		if (!*item) {
			strbuf_addf(err, "option '--sweep': %s: empty value in '%s'",
				    def->name, eq + 1);
			ret = -1;
		} else if (strstr(item, ".."))
			ret = parse_range(def, &a, item, err);
		else
			axis_add(&a, item);
		free(item);
		if (!ret && a.nr > AXIS_MAX_VALUES) {
			strbuf_addf(err, "option '--sweep': %s: more than %d values",
				    def->name, AXIS_MAX_VALUES);
			ret = -1;
		}
		if (ret) {
			s->axes = xrealloc(s->axes, (s->nr_axes + 1) *
					   sizeof(*s->axes));
			s->axes[s->nr_axes++] = a;	/* freed by release */
			return -1;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	s->axes = xrealloc(s->axes, (s->nr_axes + 1) * sizeof(*s->axes));
	s->axes[s->nr_axes++] = a;
	if (check_values(def, &a, err))
		return -1;
	s->nr_points = s->nr_points ? s->nr_points * a.nr : a.nr;
	if (s->nr_points > SWEEP_MAX_POINTS) {
		strbuf_addf(err, "option '--sweep': %u points are over the "
			    "limit of %d", s->nr_points, SWEEP_MAX_POINTS);
		return -1;
	}
	return 0;
}

/* The value of axis k at point p (the last axis varies fastest). */
static const char *point_value(const struct sweep_spec *s, unsigned int p,
			       unsigned int k)
{
	unsigned int j, div = 1;

	for (j = s->nr_axes; j-- > k + 1; )
		div *= s->axes[j].nr;
	return s->axes[k].vals[(p / div) % s->axes[k].nr];
}

static void copy_desc(struct job_desc *dst, const struct job_desc *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->name = xstrdup(src->name);
	dst->file = xstrdup(src->file);
	dst->line = src->line;
	for (i = 0; i < src->nr; i++)
		job_desc_add(dst, src->ents[i].key, src->ents[i].val,
			     src->ents[i].file, src->ents[i].line);
	dst->inherited = src->inherited;
}

/* "iodepth=4,force_async=1" */
static void point_label(const struct sweep_spec *s, unsigned int p,
			struct strbuf *sb)
{
	unsigned int k;

	for (k = 0; k < s->nr_axes; k++)
		strbuf_addf(sb, "%s%s=%s", k ? "," : "", s->axes[k].opt,
			    point_value(s, p, k));
}

/* Builds and plans one copied job: the point's combination is checked. */
static int check_job(const struct sweep_spec *s, unsigned int p,
		     const struct job_desc *jd, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	struct job_options o;
	struct job_plan plan;
	int ret;

	ret = job_build(jd, &o, &e);
	if (!ret) {
		memset(&plan, 0, sizeof(plan));
		ret = job_plan_build(&plan, &o, jd, &e);
		if (!ret)
			plan_release(&plan);
	}
	job_options_release(&o);
	if (ret) {
		strbuf_addstr(err, "option '--sweep': at ");
		point_label(s, p, err);
		strbuf_addf(err, ": %s", strbuf_str(&e));
	}
	strbuf_release(&e);
	return ret;
}

int sweep_expand(struct sweep_spec *s, struct job_list *jl,
		 struct strbuf *err)
{
	size_t base = jl->nr, i;
	struct job_desc *jobs;
	unsigned int p, k;

	if (!s->nr_axes || !base)
		return 0;
	if ((size_t)s->nr_points * base > RUNNER_MAX_JOBS) {
		strbuf_addf(err, "option '--sweep': %u points of %zu job%s make "
			    "%zu jobs, over the limit of %d", s->nr_points, base,
			    base == 1 ? "" : "s", (size_t)s->nr_points * base,
			    RUNNER_MAX_JOBS);
		return -1;
	}
	jobs = xcalloc((size_t)s->nr_points * base, sizeof(*jobs));
	for (p = 0; p < s->nr_points; p++) {
		for (i = 0; i < base; i++) {
			struct job_desc *jd = &jobs[p * base + i];

			copy_desc(jd, &jl->jobs[i]);
			for (k = 0; k < s->nr_axes; k++)
				job_desc_add(jd, s->axes[k].opt,
					     point_value(s, p, k), "<sweep>", 0);
			if (p && !i)
				job_desc_add(jd, "stonewall", NULL, "<sweep>", 0);
		}
	}
	/* checked before anything is replaced: jl stays whole on error */
	for (p = 0; p < s->nr_points; p++)
		for (i = 0; i < base; i++)
			if (check_job(s, p, &jobs[p * base + i], err)) {
				for (i = 0; i < (size_t)s->nr_points * base; i++)
					job_desc_release(&jobs[i]);
				free(jobs);
				return -1;
			}
	for (i = 0; i < base; i++)
		job_desc_release(&jl->jobs[i]);
	free(jl->jobs);
	jl->jobs = jobs;
	jl->nr = jl->alloc = (size_t)s->nr_points * base;

	s->names = xcalloc(s->nr_axes, sizeof(*s->names));
	s->vals = xcalloc((size_t)s->nr_points * s->nr_axes, sizeof(*s->vals));
	for (k = 0; k < s->nr_axes; k++)
		s->names[k] = s->axes[k].opt;
	for (p = 0; p < s->nr_points; p++)
		for (k = 0; k < s->nr_axes; k++)
			s->vals[p * s->nr_axes + k] = point_value(s, p, k);
	s->rs.opts = s->names;
	s->rs.nr_opts = s->nr_axes;
	s->rs.vals = s->vals;
	s->rs.nr_points = s->nr_points;
	s->rs.jobs_per_point = (unsigned int)base;
	return 0;
}

void sweep_release(struct sweep_spec *s)
{
	unsigned int k, i;

	for (k = 0; k < s->nr_axes; k++) {
		for (i = 0; i < s->axes[k].nr; i++)
			free(s->axes[k].vals[i]);
		free(s->axes[k].vals);
		free(s->axes[k].opt);
	}
	free(s->axes);
	free(s->names);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}

/* SPDX-License-Identifier: MIT */
/* A sweep's charts: see sweepplot.h. */
#include "plot/sweepplot.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/resplot.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "util/log.h"
#include "util/num.h"

/* The figures drawn against the swept value. */
enum metric { M_IOPS, M_BW, M_P50, M_P99, M_P999, M_NR };

static const char *const metric_id[M_NR] = {
	"sweep-iops", "sweep-bw", "sweep-p50", "sweep-p99", "sweep-p99.9",
};
static const double metric_pct[M_NR] = { 0, 0, 50, 99, 99.9 };

/* flagged points: rings in a colour no series of a small sweep takes */
#define FLAG_COLOUR 6	/* black (plot/chart.c's palette) */

/* One job at one point: where it sits on the x axis and in the legend. */
struct spoint {
	const struct rio_job *j;
	double x;		/* the value, or its category */
	unsigned int series;
};

struct sweep {
	const struct rio_run *r;
	const char *xopt;	/* the swept option on the x axis */
	struct spoint *p;
	unsigned int nr;
	char **names;		/* series names */
	unsigned int nr_names;
	const char **cats;	/* values that are not numbers: categories */
	unsigned int nr_cats;
	enum axis_scale scale;
};

static const char *sweep_val(const struct rio_job *j, const char *key)
{
	unsigned int i;

	for (i = 0; i < j->nr_sweep; i++)
		if (!strcmp(j->sweep[i].key, key))
			return j->sweep[i].val ? j->sweep[i].val : "";
	return NULL;
}

bool sweepplot_is_sweep(const struct rio_run *r)
{
	unsigned int i;

	if (r->nr_sweep_opts)
		return true;
	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].nr_sweep)
			return true;
	return false;
}

/* "j1", or "j1 bs=4k" for the other swept options' values */
static unsigned int series_of(struct sweep *sw, const struct rio_job *j)
{
	struct strbuf n = STRBUF_INIT;
	unsigned int i;

	strbuf_addstr(&n, j->name);
	for (i = 0; i < j->nr_sweep; i++)
		if (strcmp(j->sweep[i].key, sw->xopt))
			strbuf_addf(&n, " %s=%s", j->sweep[i].key,
				    j->sweep[i].val ? j->sweep[i].val : "");
	for (i = 0; i < sw->nr_names; i++)
		if (!strcmp(sw->names[i], n.buf))
			break;
	if (i == sw->nr_names) {
		sw->names = xrealloc(sw->names, (i + 1) * sizeof(*sw->names));
		sw->names[sw->nr_names++] = strbuf_detach(&n);
	}
	strbuf_release(&n);
	return i;
}

/* A value as a number: plain (1.5, 32) or a size (4k); false if neither */
static bool value_num(const char *s, double *out)
{
	uint64_t u;

	if (!num_parse_double(s, out))
		return true;
	if (num_parse_size(s, 1024, &u))
		return false;
	*out = (double)u;
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Geometric values (1 2 4 8, 4k 16k 64k): positive, not evenly spaced
 * (10 20 30 is linear), each step a like ratio of 1.5 or more; two
 * values: a factor 4 apart
 */
static bool geometric(const struct sweep *sw)
{
	double *v = xcalloc(sw->nr + 1, sizeof(*v)), lo = INFINITY, hi = 0;
	double dlo = INFINITY, dhi = 0;
	unsigned int i, n = 0;
	bool geo = true;

	for (i = 0; i < sw->nr; i++)
		v[n++] = sw->p[i].x;
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 1, n = n ? 1 : 0; i < sw->nr; i++)
		if (v[i] != v[n - 1])
			v[n++] = v[i];
	if (n < 2 || v[0] <= 0)
		geo = false;
	for (i = 1; geo && i < n; i++) {
		lo = fmin(lo, v[i] / v[i - 1]);
		hi = fmax(hi, v[i] / v[i - 1]);
		dlo = fmin(dlo, v[i] - v[i - 1]);
		dhi = fmax(dhi, v[i] - v[i - 1]);
	}
	if (geo && n == 2)
		geo = lo >= 4;
	else if (geo)
		geo = dhi / dlo > 1.15 && lo >= 1.5 && hi / lo < 1.6;
	free(v);
	return geo;
}

/* How many values option key takes over the run; *numbers: all numbers */
static unsigned int opt_values(const struct rio_run *r, const char *key,
			       bool *numbers)
{
	const char **seen = xcalloc(r->nr_jobs + 1, sizeof(*seen));
	unsigned int i, k, n = 0;
	double x;

	*numbers = true;
	for (i = 0; i < r->nr_jobs; i++) {
		const char *v = sweep_val(&r->jobs[i], key);

		if (!v)
			continue;
		*numbers &= value_num(v, &x);
		for (k = 0; k < n && strcmp(seen[k], v); k++)
			;
		if (k == n)
			seen[n++] = v;
	}
	free(seen);
	return n;
}

/*
 * The x axis: the swept option with numbers for values, three or more,
 * and the most of them (the first such in the sweep's order on a tie),
 * so that a 0/1 switch or a string goes into the legend and the queue
 * depth onto the axis whichever --sweep came first; without one, the
 * option with the most values (numbers first on a tie).
 */
static const char *choose_xopt(const struct rio_run *r)
{
	const char *const *opts = (const char *const *)r->sweep_opts;
	unsigned int nr = r->nr_sweep_opts, i, best = 0, n;
	const char *x = NULL;
	bool num, best_num = false;

	if (!nr) {
		for (i = 0; i < r->nr_jobs && !r->jobs[i].nr_sweep; i++)
			;
		if (i == r->nr_jobs)
			return NULL;
		return r->jobs[i].sweep[0].key;
	}
	for (i = 0; i < nr; i++) {
		n = opt_values(r, opts[i], &num);
		num &= n >= 3;	/* a numeric axis needs a curve's worth */
		if (!x || (num && !best_num) ||
		    (num == best_num && n > best)) {
			x = opts[i];
			best = n;
			best_num = num;
		}
	}
	return x;
}

static bool powers_of_two(const struct sweep *sw)
{
	unsigned int i;
	int e;

	for (i = 0; i < sw->nr; i++)
		if (frexp(sw->p[i].x, &e) != 0.5)
			return false;
	return sw->nr > 0;
}

static void sweep_build(struct sweep *sw)
{
	const struct rio_run *r = sw->r;
	bool numbers = true;
	unsigned int i, c;

	sw->xopt = choose_xopt(r);
	for (i = 0; i < r->nr_jobs; i++) {
		const char *v;

		if (!r->jobs[i].nr_sweep)
			continue;
		if (!sw->xopt)
			sw->xopt = r->jobs[i].sweep[0].key;
		v = sweep_val(&r->jobs[i], sw->xopt);
		if (!v)
			continue;
		sw->p = xrealloc(sw->p, (sw->nr + 1) * sizeof(*sw->p));
		sw->p[sw->nr].j = &r->jobs[i];
		sw->p[sw->nr].series = series_of(sw, &r->jobs[i]);
		numbers &= value_num(v, &sw->p[sw->nr].x);
		sw->nr++;
	}
	if (numbers) {
		sw->scale = geometric(sw) ? (powers_of_two(sw) ? AXIS_LOG2 :
					     AXIS_LOG) : AXIS_LINEAR;
		return;
	}
	/* categories, in the order the points came */
	sw->scale = AXIS_CAT;
	sw->cats = xcalloc(sw->nr + 1, sizeof(*sw->cats));
	for (i = 0; i < sw->nr; i++) {
		const char *v = sweep_val(sw->p[i].j, sw->xopt);

		for (c = 0; c < sw->nr_cats; c++)
			if (!strcmp(sw->cats[c], v))
				break;
		if (c == sw->nr_cats)
			sw->cats[sw->nr_cats++] = v;
		sw->p[i].x = c;
	}
}

static void sweep_release(struct sweep *sw)
{
	unsigned int i;

	for (i = 0; i < sw->nr_names; i++)
		free(sw->names[i]);
	free(sw->names);
	free(sw->p);
	free(sw->cats);
}

static const enum rio_rep_metric rep_metric[M_NR] = {
	RIO_REP_IOPS, RIO_REP_BW, RIO_REP_P50, RIO_REP_P99, RIO_REP_P999,
};

/*
 * The figure m of one job and direction; false when the file lacks it.
 * A repeated sweep's point: the mean over the runs, its interval in
 * *ci (else NULL), as the file's repeat summary has them.
 */
static bool point_metric(const struct rio_job *j, unsigned int dir,
			 enum metric m, const char **kind, double *out,
			 const struct rio_ci **ci)
{
	const struct rio_dir_result *d = &j->dir[dir];
	const struct rio_lat *l = d->clat.s.n ? &d->clat : &d->lat;
	uint64_t v;

	*kind = d->clat.s.n ? "clat" : "lat";
	if (ci)
		*ci = NULL;
	if (!resplot_dir_used(d))
		return false;
	/* the summary's percentiles are clat's */
	if (j->rep && j->rep->dir[dir].present && (m < M_P50 || d->clat.s.n)) {
		if (ci)
			*ci = &j->rep->dir[dir].m[rep_metric[m]];
		*out = j->rep->dir[dir].m[rep_metric[m]].mean;
		return true;
	}
	if (m == M_IOPS)
		*out = d->iops;
	else if (m == M_BW)
		*out = d->bw_bytes;
	else if (rio_percentile(l, metric_pct[m], &v) < 0)
		return false;
	else
		*out = (double)v;
	return true;
}

/*
 * Is a point flagged (why into why)? A repeated sweep's point by its
 * runs: flagged runs left out of its interval are said, not ringed
 * (returns false); flagged runs kept in it are ringed
 */
static bool point_flagged(const struct rio_job *j, unsigned int d,
			  struct strbuf *why)
{
	const struct rio_rep_dir *rd = j->rep ? &j->rep->dir[d] : NULL;
	unsigned int i;

	if (!rd || !rd->present)
		return resplot_flagged(j, d, why);
	strbuf_reset(why);
	for (i = 0; i < rd->nr_left_out; i++)
		strbuf_addf(why, "%s%u", i ? ", " : "run ", rd->left_out[i]);
	if (rd->nr_left_out)
		strbuf_addstr(why, ": flagged, left out of the interval");
	if (rd->flagged_kept)
		strbuf_addstr(why, "flagged runs kept in the interval (fewer "
			      "than two others)");
	return rd->flagged_kept;
}

/* The flagged points of chart c as a series of rings, each saying why. */
static void flag_marks(struct chart *c, const struct sweep *sw, unsigned int d,
		       enum metric xm, enum metric m)
{
	struct strbuf why = STRBUF_INIT, tip = STRBUF_INIT;
	struct chart_series *cs = NULL;
	const char *kind;
	unsigned int i;
	double x, y;

	for (i = 0; i < sw->nr; i++) {
		const struct spoint *p = &sw->p[i];

		if (!point_flagged(p->j, d, &why) ||
		    !point_metric(p->j, d, m, &kind, &y, NULL))
			continue;
		x = p->x;
		if (xm < M_NR && !point_metric(p->j, d, xm, &kind, &x, NULL))
			continue;
		if (!cs) {
			cs = chart_add(c, SERIES_DOTS, "flagged by iolite");
			cs->colour = FLAG_COLOUR;
			cs->ring = true;
		}
		chart_point(cs, x, y);
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%s, %s=%s: %s", sw->names[p->series],
			    sw->xopt, sweep_val(p->j, sw->xopt), why.buf);
		chart_mark(cs, x, y, tip.buf);
	}
	strbuf_release(&why);
	strbuf_release(&tip);
}

static int cmp_spoint(const void *a, const void *b)
{
	const struct spoint *x = a, *y = b;

	return x->x < y->x ? -1 : x->x > y->x;
}

/*
 * A line per series of metric m against the swept value (xm M_NR) or
 * against metric xm, in the points' order, each point marked with its
 * values in the tooltip.
 */
static void series_lines(struct chart *c, const struct sweep *sw,
			 unsigned int d, enum metric xm, enum metric m,
			 enum axis_unit u)
{
	struct strbuf tip = STRBUF_INIT;
	const struct rio_ci *ci;
	const char *kind;
	unsigned int s, i;
	double x, y;

	for (s = 0; s < sw->nr_names; s++) {
		struct chart_series *cs = NULL;

		for (i = 0; i < sw->nr; i++) {
			const struct spoint *p = &sw->p[i];

			x = p->x;
			if (p->series != s ||
			    !point_metric(p->j, d, m, &kind, &y, &ci) ||
			    (xm < M_NR &&
			     !point_metric(p->j, d, xm, &kind, &x, NULL)))
				continue;
			if (!cs) {
				cs = chart_add(c, SERIES_LINE, sw->names[s]);
				cs->colour = s;
			}
			chart_point(cs, x, y);
			if (ci)
				chart_err(cs, ci->lo, ci->hi);
			strbuf_reset(&tip);
			strbuf_addf(&tip, "%s, %s=%s: ", sw->names[s], sw->xopt,
				    sweep_val(p->j, sw->xopt));
			if (xm < M_NR) {
				chart_fmt(&tip, x, UNIT_NONE, 4);
				strbuf_addstr(&tip, " IOPS, p99 ");
			}
			chart_fmt(&tip, y, u, 4);
			if (ci) {
				strbuf_addf(&tip, " (mean of %u runs, interval ",
					    p->j->rep->runs);
				chart_fmt(&tip, ci->lo, u, 4);
				strbuf_addstr(&tip, " .. ");
				chart_fmt(&tip, ci->hi, u, 4);
				strbuf_addch(&tip, ')');
			}
			chart_mark(cs, x, y, tip.buf);
		}
	}
	strbuf_release(&tip);
}

static void sweep_chart(struct sink *k, const struct sweep *sw, unsigned int d,
			enum metric m)
{
	struct strbuf t = STRBUF_INIT;
	const char *kind = "clat";
	enum axis_unit u = m == M_IOPS ? UNIT_NONE : m == M_BW ? UNIT_BPS :
			   UNIT_NS;
	unsigned int i;
	struct chart c;
	double y;

	for (i = 0; i < sw->nr; i++)
		if (point_metric(sw->p[i].j, d, m, &kind, &y, NULL))
			break;
	strbuf_addf(&t, "%s: ", rio_dir_name[d]);
	if (m == M_IOPS)
		strbuf_addstr(&t, "IOPS");
	else if (m == M_BW)
		strbuf_addstr(&t, "bandwidth");
	else
		strbuf_addf(&t, "%s p%g", kind, metric_pct[m]);
	strbuf_addf(&t, " against %s", sw->xopt);
	chart_init(&c, metric_id[m], t.buf);
	c.x = (struct chart_axis){ .scale = sw->scale, .title = sw->xopt,
				   .cats = sw->cats, .nr_cats = sw->nr_cats };
	/* a log axis from the lowest point to the highest, not decades */
	if (sw->scale == AXIS_LOG || sw->scale == AXIS_LOG2) {
		c.x.fixed = true;
		c.x.min = c.x.max = sw->p[0].x;
		for (i = 1; i < sw->nr; i++) {
			c.x.min = fmin(c.x.min, sw->p[i].x);
			c.x.max = fmax(c.x.max, sw->p[i].x);
		}
	}
	c.y = (struct chart_axis){ .scale = m >= M_P50 ? AXIS_LOG : AXIS_LINEAR,
				   .unit = u, .zero = m < M_P50,
				   .title = m == M_IOPS ? "IOPS" : m == M_BW ?
					    "bandwidth" : kind };
	c.legend = true;
	series_lines(&c, sw, d, M_NR, m, u);
	flag_marks(&c, sw, d, M_NR, m);
	if (c.nr)
		sink_chart(k, &c, m >= M_P50 ? "From each point's percentiles "
			   "(the json+ histogram when the list lacks one); "
			   "hover a point for its value." : "Hover a point for "
			   "its value.");
	else
		chart_release(&c);
	strbuf_release(&t);
}

/*
 * Latency against IOPS, a series' points joined in the swept option's
 * order: where a deeper queue stops buying IOPS and only adds latency
 * (the "hockey stick" of a queue-depth sweep).
 */
static void sweep_hockey(struct sink *k, const struct sweep *sw,
			 unsigned int d)
{
	struct strbuf t = STRBUF_INIT;
	const char *kind = "clat";
	unsigned int i;
	struct chart c;
	double y;

	for (i = 0; i < sw->nr; i++)
		if (point_metric(sw->p[i].j, d, M_P99, &kind, &y, NULL))
			break;
	strbuf_addf(&t, "%s: %s p99 against IOPS", rio_dir_name[d], kind);
	chart_init(&c, "sweep-lat-iops", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_NONE,
				   .zero = true, .title = "IOPS" };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = kind };
	c.legend = true;
	series_lines(&c, sw, d, M_IOPS, M_P99, UNIT_NS);
	flag_marks(&c, sw, d, M_IOPS, M_P99);
	if (c.nr)
		sink_chart(k, &c, "Each point a point of the sweep, joined in "
			   "the order of the swept value: where the line turns "
			   "up, more of it buys latency, not IOPS.");
	else
		chart_release(&c);
	strbuf_release(&t);
}

/* A cell of the table: the figure, its interval under it (repeats). */
static void table_cell(struct strbuf *sb, const struct rio_job *j,
		       unsigned int d, enum metric m)
{
	enum axis_unit u = m == M_IOPS ? UNIT_NONE : m == M_BW ? UNIT_BPS :
			   UNIT_NS;
	const struct rio_ci *ci;
	const char *kind;
	double y;

	if (!point_metric(j, d, m, &kind, &y, &ci)) {
		strbuf_addstr(sb, "<td></td>");
		return;
	}
	strbuf_addf(sb, "<td data-m=\"%s\" data-v=\"%.17g\"", metric_id[m] + 6,
		    y);
	if (ci)
		strbuf_addf(sb, " data-lo=\"%.17g\" data-hi=\"%.17g\"", ci->lo,
			    ci->hi);
	strbuf_addch(sb, '>');
	chart_fmt(sb, y, u, 4);
	if (ci) {
		strbuf_addstr(sb, "<br/><small>");
		chart_fmt(sb, ci->lo, u, 4);
		strbuf_addstr(sb, " .. ");
		chart_fmt(sb, ci->hi, u, 4);
		strbuf_addstr(sb, "</small>");
	}
	strbuf_addstr(sb, "</td>");
}

/*
 * The CPU per I/O of every direction, as the terminal's sweep table has
 * it: the job's user and system time, iolite's own user time, the most
 * io-wq workers and their CPU time (the file's numbers in data-v)
 */
static void cpu_cells(struct strbuf *sb, const struct rio_job *j)
{
	double ios = 0, v[5];
	unsigned int d, i;

	for (d = 0; d < RIO_DIR_NR - 1; d++)
		ios += (double)j->dir[d].total_ios;
	v[0] = ios ? j->usr_cpu / 100 * (double)j->run_ms * 1e6 / ios : 0;
	v[1] = ios ? j->sys_cpu / 100 * (double)j->run_ms * 1e6 / ios : 0;
	v[2] = j->usr_ns_per_io;
	v[3] = j->iowq_max_threads;
	v[4] = ios ? j->iowq_cpu_ms * 1e6 / ios : 0;
	for (i = 0; i < 5; i++) {
		strbuf_addf(sb, "<td data-m=\"%s\" data-v=\"%.17g\">",
			    (const char *const[]){ "usr-io", "sys-io", "own-io",
			    "iowq", "wq-io" }[i], v[i]);
		if (i == 3)
			strbuf_addf(sb, "%u", j->iowq_max_threads);
		else
			chart_fmt(sb, v[i], UNIT_NS, 3);
		strbuf_addstr(sb, "</td>");
	}
}

/* Every point's figures, the file's numbers in data-v */
static void sweep_table(struct sink *k, const struct sweep *sw, unsigned int d)
{
	static const char *const head[M_NR] = {
		"IOPS", "bandwidth", "p50", "p99", "p99.9",
	};
	struct strbuf *sb = k->page, why = STRBUF_INIT;
	unsigned int i, m;
	bool reps = false;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"sweep\"><thead>"
		      "<tr><th>series</th><th>");
	xml_text(sb, sw->xopt);
	strbuf_addstr(sb, "</th>");
	for (m = 0; m < M_NR; m++)
		strbuf_addf(sb, "<th>%s</th>", head[m]);
	strbuf_addstr(sb, "<th>usr/IO</th><th>sys/IO</th><th>own/IO</th>"
		      "<th>io-wq</th><th>wq/IO</th><th>flagged by iolite</th>"
		      "</tr></thead><tbody>\n");
	for (i = 0; i < sw->nr; i++) {
		const struct spoint *p = &sw->p[i];

		if (!resplot_dir_used(&p->j->dir[d]))
			continue;
		reps |= p->j->rep != NULL;
		strbuf_addf(sb, "<tr data-jobi=\"%u\" data-dir=\"%s\"><td>",
			    p->j->index, rio_dir_name[d]);
		xml_text(sb, sw->names[p->series]);
		strbuf_addstr(sb, "</td><td>");
		xml_text(sb, sweep_val(p->j, sw->xopt));
		strbuf_addstr(sb, "</td>");
		for (m = 0; m < M_NR; m++)
			table_cell(sb, p->j, d, m);
		cpu_cells(sb, p->j);
		strbuf_addstr(sb, "<td data-flag=\"");
		point_flagged(p->j, d, &why);
		xml_text(sb, why.buf);
		strbuf_addstr(sb, "\">");
		xml_text(sb, why.buf);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></div>\n<p class=\"sub\">");
	if (reps)
		strbuf_addstr(sb, "Each figure the mean over the runs, its "
			      "confidence interval under it (the repeat "
			      "summary's). ");
	strbuf_addf(sb, "CPU per I/O of every direction%s: the job's user "
		    "and system time, iolite's own user time; io-wq: the most "
		    "io_uring io-wq workers at once, wq/IO their CPU time per "
		    "I/O. A point flagged by iolite is ringed in the charts%s."
		    "</p>\n", reps ? " (the last run's)" : "", reps ? "; its "
		    "runs flagged are left out of its interval while two "
		    "others remain" : "");
	strbuf_release(&why);
}

void sweepplot_run(struct sink *k, const struct rio_run *r)
{
	struct sweep sw = { .r = r };
	unsigned int d, i, m;

	sweep_build(&sw);
	if (!sw.nr) {
		sink_html(k, "<p>A sweep without points: nothing to draw.</p>\n");
		sweep_release(&sw);
		return;
	}
	/* points in the x order, so that lines run left to right */
	qsort(sw.p, sw.nr, sizeof(*sw.p), cmp_spoint);
	if (k->o->format == PLOT_HTML) {
		strbuf_addstr(k->page, "<h2 id=\"sweep\">Sweep of ");
		xml_text(k->page, sw.xopt);
		for (i = 0; i < r->nr_sweep_opts; i++) {
			if (!strcmp(r->sweep_opts[i], sw.xopt))
				continue;
			strbuf_addstr(k->page, " \303\227 ");	/* x */
			xml_text(k->page, r->sweep_opts[i]);
		}
		strbuf_addf(k->page, "</h2>\n<p class=\"sub\">%u job%s at "
			    "the points, %u series</p>\n", sw.nr, sw.nr == 1 ? "" : "s",
			    sw.nr_names);
	}
	for (d = 0; d < RIO_DIR_NR; d++) {
		bool any = false;

		for (i = 0; i < sw.nr; i++)
			any |= resplot_dir_used(&sw.p[i].j->dir[d]);
		if (!any)
			continue;
		if (k->o->format == PLOT_HTML)
			strbuf_addf(k->page, "<h3>%s</h3>\n", rio_dir_name[d]);
		sink_html(k, "<div class=\"grid\">\n");
		for (m = 0; m < M_NR; m++)
			sweep_chart(k, &sw, d, m);
		sweep_hockey(k, &sw, d);
		sink_html(k, "</div>\n");
		sweep_table(k, &sw, d);
	}
	sweep_release(&sw);
}

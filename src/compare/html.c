/* SPDX-License-Identifier: MIT */
/*
 * `iolite compare --output-format=html` (or -o FILE.html): the sides
 * overlaid, one page (plot/page.h). Per job of A (matched by name in
 * the others, as the tables match them) and direction:
 *
 * - latency by percentile, a series per side on one chart: one run, its
 *   curve as `iolite plot` draws it (json+ bins, else the listed
 *   percentiles); several runs, the mean over the runs at each listed
 *   percentile, whiskers from the lowest run to the highest, the
 *   confidence interval in the tooltip;
 * - IOPS and bandwidth, a bar per side with the confidence interval of
 *   its mean as an error bar: Student's t over the runs (two or more),
 *   else batch means over the one run's per-interval samples (iolite's
 *   samples, or fio's --status-interval reports), the methods of the
 *   text tables (compare/stats.h); no bar when neither applies, and the
 *   caption says why.
 *
 * Every figure drawn is in a table too, with its exact value and
 * interval in data attributes (data-side, data-dir, data-m, data-v,
 * data-lo, data-hi) for tests and scripts.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "compare/stats.h"
#include "plot/chart.h"
#include "plot/latseries.h"
#include "plot/page.h"
#include "plot/resplot.h"
#include "plot/svg.h"
#include "util/log.h"

/* One side's figure: the mean over its runs and its interval. */
struct est {
	double mean, lo, hi;
	unsigned int runs;
	bool ci;
	bool runs_ci;		/* ... over the runs: lo and hi are set */
	const char *how;	/* "runs", "batch means", why not */
};

/* side s's job (name, dup) direction d in run r, or NULL */
static const struct rio_dir_result *dir_of(const struct cmp_side *s,
					   unsigned int r, const char *name,
					   unsigned int dup, unsigned int d)
{
	const struct rio_job *j = rio_find_job(&s->doc.runs[r], name, dup);

	/* the runs the file's repeat summary left out, as the table does */
	return j && resplot_dir_used(&j->dir[d]) &&
	       !cmp_left_out(s, r, name, dup, d) ? &j->dir[d] : NULL;
}

/* IOPS (bw false) or bandwidth in bytes/s of side s, with its interval */
static void rate_est(const struct cmp_side *s, double conf, const char *name,
		     unsigned int dup, unsigned int d, bool bw, struct est *e)
{
	double *v = xcalloc(s->doc.nr_runs + 1, sizeof(*v));
	const struct rio_dir_result *first = NULL;
	struct cmp_est ce;
	unsigned int r, n = 0, k;

	memset(e, 0, sizeof(*e));
	for (r = 0; r < s->doc.nr_runs; r++) {
		const struct rio_dir_result *dr = dir_of(s, r, name, dup, d);

		if (!dr)
			continue;
		first = first ? first : dr;
		v[n++] = bw ? dr->bw_bytes : dr->iops;
	}
	e->runs = n;
	e->how = "no interval: one run without enough per-interval samples";
	if (n >= 2 && !cmp_runs_interval(v, n, conf, &e->mean, &e->lo,
					 &e->hi)) {
		/* on the logarithms: never below zero (compare/stats.h) */
		e->how = "t over the runs";
		e->runs_ci = true;
	} else if (n == 1) {
		const struct rio_series *sr = bw ? &first->bw_series :
					      &first->iops_series;
		double scale = bw ? 1024.0 : 1.0;

		ce.mean = v[0];
		k = cmp_batches_for(sr->nr);
		if (k && !cmp_est_batches(sr->v, sr->nr, k, &ce, NULL)) {
			ce.mean = v[0];
			ce.se2 *= scale * scale;
			e->how = "batch means of the run's samples";
			e->ci = true;
		}
	}
	if (e->runs_ci) {
		e->ci = true;
		free(v);
		return;
	}
	e->mean = n ? v[0] : NAN;
	if (e->ci) {
		double h = ce.df > 0 ? cmp_t_quantile(0.5 + conf / 2, ce.df) *
				       sqrt(ce.se2) : 0;

		e->lo = e->mean - h;
		e->hi = e->mean + h;
	}
	free(v);
}

static void side_name(struct strbuf *sb, const struct cmp_side *s)
{
	strbuf_addf(sb, "%c: %s", s->label, s->spec);
}

/* --- latency by percentile, the sides overlaid ----------------------- */

/*
 * Several runs: the mean at each listed percentile, whiskers from the
 * lowest run's value to the highest (a t interval of a few runs' tail
 * percentiles reaches below zero, which a log axis cannot show); the
 * tooltip has the interval.
 */
static void mean_pct_series(struct chart_series *cs, const struct cmp_side *s,
			    const char *name, unsigned int dup, unsigned int d,
			    double conf, double pmax)
{
	const struct rio_dir_result *dr0 = dir_of(s, 0, name, dup, d);
	double *v = xcalloc(s->doc.nr_runs + 1, sizeof(*v));
	struct strbuf tip = STRBUF_INIT;
	unsigned int i, r, n;

	for (i = 0; dr0 && i < dr0->clat.nr_pct; i++) {
		double p = dr0->clat.pct[i].p, h = 0, lo = INFINITY, hi = 0;
		struct cmp_est ce;

		if (p > pmax + 1e-9)
			continue;
		for (r = 0, n = 0; r < s->doc.nr_runs; r++) {
			const struct rio_dir_result *dr = dir_of(s, r, name, dup, d);
			uint64_t x;

			if (!dr || rio_percentile(&dr->clat, p, &x) < 0)
				continue;
			v[n++] = (double)x;
			lo = fmin(lo, (double)x);
			hi = fmax(hi, (double)x);
		}
		if (n < 2 || cmp_est_runs(v, n, &ce))
			continue;
		chart_point(cs, p, ce.mean);
		chart_err(cs, lo, hi);
		if (ce.df > 0)
			h = cmp_t_quantile(0.5 + conf / 2, ce.df) * sqrt(ce.se2);
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%c: clat p%g = ", s->label, p);
		chart_fmt(&tip, ce.mean, UNIT_NS, 4);
		strbuf_addf(&tip, ", mean of %u runs, %.0f%% interval \302\261",
			    n, conf * 100);
		chart_fmt(&tip, h, UNIT_NS, 3);
		chart_mark(cs, p, ce.mean, tip.buf);
	}
	free(v);
	strbuf_release(&tip);
}

static void pct_chart(struct strbuf *page, const struct cmp_args *args,
		      const struct cmp_side *sides, unsigned int nr,
		      const char *name, unsigned int dup, unsigned int d)
{
	struct strbuf t = STRBUF_INIT, sn = STRBUF_INIT;
	bool several = false;
	uint64_t n = 0;
	unsigned int s;
	struct chart c;

	for (s = 0; s < nr; s++) {
		const struct rio_dir_result *dr = dir_of(&sides[s], 0, name, dup, d);

		if (dr && dr->clat.s.n > n)
			n = dr->clat.s.n;
		several |= sides[s].doc.nr_runs > 1;
	}
	strbuf_addf(&t, "%s: clat by percentile (%s)", rio_dir_name[d], name);
	chart_init(&c, "cmp-lat-pct", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true, .max = lat_pct_axis_max(n) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	c.legend = true;
	for (s = 0; s < nr; s++) {
		const struct rio_dir_result *dr = dir_of(&sides[s], 0, name, dup, d);
		struct chart_series *cs;

		if (!dr || !dr->clat.s.n)
			continue;
		strbuf_reset(&sn);
		side_name(&sn, &sides[s]);
		if (sides[s].doc.nr_runs > 1) {
			cs = chart_add(&c, SERIES_LINE, sn.buf);
			cs->colour = s;
			mean_pct_series(cs, &sides[s], name, dup, d, args->conf,
					c.x.max);
		} else {
			cs = chart_add(&c, dr->clat.nr_bins ? SERIES_STEP :
				       SERIES_LINE, sn.buf);
			cs->colour = s;
			resplot_lat_series(cs, &dr->clat, sn.buf, "clat",
					   c.x.max);
		}
	}
	strbuf_reset(&t);
	strbuf_addstr(&t, "One run: its curve (json+ histogram, else the "
		      "listed percentiles).");
	if (several)
		strbuf_addf(&t, " Several runs: the mean at each listed "
			    "percentile, whiskers from the lowest run to the "
			    "highest (hover: the %.0f%% interval).",
			    args->conf * 100);
	page_figure(page, &c, t.buf);
	chart_release(&c);
	strbuf_release(&t);
	strbuf_release(&sn);
}

/* --- IOPS and bandwidth bars with their intervals -------------------- */

static void rate_chart(struct strbuf *page, const struct cmp_args *args,
		       const struct cmp_side *sides, unsigned int nr,
		       const char *name, unsigned int dup, unsigned int d,
		       bool bw, struct est *e)
{
	const char **cats = xcalloc(nr, sizeof(*cats));
	char labels[CMP_MAX_SIDES][2];
	struct strbuf t = STRBUF_INIT;
	struct chart_series *cs;
	unsigned int s;
	struct chart c;

	for (s = 0; s < nr; s++) {
		labels[s][0] = sides[s].label;
		labels[s][1] = '\0';
		cats[s] = labels[s];
		rate_est(&sides[s], args->conf, name, dup, d, bw, &e[s]);
	}
	strbuf_addf(&t, "%s: %s (%s)", rio_dir_name[d], bw ? "bandwidth" :
		    "IOPS", name);
	chart_init(&c, bw ? "cmp-bw" : "cmp-iops", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .cats = cats,
				   .nr_cats = nr, .title = "side" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .zero = true,
				   .unit = bw ? UNIT_BPS : UNIT_NONE,
				   .title = bw ? "bandwidth" : "IOPS" };
	cs = chart_add(&c, SERIES_BAR, bw ? "bandwidth" : "IOPS");
	for (s = 0; s < nr; s++) {
		if (!e[s].runs)
			continue;
		chart_point(cs, s, e[s].mean);
		/* the side's colour in the percentile chart */
		chart_bar_colour(cs, s);
		if (e[s].ci)
			chart_err(cs, fmax(e[s].lo, 0), e[s].hi);
	}
	strbuf_reset(&t);
	strbuf_addf(&t, "Each side's mean; whiskers: its %.0f%% confidence "
		    "interval (", args->conf * 100);
	for (s = 0; s < nr; s++)
		strbuf_addf(&t, "%s%c: %s", s ? "; " : "", sides[s].label,
			    e[s].runs ? e[s].how : "no such job");
	strbuf_addstr(&t, ").");
	page_figure(page, &c, t.buf);
	chart_release(&c);
	free(cats);
	strbuf_release(&t);
}

static void est_table(struct strbuf *page, const struct cmp_side *sides,
		      unsigned int nr, unsigned int d, const struct est *iops,
		      const struct est *bw)
{
	unsigned int s, m;

	strbuf_addstr(page, "<table class=\"cmp\"><thead><tr><th>side</th>"
		      "<th>runs</th><th>IOPS</th><th>interval</th>"
		      "<th>bandwidth</th><th>interval</th></tr></thead><tbody>\n");
	for (s = 0; s < nr; s++) {
		strbuf_addf(page, "<tr><td>%c</td><td>%u</td>", sides[s].label,
			    iops[s].runs);
		for (m = 0; m < 2; m++) {
			const struct est *e = m ? &bw[s] : &iops[s];
			enum axis_unit u = m ? UNIT_BPS : UNIT_NONE;

			if (!e->runs) {
				strbuf_addstr(page, "<td></td><td></td>");
				continue;
			}
			strbuf_addf(page, "<td data-side=\"%c\" data-dir=\"%s\" "
				    "data-m=\"%s\" data-v=\"%.17g\"", sides[s].label,
				    rio_dir_name[d], m ? "bw" : "iops", e->mean);
			if (e->ci)
				strbuf_addf(page, " data-lo=\"%.17g\" "
					    "data-hi=\"%.17g\"", e->lo, e->hi);
			strbuf_addch(page, '>');
			chart_fmt(page, e->mean, u, 4);
			strbuf_addstr(page, "</td><td>");
			if (e->ci) {
				chart_fmt(page, e->lo, u, 4);
				strbuf_addstr(page, " to ");
				chart_fmt(page, e->hi, u, 4);
			} else {
				strbuf_addstr(page, "none");
			}
			strbuf_addstr(page, "</td>");
		}
		strbuf_addstr(page, "</tr>\n");
	}
	strbuf_addstr(page, "</tbody></table>\n");
}

static void job_section(struct strbuf *page, const struct cmp_args *args,
			const struct cmp_side *sides, unsigned int nr,
			const struct rio_job *ja)
{
	struct est iops[CMP_MAX_SIDES], bw[CMP_MAX_SIDES];
	unsigned int d, s;

	strbuf_addstr(page, "<section>\n<h2>job ");
	xml_text(page, ja->name);
	strbuf_addstr(page, "</h2>\n");
	for (d = 0; d < RIO_DIR_NR; d++) {
		bool any = false;

		for (s = 0; s < nr; s++)
			any |= dir_of(&sides[s], 0, ja->name, ja->dup, d) != NULL;
		if (!any)
			continue;
		strbuf_addf(page, "<h3>%s</h3>\n<div class=\"grid\">\n",
			    rio_dir_name[d]);
		pct_chart(page, args, sides, nr, ja->name, ja->dup, d);
		rate_chart(page, args, sides, nr, ja->name, ja->dup, d, false,
			   iops);
		rate_chart(page, args, sides, nr, ja->name, ja->dup, d, true, bw);
		strbuf_addstr(page, "</div>\n");
		est_table(page, sides, nr, d, iops, bw);
	}
	strbuf_addstr(page, "</section>\n");
}

/* "+8.80%" or "" (no figure to set against) */
static void pct_text(struct strbuf *sb, double x)
{
	if (isfinite(x))
		strbuf_addf(sb, "%+.2f%%", x * 100);
}

/* One row of the verdict: the change, its interval, the two words. */
static void verdict_row(struct strbuf *page, const struct cmp_vrow *v,
			double conf, double conf_all)
{
	const char *w = cmp_vrow_verdict(v, conf);
	const char *wall = cmp_vrow_verdict(v, conf_all);

	strbuf_addstr(page, "<tr><td>");
	xml_text(page, v->job);
	strbuf_addf(page, "</td><td>%s</td><td>%s</td><td>%c vs A</td>"
		    "<td data-change=\"%.17g\">", rio_dir_name[v->dir],
		    v->metric, v->side, v->a ? v->b / v->a - 1 : NAN);
	if (v->a)
		pct_text(page, v->b / v->a - 1);
	strbuf_addstr(page, "</td><td>");
	if (v->has_ci && v->ci.ratio_bounded) {
		pct_text(page, v->ci.ratio_lo - 1);
		strbuf_addstr(page, " .. ");
		pct_text(page, v->ci.ratio_hi - 1);
	} else {
		strbuf_addstr(page, v->has_ci ? "unbounded" : "none");
	}
	strbuf_addf(page, "</td><td class=\"v-%s\" data-verdict=\"%s\">%s"
		    "</td><td data-verdict-all=\"%s\">%s</td></tr>\n", w, w, w,
		    wall, wall);
}

/*
 * The answer first: each metric's change B vs A, its interval and the
 * word, then the same with every interval widened for all the metrics
 * tested (Bonferroni), and what differs between the sides' jobs.
 */
static void verdict_section(struct strbuf *page, const struct cmp_args *args,
			    const struct cmp_tally *t, const char *opt_diffs)
{
	struct cmp_tests c;
	unsigned int i;

	cmp_tests_count(t, args->conf, &c);
	strbuf_addstr(page, "<section id=\"verdict\">\n<h2>Verdict</h2>\n"
		      "<p class=\"answer\">");
	if (!c.found)
		strbuf_addf(page, "No significant difference in any of the "
			    "%u metrics with an interval (%g%% confidence).",
			    c.m, args->conf * 100);
	else
		strbuf_addf(page, "%u of the %u metrics with an interval "
			    "differ at %g%% confidence; %u of them hold with "
			    "every interval widened for all %u tested "
			    "(Bonferroni, %.4g%%): by chance alone about %.1f "
			    "would differ.", c.found, c.m, args->conf * 100,
			    c.hold, c.m, c.conf_all * 100,
			    c.m * (1 - args->conf));
	strbuf_addf(page, "</p>\n<table class=\"cmp verdict\"><thead><tr>"
		    "<th>job</th><th>direction</th><th>metric</th><th></th>"
		    "<th>change</th><th>%g%% interval</th><th>verdict</th>"
		    "<th>over all %u tests</th></tr></thead><tbody>\n",
		    args->conf * 100, c.m);
	for (i = 0; i < t->nr_vrows; i++)
		verdict_row(page, &t->vrows[i], args->conf, c.conf_all);
	strbuf_addstr(page, "</tbody></table>\n<h3>Job options that "
		      "differ</h3>\n<pre>");
	xml_text(page, opt_diffs);
	strbuf_addstr(page, "</pre>\n</section>\n");
}

void cmp_html(const struct cmp_args *args, const struct cmp_side *sides,
	      unsigned int nr, const struct cmp_tally *t,
	      const char *opt_diffs, struct strbuf *page)
{
	const struct rio_run *ra = &sides[0].doc.runs[0];
	struct strbuf v = STRBUF_INIT;
	unsigned int s, i;

	page_begin(page, "iolite compare");
	strbuf_addstr(page, "<h1>iolite compare</h1>\n<table class=\"kv\">\n");
	for (s = 0; s < nr; s++) {
		const char *ver = sides[s].doc.runs[0].version;
		char key[2] = { sides[s].label, '\0' };

		strbuf_reset(&v);
		strbuf_addf(&v, "%s (%u run%s%s%s)", sides[s].spec,
			    sides[s].doc.nr_runs,
			    sides[s].doc.nr_runs == 1 ? "" : "s",
			    *ver ? ", " : "", ver);
		page_kv(page, key, v.buf);
	}
	strbuf_addstr(page, "</table>\n");
	verdict_section(page, args, t, opt_diffs);
	for (i = 0; i < ra->nr_jobs; i++)
		job_section(page, args, sides, nr, &ra->jobs[i]);
	page_end(page);
	strbuf_release(&v);
}

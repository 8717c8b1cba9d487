/* SPDX-License-Identifier: MIT */
/* `iolite plot` on JSON results: see resplot.h. */
#include "plot/resplot.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot/jobcharts.h"
#include "plot/latseries.h"
#include "plot/page.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "plot/sweepplot.h"
#include "util/log.h"

/* The jobs of one group of a run, as indexes into r->jobs. */
struct rgroup {
	const struct rio_run *r;
	unsigned int gid;
	unsigned int *idx;
	unsigned int nr;
	char **label;	/* plot/page.h's page_job_labels */
};

static const struct rio_job *rjob(const struct rgroup *g, unsigned int k)
{
	return &g->r->jobs[g->idx[k]];
}

bool resplot_dir_used(const struct rio_dir_result *d)
{
	return d->present && (d->total_ios || d->io_bytes);
}

static void fmt(struct strbuf *sb, double v, enum axis_unit u)
{
	chart_fmt(sb, v, u, 4);
}

static void td_val(struct strbuf *sb, double v, enum axis_unit u)
{
	strbuf_addstr(sb, "<td>");
	fmt(sb, v, u);
	strbuf_addstr(sb, "</td>");
}

static struct chart_series *job_series(struct chart *c, enum series_kind kind,
				       const struct rgroup *g, unsigned int k)
{
	struct chart_series *s = chart_add(c, kind, g->label[k]);

	s->colour = k;
	return s;
}

/* "read: clat by percentile", and the job's name when it is alone */
static void chart_title(struct strbuf *t, const struct rgroup *g,
			unsigned int d, const char *what)
{
	strbuf_reset(t);
	strbuf_addf(t, "%s: %s", rio_dir_name[d], what);
	if (g->nr == 1)
		strbuf_addf(t, " (%s)", rjob(g, 0)->name);
}

/* --- latency --------------------------------------------------------- */

static const struct rio_lat *lat_of(const struct rio_dir_result *d,
				    const char *kind)
{
	if (!strcmp(kind, "slat"))
		return &d->slat;
	if (!strcmp(kind, "lat"))
		return &d->lat;
	return &d->clat;
}

/* The json+ bins back in the buckets they came from (NULL: none). */
static struct hist *bins_hist(const struct rio_lat *l)
{
	struct hist *h;
	unsigned int i;

	if (!l->nr_bins)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	for (i = 0; i < l->nr_bins; i++)
		hist_add_n(h, l->bins[i].v, l->bins[i].n);
	return h;
}

unsigned int resplot_lat_series(struct chart_series *s, const struct rio_lat *l,
				const char *who, const char *kind, double pmax)
{
	struct strbuf tip = STRBUF_INIT;
	struct hist *h = bins_hist(l);
	unsigned int i, marks = 0;

	if (h) {
		lat_quantile_series(s, h, l->s.min, l->s.max);
		free(h);
	} else {
		for (i = 0; i < l->nr_pct; i++)
			if (l->pct[i].p <= pmax + 1e-9)
				chart_point(s, l->pct[i].p, (double)l->pct[i].v);
	}
	for (i = 0; i < l->nr_pct; i++) {
		if (l->pct[i].p > pmax + 1e-9)
			continue;
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%s: %s p%g = ", who, kind, l->pct[i].p);
		chart_fmt(&tip, (double)l->pct[i].v, UNIT_NS, 4);
		chart_mark(s, l->pct[i].p, (double)l->pct[i].v, tip.buf);
		marks++;
	}
	strbuf_release(&tip);
	return marks;
}

static void pct_chart(struct sink *k, const struct rgroup *g, unsigned int d,
		      const char *kind)
{
	struct strbuf t = STRBUF_INIT, what = STRBUF_INIT;
	bool bins = false, marks = false;
	uint64_t n = 0;
	unsigned int j;
	struct chart c;

	for (j = 0; j < g->nr; j++)
		n = lat_of(&rjob(g, j)->dir[d], kind)->s.n > n ?
		    lat_of(&rjob(g, j)->dir[d], kind)->s.n : n;
	strbuf_addf(&what, "%s by percentile", kind);
	chart_title(&t, g, d, what.buf);
	chart_init(&c, "lat-pct", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true, .max = lat_pct_axis_max(n) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = kind };
	for (j = 0; j < g->nr; j++) {
		const struct rio_lat *l = lat_of(&rjob(g, j)->dir[d], kind);
		struct chart_series *s;

		if (!resplot_dir_used(&rjob(g, j)->dir[d]) || !l->s.n ||
		    (!l->nr_bins && !l->nr_pct))
			continue;
		bins |= l->nr_bins != 0;
		s = job_series(&c, l->nr_bins ? SERIES_STEP : SERIES_LINE, g, j);
		marks |= resplot_lat_series(s, l, g->label[j], kind,
					    c.x.max) != 0;
	}
	if (!c.nr) {
		chart_release(&c);
	} else {
		strbuf_reset(&what);
		strbuf_addstr(&what, bins ? "From the json+ histograms (values "
			      "within 0.8%)" : "Through the listed percentiles "
			      "(json+ has the full histogram)");
		strbuf_addstr(&what, marks ? "; dots: the listed percentiles "
			      "(hover for the value)." : ".");
		sink_chart(k, &c, what.buf);
	}
	strbuf_release(&t);
	strbuf_release(&what);
}

static void hist_chart(struct sink *k, const struct rgroup *g, unsigned int d)
{
	struct strbuf t = STRBUF_INIT;
	unsigned int j;
	struct chart c;

	chart_title(&t, g, d, "clat histogram");
	chart_init(&c, "lat-hist", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				   .title = "I/Os", .zero = true };
	for (j = 0; j < g->nr; j++) {
		const struct rio_dir_result *dr = &rjob(g, j)->dir[d];
		struct hist *h = bins_hist(&dr->clat);
		struct chart_series *s;

		if (!h || !resplot_dir_used(dr)) {
			free(h);
			continue;
		}
		s = job_series(&c, SERIES_STEP, g, j);
		s->fill = g->nr <= 3;
		lat_hist_series(s, h);
		free(h);
	}
	if (c.nr)
		sink_chart(k, &c, "Share of the I/Os in each twentieth of a "
			   "decade.");
	else
		chart_release(&c);
	strbuf_release(&t);
}

/* --- over time, per job ---------------------------------------------- */

static void time_chart(struct sink *k, const struct rgroup *g, unsigned int d,
		       bool bw)
{
	struct strbuf t = STRBUF_INIT, cap = STRBUF_INIT;
	double period = 0;
	bool reports = false;
	unsigned int j, i;
	struct chart c;

	chart_title(&t, g, d, bw ? "bandwidth over time" : "IOPS over time");
	chart_init(&c, bw ? "bw-time" : "iops-time", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR,
				   .unit = bw ? UNIT_BPS : UNIT_NONE,
				   .title = bw ? "bandwidth" : "IOPS",
				   .zero = true };
	for (j = 0; j < g->nr; j++) {
		const struct rio_dir_result *dr = &rjob(g, j)->dir[d];
		const struct rio_series *se = bw ? &dr->bw_series :
					      &dr->iops_series;
		struct chart_series *s;
		double p;

		if (!resplot_dir_used(dr) || !se->nr)
			continue;
		/* the file keeps the mean spacing, not each time */
		p = se->period_ms > 0 ? se->period_ms : 500;
		s = job_series(&c, SERIES_LINE, g, j);
		for (i = 0; i < se->nr; i++)
			chart_point(s, (double)(i + 1) * p,
				    se->v[i] * (bw ? 1024.0 : 1.0));
		period = p;
		reports |= se->from_reports;
	}
	if (reports)
		strbuf_addf(&cap, "The rates between successive "
			    "--status-interval reports (%.0f ms apart).", period);
	else
		strbuf_addf(&cap, "A point every %.0f ms (the file's samples, "
			    "evenly spaced).", period);
	if (c.nr)
		sink_chart(k, &c, cap.buf);
	else
		chart_release(&c);
	strbuf_release(&t);
	strbuf_release(&cap);
}

static void jobs_chart(struct sink *k, const struct rgroup *g, unsigned int d)
{
	const char **names = xcalloc(g->nr, sizeof(*names));
	struct strbuf t = STRBUF_INIT;
	struct chart_series *s;
	unsigned int j, nr = 0;
	struct chart c;

	chart_title(&t, g, d, "bandwidth per job");
	chart_init(&c, "bw-jobs", t.buf);
	for (j = 0; j < g->nr; j++)
		if (resplot_dir_used(&rjob(g, j)->dir[d]))
			names[nr++] = g->label[j];
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = nr,
				   .cats = names, .title = "job" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS,
				   .title = "bandwidth", .zero = true };
	s = chart_add(&c, SERIES_BAR, "bandwidth");
	for (j = 0, nr = 0; j < g->nr; j++) {
		const struct rio_dir_result *dr = &rjob(g, j)->dir[d];

		if (!resplot_dir_used(dr))
			continue;
		chart_point(s, nr++, dr->bw_bytes);
		chart_bar_colour(s, j);
		if (dr->bw_samples.n)
			chart_err(s, dr->bw_samples.min * 1024.0,
				  dr->bw_samples.max * 1024.0);
	}
	sink_chart(k, &c, "Each job's bandwidth; whiskers from its lowest to "
		   "its highest bandwidth sample.");
	free(names);
	strbuf_release(&t);
}

/* --- tables ---------------------------------------------------------- */

static void figures_table(struct sink *k, const struct rgroup *g,
			  unsigned int d)
{
	struct strbuf *sb = k->page;
	unsigned int j;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"fig\"><thead><tr>"
		      "<th>job</th><th>IOPS</th><th>bandwidth</th><th>I/Os</th>"
		      "<th>runtime</th><th>clat min</th><th>clat mean</th>"
		      "<th>clat max</th></tr></thead><tbody>\n");
	for (j = 0; j < g->nr; j++) {
		const struct rio_dir_result *dr = &rjob(g, j)->dir[d];

		if (!resplot_dir_used(dr))
			continue;
		strbuf_addf(sb, "<tr data-jobi=\"%u\" data-dir=\"%s\" "
			    "data-iops=\"%f\" data-bw=\"%.0f\" data-ios=\"%"
			    PRIu64 "\" data-runtime=\"%" PRIu64 "\" "
			    "data-clat-mean=\"%f\"><td>", g->idx[j],
			    rio_dir_name[d], dr->iops, dr->bw_bytes,
			    dr->total_ios, dr->runtime_ms, dr->clat.s.mean);
		xml_text(sb, g->label[j]);
		strbuf_addstr(sb, "</td>");
		td_val(sb, dr->iops, UNIT_NONE);
		td_val(sb, dr->bw_bytes, UNIT_BPS);
		strbuf_addf(sb, "<td>%" PRIu64 "</td><td>%" PRIu64 " ms</td>",
			    dr->total_ios, dr->runtime_ms);
		td_val(sb, dr->clat.s.min, UNIT_NS);
		td_val(sb, dr->clat.s.mean, UNIT_NS);
		td_val(sb, dr->clat.s.max, UNIT_NS);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

static void pct_block(struct strbuf *sb, const struct rgroup *g, unsigned int d,
		      const char *kind, const struct rio_lat *first,
		      unsigned int b)
{
	unsigned int e = b + PAGE_PCT_COLS < first->nr_pct ?
			 b + PAGE_PCT_COLS : first->nr_pct, i, j;

	strbuf_addf(sb, "<tbody><tr class=\"ph\"><th>%s percentiles</th>", kind);
	for (i = b; i < e; i++)
		strbuf_addf(sb, "<th>%g</th>", first->pct[i].p);
	strbuf_addstr(sb, "</tr>\n");
	for (j = 0; j < g->nr; j++) {
		const struct rio_lat *l = lat_of(&rjob(g, j)->dir[d], kind);

		if (!l->nr_pct || !resplot_dir_used(&rjob(g, j)->dir[d]))
			continue;
		strbuf_addstr(sb, "<tr><td>");
		xml_text(sb, g->label[j]);
		strbuf_addstr(sb, "</td>");
		for (i = b; i < e; i++) {
			uint64_t v;

			if (rio_percentile(l, first->pct[i].p, &v) != 0) {
				strbuf_addstr(sb, "<td></td>");
				continue;
			}
			strbuf_addf(sb, "<td data-jobi=\"%u\" data-dir=\"%s\" "
				    "data-lat=\"%s\" data-pct=\"%f\" "
				    "data-ns=\"%" PRIu64 "\">", g->idx[j],
				    rio_dir_name[d], kind, first->pct[i].p, v);
			fmt(sb, (double)v, UNIT_NS);
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n");
}

static void pct_table(struct sink *k, const struct rgroup *g, unsigned int d,
		      const char *kind)
{
	const struct rio_lat *first = NULL;
	struct strbuf *sb = k->page;
	unsigned int j, b;

	for (j = 0; j < g->nr && !first; j++)
		if (lat_of(&rjob(g, j)->dir[d], kind)->nr_pct)
			first = lat_of(&rjob(g, j)->dir[d], kind);
	if (!first || k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"pct\">\n");
	/* a block of columns at a time, as the report's */
	for (b = 0; b < first->nr_pct; b += PAGE_PCT_COLS)
		pct_block(sb, g, d, kind, first, b);
	strbuf_addstr(sb, "</table></div>\n");
}

/* --- queue and CPU --------------------------------------------------- */

/* The group's jobs' bars, as plot/jobcharts.h takes them. */
static struct job_bars *group_bars(const struct rgroup *g, bool *iowq)
{
	struct job_bars *b = xcalloc(g->nr ? g->nr : 1, sizeof(*b));
	unsigned int j, i;

	*iowq = false;
	for (j = 0; j < g->nr; j++) {
		const struct rio_job *jb = rjob(g, j);

		b[j].name = g->label[j];
		b[j].colour = j;
		for (i = 0; i < JOB_DIST_NR && i < RIO_DIST_NR; i++) {
			b[j].dist[JOB_DEPTH][i] = jb->depth[i];
			b[j].dist[JOB_SUBMIT][i] = jb->submit[i];
			b[j].dist[JOB_COMPLETE][i] = jb->complete[i];
		}
		b[j].usr = jb->usr_cpu;
		b[j].sys = jb->sys_cpu;
		b[j].iowq = jb->run_ms ? jb->iowq_cpu_ms * 100.0 /
			    (double)jb->run_ms : 0;
		*iowq |= jb->iowq_cpu_ms > 0;
	}
	return b;
}

static void queue_cpu_charts(struct sink *k, const struct rgroup *g)
{
	struct job_bars *b;
	const char **names;
	bool iowq, dist = false, queued = false;
	struct chart c;
	unsigned int j;

	b = group_bars(g, &iowq);
	for (j = 0; j < g->nr; j++) {
		dist |= rjob(g, j)->has_dist;
		/*
		 * The report draws the calls when the engine made submit
		 * calls; the file does not say, but a queue deeper than one
		 * does
		 */
		queued |= rjob(g, j)->has_dist && rjob(g, j)->depth[0] < 99.999;
	}
	if (dist) {
		jobcharts_dist(&c, JOB_DEPTH, b, g->nr);
		sink_chart(k, &c, NULL);
	}
	if (queued) {
		jobcharts_dist(&c, JOB_SUBMIT, b, g->nr);
		sink_chart(k, &c, NULL);
		jobcharts_dist(&c, JOB_COMPLETE, b, g->nr);
		sink_chart(k, &c, NULL);
	}
	jobcharts_cpu(&c, b, g->nr, iowq, &names);
	sink_chart(k, &c, "The job threads' user and system time (and "
		   "io_uring's io-wq workers') as a share of the run time.");
	free(names);
	free(b);
}

/* --- the sections ---------------------------------------------------- */

static void dir_section(struct sink *k, const struct rgroup *g, unsigned int d)
{
	static const char *const kinds[] = { "clat", "slat", "lat" };
	bool slat = false;
	unsigned int j, used = 0, i;

	for (j = 0; j < g->nr; j++) {
		slat |= rjob(g, j)->dir[d].slat.s.n != 0;
		used += resplot_dir_used(&rjob(g, j)->dir[d]);
	}
	if (k->o->format == PLOT_HTML)
		strbuf_addf(k->page, "<h3>%s</h3>\n", rio_dir_name[d]);
	figures_table(k, g, d);
	sink_html(k, "<div class=\"grid\">\n");
	pct_chart(k, g, d, "clat");
	/* without slat, lat is clat: one chart says it */
	if (slat) {
		pct_chart(k, g, d, "lat");
		pct_chart(k, g, d, "slat");
	}
	hist_chart(k, g, d);
	time_chart(k, g, d, true);
	time_chart(k, g, d, false);
	if (used > 1)
		jobs_chart(k, g, d);
	sink_html(k, "</div>\n");
	for (i = 0; i < 3; i++)
		pct_table(k, g, d, kinds[i]);
}

static void group_section(struct sink *k, const struct rio_run *r,
			  unsigned int gid)
{
	struct rgroup g = { r, gid, xcalloc(r->nr_jobs + 1, sizeof(unsigned)),
			    0, NULL };
	const char **names = xcalloc(r->nr_jobs + 1, sizeof(*names));
	unsigned int d, j;

	for (j = 0; j < r->nr_jobs; j++)
		if (r->jobs[j].groupid == gid)
			g.idx[g.nr++] = j;
	for (j = 0; j < g.nr; j++)
		names[j] = rjob(&g, j)->name;
	g.label = page_job_labels(names, g.nr);
	free(names);
	if (k->o->format == PLOT_HTML)
		strbuf_addf(k->page, "<h2>Group %u</h2>\n", gid);
	for (d = 0; d < RIO_DIR_NR; d++) {
		bool any = false;

		for (j = 0; j < g.nr; j++)
			any |= resplot_dir_used(&rjob(&g, j)->dir[d]);
		if (any)
			dir_section(k, &g, d);
	}
	sink_html(k, "<h3>Queue and CPU</h3>\n<div class=\"grid\">\n");
	queue_cpu_charts(k, &g);
	sink_html(k, "</div>\n");
	free(g.idx);
	page_labels_free(g.label, g.nr);
}

static void run_head(struct sink *k, const struct rio_run *r, const char *path)
{
	struct strbuf *sb = k->page, v = STRBUF_INIT;
	unsigned int i;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<section>\n<h2>");
	xml_text(sb, path);
	if (r->repeat)
		strbuf_addf(sb, ", run %u", r->repeat);
	strbuf_addstr(sb, "</h2>\n<table class=\"kv\">\n");
	page_kv(sb, "made by", *r->version ? r->version : "?");
	if (r->timestamp_ms) {
		time_t t = (time_t)(r->timestamp_ms / 1000);
		struct tm tm;
		char when[64] = "";

		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
		page_kv(sb, "ended", when);
	}
	for (i = 0; i < r->nr_global; i++)
		strbuf_addf(&v, "%s%s%s%s", v.len ? " " : "", r->global[i].key,
			    r->global[i].val ? "=" : "",
			    r->global[i].val ? r->global[i].val : "");
	if (v.len)
		page_kv(sb, "global options", v.buf);
	strbuf_addstr(sb, "</table>\n");
	page_notes(sb, (const char *const *)r->notes, r->nr_notes);
	strbuf_release(&v);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static void run_section(struct sink *k, const struct rio_run *r,
			const char *path)
{
	unsigned int *gids = xcalloc(r->nr_jobs + 1, sizeof(*gids));
	unsigned int i, n = 0;

	run_head(k, r, path);
	/*
	 * A sweep's points are its figures against the swept value; the
	 * per-run charts of every point at once would be a tangle (a
	 * point's own page: run that point alone)
	 */
	if (sweepplot_is_sweep(r)) {
		sweepplot_run(k, r);
		sink_html(k, "</section>\n");
		free(gids);
		return;
	}
	for (i = 0; i < r->nr_jobs; i++)
		gids[n++] = r->jobs[i].groupid;
	qsort(gids, n, sizeof(*gids), cmp_uint);
	for (i = 0; i < n; i++)
		if (!i || gids[i] != gids[i - 1])
			group_section(k, r, gids[i]);
	sink_html(k, "</section>\n");
	free(gids);
}

void resplot_doc(struct sink *k, const struct rio_doc *doc, const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(name, '.');
	struct strbuf base = STRBUF_INIT;
	unsigned int i;

	for (i = 0; i < doc->nr_runs; i++) {
		strbuf_reset(&base);
		strbuf_add(&base, name, dot && dot != name ?
			   (size_t)(dot - name) : strlen(name));
		if (doc->runs[i].repeat)
			strbuf_addf(&base, "-run%u", doc->runs[i].repeat);
		sink_base(k, base.buf);
		run_section(k, &doc->runs[i], path);
	}
	strbuf_release(&base);
}

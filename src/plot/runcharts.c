/* SPDX-License-Identifier: MIT */
/* A run's charts and tables from the neutral model: see runcharts.h. */
#include "plot/runcharts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/latseries.h"
#include "plot/page.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "util/log.h"

const char *const rc_dir_name[RC_DIR_NR] = { "read", "write", "trim", "mixed" };
const char *const rc_lat_name[RC_LAT_NR] = { "clat", "slat", "lat" };

/* --- the model ------------------------------------------------------- */

void rc_group_init(struct rc_group *g, enum rc_source source,
		   unsigned int gid, const char *const *names,
		   unsigned int nr)
{
	memset(g, 0, sizeof(*g));
	g->source = source;
	g->gid = gid;
	g->nr = nr;
	g->jobs = xcalloc(nr ? nr : 1, sizeof(*g->jobs));
	g->label = page_job_labels(names, nr);
}

struct rc_pct *rc_pct_alloc(struct rc_lat *l, unsigned int nr)
{
	l->pct = xcalloc(nr ? nr : 1, sizeof(*l->pct));
	l->nr_pct = nr;
	return l->pct;
}

struct rc_point *rc_time_alloc(struct rc_time *t, unsigned int nr)
{
	t->pt = xcalloc(nr ? nr : 1, sizeof(*t->pt));
	t->nr = nr;
	return t->pt;
}

void rc_lat_release(struct rc_lat *l)
{
	if (l->own_hist)
		free((struct hist *)l->hist);
	free(l->pct);
	memset(l, 0, sizeof(*l));
}

static void dir_release(struct rc_dir *dr)
{
	unsigned int i;

	for (i = 0; i < RC_LAT_NR; i++)
		rc_lat_release(&dr->lat[i]);
	for (i = 0; i < 3; i++)
		free(dr->time[i].pt);
	for (i = 0; i < RC_PCT_TIME_NR; i++)
		free(dr->clat_time[i].pt);
}

void rc_group_release(struct rc_group *g)
{
	unsigned int k, d;

	for (k = 0; k < g->nr; k++)
		for (d = 0; d < RC_DIR_NR; d++)
			dir_release(&g->jobs[k].dir[d]);
	free(g->jobs);
	page_labels_free(g->label, g->nr);
	memset(g, 0, sizeof(*g));
}

/* --- helpers --------------------------------------------------------- */

static const struct rc_dir *gdir(const struct rc_group *g, unsigned int k,
				 unsigned int d)
{
	return &g->jobs[k].dir[d];
}

static struct chart_series *job_series(struct chart *c, enum series_kind kind,
				       const struct rc_group *g, unsigned int k)
{
	struct chart_series *s = chart_add(c, kind, g->label[k]);

	s->colour = k;
	return s;
}

/* "read: clat by percentile", and the job's name when it is alone */
static void chart_title(struct strbuf *t, const struct rc_group *g,
			unsigned int d, const char *what)
{
	strbuf_reset(t);
	strbuf_addf(t, "%s: %s", rc_dir_name[d], what);
	if (g->nr == 1)
		strbuf_addf(t, " (%s)", g->label[0]);
}

/*
 * A run's report keeps a chart with no series (a direction without
 * latency samples: disable_clat=1); a file's plot leaves it out
 */
static void emit(struct sink *k, const struct rc_group *g, struct chart *c,
		 const char *caption)
{
	if (c->nr || g->source == RC_RUN)
		sink_chart(k, c, caption);
	else
		chart_release(c);
}

/* "99.9" as the job's labels have it */
static void pct_label(struct strbuf *sb, double p, int prec)
{
	if (prec < 0)
		strbuf_addf(sb, "%g", p);
	else
		strbuf_addf(sb, "%.*f", prec, p);
}

/* --- latency --------------------------------------------------------- */

unsigned int rc_lat_series(struct chart_series *s, const struct rc_lat *l,
			   const char *who, const char *kind, int prec,
			   double pmax)
{
	struct strbuf tip = STRBUF_INIT;
	unsigned int i, marks = 0;

	if (l->hist)
		lat_quantile_series(s, l->hist, l->min, l->max);
	for (i = 0; !l->hist && i < l->nr_pct; i++)
		if (l->pct[i].p <= pmax + 1e-9)
			chart_point(s, l->pct[i].p, (double)l->pct[i].v);
	for (i = 0; i < l->nr_pct; i++) {
		if (l->pct[i].p > pmax + 1e-9)
			continue;
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%s: %s p", who, kind);
		pct_label(&tip, l->pct[i].p, prec);
		strbuf_addstr(&tip, " = ");
		chart_fmt(&tip, (double)l->pct[i].v, UNIT_NS, 4);
		chart_mark(s, l->pct[i].p, (double)l->pct[i].v, tip.buf);
		marks++;
	}
	strbuf_release(&tip);
	return marks;
}

static void pct_caption(struct strbuf *sb, const struct rc_group *g,
			bool hist, bool marks)
{
	if (g->source == RC_RUN)
		strbuf_addstr(sb, "From the full histograms (values within "
			      "0.8%)");
	else if (hist)
		strbuf_addstr(sb, "From the json+ histograms (values within "
			      "0.8%)");
	else
		strbuf_addstr(sb, "Through the listed percentiles (json+ has "
			      "the full histogram)");
	if (!marks)
		strbuf_addstr(sb, ".");
	else if (g->source == RC_RUN)
		strbuf_addstr(sb, "; dots: the listed percentiles, as in the "
			      "JSON report (hover for the value).");
	else
		strbuf_addstr(sb, "; dots: the listed percentiles (hover for "
			      "the value).");
}

static void pct_chart(struct sink *k, const struct rc_group *g, unsigned int d,
		      enum rc_lat_kind kind)
{
	struct strbuf t = STRBUF_INIT, what = STRBUF_INIT;
	bool hist = false, marks = false;
	uint64_t n = 0;
	unsigned int j;
	struct chart c;

	for (j = 0; j < g->nr; j++)
		if (gdir(g, j, d)->lat[kind].n > n)
			n = gdir(g, j, d)->lat[kind].n;
	strbuf_addf(&what, "%s by percentile", rc_lat_name[kind]);
	chart_title(&t, g, d, what.buf);
	chart_init(&c, "lat-pct", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true, .max = lat_pct_axis_max(n) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = rc_lat_name[kind] };
	for (j = 0; j < g->nr; j++) {
		const struct rc_lat *l = &gdir(g, j, d)->lat[kind];
		struct chart_series *s;

		if (!gdir(g, j, d)->shown || !l->n || (!l->hist && !l->nr_pct))
			continue;
		hist |= l->hist != NULL;
		s = job_series(&c, l->hist ? SERIES_STEP : SERIES_LINE, g, j);
		marks |= rc_lat_series(s, l, g->label[j], rc_lat_name[kind],
				       g->jobs[j].pct_prec, c.x.max) != 0;
	}
	strbuf_reset(&what);
	pct_caption(&what, g, hist, marks);
	emit(k, g, &c, what.buf);
	strbuf_release(&t);
	strbuf_release(&what);
}

static void hist_chart(struct sink *k, const struct rc_group *g, unsigned int d)
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
		const struct rc_dir *dr = gdir(g, j, d);
		struct chart_series *s;

		if (!dr->shown || !dr->lat[RC_CLAT].n || !dr->lat[RC_CLAT].hist)
			continue;
		s = job_series(&c, SERIES_STEP, g, j);
		/* more fills than a few hide each other */
		s->fill = g->nr <= 3;
		lat_hist_series(s, dr->lat[RC_CLAT].hist);
	}
	emit(k, g, &c, "Share of the I/Os in each twentieth of a decade.");
	strbuf_release(&t);
}

/* --- over time ------------------------------------------------------- */

static void time_caption(struct strbuf *sb, const struct rc_group *g,
			 double period, unsigned int per, bool reports,
			 bool stream)
{
	if (g->source == RC_RUN) {
		strbuf_addf(sb, "A sample every %.0f ms", period ? period : 500);
		if (per > 1)
			strbuf_addf(sb, "; a point is the mean of %u samples",
				    per);
		strbuf_addstr(sb, ".");
	} else if (stream) {
		strbuf_addf(sb, "A point per interval of the interval stream, "
			    "at its end (%.0f ms apart on average).", period);
	} else if (reports) {
		strbuf_addf(sb, "The rates between successive --status-interval "
			    "reports (%.0f ms apart).", period);
	} else {
		strbuf_addf(sb, "A point every %.0f ms (the file's samples, "
			    "evenly spaced).", period);
	}
}

/*
 * bandwidth, IOPS, the mean clat over time: rc_dir's time[which]; the
 * chart's id is which's unless cid
 */
static void time_chart(struct sink *k, const struct rc_group *g, unsigned int d,
		       unsigned int which, const char *cid)
{
	static const char *const title[] = {
		"bandwidth over time", "IOPS over time", "mean clat over time",
	};
	static const char *const id[] = { "bw-time", "iops-time", "lat-time" };
	static const char *const ytitle[] = { "bandwidth", "IOPS", "clat" };
	static const enum axis_unit unit[] = { UNIT_BPS, UNIT_NONE, UNIT_NS };
	struct strbuf t = STRBUF_INIT, cap = STRBUF_INIT;
	unsigned int j, i, per = 1;
	bool reports = false, stream = false;
	double period = 0;
	struct chart c;

	chart_title(&t, g, d, title[which]);
	chart_init(&c, cid ? cid : id[which], t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = unit[which],
				   .title = ytitle[which], .zero = true };
	for (j = 0; j < g->nr; j++) {
		const struct rc_time *se = &gdir(g, j, d)->time[which];
		struct chart_series *s;

		if (!gdir(g, j, d)->shown || !se->nr)
			continue;
		s = job_series(&c, SERIES_LINE, g, j);
		for (i = 0; i < se->nr; i++)
			/* latency: an interval without completions has none */
			if (which < 2 || se->pt[i].v > 0)
				chart_point(s, se->pt[i].t, se->pt[i].v);
		per = se->per_point > per ? se->per_point : per;
		period = se->period_ms ? se->period_ms : period;
		reports |= se->from_reports;
		stream |= se->from_stream;
	}
	time_caption(&cap, g, period, per, reports, stream);
	if (which == 2)
		strbuf_addstr(&cap, " Each point the mean completion latency "
			      "of the I/Os completed in its interval.");
	if (c.nr)
		sink_chart(k, &c, cap.buf);
	else
		chart_release(&c);
	strbuf_release(&t);
	strbuf_release(&cap);
}

/*
 * Each interval's own clat percentiles (an interval stream's): a line
 * per job and percentile, in the palette's order.
 */
static void lat_time_chart(struct sink *k, const struct rc_group *g,
			   unsigned int d)
{
	struct strbuf t = STRBUF_INIT, name = STRBUF_INIT;
	double period = 0;
	unsigned int j, p, i;
	struct chart c;

	chart_title(&t, g, d, "clat percentiles over time");
	chart_init(&c, "lat-pct-time", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	for (j = 0; j < g->nr; j++) {
		for (p = 0; p < RC_PCT_TIME_NR; p++) {
			const struct rc_time *se = &gdir(g, j, d)->clat_time[p];
			struct chart_series *s;

			if (!gdir(g, j, d)->shown || !se->nr)
				continue;
			strbuf_reset(&name);
			strbuf_addf(&name, "%s p%g", g->label[j], se->pct);
			s = chart_add(&c, SERIES_LINE, name.buf);
			for (i = 0; i < se->nr; i++)
				chart_point(s, se->pt[i].t, se->pt[i].v);
			period = se->period_ms;
		}
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "Each interval's own percentiles (p50, p99, "
		    "p99.9), from its histogram; a point per interval, at its "
		    "end (%.0f ms apart on average).", period);
	if (c.nr)
		sink_chart(k, &c, name.buf);
	else
		chart_release(&c);
	strbuf_release(&t);
	strbuf_release(&name);
}

/* Each job's bandwidth, whiskers to its lowest and highest sample. */
static void jobs_chart(struct sink *k, const struct rc_group *g, unsigned int d)
{
	const char **names = xcalloc(g->nr ? g->nr : 1, sizeof(*names));
	struct strbuf t = STRBUF_INIT;
	struct chart_series *s;
	unsigned int j, nr = 0;
	struct chart c;

	chart_title(&t, g, d, "bandwidth per job");
	chart_init(&c, "bw-jobs", t.buf);
	for (j = 0; j < g->nr; j++)
		if (gdir(g, j, d)->shown)
			names[nr++] = g->label[j];
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = nr,
				   .cats = names, .title = "job" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS,
				   .title = "bandwidth", .zero = true };
	s = chart_add(&c, SERIES_BAR, "bandwidth");
	for (j = 0, nr = 0; j < g->nr; j++) {
		const struct rc_dir *dr = gdir(g, j, d);

		if (!dr->shown)
			continue;
		chart_point(s, nr++, dr->bw);
		chart_bar_colour(s, j);
		if (dr->bw_range)
			chart_err(s, dr->bw_lo, dr->bw_hi);
	}
	sink_chart(k, &c, "Each job's bandwidth; whiskers from its lowest to "
		   "its highest bandwidth sample.");
	free(names);
	strbuf_release(&t);
}

/* --- tables ---------------------------------------------------------- */

static bool any_slat(const struct rc_group *g, unsigned int d)
{
	unsigned int j;

	for (j = 0; j < g->nr; j++)
		if (gdir(g, j, d)->lat[RC_SLAT].n)
			return true;
	return false;
}

/* One job's row of a direction's figures, exactly in data-*. */
static void figures_row(struct strbuf *sb, const struct rc_group *g,
			unsigned int j, unsigned int d, bool means)
{
	const struct rc_dir *dr = gdir(g, j, d);

	strbuf_addf(sb, "<tr data-jobi=\"%u\" data-dir=\"%s\" data-iops=\"%f\" "
		    "data-bw=\"%.0f\" data-ios=\"%" PRIu64 "\" "
		    "data-runtime=\"%" PRIu64 "\" data-clat-mean=\"%f\"><td>",
		    g->jobs[j].index, rc_dir_name[d], dr->iops, dr->bw,
		    dr->ios, dr->runtime_ms, dr->lat[RC_CLAT].mean);
	xml_text(sb, g->label[j]);
	strbuf_addstr(sb, "</td>");
	page_td_val(sb, dr->iops, UNIT_NONE);
	page_td_val(sb, dr->bw, UNIT_BPS);
	strbuf_addf(sb, "<td>%" PRIu64 "</td><td>%" PRIu64 " ms</td>",
		    dr->ios, dr->runtime_ms);
	page_td_val(sb, dr->lat[RC_CLAT].min, UNIT_NS);
	page_td_val(sb, dr->lat[RC_CLAT].mean, UNIT_NS);
	page_td_val(sb, dr->lat[RC_CLAT].max, UNIT_NS);
	if (means) {
		page_td_val(sb, dr->lat[RC_SLAT].mean, UNIT_NS);
		page_td_val(sb, dr->lat[RC_LAT].mean, UNIT_NS);
	}
	strbuf_addstr(sb, "</tr>\n");
}

/* A report's table adds slat and lat means when slat was measured. */
static void figures_table(struct sink *k, const struct rc_group *g,
			  unsigned int d)
{
	bool means = g->source == RC_RUN && any_slat(g, d);
	struct strbuf *sb = k->page;
	unsigned int j;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"fig\"><thead><tr>"
		      "<th>job</th><th>IOPS</th><th>bandwidth</th><th>I/Os</th>"
		      "<th>runtime</th><th>clat min</th><th>clat mean</th>"
		      "<th>clat max</th>");
	if (means)
		strbuf_addstr(sb, "<th>slat mean</th><th>lat mean</th>");
	strbuf_addstr(sb, "</tr></thead><tbody>\n");
	for (j = 0; j < g->nr; j++)
		if (gdir(g, j, d)->shown)
			figures_row(sb, g, j, d, means);
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

static const struct rc_pct *pct_find(const struct rc_lat *l, double p)
{
	unsigned int i;

	for (i = 0; i < l->nr_pct; i++)
		if (l->pct[i].p > p - 1e-9 && l->pct[i].p < p + 1e-9)
			return &l->pct[i];
	return NULL;
}

static void pct_row(struct strbuf *sb, const struct rc_group *g,
		    unsigned int j, unsigned int d, enum rc_lat_kind kind,
		    const struct rc_lat *first, unsigned int b, unsigned int e)
{
	const struct rc_lat *l = &gdir(g, j, d)->lat[kind];
	unsigned int i;

	strbuf_addstr(sb, "<tr><td>");
	xml_text(sb, g->label[j]);
	strbuf_addstr(sb, "</td>");
	for (i = b; i < e; i++) {
		const struct rc_pct *pc = pct_find(l, first->pct[i].p);

		if (!pc || !gdir(g, j, d)->shown) {
			strbuf_addstr(sb, "<td></td>");
			continue;
		}
		strbuf_addf(sb, "<td data-jobi=\"%u\" data-dir=\"%s\" "
			    "data-lat=\"%s\" data-pct=\"%f\" "
			    "data-ns=\"%" PRIu64 "\">", g->jobs[j].index,
			    rc_dir_name[d], rc_lat_name[kind], first->pct[i].p,
			    pc->v);
		chart_fmt(sb, (double)pc->v, UNIT_NS, 4);
		strbuf_addstr(sb, "</td>");
	}
	strbuf_addstr(sb, "</tr>\n");
}

/*
 * The percentiles of one latency kind: a row per job, a column each of
 * the first job's list, a block of columns at a time (17 fit no page)
 */
static void pct_table(struct sink *k, const struct rc_group *g, unsigned int d,
		      enum rc_lat_kind kind)
{
	const struct rc_lat *first = NULL;
	struct strbuf *sb = k->page;
	unsigned int j, i, b, e;
	int prec = -1;

	for (j = 0; j < g->nr && !first; j++)
		if (gdir(g, j, d)->lat[kind].nr_pct) {
			first = &gdir(g, j, d)->lat[kind];
			prec = g->jobs[j].pct_prec;
		}
	if (!first || k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"pct\">\n");
	for (b = 0; b < first->nr_pct; b += PAGE_PCT_COLS) {
		e = b + PAGE_PCT_COLS < first->nr_pct ? b + PAGE_PCT_COLS :
		    first->nr_pct;
		strbuf_addf(sb, "<tbody><tr class=\"ph\"><th>%s percentiles"
			    "</th>", rc_lat_name[kind]);
		for (i = b; i < e; i++) {
			strbuf_addstr(sb, "<th>");
			pct_label(sb, first->pct[i].p, prec);
			strbuf_addstr(sb, "</th>");
		}
		strbuf_addstr(sb, "</tr>\n");
		for (j = 0; j < g->nr; j++)
			if (gdir(g, j, d)->lat[kind].nr_pct)
				pct_row(sb, g, j, d, kind, first, b, e);
		strbuf_addstr(sb, "</tbody>\n");
	}
	strbuf_addstr(sb, "</table></div>\n");
}

/* --- queue and CPU ------------------------------------------------- */

static const char *const depth_cats[RC_DIST_NR] = {
	"1", "2", "4", "8", "16", "32", "\342\211\24564",	/* >= 64 */
};
static const char *const call_cats[RC_DIST_NR] = {
	"0", "1-4", "5-8", "9-16", "17-32", "33-64", ">64",
};

/* One of the three distributions, a bar series per job. */
static void dist_chart(struct sink *k, const struct rc_group *g,
		       enum rc_dist which)
{
	static const char *const title[] = {
		"IO depth", "I/Os per submit call", "I/Os per reap call",
	};
	static const char *const ytitle[] = { "I/Os", "calls", "calls" };
	static const char *const id[] = { "depth", "submit", "complete" };
	unsigned int j, i;
	struct chart c;

	chart_init(&c, id[which], title[which]);
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = RC_DIST_NR,
				   .cats = which ? call_cats : depth_cats,
				   .title = which ? "I/Os in the call" :
					  "I/Os in flight" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				   .title = ytitle[which], .zero = true };
	for (j = 0; j < g->nr; j++) {
		struct chart_series *s = job_series(&c, SERIES_BAR, g, j);

		for (i = 0; i < RC_DIST_NR; i++)
			chart_point(s, i, g->jobs[j].dist[which][i]);
	}
	c.legend = false;
	sink_chart(k, &c, NULL);
}

/* usr and sys per job, and io-wq's workers when a job used them */
static void cpu_chart(struct sink *k, const struct rc_group *g)
{
	struct chart_series *usr, *sys, *wq = NULL;
	unsigned int j;
	struct chart c;

	chart_init(&c, "cpu", "CPU");
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = g->nr,
				   .cats = (const char *const *)g->label,
				   .title = "job" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				   .title = "CPU time of the run time",
				   .zero = true };
	usr = chart_add(&c, SERIES_BAR, "usr");
	sys = chart_add(&c, SERIES_BAR, "sys");
	if (g->iowq)
		wq = chart_add(&c, SERIES_BAR, "io-wq workers");
	for (j = 0; j < g->nr; j++) {
		chart_point(usr, j, g->jobs[j].usr);
		chart_point(sys, j, g->jobs[j].sys);
		if (wq)
			chart_point(wq, j, g->jobs[j].iowq);
	}
	/* the report's CPU table is under it */
	sink_chart(k, &c, g->source == RC_RUN ? "The job threads' user and "
		   "system time (and io_uring's io-wq workers') as a share of "
		   "the run time; iolite's own cost per I/O is in the table." :
		   "The job threads' user and system time (and io_uring's "
		   "io-wq workers') as a share of the run time.");
}

/* --- the sections ---------------------------------------------------- */

static void dir_section(struct sink *k, const struct rc_group *g,
			unsigned int d)
{
	unsigned int j, shown = 0, i;

	for (j = 0; j < g->nr; j++)
		shown += gdir(g, j, d)->shown;
	if (k->o->format == PLOT_HTML && g->anchors)
		strbuf_addf(k->page, "<h3 id=\"g%u-%s\">%s</h3>\n", g->gid,
			    rc_dir_name[d], rc_dir_name[d]);
	else if (k->o->format == PLOT_HTML)
		strbuf_addf(k->page, "<h3>%s</h3>\n", rc_dir_name[d]);
	figures_table(k, g, d);
	sink_html(k, "<div class=\"grid\">\n");
	pct_chart(k, g, d, RC_CLAT);
	/* without slat, lat is clat: one chart says it */
	if (any_slat(g, d)) {
		pct_chart(k, g, d, RC_LAT);
		pct_chart(k, g, d, RC_SLAT);
	}
	hist_chart(k, g, d);
	time_chart(k, g, d, 0, NULL);
	time_chart(k, g, d, 1, NULL);
	time_chart(k, g, d, 2, NULL);
	lat_time_chart(k, g, d);
	/* side by side jobs compared */
	if (shown > 1)
		jobs_chart(k, g, d);
	sink_html(k, "</div>\n");
	for (i = 0; i < RC_LAT_NR; i++)
		pct_table(k, g, d, i);
}

void runcharts_dirs(struct sink *k, const struct rc_group *g)
{
	unsigned int d, j;

	for (d = 0; d < RC_DIR_NR; d++) {
		bool any = false;

		for (j = 0; j < g->nr; j++)
			any |= gdir(g, j, d)->shown;
		if (any)
			dir_section(k, g, d);
	}
}

void runcharts_over_time(struct sink *k, const struct rc_group *g)
{
	unsigned int d, j;

	for (d = 0; d < RC_DIR_NR; d++) {
		bool any = false;

		for (j = 0; j < g->nr; j++)
			any |= gdir(g, j, d)->shown;
		if (!any)
			continue;
		if (k->o->format == PLOT_HTML)
			strbuf_addf(k->page, "<h3>group %u, %s</h3>\n"
				    "<div class=\"grid\">\n", g->gid,
				    rc_dir_name[d]);
		time_chart(k, g, d, 1, "iops-interval");
		lat_time_chart(k, g, d);
		sink_html(k, "</div>\n");
	}
}

void runcharts_queue_cpu(struct sink *k, const struct rc_group *g)
{
	sink_html(k, "<h3>Queue and CPU</h3>\n<div class=\"grid\">\n");
	if (g->depth)
		dist_chart(k, g, RC_DEPTH);
	/* engines that complete inline make no submit or reap calls */
	if (g->calls) {
		dist_chart(k, g, RC_SUBMIT);
		dist_chart(k, g, RC_COMPLETE);
	}
	cpu_chart(k, g);
	sink_html(k, "</div>\n");
}

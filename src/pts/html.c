/* SPDX-License-Identifier: MIT */
/*
 * pts's HTML page (plot/'s frame and charts): the report's tables, and
 * the spec's plots: the tracked variable's convergence per round, the
 * measurement window with its average, the +-10% band and the fitted
 * line, the IOPS matrix (IOPS by block size, a line per R/W mix), and
 * for WSAT the IOPS over time and over the bytes written.
 */
#include <math.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "pts/pts_int.h"

static void td(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td>");
	xml_text(sb, s);
	strbuf_addstr(sb, "</td>");
}

static void html_head(const struct pts_run *r, struct strbuf *sb)
{
	char buf[128];
	unsigned int k;

	static const char *const t[] = { "IOPS test", "throughput test",
					 "latency test",
					 "write saturation (WSAT)",
					 "host idle recovery (HIR)",
					 "cross-stimulus recovery (XSR)",
					 ("demand intensity / response time "
					  "histogram (DIRTH)") };

	strbuf_addstr(sb, "<h1>SNIA PTS ");
	xml_text(sb, t[r->cfg.test]);
	strbuf_addstr(sb, ": ");
	xml_text(sb, r->cfg.target);
	strbuf_addstr(sb, "</h1>\n");
	if (r->scaled.nr) {
		strbuf_addstr(sb, "<p class=\"warn\" id=\"not-pts\"><strong>Not "
			      "a PTS result</strong> (a scaled or partial "
			      "run):</p>\n<ul>\n");
		for (k = 0; k < r->scaled.nr; k++) {
			strbuf_addstr(sb, "<li>");
			xml_text(sb, r->scaled.v[k]);
			strbuf_addstr(sb, "</li>\n");
		}
		strbuf_addstr(sb, "</ul>\n");
	}
	strbuf_addstr(sb, "<h2>Device and run</h2>\n<table>\n");
	page_kv(sb, "variant", r->cfg.client ? "client" : "enterprise");
	page_kv(sb, "model", r->dev.model);
	page_kv(sb, "firmware", r->dev.firmware[0] ? r->dev.firmware : "-");
	page_kv(sb, "serial", r->dev.serial[0] ? r->dev.serial : "-");
	snprintf(buf, sizeof(buf), "%llu bytes (tested: %llu, active range "
		 "%llu)", (unsigned long long)r->dev.size,
		 (unsigned long long)r->cap, (unsigned long long)r->range);
	page_kv(sb, "capacity", buf);
	page_kv(sb, "started", r->when);
	strbuf_addstr(sb, "</table>\n<h2>Settings</h2>\n<table id=\"settings\">"
		      "<tr><th>setting</th><th>spec</th><th>used</th>"
		      "<th>honoured</th></tr>\n");
	for (k = 0; k < r->nr_set; k++) {
		strbuf_addstr(sb, "<tr>");
		td(sb, r->set[k].name);
		td(sb, r->set[k].want);
		td(sb, r->set[k].used);
		td(sb, r->set[k].honoured ? "yes" : "no");
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* "pts-convergence-1" for the second loop's chart */
static void chart_id(char *buf, size_t len, const char *base, unsigned int k)
{
	if (k)
		snprintf(buf, len, "%s-%u", base, k);
	else
		snprintf(buf, len, "%s", base);
}

/* The tracked metric per round of the 100% write cells, each size */
static void chart_convergence(const struct pts_loop *l, unsigned int li,
			      struct strbuf *sb)
{
	struct chart c;
	char id[48], title[160], name[96];
	unsigned int b, k;

	chart_id(id, sizeof(id), "pts-convergence", li);
	pts_track_name(l, name, sizeof(name));
	snprintf(title, sizeof(title), "Steady state convergence: %s per "
		 "round", name);
	chart_init(&c, id, title);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "round",
				   .whole = true };
	c.y = (struct chart_axis){ .scale = AXIS_LOG,
				   .title = pts_metric_unit(l->metric) };
	c.legend = true;
	for (b = 0; b < PTS_NR_BS; b++) {
		struct chart_series *s = NULL;

		for (k = 0; k < l->nr_rounds; k++) {
			const struct pts_cell *cl = &l->cell[k][l->track_mix][b];

			if (cl->iops < 0)
				continue;
			if (!s) {
				snprintf(name, sizeof(name), "%s%s",
					 pts_bs_name[b], b == l->track_bs ?
					 " (tracked)" : "");
				s = chart_add(&c, SERIES_LINE, name);
			}
			chart_point(s, k + 1, pts_cell_val(cl, l->metric));
		}
	}
	page_figure(sb, &c, l->dirth ? "The tracked cell's IOPS in each "
		    "round." : "Each block size's 100% write figure in each "
		    "round; the tracked one is marked.");
	chart_release(&c);
}

static void chart_window(const struct pts_loop *l, unsigned int li,
			 struct strbuf *sb)
{
	const struct pts_ss *ss = &l->ss;
	struct chart_series *s, *a, *hi, *lo, *fit;
	char id[48], title[160], name[96];
	struct chart c;
	unsigned int k;

	chart_id(id, sizeof(id), "pts-window", li);
	pts_track_name(l, name, sizeof(name));
	snprintf(title, sizeof(title), "Steady state measurement window: %s",
		 name);
	chart_init(&c, id, title);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "round",
				   .whole = true, .fixed = true, .min = ss->first - 0.5,
				   .max = ss->last + 0.5 };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .zero = true,
				   .title = pts_metric_unit(l->metric) };
	c.legend = true;
	s = chart_add(&c, SERIES_LINE, pts_metric_unit(l->metric));
	a = chart_add(&c, SERIES_LINE, "average");
	hi = chart_add(&c, SERIES_LINE, "110% of the average");
	lo = chart_add(&c, SERIES_LINE, "90% of the average");
	fit = chart_add(&c, SERIES_LINE, "least-squares line");
	for (k = ss->first; k <= ss->last; k++)
		chart_point(s, k, l->track[k - 1]);
	chart_point(a, ss->first, ss->avg);
	chart_point(a, ss->last, ss->avg);
	chart_point(hi, ss->first, 1.1 * ss->avg);
	chart_point(hi, ss->last, 1.1 * ss->avg);
	chart_point(lo, ss->first, 0.9 * ss->avg);
	chart_point(lo, ss->last, 0.9 * ss->avg);
	chart_point(fit, ss->first, ss->slope * ss->first + ss->intercept);
	chart_point(fit, ss->last, ss->slope * ss->last + ss->intercept);
	page_figure(sb, &c, ss->reached ? "Steady state reached: the range "
		    "within 20% and the line's excursion within 10% of the "
		    "average." : "Steady state NOT reached: the last five "
		    "rounds.");
	chart_release(&c);
}

/*
 * The matrix by block size: a line per R/W mix (the spec's 2D plot), or
 * grouped bars, a bar per mix in each size's group (its 3D bar chart,
 * flattened: the mixes side by side instead of one behind the other).
 * One block size: bars only.
 */
static void chart_matrix(const struct pts_loop *l, unsigned int li,
			 bool bars, struct strbuf *sb)
{
	const char *cats[PTS_NR_BS];
	unsigned int idx[PTS_NR_BS];
	char id[48], title[160];
	struct chart c;
	unsigned int m, b, n = 0;

	for (b = 0; b < PTS_NR_BS; b++)
		if (l->bs_mask & 1u << b) {
			idx[b] = n;
			cats[n++] = pts_bs_name[b];
		}
	bars = bars || n == 1;
	chart_id(id, sizeof(id), bars ? "pts-matrix-bars" : "pts-matrix", li);
	snprintf(title, sizeof(title), "%s by block size and R/W mix "
		 "(averaged over the window)", l->metric == MET_LAT ?
		 "Mean response time" : l->metric == MET_BW ? "Throughput" :
		 "IOPS");
	chart_init(&c, id, title);
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .title = "block size",
				   .cats = cats, .nr_cats = n };
	c.y = (struct chart_axis){ .scale = AXIS_LOG,
				   .title = pts_metric_unit(l->metric) };
	c.legend = true;
	for (m = 0; m < PTS_NR_MIX; m++) {
		struct chart_series *s = NULL;
		char name[16];

		for (b = 0; b < PTS_NR_BS; b++) {
			if (!(l->bs_mask & 1u << b) || l->avg[m][b].iops < 0)
				continue;
			if (!s) {
				snprintf(name, sizeof(name), "R/W %u/%u",
					 pts_mix_read[m], 100 - pts_mix_read[m]);
				s = chart_add(&c, bars ? SERIES_BAR :
					      SERIES_LINE, name);
			}
			chart_point(s, idx[b],
				    pts_cell_val(&l->avg[m][b], l->metric));
		}
	}
	page_figure(sb, &c, bars ? "A bar per read/write mix in each block "
		    "size's group; hover a bar for its value." : "A line per "
		    "read/write mix; hover a point for its value.");
	chart_release(&c);
}

static void html_window(const struct pts_loop *l, struct strbuf *sb)
{
	const struct pts_ss *s = &l->ss;
	const char *u = pts_metric_unit(l->metric);
	char buf[200];

	strbuf_addstr(sb, "<table class=\"window\">\n");
	snprintf(buf, sizeof(buf), "%s (rounds %u-%u)", s->reached ?
		 "reached" : "NOT reached: the last five rounds",
		 s->first, s->last);
	page_kv(sb, "steady state", buf);
	snprintf(buf, sizeof(buf), "%g %s", s->avg, u);
	page_kv(sb, "average", buf);
	snprintf(buf, sizeof(buf), "%g (%.1f%% of the average; at most "
		 "20%%): %s", s->range, 100 * s->range / s->avg,
		 s->range_ok ? "pass" : "fail");
	page_kv(sb, "range (max - min)", buf);
	snprintf(buf, sizeof(buf), "%g x round + %g; excursion %g (%.1f%%; "
		 "at most 10%%): %s", s->slope, s->intercept, s->excursion,
		 100 * s->excursion / s->avg, s->slope_ok ? "pass" : "fail");
	page_kv(sb, "least-squares line", buf);
	strbuf_addstr(sb, "</table>\n");
}

static void html_rounds(const struct pts_loop *l, struct strbuf *sb)
{
	unsigned int k;

	strbuf_addf(sb, "<table class=\"convergence\"><tr><th>round</th>"
		    "<th>tracked, %s</th><th>temperature</th></tr>\n",
		    pts_metric_unit(l->metric));
	for (k = 0; k < l->nr_rounds; k++) {
		strbuf_addf(sb, "<tr><td>%u</td><td>%.*f</td><td>", k + 1,
			    l->metric == MET_LAT ? 4 : 1, l->track[k]);
		if (isnan(l->temp[k]))
			strbuf_addstr(sb, "-");
		else
			strbuf_addf(sb, "%.1f &#176;C", l->temp[k]);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* One figure of each cell: IOPS, MB/s, or ms (mean, max, 99.999%) */
static void html_table(const struct pts_loop *l, const char *title,
		       enum pts_metric which, struct strbuf *sb)
{
	unsigned int m, b;

	strbuf_addstr(sb, "<h3>");
	xml_text(sb, title);
	strbuf_addstr(sb, "</h3>\n<table class=\"matrix\"><tr><th>bs</th>");
	for (m = 0; m < PTS_NR_MIX; m++)
		if (l->mix_mask & 1u << m)
			strbuf_addf(sb, "<th>%u/%u</th>", pts_mix_read[m],
				    100 - pts_mix_read[m]);
	strbuf_addstr(sb, "</tr>\n");
	for (b = 0; b < PTS_NR_BS; b++) {
		if (!(l->bs_mask & 1u << b))
			continue;
		strbuf_addf(sb, "<tr><th>%s</th>", pts_bs_name[b]);
		for (m = 0; m < PTS_NR_MIX; m++) {
			const struct pts_cell *c = &l->avg[m][b];
			double v = pts_cell_val(c, which);

			if (!(l->mix_mask & 1u << m))
				continue;
			if (c->iops < 0)
				strbuf_addstr(sb, "<td>-</td>");
			else
				strbuf_addf(sb, "<td>%.*f</td>",
					    l->metric == MET_LAT ? 4 : 1, v);
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_phases(const struct pts_loop *l, struct strbuf *sb)
{
	strbuf_addstr(sb, "<table>\n");
	page_kv(sb, "purge", l->purge);
	page_kv(sb, "preconditioning", l->precond);
	strbuf_addstr(sb, "</table>\n");
}

static void html_loop(const struct pts_loop *l, unsigned int li,
		      struct strbuf *sb)
{
	char t[80];

	strbuf_addstr(sb, "<h2>");
	xml_text(sb, l->name);
	strbuf_addstr(sb, "</h2>\n");
	html_phases(l, sb);
	if (!l->nr_rounds)
		return;
	html_rounds(l, sb);
	if (l->have_ss)
		html_window(l, sb);
	chart_convergence(l, li, sb);
	if (l->have_ss)
		chart_window(l, li, sb);
	if (l->dirth)
		return;	/* its matrix: pts_dirth_html() */
	snprintf(t, sizeof(t), "%s, averaged over the window",
		 l->metric == MET_LAT ? "Mean response time, ms" :
		 l->metric == MET_BW ? "Throughput, MB/s" : "IOPS");
	html_table(l, t, l->metric, sb);
	if (l->metric == MET_LAT) {
		html_table(l, "Maximum response time in the window, ms",
			   MET_LAT_MAX, sb);
		html_table(l, "99.999% response time (the window's highest), "
			   "ms", MET_LAT_P5N, sb);
	}
	chart_matrix(l, li, false, sb);
	if (l->bs_mask & (l->bs_mask - 1))	/* two sizes or more */
		chart_matrix(l, li, true, sb);
}

static void html_wsat(const struct pts_run *r, struct strbuf *sb)
{
	struct chart c;
	struct chart_series *s;
	unsigned int k;

	strbuf_addstr(sb, "<h2>Write saturation</h2>\n");
	html_phases(&r->loop[0], sb);
	chart_init(&c, "pts-wsat-time", "WSAT: 4k random write IOPS over "
		   "time");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "IOPS",
				   .zero = true };
	s = chart_add(&c, SERIES_LINE, "IOPS");
	for (k = 0; k < r->nr_wsat; k++)
		chart_point(s, r->wsat_t[k], r->wsat_iops[k]);
	page_figure(sb, &c, "IOPS in each interval.");
	chart_release(&c);
	chart_init(&c, "pts-wsat-tgbw", "WSAT: IOPS over the total written "
		   "(TGBW)");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR,
				   .title = "written, GB" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "IOPS",
				   .zero = true };
	s = chart_add(&c, SERIES_LINE, "IOPS");
	for (k = 0; k < r->nr_wsat; k++)
		chart_point(s, r->wsat_tgbw[k] / 1e9, r->wsat_iops[k]);
	page_figure(sb, &c, "IOPS against the bytes written by the end of "
		    "each interval.");
	chart_release(&c);
}

int pts_report_html(const struct pts_run *r, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int k;
	int ret;

	page_begin(&sb, "iolite pts");
	html_head(r, &sb);
	if (r->cfg.test == PTS_WSAT) {
		html_wsat(r, &sb);
	} else if (r->cfg.test == PTS_XSR) {
		strbuf_addstr(&sb, "<h2>Cross-stimulus recovery</h2>\n");
		html_phases(&r->loop[0], &sb);
		pts_xsr_html(r, &sb);
	} else
		for (k = 0; k < r->nr_loops; k++)
			html_loop(&r->loop[k], k, &sb);
	if (r->cfg.test == PTS_HIR)
		pts_hir_html(r, &sb);
	if (r->cfg.test == PTS_DIRTH)
		pts_dirth_html(r, &sb);
	page_notes(&sb, (const char *const *)r->notes.v, r->notes.nr);
	page_end(&sb);
	ret = fwrite(sb.buf, 1, sb.len, f) != sb.len || fflush(f) ? -1 : 0;
	strbuf_release(&sb);
	return ret;
}

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

	strbuf_addstr(sb, "<h1>SNIA PTS ");
	xml_text(sb, r->cfg.test == PTS_IOPS ? "IOPS test" :
		 "write saturation (WSAT)");
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
	page_kv(sb, "purge", r->purge);
	page_kv(sb, "preconditioning", r->precond);
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

/* IOPS per round of the 100% write cells: the tracked 4k and the rest */
static void chart_convergence(const struct pts_run *r, struct strbuf *sb)
{
	struct chart c;
	unsigned int b, k;

	chart_init(&c, "pts-convergence", "Steady state convergence: "
		   "random 100% write IOPS per round");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "round" };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .title = "IOPS" };
	c.legend = true;
	for (b = 0; b < PTS_NR_BS; b++) {
		struct chart_series *s = NULL;
		char name[32];

		for (k = 0; k < r->nr_rounds; k++) {
			double v = r->iops[k][PTS_MIX_W100][b];

			if (v < 0)
				continue;
			if (!s) {
				snprintf(name, sizeof(name), "%s%s",
					 pts_bs_name[b], b == PTS_BS_4K ?
					 " (tracked)" : "");
				s = chart_add(&c, SERIES_LINE, name);
			}
			chart_point(s, k + 1, v);
		}
	}
	page_figure(sb, &c, "Each block size's 100% write IOPS in each "
		    "round; the 4k line is the tracked variable.");
	chart_release(&c);
}

static void chart_window(const struct pts_run *r, struct strbuf *sb)
{
	const struct pts_ss *ss = &r->ss;
	struct chart_series *s, *a, *hi, *lo, *fit;
	struct chart c;
	unsigned int k;

	chart_init(&c, "pts-window", "Steady state measurement window: "
		   "4k random write IOPS");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "round",
				   .fixed = true, .min = ss->first - 0.5,
				   .max = ss->last + 0.5 };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "IOPS",
				   .zero = true };
	c.legend = true;
	s = chart_add(&c, SERIES_LINE, "IOPS");
	a = chart_add(&c, SERIES_LINE, "average");
	hi = chart_add(&c, SERIES_LINE, "110% of the average");
	lo = chart_add(&c, SERIES_LINE, "90% of the average");
	fit = chart_add(&c, SERIES_LINE, "least-squares line");
	for (k = ss->first; k <= ss->last; k++)
		chart_point(s, k, r->track[k - 1]);
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

static void chart_matrix(const struct pts_run *r, struct strbuf *sb)
{
	static const char *cats[PTS_NR_BS];
	struct chart c;
	unsigned int m, b;

	for (b = 0; b < PTS_NR_BS; b++)
		cats[b] = pts_bs_name[b];
	chart_init(&c, "pts-iops", "IOPS by block size and R/W mix "
		   "(averaged over the window)");
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .title = "block size",
				   .cats = cats, .nr_cats = PTS_NR_BS };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .title = "IOPS" };
	c.legend = true;
	for (m = 0; m < PTS_NR_MIX; m++) {
		struct chart_series *s = NULL;
		char name[16];

		for (b = 0; b < PTS_NR_BS; b++) {
			if (r->avg[m][b] < 0)
				continue;
			if (!s) {
				snprintf(name, sizeof(name), "R/W %u/%u",
					 pts_mix_read[m], 100 - pts_mix_read[m]);
				s = chart_add(&c, SERIES_LINE, name);
			}
			chart_point(s, b, r->avg[m][b]);
		}
	}
	page_figure(sb, &c, "A line per read/write mix; hover a point for "
		    "its value.");
	chart_release(&c);
}

static void html_iops(const struct pts_run *r, struct strbuf *sb)
{
	const struct pts_ss *s = &r->ss;
	char buf[160];
	unsigned int k, m, b;

	strbuf_addstr(sb, "<h2>Steady state</h2>\n<table id=\"convergence\">"
		      "<tr><th>round</th><th>4k write IOPS</th>"
		      "<th>temperature</th></tr>\n");
	for (k = 0; k < r->nr_rounds; k++) {
		strbuf_addf(sb, "<tr><td>%u</td><td>%.1f</td><td>", k + 1,
			    r->track[k]);
		if (isnan(r->temp[k]))
			strbuf_addstr(sb, "-");
		else
			strbuf_addf(sb, "%.1f &#176;C", r->temp[k]);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	if (r->have_ss) {
		strbuf_addstr(sb, "<table id=\"window\">\n");
		snprintf(buf, sizeof(buf), "%s (rounds %u-%u)", s->reached ?
			 "reached" : "NOT reached: the last five rounds",
			 s->first, s->last);
		page_kv(sb, "steady state", buf);
		snprintf(buf, sizeof(buf), "%.1f IOPS", s->avg);
		page_kv(sb, "average", buf);
		snprintf(buf, sizeof(buf), "%.1f (%.1f%% of the average; at "
			 "most 20%%): %s", s->range, 100 * s->range / s->avg,
			 s->range_ok ? "pass" : "fail");
		page_kv(sb, "range (max - min)", buf);
		snprintf(buf, sizeof(buf), "%.3f x round + %.1f; excursion "
			 "%.1f (%.1f%%; at most 10%%): %s", s->slope,
			 s->intercept, s->excursion,
			 100 * s->excursion / s->avg,
			 s->slope_ok ? "pass" : "fail");
		page_kv(sb, "least-squares line", buf);
		strbuf_addstr(sb, "</table>\n");
	}
	if (r->nr_rounds)
		chart_convergence(r, sb);
	if (r->have_ss)
		chart_window(r, sb);
	strbuf_addstr(sb, "<h2>IOPS</h2>\n<table id=\"matrix\"><tr><th>bs</th>");
	for (m = 0; m < PTS_NR_MIX; m++)
		strbuf_addf(sb, "<th>%u/%u</th>", pts_mix_read[m],
			    100 - pts_mix_read[m]);
	strbuf_addstr(sb, "</tr>\n");
	for (b = 0; b < PTS_NR_BS; b++) {
		strbuf_addf(sb, "<tr><th>%s</th>", pts_bs_name[b]);
		for (m = 0; m < PTS_NR_MIX; m++)
			if (r->avg[m][b] < 0)
				strbuf_addstr(sb, "<td>-</td>");
			else
				strbuf_addf(sb, "<td>%.1f</td>", r->avg[m][b]);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	if (r->nr_rounds)
		chart_matrix(r, sb);
}

static void html_wsat(const struct pts_run *r, struct strbuf *sb)
{
	struct chart c;
	struct chart_series *s;
	unsigned int k;

	strbuf_addstr(sb, "<h2>Write saturation</h2>\n");
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
	if (r->cfg.test == PTS_IOPS)
		html_iops(r, &sb);
	else
		html_wsat(r, &sb);
	page_notes(&sb, (const char *const *)r->notes.v, r->notes.nr);
	(void)k;
	page_end(&sb);
	ret = fwrite(sb.buf, 1, sb.len, f) != sb.len || fflush(f) ? -1 : 0;
	strbuf_release(&sb);
	return ret;
}

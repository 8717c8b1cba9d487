/* SPDX-License-Identifier: MIT */
/* `iolite plot` on log files: see logplot.h. */
#include "plot/logplot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/histlog.h"
#include "plot/logread.h"
#include "plot/page.h"
#include "plot/resplot.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "resultsio/resultsio.h"
#include "util/log.h"

static const char *const dir_names[DDIR_RWDIR_CNT] = {
	"read", "write", "trim",
};

/* The percentiles in a latency log's table and marks */
static const double key_pct[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
#define NR_KEY_PCT (sizeof(key_pct) / sizeof(key_pct[0]))

/* --- latency logs ---------------------------------------------------- */

struct sorted {
	uint64_t *v;
	uint64_t n;
	double mean;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void sort_dirs(const struct log_data *ld, struct sorted s[DDIR_RWDIR_CNT])
{
	uint64_t i;
	unsigned int d;

	memset(s, 0, DDIR_RWDIR_CNT * sizeof(*s));
	for (i = 0; i < ld->n; i++)
		s[ld->ddir[i]].n++;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		s[d].v = xmalloc((s[d].n ? s[d].n : 1) * sizeof(*s[d].v));
		s[d].n = 0;
	}
	for (i = 0; i < ld->n; i++) {
		struct sorted *x = &s[ld->ddir[i]];

		x->v[x->n++] = ld->value[i];
		x->mean += (double)ld->value[i];
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		qsort(s[d].v, s[d].n, sizeof(*s[d].v), cmp_u64);
		if (s[d].n)
			s[d].mean /= (double)s[d].n;
	}
}

/* The nearest-rank percentile p of n sorted values. */
static uint64_t exact_pct(const struct sorted *s, double p)
{
	double r = ceil(p / 100.0 * (double)s->n - 1e-9);
	uint64_t i = r < 1 ? 0 : (uint64_t)r - 1;

	return s->v[i < s->n ? i : s->n - 1];
}

static void td_ns(struct strbuf *sb, double v)
{
	strbuf_addstr(sb, "<td>");
	chart_fmt(sb, v, UNIT_NS, 4);
	strbuf_addstr(sb, "</td>");
}

/* A direction's row up to its mean: its count, min and mean, exactly. */
static void row_head(struct strbuf *sb, unsigned int d, const struct sorted *s)
{
	strbuf_addf(sb, "<tr data-dir=\"%s\" data-n=\"%" PRIu64 "\" "
		    "data-min=\"%" PRIu64 "\" data-max=\"%" PRIu64 "\">"
		    "<td>%s</td><td>%" PRIu64 "</td>", dir_names[d], s->n,
		    s->v[0], s->v[s->n - 1], dir_names[d], s->n);
	td_ns(sb, (double)s->v[0]);
	td_ns(sb, s->mean);
}

/*
 * A log of windows (log_avg_msec): each line a window's mean (or its
 * largest, log_max_value) over its I/Os, not an I/O. Percentiles of
 * those are no I/O's percentiles -- the slow I/Os are averaged away (a
 * 227 us "max" of a run whose slowest I/O took 11 ms) -- so none are
 * drawn or listed, and the page says why; the windows' own range is.
 */
static void window_table(struct sink *k, const struct sorted *s)
{
	struct strbuf *sb = k->page;
	unsigned int d;

	strbuf_addstr(sb, "<p class=\"sub\" data-no-pct=\"windows\">This "
		      "log holds windows (log_avg_msec): each line is the mean "
		      "latency of one window's I/Os (or their largest, with "
		      "log_max_value), not one I/O's. Percentiles of the I/Os "
		      "cannot be had from it -- averaging hides the slow ones, "
		      "so the windows' highest is not the slowest I/O -- and "
		      "none are drawn. For them: log_avg_msec=0 (a line per "
		      "I/O), log_hist_msec (histogram logs), or the JSON "
		      "report's percentiles.</p>\n<table><thead><tr>"
		      "<th>direction</th><th>windows</th><th>lowest window</th>"
		      "<th>mean of the windows</th><th>highest window</th>"
		      "</tr></thead><tbody>\n");
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!s[d].n)
			continue;
		row_head(sb, d, &s[d]);
		td_ns(sb, (double)s[d].v[s[d].n - 1]);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static void lat_table(struct sink *k, const struct log_data *ld,
		      const struct sorted *s)
{
	struct strbuf *sb = k->page;
	unsigned int d, i;

	if (k->o->format != PLOT_HTML)
		return;
	if (!ld->per_io) {
		window_table(k, s);
		return;
	}
	strbuf_addstr(sb, "<table><thead><tr><th>direction</th><th>I/Os</th>"
		      "<th>min</th><th>mean</th>");
	for (i = 0; i < NR_KEY_PCT; i++)
		strbuf_addf(sb, "<th>p%g</th>", key_pct[i]);
	strbuf_addstr(sb, "<th>max</th></tr></thead><tbody>\n");
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!s[d].n)
			continue;
		row_head(sb, d, &s[d]);
		for (i = 0; i < NR_KEY_PCT; i++) {
			if (key_pct[i] > 100.0 * (1.0 - 1.0 / (double)s[d].n))
				strbuf_addstr(sb, "<td></td>");
			else
				td_ns(sb, (double)exact_pct(&s[d], key_pct[i]));
		}
		td_ns(sb, (double)s[d].v[s[d].n - 1]);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* The slowest I/Os, slowest first: indexes into ld. */
static unsigned int slowest(const struct log_data *ld, unsigned int top,
			    uint64_t *idx)
{
	unsigned int nr = 0, j;
	uint64_t i;

	for (i = 0; i < ld->n && top; i++) {
		uint64_t v = ld->value[i];

		if (nr == top && v <= ld->value[idx[nr - 1]])
			continue;
		j = nr < top ? nr++ : nr - 1;
		/* insertion: the list is short */
		for (; j > 0 && ld->value[idx[j - 1]] < v; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	return nr;
}

static void outlier_tip(const struct log_data *ld, uint64_t i,
			struct strbuf *sb)
{
	strbuf_addf(sb, "%s at %" PRIu64 " ms: ", dir_names[ld->ddir[i]],
		    ld->t_ms[i]);
	chart_fmt(sb, (double)ld->value[i], UNIT_NS, 4);
	strbuf_addf(sb, ", %" PRIu64 " bytes", ld->bs[i]);
	if (ld->has_offset)
		strbuf_addf(sb, " at offset %" PRIu64, ld->offset[i]);
}

static void outlier_table(struct sink *k, const struct log_data *ld,
			  const uint64_t *idx, unsigned int nr)
{
	struct strbuf *sb = k->page;
	unsigned int r;

	if (k->o->format != PLOT_HTML || !nr)
		return;
	strbuf_addf(sb, "<h3>The %u slowest I/Os</h3>\n<table class=\"slow\">"
		    "<thead><tr><th>#</th><th>time</th><th>%s</th>"
		    "<th>direction</th><th>bytes</th>%s</tr></thead><tbody>\n",
		    nr, log_kind_name(ld->kind),
		    ld->has_offset ? "<th>offset</th>" : "");
	for (r = 0; r < nr; r++) {
		uint64_t i = idx[r];

		strbuf_addf(sb, "<tr data-ns=\"%" PRIu64 "\"><td>%u</td>"
			    "<td>%" PRIu64 " ms</td>", ld->value[i], r + 1,
			    ld->t_ms[i]);
		td_ns(sb, (double)ld->value[i]);
		strbuf_addf(sb, "<td>%s</td><td>%" PRIu64 "</td>",
			    dir_names[ld->ddir[i]], ld->bs[i]);
		if (ld->has_offset)
			strbuf_addf(sb, "<td>%" PRIu64 "</td>", ld->offset[i]);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static void lat_time_chart(struct sink *k, const struct log_data *ld,
			   const uint64_t *idx, unsigned int nr)
{
	struct chart_series *s[DDIR_RWDIR_CNT] = { NULL };
	bool seen[DDIR_RWDIR_CNT] = { false };
	struct strbuf t = STRBUF_INIT, tip = STRBUF_INIT;
	struct chart c;
	uint64_t i;
	unsigned int d, r;

	strbuf_addf(&t, "%s: %s over time", ld->name, log_kind_name(ld->kind));
	chart_init(&c, "time", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = log_kind_name(ld->kind) };
	/* the series in the directions' order, as the other charts */
	for (i = 0; i < ld->n; i++)
		seen[ld->ddir[i]] = true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!seen[d])
			continue;
		s[d] = chart_add(&c, ld->per_io ? SERIES_DOTS : SERIES_LINE,
				 dir_names[d]);
		s[d]->colour = d;
	}
	for (i = 0; i < ld->n; i++)
		chart_point(s[ld->ddir[i]], (double)ld->t_ms[i],
			    (double)ld->value[i]);
	for (r = 0; r < nr; r++) {
		strbuf_reset(&tip);
		outlier_tip(ld, idx[r], &tip);
		chart_mark(s[ld->ddir[idx[r]]], (double)ld->t_ms[idx[r]],
			   (double)ld->value[idx[r]], tip.buf);
	}
	c.legend = true;
	sink_chart(k, &c, ld->per_io ? "Every I/O; where they are dense, "
		   "each pixel column's range (light), middle half and median. "
		   "Dots: the slowest I/Os (hover for time and offset)." :
		   "The log's windows (log_avg_msec): each a window's mean "
		   "over its I/Os, not an I/O.");
	strbuf_release(&t);
	strbuf_release(&tip);
}

/* Points along the percentile axis: exact order statistics. */
static void quantile_points(struct chart_series *cs, const struct sorted *s,
			    double tmax)
{
	unsigned int i, steps = 600;

	for (i = 0; i <= steps; i++) {
		double t = tmax * i / steps, p = 100.0 * (1.0 - pow(10, -t));

		chart_point(cs, p, (double)exact_pct(s, p));
	}
}

static void lat_pct_chart(struct sink *k, const struct log_data *ld,
			  const struct sorted *s)
{
	struct strbuf t = STRBUF_INIT, tip = STRBUF_INIT;
	uint64_t nmax = 0;
	struct chart c;
	unsigned int d, i;
	double tmax;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		nmax = s[d].n > nmax ? s[d].n : nmax;
	tmax = fmin(fmax(ceil(log10((double)nmax) - 1e-9), 2), 7);
	strbuf_addf(&t, "%s: %s by percentile", ld->name, log_kind_name(ld->kind));
	chart_init(&c, "pct", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true, .max = 100.0 - 100.0 * pow(10, -tmax) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = log_kind_name(ld->kind) };
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct chart_series *cs;

		if (!s[d].n)
			continue;
		cs = chart_add(&c, SERIES_LINE, dir_names[d]);
		cs->colour = d;
		quantile_points(cs, &s[d], tmax);
		for (i = 0; i < NR_KEY_PCT; i++) {
			uint64_t v = exact_pct(&s[d], key_pct[i]);

			if (key_pct[i] > 100.0 * (1.0 - 1.0 / (double)s[d].n))
				continue;
			strbuf_reset(&tip);
			strbuf_addf(&tip, "%s p%g = ", dir_names[d], key_pct[i]);
			chart_fmt(&tip, (double)v, UNIT_NS, 4);
			chart_mark(cs, key_pct[i], (double)v, tip.buf);
		}
	}
	c.legend = true;
	sink_chart(k, &c, "Exact, from every line of the log; dots: the "
		   "percentiles of the table.");
	strbuf_release(&t);
	strbuf_release(&tip);
}

static void lat_section(struct sink *k, const struct log_data *ld)
{
	struct sorted s[DDIR_RWDIR_CNT];
	uint64_t *idx = xcalloc(k->o->top + 1, sizeof(*idx));
	unsigned int nr = ld->per_io ? slowest(ld, k->o->top, idx) : 0, d;

	sort_dirs(ld, s);
	lat_table(k, ld, s);
	sink_html(k, "<div class=\"grid\">\n");
	lat_time_chart(k, ld, idx, nr);
	if (ld->per_io)		/* windows are no I/Os: window_table() */
		lat_pct_chart(k, ld, s);
	sink_html(k, "</div>\n");
	outlier_table(k, ld, idx, nr);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		free(s[d].v);
	free(idx);
}

/* --- bandwidth and IOPS logs ----------------------------------------- */

/* 1, 2, 5, 10 ... at or above v */
static uint64_t nice_ceil(double v)
{
	double m = pow(10, floor(log10(v > 1 ? v : 1)));

	if (v <= m)
		return (uint64_t)m;
	if (v <= 2 * m)
		return (uint64_t)(2 * m);
	if (v <= 5 * m)
		return (uint64_t)(5 * m);
	return (uint64_t)(10 * m);
}

/*
 * A line per I/O (bw: bytes / clat of that I/O; iops: 1): the rate is
 * the bytes or I/Os per window, windows long enough for ~20 I/Os each
 * and no more than ~400 of them.
 */
static uint64_t rate_window(const struct log_data *ld)
{
	uint64_t span = ld->n ? ld->t_ms[ld->n - 1] - ld->t_ms[0] + 1 : 1;

	return nice_ceil(fmax((double)span / 400.0,
			      20.0 * (double)span / (double)(ld->n ? ld->n : 1)));
}

/* One direction's rate over time, as drawn; bytes/s or IOPS. */
struct rate {
	double *t, *v;
	uint64_t n, alloc;
	double total;		/* per I/O: bytes or I/Os in all */
	uint64_t lines;
};

static void rate_add(struct rate *r, double t, double v)
{
	if (r->n == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 256;
		r->t = xrealloc(r->t, r->alloc * sizeof(*r->t));
		r->v = xrealloc(r->v, r->alloc * sizeof(*r->v));
	}
	r->t[r->n] = t;
	r->v[r->n++] = v;
}

static void rate_of(const struct log_data *ld, unsigned int d, uint64_t win,
		    struct rate *r)
{
	double unit = ld->kind == LOG_BW ? 1024.0 : 1.0, sum = 0;
	uint64_t i, w = UINT64_MAX;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < ld->n; i++) {
		if (ld->ddir[i] != d)
			continue;
		r->lines++;
		if (!ld->per_io) {
			rate_add(r, (double)ld->t_ms[i], (double)ld->value[i] * unit);
			continue;
		}
		if (ld->t_ms[i] / win != w) {
			if (w != UINT64_MAX)
				rate_add(r, (double)((w + 1) * win),
					 sum * 1000.0 / (double)win);
			/* windows without an I/O: nothing moved */
			if (w != UINT64_MAX && ld->t_ms[i] / win > w + 1) {
				rate_add(r, (double)((w + 2) * win), 0);
				if (ld->t_ms[i] / win > w + 2)
					rate_add(r, (double)(ld->t_ms[i] / win * win), 0);
			}
			w = ld->t_ms[i] / win;
			sum = 0;
		}
		/* bw: the bytes moved; iops: the I/Os */
		sum += ld->kind == LOG_BW ? (double)ld->bs[i] : 1.0;
		r->total += ld->kind == LOG_BW ? (double)ld->bs[i] : 1.0;
	}
	if (w != UINT64_MAX)
		rate_add(r, (double)((w + 1) * win), sum * 1000.0 / (double)win);
}

static void td_rate(struct strbuf *sb, double v, enum axis_unit u)
{
	strbuf_addstr(sb, "<td>");
	chart_fmt(sb, v, u, 4);
	strbuf_addstr(sb, "</td>");
}

static void rate_row(struct strbuf *sb, const struct log_data *ld,
		     unsigned int d, const struct rate *r)
{
	enum axis_unit u = ld->kind == LOG_BW ? UNIT_BPS : UNIT_NONE;
	double lo = INFINITY, hi = 0, sum = 0, span;
	uint64_t i;

	for (i = 0; i < r->n; i++) {
		lo = fmin(lo, r->v[i]);
		hi = fmax(hi, r->v[i]);
		sum += r->v[i];
	}
	strbuf_addf(sb, "<tr data-dir=\"%s\" data-n=\"%" PRIu64 "\"><td>%s</td>"
		    "<td>%" PRIu64 "</td>", dir_names[d], r->lines, dir_names[d],
		    r->lines);
	if (ld->per_io) {
		/* from the first I/O's end to the last's */
		span = r->n ? r->t[r->n - 1] : 0;
		strbuf_addf(sb, "<td>%.0f</td>", r->total);
		td_rate(sb, span > 0 ? r->total * 1000.0 / span : 0, u);
	} else {
		td_rate(sb, r->n ? sum / (double)r->n : 0, u);
	}
	td_rate(sb, r->n ? lo : 0, u);
	td_rate(sb, hi, u);
	strbuf_addstr(sb, "</tr>\n");
}

static void rate_table(struct sink *k, const struct log_data *ld,
		       const struct rate *r)
{
	bool bw = ld->kind == LOG_BW;
	unsigned int d;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(k->page, "<table><thead><tr><th>direction</th><th>lines</th>");
	if (ld->per_io)
		strbuf_addf(k->page, "<th>%s in all</th><th>mean</th><th>lowest window</th>"
			    "<th>highest window</th>", bw ? "bytes" : "I/Os");
	else
		strbuf_addstr(k->page, "<th>mean</th><th>min</th><th>max</th>");
	strbuf_addstr(k->page, "</tr></thead><tbody>\n");
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (r[d].lines)
			rate_row(k->page, ld, d, &r[d]);
	strbuf_addstr(k->page, "</tbody></table>\n");
}

static void rate_chart(struct sink *k, const struct log_data *ld,
		       const struct rate *r, uint64_t win)
{
	bool bw = ld->kind == LOG_BW;
	struct strbuf t = STRBUF_INIT, cap = STRBUF_INIT;
	struct chart c;
	unsigned int d;
	uint64_t i;

	strbuf_addf(&t, "%s: %s over time", ld->name, bw ? "bandwidth" : "IOPS");
	chart_init(&c, "time", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR,
				   .unit = bw ? UNIT_BPS : UNIT_NONE,
				   .title = bw ? "bandwidth" : "IOPS", .zero = true };
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct chart_series *cs;

		if (!r[d].lines)
			continue;
		cs = chart_add(&c, SERIES_LINE, dir_names[d]);
		cs->colour = d;
		for (i = 0; i < r[d].n; i++)
			chart_point(cs, r[d].t[i], r[d].v[i]);
	}
	c.legend = true;
	if (win)
		strbuf_addf(&cap, "A line per I/O: the %s in each %" PRIu64
			    " ms window.", bw ? "bytes" : "I/Os", win);
	else
		strbuf_addstr(&cap, "The log's lines, as written.");
	sink_chart(k, &c, cap.buf);
	strbuf_release(&t);
	strbuf_release(&cap);
}

static void rate_section(struct sink *k, const struct log_data *ld)
{
	uint64_t win = ld->per_io ? rate_window(ld) : 0;
	struct rate r[DDIR_RWDIR_CNT];
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		rate_of(ld, d, win, &r[d]);
	rate_table(k, ld, r);
	sink_html(k, "<div class=\"grid\">\n");
	rate_chart(k, ld, r, win);
	sink_html(k, "</div>\n");
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		free(r[d].t);
		free(r[d].v);
	}
}

/* --- the command ----------------------------------------------------- */

static void log_section(struct sink *k, const struct log_data *ld)
{
	struct strbuf *sb = k->page;
	const char *dot = strstr(ld->name, ".log");

	char *base = xstrndup(ld->name, dot ? (size_t)(dot - ld->name) :
			      strlen(ld->name));

	sink_base(k, base);
	free(base);
	if (k->o->format == PLOT_HTML) {
		strbuf_addstr(sb, "<section>\n<h2>");
		xml_text(sb, ld->name);
		strbuf_addf(sb, "</h2>\n<p class=\"sub\">%s log, %" PRIu64
			    " line%s, %s%s</p>\n", log_kind_name(ld->kind),
			    ld->n, ld->n == 1 ? "" : "s",
			    ld->per_io ? "one per I/O" : "windows (log_avg_msec)",
			    ld->has_offset ? ", with offsets" : "");
	}
	/* an inline engine's slat log, a job that did nothing */
	if (!ld->n)
		sink_html(k, "<p>The log is empty: nothing to draw.</p>\n");
	else if (ld->kind == LOG_BW || ld->kind == LOG_IOPS)
		rate_section(k, ld);
	else
		lat_section(k, ld);
	sink_html(k, "</section>\n");
}

/* JSON results: '{' first (after blanks); -1 when unreadable */
/*
 * A JSON report: the file starts with '{', or (--output-format=normal,
 * json: the text report first) a line of its own "{" opens fio's report
 * ("fio version" next), which the results reader finds as compare does.
 */
#define JSON_SNIFF (256 * 1024)	/* the text reports of many jobs */

static int is_json(const char *path, struct strbuf *err)
{
	char *buf;
	const char *at;
	size_t n, i;
	int json;
	FILE *f = fopen(path, "r");

	if (!f) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	buf = xmalloc(JSON_SNIFF + 1);
	n = fread(buf, 1, JSON_SNIFF, f);
	fclose(f);
	buf[n] = 0;
	for (i = 0; i < n && strchr(" \t\r\n", buf[i]); i++)
		;
	json = i < n && buf[i] == '{';
	if (!json) {
		at = strstr(buf, "\n{\n");
		json = at && strstr(at, "\"fio version\"") != NULL;
	}
	free(buf);
	return json;
}

static int write_page(const struct plot_opts *o, const struct strbuf *page,
		      struct strbuf *err)
{
	if (o->out)
		return plot_write_file(o->out, true, page, err);
	if (fwrite(page->buf, 1, page->len, stdout) != page->len ||
	    fflush(stdout)) {
		strbuf_addf(err, "cannot write the page: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * One input: a log file (a histogram log), or JSON results (a run,
 * repeats, a sweep).
 */
struct input {
	bool json, hist;
	struct log_data ld;
	struct hist_log hl;
	struct rio_doc doc;
};

static int read_input(struct input *in, const char *path, struct strbuf *err)
{
	int json = is_json(path, err);

	if (json < 0)
		return -1;
	in->json = json;
	in->hist = !json && hist_log_named(path);
	if (in->hist)
		return hist_log_read(&in->hl, path, err);
	if (!json)
		return log_data_read(&in->ld, path, err);
	if (!rio_available()) {
		strbuf_addf(err, "'%s': JSON results need jansson, and this "
			    "iolite was built without it (apt install "
			    "libjansson-dev, then rebuild); log files plot "
			    "without it", path);
		return -1;
	}
	return rio_read_file(&in->doc, path, err) ? -1 : 0;
}

int plot_files(const char *const *files, unsigned int nr,
	       const struct plot_opts *o, struct strbuf *err)
{
	struct input *in = xcalloc(nr ? nr : 1, sizeof(*in));
	struct strbuf page = STRBUF_INIT;
	struct sink k = { .o = o, .page = &page, .err = err };
	unsigned int i, got = 0;
	int ret = -1;

	for (got = 0; got < nr; got++)
		if (read_input(&in[got], files[got], err))
			goto out;
	page_begin(&page, "iolite plot");
	strbuf_addstr(&page, "<h1>iolite plot</h1>\n");
	for (i = 0; i < nr && !k.failed; i++) {
		if (in[i].json)
			resplot_doc(&k, &in[i].doc, files[i]);
		else if (in[i].hist)
			hist_log_section(&k, &in[i].hl);
		else
			log_section(&k, &in[i].ld);
	}
	page_end(&page);
	if (k.failed || (o->format == PLOT_HTML && write_page(o, &page, err)))
		goto out;
	ret = 0;
out:
	for (i = 0; i <= got && i < nr; i++) {
		if (in[i].json)
			rio_doc_release(&in[i].doc);
		else if (in[i].hist && i < got)
			hist_log_release(&in[i].hl);
		else if (i < got)
			log_data_release(&in[i].ld);
	}
	free(in);
	sink_release(&k);
	strbuf_release(&page);
	return ret;
}

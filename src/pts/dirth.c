/* SPDX-License-Identifier: MIT */
/*
 * Demand intensity / response time histogram (DIRTH): the arithmetic
 * and the report's section.
 *
 * After the purge and the preconditioning, each round of the test loop
 * (pts.c's loop, round.c's rounds) runs 4 KiB random 65:35 cells for
 * every thread count (TC) by queue depth (QD) of 1, 2, 4, 8, 16 and 32,
 * the most threads and the deepest queue first, one round time each;
 * the tracked variable is TC32/QD32's IOPS (the loop's one cell). From
 * the matrix averaged over the measurement window come the points: the
 * maximum IOPS among the cells whose mean response time is within the
 * ceiling (5 ms), the middle (the cell nearest halfway between the
 * maximum and the minimum) and the minimum (TC1/QD1); each is run again
 * for ten round times and its response times counted in power-of-two
 * bins (the run's latency histogram, both directions). The report: the
 * matrices, the demand variation plot (IOPS by QD, a line per TC), the
 * demand intensity plot (mean response time by IOPS, a line per TC),
 * and each point's histogram.
 */
#include <math.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "pts/pts_int.h"
#include "stats/results.h"
#include "util/json.h"

const unsigned int pts_dirth_n[PTS_DIRTH_NR] = { 1, 2, 4, 8, 16, 32 };

static const char *const pt_key[PTS_DIRTH_PTS] = { "max", "mid", "min" };

void pts_dirth_avg(struct pts_run *r, const struct pts_loop *l)
{
	unsigned int t, q, k, n;

	for (t = 0; t < PTS_DIRTH_NR; t++)
		for (q = 0; q < PTS_DIRTH_NR; q++) {
			n = 0;
			for (k = pts_window_first(l); k <= l->nr_rounds; k++)
				pts_avg_add(&r->davg[t][q],
					    &r->dcell[k - 1][t][q], &n);
			pts_avg_end(&r->davg[t][q], n);
		}
}

static void set_pt(struct pts_run *r, unsigned int k, unsigned int t,
		   unsigned int q)
{
	static const char *const name[PTS_DIRTH_PTS] = {
		"maximum IOPS", "middle IOPS", "minimum IOPS"
	};
	struct pts_dirth_pt *p = &r->dpt[k];

	memset(p, 0, sizeof(*p));
	p->name = name[k];
	p->tc = t;
	p->qd = q;
}

/*
 * The points from the window's matrix: the most IOPS within the
 * response-time ceiling (or anywhere, when no cell is within it), the
 * fewest (TC1/QD1), and the cell nearest halfway between.
 */
void pts_dirth_points(struct pts_run *r)
{
	unsigned int t, q, bt = 0, bq = 0, mt = 0, mq = 0, pass;
	double best = -1, mid, d, md = INFINITY;
	bool any;	/* no cell within the ceiling: any cell */

	for (pass = 0; pass < 2 && best < 0; pass++)
		for (t = 0; t < r->dirth_nr_tc; t++)
			for (q = 0; q < PTS_DIRTH_NR; q++) {
				const struct pts_cell *c = &r->davg[t][q];

				if (c->iops > best && (pass ||
				    c->lat_mean <= PTS_DIRTH_CEIL_NS)) {
					best = c->iops;
					bt = t;
					bq = q;
				}
			}
	r->nr_dpt = 0;
	any = pass > 1;
	if (best < 0 || r->davg[0][0].iops < 0)
		return;
	mid = (best + r->davg[0][0].iops) / 2;
	for (t = 0; t < r->dirth_nr_tc; t++)
		for (q = 0; q < PTS_DIRTH_NR; q++) {
			const struct pts_cell *c = &r->davg[t][q];

			d = fabs(c->iops - mid);
			if (c->iops >= 0 && d < md &&
			    (c->lat_mean <= PTS_DIRTH_CEIL_NS || any)) {
				md = d;
				mt = t;
				mq = q;
			}
		}
	set_pt(r, 0, bt, bq);
	set_pt(r, 1, mt, mq);
	set_pt(r, 2, 0, 0);
	r->nr_dpt = PTS_DIRTH_PTS;
}

/* h's counts added to bin: [2^k, 2^(k+1)) ns, the last bin beyond h */
void pts_dirth_bins(uint64_t *bin, const struct hist *h)
{
	unsigned int i, k;

	for (i = 0; i < HIST_NR; i++) {
		uint64_t lo;

		if (!h->bucket[i])
			continue;
		lo = hist_bucket_lo(i);
		k = lo ? 63u - (unsigned int)__builtin_clzll(lo) : 0;
		if (k > PTS_DIRTH_BINS - 2)
			k = PTS_DIRTH_BINS - 2;
		bin[k] += h->bucket[i];
	}
	bin[PTS_DIRTH_BINS - 1] += h->overflow;
}

/* the bins with counts: [*first, *last]; false when none */
static bool bin_span(const struct pts_dirth_pt *p, unsigned int *first,
		     unsigned int *last)
{
	unsigned int k;

	*first = PTS_DIRTH_BINS;
	*last = 0;
	for (k = 0; k < PTS_DIRTH_BINS; k++)
		if (p->bin[k]) {
			if (*first == PTS_DIRTH_BINS)
				*first = k;
			*last = k;
		}
	return *first < PTS_DIRTH_BINS;
}

static uint64_t bin_lo(unsigned int k)
{
	/* the last bin: beyond the histogram's top bucket */
	if (k == PTS_DIRTH_BINS - 1)
		return hist_bucket_hi(HIST_NR - 1) + 1;
	return k ? 1ull << k : 0;
}

/* "2 us" */
static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3g s", ns / 1e9);
}

/* bin k's label: "2 us - 4 us", or "> 17.2 s" */
static void bin_label(char *buf, size_t len, unsigned int k)
{
	char lo[24], hi[24];

	fmt_ns(lo, sizeof(lo), bin_lo(k));
	if (k == PTS_DIRTH_BINS - 1) {
		snprintf(buf, len, ">= %s", lo);
		return;
	}
	fmt_ns(hi, sizeof(hi), 1ull << (k + 1));
	snprintf(buf, len, "%s - %s", lo, hi);
}

static void text_matrix(const struct pts_run *r, bool lat, FILE *f)
{
	unsigned int t, q;

	fprintf(f, "%s by thread count (rows) and queue depth, averaged over "
		"the measurement window:\n  %-5s", lat ? "Mean response time, "
		"ms," : "IOPS", "TC\\QD");
	for (q = 0; q < PTS_DIRTH_NR; q++)
		fprintf(f, " %10u", pts_dirth_n[q]);
	fputc('\n', f);
	for (t = 0; t < r->dirth_nr_tc; t++) {
		fprintf(f, "  %-5u", pts_dirth_n[t]);
		for (q = 0; q < PTS_DIRTH_NR; q++) {
			const struct pts_cell *c = &r->davg[t][q];

			if (c->iops < 0)
				fprintf(f, " %10s", "-");
			else if (lat)
				fprintf(f, " %10.4f", c->lat_mean / 1e6);
			else
				fprintf(f, " %10.1f", c->iops);
		}
		fputc('\n', f);
	}
}

void pts_dirth_text(const struct pts_run *r, FILE *f)
{
	unsigned int k, b, first, last;
	char label[64];

	fprintf(f, "\nDIRTH: 4 KiB random, 65/35 read/write\n");
	text_matrix(r, false, f);
	text_matrix(r, true, f);
	fprintf(f, "Points (response-time ceiling %.0f ms), each run %u "
		"round times:\n", PTS_DIRTH_CEIL_NS / 1e6,
		PTS_DIRTH_HIST_ROUNDS);
	for (k = 0; k < r->nr_dpt; k++) {
		const struct pts_dirth_pt *p = &r->dpt[k];

		fprintf(f, "  %s: TC %u, QD %u", p->name, pts_dirth_n[p->tc],
			pts_dirth_n[p->qd]);
		if (!p->done) {
			fprintf(f, ": not run\n");
			continue;
		}
		fprintf(f, ": %.1f IOPS, mean %.4f ms, max %.4f ms, %llu I/Os "
			"in %.3f s\n", p->c.iops, p->c.lat_mean / 1e6,
			p->c.lat_max / 1e6, (unsigned long long)p->ios,
			p->ms / 1000.0);
		if (!bin_span(p, &first, &last))
			continue;
		for (b = first; b <= last; b++) {
			bin_label(label, sizeof(label), b);
			fprintf(f, "    %-24s %12llu\n", label,
				(unsigned long long)p->bin[b]);
		}
	}
}

static void json_cell(struct json_writer *w, unsigned int t, unsigned int q,
		      const struct pts_cell *c)
{
	json_begin_object(w, NULL);
	json_u64(w, "tc", pts_dirth_n[t]);
	json_u64(w, "qd", pts_dirth_n[q]);
	json_double(w, "iops", c->iops);
	json_double(w, "bw_bytes", c->bw);
	json_double(w, "lat_mean_ns", c->lat_mean);
	json_double(w, "lat_max_ns", c->lat_max);
	json_end_object(w);
}

static void json_matrix(const struct pts_run *r,
			const struct pts_cell (*m)[PTS_DIRTH_NR],
			const char *key, struct json_writer *w)
{
	unsigned int t, q;

	json_begin_array(w, key);
	for (t = r->dirth_nr_tc; t-- > 0;)
		for (q = PTS_DIRTH_NR; q-- > 0;)
			if (m[t][q].iops >= 0)
				json_cell(w, t, q, &m[t][q]);
	json_end_array(w);
}

static void json_point(const struct pts_dirth_pt *p, unsigned int k,
		       struct json_writer *w)
{
	unsigned int b, first = 0, last = 0;
	bool some;

	json_begin_object(w, NULL);
	json_str(w, "point", pt_key[k]);
	json_u64(w, "tc", pts_dirth_n[p->tc]);
	json_u64(w, "qd", pts_dirth_n[p->qd]);
	json_u64(w, "done", p->done);
	if (p->done) {
		json_double(w, "iops", p->c.iops);
		json_double(w, "lat_mean_ns", p->c.lat_mean);
		json_double(w, "lat_max_ns", p->c.lat_max);
		json_u64(w, "ios", p->ios);
		json_u64(w, "ms", p->ms);
	}
	json_begin_array(w, "histogram");
	some = p->done && bin_span(p, &first, &last);
	for (b = first; some && b <= last; b++) {
		json_begin_object(w, NULL);
		json_u64(w, "lo_ns", bin_lo(b));
		if (b < PTS_DIRTH_BINS - 1)
			json_u64(w, "hi_ns", 1ull << (b + 1));
		json_u64(w, "count", p->bin[b]);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void pts_dirth_json(const struct pts_run *r, struct json_writer *w)
{
	unsigned int k;

	json_begin_object(w, "dirth");
	json_str(w, "rw_mix", "65/35");
	json_u64(w, "bs", 4096);
	json_begin_array(w, "thread_counts");
	for (k = 0; k < r->dirth_nr_tc; k++)
		json_u64(w, NULL, pts_dirth_n[k]);
	json_end_array(w);
	json_begin_array(w, "queue_depths");
	for (k = 0; k < PTS_DIRTH_NR; k++)
		json_u64(w, NULL, pts_dirth_n[k]);
	json_end_array(w);
	json_double(w, "ceiling_ns", PTS_DIRTH_CEIL_NS);
	json_begin_array(w, "rounds");
	for (k = 0; r->dcell && k < r->loop[0].nr_rounds; k++) {
		json_begin_object(w, NULL);
		json_u64(w, "round", k + 1);
		json_matrix(r, (const struct pts_cell (*)[PTS_DIRTH_NR])
			    r->dcell[k], "cells", w);
		json_end_object(w);
	}
	json_end_array(w);
	json_matrix(r, (const struct pts_cell (*)[PTS_DIRTH_NR])r->davg,
		    "matrix", w);
	json_begin_array(w, "points");
	for (k = 0; k < r->nr_dpt; k++)
		json_point(&r->dpt[k], k, w);
	json_end_array(w);
	json_end_object(w);
}

static void html_matrix(const struct pts_run *r, bool lat, struct strbuf *sb)
{
	unsigned int t, q;

	strbuf_addf(sb, "<h3>%s by thread count and queue depth, averaged "
		    "over the window</h3>\n<table class=\"dirth\"><tr>"
		    "<th>TC \\ QD</th>", lat ? "Mean response time, ms" :
		    "IOPS");
	for (q = 0; q < PTS_DIRTH_NR; q++)
		strbuf_addf(sb, "<th>%u</th>", pts_dirth_n[q]);
	strbuf_addstr(sb, "</tr>\n");
	for (t = 0; t < r->dirth_nr_tc; t++) {
		strbuf_addf(sb, "<tr><th>%u</th>", pts_dirth_n[t]);
		for (q = 0; q < PTS_DIRTH_NR; q++) {
			const struct pts_cell *c = &r->davg[t][q];

			if (c->iops < 0)
				strbuf_addstr(sb, "<td>-</td>");
			else
				strbuf_addf(sb, "<td>%.*f</td>", lat ? 4 : 1,
					    lat ? c->lat_mean / 1e6 : c->iops);
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* IOPS by QD (variation) or response time by IOPS (intensity), per TC */
static void chart_demand(const struct pts_run *r, bool intensity,
			 struct strbuf *sb)
{
	struct chart c;
	char name[32];
	unsigned int t, q;

	chart_init(&c, intensity ? "pts-dirth-intensity" :
		   "pts-dirth-variation", intensity ? "DIRTH: demand "
		   "intensity (mean response time by IOPS)" : "DIRTH: demand "
		   "variation (IOPS by queue depth)");
	if (intensity) {
		c.x = (struct chart_axis){ .scale = AXIS_LINEAR,
					   .title = "IOPS", .zero = true };
		c.y = (struct chart_axis){ .scale = AXIS_LINEAR,
					   .unit = UNIT_NS, .zero = true,
					   .title = "mean response time" };
	} else {
		c.x = (struct chart_axis){ .scale = AXIS_LOG2,
					   .title = "queue depth per thread" };
		c.y = (struct chart_axis){ .scale = AXIS_LINEAR,
					   .title = "IOPS", .zero = true };
	}
	c.legend = true;
	for (t = 0; t < r->dirth_nr_tc; t++) {
		struct chart_series *s;

		snprintf(name, sizeof(name), "TC %u", pts_dirth_n[t]);
		s = chart_add(&c, SERIES_LINE, name);
		for (q = 0; q < PTS_DIRTH_NR; q++) {
			const struct pts_cell *a = &r->davg[t][q];

			if (a->iops < 0)
				continue;
			if (intensity)
				chart_point(s, a->iops, a->lat_mean);
			else
				chart_point(s, pts_dirth_n[q], a->iops);
		}
	}
	page_figure(sb, &c, intensity ? "Each thread count's cells from QD1 "
		    "to QD32: the IOPS they gave and their mean response "
		    "time." : "Each thread count's IOPS at each queue depth, "
		    "averaged over the window.");
	chart_release(&c);
}

static void chart_hist(const struct pts_dirth_pt *p, unsigned int k,
		       struct strbuf *sb)
{
	char labels[PTS_DIRTH_BINS][48], id[32], title[128];
	const char *cats[PTS_DIRTH_BINS];
	struct chart_series *s;
	unsigned int b, first, last;
	struct chart c;

	if (!p->done || !bin_span(p, &first, &last))
		return;
	for (b = first; b <= last; b++) {
		bin_label(labels[b - first], sizeof(labels[0]), b);
		cats[b - first] = labels[b - first];
	}
	snprintf(id, sizeof(id), "pts-dirth-hist-%s", pt_key[k]);
	snprintf(title, sizeof(title), "DIRTH: response times at the %s "
		 "point (TC %u, QD %u)", p->name, pts_dirth_n[p->tc],
		 pts_dirth_n[p->qd]);
	chart_init(&c, id, title);
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .title = "response "
				   "time", .cats = cats,
				   .nr_cats = last - first + 1 };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .title = "I/Os" };
	s = chart_add(&c, SERIES_BAR, "I/Os");
	for (b = first; b <= last; b++)
		chart_point(s, b - first, p->bin[b]);
	page_figure(sb, &c, "How many of the point's I/Os (reads and writes) "
		    "took each range of time, submission to completion.");
	chart_release(&c);
}

void pts_dirth_html(const struct pts_run *r, struct strbuf *sb)
{
	unsigned int k;

	strbuf_addstr(sb, "<h2>Demand intensity / response time "
		      "histogram</h2>\n<p>4 KiB random, 65/35 read/write, "
		      "each thread count by each queue depth.</p>\n");
	html_matrix(r, false, sb);
	html_matrix(r, true, sb);
	chart_demand(r, false, sb);
	chart_demand(r, true, sb);
	strbuf_addf(sb, "<table class=\"dirth-points\"><tr><th>point</th>"
		    "<th>TC</th><th>QD</th><th>IOPS</th><th>mean, ms</th>"
		    "<th>max, ms</th><th>I/Os</th></tr>\n");
	for (k = 0; k < r->nr_dpt; k++) {
		const struct pts_dirth_pt *p = &r->dpt[k];

		strbuf_addf(sb, "<tr><td>%s</td><td>%u</td><td>%u</td>",
			    p->name, pts_dirth_n[p->tc], pts_dirth_n[p->qd]);
		if (p->done)
			strbuf_addf(sb, "<td>%.1f</td><td>%.4f</td><td>%.4f"
				    "</td><td>%llu</td></tr>\n", p->c.iops,
				    p->c.lat_mean / 1e6, p->c.lat_max / 1e6,
				    (unsigned long long)p->ios);
		else
			strbuf_addstr(sb, "<td colspan=\"4\">not run</td>"
				      "</tr>\n");
	}
	strbuf_addf(sb, "</table>\n<p>The maximum: the most IOPS among the "
		    "cells with a mean response time within %.0f ms; the "
		    "minimum: TC 1, QD 1; the middle: the cell nearest "
		    "halfway between. Each was run again for %u round "
		    "times.</p>\n", PTS_DIRTH_CEIL_NS / 1e6,
		    PTS_DIRTH_HIST_ROUNDS);
	for (k = 0; k < r->nr_dpt; k++)
		chart_hist(&r->dpt[k], k, sb);
}

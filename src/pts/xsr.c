/* SPDX-License-Identifier: MIT */
/*
 * Cross-stimulus recovery (XSR): the report's section. From the purged
 * device, three access groups one after another (round.c's pts_xsr):
 * 1024k sequential writes (8 h), 8k random writes (6 h), 1024k
 * sequential writes again (8 h), one thread at the variant's depth,
 * the throughput sampled each interval. How the drive's throughput
 * falls when the
 * stimulus turns random, and how it recovers when it turns sequential
 * again: each group's throughput over its run and over its last fifth
 * (where it settled), and the curve of all three.
 */
#include "plot/chart.h"
#include "plot/page.h"
#include "pts/pts_int.h"
#include "util/json.h"

/* the group's mean bytes/s over its last fifth of samples (0: none) */
double pts_xsr_settled(const double *bw, unsigned int nr)
{
	unsigned int k, from = nr - nr / 5;
	double sum = 0;

	if (!nr)
		return 0;
	if (from == nr)
		from = nr - 1;
	for (k = from; k < nr; k++)
		sum += bw[k];
	return sum / (nr - from);
}

static double settled(const struct pts_run *r, const struct pts_xsr *x)
{
	return pts_xsr_settled(r->xsr_bw + x->first, x->nr);
}

void pts_xsr_text(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	fprintf(f, "\nCross-stimulus recovery: one thread, %u outstanding "
		"I/O, throughput per %.3f s:\n  %-24s %10s %12s %16s\n",
		r->cfg.qd, r->wsat_interval_ms / 1000.0, "access group",
		"time s", "MB/s", "MB/s, last fifth");
	for (k = 0; k < r->nr_xsr; k++) {
		const struct pts_xsr *x = &r->xsr[k];

		fprintf(f, "  %-24s %10.3f ", x->name, x->ms / 1000.0);
		if (x->done)
			fprintf(f, "%12.2f %16.2f\n", x->bw / 1e6,
				settled(r, x) / 1e6);
		else
			fprintf(f, "%12s %16s\n", "-", "-");
	}
}

void pts_xsr_json(const struct pts_run *r, struct json_writer *w)
{
	unsigned int k, g;

	json_u64(w, "xsr_interval_ms", r->wsat_interval_ms);
	json_begin_array(w, "xsr");
	for (k = 0; k < r->nr_xsr; k++) {
		const struct pts_xsr *x = &r->xsr[k];

		json_begin_object(w, NULL);
		json_str(w, "stimulus", x->name);
		json_u64(w, "ms", x->ms);
		json_double(w, "t_start_ms", x->t_start);
		if (x->done) {
			json_double(w, "bw_bytes", x->bw);
			json_double(w, "settled_bw_bytes", settled(r, x));
		}
		json_begin_array(w, "samples");
		for (g = x->first; g < x->first + x->nr; g++) {
			json_begin_object(w, NULL);
			json_double(w, "t_ms", r->wsat_t[g]);
			json_double(w, "bw_bytes", r->xsr_bw[g]);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
}

void pts_xsr_html(const struct pts_run *r, struct strbuf *sb)
{
	struct chart_series *s;
	struct chart c;
	unsigned int k, g;

	strbuf_addstr(sb, "<table class=\"xsr\"><tr><th>access group</th>"
		      "<th>time, s</th><th>MB/s</th><th>MB/s, last fifth"
		      "</th></tr>\n");
	for (k = 0; k < r->nr_xsr; k++) {
		const struct pts_xsr *x = &r->xsr[k];

		strbuf_addf(sb, "<tr><td>%s</td><td>%.3f</td>", x->name,
			    x->ms / 1000.0);
		if (x->done)
			strbuf_addf(sb, "<td>%.2f</td><td>%.2f</td></tr>\n",
				    x->bw / 1e6, settled(r, x) / 1e6);
		else
			strbuf_addstr(sb, "<td>-</td><td>-</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	chart_init(&c, "pts-xsr-time", "XSR: throughput over time, a line "
		   "per access group");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time since the first group began" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS,
				   .title = "throughput", .zero = true };
	c.legend = true;
	for (k = 0; k < r->nr_xsr; k++) {
		char name[64];

		snprintf(name, sizeof(name), "%u: %s", k + 1, r->xsr[k].name);
		s = chart_add(&c, SERIES_LINE, name);
		for (g = r->xsr[k].first; g < r->xsr[k].first + r->xsr[k].nr;
		     g++)
			chart_point(s, r->wsat_t[g], r->xsr_bw[g]);
	}
	page_figure(sb, &c, "Throughput in each interval: the sequential "
		    "writes, the random writes that follow, and the "
		    "sequential writes again.");
	chart_release(&c);
}

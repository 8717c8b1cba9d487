/* SPDX-License-Identifier: MIT */
/*
 * Host idle recovery (HIR): the arithmetic and the report's section.
 *
 * After the 4k random write loop reaches steady state (pts.c's loop,
 * round.c's rounds), each wait state W of 1, 2, 3, 5 and 10 is a run of
 * cycles (360) pairs: A of 4k random writes (5 s at the spec's 60 s
 * rounds), then W x A idle, in which the drive may clean up; then the
 * return to baseline, cycles x A of continuous writes (round.c's
 * pts_hir). The figure of a wait state is its mean IOPS over its access
 * periods, beside the baseline after it and the steady state's average:
 * how much an idle drive recovers.
 */
#include <math.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "pts/pts_int.h"
#include "util/json.h"

double pts_hir_access_iops(uint64_t ios, uint64_t ms, uint64_t access_ms,
			   uint64_t wait_ms)
{
	double busy;

	if (!ms || !access_ms)
		return 0;
	/* the run's share of access time: A of every A + W */
	busy = (double)ms * access_ms / (access_ms + wait_ms) / 1000.0;
	return ios / busy;
}

/* the steady state's average the wait states compare with, or NAN */
static double ss_avg(const struct pts_run *r)
{
	return r->nr_loops && r->loop[0].have_ss ? r->loop[0].ss.avg : NAN;
}

void pts_hir_text(const struct pts_run *r, FILE *f)
{
	double ss = ss_avg(r);
	unsigned int k;

	fprintf(f, "\nHost idle recovery: per wait state W, %u cycles of "
		"%.3f s of 4 KiB random writes then W x that idle; then %u x "
		"%.3f s of continuous writes (the return to baseline)\n",
		r->cfg.hir_cycles, r->hir_access_ms / 1000.0,
		r->cfg.hir_cycles, r->hir_access_ms / 1000.0);
	fprintf(f, "  %-10s %10s %14s %14s %14s\n", "wait state", "idle s",
		"access IOPS", "vs steady", "baseline IOPS");
	for (k = 0; k < r->nr_hir; k++) {
		const struct pts_hir *h = &r->hir[k];

		fprintf(f, "  %-10u %10.3f %14.1f %13.1f%% ", h->wait,
			h->wait * r->hir_access_ms / 1000.0, h->access_iops,
			isnan(ss) || ss <= 0 ? 0 : 100 * h->access_iops / ss);
		if (h->base_done)
			fprintf(f, "%14.1f\n", h->base_iops);
		else
			fprintf(f, "%14s\n", "-");
	}
	if (!isnan(ss))
		fprintf(f, "  steady state (before): %.1f IOPS\n", ss);
}

void pts_hir_json(const struct pts_run *r, struct json_writer *w)
{
	unsigned int k;

	json_begin_object(w, "hir");
	json_u64(w, "access_ms", r->hir_access_ms);
	json_u64(w, "cycles", r->cfg.hir_cycles);
	json_begin_array(w, "wait_states");
	for (k = 0; k < r->nr_hir; k++) {
		const struct pts_hir *h = &r->hir[k];

		json_begin_object(w, NULL);
		json_u64(w, "wait_state", h->wait);
		json_u64(w, "wait_ms", h->wait * r->hir_access_ms);
		json_double(w, "t_start_ms", h->t_start);
		json_u64(w, "ios", h->ios);
		json_u64(w, "run_ms", h->ms);
		json_double(w, "access_iops", h->access_iops);
		if (h->base_done)
			json_double(w, "baseline_iops", h->base_iops);
		json_end_object(w);
	}
	json_end_array(w);
	json_begin_array(w, "iops_over_time");
	for (k = 0; k < r->nr_wsat; k++) {
		json_begin_object(w, NULL);
		json_double(w, "t_ms", r->wsat_t[k]);
		json_double(w, "iops", r->wsat_iops[k]);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void hir_table(const struct pts_run *r, struct strbuf *sb)
{
	double ss = ss_avg(r);
	unsigned int k;

	strbuf_addstr(sb, "<table class=\"hir\"><tr><th>wait state</th>"
		      "<th>idle, s</th><th>access IOPS</th><th>vs steady "
		      "state</th><th>baseline IOPS after</th></tr>\n");
	for (k = 0; k < r->nr_hir; k++) {
		const struct pts_hir *h = &r->hir[k];

		strbuf_addf(sb, "<tr><td>%u</td><td>%.3f</td><td>%.1f</td>",
			    h->wait, h->wait * r->hir_access_ms / 1000.0,
			    h->access_iops);
		if (isnan(ss) || ss <= 0)
			strbuf_addstr(sb, "<td>-</td>");
		else
			strbuf_addf(sb, "<td>%.1f%%</td>",
				    100 * h->access_iops / ss);
		if (h->base_done)
			strbuf_addf(sb, "<td>%.1f</td></tr>\n", h->base_iops);
		else
			strbuf_addstr(sb, "<td>-</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* the access IOPS by wait state, the steady state's average across */
static void chart_states(const struct pts_run *r, struct strbuf *sb)
{
	static const char *const cats[PTS_HIR_NR] = { "1", "2", "3", "5",
						      "10" };
	struct chart_series *s, *b;
	double ss = ss_avg(r);
	struct chart c;
	unsigned int k;

	chart_init(&c, "pts-hir-states", "HIR: IOPS in the access periods "
		   "by wait state");
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .title = "wait state "
				   "(idle = W x the access period)",
				   .cats = cats, .nr_cats = PTS_HIR_NR };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "IOPS",
				   .zero = true };
	c.legend = true;
	s = chart_add(&c, SERIES_BAR, "access periods");
	b = chart_add(&c, SERIES_BAR, "return to baseline");
	for (k = 0; k < r->nr_hir; k++) {
		chart_point(s, k, r->hir[k].access_iops);
		if (r->hir[k].base_done)
			chart_point(b, k, r->hir[k].base_iops);
	}
	if (!isnan(ss)) {
		s = chart_add(&c, SERIES_LINE, "steady state");
		chart_point(s, 0, ss);
		chart_point(s, PTS_HIR_NR - 1, ss);
	}
	page_figure(sb, &c, "Each wait state's mean IOPS over its access "
		    "periods, the continuous writes after it, and the steady "
		    "state's average before the first.");
	chart_release(&c);
}

void pts_hir_html(const struct pts_run *r, struct strbuf *sb)
{
	struct chart_series *s;
	struct chart c;
	unsigned int k;

	strbuf_addstr(sb, "<h2>Host idle recovery</h2>\n");
	strbuf_addf(sb, "<p>Per wait state W: %u cycles of %.3f s of 4 KiB "
		    "random writes, then W x that idle; then %u x %.3f s of "
		    "continuous writes (the return to baseline).</p>\n",
		    r->cfg.hir_cycles, r->hir_access_ms / 1000.0,
		    r->cfg.hir_cycles, r->hir_access_ms / 1000.0);
	hir_table(r, sb);
	chart_states(r, sb);
	chart_init(&c, "pts-hir-time", "HIR: 4k random write IOPS over time");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time since the first wait state" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .title = "IOPS",
				   .zero = true };
	s = chart_add(&c, SERIES_LINE, "IOPS");
	for (k = 0; k < r->nr_wsat; k++)
		chart_point(s, r->wsat_t[k], r->wsat_iops[k]);
	page_figure(sb, &c, "IOPS as sampled over each run, the runs one "
		    "after another: each wait state's (its idle times at 0), "
		    "then its continuous writes.");
	chart_release(&c);
}

/* SPDX-License-Identifier: MIT */
/* The runs of --repeat as one result: see repeatplot.h. */
#include "plot/repeatplot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/resplot.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "util/log.h"

/* the flagged runs' rings: black, as on the sweep pages */
#define FLAG_COLOUR 6

static const char *const metric_id[RIO_REP_NR] = {
	"rep-iops", "rep-bw", "rep-lat", "rep-p50", "rep-p99", "rep-p99.9",
};
static const char *const metric_title[RIO_REP_NR] = {
	"IOPS", "bandwidth", "mean latency", "clat p50", "clat p99",
	"clat p99.9",
};
static const enum axis_unit metric_unit[RIO_REP_NR] = {
	UNIT_NONE, UNIT_BPS, UNIT_NS, UNIT_NS, UNIT_NS, UNIT_NS,
};
static const double metric_pct[RIO_REP_NR] = { 0, 0, 0, 50, 99, 99.9 };

bool repeatplot_is_last(const struct rio_run *r)
{
	unsigned int i;

	if (!r->repeat || r->repeat != r->nr_repeats)
		return false;
	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].rep)
			return true;
	return false;
}

/* One run's figure m of a job's direction, as the summary took it. */
static bool run_value(const struct rio_dir_result *d, unsigned int m,
		      double *out)
{
	uint64_t v;

	if (!resplot_dir_used(d))
		return false;
	switch (m) {
	case RIO_REP_IOPS:
		*out = d->iops;
		return true;
	case RIO_REP_BW:
		*out = d->bw_bytes;
		return true;
	case RIO_REP_LAT:	/* total latency; clat where lat is not measured */
		*out = d->lat.s.n ? d->lat.s.mean : d->clat.s.mean;
		return true;
	default:
		if (rio_percentile(&d->clat, metric_pct[m], &v) < 0)
			return false;
		*out = (double)v;
		return true;
	}
}

static bool left_out(const struct rio_rep_dir *rd, unsigned int run)
{
	unsigned int i;

	for (i = 0; i < rd->nr_left_out; i++)
		if (rd->left_out[i] == run)
			return true;
	return false;
}

/* "j", "j #2", "j iodepth=4": what job i is called on the page */
static char *job_label(const struct rio_job *j)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int i;

	strbuf_addstr(&sb, j->name);
	/* a sweep's points share the name: their values tell them apart */
	if (j->dup && !j->nr_sweep)
		strbuf_addf(&sb, " #%u", j->dup + 1);
	for (i = 0; i < j->nr_sweep; i++)
		strbuf_addf(&sb, " %s=%s", j->sweep[i].key,
			    j->sweep[i].val ? j->sweep[i].val : "");
	return strbuf_detach(&sb);
}

struct reps {
	const struct rio_run *runs;	/* every run has the last's jobs */
	unsigned int nr;
	const struct rio_run *last;
	char **labels;
};

/* A chart of metric m: each job's mean and interval, and its runs. */
static void metric_chart(struct sink *k, const struct reps *rp, unsigned int d,
			 unsigned int m)
{
	const char **cats = xcalloc(rp->last->nr_jobs + 1, sizeof(*cats));
	struct chart_series *mean, *runs, *out = NULL;
	struct strbuf t = STRBUF_INIT, tip = STRBUF_INIT;
	unsigned int i, r, nr = 0;
	struct chart c;
	double v;

	strbuf_addf(&t, "%s: %s, %u runs", rio_dir_name[d], metric_title[m],
		    rp->nr);
	chart_init(&c, metric_id[m], t.buf);
	mean = chart_add(&c, SERIES_DOTS, "mean and interval");
	runs = chart_add(&c, SERIES_DOTS, "each run");
	for (i = 0; i < rp->last->nr_jobs; i++) {
		const struct rio_rep_dir *rd;

		if (!rp->last->jobs[i].rep ||
		    !(rd = &rp->last->jobs[i].rep->dir[d])->present)
			continue;
		cats[nr] = rp->labels[i];
		chart_point(mean, nr, rd->m[m].mean);
		chart_err(mean, rd->m[m].lo, rd->m[m].hi);
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%s: mean ", cats[nr]);
		chart_fmt(&tip, rd->m[m].mean, metric_unit[m], 4);
		strbuf_addstr(&tip, ", interval ");
		chart_fmt(&tip, rd->m[m].lo, metric_unit[m], 4);
		strbuf_addstr(&tip, " .. ");
		chart_fmt(&tip, rd->m[m].hi, metric_unit[m], 4);
		chart_mark(mean, nr, rd->m[m].mean, tip.buf);
		for (r = 0; r < rp->nr; r++) {
			struct chart_series *s = runs;

			if (!run_value(&rp->runs[r].jobs[i].dir[d], m, &v))
				continue;
			if (left_out(rd, r + 1)) {
				if (!out) {
					out = chart_add(&c, SERIES_DOTS,
							"left out: flagged by iolite");
					out->colour = FLAG_COLOUR;
					out->ring = true;
				}
				s = out;
			}
			chart_point(s, nr + 0.15, v);
			strbuf_reset(&tip);
			strbuf_addf(&tip, "%s, run %u: ", cats[nr], r + 1);
			chart_fmt(&tip, v, metric_unit[m], 4);
			if (s == out)
				strbuf_addstr(&tip, " (flagged, left out)");
			chart_mark(s, nr + 0.15, v, tip.buf);
		}
		nr++;
	}
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .cats = cats,
				   .nr_cats = nr, .title = "job" };
	c.y = (struct chart_axis){ .scale = m >= RIO_REP_LAT ? AXIS_LOG :
				   AXIS_LINEAR, .unit = metric_unit[m],
				   .zero = m < RIO_REP_LAT,
				   .title = metric_title[m] };
	c.legend = true;
	strbuf_reset(&t);
	strbuf_addf(&t, "The mean over the runs with its %g%% interval "
		    "(whiskers), each run's figure a dot beside it; hover "
		    "for the values.", rp->last->jobs[0].rep ?
		    rp->last->jobs[0].rep->confidence : 95.0);
	if (nr)
		sink_chart(k, &c, t.buf);
	else
		chart_release(&c);
	free(cats);
	strbuf_release(&t);
	strbuf_release(&tip);
}

static void td_val(struct strbuf *sb, double v, unsigned int m, bool paren)
{
	strbuf_addf(sb, "<td data-v=\"%.17g\">%s", v, paren ? "(" : "");
	chart_fmt(sb, v, metric_unit[m], 4);
	strbuf_addstr(sb, paren ? ")</td>" : "</td>");
}

/*
 * Why runs were left out, or kept though flagged, under the table: a
 * line per job, each flagged run's reason
 */
static void flag_notes(struct strbuf *sb, const struct reps *rp,
		       unsigned int d)
{
	struct strbuf why = STRBUF_INIT, line = STRBUF_INIT;
	unsigned int i, r;
	bool open = false;

	for (i = 0; i < rp->last->nr_jobs; i++) {
		const struct rio_rep *rep = rp->last->jobs[i].rep;

		if (!rep || !rep->dir[d].present)
			continue;
		strbuf_reset(&line);
		for (r = 0; r < rp->nr; r++) {
			if (!resplot_flagged(&rp->runs[r].jobs[i], d, &why))
				continue;
			strbuf_addf(&line, "%srun %u%s: %s", line.len ? "; " :
				    "", r + 1, left_out(&rep->dir[d], r + 1) ?
				    " (left out)" : "", why.buf);
		}
		if (!line.len)
			continue;
		if (!open)
			strbuf_addstr(sb, "<ul class=\"notes\">\n");
		open = true;
		strbuf_addstr(sb, "<li>");
		xml_text(sb, rp->labels[i]);
		strbuf_addstr(sb, rep->dir[d].flagged_kept ? ": flagged runs "
			      "kept in the interval, fewer than two others "
			      "being left: " : ": flagged by iolite: ");
		xml_text(sb, line.buf);
		strbuf_addstr(sb, "</li>\n");
	}
	if (open)
		strbuf_addstr(sb, "</ul>\n");
	strbuf_release(&why);
	strbuf_release(&line);
}

/* Every job's figures: mean, interval, each run's. */
static void rep_table(struct sink *k, const struct reps *rp, unsigned int d)
{
	struct strbuf *sb = k->page;
	unsigned int i, m, r;
	double v;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"repeat\"><thead>"
		      "<tr><th>job</th><th>figure</th><th>mean</th>"
		      "<th>interval</th>");
	for (r = 0; r < rp->nr; r++)
		strbuf_addf(sb, "<th>run %u</th>", r + 1);
	strbuf_addstr(sb, "</tr></thead><tbody>\n");
	for (i = 0; i < rp->last->nr_jobs; i++) {
		const struct rio_rep *rep = rp->last->jobs[i].rep;
		const struct rio_rep_dir *rd;

		if (!rep || !(rd = &rep->dir[d])->present)
			continue;
		for (m = 0; m < RIO_REP_NR; m++) {
			const struct rio_ci *ci = &rd->m[m];

			strbuf_addf(sb, "<tr data-jobi=\"%u\" data-dir=\"%s\" "
				    "data-m=\"%s\"><td>", rp->last->jobs[i].index,
				    rio_dir_name[d], rio_rep_key[m]);
			xml_text(sb, rp->labels[i]);
			strbuf_addf(sb, "</td><td>%s</td>", metric_title[m]);
			td_val(sb, ci->mean, m, false);
			strbuf_addf(sb, "<td data-lo=\"%.17g\" data-hi=\"%.17g\">",
				    ci->lo, ci->hi);
			chart_fmt(sb, ci->lo, metric_unit[m], 4);
			strbuf_addstr(sb, " .. ");
			chart_fmt(sb, ci->hi, metric_unit[m], 4);
			strbuf_addstr(sb, "</td>");
			for (r = 0; r < rp->nr; r++) {
				if (run_value(&rp->runs[r].jobs[i].dir[d], m, &v))
					td_val(sb, v, m, left_out(rd, r + 1));
				else
					strbuf_addstr(sb, "<td></td>");
			}
			strbuf_addstr(sb, "</tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
	flag_notes(sb, rp, d);
}

void repeatplot_runs(struct sink *k, const struct rio_run *runs,
		     unsigned int nr)
{
	struct reps rp = { runs, nr, &runs[nr - 1], NULL };
	const struct rio_rep *any = NULL;
	bool sweep = false;
	unsigned int i, d, m;

	for (i = 0; i < nr; i++)
		if (runs[i].nr_jobs != rp.last->nr_jobs)
			return;		/* a run cut short: no summary */
	rp.labels = xcalloc(rp.last->nr_jobs + 1, sizeof(*rp.labels));
	for (i = 0; i < rp.last->nr_jobs; i++) {
		rp.labels[i] = job_label(&rp.last->jobs[i]);
		sweep |= rp.last->jobs[i].nr_sweep != 0;
		if (!any)
			any = rp.last->jobs[i].rep;
	}
	if (k->o->format == PLOT_HTML && any)
		strbuf_addf(k->page, "<h2 id=\"repeats\">%u runs as one result"
			    "</h2>\n<p class=\"sub\">Each figure's mean over "
			    "the runs and its %g%% confidence interval "
			    "(Student t over the runs' logarithms, as iolite "
			    "computed them), then each run's; runs iolite "
			    "flagged are left out of the interval while two "
			    "others remain, and shown in parentheses.%s</p>\n",
			    nr, any->confidence, sweep ? " The sweep's charts "
			    "draw these intervals as error bars." : "");
	for (d = 0; d < RIO_DIR_NR && any; d++) {
		bool used = false;

		for (i = 0; i < rp.last->nr_jobs; i++)
			used |= rp.last->jobs[i].rep &&
				rp.last->jobs[i].rep->dir[d].present;
		if (!used)
			continue;
		if (k->o->format == PLOT_HTML)
			strbuf_addf(k->page, "<h3>%s</h3>\n", rio_dir_name[d]);
		if (!sweep) {
			sink_html(k, "<div class=\"grid\">\n");
			for (m = 0; m < RIO_REP_NR; m++)
				metric_chart(k, &rp, d, m);
			sink_html(k, "</div>\n");
		}
		rep_table(k, &rp, d);
	}
	for (i = 0; i < rp.last->nr_jobs; i++)
		free(rp.labels[i]);
	free(rp.labels);
}

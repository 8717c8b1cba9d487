/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's charts (report/html.c), made from the results model
 * with plot/chart.h: a series per job of the group, in the job's colour
 * (its place in the group), the same in every chart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/jobcharts.h"
#include "plot/latseries.h"
#include "plot/page.h"
#include "report/html.h"
#include "util/log.h"

static void figure(struct strbuf *sb, struct chart *c, const char *caption)
{
	page_figure(sb, c, caption);
	chart_release(c);
}

static struct chart_series *job_series(struct chart *c, enum series_kind kind,
				       const struct group_jobs *g,
				       unsigned int k)
{
	struct chart_series *s = chart_add(c, kind, g->label[k]);

	s->colour = k;
	return s;
}

static void chart_title(struct strbuf *t, const struct group_jobs *g,
			unsigned int d, const char *what)
{
	strbuf_reset(t);
	strbuf_addf(t, "%s: %s", html_dir_name[d], what);
	if (g->nr == 1)
		strbuf_addf(t, " (%s)", gjob(g, 0)->name);
}

/* --- latency by percentile ------------------------------------------ */

struct lat_kind {
	const char *name;
	const struct welford *w;
	const struct hist *h;
	const struct pct_result *pr;
};

static void lat_kind_of(const struct dir_result *dr, unsigned int kind,
			struct lat_kind *lk)
{
	switch (kind) {
	case 0:
		*lk = (struct lat_kind){ "clat", &dr->clat, &dr->clat_hist,
					 &dr->clat_pct };
		break;
	case 1:
		*lk = (struct lat_kind){ "slat", &dr->slat, &dr->slat_hist,
					 &dr->slat_pct };
		break;
	default:
		*lk = (struct lat_kind){ "lat", &dr->lat, &dr->lat_hist,
					 &dr->lat_pct };
		break;
	}
}

/* The listed percentiles, as JSON has them, each a dot with its value. */
static void pct_marks(struct chart_series *s, const struct job_result *j,
		      const char *who,
		      const struct lat_kind *lk, double pmax)
{
	struct strbuf tip = STRBUF_INIT;
	unsigned int i;

	if (!lk->pr->on)
		return;
	for (i = 0; i < j->nr_pct; i++) {
		if (j->pct_list[i] > pmax + 1e-9)
			continue;
		strbuf_reset(&tip);
		strbuf_addf(&tip, "%s: %s p%.*f = ", who, lk->name,
			    j->pct_precision, j->pct_list[i]);
		chart_fmt(&tip, (double)lk->pr->val[i], UNIT_NS, 4);
		chart_mark(s, j->pct_list[i], (double)lk->pr->val[i],
			   strbuf_str(&tip));
	}
	strbuf_release(&tip);
}

/* The percentile axis reaches the one-in-N sample of the largest run. */
static double pct_axis_max(const struct group_jobs *g, unsigned int d,
			   unsigned int kind)
{
	uint64_t n = 0;
	unsigned int k;

	for (k = 0; k < g->nr; k++) {
		struct lat_kind lk;

		lat_kind_of(&gjob(g, k)->dir[d], kind, &lk);
		if (lk.w->n > n)
			n = lk.w->n;
	}
	return lat_pct_axis_max(n);
}

static void pct_chart(struct strbuf *sb, const struct group_jobs *g,
		      unsigned int d, unsigned int kind)
{
	struct strbuf t = STRBUF_INIT, what = STRBUF_INIT;
	struct chart c;
	struct lat_kind lk;
	unsigned int k;
	bool marks = false;

	lat_kind_of(&gjob(g, 0)->dir[d], kind, &lk);
	strbuf_addf(&what, "%s by percentile", lk.name);
	chart_title(&t, g, d, strbuf_str(&what));
	chart_init(&c, "lat-pct", strbuf_str(&t));
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true,
				   .max = pct_axis_max(g, d, kind) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = lk.name };
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);
		struct chart_series *s;

		lat_kind_of(&j->dir[d], kind, &lk);
		if (!html_dir_shown(j, d) || !lk.w->n)
			continue;
		s = job_series(&c, SERIES_STEP, g, k);
		lat_quantile_series(s, lk.h, (double)lk.w->min, (double)lk.w->max);
		pct_marks(s, j, g->label[k], &lk, c.x.max);
		marks |= s->nr_marks != 0;
	}
	figure(sb, &c, marks ? "From the full histograms (values within "
	       "0.8%); dots: the listed percentiles, as in the JSON report "
	       "(hover for the value)." : "From the full histograms (values "
	       "within 0.8%).");
	strbuf_release(&t);
	strbuf_release(&what);
}

void html_pct_charts(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d)
{
	bool slat = false;
	unsigned int k;

	for (k = 0; k < g->nr; k++)
		slat |= gjob(g, k)->dir[d].slat.n != 0;
	pct_chart(sb, g, d, 0);
	/* without slat, lat is clat: one chart says it */
	if (slat) {
		pct_chart(sb, g, d, 2);
		pct_chart(sb, g, d, 1);
	}
}

/* --- the histogram --------------------------------------------------- */

void html_hist_chart(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d)
{
	struct strbuf t = STRBUF_INIT;
	struct chart c;
	unsigned int k;

	chart_title(&t, g, d, "clat histogram");
	chart_init(&c, "lat-hist", strbuf_str(&t));
	c.x = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				   .title = "I/Os", .zero = true };
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);
		struct chart_series *s;

		if (!html_dir_shown(j, d) || !j->dir[d].clat.n)
			continue;
		s = job_series(&c, SERIES_STEP, g, k);
		/* more fills than a few hide each other */
		s->fill = g->nr <= 3;
		lat_hist_series(s, &j->dir[d].clat_hist);
	}
	figure(sb, &c, "Share of the I/Os in each twentieth of a decade.");
	strbuf_release(&t);
}

/* --- over time ------------------------------------------------------- */

static void time_chart(struct strbuf *sb, const struct group_jobs *g,
		       unsigned int d, bool bw)
{
	struct strbuf t = STRBUF_INIT, cap = STRBUF_INIT;
	unsigned int k, i, per = 1, any = 0;
	uint64_t period = 0;
	struct chart c;

	chart_title(&t, g, d, bw ? "bandwidth over time" : "IOPS over time");
	chart_init(&c, bw ? "bw-time" : "iops-time", strbuf_str(&t));
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR,
				   .unit = bw ? UNIT_BPS : UNIT_NONE,
				   .title = bw ? "bandwidth" : "IOPS",
				   .zero = true };
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);
		const struct series *se = bw ? &j->dir[d].bw_series :
					  &j->dir[d].iops_series;
		struct chart_series *s;

		if (!html_dir_shown(j, d) || !se->nr)
			continue;
		s = job_series(&c, SERIES_LINE, g, k);
		for (i = 0; i < se->nr; i++)
			chart_point(s, (double)se->pt[i].t_ms, se->pt[i].v);
		any++;
		per = se->per_point > per ? se->per_point : per;
		/* iolite-mpi's All clients may have no plan (src/mpi/) */
		if (j->plan)
			period = bw ? j->plan->o.bwavgtime_ms :
				      j->plan->o.iopsavgtime_ms;
	}
	strbuf_addf(&cap, "A sample every %llu ms", (unsigned long long)
		    (period ? period : 500));
	if (per > 1)
		strbuf_addf(&cap, "; a point is the mean of %u samples", per);
	strbuf_addstr(&cap, ".");
	if (any)
		figure(sb, &c, strbuf_str(&cap));
	else
		chart_release(&c);
	strbuf_release(&t);
	strbuf_release(&cap);
}

void html_time_charts(struct strbuf *sb, const struct group_jobs *g,
		      unsigned int d)
{
	time_chart(sb, g, d, true);
	time_chart(sb, g, d, false);
}

/* --- queue and CPU --------------------------------------------------- */

_Static_assert(DIST_NR == JOB_DIST_NR, "fio's 7 buckets on both sides");

/* The group's jobs' bars, as plot/jobcharts.h takes them. */
static struct job_bars *group_bars(const struct group_jobs *g, bool *iowq)
{
	struct job_bars *b = xcalloc(g->nr ? g->nr : 1, sizeof(*b));
	unsigned int k;

	*iowq = false;
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);

		b[k].name = g->label[k];
		b[k].colour = k;
		results_depth_pct(j, b[k].dist[JOB_DEPTH]);
		results_submit_pct(j, b[k].dist[JOB_SUBMIT]);
		results_complete_pct(j, b[k].dist[JOB_COMPLETE]);
		b[k].usr = j->usr_cpu;
		b[k].sys = j->sys_cpu;
		b[k].iowq = j->run_ms ? (double)j->iowq_cpu_ns / 1e4 /
			    (double)j->run_ms : 0;
		*iowq |= j->iowq_cpu_ns != 0;
	}
	return b;
}

void html_dist_charts(struct strbuf *sb, const struct group_jobs *g)
{
	uint64_t calls = 0;
	struct job_bars *b;
	struct chart c;
	unsigned int k;
	bool iowq;

	b = group_bars(g, &iowq);
	jobcharts_dist(&c, JOB_DEPTH, b, g->nr);
	figure(sb, &c, NULL);
	for (k = 0; k < g->nr; k++)
		calls += gjob(g, k)->submit_calls;
	/* engines that complete inline make no submit or reap calls */
	if (calls) {
		jobcharts_dist(&c, JOB_SUBMIT, b, g->nr);
		figure(sb, &c, NULL);
		jobcharts_dist(&c, JOB_COMPLETE, b, g->nr);
		figure(sb, &c, NULL);
	}
	free(b);
}

void html_cpu_chart(struct strbuf *sb, const struct group_jobs *g)
{
	const char **names;
	struct job_bars *b;
	struct chart c;
	bool iowq;

	b = group_bars(g, &iowq);
	jobcharts_cpu(&c, b, g->nr, iowq, &names);
	figure(sb, &c, "The job threads' user and system time (and "
	       "io_uring's io-wq workers') as a share of the run time; "
	       "iolite's own cost per I/O is in the table.");
	free(names);
	free(b);
}

void html_jobs_chart(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d)
{
	const char **names = xcalloc(g->nr, sizeof(*names));
	struct strbuf t = STRBUF_INIT;
	struct chart_series *s;
	unsigned int k, nr = 0;
	struct chart c;

	chart_title(&t, g, d, "bandwidth per job");
	chart_init(&c, "bw-jobs", strbuf_str(&t));
	for (k = 0; k < g->nr; k++)
		if (html_dir_shown(gjob(g, k), d))
			names[nr++] = g->label[k];
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = nr,
				   .cats = names, .title = "job" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS,
				   .title = "bandwidth", .zero = true };
	s = chart_add(&c, SERIES_BAR, "bandwidth");
	for (k = 0, nr = 0; k < g->nr; k++) {
		const struct dir_result *dr = &gjob(g, k)->dir[d];

		if (!html_dir_shown(gjob(g, k), d))
			continue;
		chart_point(s, nr++, (double)dr->bw);
		chart_bar_colour(s, k);
		/* the samples are KiB/s, as fio keeps them */
		if (dr->bw_samples.n)
			chart_err(s, (double)dr->bw_samples.min * 1024.0,
				  (double)dr->bw_samples.max * 1024.0);
	}
	figure(sb, &c, "Each job's bandwidth; whiskers from its lowest to "
	       "its highest bandwidth sample.");
	free(names);
	strbuf_release(&t);
}

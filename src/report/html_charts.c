/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's charts: a group's jobs from the results model into
 * plot/runcharts.h's model, which draws them as `iolite plot` draws the
 * run's JSON. Borrowed from the results: the histograms; copied: the
 * percentiles and the series over time.
 */
#include <stdlib.h>

#include "plot/runcharts.h"
#include "report/html.h"
#include "util/log.h"

_Static_assert(RC_DIR_NR == RES_DIR_NR, "read, write, trim, mixed");
_Static_assert(DIST_NR == RC_DIST_NR, "fio's 7 buckets on both sides");

/* Is direction d shown for job j (fio shows it when it moved bytes)? */
static bool dir_shown(const struct job_result *j, unsigned int d)
{
	if (d == RES_MIXED)
		return j->unified && (j->dir[d].ios || j->dir[d].bytes);
	if (j->unified == UNIFIED_MIXED)
		return false;
	return j->dir[d].ios || j->dir[d].bytes;
}

static void fill_lat(struct rc_lat *l, const struct job_result *j,
		     const struct welford *w, const struct hist *h,
		     const struct pct_result *pr)
{
	struct rc_pct *pc;
	unsigned int i;

	l->n = w->n;
	l->min = (double)w->min;
	l->max = (double)w->max;
	l->mean = w->n ? w->mean : 0.0;
	l->hist = h;
	if (!pr->on)
		return;
	pc = rc_pct_alloc(l, j->nr_pct);
	for (i = 0; i < j->nr_pct; i++)
		pc[i] = (struct rc_pct){ j->pct_list[i], pr->val[i] };
}

/*
 * The sampler's series: a sample every bwavgtime (iopsavgtime), or a
 * twentieth of a short run's runtime (run/runner.c): the period is the
 * points' own spacing, as the JSON report gives it. lat: the IOPS
 * points' mean clat instead of their rate (none when not measured).
 */
static void fill_time(struct rc_time *t, const struct series *se, bool lat)
{
	struct rc_point *p;
	unsigned int i;

	for (i = 0; lat && i < se->nr && !(se->pt[i].lat > 0); i++)
		;
	if (lat && i == se->nr)
		return;		/* clat not measured: no latency over time */
	p = rc_time_alloc(t, se->nr);
	for (i = 0; i < se->nr; i++)
		p[i] = (struct rc_point){ (double)se->pt[i].t_ms,
					  lat ? se->pt[i].lat : se->pt[i].v };
	t->per_point = se->per_point;
	if (se->nr > 1)
		t->period_ms = (double)(se->pt[se->nr - 1].t_ms -
					se->pt[0].t_ms) / (se->nr - 1);
	else if (se->nr)
		t->period_ms = (double)se->pt[0].t_ms;
}

static void fill_dir(struct rc_dir *rd, const struct job_result *j,
		     unsigned int d)
{
	const struct dir_result *dr = &j->dir[d];

	rd->shown = dir_shown(j, d);
	rd->iops = dr->iops;
	rd->bw = (double)dr->bw;
	rd->ios = d == RES_MIXED ? j->mixed_issued[0] : j->issued[d];
	rd->runtime_ms = dr->runtime_ms;
	fill_lat(&rd->lat[RC_CLAT], j, &dr->clat, &dr->clat_hist, &dr->clat_pct);
	fill_lat(&rd->lat[RC_SLAT], j, &dr->slat, &dr->slat_hist, &dr->slat_pct);
	fill_lat(&rd->lat[RC_LAT], j, &dr->lat, &dr->lat_hist, &dr->lat_pct);
	/* the samples are KiB/s, as fio keeps them */
	rd->bw_range = dr->bw_samples.n != 0;
	rd->bw_lo = (double)dr->bw_samples.min * 1024.0;
	rd->bw_hi = (double)dr->bw_samples.max * 1024.0;
	fill_time(&rd->time[0], &dr->bw_series, false);
	fill_time(&rd->time[1], &dr->iops_series, false);
	/* the mean clat of each IOPS point's I/Os */
	fill_time(&rd->time[2], &dr->iops_series, true);
}

static void fill_bars(struct rc_job *b, const struct job_result *j)
{
	results_depth_pct(j, b->dist[RC_DEPTH]);
	results_submit_pct(j, b->dist[RC_SUBMIT]);
	results_complete_pct(j, b->dist[RC_COMPLETE]);
	b->usr = j->usr_cpu;
	b->sys = j->sys_cpu;
	b->iowq = j->run_ms ? (double)j->iowq_cpu_ns / 1e4 /
		  (double)j->run_ms : 0;
}

void html_group_get(const struct run_result *rr, unsigned int gid,
		    struct group_jobs *g)
{
	const char **names;
	unsigned int i, k, d;

	g->rr = rr;
	g->nr = 0;
	g->idx = xcalloc(rr->nr_jobs ? rr->nr_jobs : 1, sizeof(*g->idx));
	for (i = 0; i < rr->nr_jobs; i++)
		if (rr->jobs[i].groupid == gid && !rr->jobs[i].not_started)
			g->idx[g->nr++] = i;
	names = xcalloc(g->nr ? g->nr : 1, sizeof(*names));
	for (k = 0; k < g->nr; k++)
		names[k] = gjob(g, k)->name;
	rc_group_init(&g->rc, RC_RUN, gid, names, g->nr);
	free(names);
	g->rc.anchors = true;
	g->rc.depth = true;
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);

		g->rc.jobs[k].index = g->idx[k];
		g->rc.jobs[k].pct_prec = (int)j->pct_precision;
		for (d = 0; d < RES_DIR_NR; d++)
			fill_dir(&g->rc.jobs[k].dir[d], j, d);
		fill_bars(&g->rc.jobs[k], j);
		g->rc.iowq |= j->iowq_cpu_ns != 0;
		/* engines that complete inline make no submit or reap calls */
		g->rc.calls |= j->submit_calls != 0;
	}
}

void html_group_release(struct group_jobs *g)
{
	rc_group_release(&g->rc);
	free(g->idx);
}

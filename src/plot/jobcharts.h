/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_JOBCHARTS_H
#define IOLITE_PLOT_JOBCHARTS_H

#include <stdbool.h>

#include "plot/chart.h"

/*
 * The per-group bar charts of a run -- the IO depth, submit and complete
 * distributions and the CPU -- from plain figures, so that the html
 * report (from the results model) and `iolite plot` (from JSON read
 * back) make the same charts. The caller fills a job_bars per job and
 * renders the chart (chart_render, page_figure) and releases it.
 */

#define JOB_DIST_NR 7	/* fio's buckets: 1 2 4 8 16 32 >=64 */

enum job_dist { JOB_DEPTH, JOB_SUBMIT, JOB_COMPLETE };

struct job_bars {
	const char *name;	/* borrowed until the chart is rendered */
	unsigned int colour;	/* the job's place in its group */
	double dist[3][JOB_DIST_NR];	/* % of I/Os or calls, by job_dist */
	double usr, sys, iowq;	/* % of the run time */
};

/* One of the three distributions, a bar series per job. */
void jobcharts_dist(struct chart *c, enum job_dist which,
		    const struct job_bars *j, unsigned int nr);

/*
 * usr and sys per job (and io-wq's workers when iowq: any job used
 * them); c->x.cats points into a table the caller frees after
 * rendering: *names (nr entries).
 */
void jobcharts_cpu(struct chart *c, const struct job_bars *j, unsigned int nr,
		   bool iowq, const char ***names);

#endif

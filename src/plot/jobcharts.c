/* SPDX-License-Identifier: MIT */
/* A group's bar charts from plain figures: see jobcharts.h. */
#include "plot/jobcharts.h"

#include "util/log.h"

static const char *const depth_cats[JOB_DIST_NR] = {
	"1", "2", "4", "8", "16", "32", "\342\211\24564",	/* >= 64 */
};
static const char *const call_cats[JOB_DIST_NR] = {
	"0", "1-4", "5-8", "9-16", "17-32", "33-64", ">64",
};

void jobcharts_dist(struct chart *c, enum job_dist which,
		    const struct job_bars *j, unsigned int nr)
{
	static const char *const title[] = {
		"IO depth", "I/Os per submit call", "I/Os per reap call",
	};
	static const char *const ytitle[] = { "I/Os", "calls", "calls" };
	static const char *const id[] = { "depth", "submit", "complete" };
	unsigned int k, i;

	chart_init(c, id[which], title[which]);
	c->x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = JOB_DIST_NR,
				    .cats = which ? call_cats : depth_cats,
				    .title = which ? "I/Os in the call" :
					   "I/Os in flight" };
	c->y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				    .title = ytitle[which], .zero = true };
	for (k = 0; k < nr; k++) {
		struct chart_series *s = chart_add(c, SERIES_BAR, j[k].name);

		s->colour = j[k].colour;
		for (i = 0; i < JOB_DIST_NR; i++)
			chart_point(s, i, j[k].dist[which][i]);
	}
	c->legend = false;
}

void jobcharts_cpu(struct chart *c, const struct job_bars *j, unsigned int nr,
		   bool iowq, const char ***names)
{
	struct chart_series *usr, *sys, *wq = NULL;
	unsigned int k;

	*names = xcalloc(nr ? nr : 1, sizeof(**names));
	for (k = 0; k < nr; k++)
		(*names)[k] = j[k].name;
	chart_init(c, "cpu", "CPU");
	c->x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = nr,
				    .cats = *names, .title = "job" };
	c->y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				    .title = "CPU time of the run time",
				    .zero = true };
	usr = chart_add(c, SERIES_BAR, "usr");
	sys = chart_add(c, SERIES_BAR, "sys");
	if (iowq)
		wq = chart_add(c, SERIES_BAR, "io-wq workers");
	for (k = 0; k < nr; k++) {
		chart_point(usr, k, j[k].usr);
		chart_point(sys, k, j[k].sys);
		if (wq)
			chart_point(wq, k, j[k].iowq);
	}
}

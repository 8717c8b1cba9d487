/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_RESPLOT_H
#define IOLITE_PLOT_RESPLOT_H

#include <stdint.h>

#include "plot/chart.h"
#include "resultsio/resultsio.h"

/*
 * `iolite plot` on JSON results (resultsio/resultsio.h: fio 3.x's and
 * iolite's json and json+, repeats, sweeps): per run its head (the
 * file, who made it, when, the global options, the notes), then per
 * group the file's figures put into plot/runcharts.h's model and drawn
 * as the html report (report/html.c) draws a run -- latency by
 * percentile from the json+ bins where present (the report's curve),
 * else through the listed percentiles; the clat histogram (json+);
 * bandwidth and IOPS over time (iolite's samples, or the rates between
 * fio's --status-interval reports); the queue and CPU. A sweep gets its
 * charts instead (plot/sweepplot.h); the runs of a repeat are drawn as
 * one result (plot/repeatplot.h), then the last run's charts. Chart ids and series names are the
 * report's, so that the pages of fio's and iolite's files for the same
 * job have the same charts.
 */

struct sink;

/*
 * The sections of every run of doc (read from path); the runs of a
 * repeat as one result (plot/repeatplot.h) with the last run's charts.
 */
void resplot_doc(struct sink *k, const struct rio_doc *doc, const char *path);

/*
 * For the html report of a --repeat or --sweep run: the repeats' and
 * the sweep's sections appended to page, from the run's own JSON report
 * (json, len bytes) read back through resultsio/ -- the report and
 * `iolite plot` share the JSON layout and nothing else. Nothing for
 * other runs; a note naming libjansson-dev when this build cannot read
 * it back.
 */
void resplot_report(struct strbuf *page, const char *json, size_t len);

/*
 * For the html report of a run that wrote an interval stream to a file
 * (--interval-output=FILE): a section of each job's IOPS and clat
 * percentiles over time, an interval a point, from the stream read back
 * through resultsio/ (`iolite plot`'s reader); a note naming the file
 * and line when it cannot be read, or libjansson-dev when this build
 * cannot read it.
 */
void resplot_stream(struct strbuf *page, const char *path);

/* --- shared with sweepplot.c and compare/ ----------------------------- */

/*
 * Latency by percentile of l into s, as runcharts.h's rc_lat_series()
 * draws it: from its json+ bins, else through its listed percentiles;
 * a dot on each listed percentile up to pmax. Returns the dots.
 */
unsigned int resplot_lat_series(struct chart_series *s, const struct rio_lat *l,
				const char *who, const char *kind, double pmax);

/* A direction that moved something, as fio shows it. */
bool resplot_dir_used(const struct rio_dir_result *d);

/*
 * Did iolite flag job j's direction d (stats/results.h's rule: the
 * tester starved of CPU, or measured for under a second)? Why into why.
 */
bool resplot_flagged(const struct rio_job *j, unsigned int d,
		     struct strbuf *why);

#endif

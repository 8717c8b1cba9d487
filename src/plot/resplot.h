/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_RESPLOT_H
#define IOLITE_PLOT_RESPLOT_H

#include <stdint.h>

#include "plot/chart.h"
#include "resultsio/resultsio.h"

/*
 * `iolite plot` on JSON results (resultsio/resultsio.h: fio 3.x's and
 * iolite's json and json+, repeats, sweeps): the charts the html report
 * (report/html.c) draws for a run, made from what the file holds --
 * per group and direction the figures, latency by percentile (from the
 * json+ bins where present: the report's curve; else through the listed
 * percentiles), the clat histogram (json+), bandwidth and IOPS over time
 * (iolite's samples, or the rates between fio's --status-interval
 * reports), each job's bandwidth, the percentiles as a table; per group
 * the IO depth, submit and complete distributions and the CPU. A sweep
 * gets its charts first (plot/sweepplot.h). Chart ids and series names
 * are the report's, so that the pages of fio's and iolite's files for
 * the same job have the same charts.
 *
 * Every figure printed carries the file's value in a data attribute
 * (data-jobi, data-dir, data-iops, data-bw, data-ios, data-runtime,
 * data-clat-mean on a figures row; data-lat, data-pct, data-ns on a
 * percentile cell), as the report's page does.
 */

struct sink;

/* The sections of every run of doc (read from path). */
void resplot_doc(struct sink *k, const struct rio_doc *doc, const char *path);

/* --- shared with sweepplot.c and compare/ ----------------------------- */

/*
 * Latency by percentile of l into s: the quantile function from its
 * json+ bins (as the report draws it), else a line through its listed
 * percentiles; either way a mark on each listed percentile up to pmax,
 * its tooltip "who: kind p99 = 1.23 ms". Returns the marks added.
 */
unsigned int resplot_lat_series(struct chart_series *s, const struct rio_lat *l,
				const char *who, const char *kind, double pmax);

/* A direction that moved something, as fio shows it. */
bool resplot_dir_used(const struct rio_dir_result *d);

#endif

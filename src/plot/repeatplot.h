/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_REPEATPLOT_H
#define IOLITE_PLOT_REPEATPLOT_H

#include <stdbool.h>

#include "resultsio/resultsio.h"

/*
 * The runs of --repeat=N as one result (`iolite plot` on a repeat's
 * JSON, and the html report of a repeated run, through the same
 * JSON-shaped model): per direction, each job's IOPS, bandwidth, mean
 * latency and clat p50, p99 and p99.9 as a chart -- the mean over the
 * runs with its confidence interval as whiskers, each run's figure a dot
 * beside it, the runs iolite flagged and left out of the interval as
 * black rings -- and a table of the same numbers (mean, interval, each
 * run's figure; a left-out run's in parentheses, with why), each cell
 * the file's number exactly in data-v (data-lo, data-hi). The means and
 * intervals are the file's own ("repeat_summary"), never recomputed
 * here, so that the page says what the terminal said. A sweep that was
 * repeated draws its intervals as error bars on its curves
 * (plot/sweepplot.h) and gets the table alone here.
 */

struct sink;

/* Is r the last run of repeats, with the summary over them? */
bool repeatplot_is_last(const struct rio_run *r);

/* runs: the nr runs of one repeat, in order, the last holding the sums. */
void repeatplot_runs(struct sink *k, const struct rio_run *runs,
		     unsigned int nr);

#endif

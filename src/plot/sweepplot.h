/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_SWEEPPLOT_H
#define IOLITE_PLOT_SWEEPPLOT_H

#include <stdbool.h>

#include "resultsio/resultsio.h"

/*
 * A sweep's charts (`iolite plot` on a sweep's JSON, and the html
 * report of a --sweep run, through the same JSON-shaped model): each job
 * of a sweep point carries "sweep": {"iodepth": "4", ...}, its point's
 * values, and the document's "iolite" -> "sweep" -> "options" names the
 * swept options. Per direction: IOPS, bandwidth, and clat p50, p99 and
 * p99.9 (lat when clat is not measured) against the swept option with
 * the most numeric values -- a log axis when the values are geometric
 * (1 2 4 8 ...), a linear one when evenly spaced, a category each when
 * not numbers -- one series per job, and per value of the other swept
 * options in a cross product ("j1 bs=4k"); p99 against IOPS; points
 * iolite flagged ringed. A table lists every point's figures and the
 * CPU per I/O (usr, sys, iolite's own, io-wq), each cell the file's
 * number exactly in data-v. A repeated sweep (the last run's jobs carry
 * the repeat summary, resultsio.h's rio_rep) draws each point's mean
 * over the runs, its interval an error bar (data-lo, data-hi).
 */

struct sink;

/* Does r hold a sweep (the document says so, or a job has a point)? */
bool sweepplot_is_sweep(const struct rio_run *r);

void sweepplot_run(struct sink *k, const struct rio_run *r);

#endif

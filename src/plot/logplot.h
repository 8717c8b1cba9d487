/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_LOGPLOT_H
#define IOLITE_PLOT_LOGPLOT_H

#include "util/strbuf.h"

/*
 * `iolite plot`: pictures from saved results: fio-format log files
 * (plot/logread.h), iolite's or fio's, each a section of charts -- the
 * values over time, for latency logs the latency by percentile and the
 * slowest I/Os (their time, and offset with log_offset=1) -- with the
 * figures from every line; histogram logs (plot/histlog.h); and JSON
 * results (plot/resplot.h, through resultsio/). Drawing thins a big log
 * out (plot/chart.h); the figures never are.
 *
 * Inputs are told apart by their content and name: a file that starts
 * with '{' is JSON results; NAME_clat_hist[.N].log a histogram log; a
 * new kind of input is one more case in plot_files().
 */

enum plot_format { PLOT_HTML, PLOT_SVG };

struct plot_opts {
	enum plot_format format;
	/*
	 * html: the page's file (NULL: stdout); svg: the directory the
	 * charts go to, one file each (required)
	 */
	const char *out;
	unsigned int top;	/* the slowest I/Os listed */
};

/*
 * Reads every file, then writes the page or the SVG files. Returns 0,
 * or -1 with the first problem in err (nothing is written when an input
 * is bad).
 */
int plot_files(const char *const *files, unsigned int nr,
	       const struct plot_opts *o, struct strbuf *err);

#endif

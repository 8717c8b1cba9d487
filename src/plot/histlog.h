/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_HISTLOG_H
#define IOLITE_PLOT_HISTLOG_H

#include <stdint.h>

#include "plot/sink.h"
#include "stats/stats.h"
#include "util/strbuf.h"

/*
 * Histogram logs (write_hist_log: NAME_clat_hist.N.log, iolite's or
 * fio's) read back and drawn for `iolite plot`. A line is "time_ms,
 * direction, block size, c0, c1, ... cK": the completion latencies of
 * one window (log_hist_msec) counted in fio's buckets (stats/stats.h),
 * 2^coarseness neighbouring buckets summed into each count
 * (log_hist_coarseness 0 to 6: K + 1 = 1856 >> coarseness). A window's
 * counts are its own, not a running total (fio 3.x writes the
 * difference from the previous line).
 *
 * The whole log's histogram per direction is the sum of its lines, put
 * back into the buckets (a coarse count into its group's middle one) and
 * drawn with the report's curves (plot/latseries.h); each window's
 * percentiles (fio's rule, stats/results.h) are drawn over time. Lines
 * are summed as they are read: a long log costs a few numbers a line.
 */

#define HISTLOG_PCT_NR 4	/* 50, 90, 99, 99.9 per window */

struct hist_log {
	char *name;		/* the file's name without its directory */
	unsigned int coarse;	/* log_hist_coarseness, from the width */
	uint64_t n, alloc;	/* lines */
	uint64_t *t_ms, *ios;	/* per line: its time, its I/Os */
	uint64_t (*pct)[HISTLOG_PCT_NR];	/* per line, ns (0: no I/O) */
	uint8_t *ddir;
	struct hist *h[3];	/* per direction, the sum (NULL: none) */
};

/* True when the file's name is a histogram log's (_clat_hist[.N].log). */
int hist_log_named(const char *name);

/*
 * Reads path into hl (zeroed first). Returns 0, or -1 with the reason
 * ("NAME:LINE: ...") in err; hl is released on error.
 */
int hist_log_read(struct hist_log *hl, const char *path, struct strbuf *err);
void hist_log_release(struct hist_log *hl);

/* The log's section of the page: a table and its charts. */
void hist_log_section(struct sink *k, const struct hist_log *hl);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_PAGE_H
#define IOLITE_PLOT_PAGE_H

#include "plot/chart.h"
#include "util/strbuf.h"

/*
 * The frame of an HTML page of charts, shared by the report
 * (report/html.c) and `iolite plot` (plot/logplot.c): one file that
 * holds everything -- its style sheet inline, the charts as inline SVG,
 * no script, no font, no image or link to fetch -- so that it opens
 * offline in any current browser and prints (print styles: a chart a
 * row at its own size, none cut across pages). The markup is well-formed XML as
 * well as HTML, so that xmllint can check it.
 */

/* From the doctype to the opening <main>; title is the page's <title>. */
void page_begin(struct strbuf *sb, const char *title);
/* Closes <main>, with a footer naming iolite's version. */
void page_end(struct strbuf *sb);

/*
 * The percentile tables' columns a block: fio's 17 default percentiles
 * fit neither a 1280-pixel window nor a printed page in one row, so the
 * tables go in blocks of this many, each under its own header row
 * (<tr class="ph">).
 */
#define PAGE_PCT_COLS 9

/* A chart inline with its caption (NULL: none) under it. */
void page_figure(struct strbuf *sb, const struct chart *c,
		 const char *caption);

/* <td>v</td>, v with its unit (chart_fmt's, 4 digits). */
void page_td_val(struct strbuf *sb, double v, enum axis_unit unit);

/* <tr><th>key</th><td>value</td></tr>, value escaped. */
void page_kv(struct strbuf *sb, const char *key, const char *value);

/*
 * What a group's jobs are called on a page: the job's name, or "NAME
 * #N" (N from 1, in the group's order) where jobs of the group share a
 * name (numjobs=, a job file's repeated section), so that a legend or
 * a table tells them apart. An array of nr strings, freed by
 * page_labels_free().
 */
char **page_job_labels(const char *const *names, unsigned int nr);
void page_labels_free(char **labels, unsigned int nr);

/* The run's notes under a "Notes" heading; nothing when there are none. */
void page_notes(struct strbuf *sb, const char *const *notes, unsigned int nr);

#endif

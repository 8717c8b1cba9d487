/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_SINK_H
#define IOLITE_PLOT_SINK_H

#include "plot/chart.h"
#include "plot/logplot.h"

/*
 * Where finished charts go -- the page (html: `iolite plot`'s, or the
 * html report's, which sets o->format PLOT_HTML and page), or with
 * --format=svg a .svg file each in the output directory, named
 * BASE-ID.svg (BASE-ID-2.svg ... when a name is taken already: a page
 * has several charts of one kind). HTML text (tables, headings) goes to
 * the page only. The first write error stops the files and stays in err.
 */
struct sink {
	const struct plot_opts *o;
	struct strbuf *page;	/* html */
	char *base;		/* svg: the input's name, less its suffix */
	struct strbuf *err;
	int failed;
	char **names;		/* svg: the files written */
	unsigned int nr_names;
};

/* Renders c with its caption to the page or a file, and releases it. */
void sink_chart(struct sink *k, struct chart *c, const char *caption);
/* Appends s to the page (html only). */
void sink_html(struct sink *k, const char *s);
/* Sets the base of the next charts' file names (copied). */
void sink_base(struct sink *k, const char *base);
void sink_release(struct sink *k);

/*
 * Writes sb to path: named (the user's -o) or a chart's file name made
 * from it (never followed through a symlink: util/safefile.h).
 */
int plot_write_file(const char *path, bool named, const struct strbuf *sb,
		    struct strbuf *err);

#endif

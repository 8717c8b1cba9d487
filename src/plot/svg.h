/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_SVG_H
#define IOLITE_PLOT_SVG_H

#include <stdbool.h>

#include "util/strbuf.h"

/*
 * The bottom of the pictures: XML text and SVG elements appended to a
 * strbuf. Everything a caller passes as text (job names, notes, file
 * names) goes through xml_text()/xml_attr(), which escape what XML
 * needs escaped and replace what XML cannot carry at all (control
 * characters, bytes that are not UTF-8) by U+FFFD, so that the HTML
 * report and every SVG stay well-formed whatever the job file said.
 * Coordinates are written short (one decimal at most, no trailing
 * zeros): a chart of thousands of points stays small.
 *
 * Nothing here allocates but the strbuf; nothing is global.
 */

/* Appends s as XML character data: & < > escaped. */
void xml_text(struct strbuf *sb, const char *s);
/* Appends s for a double-quoted attribute value: & < > " escaped. */
void xml_attr(struct strbuf *sb, const char *s);
/*
 * Appends at most max characters (not bytes) of s, unescaped, the last
 * one an ellipsis when s is longer: for labels with little room.
 */
void text_cut(struct strbuf *sb, const char *s, unsigned int max);

/* A coordinate: one decimal, trailing ".0" dropped ("12", "12.5"). */
void svg_num(struct strbuf *sb, double v);

/*
 * <svg ...> with a viewBox of w x h. attrs: more attributes, written as
 * given (" class=\"chart\" data-x=\"...\""; the caller escapes values
 * with xml_attr). style: NULL inline in the HTML report (the page's
 * style sheet applies), else a standalone .svg file: the XML
 * declaration first and this style sheet embedded. svg_end() closes it.
 */
void svg_begin(struct strbuf *sb, unsigned int w, unsigned int h,
	       const char *attrs, const char *style);
void svg_end(struct strbuf *sb);

/* <text> at (x, y); anchor "start", "middle" or "end"; cls may be NULL. */
void svg_text(struct strbuf *sb, double x, double y, const char *anchor,
	      const char *cls, const char *text);
/* The same, turned 90 degrees counter-clockwise about (x, y). */
void svg_text_up(struct strbuf *sb, double x, double y, const char *cls,
		 const char *text);
void svg_line(struct strbuf *sb, double x1, double y1, double x2, double y2,
	      const char *cls);
/* A native tooltip: <title> as an element's first child. */
void svg_title(struct strbuf *sb, const char *text);

#endif

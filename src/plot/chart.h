/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_CHART_H
#define IOLITE_PLOT_CHART_H

#include <stdbool.h>

#include "util/strbuf.h"

/*
 * Charts as SVG, for the HTML report (report/html.c) and `iolite plot`
 * (plot/logplot.c). A caller describes a chart -- two axes and a few
 * series of points -- and renders it; this module does the layout a
 * reader expects: titled axes with their units, ticks in 1-2-5 steps on
 * linear axes and at decades on log axes (1 us, 10 us, 100 us, 1 ms),
 * a percentile axis stretched toward the tail (50, 90, 99, 99.9 ...),
 * tick labels spaced so that they never overlap, a legend, and the
 * Okabe-Ito colours (which colour-blind readers tell apart), dashed from
 * the eighth series on.
 *
 * Data go in as plain numbers in the axis's unit (ns, bytes/s, ms since
 * the start, percent); drawing never changes them. A series with more
 * points than the plot has pixel columns is drawn from each column's
 * first, lowest, highest and last point (lines: the picture is the
 * same), or for dots as each column's range, middle half and median
 * (where a million dots would be a smear): the file stays small. Figures printed as numbers are the caller's,
 * from its full data, never from the drawing.
 *
 * Hovering shows exact values (native SVG <title> tooltips, no script):
 * on marks, on bars, and on the points of short series. Every chart
 * carries machine-readable attributes for tests and tools: data-chart
 * (the caller's id), data-title, data-series (how many), data-x and
 * data-y (each axis's range as drawn, in data units), data-xd and
 * data-yd (the data's own range, when there are data); each series is a
 * <g> with data-s (its name), data-n (its points as given, before
 * thinning) and data-marks.
 *
 * Ownership: the chart owns everything added to it (names and tips are
 * copied); chart_release() frees it. Series pointers stay valid until
 * then.
 */

enum axis_scale {
	AXIS_LINEAR,
	AXIS_LOG,	/* decades; values <= 0 sit on the axis */
	AXIS_PCT,	/* percentiles in %: at -log10(1 - p/100) */
	AXIS_CAT,	/* categories 0 .. nr_cats - 1, a band each */
	AXIS_LOG2,	/* powers of two (a queue depth, a block size):
			 * log, the data's range, a tick at each power */
};

enum axis_unit {
	UNIT_NONE,	/* a count: 12, 1.5k, 2M */
	UNIT_NS,	/* a duration in ns: ns, us, ms, s */
	UNIT_MS,	/* time since the start, in ms: shown in s or ms */
	UNIT_BPS,	/* bytes/s: B/s, KiB/s, MiB/s, GiB/s */
	UNIT_PCT,	/* percent */
};

struct chart_axis {
	enum axis_scale scale;
	enum axis_unit unit;
	const char *title;	/* "latency"; the unit is added: "(ms)" */
	bool fixed;		/* the range is min .. max, not the data's */
	bool zero;		/* linear: the range starts at 0 */
	bool whole;		/* linear: ticks on whole numbers (rounds) */
	double min, max;
	const char *const *cats;	/* AXIS_CAT labels (borrowed) */
	unsigned int nr_cats;
};

enum series_kind {
	SERIES_LINE,
	SERIES_STEP,	/* flat to the next point's x, then up or down */
	SERIES_BAR,	/* on a category axis only; several are grouped */
	SERIES_DOTS,	/* a scatter; per-column bands when dense */
};

struct chart_point {
	double x, y;
	double lo, hi;		/* its error bar, when err is set */
	bool err;
	bool own_colour;	/* a bar: colour, not the series' */
	unsigned int colour;
};

struct chart_mark {
	double x, y;
	char *tip;
};

struct chart_series {
	char *name;		/* legend and tooltips */
	enum series_kind kind;
	unsigned int colour;	/* palette index; chart_add: the next one */
	bool fill;		/* lines and steps: a light fill below */
	bool err;		/* some point has an error bar (chart_err) */
	bool ring;		/* dots: a ring around each point instead */
	struct chart_point *p;
	unsigned int n, alloc;
	struct chart_mark *m;	/* dots with a tooltip of their own */
	unsigned int nr_marks, alloc_marks;
};

struct chart {
	char *id;		/* data-chart, for tests ("clat-pct") */
	char *title;
	char *note;		/* a small line under the plot, or NULL */
	struct chart_axis x, y;
	struct chart_series **s;
	unsigned int nr, alloc;
	unsigned int width, height;	/* of the plot's box: 640 x 300 */
	bool legend;		/* even for a single series */
};

void chart_init(struct chart *c, const char *id, const char *title);
void chart_release(struct chart *c);
void chart_set_note(struct chart *c, const char *note);

/* A new series, coloured after the previous one. */
struct chart_series *chart_add(struct chart *c, enum series_kind kind,
			       const char *name);
void chart_point(struct chart_series *s, double x, double y);
/* An error bar from lo to hi on the last point added. */
void chart_err(struct chart_series *s, double lo, double hi);
/*
 * The last point's bar in a colour of its own: a bar per job or side
 * in the colour that job or side has in the page's other charts.
 */
void chart_bar_colour(struct chart_series *s, unsigned int colour);
/* A marked point with its own tooltip (a listed percentile). */
void chart_mark(struct chart_series *s, double x, double y, const char *tip);

/*
 * Appends the chart as one <svg> element. standalone: a file of its own
 * (XML declaration, namespace, style sheet embedded); else inline in the
 * HTML report, whose style sheet is chart_style.
 */
void chart_render(const struct chart *c, struct strbuf *out, bool standalone);

/* The charts' CSS, for a page that holds them inline. */
extern const char chart_style[];

/*
 * A value as a reader wants it, with its unit: "1.23 ms", "456 MiB/s",
 * "12.3k", "99.9%"; sig significant digits (at least 1).
 */
void chart_fmt(struct strbuf *sb, double v, enum axis_unit unit,
	       unsigned int sig);

#endif

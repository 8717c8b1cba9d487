/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_AXIS_H
#define IOLITE_PLOT_AXIS_H

#include <stdbool.h>

#include "plot/chart.h"

/*
 * Inside plot/: one axis laid out on so many pixels -- its range as
 * drawn, its ticks and their labels, the scale of a linear axis's
 * labels -- and data-to-pixel positions. chart.c draws what this
 * decides. Label widths are estimated from the character count (the
 * chart's fonts are the browser's sans-serif at 11 px): tick spacing
 * leaves room for the widest label, so labels never overlap.
 */

#define AXIS_TICKS_MAX 80
#define AXIS_FONT_PX 11.0

struct tick {
	double v;		/* data units */
	bool label;		/* a labelled (major) tick; else a grid line */
	char text[32];
};

struct axis_layout {
	enum axis_scale scale;
	enum axis_unit unit;
	double lo, hi;		/* the range drawn, in data units */
	double t0, t1;		/* the same, transformed (log10, pct) */
	double p0, p1;		/* pixels of lo and hi */
	double div;		/* linear: labels show v / div ... */
	const char *suffix;	/* ... in this unit ("MiB/s"; "" none) */
	bool si_labels;		/* ... or each with k, M, G (counts) */
	unsigned int nr_cats;
	struct tick t[AXIS_TICKS_MAX];
	unsigned int nr;
	double label_w;		/* the widest label, px */
};

/*
 * Lays out ax over len pixels for data from dmin to dmax (ignored when
 * the axis is fixed; dmin > dmax: no data). horizontal: labels sit side
 * by side (their widths must fit), else one above another.
 */
void axis_layout(struct axis_layout *a, const struct chart_axis *ax,
		 double dmin, double dmax, double len, bool horizontal);
/* Sets the pixel positions of lo and hi (after axis_layout). */
void axis_place(struct axis_layout *a, double p0, double p1);
/* Pixel of v, inside [p0, p1]. */
double axis_px(const struct axis_layout *a, double v);
/* The axis title with its unit: "bandwidth (MiB/s)". */
void axis_title(const struct axis_layout *a, const char *title,
		struct strbuf *sb);
/* Estimated width of s in pixels at font px. */
double text_width(const char *s, double px);

#endif

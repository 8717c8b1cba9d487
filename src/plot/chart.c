/* SPDX-License-Identifier: MIT */
/*
 * Chart layout and drawing: see chart.h for the contract, axis.c for
 * ticks and labels. The layout, top to bottom: the title, the legend
 * (rows of entries, as many as the names need), the plot, the x tick
 * labels and the x title, a note. The left margin is the y title plus
 * the widest y tick label: nothing is placed over anything else.
 */
#include "plot/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/axis.h"
#include "plot/svg.h"
#include "util/log.h"

/* Okabe-Ito, without the yellow that white paper swallows */
static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#000000",
};
#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))
static const char *const dashes[] = { NULL, "6 3", "2 2", "8 3 2 3" };

const char chart_style[] =
	"svg.chart{font-family:system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',Arial,sans-serif;max-width:100%;height:auto}"
	".chart text{font-size:11px;fill:#222}"
	".chart .ti{font-size:13px;font-weight:600}"
	".chart .at{font-size:11px;fill:#444}"
	".chart .nt{font-size:10px;fill:#666}"
	".chart .vl{font-size:10px;fill:#444}"
	".chart .vi{font-size:10px;fill:#fff}"
	".chart .vd{font-size:10px;fill:#111}"
	".chart .gr{stroke:#e4e4e4;stroke-width:1;fill:none}"
	".chart .gm{stroke:#f2f2f2;stroke-width:1;fill:none}"
	".chart .ax{stroke:#666;stroke-width:1;fill:none}"
	".chart .ln{fill:none;stroke-width:1.6;stroke-linejoin:round}"
	".chart .dt{fill:none;stroke-width:3;stroke-linecap:round}"
	".chart .rg{fill:none;stroke-width:2}"
	".chart .hv{fill:transparent;stroke:none}"
	".chart .mk{stroke:#fff;stroke-width:1}";

#define TITLE_Y 17.0
#define LEGEND_ROW 16.0
#define PAD 8.0

static const char *chart_colour(unsigned int i)
{
	return palette[i % NR_COLOURS];
}

static const char *dash_of(unsigned int colour)
{
	return dashes[(colour / NR_COLOURS) % (sizeof(dashes) / sizeof(dashes[0]))];
}

void chart_init(struct chart *c, const char *id, const char *title)
{
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id ? id : "");
	c->title = xstrdup(title ? title : "");
	c->width = 640;
	c->height = 220;
}

void chart_set_note(struct chart *c, const char *note)
{
	free(c->note);
	c->note = note ? xstrdup(note) : NULL;
}

void chart_release(struct chart *c)
{
	unsigned int i, k;

	for (i = 0; i < c->nr; i++) {
		struct chart_series *s = c->s[i];

		for (k = 0; k < s->nr_marks; k++)
			free(s->m[k].tip);
		free(s->m);
		free(s->p);
		free(s->name);
		free(s);
	}
	free(c->s);
	free(c->id);
	free(c->title);
	free(c->note);
	memset(c, 0, sizeof(*c));
}

struct chart_series *chart_add(struct chart *c, enum series_kind kind,
			       const char *name)
{
	struct chart_series *s = xcalloc(1, sizeof(*s));

	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 4;
		c->s = xrealloc(c->s, c->alloc * sizeof(*c->s));
	}
	s->name = xstrdup(name ? name : "");
	s->kind = kind;
	s->colour = c->nr;
	c->s[c->nr++] = s;
	return s;
}

static struct chart_point *new_point(struct chart_series *s)
{
	struct chart_point *p;

	if (s->n == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 16;
		s->p = xrealloc(s->p, s->alloc * sizeof(*s->p));
	}
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

void chart_point(struct chart_series *s, double x, double y)
{
	struct chart_point *p = new_point(s);

	p->x = x;
	p->y = p->lo = p->hi = y;
}

void chart_err(struct chart_series *s, double lo, double hi)
{
	if (!s->n)
		return;
	s->err = true;
	s->p[s->n - 1].lo = lo;
	s->p[s->n - 1].hi = hi;
	s->p[s->n - 1].err = true;
}

void chart_bar_colour(struct chart_series *s, unsigned int colour)
{
	if (!s->n)
		return;
	s->p[s->n - 1].own_colour = true;
	s->p[s->n - 1].colour = colour;
}

void chart_mark(struct chart_series *s, double x, double y, const char *tip)
{
	struct chart_mark *m;

	if (s->nr_marks == s->alloc_marks) {
		s->alloc_marks = s->alloc_marks ? s->alloc_marks * 2 : 8;
		s->m = xrealloc(s->m, s->alloc_marks * sizeof(*s->m));
	}
	m = &s->m[s->nr_marks++];
	m->x = x;
	m->y = y;
	m->tip = xstrdup(tip ? tip : "");
}

/* --- layout ---------------------------------------------------------- */

struct extent {
	double xmin, xmax, ymin, ymax;
};

static void grow(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

static void data_extent(const struct chart *c, struct extent *e)
{
	unsigned int i, k;

	e->xmin = e->ymin = INFINITY;
	e->xmax = e->ymax = -INFINITY;
	for (i = 0; i < c->nr; i++) {
		const struct chart_series *s = c->s[i];

		for (k = 0; k < s->n; k++) {
			const struct chart_point *p = &s->p[k];

			/* a percentile axis never reaches 100: the edge */
			if (c->x.scale != AXIS_PCT || p->x < 100)
				grow(&e->xmin, &e->xmax, p->x);
			/* a log axis has no room for 0: it is the floor */
			if (c->y.scale != AXIS_LOG || p->y > 0)
				grow(&e->ymin, &e->ymax, p->y);
			if (p->err) {
				grow(&e->ymin, &e->ymax, p->lo);
				grow(&e->ymin, &e->ymax, p->hi);
			}
		}
		for (k = 0; k < s->nr_marks; k++) {
			grow(&e->xmin, &e->xmax, s->m[k].x);
			grow(&e->ymin, &e->ymax, s->m[k].y);
		}
	}
}

struct frame {
	double w, h;			/* the whole picture */
	double left, top, right, bottom;	/* the plot's edges */
	struct axis_layout x, y;
	unsigned int legend_rows;
	unsigned int note_lines;
	bool legend;
	struct extent e;		/* the data's */
};

/*
 * The note cut into lines of at most width pixels, at spaces: the
 * number of lines; with sb, line k (from 0) is appended to it.
 */
static unsigned int wrap_note(const char *note, double width,
			      struct strbuf *sb, unsigned int k)
{
	unsigned int lines = 0;
	const char *p = note;

	while (*p) {
		const char *end = p, *q = p;
		struct strbuf t = STRBUF_INIT;

		/* as many words as fit, one at least */
		while (*q) {
			const char *w = q + strcspn(q, " ");

			strbuf_reset(&t);
			strbuf_add(&t, p, (size_t)(w - p));
			if (end > p && text_width(t.buf, 10) > width)
				break;
			end = w;
			q = *w ? w + 1 : w;
		}
		strbuf_release(&t);
		if (sb && lines == k)
			strbuf_add(sb, p, (size_t)(end - p));
		lines++;
		p = *end ? end + 1 : end;
	}
	return lines;
}

/* Legend names longer than this are cut (the tables have them whole) */
#define LEGEND_CHARS 40

static double legend_entry_w(const struct chart_series *s)
{
	struct strbuf t = STRBUF_INIT;
	double w;

	text_cut(&t, s->name, LEGEND_CHARS);
	w = 22 + text_width(strbuf_str(&t), AXIS_FONT_PX) + 14;
	strbuf_release(&t);
	return w;
}

static unsigned int legend_rows(const struct chart *c, double width)
{
	double x = PAD;
	unsigned int i, rows = 1;

	for (i = 0; i < c->nr; i++) {
		double w = legend_entry_w(c->s[i]);

		if (x + w > width - PAD && x > PAD) {
			rows++;
			x = PAD;
		}
		x += w;
	}
	return rows;
}

static void layout(const struct chart *c, struct frame *f)
{
	struct extent e;
	double plot_h = c->height, last_w;

	data_extent(c, &e);
	memset(f, 0, sizeof(*f));
	f->e = e;
	f->w = c->width;
	f->legend = c->nr > 1 || (c->legend && c->nr);
	f->legend_rows = f->legend ? legend_rows(c, f->w) : 0;
	f->top = TITLE_Y + 10 + f->legend_rows * LEGEND_ROW + (f->legend ? 6 : 0);
	axis_layout(&f->y, &c->y, e.ymin, e.ymax, plot_h, false);
	f->left = 28 + f->y.label_w + 6;
	f->right = f->w - 12;
	axis_layout(&f->x, &c->x, e.xmin, e.xmax, f->right - f->left, true);
	/* the last x label is centred on the right edge: room for its half */
	last_w = f->x.nr ? text_width(f->x.t[f->x.nr - 1].text, AXIS_FONT_PX) : 0;
	if (c->x.scale != AXIS_CAT && f->right + last_w / 2 > f->w - 4) {
		f->right = f->w - 4 - last_w / 2;
		axis_layout(&f->x, &c->x, e.xmin, e.xmax, f->right - f->left,
			    true);
	}
	f->bottom = f->top + plot_h;
	f->note_lines = c->note ? wrap_note(c->note, f->w - PAD - f->left,
					   NULL, 0) : 0;
	f->h = f->bottom + 40 + f->note_lines * 13.0;
	axis_place(&f->x, f->left, f->right);
	axis_place(&f->y, f->bottom, f->top);
}

/* --- drawing --------------------------------------------------------- */

static void put_xy(struct strbuf *sb, double x, double y)
{
	svg_num(sb, x);
	strbuf_addch(sb, ' ');
	svg_num(sb, y);
}

static void stroke_attrs(struct strbuf *sb, const struct chart_series *s)
{
	const char *dash = dash_of(s->colour);

	strbuf_addf(sb, " stroke=\"%s\"", chart_colour(s->colour));
	if (dash)
		strbuf_addf(sb, " stroke-dasharray=\"%s\"", dash);
}

static void draw_legend(const struct chart *c, const struct frame *f,
			struct strbuf *sb)
{
	double x = PAD, y = TITLE_Y + 10 + LEGEND_ROW / 2;
	struct strbuf name = STRBUF_INIT;
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct chart_series *s = c->s[i];
		double w = legend_entry_w(s);

		if (x + w > f->w - PAD && x > PAD) {
			x = PAD;
			y += LEGEND_ROW;
		}
		strbuf_addstr(sb, "<path class=\"ln\" d=\"M");
		put_xy(sb, x, y);
		strbuf_addstr(sb, "h18\"");
		stroke_attrs(sb, s);
		if (s->kind == SERIES_BAR || s->kind == SERIES_DOTS)
			strbuf_addstr(sb, " stroke-width=\"6\"");
		strbuf_addstr(sb, "/>\n");
		strbuf_reset(&name);
		text_cut(&name, s->name, LEGEND_CHARS);
		svg_text(sb, x + 22, y + 4, "start", NULL, strbuf_str(&name));
		x += w;
	}
	strbuf_release(&name);
}

static void draw_axes(const struct chart *c, const struct frame *f,
		      struct strbuf *sb)
{
	struct strbuf t = STRBUF_INIT;
	unsigned int i;

	for (i = 0; i < f->y.nr; i++) {
		const struct tick *k = &f->y.t[i];
		double y = axis_px(&f->y, k->v);

		svg_line(sb, f->left, y, f->right, y, k->label ? "gr" : "gm");
		if (k->label)
			svg_text(sb, f->left - 5, y + 4, "end", NULL, k->text);
	}
	for (i = 0; i < f->x.nr; i++) {
		const struct tick *k = &f->x.t[i];
		double x = axis_px(&f->x, k->v);

		if (c->x.scale != AXIS_CAT)
			svg_line(sb, x, f->top, x, f->bottom,
				 k->label ? "gr" : "gm");
		if (k->label)
			svg_text(sb, x, f->bottom + 14, "middle", NULL, k->text);
	}
	strbuf_addstr(sb, "<path class=\"ax\" d=\"M");
	put_xy(sb, f->left, f->top);
	strbuf_addstr(sb, "V");
	svg_num(sb, f->bottom);
	strbuf_addstr(sb, "H");
	svg_num(sb, f->right);
	strbuf_addstr(sb, "\"/>\n");
	axis_title(&f->x, c->x.title, &t);
	svg_text(sb, (f->left + f->right) / 2, f->bottom + 31, "middle", "at",
		 strbuf_str(&t));
	strbuf_reset(&t);
	axis_title(&f->y, c->y.title, &t);
	svg_text_up(sb, 12, (f->top + f->bottom) / 2, "at", strbuf_str(&t));
	strbuf_release(&t);
}

/* "name: x, y" in the axes' units, for a tooltip */
static void point_tip(const struct chart *c, const struct chart_series *s,
		      const struct chart_point *p, struct strbuf *sb)
{
	if (*s->name)
		strbuf_addf(sb, "%s: ", s->name);
	if (c->x.scale == AXIS_CAT && p->x >= 0 && p->x < c->x.nr_cats)
		strbuf_addstr(sb, c->x.cats[(unsigned int)p->x]);
	else
		chart_fmt(sb, p->x, c->x.unit, 4);
	strbuf_addstr(sb, ", ");
	chart_fmt(sb, p->y, c->y.unit, 4);
	if (p->err) {
		strbuf_addstr(sb, " (");
		chart_fmt(sb, p->lo, c->y.unit, 4);
		strbuf_addstr(sb, " .. ");
		chart_fmt(sb, p->hi, c->y.unit, 4);
		strbuf_addch(sb, ')');
	}
}


/* --- series ---------------------------------------------------------- */

struct pix {
	double x, y;
};

static struct pix *to_pixels(const struct frame *f,
			     const struct chart_series *s)
{
	struct pix *px = xmalloc((s->n ? s->n : 1) * sizeof(*px));
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		px[i].x = axis_px(&f->x, s->p[i].x);
		px[i].y = axis_px(&f->y, s->p[i].y);
	}
	return px;
}

/*
 * More points than pixel columns: each column's first, lowest, highest
 * and last point, in their order (the line looks the same). In place;
 * returns the new count.
 */
static unsigned int decimate(struct pix *p, unsigned int n)
{
	unsigned int i = 0, out = 0;

	while (i < n) {
		long col = lround(floor(p[i].x));
		unsigned int first = i, lo = i, hi = i, last, k;
		unsigned int keep[4];

		for (; i < n && lround(floor(p[i].x)) == col; i++) {
			if (p[i].y < p[lo].y)
				lo = i;
			if (p[i].y > p[hi].y)
				hi = i;
		}
		last = i - 1;
		keep[0] = first;
		keep[1] = lo < hi ? lo : hi;
		keep[2] = lo < hi ? hi : lo;
		keep[3] = last;
		for (k = 0; k < 4; k++)
			if (!k || keep[k] != keep[k - 1])
				p[out++] = p[keep[k]];
	}
	return out;
}

static void hover_points(const struct chart *c, const struct frame *f,
			 const struct chart_series *s, struct strbuf *sb)
{
	struct strbuf tip = STRBUF_INIT;
	unsigned int i;

	/* a target per point only for short series: the file stays small */
	if (s->n > 60)
		return;
	for (i = 0; i < s->n; i++) {
		strbuf_reset(&tip);
		point_tip(c, s, &s->p[i], &tip);
		strbuf_addstr(sb, "<circle class=\"hv\" r=\"5\" cx=\"");
		svg_num(sb, axis_px(&f->x, s->p[i].x));
		strbuf_addstr(sb, "\" cy=\"");
		svg_num(sb, axis_px(&f->y, s->p[i].y));
		strbuf_addstr(sb, "\">");
		svg_title(sb, strbuf_str(&tip));
		strbuf_addstr(sb, "</circle>\n");
	}
	strbuf_release(&tip);
}

static void fill_below(const struct frame *f, const struct chart_series *s,
		       const struct strbuf *d, double x0, double x1,
		       struct strbuf *sb)
{
	strbuf_addstr(sb, "<path stroke=\"none\" fill-opacity=\"0.12\" fill=\"");
	strbuf_addstr(sb, chart_colour(s->colour));
	strbuf_addstr(sb, "\" d=\"");
	strbuf_add(sb, d->buf, d->len);
	strbuf_addstr(sb, "L");
	put_xy(sb, x1, f->bottom);
	strbuf_addstr(sb, "L");
	put_xy(sb, x0, f->bottom);
	strbuf_addstr(sb, "Z\"/>\n");
}

static void path_out(const struct chart_series *s, const struct strbuf *d,
		     const char *cls, struct strbuf *sb)
{
	strbuf_addf(sb, "<path class=\"%s\"", cls);
	stroke_attrs(sb, s);
	strbuf_addstr(sb, " d=\"");
	strbuf_add(sb, d->buf, d->len);
	strbuf_addstr(sb, "\">");
	svg_title(sb, s->name);
	strbuf_addstr(sb, "</path>\n");
}

static void draw_line(const struct chart *c, const struct frame *f,
		      const struct chart_series *s, struct strbuf *sb)
{
	struct pix *p = to_pixels(f, s);
	struct strbuf d = STRBUF_INIT;
	unsigned int n = s->n, i;

	if (!n) {
		free(p);
		return;
	}
	if (n > 2 * (f->right - f->left))
		n = decimate(p, n);
	for (i = 0; i < n; i++) {
		strbuf_addstr(&d, i ? " " : "M");
		put_xy(&d, p[i].x, p[i].y);
	}
	if (s->fill)
		fill_below(f, s, &d, p[0].x, p[n - 1].x, sb);
	path_out(s, &d, "ln", sb);
	hover_points(c, f, s, sb);
	strbuf_release(&d);
	free(p);
}

static void draw_step(const struct chart *c, const struct frame *f,
		      const struct chart_series *s, struct strbuf *sb)
{
	struct pix *p = to_pixels(f, s);
	struct strbuf d = STRBUF_INIT;
	unsigned int i;

	if (!s->n) {
		free(p);
		return;
	}
	strbuf_addstr(&d, "M");
	put_xy(&d, p[0].x, p[0].y);
	for (i = 1; i < s->n; i++) {
		/* flat to the next x, then to its y */
		if (fabs(p[i].x - p[i - 1].x) >= 0.05) {
			strbuf_addstr(&d, "H");
			svg_num(&d, p[i].x);
		}
		if (fabs(p[i].y - p[i - 1].y) >= 0.05) {
			strbuf_addstr(&d, "V");
			svg_num(&d, p[i].y);
		}
	}
	if (s->fill)
		fill_below(f, s, &d, p[0].x, p[s->n - 1].x, sb);
	path_out(s, &d, "ln", sb);
	hover_points(c, f, s, sb);
	strbuf_release(&d);
	free(p);
}

/* Which of the chart's bar series s is, and how many there are. */
static void bar_slot(const struct chart *c, const struct chart_series *s,
		     unsigned int *slot, unsigned int *nr)
{
	unsigned int i;

	*slot = *nr = 0;
	for (i = 0; i < c->nr; i++) {
		if (c->s[i]->kind != SERIES_BAR)
			continue;
		if (c->s[i] == s)
			*slot = *nr;
		(*nr)++;
	}
}

/* The value over a bar, when the bar is wide enough for it. */
static void bar_value(const struct chart *c, unsigned int colour,
		      const struct chart_point *p, double x, double w,
		      double top, double base, struct strbuf *sb)
{
	/* orange and sky blue want dark text, the others white */
	unsigned int light = colour % NR_COLOURS;
	const char *in = light == 4 || light == 5 ? "vd" : "vi";
	struct strbuf v = STRBUF_INIT;

	chart_fmt(&v, p->y, c->y.unit, 3);
	/* inside a tall bar's top, else just above it */
	if (text_width(v.buf, 10) + 2 <= w)
		svg_text(sb, x, base - top > 16 ? top + 11 : top - 3, "middle",
			 base - top > 16 ? in : "vl", v.buf);
	strbuf_release(&v);
}

/* Where the bar of s at category x goes: [x0, x1] in pixels. */
static void bar_span(const struct chart *c, const struct frame *f,
		     const struct chart_series *s, double x, double *x0,
		     double *x1)
{
	double band = (f->right - f->left) / (c->x.nr_cats ? c->x.nr_cats : 1);
	unsigned int slot, nr;
	double gw;

	bar_slot(c, s, &slot, &nr);
	/* a group of bars in the band's middle, none too wide */
	gw = fmin(band * 0.8, nr * 56.0);
	*x0 = f->left + band * (x + 0.5) - gw / 2 + gw * slot / nr;
	*x1 = *x0 + gw / nr - (nr > 1 ? 1 : 0);
}

static void draw_bars(const struct chart *c, const struct frame *f,
		      const struct chart_series *s, struct strbuf *sb)
{
	double base = axis_px(&f->y, f->y.lo > 0 ? f->y.lo : 0);
	struct strbuf tip = STRBUF_INIT;
	unsigned int i;

	if (c->x.scale != AXIS_CAT)
		BUG("chart '%s': bars need a category axis", c->id);
	for (i = 0; i < s->n; i++) {
		const struct chart_point *p = &s->p[i];
		double x0, x1, y = axis_px(&f->y, p->y);
		unsigned int colour = p->own_colour ? p->colour : s->colour;

		bar_span(c, f, s, p->x, &x0, &x1);
		strbuf_reset(&tip);
		point_tip(c, s, p, &tip);
		strbuf_addf(sb, "<rect fill=\"%s\" x=\"", chart_colour(colour));
		svg_num(sb, x0);
		strbuf_addstr(sb, "\" y=\"");
		svg_num(sb, fmin(y, base));
		strbuf_addstr(sb, "\" width=\"");
		svg_num(sb, fmax(x1 - x0, 0.5));
		strbuf_addstr(sb, "\" height=\"");
		svg_num(sb, fabs(base - y));
		strbuf_addstr(sb, "\">");
		svg_title(sb, strbuf_str(&tip));
		strbuf_addstr(sb, "</rect>\n");
		/* whiskers would cross the value */
		if (p->y > 0 && !p->err)
			bar_value(c, colour, p, (x0 + x1) / 2, x1 - x0,
				  fmin(y, base), base, sb);
	}
	strbuf_release(&tip);
}

/* Closed shapes between per-column values a and b, broken at NaNs. */
static void band_path(struct strbuf *d, double left, unsigned int cols,
		      const double *a, const double *b)
{
	unsigned int i, j, k;

	for (k = 0; k < cols; k = i) {
		for (; k < cols && isnan(a[k]); k++)
			;
		for (i = k; i < cols && !isnan(a[i]); i++) {
			strbuf_addstr(d, i == k ? "M" : "L");
			/* a column one pixel wide at least */
			put_xy(d, left + i, fmin(a[i], b[i] - 0.6));
		}
		for (j = i; j-- > k;) {
			strbuf_addstr(d, "L");
			put_xy(d, left + j + 1, fmax(b[j], a[j] + 0.6));
		}
		if (i > k)
			strbuf_addstr(d, "Z");
	}
}

static void fill_path(const struct chart_series *s, const struct strbuf *d,
		      const char *opacity, struct strbuf *sb)
{
	strbuf_addf(sb, "<path stroke=\"none\" fill-opacity=\"%s\" fill=\"%s\" d=\"",
		    opacity, chart_colour(s->colour));
	strbuf_add(sb, d->buf, d->len);
	strbuf_addstr(sb, "\">");
	svg_title(sb, s->name);
	strbuf_addstr(sb, "</path>\n");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Each pixel column's points' y, sorted: ys[at[k] .. at[k + 1]). */
static double *columns(const struct frame *f, const struct pix *p,
		       unsigned int n, unsigned int cols, unsigned int *at)
{
	double *ys = xmalloc((n ? n : 1) * sizeof(*ys));
	unsigned int i, k, *fill = xcalloc(cols + 1, sizeof(*fill));

	memset(at, 0, (cols + 1) * sizeof(*at));
	for (i = 0; i < n; i++) {
		k = (unsigned int)fmax(p[i].x - f->left, 0);
		at[(k < cols ? k : cols - 1) + 1]++;
	}
	for (k = 0; k < cols; k++)
		at[k + 1] += at[k];
	for (i = 0; i < n; i++) {
		k = (unsigned int)fmax(p[i].x - f->left, 0);
		k = k < cols ? k : cols - 1;
		ys[at[k] + fill[k]++] = p[i].y;
	}
	for (k = 0; k < cols; k++)
		qsort(ys + at[k], at[k + 1] - at[k], sizeof(*ys), cmp_double);
	free(fill);
	return ys;
}

/*
 * A dense scatter, per pixel column: the band from the lowest to the
 * highest point (light), the middle half (darker) and the median (a
 * line), so that both the extremes and where most points are show.
 */
static void draw_density(const struct frame *f, const struct chart_series *s,
			 const struct pix *p, struct strbuf *sb)
{
	unsigned int cols = (unsigned int)(f->right - f->left) + 1, k, n;
	unsigned int *at = xmalloc((cols + 1) * sizeof(*at));
	double *ys = columns(f, p, s->n, cols, at);
	double *q = xmalloc(5 * cols * sizeof(*q));
	struct strbuf d = STRBUF_INIT;
	bool first = true;

	for (k = 0; k < cols; k++) {
		const double *y = ys + at[k];

		n = at[k + 1] - at[k];
		q[k] = n ? y[0] : NAN;
		q[cols + k] = n ? y[n - 1] : NAN;
		q[2 * cols + k] = n ? y[n / 4] : NAN;
		q[3 * cols + k] = n ? y[(3 * n) / 4 - (n > 3)] : NAN;
		q[4 * cols + k] = n ? y[n / 2] : NAN;
	}
	band_path(&d, f->left, cols, q, q + cols);
	fill_path(s, &d, "0.22", sb);
	strbuf_reset(&d);
	band_path(&d, f->left, cols, q + 2 * cols, q + 3 * cols);
	fill_path(s, &d, "0.45", sb);
	strbuf_reset(&d);
	for (k = 0; k < cols; k++) {
		if (isnan(q[4 * cols + k])) {
			first = true;
			continue;
		}
		strbuf_addstr(&d, first ? "M" : " ");
		put_xy(&d, f->left + k + 0.5, q[4 * cols + k]);
		first = false;
	}
	path_out(s, &d, "ln", sb);
	strbuf_release(&d);
	free(q);
	free(ys);
	free(at);
}

/* Dots; denser than two a pixel column, draw_density() instead. */
static void draw_dots(const struct frame *f, const struct chart_series *s,
		      struct strbuf *sb)
{
	unsigned int cols = (unsigned int)(f->right - f->left) + 1, i;
	struct strbuf d = STRBUF_INIT;
	struct pix *p = to_pixels(f, s);

	if (s->ring) {
		/* a ring around each point: what is flagged, over the line */
		for (i = 0; i < s->n; i++) {
			strbuf_addstr(&d, "M");
			put_xy(&d, p[i].x - 6, p[i].y);
			strbuf_addstr(&d, "a6 6 0 1 0 12 0a6 6 0 1 0 -12 0");
		}
		path_out(s, &d, "rg", sb);
	} else if (s->n > 2 * cols) {
		draw_density(f, s, p, sb);
	} else {
		for (i = 0; i < s->n; i++) {
			strbuf_addstr(&d, "M");
			put_xy(&d, p[i].x, p[i].y);
			strbuf_addstr(&d, "h0");
		}
		path_out(s, &d, "dt", sb);
	}
	strbuf_release(&d);
	free(p);
}

static void draw_errors(const struct chart *c, const struct frame *f,
			const struct chart_series *s, struct strbuf *sb)
{
	struct strbuf d = STRBUF_INIT;
	unsigned int i;

	if (!s->err)
		return;
	for (i = 0; i < s->n; i++) {
		double x = axis_px(&f->x, s->p[i].x), x0, x1;

		if (!s->p[i].err)
			continue;
		if (s->kind == SERIES_BAR) {
			bar_span(c, f, s, s->p[i].x, &x0, &x1);
			x = (x0 + x1) / 2;
		}
		double y0 = axis_px(&f->y, s->p[i].lo);
		double y1 = axis_px(&f->y, s->p[i].hi);

		strbuf_addstr(&d, "M");
		put_xy(&d, x, y0);
		strbuf_addstr(&d, "V");
		svg_num(&d, y1);
		strbuf_addstr(&d, "M");
		put_xy(&d, x - 3, y0);
		strbuf_addstr(&d, "h6M");
		put_xy(&d, x - 3, y1);
		strbuf_addstr(&d, "h6");
	}
	/* on a bar, in its colour, a whisker would vanish */
	strbuf_addf(sb, "<path fill=\"none\" stroke-width=\"1.2\" stroke=\"%s\" d=\"",
		    s->kind == SERIES_BAR ? "#333" : chart_colour(s->colour));
	strbuf_add(sb, d.buf, d.len);
	strbuf_addstr(sb, "\"/>\n");
	strbuf_release(&d);
}

static void draw_marks(const struct chart *c, const struct frame *f,
		       const struct chart_series *s, struct strbuf *sb)
{
	unsigned int i;

	for (i = 0; i < s->nr_marks; i++) {
		/* smaller when many series mark the same places */
		strbuf_addf(sb, "<circle class=\"mk\" r=\"%s\" fill=\"%s\" cx=\"",
			    c->nr > 3 ? "2.4" : "3.2", chart_colour(s->colour));
		svg_num(sb, axis_px(&f->x, s->m[i].x));
		strbuf_addstr(sb, "\" cy=\"");
		svg_num(sb, axis_px(&f->y, s->m[i].y));
		strbuf_addstr(sb, "\">");
		svg_title(sb, s->m[i].tip);
		strbuf_addstr(sb, "</circle>\n");
	}
}

/*
 * A series in a group saying what it is, for tests and tools: data-s
 * (its name), data-n (its points as given, before any thinning),
 * data-marks.
 */
static void draw_series(const struct chart *c, const struct frame *f,
			const struct chart_series *s, struct strbuf *sb)
{
	strbuf_addstr(sb, "<g data-s=\"");
	xml_attr(sb, s->name);
	strbuf_addf(sb, "\" data-n=\"%u\" data-marks=\"%u\">\n", s->n,
		    s->nr_marks);
	switch (s->kind) {
	case SERIES_LINE:
		draw_line(c, f, s, sb);
		break;
	case SERIES_STEP:
		draw_step(c, f, s, sb);
		break;
	case SERIES_BAR:
		draw_bars(c, f, s, sb);
		break;
	case SERIES_DOTS:
		draw_dots(f, s, sb);
		break;
	}
	draw_errors(c, f, s, sb);
	draw_marks(c, f, s, sb);
	strbuf_addstr(sb, "</g>\n");
}

/* The machine-readable attributes of the <svg>: see chart.h. */
static void chart_attrs(const struct chart *c, const struct frame *f,
			struct strbuf *a)
{
	strbuf_addstr(a, " class=\"chart\" data-chart=\"");
	xml_attr(a, c->id);
	strbuf_addstr(a, "\" data-title=\"");
	xml_attr(a, c->title);
	strbuf_addf(a, "\" data-series=\"%u\" data-x=\"%.6g %.6g\" "
		    "data-y=\"%.6g %.6g\"", c->nr, f->x.lo, f->x.hi, f->y.lo,
		    f->y.hi);
	if (f->e.xmin <= f->e.xmax)
		strbuf_addf(a, " data-xd=\"%.6g %.6g\" data-yd=\"%.6g %.6g\"",
			    f->e.xmin, f->e.xmax, f->e.ymin, f->e.ymax);
	strbuf_addstr(a, " aria-label=\"");
	xml_attr(a, c->title);
	strbuf_addch(a, '"');
}

void chart_render(const struct chart *c, struct strbuf *out, bool standalone)
{
	struct strbuf attrs = STRBUF_INIT;
	struct frame f;
	unsigned int i;

	layout(c, &f);
	chart_attrs(c, &f, &attrs);
	svg_begin(out, (unsigned int)f.w, (unsigned int)ceil(f.h),
		  strbuf_str(&attrs), standalone ? chart_style : NULL);
	if (standalone)
		strbuf_addf(out, "<rect width=\"%u\" height=\"%u\" fill=\"#fff\"/>\n",
			    (unsigned int)f.w, (unsigned int)ceil(f.h));
	svg_text(out, PAD, TITLE_Y, "start", "ti", c->title);
	if (f.legend)
		draw_legend(c, &f, out);
	draw_axes(c, &f, out);
	for (i = 0; i < c->nr; i++)
		draw_series(c, &f, c->s[i], out);
	for (i = 0; i < f.note_lines; i++) {
		struct strbuf line = STRBUF_INIT;

		wrap_note(c->note, f.w - PAD - f.left, &line, i);
		svg_text(out, f.left, f.bottom + 48 + i * 13.0, "start", "nt",
			 line.buf);
		strbuf_release(&line);
	}
	svg_end(out);
	strbuf_release(&attrs);
}

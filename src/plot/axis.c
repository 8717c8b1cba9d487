/* SPDX-License-Identifier: MIT */
/* Axis ranges, ticks and labels: see axis.h. */
#include "plot/axis.h"
#include "plot/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double text_width(const char *s, double px)
{
	double n = 0;

	/* UTF-8 continuation bytes add nothing */
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n += *s == ' ' || *s == '.' ? 0.35 : 0.6;
	return n * px;
}

/* --- values with units ----------------------------------------------- */

struct unit_step {
	double div;
	const char *name;
};

static const struct unit_step ns_units[] = {
	{ 1, "ns" }, { 1e3, "\xc2\xb5s" }, { 1e6, "ms" }, { 1e9, "s" },
};
static const struct unit_step bps_units[] = {
	{ 1, "B/s" }, { 1024, "KiB/s" }, { 1048576, "MiB/s" },
	{ 1073741824.0, "GiB/s" }, { 1099511627776.0, "TiB/s" },
};
static const struct unit_step si_units[] = {
	{ 1, "" }, { 1e3, "k" }, { 1e6, "M" }, { 1e9, "G" }, { 1e12, "T" },
};
static const struct unit_step ms_units[] = {
	{ 1, "ms" }, { 1e3, "s" },
};

static const struct unit_step *units_of(enum axis_unit u, unsigned int *nr)
{
	switch (u) {
	case UNIT_NS:
		*nr = sizeof(ns_units) / sizeof(ns_units[0]);
		return ns_units;
	case UNIT_BPS:
		*nr = sizeof(bps_units) / sizeof(bps_units[0]);
		return bps_units;
	case UNIT_MS:
		*nr = sizeof(ms_units) / sizeof(ms_units[0]);
		return ms_units;
	case UNIT_NONE:
		*nr = sizeof(si_units) / sizeof(si_units[0]);
		return si_units;
	default:
		*nr = 0;
		return NULL;
	}
}

/* The largest unit in which |v| is at least 1 (or the first). */
static const struct unit_step *unit_for(enum axis_unit u, double v)
{
	unsigned int nr, i;
	const struct unit_step *s = units_of(u, &nr);

	if (!s)
		return NULL;
	for (i = nr - 1; i > 0; i--)
		if (fabs(v) >= s[i].div * (u == UNIT_MS ? 2 : 1))
			break;
	return &s[i];
}

/* v rounded to sig significant digits (99.996 -> 100.0 at 4) */
static double round_sig(double v, unsigned int sig)
{
	double p;

	if (v == 0 || !isfinite(v))
		return v;
	p = pow(10, (int)sig - 1 - (int)floor(log10(fabs(v)) + 1e-9));
	return round(v * p) / p;
}

/*
 * v with sig significant digits, as "%.*f" chooses decimals; the
 * digits counted after rounding ("100.0", never "100.00").
 */
static void put_sig(struct strbuf *sb, double v, unsigned int sig)
{
	double r = round_sig(v, sig);
	int mag = r == 0 ? 0 : (int)floor(log10(fabs(r)) + 1e-9);
	int dec = (int)sig - 1 - mag;

	if (dec < 0)
		dec = 0;
	if (dec > 9)
		dec = 9;
	strbuf_addf(sb, "%.*f", dec, v);
}

void chart_fmt(struct strbuf *sb, double v, enum axis_unit unit,
	       unsigned int sig)
{
	const struct unit_step *u = unit_for(unit, v);

	if (!sig)
		sig = 1;
	if (unit == UNIT_PCT) {
		put_sig(sb, v, sig);
		strbuf_addch(sb, '%');
		return;
	}
	if (!u) {
		put_sig(sb, v, sig);
		return;
	}
	/* 999.96 us is "1.000 ms", not "1000 us" */
	u = unit_for(unit, round_sig(v / u->div, sig) * u->div);
	put_sig(sb, v / u->div, sig);
	if (unit == UNIT_NONE)
		strbuf_addstr(sb, u->name);
	else
		strbuf_addf(sb, " %s", u->name);
}

/* "12.50" -> "12.5", "3.0" -> "3" */
static void trim_zeros(char *s)
{
	char *dot = strchr(s, '.'), *end;

	if (!dot)
		return;
	end = dot + strlen(dot) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*dot = '\0';
}

/* --- transforms ------------------------------------------------------ */

/* Tail position of percentile p (%): 90 -> 1, 99 -> 2, 99.9 -> 3. */
static double pct_t(double p)
{
	if (p <= 0)
		return 0;
	if (p >= 100)
		return 12;
	return -log10(1.0 - p / 100.0);
}

static double transform(const struct axis_layout *a, double v)
{
	switch (a->scale) {
	case AXIS_LOG:
	case AXIS_LOG2:
		return v > 0 ? log10(v) : a->t0;
	case AXIS_PCT:
		return pct_t(v);
	default:
		return v;
	}
}

double axis_px(const struct axis_layout *a, double v)
{
	double t = transform(a, v), f;

	if (a->t1 == a->t0)
		return a->p0;
	f = (t - a->t0) / (a->t1 - a->t0);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return a->p0 + f * (a->p1 - a->p0);
}

void axis_place(struct axis_layout *a, double p0, double p1)
{
	a->p0 = p0;
	a->p1 = p1;
}

/* --- ticks ----------------------------------------------------------- */

static struct tick *add_tick(struct axis_layout *a, double v, bool label)
{
	struct tick *t;

	if (a->nr == AXIS_TICKS_MAX)
		return NULL;
	t = &a->t[a->nr++];
	t->v = v;
	t->label = label;
	t->text[0] = '\0';
	return t;
}

static void set_label(struct axis_layout *a, struct tick *t, const char *s)
{
	double w = text_width(s, AXIS_FONT_PX);

	snprintf(t->text, sizeof(t->text), "%s", s);
	if (w > a->label_w)
		a->label_w = w;
}

/* A linear axis's label for v at the given decimals. */
static void lin_label(const struct axis_layout *a, double v, int dec,
		      char *buf, size_t len)
{
	const struct unit_step *u = a->si_labels ? unit_for(UNIT_NONE, v) : NULL;
	double x = u ? v / u->div : v / a->div;

	if (fabs(x) < 1e-12)
		x = 0;
	if (u) {
		snprintf(buf, len, "%.*f", 3, x);
		trim_zeros(buf);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s", u->name);
		return;
	}
	snprintf(buf, len, "%.*f", dec, x);
}

/* Tries a step (in label units); 0 when the labels fit. */
static int try_step(struct axis_layout *a, double lo, double hi, double step,
		    bool fixed, double len, bool horiz)
{
	double s = step * a->div, first, need, w = 0;
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	char buf[32];
	unsigned int n, i;

	if (!fixed) {
		/*
		 * across, data just past a tick (a run of 12.01 s) end at
		 * it rather than add a step of nothing: the last 1.5% sits
		 * on the edge
		 */
		double slack = horiz ? 0.015 * (hi - lo) : 0;

		lo = floor(lo / s + 1e-9) * s;
		hi = ceil((hi - slack) / s - 1e-9) * s;
	}
	first = ceil(lo / s - 1e-9) * s;
	n = (unsigned int)floor((hi - first) / s + 1e-9) + 1;
	if (n > 12 || n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		lin_label(a, first + i * s, dec, buf, sizeof(buf));
		w = fmax(w, text_width(buf, AXIS_FONT_PX));
	}
	need = horiz ? w + 14 : 28.0;
	if (len * s / (hi - lo) < need)
		return -1;
	a->lo = lo;
	a->hi = hi;
	a->nr = 0;
	a->label_w = 0;
	for (i = 0; i < n; i++) {
		struct tick *t = add_tick(a, first + i * s, true);

		lin_label(a, first + i * s, dec, buf, sizeof(buf));
		set_label(a, t, buf);
	}
	return 0;
}

static void linear_ticks(struct axis_layout *a, const struct chart_axis *ax,
			 double lo, double hi, double len, bool horiz)
{
	static const double mult[3] = { 1, 2, 5 };
	const struct unit_step *u = unit_for(ax->unit, fmax(fabs(lo), fabs(hi)));
	double base;
	char buf[32];
	int k;

	a->div = 1;
	a->suffix = "";
	a->si_labels = ax->unit == UNIT_NONE;
	if (u && ax->unit != UNIT_NONE) {
		a->div = u->div;
		a->suffix = u->name;
	}
	if (ax->unit == UNIT_PCT)
		a->suffix = "%";
	/* 1, 2, 5, 10, 20, 50 ... from well below what can fit */
	base = pow(10, floor(log10((hi - lo) / a->div / 20)));
	for (k = 0; k < 30; k++) {
		double step = base * mult[k % 3] * pow(10, k / 3);

		if (ax->whole && step * a->div < 1)
			continue;
		if (!try_step(a, lo, hi, step, ax->fixed, len, horiz))
			return;
	}
	/* nothing fits: the ends alone */
	a->lo = lo;
	a->hi = hi;
	a->nr = 0;
	lin_label(a, lo, 2, buf, sizeof(buf));
	set_label(a, add_tick(a, lo, true), buf);
	lin_label(a, hi, 2, buf, sizeof(buf));
	set_label(a, add_tick(a, hi, true), buf);
}

static void log_label(const struct axis_layout *a, double v, char *buf,
		      size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	chart_fmt(&sb, v, a->unit, 3);
	snprintf(buf, len, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	/* "100 us", "2.5 ms", "10k" */
	{
		char *sp = strpbrk(buf, " k%MGT"), tail[24];

		snprintf(tail, sizeof(tail), "%s", sp ? sp : "");
		if (sp)
			*sp = '\0';
		trim_zeros(buf);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s", tail);
	}
}

static void log_ticks(struct axis_layout *a, double len, bool horiz)
{
	int e0 = (int)lround(a->t0), e1 = (int)lround(a->t1), e, k, m;
	double per = len / (e1 - e0), w = 0, need;
	char buf[32];

	for (e = e0; e <= e1; e++) {
		log_label(a, pow(10, e), buf, sizeof(buf));
		w = fmax(w, text_width(buf, AXIS_FONT_PX));
	}
	need = horiz ? w + 14 : 28.0;
	for (k = 1; per * k < need && k < e1 - e0; k++)
		;
	for (e = e0; e <= e1; e++) {
		double v = pow(10, e);
		bool lab = (e - e0) % k == 0;
		struct tick *t;

		t = add_tick(a, v, lab);
		if (lab && t) {
			log_label(a, v, buf, sizeof(buf));
			set_label(a, t, buf);
		}
		if (e == e1 || k > 1 || per < 40)
			continue;
		for (m = 2; m <= 9; m++) {
			/* 2 and 5 labelled when a decade has room for them */
			bool l25 = (m == 2 || m == 5) && per >= 3.5 * need;

			t = add_tick(a, m * v, l25);
			if (t && l25) {
				log_label(a, m * v, buf, sizeof(buf));
				set_label(a, t, buf);
			}
		}
	}
}

/* 512, 4k, 64k, 1m: a power of two as a size is written */
static void pow2_label(double v, char *buf, size_t len)
{
	static const char *const suf[] = { "", "k", "m", "g", "t" };
	unsigned int i = 0;

	while (v >= 1024 && fmod(v, 1024) == 0 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%g%s", v, suf[i]);
}

/*
 * A tick at each power of two from lo to hi (the data's range), every
 * k-th labelled where they would crowd.
 */
static void log2_ticks(struct axis_layout *a, double len, bool horiz)
{
	int e0 = (int)ceil(log2(a->lo) - 1e-9), e1 = (int)floor(log2(a->hi) +
							   1e-9), e, k;
	double per = e1 > e0 ? len * log10(2) / (a->t1 - a->t0) : len, w = 0;
	char buf[32];

	for (e = e0; e <= e1; e++) {
		pow2_label(ldexp(1, e), buf, sizeof(buf));
		w = fmax(w, text_width(buf, AXIS_FONT_PX));
	}
	for (k = 1; per * k < (horiz ? w + 10 : 18.0) && k < e1 - e0; k++)
		;
	for (e = e0; e <= e1; e++) {
		struct tick *t = add_tick(a, ldexp(1, e), (e - e0) % k == 0);

		if (t && (e - e0) % k == 0) {
			pow2_label(ldexp(1, e), buf, sizeof(buf));
			set_label(a, t, buf);
		}
	}
}

static void pct_label(int k, char *buf, size_t len)
{
	/* 1 -> 90, 2 -> 99, 3 -> 99.9, 4 -> 99.99 */
	size_t n;

	if (k <= 0) {
		snprintf(buf, len, "0");
		return;
	}
	snprintf(buf, len, "%s", k == 1 ? "90" : "99");
	for (n = 2; (int)n < k && strlen(buf) + 2 < len; n++)
		strcat(buf, n == 2 ? ".9" : "9");
}

static void pct_ticks(struct axis_layout *a, double len, bool horiz)
{
	int k, kmax = (int)lround(a->t1);
	double per = len / (a->t1 - a->t0);
	char buf[32];
	struct tick *t;

	t = add_tick(a, 0, true);
	set_label(a, t, "0");
	/* 50: 0.3 of a decade from 0, when there is room */
	if (per * log10(2) >= text_width("50", AXIS_FONT_PX) + 14 || !horiz) {
		t = add_tick(a, 50, true);
		set_label(a, t, "50");
	}
	for (k = 1; k <= kmax; k++) {
		double p = 100.0 - 100.0 * pow(10, -k);

		pct_label(k, buf, sizeof(buf));
		t = add_tick(a, p, true);
		if (t)
			set_label(a, t, buf);
	}
}

static void cat_ticks(struct axis_layout *a, const struct chart_axis *ax,
		      double len)
{
	double band = len / (ax->nr_cats ? ax->nr_cats : 1);
	unsigned int i, max = (unsigned int)(band / (AXIS_FONT_PX * 0.6));
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < ax->nr_cats; i++) {
		struct tick *t = add_tick(a, i, true);
		const char *s = ax->cats[i];

		if (!t)
			break;
		strbuf_reset(&sb);
		/* a name wider than its band is cut (tables have it whole) */
		text_cut(&sb, s, max > 2 ? max : 2);
		set_label(a, t, strbuf_str(&sb));
	}
	strbuf_release(&sb);
}

/* The data range of a log axis, as whole decades. */
static void log_range(struct axis_layout *a, const struct chart_axis *ax,
		      double dmin, double dmax)
{
	double lo = ax->fixed ? ax->min : dmin, hi = ax->fixed ? ax->max : dmax;

	if (!(hi > 0))
		hi = 1000;
	if (!(lo > 0) || lo > hi)
		lo = hi / 10;
	a->t0 = floor(log10(lo) + 1e-9);
	a->t1 = ceil(log10(hi) - 1e-9);
	if (a->t1 <= a->t0)
		a->t1 = a->t0 + 1;
	a->lo = pow(10, a->t0);
	a->hi = pow(10, a->t1);
}

void axis_layout(struct axis_layout *a, const struct chart_axis *ax,
		 double dmin, double dmax, double len, bool horiz)
{
	memset(a, 0, sizeof(*a));
	a->scale = ax->scale;
	a->unit = ax->unit;
	a->div = 1;
	a->suffix = "";
	switch (ax->scale) {
	case AXIS_LOG:
		log_range(a, ax, dmin, dmax);
		log_ticks(a, len, horiz);
		return;
	case AXIS_LOG2:
		a->lo = ax->fixed ? ax->min : dmin;
		a->hi = ax->fixed ? ax->max : dmax;
		if (!(a->lo > 0))
			a->lo = 1;
		if (!(a->hi > a->lo))
			a->hi = 2 * a->lo;
		a->t0 = log10(a->lo);
		a->t1 = log10(a->hi);
		log2_ticks(a, len, horiz);
		return;
	case AXIS_PCT:
		a->lo = 0;
		a->hi = ax->fixed ? ax->max : dmax > 0 ? dmax : 99;
		a->t0 = 0;
		a->t1 = ceil(pct_t(a->hi) - 1e-9);
		if (a->t1 < 1)
			a->t1 = 1;
		a->hi = 100.0 - 100.0 * pow(10, -a->t1);
		a->suffix = "%";
		pct_ticks(a, len, horiz);
		return;
	case AXIS_CAT:
		a->nr_cats = ax->nr_cats;
		a->lo = a->t0 = -0.5;
		a->hi = a->t1 = ax->nr_cats - 0.5;
		cat_ticks(a, ax, len);
		return;
	case AXIS_LINEAR:
		break;
	}
	if (ax->fixed) {
		dmin = ax->min;
		dmax = ax->max;
	} else if (dmin > dmax) {
		dmin = 0;
		dmax = 1;
	}
	if (ax->zero && !ax->fixed && dmin > 0)
		dmin = 0;
	if (dmax - dmin < 1e-12 * fmax(fabs(dmax), 1)) {
		dmax = dmin + (dmin ? fabs(dmin) * 0.1 : 1);
	}
	linear_ticks(a, ax, dmin, dmax, len, horiz);
	a->t0 = a->lo;
	a->t1 = a->hi;
}

void axis_title(const struct axis_layout *a, const char *title,
		struct strbuf *sb)
{
	strbuf_addstr(sb, title ? title : "");
	if (a->scale == AXIS_LINEAR && a->suffix && *a->suffix)
		strbuf_addf(sb, " (%s)", a->suffix);
	else if (a->scale == AXIS_PCT)
		strbuf_addstr(sb, " (%)");
}

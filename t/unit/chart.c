/* SPDX-License-Identifier: MIT */
/*
 * The chart module (plot/): XML escaping, short coordinates, values with
 * units, ticks a reader expects (1-2-5 steps, decades with units, the
 * percentile tail), labels that do not overlap, decimation that keeps a
 * big series small, and the attributes tests read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "plot/axis.h"
#include "plot/chart.h"
#include "plot/svg.h"

static int str_is(struct strbuf *sb, const char *want)
{
	int ok = !strcmp(strbuf_str(sb), want);

	if (!ok)
		diag("got '%s', want '%s'", strbuf_str(sb), want);
	strbuf_reset(sb);
	return ok;
}

static void test_escape(void)
{
	struct strbuf sb = STRBUF_INIT;

	xml_text(&sb, "a<b & \"c\">");
	ok(str_is(&sb, "a&lt;b &amp; \"c\"&gt;"), "text: & < > escaped");
	xml_attr(&sb, "x\"y\n");
	ok(str_is(&sb, "x&quot;y&#10;"), "attribute: quotes and newlines");
	xml_text(&sb, "bell\a, bad \xff\xfe, \xc0\x80, ok \xc2\xb5s \xe2\x89\xa5");
	ok(str_is(&sb, "bell\xef\xbf\xbd, bad \xef\xbf\xbd\xef\xbf\xbd, "
		  "\xef\xbf\xbd\xef\xbf\xbd, ok \xc2\xb5s \xe2\x89\xa5"),
	   "control bytes, invalid and overlong UTF-8 become U+FFFD; "
	   "valid UTF-8 stays");
	text_cut(&sb, "abcdefgh", 5);
	ok(str_is(&sb, "abcd\xe2\x80\xa6"), "a cut name ends in an ellipsis");
	text_cut(&sb, "\xc2\xb5\xc2\xb5\xc2\xb5", 3);
	ok(str_is(&sb, "\xc2\xb5\xc2\xb5\xc2\xb5"),
	   "three characters fit three places, bytes do not count");
	text_cut(&sb, "\xc2\xb5\xc2\xb5\xc2\xb5x", 3);
	ok(str_is(&sb, "\xc2\xb5\xc2\xb5\xe2\x80\xa6"),
	   "a cut never splits a character");
	strbuf_release(&sb);
}

static void test_numbers(void)
{
	struct strbuf sb = STRBUF_INIT;

	svg_num(&sb, 12.0);
	svg_num(&sb, 7.25);
	strbuf_addch(&sb, ' ');
	svg_num(&sb, -0.04);
	strbuf_addch(&sb, ' ');
	svg_num(&sb, -3.46);
	ok(str_is(&sb, "127.3 0 -3.5"), "coordinates: one decimal at most");

	chart_fmt(&sb, 1500, UNIT_NS, 4);
	ok(str_is(&sb, "1.500 \xc2\xb5s"), "1500 ns is 1.500 us");
	chart_fmt(&sb, 2.5e9, UNIT_NS, 3);
	ok(str_is(&sb, "2.50 s"), "2.5e9 ns is 2.50 s");
	chart_fmt(&sb, 3 * 1048576.0, UNIT_BPS, 4);
	ok(str_is(&sb, "3.000 MiB/s"), "bandwidth in IEC units");
	chart_fmt(&sb, 12345, UNIT_NONE, 4);
	ok(str_is(&sb, "12.35k"), "counts with SI prefixes");
	chart_fmt(&sb, 99.5, UNIT_PCT, 3);
	ok(str_is(&sb, "99.5%"), "percent");
	chart_fmt(&sb, 99999, UNIT_NS, 4);
	ok(str_is(&sb, "100.0 \xc2\xb5s"), "rounding up to a new digit keeps 4 digits");
	chart_fmt(&sb, 999960, UNIT_NS, 4);
	ok(str_is(&sb, "1.000 ms"), "rounding up to the next unit changes the unit");
	chart_fmt(&sb, 9.9996, UNIT_NONE, 4);
	ok(str_is(&sb, "10.00"), "counts: 9.9996 is 10.00");
	strbuf_release(&sb);
}

static int labels_are(const struct axis_layout *a, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int i;
	int ret;

	for (i = 0; i < a->nr; i++)
		if (a->t[i].label)
			strbuf_addf(&sb, "%s%s", sb.len ? "|" : "", a->t[i].text);
	ret = str_is(&sb, want);
	strbuf_release(&sb);
	return ret;
}

/* Labels of a horizontal axis: each pair of neighbours has room. */
static int no_overlap(struct axis_layout *a, double len)
{
	double prev_end = -1e9;
	unsigned int i;

	axis_place(a, 0, len);
	for (i = 0; i < a->nr; i++) {
		double x = axis_px(a, a->t[i].v);
		double w = text_width(a->t[i].text, AXIS_FONT_PX);

		if (!a->t[i].label)
			continue;
		if (x - w / 2 < prev_end + 4) {
			diag("'%s' at %.1f overlaps", a->t[i].text, x);
			return 0;
		}
		prev_end = x + w / 2;
	}
	return 1;
}

static void test_ticks(void)
{
	struct chart_axis ax = { .scale = AXIS_LINEAR, .unit = UNIT_NONE,
				 .zero = true };
	struct axis_layout a;

	axis_layout(&a, &ax, 3, 87, 200, false);
	ok(a.lo == 0 && a.hi == 100 && labels_are(&a, "0|20|40|60|80|100"),
	   "0..87 on 200 px upright: 0 to 100 by 20");
	axis_layout(&a, &ax, 3, 87, 600, true);
	ok(labels_are(&a, "0|10|20|30|40|50|60|70|80|90") && no_overlap(&a, 600),
	   "0..87 on 600 px across: by 10, labels apart");
	axis_layout(&a, &ax, 0, 123456, 560, true);
	ok(labels_are(&a, "0|20k|40k|60k|80k|100k|120k|140k") &&
	   no_overlap(&a, 560), "IOPS with k; 1-2-5 steps");
	ax.unit = UNIT_BPS;
	axis_layout(&a, &ax, 0, 150 * 1048576.0, 200, false);
	{
		struct strbuf t = STRBUF_INIT;

		axis_title(&a, "bandwidth", &t);
		ok(str_is(&t, "bandwidth (MiB/s)") &&
		   labels_are(&a, "0|50|100|150"),
		   "bandwidth: the unit in the title, ticks in it");
		strbuf_release(&t);
	}
	ax.unit = UNIT_MS;
	axis_layout(&a, &ax, 0, 61234, 560, true);
	ok(labels_are(&a, "0|10|20|30|40|50|60|70") && no_overlap(&a, 560),
	   "a minute of run time in seconds");

	ax = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_NONE };
	axis_layout(&a, &ax, 1, 6, 560, true);
	ok(labels_are(&a, "1|1.5|2|2.5|3|3.5|4|4.5|5|5.5|6"),
	   "rounds 1 to 6 across 560 px: halves without whole");
	ax.whole = true;
	axis_layout(&a, &ax, 1, 6, 560, true);
	ok(labels_are(&a, "1|2|3|4|5|6"), "whole: rounds only");
	axis_layout(&a, &ax, 1, 25, 200, true);
	ok(labels_are(&a, "0|10|20|30") || labels_are(&a, "0|5|10|15|20|25"),
	   "whole: a long axis still steps 1-2-5");

	ax = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS };
	axis_layout(&a, &ax, 3000, 2e6, 220, false);
	ok(labels_are(&a, "1 \xc2\xb5s|10 \xc2\xb5s|100 \xc2\xb5s|1 ms|10 ms"),
	   "log latency: decades with units");
	axis_layout(&a, &ax, 1, 2e10, 560, true);
	ok(no_overlap(&a, 560), "eleven decades across 560 px: labels apart");
	axis_layout(&a, &ax, 20000, 90000, 560, true);
	ok(labels_are(&a, "10 \xc2\xb5s|20 \xc2\xb5s|50 \xc2\xb5s|100 \xc2\xb5s")
	   && no_overlap(&a, 560), "a decade with room: 2 and 5 too");

	ax = (struct chart_axis){ .scale = AXIS_PCT, .fixed = true,
				  .max = 99.99 };
	axis_layout(&a, &ax, 0, 0, 560, true);
	ok(labels_are(&a, "0|50|90|99|99.9|99.99") && no_overlap(&a, 560),
	   "percentiles stretched toward the tail");
	axis_place(&a, 0, 400);
	ok(fabs(axis_px(&a, 99) - 200) < 1e-9 && fabs(axis_px(&a, 90) - 100) < 1e-9,
	   "99 is half way to 99.99, 90 a quarter");
}

static void test_render(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct chart_series *s, *d;
	struct chart c;
	unsigned int i;
	const char *p;

	chart_init(&c, "t", "big & <small>");
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "latency" };
	s = chart_add(&c, SERIES_LINE, "a line");
	d = chart_add(&c, SERIES_DOTS, "dots");
	for (i = 0; i < 1000000; i++) {
		double y = 1000 + (i * 7919u) % 100000;

		chart_point(s, i, y);
		chart_point(d, i, y * 2);
	}
	chart_mark(d, 500000, 5e6, "slowest");
	chart_render(&c, &sb, true);
	ok(sb.len < 100000, "a million points a series: %zu bytes", sb.len);
	ok(strstr(sb.buf, "data-series=\"2\"") &&
	   strstr(sb.buf, "data-title=\"big &amp; &lt;small&gt;\"") &&
	   strstr(sb.buf, "data-x=\"0 1e+06\""),
	   "attributes: series count, title escaped, x range");
	ok(!strncmp(sb.buf, "<?xml", 5) && strstr(sb.buf, "<style>") &&
	   (p = strstr(sb.buf, "</svg>")) && !p[7],
	   "standalone: declaration, style sheet, one svg element");
	ok(strstr(sb.buf, "<title>slowest</title>") != NULL,
	   "a mark has its tooltip");
	chart_release(&c);
	strbuf_release(&sb);
}

/* Bars on categories, with whiskers: each bar has its tooltip. */
static void test_bars(void)
{
	static const char *const cats[] = {
		"a", "b", "a name far too long for its band, cut short",
	};
	struct strbuf sb = STRBUF_INIT;
	struct chart_series *s;
	struct chart c;

	chart_init(&c, "bars", "bars");
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .cats = cats,
				   .nr_cats = 3, .title = "job" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS,
				   .title = "bandwidth", .zero = true };
	s = chart_add(&c, SERIES_BAR, "bw");
	chart_point(s, 0, 100 * 1048576.0);
	chart_err(s, 80 * 1048576.0, 130 * 1048576.0);
	chart_point(s, 1, 50 * 1048576.0);
	chart_point(s, 2, 0);
	chart_render(&c, &sb, false);
	ok(strstr(sb.buf, "<title>bw: a, 100.0 MiB/s (80.00 MiB/s .. 130.0 MiB/s)</title>") &&
	   strstr(sb.buf, "<title>bw: b, 50.00 MiB/s</title>"),
	   "a bar's tooltip: its category, value and whisker");
	ok(strstr(sb.buf, "stroke=\"#333\"") && strstr(sb.buf, "data-y=\"0 140\"") == NULL &&
	   strstr(sb.buf, "data-yd=\"0 1.36315e+08\""),
	   "whiskers drawn, and counted in the range");
	ok(strstr(sb.buf, "\xe2\x80\xa6</text>") != NULL,
	   "a category name wider than its band is cut");
	ok(strstr(sb.buf, "<rect fill=\"#0072B2\"") &&
	   !strstr(sb.buf, "<rect fill=\"#009E73\""),
	   "bars take their series' colour");
	chart_release(&c);

	/* a bar per job, each in its job's colour from the other charts */
	strbuf_reset(&sb);
	chart_init(&c, "bw-jobs", "bandwidth per job");
	c.x = (struct chart_axis){ .scale = AXIS_CAT, .nr_cats = 2, .cats = cats };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_BPS, .zero = true };
	s = chart_add(&c, SERIES_BAR, "bw");
	chart_point(s, 0, 100 * 1048576.0);
	chart_bar_colour(s, 1);
	chart_point(s, 1, 50 * 1048576.0);
	chart_bar_colour(s, 2);
	chart_render(&c, &sb, false);
	ok(strstr(sb.buf, "<rect fill=\"#D55E00\"") &&
	   strstr(sb.buf, "<rect fill=\"#009E73\"") &&
	   !strstr(sb.buf, "<rect fill=\"#0072B2\""),
	   "chart_bar_colour: each bar in the colour given");
	chart_release(&c);
	strbuf_release(&sb);
}

int main(void)
{
	test_escape();
	test_numbers();
	test_ticks();
	test_render();
	test_bars();
	return done_testing();
}

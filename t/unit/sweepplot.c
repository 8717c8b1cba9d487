/* SPDX-License-Identifier: MIT */
/*
 * A sweep's charts (plot/sweepplot.c) from JSON in --sweep's layout, as
 * the html report of a sweep run hands its own JSON over: a chart per
 * figure with a series per job and other swept value, the x axis by the
 * values (log when geometric, linear when evenly spaced, categories when
 * not numbers), nothing for a run that is no sweep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "plot/resplot.h"
#include "resultsio/resultsio.h"

/* A job at one point: its sweep values and a read block. */
static void job(struct strbuf *sb, const char *name, const char *qd,
		const char *bs, double iops)
{
	strbuf_addf(sb, "%s{\"jobname\": \"%s\", \"groupid\": 0, "
		    "\"sweep\": {\"iodepth\": \"%s\", \"bs\": \"%s\"}, "
		    "\"read\": {\"io_bytes\": 4096, \"total_ios\": 100, "
		    "\"iops\": %g, \"bw_bytes\": %g, \"runtime\": 1000, "
		    "\"clat_ns\": {\"N\": 100, \"min\": 1000, \"max\": 9000, "
		    "\"mean\": 2000, \"percentile\": {\"50.000000\": 2000, "
		    "\"99.000000\": 5000, \"99.900000\": 8000}}}}",
		    strchr(sb->buf, '{') && sb->buf[sb->len - 1] == '}' ? ", " : "",
		    name, qd, bs, iops, iops * 4096);
}

static void doc(struct strbuf *sb, const char *const *qd, unsigned int nr,
		bool cross)
{
	unsigned int i;

	strbuf_reset(sb);
	strbuf_addstr(sb, "{\"fio version\": \"iolite-0.1\", \"jobs\": [");
	for (i = 0; i < nr; i++) {
		job(sb, "a", qd[i], "4k", 1000.0 * (i + 1));
		if (cross)
			job(sb, "a", qd[i], "64k", 500.0 * (i + 1));
	}
	strbuf_addf(sb, "], \"iolite\": {\"sweep\": {\"options\": "
		    "[\"iodepth\"%s], \"points\": %u}}}\n", cross ? ", \"bs\"" : "",
		    cross ? 2 * nr : nr);
}

static unsigned int count(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* s holds want, else a diagnostic with the page */
static int has(const struct strbuf *page, const char *want)
{
	if (strstr(strbuf_str(page), want))
		return 1;
	diag("no '%s' in: %.2000s", want, strbuf_str(page));
	return 0;
}

int main(void)
{
	static const char *const geo[] = { "1", "4", "16", "64" };
	static const char *const even[] = { "10", "20", "30" };
	static const char *const words[] = { "low", "high" };
	struct strbuf json = STRBUF_INIT, page = STRBUF_INIT;

	strbuf_addstr(&json, "{\"jobs\": [{\"jobname\": \"x\"}]}\n");
	resplot_report(&page, json.buf, json.len);
	ok(page.len == 0, "a run that is no sweep: nothing");

	doc(&json, geo, 4, true);
	resplot_report(&page, json.buf, json.len);
	if (!rio_available()) {
		ok(strstr(page.buf, "libjansson-dev") != NULL,
		   "without jansson: a note naming libjansson-dev");
		return done_testing();
	}
	ok(count(page.buf, "data-chart=\"sweep-") == 6,
	   "six charts: IOPS, bandwidth, p50, p99, p99.9, p99 against IOPS");
	ok(has(&page, "data-chart=\"sweep-lat-iops\" data-title=\"read: "
	       "clat p99 against IOPS\" data-series=\"2\""),
	   "latency against IOPS: a line per series");
	/* powers of two: a log axis over the data alone, not decades */
	ok(has(&page, "data-chart=\"sweep-iops\" data-title=\"read: IOPS "
	       "against iodepth\" data-series=\"2\" data-x=\"1 64\""),
	   "geometric values: a log axis; a series per other swept value");
	ok(count(page.buf, "<g data-s=\"a bs=64k\" data-n=\"4\" data-marks=\"4\"")
	   == 6, "each series has every point, marked");
	ok(has(&page, "data-m=\"p99.9\" data-v=\"8000\""),
	   "the table carries the file's numbers");

	strbuf_reset(&page);
	doc(&json, even, 3, false);
	resplot_report(&page, json.buf, json.len);
	ok(has(&page, "data-chart=\"sweep-iops\" data-title=\"read: IOPS "
	       "against iodepth\" data-series=\"1\" data-x=\"10 30\""),
	   "evenly spaced values: a linear axis over their range");

	strbuf_reset(&page);
	doc(&json, words, 2, false);
	resplot_report(&page, json.buf, json.len);
	ok(has(&page, "data-series=\"1\" data-x=\"-0.5 1.5\""),
	   "values that are not numbers: a category each");
	/*
	 * bs swept first (two values), iodepth second (four): the axis is
	 * the option with the most numbers, bs goes into the legend
	 */
	strbuf_reset(&page);
	doc(&json, geo, 4, true);
	{
		char *o = strstr(json.buf, "[\"iodepth\", \"bs\"]");

		if (o)
			memcpy(o, "[\"bs\", \"iodepth\"]", 17);
	}
	resplot_report(&page, json.buf, json.len);
	ok(has(&page, "data-title=\"read: IOPS against iodepth\" "
	       "data-series=\"2\" data-x=\"1 64\""),
	   "the axis: the option with the most numbers, whatever the order");

	/*
	 * a point iolite flagged (measured for under a second, its worker
	 * starved of CPU): ringed in every chart, said in the table
	 */
	strbuf_reset(&page);
	doc(&json, geo, 4, false);
	{
		char *r = strstr(json.buf, "\"runtime\": 1000");

		if (r)
			memcpy(r, "\"runtime\":  500", 15);
	}
	resplot_report(&page, json.buf, json.len);
	ok(count(page.buf, "data-s=\"flagged by iolite\" data-n=\"1\"") == 6,
	   "a flagged point: a ring in each of the six charts");
	ok(has(&page, "data-flag=\"measured for 500 ms\""),
	   "a flagged point: the table says why");

	strbuf_reset(&page);
	doc(&json, geo, 1, false);
	json.buf[json.len - 3] = 'x';	/* broken JSON: nothing drawn */
	resplot_report(&page, json.buf, json.len);
	ok(page.len == 0, "JSON that does not parse: nothing");
	strbuf_release(&json);
	strbuf_release(&page);
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* The requests by kind of a job (report/reqs.h). */
#include <stdio.h>

#include "report/reqs.h"
#include "util/reqstat.h"

/* The percentiles of the normal report's lines. */
static const double line_pct[] = { 50.0, 90.0, 99.0, 99.9 };

/*
 * Requests per second of kind k: over the run time of its direction
 * (PUT: writes, GET: reads, DELETE: trims), as fio's IOPS; HEAD (and a
 * direction without run time) over the job's.
 */
static double rate(const struct job_result *j, unsigned int k, uint64_t n)
{
	static const int dir[REQ_NR] = {
		[REQ_PUT] = DDIR_WRITE, [REQ_GET] = DDIR_READ,
		[REQ_HEAD] = -1, [REQ_DELETE] = DDIR_TRIM,
	};
	uint64_t ms = dir[k] >= 0 ? j->dir[dir[k]].runtime_ms : 0;

	if (!ms)
		ms = j->elapsed_ms;
	return ms ? (double)n * 1000.0 / (double)ms : 0;
}

static void show_lat(FILE *f, const char *label, const struct req_lat *l,
		     bool extremes)
{
	unsigned int i;

	fprintf(f, "%s", label);
	if (extremes)
		fprintf(f, " min=%.1f, avg=%.1f,", (double)l->min / 1e3,
			(double)l->sum / (double)l->n / 1e3);
	for (i = 0; i < sizeof(line_pct) / sizeof(line_pct[0]); i++)
		fprintf(f, " p%g=%.1f%s", line_pct[i],
			(double)req_lat_pct(l, line_pct[i]) / 1e3,
			extremes || i + 1 < sizeof(line_pct) / sizeof(line_pct[0]) ?
			"," : "");
	if (extremes)
		fprintf(f, " max=%.1f", (double)l->max / 1e3);
	fputc('\n', f);
}

void report_reqs_normal(FILE *f, const struct job_result *j)
{
	unsigned int k;

	if (!reqstats_any(j->reqs))
		return;
	fprintf(f, "  %s requests (usec):\n", j->reqs->name);
	for (k = 0; k < REQ_NR; k++) {
		const struct req_kind_stat *s = &j->reqs->k[k];

		if (!s->requests && !s->errors)
			continue;
		fprintf(f, "    %-6s: n=%llu, %.1f/s, errors=%llu, "
			"bytes=%llu", req_kind_name(k),
			(unsigned long long)s->requests,
			rate(j, k, s->requests), (unsigned long long)s->errors,
			(unsigned long long)s->bytes);
		if (s->not_found)
			fprintf(f, ", 404=%llu",
				(unsigned long long)s->not_found);
		fputc('\n', f);
		if (s->lat.n)
			show_lat(f, "      lat :", &s->lat, true);
		if (k == REQ_GET && s->ttfb.n)
			show_lat(f, "      ttfb:", &s->ttfb, false);
	}
}

static void write_lat(struct json_writer *w, const char *key,
		      const struct job_result *j, const struct req_lat *l)
{
	char name[32];
	unsigned int i;

	json_begin_object(w, key);
	json_u64(w, "N", l->n);
	json_u64(w, "min", l->min);
	json_u64(w, "max", l->max);
	json_double(w, "mean", l->n ? (double)l->sum / (double)l->n : 0.0);
	json_begin_object(w, "percentile");
	for (i = 0; i < j->nr_pct; i++) {
		snprintf(name, sizeof(name), "%f", j->pct_list[i]);
		json_u64(w, name, req_lat_pct(l, j->pct_list[i]));
	}
	json_end_object(w);
	json_end_object(w);
}

void report_reqs_json(struct json_writer *w, const struct job_result *j)
{
	unsigned int k;

	if (!j->reqs)
		return;
	json_begin_object(w, j->reqs->name);
	for (k = 0; k < REQ_NR; k++) {
		const struct req_kind_stat *s = &j->reqs->k[k];

		json_begin_object(w, req_kind_name(k));
		json_u64(w, "requests", s->requests);
		json_u64(w, "errors", s->errors);
		json_u64(w, "not_found", s->not_found);
		json_u64(w, "bytes", s->bytes);
		json_double(w, "rate", rate(j, k, s->requests));
		write_lat(w, "lat_ns", j, &s->lat);
		if (k == REQ_GET)
			write_lat(w, "ttfb_ns", j, &s->ttfb);
		json_end_object(w);
	}
	json_end_object(w);
}

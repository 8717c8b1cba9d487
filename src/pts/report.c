/* SPDX-License-Identifier: MIT */
/*
 * pts's reports as text and JSON: the device and the settings; per test
 * loop its purge and preconditioning, the steady-state convergence (the
 * tracked variable per round), the measurement window with its range
 * and its fitted line, and the matrix averaged over the window (IOPS,
 * throughput, or the latency test's mean, maximum and 99.999th
 * percentile); for WSAT the IOPS over time and over the bytes written.
 */
#include <math.h>
#include <string.h>

#include "pts/pts_int.h"
#include "util/json.h"

double pts_cell_val(const struct pts_cell *c, enum pts_metric m)
{
	switch (m) {
	case MET_BW:
		return c->bw / 1e6;
	case MET_LAT:
		return c->lat_mean / 1e6;
	case MET_LAT_MAX:
		return c->lat_max / 1e6;
	case MET_LAT_P5N:
		return c->lat_p5n / 1e6;
	case MET_IOPS:
		break;
	}
	return c->iops;
}

const char *pts_metric_unit(enum pts_metric m)
{
	return m == MET_BW ? "MB/s" : m == MET_LAT ? "ms" : "IOPS";
}

void pts_track_name(const struct pts_loop *l, char *buf, size_t len)
{
	if (l->dirth) {
		snprintf(buf, len, "TC%u/QD32 4k random 65/35 IOPS",
			 l->dirth_tc ? l->dirth_tc : 32);
		return;
	}
	snprintf(buf, len, "%s %s 100%% write %s", pts_bs_name[l->track_bs],
		 l->seq ? "sequential" : "random", l->metric == MET_BW ?
		 "throughput (MB/s)" : l->metric == MET_LAT ?
		 "mean response time (ms)" : "IOPS");
}

unsigned int pts_window_first(const struct pts_loop *l)
{
	if (l->have_ss)
		return l->ss.first;
	return l->nr_rounds > PTS_SS_WINDOW ?
	       l->nr_rounds - PTS_SS_WINDOW + 1 : 1;
}

void pts_avg_add(struct pts_cell *a, const struct pts_cell *c,
		 unsigned int *n)
{
	if (c->iops < 0)
		return;
	if (!*n)
		memset(a, 0, sizeof(*a));
	a->iops += c->iops;
	a->bw += c->bw;
	a->lat_mean += c->lat_mean;
	/* the window's worst, as the spec's MRT */
	a->lat_max = fmax(a->lat_max, c->lat_max);
	a->lat_p5n = fmax(a->lat_p5n, c->lat_p5n);
	(*n)++;
}

void pts_avg_end(struct pts_cell *a, unsigned int n)
{
	if (!n) {
		memset(a, 0, sizeof(*a));
		a->iops = -1;
		return;
	}
	a->iops /= n;
	a->bw /= n;
	a->lat_mean /= n;
}

void pts_window_avg(struct pts_loop *l)
{
	unsigned int m, b, k, n;

	for (m = 0; m < PTS_NR_MIX; m++)
		for (b = 0; b < PTS_NR_BS; b++) {
			n = 0;
			for (k = pts_window_first(l); k <= l->nr_rounds; k++)
				pts_avg_add(&l->avg[m][b],
					    &l->cell[k - 1][m][b], &n);
			pts_avg_end(&l->avg[m][b], n);
		}
}

static const char *test_title(const struct pts_run *r)
{
	static const char *const t[] = { "IOPS", "throughput", "latency",
					 "write saturation (WSAT)",
					 "host idle recovery (HIR)",
					 "cross-stimulus recovery (XSR)",
					 ("demand intensity / response time "
					  "histogram (DIRTH)") };

	return t[r->cfg.test];
}

static void text_head(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	fprintf(f, "SNIA PTS %s test, %s variant: %s\n", test_title(r),
		r->cfg.client ? "client" : "enterprise", r->cfg.target);
	if (r->scaled.nr) {
		fprintf(f, "NOT A PTS RESULT (a scaled or partial run):\n");
		for (k = 0; k < r->scaled.nr; k++)
			fprintf(f, "  - %s\n", r->scaled.v[k]);
	}
	fprintf(f, "\nDevice: %s%s%s%s%s, %llu bytes, logical block %u, "
		"started %s\n", r->dev.model,
		r->dev.firmware[0] ? ", firmware " : "", r->dev.firmware,
		r->dev.serial[0] ? ", serial " : "", r->dev.serial,
		(unsigned long long)r->dev.size, r->dev.lbs, r->when);
	fprintf(f, "\nSettings:\n  %-28s %-24s %-40s %s\n", "", "spec",
		"used", "honoured");
	for (k = 0; k < r->nr_set; k++)
		fprintf(f, "  %-28s %-24s %-40s %s\n", r->set[k].name,
			r->set[k].want, r->set[k].used,
			r->set[k].honoured ? "yes" : "no");
}

static void text_phases(const struct pts_loop *l, FILE *f)
{
	fprintf(f, "Purge: %s\n", l->purge);
	fprintf(f, "Preconditioning: %s", l->precond);
	if (l->precond_bytes)
		fprintf(f, "; %llu bytes in %.1f s",
			(unsigned long long)l->precond_bytes,
			l->precond_ms / 1000.0);
	fputc('\n', f);
}

static void text_ss(const struct pts_loop *l, FILE *f)
{
	const struct pts_ss *s = &l->ss;
	char name[96];
	unsigned int k;

	pts_track_name(l, name, sizeof(name));
	fprintf(f, "Steady state convergence (tracked: %s):\n  round %11s  "
		"temperature\n", name, pts_metric_unit(l->metric));
	for (k = 0; k < l->nr_rounds; k++) {
		fprintf(f, "  %5u %11.*f", k + 1, l->metric == MET_LAT ? 4 : 1,
			l->track[k]);
		if (isnan(l->temp[k]))
			fprintf(f, "  -\n");
		else
			fprintf(f, "  %.1f C\n", l->temp[k]);
	}
	if (!l->have_ss) {
		if (l->nr_rounds < PTS_SS_WINDOW)
			fprintf(f, "Steady state: no window (%u rounds, 5 "
				"needed)\n", l->nr_rounds);
		else
			fprintf(f, "Steady state: not judged (interrupted "
				"in round %u)\n", l->nr_rounds);
		return;
	}
	if (s->reached)
		fprintf(f, "Steady state: reached at round %u\n", s->last);
	else
		fprintf(f, "Steady state: NOT reached in %u rounds; the last "
			"five rounds are the measurement window\n", s->last);
	fprintf(f, "Measurement window: rounds %u-%u\n", s->first, s->last);
	fprintf(f, "  average %g %s, min %g, max %g\n", s->avg,
		pts_metric_unit(l->metric), s->min, s->max);
	fprintf(f, "  range %g = %.1f%% of the average (at most 20%%): %s\n",
		s->range, s->avg ? 100 * s->range / s->avg : 0,
		s->range_ok ? "pass" : "FAIL");
	fprintf(f, "  least-squares line %g x round + %g; excursion %g "
		"= %.1f%% of the average (at most 10%%): %s\n", s->slope,
		s->intercept, s->excursion,
		s->avg ? 100 * s->excursion / s->avg : 0,
		s->slope_ok ? "pass" : "FAIL");
}

/* each figure's table title, by enum pts_metric */
static const char *const col_title[] = {
	"IOPS", "throughput, MB/s", "mean response time, ms",
	"maximum response time, ms", "99.999% response time, ms"
};

static void text_table(const struct pts_loop *l, enum pts_metric col,
		       FILE *f)
{
	unsigned int m, b;

	fprintf(f, "%s averaged over the measurement window:\n  %-6s",
		col_title[col], "bs");
	for (m = 0; m < PTS_NR_MIX; m++)
		if (l->mix_mask & 1u << m)
			fprintf(f, " %11u/%-3u", pts_mix_read[m],
				100 - pts_mix_read[m]);
	fputc('\n', f);
	for (b = 0; b < PTS_NR_BS; b++) {
		if (!(l->bs_mask & 1u << b))
			continue;
		fprintf(f, "  %-6s", pts_bs_name[b]);
		for (m = 0; m < PTS_NR_MIX; m++) {
			if (!(l->mix_mask & 1u << m))
				continue;
			if (l->avg[m][b].iops < 0)
				fprintf(f, " %15s", "-");
			else
				fprintf(f, " %15.*f", col >= MET_LAT ? 4 : 1,
					pts_cell_val(&l->avg[m][b], col));
		}
		fputc('\n', f);
	}
}

static void text_loop(const struct pts_loop *l, FILE *f)
{
	fprintf(f, "\n== %s ==\n", l->name);
	text_phases(l, f);
	if (!l->nr_rounds)
		return;
	fputc('\n', f);
	text_ss(l, f);
	if (l->dirth)
		return;	/* its matrix: pts_dirth_text() */
	fputc('\n', f);
	if (l->metric == MET_LAT) {
		text_table(l, MET_LAT, f);
		text_table(l, MET_LAT_MAX, f);
		text_table(l, MET_LAT_P5N, f);
	} else {
		text_table(l, l->metric, f);
	}
}

static void text_wsat(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	fprintf(f, "\nWSAT: 4 KiB random writes, IOPS per %.3f s:\n"
		"  %8s %11s %16s\n", r->wsat_interval_ms / 1000.0, "time s",
		"IOPS", "written (TGBW)");
	for (k = 0; k < r->nr_wsat; k++)
		fprintf(f, "  %8.3f %11.1f %13.3f GB\n", r->wsat_t[k] / 1000.0,
			r->wsat_iops[k], r->wsat_tgbw[k] / 1e9);
}

int pts_report_text(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	text_head(r, f);
	for (k = 0; k < r->nr_loops; k++) {
		if (PTS_NO_LOOP(r->cfg.test)) {
			fputc('\n', f);
			text_phases(&r->loop[k], f);
			if (r->cfg.test == PTS_WSAT)
				text_wsat(r, f);
			else
				pts_xsr_text(r, f);
		} else {
			text_loop(&r->loop[k], f);
		}
		if (r->cfg.test == PTS_HIR)
			pts_hir_text(r, f);
		if (r->cfg.test == PTS_DIRTH)
			pts_dirth_text(r, f);
	}
	if (r->notes.nr)
		fprintf(f, "\nNotes:\n");
	for (k = 0; k < r->notes.nr; k++)
		fprintf(f, "  - %s\n", r->notes.v[k]);
	return fflush(f) || ferror(f) ? -1 : 0;
}

static void json_head(const struct pts_run *r, struct json_writer *w)
{
	static const char *const test[] = { "iops", "tp", "lat", "wsat",
					    "hir", "xsr", "dirth" };
	unsigned int k;

	json_str(w, "test", test[r->cfg.test]);
	json_str(w, "variant", r->cfg.client ? "client" : "enterprise");
	json_str(w, "target", r->cfg.target);
	json_str(w, "started", r->when);
	json_u64(w, "pts_result", !r->scaled.nr);
	json_begin_array(w, "not_pts_because");
	for (k = 0; k < r->scaled.nr; k++)
		json_str(w, NULL, r->scaled.v[k]);
	json_end_array(w);
	json_begin_object(w, "device");
	json_str(w, "model", r->dev.model);
	json_str(w, "firmware", r->dev.firmware);
	json_str(w, "serial", r->dev.serial);
	json_u64(w, "bytes", r->dev.size);
	json_u64(w, "tested_bytes", r->cap);
	json_u64(w, "active_range_bytes", r->range);
	json_u64(w, "logical_block_size", r->dev.lbs);
	json_str(w, "write_cache", r->dev.cache);
	json_end_object(w);
	json_begin_array(w, "settings");
	for (k = 0; k < r->nr_set; k++) {
		json_begin_object(w, NULL);
		json_str(w, "name", r->set[k].name);
		json_str(w, "spec", r->set[k].want);
		json_str(w, "used", r->set[k].used);
		json_u64(w, "honoured", r->set[k].honoured);
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_phases(const struct pts_loop *l, struct json_writer *w)
{
	json_begin_object(w, "purge");
	json_u64(w, "purged", l->purged);
	json_str(w, "method", l->method ? l->method : "none");
	json_str(w, "how", l->purge);
	json_end_object(w);
	json_begin_object(w, "precondition");
	json_str(w, "how", l->precond);
	json_u64(w, "bytes", l->precond_bytes);
	json_u64(w, "ms", l->precond_ms);
	json_end_object(w);
}

/* Cells of a matrix (a round's, or the window's averages) */
static void json_cells(const struct pts_loop *l,
		       const struct pts_cell (*cells)[PTS_NR_BS],
		       const char *key, struct json_writer *w)
{
	unsigned int m, b;

	json_begin_array(w, key);
	for (m = 0; m < PTS_NR_MIX; m++)
		for (b = 0; b < PTS_NR_BS; b++) {
			const struct pts_cell *c = &cells[m][b];
			char mix[16];

			if (c->iops < 0)
				continue;
			snprintf(mix, sizeof(mix), "%u/%u", pts_mix_read[m],
				 100 - pts_mix_read[m]);
			json_begin_object(w, NULL);
			json_str(w, "rw_mix", mix);
			json_u64(w, "bs", pts_bs[b]);
			json_double(w, "iops", c->iops);
			json_double(w, "bw_bytes", c->bw);
			json_double(w, "lat_mean_ns", c->lat_mean);
			json_double(w, "lat_max_ns", c->lat_max);
			if (l->metric == MET_LAT)
				json_double(w, "lat_99.999_ns", c->lat_p5n);
			json_end_object(w);
		}
	json_end_array(w);
}

static void json_ss(const struct pts_loop *l, struct json_writer *w)
{
	const struct pts_ss *s = &l->ss;
	char name[96];
	unsigned int k;

	json_begin_array(w, "rounds");
	for (k = 0; k < l->nr_rounds; k++) {
		json_begin_object(w, NULL);
		json_u64(w, "round", k + 1);
		json_double(w, "tracked", l->track[k]);
		if (!isnan(l->temp[k]))
			json_double(w, "temperature_c", l->temp[k]);
		json_cells(l, (const struct pts_cell (*)[PTS_NR_BS])l->cell[k],
			   "cells", w);
		json_end_object(w);
	}
	json_end_array(w);
	pts_track_name(l, name, sizeof(name));
	json_begin_object(w, "steady_state");
	json_str(w, "tracked", name);
	json_u64(w, "reached", l->have_ss && s->reached);
	if (l->have_ss) {
		json_u64(w, "window_first", s->first);
		json_u64(w, "window_last", s->last);
		json_double(w, "average", s->avg);
		json_double(w, "min", s->min);
		json_double(w, "max", s->max);
		json_double(w, "range", s->range);
		json_u64(w, "range_ok", s->range_ok);
		json_double(w, "slope", s->slope);
		json_double(w, "intercept", s->intercept);
		json_double(w, "excursion", s->excursion);
		json_u64(w, "slope_ok", s->slope_ok);
	}
	json_end_object(w);
}

static void json_wsat(const struct pts_run *r, struct json_writer *w)
{
	unsigned int k;

	json_u64(w, "wsat_interval_ms", r->wsat_interval_ms);
	json_begin_array(w, "wsat");
	for (k = 0; k < r->nr_wsat; k++) {
		json_begin_object(w, NULL);
		json_double(w, "t_ms", r->wsat_t[k]);
		json_double(w, "iops", r->wsat_iops[k]);
		json_double(w, "written_bytes", r->wsat_tgbw[k]);
		json_end_object(w);
	}
	json_end_array(w);
}

int pts_report_json(const struct pts_run *r, FILE *f)
{
	struct json_writer w;
	unsigned int k;

	json_init(&w, f);
	json_begin_object(&w, NULL);
	json_str(&w, "iolite pts", "SNIA Solid State Storage Performance "
		 "Test Specification");
	json_head(r, &w);
	json_begin_array(&w, "loops");
	for (k = 0; k < r->nr_loops; k++) {
		const struct pts_loop *l = &r->loop[k];

		json_begin_object(&w, NULL);
		json_str(&w, "name", l->name);
		json_phases(l, &w);
		if (r->cfg.test == PTS_WSAT) {
			json_wsat(r, &w);
		} else if (r->cfg.test == PTS_XSR) {
			pts_xsr_json(r, &w);
		} else {
			json_str(&w, "unit", pts_metric_unit(l->metric));
			json_ss(l, &w);
			if (!l->dirth)
				json_cells(l, (const struct pts_cell (*)
					       [PTS_NR_BS])l->avg, "matrix",
					   &w);
		}
		if (r->cfg.test == PTS_HIR)
			pts_hir_json(r, &w);
		if (r->cfg.test == PTS_DIRTH)
			pts_dirth_json(r, &w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_begin_array(&w, "notes");
	for (k = 0; k < r->notes.nr; k++)
		json_str(&w, NULL, r->notes.v[k]);
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

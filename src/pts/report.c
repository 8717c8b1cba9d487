/* SPDX-License-Identifier: MIT */
/*
 * pts's reports as text and JSON: the device and the settings, the
 * purge and the preconditioning, the steady-state convergence (the
 * tracked variable per round), the measurement window with its range
 * and its fitted line, and the IOPS matrix averaged over the window (or
 * WSAT's IOPS over time and over the bytes written).
 */
#include <math.h>
#include <string.h>

#include "pts/pts_int.h"
#include "util/json.h"

void pts_window_avg(struct pts_run *r)
{
	unsigned int m, b, k, first = 1;

	if (r->have_ss)
		first = r->ss.first;
	else if (r->nr_rounds > PTS_SS_WINDOW)
		first = r->nr_rounds - PTS_SS_WINDOW + 1;
	for (m = 0; m < PTS_NR_MIX; m++) {
		for (b = 0; b < PTS_NR_BS; b++) {
			double sum = 0;
			unsigned int n = 0;

			for (k = first; k <= r->nr_rounds; k++)
				if (r->iops[k - 1][m][b] >= 0) {
					sum += r->iops[k - 1][m][b];
					n++;
				}
			r->avg[m][b] = n ? sum / n : -1;
		}
	}
}

static const char *test_title(const struct pts_run *r)
{
	return r->cfg.test == PTS_IOPS ? "IOPS" : "write saturation (WSAT)";
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
	fprintf(f, "Purge: %s\n", r->purge);
	fprintf(f, "Preconditioning: %s", r->precond);
	if (r->precond_bytes)
		fprintf(f, "; %llu bytes in %.1f s",
			(unsigned long long)r->precond_bytes,
			r->precond_ms / 1000.0);
	fprintf(f, "\n\nSettings:\n  %-28s %-24s %-40s %s\n", "", "spec",
		"used", "honoured");
	for (k = 0; k < r->nr_set; k++)
		fprintf(f, "  %-28s %-24s %-40s %s\n", r->set[k].name,
			r->set[k].want, r->set[k].used,
			r->set[k].honoured ? "yes" : "no");
}

static void text_ss(const struct pts_run *r, FILE *f)
{
	const struct pts_ss *s = &r->ss;
	unsigned int k;

	fprintf(f, "\nSteady state convergence (tracked: 4 KiB random 100%% "
		"write IOPS):\n  round        IOPS  temperature\n");
	for (k = 0; k < r->nr_rounds; k++) {
		fprintf(f, "  %5u %11.1f", k + 1, r->track[k]);
		if (isnan(r->temp[k]))
			fprintf(f, "  -\n");
		else
			fprintf(f, "  %.1f C\n", r->temp[k]);
	}
	if (!r->have_ss) {
		fprintf(f, "Steady state: no window (%u rounds, 5 needed)\n",
			r->nr_rounds);
		return;
	}
	if (s->reached)
		fprintf(f, "Steady state: reached at round %u\n", s->last);
	else
		fprintf(f, "Steady state: NOT reached in %u rounds; the last "
			"five rounds are the measurement window\n", s->last);
	fprintf(f, "Measurement window: rounds %u-%u\n", s->first, s->last);
	fprintf(f, "  average %.1f IOPS, min %.1f, max %.1f\n", s->avg,
		s->min, s->max);
	fprintf(f, "  range %.1f = %.1f%% of the average (at most 20%%): %s\n",
		s->range, s->avg ? 100 * s->range / s->avg : 0,
		s->range_ok ? "pass" : "FAIL");
	fprintf(f, "  least-squares line %.3f x round + %.1f; excursion %.1f "
		"= %.1f%% of the average (at most 10%%): %s\n", s->slope,
		s->intercept, s->excursion,
		s->avg ? 100 * s->excursion / s->avg : 0,
		s->slope_ok ? "pass" : "FAIL");
}

static void text_matrix(const struct pts_run *r, FILE *f)
{
	unsigned int m, b;

	fprintf(f, "\nIOPS averaged over the measurement window:\n  %-6s",
		"bs");
	for (m = 0; m < PTS_NR_MIX; m++)
		fprintf(f, " %11u/%-3u", pts_mix_read[m], 100 - pts_mix_read[m]);
	fputc('\n', f);
	for (b = 0; b < PTS_NR_BS; b++) {
		fprintf(f, "  %-6s", pts_bs_name[b]);
		for (m = 0; m < PTS_NR_MIX; m++) {
			if (r->avg[m][b] < 0)
				fprintf(f, " %15s", "-");
			else
				fprintf(f, " %15.1f", r->avg[m][b]);
		}
		fputc('\n', f);
	}
}

static void text_wsat(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	fprintf(f, "\nWSAT: 4 KiB random writes, IOPS per %.3f s:\n"
		"  %8s %11s %16s\n", r->wsat_interval_ms / 1000.0, "time s",
		"IOPS", "written (TGBW)");
	for (k = 0; k < r->nr_wsat; k++)
		fprintf(f, "  %8.3f %11.1f %13.3f GB\n",
			r->wsat_t[k] / 1000.0,
			r->wsat_iops[k], r->wsat_tgbw[k] / 1e9);
}

int pts_report_text(const struct pts_run *r, FILE *f)
{
	unsigned int k;

	text_head(r, f);
	if (r->cfg.test == PTS_IOPS && r->nr_rounds) {
		text_ss(r, f);
		text_matrix(r, f);
	} else if (r->cfg.test == PTS_WSAT) {
		text_wsat(r, f);
	}
	if (r->notes.nr)
		fprintf(f, "\nNotes:\n");
	for (k = 0; k < r->notes.nr; k++)
		fprintf(f, "  - %s\n", r->notes.v[k]);
	return fflush(f) || ferror(f) ? -1 : 0;
}

static void json_head(const struct pts_run *r, struct json_writer *w)
{
	unsigned int k;

	json_str(w, "test", r->cfg.test == PTS_IOPS ? "iops" : "wsat");
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
	json_begin_object(w, "purge");
	json_u64(w, "purged", r->purged);
	json_str(w, "how", r->purge);
	json_end_object(w);
	json_begin_object(w, "precondition");
	json_str(w, "how", r->precond);
	json_u64(w, "bytes", r->precond_bytes);
	json_u64(w, "ms", r->precond_ms);
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

static void json_ss(const struct pts_run *r, struct json_writer *w)
{
	const struct pts_ss *s = &r->ss;
	unsigned int k, m, b;

	json_begin_array(w, "rounds");
	for (k = 0; k < r->nr_rounds; k++) {
		json_begin_object(w, NULL);
		json_u64(w, "round", k + 1);
		json_double(w, "tracked_iops", r->track[k]);
		if (!isnan(r->temp[k]))
			json_double(w, "temperature_c", r->temp[k]);
		json_end_object(w);
	}
	json_end_array(w);
	json_begin_object(w, "steady_state");
	json_str(w, "tracked", "4k random 100% write IOPS");
	json_u64(w, "reached", r->have_ss && s->reached);
	if (r->have_ss) {
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
	json_begin_array(w, "iops_matrix");
	for (m = 0; m < PTS_NR_MIX; m++)
		for (b = 0; b < PTS_NR_BS; b++) {
			char mix[16];

			if (r->avg[m][b] < 0)
				continue;
			snprintf(mix, sizeof(mix), "%u/%u", pts_mix_read[m],
				 100 - pts_mix_read[m]);
			json_begin_object(w, NULL);
			json_str(w, "rw_mix", mix);
			json_u64(w, "bs", pts_bs[b]);
			json_double(w, "iops", r->avg[m][b]);
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
	if (r->cfg.test == PTS_IOPS) {
		json_ss(r, &w);
	} else {
		json_u64(&w, "wsat_interval_ms", r->wsat_interval_ms);
		json_begin_array(&w, "wsat");
		for (k = 0; k < r->nr_wsat; k++) {
			json_begin_object(&w, NULL);
			json_double(&w, "t_ms", r->wsat_t[k]);
			json_double(&w, "iops", r->wsat_iops[k]);
			json_double(&w, "written_bytes", r->wsat_tgbw[k]);
			json_end_object(&w);
		}
		json_end_array(&w);
	}
	json_begin_array(&w, "notes");
	for (k = 0; k < r->notes.nr; k++)
		json_str(&w, NULL, r->notes.v[k]);
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

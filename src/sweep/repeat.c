/* SPDX-License-Identifier: MIT */
/*
 * --repeat=N (sweep/sweep.h): the runs' results kept in order, and the
 * compact block the normal report ends with: per job and direction, for
 * IOPS, bandwidth, mean latency and the completion latency's p50, p99 and
 * p99.9, the mean over the runs with its 95% confidence interval (Student
 * t with n - 1 degrees of freedom over the runs' logarithms, so that it
 * cannot go below zero: the runs are the independent samples; the I/Os
 * within a run are not) and each run's figure; a run iolite flagged (the
 * tester starved of CPU, a direction measured under a second) is left
 * out of the mean and interval while two others remain, shown in
 * parentheses with a line saying why. The jobs of every
 * run are the same job list in the same order, so job k of one run is
 * job k of every other. The statistics are compare/'s, so that `iolite
 * compare` on the JSON finds what this block shows.
 */
#include "sweep/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/stats.h"
#include "util/log.h"

int repeat_check(unsigned int n, bool logs, bool trigger, struct strbuf *err)
{
	if (n < 2)
		return 0;
	if (logs)
		strbuf_addstr(err, "option '--repeat': log files (write_*_log, "
			      "--bandwidth-log) are not supported yet with "
			      "--repeat: every run would need logs of its own");
	else if (trigger)
		strbuf_addstr(err, "option '--repeat': --trigger-file and "
			      "--trigger-timeout are not supported yet with "
			      "--repeat: a trigger stops one run, not the runs");
	else
		return 0;
	return -1;
}

void repeat_add(struct repeat_set *rs, struct run_result *rr)
{
	struct notes *n;
	unsigned int k;

	rs->runs = xrealloc(rs->runs, (rs->nr + 1) * sizeof(*rs->runs));
	rs->notes = xrealloc(rs->notes, (rs->nr + 1) * sizeof(*rs->notes));
	n = &rs->notes[rs->nr];
	memset(n, 0, sizeof(*n));
	for (k = 0; k < rr->nr_notes; k++)
		notes_add(n, "%s", rr->notes[k]);
	rs->runs[rs->nr] = *rr;
	rs->runs[rs->nr].notes = (const char *const *)n->v;
	rs->runs[rs->nr].nr_notes = n->nr;
	rs->nr++;
	memset(rr, 0, sizeof(*rr));
}

static void repeat_sum_free(struct result_repeat_sum *sum)
{
	free(sum->v);
	free(sum->present);
	free(sum->out);
	free(sum->kept_flagged);
	memset(sum, 0, sizeof(*sum));
}

void repeat_release(struct repeat_set *rs)
{
	unsigned int k;

	for (k = 0; k < rs->nr; k++) {
		run_result_release(&rs->runs[k]);
		notes_release(&rs->notes[k]);
	}
	free(rs->runs);
	free(rs->notes);
	repeat_sum_free(&rs->sum);
	memset(rs, 0, sizeof(*rs));
}

static const char *const metric_name[REP_NR] = {
	"IOPS", "BW", "lat mean", "clat p50", "clat p99", "clat p99.9"
};

/* One run's figure of a job's direction. */
static double metric_value(const struct job_result *j, unsigned int d,
			   enum rep_metric m)
{
	static const double pct[] = { 50, 99, 99.9 };
	const struct dir_result *dr = &j->dir[d];
	uint64_t v[3] = { 0, 0, 0 };

	switch (m) {
	case REP_IOPS:
		return dr->iops;
	case REP_BW:
		return (double)dr->bw;
	case REP_LAT:	/* total latency; clat where lat is not measured */
		return dr->lat.n ? dr->lat.mean : dr->clat.mean;
	default:
		if (dr->clat.n)
			hist_percentiles(&dr->clat_hist, dr->clat.min,
					 dr->clat.max, pct, 3, v);
		return (double)v[m - REP_P50];
	}
}

/*
 * Job i's direction d over the runs: which runs its intervals leave out
 * (flagged ones, when two or more unflagged remain: stats/results.h)
 */
static void leave_out(struct result_repeat_sum *sum, const struct repeat_set *rs,
		      unsigned int i, unsigned int d)
{
	unsigned int k, nr_flagged = 0, slot = i * RES_DIR_NR + d;
	bool *out = &sum->out[(size_t)slot * rs->nr];

	for (k = 0; k < rs->nr; k++) {
		out[k] = result_flagged(&rs->runs[k].jobs[i], d, NULL);
		nr_flagged += out[k];
	}
	if (nr_flagged && rs->nr - nr_flagged < 2) {
		memset(out, 0, rs->nr * sizeof(*out));
		sum->kept_flagged[slot] = true;
	}
}

static void interval(const struct repeat_set *rs, const bool *out,
		     unsigned int i, unsigned int d, enum rep_metric m,
		     struct result_interval *ci)
{
	double *v = xcalloc(rs->nr, sizeof(*v));
	unsigned int k, n = 0;

	for (k = 0; k < rs->nr; k++)
		if (!out[k])
			v[n++] = metric_value(&rs->runs[k].jobs[i], d, m);
	repeat_interval(v, n, ci);
	free(v);
}

void repeat_interval(const double *v, unsigned int n,
		     struct result_interval *out)
{
	out->mean = out->lo = out->hi = n ? v[0] : 0;
	/* (on the logarithms: 3 runs of 4k, 30k and 62k IOPS were
	 * [-17440, 75775] on their own scale) */
	cmp_runs_interval(v, n, REPEAT_CONFIDENCE, &out->mean, &out->lo,
			  &out->hi);
}

void repeat_summarize(struct repeat_set *rs)
{
	struct result_repeat_sum *sum = &rs->sum;
	const struct run_result *last;
	unsigned int i, d, k;
	enum rep_metric m;
	size_t slots;

	repeat_sum_free(sum);
	if (!rs->nr)
		return;
	/* a run cut short (a signal) may list fewer jobs: none then */
	last = &rs->runs[rs->nr - 1];
	for (k = 0; k < rs->nr; k++)
		if (rs->runs[k].nr_jobs != last->nr_jobs)
			return;
	sum->nr_jobs = last->nr_jobs;
	sum->nr_runs = rs->nr;
	sum->confidence = REPEAT_CONFIDENCE;
	slots = (size_t)sum->nr_jobs * RES_DIR_NR + 1;
	sum->v = xcalloc(slots, sizeof(*sum->v));
	sum->present = xcalloc(slots, 1);
	sum->kept_flagged = xcalloc(slots, 1);
	sum->out = xcalloc(slots * rs->nr, 1);
	for (i = 0; i < sum->nr_jobs; i++)
		for (d = 0; d < RES_DIR_NR; d++) {
			k = i * RES_DIR_NR + d;
			if (!last->jobs[i].dir[d].ios)
				continue;
			sum->present[k] = true;
			leave_out(sum, rs, i, d);
			for (m = 0; m < REP_NR; m++)
				interval(rs, &sum->out[(size_t)k * rs->nr], i, d,
					 m, &sum->v[k][m]);
		}
}

static bool run_out(const struct result_repeat_sum *sum, unsigned int i,
		    unsigned int d, unsigned int run)
{
	return sum->out && run < sum->nr_runs &&
	       sum->out[(size_t)(i * RES_DIR_NR + d) * sum->nr_runs + run];
}

static void fmt_value(char *buf, size_t len, enum rep_metric m, double v)
{
	if (m == REP_IOPS)
		snprintf(buf, len, "%.*f", v < 1000 && v > -1000 ? 1 : 0, v);
	else if (m == REP_BW)
		sweep_fmt_bw(buf, len, v);
	else
		sweep_fmt_ns(buf, len, v);
}

static void metric_line(const struct run_result *rr, unsigned int i,
			unsigned int d, enum rep_metric m, FILE *f)
{
	const struct result_interval *ci =
		&rr->repeat_sum->v[i * RES_DIR_NR + d][m];
	char a[32], b[32], c[32];
	unsigned int k;

	fmt_value(a, sizeof(a), m, ci->mean);
	if (rr->nr_repeats >= 2) {
		fmt_value(b, sizeof(b), m, ci->lo);
		fmt_value(c, sizeof(c), m, ci->hi);
		fprintf(f, "    %-10s %10s [%s, %s] (%+.1f%%, %+.1f%%)  runs:",
			metric_name[m], a, b, c, ci->mean ? 100.0 *
			(ci->lo - ci->mean) / fabs(ci->mean) : 0.0, ci->mean ?
			100.0 * (ci->hi - ci->mean) / fabs(ci->mean) : 0.0);
	} else {
		fprintf(f, "    %-10s %10s (one run: no interval)  runs:",
			metric_name[m], a);
	}
	for (k = 0; k < rr->nr_repeats; k++) {
		fmt_value(a, sizeof(a), m,
			  metric_value(&rr->repeats[k].jobs[i], d, m));
		fprintf(f, run_out(rr->repeat_sum, i, d, k) ? " (%s)" : " %s", a);
	}
	fputc('\n', f);
}

/* The runs flagged by iolite: left out of the intervals, or kept (why). */
static void flag_lines(const struct run_result *rr, unsigned int i,
		       unsigned int d, FILE *f)
{
	const struct result_repeat_sum *sum = rr->repeat_sum;
	struct strbuf why = STRBUF_INIT;
	unsigned int k;

	for (k = 0; k < rr->nr_repeats; k++) {
		strbuf_reset(&why);
		if (!result_flagged(&rr->repeats[k].jobs[i], d, &why))
			continue;
		fprintf(f, "    run %u %s: %s\n", k + 1,
			run_out(sum, i, d, k) ? "left out of the intervals" :
			"flagged, kept", why.buf);
	}
	if (sum->kept_flagged[i * RES_DIR_NR + d])
		fprintf(f, "    (flagged runs kept: fewer than two runs "
			"would be left)\n");
	strbuf_release(&why);
}

static void job_block(const struct run_result *rr, unsigned int i, FILE *f)
{
	static const char *const dir_label[RES_DIR_NR] = {
		"read", "write", "trim", "mixed"
	};
	const struct job_result *j = &rr->repeats[rr->nr_repeats - 1].jobs[i];
	const struct result_sweep *s = rr->sweep;
	unsigned int d, k;
	enum rep_metric m;

	for (d = 0; d < RES_DIR_NR; d++) {
		if (!rr->repeat_sum->present[i * RES_DIR_NR + d])
			continue;
		fprintf(f, "  %s (g=%u)", j->name, j->groupid);
		for (k = 0; s && k < s->nr_opts; k++)
			fprintf(f, " %s=%s", s->opts[k],
				s->vals[result_sweep_point(s, j) * s->nr_opts + k]);
		fprintf(f, ": %s\n", dir_label[d]);
		for (m = 0; m < REP_NR; m++)
			metric_line(rr, i, d, m, f);
		flag_lines(rr, i, d, f);
	}
}

int repeat_block_write(const struct run_result *rr, FILE *f)
{
	unsigned int i;

	if (!rr->nr_repeats || !rr->repeat_sum || !rr->repeat_sum->v)
		return 0;
	fprintf(f, "\nRepeats: %u runs; mean [%.0f%% confidence interval, "
		"Student t over the runs' logarithms], then each run's "
		"figure (in parentheses: flagged by iolite, left out):\n",
		rr->nr_repeats, rr->repeat_sum->confidence * 100);
	for (i = 0; i < rr->repeat_sum->nr_jobs; i++)
		job_block(rr, i, f);
	return ferror(f) ? -1 : 0;
}

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_COMPARE_INTERNAL_H
#define IOLITE_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/stats.h"
#include "resultsio/resultsio.h"
#include "util/strbuf.h"

/*
 * What compare.c (the command line, the sides, the option listing),
 * table.c (the figures, their intervals and verdicts) and run.c (--run:
 * the interleaved runs) share. Nothing here is seen outside compare/.
 */

#define CMP_MAX_SIDES 26

/* One side of the comparison: its runs, from files or from --run. */
struct cmp_side {
	char label;		/* 'A', 'B', ... */
	const char *spec;	/* as given: "a.json", "a1.json,a2.json", "a.fio" */
	struct rio_doc doc;
};

struct cmp_args {
	double conf;			/* 0.95 */
	double fail_if_slower;		/* fraction; < 0: off */
	bool tsv;
	bool run;			/* the sides are job files to run */
	unsigned int repeat;		/* --run: rounds */
	const char *save_dir;		/* --run: where to keep each JSON */
	const char **child_args;	/* --run: after "--", for each run */
	unsigned int nr_child_args;
	unsigned long metrics;		/* --metrics: bit i = metric i; 0: all */
	char **changed;			/* --changed: options meant to differ */
	unsigned int nr_changed;
	const char **specs;
	unsigned int nr_specs;
	bool html;			/* --output-format=html */
	const char *output;		/* -o, --output: the page's file */
};

/*
 * One compared metric, as its table row says it: for the page's verdict
 * (compare/html.c) and the multiple-testing line of the summary.
 */
struct cmp_vrow {
	char job[256];		/* the table's title ("x#2 at iodepth=2") */
	unsigned int dir;
	const char *metric;
	char side;		/* the side set against A */
	bool higher_better;
	double a, b;		/* the sides' figures (means) */
	bool has_ci;		/* an interval (else no verdict) */
	struct cmp_est ea, eb;	/* its inputs, for a corrected one */
	struct cmp_ci ci;
};

/* What the tables found, for the summary and the exit status. */
struct cmp_tally {
	struct cmp_vrow *vrows;		/* every row compared, in order */
	unsigned int nr_vrows, alloc_vrows;
	unsigned int rows;		/* metrics compared */
	unsigned int no_interval;	/* of which without an interval */
	unsigned int regressions;	/* slower beyond --fail-if-slower */
	struct strbuf regressed;	/* one line per regression */
	unsigned int unjudged;		/* --fail-if-slower could not judge */
	struct strbuf unjudgeable;	/* one line each, why */
};

/*
 * The verdict of row v at confidence conf ("faster", "slower",
 * "no-difference"; "no-interval" without one): conf below the tables'
 * for a correction over many tests.
 */
const char *cmp_vrow_verdict(const struct cmp_vrow *v, double conf);

/*
 * The metrics tested at once: m with an interval, found differing at
 * conf, and hold of those that still differ at conf_all, each interval
 * widened for all m (Bonferroni: 1 - (1 - conf) / m).
 */
struct cmp_tests {
	unsigned int m, found, hold;
	double conf_all;
};
void cmp_tests_count(const struct cmp_tally *t, double conf,
		     struct cmp_tests *out);

/* Counts what the gate cannot judge, with a line saying why. */
__attribute__((format(printf, 2, 3)))
void cmp_unjudged(struct cmp_tally *t, const char *fmt, ...);

/*
 * Prints the comparison of job (name, dup) between side a and side b,
 * every direction both have: a block of rows in the normal layout, or
 * TSV lines. Returns 0, or -ENOENT when b has no such job.
 */
int cmp_job_table(const struct cmp_args *args, const struct cmp_side *a,
		  const struct cmp_side *b, const char *name, unsigned int dup,
		  FILE *out, struct cmp_tally *t);

/*
 * Did the file's repeat summary leave run r of side s out of job (name,
 * dup)'s direction dir's intervals (a run iolite flagged)? compare
 * leaves it out too, in its tables and its page, so that both say the
 * same.
 */
bool cmp_left_out(const struct cmp_side *s, unsigned int r, const char *name,
		  unsigned int dup, unsigned int dir);

/* A metric's number ("IOPS", "clat p99" or "clat-p99"), or -1. */
int cmp_metric_index(const char *name);

/* The TSV header line. */
void cmp_tsv_header(FILE *out);

/*
 * --run: runs every side's job file args->repeat times, the sides taking
 * turns (A B A B ...), each run a child iolite writing JSON to a pipe;
 * the runs go into the sides' docs. Every job file is checked (parsed)
 * before the first run. Returns 0, or -errno with a message in err.
 */
int cmp_run_sides(const struct cmp_args *args, struct cmp_side *sides,
		  unsigned int nr, struct strbuf *err);

/*
 * The sides overlaid as one HTML page (compare/html.c): the verdict
 * first (every metric's change, interval and word, with and without a
 * correction for the number of metrics tested, and opt_diffs: the job
 * options that differ, as the text lists them), then per job of A and
 * direction, latency by percentile and IOPS and bandwidth with their
 * confidence intervals.
 */
void cmp_html(const struct cmp_args *args, const struct cmp_side *sides,
	      unsigned int nr, const struct cmp_tally *t,
	      const char *opt_diffs, struct strbuf *page);

/* Do two jobs hold the same sweep point (swept values as a set)? */
bool cmp_same_point(const struct rio_job *x, const struct rio_job *y);

#endif

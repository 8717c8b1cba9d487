/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_SWEEP_SWEEP_H
#define IOLITE_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "job/job.h"
#include "util/notes.h"
#include "stats/results.h"
#include "util/strbuf.h"

/*
 * Repeats and sweeps: one command instead of a shell loop around fio.
 *
 * --sweep=OPT=LIST (sweep.c): a job option and its values; several make
 * the cross product, the first flag outermost. LIST is comma-separated
 * values, each a value as a job file would give it or a range: A..B*F
 * (A, A*F, A*F^2 ... up to B; F >= 2) or A..B+S (A, A+S ... up to B),
 * numbers in fio's size grammar ("4k..64k+4k"). Every value is checked
 * against the option table when parsed, and every job at every point is
 * built once more up front, so that a bad value or a bad combination is
 * refused before any file is made or any I/O issued.
 *
 * sweep_expand() makes the job list one copy per point (all jobs of the
 * list, the point's values added after each job's own options, as if
 * given on the command line for every job); the first job of every
 * point but the first gets stonewall, so each point is a group of its
 * own. A reported job's point: result_sweep_point() (stats/results.h).
 *
 * Reports (table.c): after the usual normal report, one table per job
 * of the job list, a row per point and direction; notes for points whose
 * p99.9 rests on fewer than SWEEP_MIN_TAIL latencies.
 *
 * --repeat=N (repeat.c): main runs the whole (expanded) job list N times
 * on files laid out once and keeps every run's results here; the normal
 * report ends with one block of each run's figures and their mean with a
 * 95% Student t interval over the runs, runs iolite flagged (stats/
 * results.h's result_flagged()) left out of it while two others remain;
 * JSON lists every run under "iolite" -> "repeats" and the summary with
 * the runs left out under "repeat_summary" (report/json.c).
 */

/* A point's p99.9 needs this many latencies behind it to mean much. */
#define SWEEP_MIN_TAIL 1000

struct sweep_axis {
	char *opt;		/* the option's table name */
	char **vals;		/* as the job entries get them */
	unsigned int nr;
};

struct sweep_spec {
	struct sweep_axis *axes;	/* outermost first */
	unsigned int nr_axes;
	unsigned int nr_points;		/* product of the axes' counts */
	/* result_sweep's arrays, made by sweep_expand() */
	const char **names;
	const char **vals;
	struct result_sweep rs;
};

/* The most points one run takes (each is a group of every job). */
#define SWEEP_MAX_POINTS 4096

/*
 * Adds one --sweep argument ("iodepth=1..128*2") to s (zeroed first).
 * Returns 0, or -1 with "option '--sweep': ..." naming the option and
 * the value in err.
 */
int sweep_parse(struct sweep_spec *s, const char *arg, struct strbuf *err);

/*
 * Replaces jl's jobs by one copy per point (see above) and fills s->rs.
 * Each copied job is built (options, plan) once to check it. Returns 0,
 * or -1 with "option '--sweep': at iodepth=4: ..." in err.
 */
int sweep_expand(struct sweep_spec *s, struct job_list *jl,
		 struct strbuf *err);

void sweep_release(struct sweep_spec *s);

/*
 * table.c: the sweep tables (normal output), after the usual report;
 * and a note per job whose points ran too short for their p99.9,
 * appended to out.
 */
int sweep_table_write(const struct run_result *rr, FILE *f);
/* "7.93us", "1.25ms"; "3.91MiB/s": the tables' and the block's units */
void sweep_fmt_ns(char *buf, size_t len, double ns);
void sweep_fmt_bw(char *buf, size_t len, double bytes_per_s);
void sweep_notes(const struct run_result *rr, struct notes *out);

/*
 * repeat.c: the runs of --repeat=N. Each run's results are built by
 * main and handed over (repeat_add takes rr: its content moves in and
 * rr is zeroed; its notes are copied). repeat_block_write: the compact
 * block of the normal report, for rr->repeats.
 */
struct repeat_set {
	struct run_result *runs;
	unsigned int nr;
	struct notes *notes;	/* per run: owned copies of its notes */
	struct result_repeat_sum sum;	/* repeat_summarize() */
};

#define REPEAT_CONFIDENCE 0.95

/*
 * Refuses what --repeat=n (n > 1) cannot do yet: log files, triggers.
 * 0, or -1 with "option '--repeat': ..." in err.
 */
int repeat_check(unsigned int n, bool logs, bool trigger, struct strbuf *err);
void repeat_add(struct repeat_set *rs, struct run_result *rr);
/* Fills rs->sum from the runs (none when a run lists other jobs). */
void repeat_summarize(struct repeat_set *rs);
void repeat_release(struct repeat_set *rs);
int repeat_block_write(const struct run_result *rr, FILE *f);

/*
 * The mean of n runs' figures and its REPEAT_CONFIDENCE interval:
 * Student t over the logarithms (taken back) when every figure is
 * positive, so that it stays above zero; else over the figures.
 */
void repeat_interval(const double *v, unsigned int n,
		     struct result_interval *out);

#endif

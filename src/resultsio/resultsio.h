/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RESULTSIO_RESULTSIO_H
#define IOLITE_RESULTSIO_RESULTSIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/*
 * Results read back: fio 3.x's and iolite's JSON and json+ reports, from
 * runs made here or elsewhere, as a small plain model of runs, jobs,
 * directions, latency blocks, sample summaries, sample series and
 * histograms. For the tools that read finished runs (`iolite compare`,
 * later `iolite plot`); it knows nothing of the runner or of how the
 * figures were made, and nothing of what its readers do with them.
 *
 * A file holds one run, or several:
 *
 * - a report as fio or iolite writes it: one run. Text before the JSON
 *   (fio's notes on stdout) and after it (a normal report) is skipped;
 *   with several JSON documents (--status-interval) the last is the run,
 *   and the rates between successive ones its per-interval samples.
 * - iolite's interval stream (--interval-output, doc/live.md): a JSON
 *   object a line per interval and job; its jobs' figures are the sums
 *   of their intervals (counts, bytes, bins), their series one point per
 *   interval at its end (t), their clat percentiles over time too. Each
 *   --repeat round is a run.
 * - iolite's repeats: the top-level "iolite" object holds "repeats", an
 *   array of report objects, each with its own "jobs" (and, optionally,
 *   its own "timestamp_ms" and "global options"; missing ones are the
 *   document's). Each element is one run, in order.
 *
 * Units as fio's JSON: latencies in ns, bandwidth in bytes/s (bw_bytes),
 * bandwidth samples in KiB/s, times in ms. Everything is owned by the
 * rio_doc and freed by rio_doc_release().
 *
 * Reading needs jansson (libjansson-dev); without it rio_available() is
 * false and the readers fail with a message naming the package.
 */

enum rio_dir { RIO_READ, RIO_WRITE, RIO_TRIM, RIO_MIXED, RIO_DIR_NR };

/* "read", "write", "trim", "mixed" */
extern const char *const rio_dir_name[RIO_DIR_NR];

/* A summary: a latency block's N/min/max/mean/stddev, or fio's bw_* and
 * iops_* sample summaries (n = bw_samples / iops_samples). */
struct rio_stat {
	uint64_t n;
	double min, max, mean, stdev;	/* mean NAN: n > 0 but no number */
};

struct rio_pct {
	double p;		/* 99.9 */
	uint64_t v;		/* ns */
};

/* json+ "bins": a histogram bucket's value (ns) and its count */
struct rio_bin {
	uint64_t v;
	uint64_t n;
};

struct rio_lat {
	struct rio_stat s;
	struct rio_pct *pct;	/* the "percentile" map, in file order */
	unsigned int nr_pct;
	struct rio_bin *bins;	/* json+ only (NULL otherwise), by value */
	unsigned int nr_bins;
};

/*
 * Per-interval samples in order: iolite's ("iolite" -> "samples"), or,
 * for a file of --status-interval reports (fio's too), the rates between
 * successive reports (from_reports). fio's final JSON alone has none.
 */
struct rio_series {
	double *v;
	double *t;		/* each point's time (ms); NULL: evenly spaced */
	unsigned int nr;
	double period_ms;	/* time one point covers (mean) */
	bool from_reports;
	bool from_stream;	/* an interval stream's lines */
};

/* The clat percentiles an interval stream gives over time: 50 99 99.9 */
#define RIO_PCT_TIME_NR 3
extern const double rio_pct_time[RIO_PCT_TIME_NR];

struct rio_dir_result {
	bool present;		/* the block is in the file */
	uint64_t io_bytes, total_ios, runtime_ms;
	double iops;		/* NAN: missing or not a number */
	double bw_bytes;	/* bytes/s; NAN likewise */
	struct rio_lat slat, clat, lat;
	struct rio_stat bw_samples;	/* KiB/s */
	struct rio_stat iops_samples;
	struct rio_series bw_series;	/* KiB/s */
	struct rio_series iops_series;
	/* iolite's: the mean clat (ns) at each IOPS point; 0: none */
	struct rio_series clat_series;
	/* an interval stream's: each interval's clat percentiles (ns) */
	struct rio_series clat_time[RIO_PCT_TIME_NR];
};

/* An option as the report lists it ("bs" = "4k"); val NULL: none. */
struct rio_opt {
	char *key;
	char *val;
};

/* iodepth_level, iodepth_submit, iodepth_complete: fio's 7 buckets */
#define RIO_DIST_NR 7

/*
 * iolite's --repeat summary ("iolite" -> "repeat_summary"), per job and
 * direction: each figure's mean over the runs and its confidence
 * interval, as iolite computed them; the runs left out of them (flagged
 * by iolite) and whether flagged runs were kept for want of others.
 */
enum rio_rep_metric { RIO_REP_IOPS, RIO_REP_BW, RIO_REP_LAT, RIO_REP_P50,
		      RIO_REP_P99, RIO_REP_P999, RIO_REP_NR };

/* "iops", "bw_bytes", "lat_mean_ns", ...: the JSON's keys */
extern const char *const rio_rep_key[RIO_REP_NR];

struct rio_ci {
	double mean, lo, hi;
};

struct rio_rep_dir {
	bool present;
	struct rio_ci m[RIO_REP_NR];
	unsigned int *left_out;		/* run numbers, from 1 */
	unsigned int nr_left_out;
	bool flagged_kept;
};

struct rio_rep {
	unsigned int runs;
	double confidence;		/* percent: 95 */
	struct rio_rep_dir dir[RIO_DIR_NR];
};

struct rio_job {
	char *name;
	unsigned int groupid;
	unsigned int index;	/* its place in the run's "jobs" */
	unsigned int dup;	/* earlier jobs of the run with its name */
	long error;
	struct rio_opt *opts;	/* "job options", in file order */
	unsigned int nr_opts;
	struct rio_dir_result dir[RIO_DIR_NR];
	/* CPU and queue (0 when the file has none) */
	double usr_cpu, sys_cpu;	/* percent of the run time */
	uint64_t ctx, run_ms;		/* "job_runtime" */
	double usr_ns_per_io;		/* iolite's own cost ("iolite") */
	double iowq_cpu_ms;
	unsigned int iowq_max_threads;	/* io-wq workers at most */
	double run_delay_pct;		/* its worker waited for a CPU (NAN) */
	bool has_dist;			/* the three below are in the file */
	double depth[RIO_DIST_NR], submit[RIO_DIST_NR], complete[RIO_DIST_NR];
	/* a sweep point's values ("sweep": {"iodepth": "4"}), in file order */
	struct rio_opt *sweep;
	unsigned int nr_sweep;
	/* the last run of repeats: the job's summary over them; else NULL */
	struct rio_rep *rep;
};

struct rio_run {
	char *source;		/* the file (or name) it was read from */
	unsigned int repeat;	/* 0, or its place in "repeats" from 1 */
	unsigned int nr_repeats;	/* with repeat: how many runs */
	char *version;		/* "fio-3.33", "iolite-0.1"; "" when none */
	int64_t timestamp_ms;	/* end of the run; 0 when the file has none */
	struct rio_opt *global;	/* "global options" */
	unsigned int nr_global;
	struct rio_job *jobs;
	unsigned int nr_jobs;
	/* a sweep: "iolite" -> "sweep" -> "options" (the swept names) */
	char **sweep_opts;
	unsigned int nr_sweep_opts;
	char **notes;		/* "iolite" -> "notes" */
	unsigned int nr_notes;
};

struct rio_doc {
	struct rio_run *runs;
	unsigned int nr_runs;
};

/* false when built without jansson */
bool rio_available(void);

/*
 * Reads the runs of one file (path "-": stdin) or of a buffer holding a
 * file's text (name for messages), appending them to doc (zero it first).
 * Returns 0, or -errno with "name: ..." (and the line where there is one)
 * in err; doc keeps the runs read before.
 */
int rio_read_file(struct rio_doc *doc, const char *path, struct strbuf *err);
int rio_read_buf(struct rio_doc *doc, const char *name, const char *buf,
		 size_t len, struct strbuf *err);
void rio_doc_release(struct rio_doc *doc);

/*
 * Percentile p (99.9) of a latency block: the file's own figure when its
 * "percentile" map has p, else from the json+ histogram by fio's rule
 * (the value of the first bucket where the running count reaches p% of
 * the samples). Returns 0 (the file's figure), 1 (from the bins), or
 * -ENOENT when the block has no samples or neither source has p.
 */
int rio_percentile(const struct rio_lat *l, double p, uint64_t *out);

/* The job of run r named name, the dup-th (from 0) of that name; NULL. */
const struct rio_job *rio_find_job(const struct rio_run *r, const char *name,
				   unsigned int dup);

/* Percentile p from the bins alone; -ENOENT without bins. */
int rio_bins_percentile(const struct rio_lat *l, double p, uint64_t *out);

#endif

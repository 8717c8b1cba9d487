/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_RUNCHARTS_H
#define IOLITE_PLOT_RUNCHARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/stats.h"

/*
 * A run's charts and tables, one path for the html report
 * (report/html_charts.c fills the model from the run's results model)
 * and `iolite plot` (plot/resplot.c fills it from JSON results read
 * back): what a group of jobs that ran side by side needs to be drawn,
 * and nothing of where it came from but enum rc_source, which words the
 * captions and keeps what only a run's report shows (slat and lat means
 * in the figures, a latency chart without series when disable_clat=1
 * left none).
 *
 * Per group and direction (read, write, trim, mixed) that some job moved
 * data in: the figures (a table), latency by percentile (clat, and lat
 * and slat when slat was measured apart) on a log latency axis against a
 * percentile axis stretched toward the tail, the clat histogram,
 * bandwidth, IOPS and the mean clat over time, each job's bandwidth when several moved
 * data, the listed percentiles as tables; per group the IO depth, submit
 * and complete distributions and the CPU (usr, sys, io-wq). A series
 * per job, in the job's colour (its place in the group), the same in
 * every chart; chart ids and series names the same whatever the source,
 * so that a run's report and the plot of its JSON have the same charts.
 *
 * Every figure printed carries its value exactly in a data attribute:
 * on a figures row data-jobi (the job's index in JSON's "jobs"),
 * data-dir, data-iops, data-bw (bytes/s), data-ios, data-runtime,
 * data-clat-mean; on a percentile cell data-jobi, data-dir, data-lat
 * (clat, slat, lat), data-pct and data-ns.
 *
 * Units: latencies in ns, bandwidth in bytes/s, times in ms. The model
 * owns its arrays (the fillers allocate them with the helpers below);
 * rc_group_release() frees them.
 */

struct chart_series;
struct sink;

enum rc_source {
	/* a run's own results: full histograms, the sampler's timed series */
	RC_RUN,
	/*
	 * a results file read back: json+ bins or the listed percentiles
	 * alone, evenly spaced samples or the rates between reports
	 */
	RC_FILE,
};

enum { RC_READ, RC_WRITE, RC_TRIM, RC_MIXED, RC_DIR_NR };
enum rc_lat_kind { RC_CLAT, RC_SLAT, RC_LAT, RC_LAT_NR };

/* "read", "write", "trim", "mixed"; "clat", "slat", "lat" */
extern const char *const rc_dir_name[RC_DIR_NR];
extern const char *const rc_lat_name[RC_LAT_NR];

/* A listed percentile: a dot on the curve, a cell of the table. */
struct rc_pct {
	double p;		/* 99.9 */
	uint64_t v;		/* ns */
};

/* A latency block: its summary, histogram and percentiles. */
struct rc_lat {
	uint64_t n;		/* samples; 0: not measured */
	double min, max, mean;
	const struct hist *hist;	/* the full histogram; NULL: none */
	bool own_hist;		/* hist is the model's, freed with it */
	struct rc_pct *pct;	/* the job's list, in its order */
	unsigned int nr_pct;
};

struct rc_point {
	double t;		/* ms since the start */
	double v;
};

/* Bandwidth (bytes/s) or IOPS over time. */
struct rc_time {
	struct rc_point *pt;
	unsigned int nr;
	double period_ms;	/* a sample's interval; 0: unknown */
	unsigned int per_point;	/* samples a point is the mean of */
	bool from_reports;	/* the rates between --status-interval reports */
	bool from_stream;	/* an interval stream's: a point an interval */
	double pct;		/* a latency percentile's series: which */
};

/* clat percentiles over time (an interval stream's): 50, 99, 99.9 */
#define RC_PCT_TIME_NR 3

struct rc_dir {
	bool shown;		/* it moved data: fio shows it */
	double iops, bw;
	uint64_t ios, runtime_ms;
	struct rc_lat lat[RC_LAT_NR];
	bool bw_range;		/* bandwidth samples: their lowest, highest */
	double bw_lo, bw_hi;
	struct rc_time time[3];	/* bandwidth, IOPS, mean clat (ns; 0: none) */
	struct rc_time clat_time[RC_PCT_TIME_NR];	/* ns; nr 0: none */
};

#define RC_DIST_NR 7	/* fio's buckets: 1 2 4 8 16 32 >=64 */

enum rc_dist { RC_DEPTH, RC_SUBMIT, RC_COMPLETE, RC_DISTS };

struct rc_job {
	unsigned int index;	/* its place in JSON's "jobs" (data-jobi) */
	int pct_prec;		/* decimals of a percentile's label; -1: %g */
	struct rc_dir dir[RC_DIR_NR];
	double dist[RC_DISTS][RC_DIST_NR];	/* % of I/Os or of calls */
	double usr, sys, iowq;	/* CPU, % of the run time; iowq: io-wq's */
};

struct rc_group {
	enum rc_source source;
	unsigned int gid;
	bool anchors;		/* headings get ids: "g0-read" */
	struct rc_job *jobs;
	char **label;		/* plot/page.h's page_job_labels */
	unsigned int nr;
	bool depth;		/* the IO depth chart */
	bool calls;		/* the submit and complete charts */
	bool iowq;		/* io-wq workers' bars on the CPU chart */
};

/* A group of nr zeroed jobs named names (labelled in order). */
void rc_group_init(struct rc_group *g, enum rc_source source,
		   unsigned int gid, const char *const *names,
		   unsigned int nr);
void rc_group_release(struct rc_group *g);

/* Room for nr percentiles of l (it had none), zeroed. */
struct rc_pct *rc_pct_alloc(struct rc_lat *l, unsigned int nr);
void rc_lat_release(struct rc_lat *l);
/* Room for nr points of t (it had none), zeroed. */
struct rc_point *rc_time_alloc(struct rc_time *t, unsigned int nr);

/*
 * Each direction some job of g moved data in: its heading, figures,
 * charts and percentile tables. HTML text goes to the page only
 * (plot/sink.h).
 */
void runcharts_dirs(struct sink *k, const struct rc_group *g);
/*
 * An interval stream's figures over time alone, per direction some job
 * of g moved data in: IOPS an interval and each interval's clat
 * percentiles (the html report's section of the run's stream).
 */
void runcharts_over_time(struct sink *k, const struct rc_group *g);
/* "Queue and CPU": the distributions and the CPU chart. */
void runcharts_queue_cpu(struct sink *k, const struct rc_group *g);

/*
 * Latency by percentile of l into s: the quantile function from its
 * histogram, else a line through its listed percentiles; either way a
 * dot on each listed percentile up to pmax, its tooltip "who: kind p99 =
 * 1.23 ms" (prec: the percentile's decimals, -1: %g). Returns the dots.
 */
unsigned int rc_lat_series(struct chart_series *s, const struct rc_lat *l,
			   const char *who, const char *kind, int prec,
			   double pmax);

#endif

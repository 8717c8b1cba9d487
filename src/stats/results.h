/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_RESULTS_H
#define IOLITE_STATS_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "opt/plan.h"
#include "stats/stats.h"
#include "stats/worker_result.h"
#include "util/strbuf.h"

/*
 * The results model: plain data built once after the run from the
 * workers' results, read by every report writer (normal, json, json+,
 * terse). Writers never see workers, plans' internals or engines; every
 * figure they print is here or follows from here by the helpers below.
 *
 * Units: latencies in nanoseconds, sizes in bytes, times in milliseconds
 * (fio reports msec), bandwidth in bytes/s unless named otherwise.
 * Merging (group_reporting, numjobs) is exact: counts and histograms add,
 * min/max combine, Welford moments merge (Chan et al.).
 */

/* fio allows up to 20 entries in percentile_list */
#define PCT_LIST_MAX PERCENTILE_LIST_MAX

/*
 * The percentiles of one latency block (slat, clat, lat, sync), at the
 * job's percentile list (job_result.pct_list). on: the job asked for
 * them and the block has samples; writers show the block's percentiles
 * exactly when it is set (fio prints an empty JSON map when the list is
 * empty). val[i] is in ns, clamped to the block's [min, max].
 */
struct pct_result {
	bool on;
	uint64_t val[PCT_LIST_MAX];
};

/*
 * One option as a job file or the command line wrote it ("bs", "4k"),
 * for JSON's "global options" and "job options". val is NULL for a bare
 * flag ("thread"), which fio's JSON leaves out. Strings are borrowed.
 */
struct result_opt {
	const char *key;
	const char *val;
};

/*
 * unified_rw_reporting: the block summing read, write and trim sits after
 * them, at dir[RES_MIXED] of a job and [RES_MIXED] of a group's arrays.
 */
#define RES_MIXED DDIR_RWDIR_CNT
#define RES_DIR_NR (DDIR_RWDIR_CNT + 1)

/* One data direction of one reported job. */
struct dir_result {
	uint64_t ios;		/* completed I/Os */
	uint64_t bytes;		/* completed bytes */
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_ms;	/* time the direction ran: max over members */
	uint64_t bw;		/* bytes/s: bytes * 1000 / runtime_ms */
	double iops;		/* ios * 1000 / runtime_ms */

	struct welford slat, clat, lat;	/* ns; n == 0: not measured */

	/* from the histograms by hist_percentiles() */
	struct pct_result slat_pct, clat_pct, lat_pct;

	/*
	 * Bandwidth samples in KiB/s and IOPS samples; for a merged job
	 * these are merged as one population (fio's group_reporting).
	 */
	struct welford bw_samples;
	struct welford iops_samples;
	double bw_agg_pct;	/* bw sample mean as % of the group's bw */
	/*
	 * The same samples over time, for the pictures: bytes/s and IOPS
	 * (stats/series.h), summed point by point over a merged job's
	 * members; owned, run_result_release() frees them.
	 */
	struct series bw_series, iops_series;

	/*
	 * Rated jobs: latency from each I/O's intended issue time (see
	 * run/pace.h); n == 0 without a rate. Percentiles go with clat's
	 * or lat's.
	 */
	struct welford co_lat;
	struct pct_result co_pct;

	/*
	 * Last, as they are most of the struct: the pages of empty ones
	 * are never touched (hist_merge() writes only counts), so a job
	 * instance's results cost little more than its figures.
	 */
	struct hist slat_hist, clat_hist, lat_hist;
	struct hist co_hist;
};

/*
 * One priority value's latency in a reported job's direction: fio's
 * "clat prio C/L" lines and percentiles, JSON "prios" (stats/prio.c).
 */
struct prio_result {
	uint16_t ioprio;	/* class << 13 | hint << 3 | level */
	struct welford lat;	/* ns; clat, or lat with lat_percentiles */
	struct hist hist;
	struct pct_result pct;
};

struct prio_results {
	struct prio_result *v;	/* owned; in fio's order */
	unsigned int nr;
};

/* One reported job: one instance, or a group_reporting merge. */
struct job_result {
	char *name;		/* owned */
	char *description;	/* owned, NULL when none */
	const struct job_plan *plan;	/* first member's plan (borrowed) */
	unsigned int groupid;
	unsigned int members;	/* "jobs=" in the header */
	/*
	 * error: the report's, the first member's that has one: the error
	 * that stopped it, else (continue_on_error) the first it went past;
	 * failed: some member stopped on an error (the run fails);
	 * first_error: continue_on_error's first counted error (fio's
	 * first_error), the first non-zero among members.
	 */
	int error;
	bool failed;
	int first_error;
	pid_t pid;		/* first member's tid */
	bool running;		/* a member still runs (a report made
				 * while the run goes on) */
	bool ramp_end;		/* a member ended during its ramp_time */
	bool not_started;	/* its thread never ran (a signal or exit_what
				 * stopped the run first): all zeros, listed by
				 * JSON and terse, left out of the normal report,
				 * as fio */
	struct timespec start_wall;	/* first member's start */
	struct timespec start_clock;	/* the same, job_start_clock_id's */
	unsigned int kb_base;	/* 1024 or 1000 */
	unsigned int unit_base;	/* resolved: 8 bytes, 1 bits (fio's values) */
	unsigned int sig_figs;	/* significant_figures: 4 */

	/*
	 * Percentiles: the first member's percentile_list (sorted) and
	 * label precision, and which kinds it asked for (terse shows the
	 * list even for a direction without samples).
	 */
	double pct_list[PCT_LIST_MAX];
	unsigned int nr_pct;
	unsigned int pct_precision;	/* decimals of percentile labels */
	bool clat_pct_opt, lat_pct_opt, slat_pct_opt;
	bool thread;		/* thread=1 (the preamble says "thread") */
	unsigned int ddir_mask;	/* directions with bytes and runtime */

	/*
	 * dir[] (at the end): read, write, trim; dir[RES_MIXED] is the
	 * exact merge of the three directions, filled when unified (the first member's unified_rw_reporting) is not
	 * none; mixed_issued: its issued, short and dropped counts. With
	 * mixed, issued[] and friends carry the sum at [DDIR_READ], as fio.
	 */
	enum unified_rw unified;
	uint64_t mixed_issued[3];

	/* fsync/fdatasync (sync_hist at the end); percentiles when clat
	 * or lat ones are on */
	uint64_t sync_ios;
	struct welford sync_lat;
	struct pct_result sync_pct;

	/* CPU: times summed over members, percentages over run time */
	uint64_t usr_ms, sys_ms;
	uint64_t run_ms;	/* total run time, summed over members */
	uint64_t elapsed_ms;	/* wall time, max over members */
	double usr_cpu, sys_cpu;	/* percent */
	uint64_t ctx, majf, minf;

	/*
	 * iolite's own cost. usr_ns_per_io: the worker threads' user CPU
	 * time (ru_utime, summed over members) over the I/Os they
	 * completed, syncs included; 0 without I/O. The io_uring io-wq
	 * ("iou-wrk") threads that ran on the job's behalf: their CPU
	 * time (user + system) and counts, summed over members.
	 */
	uint64_t own_usr_ns;
	uint64_t own_ios;
	double usr_ns_per_io;
	uint64_t iowq_cpu_ns;
	unsigned int iowq_threads;
	unsigned int iowq_max_threads;
	/*
	 * The tester's stalls (run/stall.h): the worker threads' run-queue
	 * delay and involuntary context switches, summed over members;
	 * run_delay_known: every member's delay was known.
	 */
	uint64_t run_delay_ns;
	uint64_t nivcsw;
	bool run_delay_known;
	bool on_disk;		/* a member's files are on a disk with stats */
	/* log files: any (then log_wait_ms, log_dropped go to JSON) */
	bool logs;
	uint64_t log_wait_ns;
	uint64_t log_dropped;
	uint64_t zone_resets;	/* zonemode=zbd: the write line says */
	/*
	 * The requests the engine sent to its server, by kind (http's
	 * methods, util/reqstat.h), summed over members; NULL for other
	 * engines. Owned.
	 */
	struct reqstats *reqs;

	/* issued r, w, t, sync (fio's "issued rwts") */
	uint64_t issued[DDIR_RWDIR_CNT + 1];
	uint64_t issued_short[DDIR_RWDIR_CNT + 1];
	uint64_t issued_drop[DDIR_RWDIR_CNT + 1];

	/* raw distributions; see results_*_pct() for fio's percentages */
	uint64_t lat_ns[LAT_NS_NR], lat_us[LAT_US_NR], lat_ms[LAT_MS_NR];
	uint64_t depth[DEPTH_NR], submit[DEPTH_NR], complete[DEPTH_NR];
	uint64_t submit_calls, complete_calls;

	/*
	 * latency_target (ns), latency_window (us), latency_percentile and
	 * the depth found (iodepth without a target), as fio reports them
	 */
	uint64_t latency_target, latency_window;
	double latency_percentile;
	unsigned int latency_depth;
	/* steady state (stats/steady_result.h): the first member's, NULL
	 * when the job does not look for it; borrowed from its worker */
	const struct ss_result *ss;

	/*
	 * For the JSON writer, filled by main (borrowed; NULL/0 = none):
	 * the options the job's own section gave, in order, without the
	 * inherited global ones (fio shows those of a group's last member);
	 * and with continue_on_error, the count of errors let through.
	 */
	const struct result_opt *opts;
	unsigned int nr_opts;
	uint64_t total_err;

	/*
	 * Per priority, fio's rule: when some member gave its I/Os
	 * priorities of their own (cmdprio) or the members' priorities
	 * (prio, prioclass) differ, each direction's (and the mixed
	 * block's) latency of each priority value, in the order fio lists
	 * them; the writers show a direction's when two or more have
	 * samples (prio_results_shown()). prio_total: they are total
	 * latency ("lat prio", lat_percentiles), else clat. prio_multi,
	 * prio_differ, prio_first: stats/prio.c's, while merging.
	 */
	struct prio_results prio[RES_DIR_NR];
	bool prio_total;
	bool prio_multi, prio_differ;
	uint16_t prio_first;
	/* last, as their histograms are most of the struct (dir_result) */
	struct dir_result dir[RES_DIR_NR];
	struct hist sync_hist;
};

/* "Run status group N": one per group id, fio's figures. */
struct group_result {
	unsigned int groupid;
	unsigned int kb_base, unit_base, sig_figs;
	enum unified_rw unified;	/* its first job's */
	/* [RES_MIXED]: the jobs' mixed blocks, when unified */
	uint64_t io_bytes[RES_DIR_NR];
	uint64_t agg_bw[RES_DIR_NR];	/* bytes/s: io / max_run */
	uint64_t min_bw[RES_DIR_NR];	/* over reported jobs */
	uint64_t max_bw[RES_DIR_NR];
	uint64_t min_run_ms[RES_DIR_NR];	/* over reported jobs */
	uint64_t max_run_ms[RES_DIR_NR];
};

/* One block device of "Disk stats (read/write)". */
struct disk_result {
	char name[64];		/* "loop0", "vda" */
	uint64_t ios[2];	/* read, write */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];	/* ms */
	uint64_t io_ticks;	/* ms the device was busy */
	uint64_t time_in_queue;	/* ms */
	double util;		/* percent: io_ticks / elapsed */
};

/*
 * fio's --idle-prof: how idle the CPUs were over the run, from spinning
 * threads of the lowest priority (cli/idleprof.c). Percentages.
 */
struct idle_result {
	double system;		/* mean over the CPUs */
	unsigned int nr_cpus;
	const int *cpu;		/* CPU numbers */
	const double *pct;	/* [nr_cpus]; shown with percpu only */
	bool percpu;
	double unit_mean_us;	/* calibrated unit of work */
	double unit_stddev_us;
};

/* A job file of the run, for the HTML report's summary. */
struct run_source {
	const char *path;
	const char *text;	/* NULL: it could not be read again */
};

struct host_info;
struct profile_result;

/*
 * --sweep (src/sweep/): the swept options and every point's values, for
 * the writers. A reported job's point is its plan's desc_index /
 * jobs_per_point (each point is a copy of the job list). Strings are
 * borrowed.
 */
struct result_sweep {
	const char *const *opts;	/* option names, outermost first */
	unsigned int nr_opts;
	const char *const *vals;	/* [point * nr_opts + k] */
	unsigned int nr_points;
	unsigned int jobs_per_point;	/* job descriptions per point */
};

static inline unsigned int result_sweep_point(const struct result_sweep *s,
					      const struct job_result *j)
{
	return j->plan ? j->plan->desc_index / s->jobs_per_point : 0;
}

/*
 * --repeat (src/sweep/repeat.c): per job and direction of the runs, each
 * metric's mean over the runs and its confidence interval (Student t over
 * the runs; lo == hi == mean with one run). present[k]: the direction of
 * v[k] moved data in the last run. k = job * RES_DIR_NR + dir.
 */
enum rep_metric { REP_IOPS, REP_BW, REP_LAT, REP_P50, REP_P99, REP_P999,
		  REP_NR };

struct result_interval {
	double mean, lo, hi;
};

/*
 * Runs iolite itself flags (the same rule as the sweep pages' rings,
 * plot/sweepplot.c): the tester starved of CPU for more than
 * RESULT_FLAG_DELAY_PCT of its run (run/pitfall.h's rule), or a
 * direction measured for under RESULT_FLAG_MIN_MS (run/checks.c's).
 * A flagged run is left out of its job's and direction's intervals
 * when at least two unflagged runs remain (out[k * nr_runs + run]);
 * else every run is kept and kept_flagged[k] says so.
 */
#define RESULT_FLAG_DELAY_PCT 1.0
#define RESULT_FLAG_MIN_MS 1000

struct result_repeat_sum {
	unsigned int nr_jobs;
	unsigned int nr_runs;
	double confidence;		/* 0.95 */
	struct result_interval (*v)[REP_NR];
	bool *present;
	bool *out;			/* [k * nr_runs + run]: left out */
	bool *kept_flagged;		/* [k]: flagged runs kept (too few) */
};

/*
 * Is direction d of job j flagged (above)? Why ("the tester starved of
 * CPU 46.7% of its run; measured for 302 ms") into why when not NULL.
 */
bool result_flagged(const struct job_result *j, unsigned int d,
		    struct strbuf *why);

struct run_result {
	struct job_result *jobs;	/* reported jobs, in job order */
	unsigned int nr_jobs;
	struct group_result *groups;	/* indexed by group id */
	unsigned int nr_groups;
	struct disk_result *disks;	/* filled by disk_set_results() */
	unsigned int nr_disks;
	time_t timestamp;		/* end of the run (json "timestamp") */
	uint64_t timestamp_ms;
	/* JSON "global options", filled by main (borrowed; NULL/0 = none) */
	const struct result_opt *global_opts;
	unsigned int nr_global_opts;
	/*
	 * Notes about the run for the reader (clock fallback, measurement
	 * warnings): printed in the normal report, listed in JSON under
	 * "iolite" -> "notes". Borrowed, filled by main.
	 */
	const char *const *notes;
	unsigned int nr_notes;
	const char *clock;		/* "tsc" or "clock_gettime"; NULL: unknown */
	const struct idle_result *idle;	/* --idle-prof; borrowed, NULL: off */
	/* --profile: one per profiled stonewall group (profile/profile.h) */
	const struct profile_result *profiles;	/* borrowed; NULL: none */
	unsigned int nr_profiles;
	/*
	 * What ran where, for the HTML report's summary, filled by main
	 * (borrowed; NULL/0 = none): the command line, the job files with
	 * their text, the machine (util/host.h).
	 */
	const char *const *argv;
	unsigned int argc;
	const struct run_source *sources;
	unsigned int nr_sources;
	const struct host_info *host;
	/* --sweep: the points (borrowed; NULL: no sweep) */
	const struct result_sweep *sweep;
	/*
	 * --repeat: every run's results in order, the last holding the
	 * same figures as this one (borrowed; NULL/0: one run). The JSON
	 * writer lists them in full under "iolite" -> "repeats".
	 */
	const struct run_result *repeats;
	unsigned int nr_repeats;
	const struct result_repeat_sum *repeat_sum;	/* with repeats */
	/* fio's client mode (iolite-mpi); NULL: a plain run */
	const struct client_report *client;
	/*
	 * The final report's: the interval stream's file (--interval-output,
	 * doc/live.md), whole and closed by now, for the html page's
	 * figures over time (borrowed; NULL: none, or on stdout)
	 */
	const char *interval_stream;
};

/*
 * iolite-mpi's report, shaped as fio's client mode prints it. A rank
 * writes its own part (part: the jobs only, each with "hostname" and
 * "rank" in JSON; the normal report under a "<host> rank N:" line);
 * rank 0 writes the document: the parts, in rank order, then jobs[] of
 * its run_result (the "All clients" merges) -- in JSON under
 * "client_stats" instead of "jobs".
 */
/* iolite-mpi: a rank's clock against rank 0's, as measured at start */
struct client_clock {
	int64_t offset_ns;	/* its CLOCK_REALTIME minus rank 0's */
	uint64_t rtt_ns;	/* the round trip the offset came from */
	char host[64];
};

/*
 * iolite-mpi: one rank's jobs of one stonewall group, summed per
 * direction, for the html page's per-rank bars and their spread (the
 * ranks' own jobs stay on their ranks: these few figures travel).
 */
struct client_rank {
	int rank;
	char host[64];
	unsigned int groupid;	/* the whole list's group id */
	unsigned int jobs;
	uint64_t bytes[RES_DIR_NR], ios[RES_DIR_NR];
	uint64_t runtime_ms[RES_DIR_NR];	/* the longest of its jobs' */
};

struct client_report {
	bool part;
	const char *host;
	int rank;
	const char *const *parts;	/* the document's: text per rank */
	unsigned int nr_parts;
	const struct client_clock *clocks;	/* per rank, or NULL */
	unsigned int nr_clocks;
	const struct client_rank *ranks;	/* rank 0's page, or NULL */
	unsigned int nr_ranks;
};

/*
 * Builds rr from the nr workers' results (in job order, numjobs clones
 * adjacent). Jobs of a group whose first member has group_reporting=1 are
 * merged into one reported job named after the first; otherwise each
 * instance is a job of its own (clones share their name). Computes
 * percentiles (as the first member's options ask), iolite's own cost,
 * group figures and bw_agg_pct. rr is zeroed first; the
 * caller releases it with run_result_release(). wr is only read (its
 * plans must outlive rr). Returns 0 or -errno with a message in err.
 */
int results_build(struct run_result *rr, struct worker_result *wr,
		  unsigned int nr, struct strbuf *err);
void run_result_release(struct run_result *rr);

/*
 * JSON's "global options" and each job's "job options" (its own
 * section's entries; fio shows a merged group's last member's, and
 * "name" first for command-line jobs), from the job list the nr plans
 * were built from. The lists borrow jl's strings; free them with
 * results_release_opts().
 */
struct job_list;
void results_fill_opts(struct run_result *rr, const struct job_list *jl,
		       const struct job_plan *plans, unsigned int nr);
void results_release_opts(struct run_result *rr);

/*
 * stats/prio.c, called by results_build(): a member's per-priority
 * latency into its reported job (after job_add_member), then the
 * decision whether the job shows any, the mixed block and percentiles
 * (after job_finish); release frees them.
 */
void prio_results_add(struct job_result *j, const struct worker_result *w);
void prio_results_finish(struct job_result *j);
void prio_results_release(struct job_result *j);
/* Entries with samples: fio shows a direction's from two on. */
unsigned int prio_results_shown(const struct prio_results *pr);
/*
 * Whether a value of the list has a priority hint (fio 3.42's priohint,
 * cmdprio_hint): the reports then show "class/level/hint" as fio 3.42.
 */
bool prio_results_hinted(const struct prio_results *pr);

/* Merges src into dst exactly (counts, min/max, hist, Welford). */
void welford_merge(struct welford *dst, const struct welford *src);
void hist_merge(struct hist *dst, const struct hist *src);
/*
 * fio's merge of bandwidth / IOPS samples of jobs running side by side
 * (group_reporting): the group's rate is the sum of its members' rates,
 * so n, min, max, mean and m2 add up. Not a population merge.
 */
void welford_sum(struct welford *dst, const struct welford *src);
/*
 * Merges one member's direction into a reported job's: welford_merge for
 * latencies, welford_sum for bw/iops samples, counts add, runtime is the
 * max. Percentiles, bw, iops are left for results_build to recompute.
 */
void dir_result_merge(struct dir_result *dst, const struct dir_result *src);

/*
 * Merges a reported job into another as jobs side by side (iolite-mpi's
 * "All clients"): directions by dir_result_merge(), counts and
 * distributions add, elapsed is the max, error the first. Per-priority
 * figures are not merged (dst keeps none). Then results_finish().
 */
void results_job_merge(struct job_result *dst, const struct job_result *src);

/*
 * Derived figures of jobs made by results_job_merge() (rates,
 * percentiles, CPU) and rr's groups (rr->groups has rr->nr_groups
 * entries, zeroed here).
 */
void results_finish(struct run_result *rr);

/*
 * Direction d's issued I/Os as JSON's total_ios (which 0), short_ios (1)
 * and drop_ios (2): failed ones too; RES_MIXED's from mixed_issued.
 */
static inline uint64_t results_issued(const struct job_result *j,
				      unsigned int d, unsigned int which)
{
	if (d == RES_MIXED)
		return j->mixed_issued[which];
	return which == 0 ? j->issued[d] : which == 1 ? j->issued_short[d] :
	       j->issued_drop[d];
}

/* Welford's sample standard deviation (n - 1), 0 when n < 2. */
double welford_stdev(const struct welford *w);

/*
 * fio's default percentile list: 1 5 10 20 30 40 50 60 70 80 90 95 99
 * 99.5 99.9 99.95 99.99.
 */
extern const double hist_default_pct[];
extern const unsigned int hist_default_pct_nr;

/*
 * Percentiles from a histogram, fio's rule: walking the buckets in order,
 * percentile p falls in the first bucket where the running count reaches
 * p/100 of the total; its value is that bucket's midpoint, clamped to
 * [min, max] (the recorded extremes) so that no percentile ever exceeds
 * the recorded maximum. Overflow samples count as above every bucket
 * (reported as max), and so is the 100th percentile. Relative error vs the exact order statistic is at
 * most one bucket width, 1/64 of the value's power of two.
 */
void hist_percentiles(const struct hist *h, uint64_t min, uint64_t max,
		      const double *pct, unsigned int nr, uint64_t *out);
/*
 * json+'s "bins" object of h: bucket value (ns) -> count, the non-zero
 * buckets in order, the overflow with the top one (stats/hist_json.c).
 */
struct json_writer;
void hist_json_bins(struct json_writer *w, const struct hist *h);

/* Bucket i's value range [lo, hi] and fio's reported value for it. */
uint64_t hist_bucket_lo(unsigned int i);
uint64_t hist_bucket_hi(unsigned int i);
uint64_t hist_bucket_val(unsigned int i);

/*
 * fio's percentages of the distributions: depth/submit/complete are
 * fio's 7 columns (IO depths 1 2 4 8 16 32 >=64; submit/complete 0 4 8
 * 16 32 64 >=64), a non-zero share below 0.1% shows as 0.1%.
 */
#define DIST_NR 7
void results_depth_pct(const struct job_result *j, double out[DIST_NR]);
void results_submit_pct(const struct job_result *j, double out[DIST_NR]);
void results_complete_pct(const struct job_result *j, double out[DIST_NR]);
/* lat buckets as % of all issued I/Os; non-zero below 0.01% is 0.01% */
void results_lat_pct(const struct job_result *j, const uint64_t *cnt,
		     unsigned int nr, double *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * fio's "json" and "json+" output formats: the keys, nesting, order and
 * value types fio 3.33 prints for the same job, so that scripts and tools
 * reading fio's JSON (jq one-liners, fio-plot, fio_jsonplus_clat2csv)
 * read iolite's. Layout rules worked out from fio's output:
 *
 * - "global options" and a job's "job options" appear only when there is
 *   something in them; bare flags ("thread") are left out.
 * - every job has "read", "write" and "trim" blocks, used or not, and a
 *   "sync" block; a latency block gets a "percentile" map only when
 *   percentiles are on for it and it has samples.
 * - json+ adds "bins" next to each "percentile" map: bucket value (ns) ->
 *   count, non-zero buckets only, in bucket order.
 * - "total_err" / "first_error" only with continue_on_error, "desc" last
 *   and only with a description, "disk_util" only when a disk was seen.
 * - iolite adds two keys of its own, which fio's tools ignore: "iolite"
 *   at the end of each job (its own CPU cost per I/O, io_uring's io-wq
 *   threads, the worker's run-queue delay and involuntary context
 *   switches, with logs the time it waited for the log writer, the
 *   bw/iops samples in order) and at the end of the document (the
 *   clock, the notes; with --sweep the swept options and the number of
 *   points, with --repeat every run's report object under "repeats").
 *   With --sweep each job also has "sweep": its point's values.
 *
 * Warnings and errors never go into the JSON: they go to stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "opt/opt.h"
#include "report/profile.h"
#include "report/report.h"
#include "report/reqs.h"
#include "report/steady.h"
#include "util/json.h"
#include "util/log.h"

static const char *const ddir_name[RES_DIR_NR] = {
	"read", "write", "trim", "mixed",
};

/* fio's lat bucket labels: 2 4 10 ... 1000 (ns, us), then ms to >=2000 */
static const char *const lat_keys[LAT_MS_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};
static const char *const depth_keys[DIST_NR] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};
static const char *const submit_keys[DIST_NR] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};

/*
 * One latency block. fio writes the "percentile" map (and in json+ the
 * "bins") only when percentiles are on for the block and it has samples.
 */
static void write_lat(struct json_writer *w, const char *key,
		      const struct job_result *j, const struct welford *s,
		      const struct hist *h, const struct pct_result *pr,
		      bool plus)
{
	char pkey[32];
	unsigned int i;

	json_begin_object(w, key);
	json_u64(w, "min", s->n ? s->min : 0);
	json_u64(w, "max", s->n ? s->max : 0);
	json_double(w, "mean", s->n ? s->mean : 0.0);
	json_double(w, "stddev", welford_stdev(s));
	json_u64(w, "N", s->n);
	if (s->n && pr->on) {
		json_begin_object(w, "percentile");
		for (i = 0; i < j->nr_pct; i++) {
			snprintf(pkey, sizeof(pkey), "%f", j->pct_list[i]);
			json_u64(w, pkey, pr->val[i]);
		}
		json_end_object(w);
		if (plus)
			hist_json_bins(w, h);
	}
	json_end_object(w);
}

/*
 * fio 3.33's "prios" array, after "lat_ns", when two or more priorities
 * have samples: {"prioclass", "prio", "clat_ns" (or "lat_ns" with
 * lat_percentiles): a latency block} for each priority with samples;
 * with priority hints, fio 3.42's "priohint" after "prio".
 */
static void write_prios(struct json_writer *w, const struct job_result *j,
			unsigned int d, bool plus)
{
	const struct prio_results *pr = &j->prio[d];
	bool hints = prio_results_hinted(pr);
	unsigned int i;

	if (prio_results_shown(pr) < 2)
		return;
	json_begin_array(w, "prios");
	for (i = 0; i < pr->nr; i++) {
		const struct prio_result *e = &pr->v[i];

		if (!e->lat.n)
			continue;
		json_begin_object(w, NULL);
		json_u64(w, "prioclass", e->ioprio >> 13);
		json_u64(w, "prio", hints ? e->ioprio & 7 : e->ioprio & 0x1fff);
		/* fio 3.42's key (it prints it always; 3.33 never) */
		if (hints)
			json_u64(w, "priohint", (e->ioprio >> 3) & 0x3ff);
		write_lat(w, j->prio_total ? "lat_ns" : "clat_ns", j, &e->lat,
			  &e->hist, &e->pct, plus);
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_ddir(struct json_writer *w, const struct job_result *j,
		       unsigned int d, bool plus)
{
	const struct dir_result *dr = &j->dir[d];
	const struct welford *bw = &dr->bw_samples, *io = &dr->iops_samples;

	json_begin_object(w, ddir_name[d]);
	json_u64(w, "io_bytes", dr->bytes);
	json_u64(w, "io_kbytes", dr->bytes >> 10);
	json_u64(w, "bw_bytes", dr->bw);
	json_u64(w, "bw", dr->bw >> 10);
	json_double(w, "iops", dr->iops);
	json_u64(w, "runtime", dr->runtime_ms);
	json_u64(w, "total_ios", results_issued(j, d, 0));
	json_u64(w, "short_ios", results_issued(j, d, 1));
	json_u64(w, "drop_ios", results_issued(j, d, 2));
	write_lat(w, "slat_ns", j, &dr->slat, &dr->slat_hist, &dr->slat_pct,
		  plus);
	write_lat(w, "clat_ns", j, &dr->clat, &dr->clat_hist, &dr->clat_pct,
		  plus);
	write_lat(w, "lat_ns", j, &dr->lat, &dr->lat_hist, &dr->lat_pct,
		  plus);
	write_prios(w, j, d, plus);
	json_u64(w, "bw_min", bw->n ? bw->min : 0);
	json_u64(w, "bw_max", bw->n ? bw->max : 0);
	json_double(w, "bw_agg", bw->n ? dr->bw_agg_pct : 0.0);
	json_double(w, "bw_mean", bw->n ? bw->mean : 0.0);
	json_double(w, "bw_dev", welford_stdev(bw));
	json_u64(w, "bw_samples", bw->n);
	json_u64(w, "iops_min", io->n ? io->min : 0);
	json_u64(w, "iops_max", io->n ? io->max : 0);
	json_double(w, "iops_mean", io->n ? io->mean : 0.0);
	json_double(w, "iops_stddev", welford_stdev(io));
	json_u64(w, "iops_samples", io->n);
	json_end_object(w);
}

static void write_sync(struct json_writer *w, const struct job_result *j,
		       bool plus)
{
	json_begin_object(w, "sync");
	json_u64(w, "total_ios", j->sync_ios);
	write_lat(w, "lat_ns", j, &j->sync_lat, &j->sync_hist, &j->sync_pct,
		  plus);
	json_end_object(w);
}

/*
 * iolite's own figures for a job, under a key of its own at the end of
 * the job object: tools reading fio's keys are not disturbed.
 */
/*
 * Rated jobs: "co_lat_ns", per direction with samples, the latency from
 * each I/O's intended issue time, laid out as fio's lat_ns blocks.
 */
static void write_co_lat(struct json_writer *w, const struct job_result *j,
			 bool plus)
{
	unsigned int d, nr = j->unified ? RES_DIR_NR : DDIR_RWDIR_CNT;
	bool any = false;

	for (d = 0; d < nr; d++)
		any |= j->dir[d].co_lat.n != 0;
	if (!any)
		return;
	json_begin_object(w, "co_lat_ns");
	for (d = 0; d < nr; d++) {
		const struct dir_result *dr = &j->dir[d];

		if (dr->co_lat.n)
			write_lat(w, ddir_name[d], j, &dr->co_lat,
				  &dr->co_hist, &dr->co_pct, plus);
	}
	json_end_object(w);
}

/*
 * One series as the time a point covers (the mean spacing of the
 * points) and the points' values divided by div, rounded.
 */
static void write_series(struct json_writer *w, const char *key,
			 const struct series *sr, double div)
{
	char pkey[32];
	unsigned int i;
	uint64_t period = 0;

	if (sr->nr > 1)
		period = (sr->pt[sr->nr - 1].t_ms - sr->pt[0].t_ms) /
			 (sr->nr - 1);
	else if (sr->nr)
		period = sr->pt[0].t_ms;
	snprintf(pkey, sizeof(pkey), "%s_period_ms", key);
	json_u64(w, pkey, period);
	json_begin_array(w, key);
	for (i = 0; i < sr->nr; i++)
		json_u64(w, NULL, (uint64_t)(sr->pt[i].v / div + 0.5));
	json_end_array(w);
}

/*
 * "clat_mean_ns": at each IOPS point, the mean completion latency of the
 * I/Os it counts (0: none completed); nothing when clat was not measured
 */
static void write_lat_series(struct json_writer *w, const struct series *sr)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < sr->nr; i++)
		any |= sr->pt[i].lat > 0;
	if (!any)
		return;
	json_begin_array(w, "clat_mean_ns");
	for (i = 0; i < sr->nr; i++)
		json_u64(w, NULL, (uint64_t)(sr->pt[i].lat + 0.5));
	json_end_array(w);
}

/*
 * "samples": the bandwidth (KiB/s) and IOPS samples behind bw_mean and
 * iops_mean, in order, per direction that has them (stats/series.h:
 * at most SERIES_MAX each, a point covering *_period_ms). fio's JSON
 * keeps only their summary; `iolite compare` needs the series to
 * estimate how precise one run's mean is (batch means).
 */
static void write_samples(struct json_writer *w, const struct job_result *j)
{
	unsigned int d;
	bool any = false;

	for (d = 0; d < RES_DIR_NR; d++)
		any |= j->dir[d].bw_series.nr || j->dir[d].iops_series.nr;
	if (!any)
		return;
	json_begin_object(w, "samples");
	for (d = 0; d < RES_DIR_NR; d++) {
		const struct dir_result *dr = &j->dir[d];

		if (!dr->bw_series.nr && !dr->iops_series.nr)
			continue;
		json_begin_object(w, ddir_name[d]);
		write_series(w, "bw", &dr->bw_series, 1024);	/* KiB/s */
		write_series(w, "iops", &dr->iops_series, 1);
		write_lat_series(w, &dr->iops_series);
		json_end_object(w);
	}
	json_end_object(w);
}

static void write_own_cost(struct json_writer *w, const struct job_result *j,
			   bool plus)
{
	json_begin_object(w, "iolite");
	json_double(w, "usr_ns_per_io", j->usr_ns_per_io);
	json_double(w, "iowq_cpu_ms", (double)j->iowq_cpu_ns / 1e6);
	json_u64(w, "iowq_threads", j->iowq_threads);
	json_u64(w, "iowq_max_threads", j->iowq_max_threads);
	/* the tester's stalls (run/stall.h): -1 when the kernel does not
	 * say; the percentage is of the members' summed run time */
	json_double(w, "run_delay_ms", j->run_delay_known ?
		    (double)j->run_delay_ns / 1e6 : -1.0);
	json_double(w, "run_delay_pct", j->run_delay_known && j->run_ms ?
		    (double)j->run_delay_ns / 1e4 / (double)j->run_ms : 0.0);
	json_u64(w, "nivcsw", j->nivcsw);
	if (j->logs) {
		/* time the job's I/O stood still for the log writer */
		json_double(w, "log_wait_ms", (double)j->log_wait_ns / 1e6);
		json_u64(w, "log_dropped", j->log_dropped);
	}
	write_co_lat(w, j, plus);
	write_samples(w, j);
	report_reqs_json(w, j);
	json_end_object(w);
}

static void write_report(struct json_writer *w, const struct run_result *rr,
			 bool plus);
static void write_sweep(struct json_writer *w, const struct run_result *rr,
			const struct job_result *j);
static void write_repeat_sum(struct json_writer *w,
			     const struct run_result *rr);

/* iolite-mpi: each rank's clock offset to rank 0 (doc/mpi.md) */
static void write_clocks(struct json_writer *w, const struct client_report *cl)
{
	unsigned int r;

	json_begin_array(w, "ranks");
	for (r = 0; r < cl->nr_clocks; r++) {
		json_begin_object(w, NULL);
		json_u64(w, "rank", r);
		json_str(w, "hostname", cl->clocks[r].host);
		json_i64(w, "offset_ns", cl->clocks[r].offset_ns);
		json_u64(w, "rtt_ns", cl->clocks[r].rtt_ns);
		json_end_object(w);
	}
	json_end_array(w);
}

/*
 * The run's clock and notes, the document's last key; --sweep: the
 * options swept and the number of points; --repeat: every run's report
 * in full, in order (the document itself is the last run's).
 */
static void write_run_notes(struct json_writer *w, const struct run_result *rr,
			    bool plus)
{
	unsigned int i;

	json_begin_object(w, "iolite");
	json_str(w, "clock", rr->clock ? rr->clock : "");
	json_begin_array(w, "notes");
	for (i = 0; i < rr->nr_notes; i++)
		json_str(w, NULL, rr->notes[i]);
	json_end_array(w);
	if (rr->client && rr->client->clocks)
		write_clocks(w, rr->client);
	if (rr->sweep) {
		json_begin_object(w, "sweep");
		json_begin_array(w, "options");
		for (i = 0; i < rr->sweep->nr_opts; i++)
			json_str(w, NULL, rr->sweep->opts[i]);
		json_end_array(w);
		json_u64(w, "points", rr->sweep->nr_points);
		json_end_object(w);
	}
	if (rr->nr_repeats) {
		json_begin_array(w, "repeats");
		for (i = 0; i < rr->nr_repeats; i++)
			write_report(w, &rr->repeats[i], plus);
		json_end_array(w);
		if (rr->repeat_sum && rr->repeat_sum->v)
			write_repeat_sum(w, rr);
	}
	report_profile_json(w, rr);
	json_end_object(w);
}

/*
 * Job i's runs (from 1) its directions' intervals leave out, flagged by
 * iolite, and whether flagged runs were kept, too few being left:
 * "left_out": {"read": {"runs": [2], "flagged_kept": 0}}
 */
static void write_left_out(struct json_writer *w,
			   const struct result_repeat_sum *sum, unsigned int i)
{
	unsigned int d, r, k;

	json_begin_object(w, "left_out");
	for (d = 0; d < RES_DIR_NR; d++) {
		k = i * RES_DIR_NR + d;
		if (!sum->present[k])
			continue;
		json_begin_object(w, d == RES_MIXED ? "mixed" : ddir_name[d]);
		json_begin_array(w, "runs");
		for (r = 0; sum->out && r < sum->nr_runs; r++)
			if (sum->out[(size_t)k * sum->nr_runs + r])
				json_u64(w, NULL, r + 1);
		json_end_array(w);
		json_u64(w, "flagged_kept",
			 sum->kept_flagged && sum->kept_flagged[k]);
		json_end_object(w);
	}
	json_end_object(w);
}

/*
 * --repeat: per job and direction, each metric's mean over the runs and
 * its interval, for readers that want the summary without the runs.
 */
static void write_repeat_sum(struct json_writer *w, const struct run_result *rr)
{
	static const char *const keys[REP_NR] = {
		"iops", "bw_bytes", "lat_mean_ns", "clat_p50_ns", "clat_p99_ns",
		"clat_p99.9_ns"
	};
	const struct result_repeat_sum *sum = rr->repeat_sum;
	unsigned int i, d, m;

	json_begin_object(w, "repeat_summary");
	json_u64(w, "runs", rr->nr_repeats);
	json_double(w, "confidence", sum->confidence * 100);
	json_begin_array(w, "jobs");
	for (i = 0; i < sum->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];

		json_begin_object(w, NULL);
		json_str(w, "jobname", j->name);
		json_u64(w, "groupid", j->groupid);
		write_sweep(w, rr, j);
		for (d = 0; d < RES_DIR_NR; d++) {
			if (!sum->present[i * RES_DIR_NR + d])
				continue;
			json_begin_object(w, d == RES_MIXED ? "mixed" :
					  ddir_name[d]);
			for (m = 0; m < REP_NR; m++) {
				const struct result_interval *ci =
					&sum->v[i * RES_DIR_NR + d][m];

				json_begin_object(w, keys[m]);
				json_double(w, "mean", ci->mean);
				json_double(w, "ci_lo", ci->lo);
				json_double(w, "ci_hi", ci->hi);
				json_end_object(w);
			}
			json_end_object(w);
		}
		write_left_out(w, sum, i);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

/* --sweep: the values of the job's point, option -> value as given */
static void write_sweep(struct json_writer *w, const struct run_result *rr,
			const struct job_result *j)
{
	const struct result_sweep *s = rr->sweep;
	unsigned int k, p;

	if (!s)
		return;
	p = result_sweep_point(s, j);
	json_begin_object(w, "sweep");
	for (k = 0; k < s->nr_opts; k++)
		json_str(w, s->opts[k], s->vals[p * s->nr_opts + k]);
	json_end_object(w);
}

/* An options object, left out when nothing in it has a value. */
static void write_opts(struct json_writer *w, const char *key,
		       const struct result_opt *opts, unsigned int nr)
{
	unsigned int i, shown = 0;

	for (i = 0; i < nr; i++)
		if (opts[i].key && opts[i].val)
			shown++;
	if (!shown)
		return;
	json_begin_object(w, key);
	for (i = 0; i < nr; i++)
		if (opts[i].key && opts[i].val)
			json_str(w, opts[i].key, opts[i].val);
	json_end_object(w);
}

static void write_dist(struct json_writer *w, const char *key,
		       const char *const *keys, const double *pct,
		       unsigned int nr)
{
	unsigned int i;

	json_begin_object(w, key);
	for (i = 0; i < nr; i++)
		json_double(w, keys[i], pct[i]);
	json_end_object(w);
}

static void write_job(struct json_writer *w, const struct run_result *rr,
		      const struct job_result *j, bool plus,
		      const struct client_report *cl)
{
	double dist[DIST_NR], lat[LAT_MS_NR];
	unsigned int d;

	json_begin_object(w, NULL);
	json_str(w, "jobname", j->name);
	json_u64(w, "groupid", j->groupid);
	/*
	 * fio 3.42 prints job_start (ms of job_start_clock_id's clock) in
	 * every job; fio 3.33 has no such key. Printed when the option is
	 * set, so that a job of fio 3.33 keeps 3.33's keys.
	 */
	if (j->plan && opt_is_set(&j->plan->o, "job_start_clock_id"))
		json_u64(w, "job_start",
			 (uint64_t)j->start_clock.tv_sec * 1000 +
			 (uint64_t)j->start_clock.tv_nsec / 1000000);
	json_i64(w, "error", j->error);
	/* the run is over: nothing left to estimate */
	json_u64(w, "eta", 0);
	/* whole seconds, rounded up as fio's are */
	json_u64(w, "elapsed", (j->elapsed_ms + 999) / 1000);
	write_opts(w, "job options", j->opts, j->nr_opts);
	write_sweep(w, rr, j);
	/* unified_rw_reporting: mixed alone, or after the others (both) */
	if (j->unified != UNIFIED_MIXED) {
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			write_ddir(w, j, d, plus);
		write_sync(w, j, plus);
	}
	if (j->unified)
		write_ddir(w, j, RES_MIXED, plus);
	json_u64(w, "job_runtime", j->run_ms);
	json_double(w, "usr_cpu", j->usr_cpu);
	json_double(w, "sys_cpu", j->sys_cpu);
	json_u64(w, "ctx", j->ctx);
	json_u64(w, "majf", j->majf);
	json_u64(w, "minf", j->minf);

	results_depth_pct(j, dist);
	write_dist(w, "iodepth_level", depth_keys, dist, DIST_NR);
	results_submit_pct(j, dist);
	write_dist(w, "iodepth_submit", submit_keys, dist, DIST_NR);
	results_complete_pct(j, dist);
	write_dist(w, "iodepth_complete", submit_keys, dist, DIST_NR);

	results_lat_pct(j, j->lat_ns, LAT_NS_NR, lat);
	write_dist(w, "latency_ns", lat_keys, lat, LAT_NS_NR);
	results_lat_pct(j, j->lat_us, LAT_US_NR, lat);
	write_dist(w, "latency_us", lat_keys, lat, LAT_US_NR);
	results_lat_pct(j, j->lat_ms, LAT_MS_NR, lat);
	write_dist(w, "latency_ms", lat_keys, lat, LAT_MS_NR);

	if (j->plan && j->plan->o.continue_on_error) {
		json_u64(w, "total_err", j->total_err);
		json_i64(w, "first_error", j->first_error);
	}
	json_u64(w, "latency_depth", j->latency_depth);
	json_u64(w, "latency_target", j->latency_target);
	json_double(w, "latency_percentile", j->latency_percentile);
	json_u64(w, "latency_window", j->latency_window);
	/* fio's client mode names the host of each job (the last for All
	 * clients); iolite-mpi adds the rank (fio has the server's port) */
	if (cl) {
		json_str(w, "hostname", cl->host ? cl->host : "");
		if (cl->part)
			json_i64(w, "rank", cl->rank);
	}
	if (j->description)
		json_str(w, "desc", j->description);
	report_steady_json(w, j);
	write_own_cost(w, j, plus);
	json_end_object(w);
}

static void write_disk(struct json_writer *w, const struct disk_result *dk)
{
	json_begin_object(w, NULL);
	json_str(w, "name", dk->name);
	json_u64(w, "read_ios", dk->ios[0]);
	json_u64(w, "write_ios", dk->ios[1]);
	json_u64(w, "read_merges", dk->merges[0]);
	json_u64(w, "write_merges", dk->merges[1]);
	json_u64(w, "read_ticks", dk->ticks[0]);
	json_u64(w, "write_ticks", dk->ticks[1]);
	json_u64(w, "in_queue", dk->time_in_queue);
	json_double(w, "util", dk->util);
	json_end_object(w);
}

/*
 * A rank's part of iolite-mpi's document: its jobs as members of the
 * "client_stats" array, each one after a comma (the document drops the
 * first part's).
 */
static int write_json_part(const struct run_result *rr, FILE *f, bool plus)
{
	struct json_writer w;
	unsigned int i;

	json_init(&w, f);
	w.depth = 2;
	w.started = true;
	w.is_array[0] = false;
	w.is_array[1] = true;
	w.has_items[0] = w.has_items[1] = true;
	for (i = 0; i < rr->nr_jobs; i++)
		write_job(&w, rr, &rr->jobs[i], plus, rr->client);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

/* The parts in rank order, as members of the open array. */
static void write_json_parts(struct json_writer *w,
			     const struct client_report *cl)
{
	unsigned int i;

	for (i = 0; i < cl->nr_parts; i++) {
		const char *p = cl->parts[i];

		if (!p || !*p)
			continue;
		if (!w->has_items[w->depth - 1] && *p == ',')
			p++;
		fputs(p, w->f);
		w->has_items[w->depth - 1] = true;
	}
}


/* One run's report object (the document, or an element of "repeats"). */
static void write_report(struct json_writer *w, const struct run_result *rr,
			 bool plus)
{
	char when[64];
	struct tm tm;
	unsigned int i;

	/* ctime()'s layout, as fio shows it: "Wed Dec  2 10:10:52 2026" */
	when[0] = '\0';
	if (localtime_r(&rr->timestamp, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);

	json_begin_object(w, NULL);
	json_str(w, "fio version", "iolite-" IOLITE_VERSION);
	json_i64(w, "timestamp", (int64_t)rr->timestamp);
	json_u64(w, "timestamp_ms", rr->timestamp_ms);
	json_str(w, "time", when);
	write_opts(w, "global options", rr->global_opts, rr->nr_global_opts);
	json_begin_array(w, rr->client ? "client_stats" : "jobs");
	if (rr->client)
		write_json_parts(w, rr->client);
	for (i = 0; i < rr->nr_jobs; i++)
		write_job(w, rr, &rr->jobs[i], plus, rr->client);
	json_end_array(w);
	if (rr->nr_disks) {
		json_begin_array(w, "disk_util");
		for (i = 0; i < rr->nr_disks; i++)
			write_disk(w, &rr->disks[i]);
		json_end_array(w);
	}
	if (rr->idle) {
		const struct idle_result *id = rr->idle;

		/* fio's --idle-prof object: "cpu-N" keys with percpu */
		json_begin_object(w, "cpu_idleness");
		json_double(w, "system", id->system);
		for (i = 0; id->percpu && i < id->nr_cpus; i++) {
			char key[32];

			snprintf(key, sizeof(key), "cpu-%d", id->cpu[i]);
			json_double(w, key, id->pct[i]);
		}
		json_double(w, "unit_mean", id->unit_mean_us);
		json_double(w, "unit_stddev", id->unit_stddev_us);
		json_end_object(w);
	}
	write_run_notes(w, rr, plus);
	json_end_object(w);
}

static int write_json(const struct run_result *rr, FILE *f, bool plus)
{
	struct json_writer w;

	if (rr->client && rr->client->part)
		return write_json_part(rr, f, plus);
	json_init(&w, f);
	write_report(&w, rr, plus);
	if (json_finish(&w) || fflush(f))
		return -EIO;
	return 0;
}

static int json_write(const struct run_result *rr, FILE *f)
{
	return write_json(rr, f, false);
}

static int json_plus_write(const struct run_result *rr, FILE *f)
{
	return write_json(rr, f, true);
}

const struct report_ops report_json = {
	.name = "json",
	.write = json_write,
};

const struct report_ops report_json_plus = {
	.name = "json+",
	.write = json_plus_write,
};

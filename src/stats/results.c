/* SPDX-License-Identifier: MIT */
/*
 * From the workers' results to the results model: group_reporting merges,
 * percentiles, the "Run status group" figures. Runs once after the run,
 * never on the I/O path.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "stats/results.h"
#include "util/log.h"

const double hist_default_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99,
};
const unsigned int hist_default_pct_nr = ARRAY_SIZE(hist_default_pct);

void welford_merge(struct welford *dst, const struct welford *src)
{
	double delta, na, nb, n;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	/* Chan et al.: exact for the combined population */
	na = (double)dst->n;
	nb = (double)src->n;
	n = na + nb;
	delta = src->mean - dst->mean;
	dst->mean += delta * nb / n;
	dst->m2 += src->m2 + delta * delta * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void welford_sum(struct welford *dst, const struct welford *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->n += src->n;
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

double welford_stdev(const struct welford *w)
{
	if (w->n < 2)
		return 0.0;
	return sqrt(w->m2 / (double)(w->n - 1));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	/* only where src has counts: dst's untouched pages stay so */
	for (i = 0; i < HIST_NR; i++)
		if (src->bucket[i])
			dst->bucket[i] += src->bucket[i];
	if (src->overflow)
		dst->overflow += src->overflow;
}

/*
 * Bucket geometry (see stats.h): below 2 * HIST_VAL one value per bucket;
 * above, bucket i sits in group g = i / HIST_VAL, which covers
 * [2^(g + HIST_BITS - 1), 2^(g + HIST_BITS)) in HIST_VAL steps of
 * 2^(g - 1).
 */
uint64_t hist_bucket_lo(unsigned int i)
{
	unsigned int shift;

	if (i < 2 * HIST_VAL)
		return i;
	shift = i / HIST_VAL - 1;
	return (uint64_t)(HIST_VAL + i % HIST_VAL) << shift;
}

uint64_t hist_bucket_hi(unsigned int i)
{
	if (i < 2 * HIST_VAL)
		return i;
	return hist_bucket_lo(i) + (1ull << (i / HIST_VAL - 1)) - 1;
}

/* fio reports a bucket as its midpoint (exact below 2 * HIST_VAL) */
uint64_t hist_bucket_val(unsigned int i)
{
	if (i < 2 * HIST_VAL)
		return i;
	return hist_bucket_lo(i) + (1ull << (i / HIST_VAL - 1)) / 2;
}

void hist_percentiles(const struct hist *h, uint64_t min, uint64_t max,
		      const double *pct, unsigned int nr, uint64_t *out)
{
	uint64_t total = h->overflow, sum;
	unsigned int i, j;

	for (i = 0; i < HIST_NR; i++)
		total += h->bucket[i];

	for (j = 0; j < nr; j++) {
		/* fio's rule, in long double as fio compares */
		long double want = (long double)pct[j] / 100.0L *
				   (long double)total;
		uint64_t v = max;

		if (!total) {
			out[j] = 0;
			continue;
		}
		/* the 100th is the largest sample, known exactly */
		if (pct[j] >= 100.0) {
			out[j] = max;
			continue;
		}
		sum = 0;
		for (i = 0; i < HIST_NR; i++) {
			sum += h->bucket[i];
			if ((long double)sum >= want && sum) {
				v = hist_bucket_val(i);
				break;
			}
		}
		if (v < min)
			v = min;
		if (v > max)
			v = max;
		out[j] = v;
	}
}

void dir_result_merge(struct dir_result *dst, const struct dir_result *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	if (src->runtime_ms > dst->runtime_ms)
		dst->runtime_ms = src->runtime_ms;
	welford_merge(&dst->slat, &src->slat);
	welford_merge(&dst->clat, &src->clat);
	welford_merge(&dst->lat, &src->lat);
	hist_merge(&dst->slat_hist, &src->slat_hist);
	hist_merge(&dst->clat_hist, &src->clat_hist);
	hist_merge(&dst->lat_hist, &src->lat_hist);
	welford_sum(&dst->bw_samples, &src->bw_samples);
	welford_sum(&dst->iops_samples, &src->iops_samples);
	series_sum(&dst->bw_series, &src->bw_series);
	series_sum(&dst->iops_series, &src->iops_series);
	welford_merge(&dst->co_lat, &src->co_lat);
	hist_merge(&dst->co_hist, &src->co_hist);
}

static uint64_t tv_ms(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000 + (uint64_t)tv->tv_usec / 1000;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000 +
	       (uint64_t)tv->tv_usec * 1000;
}

/* One worker's direction d as a (single member) dir_result. */
static void dir_from_worker(struct dir_result *dr,
			    const struct worker_result *w, unsigned int d)
{
	const struct dir_stats *ds = &w->st->dir[d];

	memset(dr, 0, sizeof(*dr));
	dr->ios = ds->ios;
	dr->bytes = ds->bytes;
	dr->short_ios = ds->short_ios;
	dr->drop_ios = ds->drop_ios;
	/*
	 * fio rounds a direction's time up to whole msec; a direction that
	 * moved bytes in no phase counted for it (verify_backlog reads of a
	 * time_based write job) has runtime 0, as in fio
	 */
	dr->runtime_ms = (ds->runtime_us + 999) / 1000;
	moments_welford(&dr->slat, &ds->slat);
	moments_welford(&dr->clat, &ds->clat);
	moments_welford(&dr->lat, &ds->lat);
	/* only the used range of a histogram is read (hist_add_range()) */
	if (ds->slat.n)
		hist_add_range(&dr->slat_hist, &ds->slat_hist, ds->slat.min,
			       ds->slat.max);
	if (ds->clat.n)
		hist_add_range(&dr->clat_hist, &ds->clat_hist, ds->clat.min,
			       ds->clat.max);
	if (ds->lat.n)
		hist_add_range(&dr->lat_hist, &ds->lat_hist, ds->lat.min,
			       ds->lat.max);
	dr->bw_samples = w->bw_samples[d];
	dr->iops_samples = w->iops_samples[d];
	/* borrowed: dir_result_merge() copies them into the job's */
	dr->bw_series = w->bw_series[d];
	dr->iops_series = w->iops_series[d];
	moments_welford(&dr->co_lat, &w->st->co_lat[d]);
	if (w->st->co_lat[d].n)
		hist_add_range(&dr->co_hist, &w->st->co_hist[d],
			       w->st->co_lat[d].min, w->st->co_lat[d].max);
}

/*
 * One worker's directions summed into one block (unified_rw_reporting):
 * an exact merge, its runtime the longest direction's, its samples the
 * sampler's of the summed traffic.
 */
static void mixed_from_worker(struct dir_result *mx,
			      const struct worker_result *w)
{
	struct dir_result *dr = xmalloc(sizeof(*dr));
	unsigned int d;

	memset(mx, 0, sizeof(*mx));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		dir_from_worker(dr, w, d);
		memset(&dr->bw_samples, 0, sizeof(dr->bw_samples));
		memset(&dr->iops_samples, 0, sizeof(dr->iops_samples));
		memset(&dr->bw_series, 0, sizeof(dr->bw_series));
		memset(&dr->iops_series, 0, sizeof(dr->iops_series));
		dir_result_merge(mx, dr);
	}
	mx->bw_samples = w->bw_samples[RES_MIXED];
	mx->iops_samples = w->iops_samples[RES_MIXED];
	mx->bw_series = w->bw_series[RES_MIXED];
	mx->iops_series = w->iops_series[RES_MIXED];
	free(dr);
}

/*
 * The mixed block's issued counts; with unified_rw_reporting=mixed fio
 * counts every I/O as a read: so do the issued figures.
 */
static void mixed_issued(struct job_result *j)
{
	uint64_t *v[3] = { j->issued, j->issued_short, j->issued_drop };
	unsigned int i, d;

	for (i = 0; i < 3; i++) {
		j->mixed_issued[i] = 0;
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			j->mixed_issued[i] += v[i][d];
		if (j->unified != UNIFIED_MIXED)
			continue;
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			v[i][d] = 0;
		v[i][DDIR_READ] = j->mixed_issued[i];
	}
}

/* A member's requests by kind into the job's (made on the first). */
static void reqs_add(struct reqstats **dst, const struct reqstats *src)
{
	if (!src)
		return;
	if (!*dst)
		*dst = reqstats_new(src->name);
	reqstats_merge(*dst, src);
}

static void add_u64(uint64_t *dst, const uint64_t *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dst[i] += src[i];
}

static void job_first_member(struct job_result *j,
			     const struct worker_result *w)
{
	const struct job_options *o = &w->plan->o;

	j->plan = w->plan;
	j->name = xstrdup(o->name ? o->name : "");
	j->description = o->description && *o->description ?
			 xstrdup(o->description) : NULL;
	j->groupid = w->plan->groupid;
	j->pid = w->tid;
	j->not_started = !w->tid;
	j->start_wall = w->start_wall;
	j->start_clock = w->start_clock;
	j->kb_base = o->kb_base == 1000 ? 1000 : 1024;
	/* auto (0) means bytes: iolite has no bit-based (network) engines */
	j->unit_base = o->unit_base == 1 ? 1 : 8;
	/* options built in code (tests) may leave these zero */
	j->sig_figs = o->significant_figures ? o->significant_figures : 4;
	j->nr_pct = o->nr_percentile_list;
	if (j->nr_pct > PCT_LIST_MAX)
		j->nr_pct = PCT_LIST_MAX;
	memcpy(j->pct_list, o->percentile_list,
	       j->nr_pct * sizeof(j->pct_list[0]));
	j->pct_precision = o->percentile_precision;
	j->clat_pct_opt = o->clat_percentiles;
	j->lat_pct_opt = o->lat_percentiles;
	j->slat_pct_opt = o->slat_percentiles;
	j->thread = o->thread;
	j->unified = o->unified_rw_reporting;
	/* latency_target (run/lattarget.c): fio's units, ns and us */
	j->latency_depth = w->latency_depth ? w->latency_depth :
			   o->iodepth ? o->iodepth : 1;
	j->latency_target = o->latency_target_us * 1000;
	j->latency_window = o->latency_window_us;
	/* options built in code (tests) may leave it zero */
	j->latency_percentile = o->latency_percentile > 0 ?
				o->latency_percentile : 100.0;
	j->ss = w->ss;
	j->run_delay_known = true;	/* until a member's is not */
}

static void job_add_member(struct job_result *j, const struct worker_result *w)
{
	const struct worker_stats *st = w->st;
	struct dir_result *dr;
	unsigned int d;
	int err;

	j->members++;
	j->running |= w->running;
	j->ramp_end |= w->ramp_end;
	err = w->error ? w->error : st->error;
	if (err)
		j->failed = true;
	if (!err)
		err = st->first_error;
	if (err && !j->error)
		j->error = err;
	if (st->first_error && !j->first_error)
		j->first_error = st->first_error;

	dr = xmalloc(sizeof(*dr));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		dir_from_worker(dr, w, d);
		dir_result_merge(&j->dir[d], dr);
	}
	if (j->unified) {
		mixed_from_worker(dr, w);
		dir_result_merge(&j->dir[RES_MIXED], dr);
	}
	free(dr);

	j->sync_ios += st->sync_ios;
	j->total_err += st->total_err;
	{
		struct welford sl;

		moments_welford(&sl, &st->sync_lat);
		welford_merge(&j->sync_lat, &sl);
	}
	if (st->sync_lat.n)
		hist_add_range(&j->sync_hist, &st->sync_hist, st->sync_lat.min,
			       st->sync_lat.max);

	j->usr_ms += tv_ms(&w->ru.ru_utime);
	j->sys_ms += tv_ms(&w->ru.ru_stime);
	j->run_ms += w->elapsed_us / 1000;
	if (w->elapsed_us / 1000 > j->elapsed_ms)
		j->elapsed_ms = w->elapsed_us / 1000;
	j->own_usr_ns += tv_ns(&w->ru.ru_utime);
	j->own_ios += st->sync_ios;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		j->own_ios += st->dir[d].ios;
	j->iowq_cpu_ns += w->iowq_cpu_ns;
	j->iowq_threads += w->iowq_threads;
	j->iowq_max_threads += w->iowq_max_threads;
	j->logs |= w->logs;
	j->log_wait_ns += w->log_wait_ns;
	j->log_dropped += w->log_dropped;
	j->zone_resets += w->zone_resets;
	reqs_add(&j->reqs, w->reqs);
	j->ctx += (uint64_t)w->ru.ru_nvcsw + (uint64_t)w->ru.ru_nivcsw;
	j->nivcsw += (uint64_t)w->ru.ru_nivcsw;
	j->on_disk |= w->nr_devs && !w->plan->o.no_disk_util;
	if (w->run_delay_ns >= 0)
		j->run_delay_ns += (uint64_t)w->run_delay_ns;
	else
		j->run_delay_known = false;
	j->majf += (uint64_t)w->ru.ru_majflt;
	j->minf += (uint64_t)w->ru.ru_minflt;

	add_u64(j->issued, st->issued, DDIR_RWDIR_CNT + 1);
	add_u64(j->issued_short, st->issued_short, DDIR_RWDIR_CNT + 1);
	add_u64(j->issued_drop, st->issued_drop, DDIR_RWDIR_CNT + 1);
	stats_lat_buckets(st, j->lat_ns, j->lat_us, j->lat_ms);
	add_u64(j->depth, st->depth, DEPTH_NR);
	add_u64(j->submit, st->submit, DEPTH_NR);
	add_u64(j->complete, st->complete, DEPTH_NR);
	j->submit_calls += st->submit_calls;
	j->complete_calls += st->complete_calls;
}

/*
 * One block's percentiles: on when asked for and the block has samples
 * (fio shows none for a block without; with an empty list, an empty map).
 */
static void pct_fill(struct pct_result *pr, const struct job_result *j,
		     bool asked, const struct welford *w, const struct hist *h)
{
	memset(pr, 0, sizeof(*pr));
	if (!asked || !w->n)
		return;
	pr->on = true;
	hist_percentiles(h, w->min, w->max, j->pct_list, j->nr_pct, pr->val);
}

/* Derived figures of a finished job: rates, percentiles, CPU. */
static void job_finish(struct job_result *j)
{
	unsigned int d;

	if (j->unified)
		mixed_issued(j);
	for (d = 0; d < RES_DIR_NR; d++) {
		struct dir_result *dr = &j->dir[d];
		/* fio counts IOPS from issued I/Os */
		uint64_t issued = results_issued(j, d, 0);
		uint64_t ios = issued ? issued : dr->ios;

		if (d == RES_MIXED && !j->unified)
			break;
		/* fio leaves out a direction no phase gave time to */
		if (dr->bytes && dr->runtime_ms && d < DDIR_RWDIR_CNT)
			j->ddir_mask |= 1u << d;
		if (dr->runtime_ms) {
			dr->bw = dr->bytes * 1000 / dr->runtime_ms;
			dr->iops = (double)ios * 1000.0 /
				   (double)dr->runtime_ms;
		}

		pct_fill(&dr->slat_pct, j, j->slat_pct_opt, &dr->slat,
			 &dr->slat_hist);
		pct_fill(&dr->clat_pct, j, j->clat_pct_opt, &dr->clat,
			 &dr->clat_hist);
		pct_fill(&dr->lat_pct, j, j->lat_pct_opt, &dr->lat,
			 &dr->lat_hist);
		pct_fill(&dr->co_pct, j, j->clat_pct_opt || j->lat_pct_opt,
			 &dr->co_lat, &dr->co_hist);
	}
	/* fio: sync percentiles go with clat or lat ones, not slat */
	pct_fill(&j->sync_pct, j, j->clat_pct_opt || j->lat_pct_opt,
		 &j->sync_lat, &j->sync_hist);
	if (j->own_ios)
		j->usr_ns_per_io = (double)j->own_usr_ns / (double)j->own_ios;
	if (j->run_ms) {
		j->usr_cpu = (double)j->usr_ms * 100.0 / (double)j->run_ms;
		j->sys_cpu = (double)j->sys_ms * 100.0 / (double)j->run_ms;
	}
}

void results_job_merge(struct job_result *dst, const struct job_result *src)
{
	unsigned int d;

	dst->members += src->members;
	dst->running |= src->running;
	if (src->error && !dst->error)
		dst->error = src->error;
	if (src->first_error && !dst->first_error)
		dst->first_error = src->first_error;
	dst->failed |= src->failed;
	for (d = 0; d < RES_DIR_NR; d++)
		dir_result_merge(&dst->dir[d], &src->dir[d]);
	dst->sync_ios += src->sync_ios;
	dst->total_err += src->total_err;
	welford_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_hist, &src->sync_hist);
	dst->usr_ms += src->usr_ms;
	dst->sys_ms += src->sys_ms;
	dst->run_ms += src->run_ms;
	if (src->elapsed_ms > dst->elapsed_ms)
		dst->elapsed_ms = src->elapsed_ms;
	dst->own_usr_ns += src->own_usr_ns;
	dst->own_ios += src->own_ios;
	dst->iowq_cpu_ns += src->iowq_cpu_ns;
	dst->iowq_threads += src->iowq_threads;
	dst->iowq_max_threads += src->iowq_max_threads;
	dst->logs |= src->logs;
	dst->log_wait_ns += src->log_wait_ns;
	dst->log_dropped += src->log_dropped;
	dst->zone_resets += src->zone_resets;
	reqs_add(&dst->reqs, src->reqs);
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->ddir_mask |= src->ddir_mask;
	add_u64(dst->issued, src->issued, DDIR_RWDIR_CNT + 1);
	add_u64(dst->issued_short, src->issued_short, DDIR_RWDIR_CNT + 1);
	add_u64(dst->issued_drop, src->issued_drop, DDIR_RWDIR_CNT + 1);
	add_u64(dst->lat_ns, src->lat_ns, LAT_NS_NR);
	add_u64(dst->lat_us, src->lat_us, LAT_US_NR);
	add_u64(dst->lat_ms, src->lat_ms, LAT_MS_NR);
	add_u64(dst->depth, src->depth, DEPTH_NR);
	add_u64(dst->submit, src->submit, DEPTH_NR);
	add_u64(dst->complete, src->complete, DEPTH_NR);
	dst->submit_calls += src->submit_calls;
	dst->complete_calls += src->complete_calls;
}

static void groups_build(struct run_result *rr)
{
	unsigned int i, d;

	for (i = 0; i < rr->nr_groups; i++)
		rr->groups[i].groupid = i;

	for (i = 0; i < rr->nr_jobs; i++) {
		struct job_result *j = &rr->jobs[i];
		struct group_result *g = &rr->groups[j->groupid];

		g->kb_base = j->kb_base;
		g->unit_base = j->unit_base;
		g->sig_figs = j->sig_figs;
		if (!g->unified)
			g->unified = j->unified;
		/* dir[RES_MIXED] is all zero (not run) unless unified */
		for (d = 0; d < RES_DIR_NR; d++) {
			const struct dir_result *dr = &j->dir[d];

			bool first = !g->max_run_ms[d];

			/* jobs that never ran this direction don't count */
			if (!dr->runtime_ms)
				continue;
			if (first || dr->runtime_ms < g->min_run_ms[d])
				g->min_run_ms[d] = dr->runtime_ms;
			if (dr->runtime_ms > g->max_run_ms[d])
				g->max_run_ms[d] = dr->runtime_ms;
			if (first || dr->bw < g->min_bw[d])
				g->min_bw[d] = dr->bw;
			if (dr->bw > g->max_bw[d])
				g->max_bw[d] = dr->bw;
			g->io_bytes[d] += dr->bytes;
		}
	}

	for (i = 0; i < rr->nr_groups; i++) {
		struct group_result *g = &rr->groups[i];

		for (d = 0; d < RES_DIR_NR; d++)
			if (g->max_run_ms[d])
				g->agg_bw[d] = g->io_bytes[d] * 1000 /
					       g->max_run_ms[d];
	}

	/* a job's bw sample mean (KiB/s) as a share of its group's rate */
	for (i = 0; i < rr->nr_jobs; i++) {
		struct job_result *j = &rr->jobs[i];
		const struct group_result *g = &rr->groups[j->groupid];

		for (d = 0; d < RES_DIR_NR; d++) {
			struct dir_result *dr = &j->dir[d];

			dr->bw_agg_pct = 100.0;
			if (g->agg_bw[d] > 1024) {
				dr->bw_agg_pct = dr->bw_samples.mean * 100.0 /
					((double)g->agg_bw[d] / 1024.0);
				if (dr->bw_agg_pct > 100.0)
					dr->bw_agg_pct = 100.0;
			}
		}
	}
}

void results_finish(struct run_result *rr)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++)
		job_finish(&rr->jobs[i]);
	memset(rr->groups, 0, rr->nr_groups * sizeof(*rr->groups));
	groups_build(rr);
}

int results_build(struct run_result *rr, struct worker_result *wr,
		  unsigned int nr, struct strbuf *err)
{
	struct job_result *cur = NULL;
	unsigned int i, last_group = 0;
	struct timespec now;

	memset(rr, 0, sizeof(*rr));
	for (i = 0; i < nr; i++) {
		if (!wr[i].plan || !wr[i].st) {
			strbuf_addf(err, "job %u has no results", i);
			return -EINVAL;
		}
		if (wr[i].plan->groupid >= rr->nr_groups)
			rr->nr_groups = wr[i].plan->groupid + 1;
	}
	rr->jobs = xcalloc(nr ? nr : 1, sizeof(*rr->jobs));
	rr->groups = xcalloc(rr->nr_groups ? rr->nr_groups : 1,
			     sizeof(*rr->groups));

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = wr[i].plan;

		/* stats=0: the job ran, its figures are left out (fio) */
		if (p->o.no_stats)
			continue;
		/*
		 * fio's rule: a job starts a new report unless it has
		 * group_reporting and follows a job of the same group.
		 */
		if (!cur || !p->o.group_reporting || p->groupid != last_group) {
			cur = &rr->jobs[rr->nr_jobs++];
			job_first_member(cur, &wr[i]);
		}
		last_group = p->groupid;
		job_add_member(cur, &wr[i]);
		prio_results_add(cur, &wr[i]);
	}
	for (i = 0; i < rr->nr_jobs; i++) {
		job_finish(&rr->jobs[i]);
		prio_results_finish(&rr->jobs[i]);
	}
	groups_build(rr);

	clock_gettime(CLOCK_REALTIME, &now);
	rr->timestamp = now.tv_sec;
	rr->timestamp_ms = (uint64_t)now.tv_sec * 1000 +
			   (uint64_t)now.tv_nsec / 1000000;
	return 0;
}

void run_result_release(struct run_result *rr)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		unsigned int d;

		free(rr->jobs[i].name);
		free(rr->jobs[i].description);
		free(rr->jobs[i].reqs);
		for (d = 0; d < RES_DIR_NR; d++) {
			series_release(&rr->jobs[i].dir[d].bw_series);
			series_release(&rr->jobs[i].dir[d].iops_series);
		}
		prio_results_release(&rr->jobs[i]);
	}
	free(rr->jobs);
	free(rr->groups);
	free(rr->disks);
	memset(rr, 0, sizeof(*rr));
}

void worker_result_release(struct worker_result *w)
{
	unsigned int d;

	free(w->ss);
	w->ss = NULL;
	free(w->reqs);
	w->reqs = NULL;
	for (d = 0; d <= DDIR_RWDIR_CNT; d++) {
		series_release(&w->bw_series[d]);
		series_release(&w->iops_series[d]);
	}
}

/* fio's rule for the depth columns: a non-zero share shows as >= 0.1% */
static void dist_pct(const uint64_t *cnt, uint64_t total, double *out)
{
	unsigned int i;

	for (i = 0; i < DIST_NR; i++) {
		out[i] = 0.0;
		if (!total)
			continue;
		out[i] = (double)cnt[i] * 100.0 / (double)total;
		if (cnt[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

static uint64_t issued_rw(const struct job_result *j)
{
	return j->issued[DDIR_READ] + j->issued[DDIR_WRITE] +
	       j->issued[DDIR_TRIM];
}

void results_depth_pct(const struct job_result *j, double out[DIST_NR])
{
	uint64_t cnt[DIST_NR];
	unsigned int i;

	/* depth_index() slot 0 (nothing in flight) cannot happen: fold */
	cnt[0] = j->depth[0] + j->depth[1];
	for (i = 1; i < DIST_NR; i++)
		cnt[i] = j->depth[i + 1];
	dist_pct(cnt, issued_rw(j), out);
}

void results_submit_pct(const struct job_result *j, double out[DIST_NR])
{
	dist_pct(j->submit, j->submit_calls, out);
}

void results_complete_pct(const struct job_result *j, double out[DIST_NR])
{
	dist_pct(j->complete, j->complete_calls, out);
}

void results_lat_pct(const struct job_result *j, const uint64_t *cnt,
		     unsigned int nr, double *out)
{
	uint64_t total = issued_rw(j);
	unsigned int i;

	for (i = 0; i < nr; i++) {
		out[i] = 0.0;
		if (!total)
			continue;
		out[i] = (double)cnt[i] * 100.0 / (double)total;
		if (cnt[i] && out[i] < 0.01)
			out[i] = 0.01;
	}
}

/* A job_desc's options as the results model's option list. */
static struct result_opt *result_opts(const struct job_entry *e, size_t nr,
				      const char *name, unsigned int *out_nr)
{
	struct result_opt *o = xcalloc(nr + 1, sizeof(*o));
	unsigned int n = 0;
	size_t i;

	if (name) {
		o[n].key = "name";
		o[n++].val = name;
	}
	for (i = 0; i < nr; i++) {
		o[n].key = e[i].key;
		o[n++].val = e[i].val;
	}
	*out_nr = n;
	return o;
}

void results_fill_opts(struct run_result *rr, const struct job_list *jl,
			     const struct job_plan *plans, unsigned int nr)
{
	unsigned int i;

	rr->global_opts = result_opts(jl->global.ents, jl->global.nr, NULL,
				      &rr->nr_global_opts);
	for (i = 0; i < rr->nr_jobs; i++) {
		struct job_result *j = &rr->jobs[i];
		/* members are adjacent: the last is before the next's first */
		unsigned int last = i + 1 < rr->nr_jobs ?
				    rr->jobs[i + 1].plan->job_index - 1 : nr - 1;
		const struct job_desc *jd = &jl->jobs[plans[last].desc_index];

		j->opts = result_opts(jd->ents + jd->inherited,
				      jd->nr - jd->inherited,
				      strcmp(jd->file, "<cmdline>") ?
				      NULL : jd->name, &j->nr_opts);
	}
}

void results_release_opts(struct run_result *rr)
{
	unsigned int i;

	free((void *)rr->global_opts);
	for (i = 0; i < rr->nr_jobs; i++)
		free((void *)rr->jobs[i].opts);
}

bool result_flagged(const struct job_result *j, unsigned int d,
		    struct strbuf *why)
{
	const struct dir_result *dr = &j->dir[d];
	double delay = j->run_delay_known && j->run_ms ?
		       (double)j->run_delay_ns / 1e4 / (double)j->run_ms : 0;
	bool starved = delay > RESULT_FLAG_DELAY_PCT;
	bool shortrun = (dr->ios || dr->bytes) && dr->runtime_ms &&
			dr->runtime_ms < RESULT_FLAG_MIN_MS;

	if (why && starved)
		strbuf_addf(why, "the tester starved of CPU %.1f%% of its run",
			    delay);
	if (why && shortrun)
		strbuf_addf(why, "%smeasured for %" PRIu64 " ms",
			    starved ? "; " : "", dr->runtime_ms);
	return starved || shortrun;
}

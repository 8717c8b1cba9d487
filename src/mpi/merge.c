/* SPDX-License-Identifier: MIT */
/*
 * "All clients": every rank's jobs of a group merged into one, exactly
 * (stats/results.c's results_job_merge: histograms bucket by bucket,
 * counts, minima, maxima and Welford moments; bandwidth and IOPS
 * samples as jobs side by side, their series summed point by point on
 * the shared grid, and at rank 0 the samples' figures (min, max, mean,
 * stdev) those of the summed series), up a binomial tree: each rank merges its children's
 * partial results into its own and sends one message to its parent, so
 * no rank receives more than log2(N) messages and rank 0 never holds
 * more than one partial result per group.
 *
 * The message: the number of groups, then per group a presence byte and
 * the struct job_result as bytes (pointers cleared) followed by its
 * series' points. The ranks run one binary on one architecture (mpirun
 * starts the same program everywhere), so the struct's layout is
 * shared.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_int.h"
#include "opt/plan.h"
#include "stats/results.h"
#include "util/log.h"

void mpi_buf_put(struct mpi_buf *b, const void *v, size_t n)
{
	if (b->len + n > b->alloc) {
		b->alloc = (b->len + n) * 2;
		b->p = xrealloc(b->p, b->alloc);
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

int mpi_buf_get(struct mpi_buf *b, void *v, size_t n)
{
	if (b->pos + n > b->len)
		return -1;
	memcpy(v, b->p + b->pos, n);
	b->pos += n;
	return 0;
}

static void put_series(struct mpi_buf *b, const struct series *s)
{
	mpi_buf_put(b, &s->nr, sizeof(s->nr));
	mpi_buf_put(b, &s->per_point, sizeof(s->per_point));
	if (s->nr)
		mpi_buf_put(b, s->pt, s->nr * sizeof(*s->pt));
}

static int get_series(struct mpi_buf *b, struct series *s)
{
	memset(s, 0, sizeof(*s));
	if (mpi_buf_get(b, &s->nr, sizeof(s->nr)) ||
	    mpi_buf_get(b, &s->per_point, sizeof(s->per_point)) || s->nr > SERIES_MAX)
		return -1;
	if (!s->nr)
		return 0;
	s->alloc = s->nr;
	s->pt = xcalloc(s->nr, sizeof(*s->pt));
	return mpi_buf_get(b, s->pt, s->nr * sizeof(*s->pt));
}

/* A job's figures alone: what it points to is not sent or merged. */
static void strip(struct job_result *j)
{
	unsigned int d;

	j->name = NULL;
	j->description = NULL;
	j->plan = NULL;
	j->opts = NULL;
	j->nr_opts = 0;
	j->ss = NULL;
	j->reqs = NULL;
	for (d = 0; d < RES_DIR_NR; d++) {
		j->prio[d].v = NULL;
		j->prio[d].nr = 0;
	}
}

void mpi_job_put(struct mpi_buf *b, const struct job_result *j)
{
	struct job_result *c = xmalloc(sizeof(*c));
	unsigned int d;

	*c = *j;
	strip(c);
	for (d = 0; d < RES_DIR_NR; d++) {
		memset(&c->dir[d].bw_series, 0, sizeof(c->dir[d].bw_series));
		memset(&c->dir[d].iops_series, 0,
		       sizeof(c->dir[d].iops_series));
	}
	mpi_buf_put(b, c, sizeof(*c));
	free(c);
	for (d = 0; d < RES_DIR_NR; d++) {
		put_series(b, &j->dir[d].bw_series);
		put_series(b, &j->dir[d].iops_series);
	}
}

int mpi_job_get(struct mpi_buf *b, struct job_result *j)
{
	unsigned int d;

	if (mpi_buf_get(b, j, sizeof(*j)))
		return -1;
	for (d = 0; d < RES_DIR_NR; d++)
		if (get_series(b, &j->dir[d].bw_series) ||
		    get_series(b, &j->dir[d].iops_series))
			return -1;
	return 0;
}

void mpi_job_release(struct job_result *j)
{
	unsigned int d;

	for (d = 0; d < RES_DIR_NR; d++) {
		series_release(&j->dir[d].bw_series);
		series_release(&j->dir[d].iops_series);
	}
}

/* dst (zeroed when !*have) += src; *have says dst holds a job. */
void mpi_job_merge(struct job_result *dst, bool *have,
		       const struct job_result *src)
{
	if (!*have) {
		unsigned int d;

		*dst = *src;
		strip(dst);
		for (d = 0; d < RES_DIR_NR; d++) {
			series_copy(&dst->dir[d].bw_series,
				    &src->dir[d].bw_series);
			series_copy(&dst->dir[d].iops_series,
				    &src->dir[d].iops_series);
		}
		*have = true;
		return;
	}
	results_job_merge(dst, src);
}

/* This rank's jobs, one partial result per group of the whole list. */
static void local_groups(const struct run_result *rr, unsigned int nr,
			 struct job_result *agg, bool *have)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];

		if (j->not_started || j->groupid >= nr)
			continue;
		mpi_job_merge(&agg[j->groupid], &have[j->groupid], j);
	}
}

static int merge_message(struct mpi_buf *b, unsigned int nr,
			 struct job_result *agg, bool *have)
{
	struct job_result *in = xmalloc(sizeof(*in));
	uint32_t n;
	unsigned int g;
	int ret = 0;

	if (mpi_buf_get(b, &n, sizeof(n)) || n != nr) {
		free(in);
		return -1;
	}
	for (g = 0; g < nr && !ret; g++) {
		uint8_t present;

		if (mpi_buf_get(b, &present, 1)) {
			ret = -1;
			break;
		}
		if (!present)
			continue;
		memset(in, 0, sizeof(*in));
		if (mpi_job_get(b, in))
			ret = -1;
		else
			mpi_job_merge(&agg[g], &have[g], in);
		mpi_job_release(in);
	}
	free(in);
	return ret;
}

static void make_message(struct mpi_buf *b, unsigned int nr,
			 const struct job_result *agg, const bool *have)
{
	uint32_t n = nr;
	unsigned int g;

	mpi_buf_put(b, &n, sizeof(n));
	for (g = 0; g < nr; g++) {
		uint8_t present = have[g];

		mpi_buf_put(b, &present, 1);
		if (present)
			mpi_job_put(b, &agg[g]);
	}
}

/*
 * The plan of a group's "All clients": rank 0's job's (for the writers'
 * option checks), with the group's sampling periods (grid.c), the
 * spacing of its series (the html page's "a sample every ... ms").
 * Owned by the job: mpi_all_release frees it.
 */
static const struct job_plan *all_plan(const struct mpi_run *m,
				       const struct job_plan *p,
				       unsigned int g)
{
	struct job_plan *c = xmalloc(sizeof(*c));

	*c = *p;	/* shares the options' strings: never released */
	if (g < m->nr_global_gids) {
		c->o.bwavgtime_ms = m->gid_period_ms[0][g];
		c->o.iopsavgtime_ms = m->gid_period_ms[1][g];
	}
	return c;
}

void mpi_all_release(struct run_result *all)
{
	unsigned int i;

	for (i = 0; i < all->nr_jobs; i++)
		free((void *)all->jobs[i].plan);
	run_result_release(all);
}

/*
 * A merged job's bandwidth (KiB/s) or IOPS samples, from its summed
 * series: the ranks' samples of the same interval added up, one value
 * each. results_job_merge() sums the ranks' minima and maxima (fio's
 * group_reporting), values that were never seen; these are the lowest
 * and highest of the sums.
 */
static void samples_of_sum(struct welford *w, const struct series *s,
			   double div)
{
	unsigned int i;
	double mean = 0, m2 = 0;

	if (!s->nr)
		return;
	for (i = 0; i < s->nr; i++) {
		double v = s->pt[i].v / div, d = v - mean;
		uint64_t u = (uint64_t)(v + 0.5);

		mean += d / (i + 1);
		m2 += d * (v - mean);
		if (!i || u < w->min)
			w->min = u;
		if (!i || u > w->max)
			w->max = u;
	}
	w->n = s->nr;
	w->mean = mean;
	w->m2 = m2;
}

/* rank 0: the merged groups as the jobs of "all" */
static void fill_all(const struct mpi_run *m, struct run_result *all,
		     unsigned int nr, struct job_result *agg, const bool *have,
		     const struct run_result *rr)
{
	unsigned int g, i;

	memset(all, 0, sizeof(*all));
	all->jobs = xcalloc(nr ? nr : 1, sizeof(*all->jobs));
	all->nr_groups = nr;
	all->groups = xcalloc(nr ? nr : 1, sizeof(*all->groups));
	for (g = 0; g < nr; g++) {
		struct job_result *j;

		if (!have[g])
			continue;
		j = &all->jobs[all->nr_jobs++];
		*j = agg[g];
		for (i = 0; i < RES_DIR_NR; i++) {
			samples_of_sum(&j->dir[i].bw_samples,
				       &j->dir[i].bw_series, 1024);
			samples_of_sum(&j->dir[i].iops_samples,
				       &j->dir[i].iops_series, 1);
		}
		j->name = xstrdup("All clients");
		j->groupid = g;
		j->pid = 0;
		/* a plan for the writers' option checks: rank 0's job's */
		j->plan = NULL;
		for (i = 0; i < rr->nr_jobs && !j->plan; i++)
			if (rr->jobs[i].groupid == g && rr->jobs[i].plan)
				j->plan = all_plan(m, rr->jobs[i].plan, g);
	}
	results_finish(all);
	all->timestamp = rr->timestamp;
	all->timestamp_ms = rr->timestamp_ms;
	all->clock = rr->clock;
	all->global_opts = rr->global_opts;
	all->nr_global_opts = rr->nr_global_opts;
}

/*
 * Signalled, no results from rank k in time: its subtree's are missing
 * from "All clients" (rank k and the ranks that merge through it; their
 * own reports still reach rank 0, straight). Said at rank 0 only: an
 * inner rank's loss shows there as that rank's subtree.
 */
static void lost_subtree(struct mpi_run *m, int k)
{
	int last = k + (k & -k) - 1;

	if (last >= m->nranks)
		last = m->nranks - 1;
	if (m->rank)
		return;
	if (last > k)
		mpi_lost(m, "no results from rank %d: \"All clients\" lacks "
			 "ranks %d-%d", k, k, last);
	else
		mpi_lost(m, "no results from rank %d: \"All clients\" lacks "
			 "it", k);
}

int mpi_merge(struct mpi_run *m, const struct run_result *rr,
	      struct run_result *all, struct strbuf *err)
{
	unsigned int nr = m->nr_global_gids, i, g;
	struct job_result *agg = xcalloc(nr ? nr : 1, sizeof(*agg));
	bool *have = xcalloc(nr ? nr : 1, sizeof(*have));
	int kids[64], parent = mpi_parent(m), ret = 0;
	unsigned int nk = mpi_children(m, kids, 64);
	struct mpi_buf b = { 0 };

	local_groups(rr, nr, agg, have);
	for (i = 0; i < nk && !ret; i++) {
		void *in;
		size_t len;

		if (mpi_recv(m, kids[i], TAG_RESULT, &in, &len,
			     mpi_wait_s(m, m->timeout_s, m->rank ?
					HURRY_PART_TX_S : HURRY_MERGE_S),
			     false)) {
			if (m->hurry_start > 0) {
				lost_subtree(m, kids[i]);
				continue;
			}
			strbuf_addf(err, "no results from rank %d within %g s",
				    kids[i], m->timeout_s);
			ret = -1;
			break;
		}
		b.p = in;
		b.len = b.alloc = len;
		b.pos = 0;
		if (merge_message(&b, nr, agg, have)) {
			strbuf_addf(err, "rank %d sent results that do not match this rank's job list",
				    kids[i]);
			ret = -1;
		}
		free(in);
		memset(&b, 0, sizeof(b));
	}
	if (!ret && parent >= 0) {
		make_message(&b, nr, agg, have);
		if (mpi_send(m, parent, TAG_RESULT, b.p, b.len,
			     mpi_wait_s(m, m->timeout_s, HURRY_MERGE_TX_S))) {
			strbuf_addf(err, "rank %d did not take the results within %g s%s",
				    parent, m->hurry_start > 0 ?
				    HURRY_MERGE_TX_S : m->timeout_s,
				    m->hurry_start > 0 ? " of the stop" : "");
			ret = -1;
		}
		free(b.p);
	}
	if (!ret && parent < 0) {
		fill_all(m, all, nr, agg, have, rr);
	} else {
		for (g = 0; g < nr; g++)
			if (have[g])
				mpi_job_release(&agg[g]);
	}
	free(agg);
	free(have);
	return ret;
}

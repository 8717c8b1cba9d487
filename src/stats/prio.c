/* SPDX-License-Identifier: MIT */
/*
 * Per-priority latency: the worker's figures (one moments + histogram
 * per priority value and direction, for jobs with cmdprio) and their
 * merge into the results model, with fio 3.33's rules:
 *
 *  - A reported job has per-priority figures when some member gave its
 *    I/Os priorities of their own (cmdprio_percentage / cmdprio_bssplit)
 *    or its members' priorities (prio, prioclass) differ; otherwise none.
 *  - A member with per-I/O priorities adds each of its values' figures;
 *    one without adds its whole direction under its own priority (its
 *    clat, or lat with lat_percentiles).
 *  - Entries are listed in the order they first came: a member with
 *    per-I/O priorities that is first into a direction brings all its
 *    values, those without samples too (they keep their place: fio
 *    copies the array); later ones add the values with samples.
 *  - unified_rw_reporting=mixed merges every direction of every member
 *    in turn; =both makes the mixed block from the job's directions,
 *    read then write then trim.
 * The writers show a direction's entries when two or more have samples.
 */
#include <stdlib.h>
#include <string.h>

#include "opt/prio_opts.h"
#include "stats/results.h"
#include "util/log.h"

/* --- the worker's --------------------------------------------------------- */

struct prio_stats *prio_stats_new(const struct job_plan *p)
{
	const struct prio_plan *pp = p->prio;
	struct prio_stats *ps;
	unsigned int d, i;

	if (!pp || !pp->cmdprio)
		return NULL;
	/* as fio: no samples of a latency the job does not measure */
	if (p->o.lat_percentiles ? p->o.disable_lat : p->o.disable_clat)
		return NULL;
	ps = xcalloc(1, sizeof(*ps));
	ps->total = p->o.lat_percentiles;
	for (d = 0; d < 2; d++) {
		if (!prio_dir_on(pp, d))
			continue;
		ps->nr[d] = pp->dir[d].nr_vals;
		ps->dir[d] = xcalloc(ps->nr[d], sizeof(*ps->dir[d]));
		for (i = 0; i < ps->nr[d]; i++)
			ps->dir[d][i].ioprio = pp->dir[d].vals[i];
	}
	prio_stats_reset(ps);
	return ps;
}

void prio_stats_reset(struct prio_stats *ps)
{
	unsigned int d, i;

	for (d = 0; ps && d < 2; d++)
		for (i = 0; i < ps->nr[d]; i++) {
			struct prio_stat *s = &ps->dir[d][i];

			memset(&s->lat, 0, sizeof(s->lat));
			memset(&s->hist, 0, sizeof(s->hist));
			s->lat.min = UINT64_MAX;
		}
}

void prio_stats_free(struct prio_stats *ps)
{
	if (!ps)
		return;
	free(ps->dir[0]);
	free(ps->dir[1]);
	free(ps);
}

/* --- the results model ---------------------------------------------------- */

static struct prio_result *entry_of(struct prio_results *pr, uint16_t v)
{
	struct prio_result *e;
	unsigned int i;

	for (i = 0; i < pr->nr; i++)
		if (pr->v[i].ioprio == v)
			return &pr->v[i];
	pr->v = xrealloc(pr->v, (pr->nr + 1) * sizeof(*pr->v));
	e = &pr->v[pr->nr++];
	memset(e, 0, sizeof(*e));
	e->ioprio = v;
	return e;
}

/* One value's samples; nothing (not even an entry) without any. */
static void add_one(struct prio_results *pr, uint16_t v,
		    const struct welford *w, const struct hist *h)
{
	struct prio_result *e;

	if (!w->n)
		return;
	e = entry_of(pr, v);
	welford_merge(&e->lat, w);
	hist_merge(&e->hist, h);
}

/* A list of values: into an empty list as it is, else value by value. */
static void add_list(struct prio_results *pr, const struct prio_result *src,
		     unsigned int nr)
{
	unsigned int i;

	if (!pr->nr) {
		pr->v = xcalloc(nr, sizeof(*pr->v));
		memcpy(pr->v, src, nr * sizeof(*src));
		pr->nr = nr;
		return;
	}
	for (i = 0; i < nr; i++)
		add_one(pr, src[i].ioprio, &src[i].lat, &src[i].hist);
}

/* A worker's direction: its per-value figures, or all of it as one. */
static void add_worker_dir(struct prio_results *pr,
			   const struct worker_result *w, unsigned int d,
			   uint16_t def)
{
	const struct prio_stats *ps = w->st->prio;
	const struct dir_stats *ds = &w->st->dir[d];
	struct prio_result *tmp;
	struct welford wf;
	unsigned int i;

	if (ps && d < 2 && ps->dir[d]) {
		tmp = xcalloc(ps->nr[d], sizeof(*tmp));
		for (i = 0; i < ps->nr[d]; i++) {
			tmp[i].ioprio = ps->dir[d][i].ioprio;
			moments_welford(&tmp[i].lat, &ps->dir[d][i].lat);
			tmp[i].hist = ps->dir[d][i].hist;
		}
		add_list(pr, tmp, ps->nr[d]);
		free(tmp);
		return;
	}
	if (w->plan->o.lat_percentiles) {
		moments_welford(&wf, &ds->lat);
		add_one(pr, def, &wf, &ds->lat_hist);
	} else {
		moments_welford(&wf, &ds->clat);
		add_one(pr, def, &wf, &ds->clat_hist);
	}
}

void prio_results_add(struct job_result *j, const struct worker_result *w)
{
	const struct prio_plan *pp = w->plan->prio;
	uint16_t def = pp ? pp->def : 0;
	unsigned int d;

	if (j->members == 1)
		j->prio_first = def;
	else if (def != j->prio_first)
		j->prio_differ = true;
	if (w->st->prio)
		j->prio_multi = true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		add_worker_dir(&j->prio[d], w, d, def);
	if (j->unified == UNIFIED_MIXED)
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			add_worker_dir(&j->prio[RES_MIXED], w, d, def);
}

/* unified_rw_reporting=both: the mixed block from the job's directions */
static void mixed_from_job(struct job_result *j)
{
	struct prio_results *mx = &j->prio[RES_MIXED];
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct dir_result *dr = &j->dir[d];

		if (j->prio[d].nr)
			add_list(mx, j->prio[d].v, j->prio[d].nr);
		else if (j->prio_total)
			add_one(mx, j->prio_first, &dr->lat, &dr->lat_hist);
		else
			add_one(mx, j->prio_first, &dr->clat, &dr->clat_hist);
	}
}

void prio_results_finish(struct job_result *j)
{
	bool pct = j->clat_pct_opt || j->lat_pct_opt;
	unsigned int d, i;

	if (!j->prio_multi && !j->prio_differ) {
		prio_results_release(j);
		return;
	}
	j->prio_total = j->lat_pct_opt;
	if (j->unified == UNIFIED_BOTH)
		mixed_from_job(j);
	for (d = 0; d < RES_DIR_NR; d++)
		for (i = 0; i < j->prio[d].nr; i++) {
			struct prio_result *e = &j->prio[d].v[i];

			memset(&e->pct, 0, sizeof(e->pct));
			if (!pct || !e->lat.n)
				continue;
			e->pct.on = true;
			hist_percentiles(&e->hist, e->lat.min, e->lat.max,
					 j->pct_list, j->nr_pct, e->pct.val);
		}
}

void prio_results_release(struct job_result *j)
{
	unsigned int d;

	for (d = 0; d < RES_DIR_NR; d++) {
		free(j->prio[d].v);
		j->prio[d].v = NULL;
		j->prio[d].nr = 0;
	}
}

bool prio_results_hinted(const struct prio_results *pr)
{
	unsigned int i;

	for (i = 0; i < pr->nr; i++)
		if (prio_hint_of(pr->v[i].ioprio))
			return true;
	return false;
}

unsigned int prio_results_shown(const struct prio_results *pr)
{
	unsigned int i, n = 0;

	for (i = 0; i < pr->nr; i++)
		n += pr->v[i].lat.n != 0;
	return n;
}

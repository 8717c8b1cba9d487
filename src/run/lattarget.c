/* SPDX-License-Identifier: MIT */
/*
 * latency_target's depth search and max_latency (see lattarget.h). The
 * worker calls in once per batch, and only when the job sets one of
 * them; everything here runs between batches, never per I/O.
 */
#include "run/lattarget.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

struct lat_target *lat_target_new(const struct job_plan *p,
				  unsigned int depth, bool use_lat)
{
	const struct job_options *o = &p->o;
	struct lat_target *lt;
	unsigned int d;
	bool maxlat = false;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (o->max_latency_us[d])
			maxlat = true;
	if (!o->latency_target_us && !maxlat)
		return NULL;
	lt = xcalloc(1, sizeof(*lt));
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		lt->max_lat[d] = o->max_latency_us[d] ?
				 o->max_latency_us[d] * 1000 : UINT64_MAX;
	lt->use_lat = use_lat;
	lt->depth = depth ? depth : 1;
	lt->qd = lt->depth;
	lt->next_ns = UINT64_MAX;
	if (!o->latency_target_us)
		return lt;
	lt->search = true;
	lt->window_ns = o->latency_window_us * 1000;
	lt->run = o->latency_run;
	lt->pct = o->latency_percentile;
	lt->bucket = hist_index(o->latency_target_us * 1000);
	lt->parked = xcalloc(lt->depth, sizeof(*lt->parked));
	lt->qd = 1;
	lt->lo = 1;
	lt->hi = lt->depth;
	return lt;
}

void lat_target_free(struct lat_target *lt)
{
	if (!lt)
		return;
	free(lt->parked);
	free(lt);
}

unsigned int lat_target_depth(const struct lat_target *lt)
{
	return lt && lt->search ? lt->qd : 0;
}

static const struct hist *judged_hist(const struct lat_target *lt,
				      const struct dir_stats *ds)
{
	return lt->use_lat ? &ds->lat_hist : &ds->clat_hist;
}

static uint64_t completed(const struct worker_stats *st)
{
	uint64_t n = 0;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		n += st->dir[d].ios;
	return n;
}

/* I/Os slower than the target so far: the buckets above its own. */
static uint64_t over_target(const struct lat_target *lt,
			    const struct worker_stats *st)
{
	uint64_t n = 0;
	unsigned int d, i;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct hist *h = judged_hist(lt, &st->dir[d]);

		if (!st->dir[d].ios)
			continue;
		for (i = lt->bucket + 1; i < HIST_NR; i++)
			n += h->bucket[i];
		n += h->overflow;
	}
	return n;
}

static void window_begin(struct lat_target *lt, const struct worker_stats *st,
			 uint64_t now)
{
	lt->n0 = completed(st);
	lt->over0 = over_target(lt, st);
	lt->next_ns = now + lt->window_ns;
}

static void park_to(struct lat_target *lt, unsigned int *freel,
		    unsigned int *nr_free)
{
	unsigned int want = lt->depth - lt->qd;

	while (lt->nr_parked > want)
		freel[(*nr_free)++] = lt->parked[--lt->nr_parked];
	/* after a drain every io_u is free but a BUSY retry or a requeue */
	while (lt->nr_parked < want && *nr_free)
		lt->parked[lt->nr_parked++] = freel[--(*nr_free)];
}

void lat_target_start(struct lat_target *lt, const struct worker_stats *st,
		      uint64_t now, unsigned int *freel, unsigned int *nr_free)
{
	if (!lt->search)
		return;
	park_to(lt, freel, nr_free);
	window_begin(lt, st, now);
}

void lat_target_apply(struct lat_target *lt, const struct worker_stats *st,
		      uint64_t now, unsigned int *freel, unsigned int *nr_free)
{
	park_to(lt, freel, nr_free);
	window_begin(lt, st, now);
}

static __attribute__((cold)) int max_exceeded(struct run_job *rj,
					      struct worker_stats *st,
					      unsigned int d, uint64_t lat,
					      uint64_t max)
{
	static const char *const dn[] = { "read", "write", "trim" };

	st->error = ETIMEDOUT;
	if (!rj->errmsg[0])
		snprintf(rj->errmsg, sizeof(rj->errmsg),
			 "job '%s': latency of %llu nsec exceeds max_latency "
			 "(%llu nsec) on a %s",
			 rj->plan->o.name, (unsigned long long)lat,
			 (unsigned long long)max, dn[d]);
	return LT_STOP;
}

/* A window met the target: up, or done when the depth stays. */
static int window_met(struct lat_target *lt)
{
	unsigned int qd = lt->qd;

	lt->lo = qd;
	if (!lt->failed)
		lt->qd = qd * 2;
	else
		lt->qd = (qd + lt->hi) / 2;
	if (lt->qd > lt->depth)
		lt->qd = lt->depth;
	if (lt->qd != qd || lt->run) {
		lt->final = false;
		return LT_APPLY;
	}
	if (lt->final)
		return LT_STOP;
	/* the depth is found: one clean window at it, then stop */
	lt->final = true;
	return LT_DRAIN | LT_RESET;
}

/* A window missed it: down, halfway to the highest depth that met it. */
static int window_missed(struct lat_target *lt)
{
	unsigned int qd = lt->qd;

	lt->failed = true;
	lt->final = false;
	lt->hi = qd;
	if (lt->lo >= qd)
		lt->lo = qd > 1 ? qd - 1 : 1;
	lt->qd = (qd + lt->lo) / 2;
	if (!lt->qd)
		lt->qd = 1;
	return LT_DRAIN | LT_APPLY;
}

int lat_target_check(struct lat_target *lt, struct run_job *rj,
		     struct worker_stats *st, uint64_t now)
{
	uint64_t n, over;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct dir_stats *ds = &st->dir[d];
		uint64_t max = lt->use_lat ? ds->lat.max : ds->clat.max;

		if (unlikely(max > lt->max_lat[d]))
			return max_exceeded(rj, st, d, max, lt->max_lat[d]);
	}
	if (now < lt->next_ns)
		return 0;
	n = completed(st);
	if (n < lt->n0) {
		/* the statistics restarted (ramp_time ended): so does this */
		window_begin(lt, st, now);
		return 0;
	}
	n -= lt->n0;
	if (!n)
		return 0;	/* judged once something completes */
	over = over_target(lt, st) - lt->over0;
	if ((double)(n - over) * 100.0 >= lt->pct * (double)n)
		return window_met(lt);
	return window_missed(lt);
}

/* SPDX-License-Identifier: MIT */
/*
 * Steady state detection, from the reporter thread (see steady.h), and
 * exit_what, which picks the jobs a finished job stops.
 */
#include "run/steady.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define SS_PERIOD_NS 1000000000ull	/* one sample a second, as fio */

enum ss_phase { SS_WAIT, SS_RAMP, SS_COLLECT, SS_OVER };

struct ss_unit {
	struct run_job *jobs;		/* members: jobs[0 .. nr) */
	unsigned int nr;
	const struct job_options *o;	/* the first member's */
	enum ss_phase phase;
	uint64_t start_ns;		/* every member counts from here */
	uint64_t starts;		/* sum of members' run_start_ns */
	uint64_t prev_ns, prev_ios, prev_bytes;
	uint64_t prev_clat_n, prev_clat_sum;	/* lat criteria only */
	unsigned int win;		/* samples in the window */
	uint64_t pushed;		/* samples taken so far */
	uint64_t *iops, *bw, *lat;	/* rings of win samples */
	bool attained;
	uint64_t attained_ms;
	double criterion, max_dev, slope;
};

struct steady {
	struct ss_unit *u;
	unsigned int nr;
};

/* stats/results.c's rule: who is reported (and judged) together. */
static bool joins_previous(const struct run_job *jobs, unsigned int i)
{
	const struct job_plan *p = jobs[i].plan;

	return i && p->o.group_reporting &&
	       p->groupid == jobs[i - 1].plan->groupid;
}

struct steady *steady_init(struct run_job *jobs, unsigned int nr)
{
	struct steady *s = NULL;
	unsigned int i, j;

	for (i = 0; i < nr; i = j) {
		struct ss_unit *u;

		for (j = i + 1; j < nr && joins_previous(jobs, j); j++)
			;
		if (!jobs[i].plan->o.ss_dur_us)
			continue;
		if (!s)
			s = xcalloc(1, sizeof(*s));
		s->u = xrealloc(s->u, (s->nr + 1) * sizeof(*s->u));
		u = &s->u[s->nr++];
		memset(u, 0, sizeof(*u));
		u->jobs = &jobs[i];
		u->nr = j - i;
		u->o = &jobs[i].plan->o;
		u->win = (unsigned int)(u->o->ss_dur_us / 1000000);
		if (!u->win)
			u->win = 1;
		u->iops = xcalloc(u->win, sizeof(*u->iops));
		u->bw = xcalloc(u->win, sizeof(*u->bw));
		u->lat = xcalloc(u->win, sizeof(*u->lat));
	}
	return s;
}

/*
 * -1: a member does not count yet (starting, ramp_time); 1: every member
 * is done; 0: counting. *start: the latest counting start.
 */
static int unit_state(const struct ss_unit *u, uint64_t *start,
		      uint64_t *starts)
{
	unsigned int i, done = 0;

	*start = 0;
	*starts = 0;
	for (i = 0; i < u->nr; i++) {
		const struct run_job *rj = &u->jobs[i];
		int st = atomic_load(&rj->state);

		if (st == WS_INIT || st == WS_RAMP)
			return -1;
		if (st == WS_DONE)
			done++;
		if (rj->run_start_ns > *start)
			*start = rj->run_start_ns;
		*starts += rj->run_start_ns;
	}
	return done == u->nr ? 1 : 0;
}

static uint64_t live(_Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/*
 * The members' counts so far; with a lat criterion also their completion
 * latencies' count and sum (ns; the sum modulo 2^64, only differences of
 * it are used), over every direction, as fio.
 */
static void unit_totals(const struct ss_unit *u, uint64_t *ios,
			uint64_t *bytes, uint64_t *clat_n, uint64_t *clat_sum)
{
	unsigned int i, d;

	*ios = *bytes = *clat_n = *clat_sum = 0;
	for (i = 0; i < u->nr; i++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			struct worker_stats *st = u->jobs[i].st;

			*ios += live(&st->live_ios[d]);
			*bytes += live(&st->live_bytes[d]);
			*clat_n += live(&st->live_clat_n[d]);
			*clat_sum += live(&st->live_clat_sum[d]);
		}
}

/* Sample k (0: the oldest in the window) of a ring. */
static uint64_t sample(const struct ss_unit *u, const uint64_t *ring,
		       unsigned int k)
{
	uint64_t first = u->pushed > u->win ? u->pushed - u->win : 0;

	return ring[(first + k) % u->win];
}

static bool is_slope(enum ss_mode m)
{
	return m == SS_IOPS_SLOPE || m == SS_BW_SLOPE || m == SS_LAT_SLOPE;
}

static const uint64_t *ring_of(const struct ss_unit *u)
{
	switch (u->o->ss_mode) {
	case SS_IOPS:
	case SS_IOPS_SLOPE:
		return u->iops;
	case SS_LAT:
	case SS_LAT_SLOPE:
		return u->lat;
	default:
		return u->bw;
	}
}

/* The criterion over a full window; true when it holds. */
static bool judge(struct ss_unit *u)
{
	const struct job_options *o = u->o;
	const uint64_t *ring = ring_of(u);
	double mean = 0, val = 0, n = u->win;
	unsigned int k;

	for (k = 0; k < u->win; k++)
		mean += (double)sample(u, ring, k);
	mean /= n;
	u->max_dev = u->slope = 0;
	if (is_slope(o->ss_mode)) {
		double xm = (n - 1) / 2, num = 0, den = 0;

		for (k = 0; k < u->win; k++) {
			num += (k - xm) * ((double)sample(u, ring, k) - mean);
			den += (k - xm) * (k - xm);
		}
		u->slope = den > 0 ? num / den : 0;
		val = u->slope;
	} else {
		for (k = 0; k < u->win; k++) {
			double dev = fabs((double)sample(u, ring, k) - mean);

			if (dev > u->max_dev)
				u->max_dev = dev;
		}
		val = u->max_dev;
	}
	if (o->ss_pct) {
		/* nothing moved: no mean to be steady around */
		if (mean <= 0) {
			u->criterion = 0;
			return false;
		}
		val = val * 100.0 / mean;
	}
	u->criterion = val;
	if (is_slope(o->ss_mode))
		return fabs(val) < o->ss_limit;
	return val <= o->ss_limit;
}

static void unit_stop(struct ss_unit *u, uint64_t now)
{
	unsigned int i;

	u->attained = true;
	u->attained_ms = (now - u->start_ns) / 1000000;
	u->phase = SS_OVER;
	for (i = 0; i < u->nr; i++)
		u->jobs[i].stop = 1;
}

static void unit_tick(struct ss_unit *u, uint64_t now)
{
	uint64_t start, starts, ios, bytes, clat_n, clat_sum, dt, slot;
	int state = unit_state(u, &start, &starts);

	if (state < 0)
		return;
	if (state > 0) {
		u->phase = SS_OVER;	/* the counters are final */
		return;
	}
	if (u->phase == SS_WAIT) {
		u->start_ns = start;
		u->phase = SS_RAMP;
	}
	if (u->phase == SS_RAMP) {
		if (now < u->start_ns + u->o->ss_ramp_us * 1000)
			return;
		u->phase = SS_COLLECT;
		goto baseline;
	}
	if (now < u->prev_ns + SS_PERIOD_NS)
		return;
	unit_totals(u, &ios, &bytes, &clat_n, &clat_sum);
	/* a member's statistics restarted (latency_target): new baseline */
	if (starts != u->starts || ios < u->prev_ios ||
	    bytes < u->prev_bytes || clat_n < u->prev_clat_n)
		goto baseline;
	dt = now - u->prev_ns;
	slot = u->pushed++ % u->win;
	u->iops[slot] = (uint64_t)((unsigned __int128)(ios - u->prev_ios) *
				   1000000000u / dt);
	u->bw[slot] = (uint64_t)((unsigned __int128)(bytes - u->prev_bytes) *
				 1000000000u / dt);
	/* the second's mean completion latency; 0 when nothing completed */
	u->lat[slot] = clat_n > u->prev_clat_n ?
		       (clat_sum - u->prev_clat_sum) / (clat_n - u->prev_clat_n) :
		       0;
	u->prev_ns = now;
	u->prev_ios = ios;
	u->prev_bytes = bytes;
	u->prev_clat_n = clat_n;
	u->prev_clat_sum = clat_sum;
	if (u->pushed >= u->win && judge(u))
		unit_stop(u, now);
	return;
baseline:
	unit_totals(u, &u->prev_ios, &u->prev_bytes, &u->prev_clat_n,
		    &u->prev_clat_sum);
	u->prev_ns = now;
	u->starts = starts;
}

void steady_tick(struct steady *s, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->u[i].phase != SS_OVER)
			unit_tick(&s->u[i], now);
}

static struct ss_result *unit_result(const struct ss_unit *u)
{
	struct ss_result *r = xcalloc(1, sizeof(*r) +
				      3 * u->win * sizeof(r->data[0]));
	uint64_t iops = 0, bw = 0, lat = 0;
	unsigned int k, filled = u->pushed < u->win ? (unsigned int)u->pushed :
						      u->win;

	r->mode = u->o->ss_mode;
	r->pct = u->o->ss_pct;
	r->limit = u->o->ss_limit;
	r->attained = u->attained;
	r->attained_ms = u->attained_ms;
	r->criterion = u->criterion;
	r->max_dev = u->max_dev;
	r->slope = u->slope;
	r->nr = u->win;
	/* oldest first; a window never filled has zeros at its end */
	for (k = 0; k < filled; k++) {
		r->data[k] = sample(u, u->iops, k);
		r->data[u->win + k] = sample(u, u->bw, k);
		r->data[2 * u->win + k] = sample(u, u->lat, k);
		iops += r->data[k];
		bw += r->data[u->win + k];
		lat += r->data[2 * u->win + k];
	}
	r->iops_mean = iops / u->win;
	r->bw_mean = bw / u->win;
	r->lat_mean = lat / u->win;
	return r;
}

struct ss_result *steady_result_of(const struct steady *s,
				   const struct run_job *rj)
{
	unsigned int i;

	for (i = 0; s && i < s->nr; i++) {
		const struct ss_unit *u = &s->u[i];

		if (rj >= u->jobs && rj < u->jobs + u->nr)
			return unit_result(u);
	}
	return NULL;
}

void steady_finish(struct steady *s)
{
	unsigned int i, k;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		struct ss_unit *u = &s->u[i];

		for (k = 0; k < u->nr; k++) {
			free(u->jobs[k].res.ss);
			u->jobs[k].res.ss = unit_result(u);
		}
		free(u->iops);
		free(u->bw);
		free(u->lat);
	}
	free(s->u);
	free(s);
}

void steady_notes(const struct run_result *rr, struct notes *out)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];
		const struct ss_result *r = j->ss;

		if (!r || !r->attained)
			continue;
		notes_add(out, "job '%s': steady state reached (%s %s %g%s "
			  "over %us) after %.1fs of counting: the job stopped "
			  "there", j->name, ss_mode_name(r->mode),
			  r->mode == SS_IOPS || r->mode == SS_BW ||
			  r->mode == SS_LAT ?
			  "deviation within" : "slope below", r->limit,
			  r->pct ? "%" : "", r->nr,
			  (double)r->attained_ms / 1000.0);
	}
}

/* --- exit_what -------------------------------------------------------- */

/* [*first, *end): the stonewall segment of job i (runner.c's rule). */
static void segment_of(const struct run_ctx *ctx, unsigned int i,
		       unsigned int *first, unsigned int *end)
{
	const struct run_job *jobs = ctx->jobs;
	unsigned int s = i, e = i + 1;

	while (s > 0 && !(jobs[s].plan->o.stonewall && jobs[s].plan->clone == 0))
		s--;
	while (e < ctx->nr_jobs &&
	       !(jobs[e].plan->o.stonewall && jobs[e].plan->clone == 0))
		e++;
	*first = s;
	*end = e;
}

void exit_what_finished(struct run_job *rj)
{
	struct run_ctx *ctx = rj->ctx;
	const struct job_options *o = &rj->plan->o;
	unsigned int i, first, end;
	bool exitall = o->exitall_on_error && rj->st->error;

	for (i = 0; i < ctx->nr_jobs && !exitall; i++)
		exitall = ctx->jobs[i].plan->o.exitall;
	if (!exitall)
		return;
	switch (o->exit_what) {
	case EXIT_WHAT_ALL:
		ctx->stop = 1;
		break;
	case EXIT_WHAT_STONEWALL:
		/* jobs run one stonewall segment at a time */
		segment_of(ctx, (unsigned int)(rj - ctx->jobs), &first, &end);
		for (i = first; i < end; i++)
			ctx->jobs[i].stop = 1;
		break;
	default:
		for (i = 0; i < ctx->nr_jobs; i++)
			if (ctx->jobs[i].plan->groupid == rj->plan->groupid)
				ctx->jobs[i].stop = 1;
		break;
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * iolite-mpi's live numbers (doc/live.md): one interval stream and one
 * metrics endpoint for the run, at rank 0, of every rank's figures.
 *
 * Every rank's live module (src/live/) runs with a tap instead of its
 * own outputs (main's live hook). The ranks' live intervals end on the
 * same ticks: whole periods from the first segment's common start on
 * rank 0's clock (the runner's interval epoch). At each tick the tap
 * sends rank 0 one message: the tick's number and, per group of the
 * whole job list, the rank's jobs of the group merged into one delta
 * (merge.c's exact merge), or that it has none this time, or that it
 * has none to come. Rank 0 takes the messages on a thread of its own
 * (so that a rank's send never waits on rank 0's runner), and once
 * every rank is past a tick merges the tick's deltas of each group into
 * one "All clients" interval, written and counted by rank 0's live
 * module (live_put): the intervals of a group add up to the report's
 * "All clients" exactly, their histograms merge into its histogram.
 *
 * Times travel on rank 0's CLOCK_REALTIME (comm.c's offsets) and are
 * put back on rank 0's run clock for the stream.
 */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "live/live.h"
#include "machine/clock.h"
#include "mpi/mpi_int.h"
#include "stats/results.h"
#include "util/log.h"

#define TAG_LIVE 40

enum { ST_NONE, ST_REC, ST_LAST, ST_CLOSED };

/* A rank's delta of a group at a tick, waiting at rank 0. */
struct pend {
	uint32_t tick;
	int rank;
	int64_t start, end, count;	/* rank 0's run clock */
	struct job_result *j;
};

struct mpi_live {
	struct live_opts o;		/* the outputs (rank 0 opens them) */
	uint64_t period_ns;
	int64_t mono_rt;		/* CLOCK_REALTIME minus clock_now_ns() */
	uint64_t epoch;			/* this rank's clock; 0: not yet */
	uint32_t last_tick;		/* the tap's */
	bool send_failed;
	/* a plan per global group, rank 0's jobs' (for the directions) */
	const struct job_plan **plan;

	/* rank 0 */
	struct live *out;
	pthread_t thread;
	bool running;
	int ending;			/* the run is over: take what comes */
	double deadline;		/* then, until then (mpi_now) */
	unsigned int nr_g;
	int64_t *wm;			/* per rank: its last tick; -1 */
	bool *fin;			/* per rank: its final message came */
	uint32_t *closed_at;		/* [g * nranks + r]: the tick */
	struct pend **pend;		/* per group */
	unsigned int *nr_pend, *alloc_pend;
	uint64_t *seq;
	uint64_t *prev_end;
	uint32_t next_tick, max_tick;
	unsigned int bad;		/* messages that did not read */
};

/* --- the ranks' side ------------------------------------------------- */

void mpi_live_opts(struct mpi_run *m, struct live_opts *lo)
{
	struct mpi_live *v;

	if (!lo->stream && !lo->listen && !lo->push)
		return;
	v = xcalloc(1, sizeof(*v));
	v->o = *lo;
	v->period_ns = lo->interval_ms * 1000000;
	m->live = v;
	/* the ranks' own: a tap alone, rank 0 writes the merge */
	lo->stream = lo->listen = lo->push = NULL;
	lo->linger_ms = 0;
	lo->tap = mpi_live_tap;
	lo->tap_arg = m;
}

uint64_t mpi_live_epoch(void *arg)
{
	struct mpi_run *m = arg;
	struct mpi_live *v = m->live;
	int64_t e;

	if (!v || !m->nr_global_segs)
		return 0;
	/* the first segment's common start, on this rank's clocks */
	e = m->seg_start_ns[0] + m->offset_ns - v->mono_rt;
	if (e <= 0)
		return 0;
	__atomic_store_n(&v->epoch, (uint64_t)e, __ATOMIC_RELEASE);
	return (uint64_t)e;
}

/* The tick of a tap's call: the nearest whole period, or the next. */
static uint32_t tick_of(struct mpi_live *v, uint64_t e,
			const struct live_tap *t)
{
	uint64_t p = v->period_ns, d = t->now_ns > e ? t->now_ns - e : 0;
	uint32_t k = (uint32_t)(t->final ? (d + p - 1) / p : (d + p / 2) / p);

	if (k <= v->last_tick)
		k = v->last_tick + 1;
	v->last_tick = k;
	return k;
}

/* A group's jobs on this rank: merged, their span (rank 0's clock). */
struct gacc {
	struct job_result j;
	bool have, inst, open;
	int64_t start, end, count;
};

static void acc_rec(struct mpi_run *m, struct gacc *a, unsigned int nr_g,
		    const struct live_rec *r)
{
	struct mpi_live *v = m->live;
	unsigned int lg = r->j->groupid;
	unsigned int g = lg < m->nr_gid_map ? m->gid_map[lg] : lg;
	int64_t off = v->mono_rt - m->offset_ns;	/* to rank 0's time */
	struct gacc *x;

	if (g >= nr_g)
		return;
	x = &a[g];
	if (!x->have) {
		x->start = (int64_t)r->start_ns + off;
		x->end = (int64_t)r->end_ns + off;
		x->count = (int64_t)r->count_ns + off;
	} else {
		if ((int64_t)r->start_ns + off < x->start)
			x->start = (int64_t)r->start_ns + off;
		if ((int64_t)r->end_ns + off > x->end)
			x->end = (int64_t)r->end_ns + off;
		if ((int64_t)r->count_ns + off < x->count)
			x->count = (int64_t)r->count_ns + off;
	}
	mpi_job_merge(&x->j, &x->have, r->j);
	if (!m->rank && !__atomic_load_n(&v->plan[g], __ATOMIC_ACQUIRE))
		__atomic_store_n(&v->plan[g], r->j->plan, __ATOMIC_RELEASE);
}

void mpi_live_tap(void *arg, const struct live_tap *t)
{
	struct mpi_run *m = arg;
	struct mpi_live *v = m->live;
	unsigned int nr_g = m->nr_global_gids, g, i;
	uint64_t e = __atomic_load_n(&v->epoch, __ATOMIC_ACQUIRE);
	struct mpi_buf b = { 0 };
	struct gacc *a;
	uint32_t tick, n = nr_g;
	uint8_t fin = t->final;

	if (!e || v->send_failed)
		return;
	tick = tick_of(v, e, t);
	a = xcalloc(nr_g ? nr_g : 1, sizeof(*a));
	for (i = 0; i < t->nr_inst; i++) {
		unsigned int lg = t->inst_gid[i];

		g = lg < m->nr_gid_map ? m->gid_map[lg] : lg;
		if (g >= nr_g)
			continue;
		a[g].inst = true;
		a[g].open |= !t->inst_closed[i];
	}
	for (i = 0; i < t->nr_rec; i++)
		acc_rec(m, a, nr_g, &t->rec[i]);
	mpi_buf_put(&b, &tick, sizeof(tick));
	mpi_buf_put(&b, &fin, sizeof(fin));
	mpi_buf_put(&b, &n, sizeof(n));
	for (g = 0; g < nr_g; g++) {
		bool closed = t->final || !a[g].inst || !a[g].open;
		uint8_t st = a[g].have ? (closed ? ST_LAST : ST_REC) :
			     (closed ? ST_CLOSED : ST_NONE);

		mpi_buf_put(&b, &st, 1);
		if (!a[g].have)
			continue;
		mpi_buf_put(&b, &a[g].start, sizeof(a[g].start));
		mpi_buf_put(&b, &a[g].end, sizeof(a[g].end));
		mpi_buf_put(&b, &a[g].count, sizeof(a[g].count));
		mpi_job_put(&b, &a[g].j);
		mpi_job_release(&a[g].j);
	}
	/* rank 0's thread takes it at once; a rank 0 gone: no more sends */
	if (mpi_send(m, 0, TAG_LIVE, b.p, b.len, m->timeout_s))
		v->send_failed = true;
	free(b.p);
	free(a);
}

/* --- rank 0: the merge ----------------------------------------------- */

static void pend_add(struct mpi_live *v, unsigned int g, const struct pend *p)
{
	if (v->nr_pend[g] == v->alloc_pend[g]) {
		v->alloc_pend[g] = v->alloc_pend[g] ? 2 * v->alloc_pend[g] : 8;
		v->pend[g] = xrealloc(v->pend[g], v->alloc_pend[g] *
				      sizeof(*v->pend[g]));
	}
	v->pend[g][v->nr_pend[g]++] = *p;
}

/* One rank's message into the waiting deltas. -1: it does not read. */
static int take(struct mpi_run *m, int rank, void *msg, size_t len)
{
	struct mpi_live *v = m->live;
	struct mpi_buf b = { msg, len, len, 0 };
	uint32_t tick, n;
	uint8_t fin, st;
	unsigned int g;

	if (mpi_buf_get(&b, &tick, sizeof(tick)) ||
	    mpi_buf_get(&b, &fin, sizeof(fin)) ||
	    mpi_buf_get(&b, &n, sizeof(n)) || n != v->nr_g)
		return -1;
	for (g = 0; g < n; g++) {
		struct pend p = { .tick = tick, .rank = rank };
		uint32_t *ca = &v->closed_at[g * (unsigned int)m->nranks +
					     (unsigned int)rank];

		if (mpi_buf_get(&b, &st, 1))
			return -1;
		if ((st == ST_LAST || st == ST_CLOSED) && *ca == UINT32_MAX)
			*ca = tick;
		if (st != ST_REC && st != ST_LAST)
			continue;
		p.j = xcalloc(1, sizeof(*p.j));
		if (mpi_buf_get(&b, &p.start, sizeof(p.start)) ||
		    mpi_buf_get(&b, &p.end, sizeof(p.end)) ||
		    mpi_buf_get(&b, &p.count, sizeof(p.count)) ||
		    mpi_job_get(&b, p.j)) {
			mpi_job_release(p.j);
			free(p.j);
			return -1;
		}
		/* rank 0's realtime to its run clock */
		p.start -= v->mono_rt;
		p.end -= v->mono_rt;
		p.count -= v->mono_rt;
		pend_add(v, g, &p);
	}
	if (tick > v->max_tick)
		v->max_tick = tick;
	v->wm[rank] = tick;
	if (fin)
		v->fin[rank] = true;
	return 0;
}

/* Group g's deltas of tick k merged into one interval, and written. */
static void emit_group(struct mpi_run *m, unsigned int g, uint32_t k,
		       bool flush)
{
	struct mpi_live *v = m->live;
	const uint32_t *ca = &v->closed_at[g * (unsigned int)m->nranks];
	struct run_result rr = { 0 };
	struct job_result j;
	struct live_rec r;
	bool have = false, last = true;
	unsigned int i, w = 0, ranks = 0;
	int rk;

	memset(&j, 0, sizeof(j));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < v->nr_pend[g]; i++) {
		struct pend *p = &v->pend[g][i];

		if (p->tick != k) {
			v->pend[g][w++] = *p;
			continue;
		}
		if (!have || p->start < (int64_t)r.start_ns)
			r.start_ns = (uint64_t)p->start;
		if (!have || p->count < (int64_t)r.count_ns)
			r.count_ns = (uint64_t)p->count;
		if (!have || p->end > (int64_t)r.end_ns)
			r.end_ns = (uint64_t)p->end;
		mpi_job_merge(&j, &have, p->j);
		mpi_job_release(p->j);
		free(p->j);
		ranks++;
	}
	v->nr_pend[g] = w;
	if (!have)
		return;
	/* every rank's jobs of the group done by then (a lost one's too) */
	for (rk = 0; rk < m->nranks; rk++)
		if (ca[rk] > k && !(flush && !v->fin[rk]))
			last = false;
	rr.jobs = &j;
	rr.nr_jobs = 1;
	rr.nr_groups = g + 1;
	rr.groups = xcalloc(g + 1, sizeof(*rr.groups));
	j.groupid = g;
	results_finish(&rr);
	j.name = (char *)"All clients";
	j.plan = __atomic_load_n(&v->plan[g], __ATOMIC_ACQUIRE);
	/* the intervals of a group tile the time, as a rank's do */
	if (v->seq[g] && v->prev_end[g] && v->prev_end[g] < r.end_ns)
		r.start_ns = v->prev_end[g];
	v->prev_end[g] = r.end_ns;
	r.j = &j;
	r.jobid = g;
	r.seq = ++v->seq[g];
	r.last = last;
	r.ranks = ranks;
	live_put(v->out, &r, 1, false);
	mpi_job_release(&j);
	free(rr.groups);
}

/* Every tick all ranks are past (flush: every tick there is). */
static void emit_ready(struct mpi_run *m, bool flush)
{
	struct mpi_live *v = m->live;
	int64_t low = INT64_MAX;
	unsigned int g;
	int r;

	for (r = 0; r < m->nranks; r++)
		if (!v->fin[r] && v->wm[r] < low)
			low = v->wm[r];
	if (flush || low > (int64_t)v->max_tick)
		low = v->max_tick;
	while ((int64_t)v->next_tick <= low) {
		for (g = 0; g < v->nr_g; g++)
			emit_group(m, g, v->next_tick, flush);
		v->next_tick++;
	}
}

static bool all_fin(const struct mpi_run *m)
{
	int r;

	for (r = 0; r < m->nranks; r++)
		if (!m->live->fin[r])
			return false;
	return true;
}

/* One message, if one came: taken and merged. Returns whether one did. */
static bool recv_one(struct mpi_run *m)
{
	MPI_Status st;
	int found = 0, count;
	void *buf;

	mpi_lock(m);
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_LIVE, MPI_COMM_WORLD, &found, &st);
	mpi_unlock(m);
	if (!found)
		return false;
	MPI_Get_count(&st, MPI_BYTE, &count);
	buf = xmalloc(count ? (size_t)count : 1);
	mpi_lock(m);
	MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, TAG_LIVE,
		 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	mpi_unlock(m);
	if (take(m, st.MPI_SOURCE, buf, (size_t)count))
		m->live->bad++;
	else
		emit_ready(m, false);
	free(buf);
	return true;
}

static void *recv_main(void *arg)
{
	struct mpi_run *m = arg;
	struct mpi_live *v = m->live;
	struct timespec nap = { 0, 1000000 };

	for (;;) {
		if (recv_one(m))
			continue;
		if (__atomic_load_n(&v->ending, __ATOMIC_ACQUIRE) &&
		    (all_fin(m) || mpi_now() >= v->deadline))
			break;
		nanosleep(&nap, NULL);
	}
	return NULL;
}

int mpi_live_start(struct mpi_run *m, struct strbuf *err)
{
	struct mpi_live *v = m->live;
	unsigned int n = m->nr_global_gids ? m->nr_global_gids : 1;
	unsigned int nr = (unsigned int)m->nranks;
	struct timespec ts;
	unsigned int i;

	if (!v)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	v->mono_rt = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec -
		     (int64_t)clock_now_ns();
	v->plan = xcalloc(n, sizeof(*v->plan));
	if (m->rank)
		return 0;
	v->out = live_start(&v->o, err);
	if (!v->out)
		return -1;
	v->nr_g = m->nr_global_gids;
	v->wm = xcalloc(nr, sizeof(*v->wm));
	v->fin = xcalloc(nr, sizeof(*v->fin));
	for (i = 0; i < nr; i++)
		v->wm[i] = -1;
	v->closed_at = xcalloc((size_t)n * nr, sizeof(*v->closed_at));
	for (i = 0; i < n * nr; i++)
		v->closed_at[i] = UINT32_MAX;
	v->pend = xcalloc(n, sizeof(*v->pend));
	v->nr_pend = xcalloc(n, sizeof(*v->nr_pend));
	v->alloc_pend = xcalloc(n, sizeof(*v->alloc_pend));
	v->seq = xcalloc(n, sizeof(*v->seq));
	v->prev_end = xcalloc(n, sizeof(*v->prev_end));
	v->next_tick = 1;
	return 0;
}

void mpi_live_run(struct mpi_run *m)
{
	struct mpi_live *v = m->live;

	if (!v || m->rank || v->running)
		return;
	if (pthread_create(&v->thread, NULL, recv_main, m))
		die("cannot start iolite-mpi's live thread");
	v->running = true;
}

/*
 * The run is over on every rank (or stopped): the last messages taken,
 * what is left written, the outputs closed; their notes go to the run's
 * note. Frees what mpi_live_opts() and mpi_live_start() made.
 */
void mpi_live_end(struct mpi_run *m)
{
	struct mpi_live *v = m->live;
	struct strbuf notes = STRBUF_INIT;
	unsigned int g, i;
	size_t n;
	int r, lost = 0;

	if (!v)
		return;
	if (v->running) {
		v->deadline = mpi_now() + (m->hurry_start > 0 ||
					   m->timed_out ? 0.1 :
					   m->timeout_s > 0 ? m->timeout_s : 60);
		__atomic_store_n(&v->ending, 1, __ATOMIC_RELEASE);
		pthread_join(v->thread, NULL);
		for (r = 0; r < m->nranks; r++)
			lost += !v->fin[r];
		emit_ready(m, true);
		if (lost)
			strbuf_addf(&notes, "--interval-output/--metrics-*: the last intervals of %d rank%s never came: the merged intervals lack them\n",
				    lost, lost == 1 ? "" : "s");
		if (v->bad)
			strbuf_addf(&notes, "--interval-output/--metrics-*: %u message%s of the ranks did not read\n",
				    v->bad, v->bad == 1 ? "" : "s");
	}
	if (v->out) {
		live_put(v->out, NULL, 0, true);
		live_finish(v->out, &notes);
	}
	/* the notes, one a line, into the run's note */
	n = strlen(m->note);
	for (i = 0; notes.buf && i < notes.len; i++)
		if (notes.buf[i] == '\n')
			notes.buf[i] = i + 1 < notes.len ? ';' : '\0';
	if (notes.len && notes.buf[0])
		snprintf(m->note + n, sizeof(m->note) - n, "%s%s",
			 n ? "; " : "", notes.buf);
	strbuf_release(&notes);
	for (g = 0; v->pend && g < (v->nr_g ? v->nr_g : 1); g++) {
		for (i = 0; i < v->nr_pend[g]; i++) {
			mpi_job_release(v->pend[g][i].j);
			free(v->pend[g][i].j);
		}
		free(v->pend[g]);
	}
	free(v->pend);
	free(v->nr_pend);
	free(v->alloc_pend);
	free(v->seq);
	free(v->prev_end);
	free(v->wm);
	free(v->fin);
	free(v->closed_at);
	free(v->plan);
	free(v);
	m->live = NULL;
}

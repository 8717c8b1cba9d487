/* SPDX-License-Identifier: MIT */
/*
 * The live intervals: each job's figures minus those of its last
 * interval, built into the results model by results_build() (so a
 * group_reporting group merges by the report's rules), then handed to
 * the stream's writer thread as JSON lines and to the metrics. Runs on
 * the runner's reporter thread (live.h has the contract).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "live/live_int.h"
#include "machine/clock.h"
#include "util/log.h"
#include "util/safefile.h"

/* One job instance's last interval. */
struct live_job {
	struct worker_stats *prev;	/* its figures then; NULL: zeros */
	struct rusage prev_ru;
	uint64_t prev_iowq_ns;
	uint64_t prev_at;		/* their time: the interval's start */
	uint64_t count_ns;		/* the counting start they belong to */
	bool seen;			/* prev_at is set */
	bool closed;			/* its last interval went out */
	struct worker_stats *delta;
};

struct live {
	struct live_opts o;
	struct live_job *j;
	unsigned int nr;
	unsigned int round;
	uint64_t t0_ns;
	int64_t wall_off_ns;
	uint64_t *seq;			/* per reported job */
	uint64_t *end;			/* per reported job: the last end */
	unsigned int nr_seq;
	struct worker_stats *zero;
	struct live_out *out;
	struct live_metrics *m;
	struct live_srv *srv;
	struct live_rec *tap_rec;	/* the records a tap gets */
	unsigned int nr_tap_rec, alloc_tap_rec;
	struct strbuf notes;
	unsigned int push_failed;
	uint64_t cpu_ns;		/* live_interval()'s CPU time so far */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* --- deltas ---------------------------------------------------------- */

static void hist_delta(struct hist *d, const struct hist *c,
		       const struct hist *p)
{
	unsigned int i;

	for (i = 0; i < HIST_NR; i++)
		d->bucket[i] = c->bucket[i] - p->bucket[i];
	d->overflow = c->overflow - p->overflow;
}

/*
 * The moments of the samples between p and c. Counts and the integer
 * sums subtract exactly; the extremes do not: the interval's min is c's
 * when c's is new (below p's), else its lowest bucket's floor (never
 * below c's min), and its max likewise. hist_add_range() then reads
 * every bucket the interval has.
 */
static void moments_delta(struct moments *d, const struct hist *dh,
			  const struct moments *c, const struct moments *p)
{
	unsigned __int128 cs = ((unsigned __int128)c->sum_hi << 64) | c->sum;
	unsigned __int128 ps = ((unsigned __int128)p->sum_hi << 64) | p->sum;
	unsigned int lo = 0, hi = HIST_NR;

	d->n = c->n - p->n;
	cs -= ps;
	d->sum = (uint64_t)cs;
	d->sum_hi = (uint64_t)(cs >> 64);
	d->sumsq = c->sumsq - p->sumsq;
	d->min = UINT64_MAX;
	d->max = 0;
	if (!d->n)
		return;
	while (lo < HIST_NR && !dh->bucket[lo])
		lo++;
	while (hi > 0 && !dh->bucket[hi - 1])
		hi--;
	d->min = c->min;
	d->max = c->max;
	if (lo < HIST_NR && (!p->n || c->min >= p->min) &&
	    hist_bucket_lo(lo) > c->min)
		d->min = hist_bucket_lo(lo);
	if (hi > 0 && !dh->overflow && (!p->n || c->max <= p->max) &&
	    hist_bucket_hi(hi - 1) < c->max)
		d->max = hist_bucket_hi(hi - 1);
}

static void lat_delta(struct moments *dm, struct hist *dh,
		      const struct moments *cm, const struct hist *ch,
		      const struct moments *pm, const struct hist *ph)
{
	hist_delta(dh, ch, ph);
	moments_delta(dm, dh, cm, pm);
}

static void u64_delta(uint64_t *d, const uint64_t *c, const uint64_t *p,
		      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		d[i] = c[i] - p[i];
}

static void dir_delta(struct dir_stats *d, const struct dir_stats *c,
		      const struct dir_stats *p)
{
	d->ios = c->ios - p->ios;
	d->bytes = c->bytes - p->bytes;
	d->short_ios = c->short_ios - p->short_ios;
	d->drop_ios = c->drop_ios - p->drop_ios;
	d->runtime_us = c->runtime_us - p->runtime_us;
	lat_delta(&d->slat, &d->slat_hist, &c->slat, &c->slat_hist, &p->slat,
		  &p->slat_hist);
	lat_delta(&d->clat, &d->clat_hist, &c->clat, &c->clat_hist, &p->clat,
		  &p->clat_hist);
	lat_delta(&d->lat, &d->lat_hist, &c->lat, &c->lat_hist, &p->lat,
		  &p->lat_hist);
}

/* d = c - p, every field the results read; no per-priority figures. */
static void stats_delta(struct worker_stats *d, const struct worker_stats *c,
			const struct worker_stats *p)
{
	unsigned int k;

	lat_delta(&d->sync_lat, &d->sync_hist, &c->sync_lat, &c->sync_hist,
		  &p->sync_lat, &p->sync_hist);
	d->sync_ios = c->sync_ios - p->sync_ios;
	u64_delta(d->issued, c->issued, p->issued, DDIR_RWDIR_CNT + 1);
	u64_delta(d->issued_short, c->issued_short, p->issued_short,
		  DDIR_RWDIR_CNT + 1);
	u64_delta(d->issued_drop, c->issued_drop, p->issued_drop,
		  DDIR_RWDIR_CNT + 1);
	u64_delta(d->lat_split, c->lat_split, p->lat_split, LAT_NR);
	u64_delta(d->depth, c->depth, p->depth, DEPTH_NR);
	u64_delta(d->submit, c->submit, p->submit, DEPTH_NR);
	u64_delta(d->complete, c->complete, p->complete, DEPTH_NR);
	d->submit_calls = c->submit_calls - p->submit_calls;
	d->complete_calls = c->complete_calls - p->complete_calls;
	d->error = c->error;
	d->first_error = c->first_error;
	d->total_err = c->total_err - p->total_err;
	for (k = 0; k < DDIR_RWDIR_CNT; k++) {
		lat_delta(&d->co_lat[k], &d->co_hist[k], &c->co_lat[k],
			  &c->co_hist[k], &p->co_lat[k], &p->co_hist[k]);
		dir_delta(&d->dir[k], &c->dir[k], &p->dir[k]);
	}
	d->prio = NULL;
}

static void tv_sub(struct timeval *d, const struct timeval *c,
		   const struct timeval *p)
{
	timersub(c, p, d);
	if (d->tv_sec < 0)
		timerclear(d);
}

/*
 * Job i's interval into dw: its delta since the last one, or zeros (no
 * figures this time, or its last interval is out). Returns whether it
 * has one; *start the interval's start, *last: it is the job's last.
 */
static bool job_interval(struct live *l, unsigned int i,
			 const struct worker_result *w,
			 struct worker_result *dw, uint64_t *start, bool *last)
{
	struct live_job *lj = &l->j[i];
	const struct worker_stats *p;

	memset(dw, 0, sizeof(*dw));
	dw->plan = w->plan;
	dw->tid = w->tid;
	dw->start_wall = w->start_wall;
	dw->start_clock = w->start_clock;
	dw->st = l->zero;
	*last = false;
	if (!w->at_ns || lj->closed)
		return false;
	if (!lj->seen || lj->count_ns != w->count_ns) {
		/* counting (re)started: the figures are from zero */
		free(lj->prev);
		lj->prev = NULL;
		memset(&lj->prev_ru, 0, sizeof(lj->prev_ru));
		lj->prev_iowq_ns = 0;
		lj->prev_at = w->count_ns;
		lj->count_ns = w->count_ns;
		lj->seen = true;
	}
	if (!lj->delta)
		lj->delta = xcalloc(1, sizeof(*lj->delta));
	p = lj->prev ? lj->prev : l->zero;
	stats_delta(lj->delta, w->st, p);
	dw->st = lj->delta;
	tv_sub(&dw->ru.ru_utime, &w->ru.ru_utime, &lj->prev_ru.ru_utime);
	tv_sub(&dw->ru.ru_stime, &w->ru.ru_stime, &lj->prev_ru.ru_stime);
	dw->ru.ru_nvcsw = w->ru.ru_nvcsw - lj->prev_ru.ru_nvcsw;
	dw->ru.ru_nivcsw = w->ru.ru_nivcsw - lj->prev_ru.ru_nivcsw;
	dw->ru.ru_majflt = w->ru.ru_majflt - lj->prev_ru.ru_majflt;
	dw->ru.ru_minflt = w->ru.ru_minflt - lj->prev_ru.ru_minflt;
	dw->iowq_cpu_ns = w->iowq_cpu_ns - lj->prev_iowq_ns;
	dw->elapsed_us = w->at_ns > lj->prev_at ?
			 (w->at_ns - lj->prev_at) / 1000 : 0;
	dw->running = !w->done;
	dw->error = w->error;
	dw->ramp_end = w->ramp_end;
	*start = lj->prev_at;
	/* this one's end is the next one's start */
	if (!lj->prev)
		lj->prev = xmalloc(sizeof(*lj->prev));
	memcpy(lj->prev, w->st, sizeof(*lj->prev));
	lj->prev->prio = NULL;
	lj->prev_ru = w->ru;
	lj->prev_iowq_ns = w->iowq_cpu_ns;
	lj->prev_at = w->at_ns;
	if (w->done) {
		lj->closed = true;
		*last = true;
	}
	return true;
}

/* --- the interval ---------------------------------------------------- */

/* What the reported job k of results_build() covers, and its times. */
struct rep_span {
	bool fresh, last, open;
	uint64_t start, end, count_ns;
};

/*
 * results_build()'s rule (stats/results.c): a job starts a new reported
 * job unless it has group_reporting and follows one of its group;
 * stats=0 jobs are left out. Fills span[k] from the members' intervals.
 */
static unsigned int spans(const struct worker_result *wr, unsigned int nr,
			  const bool *fresh, const bool *last,
			  const uint64_t *start, struct rep_span *span)
{
	unsigned int i, k = 0, last_group = 0;
	bool have = false;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = wr[i].plan;
		struct rep_span *s;

		if (p->o.no_stats)
			continue;
		if (!have || !p->o.group_reporting || p->groupid != last_group) {
			s = &span[k++];
			memset(s, 0, sizeof(*s));
			s->start = UINT64_MAX;
		}
		s = &span[k - 1];
		have = true;
		last_group = p->groupid;
		/* partial once every member is done */
		s->open |= !wr[i].done;
		if (!fresh[i])
			continue;
		s->fresh = true;
		s->last |= last[i];
		if (start[i] < s->start) {
			s->start = start[i];
			s->count_ns = wr[i].count_ns;
		}
		if (wr[i].at_ns > s->end)
			s->end = wr[i].at_ns;
	}
	return k;
}

static void tap_add(struct live *l, const struct live_rec *r)
{
	if (l->nr_tap_rec == l->alloc_tap_rec) {
		l->alloc_tap_rec = l->alloc_tap_rec ? 2 * l->alloc_tap_rec : 8;
		l->tap_rec = xrealloc(l->tap_rec, l->alloc_tap_rec *
				      sizeof(*l->tap_rec));
	}
	l->tap_rec[l->nr_tap_rec++] = *r;
}

/* Every call, records or not: a wrapper keeps its ranks in step. */
static void tap_call(struct live *l, const struct worker_result *wr,
		     unsigned int nr, bool final)
{
	unsigned int *gid = xcalloc(nr ? nr : 1, sizeof(*gid));
	bool *closed = xcalloc(nr ? nr : 1, sizeof(*closed));
	struct live_tap t;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		gid[i] = wr[i].plan->groupid;
		closed[i] = l->j[i].closed;
	}
	t = (struct live_tap){ l->tap_rec, l->nr_tap_rec, gid, closed, nr,
			       final, clock_now_ns() };
	l->o.tap(l->o.tap_arg, &t);
	l->nr_tap_rec = 0;
	free(gid);
	free(closed);
}

static void emit(struct live *l, const struct run_result *rr,
		 const struct rep_span *span, unsigned int nr)
{
	struct strbuf sb = STRBUF_INIT;
	struct live_rec r;
	unsigned int k;

	if (nr > l->nr_seq) {
		l->seq = xrealloc(l->seq, nr * sizeof(*l->seq));
		l->end = xrealloc(l->end, nr * sizeof(*l->end));
		memset(l->seq + l->nr_seq, 0,
		       (nr - l->nr_seq) * sizeof(*l->seq));
		memset(l->end + l->nr_seq, 0,
		       (nr - l->nr_seq) * sizeof(*l->end));
		l->nr_seq = nr;
	}
	for (k = 0; k < nr && k < rr->nr_jobs; k++) {
		if (!span[k].fresh)
			continue;
		memset(&r, 0, sizeof(r));
		r.j = &rr->jobs[k];
		r.jobid = k;
		r.seq = ++l->seq[k];
		/*
		 * A group's members copy their figures one after another:
		 * its interval runs from its last one's end, so that the
		 * intervals tile the time
		 */
		r.start_ns = l->seq[k] > 1 && l->end[k] ? l->end[k] :
			     span[k].start;
		r.end_ns = span[k].end;
		l->end[k] = r.end_ns;
		r.t0_ns = l->t0_ns;
		r.count_ns = span[k].count_ns;
		r.wall_off_ns = l->wall_off_ns;
		r.last = span[k].last && !span[k].open;
		r.round = l->round;
		r.cpu_ns = l->cpu_ns;
		if (l->m)
			live_metrics_add(l->m, &r);
		if (l->out)
			live_rec_json(&sb, &r);
		if (l->o.tap)
			tap_add(l, &r);
	}
	if (l->out && sb.len) {
		size_t len = sb.len;

		live_out_put(l->out, strbuf_detach(&sb), len);
	}
	strbuf_release(&sb);
}

static void publish(struct live *l, bool final)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;

	if (!l->m)
		return;
	live_metrics_text(l->m, &sb, false);
	if (l->srv) {
		struct strbuf om = STRBUF_INIT;
		size_t len = sb.len, om_len;

		live_metrics_text(l->m, &om, true);
		om_len = om.len;
		live_srv_set(l->srv, xstrdup(sb.buf ? sb.buf : ""), len,
			     strbuf_detach(&om), om_len);
	}
	/*
	 * The push: once, with the final figures (this thread must not
	 * wait on the network while the run goes on)
	 */
	if (l->o.push && final &&
	    live_push(l->o.push, sb.buf ? sb.buf : "", sb.len, &err)) {
		l->push_failed++;
		strbuf_addf(&l->notes, "--metrics-push: %s\n", err.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
}

void live_interval(struct live *l, struct worker_result *wr, unsigned int nr,
		   bool final)
{
	struct worker_result *dw;
	struct rep_span *span;
	struct run_result rr;
	struct strbuf err = STRBUF_INIT;
	uint64_t *start, cpu0 = thread_cpu_ns();
	bool *fresh, *last, any = false, built;
	unsigned int i, k;

	if (nr > l->nr) {
		l->j = xrealloc(l->j, nr * sizeof(*l->j));
		memset(l->j + l->nr, 0, (nr - l->nr) * sizeof(*l->j));
		l->nr = nr;
	}
	dw = xcalloc(nr ? nr : 1, sizeof(*dw));
	start = xcalloc(nr ? nr : 1, sizeof(*start));
	fresh = xcalloc(nr ? nr : 1, sizeof(*fresh));
	last = xcalloc(nr ? nr : 1, sizeof(*last));
	span = xcalloc(nr ? nr : 1, sizeof(*span));
	for (i = 0; i < nr; i++) {
		fresh[i] = job_interval(l, i, &wr[i], &dw[i], &start[i],
					&last[i]);
		any |= fresh[i];
	}
	built = any && !results_build(&rr, dw, nr, &err);
	if (built) {
		k = spans(wr, nr, fresh, last, start, span);
		emit(l, &rr, span, k);
	}
	if (l->o.tap)
		tap_call(l, wr, nr, final);
	if (built)
		run_result_release(&rr);
	if (any || final)
		publish(l, final);
	strbuf_release(&err);
	free(dw);
	free(start);
	free(fresh);
	free(last);
	free(span);
	l->cpu_ns += thread_cpu_ns() - cpu0;
}

void live_put(struct live *l, struct live_rec *r, unsigned int nr,
	      bool final)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t cpu0 = thread_cpu_ns();
	unsigned int i;

	for (i = 0; i < nr; i++) {
		r[i].t0_ns = l->t0_ns;
		r[i].wall_off_ns = l->wall_off_ns;
		r[i].round = l->round;
		r[i].cpu_ns = l->cpu_ns;
		if (l->m)
			live_metrics_add(l->m, &r[i]);
		if (l->out)
			live_rec_json(&sb, &r[i]);
	}
	if (l->out && sb.len) {
		size_t len = sb.len;

		live_out_put(l->out, strbuf_detach(&sb), len);
	}
	strbuf_release(&sb);
	if (nr || final)
		publish(l, final);
	l->cpu_ns += thread_cpu_ns() - cpu0;
}

void live_round(struct live *l, unsigned int round)
{
	unsigned int i;

	l->round = round;
	/* the reported jobs count their intervals from 1 again */
	if (l->nr_seq) {
		memset(l->seq, 0, l->nr_seq * sizeof(*l->seq));
		memset(l->end, 0, l->nr_seq * sizeof(*l->end));
	}
	for (i = 0; i < l->nr; i++) {
		free(l->j[i].prev);
		l->j[i].prev = NULL;
		l->j[i].seen = false;
		l->j[i].closed = false;
	}
}

/* --- start and end --------------------------------------------------- */

int live_check(const struct live_opts *o, struct strbuf *err)
{
	struct sockaddr_storage ss;
	unsigned int len;
	const char *why;

	if (o->stream && strcmp(o->stream, "-") &&
	    sf_check(o->stream, true, SF_NAMED, &why)) {
		strbuf_addf(err, "option '--interval-output': cannot write '%s': %s",
			    o->stream, why);
		return -1;
	}
	if (o->listen && live_addr_parse(o->listen, &ss, &len, err))
		return -1;
	if (o->push && live_push_check(o->push, err))
		return -1;
	return 0;
}

static int open_stream(struct live *l, struct strbuf *err)
{
	const char *why;
	int fd;

	if (!l->o.stream)
		return 0;
	if (!strcmp(l->o.stream, "-")) {
		fd = STDOUT_FILENO;
	} else {
		fd = sf_open(l->o.stream, O_WRONLY, 0644,
			     SF_NAMED | SF_CREATE | SF_TRUNC, &why);
		if (fd < 0) {
			strbuf_addf(err, "option '--interval-output': cannot write '%s': %s",
				    l->o.stream, why);
			return -1;
		}
	}
	l->out = live_out_new(fd);
	return 0;
}

struct live *live_start(const struct live_opts *o, struct strbuf *err)
{
	struct live *l = xcalloc(1, sizeof(*l));
	struct timespec ts;

	l->o = *o;
	strbuf_init(&l->notes);
	l->zero = xcalloc(1, sizeof(*l->zero));
	worker_stats_init(l->zero);
	l->t0_ns = clock_now_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	l->wall_off_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec -
			 (int64_t)l->t0_ns;
	/* the port first: a busy one is refused before the file is made */
	if (o->listen) {
		l->srv = live_srv_start(o->listen, err);
		if (!l->srv)
			goto fail;
	}
	if (open_stream(l, err)) {
		uint64_t n;

		if (l->srv)
			live_srv_stop(l->srv, 0, &n, &n);
		goto fail;
	}
	if (o->listen || o->push)
		l->m = live_metrics_new();
	return l;
fail:
	free(l->zero);
	strbuf_release(&l->notes);
	free(l);
	return NULL;
}

unsigned int live_port(const struct live *l)
{
	return l && l->srv ? live_srv_port(l->srv) : 0;
}

int live_finish(struct live *l, struct strbuf *notes)
{
	uint64_t wait_ns = 0, scrapes = 0, dropped = 0;
	unsigned int i;
	int ret = 0, e;

	if (!l)
		return 0;
	if (l->srv)
		live_srv_stop(l->srv, l->o.linger_ms, &scrapes, &dropped);
	if (dropped)
		strbuf_addf(&l->notes, "--metrics-listen: %llu connection%s cut at the deadline (a client that did not send or read in time)\n",
			    (unsigned long long)dropped, dropped == 1 ? "" : "s");
	if (l->out) {
		e = live_out_close(l->out, &wait_ns);
		if (e) {
			strbuf_addf(&l->notes, "--interval-output: write error: %s\n",
				    strerror(-e));
			ret = -1;
		}
		/* the reader was slower than the run: lines queued meanwhile */
		if (wait_ns >= 1000000000)
			strbuf_addf(&l->notes, "--interval-output: the stream's reader held a write back for %.1f s (the lines queued in memory, none lost)\n",
				    (double)wait_ns / 1e9);
	}
	strbuf_addstr(notes, l->notes.buf ? l->notes.buf : "");
	for (i = 0; i < l->nr; i++) {
		free(l->j[i].prev);
		free(l->j[i].delta);
	}
	free(l->j);
	free(l->tap_rec);
	free(l->seq);
	free(l->end);
	free(l->zero);
	live_metrics_free(l->m);
	strbuf_release(&l->notes);
	free(l);
	return ret;
}

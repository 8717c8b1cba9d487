/* SPDX-License-Identifier: MIT */
/*
 * The runner starts the job threads group by group (stonewall) and runs
 * the reporter thread beside them. The reporter does everything that
 * happens while the jobs run and is not I/O, so that the workers only
 * issue and count (design.md rule 5):
 *
 *  - bandwidth and IOPS samples for the report, every bwavgtime /
 *    iopsavgtime of each job, from the workers' relaxed-atomic live
 *    counters; the windowed lines of the bw and iops logs likewise;
 *  - the aggregate bandwidth logs (--bandwidth-log); the log writer
 *    threads (stats/log.h) format the workers' records;
 *  - the status line, every eta_interval;
 *  - reports while the run goes on (SIGUSR1, status_interval) and the
 *    live intervals (src/live/: --interval-output, --metrics-listen), from a
 *    copy of each worker's stats that the worker makes itself between two
 *    batches when asked (worker.c, worker_snapshot()): a generation
 *    counter in the run_ctx moves, each running worker sees it at its
 *    next batch, copies, and publishes the generation it served. The
 *    reporter waits up to a second for them; a worker that does not come
 *    round in that time (an I/O stuck in the device) shows as not started
 *    in that report. Workers that finished are read directly.
 *  - signals: the handlers only set flags; the reporter acts on them.
 *    SIGINT, SIGTERM and SIGUSR1 are blocked in every thread but the
 *    reporter, so its sleep is what a signal interrupts.
 */
#include "run/runner.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "workload/buffer.h"
#include "machine/clock.h"
#include "run/stall.h"
#include "run/steady.h"
#include "run/stuck.h"
#include "run/flow.h"
#include "target/iolog_defer.h"
#include "util/log.h"

#define TICK_NS 10000000ull		/* the reporter wakes every 10 ms */
#define SNAP_WAIT_NS 1000000000ull	/* longest wait for a worker's copy */

static struct run_ctx *current_ctx;

void runner_stop(void)
{
	if (current_ctx)
		current_ctx->stop = 1;
}

/* --- signals ---------------------------------------------------------- */

static volatile sig_atomic_t sig_stop;		/* SIGINT / SIGTERM seen */
static volatile sig_atomic_t sig_hurry;		/* ... and again: give up */
static volatile sig_atomic_t sig_report;	/* SIGUSR1 seen */
static struct timespec sig_first;		/* when sig_stop was set */

/*
 * A second stop signal this soon after the first is the same request
 * delivered twice (timeout(1) signals its child and then the child's
 * process group), not a user who does not want to wait.
 */
#define SIG_REPEAT_NS 100000000LL

static int sig_repeated(void)
{
	struct timespec now;
	long long d;

	clock_gettime(CLOCK_MONOTONIC, &now);	/* async-signal-safe */
	d = (long long)(now.tv_sec - sig_first.tv_sec) * 1000000000LL +
	    (now.tv_nsec - sig_first.tv_nsec);
	return d < SIG_REPEAT_NS;
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1) {
		sig_report = 1;
		return;
	}
	if (sig_stop && sig_repeated())
		return;
	if (sig_stop && !sig_hurry) {
		/* a second one: the user does not want to wait for the jobs;
		 * the reporter gives them up and the report is written */
		sig_hurry = 1;
		return;
	}
	if (sig_stop) {
		/* a third one: not even for the report */
		static const char msg[] = "iolite: aborted\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(128 + sig);
		_exit(128 + sig);
	}
	clock_gettime(CLOCK_MONOTONIC, &sig_first);
	sig_stop = sig;
}

int runner_signal(void)
{
	return sig_stop;
}

static const int run_signals[] = { SIGINT, SIGTERM, SIGUSR1 };

struct saved_signals {
	struct sigaction old[ARRAY_SIZE(run_signals)];
	sigset_t old_mask;
};

static void run_sigset(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < ARRAY_SIZE(run_signals); i++)
		sigaddset(set, run_signals[i]);
}

/* Handlers in, signals blocked here (threads started now inherit it). */
static void signals_begin(struct saved_signals *sv)
{
	struct sigaction sa;
	sigset_t set;
	size_t i;

	sig_stop = 0;
	sig_hurry = 0;
	sig_report = 0;
	stuck_signal_install();
	run_sigset(&set);
	pthread_sigmask(SIG_BLOCK, &set, &sv->old_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(run_signals); i++)
		sigaction(run_signals[i], &sa, &sv->old[i]);
}

static void signals_end(struct saved_signals *sv)
{
	size_t i;

	/* one still pending lands in on_signal(), not the default action */
	pthread_sigmask(SIG_SETMASK, &sv->old_mask, NULL);
	for (i = 0; i < ARRAY_SIZE(run_signals); i++)
		sigaction(run_signals[i], &sv->old[i], NULL);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	default:
		return "signal";
	}
}

/* --- the reporter ----------------------------------------------------- */

struct rep_job {
	_Atomic int launched;		/* its thread was started */
	uint64_t launch_ns;
	unsigned int seg;		/* stonewall segment */
	/* report samples */
	int seen;
	uint64_t start_ns;		/* the run_start_ns sampled from */
	uint64_t bw_ns, iops_ns;
	uint64_t bw_bytes[DDIR_RWDIR_CNT], iops_ios[DDIR_RWDIR_CNT];
	/* the pictures' series, finer for a short run (series_period()) */
	uint64_t sbw_ns, siops_ns;
	uint64_t sbw_bytes[DDIR_RWDIR_CNT], siops_ios[DDIR_RWDIR_CNT];
	uint64_t sclat_n[DDIR_RWDIR_CNT], sclat_sum[DDIR_RWDIR_CNT];
	/* status line rates */
	uint64_t st_bytes[DDIR_RWDIR_CNT], st_ios[DDIR_RWDIR_CNT];
	bool log_closed;
};

struct reporter {
	struct run_ctx *ctx;
	struct runner_opts *ro;
	struct rep_job *j;
	unsigned int nr_seg;
	_Atomic int done;
	/* interval_epoch's answer: the live ticks' phase; 0: none yet */
	_Atomic uint64_t live_epoch;
	uint64_t live_epoch_seen;
	uint64_t start_ns;
	uint64_t next_eta, next_status, next_live, last_rate_ns;
	bool drawn;		/* a status line is up */
	bool stopping;
	bool snaps;		/* every job has its snap buffer */
	char *states;
	struct worker_stats *zero;	/* stats of a job not counting yet */
	struct steady *ss;		/* steady state (run/steady.c), or NULL */
	struct stuck_watch *stuck;	/* jobs that do not stop (stuck.h) */
	unsigned int ph_seg;		/* the segment whose phase is watched */
	int ph_state;			/* 0: not begun, 1: on, 2: paused */
};

static uint64_t live(_Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/* A running job's counters started again from zero (run/lattarget.c). */
static bool stats_restarted(const struct rep_job *sj, struct run_job *rj)
{
	unsigned int d;

	if (sj->start_ns != rj->run_start_ns)
		return true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (live(&rj->st->live_bytes[d]) < sj->bw_bytes[d] ||
		    live(&rj->st->live_ios[d]) < sj->iops_ios[d])
			return true;
	return false;
}

/*
 * One sample: count things (bytes, I/Os) over ns, the report's figure
 * (per second, divided by div: KiB/s or IOPS) to w.
 */
static void add_sample(struct welford *w, uint64_t count, uint64_t ns,
		       unsigned int div)
{
	welford_add(w, (uint64_t)((unsigned __int128)count * 1000000000u /
				  div / ns));
}

/*
 * The period of the series the pictures draw: the samples' own (avg_ns,
 * bwavgtime or iopsavgtime), but for a run set to last under 20 of them
 * a twentieth of its runtime (10 ms at least), so that a 1 s run draws a
 * curve and not two points; the figures keep fio's samples.
 */
static uint64_t series_period(const struct job_options *o, uint64_t avg_ns)
{
	uint64_t run_ns = o->runtime_us * 1000;

	if (!run_ns || run_ns >= 20 * avg_ns)
		return avg_ns;
	return run_ns / 20 > TICK_NS ? run_ns / 20 : TICK_NS;
}

/* count things over ns as a rate (per second) into the series */
static void series_rate(struct series *s, uint64_t t_ms, uint64_t count,
			uint64_t ns)
{
	series_add(s, t_ms, (double)count * 1e9 / (double)ns);
}

/*
 * The mean completion latency (ns) of direction d's I/Os completed since
 * the last IOPS point (0: none, or clat not measured): from the live sum
 * and count the worker publishes once per batch
 */
static double interval_lat(struct rep_job *sj, struct run_job *rj,
			   unsigned int d)
{
	uint64_t n = live(&rj->st->live_clat_n[d]);
	uint64_t sum = live(&rj->st->live_clat_sum[d]);
	double lat = 0;

	/* counters that went back: the stats restarted (ramp, lat target) */
	if (n > sj->sclat_n[d])
		lat = (double)(sum - sj->sclat_sum[d]) /
		      (double)(n - sj->sclat_n[d]);
	sj->sclat_n[d] = n;
	sj->sclat_sum[d] = sum;
	return lat;
}

/* The series' samples of a job, each on its own period. */
static void series_sample(struct rep_job *sj, struct run_job *rj, uint64_t now)
{
	const struct job_options *o = &rj->plan->o;
	uint64_t bw_ns = series_period(o, (o->bwavgtime_ms ? o->bwavgtime_ms :
					   500) * 1000000ull);
	uint64_t iops_ns = series_period(o, (o->iopsavgtime_ms ?
					     o->iopsavgtime_ms : 500) *
					 1000000ull);
	bool bw_due = now >= sj->sbw_ns + bw_ns;
	bool iops_due = now >= sj->siops_ns + iops_ns;
	uint64_t t_ms = (now - rj->run_start_ns) / 1000000, db = 0, dn = 0;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT && (bw_due || iops_due); d++) {
		uint64_t b = live(&rj->st->live_bytes[d]);
		uint64_t n = live(&rj->st->live_ios[d]);

		if (!ddir_used(rj->plan, (enum ddir)d))
			continue;
		if (bw_due) {
			db += b - sj->sbw_bytes[d];
			series_rate(&rj->res.bw_series[d], t_ms,
				    b - sj->sbw_bytes[d], now - sj->sbw_ns);
			sj->sbw_bytes[d] = b;
		}
		if (iops_due) {
			dn += n - sj->siops_ios[d];
			series_add_lat(&rj->res.iops_series[d], t_ms,
				       (double)(n - sj->siops_ios[d]) * 1e9 /
				       (double)(now - sj->siops_ns),
				       interval_lat(sj, rj, d));
			sj->siops_ios[d] = n;
		}
	}
	if (o->unified_rw_reporting && bw_due)
		series_rate(&rj->res.bw_series[DDIR_RWDIR_CNT], t_ms, db,
			    now - sj->sbw_ns);
	if (o->unified_rw_reporting && iops_due)
		series_rate(&rj->res.iops_series[DDIR_RWDIR_CNT], t_ms, dn,
			    now - sj->siops_ns);
	if (bw_due)
		sj->sbw_ns = now;
	if (iops_due)
		sj->siops_ns = now;
}

/*
 * Bandwidth and IOPS samples for the report, each on its job's own period,
 * taken off the I/O path from the live counters. A sample covers one
 * period of one running (not ramping) job.
 */
static void sample_job(struct rep_job *sj, struct run_job *rj, uint64_t now)
{
	const struct job_options *o = &rj->plan->o;
	uint64_t bw_ns = (o->bwavgtime_ms ? o->bwavgtime_ms : 500) * 1000000ull;
	uint64_t iops_ns = (o->iopsavgtime_ms ? o->iopsavgtime_ms : 500) *
			   1000000ull;
	unsigned int d;
	bool bw_due, iops_due;
	uint64_t db = 0, dn = 0;	/* the directions' sum (unified) */

	if (sj->seen && stats_restarted(sj, rj)) {
		/* latency_target restarted the stats: the samples too */
		sj->seen = 0;
		memset(rj->res.bw_samples, 0, sizeof(rj->res.bw_samples));
		memset(rj->res.iops_samples, 0, sizeof(rj->res.iops_samples));
		for (d = 0; d <= DDIR_RWDIR_CNT; d++) {
			series_reset(&rj->res.bw_series[d]);
			series_reset(&rj->res.iops_series[d]);
		}
	}
	if (!sj->seen) {
		sj->seen = 1;
		sj->start_ns = rj->run_start_ns;
		sj->bw_ns = sj->iops_ns = rj->run_start_ns;
		sj->sbw_ns = sj->siops_ns = rj->run_start_ns;
		memset(sj->bw_bytes, 0, sizeof(sj->bw_bytes));
		memset(sj->iops_ios, 0, sizeof(sj->iops_ios));
		memset(sj->sbw_bytes, 0, sizeof(sj->sbw_bytes));
		memset(sj->siops_ios, 0, sizeof(sj->siops_ios));
		memset(sj->sclat_n, 0, sizeof(sj->sclat_n));
		memset(sj->sclat_sum, 0, sizeof(sj->sclat_sum));
	}
	series_sample(sj, rj, now);
	bw_due = now >= sj->bw_ns + bw_ns;
	iops_due = now >= sj->iops_ns + iops_ns;
	if (!bw_due && !iops_due)
		return;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t b, n;

		if (!ddir_used(rj->plan, (enum ddir)d))
			continue;
		b = live(&rj->st->live_bytes[d]);
		n = live(&rj->st->live_ios[d]);
		if (bw_due) {
			db += b - sj->bw_bytes[d];
			add_sample(&rj->res.bw_samples[d], b - sj->bw_bytes[d],
				   now - sj->bw_ns, 1024);
			sj->bw_bytes[d] = b;
		}
		if (iops_due) {
			dn += n - sj->iops_ios[d];
			add_sample(&rj->res.iops_samples[d], n - sj->iops_ios[d],
				   now - sj->iops_ns, 1);
			sj->iops_ios[d] = n;
		}
	}
	if (o->unified_rw_reporting && bw_due)
		add_sample(&rj->res.bw_samples[DDIR_RWDIR_CNT], db,
			   now - sj->bw_ns, 1024);
	if (o->unified_rw_reporting && iops_due)
		add_sample(&rj->res.iops_samples[DDIR_RWDIR_CNT], dn,
			   now - sj->iops_ns, 1);
	if (bw_due)
		sj->bw_ns = now;
	if (iops_due)
		sj->iops_ns = now;
}

static void read_live(struct run_job *rj, uint64_t *bytes, uint64_t *ios)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		bytes[d] = live(&rj->st->live_bytes[d]);
		ios[d] = live(&rj->st->live_ios[d]);
	}
}

static void sample_all(struct reporter *r, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < r->ctx->nr_jobs; i++) {
		struct run_job *rj = &r->ctx->jobs[i];
		struct rep_job *sj = &r->j[i];
		int st = atomic_load(&rj->state);
		uint64_t bytes[DDIR_RWDIR_CNT], ios[DDIR_RWDIR_CNT];

		if (st == WS_RUNNING) {
			sample_job(sj, rj, now);
			if (rj->log) {
				read_live(rj, bytes, ios);
				log_sample(rj->log, now, bytes, ios, false);
			}
			continue;
		}
		sj->seen = 0;
		if (st == WS_DONE && rj->log && !sj->log_closed) {
			/* the counters are final; so is the end time */
			sj->log_closed = true;
			read_live(rj, bytes, ios);
			log_sample(rj->log, rj->run_start_ns +
				   rj->res.elapsed_us * 1000, bytes, ios, true);
		}
	}
}

/* --- the status line -------------------------------------------------- */

static char state_letter(const struct run_job *rj, int st, bool launched)
{
	const struct job_plan *p = rj->plan;

	if (!launched)
		return 'P';
	switch (st) {
	case WS_INIT:
		return 'C';
	case WS_RAMP:
		return '/';
	case WS_DONE:
		return rj->res.error ? 'X' : '_';
	default:
		break;
	}
	if (p->mixed)
		return p->random ? 'm' : 'M';
	if (ddir_used(p, DDIR_WRITE))
		return p->random ? 'w' : 'W';
	if (ddir_used(p, DDIR_TRIM))
		return p->random ? 'd' : 'D';
	return p->random ? 'r' : 'R';
}

/* Bytes the job moves in all, every loop and phase counted. */
static uint64_t job_total_bytes(const struct run_job *rj)
{
	const struct job_plan *p = rj->plan;
	const struct job_options *o = &p->o;
	uint64_t pass = o->io_size.bytes ? o->io_size.bytes :
					  rj->files->total_io_size;

	if (o->number_ios && !o->time_based) {
		uint64_t b = o->number_ios * ((p->min_bs + p->max_bs) / 2);

		if (b < pass)
			pass = b;
	}
	/* trimwrite trims then writes each block */
	if (o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE)
		pass *= 2;
	/* a verify phase reads back what was written */
	if (o->verify != VERIFY_NONE && o->do_verify && p->writes &&
	    !o->time_based)
		pass *= 2;
	return pass * (o->loops ? o->loops : 1);
}

/*
 * What a job not started yet will take: its delays plus its runtime when
 * that is known (time_based, or a runtime cap). -1: unknown.
 */
static int64_t job_static_ns(const struct run_job *rj)
{
	const struct job_options *o = &rj->plan->o;

	if (!o->runtime_us)
		return -1;
	return (int64_t)(o->startdelay_us + o->ramp_time_us + o->runtime_us) *
	       1000;
}

static uint64_t sum_live_bytes(struct run_job *rj)
{
	uint64_t n = 0;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		n += live(&rj->st->live_bytes[d]);
	return n;
}

/*
 * Time a started job still needs, from now (ns); -1 when unknown. Time
 * based: what is left of ramp_time + runtime. Size bound: the bytes left
 * at the rate so far (the ramp's rate while ramping), capped by runtime.
 */
static int64_t job_left_ns(struct reporter *r, unsigned int i, uint64_t now,
			   int st)
{
	struct run_job *rj = &r->ctx->jobs[i];
	const struct job_options *o = &rj->plan->o;
	uint64_t runtime = o->runtime_us * 1000, ramp = o->ramp_time_us * 1000;
	uint64_t total = job_total_bytes(rj), done, since;
	int64_t left, cap = -1;

	switch (st) {
	case WS_DONE:
		return 0;
	case WS_INIT: {
		uint64_t t = now - r->j[i].launch_ns, delay = o->startdelay_us * 1000;
		int64_t s = job_static_ns(rj);

		if (s < 0)
			return -1;
		return s - (int64_t)(t < delay ? t : delay);
	}
	case WS_RAMP: {
		uint64_t ramp_left;

		since = now - rj->run_start_ns;
		ramp_left = since < ramp ? ramp - since : 0;
		if (o->time_based || (runtime && !total))
			return (int64_t)(ramp_left + runtime);
		done = sum_live_bytes(rj);
		if (runtime)
			cap = (int64_t)(ramp_left + runtime);
		if (!done || !since)
			return cap;
		left = (int64_t)(ramp_left +
				 (uint64_t)((double)total * (double)since /
					    (double)done));
		return cap >= 0 && cap < left ? cap : left;
	}
	default:
		break;
	}
	since = now - rj->run_start_ns;
	if (runtime)
		cap = since < runtime ? (int64_t)(runtime - since) : 0;
	if (o->time_based)
		return cap;
	done = sum_live_bytes(rj);
	if (!done || !since)
		return cap;
	left = done >= total ? 0 :
	       (int64_t)((double)(total - done) * (double)since / (double)done);
	return cap >= 0 && cap < left ? cap : left;
}

/*
 * ETA of the whole run: the longest of the running group's jobs, plus,
 * for each stonewalled group still queued, its longest job where that is
 * known. -1 when the running group's is unknown.
 */
static int64_t run_eta_ns(struct reporter *r, uint64_t now)
{
	int64_t cur = -1, *seg;
	unsigned int i;
	bool any = false;

	seg = xcalloc(r->nr_seg + 1, sizeof(*seg));
	for (i = 0; i < r->ctx->nr_jobs; i++) {
		struct run_job *rj = &r->ctx->jobs[i];
		int st = atomic_load(&rj->state);
		int64_t left;

		if (!atomic_load(&r->j[i].launched)) {
			left = job_static_ns(rj);
			if (left > seg[r->j[i].seg])
				seg[r->j[i].seg] = left;
			continue;
		}
		if (st == WS_DONE)
			continue;
		any = true;
		left = job_left_ns(r, i, now, st);
		if (left > cur)
			cur = left;
	}
	if (!any)
		cur = 0;	/* between groups, or done */
	if (cur >= 0)
		for (i = 0; i < r->nr_seg; i++)
			cur += seg[i];
	free(seg);
	return cur;
}

/* A running job's rate limits, for the status line, as fio sums them. */
static void add_rates(struct run_status *s, const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!ddir_used(p, (enum ddir)d))
			continue;
		s->rate_lo += o->rate_min[d];
		s->rate_hi += o->rate[d];
		s->iops_lo += o->rate_iops_min[d];
		s->iops_hi += o->rate_iops[d];
	}
}

static void draw_status(struct reporter *r, uint64_t now)
{
	struct run_ctx *ctx = r->ctx;
	struct run_status s;
	uint64_t sum_b[DDIR_RWDIR_CNT] = { 0 }, sum_n[DDIR_RWDIR_CNT] = { 0 };
	uint64_t dt = now - r->last_rate_ns, elapsed = now - r->start_ns;
	int64_t eta;
	unsigned int i, d;
	bool first = true;

	memset(&s, 0, sizeof(s));
	s.nr_jobs = ctx->nr_jobs;
	s.states = r->states;
	s.kb_base = ctx->nr_jobs && ctx->jobs[0].plan->o.kb_base == 1000 ?
		    1000 : 1024;
	for (i = 0; i < ctx->nr_jobs; i++) {
		struct run_job *rj = &ctx->jobs[i];
		struct rep_job *sj = &r->j[i];
		int st = atomic_load(&rj->state);
		bool launched = atomic_load(&sj->launched);

		r->states[i] = state_letter(rj, st, launched);
		if (first && st != WS_DONE) {
			s.desc = rj->plan->desc_index;
			first = false;
		}
		if (launched && (st == WS_RAMP || st == WS_RUNNING)) {
			s.running++;
			s.files += rj->files->nr_files;
			s.dir_mask |= rj->plan->ddir_mask;
			add_rates(&s, rj->plan);
		}
		for (d = 0; d < DDIR_RWDIR_CNT && launched; d++) {
			uint64_t b = live(&rj->st->live_bytes[d]);
			uint64_t n = live(&rj->st->live_ios[d]);

			/* the counters restart from 0 when ramp_time ends */
			sum_b[d] += b >= sj->st_bytes[d] ? b - sj->st_bytes[d] : b;
			sum_n[d] += n >= sj->st_ios[d] ? n - sj->st_ios[d] : n;
			sj->st_bytes[d] = b;
			sj->st_ios[d] = n;
		}
	}
	r->states[ctx->nr_jobs] = 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dt)
			break;
		s.bw[d] = (uint64_t)((unsigned __int128)sum_b[d] * 1000000000u / dt);
		s.iops[d] = (uint64_t)((unsigned __int128)sum_n[d] * 1000000000u /
				       dt);
		if (s.bw[d] || s.iops[d])
			s.dir_mask |= 1u << d;
	}
	r->last_rate_ns = now;
	eta = run_eta_ns(r, now);
	s.eta_s = eta < 0 ? -1 : (eta + 500000000) / 1000000000;
	s.pct = eta < 0 ? -1.0 :
		100.0 * (double)elapsed / ((double)elapsed + (double)eta);
	if (s.pct > 100.0)
		s.pct = 100.0;
	s.elapsed_ms = elapsed / 1000000;
	r->ro->status(r->ro->arg, &s);
	r->drawn = true;
}

/* Ends a status line on the terminal before something else is printed. */
static void end_status(struct reporter *r)
{
	if (r->drawn && r->ro->status)
		r->ro->status(r->ro->arg, NULL);
	r->drawn = false;
}

/* --- reports while the run goes on ------------------------------------ */

/*
 * Asks the running jobs for a snapshot of their figures (a new
 * generation) and waits, up to SNAP_WAIT_NS, until each has answered.
 * Returns the generation asked for.
 */
static unsigned int ask_snapshots(struct reporter *r)
{
	struct run_ctx *ctx = r->ctx;
	unsigned int nr = ctx->nr_jobs, i, gen;
	uint64_t deadline;

	if (!r->snaps) {
		/* once, before the first request: workers read the pointer */
		for (i = 0; i < nr; i++)
			ctx->jobs[i].snap = xcalloc(1, sizeof(*ctx->jobs[i].snap));
		r->snaps = true;
	}
	gen = atomic_fetch_add_explicit(&ctx->snap_gen, 1,
					memory_order_release) + 1;
	deadline = clock_now_ns() + SNAP_WAIT_NS;
	for (;;) {
		bool waiting = false;

		for (i = 0; i < nr && !waiting; i++) {
			struct run_job *rj = &ctx->jobs[i];
			int st = atomic_load(&rj->state);

			if ((st == WS_RAMP || st == WS_RUNNING) &&
			    atomic_load_explicit(&rj->snap_done,
						 memory_order_acquire) != gen)
				waiting = true;
		}
		if (!waiting || clock_now_ns() >= deadline)
			break;
		clock_sleep_us(1000, NULL);
	}
	return gen;
}

/*
 * A job's result so far, into w: the whole of it when done, else what
 * is fixed before counting, and its snapshot of generation gen when it
 * runs and has answered.
 */
static void job_so_far(const struct reporter *r, struct run_job *rj,
		       struct worker_result *w, unsigned int gen)
{
	int st = atomic_load(&rj->state);

	if (st == WS_DONE) {
		*w = rj->res;
		w->st = rj->st;
		w->done = true;
		w->count_ns = rj->run_start_ns;
		w->at_ns = rj->run_start_ns + rj->res.elapsed_us * 1000;
		return;
	}
	/* fields set before counting began, and the reporter's own */
	w->plan = rj->plan;
	w->devs = rj->res.devs;
	w->nr_devs = rj->res.nr_devs;
	memcpy(w->bw_samples, rj->res.bw_samples, sizeof(w->bw_samples));
	memcpy(w->iops_samples, rj->res.iops_samples,
	       sizeof(w->iops_samples));
	/* the reporter's own: this thread is their only writer */
	memcpy(w->bw_series, rj->res.bw_series, sizeof(w->bw_series));
	memcpy(w->iops_series, rj->res.iops_series,
	       sizeof(w->iops_series));
	w->st = r->zero;
	if (st == WS_INIT)
		return;
	/* written by the worker before it left WS_INIT */
	w->tid = rj->res.tid;
	w->start_us = rj->res.start_us;
	w->start_wall = rj->res.start_wall;
	w->start_clock = rj->res.start_clock;
	if (st != WS_RUNNING ||
	    atomic_load_explicit(&rj->snap_done,
				 memory_order_acquire) != gen ||
	    !rj->snap_counting)
		return;
	w->st = rj->snap;
	w->count_ns = rj->snap_start_ns;
	w->at_ns = rj->snap_ns;
	w->ru = rj->snap_ru;
	w->run_delay_ns = stall_since(w->tid, rj->delay0_ns);
	w->running = true;
	w->elapsed_us = rj->snap_ns > rj->run_start_ns ?
			(rj->snap_ns - rj->run_start_ns) / 1000 : 0;
}

/*
 * A report (report) and the live interval (live; final: the run is
 * over) from one set of snapshots: the workers copy once for both.
 */
static void report_now(struct reporter *r, bool report, bool live,
		       bool final)
{
	struct run_ctx *ctx = r->ctx;
	unsigned int nr = ctx->nr_jobs, i, gen = 0;
	struct worker_result *wr;

	report = report && r->ro->report;
	live = live && r->ro->interval;
	if (!report && !live)
		return;
	if (!final)
		gen = ask_snapshots(r);
	wr = xcalloc(nr ? nr : 1, sizeof(*wr));
	for (i = 0; i < nr; i++)
		job_so_far(r, &ctx->jobs[i], &wr[i], gen);
	if (live)
		r->ro->interval(r->ro->arg, wr, nr, final);
	/* the steadystate block as judged so far (res.ss comes at the end) */
	for (i = 0; report && r->ss && i < nr; i++)
		wr[i].ss = steady_result_of(r->ss, &ctx->jobs[i]);
	/* jobs not started yet (later stonewall groups) come with zeros */
	if (report) {
		end_status(r);
		r->ro->report(r->ro->arg, wr, nr);
	}
	for (i = 0; i < nr; i++)
		free(wr[i].ss);
	free(wr);
}

/* Moves a period's deadline past now. */
static void next_due(uint64_t *next, uint64_t now, uint64_t period_ms)
{
	while (*next <= now)
		*next += period_ms * 1000000;
}

/*
 * In step with other processes: the live ticks fall on the epoch the
 * wrapper gave plus whole periods, where theirs do.
 */
static void live_align(struct reporter *r, uint64_t now)
{
	uint64_t e = atomic_load_explicit(&r->live_epoch,
					  memory_order_acquire);
	uint64_t p = r->ro->interval_ms * 1000000;

	if (!e || e == r->live_epoch_seen || !p)
		return;
	r->live_epoch_seen = e;
	r->next_live = e + p;
	if (r->next_live <= now)
		r->next_live += (now - r->next_live) / p * p + p;
}

/* --- the reporter thread ---------------------------------------------- */

static void on_stop_signal(struct reporter *r)
{
	struct run_ctx *ctx = r->ctx;
	int sig = sig_stop;

	r->stopping = true;
	r->ro->signal = sig;
	end_status(r);
	error("terminating on signal %d (%s)", sig, signal_name(sig));
	pthread_mutex_lock(&ctx->lock);
	ctx->stop = 1;
	pthread_cond_broadcast(&ctx->cond);
	pthread_mutex_unlock(&ctx->lock);
}

/* Another process of a coordinated run asked every one to stop. */
static void on_peer_stop(struct reporter *r)
{
	struct run_ctx *ctx = r->ctx;

	r->stopping = true;
	pthread_mutex_lock(&ctx->lock);
	ctx->stop = 1;
	pthread_cond_broadcast(&ctx->cond);
	pthread_mutex_unlock(&ctx->lock);
}

/* A job of this run ended with an error (its errmsg is final then). */
static bool job_failed(struct reporter *r)
{
	unsigned int i;

	for (i = 0; i < r->ctx->nr_jobs; i++) {
		struct run_job *rj = &r->ctx->jobs[i];

		if (atomic_load(&rj->state) == WS_DONE &&
		    (rj->res.error || rj->errmsg[0]))
			return true;
	}
	return false;
}

static void scan_iowq(struct run_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_jobs; i++) {
		struct run_job *rj = &ctx->jobs[i];
		int st = atomic_load(&rj->state);

		if (rj->iowq && (st == WS_RAMP || st == WS_RUNNING))
			iowq_scan(rj->iowq);
	}
}

/*
 * The measured phase of the current stonewall segment, for ro->phase:
 * on while some job of it counts (WS_RUNNING) and none ramps. Job
 * states only move forward, so a segment whose jobs are all done (or,
 * at the end, never launched) is over.
 */
static void phase_tick(struct reporter *r, bool final)
{
	struct run_ctx *ctx = r->ctx;

	while (r->ro->phase && r->ph_seg < r->nr_seg) {
		bool running = false, ramping = false, over = true;
		unsigned int i, gid = 0, first = 1;

		for (i = 0; i < ctx->nr_jobs; i++) {
			int st;

			if (r->j[i].seg != r->ph_seg)
				continue;
			if (first)
				gid = ctx->jobs[i].plan->groupid;
			first = 0;
			if (!atomic_load(&r->j[i].launched)) {
				over = over && final;
				continue;
			}
			st = atomic_load(&ctx->jobs[i].state);
			running |= st == WS_RUNNING;
			ramping |= st == WS_RAMP;
			over = over && st == WS_DONE;
		}
		if (over || final) {
			if (r->ph_state)
				r->ro->phase(r->ro->arg, gid, RUN_PHASE_END);
			r->ph_state = 0;
			r->ph_seg++;
			continue;
		}
		if (running && !ramping && r->ph_state != 1) {
			r->ro->phase(r->ro->arg, gid, r->ph_state ?
				     RUN_PHASE_RESUME : RUN_PHASE_BEGIN);
			r->ph_state = 1;
		} else if (ramping && r->ph_state == 1) {
			r->ro->phase(r->ro->arg, gid, RUN_PHASE_PAUSE);
			r->ph_state = 2;
		}
		break;
	}
}

/* Jobs that do not stop are given up, and then the whole run stops. */
static void stuck_check(struct reporter *r, uint64_t now)
{
	struct run_ctx *ctx = r->ctx;
	uint64_t ms = r->ro->stuck_timeout_ms ? r->ro->stuck_timeout_ms :
		      STUCK_TIMEOUT_DEFAULT_MS;
	unsigned int n;

	n = stuck_tick(r->stuck, ctx, now, ms * 1000000, r->stopping ||
		       ctx->stop, sig_hurry);
	if (!n)
		return;
	r->ro->abandoned += n;
	pthread_mutex_lock(&ctx->lock);
	ctx->stop = 1;
	pthread_cond_broadcast(&ctx->cond);
	pthread_mutex_unlock(&ctx->lock);
}

static void *reporter_main(void *arg)
{
	struct reporter *r = arg;
	struct runner_opts *ro = r->ro;
	/* bw/iops logs' windows under 10 ms (log_avg_msec=1): as often */
	uint64_t tick_ns = log_set_tick_ns(ro->logs, TICK_NS), next_iowq = 0;
	sigset_t set;
	bool rep, lv;

	/* the one thread the run's signals are delivered to */
	run_sigset(&set);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	for (;;) {
		int done = atomic_load_explicit(&r->done, memory_order_acquire);
		uint64_t now;

		if (!done) {
			struct timespec ts = { 0, (long)tick_ns };

			/* a signal cuts the sleep short: handled at once */
			nanosleep(&ts, NULL);
		}
		now = clock_now_ns();
		if (sig_stop && !r->stopping)
			on_stop_signal(r);
		if (!done)
			stuck_check(r, now);
		sample_all(r, now);
		if (ro->sync_poll && !done &&
		    ro->sync_poll(ro->sync_arg, r->stopping || r->ctx->stop ||
				  job_failed(r)) && !r->stopping)
			on_peer_stop(r);
		if (r->ss)
			steady_tick(r->ss, now);
		if (now >= next_iowq) {	/* every 100 ms, whatever the tick */
			if (next_iowq)
				scan_iowq(r->ctx);
			next_iowq = now + 10 * TICK_NS;
		}
		phase_tick(r, done);
		if (ro->logs)
			log_set_tick(ro->logs, now);
		if (done)
			break;
		if (ro->status && ro->eta_interval_ms && now >= r->next_eta &&
		    !r->stopping) {
			draw_status(r, now);
			while (r->next_eta <= now)
				r->next_eta += ro->eta_interval_ms * 1000000;
		}
		rep = sig_report ||
		      (ro->status_interval_ms && now >= r->next_status);
		live_align(r, now);
		lv = ro->interval_ms && now >= r->next_live;
		if (rep || lv) {
			sig_report = 0;
			report_now(r, rep, lv, false);
			if (ro->status_interval_ms)
				next_due(&r->next_status, now,
					 ro->status_interval_ms);
			if (ro->interval_ms)
				next_due(&r->next_live, now, ro->interval_ms);
		}
	}
	/* every job is done: the live stream's last, partial intervals */
	report_now(r, false, true, true);
	if (ro->logs)
		log_set_finish(ro->logs);
	end_status(r);
	/* blocked again: a late one waits for the runner's restore */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	return NULL;
}

static int start_job(struct run_job *rj, struct strbuf *err)
{
	pthread_attr_t attr;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	ret = pthread_create(&rj->thread, &attr, worker_main, rj);
	pthread_attr_destroy(&attr);
	if (ret) {
		strbuf_addf(err, "cannot start a thread for job '%s': %s",
			    rj->plan->o.name, strerror(ret));
		return -1;
	}
	atomic_store(&rj->thread_up, 1);
	return 0;
}

/* Index of the job after the stonewall segment that starts at i. */
static unsigned int segment_end(struct run_job *jobs, unsigned int nr,
				unsigned int i)
{
	unsigned int j;

	for (j = i + 1; j < nr; j++)
		if (jobs[j].plan->o.stonewall && jobs[j].plan->clone == 0)
			break;
	return j;
}

static void init_jobs(struct run_ctx *ctx, struct run_job *jobs,
		      unsigned int nr, struct runner_opts *ro)
{
	struct job_plan **plans = xcalloc(nr ? nr : 1, sizeof(*plans));
	const struct engine_ops *ops;
	unsigned int i;

	/* dedupe_global: the working set such jobs share */
	for (i = 0; i < nr; i++)
		plans[i] = jobs[i].plan;
	buffer_dedupe_link(plans, nr);
	free(plans);

	for (i = 0; i < nr; i++) {
		jobs[i].ctx = ctx;
		if (!jobs[i].st)
			jobs[i].st = xcalloc(1, sizeof(*jobs[i].st));
		worker_stats_init(jobs[i].st);
		jobs[i].res.plan = jobs[i].plan;
		jobs[i].res.st = jobs[i].st;
		jobs[i].res.devs = jobs[i].files->devs;
		jobs[i].res.nr_devs = jobs[i].files->nr_devs;
		jobs[i].log = ro->logs && i < ro->logs->nr ? ro->logs->jobs[i] :
			      NULL;
		jobs[i].snap = NULL;
		atomic_store(&jobs[i].snap_done, 0);
		atomic_store(&jobs[i].state, WS_INIT);
		ops = engine_find(jobs[i].plan->o.ioengine);
		if (ops && (ops->flags & ENGINE_F_IOWQ)) {
			jobs[i].iowq = xmalloc(sizeof(*jobs[i].iowq));
			iowq_track_init(jobs[i].iowq, 0);
		}
	}
}

int runner_jobs_check(unsigned int have, unsigned int more,
		      unsigned long max, struct strbuf *err)
{
	unsigned long limit = max && max < RUNNER_MAX_JOBS ? max :
			      RUNNER_MAX_JOBS;

	if ((unsigned long)have + more <= limit)
		return 0;
	strbuf_addstr(err, "option 'numjobs': ");
	if (have)
		strbuf_addf(err, "%u more job instance%s make%s %lu,", more,
			    more == 1 ? "" : "s", more == 1 ? "s" : "",
			    (unsigned long)have + more);
	else
		strbuf_addf(err, "%u job instances are", more);
	if (limit < RUNNER_MAX_JOBS)
		strbuf_addf(err, " over --max-jobs=%lu", limit);
	else
		strbuf_addf(err, " over the limit of %d (each is a thread with its own buffers, files and statistics; fio has the same limit)",
			    RUNNER_MAX_JOBS);
	return -1;
}

/* ramp_size with group_reporting: a byte count per group id, or NULL */
static _Atomic uint64_t *ramp_groups_new(struct run_job *jobs, unsigned int nr)
{
	_Atomic uint64_t *g;
	unsigned int i, max = 0;
	bool any = false;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = jobs[i].plan;

		if (p->o.ramp_size && p->o.group_reporting)
			any = true;
		if (p->groupid > max)
			max = p->groupid;
	}
	if (!any)
		return NULL;
	g = xcalloc(max + 1, sizeof(*g));
	for (i = 0; i <= max; i++)
		atomic_init(&g[i], 0);
	return g;
}

static void run_ctx_init(struct run_ctx *ctx, struct run_job *jobs,
			 unsigned int nr, struct runner_opts *ro)
{
	memset(ctx, 0, sizeof(*ctx));
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_cond_init(&ctx->cond, NULL);
	ctx->jobs = jobs;
	ctx->nr_jobs = nr;
	atomic_store(&ctx->snap_gen, 0);
	init_jobs(ctx, jobs, nr, ro);
	ctx->flows = flow_table_new(jobs, nr);
	ctx->ramp_bytes = ramp_groups_new(jobs, nr);
	current_ctx = ctx;
}

/* The reporter thread's state: each job's segment, the first deadlines */
static void reporter_init(struct reporter *r, struct run_ctx *ctx,
			  struct runner_opts *ro)
{
	struct run_job *jobs = ctx->jobs;
	unsigned int nr = ctx->nr_jobs, i, j, seg;

	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->ro = ro;
	r->j = xcalloc(nr ? nr : 1, sizeof(*r->j));
	r->states = xcalloc(nr + 1, 1);
	r->zero = xcalloc(1, sizeof(*r->zero));
	worker_stats_init(r->zero);
	r->ss = steady_init(jobs, nr);
	r->stuck = stuck_watch_new(nr);
	for (i = 0, seg = 0; i < nr; i = j, seg++)
		for (j = segment_end(jobs, nr, i); i < j; i++)
			r->j[i].seg = seg;
	r->nr_seg = seg;
	r->start_ns = r->last_rate_ns = clock_now_ns();
	r->next_eta = r->start_ns + ro->eta_interval_ms * 1000000;
	r->next_status = r->start_ns + ro->status_interval_ms * 1000000;
	r->next_live = r->start_ns + ro->interval_ms * 1000000;
}

/*
 * Waits for the jobs [i, j) to be done; the threads of those given up
 * (run/stuck.h) are left parked, the others joined.
 */
static void wait_segment(struct run_ctx *ctx, unsigned int i,
			 unsigned int j)
{
	unsigned int k;

	pthread_mutex_lock(&ctx->lock);
	for (k = i; k < j; k++)
		while (atomic_load(&ctx->jobs[k].state) != WS_DONE)
			pthread_cond_wait(&ctx->cond, &ctx->lock);
	pthread_mutex_unlock(&ctx->lock);
	for (k = i; k < j; k++)
		if (!atomic_load(&ctx->jobs[k].abandoned))
			pthread_join(ctx->jobs[k].thread, NULL);
}

/*
 * Starts the jobs of the segment [i, j) and waits for them. A job that
 * cannot start stops the run, and those started before it are waited
 * for. Returns 0, or -1 said in err.
 */
static int run_segment(struct run_ctx *ctx, struct reporter *r,
		       unsigned int i, unsigned int j, struct strbuf *err)
{
	struct run_job *jobs = ctx->jobs;
	uint64_t now = clock_now_ns();
	unsigned int k;
	int ret = 0;

	/* read_iolog of a log an earlier group wrote: read it now */
	for (k = i; k < j; k++)
		iolog_defer_start(jobs[k].plan, jobs[k].files);
	flow_start_jobs(ctx->flows, i, j);
	for (k = i; k < j; k++) {
		r->j[k].launch_ns = now;
		atomic_store(&r->j[k].launched, 1);
		if (start_job(&jobs[k], err)) {
			atomic_store(&r->j[k].launched, 0);
			ctx->stop = 1;
			ret = -1;
			j = k;
			break;
		}
	}
	wait_segment(ctx, i, j);
	return ret;
}

/* What the run held beyond the jobs' results, given back */
static void run_release(struct run_ctx *ctx, struct reporter *r)
{
	struct run_job *jobs = ctx->jobs;
	unsigned int i;

	steady_finish(r->ss);	/* each job's res.ss */
	for (i = 0; i < ctx->nr_jobs; i++) {
		free(jobs[i].snap);
		jobs[i].snap = NULL;
		if (!jobs[i].iowq)
			continue;
		iowq_track_release(jobs[i].iowq);
		free(jobs[i].iowq);
		jobs[i].iowq = NULL;
	}
	current_ctx = NULL;
	free(r->j);
	free(r->states);
	free(r->zero);
	stuck_watch_free(r->stuck);
	/* a parked thread may be a waiter still, never to wake */
	if (!r->ro->abandoned) {
		pthread_mutex_destroy(&ctx->lock);
		pthread_cond_destroy(&ctx->cond);
	}
	flow_table_free(ctx->flows);
	free((void *)ctx->ramp_bytes);
}

int runner_run(struct run_job *jobs, unsigned int nr, struct runner_opts *ro,
	       struct strbuf *err)
{
	struct runner_opts quiet;
	struct saved_signals sv;
	struct run_ctx ctx;
	struct reporter r;
	pthread_t reporter_thread;
	unsigned int i, j;
	int ret = 0, failed = 0;

	if (!ro) {
		memset(&quiet, 0, sizeof(quiet));
		ro = &quiet;
	}
	ro->signal = 0;
	ro->abandoned = 0;
	run_ctx_init(&ctx, jobs, nr, ro);
	reporter_init(&r, &ctx, ro);

	signals_begin(&sv);
	if (pthread_create(&reporter_thread, NULL, reporter_main, &r)) {
		signals_end(&sv);
		strbuf_addstr(err, "cannot start the reporter thread");
		ret = -1;
		goto out;
	}

	/* stonewall: everything before a stonewalled job finishes first */
	for (i = 0; i < nr && !ctx.stop && !sig_stop; i = j) {
		j = segment_end(jobs, nr, i);
		/* in step with other processes: they start it together */
		if (ro->segment_start &&
		    ro->segment_start(ro->sync_arg, r.j[i].seg)) {
			ctx.stop = 1;
			break;
		}
		if (!i && ro->interval_epoch)
			atomic_store_explicit(&r.live_epoch,
					      ro->interval_epoch(ro->sync_arg),
					      memory_order_release);
		ret = run_segment(&ctx, &r, i, j, err);
		if (ret < 0)
			break;
	}

	atomic_store_explicit(&r.done, 1, memory_order_release);
	pthread_join(reporter_thread, NULL);
	signals_end(&sv);
	for (i = 0; i < nr; i++)
		if (jobs[i].res.error || jobs[i].errmsg[0])
			failed = 1;
out:
	run_release(&ctx, &r);
	if (ret < 0)
		return -1;
	return failed;
}

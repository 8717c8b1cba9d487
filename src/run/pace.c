/* SPDX-License-Identifier: MIT */
/*
 * Pacing: rate schedules, think time, flows and minimum-rate checks (see
 * pace.h). Everything here runs only for jobs that pace, before each of
 * their I/Os; the clock is read only to wait.
 */
#include "run/pace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "machine/clock.h"
#include "opt/pace_opts.h"
#include "run/flow.h"
#include "util/log.h"
#include "workload/workload.h"

#define NSEC 1000000000ull
/* rate_min: the first seconds are not checked (fio's settle period) */
#define SETTLE_NS (2 * NSEC)
/* long waits sleep in pieces, so that a stop is seen soon */
#define SLEEP_PIECE_NS (50 * 1000 * 1000ull)
/* spin at least this long at the end of a wait, beyond the wake-up lag */
#define SPIN_NS 5000ull
#define SLACK_MAX_NS 1000000ull
/* a flow member held back this many times in a row sleeps, not yields */
#define FLOW_YIELDS 64
#define FLOW_NAP_NS 100000ull
#define NO_INTENT UINT64_MAX

struct pace_dir {
	uint64_t bps;		/* cap, bytes/s (by_count: I/Os/s); 0: none */
	uint64_t base;		/* the schedule's start */
	uint64_t bytes;		/* issued since base (I/Os by_count) */
	bool by_count;		/* a replay's rate_iops (pace_rate_by_count) */
	uint64_t next;		/* when the next I/O is due */
	uint64_t min_bps;	/* rate_min */
	uint64_t min_iops;	/* rate_iops_min */
	uint64_t mark_bytes;	/* completed at the last check */
	uint64_t mark_ios;
	bool checked;		/* has a minimum and is expected to run */
	/* rate_process=poisson: fio's gaps, per I/O whatever its size */
	struct prng_taus rnd;
	uint64_t mean_us;
};

struct pace {
	const struct job_plan *p;
	struct worker_stats *st;
	struct workload *wl;
	int (*quiesce)(void *arg);
	void *arg;
	const volatile int *stop, *job_stop;
	uint64_t end_ns;
	char *errmsg;
	size_t errmsg_size;

	/* rates */
	bool rated;		/* some direction has a cap */
	bool poisson;
	bool hint;		/* mixed: take the direction that is due */
	struct pace_dir dir[DDIR_RWDIR_CNT];
	uint64_t *intended;	/* per io_u: its due time, or NO_INTENT */
	uint64_t slack_ns;	/* how late sleeps wake, smoothed */

	/* think time */
	uint64_t think_ns, spin_ns, iotime_ns;
	uint64_t blocks;	/* UINT64_MAX: not by count */
	bool by_issue;
	bool think_shifts;	/* rate_ignore_thinktime */
	unsigned int cycles;	/* thinkcycles */
	uint64_t since_issue;	/* I/Os issued since the last think */
	uint64_t done_mark;	/* I/Os completed when the last think began */
	uint64_t done_now;	/* completed, as think_due() last read it */
	uint64_t io_start;	/* the current stretch of I/O began */

	/* minimum rates */
	bool checks;
	uint64_t cycle_ns;
	uint64_t next_check;
	uint64_t last_check;
	bool have_marks;

	struct flow_member *flow;	/* NULL: in no flow */
	unsigned int flow_sleep_us;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * thinkcycles (fio 3.42): fio spins a loop of n CPU relax instructions
 * (x86's pause, some 20 ns here, not a cycle) after each read, write or
 * trim it issues; the same instruction n times spends the same CPU time.
 * Once per I/O, before it: the count, not the place, is what costs.
 */
static void spin_cycles(unsigned int n)
{
	while (n--) {
		cpu_relax();
		__asm__ __volatile__("" ::: "memory");
	}
}

static inline bool stopped(const struct pace *pc)
{
	return *pc->stop || (pc->job_stop && *pc->job_stop);
}

static void nap_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC),
		.tv_nsec = (long)(ns % NSEC),
	};

	nanosleep(&ts, NULL);
}

uint64_t pace_linear_offset(uint64_t bytes, uint64_t bps)
{
	return (uint64_t)((unsigned __int128)bytes * NSEC / bps);
}

uint64_t pace_exp_gap(struct prng_taus *r, uint64_t mean_us)
{
	/* u in (0, 1]: the log is finite; fio's float log, whole us */
	double u = (prng_taus_next(r) + 1.0) / 4294967296.0;

	return (uint64_t)((double)mean_us * -logf((float)u)) * 1000;
}

/*
 * Sleeps until target (ns, the worker clock), the last stretch spinning
 * so that the wake-up lag of the timer does not make the I/O late.
 * Returns 1 when the run stops or the job's runtime ends first.
 */
static int sleep_until(struct pace *pc, uint64_t target, uint64_t *now)
{
	uint64_t t = *now;

	/*
	 * A wait spun whole because of the slack: the slack decays, so that
	 * one late wake-up (a preemption) does not keep every later wait
	 * spinning; the next nap measures it again.
	 */
	if (target > t && target - t > SPIN_NS &&
	    target - t <= pc->slack_ns + SPIN_NS)
		pc->slack_ns -= pc->slack_ns / 8;
	for (;;) {
		uint64_t rem, want, late;

		if (stopped(pc) || (pc->end_ns && t >= pc->end_ns)) {
			*now = t;
			return 1;
		}
		if (t >= target)
			break;
		rem = target - t;
		if (pc->end_ns && pc->end_ns - t < rem)
			rem = pc->end_ns - t;
		if (rem <= pc->slack_ns + SPIN_NS) {
			cpu_relax();
			t = clock_now_ns();
			continue;
		}
		want = rem - pc->slack_ns - SPIN_NS;
		if (want > SLEEP_PIECE_NS)
			want = SLEEP_PIECE_NS;
		nap_ns(want);
		late = clock_now_ns();
		/* how late the timer woke us: the spin margin follows it */
		late = late > t + want ? late - (t + want) : 0;
		if (late > SLACK_MAX_NS)
			late = SLACK_MAX_NS;
		pc->slack_ns = (pc->slack_ns * 7 + late) / 8;
		t = clock_now_ns();
	}
	*now = t;
	return 0;
}

/* In-flight I/O completes before the job waits (fio's quiesce). */
static int quiesce(struct pace *pc, uint64_t *now)
{
	if (pc->quiesce && pc->quiesce(pc->arg))
		return 1;
	*now = clock_now_ns();
	return 0;
}

static uint64_t completed(const struct pace *pc)
{
	const struct worker_stats *st = pc->st;

	return st->dir[DDIR_READ].ios + st->dir[DDIR_WRITE].ios +
	       st->dir[DDIR_TRIM].ios;
}

static bool think_due(struct pace *pc, uint64_t now)
{
	uint64_t done;

	if (pc->iotime_ns && now - pc->io_start >= pc->iotime_ns)
		return true;
	if (pc->blocks == UINT64_MAX)
		return false;
	if (pc->by_issue)
		return pc->since_issue >= pc->blocks;
	done = completed(pc);
	/* the stats start over at the end of ramp_time */
	if (done < pc->done_mark)
		pc->done_mark = 0;
	pc->done_now = done;
	return done - pc->done_mark >= pc->blocks;
}

/*
 * thinktime: the I/O in flight completes, then spin thinktime_spin of
 * it and sleep the rest. The next block group counts from the blocks
 * completed when the think began, as fio's does: what the quiesce
 * completes counts towards it, so with thinktime_blocks below iodepth
 * the queue holds no more than thinktime_blocks I/Os between thinks
 * (the HOWTO: thinktime_blocks caps the queue depth).
 */
static int think(struct pace *pc, uint64_t *now)
{
	uint64_t t0, spin_end;
	unsigned int d;

	pc->done_mark = pc->done_now;
	if (quiesce(pc, now))
		return 1;
	t0 = *now;
	spin_end = t0 + pc->spin_ns;
	while (*now < spin_end) {
		if (stopped(pc) || (pc->end_ns && *now >= pc->end_ns))
			return 1;
		cpu_relax();
		*now = clock_now_ns();
	}
	if (pc->think_ns > pc->spin_ns &&
	    sleep_until(pc, t0 + pc->think_ns, now))
		return 1;
	/* rate_ignore_thinktime: the schedule moves on by the pause */
	if (pc->think_shifts)
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			pc->dir[d].base += *now - t0;
			pc->dir[d].next += *now - t0;
		}
	pc->since_issue = 0;
	pc->io_start = *now;
	return 0;
}

static int flow_wait(struct pace *pc, uint64_t *now)
{
	while (!flow_try_issue(pc->flow)) {
		if (stopped(pc))
			return 1;
		if (pc->flow_sleep_us) {
			if (quiesce(pc, now))
				return 1;
			nap_ns((uint64_t)pc->flow_sleep_us * 1000);
		} else if (pc->flow->held < FLOW_YIELDS) {
			sched_yield();
		} else {
			/* the others are slow (paced, stalled): don't spin */
			nap_ns(FLOW_NAP_NS);
		}
		*now = clock_now_ns();
		if (pc->end_ns && *now >= pc->end_ns)
			return 1;
	}
	return 0;
}

/*
 * Mixed jobs: the next I/O goes to a direction that is due. Both due
 * (or behind): rwmixread draws, as without a rate; one due: that one;
 * neither: the one due first, which the next call waits for, and when
 * both are due at the same time rwmixread draws, as fio keeps its draw
 * (equal rates over equal sizes: a fixed read-write alternation would
 * put every read in one file and every write in the other of two files
 * served round robin).
 */
static void pick_direction(struct pace *pc, uint64_t now)
{
	const struct pace_dir *r = &pc->dir[DDIR_READ];
	const struct pace_dir *w = &pc->dir[DDIR_WRITE];
	bool r_due = !r->bps || r->next <= now;
	bool w_due = !w->bps || w->next <= now;
	int want;

	if (r_due && w_due)
		want = -1;
	else if (r_due || w_due)
		want = r_due ? DDIR_READ : DDIR_WRITE;
	else if (r->next != w->next)
		want = r->next < w->next ? DDIR_READ : DDIR_WRITE;
	else
		want = -1;
	workload_want_ddir(pc->wl, want);
}

static int rate_wait(struct pace *pc, struct io_u *u, uint64_t *now)
{
	struct pace_dir *pd = &pc->dir[u->ddir];
	uint64_t n;

	if (!pd->bps) {
		pc->intended[u->index] = NO_INTENT;
		goto pick;
	}
	if (pd->next > *now &&
	    (quiesce(pc, now) || sleep_until(pc, pd->next, now)))
		return 1;
	pc->intended[u->index] = pd->next;
	n = pd->by_count ? 1 : u->len;
	pd->bytes += n;
	if (pc->poisson)
		pd->next += pace_exp_gap(&pd->rnd, pd->mean_us);
	else
		pd->next = pd->base + pace_linear_offset(pd->bytes, pd->bps);
pick:
	if (pc->hint)
		pick_direction(pc, *now);
	return 0;
}

static bool dir_expected(const struct job_plan *p, unsigned int d);

/* One direction's minimum over the window that just ended. */
static int check_dir(struct pace *pc, unsigned int d, uint64_t span)
{
	static const char *const dn[] = { "read", "write", "trim" };
	struct pace_dir *pd = &pc->dir[d];
	const struct dir_stats *ds = &pc->st->dir[d];
	uint64_t bps = (uint64_t)((unsigned __int128)(ds->bytes -
						      pd->mark_bytes) *
				  NSEC / span);
	uint64_t iops = (uint64_t)((unsigned __int128)(ds->ios -
						       pd->mark_ios) *
				   NSEC / span);

	if (pd->min_bps && bps < pd->min_bps)
		snprintf(pc->errmsg, pc->errmsg_size,
			 "job '%s': %s rate_min=%" PRIu64 "B/s not met, got %"
			 PRIu64 "B/s", pc->p->o.name, dn[d], pd->min_bps, bps);
	else if (pd->min_iops && iops < pd->min_iops)
		snprintf(pc->errmsg, pc->errmsg_size,
			 "job '%s': %s rate_iops_min=%" PRIu64 " not met, got %"
			 PRIu64 " IOPS", pc->p->o.name, dn[d], pd->min_iops,
			 iops);
	else
		return 0;
	pc->st->error = EIO;
	return 1;
}

/*
 * rate_min, rate_iops_min: after the settle period, every rate_cycle,
 * each checked direction's completed bytes and I/Os over the cycle.
 */
static int check_min(struct pace *pc, uint64_t now)
{
	uint64_t span = now - pc->last_check;
	bool reset = false;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (pc->dir[d].checked &&
		    pc->st->dir[d].bytes < pc->dir[d].mark_bytes)
			reset = true;	/* the stats started over */
	if (pc->have_marks && !reset && span)
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			if (pc->dir[d].checked && check_dir(pc, d, span))
				return 1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		pc->dir[d].mark_bytes = pc->st->dir[d].bytes;
		pc->dir[d].mark_ios = pc->st->dir[d].ios;
	}
	pc->have_marks = true;
	pc->last_check = now;
	pc->next_check = now + pc->cycle_ns;
	return 0;
}

int pace_io(struct pace *pc, struct io_u *u, uint64_t *now)
{
	/*
	 * A replayed log's sync or datasync: no rate, think time or flow
	 * counts it (they count data), and dir[] has no slot for it
	 */
	if (unlikely(u->ddir >= DDIR_RWDIR_CNT)) {
		pc->intended[u->index] = NO_INTENT;
		return 0;
	}
	if (pc->cycles)
		spin_cycles(pc->cycles);
	if (pc->think_ns && think_due(pc, *now) && think(pc, now))
		return 1;
	if (pc->flow && flow_wait(pc, now))
		return 1;
	if (pc->rated && rate_wait(pc, u, now))
		return 1;
	if (pc->checks && *now >= pc->next_check && check_min(pc, *now))
		return 1;
	pc->since_issue++;
	return 0;
}

/*
 * fio asks for one more I/O of a pass that ran out short of its budget:
 * it picks the direction and waits for its rate before it finds no
 * block (size=64K bs=64000 rate=1m: one write, then 61 ms). The wait is
 * until the earliest due time of the directions the job moves, when all
 * of them are rated; the schedule itself stays.
 */
int pace_tail(struct pace *pc, uint64_t *now)
{
	uint64_t due = UINT64_MAX;
	unsigned int d;

	if (!pc->rated)
		return 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dir_expected(pc->p, d))
			continue;
		if (!pc->dir[d].bps)
			return 0;
		if (pc->dir[d].next < due)
			due = pc->dir[d].next;
	}
	if (due == UINT64_MAX || due <= *now)
		return 0;
	return quiesce(pc, now) || sleep_until(pc, due, now);
}

void pace_skip(struct pace *pc, const struct io_u *u)
{
	pc->intended[u->index] = NO_INTENT;
}

void pace_done(struct pace *pc, const struct io_u *u, uint64_t now)
{
	uint64_t it = pc->intended[u->index], v;

	if (it == NO_INTENT)
		return;
	v = now > it ? now - it : 0;
	moments_add(&pc->st->co_lat[u->ddir], v);
	hist_add(&pc->st->co_hist[u->ddir], v);
}

bool pace_records(const struct pace *pc)
{
	return pc && pc->rated;
}

/* Whether direction d is expected to move I/O (for rate_min checks). */
static bool dir_expected(const struct job_plan *p, unsigned int d)
{
	const struct job_options *o = &p->o;

	if (!ddir_used(p, (enum ddir)d))
		return false;
	if (o->rw != RW_RW && o->rw != RW_RANDRW)
		return true;
	return d == DDIR_READ ? o->rwmixread > 0 : o->rwmixread < 100;
}

/*
 * rate_process=poisson as fio: each direction has its own stream of
 * gaps (fio's seed and generator for it, whatever random_generator
 * says), and a gap is an I/O's, of mean 10^6 / IOPS whole microseconds,
 * IOPS being the rate over the direction's smallest block: a job of
 * mixed sizes issues that many I/Os a second, not that many bytes.
 */
static void poisson_init(struct pace *pc, unsigned int d)
{
	static const unsigned int stream[DDIR_RWDIR_CNT] = {
		FIO_STREAM_POISSON_READ, FIO_STREAM_POISSON_WRITE,
		FIO_STREAM_POISSON_TRIM,
	};
	struct pace_dir *pd = &pc->dir[d];
	uint64_t bs = pc->p->dir_min_bs[d], iops;

	if (!pd->bps || pc->p->o.rate_process != RATE_PROCESS_POISSON)
		return;
	iops = bs ? pd->bps / bs : pd->bps;
	pd->mean_us = 1000000 / (iops ? iops : 1);
	prng_taus_seed_fio(&pd->rnd, plan_fio_seed(pc->p, stream[d]));
}

static void init_rates(struct pace *pc, const struct pace_env *env)
{
	const struct job_options *o = &pc->p->o;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct pace_dir *pd = &pc->dir[d];

		pd->by_count = pace_rate_by_count(pc->p, d);
		pd->bps = pd->by_count ? o->rate_iops[d] :
			  pace_rate_bps(pc->p, d);
		pd->base = pd->next = env->now;
		pd->min_bps = o->rate_min[d];
		pd->min_iops = o->rate_iops_min[d];
		pd->checked = (pd->min_bps || pd->min_iops) &&
			      dir_expected(pc->p, d);
		if (pd->bps && ddir_used(pc->p, (enum ddir)d))
			pc->rated = true;
		if (pd->checked)
			pc->checks = true;
		poisson_init(pc, d);
	}
	pc->poisson = o->rate_process == RATE_PROCESS_POISSON;
	pc->hint = pc->rated && (o->rw == RW_RW || o->rw == RW_RANDRW) &&
		   o->rwmixread > 0 && o->rwmixread < 100;
	pc->cycle_ns = (uint64_t)(o->rate_cycle_ms ? o->rate_cycle_ms : 1000) *
		       1000000;
	pc->next_check = env->count_ns + SETTLE_NS;
	pc->last_check = env->count_ns;
	pc->slack_ns = 50000;
}

static void init_think(struct pace *pc, const struct pace_env *env)
{
	const struct job_options *o = &pc->p->o;

	pc->think_ns = o->thinktime_us * 1000;
	pc->spin_ns = o->thinktime_spin_us * 1000;
	pc->iotime_ns = o->thinktime_iotime_us * 1000;
	pc->blocks = o->thinktime_blocks ? o->thinktime_blocks : 1;
	/* thinktime_iotime alone: think by time only (fio) */
	if (pc->iotime_ns && !opt_is_set(o, "thinktime_blocks"))
		pc->blocks = UINT64_MAX;
	pc->by_issue = o->thinktime_blocks_type == THINKTIME_ISSUE;
	pc->think_shifts = o->rate_ignore_thinktime;
	pc->io_start = env->now;
	pc->cycles = o->thinkcycles;
}

int pace_init(struct pace **out, const struct pace_env *env)
{
	const struct job_options *o = &env->plan->o;
	struct pace *pc;

	*out = NULL;
	if (!pace_wanted(env->plan))
		return 0;
	pc = xcalloc(1, sizeof(*pc));
	pc->p = env->plan;
	pc->st = env->st;
	pc->wl = env->wl;
	pc->quiesce = env->quiesce;
	pc->arg = env->arg;
	pc->stop = env->stop;
	pc->job_stop = env->job_stop;
	pc->end_ns = env->end_ns;
	pc->errmsg = env->errmsg;
	pc->errmsg_size = env->errmsg_size;
	pc->intended = xcalloc(env->nr_io_u ? env->nr_io_u : 1,
			       sizeof(*pc->intended));
	init_rates(pc, env);
	init_think(pc, env);
	pc->flow = flow_member_of(env->flows, env->job);
	flow_job_start(env->flows, env->job);
	pc->flow_sleep_us = o->flow_sleep_us;
	/* waits end on time: a 1 us timer slack instead of the 50 us */
	if (pc->rated || pc->think_ns)
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	*out = pc;
	return 0;
}

void pace_free(struct pace *pc)
{
	if (!pc)
		return;
	free(pc->intended);
	free(pc);
}

void pace_set_end(struct pace *pc, uint64_t end_ns)
{
	if (pc)
		pc->end_ns = end_ns;
}

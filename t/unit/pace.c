/* SPDX-License-Identifier: MIT */
/*
 * Pacing (src/run/pace.[ch], src/run/flow.[ch]): the schedule's
 * arithmetic, the Poisson generator, the flow rule and its table, and
 * pace_io() on a small job: spacing, intended issue times, think time,
 * rate_ignore_thinktime and the minimum-rate check.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "machine/clock.h"
#include "opt/plan.h"
#include "run/flow.h"
#include "run/pace.h"
#include "run/worker.h"
#include "stats/stats.h"
#include "tap.h"
#include "workload_fx.h"
#include "workload/workload_int.h"

#define MS 1000000ull

static int near(uint64_t a, uint64_t b, uint64_t slack)
{
	return a <= b + slack && b <= a + slack;
}

static void test_linear(void)
{
	ok(pace_linear_offset(0, 4096) == 0, "linear: the first I/O at once");
	ok(pace_linear_offset(4096, 4096 * 500) == 2 * MS,
	   "linear: 4 KiB at 500 x 4 KiB/s is 2 ms");
	ok(pace_linear_offset(1ull << 40, 1ull << 20) ==
	   (1ull << 20) * 1000000000ull,
	   "linear: 1 TiB at 1 MiB/s, no overflow");
	ok(pace_linear_offset(3, 1000000000) == 3,
	   "linear: nanosecond resolution");
}

/* I/Os due within 1 s at 500 IOPS: the first at once, then the gaps */
static unsigned int due_in_1s(uint64_t seed, uint64_t mean_us)
{
	struct prng_taus r;
	uint64_t t = 0;
	unsigned int n = 1;

	prng_taus_seed_fio(&r, seed);
	while ((t += pace_exp_gap(&r, mean_us)) <= 1000000000)
		n++;
	return n;
}

static void test_poisson(void)
{
	struct prng_taus r;
	const unsigned int n = 200000;
	const double mean = 2e6;	/* 2 ms: 500 IOPS */
	double sum = 0, sumsq = 0, m, sd;
	unsigned int i, long_gaps = 0, short_gaps = 0;

	/* fio 3.33, 1 s of --rate_iops=500 --rate_process=poisson */
	ok(due_in_1s(prng_fio_seed(0x89, 1, 15), 2000) == 467,
	   "poisson: fio's reads, 467 (fio: 467 or 468)");
	ok(due_in_1s(prng_fio_seed(0x89, 1, 17), 2000) == 521,
	   "poisson: fio's writes, 521 (fio: 521 or 522)");
	prng_taus_seed(&r, 42);
	for (i = 0; i < n; i++) {
		double g = (double)pace_exp_gap(&r, 2000);

		sum += g;
		sumsq += g * g;
		long_gaps += g > 3 * mean;
		short_gaps += g < mean / 10;
	}
	m = sum / n;
	sd = sqrt(sumsq / n - m * m);
	ok(fabs(m - mean) < mean * 0.01, "poisson: mean gap %.0f ns (want "
	   "%.0f within 1%%)", m, mean);
	/* an exponential distribution's stdev is its mean */
	ok(fabs(sd - mean) < mean * 0.02, "poisson: stdev %.0f ns, the mean",
	   sd);
	/* P(gap > 3 mean) = e^-3, P(gap < mean / 10) = 1 - e^-0.1 */
	ok(fabs((double)long_gaps / n - exp(-3)) < 0.003,
	   "poisson: %.4f of gaps above 3 means (e^-3 = %.4f)",
	   (double)long_gaps / n, exp(-3));
	ok(fabs((double)short_gaps / n - (1 - exp(-0.1))) < 0.003,
	   "poisson: %.4f of gaps below a tenth of the mean",
	   (double)short_gaps / n);
}

static void test_flow_rule(void)
{
	/* three members 3:2:1, each trying in turn: the rule's ratio */
	uint64_t w[3] = { 3, 2, 1 }, c[3] = { 0 }, total = 0;
	unsigned int round, k;

	for (round = 0; round < 60000; round++) {
		k = round % 3;
		if (flow_share_ok(c[k], w[k], total, 6)) {
			c[k]++;
			total++;
		}
	}
	/* the boundary: one I/O either way */
	ok(near(c[0], 3 * c[2], 3) && near(c[1], 2 * c[2], 2) && c[2] > 1000,
	   "flow rule: 3:2:1 gives %llu:%llu:%llu",
	   (unsigned long long)c[0], (unsigned long long)c[1],
	   (unsigned long long)c[2]);
	ok(flow_share_ok(0, 1, 0, 1), "flow rule: an empty flow lets go");
}

/* A plan from "name=value" options, for a job table or pace_init(). */
static void make_plan(struct job_plan *p, const char *const *opts)
{
	struct job_options o;
	struct strbuf err = STRBUF_INIT;
	unsigned int i;

	opt_defaults(&o);
	for (i = 0; opts[i]; i += 2)
		if (opt_set(&o, opts[i], opts[i + 1], 1024, &err))
			diag("%s", strbuf_str(&err));
	if (plan_build(p, &o, "test", 1, &err))
		diag("%s", strbuf_str(&err));
	job_options_release(&o);
	strbuf_release(&err);
}

static void test_flow_table(void)
{
	static const char *const a[] = { "name", "a", "flow", "2",
					 "flow_id", "7", NULL };
	static const char *const b[] = { "name", "b", "flow", "1",
					 "flow_id", "7", NULL };
	static const char *const c[] = { "name", "c", NULL };
	struct job_plan plans[3];
	struct run_job jobs[3];
	struct flow_table *t;
	struct flow_member *ma, *mb;
	unsigned int i, na = 0, nb = 0;

	memset(jobs, 0, sizeof(jobs));
	make_plan(&plans[0], a);
	make_plan(&plans[1], b);
	make_plan(&plans[2], c);
	for (i = 0; i < 3; i++)
		jobs[i].plan = &plans[i];
	ok(flow_table_new(&jobs[2], 1) == NULL,
	   "flow table: none without a flow weight");
	t = flow_table_new(jobs, 3);
	ma = flow_member_of(t, 0);
	mb = flow_member_of(t, 1);
	ok(t && ma && mb && !flow_member_of(t, 2),
	   "flow table: members a and b, not c");
	flow_start_jobs(t, 0, 3);
	for (i = 0; i < 3000; i++) {
		na += flow_try_issue(ma);
		nb += flow_try_issue(mb);
	}
	ok(near(na, 2 * nb, 2), "flow table: a and b issue %u:%u (2:1)", na,
	   nb);
	/* b is done: a alone is never held back */
	flow_job_done(t, 1);
	flow_job_done(t, 1);
	for (i = 0, na = 0; i < 1000; i++)
		na += flow_try_issue(ma);
	ok(na == 1000, "flow table: after b leaves, a issues every time "
	   "(%u of 1000)", na);
	flow_table_free(t);
	for (i = 0; i < 3; i++)
		plan_release(&plans[i]);
}

struct pace_job {
	struct job_plan plan;
	struct worker_stats st;
	struct pace *pc;
	char errmsg[256];
	int stop;
	uint64_t t0;	/* the pace's start: a rate's schedule counts from it */
};

static void pace_job_start(struct pace_job *j, const char *const *opts)
{
	struct pace_env env;

	memset(j, 0, sizeof(*j));
	make_plan(&j->plan, opts);
	worker_stats_init(&j->st);
	memset(&env, 0, sizeof(env));
	env.plan = &j->plan;
	env.st = &j->st;
	env.nr_io_u = 1;
	env.stop = &j->stop;
	env.now = env.count_ns = j->t0 = clock_now_ns();
	env.errmsg = j->errmsg;
	env.errmsg_size = sizeof(j->errmsg);
	pace_init(&j->pc, &env);
}

static void pace_job_end(struct pace_job *j)
{
	pace_free(j->pc);
	plan_release(&j->plan);
}

/* n I/Os of 4 KiB through pace_io(), completing at once; elapsed ns. */
static uint64_t run_ios(struct pace_job *j, unsigned int n)
{
	struct io_u u;
	uint64_t t0 = clock_now_ns(), now = t0;
	unsigned int i;

	memset(&u, 0, sizeof(u));
	u.len = 4096;
	u.ddir = DDIR_READ;
	for (i = 0; i < n; i++) {
		if (pace_io(j->pc, &u, &now))
			break;
		now = clock_now_ns();
		j->st.dir[DDIR_READ].ios++;
		j->st.dir[DDIR_READ].bytes += u.len;
		pace_done(j->pc, &u, now);
	}
	return clock_now_ns() - t0;
}

static void test_pace_rate(void)
{
	static const char *const opts[] = { "name", "r", "rate_iops", "1000",
					    NULL };
	static const char *const none[] = { "name", "n", NULL };
	struct pace_job j;
	uint64_t ns;

	pace_job_start(&j, none);
	ok(j.pc == NULL, "pace: none for a job without rate, think or flow");
	pace_job_end(&j);

	pace_job_start(&j, opts);
	ok(j.pc && pace_records(j.pc), "pace: a rated job records co_lat");
	run_ios(&j, 51);
	/*
	 * 50 gaps of 1 ms from the schedule's start (pace_init), not from
	 * run_ios()'s: time spent in between (a sanitizer under load) is
	 * not owed again. The upper bound only catches a runaway.
	 */
	ns = clock_now_ns() - j.t0;
	ok(ns >= 50 * MS && ns < 2000 * MS, "pace: 51 I/Os at 1000 IOPS "
	   "take %.1f ms from the start (>= 50)", ns / 1e6);
	ok(j.st.co_lat[DDIR_READ].n == 51, "pace: a co_lat sample per I/O");
	pace_job_end(&j);
}

static void test_pace_think(void)
{
	static const char *const think[] = { "name", "t", "thinktime",
					     "10ms", "thinktime_blocks", "5",
					     NULL };
	static const char *const ign[] = { "name", "i", "rate_iops", "1000",
					   "thinktime", "30ms",
					   "thinktime_blocks", "10",
					   "rate_ignore_thinktime", "1", NULL };
	struct pace_job j;
	uint64_t ns;

	pace_job_start(&j, think);
	ns = run_ios(&j, 20);
	/* thinks after I/O 5, 10 and 15 */
	ok(ns >= 30 * MS && ns < 2000 * MS, "think: 20 I/Os, a 10 ms think "
	   "every 5, take %.1f ms (>= 30)", ns / 1e6);
	pace_job_end(&j);

	/*
	 * After a 30 ms think, an ignoring job goes on at 1 ms a step: the
	 * next I/Os are not late. Without it they would be 30 ms late.
	 */
	pace_job_start(&j, ign);
	run_ios(&j, 15);
	ok(j.st.co_lat[DDIR_READ].max < 20 * MS,
	   "rate_ignore_thinktime: no I/O late by the think time (worst "
	   "%.1f ms)", j.st.co_lat[DDIR_READ].max / 1e6);
	pace_job_end(&j);
}

static void test_pace_min(void)
{
	static const char *const opts[] = { "name", "m", "thinktime", "20ms",
					    "rate_iops_min", "200",
					    "rate_cycle", "100", NULL };
	struct pace_job j;
	uint64_t ns;

	pace_job_start(&j, opts);
	/* 50 I/Os a second: the check after the settle period fails it */
	ns = run_ios(&j, 1000);
	ok(j.st.error == 5 && strstr(j.errmsg, "rate_iops_min=200 not met"),
	   "rate_iops_min: the job fails (error %d, '%s')", j.st.error,
	   j.errmsg);
	ok(ns >= 2000 * MS && ns < 4000 * MS,
	   "rate_iops_min: after the settle period and a cycle (%.2f s)",
	   ns / 1e9);
	pace_job_end(&j);
}

/*
 * A mixed job with the same rate both ways: after a read and a write
 * the two directions fall due at the same instant, and that tie is
 * rwmixread's to draw (-1), not a fixed turn (a fixed turn put every
 * read in one file and every write in the other of two files served
 * round robin: generated job 9524).
 */
static void test_pace_tie(void)
{
	struct fx f;
	struct pace_env env;
	struct pace *pc;
	struct worker_stats st;
	struct io_u u;
	uint64_t now;
	int stop = 0;
	char errmsg[256];

	if (build(&f, "rw=rw bs=512 rate=1m", 64 * KB, 2)) {
		ok(0, "pace tie: the workload builds: %s", strbuf_str(&f.err));
		return;
	}
	worker_stats_init(&st);
	memset(&env, 0, sizeof(env));
	env.plan = &f.p;
	env.st = &st;
	env.wl = f.w;
	env.nr_io_u = 1;
	env.stop = &stop;
	env.now = env.count_ns = clock_now_ns();
	env.errmsg = errmsg;
	env.errmsg_size = sizeof(errmsg);
	pace_init(&pc, &env);
	memset(&u, 0, sizeof(u));
	u.len = 512;
	now = env.now;
	u.ddir = DDIR_READ;
	pace_io(pc, &u, &now);
	ok(f.w->want_ddir == DDIR_WRITE,
	   "pace tie: after a read, the write that is due (%d)",
	   f.w->want_ddir);
	u.ddir = DDIR_WRITE;
	pace_io(pc, &u, &now);
	ok(f.w->want_ddir == -1,
	   "pace tie: both next at the same time: rwmixread draws (%d)",
	   f.w->want_ddir);
	pace_free(pc);
	fx_free(&f);
}

int main(void)
{
	test_linear();
	test_poisson();
	test_flow_rule();
	test_flow_table();
	test_pace_rate();
	test_pace_think();
	test_pace_min();
	test_pace_tie();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * latency_target's depth search (src/run/lattarget.c) against a model
 * device whose latency grows with the queue depth: the depth it settles
 * on, the windows it takes, io_u parking, latency_run, a target nothing
 * meets, the percentile, and max_latency.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "run/lattarget.h"
#include "run/worker.h"
#include "stats/stats.h"
#include "tap.h"

#define US 1000ull
#define MS 1000000ull

static void make_plan(struct job_plan *p, const char *const *opts)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	unsigned int i;

	opt_defaults(&o);
	o.name = strdup("lt");
	for (i = 0; opts[i]; i += 2)
		if (opt_set(&o, opts[i], opts[i + 1], 1024, &err))
			diag("%s", strbuf_str(&err));
	if (plan_build(p, &o, "test", 1, &err))
		diag("%s", strbuf_str(&err));
	job_options_release(&o);
	strbuf_release(&err);
}

struct model {
	struct lat_target *lt;
	struct worker_stats *st;
	struct run_job rj;
	unsigned int freel[64], nr_free, depth;
	uint64_t now;
	unsigned int windows, drains, resets;
	unsigned int slow_pct;	/* this share of I/Os at 10x latency */
};

/* n I/Os at depth qd: each takes qd * 100 us, slow_pct of them 10x. */
static void run_window(struct model *m, unsigned int n)
{
	unsigned int qd = m->depth - m->lt->nr_parked, i;
	struct dir_stats *ds = &m->st->dir[DDIR_READ];

	for (i = 0; i < n; i++) {
		uint64_t lat = qd * 100 * US;

		if (i * 100 < m->slow_pct * n)
			lat *= 10;
		ds->ios++;
		moments_add(&ds->lat, lat);
		hist_add(&ds->lat_hist, lat);
	}
	m->now += 100 * MS;
}

/* Windows until the job stops or max windows; returns the last LT_ bits. */
static int drive(struct model *m, unsigned int max)
{
	int act = 0;

	while (m->windows < max) {
		run_window(m, 1000);
		m->windows++;
		act = lat_target_check(m->lt, &m->rj, m->st, m->now);
		if (act & LT_STOP)
			break;
		if (!act)
			continue;
		if (act & LT_DRAIN)
			m->drains++;
		if (act & LT_RESET) {
			m->resets++;
			worker_stats_init(m->st);
		}
		lat_target_apply(m->lt, m->st, m->now, m->freel, &m->nr_free);
		if (m->nr_free + m->lt->nr_parked != m->depth)
			diag("io_us lost: %u free + %u parked", m->nr_free,
			     m->lt->nr_parked);
	}
	return act;
}

static void model_init(struct model *m, struct job_plan *p,
		       const char *const *opts, unsigned int depth)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	make_plan(p, opts);
	m->depth = depth;
	m->st = calloc(1, sizeof(*m->st));
	worker_stats_init(m->st);
	m->rj.plan = p;
	for (i = 0; i < depth; i++)
		m->freel[m->nr_free++] = i;
	m->lt = lat_target_new(p, depth, true);
	lat_target_start(m->lt, m->st, m->now, m->freel, &m->nr_free);
}

static void model_free(struct model *m, struct job_plan *p)
{
	lat_target_free(m->lt);
	free(m->st);
	plan_release(p);
}

static void test_search(void)
{
	static const char *const opts[] = {
		"iodepth", "16", "latency_target", "450us",
		"latency_window", "100ms", NULL,
	};
	struct job_plan p;
	struct model m;
	int act;

	model_init(&m, &p, opts, 16);
	ok(m.lt && lat_target_depth(m.lt) == 1 && m.nr_free == 1,
	   "search: starts at depth 1 (%u free)", m.nr_free);
	act = drive(&m, 50);
	/* 1, 2, 4 meet; 8 misses; 6 misses; 5 misses; 4 meets, stays */
	ok(act & LT_STOP, "search: ends the job once the depth is found");
	ok(lat_target_depth(m.lt) == 4, "search: settles on depth 4 (got %u)",
	   lat_target_depth(m.lt));
	ok(m.resets == 1, "search: statistics restart once, for the last "
	   "window (%u)", m.resets);
	ok(m.windows <= 12, "search: found in %u windows", m.windows);
	ok(m.nr_free == 4 && m.lt->nr_parked == 12,
	   "search: 4 io_us in use, 12 parked");
	ok(!m.st->error, "search: no error");
	model_free(&m, &p);
}

static void test_run(void)
{
	static const char *const opts[] = {
		"iodepth", "8", "latency_target", "10ms",
		"latency_window", "100ms", "latency_run", "1", NULL,
	};
	struct job_plan p;
	struct model m;
	int act;

	model_init(&m, &p, opts, 8);
	act = drive(&m, 20);
	ok(!(act & LT_STOP) && m.windows == 20,
	   "latency_run: the job is not ended");
	ok(lat_target_depth(m.lt) == 8, "latency_run: at iodepth (%u)",
	   lat_target_depth(m.lt));
	ok(m.resets == 0, "latency_run: statistics never restart");
	model_free(&m, &p);
}

static void test_unmet(void)
{
	static const char *const opts[] = {
		"iodepth", "8", "latency_target", "50us",
		"latency_window", "100ms", NULL,
	};
	struct job_plan p;
	struct model m;
	int act;

	model_init(&m, &p, opts, 8);
	act = drive(&m, 20);
	ok(!(act & LT_STOP) && lat_target_depth(m.lt) == 1 && m.nr_free == 1,
	   "unmet: stays at depth 1 and runs on");
	model_free(&m, &p);
}

static void test_percentile(void)
{
	static const char *const opts99[] = {
		"iodepth", "4", "latency_target", "1ms",
		"latency_window", "100ms", "latency_percentile", "90", NULL,
	};
	static const char *const opts100[] = {
		"iodepth", "4", "latency_target", "1ms",
		"latency_window", "100ms", NULL,
	};
	struct job_plan p;
	struct model m;

	model_init(&m, &p, opts99, 4);
	m.slow_pct = 5;
	drive(&m, 20);
	ok(lat_target_depth(m.lt) == 4, "percentile 90: 5%% slow I/Os "
	   "still meet it (depth %u)", lat_target_depth(m.lt));
	model_free(&m, &p);
	model_init(&m, &p, opts100, 4);
	m.slow_pct = 5;
	drive(&m, 20);
	ok(lat_target_depth(m.lt) == 1, "percentile 100: 5%% slow I/Os miss "
	   "it (depth %u)", lat_target_depth(m.lt));
	model_free(&m, &p);
}

static void test_max_latency(void)
{
	static const char *const opts[] = {
		"iodepth", "4", "max_latency", "10ms,50us", NULL,
	};
	struct job_plan p;
	struct model m;
	int act;

	model_init(&m, &p, opts, 4);
	ok(m.nr_free == 4 && lat_target_depth(m.lt) == 0,
	   "max_latency alone: no search, no parking");
	act = lat_target_check(m.lt, &m.rj, m.st, m.now);
	ok(act == 0, "max_latency: nothing yet");
	moments_add(&m.st->dir[DDIR_READ].lat, 9 * MS);
	ok(lat_target_check(m.lt, &m.rj, m.st, m.now) == 0,
	   "max_latency: a read under its limit");
	moments_add(&m.st->dir[DDIR_WRITE].lat, 60 * US);
	act = lat_target_check(m.lt, &m.rj, m.st, m.now);
	ok(act == LT_STOP && m.st->error == ETIMEDOUT,
	   "max_latency: a write over its own limit stops the job");
	ok(strstr(m.rj.errmsg, "latency of 60000 nsec exceeds max_latency "
		  "(50000 nsec) on a write") != NULL, "max_latency: %s",
	   m.rj.errmsg);
	model_free(&m, &p);
	{
		static const char *const none[] = { "iodepth", "4", NULL };

		make_plan(&p, none);
		ok(!lat_target_new(&p, 4, true), "neither option: no state");
		plan_release(&p);
	}
}

int main(void)
{
	test_search();
	test_run();
	test_unmet();
	test_percentile();
	test_max_latency();
	return done_testing();
}

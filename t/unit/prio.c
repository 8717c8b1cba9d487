/* SPDX-License-Identifier: MIT */
/*
 * I/O priorities: the plan made from fio's options (values, statistics
 * indexes, cmdprio_bssplit's grouping), the per-I/O draws of
 * engine/cmdprio.c (shares within binomial bounds, the value and index
 * each I/O gets), and the merge of per-priority latency into the results
 * model with fio 3.33's rules (when a job has any, their order, the
 * mixed blocks).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "engine/cmdprio.h"
#include "opt/opt.h"
#include "opt/prio_opts.h"
#include "stats/results.h"

static int build(struct job_plan *p, const char *const *kv)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	int ret = 0;

	opt_defaults(&o);
	for (; kv[0] && !ret; kv += 2)
		ret = opt_set(&o, kv[0], kv[1], 1024, &err);
	if (!ret)
		ret = plan_build(p, &o, "t.fio", 1, &err);
	if (ret)
		diag("%s", strbuf_str(&err));
	job_options_release(&o);
	strbuf_release(&err);
	return ret;
}

static void test_plan(void)
{
	static const char *const perc[] = {
		"ioengine", "io_uring", "rw", "randrw",
		"cmdprio_percentage", "30,0", "cmdprio", "3",
		"prio", "5", NULL,
	};
	static const char *const split[] = {
		"ioengine", "libaio", "rw", "randrw", "bssplit", "4k/50:8k/50",
		"cmdprio_bssplit", "8k/20:4k/30/2/3:4k/70/3/1,8k/100/1/1",
		"cmdprio_class", "2", NULL,
	};
	static const char *const thread[] = {
		"ioengine", "psync", "prioclass", "3", NULL,
	};
	static const char *const none[] = {
		"ioengine", "io_uring", "cmdprio_class", "2", NULL,
	};
	const struct prio_dir *d;
	struct job_plan p;

	if (!ok(!build(&p, perc), "cmdprio_percentage job builds"))
		return;
	ok(p.prio && p.prio->thread && p.prio->def == 0x4005,
	   "prio=5 alone: best effort level 5 (0x4005), on the thread");
	d = &p.prio->dir[DDIR_READ];
	ok(d->mode == PRIO_MODE_PERC && d->perc.upto == 30 &&
	   d->perc.ioprio == 0x2003 && d->perc.idx == 1 && d->nr_vals == 2 &&
	   d->vals[0] == 0x4005 && d->vals[1] == 0x2003,
	   "reads: 30%% at real time level 3 (index 1), the job's at 0");
	ok(p.prio->dir[DDIR_WRITE].mode == PRIO_MODE_NONE,
	   "writes: 0%%, no per-I/O priorities");
	plan_release(&p);

	if (!ok(!build(&p, split), "cmdprio_bssplit job builds"))
		return;
	d = &p.prio->dir[DDIR_READ];
	ok(d->mode == PRIO_MODE_BSSPLIT && d->nr_bs == 2 &&
	   d->bs[0].bs == 4096 && d->bs[0].total == 100 && d->bs[0].nr == 2 &&
	   d->bs[1].bs == 8192 && d->bs[1].total == 20 && d->bs[1].nr == 1,
	   "reads: grouped by block size, sorted, totals per size");
	ok(d->choice[0].upto == 30 && d->choice[0].ioprio == 0x4003 &&
	   d->choice[1].upto == 100 && d->choice[1].ioprio == 0x6001 &&
	   d->choice[2].upto == 20 && d->choice[2].ioprio == 0x4000,
	   "entries keep their order within a size; an entry without class "
	   "takes cmdprio_class/cmdprio (2/0)");
	ok(d->nr_vals == 4 && d->vals[0] == 0 && d->choice[0].idx == 1 &&
	   d->choice[1].idx == 2 && d->choice[2].idx == 3,
	   "one statistics index per distinct value, 0 the job's (none)");
	d = &p.prio->dir[DDIR_WRITE];
	ok(d->nr_bs == 1 && d->bs[0].bs == 8192 && d->choice[0].ioprio == 0x2001,
	   "writes have their own list");
	plan_release(&p);

	if (ok(!build(&p, thread), "prioclass job builds"))
		ok(p.prio && p.prio->thread && !p.prio->cmdprio &&
		   p.prio->def == 0x6000, "prioclass=3 alone: idle level 0");
	plan_release(&p);
	if (ok(!build(&p, none), "cmdprio_class without a share builds"))
		ok(!p.prio, "no percentage, no split: no priorities at all");
	plan_release(&p);
}

/* n draws through cmdprio_pick of I/Os of direction d and length len */
static void pick_n(struct cmdprio *c, unsigned int d, uint32_t len,
		   unsigned int n, unsigned int *by_idx, uint16_t *val_of)
{
	struct io_u u;
	unsigned int i;

	memset(&u, 0, sizeof(u));
	for (i = 0; i < n; i++) {
		u.ddir = (uint8_t)d;
		u.len = len;
		cmdprio_pick(c, &u);
		by_idx[u.prio_idx]++;
		val_of[u.prio_idx] = u.ioprio;
	}
}

/* |k - n p| within 5 standard deviations of a binomial(n, p) */
static int binomial_ok(unsigned int k, unsigned int n, double p)
{
	return fabs((double)k - n * p) <= 5.0 * sqrt(n * p * (1.0 - p)) + 1;
}

static void test_pick(void)
{
	static const char *const perc[] = {
		"ioengine", "io_uring", "rw", "randrw", "randseed", "42",
		"cmdprio_percentage", "30,100", "cmdprio_class", "2,1",
		"cmdprio", "3,0", NULL,
	};
	static const char *const split[] = {
		"ioengine", "io_uring", "rw", "randread", "bs", "4k",
		"cmdprio_bssplit", "4k/30/2/3:4k/70/3/1", NULL,
	};
	unsigned int n = 100000, by[PRIO_VALS_MAX];
	uint16_t val[PRIO_VALS_MAX];
	struct job_plan p;
	struct cmdprio c;
	struct io_u u;

	if (!ok(!build(&p, perc), "percentage job builds"))
		return;
	ok(cmdprio_init(&c, &p), "a job with priorities: the engine picks");
	memset(by, 0, sizeof(by));
	pick_n(&c, DDIR_READ, 4096, n, by, val);
	ok(binomial_ok(by[1], n, 0.30) && by[0] + by[1] == n,
	   "reads: %u of %u at the cmdprio value (30%%)", by[1], n);
	ok(val[0] == 0 && val[1] == 0x4003,
	   "reads get 0 (none) or 0x4003, with their index");
	memset(by, 0, sizeof(by));
	pick_n(&c, DDIR_WRITE, 4096, 1000, by, val);
	ok(by[1] == 1000 && val[1] == 0x2000, "writes: all at 0x2000 (100%%)");
	memset(&u, 0, sizeof(u));
	u.ddir = DDIR_TRIM;
	ok(!cmdprio_pick(&c, &u) && !u.ioprio && !u.prio_idx,
	   "trims get none");
	plan_release(&p);

	if (!ok(!build(&p, split), "bssplit job builds"))
		return;
	cmdprio_init(&c, &p);
	memset(by, 0, sizeof(by));
	pick_n(&c, DDIR_READ, 4096, n, by, val);
	ok(by[0] == 0 && binomial_ok(by[1], n, 0.30) && by[1] + by[2] == n &&
	   val[1] == 0x4003 && val[2] == 0x6001,
	   "4k reads: %u at 0x4003 (30%%), %u at 0x6001 (70%%)", by[1], by[2]);
	memset(by, 0, sizeof(by));
	pick_n(&c, DDIR_READ, 8192, 100, by, val);
	ok(by[0] == 100, "a size without entries keeps the job's priority");
	plan_release(&p);
}

/* --- the results model ------------------------------------------------------ */

struct fake {
	struct job_plan plan;
	struct prio_plan pp;
	struct worker_stats st;
	struct worker_result wr;
};

/*
 * A member: its priority def; with vals (n of them) per-I/O priorities
 * on reads, samples[i] I/Os of 1000 * (i + 1) ns at vals[i]; else
 * reads clat samples of 5000 ns, all counted under def.
 */
static void fake_member(struct fake *f, uint16_t def, const uint16_t *vals,
			const unsigned int *samples, unsigned int n,
			unsigned int plain)
{
	unsigned int i, k;

	memset(f, 0, sizeof(*f));
	worker_stats_init(&f->st);
	f->plan.o.clat_percentiles = true;
	f->pp.def = def;
	f->pp.thread = def != 0;
	if (def || n)
		f->plan.prio = &f->pp;
	if (n) {
		f->pp.cmdprio = true;
		f->st.prio = calloc(1, sizeof(*f->st.prio));
		f->st.prio->dir[0] = calloc(n, sizeof(struct prio_stat));
		f->st.prio->nr[0] = n;
		for (i = 0; i < n; i++) {
			f->st.prio->dir[0][i].ioprio = vals[i];
			f->st.prio->dir[0][i].lat.min = UINT64_MAX;
			for (k = 0; k < samples[i]; k++) {
				moments_add(&f->st.prio->dir[0][i].lat,
					    1000 * (i + 1));
				hist_add(&f->st.prio->dir[0][i].hist,
					 1000 * (i + 1));
			}
		}
	}
	for (k = 0; k < plain; k++) {
		moments_add(&f->st.dir[0].clat, 5000);
		hist_add(&f->st.dir[0].clat_hist, 5000);
		f->st.dir[0].ios++;
		f->st.dir[0].bytes += 4096;
	}
	f->wr.plan = &f->plan;
	f->wr.st = &f->st;
}

static struct job_result *merged(struct fake *m, unsigned int nr,
				 enum unified_rw unified)
{
	struct job_result *j = calloc(1, sizeof(*j));
	unsigned int i;

	j->unified = unified;
	j->clat_pct_opt = true;
	j->nr_pct = 1;
	j->pct_list[0] = 50.0;
	for (i = 0; i < nr; i++) {
		j->members++;
		prio_results_add(j, &m[i].wr);
	}
	prio_results_finish(j);
	return j;
}

static void free_fakes(struct fake *m, unsigned int nr, struct job_result *j)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		worker_stats_release(&m[i].st);
	prio_results_release(j);
	free(j);
}

static void test_merge(void)
{
	static const uint16_t two[] = { 0, 0x2000 };
	static const unsigned int s_one[] = { 0, 5 }, s_two[] = { 3, 4 };
	struct fake *m = calloc(3, sizeof(*m));
	struct job_result *j;

	/* two members, both without priorities: nothing */
	fake_member(&m[0], 0, NULL, NULL, 0, 10);
	fake_member(&m[1], 0, NULL, NULL, 0, 10);
	j = merged(m, 2, UNIFIED_NONE);
	ok(!j->prio[0].nr, "same priority everywhere: no per-priority figures");
	free_fakes(m, 2, j);

	/* prio differs between members: one entry each, in member order */
	fake_member(&m[0], 0x4003, NULL, NULL, 0, 10);
	fake_member(&m[1], 0x6007, NULL, NULL, 0, 7);
	fake_member(&m[2], 0x4003, NULL, NULL, 0, 3);
	j = merged(m, 3, UNIFIED_NONE);
	ok(j->prio[0].nr == 2 && j->prio[0].v[0].ioprio == 0x4003 &&
	   j->prio[0].v[0].lat.n == 13 && j->prio[0].v[1].ioprio == 0x6007 &&
	   j->prio[0].v[1].lat.n == 7 && prio_results_shown(&j->prio[0]) == 2,
	   "differing prio: each member's whole clat under its priority");
	ok(j->prio[0].v[0].pct.on && j->prio[0].v[0].pct.val[0] ==
	   j->prio[0].v[0].lat.min, "percentiles made per priority");
	free_fakes(m, 3, j);

	/*
	 * A member with per-I/O priorities first brings its entries even
	 * without samples (value 0 has none); the next one's value 0 then
	 * lands in that first place, not after 0x2000.
	 */
	fake_member(&m[0], 0, two, s_one, 2, 0);
	fake_member(&m[1], 0, two, s_two, 2, 0);
	j = merged(m, 2, UNIFIED_NONE);
	ok(j->prio[0].nr == 2 && j->prio[0].v[0].ioprio == 0 &&
	   j->prio[0].v[0].lat.n == 3 && j->prio[0].v[1].ioprio == 0x2000 &&
	   j->prio[0].v[1].lat.n == 9 && j->prio[0].v[1].lat.min == 2000,
	   "cmdprio members: per value, fio's order, exact moments");
	ok(!j->prio[1].nr && !j->prio[RES_MIXED].nr,
	   "directions without I/O and no mixed block: no entries");
	free_fakes(m, 2, j);

	/* a plain member first, then one with per-I/O priorities */
	fake_member(&m[0], 0x4001, NULL, NULL, 0, 4);
	fake_member(&m[1], 0, two, s_two, 2, 0);
	j = merged(m, 2, UNIFIED_MIXED);
	ok(j->prio[0].nr == 3 && j->prio[0].v[0].ioprio == 0x4001 &&
	   j->prio[0].v[1].ioprio == 0 && j->prio[0].v[2].ioprio == 0x2000,
	   "plain member first: its priority first, then the new values");
	ok(j->prio[RES_MIXED].nr == 3 && j->prio[RES_MIXED].v[2].lat.n == 4,
	   "unified_rw_reporting=mixed: the directions merged in turn");
	free_fakes(m, 2, j);
	free(m);
}

int main(void)
{
	test_plan();
	test_pick();
	test_merge();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* --sweep's values and points (sweep/sweep.c): lists, ranges, the cross
 * product's order and the job list made one copy per point. */
#include <string.h>

#include "tap.h"
#include "sweep/sweep.h"
#include "util/log.h"
#include "util/strbuf.h"

/* The values arg gives, joined with spaces; "ERR: message" on an error. */
static void values_are(const char *arg, const char *want)
{
	struct sweep_spec s;
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	if (sweep_parse(&s, arg, &err)) {
		strbuf_addf(&got, "ERR: %s", strbuf_str(&err));
	} else {
		for (i = 0; i < s.axes[0].nr; i++)
			strbuf_addf(&got, "%s%s", i ? " " : "", s.axes[0].vals[i]);
	}
	if (!ok(!strncmp(strbuf_str(&got), want, strlen(want)),
		"--sweep=%s: %s", arg, want))
		diag("got '%s'", strbuf_str(&got));
	sweep_release(&s);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void expand_order(void)
{
	struct sweep_spec s;
	struct strbuf err = STRBUF_INIT;
	struct job_list jl;
	int ret;

	memset(&s, 0, sizeof(s));
	job_list_init(&jl);
	job_cmdline_add(&jl, "name", "a", 1, &err);
	job_cmdline_add(&jl, "ioengine", "null", 2, &err);
	job_cmdline_add(&jl, "size", "1m", 3, &err);
	job_cmdline_add(&jl, "name", "b", 4, &err);
	job_cmdline_add(&jl, "ioengine", "null", 5, &err);
	job_cmdline_add(&jl, "size", "1m", 6, &err);
	ret = sweep_parse(&s, "rw=read,write", &err) ||
	      sweep_parse(&s, "iodepth=1..4*2", &err) ||
	      sweep_expand(&s, &jl, &err);
	ok(!ret && s.nr_points == 6 && jl.nr == 12,
	   "2 x 3 points of 2 jobs: 12 jobs (%s)", strbuf_str(&err));
	if (!ret) {
		const struct job_desc *p4a = &jl.jobs[8], *p4b = &jl.jobs[9];
		const struct job_entry *e = &p4a->ents[p4a->nr - 1];

		/* point 4 is (write, 2): the last flag varies fastest */
		ok(!strcmp(s.rs.vals[4 * 2], "write") &&
		   !strcmp(s.rs.vals[4 * 2 + 1], "2"),
		   "point 4 is rw=write, iodepth=2");
		ok(!strcmp(e->key, "stonewall") && !e->val &&
		   !strcmp(p4a->ents[p4a->nr - 2].key, "iodepth") &&
		   !strcmp(p4a->ents[p4a->nr - 2].val, "2") &&
		   !strcmp(p4a->ents[p4a->nr - 3].val, "write"),
		   "a point's first job: its values after its own, stonewall");
		ok(!strcmp(p4b->name, "b") &&
		   strcmp(p4b->ents[p4b->nr - 1].key, "stonewall") &&
		   !strcmp(p4b->ents[p4b->nr - 1].val, "2"),
		   "its other jobs: the values, no stonewall");
		ok(!strcmp(jl.jobs[0].ents[jl.jobs[0].nr - 1].key, "iodepth"),
		   "the first point needs no stonewall");
		ok(s.rs.jobs_per_point == 2 && s.rs.nr_opts == 2 &&
		   !strcmp(s.rs.opts[0], "rw"), "the results' description");
	}
	sweep_release(&s);
	job_list_release(&jl);
	strbuf_release(&err);
}

/*
 * --repeat's interval: on the logarithms for positive figures, so that
 * three runs spread by factors keep it above zero (the linear t interval
 * of 4000, 30000, 62000 is about [-17440, 75775]), the mean inside; close
 * to the linear one for a tight spread.
 */
static void repeat_intervals(void)
{
	const double wide[] = { 4000, 30000, 62000 }, tight[] = { 100, 101, 102 };
	const double mixed[] = { -1, 2, 5 };
	struct result_interval r;

	repeat_interval(wide, 3, &r);
	ok(r.lo > 0 && r.lo <= r.mean && r.mean <= r.hi &&
	   r.mean > 31999 && r.mean < 32001,
	   "repeat: a wide spread keeps its interval above zero (%g [%g, %g])",
	   r.mean, r.lo, r.hi);
	repeat_interval(tight, 3, &r);
	ok(r.lo > 97 && r.lo < 99 && r.hi > 103 && r.hi < 105,
	   "repeat: a tight spread, about the linear interval (%g [%g, %g])",
	   r.mean, r.lo, r.hi);
	repeat_interval(mixed, 3, &r);
	ok(r.lo < 0 && r.mean == 2,
	   "repeat: figures not all positive: the linear interval (%g [%g, %g])",
	   r.mean, r.lo, r.hi);
	repeat_interval(tight, 1, &r);
	ok(r.lo == 100 && r.hi == 100, "repeat: one run, no interval");
}

/* A run of one job reading at iops for runtime_ms into rs. */
static void add_run(struct repeat_set *rs, double iops, uint64_t runtime_ms)
{
	struct run_result rr;

	memset(&rr, 0, sizeof(rr));
	rr.jobs = xcalloc(1, sizeof(*rr.jobs));
	rr.nr_jobs = 1;
	rr.jobs[0].name = xstrdup("j");
	rr.jobs[0].dir[DDIR_READ].ios = 1000;
	rr.jobs[0].dir[DDIR_READ].iops = iops;
	rr.jobs[0].dir[DDIR_READ].runtime_ms = runtime_ms;
	repeat_add(rs, &rr);
}

/* Runs iolite flags (here: measured under a second) leave the interval. */
static void repeat_flagged(void)
{
	struct repeat_set rs;
	const struct result_interval *ci;

	memset(&rs, 0, sizeof(rs));
	add_run(&rs, 1000, 2000);
	add_run(&rs, 50, 300);		/* flagged */
	add_run(&rs, 1100, 2000);
	repeat_summarize(&rs);
	ci = &rs.sum.v[DDIR_READ][REP_IOPS];
	ok(rs.sum.nr_runs == 3 && !rs.sum.out[DDIR_READ * 3 + 0] &&
	   rs.sum.out[DDIR_READ * 3 + 1] && !rs.sum.out[DDIR_READ * 3 + 2] &&
	   !rs.sum.kept_flagged[DDIR_READ],
	   "repeat: the flagged run is left out, two others being left");
	ok(ci->mean == 1050 && ci->lo > 0 && ci->lo < 1050 && ci->hi > 1050,
	   "repeat: the interval is the other two's (%g [%g, %g])", ci->mean,
	   ci->lo, ci->hi);
	repeat_release(&rs);

	memset(&rs, 0, sizeof(rs));
	add_run(&rs, 1000, 2000);
	add_run(&rs, 50, 300);		/* flagged */
	add_run(&rs, 60, 400);		/* flagged */
	repeat_summarize(&rs);
	ci = &rs.sum.v[DDIR_READ][REP_IOPS];
	ok(!rs.sum.out[DDIR_READ * 3 + 1] && !rs.sum.out[DDIR_READ * 3 + 2] &&
	   rs.sum.kept_flagged[DDIR_READ] && ci->mean == 370,
	   "repeat: one run unflagged: every run kept, and said (%g)",
	   ci->mean);
	repeat_release(&rs);
}

int main(void)
{
	repeat_intervals();
	repeat_flagged();
	values_are("iodepth=1,2,4", "1 2 4");
	values_are("iodepth=1..128*2", "1 2 4 8 16 32 64 128");
	values_are("iodepth=1..100*2", "1 2 4 8 16 32 64");
	values_are("iodepth=3..3*2", "3");
	values_are("bs=4k..16k+4k", "4k 8k 12k 16k");
	values_are("bs=512..4k*2", "512 1k 2k 4k");
	values_are("bs=1m..4m*2", "1m 2m 4m");
	values_are("iodepth=1,3..9+3,64", "1 3 6 9 64");
	/* a step past B ends the range, even one that would overflow */
	values_are("iodepth=1..10+20", "1");
	values_are("iodepth=2..10+18446744073709551615", "2");
	values_are("size=1..18446744073709551615+9223372036854775808",
		   "1 9223372036854775809");
	values_are("rw=randread,randwrite", "randread randwrite");
	values_are("size=4096p..8192p*4", "4096p");
	values_are("size=4096p..8192p+4096p", "4096p 8192p");
	values_are("iodepth", "ERR: option '--sweep': 'iodepth' is not OPTION=VALUES");
	values_are("iodepth=", "ERR: option '--sweep': 'iodepth=' is not");
	values_are("iodepth=1,,2", "ERR: option '--sweep': iodepth: empty value");
	values_are("iodepth=1..8", "ERR: option '--sweep': iodepth: range '1..8' needs a step");
	values_are("iodepth=8..1*2", "ERR: option '--sweep': iodepth: range '8..1*2' is empty");
	values_are("iodepth=0..8*2", "ERR: option '--sweep': iodepth: range '0..8*2' is empty");
	values_are("iodepth=1..8*1", "ERR: option '--sweep': iodepth: range '1..8*1' is empty");
	values_are("iodepth=a..8*2", "ERR: option '--sweep': iodepth: range 'a..8*2': not numbers");
	values_are("iodepth=1..5000+1", "ERR: option '--sweep': iodepth: more than 1000 values");
	values_are("rw=read,sideways", "ERR: option '--sweep': option 'rw'");
	values_are("name=a,b", "ERR: option '--sweep': option 'name' cannot be swept");
	values_are("bss=4k", "ERR: option '--sweep': unknown option 'bss' (did you mean 'bs'?)");
	expand_order();
	return done_testing();
}

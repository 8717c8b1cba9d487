/* SPDX-License-Identifier: MIT */
/*
 * Log files (src/stats/log.c), driven without a worker: records go in
 * through log_io() with made-up times, the files are read back.
 */
#include <inttypes.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "stats/log_int.h"

#define MS 1000000ull
#define EPOCH (5000 * MS)	/* the worker's clock when counting began */

/* A plan from "name=value" pairs separated by spaces. */
static int plan(struct job_plan *p, const char *spec, unsigned int index)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = -1;

	opt_defaults(&o);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq++ = '\0';
		if (opt_set(&o, tok, eq, 1024, &err)) {
			diag("option %s: %s", tok, strbuf_str(&err));
			goto out;
		}
	}
	memset(p, 0, sizeof(*p));
	if (plan_build(p, &o, "t.fio", 7, &err)) {
		diag("plan: %s", strbuf_str(&err));
		goto out;
	}
	p->job_index = index;
	ret = 0;
out:
	job_options_release(&o);
	strbuf_release(&err);
	free(copy);
	return ret;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = 0;
	fclose(f);
	return buf;
}

static unsigned int count_lines(const char *path)
{
	char *s = slurp(path), *p;
	unsigned int n = 0;

	if (!s)
		return 0;
	for (p = s; *p; p++)
		n += *p == '\n';
	free(s);
	return n;
}

static int file_is(const char *path, const char *want)
{
	char *s = slurp(path);
	int r = s && !strcmp(s, want);

	if (!r)
		diag("%s:\n%s# want:\n%s", path, s ? s : "(missing)", want);
	free(s);
	return r;
}

/* One job's log set, opened, counting from EPOCH. */
struct fx {
	struct job_plan p;
	struct log_set ls;
	struct worker_stats st;
	struct job_log *jl;
};

static int fx_start(struct fx *f, const char *spec, unsigned int valid)
{
	struct strbuf err = STRBUF_INIT;

	memset(f, 0, sizeof(*f));
	if (plan(&f->p, spec, 0))
		return -1;
	if (log_set_init(&f->ls, &f->p, 1, &err) ||
	    log_set_open(&f->ls, &err)) {
		diag("log set: %s", strbuf_str(&err));
		strbuf_release(&err);
		return -1;
	}
	worker_stats_init(&f->st);
	f->jl = f->ls.jobs[0];
	log_job_start(f->jl, EPOCH, &f->st, valid);
	return 0;
}

/* One I/O completing at t (ns after EPOCH), as the worker counts it. */
static void fx_io(struct fx *f, unsigned int d, uint32_t len, uint64_t off,
		  uint64_t slat, uint64_t clat, uint64_t t)
{
	uint64_t now = EPOCH + t;

	f->st.dir[d].ios++;
	f->st.dir[d].bytes += len;
	hist_add(&f->st.dir[d].clat_hist, clat);
	log_io(f->jl, log_dp(d, 0), len, off, now - clat - slat, now - clat, now);
}

static int fx_end(struct fx *f, uint64_t t)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	log_job_end(f->jl, EPOCH + t);
	log_set_finish(&f->ls);
	ret = log_set_release(&f->ls, &err);
	if (ret)
		diag("%s", strbuf_str(&err));
	strbuf_release(&err);
	plan_release(&f->p);
	return ret;
}

static void test_per_io(void)
{
	struct fx f;

	if (!ok(!fx_start(&f, "name=j write_lat_log=a write_bw_log=a "
			  "write_iops_log=a log_offset=1 rw=randrw bs=4k,8k "
			  "size=1m", LOGV_LAT | LOGV_CLAT), "per-I/O logs set up"))
		return;
	ok(f.jl->per_io && !f.jl->lat_win, "no log_avg_msec: a record per I/O");
	fx_io(&f, 0, 4096, 8192, 1000, 20000, 1 * MS);
	fx_io(&f, 1, 8192, 0, 500, 4000, 2500000);
	fx_io(&f, 0, 4096, 4096, 0, 1, 3 * MS);
	ok(!fx_end(&f, 4 * MS), "written without error");
	ok(file_is("a_lat.1.log",
		   "1, 21000, 0, 4096, 8192, 0\n"
		   "2, 4500, 1, 8192, 0, 0\n"
		   "3, 1, 0, 4096, 4096, 0\n"), "lat: time ms, ns, ddir, bs, offset, prio");
	ok(file_is("a_clat.1.log",
		   "1, 20000, 0, 4096, 8192, 0\n"
		   "2, 4000, 1, 8192, 0, 0\n"
		   "3, 1, 0, 4096, 4096, 0\n"), "clat");
	ok(file_is("a_slat.1.log", ""), "slat not measured: empty, as fio");
	ok(file_is("a_bw.1.log",
		   "1, 204800, 0, 4096, 8192, 0\n"
		   "2, 2048000, 1, 8192, 0, 0\n"
		   "3, 4096000000, 0, 4096, 4096, 0\n"),
	   "bw per I/O: bytes * 10^6 / clat ns, as fio");
	ok(file_is("a_iops.1.log",
		   "1, 1, 0, 4096, 8192, 0\n"
		   "2, 1, 1, 8192, 0, 0\n"
		   "3, 1, 0, 4096, 4096, 0\n"), "iops per I/O: 1");
}

/* 1000 reads, one per ms, latency (i % 10) us: windows of 100 ms. */
static void windows(int max)
{
	struct fx f;
	char want[2048];
	unsigned int i, n = 0;

	if (!ok(!fx_start(&f, max ?
			  "name=w write_lat_log=m log_avg_msec=100 log_max_value=1 size=1m" :
			  "name=w write_lat_log=w log_avg_msec=100 size=1m",
			  LOGV_LAT | LOGV_CLAT | LOGV_SLAT), "windowed logs set up"))
		return;
	for (i = 0; i < 1000; i++)
		fx_io(&f, 0, 4096, 0, 100, (i % 10) * 1000, i * MS + MS / 2);
	ok(!fx_end(&f, 1000 * MS), "written without error");
	for (i = 1; i <= 10; i++)
		n += (unsigned int)snprintf(want + n, sizeof(want) - n,
					    "%u, %u, 0, 0, 0\n", i * 100,
					    max ? 9000 : 4500);
	ok(file_is(max ? "m_clat.1.log" : "w_clat.1.log", want),
	   "%s per 100 ms window, time at its end, bs 0", max ? "max" : "mean");
	n = 0;
	for (i = 1; i <= 10; i++)
		n += (unsigned int)snprintf(want + n, sizeof(want) - n,
					    "%u, 100, 0, 0, 0\n", i * 100);
	ok(file_is(max ? "m_slat.1.log" : "w_slat.1.log", want), "slat windows");
}

static void test_tail(void)
{
	struct fx f;

	/* 250 ms of I/O in 100 ms windows: the 50 ms tail is logged */
	if (!fx_start(&f, "name=t write_lat_log=t log_avg_msec=100 size=1m",
		      LOGV_CLAT)) {
		unsigned int i;

		for (i = 0; i < 250; i++)
			fx_io(&f, 0, 4096, 0, 0, 1000, i * MS);
		fx_end(&f, 250 * MS);
		ok(count_lines("t_clat.1.log") == 3,
		   "a tail of half a window is logged");
	}
	/* 240 ms: the 40 ms tail is not */
	if (!fx_start(&f, "name=t write_lat_log=u log_avg_msec=100 size=1m",
		      LOGV_CLAT)) {
		unsigned int i;

		for (i = 0; i < 240; i++)
			fx_io(&f, 0, 4096, 0, 0, 1000, i * MS);
		fx_end(&f, 240 * MS);
		ok(count_lines("u_clat.1.log") == 2,
		   "a shorter tail is left out");
	}
	/* a job shorter than one window still gets its line */
	if (!fx_start(&f, "name=t write_lat_log=v log_avg_msec=1000 size=1m",
		      LOGV_CLAT)) {
		fx_io(&f, 0, 4096, 0, 0, 1000, 10 * MS);
		fx_end(&f, 20 * MS);
		ok(file_is("v_clat.1.log", "20, 1000, 0, 0, 0\n"),
		   "a run shorter than a window: one line");
	}
}

static void test_hist(void)
{
	struct fx f;
	char *s, *line, *save = NULL;
	unsigned int i, lines = 0, good = 0;

	if (!ok(!fx_start(&f, "name=h write_hist_log=h log_hist_msec=250 "
			  "log_hist_coarseness=2 rw=randrw bs=4k size=1m",
			  LOGV_CLAT), "histogram log set up"))
		return;
	/* reads every ms, writes every other ms, for a second */
	for (i = 0; i < 1000; i++) {
		fx_io(&f, 0, 4096, 0, 0, 100 + i, i * MS);
		if (i % 2 == 0)
			fx_io(&f, 1, 4096, 0, 0, 50000, i * MS);
	}
	fx_end(&f, 1000 * MS);
	s = slurp("h_clat_hist.1.log");
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long t, d, bs, v, sum = 0;
		unsigned int cols = 0;
		char *p = line;
		int n;

		if (sscanf(p, "%llu, %llu, %llu%n", &t, &d, &bs, &n) != 3)
			break;
		p += n;
		while (sscanf(p, ", %llu%n", &v, &n) == 1) {
			sum += v;
			cols++;
			p += n;
		}
		lines++;
		/* the window's I/Os: 250 reads or 125 writes */
		if (cols == HIST_NR / 4 && bs == 4096 && t % 250 == 0 &&
		    sum == (d ? 125 : 250))
			good++;
	}
	free(s);
	ok(lines == 8 && good == 8, "4 windows x 2 directions, %u merged "
	   "buckets, counts per window (%u lines, %u good)", HIST_NR / 4,
	   lines, good);
}

static void test_rates(void)
{
	struct fx f;
	uint64_t bytes[3] = { 0 }, ios[3] = { 0 };

	if (!ok(!fx_start(&f, "name=r write_bw_log=r write_iops_log=r "
			  "log_avg_msec=500 size=1m", LOGV_CLAT),
		"bandwidth log set up"))
		return;
	bytes[0] = 100 << 20;
	ios[0] = 25600;
	log_sample(f.jl, EPOCH + 250 * MS, bytes, ios, false);
	bytes[0] = 250 << 20;
	ios[0] = 64000;
	log_sample(f.jl, EPOCH + 500 * MS, bytes, ios, false);
	bytes[0] = 500 << 20;
	ios[0] = 128000;
	log_sample(f.jl, EPOCH + 1000 * MS, bytes, ios, false);
	log_sample(f.jl, EPOCH + 1100 * MS, bytes, ios, true);
	log_sample(f.jl, EPOCH + 1600 * MS, bytes, ios, false);
	fx_end(&f, 1100 * MS);
	ok(file_is("r_bw.1.log", "500, 512000, 0, 0, 0\n1000, 512000, 0, 0, 0\n"),
	   "bw windows in KiB/s; short tail and samples after the end left out");
	ok(file_is("r_iops.1.log", "500, 128000, 0, 0, 0\n1000, 128000, 0, 0, 0\n"),
	   "iops windows");
}

static void test_names(void)
{
	struct job_plan p[3];
	struct log_set ls;
	struct strbuf err = STRBUF_INIT;

	if (plan(&p[0], "name=one write_bw_log write_lat_log=x size=1m", 0) ||
	    plan(&p[1], "name=two write_bw_log=x per_job_logs=0 size=1m", 1) ||
	    plan(&p[2], "name=three write_bw_log=x per_job_logs=0 size=1m", 4))
		return;
	ok(!log_set_init(&ls, p, 3, &err), "names worked out");
	ok(ls.nr_files == 5 && ls.jobs[1]->file[LOG_BW] == ls.jobs[2]->file[LOG_BW],
	   "per_job_logs=0: jobs with one prefix share one file");
	ok(!log_set_open(&ls, &err) && !log_set_release(&ls, &err),
	   "created and closed");
	ok(!access("one_bw.1.log", F_OK) && !access("x_lat.1.log", F_OK) &&
	   !access("x_clat.1.log", F_OK) && !access("x_slat.1.log", F_OK) &&
	   !access("x_bw.log", F_OK), "a bare option names the log after the job");
	plan_release(&p[0]);
	plan_release(&p[1]);
	plan_release(&p[2]);

	if (plan(&p[0], "name=bad write_iops_log=no/such/dir/p size=1m", 0))
		return;
	if (!ok(log_set_init(&ls, p, 1, &err) == -1 &&
		!strcmp(strbuf_str(&err), "t.fio:7: option 'write_iops_log': "
			"cannot create log file 'no/such/dir/p_iops.1.log': "
			"No such file or directory"),
		"a log that cannot be created: file:line, option, path"))
		diag("%s", strbuf_str(&err));
	ok(access("no", F_OK), "nothing created");
	log_set_release(&ls, &err);
	plan_release(&p[0]);
	strbuf_release(&err);
}

/* The writer holds off for a while: the worker waits, nothing is lost. */
struct release_arg {
	struct log_set *ls;
	unsigned int ms;
};

static void *release_later(void *arg)
{
	struct release_arg *a = arg;
	struct timespec ts = { 0, (long)a->ms * 1000000 };

	nanosleep(&ts, NULL);
	atomic_store(&a->ls->hold, 0);
	return NULL;
}

static void test_backpressure(void)
{
	struct fx f;
	struct release_arg a;
	pthread_t t;
	unsigned int i, n = 200000;
	uint64_t wait_ns, waits;

	if (fx_start(&f, "name=b write_lat_log=b size=1m", LOGV_CLAT))
		return;
	atomic_store(&f.ls.hold, 1);
	a.ls = &f.ls;
	a.ms = 200;
	if (pthread_create(&t, NULL, release_later, &a)) {
		ok(0, "a thread to release the writer");
		return;
	}
	/* more records than the first pool holds: the worker must wait */
	for (i = 0; i < n; i++)
		fx_io(&f, 0, 4096, 0, 0, 10 + i % 7, i * 1000);
	pthread_join(t, NULL);
	wait_ns = f.jl->wait_ns;
	waits = atomic_load(&f.jl->waits);
	ok(!fx_end(&f, n * 1000ull), "written without error");
	ok(count_lines("b_clat.1.log") == n, "every record written (%u lines)",
	   count_lines("b_clat.1.log"));
	ok(waits >= 1 && wait_ns >= 100 * MS && wait_ns < 5000 * MS,
	   "the worker waited for the writer (%" PRIu64 " times, %" PRIu64
	   " ms)", waits, (uint64_t)(wait_ns / MS));
}

/* log_drop_when_behind: a writer that holds off loses records, counted. */
static void test_dropped(void)
{
	struct fx f;
	unsigned int i, n = 200000;
	uint64_t dropped;

	if (fx_start(&f, "name=d write_lat_log=d log_drop_when_behind=1 "
		     "size=1m", LOGV_CLAT))
		return;
	atomic_store(&f.ls.hold, 1);
	for (i = 0; i < n; i++)
		fx_io(&f, 0, 4096, 0, 0, 10, i * 1000);
	dropped = log_set_dropped(&f.ls);
	ok(!f.jl->wait_ns, "no waiting");
	fx_end(&f, n * 1000ull);
	ok(dropped > 0 && count_lines("d_clat.1.log") + dropped == n,
	   "dropped records are counted, the rest written (%" PRIu64 " dropped)",
	   dropped);
}

/* Latencies of 2^32 ns and more, slat, offsets, prio: exact lines. */
static void test_long(void)
{
	struct fx f;

	if (!ok(!fx_start(&f, "name=l write_lat_log=l log_offset=1 "
			  "log_prio=1 size=1m",
			  LOGV_LAT | LOGV_CLAT | LOGV_SLAT), "long set up"))
		return;
	fx_io(&f, 0, 4096, 1ull << 40, 5000000000ull, 7, 6000 * MS);
	fx_io(&f, 0, 512, 3, 12, 4294967296ull, 7000 * MS);
	fx_io(&f, 0, 512, 3, 12, 4294967295ull, 8000 * MS);
	ok(!fx_end(&f, 9000 * MS), "written without error");
	ok(file_is("l_slat.1.log",
		   "6000, 5000000000, 0, 4096, 1099511627776, 0x0000\n"
		   "7000, 12, 0, 512, 3, 0x0000\n"
		   "8000, 12, 0, 512, 3, 0x0000\n"), "slat");
	ok(file_is("l_clat.1.log",
		   "6000, 7, 0, 4096, 1099511627776, 0x0000\n"
		   "7000, 4294967296, 0, 512, 3, 0x0000\n"
		   "8000, 4294967295, 0, 512, 3, 0x0000\n"), "clat");
	ok(file_is("l_lat.1.log",
		   "6000, 5000000007, 0, 4096, 1099511627776, 0x0000\n"
		   "7000, 4294967308, 0, 512, 3, 0x0000\n"
		   "8000, 4294967307, 0, 512, 3, 0x0000\n"), "lat = slat + clat");
}

/* --bandwidth-log: every job's bytes together, per bwavgtime window. */
static void test_agg(void)
{
	struct strbuf err = STRBUF_INIT;
	struct job_plan p[2];
	struct worker_stats st[2];
	struct log_set ls;
	uint64_t b0[3] = { 0 }, b1[3] = { 0 }, ios[3] = { 0 }, t0;
	char *s;
	unsigned long long t[3], v[3];
	int d[3], bs[3], prio[3];

	if (plan(&p[0], "name=a write_bw_log=x size=1m bwavgtime=100", 0) ||
	    plan(&p[1], "name=b size=1m rw=write", 1))
		return;
	ok(!log_set_init(&ls, p, 2, &err) &&
	   !log_set_bandwidth_log(&ls, p, 2, &err) &&
	   !log_set_open(&ls, &err), "aggregate logs set up");
	ok(ls.jobs[1] != NULL, "a job without logs is counted too");
	worker_stats_init(&st[0]);
	worker_stats_init(&st[1]);
	t0 = ls.agg->epoch_ns;
	log_job_start(ls.jobs[0], t0, &st[0], LOGV_CLAT);
	log_job_start(ls.jobs[1], t0, &st[1], LOGV_CLAT);
	/* 10 MiB read, 20 MiB written by 100 ms; 30 more written by 200 */
	b0[0] = 10 << 20;
	b1[1] = 20 << 20;
	log_sample(ls.jobs[0], t0 + 100 * MS, b0, ios, false);
	log_sample(ls.jobs[1], t0 + 100 * MS, b1, ios, false);
	log_set_tick(&ls, t0 + 100 * MS);
	b1[1] = 50 << 20;
	log_sample(ls.jobs[0], t0 + 200 * MS, b0, ios, false);
	log_sample(ls.jobs[1], t0 + 200 * MS, b1, ios, false);
	log_set_tick(&ls, t0 + 200 * MS);
	log_job_end(ls.jobs[0], t0 + 200 * MS);
	log_job_end(ls.jobs[1], t0 + 200 * MS);
	/* the real clock is before the last tick's: no tail window */
	ok(!log_set_release(&ls, &err), "released");
	s = slurp("agg-write_bw.log");
	ok(s && sscanf(s, "%llu, %llu, %d, %d, %d\n%llu, %llu, %d, %d, %d",
		       &t[0], &v[0], &d[0], &bs[0], &prio[0], &t[1], &v[1],
		       &d[1], &bs[1], &prio[1]) == 10 &&
	   t[0] == 100 && v[0] == 204800 && d[0] == 1 && !bs[0] && !prio[0] &&
	   t[1] == 200 && v[1] == 307200 && d[1] == 1,
	   "agg-write_bw.log: KiB/s of every job, ddir 1, bs 0, prio 0");
	free(s);
	ok(file_is("agg-read_bw.log", "100, 102400, 0, 0, 0\n200, 0, 0, 0, 0\n"),
	   "agg-read_bw.log");
	ok(file_is("agg-trim_bw.log", "100, 0, 2, 0, 0\n200, 0, 2, 0, 0\n"),
	   "agg-trim_bw.log: zeros, as fio");
	plan_release(&p[0]);
	plan_release(&p[1]);
	strbuf_release(&err);
}

int main(void)
{
	char dir[TAP_TMP_MAX];

	if (!mkdtemp(tap_tmp(dir, "iolite-log-XXXXXX")) || chdir(dir)) {
		printf("1..0 # SKIP no scratch directory\n");
		return 0;
	}
	test_per_io();
	windows(0);
	windows(1);
	test_tail();
	test_hist();
	test_rates();
	test_names();
	test_backpressure();
	test_dropped();
	test_long();
	test_agg();
	{
		char cmd[TAP_TMP_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
		if (chdir("/") || system(cmd) != 0)
			diag("could not remove %s", dir);
	}
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * The normal report of a hand-built results model, compared line by line
 * with the text fio 3.33 prints for the same figures. Job "b" mirrors a
 * real fio run (psync randrw on a file); job "c" covers the other layouts:
 * nsec lines, 7-digit percentiles (3 a line), bw in MiB, the sync block,
 * the 0.01% and 0.1% floors, a description, and a second group.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "report/report.h"

static const char expected[] =
"\n"
"b: (groupid=0, jobs=1): err= 0: pid=9653: Tue Nov 14 22:13:20 2023\n"
"  read: IOPS=8690, BW=33.9MiB/s (35.6MB/s)(15.8MiB/466msec)\n"
"    clat (usec): min=34, max=9669, avg=108.97, stdev=231.66\n"
"     lat (usec): min=34, max=9669, avg=109.02, stdev=231.66\n"
"    clat percentiles (usec):\n"
"     |  1.00th=[   42],  5.00th=[   68], 10.00th=[   69], 20.00th=[   70],\n"
"     | 30.00th=[   71], 40.00th=[   72], 50.00th=[   75], 60.00th=[   82],\n"
"     | 70.00th=[   99], 80.00th=[  117], 90.00th=[  135], 95.00th=[  180],\n"
"     | 99.00th=[  570], 99.50th=[ 1045], 99.90th=[ 3097], 99.95th=[ 3916],\n"
"     | 99.99th=[ 9634]\n"
"   bw (  KiB/s): min=33000, max=35000, per=97.80%, avg=34000.00, stdev=1000.00, samples=3\n"
"   iops        : min= 8250, max= 8750, avg=8500.00, stdev=250.00, samples=3\n"
"  write: IOPS=8888, BW=34.7MiB/s (36.4MB/s)(16.2MiB/466msec); 0 zone resets\n"
"    clat (usec): min=2, max=183, avg= 4.65, stdev= 6.37\n"
"     lat (usec): min=2, max=183, avg= 4.73, stdev= 6.38\n"
"    clat percentiles (usec):\n"
"     |  1.00th=[    3],  5.00th=[    3], 10.00th=[    3], 20.00th=[    4],\n"
"     | 30.00th=[    4], 40.00th=[    4], 50.00th=[    4], 60.00th=[    5],\n"
"     | 70.00th=[    5], 80.00th=[    5], 90.00th=[    6], 95.00th=[    7],\n"
"     | 99.00th=[   24], 99.50th=[   47], 99.90th=[  101], 99.95th=[  120],\n"
"     | 99.99th=[  184]\n"
"  lat (usec)   : 4=25.72%, 10=23.66%, 20=0.61%, 50=1.51%, 100=33.68%\n"
"  lat (usec)   : 250=13.59%, 500=0.63%, 750=0.23%, 1000=0.11%\n"
"  lat (msec)   : 2=0.15%, 4=0.09%, 10=0.02%\n"
"  cpu          : usr=0.65%, sys=40.86%, ctx=4000, majf=0, minf=14\n"
"  iolite       : usr=12.5ns/IO, clock=tsc\n"
"  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
"     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
"     issued rwts: total=4050,4142,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
"     latency   : target=0, window=0, percentile=100.00%, depth=1\n"
"c: (groupid=1, jobs=2): err= 0: pid=42: Tue Nov 14 22:13:20 2023\n"
"  Description  : [two of them]\n"
"  write: IOPS=20.0k, BW=1250MiB/s (1311MB/s)(1250MiB/1000msec); 0 zone resets\n"
"    clat (nsec): min=10, max=4134.8k, avg=270.79, stdev=32305.25\n"
"    clat percentiles (nsec):\n"
"     |  1.00th=[     10],  5.00th=[     10], 10.00th=[     10],\n"
"     | 20.00th=[     10], 30.00th=[     10], 40.00th=[     10],\n"
"     | 50.00th=[     10], 60.00th=[     10], 70.00th=[     10],\n"
"     | 80.00th=[     20], 90.00th=[     20], 95.00th=[     20],\n"
"     | 99.00th=[     20], 99.50th=[     21], 99.90th=[     30],\n"
"     | 99.95th=[     30], 99.99th=[4112384]\n"
"   bw (  MiB/s): min= 1171, max= 1269, per=100.00%, avg=1220.70, stdev=69.05, samples=2\n"
"  lat (nsec)   : 20=99.95%, 50=0.04%\n"
"  lat (usec)   : 250=0.01%\n"
"  lat (msec)   : 10=0.01%\n"
"  fsync/fdatasync/sync_file_range:\n"
"    sync (usec): min=250, max=4512, avg=420.48, stdev=839.39\n"
"    sync percentiles (usec):\n"
"     |  1.00th=[  251],  5.00th=[  251], 10.00th=[  251], 20.00th=[  251],\n"
"     | 30.00th=[  251], 40.00th=[  251], 50.00th=[  251], 60.00th=[  251],\n"
"     | 70.00th=[  251], 80.00th=[  251], 90.00th=[  251], 95.00th=[  251],\n"
"     | 99.00th=[ 4490], 99.50th=[ 4490], 99.90th=[ 4490], 99.95th=[ 4490],\n"
"     | 99.99th=[ 4490]\n"
"  cpu          : usr=59.25%, sys=0.65%, ctx=347, majf=0, minf=20\n"
"  iolite       : usr=40.2ns/IO, clock=tsc\n"
"  io_uring wq  : threads=128 (max 64 at once), cpu=1234.5ms (usr+sys)\n"
"  IO depths    : 1=95.0%, 2=0.0%, 4=5.0%, 8=0.0%, 16=0.1%, 32=0.0%, >=64=0.0%\n"
"     submit    : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
"     complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
"     issued rwts: total=0,20000,0,100 short=0,0,0,0 dropped=0,0,0,0\n"
"     latency   : target=0, window=0, percentile=100.00%, depth=1\n"
"\n"
"Run status group 0 (all jobs):\n"
"   READ: bw=33.9MiB/s (35.6MB/s), 33.9MiB/s-33.9MiB/s (35.6MB/s-35.6MB/s), io=15.8MiB (16.6MB), run=466-466msec\n"
"  WRITE: bw=34.7MiB/s (36.4MB/s), 34.7MiB/s-34.7MiB/s (36.4MB/s-36.4MB/s), io=16.2MiB (17.0MB), run=466-466msec\n"
"\n"
"Run status group 1 (all jobs):\n"
"  WRITE: bw=1250MiB/s (1311MB/s), 1250MiB/s-1250MiB/s (1311MB/s-1311MB/s), io=1250MiB (1311MB), run=1000-1000msec\n"
"\n"
"Disk stats (read/write):\n"
"  loop0: ios=4741/4802, merge=0/0, ticks=36/43, in_queue=79, util=24.29%\n"
"\n"
"Notes:\n"
"  first note\n"
"  second note\n";

static const char *const notes[] = { "first note", "second note" };

static void set_w(struct welford *w, uint64_t n, uint64_t min, uint64_t max,
		  double mean, double stdev)
{
	w->n = n;
	w->min = min;
	w->max = max;
	w->mean = mean;
	w->m2 = stdev * stdev * (double)(n - 1);
}

/* percentile values that show as 'shown' once scaled up to usec */
static void set_pct_us(struct dir_result *dr, const unsigned int *shown)
{
	unsigned int i;

	dr->clat_pct.on = true;
	for (i = 0; i < hist_default_pct_nr; i++)
		dr->clat_pct.val[i] = shown[i] * 1000ull - 500;
}

static void job_common(struct job_result *j, const char *name)
{
	j->name = strdup(name);
	j->kb_base = 1024;
	j->unit_base = 8;
	j->sig_figs = 4;
	j->pct_precision = 2;
	j->nr_pct = hist_default_pct_nr;
	memcpy(j->pct_list, hist_default_pct,
	       hist_default_pct_nr * sizeof(double));
	j->clat_pct_opt = true;
	j->members = 1;
	j->start_wall.tv_sec = 1700000000;
	j->latency_depth = 1;
	j->latency_percentile = 100.0;
}

static void build_job_b(struct job_result *j)
{
	static const unsigned int rp[] = {
		42, 68, 69, 70, 71, 72, 75, 82, 99, 117, 135, 180, 570, 1045,
		3097, 3916, 9634,
	};
	static const unsigned int wp[] = {
		3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 7, 24, 47, 101, 120, 184,
	};
	static const uint64_t us[LAT_US_NR] = {
		0, 2107, 1938, 50, 124, 2759, 1113, 52, 19, 9,
	};
	struct dir_result *r = &j->dir[DDIR_READ], *w = &j->dir[DDIR_WRITE];

	job_common(j, "b");
	j->pid = 9653;
	j->ddir_mask = 3;

	r->ios = 4050;
	r->bytes = 4050 * 4096;
	r->runtime_ms = 466;
	r->bw = r->bytes * 1000 / 466;
	r->iops = 4050 * 1000.0 / 466;
	set_w(&r->clat, 4050, 34123, 9669000, 108970, 231660);
	set_w(&r->lat, 4050, 34200, 9669100, 109020, 231660);
	set_pct_us(r, rp);
	set_w(&r->bw_samples, 3, 33000, 35000, 34000, 1000);
	set_w(&r->iops_samples, 3, 8250, 8750, 8500, 250);
	r->bw_agg_pct = 97.80;

	w->ios = 4142;
	w->bytes = 4142 * 4096;
	w->runtime_ms = 466;
	w->bw = w->bytes * 1000 / 466;
	w->iops = 4142 * 1000.0 / 466;
	set_w(&w->clat, 4142, 2345, 183000, 4650, 6370);
	set_w(&w->lat, 4142, 2400, 183100, 4730, 6380);
	set_pct_us(w, wp);

	memcpy(j->lat_us, us, sizeof(us));
	j->lat_ms[0] = 12;
	j->lat_ms[1] = 7;
	j->lat_ms[2] = 2;
	j->usr_cpu = 0.65;
	j->sys_cpu = 40.86;
	j->ctx = 4000;
	j->minf = 14;
	j->usr_ns_per_io = 12.5;
	j->issued[0] = 4050;
	j->issued[1] = 4142;
	j->depth[1] = 8192;
	j->submit[1] = j->complete[1] = 8192;
	j->submit_calls = j->complete_calls = 8192;
}

static void build_job_c(struct job_result *j)
{
	static const uint64_t pv[] = {
		10, 10, 10, 10, 10, 10, 10, 10, 10, 20, 20, 20, 20, 21, 30, 30,
		4112384,
	};
	struct dir_result *w = &j->dir[DDIR_WRITE];
	unsigned int i;

	job_common(j, "c");
	j->groupid = 1;
	j->members = 2;
	j->pid = 42;
	j->description = strdup("two of them");
	j->ddir_mask = 2;

	w->ios = 20000;
	w->bytes = 20000ull * 65536;
	w->runtime_ms = 1000;
	w->bw = w->bytes;
	w->iops = 20000;
	set_w(&w->clat, 20000, 10, 4134800, 270.79, 32305.25);
	w->clat_pct.on = true;
	for (i = 0; i < hist_default_pct_nr; i++)
		w->clat_pct.val[i] = pv[i];
	set_w(&w->bw_samples, 2, 1200000, 1300000, 1250000, sqrt(5e9));
	w->bw_agg_pct = 100.0;

	j->lat_ns[3] = 19990;
	j->lat_ns[4] = 8;
	j->lat_us[6] = 1;	/* 0.005%: shown as the 0.01% floor */
	j->lat_ms[2] = 1;

	j->sync_ios = 100;
	set_w(&j->sync_lat, 100, 250000, 4512000, 420480, 839385.4952862657);
	for (i = 0; i < 96; i++)
		hist_add(&j->sync_hist, 250000);
	for (i = 0; i < 4; i++)
		hist_add(&j->sync_hist, 4512000);
	j->sync_pct.on = true;
	hist_percentiles(&j->sync_hist, j->sync_lat.min, j->sync_lat.max,
			 j->pct_list, j->nr_pct, j->sync_pct.val);

	j->usr_cpu = 59.25;
	j->sys_cpu = 0.65;
	j->ctx = 347;
	j->minf = 20;
	j->usr_ns_per_io = 40.24;
	j->iowq_threads = 128;
	j->iowq_max_threads = 64;
	j->iowq_cpu_ns = 1234500000;
	j->issued[1] = 20000;
	j->issued[3] = 100;
	j->depth[1] = 19000;
	j->depth[3] = 995;
	j->depth[5] = 5;	/* 0.025%: shown as the 0.1% floor */
}

static void build(struct run_result *rr)
{
	struct group_result *g;

	memset(rr, 0, sizeof(*rr));
	rr->nr_jobs = 2;
	rr->jobs = calloc(2, sizeof(*rr->jobs));
	build_job_b(&rr->jobs[0]);
	build_job_c(&rr->jobs[1]);

	rr->nr_groups = 2;
	rr->groups = calloc(2, sizeof(*rr->groups));
	g = &rr->groups[0];
	g->kb_base = 1024;
	g->unit_base = 8;
	g->sig_figs = 4;
	g->io_bytes[0] = rr->jobs[0].dir[0].bytes;
	g->io_bytes[1] = rr->jobs[0].dir[1].bytes;
	g->agg_bw[0] = g->min_bw[0] = g->max_bw[0] = rr->jobs[0].dir[0].bw;
	g->agg_bw[1] = g->min_bw[1] = g->max_bw[1] = rr->jobs[0].dir[1].bw;
	g->min_run_ms[0] = g->max_run_ms[0] = 466;
	g->min_run_ms[1] = g->max_run_ms[1] = 466;
	g = &rr->groups[1];
	g->groupid = 1;
	g->kb_base = 1024;
	g->unit_base = 8;
	g->sig_figs = 4;
	g->io_bytes[1] = rr->jobs[1].dir[1].bytes;
	g->agg_bw[1] = g->min_bw[1] = g->max_bw[1] = rr->jobs[1].dir[1].bw;
	g->min_run_ms[1] = g->max_run_ms[1] = 1000;

	rr->nr_disks = 1;
	rr->disks = calloc(1, sizeof(*rr->disks));
	strcpy(rr->disks[0].name, "loop0");
	rr->disks[0].ios[0] = 4741;
	rr->disks[0].ios[1] = 4802;
	rr->disks[0].ticks[0] = 36;
	rr->disks[0].ticks[1] = 43;
	rr->disks[0].time_in_queue = 79;
	rr->disks[0].util = 24.29;
	rr->clock = "tsc";
	rr->notes = notes;
	rr->nr_notes = 2;
}

/* Compares line by line so that a failure names the first bad line. */
static void compare(const char *got, const char *want)
{
	unsigned int line = 1;
	const char *g = got, *w = want;

	while (*g && *w) {
		size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");

		if (gl != wl || memcmp(g, w, gl)) {
			ok(0, "report matches fio's layout");
			diag("line %u differs:", line);
			diag("want: %.*s", (int)wl, w);
			diag(" got: %.*s", (int)gl, g);
			return;
		}
		g += gl + (g[gl] == '\n');
		w += wl + (w[wl] == '\n');
		line++;
	}
	ok(!*g && !*w, "report matches fio's layout (%u lines)", line - 1);
	if (*g || *w)
		diag("%s ends early at line %u", *g ? "expected" : "report",
		     line);
}

static void test_preamble(void)
{
	struct job_plan p[4];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned int i;
	char want[512], na[] = "a", nz[] = "z", psync[] = "psync";
	char libaio[] = "libaio";

	memset(p, 0, sizeof(p));
	for (i = 0; i < 4; i++) {
		p[i].o.name = i < 3 ? na : nz;
		p[i].o.ioengine = psync;
		p[i].o.iodepth = 1;
		p[i].o.kb_base = 1024;
		p[i].o.rw = RW_RANDRW;
		p[i].o.bs[0] = p[i].o.bs[1] = p[i].o.bs[2] = 4096;
		p[i].clone = i < 3 ? i : 0;
		p[i].groupid = i < 3 ? 0 : 1;
	}
	p[3].o.thread = true;
	p[3].o.rw = RW_READ;
	p[3].o.bsrange[0].min = 1024;
	p[3].o.bsrange[0].max = 16384;
	p[3].o.bs[1] = p[3].o.bs[2] = 65536;
	p[3].o.ioengine = libaio;
	p[3].o.iodepth = 16;

	f = open_memstream(&buf, &len);
	report_normal_preamble(p, 4, f);
	fclose(f);
	snprintf(want, sizeof(want),
		 "a: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, "
		 "(T) 4096B-4096B, ioengine=psync, iodepth=1\n"
		 "...\n"
		 "z: (g=1): rw=read, bs=(R) 1024B-16.0KiB, (W) 64.0KiB-64.0KiB, "
		 "(T) 64.0KiB-64.0KiB, ioengine=libaio, iodepth=16\n"
		 "iolite-%s\n"
		 "Starting 1 thread and 3 processes\n", IOLITE_VERSION);
	compare(buf, want);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	report_normal_preamble(p, 1, f);
	fclose(f);
	ok(strstr(buf, "\nStarting 1 process\n") != NULL,
	   "one job: 'Starting 1 process'");
	free(buf);
}

/*
 * results_build: numjobs clones with group_reporting merge into one job;
 * without it each clone is a job of its own; group figures follow.
 */
static void test_results_build(void)
{
	struct job_plan p[4];
	struct worker_stats *st = calloc(4, sizeof(*st));
	struct worker_result wr[4];
	struct run_result rr;
	struct strbuf err = STRBUF_INIT;
	const struct job_result *a, *b0, *b1;
	const struct group_result *g0, *g1;
	double dp[DIST_NR];
	char na[] = "a", nb[] = "b";
	unsigned int i, v, inside = 1;

	memset(p, 0, sizeof(p));
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < 4; i++) {
		worker_stats_init(&st[i]);
		p[i].o.name = i < 2 ? na : nb;
		p[i].o.kb_base = 1024;
		p[i].o.iodepth = 1;
		p[i].o.group_reporting = i < 2;
		p[i].o.clat_percentiles = true;
		p[i].o.nr_percentile_list = hist_default_pct_nr;
		memcpy(p[i].o.percentile_list, hist_default_pct,
		       hist_default_pct_nr * sizeof(double));
		p[i].o.percentile_precision = 2;
		p[i].groupid = i < 2 ? 0 : 1;
		p[i].clone = i % 2;
		wr[i].plan = &p[i];
		wr[i].st = &st[i];
		wr[i].tid = 100 + i;
	}
	/* a, clone 0: 100 reads in 1s; clone 1: 300 reads in 2s */
	for (i = 0; i < 2; i++) {
		struct dir_stats *ds = &st[i].dir[DDIR_READ];
		unsigned int n = i ? 300 : 100;

		for (v = 0; v < n; v++) {
			uint64_t ns = 1000 + 7919ull * (v + 100 * i) % 50000;

			moments_add(&ds->clat, ns);
			hist_add(&ds->clat_hist, ns);
		}
		ds->ios = n;
		ds->bytes = n * 4096ull;
		ds->runtime_us = (i + 1) * 1000000ull;
		st[i].issued[DDIR_READ] = n;
		st[i].depth[1] = n;
		wr[i].elapsed_us = (i + 1) * 1000000ull;
		wr[i].ru.ru_utime.tv_sec = i;
		wr[i].ru.ru_utime.tv_usec = 500000;
		wr[i].ru.ru_nvcsw = 10;
		wr[i].iowq_threads = 3 + i;
		wr[i].iowq_max_threads = 2 + i;
		wr[i].iowq_cpu_ns = 1000000 * (i + 1);
		welford_add(&wr[i].bw_samples[DDIR_READ], 100 + 200 * i);
		welford_add(&wr[i].bw_samples[DDIR_READ], 200 + 200 * i);
	}
	st[1].depth[5] = 1;	/* one of 400 at depth 16: 0.25% */
	wr[1].error = 5;
	/* b, clone 0: 1000 writes in 500ms; clone 1: 2000 in 2s */
	for (i = 2; i < 4; i++) {
		struct dir_stats *ds = &st[i].dir[DDIR_WRITE];

		ds->ios = i == 2 ? 1000 : 2000;
		ds->bytes = ds->ios * 4096;
		ds->runtime_us = i == 2 ? 500000 : 2000000;
		st[i].issued[DDIR_WRITE] = ds->ios;
	}

	ok(!results_build(&rr, wr, 4, &err), "results_build succeeds");
	ok(rr.nr_jobs == 3 && rr.nr_groups == 2,
	   "group_reporting merges a's clones, b's stay apart (%u jobs)",
	   rr.nr_jobs);
	a = &rr.jobs[0];
	b0 = &rr.jobs[1];
	b1 = &rr.jobs[2];
	g0 = &rr.groups[0];
	g1 = &rr.groups[1];

	ok(!strcmp(a->name, "a") && a->members == 2 && a->pid == 100 &&
	   a->error == 5, "merged job: name, members, first pid, error");
	ok(a->ddir_mask == 1u << DDIR_READ, "merged job reports reads only");
	ok(a->dir[0].ios == 400 && a->dir[0].bytes == 400 * 4096 &&
	   a->dir[0].runtime_ms == 2000, "counts add, runtime is the max");
	ok(a->dir[0].bw == 819200 && a->dir[0].iops == 200.0,
	   "bw and iops over the longest runtime");
	ok(a->dir[0].clat.n == 400 && a->dir[0].clat.min == 1000,
	   "latencies merged");
	ok(a->nr_pct == 17 && a->dir[0].clat_pct.on &&
	   !a->dir[0].lat_pct.on && !a->dir[0].slat_pct.on &&
	   !a->dir[DDIR_WRITE].clat_pct.on,
	   "17 clat percentiles, none for lat, slat or an idle direction");
	for (i = 0; i < a->nr_pct; i++)
		if (a->dir[0].clat_pct.val[i] < a->dir[0].clat.min ||
		    a->dir[0].clat_pct.val[i] > a->dir[0].clat.max ||
		    (i && a->dir[0].clat_pct.val[i] <
			  a->dir[0].clat_pct.val[i - 1]))
			inside = 0;
	ok(inside, "percentiles ordered, within [min, max]");
	ok(a->own_ios == 400 && a->own_usr_ns == 2000000000ull &&
	   fabs(a->usr_ns_per_io - 5e6) < 1e-6,
	   "own cost: summed user time over summed I/Os (%.1f ns/IO)",
	   a->usr_ns_per_io);
	ok(a->iowq_threads == 7 && a->iowq_max_threads == 5 &&
	   a->iowq_cpu_ns == 3000000, "io-wq threads and CPU add up");
	ok(b0->usr_ns_per_io == 0.0 && !b0->iowq_threads,
	   "no user time, no io-wq: zeros");
	ok(a->dir[0].bw_samples.n == 4 && a->dir[0].bw_samples.min == 400 &&
	   a->dir[0].bw_samples.max == 600 &&
	   fabs(a->dir[0].bw_samples.mean - 500.0) < 1e-9,
	   "bw samples of side-by-side clones add up");
	ok(fabs(a->dir[0].bw_agg_pct - 62.5) < 1e-9,
	   "per= is the sample mean over the group rate (%.2f)",
	   a->dir[0].bw_agg_pct);
	ok(fabs(a->usr_cpu - 200.0 / 3.0) < 1e-9 && a->ctx == 20,
	   "cpu: summed time over summed run time (%.2f%%)", a->usr_cpu);
	results_depth_pct(a, dp);
	ok(dp[0] == 100.0 && dp[4] == 0.25, "depth shares (%.2f, %.2f)",
	   dp[0], dp[4]);

	ok(!strcmp(b0->name, "b") && !strcmp(b1->name, "b") &&
	   b0->members == 1 && b1->members == 1 && b1->pid == 103,
	   "clones without group_reporting share their name");
	ok(g0->agg_bw[0] == 819200 && g0->min_bw[0] == 819200 &&
	   g0->max_bw[0] == 819200 && g0->min_run_ms[0] == 2000 &&
	   g0->max_run_ms[0] == 2000, "group 0 figures");
	ok(g1->io_bytes[1] == 3000 * 4096 && g1->min_bw[1] == 4096000 &&
	   g1->max_bw[1] == 8192000 && g1->agg_bw[1] == 6144000 &&
	   g1->min_run_ms[1] == 500 && g1->max_run_ms[1] == 2000,
	   "group 1: min/max over jobs, aggregate over the longest run");
	ok(!g1->max_run_ms[0] && !g0->max_run_ms[1],
	   "directions without I/O have no run status line");

	run_result_release(&rr);
	strbuf_release(&err);
	free(st);
}

int main(void)
{
	struct run_result rr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	setenv("TZ", "UTC", 1);
	build(&rr);
	ok(report_find("normal") == &report_normal, "report_find(\"normal\")");
	ok(report_find("nosuch") == NULL, "report_find of an unknown name");

	f = open_memstream(&buf, &len);
	ok(report_normal.write(&rr, f) == 0, "write returns 0");
	fclose(f);
	compare(buf, expected);
	free(buf);

	/* no disks, no notes: the last run status line ends the report */
	rr.nr_disks = 0;
	rr.nr_notes = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_normal.write(&rr, f);
	fclose(f);
	ok(len > 9 && !strcmp(buf + len - 9, "1000msec\n"),
	   "without disks the run status line ends the report");
	free(buf);

	test_preamble();
	run_result_release(&rr);
	test_results_build();
	return done_testing();
}

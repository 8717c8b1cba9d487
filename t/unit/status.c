/* SPDX-License-Identifier: MIT */
/* The status line (src/report/status.c): its text and how it is drawn. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/status.h"

static struct run_status base(const char *states)
{
	struct run_status s;

	memset(&s, 0, sizeof(s));
	s.nr_jobs = (unsigned int)strlen(states);
	s.states = states;
	s.kb_base = 1024;
	return s;
}

static int line_is(const struct run_status *s, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	status_format(s, &sb);
	r = !strcmp(strbuf_str(&sb), want);
	if (!r)
		diag("got  '%s'\n# want '%s'", strbuf_str(&sb), want);
	strbuf_release(&sb);
	return r;
}

static void test_format(void)
{
	struct run_status s = base("R");

	s.running = 1;
	s.files = 1;
	s.pct = 45.46;
	s.eta_s = 6;
	s.dir_mask = 1;
	s.bw[0] = 1234ull << 20;
	s.iops[0] = 316000;
	ok(line_is(&s, "Jobs: 1 (f=1): [R(1)][45.5%][r=1234MiB/s][r=316k IOPS][eta 00m:06s]"),
	   "one reader, fio's example");

	s = base("_MMmW");
	s.running = 4;
	s.files = 8;
	s.pct = 2;
	s.eta_s = 3600 + 23 * 60 + 18;
	s.dir_mask = 3;
	s.bw[0] = 20 << 20;
	s.bw[1] = 1536 << 10;
	s.iops[0] = 82;
	s.iops[1] = 94;
	ok(line_is(&s, "Jobs: 4 (f=8): [_(1),M(2),m(1),W(1)][2.0%][r=20.0MiB/s,w=1536KiB/s][r=82,w=94 IOPS][eta 01h:23m:18s]"),
	   "runs of letters condensed, read and write, hours");

	s = base("PP");
	s.pct = -1;
	s.eta_s = -1;
	ok(line_is(&s, "Jobs: 0 (f=0): [P(2)][-.-%][eta --m:--s]"),
	   "nothing running: no rates, unknown percent and eta");

	s = base("d");
	s.running = 1;
	s.files = 1;
	s.pct = 100;
	s.eta_s = 2 * 86400 + 3 * 3600 + 4 * 60 + 5;
	s.dir_mask = 4;
	s.bw[2] = 0;
	s.kb_base = 1000;
	s.bw[2] = 5000000;
	s.iops[2] = 1220;
	ok(line_is(&s, "Jobs: 1 (f=1): [d(1)][100.0%][t=5000kB/s][t=1220 IOPS][eta 2d:03h:04m:05s]"),
	   "trim, kb_base=1000, days");
}

static char *slurp(FILE *f, size_t *len)
{
	char *buf;

	fflush(f);
	*len = (size_t)ftell(f);
	buf = calloc(1, *len + 1);
	rewind(f);
	if (fread(buf, 1, *len, f) != *len)
		*len = 0;
	return buf;
}

static void test_print(void)
{
	struct status_printer sp;
	struct run_status s = base("R");
	FILE *f = tmpfile();
	const char *want;
	size_t len;
	char *out;

	s.running = 1;
	s.files = 1;
	s.pct = 10;
	s.eta_s = 100;
	s.dir_mask = 1;
	s.bw[0] = 1000000;
	s.iops[0] = 1000;
	status_printer_init(&sp, f, 2000);
	s.elapsed_ms = 1000;
	status_print(&sp, &s);
	s.elapsed_ms = 1500;
	s.bw[0] = 1;	/* a shorter line: padded over the longer one */
	s.iops[0] = 1;
	status_print(&sp, &s);
	s.elapsed_ms = 2500;
	status_print(&sp, &s);
	status_print(&sp, NULL);
	status_print(&sp, NULL);
	out = slurp(f, &len);
	want = "Jobs: 1 (f=1): [R(1)][10.0%][r=977KiB/s][r=1000 IOPS][eta 01m:40s]\r"
	       "Jobs: 1 (f=1): [R(1)][10.0%][r=1B/s][r=1 IOPS][eta 01m:40s]       \r"
	       "\nJobs: 1 (f=1): [R(1)][10.0%][r=1B/s][r=1 IOPS][eta 01m:40s]\r"
	       "\n";
	ok(!strcmp(out, want), "lines end in \\r, padded, a newline every "
	   "eta_newline, one at the end");
	if (strcmp(out, want))
		diag("got '%s'", out);
	free(out);
	status_printer_release(&sp);
	fclose(f);
}

/* fio's rate part: ", lo-hi" in bytes/s, else ", lo-hi IOPS" */
static void test_rates(void)
{
	struct run_status s = base("W");

	s.running = 1;
	s.files = 1;
	s.pct = 50;
	s.eta_s = 1;
	s.dir_mask = 2;
	s.bw[1] = 800 << 10;
	s.iops[1] = 200;
	s.iops_hi = 200;
	ok(line_is(&s, "Jobs: 1 (f=1), 0-200 IOPS: [W(1)][50.0%][w=800KiB/s][w=200 IOPS][eta 00m:01s]"),
	   "rate_iops: 0-200 IOPS");
	s.iops_lo = 20;
	ok(line_is(&s, "Jobs: 1 (f=1), 20-200 IOPS: [W(1)][50.0%][w=800KiB/s][w=200 IOPS][eta 00m:01s]"),
	   "rate_iops_min and rate_iops");
	s.rate_lo = 200 << 10;
	s.rate_hi = 1560576;
	ok(line_is(&s, "Jobs: 1 (f=1), 200KiB/s-1524KiB/s: [W(1)][50.0%][w=800KiB/s][w=200 IOPS][eta 00m:01s]"),
	   "a bandwidth rate goes before IOPS ones, fio's 4 figures");
	s.rate_lo = 0;
	s.rate_hi = 400 << 10;
	ok(line_is(&s, "Jobs: 1 (f=1), 0B/s-400KiB/s: [W(1)][50.0%][w=800KiB/s][w=200 IOPS][eta 00m:01s]"),
	   "rate alone: from 0B/s");
}

/* iolite's --sweep and --repeat: the point, the run, the ETA of all */
static void test_sweep_repeat(void)
{
	struct run_status s = base("_R_");

	s.running = 1;
	s.files = 1;
	s.pct = 40;
	s.eta_s = 6;
	s.eta_all_s = 66;
	s.point = 2;
	s.nr_points = 3;
	ok(line_is(&s, "Jobs: 1 (f=1): [_(1),R(1),_(1)][40.0%][point 2/3][eta 00m:06s]"),
	   "a sweep: the point of how many; its ETA the run's");
	s.round = 2;
	s.nr_rounds = 5;
	ok(line_is(&s, "Jobs: 1 (f=1): [_(1),R(1),_(1)][40.0%][point 2/3][run 2/5][eta 01m:06s]"),
	   "repeats: the run of how many, the ETA of every run left");
	s.eta_all_s = -1;
	ok(line_is(&s, "Jobs: 1 (f=1): [_(1),R(1),_(1)][40.0%][point 2/3][run 2/5][eta --m:--s]"),
	   "repeats, ETA unknown");
}

int main(void)
{
	test_format();
	test_print();
	test_rates();
	test_sweep_repeat();
	return done_testing();
}

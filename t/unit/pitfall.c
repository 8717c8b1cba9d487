/* SPDX-License-Identifier: MIT */
/*
 * run/pitfall.c's notes after a run, on results made by hand: the
 * decisions of the tester's-stall and idle-disk notes at and around
 * their thresholds, which a busy shared machine cannot stage reliably.
 * The notes on real runs are t/t1930-pitfalls.sh.
 */
#include <stdlib.h>
#include <string.h>

#include "run/pitfall.h"
#include "tap.h"

static struct job_result job;
static char name[] = "j";
static struct disk_result disk;
static struct run_result rr;

static void reset(void)
{
	memset(&job, 0, sizeof(job));
	memset(&disk, 0, sizeof(disk));
	memset(&rr, 0, sizeof(rr));
	job.name = name;
	job.members = 1;
	job.run_ms = 1000;
	job.run_delay_known = true;
	job.on_disk = true;
	job.dir[DDIR_READ].bytes = 100u << 20;
	strcpy(disk.name, "vdz");
	disk.sectors[0] = (100u << 20) / 512;	/* all of it */
	disk.util = 80.0;
	rr.jobs = &job;
	rr.nr_jobs = 1;
	rr.disks = &disk;
	rr.nr_disks = 1;
}

/* The notes pitfall_after() makes, joined by newlines (static). */
static const char *notes(void)
{
	static char buf[4096];
	struct notes n = { NULL, 0 };
	unsigned int i;

	buf[0] = '\0';
	pitfall_after(&rr, &n);
	for (i = 0; i < n.nr; i++) {
		strncat(buf, n.v[i], sizeof(buf) - strlen(buf) - 2);
		strcat(buf, "\n");
	}
	notes_release(&n);
	return buf;
}

static void test_stall(void)
{
	const char *s;

	reset();
	job.run_delay_ns = 10000000;	/* 10 ms of 1000: 1%, not more */
	job.nivcsw = 5;
	ok(!*notes(), "stall: 1%% of the run is no note");
	job.run_delay_ns = 25000000;
	s = notes();
	ok(strstr(s, "job 'j': the tester was starved of CPU: its worker thread was runnable but not running for 25.0 ms (2.5% of 1000 ms run; 5 involuntary context switches)") != NULL,
	   "stall: 2.5%% is a note with the figures");
	job.members = 2;
	job.run_ms = 4000;	/* summed over the members: 0.6% */
	ok(!*notes(), "stall: the share is of the members' summed run time");
	job.run_ms = 1000;
	ok(strstr(notes(), "its worker threads were") != NULL,
	   "stall: members say threads");
	job.run_delay_known = false;
	ok(!*notes(), "stall: no note when the kernel does not say");
	job.run_delay_known = true;
	job.running = false;
	job.run_ms = 0;
	ok(!*notes(), "stall: no note for a job that did not run");
}

static void test_disk(void)
{
	const char *s;

	reset();
	ok(!*notes(), "disk: a disk that moved the jobs' bytes is no note");
	disk.sectors[0] = (10u << 20) / 512;	/* a tenth: still measured */
	ok(!*notes(), "disk: a tenth is no note");
	disk.sectors[0] = (1u << 20) / 512;
	disk.sectors[1] = (1u << 20) / 512;
	disk.util = 0.4;
	s = notes();
	ok(strstr(s, "disk 'vdz' moved 2048 KiB while the jobs on disks moved 102400 KiB (it was busy 0.4% of the run): the I/O was served above the device") != NULL,
	   "disk: 2%% of the jobs' bytes is a note with the figures");
	job.on_disk = false;
	ok(!*notes(), "disk: jobs on no disk (tmpfs, null) do not count");
	job.on_disk = true;
	job.dir[DDIR_READ].bytes = 512 << 10;
	disk.sectors[0] = disk.sectors[1] = 0;
	ok(!*notes(), "disk: under 1 MiB moved by the jobs is too little to tell");
}

int main(void)
{
	diag("pitfall notes after a run");
	test_stall();
	test_disk();
	return done_testing();
}

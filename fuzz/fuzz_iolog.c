/* SPDX-License-Identifier: MIT */
/*
 * iolog replay: the input is an I/O log (read_iolog). It is planned as
 * main plans it, then replayed on the null engine twice: by the inline
 * loop (iodepth=1) with rate_iops and write_iolog, and by the queueing
 * loop (iodepth=4) read in chunks, with think time and two loops. So
 * every action a log can hold reaches the worker, the pacing (with and
 * without a rate), the log writer and the replay's rewinding. The rate
 * is high and stalls are off: a run takes milliseconds.
 *
 * The files a log may name are a, b and c in a directory of the
 * harness's own, the current directory while an input runs (a crash
 * there leaves libFuzzer's artifact in it unless -artifact_prefix is
 * absolute, as fuzz/run.sh gives it); an input with a '/' could name
 * any other file and is not run.
 */
#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/clock.h"
#include "opt/plan.h"
#include "run/runner.h"
#include "target/files.h"
#include "workload/iolog.h"

/* a larger block only costs time: the buffers are filled per write */
#define MAX_BS (1u << 20)

static char dir[] = "/tmp/iolite-fuzz-iolog.XXXXXX";
static int dir_fd = -1, home_fd = -1;
static const char *const names[] = { "a", "b", "c", "in.log", "out.log" };

static const char *const words[] = {
	"fio version 2 iolog\n", "fio version 3 iolog\n", " add\n",
	" open\n", " close\n", " read ", " write ", " trim ", " sync ",
	" datasync ", " wait ", " sync_file_range ", "a", "b", "c",
	" 0 4096\n", "18446744073709551615", "4294967295",
};

static void remove_dir(void)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		unlinkat(dir_fd, names[i], 0);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct strbuf note = STRBUF_INIT;
	size_t i;

	fuzz_write_words(words, sizeof(words) / sizeof(*words));
	if (!mkdtemp(dir))
		abort();
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
	home_fd = open(".", O_RDONLY | O_DIRECTORY);
	if (dir_fd < 0 || home_fd < 0)
		abort();
	for (i = 0; i < 3; i++) {
		int fd = openat(dir_fd, names[i],
				O_WRONLY | O_CREAT | O_EXCL, 0600);

		if (fd < 0 || ftruncate(fd, 1 << 20) || close(fd))
			abort();
	}
	atexit(remove_dir);
	if (clock_init(0, &note))
		abort();
	strbuf_release(&note);
	return 0;
}

static int write_log(const uint8_t *data, size_t size)
{
	int fd = open("in.log", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		abort();
	n = write(fd, data, size);
	if (close(fd) || n != (ssize_t)size)
		abort();
	return 0;
}

/* One job of argv's options, built and planned; 0 or -1 (bad input). */
static int plan_job(const char *const *argv, struct job_plan *p)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options o;
	struct job_list jl;
	int i, ret = -1;

	job_list_init(&jl);
	for (i = 0; argv[i]; i++) {
		char *kv = strdup(argv[i]), *eq = strchr(kv, '=');

		if (!kv || !eq)
			abort();
		*eq = '\0';
		if (job_cmdline_add(&jl, kv, eq + 1, i + 1, &err))
			abort();	/* the harness's own options */
		free(kv);
	}
	if (job_build(&jl.jobs[0], &o, &err))
		abort();
	memset(p, 0, sizeof(*p));
	if (!job_plan_build(p, &o, &jl.jobs[0], &err)) {
		ret = iolog_plan(p, 0, &err);
		if (ret)
			plan_release(p);
	}
	job_options_release(&o);
	job_list_release(&jl);
	strbuf_release(&err);
	return ret;
}

/*
 * What the null engine cannot do: a short or dropped I/O, an I/O issued
 * and not completed (nothing stops the job early). A count out of step
 * is a finding, as a sanitizer's is.
 */
static void check_counts(const struct worker_stats *st)
{
	unsigned int d;

	for (d = 0; d <= DDIR_RWDIR_CNT; d++)
		if (st->issued_short[d] || st->issued_drop[d])
			abort();
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (st->issued[d] != st->dir[d].ios)
			abort();
	if (st->issued[DDIR_RWDIR_CNT] != st->sync_ios)
		abort();
}

static void replay(const char *const *argv)
{
	struct strbuf err = STRBUF_INIT;
	struct job_files jf = { 0 };
	struct run_job job = { 0 };
	struct job_plan p;
	unsigned int d;

	if (plan_job(argv, &p))
		return;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (p.dir_max_bs[d] > MAX_BS)
			goto out;
	if (files_resolve(&p, 1, &jf, &err) ||
	    files_prepare(&p, 1, &jf, NULL, &err))
		goto out;
	job.plan = &p;
	job.files = &jf;
	if (runner_run(&job, 1, NULL, &err) == 0 && job.st)
		check_counts(job.st);
	files_finish(&p, &jf);
	if (job.st)
		worker_stats_release(job.st);
	free(job.st);
	worker_result_release(&job.res);
out:
	job_files_release(&jf);
	plan_release(&p);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const inline_job[] = {
		"name=i", "ioengine=null", "read_iolog=in.log",
		"replay_no_stall=1", "rate_iops=1000000000,1000000000",
		"write_iolog=out.log", NULL,
	};
	static const char *const queue_job[] = {
		"name=q", "ioengine=null", "iodepth=4", "read_iolog=in.log",
		"read_iolog_chunked=1", "replay_no_stall=1",
		"thinktime=1", "thinktime_blocks=1000", "loops=2", NULL,
	};

	fuzz_selftest(data, size);
	if (size > 65536 || memchr(data, '/', size))
		return -1;
	if (fchdir(dir_fd))
		abort();
	write_log(data, size);
	replay(inline_job);
	replay(queue_job);
	if (fchdir(home_fd))
		abort();
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * cputime: runs a command and records the CPU time it used, for bench/.
 *
 *   cputime OUT CMD [ARGS...]
 *
 * Writes one line to OUT: "user_us sys_us wall_us status maxrss_kib". The
 * CPU times come from wait4(): the command and every descendant it waited
 * for (fio's job processes), every thread of each (io_uring's iou-wrk
 * workers are threads of the process). Their sum is exact to the scheduler's
 * nanosecond runtime accounting; the split between user and system is
 * proportional to timer-tick samples unless the kernel does precise
 * (VIRT_CPU_ACCOUNTING) accounting, so bench/ compares the sum. maxrss_kib
 * is the peak resident set of the largest of those processes (the tests
 * use it to weigh a job's memory; GNU time is not always installed).
 *
 * Exits with the command's exit status (128 + signal if it was killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long tv_us(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	long long t0, t1;
	int status, rc;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: cputime OUT CMD [ARGS...]\n");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "cputime: cannot open '%s': %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	t0 = mono_us();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cputime: fork: %s\n", strerror(errno));
		return 2;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "cputime: cannot run '%s': %s\n", argv[2],
			strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "cputime: wait4: %s\n", strerror(errno));
			return 2;
		}
	t1 = mono_us();
	rc = WIFEXITED(status) ? WEXITSTATUS(status) :
	     128 + WTERMSIG(status);
	fprintf(out, "%lld %lld %lld %d %ld\n", tv_us(&ru.ru_utime),
		tv_us(&ru.ru_stime), t1 - t0, rc, ru.ru_maxrss);
	fclose(out);
	return rc;
}

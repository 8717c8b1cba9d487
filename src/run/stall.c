/* SPDX-License-Identifier: MIT */
/*
 * Run-queue delay of a thread, from /proc: see run/stall.h. Read twice
 * per job (start and end of the measured phase) and once per report made
 * while the run goes on, never on the I/O path.
 */
#include "run/stall.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

int64_t stall_delay_ns(pid_t tid)
{
	char path[64], buf[128];
	unsigned long long run, delay;
	ssize_t n;
	int fd;

	if (tid)
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat",
			 (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "time on the cpu (ns) run-queue delay (ns) timeslices" */
	if (sscanf(buf, "%llu %llu", &run, &delay) != 2)
		return -1;
	return (int64_t)delay;
}

int64_t stall_since(pid_t tid, int64_t start)
{
	int64_t now;

	if (start < 0)
		return -1;
	now = stall_delay_ns(tid);
	if (now < 0)
		return -1;
	return now > start ? now - start : 0;
}

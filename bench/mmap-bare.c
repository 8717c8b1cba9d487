/* SPDX-License-Identifier: MIT */
/*
 * The floor for bench/mmap.sh: a bare loop of memcpy(3) between one
 * shared mapping of a file and a 4 KiB-aligned buffer, at random
 * block-aligned offsets, for a fixed time. No statistics, no clock per
 * copy: what a perfect benchmark of the mapping would cost.
 *
 *   mmap-bare FILE SIZE BS read|write SECONDS [populate] [clock]
 *
 * clock: one time-stamp read after each copy, as a tester that times
 * every I/O must (the TSC on x86-64, as iolite's default clock; else
 * CLOCK_MONOTONIC): the floor for a job with latency statistics.
 *
 * Prints "iops=N bw_mib=N copies=N cpu_s=N": cpu_s is the process's
 * user + system time over the copy loop (getrusage), for a figure that a
 * busy machine does not skew. The mapping is placed at a 2 MiB aligned
 * address, as iolite's mmap engine places it, so both see the same page
 * sizes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define ALIGN (2ul << 20)

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* a time-stamp read whose result is kept: iolite's clock_now_ns() */
static uint64_t stamp(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec;
#endif
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint64_t size, bs, nblocks, x = 0x9E3779B97F4A7C15ull, n = 0, acc = 0;
	int write, populate = 0, clock = 0, fd, flags = MAP_SHARED, i;
	double secs, t0, t, c0;
	char *res, *map, *buf;
	uintptr_t a;

	if (argc < 6) {
		fprintf(stderr, "usage: %s FILE SIZE BS read|write SECONDS "
			"[populate]\n", argv[0]);
		return 2;
	}
	size = strtoull(argv[2], NULL, 0);
	bs = strtoull(argv[3], NULL, 0);
	write = !strcmp(argv[4], "write");
	secs = atof(argv[5]);
	for (i = 6; i < argc; i++) {
		populate |= !strcmp(argv[i], "populate");
		clock |= !strcmp(argv[i], "clock");
	}
	nblocks = size / bs;
	fd = open(argv[1], write ? O_RDWR : O_RDONLY);
	if (fd < 0 || !nblocks) {
		perror(argv[1]);
		return 1;
	}
	if (populate)
		flags |= MAP_POPULATE;
	res = mmap(NULL, size + ALIGN, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a = ((uintptr_t)res + ALIGN - 1) & ~(ALIGN - 1);
	map = mmap((void *)a, size, PROT_READ | (write ? PROT_WRITE : 0),
		   flags | MAP_FIXED, fd, 0);
	if (res == MAP_FAILED || map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* as iolite's default mmap_advise=auto for random I/O */
	madvise(map, size, MADV_RANDOM);
	buf = aligned_alloc(4096, bs);
	memset(buf, 0x5a, bs);
	c0 = cpu_now();
	t0 = now();
	do {
		/* the clock every 1024 copies: its cost is nothing here */
		for (i = 0; i < 1024; i++) {
			uint64_t off;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			off = (x % nblocks) * bs;
			if (write)
				memcpy(map + off, buf, bs);
			else
				memcpy(buf, map + off, bs);
			if (clock)
				acc += stamp();
		}
		n += 1024;
		/* keep the copies from being optimised away */
		__asm__ volatile("" : : "r"(buf), "r"(map), "r"(acc) : "memory");
		t = now() - t0;
	} while (t < secs);
	printf("iops=%.0f bw_mib=%.1f copies=%llu cpu_s=%.6f\n",
	       (double)n / t, (double)n * (double)bs / t / 1048576.0,
	       (unsigned long long)n, cpu_now() - c0);
	return 0;
}

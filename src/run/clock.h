/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_CLOCK_H
#define IOLITE_RUN_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * The worker's clock, in nanoseconds on CLOCK_MONOTONIC (vDSO, no
 * syscall). Read once per submit batch and once per reap batch, never
 * per I/O inside a batch (design.md rule 4).
 */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_now_us(void)
{
	return clock_now_ns() / 1000;
}

/* Sleeps for us microseconds, or until *stop becomes non-zero. */
void clock_sleep_us(uint64_t us, const volatile int *stop);

#endif

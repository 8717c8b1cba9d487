/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_MACHINE_CLOCK_H
#define IOLITE_MACHINE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "util/strbuf.h"

/*
 * The worker's clock, in nanoseconds. Read once per submit batch and once
 * per reap batch, never per I/O inside a batch (design.md rule 4).
 *
 * Two sources: CLOCK_MONOTONIC through the vDSO (clocksource=clock_gettime
 * or gettimeofday), and the CPU's time-stamp counter (clocksource=cpu):
 * used only when the TSC is invariant (CPUID 0x80000007 EDX bit 8),
 * calibrated against CLOCK_MONOTONIC, and found consistent across every
 * CPU the process may run on. clock_init() picks; without a choice the
 * TSC is the default where it passes, and when it does not, the reason is
 * returned as a one-line note for the report.
 *
 * TSC ticks become nanoseconds as (ticks * mult) >> shift, relative to a
 * base taken at calibration: one multiply and one shift.
 */

#define CLOCK_TSC_SHIFT 32	/* ns = (ticks * mult) >> 32 */

struct clock_state {
	bool use_tsc;
	uint64_t tsc_base;
	uint64_t mult;
	uint64_t mono_base_ns;	/* CLOCK_MONOTONIC at tsc_base */
	double tsc_ghz;
};

extern struct clock_state clock_state;

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t clock_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#define CLOCK_HAVE_TSC 1
#else
static inline uint64_t clock_rdtsc(void)
{
	return 0;
}
#define CLOCK_HAVE_TSC 0
#endif

static inline uint64_t clock_now_ns(void)
{
	if (clock_state.use_tsc) {
		uint64_t d = clock_rdtsc() - clock_state.tsc_base;

		/* a constant shift: one instruction, not four */
		return clock_state.mono_base_ns +
		       (uint64_t)(((unsigned __int128)d * clock_state.mult) >>
				  CLOCK_TSC_SHIFT);
	}
	return clock_mono_ns();
}

static inline uint64_t clock_now_us(void)
{
	return clock_now_ns() / 1000;
}

/*
 * Chooses the clock for the run. source: 0 = default (TSC where it
 * passes), 1 = CLOCK_MONOTONIC only, 2 = TSC required. Returns 0; -1 when
 * the TSC was required and fails (reason in note). When the default falls
 * back, note gets the one-line reason. Call once, before any worker.
 */
int clock_init(int source, struct strbuf *note);

/* Name of the clock in use, for reports ("tsc", "clock_gettime"). */
const char *clock_name(void);

/* Sleeps for us microseconds, or until *stop becomes non-zero. */
void clock_sleep_us(uint64_t us, const volatile int *stop);

#endif

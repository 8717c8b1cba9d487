/* SPDX-License-Identifier: MIT */
#include "machine/clock.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#if CLOCK_HAVE_TSC
#include <cpuid.h>
#endif

struct clock_state clock_state;

void clock_sleep_us(uint64_t us, const volatile int *stop)
{
	uint64_t end = clock_mono_ns() / 1000 + us;

	/* short slices so a stop request is seen within 10 ms */
	for (;;) {
		uint64_t now = clock_mono_ns() / 1000, left;
		struct timespec ts;

		if (now >= end || (stop && *stop))
			return;
		left = end - now;
		if (left > 10000)
			left = 10000;
		ts.tv_sec = (time_t)(left / 1000000);
		ts.tv_nsec = (long)(left % 1000000) * 1000;
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

const char *clock_name(void)
{
	return clock_state.use_tsc ? "tsc" : "clock_gettime";
}

#if CLOCK_HAVE_TSC
static int tsc_invariant(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return 0;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return (d >> 8) & 1;
}

/* One pair of (tsc, monotonic) read as close together as we can. */
static void tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = clock_rdtsc(), n = clock_mono_ns();
		uint64_t t1 = clock_rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

/*
 * Each CPU's TSC, mapped through the calibration, must agree with
 * CLOCK_MONOTONIC read on that CPU: tolerance 20 us (well under any
 * latency worth reporting as a regression, well above read jitter).
 */
static int tsc_check_cpus(struct strbuf *why)
{
	cpu_set_t orig, one;
	int cpu, bad = 0;

	if (sched_getaffinity(0, sizeof(orig), &orig))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && !bad; cpu++) {
		uint64_t tsc, ns, got;
		int64_t diff;

		if (!CPU_ISSET(cpu, &orig))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		tsc_pair(&tsc, &ns);
		got = clock_state.mono_base_ns +
		      (uint64_t)(((unsigned __int128)(tsc - clock_state.tsc_base) *
				  clock_state.mult) >> CLOCK_TSC_SHIFT);
		diff = (int64_t)(got - ns);
		if (diff > 20000 || diff < -20000) {
			strbuf_addf(why, "the TSC of cpu %d is %lld ns away from CLOCK_MONOTONIC",
				    cpu, (long long)diff);
			bad = 1;
		}
	}
	sched_setaffinity(0, sizeof(orig), &orig);
	return bad ? -1 : 0;
}

static int tsc_calibrate(struct strbuf *why)
{
	uint64_t t0, n0, t1, n1;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	double ns_per_tick;

	if (!tsc_invariant()) {
		strbuf_addstr(why, "the CPU has no invariant TSC");
		return -1;
	}
	tsc_pair(&t0, &n0);
	nanosleep(&ts, NULL);
	tsc_pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0) {
		strbuf_addstr(why, "the TSC did not advance during calibration");
		return -1;
	}
	ns_per_tick = (double)(n1 - n0) / (double)(t1 - t0);
	clock_state.mult = (uint64_t)(ns_per_tick *
				      (double)(1ull << CLOCK_TSC_SHIFT) + 0.5);
	clock_state.tsc_base = t1;
	clock_state.mono_base_ns = n1;
	clock_state.tsc_ghz = 1.0 / ns_per_tick;
	return tsc_check_cpus(why);
}
#else
static int tsc_calibrate(struct strbuf *why)
{
	strbuf_addstr(why, "this architecture has no TSC clock in iolite");
	return -1;
}
#endif

int clock_init(int source, struct strbuf *note)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	clock_state.use_tsc = false;
	if (source == 1)
		return 0;
	if (tsc_calibrate(&why) == 0) {
		clock_state.use_tsc = true;
	} else if (source == 2) {
		strbuf_addf(note, "clocksource=cpu is not usable: %s",
			    strbuf_str(&why));
		ret = -1;
	} else {
		strbuf_addf(note, "clock: using clock_gettime, not the TSC: %s",
			    strbuf_str(&why));
	}
	strbuf_release(&why);
	return ret;
}

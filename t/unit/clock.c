/* SPDX-License-Identifier: MIT */
/*
 * The worker clock (src/machine/clock.[ch]): the TSC, once calibrated, must
 * tell the same time as CLOCK_MONOTONIC.
 *
 * Tolerances, stated once: over a one-second run the TSC clock's elapsed
 * time must agree with CLOCK_MONOTONIC's within 100 us (100 ppm); read
 * back to back on every CPU the process may use, the two clocks must be
 * within 100 us of each other. The calibration itself (20 ms, pairs read
 * within a few tens of ns) is good to a few ppm, so 100 ppm leaves room
 * for a loaded machine while still catching a wrong multiplier, a wrong
 * shift or a base taken on the wrong side of the calibration sleep.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "machine/clock.h"
#include "util/strbuf.h"

#define TOL_NS 100000ll

static long long absdiff(uint64_t a, uint64_t b)
{
	return a > b ? (long long)(a - b) : (long long)(b - a);
}

/*
 * A reading of both clocks at one moment: of ten tries, the one whose two
 * clock_now_ns() reads bracket the CLOCK_MONOTONIC read most tightly (a
 * preemption between two reads on a loaded machine would be counted as
 * drift otherwise).
 */
static void pair_now(uint64_t *now, uint64_t *mono)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 10; i++) {
		uint64_t a = clock_now_ns(), m = clock_mono_ns();
		uint64_t b = clock_now_ns();

		if (b >= a && b - a < best) {
			best = b - a;
			*now = a + (b - a) / 2;
			*mono = m;
		}
	}
}

/* |now - mono| at one moment. */
static long long offset_now(void)
{
	uint64_t now = 0, mono = 0;

	pair_now(&now, &mono);
	return absdiff(now, mono);
}

static void test_gettime_only(void)
{
	struct strbuf note = STRBUF_INIT;
	uint64_t a, b;

	ok(clock_init(1, &note) == 0, "clock_init(clock_gettime) succeeds");
	ok(!clock_state.use_tsc, "clocksource=clock_gettime does not use the TSC");
	ok(!strcmp(clock_name(), "clock_gettime"), "its name is 'clock_gettime' (got '%s')",
	   clock_name());
	ok(note.len == 0, "no note when clock_gettime is asked for");
	a = clock_now_ns();
	b = clock_mono_ns();
	ok(b >= a && b - a < 1000000, "clock_now_ns is CLOCK_MONOTONIC");
	strbuf_release(&note);
}

static void test_required_tsc(int have)
{
	struct strbuf note = STRBUF_INIT;
	int ret = clock_init(2, &note);

	if (have) {
		ok(ret == 0 && clock_state.use_tsc,
		   "clocksource=cpu is granted where the TSC passes");
	} else {
		ok(ret == -1 && !clock_state.use_tsc,
		   "clocksource=cpu is refused where the TSC fails");
		ok(strstr(strbuf_str(&note), "clocksource=cpu is not usable: ") != NULL,
		   "the refusal says why: %s", strbuf_str(&note));
	}
	strbuf_release(&note);
}

/* The one deliberate wait of the suite: one second. */
static void test_one_second(void)
{
	struct timespec ts = { 1, 0 };
	uint64_t t0 = 0, m0 = 0, t1 = 0, m1 = 0, prev, cur;
	long long drift;
	int i, backwards = 0;

	pair_now(&t0, &m0);
	while (nanosleep(&ts, &ts))
		;
	pair_now(&t1, &m1);
	drift = (long long)(t1 - t0) - (long long)(m1 - m0);
	diag("over %.6f s: tsc %llu ns, monotonic %llu ns, drift %lld ns (%.2f ppm)",
	     (double)(m1 - m0) / 1e9, (unsigned long long)(t1 - t0),
	     (unsigned long long)(m1 - m0), drift,
	     (double)drift * 1e6 / (double)(m1 - m0));
	ok(m1 - m0 >= 1000000000ull, "slept at least one second");
	ok(drift < TOL_NS && drift > -TOL_NS,
	   "tsc and CLOCK_MONOTONIC agree within 100 us over one second (%lld ns)",
	   drift);

	prev = clock_now_ns();
	for (i = 0; i < 1000000; i++) {
		cur = clock_now_ns();
		if (cur < prev)
			backwards++;
		prev = cur;
	}
	ok(!backwards, "a million reads never go backwards (%d did)", backwards);
}

/* After the second, on each CPU: the absolute value, not just the rate. */
static void test_each_cpu(void)
{
	cpu_set_t orig, one;
	int cpu, n = 0, bad = 0;
	long long worst = 0;

	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		skip("sched_getaffinity failed", "on each cpu the tsc reads close to CLOCK_MONOTONIC");
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		long long d;

		if (!CPU_ISSET(cpu, &orig))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		d = offset_now();
		if (d > worst)
			worst = d;
		if (d >= TOL_NS) {
			diag("cpu %d: %lld ns away from CLOCK_MONOTONIC", cpu, d);
			bad++;
		}
		n++;
	}
	sched_setaffinity(0, sizeof(orig), &orig);
	ok(n > 0 && !bad,
	   "on each of %d cpus the tsc reads within 100 us of CLOCK_MONOTONIC (worst %lld ns)",
	   n, worst);
}

int main(void)
{
	struct strbuf note = STRBUF_INIT;
	int have;

	test_gettime_only();

	/* the default: the TSC where it passes, else a one-line note */
	ok(clock_init(0, &note) == 0, "clock_init(default) succeeds");
	have = clock_state.use_tsc;
	if (have) {
		ok(note.len == 0, "no note when the TSC is used");
		ok(!strcmp(clock_name(), "tsc"), "its name is 'tsc'");
		ok(clock_state.tsc_ghz > 0.1 && clock_state.tsc_ghz < 20,
		   "calibrated frequency is plausible (%.3f GHz)",
		   clock_state.tsc_ghz);
	} else {
		ok(!CLOCK_HAVE_TSC || note.len, "fallback note: %s",
		   strbuf_str(&note));
		ok(strchr(strbuf_str(&note), '\n') == NULL,
		   "the note is one line");
		ok(!strcmp(clock_name(), "clock_gettime"),
		   "falls back to clock_gettime");
	}
	strbuf_release(&note);

	test_required_tsc(have);
	if (!have) {
		diag("no usable TSC here: the clock under test is clock_gettime");
		clock_init(1, &note);
		strbuf_release(&note);
	} else {
		clock_init(2, &note);
		strbuf_release(&note);
	}
	test_one_second();
	test_each_cpu();
	return done_testing();
}

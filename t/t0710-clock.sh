#!/bin/sh
# The clock: clocksource=clock_gettime, gettimeofday and cpu are accepted,
# each is the clock actually read, and clocksource=cpu is refused with the
# reason where the TSC fails. The TSC against CLOCK_MONOTONIC over one
# second is t/unit/clock.c.
#
# Which clock a run reads is seen through a preloaded clock_gettime()
# wrapper that counts CLOCK_MONOTONIC reads: the null engine at depth 1
# reads the worker clock once per I/O, so clock_gettime as the clock means
# at least one call per I/O, and the TSC means only the few calls of the
# calibration and the sampler's sleeps. With SHIM_SKEW=1 the wrapper also
# puts odd-numbered CPUs 10 ms ahead: what a machine whose TSCs are not in
# step looks like to the cross-CPU check, so the refusal path runs here.
. "$(dirname "$0")/test-lib.sh"

NIOS=4096

# TSC usable on this machine, as iolite's unit test found it: invariant
# TSC flags on x86 (the cross-CPU check is exercised by the skew below).
tsc_ok() {
	test_have_prereq TSC
}

# Skips the tests that follow (until test_skip_reason=) unless the
# clock_gettime wrapper was built.
need_shim() {
	test -f "$TRASH/shim.so" ||
	test_skip_reason=${test_skip_reason:-"${CC:-cc} did not build the clock_gettime wrapper: apt-get install gcc"}
}

cat >"$TRASH/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int (*real_gettime)(clockid_t, struct timespec *);
static unsigned long calls;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	const char *skew = getenv("SHIM_SKEW");
	int ret;

	if (!real_gettime)
		real_gettime = (int (*)(clockid_t, struct timespec *))
			dlsym(RTLD_NEXT, "clock_gettime");
	ret = real_gettime(id, ts);
	if (ret || id != CLOCK_MONOTONIC)
		return ret;
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	if (skew && *skew == '1' && (sched_getcpu() & 1)) {
		ts->tv_nsec += 10000000;
		if (ts->tv_nsec >= 1000000000) {
			ts->tv_nsec -= 1000000000;
			ts->tv_sec++;
		}
	}
	return 0;
}

__attribute__((destructor)) static void shim_report(void)
{
	const char *path = getenv("SHIM_OUT");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "%lu\n", calls);
	fclose(f);
}
EOF
${CC:-cc} -O2 -shared -fPIC -o "$TRASH/shim.so" "$TRASH/shim.c" -ldl \
	>/dev/null 2>&1

# run_shim NAME ARGS...: runs iolite on the null engine with the wrapper;
# NAME.out, NAME.err, NAME.calls; returns iolite's exit code.
run_shim() {
	name=$1
	shift
	SHIM_OUT="$TRASH/$name.calls" LD_PRELOAD="$TRASH/shim.so" \
		"$IOLITE" --name=c --ioengine=null --rw=randread --bs=4k \
		--size=$((NIOS * 4))k "$@" >"$name.out" 2>"$name.err"
}

calls() {
	cat "$TRASH/$1.calls"
}

test_expect_success 'clocksource: every value fio has is accepted' '
	for c in clock_gettime gettimeofday cpu; do
		"$IOLITE" --name=c --ioengine=null --size=64k \
			--clocksource=$c >out 2>err &&
		test_must_be_empty err &&
		grep -q "total=16,0,0,0" out || return 1
	done
'

test_expect_success 'the report names the clock read' '
	"$IOLITE" --name=c --ioengine=null --size=64k \
		--clocksource=clock_gettime >out 2>err &&
	grep "^  iolite *:.*clock=clock_gettime" out &&
	"$IOLITE" --name=c --ioengine=null --size=64k \
		--clocksource=gettimeofday >out 2>err &&
	grep "^  iolite *:.*clock=clock_gettime" out &&
	if tsc_ok; then
		"$IOLITE" --name=c --ioengine=null --size=64k \
			--clocksource=cpu >out 2>err &&
		grep "^  iolite *:.*clock=tsc" out
	fi
'

test_expect_success 'clocksource: an unknown value is refused with the list' '
	test_must_fail "$IOLITE" --name=c --ioengine=null --size=64k \
		--clocksource=hpet >out 2>err &&
	grep "option .clocksource.: invalid value .hpet." err &&
	grep "clock_gettime" err &&
	test_must_be_empty out
'

need_shim
	test_expect_success 'clocksource=clock_gettime reads CLOCK_MONOTONIC per I/O' '
		run_shim g --clocksource=clock_gettime &&
		test_must_be_empty g.err &&
		grep -q "total=$NIOS,0,0,0" g.out &&
		test "$(calls g)" -ge $NIOS
	'

	test_expect_success 'clocksource=gettimeofday is the same clock' '
		run_shim t --clocksource=gettimeofday &&
		test_must_be_empty t.err &&
		test "$(calls t)" -ge $NIOS
	'

	# fio: gtod_reduce=1 reads the time for about 0.4% of the I/Os; an
	# inline job with nothing timed per I/O reads it every few (at most
	# 256) I/Os, as the run goes: the I/Os all done, the calls far fewer
	test_expect_success 'gtod_reduce=1: the clock read every few I/Os, not per I/O' '
		run_shim r --clocksource=clock_gettime --gtod_reduce=1 &&
		test_must_be_empty r.err &&
		grep -q "total=$NIOS,0,0,0" r.out &&
		test "$(calls r)" -lt $((NIOS / 4)) &&
		run_shim l --clocksource=clock_gettime --gtod_reduce=1 \
			--disable_clat=0 &&
		test "$(calls l)" -ge $NIOS
	'

	test_expect_success_if JQ 'gtod_reduce=1: a timed run still ends on time' '
		run_shim e --clocksource=clock_gettime --gtod_reduce=1 \
			--time_based --runtime=500ms --output-format=json &&
		test_must_be_empty e.err &&
		rt=$(jq ".jobs[0].job_runtime" e.out) &&
		test "$rt" -ge 500 && test "$rt" -le 550 &&
		test "$(jq ".jobs[0].read.total_ios" e.out)" -gt \
			$((64 * $(calls e)))
	'
test_skip_reason=

need_shim
test_skip_unless TSC
	test_expect_success 'clocksource=cpu reads the TSC, not clock_gettime' '
		run_shim c --clocksource=cpu &&
		test_must_be_empty c.err &&
		grep -q "total=$NIOS,0,0,0" c.out &&
		test "$(calls c)" -lt $((NIOS / 4))
	'

	test_expect_success 'the default is the TSC where it passes' '
		run_shim d &&
		test_must_be_empty d.err &&
		test "$(calls d)" -lt $((NIOS / 4)) &&
		grep "clock=tsc" d.out &&
		! grep "not the TSC" d.out
	'
test_skip_reason=

need_shim
test_skip_unless TSC SMP
	test_expect_success 'clocksource=cpu is refused when CPUs disagree, saying why' '
		SHIM_SKEW=1 && export SHIM_SKEW &&
		test_must_fail run_shim k --clocksource=cpu --ioengine=psync \
			--filename=k.file &&
		test_must_be_empty k.out &&
		test ! -e k.file &&
		grep "^iolite: clocksource=cpu is not usable: " k.err &&
		grep "away from CLOCK_MONOTONIC" k.err &&
		test "$(wc -l <k.err)" = 1
	'

	test_expect_success 'without clocksource=cpu the same machine falls back' '
		SHIM_SKEW=1 && export SHIM_SKEW &&
		run_shim f &&
		test_must_be_empty f.err &&
		grep -q "total=$NIOS,0,0,0" f.out &&
		test "$(calls f)" -ge $NIOS &&
		grep "clock=clock_gettime" f.out &&
		grep "^  clock: using clock_gettime, not the TSC: the TSC of cpu [0-9]* is -*[0-9]* ns away from CLOCK_MONOTONIC$" f.out
	'
test_skip_reason=

tsc_ok || test_expect_success 'clocksource=cpu is refused where the TSC fails' '
	test_must_fail "$IOLITE" --name=c --ioengine=null --size=64k \
		--clocksource=cpu >out 2>err &&
	grep "^iolite: clocksource=cpu is not usable: " err &&
	test_must_be_empty out
'

test_done

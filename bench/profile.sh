#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/profile.sh IOLITE: what --profile costs the run it watches. The
# null engine (4k random reads: nothing but iolite's own loop, so any
# cost shows in full) runs time-based for BENCH_RUNTIME seconds on one
# CPU (taskset), without --profile, with it (the rate it picks from the
# measured cost of a sample) and with --profile-rate=997, the three
# interleaved, BENCH_REPS times. One line per setting: the median IOPS
# and I/Os per CPU-second of the worker thread (getrusage: usr_cpu +
# sys_cpu of the runtime; the timer interrupts that take the samples are
# charged to the thread they interrupt, so this figure carries their
# cost, and it holds on a loaded machine where IOPS do not), their
# ratios to the run without, and the cost the profiler reports of
# itself (cost_pct: samples x the cost of one, measured before the run,
# plus its reading and set-up, over the CPU time it watched).
# doc/performance.md ("The CPU profile's own cost") records a run.
#
# Environment: BENCH_CPU (default the last allowed CPU), BENCH_REPS
# (default 5), BENCH_RUNTIME (default 5).

set -u

. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || die "usage: bench/profile.sh /path/to/iolite"
bench_start "$1" jq taskset

JOB="--name=null --ioengine=null --rw=randread --bs=4k --size=16g
     --norandommap --time_based --runtime=${SECS}s --output-format=json"
SETTINGS="off default rate997"

one() {
	case $1 in
	off)		set -- ;;
	default)	set -- --profile ;;
	rate997)	set -- --profile-rate=997 ;;
	esac
	# shellcheck disable=SC2086
	taskset -c "$BENCH_CPU" "$IOLITE" $JOB "$@"
}

for r in $(seq "$REPS"); do
	for s in $SETTINGS; do
		one "$s" >"$WORK/$s.$r.json" || die "run $s $r failed"
	done
done

base=
cbase=
printf "%-10s %12s %7s %14s %7s %9s %8s %8s\n" setting iops ratio \
	ios/cpu-s ratio cost_pct rate_hz samples
for s in $SETTINGS; do
	runs_rates "$s"
	iops=$IOPS
	percpu=$PERCPU
	[ -n "$base" ] || base=$iops
	[ -n "$cbase" ] || cbase=$percpu
	cost=$(runs_median "$s" '.iolite.cpu_profile[0].cost_pct // 0')
	hz=$(runs_median "$s" '(.iolite.cpu_profile[0].period_ns // 0) as $p |
		    if $p > 0 then 1e9 / $p | floor else 0 end')
	n=$(runs_median "$s" '.iolite.cpu_profile[0].samples // 0')
	printf "%-10s %12.0f %7.4f %14.0f %7.4f %9.2f %8s %8s\n" "$s" \
		"$iops" "$(echo "$iops $base" | awk '{ print $1 / $2 }')" \
		"$percpu" "$(echo "$percpu $cbase" | awk '{ print $1 / $2 }')" \
		"$cost" "$hz" "$n"
done

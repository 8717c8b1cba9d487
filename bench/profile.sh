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

die() {
	echo "bench: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: bench/profile.sh /path/to/iolite"
IOLITE=$1
REPS=${BENCH_REPS:-5}
SECS=${BENCH_RUNTIME:-5}
[ -x "$IOLITE" ] || die "'$IOLITE' is not an executable"
for t in jq taskset; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' is needed"
done
if [ -z "${BENCH_CPU:-}" ]; then
	BENCH_CPU=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
		    tail -n 1 | sed 's/.*-//')
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

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

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

base=
cbase=
printf "%-10s %12s %7s %14s %7s %9s %8s %8s\n" setting iops ratio \
	ios/cpu-s ratio cost_pct rate_hz samples
for s in $SETTINGS; do
	iops=$(for r in $(seq "$REPS"); do
		jq '.jobs[0].read.iops' "$WORK/$s.$r.json"; done | median)
	[ -n "$base" ] || base=$iops
	percpu=$(for r in $(seq "$REPS"); do
		jq '.jobs[0] | .read.total_ios /
		    ((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000)' \
			"$WORK/$s.$r.json"; done | median)
	[ -n "$cbase" ] || cbase=$percpu
	cost=$(for r in $(seq "$REPS"); do
		jq '.iolite.cpu_profile[0].cost_pct // 0' "$WORK/$s.$r.json"
		done | median)
	hz=$(for r in $(seq "$REPS"); do
		jq '(.iolite.cpu_profile[0].period_ns // 0) as $p |
		    if $p > 0 then 1e9 / $p | floor else 0 end' \
			"$WORK/$s.$r.json"; done | median)
	n=$(for r in $(seq "$REPS"); do
		jq '.iolite.cpu_profile[0].samples // 0' "$WORK/$s.$r.json"
		done | median)
	printf "%-10s %12.0f %7.4f %14.0f %7.4f %9.2f %8s %8s\n" "$s" \
		"$iops" "$(echo "$iops $base" | awk '{ print $1 / $2 }')" \
		"$percpu" "$(echo "$percpu $cbase" | awk '{ print $1 / $2 }')" \
		"$cost" "$hz" "$n"
done

#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/live.sh IOLITE: what the live numbers cost the run (issue 30).
# The null engine (4k random reads: nothing but iolite's own loop, so
# any cost shows in full) runs time-based for BENCH_RUNTIME seconds on
# one CPU (taskset), without and with the interval stream and the
# metrics endpoint at a 1 s interval (--interval-output,
# --metrics-listen, a curl scraping /metrics every second meanwhile),
# the two interleaved, BENCH_REPS times. One line per setting: the
# median IOPS and I/Os per CPU-second of the worker thread (getrusage:
# usr_cpu + sys_cpu of the runtime; the reporter, writer and server
# threads share the CPU, so their cost shows in IOPS, not there), and
# their ratios to the run without, and the CPU the live numbers took on
# the reporter thread (the stream's live_cpu_ms) as a percentage of the
# runtime: the one figure a loaded machine does not blur. doc/performance.md ("The live
# numbers' cost") records a run.
#
# Environment: BENCH_CPU (default the last allowed CPU), BENCH_REPS
# (default 5), BENCH_RUNTIME (default 5), BENCH_PORT (default 19615).

set -u

. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || die "usage: bench/live.sh /path/to/iolite"
bench_start "$1" jq taskset curl
PORT=${BENCH_PORT:-19615}
SCRAPER=
trap '[ -n "$SCRAPER" ] && kill "$SCRAPER" 2>/dev/null; rm -rf "$WORK"' EXIT

JOB="--name=null --ioengine=null --rw=randread --bs=4k --size=16g
     --norandommap --time_based --runtime=${SECS}s --output-format=json"
SETTINGS="off live"

# a scrape a second while the run goes on (failures before it listens)
scrape() {
	while :; do
		curl -s -o /dev/null "http://127.0.0.1:$PORT/metrics"
		sleep 1
	done
}

one() {
	case $1 in
	off)	set -- ;;
	live)	set -- --interval-output="$WORK/s.$2.jsonl" --interval-period=1s \
			--metrics-listen=127.0.0.1:"$PORT" ;;
	esac
	# shellcheck disable=SC2086
	taskset -c "$BENCH_CPU" "$IOLITE" $JOB "$@"
}

scrape &
SCRAPER=$!
for r in $(seq "$REPS"); do
	for s in $SETTINGS; do
		one "$s" "$r" >"$WORK/$s.$r.json" || die "run $s $r failed"
	done
done

base=
cbase=
printf "%-8s %12s %7s %14s %7s %10s %9s\n" setting iops ratio ios/cpu-s \
	ratio intervals live_cpu%
for s in $SETTINGS; do
	runs_rates "$s"
	iops=$IOPS
	percpu=$PERCPU
	[ -n "$base" ] || base=$iops
	[ -n "$cbase" ] || cbase=$percpu
	n=0
	pct=0
	if [ "$s" = live ]; then
		n=$(cat "$WORK"/s.*.jsonl | wc -l)
		# the reporter's CPU for the live numbers over the runtime
		pct=$(for r in $(seq "$REPS"); do
			tail -n 1 "$WORK/s.$r.jsonl" |
			jq ".iolite.live_cpu_ms / ($SECS * 1000) * 100"
			done | median)
	fi
	printf "%-8s %12.0f %7.4f %14.0f %7.4f %10s %9.4f\n" "$s" \
		"$iops" "$(echo "$iops $base" | awk '{ print $1 / $2 }')" \
		"$percpu" "$(echo "$percpu $cbase" | awk '{ print $1 / $2 }')" \
		"$n" "$pct"
done

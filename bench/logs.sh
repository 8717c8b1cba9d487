#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/logs.sh IOLITE: per-I/O latency logs, iolite and fio side by side
# (bench/run.sh calls it as its part (d); it runs alone too). The job:
#
#   --name=bench --ioengine=null --rw=randread --bs=4k --size=1g
#   --time_based --runtime=$SECS --write_lat_log=DIR/lat  [--iodepth=8]
#
# with the default log_avg_msec=0 (a line per I/O in lat, clat and slat
# logs), in /dev/shm, every thread of both tools on one CPU (taskset).
# At iodepth 1 the null engine completes inline: no submission, so both
# tools write empty slat logs; at iodepth 8 the I/O is queued and the
# three logs get a line per I/O each.
#
# Figures, each the best of BENCH_LOG_REPS runs (default 3), the tools
# taking turns:
#   IOPS        the report's (JSON read.iops): the job's I/O per second
#               while it ran. fio keeps its samples in memory and writes
#               the files after the job; iolite formats them while the
#               job runs (on other CPUs when there are any; here, on the
#               same one) and holds the job up when the writer is behind.
#   run IOPS    I/Os over the whole process's wall time, start to exit,
#               files written: what logging costs all in all.
#   CPU ns/IO   user + system CPU time of the process tree (wait4(),
#               bench/cputime.c) less that of a --number_ios=1 run of
#               the same job, over the I/Os: the cost of an I/O with its
#               log lines, formatting and writing included, whichever
#               thread did it. Other load on the machine does not add to
#               it, so it is the figure to trust on a busy machine.
#   lines       every log must have one line per I/O the JSON counts
#               (slat: none at iodepth 1); the script fails otherwise.
#
# Environment: FIO, BENCH_CPU (default the last CPU allowed),
# BENCH_LOG_REPS (3), BENCH_LOG_RUNTIME (seconds per run, 2), CC.

set -u

die() {
	echo "bench/logs: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: bench/logs.sh /path/to/iolite"
IOLITE=$1
FIO=${FIO:-fio}
REPS=${BENCH_LOG_REPS:-3}
SECS=${BENCH_LOG_RUNTIME:-2}

[ -x "$IOLITE" ] || die "'$IOLITE' is not an executable"
CC=${CC:-cc}
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
for t in "$FIO" jq taskset "$CC"; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' is needed"
done
if [ -z "${BENCH_CPU:-}" ]; then
	BENCH_CPU=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
		    tail -n 1 | sed 's/.*-//')
fi

WORK=$(mktemp -d /dev/shm/iolite-benchlog.XXXXXX) || die "no /dev/shm"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
"$CC" -O2 -o "$WORK/cputime" "$BENCH_DIR/cputime.c" ||
	die "cannot build bench/cputime.c"

tool_bin() {
	case $1 in
	fio) echo "$FIO" ;;
	iolite) echo "$IOLITE" ;;
	esac
}

# job TOOL ARGS...: one pinned run of the job, its CPU time in
# $WORK/cpu ("user_us sys_us wall_us status maxrss_kib").
job() {
	local tool=$1
	shift
	rm -f "$WORK"/lat_*.log
	taskset -c "$BENCH_CPU" "$WORK/cputime" "$WORK/cpu" \
		"$(tool_bin "$tool")" --name=bench --ioengine=null \
		--rw=randread --bs=4k --size=1g --write_lat_log="$WORK/lat" \
		"$@" --output-format=json --output="$WORK/out.json" \
		>/dev/null 2>"$WORK/err" ||
		die "$tool failed: $*$(echo; cat "$WORK/err")"
}

cpu_us() {
	awk '{ print $1 + $2 }' "$WORK/cpu"
}

# one TOOL SLAT EXTRA...: a run; prints "iops run_iops ios cpu_ns_per_io"
# and checks the lines of every log against the I/Os the JSON counts
# (SLAT=0: the slat log must be empty).
one() {
	local tool=$1 slat=$2 t0 t1 ios iops k n want base
	shift 2
	job "$tool" --number_ios=1 "$@"
	base=$(cpu_us)
	t0=$(date +%s%N)
	job "$tool" --time_based --runtime="$SECS" "$@"
	t1=$(date +%s%N)
	ios=$(jq '.jobs[0].read.total_ios' "$WORK/out.json")
	iops=$(jq '.jobs[0].read.iops | floor' "$WORK/out.json")
	for k in lat clat slat; do
		n=$(wc -l <"$WORK/lat_$k.1.log")
		want=$ios
		# an inline engine's I/O has no submission latency (as fio)
		if [ $k = slat ] && [ "$slat" = 0 ]; then
			want=0
		fi
		[ "$n" = "$want" ] ||
			die "$tool: lat_$k.1.log has $n lines for $ios I/Os ($want expected)"
	done
	echo "$iops $(( ios * 1000000000 / (t1 - t0) )) $ios" \
	     "$(( ($(cpu_us) - base) * 1000 / ios ))"
}

row() {
	printf '  %-34s %12s %12s %10s\n' "$1" "$2" "$3" "$4"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b + 0 <= 0) print "n/a"; else printf "%.2fx\n", a / b }'
}

# bench TITLE SLAT EXTRA...: best IOPS and run IOPS of each tool.
bench() {
	local title=$1 slat=$2 t r iops run ios cpu best_fio=0 best_iol=0
	local run_fio=0 run_iol=0 lines_fio=0 lines_iol=0 cpu_fio=0 cpu_iol=0
	shift 2
	echo "$title"
	for _ in $(seq "$REPS"); do
		for t in fio iolite; do
			r=$(one $t "$slat" "$@") || exit 1
			read -r iops run ios cpu <<<"$r"
			if [ $t = fio ]; then
				[ "$iops" -gt $best_fio ] && best_fio=$iops
				[ "$run" -gt $run_fio ] && run_fio=$run
				[ $cpu_fio = 0 ] || [ "$cpu" -lt $cpu_fio ] &&
					cpu_fio=$cpu
				lines_fio=$((lines_fio + ios))
			else
				[ "$iops" -gt $best_iol ] && best_iol=$iops
				[ "$run" -gt $run_iol ] && run_iol=$run
				[ $cpu_iol = 0 ] || [ "$cpu" -lt $cpu_iol ] &&
					cpu_iol=$cpu
				lines_iol=$((lines_iol + ios))
			fi
		done
	done
	row "IOPS (report)" "$best_fio" "$best_iol" "$(ratio "$best_iol" "$best_fio")"
	row "run IOPS (start to exit)" "$run_fio" "$run_iol" "$(ratio "$run_iol" "$run_fio")"
	row "CPU ns per I/O, logs written" "$cpu_fio" "$cpu_iol" "$(ratio "$cpu_fio" "$cpu_iol")"
	row "I/Os logged, all runs, every line" "$lines_fio" "$lines_iol" ""
	echo "$title $(ratio "$best_iol" "$best_fio")" >>"$WORK/ratios"
}

echo "iolite log bench: $("$IOLITE" --version) vs $("$FIO" --version), pinned to cpu $BENCH_CPU, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-34s %12s %12s %10s\n' "" fio iolite "iolite gain"
bench "(d) null, 4k randread, write_lat_log, iodepth 1 (no slat)" 0
bench "(d) null, 4k randread, write_lat_log, iodepth 8" 1 --iodepth=8
echo
echo "target: IOPS with per-I/O lat, clat and slat logs at least 1.5x fio's"
awk '{ v = $NF; sub(/x$/, "", v); t = $0; sub(/ [^ ]*$/, "", t);
       printf "  %-58s %6.2fx  %s\n", t, v, (v + 0 >= 1.5 ? "met" : "MISSED") }' \
	"$WORK/ratios"

#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/run.sh IOLITE: iolite and fio side by side, pinned to one CPU, on
# the same jobs; prints each figure and the ratio. `make bench` runs it.
# doc/performance.md explains every figure and records the results.
#
#   (a) null engine, 4k randread, default statistics (latency percentiles,
#       random map): CPU ns per I/O, and instructions per I/O counted by
#       valgrind's callgrind
#   (b) the same with norandommap, and with gtod_reduce=1
#   (c) io_uring and libaio, 4k randread, iodepth 32, batches of 8
#       submitted and reaped, on a page-cached file in /dev/shm and on a
#       loop device over /dev/shm with direct=1: IOPS and CPU ns per I/O
#   (d) per-I/O latency logs on the null engine: IOPS with every line
#       written (bench/logs.sh, which runs alone too)
#   (e) at the limit: fio, iolite and a minimal loop making the same
#       system calls, on zram and /dev/shm (bench/limit.sh, alone too;
#       BENCH_LIMIT=0 leaves it out)
#
# Per-I/O figures subtract a baseline: the same job, same size, stopped
# after one I/O (number_ios=1), so start-up, random map allocation, ring
# setup and the final report cancel out:
#     per I/O = (cost(job) - cost(baseline)) / (I/Os(job) - 1)
# CPU time is the whole process tree's user + system time from wait4()
# (bench/cputime.c); instructions are the sum over every process and
# thread callgrind saw. The tools take turns and each figure is the best
# of its runs (least CPU, most IOPS): other load on the machine only ever
# adds cost, so the best run is the one it disturbed least.
#
# Environment: FIO (fio binary, default fio), BENCH_CPU (CPU to pin to,
# default the last one allowed), BENCH_REPS (runs per (a)/(b) figure,
# default 3), BENCH_AIO_REPS (runs per (c) figure, default 2),
# BENCH_RUNTIME (seconds per (c) run, default 2), BENCH_QUICK=1 (small
# sizes, one run each: a smoke test, figures not worth recording),
# BENCH_KEEP=1 (keep the raw JSON and callgrind files), CC.

set -u

die() {
	echo "bench: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: bench/run.sh /path/to/iolite"
IOLITE=$1
FIO=${FIO:-fio}
REPS=${BENCH_REPS:-3}
AIO_REPS=${BENCH_AIO_REPS:-2}
SECS=${BENCH_RUNTIME:-2}
CC=${CC:-cc}
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

[ -x "$IOLITE" ] || die "'$IOLITE' is not an executable"
for t in "$FIO" jq taskset "$CC"; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' is needed"
done
HAVE_VG=1
command -v valgrind >/dev/null 2>&1 || HAVE_VG=0

if [ -z "${BENCH_CPU:-}" ]; then
	BENCH_CPU=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
		    tail -n 1 | sed 's/.*-//')
fi

# sizes: fio costs ~10x iolite per I/O, so it gets ~10x fewer I/Os
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	REPS=1
	AIO_REPS=1
	SECS=1
	N_FIO=262144 N_IOL=2097152
	CG_FIO=8192 CG_IOL=65536
else
	N_FIO=2097152 N_IOL=16777216
	CG_FIO=32768 CG_IOL=327680
fi

WORK=$(mktemp -d /dev/shm/iolite-bench.XXXXXX) || die "no /dev/shm"
LOOPDEV=
cleanup() {
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV" 2>/dev/null
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "raw results kept in $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -o "$WORK/cputime" "$BENCH_DIR/cputime.c" ||
	die "cannot build bench/cputime.c"

# --- measurement helpers -------------------------------------------------

tool_bin() {
	case $1 in
	fio) echo "$FIO" ;;
	iolite) echo "$IOLITE" ;;
	esac
}

# run TAG TOOL ARGS...: one pinned run; $WORK/TAG.json, TAG.cpu, TAG.err.
run() {
	local tag=$1 tool=$2
	shift 2
	taskset -c "$BENCH_CPU" "$WORK/cputime" "$WORK/$tag.cpu" \
		"$(tool_bin "$tool")" "$@" --output-format=json \
		--output="$WORK/$tag.json" >/dev/null 2>"$WORK/$tag.err" ||
		die "$tool failed: $* (see below)$(echo; cat "$WORK/$tag.err")"
}

# cpu_ns TAG: user + system CPU of the run, in ns.
cpu_ns() {
	awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$WORK/$1.cpu"
}

ios() {
	jq '[.jobs[] | .read.total_ios + .write.total_ios] | add' \
		"$WORK/$1.json"
}

# per_io COST COST_BASE IOS: (COST - COST_BASE) / (IOS - 1), 1 decimal.
per_io() {
	awk -v a="$1" -v b="$2" -v n="$3" \
		'BEGIN { if (n <= 1) print "n/a"; else printf "%.1f\n", (a - b) / (n - 1) }'
}

# callgrind TAG TOOL ARGS...: total instructions of every process and
# thread of the run.
callgrind() {
	local tag=$1 tool=$2
	shift 2
	rm -f "$WORK/cg.$tag".*
	taskset -c "$BENCH_CPU" valgrind --tool=callgrind \
		--callgrind-out-file="$WORK/cg.$tag.%p" \
		"$(tool_bin "$tool")" "$@" --output-format=json \
		--output="$WORK/$tag.json" >/dev/null 2>"$WORK/$tag.err" ||
		die "$tool under callgrind failed: $*$(echo; tail -n 5 "$WORK/$tag.err")"
	awk '/^totals:/ { s += $2 } END { printf "%d\n", s }' "$WORK/cg.$tag".*
}

# --- output --------------------------------------------------------------

# ratio A B: A / B with an x, or n/a.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "n/a" || b == "n/a" || b + 0 <= 0) print "n/a";
		else printf "%.2fx\n", a / b }'
}

row() {
	printf '  %-34s %12s %12s %10s\n' "$1" "$2" "$3" "$4"
}

RESULTS=$WORK/results
: >"$RESULTS"
# note KEY VALUE: remembered for the targets at the end
note() {
	echo "$1 $2" >>"$RESULTS"
}
get() {
	awk -v k="$1" '$1 == k { print $2 }' "$RESULTS" | tail -n 1
}
# keep_min KEY VALUE / keep_max KEY VALUE: "min.KEY" / "max.KEY" so far
keep_min() {
	local old
	old=$(get "min.$1")
	if [ -z "$old" ] || [ "$2" -lt "$old" ]; then
		note "min.$1" "$2"
	fi
}
keep_max() {
	local old
	old=$(get "max.$1")
	if [ -z "$old" ] || [ "$2" -gt "$old" ]; then
		note "max.$1" "$2"
	fi
}

# --- (a) and (b): the null engine ----------------------------------------

null_args() {
	echo "--name=bench --ioengine=null --rw=randread --bs=4k --size=$(($1 * 4))k"
}

# null_case KEY TITLE EXTRA...: CPU ns and instructions per I/O. The two
# tools take turns, rep by rep, so a load that comes and goes hits both.
null_case() {
	local key=$1 title=$2 t n cg base full nios c
	shift 2
	echo "$title"
	for _ in $(seq "$REPS"); do
		for t in fio iolite; do
			if [ $t = fio ]; then n=$N_FIO; else n=$N_IOL; fi
			# shellcheck disable=SC2046
			run "$key.$t.base" $t $(null_args $n) --number_ios=1 "$@"
			keep_min "$key.$t.base" "$(cpu_ns "$key.$t.base")"
			# shellcheck disable=SC2046
			run "$key.$t" $t $(null_args $n) "$@"
			keep_min "$key.$t" "$(cpu_ns "$key.$t")"
		done
	done
	for t in fio iolite; do
		c=$(per_io "$(get "min.$key.$t")" "$(get "min.$key.$t.base")" \
			"$(ios "$key.$t")")
		eval "c_$t=\$c"
		if [ $HAVE_VG = 1 ]; then
			if [ $t = fio ]; then cg=$CG_FIO; else cg=$CG_IOL; fi
			# shellcheck disable=SC2046
			base=$(callgrind "$key.$t.cgbase" $t $(null_args $cg) --number_ios=1 "$@")
			# shellcheck disable=SC2046
			full=$(callgrind "$key.$t.cg" $t $(null_args $cg) "$@")
			nios=$(ios "$key.$t.cg")
			eval "i_$t=\$(per_io $full $base $nios)"
		else
			eval "i_$t=n/a"
		fi
	done
	# shellcheck disable=SC2154
	row "CPU ns per I/O" "$c_fio" "$c_iolite" "$(ratio "$c_fio" "$c_iolite")"
	# shellcheck disable=SC2154
	row "instructions per I/O" "$i_fio" "$i_iolite" "$(ratio "$i_fio" "$i_iolite")"
	note "$key.cpu" "$(ratio "$c_fio" "$c_iolite" | tr -d x)"
	note "$key.ir" "$(ratio "$i_fio" "$i_iolite" | tr -d x)"
}

# --- (c): io_uring and libaio ------------------------------------------

# aio_case KEY TITLE FILENAME EXTRA...: IOPS and CPU ns per I/O.
AIO_OPTS="--name=bench --rw=randread --bs=4k --iodepth=32
	--iodepth_batch_submit=8 --iodepth_batch_complete_min=8
	--iodepth_batch_complete_max=8"
aio_case() {
	local key=$1 title=$2 file=$3 e t base nios c iops own
	shift 3
	echo "$title"
	for e in io_uring libaio; do
		for t in fio iolite; do
			# shellcheck disable=SC2086
			run "$key.$e.$t.base" $t $AIO_OPTS --ioengine=$e \
				--filename="$file" --number_ios=1 "$@"
		done
		for _ in $(seq "$AIO_REPS"); do
			for t in fio iolite; do
				# shellcheck disable=SC2086
				run "$key.$e.$t" $t $AIO_OPTS --ioengine=$e \
					--filename="$file" --time_based \
					--runtime="$SECS" "$@"
				base=$(cpu_ns "$key.$e.$t.base")
				nios=$(ios "$key.$e.$t")
				c=$(per_io "$(cpu_ns "$key.$e.$t")" "$base" "$nios")
				keep_min "cpu.$key.$e.$t" "${c%.*}"
				iops=$(jq '.jobs[0].read.iops | floor' \
					"$WORK/$key.$e.$t.json")
				keep_max "iops.$key.$e.$t" "$iops"
				# the job's own user time (its rusage) per I/O
				own=$(jq '.jobs[0] | .usr_cpu / 100 * .job_runtime *
					  1e6 / .read.total_ios | floor' \
					"$WORK/$key.$e.$t.json")
				keep_min "own.$key.$e.$t" "$own"
			done
		done
		for t in fio iolite; do
			eval "iops_$t=$(get "max.iops.$key.$e.$t")"
			eval "cpu_$t=$(get "min.cpu.$key.$e.$t")"
			eval "own_$t=$(get "min.own.$key.$e.$t")"
		done
		# shellcheck disable=SC2154
		row "$e IOPS" "$iops_fio" "$iops_iolite" \
			"$(ratio "$iops_iolite" "$iops_fio")"
		# shellcheck disable=SC2154
		row "$e CPU ns per I/O" "$cpu_fio" "$cpu_iolite" \
			"$(ratio "$cpu_fio" "$cpu_iolite")"
		# shellcheck disable=SC2154
		row "$e job usr ns per I/O" "$own_fio" "$own_iolite" \
			"$(ratio "$own_fio" "$own_iolite")"
		note "$key.$e.cpu" "$(ratio "$cpu_fio" "$cpu_iolite" | tr -d x)"
	done
}

# --- the run ------------------------------------------------------------

fio_ver=$("$FIO" --version 2>/dev/null)
iol_ver=$("$IOLITE" --version 2>/dev/null)
echo "iolite bench: $iol_ver vs $fio_ver, pinned to cpu $BENCH_CPU"
echo "  $(uname -sr), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ $HAVE_VG = 1 ] || echo "  (valgrind not found: no instruction counts)"
echo
printf '  %-34s %12s %12s %10s\n' "" fio iolite "iolite gain"
start=$(date +%s)

null_case a "(a) null, 4k randread, default statistics"
null_case b1 "(b) null, 4k randread, norandommap" --norandommap
null_case b2 "(b) null, 4k randread, gtod_reduce=1" --gtod_reduce=1

SHMFILE=$WORK/file.dat
dd if=/dev/zero of="$SHMFILE" bs=1M count=512 2>/dev/null ||
	die "cannot write a 512 MiB file in /dev/shm"
aio_case c1 "(c) page-cached file in /dev/shm, iodepth 32, batch 8/8" \
	"$SHMFILE"
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 &&
   LOOPDEV=$(losetup -f --show "$SHMFILE" 2>/dev/null); then
	aio_case c2 "(c) loop device over /dev/shm, direct=1, iodepth 32, batch 8/8" \
		"$LOOPDEV" --direct=1
	losetup -d "$LOOPDEV"
	LOOPDEV=
else
	echo "(c) loop device: skipped (needs root and losetup)"
fi

echo
echo "targets (iolite gain = fio's cost / iolite's cost):"
target() {
	local v
	v=$(get "$1")
	awk -v v="$v" -v want="$2" -v what="$3" 'BEGIN {
		if (v == "" || v == "n/a") { printf "  %-58s n/a\n", what; exit }
		printf "  %-58s %6.2fx  %s\n", what, v,
			(v + 0 >= want ? "met" : "MISSED") }'
}
target a.ir 10 "(a) instructions per I/O at most 1/10 of fio's"
target a.cpu 5 "(a) IOPS per CPU-second at least 5x fio's"
for k in c1.io_uring c1.libaio c2.io_uring c2.libaio; do
	target "$k.cpu" 1.3 "(c) $k: IOPS per CPU-second at least 1.3x fio's"
done
echo "  ($(($(date +%s) - start)) s)"

# (d) per-I/O latency logs: its own script, which runs alone too
echo
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	export BENCH_LOG_REPS=${BENCH_LOG_REPS:-1} BENCH_LOG_RUNTIME=${BENCH_LOG_RUNTIME:-1}
fi
FIO="$FIO" BENCH_CPU="$BENCH_CPU" "$BENCH_DIR/logs.sh" "$IOLITE" ||
	die "bench/logs.sh failed"

# (e) at the limit (issue 26): fio, iolite and the minimal loop on zram
# and /dev/shm, its own script, which runs alone too (the zram rows need
# root; BENCH_LIMIT=0 leaves the part out)
if [ "${BENCH_LIMIT:-1}" != 0 ]; then
	echo
	FIO="$FIO" BENCH_CPU="$BENCH_CPU" "$BENCH_DIR/limit.sh" "$IOLITE" ||
		die "bench/limit.sh failed"
fi

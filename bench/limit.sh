#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/limit.sh IOLITE: "at the limit" (issue 26). On a real block
# device (a zram device, hot-added and never written, so reads cost the
# kernel's block layer and a page of zeroes) and on a page-cached file in
# /dev/shm, 4k random reads by fio, by iolite with its full statistics,
# and by bench/minimal.c, a loop that makes the same system calls and
# keeps no statistics at all. The target: iolite as fast as the minimal
# loop on every row.
#
#   zram io_uring                        direct=1
#   zram io_uring fixedbufs+registerfiles direct=1
#   zram libaio                          direct=1 (against the loop reading
#                                        the AIO ring, and calling io_getevents)
#   zram psync, iodepth 1                direct=1
#   /dev/shm io_uring                    buffered
#   /dev/shm io_uring fixedbufs+registerfiles, buffered
#
# Job (fio and iolite): --rw=randread --bs=4k --iodepth=32
# --iodepth_batch_submit=8 --iodepth_batch_complete_min=8
# --iodepth_batch_complete_max=8 --norandommap --time_based
# --runtime=BENCH_RUNTIME, default statistics (psync: --iodepth=1 and no
# batches). Everything is pinned to one CPU; per row the tools take turns
# (fio, iolite, minimal, fio, ...) BENCH_ROUNDS times. Each cell is the
# best IOPS of the rounds (other load only ever takes some away) and the
# range; iolite/minimal is the ratio of the bests and the range of the
# rounds' ratios. Per row and tool, the CPU the whole process used per
# I/O, user and system (bash's times around each run). With strace, a
# short run of iolite and of the minimal loop per row counts the I/O
# system calls per I/O.
#
# Environment: FIO (default fio), BENCH_CPU (default the last allowed
# CPU), BENCH_ROUNDS (3), BENCH_RUNTIME (3 s), BENCH_QUICK=1 (one round of
# 1 s, a 256 MiB file: a smoke run),
# T_IO_URING (path of fio's t/io_uring, built by the user: a cross-check
# column; never built or shipped here), CC. The zram rows need root and
# /sys/class/zram-control; without them they are skipped.
# doc/performance.md ("At the limit") explains every figure.

set -u

die() {
	echo "bench: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: bench/limit.sh /path/to/iolite"
IOLITE=$1
FIO=${FIO:-fio}
ROUNDS=${BENCH_ROUNDS:-3}
SECS=${BENCH_RUNTIME:-3}
SHM_MB=1024
STRACE_SECS=1
CC=${CC:-cc}
TIOU=${T_IO_URING:-}
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

if [ "${BENCH_QUICK:-0}" = 1 ]; then
	ROUNDS=1
	SECS=1
	SHM_MB=256
fi

[ -x "$IOLITE" ] || die "'$IOLITE' is not an executable"
for t in "$FIO" jq taskset "$CC"; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' is needed"
done
[ -z "$TIOU" ] || [ -x "$TIOU" ] || die "T_IO_URING: '$TIOU' is not an executable"
HAVE_STRACE=1
command -v strace >/dev/null 2>&1 || HAVE_STRACE=0

if [ -z "${BENCH_CPU:-}" ]; then
	BENCH_CPU=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
		    tail -n 1 | sed 's/.*-//')
fi

WORK=$(mktemp -d) || die "no scratch directory"
SHMFILE=
ZRAM=
cleanup() {
	[ -n "$ZRAM" ] &&
		echo "$ZRAM" >/sys/class/zram-control/hot_remove 2>/dev/null
	rm -rf "$WORK"
	[ -n "$SHMFILE" ] && rm -f "$SHMFILE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the minimal loop, with the modes whose library is there -------------

# have HEADER LIB: the header and library link
have() {
	echo 'int main(void){return 0;}' |
		"$CC" -x c -include "$1" - -o /dev/null "$2" >/dev/null 2>&1
}
MIN_FLAGS=()
HAVE_URING=0
HAVE_AIO=0
SKIPPED=
if have liburing.h -luring; then
	MIN_FLAGS+=(-DHAVE_LIBURING=1 -luring)
	HAVE_URING=1
else
	SKIPPED="io_uring rows (no liburing)"
fi
if have libaio.h -laio; then
	MIN_FLAGS+=(-DHAVE_LIBAIO=1 -laio)
	HAVE_AIO=1
else
	SKIPPED="${SKIPPED:+$SKIPPED, }libaio row (no libaio)"
fi
"$CC" -O2 -Wall -Wextra -o "$WORK/minimal" "$BENCH_DIR/minimal.c" \
	"${MIN_FLAGS[@]}" || die "cannot build bench/minimal.c"

# --- targets ---------------------------------------------------------------

# zram_add: a 2 GiB zram device, never written: sets ZRAM and ZDEV, or
# WHY and fails.
WHY=
zram_add() {
	local ctl=/sys/class/zram-control i

	[ "$(id -u)" = 0 ] || { WHY="not root"; return 1; }
	[ -e $ctl/hot_add ] || { WHY="no $ctl (modprobe zram)"; return 1; }
	ZRAM=$(cat $ctl/hot_add) || { WHY="hot_add failed"; return 1; }
	echo 2G >"/sys/block/zram$ZRAM/disksize" ||
		{ WHY="cannot size zram$ZRAM"; return 1; }
	for i in $(seq 50); do
		if [ -b "/dev/zram$ZRAM" ]; then
			ZDEV=/dev/zram$ZRAM
			return 0
		fi
		[ "$i" = 50 ] || sleep 0.1
	done
	WHY="/dev/zram$ZRAM did not appear"
	return 1
}

SHMFILE=$(mktemp /dev/shm/iolite-limit.XXXXXX) || die "no /dev/shm"
dd if=/dev/zero of="$SHMFILE" bs=1M count=$SHM_MB status=none ||
	die "cannot write a $SHM_MB MiB file in /dev/shm"
ZDEV=
zram_add

# --- one run of each tool ------------------------------------------------

# job_opts ENGINE TARGET DEPTH EXTRA...: the job fio and iolite both run
job_opts() {
	local e=$1 target=$2 depth=$3

	shift 3
	echo "--name=limit --ioengine=$e --filename=$target --rw=randread" \
	     "--bs=4k --norandommap --time_based --runtime=$SECS" \
	     "--iodepth=$depth"
	if [ "$depth" -gt 1 ]; then
		echo "--iodepth_batch_submit=8 --iodepth_batch_complete_min=8" \
		     "--iodepth_batch_complete_max=8"
	fi
	echo "$@"
}

# The row being measured: set by measure_row.
R_ENGINE='' R_TARGET='' R_DEPTH='' R_MODE='' R_DIRECT='' R_TFLAGS='' R_EXTRA=''

# tool_cmd TOOL: the command line of TOOL's run of the row, in CMD
CMD=()
tool_cmd() {
	local batch=8

	[ "$R_DEPTH" = 1 ] && batch=1
	case $1 in
	fio|iolite)
		CMD=("$IOLITE")
		[ "$1" = fio ] && CMD=("$FIO")
		# shellcheck disable=SC2207,SC2086
		CMD+=($(job_opts "$R_ENGINE" "$R_TARGET" "$R_DEPTH" \
			--direct="$R_DIRECT" $R_EXTRA) \
			--output-format=json --output="$WORK/out.json")
		;;
	minimal)
		CMD=("$WORK/minimal" "$R_TARGET" "$R_MODE" "$R_DEPTH" "$batch"
		     4096 "$SECS" "$R_DIRECT")
		;;
	tiou)
		# shellcheck disable=SC2206
		# it prints IOPS once a second, not in its last second: one
		# more second gives SECS figures
		CMD=("$TIOU" "-d$R_DEPTH" "-s$batch" "-c$batch" -p0 -n1
		     "-r$((SECS + 1))" $R_TFLAGS "$R_TARGET")
		;;
	esac
}

# children_cpu FILE: the user and system seconds of every child this
# shell reaped so far (bash's times, in this shell, not a subshell: its
# second line), e.g. "1.234 5.678"
children_cpu() {
	times >"$1.times"
	sed -n '2{s/\([0-9]*\)m\([0-9.]*\)s/\1 \2/g;p}' "$1.times" |
		awk '{ printf "%.3f %.3f\n", $1 * 60 + $2, $3 * 60 + $4 }' >"$1"
}

# measure TOOL: one pinned run, prints its IOPS (an integer); appends
# "user_s sys_s ios" of the run (the whole process: its threads and
# io_uring's io-wq workers) to $WORK/c.TOOL, except for t/io_uring
measure() {
	local out=$WORK/stdout ios=

	tool_cmd "$1"
	children_cpu "$WORK/cpu0"
	taskset -c "$BENCH_CPU" "${CMD[@]}" >"$out" 2>"$WORK/err" ||
		die "$1 failed: ${CMD[*]}$(echo; cat "$WORK/err")"
	children_cpu "$WORK/cpu1"
	case $1 in
	fio|iolite)
		ios=$(jq '.jobs[0].read.total_ios' "$WORK/out.json") ;;
	minimal)
		ios=$(sed -n 's/.* ios=\([0-9]*\) .*/\1/p' "$out") ;;
	esac
	[ -n "$ios" ] && echo "$(paste -d" " "$WORK/cpu0" "$WORK/cpu1") $ios" |
		awk '{ print $3 - $1, $4 - $2, $5 }' >>"$WORK/c.$1"
	case $1 in
	fio|iolite)
		jq '.jobs[0].read.iops | floor' "$WORK/out.json" ;;
	minimal)
		sed -n 's/^mode=.* iops=\([0-9]*\) .*/\1/p' "$out" ;;
	tiou)
		# the mean of its once-a-second "IOPS=123.45K, BW=..." lines
		awk -F'[=,]' '/^IOPS=/ {
			v = $2; m = 1
			if (v ~ /K$/) m = 1e3; else if (v ~ /M$/) m = 1e6
			s += v * m; n++ }
			END { if (!n) exit 1; printf "%d\n", s / n }' "$out" ||
			die "no IOPS line from ${CMD[*]}$(echo; cat "$out")" ;;
	esac
}

# syscalls TOOL: "<per I/O> (<name>=<per I/O> ...)" from a short strace
# run of TOOL, pinned as the others
SYSCALLS=io_uring_enter,io_submit,io_getevents,pread64,preadv2
syscalls() {
	local secs=$SECS ios

	SECS=$STRACE_SECS
	tool_cmd "$1"
	SECS=$secs
	strace -f -c -o "$WORK/strace" -e trace=$SYSCALLS \
		taskset -c "$BENCH_CPU" "${CMD[@]}" >"$WORK/stdout" \
		2>"$WORK/err" ||
		die "$1 under strace failed: ${CMD[*]}$(echo; cat "$WORK/err")"
	if [ "$1" = iolite ]; then
		ios=$(jq '.jobs[0].read.total_ios' "$WORK/out.json")
	else
		ios=$(sed -n 's/.* ios=\([0-9]*\) .*/\1/p' "$WORK/stdout")
	fi
	# strace -c's columns: % time, seconds, usecs/call, calls, errors, syscall
	awk -v ios="$ios" '$NF ~ /^(io_uring_enter|io_submit|io_getevents|pread64|preadv2)$/ {
			s += $4
			# not the loader'"'"'s pread64 of a library at start
			if ($4 / ios >= 0.0005)
				d = d sprintf(" %s=%.3f", $NF, $4 / ios) }
		END { if (ios > 0) printf "%.3f (%s)\n", s / ios, substr(d, 2)
		      else print "n/a" }' "$WORK/strace"
}

# --- output --------------------------------------------------------------

TOOLS="fio iolite minimal"
[ -n "$TIOU" ] && TOOLS="$TOOLS tiou"

# cell FILE: best (low-high), in thousands of IOPS
cell() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (NR == 1) printf "%.1f\n", v[1] / 1e3
		else printf "%.1f (%.0f-%.0f)\n", v[NR] / 1e3, v[1] / 1e3, v[NR] / 1e3 }'
}

# ratio_cell: best iolite / best minimal, and the range of the rounds'
ratio_cell() {
	paste "$WORK/r.iolite" "$WORK/r.minimal" | awk '
		{ r = $2 > 0 ? $1 / $2 : 0
		  if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r
		  if ($1 > bi) bi = $1; if ($2 > bm) bm = $2 }
		END { b = bm > 0 ? bi / bm : 0
		      if (NR == 1) printf "%.2f\n", b
		      else printf "%.2f (%.2f-%.2f)\n", b, lo, hi }'
}

# cpu_cell FILE: user+sys nanoseconds of CPU per I/O over all rounds
cpu_cell() {
	awk '{ u += $1; s += $2; n += $3 }
		END { if (n) printf "%d+%d\n", u * 1e9 / n, s * 1e9 / n }' "$1"
}

W=19
header() {
	printf '  %-44s' "kIOPS: best (range)"
	printf " %${W}s" fio iolite minimal
	[ -n "$TIOU" ] && printf " %${W}s" t/io_uring
	printf " %${W}s\n" iolite/minimal
}

MET=0 ROWS=0
STRACE_OUT=$WORK/strace.txt
CPU_OUT=$WORK/cpu.txt
: >"$CPU_OUT"
TARGETS=$WORK/targets.txt
: >"$STRACE_OUT"
: >"$TARGETS"

# measure_row TITLE ENGINE TARGET DEPTH MODE DIRECT TFLAGS EXTRA
measure_row() {
	local title=$1 t best
	R_ENGINE=$2 R_TARGET=$3 R_DEPTH=$4 R_MODE=$5 R_DIRECT=$6
	R_TFLAGS=$7 R_EXTRA=$8

	for t in $TOOLS; do
		: >"$WORK/r.$t"
		: >"$WORK/c.$t"
	done
	for _ in $(seq "$ROUNDS"); do
		for t in $TOOLS; do
			measure "$t" >>"$WORK/r.$t" || exit 1
		done
	done
	printf '  %-44s' "$title"
	for t in $TOOLS; do
		printf " %${W}s" "$(cell "$WORK/r.$t")"
	done
	best=$(ratio_cell)
	printf " %${W}s\n" "$best"
	ROWS=$((ROWS + 1))
	if awk -v b="${best%% *}" 'BEGIN { exit !(b >= 1) }'; then
		MET=$((MET + 1))
		printf '  %-44s %6s  met\n' "$title" "${best%% *}" >>"$TARGETS"
	else
		printf '  %-44s %6s  MISSED\n' "$title" "${best%% *}" >>"$TARGETS"
	fi
	printf '  %-44s' "$title" >>"$CPU_OUT"
	for t in fio iolite minimal; do
		printf " %${W}s" "$(cpu_cell "$WORK/c.$t")" >>"$CPU_OUT"
	done
	echo >>"$CPU_OUT"
	if [ $HAVE_STRACE = 1 ]; then
		syscalls iolite >"$WORK/sc.iolite" || exit 1
		syscalls minimal >"$WORK/sc.minimal" || exit 1
		printf '  %-44s iolite  %s\n  %-44s minimal %s\n' "$title" \
			"$(cat "$WORK/sc.iolite")" "" \
			"$(cat "$WORK/sc.minimal")" >>"$STRACE_OUT"
	fi
}

skip_row() {
	printf '  %-44s skipped: %s\n' "$1" "$2"
}

# --- the run ------------------------------------------------------------

echo "iolite at the limit: $("$IOLITE" --version 2>/dev/null | head -n 1) vs $("$FIO" --version 2>/dev/null), pinned to cpu $BENCH_CPU"
echo "  $(uname -sr), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  $ROUNDS rounds of $SECS s per tool and row; zram: ${ZDEV:-none ($WHY)}; /dev/shm file: $SHM_MB MiB"
echo "  job: $(job_opts ENGINE TARGET 32 --direct=0/1 | tr '\n' ' ')"
echo "  minimal: bench/minimal.c TARGET MODE 32 8 4096 $SECS DIRECT"
[ -n "$SKIPPED" ] && echo "  minimal.c built without: $SKIPPED"
[ -n "$TIOU" ] && echo "  t/io_uring: $TIOU -d32 -s8 -c8 -p0 -n1 -r$((SECS + 1)) FLAGS TARGET"
echo
header
start=$(date +%s)

if [ -z "$ZDEV" ]; then
	skip_row "zram rows" "$WHY"
else
	if [ $HAVE_URING = 1 ]; then
		measure_row "zram io_uring, direct" io_uring "$ZDEV" 32 \
			io_uring 1 "-B0 -F0 -O1" ""
		measure_row "zram io_uring fixed+regfiles, direct" io_uring \
			"$ZDEV" 32 io_uring_fixed 1 "-B1 -F1 -O1" \
			"--fixedbufs=1 --registerfiles=1"
	else
		skip_row "zram io_uring" "no liburing"
	fi
	if [ $HAVE_AIO = 1 ]; then
		# iolite reads the AIO ring before it calls io_getevents:
		# against the loop that does the same, and the one that
		# calls io_getevents for every batch (as fio does)
		measure_row "zram libaio, direct (loop reads the ring)" libaio \
			"$ZDEV" 32 aio_reap 1 "-a1 -B0 -F0 -O1" ""
		measure_row "zram libaio, direct (loop: io_getevents)" libaio \
			"$ZDEV" 32 aio 1 "-a1 -B0 -F0 -O1" ""
	else
		skip_row "zram libaio" "no libaio"
	fi
	measure_row "zram psync iodepth 1, direct" psync "$ZDEV" 1 psync 1 \
		"-S1 -B0 -F0 -O1" ""
fi
if [ $HAVE_URING = 1 ]; then
	measure_row "/dev/shm io_uring, buffered" io_uring "$SHMFILE" 32 \
		io_uring 0 "-B0 -F0 -O0" ""
	measure_row "/dev/shm io_uring fixed+regfiles, buffered" io_uring \
		"$SHMFILE" 32 io_uring_fixed 0 "-B1 -F1 -O0" \
		"--fixedbufs=1 --registerfiles=1"
else
	skip_row "/dev/shm io_uring" "no liburing"
fi

echo
echo "CPU per I/O, ns, user+system (the whole process: threads and io-wq workers; all rounds):"
printf '  %-44s' ""
printf " %${W}s" fio iolite minimal
echo
cat "$CPU_OUT"
echo
if [ $HAVE_STRACE = 1 ]; then
	echo "I/O system calls per I/O (strace -f -c, $STRACE_SECS s runs, $(echo $SYSCALLS | tr ',' ' ')):"
	cat "$STRACE_OUT"
else
	echo "(strace not found: no system call counts)"
fi
echo
echo "target (issue 26): iolite/minimal at least 1.00 on every row (best of rounds):"
cat "$TARGETS"
echo "  $MET of $ROWS rows met"
echo "  ($(($(date +%s) - start)) s)"

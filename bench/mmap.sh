#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/mmap.sh IOLITE: the mmap engine against fio's and against the
# floor, in one run. 4k and 64k random reads and random writes over one
# 4 GiB file in /dev/shm:
#
#   iolite   ioengine=mmap (one mapping of the whole file, a copy per I/O)
#   fio      fio 3.33's ioengine=mmap, same job options
#   bare     bench/mmap-bare.c: memcpy(3) at random offsets of the same
#            kind of mapping (2 MiB aligned, MADV_RANDOM), nothing else
#   iolite-gr  iolite with gtod_reduce=1 (no latencies: the clock read
#            every few I/Os), against bare
#   bare+clk the bare loop with one time-stamp read per copy, the floor
#            for a job that times every I/O (iolite's default)
#
# iolite and the bare loop prefault their mappings (mmap_populate=1,
# MAP_POPULATE) so that they measure copies, not first-touch page faults;
# fio has no such option and faults as it goes, as it does for its users.
# Every tool runs time-based for BENCH_RUNTIME seconds on the same CPU
# (taskset), the tools interleaved, BENCH_REPS times; each figure is the
# best of its runs (most IOPS, most I/Os per CPU-second), as make bench
# takes them: other load on the machine only ever adds cost, so the best
# run is the one it disturbed least. One line per workload with
# the ratios the targets speak of: iolite/fio (>= 50 at 4k randread) and
# iolite/bare (>= 0.9), with the floors split: i/bc is iolite (full
# statistics) over bare+clk, igr/b iolite-gr over bare. doc/performance.md ("mmap engine") records a run
# and the commands.
#
# Environment: FIO (default fio), BENCH_CPU (default the last allowed
# CPU), BENCH_REPS (default 3), BENCH_RUNTIME (default 5), BENCH_SIZE
# (default 4g; the file is BENCH_DIR/iolite-bench-mmap, BENCH_DIR default
# /dev/shm), BENCH_QUICK=1 (256m, 1 s, one rep: a smoke run), CC.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

[ $# -eq 1 ] || die "usage: bench/mmap.sh /path/to/iolite"
FIO=${FIO:-fio}
CC=${CC:-cc}
BENCH_REPS=${BENCH_REPS:-3}
bench_start "$1" "$FIO" jq taskset "$CC"
SIZE=${BENCH_SIZE:-4g}
DIR=${BENCH_DIR:-/dev/shm}

if [ "${BENCH_QUICK:-0}" = 1 ]; then
	REPS=1
	SECS=1
	SIZE=256m
fi

FILE=$DIR/iolite-bench-mmap
trap 'rm -rf "$WORK" "$FILE"' EXIT

"$CC" -O2 -o "$WORK/mmap-bare" "$HERE/mmap-bare.c" ||
	die "cannot build bench/mmap-bare.c"

bytes=$(numfmt --from=iec "$(echo "$SIZE" | tr a-z A-Z)") ||
	die "bad BENCH_SIZE '$SIZE'"
# Written data, not a sparse file: every page exists before any run.
dd if=/dev/zero of="$FILE" bs=1M count=$((bytes >> 20)) status=none ||
	die "cannot lay out $FILE"

run() {
	taskset -c "$BENCH_CPU" "$@"
}

# The same job for iolite and fio; iolite prefaults its mapping.
job_args() {
	echo "--name=mmap --filename=$FILE --ioengine=mmap --rw=$1" \
	     "--bs=$2 --size=$SIZE --time_based --runtime=$SECS" \
	     "--output-format=json"
}
IOLITE_ARGS="--mmap_populate=1"

# measure TOOL RW BS: one run, prints "IOPS IOS CPU_SECONDS".
measure() {
	local dir=${2#rand}
	local out=$WORK/out.json

	case $1 in
	iolite|iolite-gr|fio)
		local bin=$IOLITE extra=$IOLITE_ARGS
		if [ "$1" = fio ]; then
			bin=$FIO
			extra=
		elif [ "$1" = iolite-gr ]; then
			extra="$IOLITE_ARGS --gtod_reduce=1"
		fi
		# shellcheck disable=SC2046,SC2086
		run "$bin" $(job_args "$2" "$3") $extra >"$out" \
			2>"$WORK/err" || die "$1 failed: $(cat "$WORK/err")"
		jq -r ".jobs[0] | [.$dir.iops, .$dir.total_ios,
			(.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000]
			| @tsv" "$out"
		;;
	bare|bare+clk)
		local clk=
		[ "$1" = bare+clk ] && clk=clock
		# shellcheck disable=SC2086
		run "$WORK/mmap-bare" "$FILE" "$bytes" \
			"$(numfmt --from=iec "$(echo "$3" | tr a-z A-Z)")" \
			"$dir" "$SECS" populate $clk |
			sed 's/^iops=\([0-9]*\) .*copies=\([0-9]*\) cpu_s=\(.*\)/\1 \2 \3/'
		;;
	esac
}

best() {
	sort -g | tail -n 1
}

echo "# iolite: $("$IOLITE" --version 2>/dev/null | head -n 1)"
echo "# fio: $("$FIO" --version)"
echo "# file: $FILE, $SIZE; $SECS s per run, best of $REPS; CPU $BENCH_CPU"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commands:"
echo "#   $IOLITE $(job_args RW BS) $IOLITE_ARGS"
echo "#   $FIO $(job_args RW BS)"
echo "#   mmap-bare $FILE $bytes BS read|write $SECS populate [clock]"
echo "# IOPS: best I/Os per second of run time, of $REPS runs"
echo "# /cpu: best I/Os per second of CPU time (user + system), the"
echo "#       figure a machine shared with other work does not skew much"
echo "# gr: iolite with gtod_reduce=1; b+c: the bare loop timing each copy"
printf '%-9s %4s %8s %8s %8s %8s %8s %8s %8s %8s %6s %6s %6s %6s\n' \
	workload bs iolite fio bare i/cpu gr/cpu f/cpu b/cpu b+c/cpu \
	"i/f" "i/b" "i/b+c" "gr/b"

TOOLS="iolite iolite-gr fio bare bare+clk"
for rw in randread randwrite; do
	for bs in 4k 64k; do
		for t in $TOOLS; do
			: >"$WORK/$t.iops"
			: >"$WORK/$t.cpu"
		done
		for r in $(seq "$REPS"); do
			for t in $TOOLS; do
				set -- $(measure $t $rw $bs) || exit 1
				echo "$1" >>"$WORK/$t.iops"
				echo "$2 / $3" | bc -l >>"$WORK/$t.cpu"
			done
		done
		for t in $TOOLS; do
			v=${t//[-+]/_}
			eval "${v}_iops=\$(best <\"\$WORK/\$t.iops\")"
			eval "${v}_cpu=\$(best <\"\$WORK/\$t.cpu\")"
		done
		# shellcheck disable=SC2154
		printf '%-9s %4s %8.0f %8.0f %8.0f %8.0f %8.0f %8.0f %8.0f %8.0f %6.1f %6.2f %6.2f %6.2f\n' \
			$rw $bs "$iolite_iops" "$fio_iops" "$bare_iops" \
			"$iolite_cpu" "$iolite_gr_cpu" "$fio_cpu" "$bare_cpu" \
			"$bare_clk_cpu" \
			"$(echo "$iolite_cpu / $fio_cpu" | bc -l)" \
			"$(echo "$iolite_cpu / $bare_cpu" | bc -l)" \
			"$(echo "$iolite_cpu / $bare_clk_cpu" | bc -l)" \
			"$(echo "$iolite_gr_cpu / $bare_cpu" | bc -l)"
	done
done

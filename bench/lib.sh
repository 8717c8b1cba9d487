# SPDX-License-Identifier: MIT
#
# What bench/profile.sh and bench/live.sh share, sourced by them.
# bench_start IOLITE TOOL...
# checks the binary and the tools, sets IOLITE, REPS (BENCH_REPS, 5),
# SECS (BENCH_RUNTIME, 5), BENCH_CPU (default: the last CPU the shell
# may use) and WORK (a directory removed at exit); median reads numbers
# a line and prints their median.

die() {
	echo "bench: $*" >&2
	exit 1
}

bench_start() {
	IOLITE=$1
	shift
	REPS=${BENCH_REPS:-5}
	SECS=${BENCH_RUNTIME:-5}
	[ -x "$IOLITE" ] || die "'$IOLITE' is not an executable"
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || die "'$t' is needed"
	done
	if [ -z "${BENCH_CPU:-}" ]; then
		BENCH_CPU=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
			    tail -n 1 | sed 's/.*-//')
	fi
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# The median over the runs $WORK/SETTING.R.json of a jq filter.
runs_median() {
	for r in $(seq "$REPS"); do
		jq "$2" "$WORK/$1.$r.json"
	done | median
}

# The medians of a setting's runs: IOPS (the job's read IOPS) and PERCPU
# (its I/Os per CPU-second of the process).
runs_rates() {
	IOPS=$(runs_median "$1" '.jobs[0].read.iops')
	PERCPU=$(runs_median "$1" '.jobs[0] | .read.total_ios /
		    ((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000)')
}

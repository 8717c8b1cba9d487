#!/bin/sh
# Runs the fuzz harnesses: fuzz/run.sh BUILD_DIR SECONDS NAME...
#
# Each harness BUILD_DIR/fuzz/NAME gets an equal share of SECONDS (at
# least 1), a seed corpus made here from examples/ and t/data/ (job files
# as they are, as command lines, and their values for the number
# grammar) or kept in fuzz/seeds/NAME/ (I/O logs), the inputs kept in
# fuzz/regress/NAME/ (past findings), and a dictionary of option names
# (or the harness's own words). The corpus BUILD_DIR/corpus/NAME is kept
# between runs. Exits non-zero on the first finding.
set -eu

dir=$1
total=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
per=$((total / $#))
[ "$per" -ge 1 ] || per=1

seeds=$dir/seeds
rm -rf "$seeds"
mkdir -p "$seeds/fuzz_jobfile" "$seeds/fuzz_cmdline" "$seeds/fuzz_num"
for d in "$src"/fuzz/seeds/*/; do
	[ -d "$d" ] && cp -R "$d" "$seeds/"
done

find "$src/examples" "$src/t/data" -type f -name '*.fio' | sort >"$seeds/list"
i=0
while read -r f; do
	i=$((i + 1))
	cp "$f" "$seeds/fuzz_jobfile/$i.fio"
	# the same job as a command line: [x] -> --name=x, k=v -> --k=v
	sed -e 's/[;#].*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' \
	    -e '/^$/d' -e '/^include/d' \
	    -e 's/^\[\(.*\)\]$/--name=\1/' -e '/^--name=/!s/^/--/' \
	    "$f" >"$seeds/fuzz_cmdline/$i"
done <"$seeds/list"
# each value for the number grammar, each option line as it is, once per
# distinct line: one awk for all the files (a few processes per line made
# this the most of a short run's CPU)
awk -v list="$seeds/list" -v out="$seeds/fuzz_num" 'BEGIN {
	split("u s t T b d", kind, " ")
	while ((getline f < list) > 0) {
		while ((getline line < f) > 0) {
			sub(/[;#].*/, "", line)
			sub(/^[[:space:]]+/, "", line)
			sub(/[[:space:]]+$/, "", line)
			if (line !~ /^[a-z_]*=./ || line in seen)
				continue
			seen[line] = ++n
			o = out "/o-" n
			printf "o%s", line > o
			close(o)
			v = substr(line, index(line, "=") + 1)
			for (k = 1; k <= 6; k++) {
				o = out "/" kind[k] "-" n
				printf "%s%s", kind[k], v > o
				close(o)
			}
		}
		close(f)
	}
}'

for name in "$@"; do
	bin=$dir/fuzz/$name
	corpus=$dir/corpus/$name
	mkdir -p "$corpus"
	# (a seed that crashes here is reported by the run below; its
	# artifact goes to $dir, not to the current directory)
	FUZZ_WRITE_DICT=$seeds/$name.dict "$bin" -runs=0 \
		-artifact_prefix="$dir/$name-" "$seeds/$name" >/dev/null 2>&1 || true
	set -- "$corpus" "$seeds/$name"
	[ -d "$src/fuzz/regress/$name" ] && set -- "$@" "$src/fuzz/regress/$name"
	echo "  FUZZ    $name (${per}s)"
	if ! "$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
		-dict="$seeds/$name.dict" -artifact_prefix="$dir/$name-" \
		-print_final_stats=1 -print_funcs=0 "$@" >"$dir/$name.log" 2>&1; then
		tail -n 60 "$dir/$name.log" >&2
		echo "fuzz: $name found a problem: see $dir/$name.log;" \
			"replay with $bin $dir/$name-<crash file>" >&2
		exit 1
	fi
	grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' \
		"$dir/$name.log" | tail -n 1 | sed 's/^/          /'
done

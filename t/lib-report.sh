# Helpers for tests comparing iolite's normal report with fio's, sourced
# after test-lib.sh: the report's line structure and labels, once every
# measured number is replaced by '#'.

# Drops iolite's own lines, which fio does not have: the per-job cost
# lines ("  iolite       :", "  io_uring wq  :"), a rated job's
# "  co-lat (unit): ..." line and the "Notes:" block that ends the
# report, with the blank line before it.
drop_own() {
	sed -E -e '/^  (iolite|io_uring wq) +: /d' -e '/^  co-lat \(/d' "$1" |
	awk '/^Notes:$/ { notes = 1; exit }
	     blank { print ""; blank = 0 }
	     /^$/ { blank = 1; next }
	     { print }
	     END { if (blank && !notes) print "" }'
}

# Replaces every measured number by '#' and drops value-dependent lines.
normalize() {
	drop_own "$1" | sed -E \
		-e '/^  lat \((nsec|usec|msec)\)   :/d' \
		-e '/^     \|/d' \
		-e 's/^(fio|iolite)-[0-9].*/VERSION/' \
		-e 's/(pid=[0-9]+): .*/\1: DATE/' \
		-e 's/\((nsec|usec|msec)\)/(UNIT)/g' \
		-e 's/bw \( *(KiB|MiB|kB)\/s\)/bw (UNIT\/s)/' \
		-e 's/= +/=/g' \
		-e 's/[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?/#/g'
}

# With no_samples=1, drops the bw/iops sample lines: whether a run lasts
# past the first 500 ms sample depends on the machine.
drop_samples() {
	if [ "${no_samples:-0}" = 1 ]; then
		grep -vE '^   (bw \(|iops +:)'
	else
		cat
	fi
}

# The percentile labels in order, one a line.
pct_labels() {
	grep '^     |' "$1" | grep -oE '[0-9.]+th=' || true
}

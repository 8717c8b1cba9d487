# parse.awk: a side-by-side table (t/sbs/FAMILY.txt) to tab-separated rows
#   name checks expect options solo files trace needs
# solo is 1 for rows that run alone (solo, err, @file.fio), files the
# number of files the row's job uses (batches stay small while 13.12 is
# open) and trace 1 when a check or a fixed figure needs strace. A
# malformed line becomes a row named !LINE with the problem as options.
# needs is the row's needs=PREREQ (test_have_prereq names, / between
# several) or -.
# -v only=REGEX keeps the rows whose name matches.

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function bad(msg) { printf "!%d\t-\t-\t%s\t1\t0\t0\t-\n", NR, msg }

BEGIN {
	traced = "sys|fsync|fdatasync|dontneed|fadvise64|openat|close|ftruncate|fallocate|sync_file_range"
	known = "counts|bytes|total|mixed|seq|stride|set|cover|twice|bsset|mix|lios|opens|perfile|regions|files|names|data|loglines|err|rc|jerr|errs|runtime|depth|dsubmit|dcomplete|solo|howto|nofio|ios|syncs|" traced
}

/^[ \t]*(#|$)/ { next }

{
	n = split($0, f, /[ \t]+\|[ \t]+/)
	if (n != 4) { bad("expected 4 fields separated by \" | \", found " n); next }
	name = trim(f[1]); checks = trim(f[2]); expect = trim(f[3]); opts = trim(f[4])
	gsub(/[ \t]+/, "", checks)
	gsub(/[ \t]+/, " ", expect)
	if (name !~ /^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$/) { bad("bad row name \"" name "\""); next }
	if (name in seen) { bad("row \"" name "\" twice (line " seen[name] ")"); next }
	seen[name] = NR
	nc = split(checks, c, ",")
	for (i = 1; i <= nc; i++) {
		k = c[i]; sub(/~[0-9]+$/, "", k)
		if (k !~ /^pending=[A-Za-z0-9.]+$/ && k !~ /^needs=[A-Z_\/]+$/ && k !~ "^(" known ")$") {
			bad("row \"" name "\": unknown check \"" c[i] "\""); next
		}
	}
	if (opts !~ /^@/ && opts ~ /(^| )[^-]/) { bad("row \"" name "\": options are --name=value words"); next }
	if (only != "" && name !~ only) next
	cc = "," checks ","
	solo = (cc ~ /,(solo|err),/ || opts ~ /^@/)
	trace = (cc ~ "(,)(" traced ")(~[0-9]+)?,")
	if (expect ~ "(^| )(" traced ")=") trace = 1
	files = 1
	if (match(opts, /--nrfiles=[0-9]+/))
		files = substr(opts, RSTART + 10, RLENGTH - 10) + 0
	if (match(opts, /--filename=[^ ]+/))
		files = split(substr(opts, RSTART, RLENGTH), dummy, ":")
	if (match(opts, /--numjobs=[0-9]+/))
		files *= substr(opts, RSTART + 10, RLENGTH - 10) + 0
	needs = "-"
	if (match(cc, /,needs=[A-Z_\/]+,/)) needs = substr(cc, RSTART + 7, RLENGTH - 8)
	printf "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", name, checks, expect, opts, solo, files, trace, needs
}

#!/bin/sh
# t/vm/check.sh CHECKS DIR: compares what runjobs.sh left of one row in
# DIR (DIR/fio, DIR/iolite); says what differs and fails, or prints
# nothing. CHECKS, a comma list (the table's column):
#   counts   total_ios read,write,trim (summed over the jobs)
#   bytes    io_bytes read,write,trim
#   seq      the write_iolog's I/O lines in order: file, action, offset,
#            length (times dropped)
#   set      the same lines sorted (random jobs: the same blocks, each
#            tool in its own order)
#   md5      the span's md5 after the run
#   zones    blkzone report after the run (write pointers, conditions)
#   changed  each tool's run changed the span (so that md5 and zones
#            cannot agree on a run that did nothing)
#   same     each tool's run left the span as it was (reads)
#   refused=OPTION  iolite refuses the job, naming OPTION, before any I/O
#            (the span and the zones as they were), while fio runs it
#            (unless solo)
#   solo     iolite alone is judged (options fio 3.33 lacks: fio 3.42
#            was compared by hand, doc/compat.md): fio's run, failed or
#            not, is ignored; then, of iolite's run:
#   ios=R:W:T  total_ios of read, write and trim are these
#   bytes=R:W:T  io_bytes of read, write and trim are these
#   md5=HASH  the span's md5 after the run is this (fio 3.42's, in this
#            guest; b6d81b36... is a MiB of zeroes: deallocated blocks)
#   seqmd5=HASH, setmd5=HASH  the md5 of the write_iolog's I/O lines,
#            in order or sorted, is this (fio 3.42's)
#   pattern  the span holds the job's buffer_pattern, block after block
#            (bs), as read back through the block device
#   nvme=SCT:SC  iolite exits non-zero naming this NVMe status (e.g.
#            0x2:0x83); otherwise a solo row must exit 0
#   error=E  iolite exits non-zero, its report's first job with error E
#            (an errno: fio 3.42's figure, measured by hand)
#   full=N   N zones are full after iolite's run (blkzone report)
#   rejected=OPTION  both refuse the job before any I/O (fio exits non-
#            zero having done none), iolite naming OPTION
#   openmax=N  after each tool's run at most N zones are written in part
#            (an open-zone limit: only a full zone leaves the open ones;
#            random jobs, whose zones are each tool's own draws)
# Unless a row is refused, rejected or solo, both tools exit 0 and fio
# does some I/O.
#
# t/vm/check.sh -t JOBS OUT: every row of the table JOBS that runjobs.sh
# ran into OUT, a line each (ok, FAIL with what differs, or skip: a row
# whose device was not given). Needs jq.
set -u

if [ $# = 3 ] && [ "$1" = -t ]; then
	table=$2 out=$3
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$table" |
	while IFS='|' read -r name _dev _span _prep checks _opts; do
		set -f
		# shellcheck disable=SC2086
		set -- $name $checks
		set +f
		for t in fio iolite; do
			[ -f "$out/$1/$t/retried" ] &&
				echo "note $1: $t run again after a lost run ($(cat "$out/$1/$t/retried"))"
		done
		if [ -f "$out/$1/skip" ]; then
			echo "skip $1: $(cat "$out/$1/skip")"
		elif "$0" "$2" "$out/$1" >"$out/$1/check" 2>&1; then
			echo "ok   $1"
		else
			echo "FAIL $1"
			sed 's/^/     /' "$out/$1/check"
			: >"$out/.failed"
		fi
	done
	[ ! -f "$out/.failed" ] || { rm -f "$out/.failed"; exit 1; }
	exit 0
fi
[ $# = 2 ] || { echo "usage: check.sh CHECKS DIR, or check.sh -t JOBS OUT" >&2; exit 2; }
checks=$1 dir=$2
f=$dir/fio i=$dir/iolite
bad=0

fail() {
	echo "$*"
	bad=1
}

# ios TOOLDIR FIELD: FIELD (total_ios, io_bytes) of read,write,trim
ios() {
	jq -r --arg k "$2" '[.jobs | map(.read[$k]), map(.write[$k]),
		map(.trim[$k]) | add] | map(tostring) | join(",")' \
		"$1/out.json" 2>/dev/null || echo "(no report)"
}

iolines() {
	# a sync's offset is whatever the tool's reused I/O unit held
	awk '$3 ~ /^(read|write|trim)$/ { print $2, $3, $4, $5 }
		$3 ~ /^(sync|datasync)$/ { print $2, $3 }' "$1/iolog" 2>/dev/null
}

# why TOOLDIR: what the tool said when it failed: its stderr, or (fio
# writes its errors there) what the output file holds before the JSON
why() {
	if [ -s "$1/stderr" ]; then
		head -n 5 "$1/stderr"
	else
		sed -n '/^{/q;p' "$1/out.json" 2>/dev/null | head -n 5
	fi
}

# same_file WHAT NAME: fio's and iolite's NAME agree
same_file() {
	if ! cmp -s "$f/$2" "$i/$2"; then
		fail "$1 differs (fio, iolite):"
		diff "$f/$2" "$i/$2" | head -n 10
	fi
}

# opt NAME: the value of --NAME= in iolite's command line
opt() {
	tr ' ' '\n' <"$i/cmd" | sed -n "s/^--$1=//p" | head -n 1
}

# pattern_md5 SPAN: md5 of SPAN bytes of iolite's buffer_pattern, the
# pattern repeated from each bs block's start
pattern_md5() {
	pat=$(opt buffer_pattern | sed 's/^0x//') bs=$(opt bs)
	case $bs in
	*k) bs=$((${bs%k} * 1024)) ;;
	*m) bs=$((${bs%m} * 1048576)) ;;
	esac
	# (octal escapes: dash's printf has no \x)
	# shellcheck disable=SC2059
	printf "$(echo "$pat" | tr A-F a-f | awk '{
		for (i = 1; i < length($0); i += 2) {
			hi = index("0123456789abcdef", substr($0, i, 1)) - 1
			lo = index("0123456789abcdef", substr($0, i + 1, 1)) - 1
			printf "\\%03o", hi * 16 + lo
		}
	}')" >"$dir/pattern"
	[ -s "$dir/pattern" ] || { echo none; return; }
	while [ "$(wc -c <"$dir/pattern")" -lt "$bs" ]; do
		cat "$dir/pattern" "$dir/pattern" >"$dir/pattern.2"
		mv "$dir/pattern.2" "$dir/pattern"
	done
	head -c "$bs" "$dir/pattern" >"$dir/block"
	: >"$dir/pattern"
	n=$(($1 / bs))
	while [ "$n" -gt 0 ]; do
		cat "$dir/block" >>"$dir/pattern"
		n=$((n - 1))
	done
	md5sum <"$dir/pattern" | cut -d' ' -f1
	rm -f "$dir/pattern" "$dir/block"
}

# partial TOOLDIR: the zones of blkzone's report after the run written in
# part (a write pointer past the start, the zone not full)
partial() {
	grep -v 'zcond:14(fu)' "$1/zones.after" 2>/dev/null |
		grep -vc 'wptr 0x0*[, ]'
}

# solo CHECKS: iolite's run alone (fio's tolerated)
solo() {
	st=$(echo ",$1," | sed -n 's/.*,nvme=\([^,]*\),.*/\1/p')
	er=$(echo ",$1," | sed -n 's/.*,error=\([^,]*\),.*/\1/p')
	rc=$(cat "$i/rc")
	if [ -n "$er" ]; then
		[ "$rc" != 0 ] && [ "$rc" -lt 124 ] ||
			fail "iolite: exit status $rc, not a failed job"
		e=$(jq -r '.jobs[0].error' "$i/out.json" 2>/dev/null)
		[ "$e" = "$er" ] || fail "error: iolite $e, the row $er"
	elif [ -n "$st" ]; then
		want="SCT ${st%%:*}, SC ${st#*:}"
		[ "$rc" != 0 ] && [ "$rc" -lt 124 ] ||
			fail "iolite: exit status $rc, not a failed command"
		grep -q "($want)" "$i/stderr" ||
			fail "iolite: stderr does not name ($want): $(why "$i")"
	else
		[ "$rc" = 0 ] || fail "iolite: exit status $rc: $(why "$i")"
		[ ! -s "$i/stderr" ] || fail "iolite wrote to stderr: $(why "$i")"
	fi
	for c in $(echo "$1" | tr , ' '); do
		case $c in
		solo|nvme=*|error=*) ;;
		full=*)	n=$(grep -c 'zcond:14(fu)' "$i/zones.after" 2>/dev/null)
			[ "$n" = "${c#full=}" ] ||
				fail "full: iolite left $n zones full, the row ${c#full=}" ;;
		openmax=*)
			n=$(partial "$i")
			[ "$n" -le "${c#openmax=}" ] ||
				fail "iolite: $n zones written in part, more than ${c#openmax=}" ;;
		ios=*)	a=$(echo "${c#ios=}" | tr : ,) b=$(ios "$i" total_ios)
			[ "$a" = "$b" ] || fail "ios: iolite $b, the row $a" ;;
		bytes=*)
			a=$(echo "${c#bytes=}" | tr : ,) b=$(ios "$i" io_bytes)
			[ "$a" = "$b" ] || fail "bytes: iolite $b, the row $a" ;;
		md5=*)	b=$(cat "$i/md5.after")
			[ "${c#md5=}" = "$b" ] ||
				fail "md5: iolite left $b, the row ${c#md5=}" ;;
		seqmd5=*|setmd5=*)
			if [ "${c%%=*}" = setmd5 ]; then
				iolines "$i" | sort
			else
				iolines "$i"
			fi >"$dir/iolite.lines"
			b=$(md5sum <"$dir/iolite.lines" | cut -d' ' -f1)
			[ "${c#*=}" = "$b" ] ||
				fail "${c%%=*}: iolite's write_iolog lines $b, the row ${c#*=}:" \
				     "$(head -n 3 "$dir/iolite.lines")" ;;
		pattern)
			span=$(($(opt size | sed 's/k$/*1024/;s/m$/*1048576/')))
			[ "$(pattern_md5 "$span")" = "$(cat "$i/md5.after")" ] ||
				fail "pattern: the span read back is not the buffer_pattern" ;;
		*)	echo "check.sh: unknown solo check '$c'" >&2
			exit 2 ;;
		esac
	done
}

if [ -f "$dir/skip" ]; then
	fail "not run: $(cat "$dir/skip")"
	exit 1
fi
for t in "$f" "$i"; do
	[ -s "$t/prep.err" ] && fail "${t##*/}: preparing the device: $(cat "$t/prep.err")"
done

case ,$checks, in
*,rejected=*)
	opt=$(echo ",$checks," | sed 's/.*,rejected=\([^,]*\),.*/\1/')
	for t in "$f" "$i"; do
		[ "$(cat "$t/rc")" != 0 ] ||
			fail "${t##*/}: exit status 0, not a refusal"
		cmp -s "$t/md5.before" "$t/md5.after" ||
			fail "${t##*/} wrote to the device before refusing"
		if [ -f "$t/zones.before" ] &&
		   ! cmp -s "$t/zones.before" "$t/zones.after"; then
			fail "${t##*/} moved a zone's write pointer before refusing"
		fi
	done
	case $(ios "$f" total_ios) in
	0,0,0|"(no report)") ;;
	*) fail "fio did I/O: $(ios "$f" total_ios)" ;;
	esac
	grep -q "option '$opt'" "$i/stderr" ||
		fail "iolite: stderr does not name option '$opt': $(cat "$i/stderr")"
	exit $bad
	;;
*,refused=*)
	opt=$(echo ",$checks," | sed 's/.*,refused=\([^,]*\),.*/\1/')
	rc=$(cat "$i/rc")
	if [ "$rc" = 0 ] || [ "$rc" -ge 128 ]; then
		fail "iolite: exit status $rc, not a refusal"
	fi
	grep -q "option '$opt'" "$i/stderr" ||
		fail "iolite: stderr does not name option '$opt': $(cat "$i/stderr")"
	if [ -f "$i/md5.before" ] && ! cmp -s "$i/md5.before" "$i/md5.after"; then
		fail "iolite wrote to the device before refusing"
	fi
	if [ -f "$i/zones.before" ] && ! cmp -s "$i/zones.before" "$i/zones.after"; then
		fail "iolite moved a zone's write pointer before refusing"
	fi
	case ,$checks, in
	*,solo,*) ;;
	*)	[ "$(cat "$f/rc")" = 0 ] ||
			fail "fio: exit status $(cat "$f/rc") (it runs this job): $(why "$f")" ;;
	esac
	exit $bad
	;;
esac

case ,$checks, in
*,solo,*)
	solo "$checks"
	exit $bad
	;;
esac

for t in "$f" "$i"; do
	[ "$(cat "$t/rc")" = 0 ] ||
		fail "${t##*/}: exit status $(cat "$t/rc"): $(why "$t")"
done
case $(ios "$f" total_ios) in
0,0,0|"(no report)") fail "fio did no I/O" ;;
esac

for c in $(echo "$checks" | tr , ' '); do
	case $c in
	counts|bytes)
		k=total_ios
		[ "$c" = bytes ] && k=io_bytes
		a=$(ios "$f" $k) b=$(ios "$i" $k)
		[ "$a" = "$b" ] || fail "$c: fio $a, iolite $b" ;;
	seq|set)
		for t in fio iolite; do
			if [ "$c" = set ]; then
				iolines "$dir/$t" | sort
			else
				iolines "$dir/$t"
			fi >"$dir/$t.$c"
		done
		if ! cmp -s "$dir/fio.$c" "$dir/iolite.$c"; then
			fail "$c: the write_iologs differ (fio, iolite):"
			diff "$dir/fio.$c" "$dir/iolite.$c" | head -n 10
		fi ;;
	md5)	same_file md5 md5.after ;;
	openmax=*)
		for t in "$f" "$i"; do
			n=$(partial "$t")
			[ "$n" -le "${c#openmax=}" ] ||
				fail "${t##*/}: $n zones written in part, more than ${c#openmax=}"
		done ;;
	zones)	same_file "the zones after the run" zones.after ;;
	changed|same)
		for t in "$f" "$i"; do
			if cmp -s "$t/md5.before" "$t/md5.after"; then
				[ "$c" = changed ] &&
					fail "${t##*/}: the span did not change"
			else
				[ "$c" = same ] &&
					fail "${t##*/}: the span changed"
			fi
		done ;;
	*)	echo "check.sh: unknown check '$c'" >&2
		exit 2 ;;
	esac
done
exit $bad

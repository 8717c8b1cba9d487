# Side-by-side tests: a table of small jobs run through fio and iolite,
# compared on the I/O (doc/sidebyside.md: the table's format, the checks,
# how to add a row). Sourced after test-lib.sh by t18NN-sbs-*.sh:
#
#   sbs_table FAMILY     runs t/sbs/FAMILY.txt, one TAP test per row
#
# Rows that can share a run are batched: one job file with a section per
# row (its own directory and write_iolog; the jobs run side by side), run
# once by each tool, so fio's start-up (~0.4 s) is paid per batch, not
# per row. Rows marked solo or err, job-file rows (@file.fio) and rows
# with many files run alone from the command line; a batch a tool fails
# is run again row by row, so the failure lands on its row. The figures
# of all rows come from one awk pass over the runs' JSON, write_iolog
# files, strace logs and files (t/sbs/figures.awk); t/sbs/compare.awk
# gives the verdicts. Nothing here forks per row but the runs themselves.
#
# Environment: SBS_FIO (the fio binary; default fio), SBS_ONLY (a regex:
# run only the rows whose name matches), SBS_BATCH_FILES and
# SBS_BATCH_ROWS (most files and rows in one batch of iolite's),
# SBS_FIO_BATCH_FILES and SBS_FIO_BATCH_ROWS (fio's), SBS_TIMES (a file
# that gets each run's elapsed time).

SBS_TABLES="$TEST_DIR/sbs"
: "${SBS_FIO:=fio}"
# iolite's batches: 13.12 (files_resolve keeps pointers into its target
# array across a realloc at the 9th target) keeps them under 9 files
# until the fix lands; iolite starts in milliseconds, so small batches
# cost little. fio's batches are as large as the table allows.
: "${SBS_BATCH_FILES:=8}"
: "${SBS_BATCH_ROWS:=24}"
: "${SBS_FIO_BATCH_FILES:=256}"
: "${SBS_FIO_BATCH_ROWS:=64}"

# The calls strace records (the sys checks count those on a row's files).
SBS_TRACE=fsync,fdatasync,fadvise64,openat,ftruncate,fallocate,sync_file_range

# sbs_exec TOOL BASE TRACE ARGS...: runs fio or iolite with ARGS in the
# current directory: JSON to BASE.json, stdout and stderr to BASE.out and
# BASE.err, the exit status to BASE.rc, traced calls to BASE.strace.
sbs_exec() {
	local tool=$1 base=$2 trace=$3 cmd=$IOLITE
	shift 3
	[ "$tool" = fio ] && cmd=$SBS_FIO
	if [ "$trace" = 1 ]; then
		set -- strace -f -qq -y -e trace=$SBS_TRACE -o "$base.strace" \
			"$cmd" --output-format=json --output="$base.json" "$@"
	else
		set -- "$cmd" --output-format=json --output="$base.json" "$@"
	fi
	[ -n "$SBS_TIMES" ] && t0=$(date +%s%N)
	"$@" >"$base.out" 2>"$base.err"
	echo $? >"$base.rc"
	[ -n "$SBS_TIMES" ] && echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms $tool $base" >>"$SBS_TIMES"
	return 0
}

# sbs_args DIR: a row's options (tab-separated rows on stdin, options in
# field 4) as job options, one a line, the section header first when
# SECTIONS=1. $D becomes the row's directory DIR/ROW; --directory=DIR/ROW
# is added unless the row places its files itself (a --directory, or a
# --filename with a /), and --write_iolog=DIR/ROW/sbs.iolog unless the
# row writes its own log.
sbs_args() {
	awk -F '\t' -v dir="$1" -v sections="${SECTIONS:-0}" '
	{
		d = dir "/" $1
		o = $4
		gsub(/\$D/, d, o)
		n = split(o, tok, " ")
		placed = logged = 0
		for (i = 1; i <= n; i++) {
			if (tok[i] ~ /^--directory=/ || tok[i] ~ /^--filename=.*\//)
				placed = 1
			if (tok[i] ~ /^--write_iolog=/)
				logged = 1
		}
		if (sections) printf "\n[%s]\n", $1
		if (!placed) print "--directory=" d
		if (!logged) print "--write_iolog=" d "/sbs.iolog"
		for (i = 1; i <= n; i++) print tok[i]
	}'
}

# sbs_run_solo TOOL W ROW: one row alone, in its directory W/d/NAME.
sbs_run_solo() {
	local tool=$1 w=$2 name checks expect opts solo files trace d jf extra
	IFS='	' read -r name checks expect opts solo files trace <<-EOF
	$3
	EOF
	d="$w/d/$name"
	rm -rf "$d" && mkdir -p "$d"
	printf '%s %s * %s\n' "$name" "$w/$name" "$trace" >>"$w/map"
	case "$opts" in
	@*)
		jf=${opts%% *}
		jf="$SBS_TABLES/jobs/${jf#@}"
		extra=
		case "$opts" in *" "*) extra=$(printf '%s\n' "${opts#* }" |
			sed "s|\\\$D|$d|g") ;; esac
		# shellcheck disable=SC2086
		(cd "$d" && SBS_DIR=$d && export SBS_DIR &&
			sbs_exec "$tool" "$w/$name" "$trace" $extra "$jf")
		;;
	*)
		printf '%s\n' "$3" | sbs_args "$w/d" >"$w/$name.args"
		(cd "$d" && IFS='
' && set -f && sbs_exec "$tool" "$w/$name" "$trace" --name="$name" \
			$(cat "$w/$name.args"))
		;;
	esac
}

# sbs_run_tool TOOL W ROWS: runs every row of ROWS (parse.awk's output)
# through TOOL in W: the batches, then the rows that run alone.
sbs_run_tool() {
	local tool=$1 w=$2 rows=$3 br b tr row maxf=$SBS_BATCH_FILES maxr=$SBS_BATCH_ROWS
	if [ "$tool" = fio ]; then
		maxf=$SBS_FIO_BATCH_FILES maxr=$SBS_FIO_BATCH_ROWS
	fi
	mkdir -p "$w/d"
	: >"$w/map"
	: >"$w/solo.rows"
	cut -f1 "$rows" | sed "s|^|$w/d/|" | xargs -r mkdir -p
	awk -F '\t' -v maxf="$maxf" -v maxr="$maxr" -v w="$w" '
	$5 == 1 || $6 > maxf { print >> (w "/solo.rows"); next }
	{
		if (!b || nf + $6 > maxf || nr >= maxr) { b++; nf = 0; nr = 0 }
		nf += $6; nr++
		print > (w "/b" b ".rows")
	}' "$rows"
	for br in "$w"/b*.rows; do
		[ -f "$br" ] || continue
		b=${br%.rows}
		tr=$(awk -F '\t' '$7 == 1 { t = 1 } END { print t + 0 }' "$br")
		{
			printf '[global]\nthread\n'
			SECTIONS=1 sbs_args "$w/d" <"$br" | sed 's/^--//'
		} >"$b.fio"
		(cd "$w" && sbs_exec "$tool" "$b" "$tr" "$b.fio")
		if [ "$(cat "$b.rc")" = 0 ]; then
			awk -F '\t' -v b="$b" -v t="$tr" \
				'{ print $1, b, $1, t }' "$br" >>"$w/map"
		else
			cat "$br" >>"$w/solo.rows"
		fi
	done
	while IFS= read -r row; do
		sbs_run_solo "$tool" "$w" "$row"
	done <"$w/solo.rows"
}

# sbs_figures W: every row's figures (W/figures) and I/O sequence
# (W/ROW.seq) from what the runs in W left; fails when awk does.
sbs_figures() {
	local w=$1
	rm -f "$w/events"
	(cd "$w/d" && find . -type f ! -name '*.iolog' -printf '%P %s\n') |
		sort >"$w/files.lst"
	# shellcheck disable=SC2046
	awk -v w="$w" -f "$SBS_TABLES/figures.awk" "$w/map" "$w/files.lst" \
		$(awk '{ print $2 ".rc"; print $2 ".json"; if ($4) print $2 ".strace" }' \
			"$w/map" | sort -u | while read -r f; do
				[ -f "$f" ] && echo "$f"; done) \
		$(ls "$w"/d/*/*.iolog 2>/dev/null) >"$w/figures" || return 1
	[ -f "$w/events" ] || return 0
	sort -t '	' -k1,1 -k2,2 -k3,3n "$w/events" >"$w/events.sorted" &&
		awk -f "$SBS_TABLES/coverage.awk" "$w/events.sorted" >>"$w/figures"
}

# sbs_table FAMILY: runs t/sbs/FAMILY.txt, a TAP test per row.
sbs_table() {
	local fam=$1 w havefio=0 trace=0 tools=iolite tool ff n failed skipped
	w="$TRASH/sbs/$fam"
	mkdir -p "$w"
	awk -v only="${SBS_ONLY:-}" -f "$SBS_TABLES/parse.awk" \
		"$SBS_TABLES/$fam.txt" >"$w/rows"
	grep -v '^!' "$w/rows" >"$w/good"
	command -v "$SBS_FIO" >/dev/null 2>&1 && havefio=1
	test_have_prereq STRACE && trace=1
	[ $trace = 1 ] || sed -i 's/	1$/	0/' "$w/good"
	[ $havefio = 1 ] && tools="fio iolite"
	ff=/dev/null
	for tool in $tools; do
		sbs_run_tool "$tool" "$w/$tool" "$w/good"
		if ! sbs_figures "$w/$tool" 2>"$w/$tool/figures.err"; then
			test_count=$((test_count + 1))
			test_failed=$((test_failed + 1))
			echo "not ok $test_count - $fam.txt: the harness failed on $tool's figures"
			sed 's/^/#   /' "$w/$tool/figures.err"
		fi
		[ "$tool" = fio ] && ff="$w/fio/figures"
	done
	awk -f "$SBS_TABLES/compare.awk" -v fam="$fam.txt" -v start=$test_count \
		-v havefio=$havefio -v trace=$trace -v w="$w" -v cnt="$w/count" \
		"$w/rows" "$ff" "$w/iolite/figures"
	read -r n failed skipped <"$w/count"
	test_count=$((test_count + n))
	test_failed=$((test_failed + failed))
	test_skipped=$((test_skipped + skipped))
}

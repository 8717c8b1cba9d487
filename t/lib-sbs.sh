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
# SBS_FIO_BATCH_FILES and SBS_FIO_BATCH_ROWS (fio's), SBS_TIMEOUT (the
# seconds a run may take), SBS_TIMES (a file that gets each run's
# elapsed and CPU time, from /usr/bin/time).

# the harness's awk programs; the tables (FAMILY.txt, jobs/) unless
# SBS_TABLES names another directory
SBS_LIB="$TEST_DIR/sbs"
: "${SBS_TABLES:=$SBS_LIB}"
: "${SBS_FIO:=fio}"
# iolite's batches: 13.12 (files_resolve keeps pointers into its target
# array across a realloc at the 9th target) keeps them under 9 files
# until the fix lands; iolite starts in milliseconds, so small batches
# cost little. fio's batches are as large as the table allows.
: "${SBS_BATCH_FILES:=8}"
: "${SBS_BATCH_ROWS:=24}"
: "${SBS_FIO_BATCH_FILES:=256}"
: "${SBS_FIO_BATCH_ROWS:=64}"
: "${SBS_TIMEOUT:=120}"

# The calls strace records (the sys checks count those on a row's files).
SBS_TRACE=fsync,fdatasync,fadvise64,openat,close,ftruncate,fallocate,sync_file_range

# sbs_exec TOOL BASE TRACE ARGS...: runs fio or iolite with ARGS in the
# current directory: JSON to BASE.json, stdout and stderr to BASE.out and
# BASE.err, the exit status to BASE.rc, traced calls to BASE.strace.
sbs_exec() {
	local tool=$1 base=$2 trace=$3 cmd=$IOLITE
	shift 3
	[ "$tool" = fio ] && cmd=$SBS_FIO
	set -- "$cmd" --output-format=json --output="$base.json" "$@"
	if [ "$trace" = 1 ]; then
		set -- strace -f -qq -y -e trace=$SBS_TRACE -o "$base.strace" "$@"
	fi
	# a run that hangs fails its rows instead of the whole suite
	set -- timeout -k 5 "$SBS_TIMEOUT" "$@"
	if [ -n "${SBS_TIMES:-}" ]; then
		set -- /usr/bin/time -a -o "$SBS_TIMES" \
			-f "%e s %U user %S sys $tool ${base##*/sbs/}" "$@"
	fi
	"$@" >"$base.out" 2>"$base.err"
	echo $? >"$base.rc"
}

# sbs_split TOOL W ROWS MAXFILES MAXROWS: prepares TOOL's runs in W from
# ROWS (parse.awk's output): the batches (W/bN.rows, the job file
# W/bN.fio with a section per row, W/bN.trace: 1 when strace must watch
# it), the rows that run alone (W/solo.rows) and every row's options as
# command-line words (W/ROW.args, one a line). In both, $D becomes the
# row's directory W/d/ROW; --directory=W/d/ROW is added unless the row
# places its files itself (a --directory, or a --filename with a /), and
# --write_iolog=W/d/ROW/sbs.iolog unless the row writes its own log.
sbs_split() {
	awk -F '\t' -v tool="$1" -v w="$2" -v maxf="$4" -v maxr="$5" '
	# rows marked nofio are not fio'"'"'s to run (it hangs on them)
	tool == "fio" && ("," $2 ",") ~ /,nofio,/ { next }
	{
		d = w "/d/" $1
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
		args = ""
		if (!placed) args = args "--directory=" d "\n"
		if (!logged) args = args "--write_iolog=" d "/sbs.iolog\n"
		for (i = 1; i <= n; i++) args = args tok[i] "\n"
		printf "%s", args > (w "/" $1 ".args")
		close(w "/" $1 ".args")
		if ($5 == 1 || $6 > maxf) { print > (w "/solo.rows"); next }
		if (!b || nf + $6 > maxf || nr >= maxr) {
			if (b) { print t > (w "/b" b ".trace"); close(w "/b" b ".fio") }
			b++; nf = 0; nr = 0; t = 0
			printf "[global]\nthread\n" > (w "/b" b ".fio")
		}
		nf += $6; nr++
		if ($7 == 1) t = 1
		print > (w "/b" b ".rows")
		# each row its own reporting group (group_reporting,
		# unified_rw_reporting)
		gsub(/(^|\n)--/, "\n", args)
		printf "\n[%s]\nnew_group%s", $1, args > (w "/b" b ".fio")
	}
	END { if (b) print t > (w "/b" b ".trace") }' "$3"
}

# sbs_run_solo TOOL W NAME OPTS TRACE: one row alone, in its directory.
sbs_run_solo() {
	local tool=$1 w=$2 name=$3 opts=$4 trace=$5 d="$2/d/$3" jf extra a
	printf '%s %s * %s\n' "$name" "$w/$name" "$trace" >>"$w/map"
	case "$opts" in
	@*)
		jf=${opts%% *}
		jf="$SBS_TABLES/jobs/${jf#@}"
		set --
		case "$opts" in *" "*) extra=$(printf '%s\n' "${opts#* }" |
			sed "s|\\\$D|$d|g")
			# shellcheck disable=SC2086
			set -- $extra ;;
		esac
		(cd "$d" && SBS_DIR=$d && export SBS_DIR &&
			sbs_exec "$tool" "$w/$name" "$trace" "$@" "$jf")
		;;
	*)
		set -- --name="$name"
		while IFS= read -r a; do
			set -- "$@" "$a"
		done <"$w/$name.args"
		(cd "$d" && sbs_exec "$tool" "$w/$name" "$trace" "$@")
		;;
	esac
}

# sbs_run_tool TOOL W ROWS: runs every row of ROWS (parse.awk's output)
# through TOOL in W: the batches, then the rows that run alone. A batch
# the tool fails is run again row by row, so the failure is its row's.
sbs_run_tool() {
	local tool=$1 w=$2 rows=$3 br b tr rc name checks expect opts solo files trace needs
	local maxf=$SBS_BATCH_FILES maxr=$SBS_BATCH_ROWS
	if [ "$tool" = fio ]; then
		maxf=$SBS_FIO_BATCH_FILES maxr=$SBS_FIO_BATCH_ROWS
	fi
	mkdir -p "$w/d"
	: >"$w/map"
	: >"$w/solo.rows"
	cut -f1 "$rows" | sed "s|^|$w/d/|" | xargs -r mkdir -p
	sbs_split "$tool" "$w" "$rows" "$maxf" "$maxr"
	for br in "$w"/b*.rows; do
		[ -f "$br" ] || continue
		b=${br%.rows}
		read -r tr <"$b.trace"
		(cd "$w" && sbs_exec "$tool" "$b" "$tr" "$b.fio")
		read -r rc <"$b.rc"
		if [ "$rc" = 0 ]; then
			awk -F '\t' -v b="$b" -v t="$tr" \
				'{ print $1, b, $1, t }' "$br" >>"$w/map"
		else
			cut -f1 "$br" | sed "s|^|$w/d/|" | xargs rm -rf
			cut -f1 "$br" | sed "s|^|$w/d/|" | xargs mkdir -p
			cat "$br" >>"$w/solo.rows"
		fi
	done
	while IFS='	' read -r name checks expect opts solo files trace needs; do
		sbs_run_solo "$tool" "$w" "$name" "$opts" "$trace"
	done <"$w/solo.rows"
}

# sbs_figures W: every row's figures (W/figures) and I/O sequence
# (W/ROW.seq) from what the runs in W left; fails when awk does.
sbs_figures() {
	local w=$1
	rm -f "$w/events"
	# CRC SIZE ROW/PATH of every file the rows left, their logs excepted
	(cd "$w/d" && find . -type f ! -name '*.iolog' -exec cksum {} +) |
		sed 's| \./| |' | sort -k3 >"$w/files.lst"
	# LINES ROW/PATH of the logs (*.log) the rows left
	(cd "$w/d" && find . -type f -name '*.log' -exec wc -l {} + |
		sed '/ total$/d; s| \./| |' | sort -k2) >"$w/logs.lst"
	# shellcheck disable=SC2046
	awk -v w="$w" -f "$SBS_LIB/figures.awk" "$w/map" "$w/files.lst" "$w/logs.lst" \
		$(awk '{ print $2 ".rc"; print $2 ".json"; if ($4) print $2 ".strace" }' \
			"$w/map" | sort -u | while read -r f; do
				[ -f "$f" ] && echo "$f"; done) \
		$(ls "$w"/d/*/*.iolog 2>/dev/null) >"$w/figures" || return 1
	[ -f "$w/events" ] || return 0
	sort -t '	' -k1,1 -k2,2 -k3,3n "$w/events" >"$w/events.sorted" &&
		awk -f "$SBS_LIB/coverage.awk" "$w/events.sorted" >>"$w/figures"
}

# sbs_prereqs: what this machine has, once per script: SBS_HAVE lists
# fio and strace when present; SBS_FIO becomes fio's full path.
sbs_prereqs() {
	SBS_HAVE=none
	if command -v "$SBS_FIO" >/dev/null 2>&1; then
		SBS_FIO=$(command -v "$SBS_FIO")
		SBS_HAVE="$SBS_HAVE fio"
	fi
	test_have_prereq STRACE && SBS_HAVE="$SBS_HAVE strace"
}

# sbs_table FAMILY: runs t/sbs/FAMILY.txt, a TAP test per row.
sbs_table() {
	local fam=$1 w havefio=0 trace=0 tools=iolite tool ff n failed skipped p
	w="$TRASH/sbs/$fam"
	mkdir -p "$w"
	: >"$w/skipped"
	awk -v only="${SBS_ONLY:-}" -f "$SBS_LIB/parse.awk" \
		"$SBS_TABLES/$fam.txt" >"$w/rows"
	grep -v '^!' "$w/rows" >"$w/all"
	# rows whose prerequisites are missing do not run
	: >"$w/noprereq"
	# (a name test-lib does not know is the row's fault: test-lib exits on
	# one, so it is asked in a subshell)
	for p in $(cut -f8 "$w/all" | tr / '\n' | sort -u); do
		[ "$p" = - ] && continue
		(test_have_prereq "$p") 2>"$w/prereq.err" && continue
		if [ -s "$w/prereq.err" ]; then
			echo "$p unknown" >>"$w/noprereq"
		else
			echo "$p missing" >>"$w/noprereq"
		fi
	done
	awk -F '\t' -v nf="$w/noprereq" '
	BEGIN { while ((getline p < nf) > 0) { split(p, q, " "); miss[q[1]] = q[2] } }
	{
		n = split($8, need, "/"); m = ""
		for (i = 1; i <= n; i++)
			if (need[i] in miss) m = m (m == "" ? "" : ", ") miss[need[i]] " " need[i]
		if (m != "") print $1 "\t" m > (w "/skipped")
		else print
	}' w="$w" "$w/all" >"$w/good"
	[ -n "${SBS_HAVE:-}" ] || sbs_prereqs
	case $SBS_HAVE in *fio*) havefio=1 ;; esac
	case $SBS_HAVE in *strace*) trace=1 ;; esac
	if [ $trace = 0 ]; then
		awk -F '\t' -v OFS='\t' '{ $7 = 0; print }' "$w/good" >"$w/good.t" &&
			mv "$w/good.t" "$w/good"
	fi
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
	awk -f "$SBS_LIB/compare.awk" -v fam="$fam.txt" -v start=$test_count \
		-v havefio=$havefio -v trace=$trace -v w="$w" -v cnt="$w/count" \
		-v skipf="$w/skipped" \
		"$w/rows" "$ff" "$w/iolite/figures"
	read -r n failed skipped <"$w/count"
	test_count=$((test_count + n))
	test_failed=$((test_failed + failed))
	test_skipped=$((test_skipped + skipped))
}

#!/bin/sh
# iolite compare: runs of the same rated null job compare as no
# significant difference, runs of 1000 against 1100 IOPS as B faster by
# 10% (real rated runs of 1000 against 1100 with --repeat=5: t1920),
# fio's own JSON and json+ files are read and matched, percentiles
# come from json+ histograms, the job options that differ are listed
# first, --fail-if-slower sets the exit status, --run interleaves the
# sides. Rated runs of 1 s at most. The pacing holds a rate only as far
# as the machine lets the job run (on a loaded machine a run ends a few
# per cent short), so the tests of compare's figures and verdicts over
# several runs use runs whose IOPS are set (set_iops), and the real runs
# are checked for what they determine: the figures compare reads from
# them, the samples' spacing, a twofold rate told apart.
. "$(dirname "$0")/test-lib.sh"

# exits_with N cmd...: cmd exits with status N
exits_with() {
	want=$1
	shift
	"$@"
	rc=$?
	test "$rc" = "$want" && return 0
	echo "exit status $rc, want $want: $*" >&2
	return 1
}

if ! test_have_prereq JANSSON; then
	test_expect_success 'without jansson compare names the package, exit 2' '
		exits_with 2 "$IOLITE" compare a.json b.json 2>err &&
		grep -q "libjansson-dev" err
	'
	# the rest skip, with the reason
	test_skip_reason="missing JANSSON: apt install libjansson-dev"
fi

# A rated null job; ${RATE} from the environment. Samples every 20 ms: a
# run of 1 s has enough of them for batch means (20 needed).
cat >"$TRASH/rated.fio" <<'EOF'
[global]
ioengine=null
size=64m
time_based
runtime=1s
iopsavgtime=20
bwavgtime=20
[n1]
rw=randread
rate_iops=${RATE}
EOF

# The rated runs (fio's too) wait on their rate for 1 s: they run
# together, beside the tests before theirs.
. "$TEST_DIR/lib-bg.sh"
if [ -z "$test_skip_reason" ]; then
	for r in a1:1000 a2:1000 a3:1000 b1:1100 b2:1100 b3:1100 c1:2000; do
		bg_run ${r%:*} 'RATE=${r#*:} "$IOLITE" --output-format=json \
			rated.fio >${r%:*}.json'
	done
	if test_have_prereq FIO; then
		sed "s/\${RATE}/1000/" "$TRASH/rated.fio" >"$TRASH/fio.fio"
		bg_run fio 'fio --output-format=json fio.fio >fio.json 2>fio.err'
		bg_run fioplus 'fio --output-format=json+ fio.fio \
			>fioplus.json 2>fioplus.err'
		bg_run fiost 'fio --status-interval=25ms --output-format=json \
			fio.fio >fiost.json 2>fiost.err'
	fi
fi

# set_iops FILE IOPS OUT: FILE (a 4k job's report) with its read IOPS and
# bandwidth set to IOPS: a run whose figures are known exactly
set_iops() {
	sed -e "0,/\"bw_bytes\" : [0-9]*,/s//\"bw_bytes\" : $(($2 * 4096)),/" \
	    -e "0,/\"iops\" : [0-9.]*,/s//\"iops\" : $2.000000,/" "$1" >"$3"
}

# read_iops FILE: the read IOPS of the first job of a JSON report
read_iops() {
	sed -n "/\"read\" : {/,/}/s/^ *\"iops\" : \([0-9.]*\),$/\1/p" "$1" |
	head -n1
}

# tsv_field FILE SIDE JOB INSTANCE DIR METRIC COLUMN: one field of a row
tsv_field() {
	awk -F'\t' -v s="$2" -v j="$3" -v i="$4" -v d="$5" -v m="$6" \
		-v c="$7" '$1 == s && $2 == j && $3 == i && $4 == d &&
			   $5 == m { print $c }' "$1"
}

test_expect_success 'rated runs: three at 1000 IOPS, three at 1100, one at 2000' '
	for r in a1 a2 a3 b1 b2 b3 c1; do
		bg_wait $r || return 1
	done
'

# Each sample covers at least iopsavgtime (20 ms) of the run: a sampler
# late on a loaded machine spaces them wider, never closer.
test_expect_success 'JSON: the bw/iops samples in order under "iolite"' '
	for f in a1 a2 a3 b1 b2 b3 c1; do
		awk "/\"read\" : \{/ && !rt { r = 1 }
		     r && /\"runtime\" : / { rt = \$3 + 0; r = 0 }
		     /\"samples\" : \{/ { s = 1 }
		     s && /\"iops_period_ms\" : / { p = \$3 + 0 }
		     s && /\"iops\" : \[/ { a = 1; next }
		     a && /\]/ { a = 0 }
		     a { n++ }
		     END { print n + 0, p, rt }" $f.json >got &&
		read n p rt <got &&
		grep -q "\"iops_samples\" : $n$" $f.json &&
		between "$rt" 1000 60000 &&
		between "$p" 20 "$rt" &&
		# n samples of 20 ms or more fit in the run (the last may be
		# read as the run ends)
		between "$n" 2 $((rt / 20 + 1)) &&
		between $((p * (n - 1))) 20 "$rt" || return 1
	done
'

test_expect_success 'two runs of the same job: no significant difference' '
	"$IOLITE" compare a1.json a2.json >out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" compare --tsv a1.json a2.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = no-difference &&
	test "$(tsv_field t B n1 1 read IOPS 12)" = batches &&
	test "$(tsv_field t B n1 1 read bw 11)" = no-difference &&
	grep -q "^  IOPS .* no significant difference \[1\]$" out &&
	grep -q "batch means" out && grep -q "repeats would be better" out &&
	grep -A1 "^Job options that differ:" out | grep -q "^  none$"
'

test_expect_success 'one run per side: latencies get no interval, and say why' '
	test "$(tsv_field t B n1 1 read "clat mean" 11)" = no-interval &&
	test "$(tsv_field t B n1 1 read "clat p99" 12)" = none &&
	grep -q "^  clat p99 (.*no interval \[2\]$" out &&
	grep -q "latency means and percentiles need several" out
'

# Runs of 1000 and 1100 IOPS exactly (+-2): mean 1000 against 1100, a
# standard deviation of 2 each, so Welch gives 10% with a 95% interval
# of +-0.6% (t(0.975, 4) = 2.776 times 1.63 / 1000).
test_expect_success 'runs of 1000 and 1100 IOPS, three a side: B faster by 10%' '
	set_iops a1.json 1000 s1000.json && set_iops a2.json 1002 s1002.json &&
	set_iops a3.json 998 s998.json &&
	set_iops b1.json 1100 s1100.json && set_iops b2.json 1102 s1102.json &&
	set_iops b3.json 1098 s1098.json &&
	test "$(read_iops s1002.json)" = 1002.000000 &&
	A=s1000.json,s1002.json,s998.json && B=s1100.json,s1102.json,s1098.json &&
	"$IOLITE" compare --tsv $A $B >t &&
	test "$(tsv_field t B n1 1 read IOPS 6)" = 1000.000 &&
	test "$(tsv_field t B n1 1 read IOPS 7)" = 1100.000 &&
	test "$(tsv_field t B n1 1 read IOPS 8)" = 10.0000 &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = faster &&
	test "$(tsv_field t B n1 1 read IOPS 12)" = runs &&
	test "$(tsv_field t B n1 1 read bw 8)" = 10.0000 &&
	test "$(tsv_field t B n1 1 read bw 11)" = faster &&
	between "$(tsv_field t B n1 1 read IOPS 9)" 9.3 9.6 &&
	between "$(tsv_field t B n1 1 read IOPS 10)" 10.4 10.7 &&
	"$IOLITE" compare --tsv $B $A >r &&
	test "$(tsv_field r B n1 1 read IOPS 11)" = slower &&
	test "$(tsv_field r B n1 1 read IOPS 8)" = -9.0909
'

# One run a side sees only the scatter within the run; on a loaded
# machine that scatter can hide 10% (as it should), so twice the rate.
test_expect_success 'one run a side: batch means tell 1000 from 2000 IOPS' '
	"$IOLITE" compare --tsv a1.json c1.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = faster &&
	test "$(tsv_field t B n1 1 read IOPS 12)" = batches &&
	# the change is the two reports'"'"' own IOPS
	a=$(read_iops a1.json) && c=$(read_iops c1.json) &&
	test "$(tsv_field t B n1 1 read IOPS 6)" = "$(printf %.3f "$a")" &&
	test "$(tsv_field t B n1 1 read IOPS 7)" = "$(printf %.3f "$c")" &&
	test "$(tsv_field t B n1 1 read IOPS 8)" = \
	     "$(awk -v a="$a" -v c="$c" "BEGIN { printf \"%.4f\", 100 * (c / a - 1) }")"
'

test_expect_success 'the job options that differ come first' '
	"$IOLITE" compare a1.json b1.json >out &&
	sed -n "/^Job options that differ:/,/^$/p" out >opts &&
	grep -q "^  n1: rate_iops: A 1000, B 1100$" opts &&
	test "$(grep -c "^  n1: " opts)" = 1 &&
	test "$(grep -n "^Job options" out | cut -d: -f1)" -lt \
	     "$(grep -n "^n1, read:" out | cut -d: -f1)" &&
	"$IOLITE" compare --changed=rate_iops a1.json b1.json >out &&
	grep -q "rate_iops: A 1000, B 1100 (stated)$" out &&
	! grep -q "more than the options stated" out &&
	"$IOLITE" compare --changed=bs a1.json b1.json >out &&
	grep -q "differ in more than the options stated" out
'

test_expect_success '--fail-if-slower: exit 1 on a regression beyond it, else 0' '
	A=s1000.json,s1002.json,s998.json && B=s1100.json,s1102.json,s1098.json &&
	"$IOLITE" compare --fail-if-slower=5% --metrics=iops,bw $A $B >out &&
	grep -q "^--fail-if-slower=5%: no regression$" out &&
	exits_with 1 "$IOLITE" compare --fail-if-slower=5% --metrics=iops $B $A \
		>out &&
	grep -q "^--fail-if-slower=5%: 1 regression:$" out &&
	grep -q "^  n1, read, IOPS: B slower by 9\.09% (runs)" out &&
	"$IOLITE" compare --fail-if-slower=20 --metrics=iops $B $A >out &&
	grep -q "no regression" out &&
	# 9.09% slower, with an interval of about +-0.5%: beyond 8.5%, not 9.7%
	exits_with 1 "$IOLITE" compare --fail-if-slower=8.5% --metrics=iops \
		$B $A >out &&
	exits_with 0 "$IOLITE" compare --fail-if-slower=9.7% --metrics=iops \
		$B $A >out
'

test_expect_success '--fail-if-slower fails closed: no job, no number, no direction' '
	# B with no jobs: nothing to judge is no pass
	sed -e "/\"jobs\" : \[/,\$d" s1000.json >nojobs.json &&
	echo "\"jobs\" : [] }" >>nojobs.json &&
	exits_with 2 "$IOLITE" compare --fail-if-slower=5% s1000.json \
		nojobs.json >out 2>err &&
	grep -q "^iolite: compare: --fail-if-slower cannot judge 1 thing, so the gate fails:$" err &&
	grep -q "^  n1: B (nojobs.json) has no job of that name (it has no jobs at all)$" err &&
	grep -q "could not be judged, so the gate fails:$" out &&
	# without the gate the same comparison is no error
	exits_with 0 "$IOLITE" compare s1000.json nojobs.json >out 2>err &&
	test_must_be_empty err &&
	# a figure that is not a number (it read as 0 before: -100%, passed)
	sed -e "0,/\"iops\" : [0-9.]*,/s//\"iops\" : \"fast\",/" \
		s1000.json >nan.json &&
	exits_with 2 "$IOLITE" compare --fail-if-slower=5% --metrics=iops \
		s1000.json nan.json >out 2>err &&
	grep -q "^  n1, read, IOPS: not comparable: B.s report gives IOPS as something that is not a number$" err &&
	# A regression found still says 1
	exits_with 1 "$IOLITE" compare --fail-if-slower=5% --metrics=iops \
		s1100.json,s1102.json,s1098.json s1000.json,s1002.json,s998.json \
		>out 2>err
'

test_expect_success 'usage and input errors exit 2' '
	exits_with 2 "$IOLITE" compare a1.json 2>err &&
	grep -q "two or more needed" err &&
	exits_with 2 "$IOLITE" compare --fail-if-slower=x a1.json b1.json &&
	exits_with 2 "$IOLITE" compare --bogus a1.json b1.json 2>err &&
	grep -q "unknown option .--bogus." err &&
	exits_with 2 "$IOLITE" compare --metrics=p42 a1.json b1.json &&
	exits_with 2 "$IOLITE" compare a1.json missing.json 2>err &&
	grep -q "^iolite: cannot open .missing.json." err &&
	printf "{\n  \"jobs\" : [ 1,\n" >broken.json &&
	exits_with 2 "$IOLITE" compare a1.json broken.json 2>err &&
	grep -q "^iolite: broken.json:[0-9]*: not valid JSON" err &&
	echo "{ \"a\" : 1 }" >other.json &&
	exits_with 2 "$IOLITE" compare a1.json other.json 2>err &&
	grep -q "not a fio or iolite JSON report" err &&
	"$IOLITE" compare --help >help && grep -q "^Exit status" help
'

test_expect_success 'a file of repeats ("iolite": {"repeats": [...]}) gives runs' '
	{ echo "{ \"iolite\" : { \"repeats\" : ["; cat s1000.json; echo ,
	  cat s1002.json; echo ,; cat s998.json; echo "] } }"; } >rep.json &&
	"$IOLITE" compare --tsv rep.json s1100.json,s1102.json,s1098.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 12)" = runs &&
	test "$(tsv_field t B n1 1 read IOPS 6)" = 1000.000 &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = faster &&
	"$IOLITE" compare rep.json b1.json >out &&
	grep -q "^A: rep.json (3 runs, iolite-" out
'

test_expect_success 'jobs matched by name, repeated names by their order' '
	cat >x.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[j1]
	rw=read
	numjobs=2
	[j2]
	rw=write
	EOF
	sed "s/^\[j2\]/[j3]/" x.fio >y.fio &&
	"$IOLITE" --output-format=json x.fio >x.json &&
	"$IOLITE" --output-format=json y.fio >y.json &&
	"$IOLITE" compare --tsv x.json y.json >t &&
	test -n "$(tsv_field t B j1 1 read IOPS 11)" &&
	test -n "$(tsv_field t B j1 2 read IOPS 11)" &&
	test -z "$(tsv_field t B j1 1 write IOPS 11)" &&
	test -z "$(tsv_field t B j2 1 write IOPS 11)" &&
	"$IOLITE" compare x.json y.json >out &&
	grep -q "^j1#2, read:$" out &&
	grep -q "^j2: only in A" out && grep -q "^j3: only in B" out
'

# Sweeps of the same two options given in the other order: the points
# come in another order, and pair by their values (rated points: a
# point against the other rate would be -50% or +100%)
test_expect_success_if JQ 'sweep points pair by their swept values, not their order' '
	sw="--name=s --ioengine=null --rw=read --size=64m --time_based \
		--runtime=300ms --output-format=json" &&
	"$IOLITE" $sw --sweep=rate_iops=400,800 --sweep=bs=4k,8k >sa.json &&
	"$IOLITE" $sw --sweep=bs=4k,8k --sweep=rate_iops=400,800 >sb.json &&
	test "$(jq -r ".jobs[1].sweep.bs" sa.json)" = 8k &&
	test "$(jq -r ".jobs[1].sweep.bs" sb.json)" = 4k &&
	"$IOLITE" compare --tsv sa.json sb.json >t &&
	for i in 1 2 3 4; do
		c=$(tsv_field t B s $i read IOPS 8) &&
		echo "point $i: IOPS change $c%" &&
		test -n "$c" &&
		awk -v c="$c" "BEGIN { exit !(c > -30 && c < 30) }" || return 1
	done &&
	"$IOLITE" compare sa.json sb.json >out &&
	grep -q "^s#4 at rate_iops=800,bs=8k, read:$" out &&
	! grep -q "(A at" out
'

test_expect_success_if JQ 'sweeps whose points differ are refused, naming the point' '
	"$IOLITE" --name=s --ioengine=null --rw=read --size=1m \
		--sweep=bs=4k,16k --output-format=json >sc.json &&
	"$IOLITE" --name=s --ioengine=null --rw=read --size=1m \
		--sweep=bs=4k,8k --output-format=json >sd.json &&
	exits_with 2 "$IOLITE" compare sc.json sd.json >out 2>err &&
	grep "sweeps do not match: B has s at bs=8k and A has no such point" err &&
	test_must_be_empty out
'

test_expect_success_if FIO 'fio 3.33 JSON and json+ of the same job are read and matched' '
	bg_wait fio && bg_wait fioplus &&
	"$IOLITE" compare --tsv fio.json a1.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = no-interval &&
	test "$(tsv_field t B n1 1 read IOPS 6)" = \
	     "$(printf %.3f "$(read_iops fio.json)")" &&
	test -n "$(tsv_field t B n1 1 read "clat p99.99" 7)" &&
	"$IOLITE" compare fio.json a1.json >out &&
	grep -q "^A: fio.json (1 run, fio-3" out &&
	grep -q "only their summary" out &&
	grep -q "both reports are plain JSON" out &&
	"$IOLITE" compare --tsv fioplus.json fio.json,a1.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 11)" = no-interval
'

test_expect_success_if FIO 'json+: percentiles from the bins are fio'"'"'s own' '
	sed "/\"percentile\" : {/,/}/d" fioplus.json >bins.json &&
	! grep -q "\"percentile\"" bins.json &&
	"$IOLITE" compare --tsv fioplus.json bins.json >t &&
	for p in p50 p90 p99 p99.9 p99.99; do
		a=$(tsv_field t B n1 1 read "clat $p" 6) &&
		b=$(tsv_field t B n1 1 read "clat $p" 7) &&
		test -n "$a" && test "$a" = "$b" || return 1
	done &&
	"$IOLITE" compare fio.json bins.json >out &&
	grep -q "A.s report is plain JSON" out
'

test_expect_success_if FIO,UNSANITIZED,JQ 'fio with --status-interval: the rates between reports are samples' '
	bg_wait fiost &&
	test "$(grep -c "^{" fiost.json)" -ge 11 &&
	"$IOLITE" compare --tsv fiost.json a1.json >t &&
	test "$(tsv_field t B n1 1 read IOPS 12)" = batches &&
	# the same rate both sides, when both kept it: beside the suite
	# and nine other rated runs, a side can fall behind its rate
	# (CI: twice), and the verdict is then right to say so
	fio_iops=$(jq -s ".[-1].jobs[0].read.iops" fiost.json) &&
	iol_iops=$(jq ".jobs[0].read.iops" a1.json) &&
	if awk -v f="$fio_iops" -v i="$iol_iops" \
		"BEGIN { exit !(f > 980 && f < 1020 && i > 980 && i < 1020) }"
	then
		test "$(tsv_field t B n1 1 read IOPS 11)" = no-difference
	else
		echo "a side fell behind its rate (fio $fio_iops, iolite $iol_iops IOPS): no verdict asked"
	fi &&
	"$IOLITE" compare fiost.json a1.json >out &&
	grep -q "successive --status-interval" out
'

test_expect_success '--run: the sides take turns, A B A B, runs kept with --save' '
	cat >ra.fio <<-\EOF &&
	[r]
	ioengine=null
	size=1m
	rate_iops=1000
	runtime=200ms
	time_based
	EOF
	sed "s/1000/2000/" ra.fio >rb.fio &&
	mkdir saved &&
	"$IOLITE" compare --run --repeat=2 --save=saved --metrics=iops,clat-p99 \
		ra.fio rb.fio >out 2>err &&
	test_must_be_empty err &&
	# the runs are json+: percentiles from their histograms
	grep -q "json+ histograms give those a report.s list lacks" out &&
	! grep -q "plain JSON" out &&
	grep -q "\"bins\" : {" saved/A-1.json &&
	grep -q "^A: ra.fio (2 runs here" out &&
	grep -q "taking turns (A B A B ...), 2 rounds" out &&
	grep -q "^  r: rate_iops: A 1000, B 2000$" out &&
	for f in A-1 B-1 A-2 B-2; do
		sed -n "s/^  \"timestamp_ms\" : \([0-9]*\),$/\1/p" saved/$f.json ||
		return 1
	done >times &&
	test "$(wc -l <times)" = 4 &&
	sort -n times | test_cmp times - &&
	exits_with 2 "$IOLITE" compare --run --repeat=2 --save=saved \
		ra.fio rb.fio 2>err &&
	grep -q "saved/A-1.json. exists" err
'

test_expect_success '--save: a directory not there yet is made, its parent must be' '
	printf "[s]\nioengine=null\nsize=64k\n" >sv.fio &&
	"$IOLITE" compare --run --repeat=1 --save=newdir sv.fio sv.fio \
		>out 2>err &&
	test_must_be_empty err &&
	test -f newdir/A-1.json && test -f newdir/B-1.json &&
	exits_with 2 "$IOLITE" compare --run --repeat=1 --save=no/such \
		sv.fio sv.fio >out 2>err &&
	grep -q "cannot make the directory .no/such.: No such file" err &&
	test_path_is_missing no
'

test_expect_success '--run: a job file that does not parse stops it before any I/O' '
	cat >good.fio <<-EOF &&
	[w]
	ioengine=psync
	rw=write
	size=64k
	filename=$TRASH/written
	EOF
	printf "[w]\nbogus_option=1\n" >bad.fio &&
	exits_with 2 "$IOLITE" compare --run --repeat=1 good.fio bad.fio \
		2>err &&
	grep -q "bad.fio.*bogus_option" err &&
	grep -q "side B: .bad.fio. does not parse" err &&
	test_path_is_missing written
'

test_done

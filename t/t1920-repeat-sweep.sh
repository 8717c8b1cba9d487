#!/bin/sh
# --repeat=N and --sweep=OPT=LIST (issue 16.1, 16.3): the runs and their
# intervals, the JSON layout compare and plot read, one row per sweep
# point with the point's depth distribution, the cross product, and
# bad values refused before any file is made. Cheap jobs: the null
# engine, rated where the figure matters, runs of 0.2-0.3 s.
. "$(dirname "$0")/test-lib.sh"

# A rated null job; ${RATE} from the environment.
cat >"$TRASH/rated.fio" <<'EOF'
[global]
ioengine=null
size=64m
time_based
runtime=300ms
[n1]
rw=randread
rate_iops=${RATE}
EOF

# The rated runs mostly wait: they run together, each test checks its own.
. "$TEST_DIR/lib-bg.sh"
bg_run r3 'RATE=1000 "$IOLITE" --repeat=3 rated.fio >r3.out 2>r3.err'
bg_run r1 'RATE=1000 "$IOLITE" --repeat=1 rated.fio >r1.out'
bg_run r.json 'RATE=1000 "$IOLITE" --repeat=3 --output-format=json \
	rated.fio >r.json 2>r.json.err'
bg_run both 'RATE=1000 "$IOLITE" --repeat=3 --output-format=normal,json \
	rated.fio >both 2>both.err'
if test_have_prereq JANSSON; then
	bg_run a.json 'RATE=1000 "$IOLITE" --repeat=3 --output-format=json \
		rated.fio >a.json'
	bg_run b.json 'RATE=1000 "$IOLITE" --repeat=3 --output-format=json \
		rated.fio >b.json'
	bg_run a5.json 'RATE=1000 "$IOLITE" --repeat=5 --output-format=json \
		rated.fio >a5.json'
	bg_run b5.json 'RATE=1100 "$IOLITE" --repeat=5 --output-format=json \
		rated.fio >b5.json'
fi
# the example's points have a runtime each
test_have_prereq IO_URING && bg_run ex 'ex="$SRC_DIR/examples/sweep-qd-force-async.fio" &&
	sed -e "s/^size=.*/size=2m/" -e "s/^runtime=.*/runtime=200ms/" "$ex" >ex.fio &&
	mkdir exdir &&
	SWEEP_DIR=$TRASH/exdir "$IOLITE" --sweep=force_async=0,1 \
		--sweep=iodepth=1..4*2 ex.fio >ex.out 2>ex.err'

test_expect_success '--repeat=3: the block lists 3 runs, the mean inside its interval' '
	bg_wait r3 &&
	test_must_be_empty r3.err &&
	mv r3.out out &&
	grep -q "^Repeats: 3 runs; mean \[95% confidence interval" out &&
	grep -q "^  n1 (g=0): read$" out &&
	sed -n "s/^    IOPS *\([0-9.]*\) \[\([-0-9.]*\), \([0-9.]*\)\] (-[0-9.]*%, +[0-9.]*%)  runs: \(.*\)$/\1 \2 \3 \4/p" \
		out >iops &&
	test "$(wc -l <iops)" = 1 &&
	read mean lo hi r1 r2 r3 rest <iops &&
	test -n "$r3" && test -z "$rest" &&
	# the pacing caps the rate; a loaded machine may fall short of it
	# (the runs'"'"' figures are checked against their JSON below)
	between "$mean" 1 1100 &&
	between "$mean" "$lo" "$hi" &&
	awk -v m="$mean" -v a="$r1" -v b="$r2" -v c="$r3" \
		"BEGIN { d = (a + b + c) / 3 - m; exit !(d < 0.1 && d > -0.1) }" &&
	for m in BW "lat mean" "clat p50" "clat p99" "clat p99.9"; do
		grep -q "^    $m  *[0-9.]*[a-zKMGiB/s]* \[.*runs: [^ ]* [^ ]* [^ ]*$" out ||
		return 1
	done &&
	# the usual report above it is the last run: one group, one job
	test "$(grep -c "^n1: (groupid=0" out)" = 1
'

test_expect_success '--repeat=1 is one run: no block' '
	bg_wait r1 &&
	! grep -q "^Repeats:" r1.out
'

test_expect_success_if JQ '--repeat JSON: the last run at the top, every run in iolite.repeats' '
	bg_wait r.json &&
	test_must_be_empty r.json.err &&
	test "$(head -n1 r.json)" = "{" && test "$(tail -n1 r.json)" = "}" &&
	test "$(jq ".iolite.repeats | length" r.json)" = 3 &&
	test "$(jq "[.iolite.repeats[].jobs[0].jobname] | unique" -c r.json)" = "[\"n1\"]" &&
	test "$(jq ".jobs[0].read.total_ios == .iolite.repeats[2].jobs[0].read.total_ios and .timestamp_ms == .iolite.repeats[2].timestamp_ms" r.json)" = true &&
	test "$(jq "[.iolite.repeats[].timestamp_ms] | . == sort and (unique | length) == 3" r.json)" = true &&
	test "$(jq "[.iolite.repeats[].jobs[0].read.iops | select(. > 0 and . <= 1100)] | length" r.json)" = 3 &&
	test "$(jq "[.iolite.repeats[].iolite | has(\"notes\")] | all" r.json)" = true &&
	# the summary: the mean of the runs inside its interval
	test "$(jq ".iolite.repeat_summary | .runs == 3 and .confidence == 95 and (.jobs | length) == 1 and .jobs[0].jobname == \"n1\"" r.json)" = true &&
	test "$(jq "(([.iolite.repeats[].jobs[0].read.iops] | add / 3) - .iolite.repeat_summary.jobs[0].read.iops.mean) | fabs < 0.001" r.json)" = true &&
	test "$(jq "[.iolite.repeat_summary.jobs[0].read[] | .ci_lo <= .mean and .mean <= .ci_hi] | length == 6 and all" r.json)" = true &&
	test "$(jq ".iolite.repeat_summary.jobs[0] | has(\"write\")" r.json)" = false
'

test_expect_success_if JQ 'the block'"'"'s figures are the runs'"'"' own, as JSON has them' '
	bg_wait both &&
	test_must_be_empty both.err &&
	sed -n "/^{$/,/^}$/p" both >b.json &&
	sed -n "s/^    IOPS .*  runs: //p" both >got &&
	jq -r "[.iolite.repeats[].jobs[0].read.iops |
		if . < 1000 then (. * 10 | round / 10 | tostring |
			if test(\"[.]\") then . else . + \".0\" end)
		else (round | tostring) end] | join(\" \")" b.json >want &&
	test_cmp want got &&
	sed -n "s/^    clat p99 .*  runs: //p" both | wc -w >n &&
	test "$(cat n)" = 3
'

test_expect_success 'files are laid out once; the runs repeat the same offsets' '
	"$IOLITE" --name=s --filename=s.dat --size=64k --rw=randread \
		--ioengine=psync --repeat=2 --write_iolog=io.log >out &&
	test "$(grep -c "Laying out IO file" out)" = 1 &&
	test "$(grep -c "^fio version 3 iolog" io.log)" = 2 &&
	awk "/^fio version/ { n++ } { print \$2, \$3, \$4 > (\"run\" n) }" io.log &&
	test "$(grep -c " read " run1)" = 16 &&
	test_cmp run1 run2
'

test_expect_success 'randrepeat=0: the runs draw other offsets' '
	rm -f io.log &&
	"$IOLITE" --name=s --filename=s.dat --size=1m --rw=randread \
		--ioengine=psync --randrepeat=0 --repeat=2 \
		--write_iolog=io.log >out &&
	awk "/^fio version/ { n++ } { print \$2, \$3, \$4 > (\"run\" n) }" io.log &&
	test "$(grep -c " read " run1)" = 256 &&
	! cmp -s run1 run2
'

test_expect_success '--repeat with log files or a trigger: refused before any file' '
	test_must_fail "$IOLITE" --name=l --filename=l.dat --size=64k \
		--write_bw_log=l --repeat=2 2>err &&
	grep -q "option .--repeat.: log files .* not supported yet" err &&
	test_must_fail "$IOLITE" --name=l --filename=l.dat --size=64k \
		--trigger-timeout=10 --repeat=2 2>err &&
	grep -q "option .--repeat.: --trigger-file" err &&
	! test -e l.dat && ! ls l_bw* 2>/dev/null &&
	test_must_fail "$IOLITE" --name=l --ioengine=null --size=64k \
		--repeat=0 2>err &&
	grep -q "option .--repeat.: invalid count .0." err
'

test_expect_success_if JANSSON 'compare: two repeat files of the same job, no significant difference' '
	bg_wait a.json && bg_wait b.json &&
	"$IOLITE" compare --tsv --metrics=IOPS,bw a.json b.json >t &&
	awk -F"\t" "\$1 == \"B\" && \$5 == \"IOPS\" { print \$11, \$12 }" t >v &&
	echo "no-difference runs" | test_cmp - v &&
	"$IOLITE" compare a.json b.json >out &&
	grep -q "^A: a.json (3 runs" out &&
	grep -q "^  IOPS .*no significant difference" out
'

# sum_iops FILE: the mean IOPS over the runs, from the repeat summary
sum_iops() {
	sed -n "/\"repeat_summary\" : {/,\$p" "$1" |
	sed -n "/\"iops\" : {/{n;s/^ *\"mean\" : \([0-9.]*\),$/\1/p;q}"
}

test_expect_success_if JANSSON 'compare: rate_iops=1000 against 1100, --repeat=5 a side: B faster' '
	bg_wait a5.json && bg_wait b5.json &&
	"$IOLITE" compare --tsv a5.json b5.json >t &&
	awk -F"\t" "\$1 == \"B\" && \$5 == \"IOPS\" { print \$11, \$12, \$8 }" t >v &&
	read verdict method change <v &&
	test "$verdict $method" = "faster runs" &&
	# the change is the runs'"'"' mean IOPS, as each file'"'"'s repeat block
	# has it (the pacing caps a rate; a loaded machine may fall short)
	a=$(sum_iops a5.json) && b=$(sum_iops b5.json) &&
	between "$a" 1 1000.5 && between "$b" 1 1100.5 &&
	awk -v a="$a" -v b="$b" -v c="$change" \
		"BEGIN { d = 100 * (b / a - 1) - c; exit !(d < 0.001 && d > -0.001) }" &&
	"$IOLITE" compare --tsv b5.json a5.json >t &&
	awk -F"\t" "\$1 == \"B\" && \$5 == \"IOPS\" { print \$11 }" t >v &&
	echo slower | test_cmp - v
'

# sweep_rows FILE: the first column of the sweep table's rows
sweep_rows() {
	awk '/^Sweep of job/ { t = 1; getline; next } t && /^  *[0-9a-z]/ { print $1 } /^$/ { t = 0 }' "$1"
}

test_expect_success 'a sweep of iodepth (null): a row per point, the range 1..8*2' '
	"$IOLITE" --name=z --ioengine=null --size=8m --rw=randread \
		--sweep=iodepth=1..8*2 >out 2>err &&
	test_must_be_empty err &&
	grep -q "^Sweep of job .z. (4 points):$" out &&
	grep -q "^  iodepth  *IOPS  *BW  *clat  *p50  *p99  *p99.9  *usr/IO  *sys/IO  *own/IO  *io-wq  *wq/IO$" out &&
	sweep_rows out >rows &&
	printf "1\n2\n4\n8\n" | test_cmp - rows &&
	test "$(grep -c "^z: (groupid=[0-3], jobs=1)" out)" = 4
'

# depth_check FILE: each job's IO depth share at its point's depth
depth_check() {
	jq -r ".jobs[] | \"\(.sweep.iodepth) \(.iodepth_level[.sweep.iodepth])\"" "$1" >depths &&
	test "$(wc -l <depths)" = "$2" &&
	while read d share; do
		between "$share" 90 100 || return 1
	done <depths
}

# null keeps one batch in flight (fio's): batches of the whole depth
test_expect_success_if JQ 'sweep JSON (null): each point in full, its depths at its iodepth' '
	"$IOLITE" --name=z --ioengine=null --size=4m --rw=randread \
		--iodepth_batch=0 --sweep=iodepth=1,2,4,8,16 \
		--output-format=json >s.json &&
	test "$(jq -c .iolite.sweep s.json)" = "{\"options\":[\"iodepth\"],\"points\":5}" &&
	test "$(jq -c "[.jobs[] | .sweep.iodepth]" s.json)" = "[\"1\",\"2\",\"4\",\"8\",\"16\"]" &&
	test "$(jq -c "[.jobs[] | .groupid]" s.json)" = "[0,1,2,3,4]" &&
	test "$(jq -c "[.jobs[] | .\"job options\".iodepth]" s.json)" = "[\"1\",\"2\",\"4\",\"8\",\"16\"]" &&
	test "$(jq "[.jobs[] | .read.total_ios] | unique" -c s.json)" = "[1024]" &&
	depth_check s.json 5
'

test_expect_success_if IO_URING,JQ 'sweep JSON (io_uring): the depth distribution follows the point' '
	"$IOLITE" --name=u --ioengine=io_uring --filename=u.dat --size=4m \
		--rw=randread --sweep=iodepth=1,4,16 --output-format=json >u.json &&
	depth_check u.json 3 &&
	test "$(jq "[.jobs[].iolite | has(\"iowq_max_threads\")] | all" u.json)" = true &&
	"$IOLITE" --name=u --ioengine=io_uring --filename=u.dat --size=4m \
		--rw=randread --sweep=iodepth=1,4,16 >out &&
	sweep_rows out >rows &&
	printf "1\n4\n16\n" | test_cmp - rows
'

test_expect_success_if JQ 'two --sweep flags: the cross product, the first outermost' '
	"$IOLITE" --name=x --ioengine=null --size=1m --rw=randread \
		--sweep=iodepth=1,2 --sweep=bs=4k..16k+4k >out &&
	grep -q "^Sweep of job .x. (8 points):$" out &&
	grep -q "^  iodepth  bs  *IOPS" out &&
	test "$(sweep_rows out | wc -l)" = 8 &&
	"$IOLITE" --name=x --ioengine=null --size=1m --rw=randread \
		--sweep=iodepth=1,2 --sweep=bs=4k..16k+4k --output-format=json >x.json &&
	test "$(jq -c "[.jobs[] | .sweep | \"\(.iodepth)/\(.bs)\"]" x.json)" = \
		"[\"1/4k\",\"1/8k\",\"1/12k\",\"1/16k\",\"2/4k\",\"2/8k\",\"2/12k\",\"2/16k\"]" &&
	test "$(jq -c "[.jobs[] | .read.io_bytes / .read.total_ios]" x.json)" = \
		"[4096,8192,12288,16384,4096,8192,12288,16384]" &&
	test "$(jq -c .iolite.sweep x.json)" = "{\"options\":[\"iodepth\",\"bs\"],\"points\":8}"
'

test_expect_success 'every job of the list at every point; one table per job' '
	cat >two.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[r]
	rw=randread
	[w]
	rw=write
	EOF
	"$IOLITE" --sweep=numjobs=1,2 two.fio >out &&
	grep -q "^Sweep of job .r. (2 points):$" out &&
	grep -q "^Sweep of job .w. (2 points):$" out &&
	test "$(grep -c "^[rw]: (groupid=0" out)" = 2 &&
	test "$(grep -c "^[rw]: (groupid=1" out)" = 4 &&
	awk "/^Sweep of job .w./ { t = 1; getline; next } t && /^  *2 / { print \$2 }" out >w &&
	test "$(wc -l <w)" = 1
'

test_expect_success_if FIO,JQ 'a point does the I/O fio does with the value in the job (fio 3.33): bytes, I/Os, mix' '
	cat >pt.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[j]
	rw=randrw
	rwmixread=70
	bs=16k
	EOF
	# fio runs the four points at once (its start-up mostly waits)
	pids= &&
	for bs in 4k 8k; do
		for mix in 30 70; do
			sed -e "s/^bs=.*/bs=$bs/" -e "s/^rwmixread=.*/rwmixread=$mix/" \
				pt.fio >p-$bs-$mix.fio &&
			{ fio --output-format=json p-$bs-$mix.fio >f-$bs-$mix.json & } &&
			pids="$pids $!" || return 1
		done
	done &&
	"$IOLITE" --sweep=bs=4k,8k --sweep=rwmixread=30,70 \
		--output-format=json pt.fio >pt.json &&
	for pid in $pids; do
		wait $pid || return 1
	done &&
	for bs in 4k 8k; do
		for mix in 30 70; do
			jq -c ".jobs[0] | [.read.io_bytes + .write.io_bytes, .read.total_ios + .write.total_ios]" f-$bs-$mix.json >want &&
			jq -c ".jobs[] | select(.sweep.bs == \"$bs\" and .sweep.rwmixread == \"$mix\")" pt.json >pj &&
			jq -c "[.read.io_bytes + .write.io_bytes, .read.total_ios + .write.total_ios]" pj >got &&
			test_cmp want got &&
			# the mix is drawn: its share near the rwmixread of the point
			between "$(jq "100 * .read.total_ios / (.read.total_ios + .write.total_ios)" pj)" \
				$((mix - 10)) $((mix + 10)) || return 1
		done
	done
'

test_expect_success_if JANSSON 'compare of two sweeps: each table names its point' '
	"$IOLITE" --name=x --ioengine=null --size=1m --rw=randread \
		--sweep=iodepth=1,2 --output-format=json >sa.json &&
	"$IOLITE" --name=x --ioengine=null --size=1m --rw=randread \
		--sweep=iodepth=1,2 --bs=8k --output-format=json >sb.json &&
	"$IOLITE" compare --metrics=iops sa.json sb.json >out &&
	grep -q "^x at iodepth=1, read:$" out &&
	grep -q "^x#2 at iodepth=2, read:$" out &&
	# points paired by their values: where the sweeps differ, refused
	"$IOLITE" --name=x --ioengine=null --size=1m --rw=randread \
		--sweep=iodepth=2,4 --output-format=json >sc.json &&
	test_must_fail "$IOLITE" compare --metrics=iops sa.json sc.json \
		>out 2>err &&
	grep -q "sweeps do not match: B has x at iodepth=4 and A has no such point" err
'

test_expect_success 'a short point: its p99.9 is marked and a note says so' '
	"$IOLITE" --name=t --ioengine=null --size=64k --sweep=iodepth=1,2 >out &&
	grep -q "^  \* fewer than 1000 latencies behind p99.9" out &&
	grep -q "sweep of job .t.: p99.9 rests on fewer than 1000 latencies at iodepth=1 read (16), iodepth=2 read (16)" out &&
	"$IOLITE" --name=t --ioengine=null --size=8m --sweep=iodepth=1,2 >out &&
	! grep -q "fewer than 1000" out
'

test_expect_success 'notes: said once, a point'"'"'s own named by its values' '
	"$IOLITE" --name=t --ioengine=psync --filename=t.dat --size=256k \
		--invalidate=0 --sweep=bs=4k,8k >out &&
	# before the run: the same job options at every point, one note
	test "$(grep -c "^  job .t. is buffered (direct=0)" out)" = 1 &&
	# after: each point its figure, and which point it is
	grep -q "^  job .t. at bs=4k was measured for [0-9]* ms: too short" out &&
	grep -q "^  job .t. at bs=8k was measured for [0-9]* ms: too short" out &&
	! grep -q "^  job .t. was measured" out &&
	"$IOLITE" --name=t --ioengine=psync --filename=t.dat --size=256k \
		--invalidate=0 >out &&
	grep -q "^  job .t. was measured for [0-9]* ms: too short" out
'

test_expect_success 'bad sweep values: refused before any file, naming option and value' '
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodepth=1,x 2>err &&
	grep -q "option .--sweep.: option .iodepth.: .*x" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=rwmixread=50,150 2>err &&
	grep -q "option .rwmixread.: 150 is out of range" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodeth=1,2 2>err &&
	grep -q "unknown option .iodeth. (did you mean .iodepth.?)" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodepth=1..8 2>err &&
	grep -q "range .1..8. needs a step" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodepth=8..1*2 2>err &&
	grep -q "range .8..1\*2. is empty" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=4k \
		--sweep=bs=4k,8k 2>err &&
	grep -q "option .--sweep.: at bs=8k: .*option .bs.: block size 8192 is larger than size 4096" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodepth=1 --sweep=iodepth=2 2>err &&
	grep -q "iodepth. is swept twice" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--sweep=iodepth=1..1000+1 --sweep=bs=4k..20k+4k 2>err &&
	grep -q "option .--sweep.: 5000 points are over the limit of 4096" err &&
	test_must_fail "$IOLITE" --name=b --filename=b.dat --size=64k \
		--name=c --sweep=iodepth=1..1000+1 --sweep=bs=4k,8k,16k 2>err &&
	grep -q "3000 points of 2 jobs make 6000 jobs, over the limit" err &&
	! test -e b.dat
'

test_expect_success_if IO_URING 'the example: force_async off and on over queue depths, io-wq workers per point' '
	ex="$SRC_DIR/examples/sweep-qd-force-async.fio" &&
	grep -q "^;   SWEEP_DIR=/mnt/test ./iolite --sweep=force_async=0,1 \\\\$" "$ex" &&
	grep -q "^;       --sweep=iodepth=1..128\\*2 examples/sweep-qd-force-async.fio$" "$ex" &&
	bg_wait ex &&
	test_must_be_empty ex.err &&
	mv ex.out out &&
	grep -q "^Sweep of job .qd. (6 points):$" out &&
	grep -q "^  force_async iodepth  *IOPS .* io-wq  *wq/IO$" out &&
	awk "/^Sweep of job/ { t = 1; getline; next }
	     t && \$1 ~ /^[0-9]+\$/ { print \$1, \$2, (\$3 > 0), (\$12 ~ /^[0-9]+\$/),
			     (\$1 == 0 || \$12 >= 1) }" out >rows &&
	# force_async=1 sends every read to io-wq: a worker at least
	printf "0 1 1 1 1\n0 2 1 1 1\n0 4 1 1 1\n1 1 1 1 1\n1 2 1 1 1\n1 4 1 1 1\n" |
	test_cmp - rows
'

test_done

#!/bin/sh
# Percentile options as fio 3.33 has them: percentile_list (sorted, at
# most 20, a 0 ends it, labels with the precision written),
# clat_percentiles, lat_percentiles, slat_percentiles, gtod_reduce turning
# them off, significant_figures. Checked in the --parse-only dump, in the
# normal report's layout and in the JSON's keys against fio's own output.

. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIR/lib-report.sh"
JSONCMP="$TEST_DIR/jsoncmp.py"

# dump ARGS...: the --parse-only dump of one command-line job.
dump() {
	"$IOLITE" --parse-only --name=a --ioengine=null --size=1m "$@"
}

test_expect_success 'percentile_list: sorted, precision kept' '
	dump --percentile_list=99.9:50.10:5 >out &&
	grep -qx "percentile_list=5.00:50.10:99.90" out
'

test_expect_success 'percentile_list: a 0 or an empty entry ends it' '
	dump --percentile_list=50:0:99.999 >out &&
	grep -qx "percentile_list=50.000" out &&
	dump --percentile_list=50::90 >out &&
	grep -qx "percentile_list=50" out &&
	dump --percentile_list=0 >out &&
	grep -qx "percentile_list=0" out
'

test_expect_success 'percentile_list: at most 20 entries, the first ones' '
	dump --percentile_list=$(seq -s: 21 -1 1) >out &&
	grep -qx "percentile_list=$(seq -s: 2 21)" out
'

test_expect_success 'percentile_list: out of range or not a number' '
	for v in 101 -1 abc 50:1e9 nan; do
		test_must_fail dump --percentile_list=$v >out 2>err &&
		test_must_be_empty out &&
		grep -q "option .percentile_list.: invalid percentile" err ||
		return 1
	done
'

test_expect_success 'the percentile options are real options' '
	dump --clat_percentiles=0 --lat_percentiles=1 --slat_percentiles \
		--significant_figures=6 --bwavgtime=250 --iopsavgtime=1000 >out &&
	grep -qx "clat_percentiles=0" out &&
	grep -qx "lat_percentiles=1" out &&
	grep -qx "slat_percentiles=1" out &&
	grep -qx "significant_figures=6" out &&
	grep -qx "bwavgtime=250" out &&
	grep -qx "iopsavgtime=1000" out &&
	test_must_fail dump --significant_figures=11 2>err &&
	grep -q "significant_figures" err
'

test_expect_success 'gtod_reduce overrides earlier options, not later ones' '
	dump --disable_clat=0 --lat_percentiles=1 --gtod_reduce >out &&
	! grep -q "^disable_clat=" out &&
	! grep -q "^lat_percentiles=" out &&
	dump --gtod_reduce --disable_clat=0 --clat_percentiles=1 >out &&
	grep -qx "disable_clat=0" out &&
	grep -qx "clat_percentiles=1" out &&
	dump --gtod_reduce=0 --lat_percentiles=1 >out &&
	grep -qx "lat_percentiles=1" out
'

# Files laid out beforehand, so that neither tool prints a layout line.
for f in sync aio jsync jaio; do
	dd if=/dev/zero of="$TRASH/$f.dat" bs=1M count=4 2>/dev/null
done

# split_report OUT TEXT JSON: a normal,json output cut in its two reports
# (the JSON one: from a "{" line to a "}" line)
split_report() {
	sed -n "/^{$/,/^}$/p" "$1" >"$3" && test -s "$3" &&
	sed "/^{$/,/^}$/d" "$1" >"$2"
}

# compare NAME ARGS...: fio and iolite on the same job, same normalised
# normal report (sample lines dropped: they depend on run time) and the
# same percentile labels in the same order. The run's JSON report is
# kept in NAME.fio.json and NAME.iolite.json (for jcheck: a fio costs
# 0.2 s of CPU to start).
compare() {
	name=$1
	shift
	timeout 60 fio "$@" --output-format=normal,json >"$name.fio.out" \
		2>"$name.fio.err" &&
	timeout 60 "$IOLITE" "$@" --output-format=normal,json \
		>"$name.iolite.out" 2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	split_report "$name.fio.out" "$name.fio" "$name.fio.json" &&
	split_report "$name.iolite.out" "$name.iolite" "$name.iolite.json" &&
	no_samples=1 &&
	normalize "$name.fio" | drop_samples >"$name.fio.norm" &&
	normalize "$name.iolite" | drop_samples >"$name.iolite.norm" &&
	test_cmp "$name.fio.norm" "$name.iolite.norm" &&
	pct_labels "$name.fio" >"$name.fio.pct" &&
	pct_labels "$name.iolite" >"$name.iolite.pct" &&
	test_cmp "$name.fio.pct" "$name.iolite.pct"
}

test_expect_success_if FIO 'lat_percentiles=1 and a list: clat and lat blocks' '
	compare lat --name=a --ioengine=null --rw=randread --size=16m \
		--lat_percentiles=1 --percentile_list=99.9:50 &&
	grep -q "^    clat percentiles (" lat.iolite &&
	grep -q "^    lat percentiles (" lat.iolite &&
	test "$(cat lat.iolite.pct)" = "$(printf "50.0th=\n99.9th=\n50.0th=\n99.9th=")"
'

test_expect_success_if FIO 'clat_percentiles=0: no percentile block' '
	compare noclat --name=a --ioengine=null --rw=read --size=16m \
		--clat_percentiles=0 &&
	! grep -q "percentiles" noclat.iolite
'

test_expect_success_if FIO 'percentile_list=0: no percentile block' '
	compare empty --name=a --ioengine=null --rw=read --size=16m \
		--percentile_list=0 &&
	! grep -q "percentiles" empty.iolite
'

test_expect_success_if FIO 'sync percentiles with the list and its precision' '
	compare sync --name=a --ioengine=psync --rw=write --bs=4k \
		--size=1m --fsync=4 --filename="$TRASH/sync.dat" \
		--percentile_list=50.10:99.90 &&
	grep -q "^    sync percentiles (" sync.iolite &&
	printf "50.10th=\n99.90th=\n50.10th=\n99.90th=\n" >expect &&
	test_cmp expect sync.iolite.pct
'

test_expect_success_if FIO 'gtod_reduce=1: no latencies, no percentiles' '
	compare gtod --name=a --ioengine=null --rw=read --size=16m \
		--gtod_reduce=1 --lat_percentiles=1 &&
	! grep -q "percentiles" gtod.iolite
'

test_expect_success_if FIO 'significant_figures=6: six-digit rates' '
	compare sig --name=a --ioengine=null --rw=read --size=64m \
		--significant_figures=6 &&
	grep -qE "^  read: IOPS=[0-9.]+k?, BW=[0-9]{4,}" sig.iolite
'

if test_have_prereq LIBAIO && test_have_prereq FIO; then
	test_expect_success 'libaio: slat, clat and lat blocks, in fio order' '
		compare aio --name=a --ioengine=libaio --iodepth=8 \
			--rw=randread --size=4m --bs=4k \
			--filename="$TRASH/aio.dat" \
			--slat_percentiles=1 --lat_percentiles=1 &&
		grep "percentiles (" aio.iolite | sed "s/ (.*//" >order &&
		printf "    slat percentiles\n    clat percentiles\n    lat percentiles\n" >expect &&
		test_cmp expect order
	'
else
	test_expect_success_if LIBAIO,FIO 'libaio: slat, clat and lat blocks' :
fi

# jsoncmp plus: every percentile map within its block's [min, max].
cat >"$TRASH/pctcheck.py" <<\EOF
import json, sys

doc = json.load(open(sys.argv[1]))
seen = 0
for job in doc["jobs"]:
    blocks = [job[d][k] for d in ("read", "write", "trim")
              for k in ("slat_ns", "clat_ns", "lat_ns")]
    blocks.append(job["sync"]["lat_ns"])
    for b in blocks:
        if "percentile" not in b:
            continue
        vals = list(b["percentile"].values())
        assert vals == sorted(vals), vals
        assert all(b["min"] <= v <= b["max"] for v in vals), (b, vals)
        seen += 1
want = int(sys.argv[2])
assert seen == want, "%d percentile maps, want %d" % (seen, want)
EOF

# jcompare NAME MAPS ARGS...: same JSON shape as fio (percentile keys
# included), MAPS percentile maps in iolite's, none above its max.
jcompare() {
	name=$1
	maps=$2
	shift 2
	timeout 60 fio --output-format=json "$@" >"$name.fio" 2>"$name.fio.err" &&
	timeout 60 "$IOLITE" --output-format=json "$@" >"$name.iolite" \
		2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	python3 "$JSONCMP" "$name.fio" "$name.iolite" &&
	python3 pctcheck.py "$name.iolite" "$maps"
}

test_expect_success_if FIO,PYTHON3 'JSON: lat_percentiles=1 and a list, fio keys' '
	jcompare jlat 4 --name=a --ioengine=null --rw=randrw --size=16m \
		--lat_percentiles=1 --percentile_list=50:99.9 &&
	grep -q "\"99.900000\" : " jlat.iolite
'

# jcheck NAME MAPS: jcompare's checks on the JSON reports of compare NAME
jcheck() {
	python3 "$JSONCMP" "$1.fio.json" "$1.iolite.json" &&
	python3 pctcheck.py "$1.iolite.json" "$2"
}

# the jobs of the tests "clat_percentiles=0" and "percentile_list=0"
test_expect_success_if FIO,PYTHON3 'JSON: clat_percentiles=0, no percentile maps' '
	jcheck noclat 0
'

test_expect_success_if FIO,PYTHON3 'JSON: percentile_list=0, an empty map as fio' '
	jcheck empty 1
'

test_expect_success_if FIO,PYTHON3 'JSON: sync percentiles, 100th is the max' '
	jcompare jsync 2 --name=a --ioengine=psync --rw=write --bs=4k \
		--size=1m --fsync=4 --filename="$TRASH/jsync.dat" \
		--percentile_list=50:100 &&
	python3 - <<-\EOF
	import json
	s = json.load(open("jsync.iolite"))["jobs"][0]["sync"]["lat_ns"]
	assert s["percentile"]["100.000000"] == s["max"], s
	EOF
'

if test_have_prereq LIBAIO,FIO,PYTHON3; then
	test_expect_success 'JSON: libaio with slat and lat percentiles' '
		jcompare jaio 3 --name=a --ioengine=libaio --iodepth=8 \
			--rw=randread --size=4m --bs=4k \
			--filename="$TRASH/jaio.dat" --slat_percentiles=1 \
			--lat_percentiles=1 --percentile_list=50:99.9
	'
else
	test_expect_success_if LIBAIO,FIO,PYTHON3 'JSON: libaio with slat and lat percentiles' :
fi

# terse's 20 percentile fields: the same labels as fio's.
terse_pct() {
	tr ';' '\n' <"$1" | grep '%=' | sed 's/=.*//'
}

test_expect_success_if FIO 'terse: lat_percentiles=1 keeps fio'"'"'s fields' '
	fio --output-format=terse --name=a --ioengine=null --size=1m \
		--lat_percentiles=1 --percentile_list=50:90 >t.fio &&
	"$IOLITE" --output-format=terse --name=a --ioengine=null --size=1m \
		--lat_percentiles=1 --percentile_list=50:90 >t.iolite &&
	terse_pct t.fio >t.fio.pct &&
	terse_pct t.iolite >t.iolite.pct &&
	test_cmp t.fio.pct t.iolite.pct &&
	test $(grep -c "^50.000000%" t.iolite.pct) = 2
'

test_done

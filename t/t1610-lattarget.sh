#!/bin/sh
# latency_target and friends: with a target every depth meets, the search
# climbs to iodepth, runs one last window there and ends the job (the
# report covers that window); latency_run keeps the job going; a target
# nothing meets keeps depth 1 for the whole runtime. max_latency fails a
# job with ETIMEDOUT, as fio. fio's JSON keys and units for all of it.
. "$(dirname "$0")/test-lib.sh"

test_require JQ

# jget FILE FILTER: the first job's value of the jq FILTER (".error")
jget() {
	jq -r ".jobs[0]$2" "$1"
}

test_expect_success 'a target every depth meets: iodepth, then the job ends' '
	"$IOLITE" --name=lt --ioengine=null --size=1g --rw=randread --bs=4k \
		--iodepth=8 --latency_target=1s --latency_window=100ms \
		--time_based --runtime=20 --output-format=json >g.json 2>err &&
	test_must_be_empty err &&
	test "$(jget g.json ".latency_depth")" = 8 &&
	test "$(jget g.json ".latency_target")" = 1000000000 &&
	test "$(jget g.json ".latency_window")" = 100000 &&
	test "$(jget g.json ".latency_percentile")" = 100 &&
	# the report is the final window at depth 8, not the 20 s asked for
	rt=$(jget g.json ".read.runtime") &&
	test "$rt" -ge 90 && test "$rt" -lt 5000 &&
	# null keeps one batch (iodepth_batch=1) in flight: depth 1, as fio
	test "$(jget g.json ".iodepth_level[\"1\"] | floor")" = 100
'

test_expect_success 'the normal report shows the depth found' '
	"$IOLITE" --name=lt --ioengine=null --size=1g --rw=randread --bs=4k \
		--iodepth=4 --latency_target=500ms --latency_window=50ms \
		--latency_percentile=99.5 --time_based --runtime=20 >out 2>err &&
	test_must_be_empty err &&
	grep "^     latency   : target=500000000, window=50000, percentile=99.50%, depth=4$" out
'

test_expect_success 'latency_run: the job keeps going to its runtime' '
	"$IOLITE" --name=lt --ioengine=null --size=1g --rw=randread --bs=4k \
		--iodepth=8 --latency_target=1s --latency_window=50ms \
		--latency_run=1 --time_based --runtime=1 \
		--output-format=json >r.json 2>err &&
	test_must_be_empty err &&
	test "$(jget r.json ".latency_depth")" = 8 &&
	test "$(jget r.json ".read.runtime")" -ge 950
'

test_expect_success 'without latency_target: depth is iodepth, target 0' '
	"$IOLITE" --name=lt --ioengine=null --size=1m --iodepth=4 \
		--latency_window=2s --output-format=json >n.json 2>err &&
	test "$(jget n.json ".latency_depth")" = 4 &&
	test "$(jget n.json ".latency_target")" = 0 &&
	test "$(jget n.json ".latency_window")" = 2000000
'

test_expect_success_if LIBAIO 'a target nothing meets: depth 1, full runtime' '
	dd if=/dev/zero of=f bs=1M count=8 2>/dev/null &&
	"$IOLITE" --name=lt --ioengine=libaio --filename=f --rw=randread \
		--bs=64k --iodepth=8 --latency_target=1us \
		--latency_window=100ms --time_based --runtime=1 \
		--output-format=json >t.json 2>err &&
	test_must_be_empty err &&
	test "$(jget t.json ".latency_depth")" = 1 &&
	test "$(jget t.json ".latency_target")" = 1000 &&
	test "$(jget t.json ".read.runtime")" -ge 950 &&
	test "$(jget t.json ".iodepth_level[\"1\"]")" = 100
'

test_expect_success_if LOOP,LIBAIO 'a loop device, O_DIRECT: the search reaches iodepth' '
	dev=$(test_loop img 64m) &&
	"$IOLITE" --name=lt --ioengine=libaio --filename="$dev" --direct=1 \
		--rw=randread --bs=4k --iodepth=4 --latency_target=2s \
		--latency_window=50ms --time_based --runtime=10 \
		--output-format=json >l.json 2>err &&
	test_must_be_empty err &&
	test "$(jget l.json ".latency_depth")" = 4 &&
	test "$(jget l.json ".read.runtime")" -lt 5000
'

test_expect_success 'max_latency: the job fails with ETIMEDOUT' '
	dd if=/dev/zero of=m bs=1M count=8 2>/dev/null &&
	test_must_fail "$IOLITE" --name=ml --ioengine=psync --filename=m \
		--rw=read --bs=256k --max_latency=1 --time_based --runtime=5 \
		--output-format=json >m.json 2>err &&
	grep "^iolite: job .ml.: latency of [0-9]* nsec exceeds max_latency (1000 nsec) on a read$" err &&
	test "$(jget m.json ".error")" = 110 &&
	test "$(jget m.json ".read.runtime")" -lt 4000
'

test_expect_success 'max_latency per direction: a limit on writes only' '
	"$IOLITE" --name=ml --ioengine=psync --filename=m --rw=read \
		--bs=256k --size=1m --max_latency=,1 --output-format=json \
		>w.json 2>err &&
	test_must_be_empty err &&
	test "$(jget w.json ".error")" = 0 &&
	"$IOLITE" --parse-only --name=p --max_latency=1ms,2s >p.out &&
	grep "^max_latency=1ms,2s$" p.out
'

test_expect_success 'bad latency options are refused' '
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--latency_target=500ns 2>err &&
	grep "option .latency_target.: the target must be at least 1us" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--latency_percentile=101 2>err &&
	grep "option .latency_percentile.: invalid percentile .101." err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--latency_target=1ms --gtod_reduce=1 2>err &&
	grep "option .latency_target. needs latencies measured" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--max_latency=1ms --gtod_reduce=1 2>err &&
	grep "option .max_latency. needs latencies measured" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--max_latency=fast 2>err &&
	grep "option .max_latency.: invalid time .fast." err
'

if test_have_prereq FIO; then
	test_expect_success 'fio 3.33 reports the same depth, keys and units' '
		for t in fio "$IOLITE"; do
			"$t" --name=lt --ioengine=null --size=1g --rw=randread \
				--bs=4k --iodepth=4 --latency_target=1s \
				--latency_window=100ms --latency_percentile=99 \
				--time_based --runtime=5 --output-format=json \
				>"$(basename "$t").json" 2>/dev/null || return 1
		done &&
		for k in latency_depth latency_target latency_window \
			 latency_percentile; do
			test "$(jget fio.json ".$k")" = \
			     "$(jget iolite.json ".$k")" || return 1
		done
	'
else
	test_expect_success_if FIO 'fio 3.33 reports the same depth, keys and units' :
fi

test_done

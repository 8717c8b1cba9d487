#!/bin/sh
# cpuio: no I/O, a CPU load. Each I/O is one burn cycle of cpuchunks
# microseconds followed by a sleep of cpuchunks * (100 - cpuload) /
# cpuload (fio's think time), so a 1 s job at cpuload=50 with the
# default 50 ms cycles does 10 I/Os in fio 3.33; the I/Os move no bytes;
# the job runs until its runtime whatever its size, for ever without
# one, or until the jobs doing I/O are done with exit_on_io_done. Like
# fio, the report has no header line, no "read:" line and no group line
# for such a job.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

test_require PYTHON3

JSONCMP="$TEST_DIR/jsoncmp.py"

# figures JSON: "ios=N bytes=N runtime=N clat_min_ms=N" of the job's reads
cat >"$TRASH/figures.py" <<\EOF
import json, sys
text = open(sys.argv[1]).read()
job = json.loads(text[text.index("{\n"):])["jobs"][int(sys.argv[2]) if len(sys.argv) > 2 else 0]
r = job["read"]
print("ios=%d bytes=%d runtime=%d clat_min_ms=%d err=%d" % (r["total_ios"],
      r["io_bytes"], r["runtime"], r["clat_ns"]["min"] // 1000000,
      job["error"]))
EOF

test_expect_success 'cpuload=50, 1 s: at most 10 cycles of at least 50 ms, no bytes' '
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=50 --runtime=1 \
		--size=1g --output-format=json >c.json 2>err &&
	test_must_be_empty err &&
	python3 figures.py c.json >f &&
	cat f &&
	grep "bytes=0 runtime=0 " f &&
	ios=$(sed "s/ios=\([0-9]*\) .*/\1/" f) &&
	test "$ios" -ge 1 && test "$ios" -le 10 &&
	min=$(sed "s/.*clat_min_ms=\([0-9]*\) .*/\1/" f) &&
	test "$min" -ge 50 &&
	python3 -c "
import json
j = json.load(open(\"c.json\"))[\"jobs\"][0]
# it ran for its runtime, not for the size
assert 1000 <= j[\"job_runtime\"] < 5000, j[\"job_runtime\"]
"
'

test_expect_success_if FIO 'the JSON of fio: same keys, no bytes, no runtime' '
	fio --name=c --ioengine=cpuio --cpuload=50 --runtime=300ms \
		--output-format=json >f.out 2>/dev/null &&
	# fio prints its "c (noop): ioengine=cpuio..." line before the JSON
	sed -n "/^{\$/,\$p" f.out >f.json &&
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=50 --runtime=300ms \
		--output-format=json >c.json 2>err &&
	python3 figures.py f.json | cut -d" " -f2-3 >fio &&
	python3 figures.py c.json | cut -d" " -f2-3 >ours &&
	test_cmp fio ours &&
	python3 "$JSONCMP" f.json c.json
'

test_expect_success_if FIO 'the normal report has the lines of fio'"'"'s' '
	fio --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 \
		--runtime=300ms >fio.out 2>/dev/null &&
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 \
		--runtime=300ms >out 2>err &&
	test_must_be_empty err &&
	normalize fio.out | grep -v "^c (noop): ioengine=cpuio" >expect &&
	normalize out >actual &&
	test_cmp expect actual
'

test_expect_success 'no header line, no read line, no group line; the cycle in the notes' '
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 \
		--runtime=200ms >out 2>err &&
	test_must_be_empty err &&
	! grep "^c: (g=0)" out &&
	! grep "^  read:" out &&
	! grep "^   READ:" out &&
	grep "^  cpuio: 50% of a CPU in cycles of 20000us (noop), [0-9]* cycles$" out
'

test_expect_success 'cpuload=100: no sleep, the cycles fill the runtime' '
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=100 --cpuchunks=10000 \
		--runtime=300ms --output-format=json >c.json 2>err &&
	python3 figures.py c.json >f &&
	ios=$(sed "s/ios=\([0-9]*\) .*/\1/" f) &&
	test "$ios" -ge 1 && test "$ios" -le 31 &&
	grep "clat_min_ms=\(9\|[1-9][0-9]\)" f
'

test_expect_success 'cpumode=qsort: cycles of at least cpuchunks, sorting' '
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=50 --cpumode=qsort \
		--cpuchunks=20000 --runtime=200ms --output-format=json \
		>c.json 2>err &&
	test_must_be_empty err &&
	python3 figures.py c.json >f &&
	grep "bytes=0 runtime=0 clat_min_ms=\([2-9][0-9]\|[1-9][0-9][0-9]\)" f &&
	python3 -c "
import json
n = json.load(open(\"c.json\"))[\"iolite\"][\"notes\"]
assert any(\"(qsort)\" in x for x in n), n
"
'

test_expect_success 'exit_on_io_done: ends with the I/O job, long before its runtime' '
	"$IOLITE" --name=c --ioengine=cpuio --cpuload=10 --cpuchunks=1000 \
		--exit_on_io_done=1 --runtime=60 \
		--name=io --ioengine=psync --size=64k --filename=f --rate=256k \
		--output-format=json >c.json 2>err &&
	test_must_be_empty err &&
	python3 -c "
import json
j = json.load(open(\"c.json\"))[\"jobs\"]
assert j[0][\"job_runtime\"] < 10000, j[0][\"job_runtime\"]
assert j[0][\"read\"][\"total_ios\"] >= 1, j[0][\"read\"]
assert j[1][\"read\"][\"io_bytes\"] == 65536, j[1][\"read\"]
"
'

test_expect_success 'without runtime it runs until stopped (SIGINT), then reports' '
	test_must_fail timeout -s INT 1 "$IOLITE" --name=c --ioengine=cpuio \
		--cpuload=10 --cpuchunks=10000 >out 2>err &&
	grep "^iolite: terminating on signal 2" err &&
	grep "issued rwts: total=[1-9]" out
'

test_expect_success '[global]'"'"'s cpuio options: only with [global]'"'"'s cpuio, only to its cpuio jobs (fio)' '
	cat >g.fio <<-\EOF &&
	[global]
	ioengine=cpuio
	cpuload=50
	cpuchunks=10000
	exit_on_io_done=1
	runtime=200ms

	[burn]

	[io]
	ioengine=null
	size=1m
	EOF
	"$IOLITE" g.fio --output-format=json >g.json 2>err &&
	test_must_be_empty err &&
	python3 figures.py g.json 1 | grep "^ios=256 bytes=1048576 " &&
	printf "[io]\nioengine=null\nsize=1m\ncpuload=5\n" >own.fio &&
	test_must_fail "$IOLITE" --parse-only own.fio >out 2>err &&
	grep "^iolite: own.fio:[0-9]*: option .cpuload. is not valid with ioengine .null. (only cpuio)" err &&
	printf "[global]\ncpuload=5\n[io]\nioengine=cpuio\n" >glob.fio &&
	test_must_fail "$IOLITE" --parse-only glob.fio >out 2>err &&
	grep "^iolite: glob.fio:2: option .cpuload. is not valid with ioengine .psync. (only cpuio)" err
'

test_expect_success 'refused: no cpuload, cpuload elsewhere, verify' '
	test_must_fail "$IOLITE" --name=c --ioengine=cpuio >out 2>err &&
	grep "option .cpuload.: ioengine .cpuio. needs cpuload=" err &&
	test_must_fail "$IOLITE" --name=c --ioengine=null --size=1m \
		--cpuload=10 >out 2>err &&
	grep "option .cpuload. is not valid with ioengine .null. (only cpuio)" err &&
	test_must_fail "$IOLITE" --name=c --ioengine=cpuio --cpuload=10 \
		--verify=crc32c >out 2>err &&
	grep "option .verify.: ioengine .cpuio. moves no data" err &&
	test_must_fail "$IOLITE" --name=c --ioengine=cpuio --cpuload=10 \
		--cpumode=bogus >out 2>err &&
	grep "cpumode" err
'

test_done

#!/bin/sh
# The live interval stream (--interval-output, src/live/): one JSON line
# per interval and job, deltas that add up to the final json+ report
# exactly (counts, bytes, clat bins bucket for bucket), the last interval
# marked, groups merged by group_reporting, the html report's charts of
# it, iolite plot's, and the option checks.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-chromium.sh"

CHECK="$TEST_DIR/live/check_stream.py"
# a pause every 2000 I/Os keeps the null engine off a CPU's full time
T="--ioengine=null --thinktime=2ms --thinktime_blocks=2000"

test_expect_success_if PYTHON3 'intervals add up to the report exactly' '
	"$IOLITE" --name=a $T --rw=randrw --size=1g --time_based \
		--runtime=1100ms --interval-period=250ms \
		--interval-output=s.jsonl --output-format=json+ \
		--output=r.json 2>err &&
	test_must_be_empty err &&
	test "$(wc -l <s.jsonl)" -ge 4 &&
	python3 "$CHECK" s.jsonl r.json
'

test_expect_success_if PYTHON3 'a group_reporting group is one record an interval' '
	"$IOLITE" --name=g $T --rw=randread --size=1g --time_based \
		--runtime=800ms --numjobs=3 --group_reporting \
		--interval-period=200ms --interval-output=s.jsonl \
		--output-format=json+ --output=r.json 2>err &&
	test_must_be_empty err &&
	python3 "$CHECK" s.jsonl r.json &&
	python3 -c "
import json, sys
L = [json.loads(l) for l in open(\"s.jsonl\")]
sys.exit(not all(r[\"members\"] == 3 and r[\"jobid\"] == 0 for r in L))"
'

test_expect_success_if PYTHON3 'jobs of two groups, a short one: each its own' '
	cat >two.fio <<-\EOF &&
	[global]
	ioengine=psync
	bs=4k
	[w]
	filename=f1
	size=256k
	rw=write
	[r]
	stonewall
	ioengine=null
	size=1g
	rw=read
	time_based
	runtime=600ms
	thinktime=2ms
	thinktime_blocks=2000
	EOF
	"$IOLITE" two.fio --interval-period=200ms --interval-output=s.jsonl \
		--output-format=json+ --output=r.json 2>err &&
	test_must_be_empty err &&
	python3 "$CHECK" s.jsonl r.json &&
	# the write job ran in well under an interval: one line, the last
	test "$(grep -c "\"jobname\":\"w\"" s.jsonl)" = 1
'

test_expect_success_if PYTHON3 'a failed I/O counts in the stream as in the report' '
	test_must_fail "$IOLITE" --name=bad --ioengine=psync --rw=write \
		--filename=/dev/full --size=64k --interval-output=f.jsonl \
		--output-format=json+ --output=f.json 2>err &&
	grep -q "No space left on device" err &&
	python3 "$CHECK" f.jsonl f.json &&
	grep -q "\"write\":{\"io_bytes\":0,\"total_ios\":1," f.jsonl
'

test_expect_success_if PYTHON3 'the stream on stdout, the report in a file' '
	"$IOLITE" --name=o $T --rw=read --size=64m --interval-output=- \
		--output-format=json+ --output=r.json >s.jsonl 2>err &&
	test_must_be_empty err &&
	python3 "$CHECK" s.jsonl r.json
'

test_expect_success_if PYTHON3 'a reader who stalls holds up nothing, loses nothing' '
	{ "$IOLITE" --name=o $T --rw=randrw --size=1g --time_based \
		--runtime=2s --numjobs=2 --interval-period=10ms \
		--interval-output=- --output-format=json+ --output=r.json \
		2>err; echo $? >rc; } | { sleep 4; cat >s.jsonl; } &&
	test "$(cat rc)" = 0 &&
	test_must_be_empty err &&
	python3 "$CHECK" s.jsonl r.json &&
	# far more lines than a pipe holds: the reporter went on past them
	python3 -c "
import sys
n = [len(l) for l in open(\"s.jsonl\", \"rb\")]
held = 65536 // (sum(n) // len(n)) + 1
print(len(n), \"lines,\", held, \"fit in the pipe\")
sys.exit(len(n) < 2 * held)" &&
	grep "the stream.s reader held a write back" r.json
'

test_expect_success_if PYTHON3 'the period follows --status-interval, whose reports stay whole' '
	"$IOLITE" --name=c $T --rw=read --size=1g --time_based \
		--runtime=700ms --status-interval=300ms --interval-output=s.jsonl \
		--output-format=json+ --output=r.json 2>err &&
	test_must_be_empty err &&
	# the cumulative reports, then the final one: whole documents
	python3 -c "
import json, sys
t = open(\"r.json\").read()
d = json.JSONDecoder(); i = 0; docs = []
while i < len(t):
    while i < len(t) and t[i].isspace(): i += 1
    if i == len(t): break
    o, i = d.raw_decode(t, i); docs.append(o)
ios = [o[\"jobs\"][0][\"read\"][\"total_ios\"] for o in docs]
sys.exit(not (len(docs) >= 2 and ios == sorted(ios)))" &&
	python3 -c "
import json, sys
t = open(\"r.json\").read()
o, _ = json.JSONDecoder().raw_decode(t[t.rindex(\"\n{\") + 1:])
json.dump(o, open(\"last.json\", \"w\"))" &&
	python3 "$CHECK" s.jsonl last.json &&
	python3 -c "
import json, sys
L = [json.loads(l) for l in open(\"s.jsonl\")]
sys.exit(not all(abs(r[\"duration_ms\"] - 300) < 150 for r in L[:-1]))"
'

test_expect_success_if PYTHON3,JANSSON 'iolite plot draws the stream: the sums, the percentiles over time' '
	"$IOLITE" --name=p $T --rw=randrw --size=1g --time_based \
		--runtime=900ms --interval-period=200ms --interval-output=p.jsonl \
		--output-format=json+ --output=p.json 2>err &&
	test_must_be_empty err &&
	"$IOLITE" plot p.jsonl -o p.html 2>err &&
	test_must_be_empty err &&
	for d in read write; do
		ios=$(python3 -c "import json; print(json.load(open(\"p.json\"))[\"jobs\"][0][\"$d\"][\"total_ios\"])") &&
		grep -q "data-jobi=\"0\" data-dir=\"$d\" [^>]*data-ios=\"$ios\"" p.html || return 1
	done &&
	test "$(grep -c "data-chart=\"lat-pct-time\"" p.html)" = 2 &&
	grep -q "A point per interval of the interval stream" p.html
'

test_expect_success_if PYTHON3,JANSSON 'the html report draws its stream: IOPS and percentiles an interval' '
	cat >h.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1g
	time_based
	runtime=900ms
	thinktime=2ms
	thinktime_blocks=2000
	[a]
	rw=randrw
	[b]
	rw=randread
	rate_iops=20000
	EOF
	"$IOLITE" h.fio --interval-period=200ms --interval-output=h.jsonl \
		--output-format=html --output=h.html 2>err &&
	test_must_be_empty err &&
	grep -q "<h2 id=\"stream\">Over time: the interval stream" h.html &&
	test "$(grep -c "data-chart=\"iops-interval\"" h.html)" = 2 &&
	test "$(grep -c "data-chart=\"lat-pct-time\"" h.html)" = 2 &&
	# a point per interval of each job: the series hold them all
	python3 -c "
import json, re, sys
L = [json.loads(l) for l in open(\"h.jsonl\")]
t = open(\"h.html\").read()
s = t[t.index(\"id=\\\"stream\\\"\"):]
ch = s[s.index(\"data-chart=\\\"iops-interval\\\"\"):]
ch = ch[:ch.index(\"</svg>\")]
n = dict(re.findall(r\"<g data-s=\\\"(\\w+)\\\" data-n=\\\"(\\d+)\\\"\", ch))
want = {j: str(sum(r[\"jobname\"] == j for r in L)) for j in \"ab\"}
print(n, want)
sys.exit(n != want)" &&
	# the page of a stream on stdout has no such section
	"$IOLITE" --name=o $T --rw=read --size=16m --interval-output=- \
		--output-format=html --output=o.html >/dev/null 2>err &&
	test_must_be_empty err &&
	! grep -q "id=\"stream\"" o.html
'

test_expect_success_if PYTHON3,JANSSON,CHROMIUM 'Chromium draws the stream section' '
	python3 -c "
t = open(\"h.html\").read()
b = t.index(\">\", t.index(\"<body\")) + 1
s = t.index(\"<section>\\n<h2 id=\\\"stream\\\">\")
e = t.index(\"</section>\", s) + 10
open(\"hs.html\", \"w\").write(t[:b] + t[s:e] + \"</body></html>\")" &&
	SHOT_SIZE=1300,1500 shot hs.html hs.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" hs.png.err &&
	python3 "$TEST_DIR/pngcheck.py" hs.png 0072B2 D55E00 009E73
'

test_expect_success_if JANSSON 'iolite plot: a broken stream is a clear error' '
	head -n 2 p.jsonl >cut.jsonl &&
	sed -n 3p p.jsonl | head -c 100 >>cut.jsonl &&
	test_must_fail "$IOLITE" plot cut.jsonl -o x.html 2>err &&
	grep "cut.jsonl:3: the last line is cut short" err &&
	{ head -n 1 p.jsonl && echo "{\"type\":\"interval\", oops" &&
	  sed -n 2p p.jsonl; } >bad.jsonl &&
	test_must_fail "$IOLITE" plot bad.jsonl -o x.html 2>err &&
	grep "bad.jsonl:2: not valid JSON" err &&
	{ head -n 1 p.jsonl && sed -n 3p p.jsonl; } >gap.jsonl &&
	test_must_fail "$IOLITE" plot gap.jsonl -o x.html 2>err &&
	grep "gap.jsonl:2: job 0.s interval 3 follows 1: the stream lacks lines" err &&
	{ head -n 1 p.jsonl && echo "{\"type\":\"interval\",\"seq\":2}"; } >few.jsonl &&
	test_must_fail "$IOLITE" plot few.jsonl -o x.html 2>err &&
	grep "few.jsonl:2: an interval without .jobid." err &&
	{ head -n 1 p.jsonl && echo "{\"type\":\"status\"}"; } >other.jsonl &&
	test_must_fail "$IOLITE" plot other.jsonl -o x.html 2>err &&
	grep "other.jsonl:2: not a line of an interval stream" err &&
	! test -e x.html
'

test_expect_success 'bad live options are refused before anything is made' '
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--interval-output=- 2>err &&
	grep "option .--interval-output.: .-. needs the report elsewhere" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--interval-period=1s 2>err &&
	grep "option .--interval-period.: needs --interval-output" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--interval-output=n.jsonl --interval-period=1ms 2>err &&
	grep "option .--interval-period.: .1ms. is too short" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=psync --filename=dd \
		--size=1m --interval-output=dd 2>err &&
	grep "option .--interval-output.: .dd. is the data file" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--metrics-listen=localhost 2>err &&
	grep "option .--metrics-listen.: invalid address .localhost." err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--metrics-push=https://h/x 2>err &&
	grep "option .--metrics-push.: invalid URL" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--interval-output=n.jsonl --metrics-linger=1s 2>err &&
	grep "option .--metrics-linger.: needs --metrics-listen" err &&
	! test -e n.jsonl && ! test -e dd
'

test_done

#!/bin/sh
# iolite states its own cost in every output but terse: per job, the user
# CPU its worker spent per I/O and the clock it read; when io_uring punted
# work to io-wq threads, how many and their CPU time; the run's notes at
# the end of the normal report, and all of it under "iolite" keys in JSON.

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3

# 1M I/Os on the null engine: long enough for the thread's user time to
# be measured, short enough to be quick.
test_expect_success 'normal: a positive usr ns/IO and the clock' '
	"$IOLITE" --name=a --ioengine=null --rw=read --bs=4k --size=4g \
		>out 2>err &&
	test_must_be_empty err &&
	grep -E "^  iolite       : usr=[0-9]+\.[0-9]ns/IO, clock=(tsc|clock_gettime)$" out >line &&
	test $(wc -l <line) = 1 &&
	usr=$(sed -E "s/.*usr=([0-9.]+)ns.*/\1/" line) &&
	python3 -c "import sys; sys.exit(0 if float(\"$usr\") > 0 else 1)" &&
	sed -n "/^  cpu          :/{n;p;}" out | grep -q "^  iolite       :" &&
	! grep -q "^  io_uring wq  :" out
'

# The per-I/O figure agrees with fio's own cpu figures in the same
# output: usr_cpu% of job_runtime is the user time in whole ms, summed
# over at most two members here (so within 2 ms).
cat >"$TRASH/cost.py" <<\EOF
import json, sys

doc = json.load(open(sys.argv[1]))
own = doc["iolite"]
assert set(own) == {"clock", "notes"}, own
assert own["clock"] in ("tsc", "clock_gettime"), own
assert isinstance(own["notes"], list), own
for job in doc["jobs"]:
    me = job["iolite"]
    # then "samples" when the run lasted a bandwidth period (500 ms)
    keys = ["usr_ns_per_io", "iowq_cpu_ms", "iowq_threads",
            "iowq_max_threads", "run_delay_ms", "run_delay_pct", "nivcsw"]
    assert list(me) in (keys, keys + ["samples"]), me
    ios = sum(job[d]["total_ios"] for d in ("read", "write", "trim"))
    ios += job["sync"]["total_ios"]
    assert me["usr_ns_per_io"] > 0, me
    usr_ms = job["usr_cpu"] * job["job_runtime"] / 100.0
    own_ms = me["usr_ns_per_io"] * ios / 1e6
    assert abs(usr_ms - own_ms) <= 2.0, (usr_ms, own_ms)
    assert me["iowq_threads"] == 0 and me["iowq_cpu_ms"] == 0.0, me
EOF

test_expect_success 'JSON: iolite objects agree with usr_cpu' '
	"$IOLITE" --output-format=json --name=a --ioengine=null --rw=read \
		--bs=4k --size=4g >one.json &&
	python3 cost.py one.json
'

test_expect_success 'JSON: merged jobs sum time and I/Os' '
	"$IOLITE" --output-format=json --name=a --ioengine=null --rw=write \
		--bs=4k --size=2g --numjobs=2 --group_reporting >two.json &&
	python3 cost.py two.json &&
	python3 -c "import json; d = json.load(open(\"two.json\")); \
		assert len(d[\"jobs\"]) == 1, d[\"jobs\"]"
'

# no notes but the one a busy machine may earn: the tester starved of
# CPU (t1930-pitfalls.sh)
test_expect_success 'clocksource=clock_gettime: named, and no notes' '
	"$IOLITE" --name=a --ioengine=null --size=1m --time_based \
		--runtime=1100ms --clocksource=clock_gettime >out &&
	grep -q "^  iolite       : usr=.*, clock=clock_gettime$" out &&
	sed -n "/^Notes:/,\$p" out | sed "/^Notes:/d; /starved of CPU/d" >other &&
	test ! -s other &&
	"$IOLITE" --output-format=json --name=a --ioengine=null --size=1m \
		--time_based --runtime=1100ms \
		--clocksource=clock_gettime >out.json &&
	python3 -c "import json; o = json.load(open(\"out.json\"))[\"iolite\"]; \
		o[\"notes\"] = [n for n in o[\"notes\"] if \"starved of CPU\" not in n]; \
		assert o == {\"clock\": \"clock_gettime\", \"notes\": []}, o"
'

test_expect_success 'terse is fio'"'"'s fields only' '
	"$IOLITE" --output-format=terse --name=a --ioengine=null \
		--size=1m >t.out &&
	test $(tr ";" "\n" <t.out | wc -l) = 121 &&
	! grep -q "ns/IO" t.out
'

# force_async=1 punts every request to io-wq: the job needed kernel
# worker threads, and the report says so.
if test_have_prereq IO_URING; then
	test_expect_success 'io_uring force_async: the io-wq line and keys' '
		dd if=/dev/zero of=uring.dat bs=1M count=8 2>/dev/null &&
		"$IOLITE" --name=a --ioengine=io_uring --force_async=1 \
			--rw=read --bs=4k --size=8m --iodepth=8 \
			--filename=uring.dat >out 2>err &&
		test_must_be_empty err &&
		grep -E "^  io_uring wq  : threads=[1-9][0-9]* \(max [1-9][0-9]* at once\), cpu=[0-9]+\.[0-9]ms \(usr\+sys\)$" out &&
		"$IOLITE" --output-format=json --name=a --ioengine=io_uring \
			--force_async=1 --rw=read --bs=4k --size=8m \
			--iodepth=8 --filename=uring.dat >out.json &&
		python3 -c "import json; \
			o = json.load(open(\"out.json\"))[\"jobs\"][0][\"iolite\"]; \
			assert o[\"iowq_threads\"] >= o[\"iowq_max_threads\"] >= 1, o"
	'
else
	test_expect_success_if IO_URING 'io_uring force_async: the io-wq line' :
fi

test_done

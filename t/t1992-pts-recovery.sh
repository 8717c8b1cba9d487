#!/bin/sh
# iolite pts hir and xsr (issue #31): SNIA PTS's host idle recovery and
# cross-stimulus recovery, scaled down to seconds on a zram device. HIR:
# the 4k random write loop, then the wait states 1, 2, 3, 5 and 10, each
# followed by its return to baseline; XSR: 1024k sequential, 8k random,
# 1024k sequential writes. The figures are worked out again from the JSON
# (python3); HIR's idle times are seen in its IOPS samples; the pages
# are opened in Chromium.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-pts.sh"
test_at_exit='zram_remove_all'

test_expect_success 'bad input: --hir-cycles named' '
	test_must_fail "$IOLITE" pts hir f --hir-cycles=0 2>err &&
	grep "option .--hir-cycles.: not a count from 1 to 100000: .0." err &&
	test_must_fail "$IOLITE" pts hirr f 2>err &&
	grep "unknown test .hirr. (iops, tp, lat, wsat, hir, xsr, dirth)" err &&
	test_must_fail "$IOLITE" pts xsr f --xsr-time=0 2>err &&
	grep "option .--xsr-time.: not a time of 1ms or more" err &&
	test ! -e f
'

test_skip_unless ZRAM
test_expect_success 'zram: scaled HIR run: wait states, baselines, idle seen' '
	z=$(zram_add 64M) &&
	"$IOLITE" pts hir "$z" --destroy-data --round-time=120ms \
		--capacity-limit=16M --max-rounds=5 --hir-cycles=2 \
		--output-format=json --output=h.json --html=h.html 2>err &&
	test_must_be_empty err &&
	grep "\"--hir-cycles=2 (the spec: 360)\"" h.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("h.json"))
	assert d["test"] == "hir"
	l = d["loops"][0]
	assert len(l["rounds"]) == 5 and l["steady_state"]["tracked"].startswith("4k")
	# from the purged device, no preconditioning before the loop
	assert l["precondition"]["how"].startswith("none (the test starts"), l
	h = l["hir"]
	a = h["access_ms"]
	assert a == 10 and h["cycles"] == 2, h
	ws = h["wait_states"]
	assert [w["wait_state"] for w in ws] == [1, 2, 3, 5, 10]
	for w in ws:
	    W = w["wait_state"]
	    assert w["wait_ms"] == W * a
	    # I/Os over the busy share of the run: A of every A + W x A
	    busy = w["run_ms"] / 1000 * a / (a + W * a)
	    assert abs(w["access_iops"] - w["ios"] / busy) <= 1e-6 * w["access_iops"], w
	    assert w["access_iops"] > 0 and w["baseline_iops"] > 0, w
	# the samples: in order of runs; wait state 10 idles 100 ms at a
	# time, so its run has samples of 0 IOPS beside busy ones
	t = h["iops_over_time"]
	w10 = ws[4]
	span = [p["iops"] for p in t
	        if w10["t_start_ms"] <= p["t_ms"] < w10["t_start_ms"] + w10["run_ms"]]
	assert span and min(span) == 0 and max(span) > 0, span
	starts = [w["t_start_ms"] for w in ws]
	assert starts == sorted(starts) and starts[0] == 0, starts
	PY
'

test_expect_success 'zram: HIR text report' '
	z=$(cat "$TRASH/.zrams") &&
	"$IOLITE" pts hir "/dev/zram$z" --destroy-data --round-time=40ms \
		--capacity-limit=16M --max-rounds=5 --hir-cycles=1 >out 2>err &&
	test_must_be_empty err &&
	grep "^SNIA PTS host idle recovery (HIR) test" out &&
	grep "^Host idle recovery: per wait state W, 1 cycles of 0.003 s" out &&
	grep -c "^  \(1\|2\|3\|5\|10\) .*[0-9]$" out >n && test "$(cat n)" = 5 &&
	grep "^  steady state (before): " out
'

test_expect_success_if XMLLINT 'zram: the HIR page is well-formed, with its charts' '
	xmllint --noout h.html &&
	grep -o "data-chart=\"pts-hir-[a-z]*\"" h.html >charts &&
	printf "data-chart=\"%s\"\n" pts-hir-states pts-hir-time >want &&
	test_cmp want charts &&
	grep "<table class=\"hir\">" h.html
'

test_expect_success_if CHROMIUM 'zram: Chromium renders the HIR page, not blank' '
	. "$TEST_DIR/lib-chromium.sh" &&
	SHOT_SIZE=1280,3200 shot h.html h.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" h.png.err &&
	python3 "$TEST_DIR/pngcheck.py" h.png 0072B2 D55E00
'

test_expect_success 'zram: scaled XSR run: three groups, their throughput' '
	z=$(cat "$TRASH/.zrams") &&
	"$IOLITE" pts xsr "/dev/zram$z" --destroy-data --round-time=50ms \
		--capacity-limit=16M --xsr-time=1s --output-format=json \
		--output=x.json --html=x.html 2>err &&
	test_must_be_empty err &&
	grep "\"--xsr-time: 1.000 s (the spec: 8 h, then 6 h and 8 h)\"" x.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("x.json"))
	assert d["test"] == "xsr"
	l = d["loops"][0]
	assert l["precondition"]["how"].startswith("none (the test starts from the purged device)")
	x = l["xsr"]
	assert [g["stimulus"] for g in x] == ["1024k sequential write",
	    "8k random write", "1024k sequential write"]
	assert [g["ms"] for g in x] == [1000, 750, 1000]
	s = {v["name"]: v for v in d["settings"]}
	assert s["threads"]["used"] == "1"
	last = -1
	for g in x:
	    bw = [p["bw_bytes"] for p in g["samples"]]
	    assert len(bw) >= 2 and g["bw_bytes"] > 0, g
	    # the last fifth of the samples
	    n = len(bw) - len(bw) // 5
	    t = bw[n:]
	    assert abs(g["settled_bw_bytes"] - sum(t) / len(t)) <= 1e-6 * max(t), g
	    # the groups one after another, their samples in their span
	    assert g["t_start_ms"] >= last
	    last = max(p["t_ms"] for p in g["samples"])
	    assert min(p["t_ms"] for p in g["samples"]) > g["t_start_ms"]
	PY
	grep -o "data-chart=\"pts-xsr-time\"" x.html &&
	if test_have_prereq XMLLINT; then xmllint --noout x.html; fi
'

test_expect_success_if CHROMIUM 'zram: Chromium renders the XSR page, not blank' '
	. "$TEST_DIR/lib-chromium.sh" &&
	SHOT_SIZE=1280,1600 shot x.html x.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" x.png.err &&
	python3 "$TEST_DIR/pngcheck.py" x.png 0072B2 D55E00 009E73
'

test_done

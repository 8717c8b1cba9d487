#!/bin/sh
# iolite pts dirth (issue #31): SNIA PTS's demand intensity / response
# time histogram, scaled down to seconds on a zram device (threads capped
# at 4 by --max-threads). The matrix's shape (thread counts by queue
# depths, every round), the tracked cell against the rounds' matrices,
# the window's average, the points chosen from it, and each point's
# histogram against its run's I/O count are checked from the JSON
# (python3); the page is opened in Chromium.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-pts.sh"
test_at_exit='zram_remove_all'

test_expect_success 'bad input: --max-threads named' '
	test_must_fail "$IOLITE" pts dirth f --max-threads=64 2>err &&
	grep "option .--max-threads.: not a count from 1 to 32: .64." err &&
	test_must_fail "$IOLITE" pts iops f --max-threads=4 2>err &&
	grep "option .--max-threads.: only for dirth" err &&
	test_must_fail "$IOLITE" pts dirth f --mix=0/100 --capacity-limit=8M \
		2>err &&
	grep "option .--mix.: the matrix must keep 65/35, the tracked mix" err &&
	test ! -e f
'

test_skip_unless ZRAM
test_expect_success 'zram: scaled DIRTH run: matrix, window, points, histograms' '
	z=$(zram_add 64M) &&
	"$IOLITE" pts dirth "$z" --destroy-data --round-time=40ms \
		--capacity-limit=16M --max-rounds=5 --max-threads=4 \
		--output-format=json --output=d.json --html=d.html 2>err &&
	test_must_be_empty err &&
	grep "\"--max-threads=4: thread counts up to 4 (the spec: 32)\"" d.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("d.json"))
	assert d["test"] == "dirth" and d["pts_result"] == 0
	l = d["loops"][0]
	x = l["dirth"]
	tcs, qds = [1, 2, 4], [1, 2, 4, 8, 16, 32]
	assert x["thread_counts"] == tcs and x["queue_depths"] == qds, x
	assert x["rw_mix"] == "65/35" and x["bs"] == 4096
	ss = l["steady_state"]
	assert ss["tracked"] == "TC4/QD32 4k random 65/35 IOPS", ss
	rounds = x["rounds"]
	assert len(rounds) == len(l["rounds"]) == 5
	for k, r in enumerate(rounds):
	    cells = r["cells"]
	    # every TC x QD, the most threads and the deepest queue first
	    assert [(c["tc"], c["qd"]) for c in cells] == \
	        [(t, q) for t in reversed(tcs) for q in reversed(qds)], cells
	    assert all(c["iops"] > 0 and c["lat_mean_ns"] > 0 for c in cells)
	    # the loop tracks TC4/QD32
	    assert l["rounds"][k]["tracked"] == cells[0]["iops"]
	# the window's matrix: each cell the mean of the window's rounds
	w = range(ss["window_first"] - 1, ss["window_last"])
	m = {(c["tc"], c["qd"]): c for c in x["matrix"]}
	assert len(m) == 18
	for (t, q), c in m.items():
	    v = [next(e["iops"] for e in rounds[i]["cells"]
	              if (e["tc"], e["qd"]) == (t, q)) for i in w]
	    assert abs(c["iops"] - sum(v) / len(v)) <= 1e-6 * c["iops"], c
	# the points: the most IOPS within 5 ms, TC1/QD1, and between
	p = {e["point"]: e for e in x["points"]}
	ok = [c for c in m.values() if c["lat_mean_ns"] <= 5e6] or list(m.values())
	best = max(ok, key=lambda c: c["iops"])
	assert (p["max"]["tc"], p["max"]["qd"]) == (best["tc"], best["qd"]), p
	assert (p["min"]["tc"], p["min"]["qd"]) == (1, 1)
	half = (best["iops"] + m[(1, 1)]["iops"]) / 2
	near = min(abs(c["iops"] - half) for c in ok)
	mid = m[(p["mid"]["tc"], p["mid"]["qd"])]
	assert abs(mid["iops"] - half) == near, (mid, half)
	for e in p.values():
	    assert e["done"] == 1 and e["ios"] > 0 and e["ms"] >= 400, e
	    h = e["histogram"]
	    # every I/O of the run in one bin, the bins powers of two
	    assert sum(b["count"] for b in h) == e["ios"], e
	    for b in h:
	        assert b["hi_ns"] == 2 * b["lo_ns"] or b["lo_ns"] == 0, b
	    assert all(h[i]["hi_ns"] == h[i + 1]["lo_ns"] for i in range(len(h) - 1))
	    # the mean response time lies within the bins
	    assert h[0]["lo_ns"] <= e["lat_mean_ns"] <= h[-1]["hi_ns"], e
	PY
'

test_expect_success 'zram: DIRTH text report' '
	z=$(cat "$TRASH/.zrams") &&
	"$IOLITE" pts dirth "/dev/zram$z" --destroy-data --round-time=20ms \
		--capacity-limit=16M --max-rounds=5 --max-threads=2 >out 2>err &&
	test_must_be_empty err &&
	grep "^SNIA PTS demand intensity / response time histogram (DIRTH) test" out &&
	grep "^  TC.QD          1          2          4          8         16         32$" out &&
	grep -c "^  [12]  *[0-9.]* " out >n && test "$(cat n)" = 4 &&
	grep "^  maximum IOPS: TC [12], QD [0-9]*: [0-9.]* IOPS" out &&
	grep "^  minimum IOPS: TC 1, QD 1: " out
'

test_expect_success_if XMLLINT 'zram: the DIRTH page is well-formed, with its charts' '
	xmllint --noout d.html &&
	grep -o "data-chart=\"pts-dirth-[a-z-]*\"" d.html >charts &&
	printf "data-chart=\"%s\"\n" pts-dirth-variation pts-dirth-intensity \
		pts-dirth-hist-max pts-dirth-hist-mid pts-dirth-hist-min >want &&
	test_cmp want charts &&
	grep "<table class=\"dirth-points\">" d.html
'

test_expect_success_if CHROMIUM 'zram: Chromium renders the DIRTH page, not blank' '
	. "$TEST_DIR/lib-chromium.sh" &&
	SHOT_SIZE=1280,4000 shot d.html d.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" d.png.err &&
	python3 "$TEST_DIR/pngcheck.py" d.png 0072B2 D55E00
'

test_done

#!/bin/sh
# iolite-mpi's html page (issue 29, item 7), 3 ranks under mpirun: each
# rank's share of a group (a bar per rank, a table, the spread between
# the lowest and the highest), read against the ranks' own jobs in the
# JSON report; the command line, machine and job file at the top; the
# merged samples' min and max those of the summed series, not sums of
# the ranks' (values never seen); the series' last interval, which the
# ranks' samples cover a few ms, left out rather than drawn as a
# collapse, and a job's stretch after its last sample counted.
. "$(dirname "$0")/test-lib.sh"

test_skip_unless MPI PYTHON3
. "$TEST_DIR/lib-mpi.sh"

# Group 0: rank 0 reads at 3000 IOPS, ranks 1 and 2 at 1000: a 3x
# imbalance that "All clients" (5000) hides. Group 1: rank 0 at 2000 IOPS
# for 2 s, ranks 1 and 2 at 500 a second later, so that together they
# did 2000, 3000 and 1000 in the three seconds: the sums of the ranks'
# minima and maxima (3000 and 3000) were never seen.
cat >"$TRASH/imb.fio" <<EOF
[global]
ioengine=null
size=1g
time_based
runtime=2
[fast]
ranks=0
rate_iops=3000
[slow]
ranks=1-2
rate_iops=1000
[early]
stonewall
ranks=0
rate_iops=2000
[late]
ranks=1-2
rate_iops=500
startdelay=1
EOF

test_expect_success 'three ranks, a 3x imbalance: one JSON report and one page' '
	mpirun --allow-run-as-root --oversubscribe -np 3 "$IOLITE_MPI" \
		--eta=never --output-format=json,html --output=out \
		imb.fio >stdout 2>err &&
	test_must_be_empty err &&
	test_must_be_empty stdout &&
	test -s out && test -s out.html
'

test_expect_success_if XMLLINT 'the page is well-formed' '
	xmllint --noout out.html
'

test_expect_success 'a row per rank: its jobs'"'"' figures, as the JSON report has them' '
	python3 - <<-\EOF
	import json, re
	d = json.load(open("out"))
	page = open("out.html").read().split("<section id=\"g1\">")[0]
	jobs = [j for j in d["client_stats"] if j["jobname"] != "All clients"
	        and j["groupid"] == 0]
	rows = re.findall(r"<tr data-rank=\"(\d+)\" data-dir=\"(\w+)\" "
	                  r"data-iops=\"([0-9.]+)\" data-bw=\"(\d+)\" "
	                  r"data-ios=\"(\d+)\" data-runtime=\"(\d+)\">", page)
	assert [r[:2] for r in rows] == [("0", "read"), ("1", "read"),
	                                ("2", "read")], rows
	for r in rows:
	    mine = [j for j in jobs if j["rank"] == int(r[0])]
	    ios = sum(j["read"]["total_ios"] for j in mine)
	    by = sum(j["read"]["io_bytes"] for j in mine)
	    rt = max(j["read"]["runtime"] for j in mine)
	    assert int(r[4]) == ios and int(r[5]) == rt, (r, ios, rt)
	    assert int(r[3]) == by * 1000 // rt, (r, by, rt)
	    assert abs(float(r[2]) - ios * 1000 / rt) < 1e-3, r
	    # a single job per rank: its own IOPS figure
	    assert abs(float(r[2]) - mine[0]["read"]["iops"]) < 1e-3, r
	EOF
'

test_expect_success 'the spread: lowest, highest and their ratio, 3x; a bar per rank' '
	python3 - <<-\EOF
	import re
	page = open("out.html").read()
	m = re.search(r"<p class=\"spread\" data-dir=\"read\" "
	              r"data-min=\"([0-9.]+)\" data-max=\"([0-9.]+)\" "
	              r"data-ratio=\"([0-9.]+)\">(.*?)</p>", page)
	assert m, "no spread line"
	lo, hi, ratio = float(m.group(1)), float(m.group(2)), float(m.group(3))
	# rated I/O falls a little short on a loaded machine (975 and 2925)
	assert abs(lo - 1000) <= 150 and abs(hi - 3000) <= 450, (lo, hi)
	assert abs(ratio - hi / lo) < 1e-3 and 2.5 <= ratio <= 3.5, ratio
	assert "(rank 0)" in m.group(4) and "x;" in m.group(4), m.group(4)
	c = re.search(r"<svg[^>]*data-chart=\"g0-rank-iops-read\"[^>]*>", page)
	assert c and "data-series=\"1\"" in c.group(0), c
	EOF
'

test_expect_success 'the header: command line, machine, job file' '
	grep -q "<th>command</th><td><code>iolite .*imb.fio</code>" out.html &&
	grep -q "<th>machine</th>" out.html &&
	grep -q "<h3>job file <code>imb.fio</code></h3>" out.html
'

test_expect_success 'All clients: samples of the summed series; no collapse at the end' '
	python3 - <<-\EOF
	import json
	d = json.load(open("out"))
	alls = [j for j in d["client_stats"] if j["jobname"] == "All clients"]
	assert [a["groupid"] for a in alls] == [0, 1], alls
	for a in alls:
	    s = a["iolite"]["samples"]["read"]
	    for k in ("iops", "bw"):
	        v = s[k]
	        assert len(v) >= 2, v
	        assert abs(a["read"][k + "_min"] - min(v)) <= 1, (k, a, v)
	        assert abs(a["read"][k + "_max"] - max(v)) <= 1, (k, a, v)
	        assert a["read"][k + "_samples"] == len(v), (k, a, v)
	# group 0: every interval near the 5000 IOPS the ranks did together:
	# the last one is not a sliver of an interval drawn as a rate
	v = alls[0]["iolite"]["samples"]["read"]["iops"]
	assert all(abs(x - 5000) <= 1000 for x in v), v
	# group 1: 2000, 3000, 1000 a second, every half second of it; rank
	# 0: its last half second, which its sampler leaves out, is there (the
	# sum dipped to 1000 while it still ran); the sums of the minima and
	# of the maxima of the ranks would be 3000 both
	v = alls[1]["iolite"]["samples"]["read"]["iops"]
	want = [2000, 2000, 3000, 3000, 1000, 1000]
	assert len(v) == len(want), v
	assert all(abs(x - w) <= w / 4 for x, w in zip(v, want)), v
	r = alls[1]["read"]
	assert r["iops_min"] <= 1500 and r["iops_max"] >= 2250, r
	EOF
'

test_done

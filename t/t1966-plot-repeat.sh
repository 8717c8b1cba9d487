#!/bin/sh
# --repeat's runs as one result in the pictures: `iolite plot` on a
# repeat's JSON and the html report of a repeated run draw each figure's
# mean with its interval and every run's figure (the numbers the JSON's
# repeat_summary and runs have, exactly), not a report per run; a
# repeated sweep's curves carry the intervals as error bars; a run the
# summary leaves out (flagged by iolite) is said on the page, and
# compare leaves it out too.
. "$(dirname "$0")/test-lib.sh"

test_have_prereq JANSSON ||
	test_skip_reason="missing JANSSON: apt install libjansson-dev"

job="--name=n1 --ioengine=null --size=64m --rw=randread --rate_iops=2000 \
	--time_based --runtime=300ms"

# cells FILE METRIC: "mean lo hi run1 run2 ..." of the repeat table's row
cells() {
	grep "<tr data-jobi=\"0\" data-dir=\"read\" data-m=\"$2\">" "$1" |
	sed "s/<td/\\
<td/g" | sed -n "s/^<td data-v=\"\([^\"]*\)\".*/\1/p
		s/^<td data-lo=\"\([^\"]*\)\" data-hi=\"\([^\"]*\)\".*/\1 \2/p" |
	tr "\n" " " | sed "s/ $//"
}

# want FILE METRIC: the same from the JSON (mean lo hi, then each run's)
want() {
	jq -r --arg m "$2" '.iolite as $i |
		[$i.repeat_summary.jobs[0].read[$m] | .mean, .ci_lo, .ci_hi] +
		[$i.repeats[].jobs[0].read | if $m == "iops" then .iops
		 else .bw_bytes end] | map(tostring) | join(" ")' "$1"
}

# same A B: the same numbers, word by word
same() {
	echo "$1" | tr " " "\n" >a.n &&
	echo "$2" | tr " " "\n" >b.n &&
	test "$(wc -l <a.n)" = "$(wc -l <b.n)" &&
	paste a.n b.n | awk '{ if ($1 + 0 != $2 + 0) { print "differ: " $0; bad = 1 } }
		END { exit bad }'
}

test_expect_success_if JANSSON,JQ 'plot of a repeat: one result, its figures the JSON'"'"'s' '
	"$IOLITE" $job --repeat=3 --output-format=json >r.json &&
	"$IOLITE" plot r.json -o r.html 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "<h2 id=\"repeats\">3 runs as one result</h2>" r.html)" = 1 &&
	# the last run'"'"'s own charts, not a report per run
	grep -q "<h2>r.json, run 3 of 3</h2>" r.html &&
	! grep -q "run 1 of 3</h2>" r.html &&
	test "$(grep -c "<h2>Group 0</h2>" r.html)" = 1 &&
	for m in iops bw_bytes; do
		got=$(cells r.html $m) &&
		exp=$(want r.json $m) &&
		same "$got" "$exp" || return 1
	done &&
	grep -q "data-chart=\"rep-iops\" data-title=\"read: IOPS, 3 runs\"" r.html &&
	grep -q "<g data-s=\"each run\" data-n=\"3\"" r.html
'

test_expect_success_if JANSSON,JQ 'the html report of a repeated run: the same result' '
	# the page beside the JSON: h.json -> h.html
	"$IOLITE" $job --repeat=3 --output-format=json,html --output=h.json &&
	grep -q "<h2 id=\"repeats\">3 runs as one result</h2>" h.html &&
	grep -q "<h2>Run 3 of 3: its own charts</h2>" h.html &&
	same "$(cells h.html iops)" "$(want h.json iops)"
'

test_expect_success_if JANSSON,JQ 'a run left out of the intervals: said, drawn apart, and compare agrees' '
	# runs of 300 ms are all flagged: kept, fewer than two being left
	test "$(jq ".iolite.repeat_summary.jobs[0].left_out.read | .runs == [] and .flagged_kept == 1" r.json)" = true &&
	grep -q "flagged runs kept in the interval, fewer than two others being left" r.html &&
	# as if run 2 were left out
	jq ".iolite.repeat_summary.jobs[0].left_out.read = {\"runs\": [2], \"flagged_kept\": 0}" r.json >lo.json &&
	"$IOLITE" plot lo.json -o lo.html &&
	grep -q "<g data-s=\"left out: flagged by iolite\" data-n=\"1\"" lo.html &&
	grep "<tr data-jobi=\"0\" data-dir=\"read\" data-m=\"iops\">" lo.html |
		grep -q "<td data-v=\"[^\"]*\">([^<]*)</td><td data-v" &&
	grep -q "run 2 (left out): " lo.html &&
	"$IOLITE" compare --metrics=IOPS lo.json r.json >t &&
	grep -q "Welch.s t over the runs (A: 2, B: 3); left out, as iolite.s" t
'

test_expect_success_if JANSSON,JQ 'a repeated sweep: each point the mean, its interval as error bars' '
	"$IOLITE" $job --repeat=2 --sweep=iodepth=1,2 --output-format=json >s.json &&
	"$IOLITE" plot s.json -o s.html &&
	grep -q "<h2 id=\"sweep\">Sweep of iodepth</h2>" s.html &&
	# the sweep table: the summary'"'"'s mean, lo and hi for each point
	grep -o "<tr data-jobi=\"[0-9]*\" data-dir=\"read\"><td>n1</td>.*</tr>" s.html |
	sed -n "s/^<tr data-jobi=\"\([0-9]*\)\".*data-m=\"iops\" data-v=\"\([^\"]*\)\" data-lo=\"\([^\"]*\)\" data-hi=\"\([^\"]*\)\".*/\1 \2 \3 \4/p" >got &&
	jq -r ".iolite.repeat_summary.jobs | to_entries[] |
		\"\(.key) \(.value.read.iops.mean) \(.value.read.iops.ci_lo) \(.value.read.iops.ci_hi)\"" s.json >exp &&
	test "$(wc -l <got)" = 2 &&
	same "$(cat got)" "$(cat exp)" &&
	# the IOPS curve: two points, each with its whisker
	sed -n "/data-chart=\"sweep-iops\"/,/<\/svg>/p" s.html >iops.svg &&
	grep -q "<g data-s=\"n1\" data-n=\"2\"" iops.svg &&
	grep -q "stroke-width=\"1.2\"" iops.svg
'

test_done

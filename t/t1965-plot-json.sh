#!/bin/sh
# Pictures from JSON results: `iolite plot` on iolite's and fio 3.33's
# json and json+ reports draws the charts --output-format=html draws for
# the same run (same charts, series and points), every figure on the
# page is the file's; a sweep's figures against the swept value (a
# hand-made file in the layout of --sweep's JSON); `iolite compare
# --output-format=html` overlays the sides with their intervals; SVG
# files and pages are well-formed; Chromium renders a sweep and a
# compare page; without jansson the command names libjansson-dev.
. "$(dirname "$0")/test-lib.sh"

sweep="$TEST_DIR/data/plot/sweep.json"

if ! test_have_prereq JANSSON; then
	test_expect_success 'without jansson: JSON is refused naming libjansson-dev' '
		echo "{ \"jobs\": [] }" >r.json &&
		test_must_fail "$IOLITE" plot r.json -o x.html 2>err &&
		grep -q "libjansson-dev" err &&
		test_path_is_missing x.html
	'
	test_skip_reason="missing JANSSON: apt install libjansson-dev"
fi

# series FILE: "chart|series|points|marks" for each series, in order
series() {
	awk '
	/data-chart="/ { c = $0; sub(/.*data-chart="/, "", c); sub(/".*/, "", c) }
	/<g data-s="/ {
		line = $0
		while (match(line, /<g data-s="[^"]*" data-n="[0-9]*" data-marks="[0-9]*"/)) {
			g = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			split(g, f, "\"")
			print c "|" f[2] "|" f[4] "|" f[6]
		}
	}' "$1"
}

# attrs FILE NAME...: "v1 v2 ..." per element carrying data-NAME1 ...
attrs() {
	f=$1
	shift
	re=
	out=
	n=1
	for a in "$@"; do
		re="$re data-$a=\"\\([^\"]*\\)\""
		out="$out\\$n "
		n=$((n + 1))
	done
	sed "s/<t[dr] /\\
&/g" "$f" | sed -n "s/.*<[a-z]*$re.*/$out/p"
}

job="--size=4m --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 \
	--runtime=1200ms --time_based --lat_percentiles=1 --slat_percentiles=1 \
	--name=j1 --filename=f1 --name=j2 --filename=f2"

test_expect_success_if JANSSON 'plot r.json: the charts the html report drew for the run' '
	"$IOLITE" $job --output-format=json+,html --output=r.json &&
	"$IOLITE" plot r.json -o p.html 2>err &&
	test_must_be_empty err &&
	series r.html >want && series p.html >got &&
	test_cmp want got &&
	grep -q "^lat-pct|j1|" got && grep -q "^lat-hist|j2|" got &&
	grep -q "^bw-time|j1|" got && grep -q "^iops-time|j2|" got &&
	grep -q "^depth|j1|7|0$" got && grep -q "^cpu|usr|2|0$" got
'

test_expect_success_if JANSSON 'plot of --output-format=normal,json: the JSON after the text' '
	"$IOLITE" --name=m --ioengine=null --size=1m \
		--output-format=normal,json >mixed.out &&
	head -n 1 mixed.out | grep -v "^{" &&
	"$IOLITE" plot mixed.out -o mixed.html 2>err &&
	test_must_be_empty err &&
	grep -q "<svg" mixed.html
'

test_expect_success_if JANSSON,JQ 'every figure on the plot page is the JSON file'"'"'s' '
	attrs p.html jobi dir iops bw ios runtime clat-mean >rows &&
	test $(wc -l <rows) = 4 &&
	while read i d iops bw ios rt mean; do
		jq -r ".jobs[$i].$d | \"\(.iops) \(.bw_bytes) \(.total_ios) \(.runtime) \(.clat_ns.mean)\"" r.json >w &&
		echo "$iops $bw $ios $rt $mean" | awk "NR == FNR { split(\$0, w); next }
			{ for (k = 1; k <= 5; k++) if (\$k - w[k] > 1e-6 * (w[k] + 1) ||
				w[k] - \$k > 1e-6 * (w[k] + 1)) exit 1 }" w - ||
			{ echo "row $i $d: $iops $bw $ios $rt $mean"; cat w; return 1; }
	done <rows &&
	attrs p.html jobi dir lat pct ns >pct &&
	test $(wc -l <pct) -gt 40 &&
	# every percentile of the file, "job dir kind pct value", in one jq run
	jq -r ".jobs | to_entries[] | .key as \$i | .value as \$j |
		(\"read\", \"write\", \"trim\", \"sync\") as \$d |
		(\$j[\$d] // {}) | to_entries[] |
		select((.key | endswith(\"_ns\")) and (.value | type) == \"object\") |
		(.key | rtrimstr(\"_ns\")) as \$k |
		(.value.percentile // {}) | to_entries[] |
		\"\\(\$i) \\(\$d) \\(\$k) \\(.key) \\(.value)\"" r.json >pct.json &&
	awk "NR == FNR { v[\$1, \$2, \$3, \$4 + 0] = \$5; next }
		!((\$1, \$2, \$3, \$4 + 0) in v) || v[\$1, \$2, \$3, \$4 + 0] != \$5 {
			print \$0 \", want \" v[\$1, \$2, \$3, \$4 + 0]; bad = 1 }
		END { exit bad }" pct.json pct
'

test_expect_success_if JANSSON,JQ 'json+ curves come from the bins: a point a bin and the 100% end' '
	for i in 0 1; do
		n=$(jq ".jobs[$i].read.clat_ns.bins | length" r.json) &&
		grep -q "^lat-pct|j$((i + 1))|$((n + 1))|" got ||
			{ echo "job $i: $n bins"; grep "^lat-pct" got; return 1; }
	done
'

test_expect_success_if JANSSON,XMLLINT 'pages and SVG files are well-formed, one file a chart' '
	xmllint --noout p.html &&
	mkdir svg &&
	"$IOLITE" plot --format=svg -o svg r.json "$sweep" >list &&
	test $(wc -l <list) = $(($(grep -c "data-chart=" p.html) + 6)) &&
	test $(sort -u list | wc -l) = $(wc -l <list) &&
	xmllint --noout $(cat list) &&
	awk "FNR == 1 && !/^<\\?xml/ { print FILENAME; bad = 1 }
	     END { exit bad }" $(cat list)
'

test_expect_success_if JANSSON 'mixed inputs: a JSON report and a log on one page' '
	"$IOLITE" --name=l --ioengine=psync --filename=lf --size=256k --bs=4k \
		--rw=randread --write_lat_log=l --output-format=json >l.json &&
	"$IOLITE" plot l.json l_clat.1.log -o mixed.html &&
	grep -q "<h2>l.json</h2>" mixed.html &&
	grep -q "<h2>l_clat.1.log</h2>" mixed.html &&
	series mixed.html >m &&
	grep -q "^lat-pct|l|" m && grep -q "^pct|read|" m
'

test_expect_success_if JANSSON 'bad JSON is refused by file and line, nothing written' '
	printf "{\n  \"jobs\" : [\n  x\n" >bad.json &&
	test_must_fail "$IOLITE" plot bad.json -o x.html 2>err &&
	grep -q "^iolite: plot: bad.json:" err &&
	test_path_is_missing x.html
'

# --- fio 3.33 ------------------------------------------------------------

fjob="--name=f --ioengine=psync --filename=ff --size=2m --bs=4k --rw=randread"

test_expect_success_if JANSSON,FIO 'plot: fio 3.33'"'"'s json gives the charts iolite'"'"'s gives' '
	fio $fjob --output-format=json --output=fio.json >/dev/null &&
	"$IOLITE" $fjob --output-format=json >iol.json &&
	"$IOLITE" plot fio.json -o fio.html && "$IOLITE" plot iol.json -o iol.html &&
	series fio.html >fs && series iol.html >is &&
	test_cmp is fs &&
	grep -q "^lat-pct|f|15|15$" fs
'

test_expect_success_if JANSSON,FIO,JQ 'plot: and its json+: the same charts and series, a point a bin' '
	fio $fjob --output-format=json+ --output=fiop.json >/dev/null &&
	"$IOLITE" $fjob --output-format=json+ >iolp.json &&
	"$IOLITE" plot fiop.json -o fiop.html && "$IOLITE" plot iolp.json -o iolp.html &&
	series fiop.html | cut -d"|" -f1,2,4 >fs && series iolp.html | cut -d"|" -f1,2,4 >is &&
	test_cmp is fs &&
	for t in fiop iolp; do
		n=$(jq ".jobs[0].read.clat_ns.bins | length" $t.json) &&
		series $t.html | grep -q "^lat-pct|f|$((n + 1))|" || return 1
	done
'

# --- sweeps ----------------------------------------------------------------

test_expect_success_if JANSSON 'a sweep: IOPS, bandwidth and p50 p99 p99.9 against the swept value' '
	"$IOLITE" plot "$sweep" -o sweep.html 2>err &&
	test_must_be_empty err &&
	series sweep.html >s &&
	for id in sweep-iops sweep-bw sweep-p50 sweep-p99 sweep-p99.9; do
		test $(grep -c "^$id|" s) = 4 || { cat s; return 1; }
		for n in "seq bs=4k" "rand bs=4k" "seq bs=64k" "rand bs=64k"; do
			grep -q "^$id|$n|6|6$" s || { cat s; return 1; }
		done
	done &&
	grep -q "data-chart=\"sweep-iops\" data-title=\"read: IOPS against iodepth\" data-series=\"4\" data-x=\"1 32\"" sweep.html &&
	! grep -q "data-chart=\"lat-pct\"" sweep.html
'

test_expect_success_if JANSSON,JQ 'every figure of the sweep table is the file'"'"'s' '
	attrs sweep.html jobi dir >rows &&
	test $(wc -l <rows) = 24 &&
	sed -n "s/.*data-m=\"\([a-z0-9.]*\)\" data-v=\"\([^\"]*\)\".*/\1 \2/p" sweep.html >/dev/null &&
	# "jobi v1 v2 ..." a read row, and each job'"'"'s figures in one jq run
	grep -o "<tr data-jobi=\"[0-9]*\" data-dir=\"read\">.*</tr>" sweep.html |
	grep -o "data-jobi=\"[0-9]*\"\|data-m=\"\(iops\|bw\|p[0-9.]*\)\" data-v=\"[^\"]*\"" |
	sed "s/data-m=\"[^\"]*\" //" |
	awk -F\" "/^data-jobi/ { if (r != \"\") print r; r = \$2; next }
		{ r = r \" \" \$2 } END { if (r != \"\") print r }" >got &&
	jq -r ".jobs | to_entries[] | .key as \$i | .value.read |
		\"\(\$i) \(.iops) \(.bw_bytes) \(.clat_ns.percentile[\"50.000000\"]) \(.clat_ns.percentile[\"99.000000\"]) \(.clat_ns.percentile[\"99.900000\"])\"" \
		"$sweep" >want &&
	awk "NR == FNR { w[\$1] = \$0; next }
	     { n++; split(w[\$1], a, \" \")
	       if (NF != 6 || !(\$1 in w)) bad = 1
	       for (k = 2; k <= 6; k++) if (\$k + 0 != a[k] + 0) bad = 1
	       if (bad) { print \"job \" \$0 \", want \" w[\$1]; exit 1 } }
	     END { exit bad || n != 24 }" want got &&
	# the CPU columns: iolite'"'"'s own cost and the io-wq workers, the file'"'"'s
	grep -o "<tr data-jobi=\"[0-9]*\" data-dir=\"read\">.*</tr>" sweep.html |
	sed "s/^<tr data-jobi=\"\([0-9]*\)\".*data-m=\"own-io\" data-v=\"\([^\"]*\)\".*data-m=\"iowq\" data-v=\"\([^\"]*\)\".*/\1 \2 \3/" >got &&
	jq -r ".jobs | to_entries[] | \"\(.key) \(.value.iolite.usr_ns_per_io) \(.value.iolite.iowq_max_threads)\"" "$sweep" >want &&
	awk "NR == FNR { w[\$1] = \$0; next }
	     { n++; split(w[\$1], a, \" \")
	       if (NF != 3 || \$2 + 0 != a[2] + 0 || \$3 + 0 != a[3] + 0) bad = 1 }
	     END { exit bad || n != 24 }" want got
'

test_expect_success_if JANSSON 'a sweep of values that are not numbers: a category each' '
	sed "s/\"iodepth\": \"\([0-9]*\)\"/\"iodepth\": \"q\1\"/" "$sweep" >cat.json &&
	"$IOLITE" plot cat.json -o cat.html &&
	grep -q "data-chart=\"sweep-iops\" data-title=\"read: IOPS against iodepth\" data-series=\"4\" data-x=\"-0.5 5.5\"" cat.html
'

# --sweep comes from another branch: until it is in, this skips
"$IOLITE" --sweep=iodepth=1,2 --name=p --size=1m --filename=pf \
	--parse-only >/dev/null 2>&1 ||
	test_skip_reason="this iolite has no --sweep"
test_expect_success_if JANSSON 'a --sweep run'"'"'s html report draws the sweep as iolite plot does' '
	"$IOLITE" --sweep=iodepth=1,2,4,8 --name=s --ioengine=null --size=16m \
		--bs=4k --output-format=json,html --output=sw.json &&
	"$IOLITE" plot sw.json -o swp.html &&
	series sw.html | grep "^sweep-" >a && series swp.html >b &&
	test_cmp a b &&
	test $(cut -d"|" -f1 a | sort -u | wc -l) = 6 &&
	grep -q "^sweep-iops|s|4|4$" a &&
	# points measured under a second: ringed, in every chart
	test $(grep -c "^sweep-[a-z0-9.-]*|flagged by iolite|4|" a) = 6 &&
	grep -q "^sweep-lat-iops|s|4|4$" a &&
	grep -q "data-chart=\"sweep-iops\" data-title=\"read: IOPS against iodepth\" data-series=\"2\" data-x=\"1 8\"" sw.html
'
test_skip_reason=

# --- compare -----------------------------------------------------------------

rated="--name=c --ioengine=null --size=64m --time_based --runtime=1s \
	--iopsavgtime=20 --bwavgtime=20"

test_expect_success_if JANSSON,JQ 'compare -o x.html: the sides overlaid, the intervals drawn' '
	# the six runs at once: they wait on their rates (a gap of ms: the
	# end of a wait spins the wake-up lag, up to 1 ms on a busy machine)
	pids= &&
	for i in 1 2 3; do
		"$IOLITE" $rated --rate_iops=200 --output-format=json+ >a$i.json &
		pids="$pids $!"
		"$IOLITE" $rated --rate_iops=300 --output-format=json+ >b$i.json &
		pids="$pids $!"
	done &&
	for p in $pids; do wait $p || return 1; done &&
	jq -s "{\"fio version\": .[0][\"fio version\"], iolite: {repeats: .}}" \
		a1.json a2.json a3.json >a.json &&
	"$IOLITE" compare a.json b1.json,b2.json,b3.json -o c.html >text &&
	grep -q "^A: a.json (3 runs" text &&
	series c.html >s &&
	grep -q "^cmp-lat-pct|A: a.json|" s && grep -q "^cmp-lat-pct|B: b1.json,b2.json,b3.json|" s &&
	grep -q "^cmp-iops|IOPS|2|0$" s && grep -q "^cmp-bw|bandwidth|2|0$" s &&
	# the bars in the sides'"'"' colours of the percentile chart
	sed -n "/data-chart=\"cmp-iops\"/,/<\/svg>/p" c.html |
		grep -o "<rect fill=\"#[0-9A-F]*\"" >fills &&
	test "$(tr -d "\n" <fills)" = "<rect fill=\"#0072B2\"<rect fill=\"#D55E00\"" &&
	attrs c.html side dir m v lo hi >est &&
	test $(wc -l <est) = 4 &&
	for side in A:a B:b; do
		want=$(jq -s "map(.jobs[0].read.iops) | add / 3" \
			${side#*:}1.json ${side#*:}2.json ${side#*:}3.json) &&
		grep "^${side%:*} read iops " est | awk -v w="$want" "{ d = \$4 - w
			if (d > 1e-6 * w || -d > 1e-6 * w || !(\$5 <= \$4 && \$4 <= \$6))
				exit 1 }" || { cat est; echo "want $want"; return 1; }
	done
'

# The answer first: the page's verdict is the text's, row for row (the
# TSV's change and verdict), before any chart, with the multiple-test
# column and the options that differ
test_expect_success_if JANSSON 'compare page: the verdict first, each row the text'"'"'s' '
	"$IOLITE" compare a.json b1.json,b2.json,b3.json -o v.html >vtext &&
	"$IOLITE" compare --tsv a.json b1.json,b2.json,b3.json >v.tsv &&
	v=$(grep -n "<section id=\"verdict\">" v.html | cut -d: -f1) &&
	j=$(grep -n "<h2>job " v.html | head -n 1 | cut -d: -f1) &&
	test -n "$v" && test "$v" -lt "$j" &&
	grep -o "data-verdict=\"[a-z-]*\"" v.html | cut -d\" -f2 >page &&
	awk -F"\t" "\$1 == \"B\" { print \$11 }" v.tsv >want &&
	test_cmp want page &&
	test "$(head -n 1 page)" = faster &&
	grep -o "data-change=\"[^\"]*\"" v.html | head -n 1 | cut -d\" -f2 >c &&
	awk -F"\t" "\$1 == \"B\" { print \$8; exit }" v.tsv >cw &&
	awk -v a="$(cat c)" -v b="$(cat cw)" \
		"BEGIN { d = a * 100 - b; exit !(d < 1e-3 && d > -1e-3) }" &&
	grep -q "data-verdict-all=\"faster\"" v.html &&
	grep -q "rate_iops: A 200, B 300" v.html &&
	grep -q "metrics tested at 95%: by chance alone about" vtext
'

test_expect_success_if JANSSON 'compare: one run a side, intervals from batch means; html alone on stdout' '
	"$IOLITE" compare a1.json b1.json --output-format=html >c1.html &&
	head -n 1 c1.html | grep -qx "<!DOCTYPE html>" &&
	attrs c1.html side dir m v lo hi >est &&
	test $(wc -l <est) = 4 &&
	test_must_fail "$IOLITE" compare a1.json b1.json -o c.txt 2>err &&
	grep -q "names the html page" err && test_path_is_missing c.txt
'

test_expect_success_if JANSSON,XMLLINT 'the compare pages are well-formed' '
	xmllint --noout c.html c1.html sweep.html cat.html mixed.html
'

. "$TEST_DIR/lib-chromium.sh"

command -v python3 >/dev/null 2>&1 ||
	test_skip_reason="python3 is not installed (Debian package python3)"
test_expect_success_if JANSSON,CHROMIUM 'Chromium renders a sweep and a compare page, not blank' '
	# the charts are at the top: a 1000-pixel window shows them
	SHOT_SIZE=1280,1000 &&
	shot sweep.html sweep.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" sweep.png.err &&
	python3 "$TEST_DIR/pngcheck.py" sweep.png 0072B2 D55E00 009E73 CC79A7 &&
	shot c.html c.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" c.png.err &&
	python3 "$TEST_DIR/pngcheck.py" c.png 0072B2 D55E00
'
test_skip_reason=

test_done

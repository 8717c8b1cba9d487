#!/bin/sh
# Pictures: --output-format=html (one self-contained page from the
# results model) and `iolite plot` (pages and SVG files from log files).
# The page is well-formed XML (xmllint); every number on it is the JSON
# report's for the same run, exactly in its data attributes and rounded
# in its text; it fetches nothing; Chromium renders it offline without a
# console message into a screenshot that is not blank; `iolite plot`
# draws fio 3.33's logs as it draws iolite's for the same job; a log of
# a million lines plots into a small file, every line a point.
. "$(dirname "$0")/test-lib.sh"

job="--name=a --ioengine=psync --filename=f --size=2m --bs=4k --rw=randrw"

# The runs with a runtime or a rate, fio's, and Chromium's screenshot
# start now, each in files (or a directory) of its own, and run beside the
# tests before theirs.
. "$TEST_DIR/lib-bg.sh"
. "$TEST_DIR/lib-chromium.sh"
have_zlib() {
	! "$IOLITE" --inflate-log=/dev/null 2>&1 | grep -q "has no zlib"
}
rated="--name=q --ioengine=psync --filename=qf --size=1m --bs=4k \
	--rw=read --rate_iops=400 --write_lat_log=q --write_bw_log=q \
	--write_iops_log=q --log_offset=1"
fz="--name=z --ioengine=psync --filename=zf --size=1m --bs=4k \
	--rw=randread --rate_iops=500 --write_lat_log=z \
	--log_offset=1 --log_store_compressed=1 --log_compression=16k"
hl="--name=q --ioengine=psync --filename=qf --size=1m --bs=4k \
	--rw=randrw --rate_iops=400 --runtime=700ms --time_based \
	--write_hist_log=q --log_hist_msec=100"
bg_run r '"$IOLITE" $job --filename=rf --runtime=1200ms --time_based \
	--output-format=json,html --output=r.json 2>r.err'
bg_run ten '"$IOLITE" --name=t --ioengine=psync --filename=tf --size=1m \
	--bs=4k --rw=randread --numjobs=10 --output-format=html >ten.html'
test_have_prereq CHROMIUM && command -v python3 >/dev/null 2>&1 &&
	bg_run shot 'bg_wait ten && shot ten.html ten.png'
if test_have_prereq FIO; then
	for t in fio:fio iol:"$IOLITE" hfio:fio hiol:"$IOLITE"; do
		case ${t%%:*} in h*) o=$hl ;; *) o=$rated ;; esac
		bg_run ${t%%:*} 'mkdir ${t%%:*} && cd ${t%%:*} &&
			"${t#*:}" $o --output-format=terse >/dev/null'
	done
	if have_zlib; then
		bg_run zfio 'mkdir zfio && cd zfio &&
			fio $fz --output-format=terse >/dev/null'
		bg_run ziol 'mkdir ziol && cd ziol &&
			"$IOLITE" $fz --output-format=terse >/dev/null'
	fi
fi
# a million-line log (awk's time, beside the waits)
bg_run m 'awk "BEGIN { for (i = 0; i < 1000000; i++)
	printf \"%d, %d, %d, 4096, %d, 0\\n\", i / 100, i % 1000 + 1,
		i % 3 == 0, (i * 7) % 100000 * 4096 }" >m_clat.1.log'

test_expect_success 'html alone goes to stdout: one page, nothing on stderr' '
	"$IOLITE" $job --output-format=html >a.html 2>err &&
	test_must_be_empty err &&
	head -n 1 a.html | grep -qx "<!DOCTYPE html>" &&
	tail -n 1 a.html | grep -qx "</html>" &&
	test $(grep -c "<html" a.html) = 1
'

test_expect_success 'beside other formats the page is FILE.html, as --output names' '
	bg_wait r &&
	test_must_be_empty r.err &&
	head -n 1 r.json | grep -qx "{" && test -s r.html &&
	! grep -q "<html" r.json &&
	"$IOLITE" $job --output-format=normal,html --output=n.html 2>err &&
	test_must_be_empty err &&
	grep -q "^Run status group 0" n.html &&
	head -n 1 n.html.html | grep -qx "<!DOCTYPE html>" &&
	"$IOLITE" $job --output-format=terse,html --output=plain &&
	test -s plain && test -s plain.html
'

test_expect_success 'html beside others on stdout is refused before any I/O' '
	test_must_fail "$IOLITE" --name=n --filename=nf --size=1m \
		--output-format=json,html >out 2>err &&
	grep -q "html with other formats needs --output" err &&
	test_path_is_missing nf && test_must_be_empty out &&
	test_must_fail "$IOLITE" --name=n --filename=nf --size=1m \
		--output-format=htm 2>err &&
	grep -q "valid: terse, json, json+, normal, html" err
'

test_expect_success_if XMLLINT 'the page is well-formed, whatever the names say' '
	xmllint --noout a.html r.html n.html.html &&
	"$IOLITE" --name="<b>&\"x\" $(printf "\\001")" --ioengine=psync \
		--filename=g --size=256k --description="a & b < c" \
		--output-format=html >odd.html &&
	xmllint --noout odd.html &&
	grep -q "&lt;b&gt;&amp;\"x\"" odd.html
'

test_expect_success 'self-contained: no script, nothing to fetch' '
	! grep -Eiq "<script|<link|<img|<iframe|src=|href=|url\(|@import" r.html
'

# attrs FILE NAME...: "v1 v2 ..." per element carrying data-NAME1
attrs() {
	f=$1
	shift
	re=
	for a in "$@"; do
		re="$re data-$a=\"\\([^\"]*\\)\""
	done
	out=
	n=1
	for a in "$@"; do
		out="$out\\$n "
		n=$((n + 1))
	done
	sed -n "s/.*<[a-z]*$re.*/$out/p" "$f"
}

test_expect_success_if JQ 'every figure on the page is the JSON report'"'"'s' '
	attrs r.html jobi dir iops bw ios runtime clat-mean >rows &&
	test $(wc -l <rows) = 2 &&
	while read i d iops bw ios rt mean; do
		jq -r ".jobs[$i].$d | \"\(.iops) \(.bw_bytes) \(.total_ios) \(.runtime) \(.clat_ns.mean)\"" r.json >want &&
		echo "$iops $bw $ios $rt $mean" >got &&
		awk "NR == FNR { split(\$0, w); next }
		     { for (k = 1; k <= 5; k++) if (\$k + 0 != w[k] + 0) exit 1 }" \
			want got || { cat want got; return 1; }
	done <rows
'

test_expect_success_if JQ 'every percentile on the page is the JSON report'"'"'s' '
	# fio'"'"'s 17 percentiles in blocks of 9 columns: they fit a page
	grep "<tr class=\"ph\">" r.html >heads &&
	test $(wc -l <heads) = 4 &&
	! awk -F"<th>" "NF - 2 > 9" heads | grep . &&
	grep -o "<td data-jobi=[^>]*>[^<]*" r.html >cells &&
	jq "[.jobs[0].read, .jobs[0].write | .clat_ns.percentile | length] | add" r.json >nr &&
	test $(wc -l <cells) = $(cat nr) &&
	sed "s/.*data-dir=\"\([a-z]*\)\" data-lat=\"\([a-z]*\)\" data-pct=\"\([0-9.]*\)\" data-ns=\"\([0-9]*\)\">\(.*\)/\1 \2 \3 \4 \5/" \
		cells >pct &&
	# every percentile of the JSON report: "dir kind pct ns"
	jq -r ".jobs[0] | to_entries[] | select(.key == \"read\" or .key == \"write\") |
		.key as \$d | .value | to_entries[] |
		select(.value | type == \"object\" and has(\"percentile\")) |
		(.key | rtrimstr(\"_ns\")) as \$k | .value.percentile | to_entries[] |
		\"\(\$d) \(\$k) \(.key) \(.value)\"" r.json >jpct &&
	awk "NR == FNR { want[\$1 \" \" \$2 \" \" \$3] = \$4; next }
	     { d = \$1; k = \$2; p = \$3; ns = \$4; n = \$5; u = \$6
	       w = (d \" \" k \" \" p) in want ? want[d \" \" k \" \" p] : \"null\"
	       if (ns != w) { print d, k, p \": \" ns \", JSON \" w; exit 1 }
	       # the text: the same value to 4 significant digits
	       m = u == \"ns\" ? 1 : u == \"ms\" ? 1e6 : u == \"s\" ? 1e9 : 1e3
	       if (!(n * m >= ns * 0.9994 && n * m <= ns * 1.0006)) {
		       print d, p \": shown \" n, u \" for \" ns \" ns\"; exit 1 } }" \
		jpct pct
'

test_expect_success_if JQ 'the CPU table is the JSON report'"'"'s' '
	attrs r.html jobi usr-cpu sys-cpu usr-ns-per-io >cpu &&
	read i usr sys own <cpu &&
	jq -r ".jobs[$i] | \"\(.usr_cpu) \(.sys_cpu) \(.iolite.usr_ns_per_io)\"" r.json >want &&
	echo "$usr $sys $own" | awk "NR == FNR { split(\$0, w); next }
		{ for (k = 1; k <= 3; k++) if (\$k + 0 != w[k] + 0) exit 1 }" \
		want -
'

# charts FILE: "id series" per chart
charts() {
	sed -n "s/.*data-chart=\"\([a-z-]*\)\" data-title=\"[^\"]*\" data-series=\"\([0-9]*\)\".*/\1 \2/p" "$1"
}

test_expect_success 'a 1.2 s run: latency, histogram, bandwidth, IOPS and latency over time' '
	charts r.html >c &&
	for id in lat-pct lat-hist bw-time iops-time lat-time; do
		test $(grep -c "^$id 1$" c) = 2 || { cat c; return 1; }
	done &&
	grep -q "^depth 1$" c && grep -q "^cpu [23]$" c
'

test_expect_success_if JQ 'the mean clat over time: each point within the run'"'"'s, their mean the run'"'"'s' '
	# a point a twentieth of the run (1.2 s: under 20 samples of 500 ms;
	# a loaded machine delays the sampler, so fewer may come)
	test "$(jq ".jobs[0].iolite.samples.read.iops | length" r.json)" -ge 10 &&
	jq -r ".jobs[0] | .read.clat_ns as \$c | .iolite.samples.read |
		[.clat_mean_ns, .iops] | transpose[] |
		select(.[0] > 0) | \"\(.[0]) \(.[1]) \(\$c.min) \(\$c.max) \(\$c.mean)\"" r.json >pts &&
	test $(wc -l <pts) -ge 5 &&
	# weighted by the I/Os each point counts, within 25% of the run'"'"'s mean
	awk "{ if (\$1 < \$3 || \$1 > \$4) bad = 1; s += \$1 * \$2; n += \$2; m = \$5 }
	     END { r = s / n / m; exit bad || r < 0.75 || r > 1.25 }" pts
'

test_expect_success 'ten jobs of a group share their charts; the page stays small' '
	bg_wait ten &&
	charts ten.html >c &&
	grep -q "^lat-pct 10$" c && grep -q "^depth 10$" c &&
	grep -q "^bw-jobs 1$" c &&
	# numjobs clones share a name: told apart in legends and tables
	grep -o "<g data-s=\"t #[0-9]*\"" ten.html | sort -u >labels &&
	test $(wc -l <labels) = 10 && grep -q "\"t #10\"" labels &&
	grep -q "<tr data-jobi=\"9\"[^>]*><td>t #10</td>" ten.html &&
	# each job'"'"'s bar in its colour in the other charts
	sed -n "/data-chart=\"bw-jobs\"/,/<\/svg>/p" ten.html |
		grep -o "<rect fill=\"#[0-9A-F]*\"" | sort -u >fills &&
	test $(wc -l <fills) -ge 7 &&
	one=$(wc -c <a.html) && ten=$(wc -c <ten.html) &&
	echo "# page sizes: 1 job $one bytes, 10 jobs $ten bytes" &&
	test $ten -lt 1000000
'

test_expect_success 'a sweep'"'"'s notes, the same at each point but for its values, shown once' '
	"$IOLITE" --sweep=bs=4k,8k --name=s --ioengine=psync --filename=sf \
		--size=8m --rw=randread --runtime=100ms --time_based --invalidate=0 \
		--output-format=html >sw.html &&
	grep -c "<li>job .s. is buffered" sw.html >n &&
	test "$(cat n)" = 1 &&
	grep -c "<li>job .s. at bs=4k was measured for [0-9]* ms.*(and 1 more like it, at other points" sw.html >n &&
	test "$(cat n)" = 1 &&
	! grep -q "<li>job .s. at bs=8k was measured" sw.html
'

command -v python3 >/dev/null 2>&1 ||
	test_skip_reason="python3 is not installed (Debian package python3)"
test_expect_success_if CHROMIUM 'Chromium renders the page offline, no console message, not blank' '
	bg_wait shot &&
	! grep -E "CONSOLE|Failed to load|Uncaught" ten.png.err &&
	python3 "$TEST_DIR/pngcheck.py" ten.png 0072B2 D55E00
'
test_skip_reason=

# --- iolite plot --------------------------------------------------------

test_expect_success_if FINDMNT 'the targets: the file system a job'"'"'s file is on, its disk as sysfs says' '
	"$IOLITE" --name=t --ioengine=psync --filename=tf --size=1m \
		--rw=randread --output-format=html >t.html &&
	sed -n "/<h2 id=\"targets\">/,\$p" t.html >targets &&
	fs=$(findmnt -n -o FSTYPE -T tf) &&
	grep -q "<code>tf</code></td><td data-fs=\"$fs\">" targets &&
	src=$(findmnt -n -o SOURCE -T tf) &&
	grep -q "<td>$src</td>" targets &&
	# a disk under it: the scheduler sysfs has in brackets
	disk=$(sed -n "s/.*<tr data-disk=\"\([^\"]*\)\".*/\1/p" targets | head -n1) &&
	if test -n "$disk" && test -r "/sys/block/$disk/queue/scheduler"
	then
		sched=$(sed "s/.*\[\(.*\)\].*/\1/" "/sys/block/$disk/queue/scheduler") &&
		grep -q "data-disk=\"$disk\" data-scheduler=\"$sched\"" targets
	fi
'

test_expect_success 'plot: iolite'"'"'s logs, figures from every line, the slowest I/Os' '
	"$IOLITE" --name=l --ioengine=psync --filename=f --size=1m --bs=4k \
		--rw=randread --write_lat_log=l --write_bw_log=l \
		--write_iops_log=l --log_offset=1 --output-format=terse >/dev/null &&
	"$IOLITE" plot l_clat.1.log l_bw.1.log l_iops.1.log -o l.html 2>err &&
	test_must_be_empty err &&
	grep -q "data-dir=\"read\" data-n=\"256\"" l.html &&
	test $(grep -c "data-dir=\"read\" data-n=\"256\"" l.html) = 3 &&
	sed -n "/<table class=\"slow\">/,/<\/table>/p" l.html >slow &&
	test $(grep -c "^<tr data-ns" slow) = 20 &&
	grep -q "<th>offset</th>" slow &&
	charts l.html >c &&
	test "$(cat c)" = "time 1
pct 1
time 1
time 1"
'

test_expect_success 'plot: a log of windows (log_avg_msec) gets no percentiles, and says why' '
	"$IOLITE" --name=w --ioengine=null --size=64m --bs=4k --rw=randread \
		--rate_iops=2000 --time_based --runtime=1s --write_lat_log=w \
		--log_avg_msec=200 --output-format=terse >/dev/null &&
	"$IOLITE" plot w_clat.1.log -o w.html 2>err &&
	test_must_be_empty err &&
	grep -q "data-no-pct=\"windows\">This log holds windows" w.html &&
	! grep -q "data-chart=\"pct\"" w.html &&
	! grep -q "<th>p99</th>" w.html &&
	# the windows'"'"' own range, the log'"'"'s lowest and highest line
	lo=$(cut -d, -f2 w_clat.1.log | sort -n | head -n1 | tr -d " ") &&
	hi=$(cut -d, -f2 w_clat.1.log | sort -n | tail -n1 | tr -d " ") &&
	n=$(wc -l <w_clat.1.log) &&
	grep -q "<tr data-dir=\"read\" data-n=\"$n\" data-min=\"$lo\" data-max=\"$hi\">" w.html
'

test_expect_success_if XMLLINT 'plot: a page and SVG files, all well-formed' '
	xmllint --noout l.html &&
	mkdir svg &&
	"$IOLITE" plot --format=svg -o svg l_clat.1.log l_iops.1.log >list &&
	test $(wc -l <list) = 3 &&
	for f in $(cat list); do
		xmllint --noout "$f" || return 1
		head -n 1 "$f" | grep -q "^<?xml" || return 1
	done
'

test_expect_success 'plot: bad input is refused by name and line, nothing written' '
	printf "{ \"fio version\" : \"x\" }\n" >r_lat.1.log &&
	test_must_fail "$IOLITE" plot r_lat.1.log -o x.html 2>err &&
	grep -Eq "no \"jobs\" in it|libjansson-dev" err &&
	printf "1, 2, 0, 4096, 0\n3, x, 0, 4096, 0\n" >b_clat.1.log &&
	test_must_fail "$IOLITE" plot b_clat.1.log -o x.html 2>err &&
	grep -q "^iolite: plot: b_clat.1.log:2: not a log line" err &&
	cp l_clat.1.log something.txt &&
	test_must_fail "$IOLITE" plot l_clat.1.log something.txt -o x.html 2>err &&
	grep -q "cannot tell what it logs" err &&
	test_must_fail "$IOLITE" plot --format=svg l_clat.1.log 2>err &&
	grep -q "directory -o names" err &&
	test_path_is_missing x.html
'

# structure DIR: "file|chart|title|series|end of the data's time range"
structure() {
	for f in "$1"/*.svg; do
		sed -n "s/.*data-chart=\"\([a-z-]*\)\" data-title=\"\([^\"]*\)\" data-series=\"\([0-9]*\)\".*data-xd=\"\([^ ]*\) \([^\"]*\)\".*/$(basename "$f")|\1|\2|\3|\5/p" "$f"
	done
}

# same_charts A B: the same charts, titles and series; the time ranges
# within 30% (both tools ran the same rated job)
same_charts() {
	structure "$1" >"$1.s" && structure "$2" >"$2.s" &&
	test -s "$1.s" &&
	cut -d"|" -f1-4 "$1.s" >"$1.c" && cut -d"|" -f1-4 "$2.s" >"$2.c" &&
	test_cmp "$1.c" "$2.c" &&
	paste -d"|" "$1.s" "$2.s" | awk -F"|" "{ a = \$5; b = \$10
		if (a > 1.3 * b + 50 || b > 1.3 * a + 50) { print; bad = 1 } }
		END { exit bad }"
}

test_expect_success_if FIO 'plot: fio 3.33'"'"'s logs give the charts iolite'"'"'s give' '
	mkdir fio.svg iol.svg &&
	bg_wait fio && bg_wait iol &&
	for t in fio iol; do
		"$IOLITE" plot --format=svg -o $t.svg $t/q_lat.1.log \
			$t/q_clat.1.log $t/q_slat.1.log $t/q_bw.1.log \
			$t/q_iops.1.log >/dev/null || return 1
	done &&
	ls fio.svg >fl && ls iol.svg >il && test_cmp fl il &&
	test $(wc -l <fl) = 6 &&
	same_charts fio.svg iol.svg
'

have_zlib || test_skip_reason="this build has no zlib (zlib1g-dev)"
test_expect_success_if FIO 'plot: compressed logs (.fz), fio'"'"'s and iolite'"'"'s' '
	mkdir zfio.svg ziol.svg &&
	bg_wait zfio && bg_wait ziol &&
	for t in zfio ziol; do
		"$IOLITE" plot --format=svg -o $t.svg $t/z_clat.1.log.fz \
			>/dev/null || return 1
	done &&
	same_charts zfio.svg ziol.svg &&
	"$IOLITE" plot ziol/z_clat.1.log.fz -o z.html &&
	grep -q "data-dir=\"read\" data-n=\"256\"" z.html
'
test_skip_reason=

# hist_pcts PAGE DIR: "p ns" for each percentile of DIR's row
hist_pcts() {
	sed -n "s/.*data-dir=\"$2\" data-windows=[^>]*>//p" "$1" |
		sed "s/<td data-pct/\\
&/g" | sed -n "s/^<td data-pct=\"\([0-9.]*\)\" data-ns=\"\([0-9]*\)\".*/\1 \2/p"
}

# json_pcts FILE DIR: the same from a JSON report's clat_ns, but those
# the report clamped to the largest latency (the log has its bucket only)
json_pcts() {
	for p in 50 90 99 99.9; do
		jq -r ".jobs[0].$2.clat_ns | .percentile[\"$(printf %.6f $p)\"] as \$v |
			if \$v == .max then empty else \"$p \(\$v)\" end" "$1"
	done
}

test_expect_success_if JQ 'plot: histogram logs, the percentiles of the JSON report' '
	# one window (a short last one is left out, as fio does): every I/O
	"$IOLITE" --name=h --ioengine=psync --filename=hf --size=16m --bs=4k \
		--rw=randrw --write_hist_log=h --log_hist_msec=600000 \
		--output-format=json --output=h.json &&
	"$IOLITE" plot h_clat_hist.1.log -o h.html 2>err &&
	test_must_be_empty err &&
	for d in read write; do
		n=$(jq -r ".jobs[0].$d.clat_ns.N" h.json) &&
		grep -q "data-dir=\"$d\" data-windows=\"[0-9]*\" data-n=\"$n\"" h.html &&
		hist_pcts h.html $d >got &&
		json_pcts h.json $d >want &&
		test $(wc -l <want) -ge 3 &&
		join want got >both &&
		test $(wc -l <both) = $(wc -l <want) &&
		awk "\$2 != \$3 { print; bad = 1 } END { exit bad }" both ||
			return 1
	done &&
	grep -q "data-windows=\"1\"" h.html &&
	charts h.html >c &&
	test "$(cat c)" = "hist-time 4
hist-time 4
pct 2
hist 2"
'

test_expect_success_if JQ 'plot: coarse histogram logs, percentiles within their buckets' '
	"$IOLITE" --name=c --ioengine=psync --filename=hf --size=8m --bs=4k \
		--rw=randread --write_hist_log=c \
		--log_hist_msec=600000 --log_hist_coarseness=3 \
		--output-format=json --output=c.json &&
	test $(head -n 1 c_clat_hist.1.log | tr , "\n" | wc -l) = $((3 + 1856 / 8)) &&
	"$IOLITE" plot c_clat_hist.1.log -o c.html &&
	grep -q "log_hist_coarseness=3" c.html &&
	hist_pcts c.html read >got && json_pcts c.json read >want &&
	test $(wc -l <want) -ge 3 &&
	join want got | awk "{ r = \$3 / \$2; if (r > 1.13 || r < 0.88) bad = 1 }
		END { exit bad }"
'

test_expect_success 'plot: bad histogram logs are refused by name and line' '
	printf "100, 0, 4096, 1, 2, 3\n" >b_clat_hist.1.log &&
	test_must_fail "$IOLITE" plot b_clat_hist.1.log -o x.html 2>err &&
	grep -q "^iolite: plot: b_clat_hist.1.log:1: not a histogram log line" err &&
	: >z_clat_hist.1.log.fz &&
	test_must_fail "$IOLITE" plot z_clat_hist.1.log.fz -o x.html 2>err &&
	grep -q "compressed histogram logs are not supported yet" err &&
	test_path_is_missing x.html
'

test_expect_success_if FIO 'plot: fio 3.33'"'"'s histogram logs give the charts iolite'"'"'s give' '
	mkdir hfio.svg hiol.svg &&
	bg_wait hfio && bg_wait hiol &&
	for t in hfio hiol; do
		"$IOLITE" plot --format=svg -o $t.svg $t/q_clat_hist.1.log \
			>/dev/null || return 1
	done &&
	ls hfio.svg >fl && ls hiol.svg >il && test_cmp fl il &&
	test $(wc -l <fl) = 4 &&
	mkdir hfio.t hiol.t && cp hfio.svg/*-hist-time* hfio.t &&
	cp hiol.svg/*-hist-time* hiol.t && same_charts hfio.t hiol.t &&
	structure hfio.svg | cut -d"|" -f1-4 >fs &&
	structure hiol.svg | cut -d"|" -f1-4 >is && test_cmp fs is &&
	"$IOLITE" plot hfio/q_clat_hist.1.log -o hf.html &&
	for d in 0 1; do
		n=$(awk -F, "\$2 == $d { for (i = 4; i <= NF; i++) s += \$i }
			END { print s + 0 }" hfio/q_clat_hist.1.log) &&
		test $n -gt 0 &&
		grep -q "data-windows=\"[0-9]*\" data-n=\"$n\"" hf.html || return 1
	done
'

# (its time is in doc/performance.md, not asserted)
test_expect_success 'plot: a million-line log, a small page, every point, exact figures' '
	bg_wait m &&
	test $(wc -l <m_clat.1.log) = 1000000 &&
	"$IOLITE" plot m_clat.1.log -o m.html &&
	test $(wc -c <m.html) -lt 1000000 &&
	grep -q "<g data-s=\"read\" data-n=\"666666\" data-marks=\"[0-9]*\">" m.html &&
	grep -q "<g data-s=\"write\" data-n=\"333334\" data-marks=\"[0-9]*\">" m.html &&
	# the first line is a write; the legend is in the directions'"'"' order
	test "$(grep -o "<g data-s=\"[a-z]*\"" m.html | head -n 2 | tr -d "\n")" = \
		"<g data-s=\"read\"<g data-s=\"write\"" &&
	grep -q "data-dir=\"read\" data-n=\"666666\" data-min=\"1\" data-max=\"1000\"" m.html &&
	grep -q "data-dir=\"write\" data-n=\"333334\" data-min=\"1\" data-max=\"1000\"" m.html &&
	sed -n "/data-dir=\"read\"/p" m.html | head -n 1 >row &&
	grep -q "<td>500.0 ns</td><td>900.0 ns</td><td>990.0 ns</td><td>999.0 ns</td><td>1.000 .*s</td>" row
'

test_done

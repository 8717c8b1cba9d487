#!/bin/sh
# Log files keep every I/O at the highest rate this machine gives (the
# null engine, libaio on a file in /dev/shm): a line per I/O the JSON
# counts, per direction; windows that cover the whole run; percentiles
# worked out from the lines agree with the report's within the
# histogram's resolution; fio's histogram script reads them; the time
# the jobs waited for the writer is reported; a file that cannot be
# written is an error that names it, after the report, with the other
# logs complete.
. "$(dirname "$0")/test-lib.sh"

# lines FILE: its line count
lines() {
	wc -l <"$1" | tr -d " "
}

# per_ddir FILE: "reads writes" among its lines
per_ddir() {
	awk -F", " '{ n[$3]++ } END { printf "%d %d\n", n[0], n[1] }' "$1"
}

# ios JSON DIR: total_ios of the first job's direction
ios() {
	jq ".jobs[0].$2.total_ios" "$1"
}

# every log of prefix P has a line per I/O of out.json, per direction
# (slat: none when the engine completes inline)
all_lines() {
	r=$(ios out.json read) && w=$(ios out.json write) &&
	for k in lat clat bw iops $2; do
		test "$(per_ddir "$1_$k.1.log")" = "$r $w" ||
			{ echo "$1_$k.1.log: $(per_ddir "$1_$k.1.log"), want $r $w"
			  return 1; }
	done
}

test_expect_success_if JQ 'null engine, queued: every log has every I/O' '
	"$IOLITE" --name=n --ioengine=null --rw=randrw --bs=4k --size=1g \
		--iodepth=8 --write_lat_log=q --write_bw_log=q \
		--write_iops_log=q --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(($(ios out.json read) + $(ios out.json write)))" = 262144 &&
	all_lines q slat &&
	# line by line: lat = clat + slat, same time, direction, size
	paste -d"|" q_lat.1.log q_clat.1.log q_slat.1.log | awk -F"|" "
		{ split(\$1, a, \", \"); split(\$2, b, \", \");
		  split(\$3, c, \", \");
		  if (a[2] != b[2] + c[2] || a[1] != b[1] || a[1] != c[1] ||
		      a[3] != b[3] || a[4] != c[4]) bad++ }
		END { exit bad > 0 }" &&
	jq -e ".jobs[0].iolite.log_dropped == 0 and
	       (.jobs[0].iolite.log_wait_ms | type) == \"number\"" out.json
'

test_expect_success_if JQ 'null engine, inline: no slat lines, as fio' '
	"$IOLITE" --name=i --ioengine=null --rw=randrw --bs=4k --size=1g \
		--write_lat_log=i --write_bw_log=i --write_iops_log=i \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	all_lines i &&
	test_must_be_empty i_slat.1.log &&
	# lat is clat: the one clock read issues and completes
	cmp i_lat.1.log i_clat.1.log
'

# libaio on a page-cached file in /dev/shm, as fast as it goes for 1 s
shm=/dev/shm/iolite-t1011.$$
if test_have_prereq LIBAIO && dd if=/dev/zero of=$shm bs=1M count=64 \
	2>/dev/null; then
	test_at_exit="rm -f $shm"
	test_skip_reason=
else
	test_skip_reason="needs libaio and /dev/shm"
fi
test_expect_success_if JQ 'libaio on /dev/shm: every log has every I/O' "
	\"\$IOLITE\" --name=a --ioengine=libaio --filename=$shm --rw=randrw \
		--bs=4k --iodepth=16 --iodepth_batch_submit=4 \
		--iodepth_batch_complete_max=4 --time_based --runtime=1 \
		--write_lat_log=a --write_bw_log=a --write_iops_log=a \
		--log_offset=1 --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test \"\$(ios out.json read)\" -gt 1000 &&
	all_lines a slat &&
	# offsets: 4k aligned, inside the file
	awk -F', ' '\$5 % 4096 || \$5 >= 67108864 { bad++ } END { exit bad > 0 }' \
		a_clat.1.log
"
test_skip_reason=

test_expect_success_if JQ 'windows cover the whole run, at every step' '
	"$IOLITE" --name=w --ioengine=null --rw=randrw --bs=4k --size=1g \
		--iodepth=4 --time_based --runtime=1 --log_avg_msec=100 \
		--write_lat_log=w --write_bw_log=w --write_iops_log=w \
		--write_hist_log=w --log_hist_msec=100 \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	ms=$(jq ".jobs[0].job_runtime" out.json) &&
	for k in lat clat slat bw iops clat_hist; do
		for d in 0 1; do
			if test $k = clat_hist; then c=2; else c=3; fi
			# times 100, 200, ... with none missing, to the end
			awk -F", " -v c=$c -v d=$d -v end="$ms" "
				\$c == d { n++; if (\$1 != n * 100) bad++ }
				END { if (bad || n * 100 < end - 100) {
					print FILENAME, d, n, bad; exit 1 } }" \
				w_$k.1.log || return 1
		done
	done &&
	# the histogram windows hold the run: all but a short tail
	total=$(($(ios out.json read) + $(ios out.json write))) &&
	sum=$(awk -F, "{ for (i = 4; i <= NF; i++) s += \$i }
		       END { printf \"%d\", s }" w_clat_hist.1.log) &&
	test "$sum" -le "$total" && test $((sum * 10)) -ge $((total * 8))
'

# pct_check LOG JSONPATH: for each percentile the report lists, the
# value at its rank among the log lines is the report's within one
# histogram bucket (1/64 of the value's power of two).
pct_check() {
	cut -d, -f2 "$1" | sort -n >sorted &&
	n=$(lines sorted) &&
	jq -r "$2.percentile | to_entries[] | \"\(.key) \(.value)\"" \
		out.json >want &&
	test "$(lines want)" -ge 10 &&
	awk -v n="$n" "
		NR == FNR { p[NR] = \$1; v[NR] = \$2; k = NR; next }
		{ s[FNR] = \$1 + 0 }
		END {
			for (i = 1; i <= k; i++) {
				r = p[i] / 100 * n; ri = int(r);
				if (ri < r) ri++;
				if (ri < 1) ri = 1;
				got = s[ri]; d = got - v[i];
				if (d < 0) d = -d;
				if (d > v[i] / 64 + 1) {
					print p[i], got, v[i]; bad++ }
			}
			exit bad > 0
		}" want sorted
}

test_expect_success_if JQ 'percentiles from the logs are the report'\''s' '
	"$IOLITE" --name=p --ioengine=null --rw=randread --bs=4k --size=1g \
		--iodepth=8 --lat_percentiles=1 --write_lat_log=p \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(lines p_lat.1.log)" = 262144 &&
	pct_check p_lat.1.log .jobs[0].read.lat_ns &&
	pct_check p_clat.1.log .jobs[0].read.clat_ns
'

# fio's own script for histogram logs (Debian's fio package, docs)
histo=/usr/share/doc/fio/fio-histo-log-pctiles.py.gz
if ! command -v python3 >/dev/null || ! test -r $histo; then
	test_skip_reason="no python3 or $histo"
fi
test_expect_success_if JQ 'fio-histo-log-pctiles.py reads the histogram log' "
	zcat $histo >histo.py &&
	\"\$IOLITE\" --name=h --ioengine=null --rw=randread --bs=4k \
		--size=1g --iodepth=8 --time_based --runtime=1 \
		--write_hist_log=h --log_hist_msec=250 \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	python3 histo.py --log-hist-msec 250 --time-quantum 2 \
		--percentiles 50 99 -- h_clat_hist.1.log >pct 2>&1 &&
	tail -n 1 pct | tr -d ' ' >row &&
	total=\$(ios out.json read) &&
	samples=\$(cut -d, -f2 row) &&
	test \"\$samples\" -le \"\$total\" &&
	test \$((samples * 10)) -ge \$((total * 8)) &&
	# its median and 99th (us, interpolated in the bucket) and ours
	for i in 3:50 4:99; do
		got=\$(cut -d, -f\${i%:*} row) &&
		want=\$(jq \".jobs[0].read.clat_ns.percentile[\\\"\${i#*:}.000000\\\"]\" out.json) &&
		awk -v g=\"\$got\" -v w=\"\$want\" 'BEGIN {
			d = g * 1000 - w; if (d < 0) d = -d;
			exit d > w / 32 + 2 }' || { cat pct; return 1; }
	done
"
test_skip_reason=

# On one CPU the writer takes turns with the job: it falls behind, and
# the job waits for it (the pool of chunks grows only when the writer runs)
if ! command -v taskset >/dev/null; then
	test_skip_reason="no taskset (util-linux)"
fi
test_expect_success_if JQ 'the time the job waited for the writer: JSON and note' '
	cpu=$(taskset -cp $$ | sed "s/.*: //; s/[-,].*//") &&
	taskset -c "$cpu" "$IOLITE" --name=t --ioengine=null --rw=read --bs=4k \
		--size=1g --write_lat_log=t --write_bw_log=t \
		--write_iops_log=t --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	all_lines t &&
	ms=$(jq ".jobs[0].iolite.log_wait_ms" out.json) &&
	jq -r ".iolite.notes[]" out.json >notes &&
	if test "$(jq ".jobs[0].iolite.log_wait_ms > 0" out.json)" = true
	then
		grep "^log files: the jobs waited $(printf %.1f "$ms") ms for the log writer ([0-9]* times): their I/O was held up meanwhile$" notes
	else
		! grep "waited" notes
	fi
'
test_skip_reason=

test_expect_success_if JQ 'log_drop_when_behind: counted in JSON and notes' '
	"$IOLITE" --name=d --ioengine=null --rw=read --bs=4k --size=1g \
		--write_lat_log=d --log_drop_when_behind=1 \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	dropped=$(jq ".jobs[0].iolite.log_dropped" out.json) &&
	test "$(($(lines d_clat.1.log) + dropped))" = 262144 &&
	if test "$dropped" -gt 0; then
		jq -r ".iolite.notes[]" out.json |
			grep "$dropped entries dropped (log_drop_when_behind"
	fi &&
	"$IOLITE" --cmdhelp=log_drop_when_behind >help &&
	grep "iolite extension" help
'

# ---- files that cannot be written ----

test_at_exit="${test_at_exit:+$test_at_exit; }umount \"$TRASH/small\" 2>/dev/null; umount \"$TRASH/ro\" 2>/dev/null"
if test_have_prereq ROOT && mkdir "$TRASH/small" "$TRASH/ro" &&
   mount -t tmpfs -o size=256k iolite-test "$TRASH/small" 2>/dev/null &&
   mount -t tmpfs -o ro iolite-test "$TRASH/ro" 2>/dev/null; then
	test_skip_reason=
else
	test_skip_reason="needs root to mount a tmpfs"
fi

test_expect_success 'a log that fills its file system: named, report kept' '
	test_must_fail "$IOLITE" --name=f --ioengine=null --rw=read --bs=4k \
		--size=1g --number_ios=100000 --write_lat_log=small/x \
		--write_iops_log=big >out 2>err &&
	umount small &&
	grep "^iolite: cannot write log files* .small/x_lat.1.log. (No space left on device)" err &&
	test "$(lines err)" = 1 &&
	grep "issued rwts: total=100000," out &&
	grep "not written in full: .small/x_lat.1.log. (No space left on device: it ends after" out &&
	# the other log is whole
	test "$(lines big_iops.1.log)" = 100000
'

test_expect_success 'a read-only log directory: refused before any I/O' '
	test_must_fail "$IOLITE" --name=r --filename=data --size=64k \
		--rw=write --write_bw_log=ro/b >out 2>err &&
	grep "^iolite: <cmdline>:[0-9]*: option .write_bw_log.: cannot create log file .ro/b_bw.1.log.: Read-only file system" err &&
	test_path_is_missing data &&
	test_must_be_empty out &&
	(cd ro && test_must_fail "$IOLITE" --name=r --filename=../data \
		--size=64k --rw=write --bandwidth-log) >out 2>err &&
	grep "^iolite: option .--bandwidth-log.: cannot create log file .agg-read_bw.log.: Read-only file system" err &&
	test_path_is_missing data
'
test_skip_reason=

test_done

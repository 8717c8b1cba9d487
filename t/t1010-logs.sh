#!/bin/sh
# Log files as fio writes them: names, line format, one line per I/O or
# per log_avg_msec window, values that agree with the report, histogram
# logs, and fio's own plotting scripts reading them.
. "$(dirname "$0")/test-lib.sh"

# field $2 (1-based) summed over the lines of file $1
sum_col() {
	awk -F", " -v c="$2" '{ s += $c } END { printf "%d\n", s }' "$1"
}

# The null engine's time_based jobs would spin a CPU for the whole
# runtime: a pause of 10 ms every 1000 I/Os leaves it idle, and each
# window still holds thousands of I/Os.
T="--thinktime=10ms --thinktime_blocks=1000"

test_expect_success 'per-I/O logs: names, a line per I/O, fio columns' '
	"$IOLITE" --name=p --ioengine=psync --filename=f --size=256k \
		--rw=randrw --bs=4k --write_lat_log=p --write_bw_log=p \
		--write_iops_log=p >out 2>err &&
	test_must_be_empty err &&
	for k in lat clat slat bw iops; do
		test -f p_$k.1.log || return 1
	done &&
	test "$(wc -l <p_clat.1.log)" = 64 &&
	test "$(wc -l <p_lat.1.log)" = 64 &&
	test "$(wc -l <p_bw.1.log)" = 64 &&
	test "$(sum_col p_iops.1.log 2)" = 64 &&
	# a sync engine has no submission latency: empty, as fio
	test_must_be_empty p_slat.1.log &&
	! grep -Ev "^[0-9]+, [0-9]+, [01], 4096, 0$" p_clat.1.log &&
	reads=$(sed -n "s/.*issued rwts: total=\([0-9]*\),.*/\1/p" out) &&
	test "$(grep -c ", 0, 4096, 0$" p_clat.1.log)" = "$reads"
'

test_expect_success_if JQ 'per-I/O latencies are the ones the report counts' '
	"$IOLITE" --name=v --ioengine=psync --filename=f --size=256k \
		--rw=read --bs=4k --write_lat_log=v --output-format=json \
		>out.json 2>err &&
	test_must_be_empty err &&
	sort -t, -k2 -n v_clat.1.log >sorted &&
	min=$(head -n 1 sorted | cut -d, -f2 | tr -d " ") &&
	max=$(tail -n 1 sorted | cut -d, -f2 | tr -d " ") &&
	test "$min" = "$(jq ".jobs[0].read.clat_ns.min" out.json)" &&
	test "$max" = "$(jq ".jobs[0].read.clat_ns.max" out.json)" &&
	mean=$(awk -F", " "{ s += \$2 } END { printf \"%d\", s / NR }" v_clat.1.log) &&
	jq -e ".jobs[0].read.clat_ns.mean - $mean | fabs < 2" out.json >/dev/null &&
	# per-I/O bandwidth: bytes * 10^6 / clat, as fio
	paste -d, v_clat.1.log v_bw.1.log |
	awk -F", *" "{ if (int(4096 * 1000000 / (\$2 ? \$2 : 1)) != \$7) bad++ }
		     END { exit bad }"
'

test_expect_success 'log_offset adds the offset column' '
	"$IOLITE" --name=o --ioengine=psync --filename=f --size=64k --rw=write \
		--bs=8k --write_lat_log=o --log_offset=1 >out 2>err &&
	cut -d, -f5 o_clat.1.log | tr -d " " | sort -n >offs &&
	seq 0 8192 57344 >want &&
	test_cmp want offs &&
	! grep -Ev "^[0-9]+, [0-9]+, 1, 8192, [0-9]+, 0$" o_clat.1.log
'

test_expect_success_if JQ 'log_avg_msec: a line per window, values as the report' '
	"$IOLITE" --name=w --ioengine=null --size=1g --rw=randrw $T \
		--runtime=2 --time_based --write_bw_log=w --write_iops_log=w \
		--write_lat_log=w --log_avg_msec=250 --output-format=json \
		>out.json 2>err &&
	test_must_be_empty err &&
	for k in bw iops clat lat; do
		n=$(grep -c ", 0, 0, 0$" w_$k.1.log) &&
		test "$n" -ge 7 && test "$n" -le 9 &&
		test "$(grep -c ", 1, 0, 0$" w_$k.1.log)" = "$n" || return 1
	done &&
	# windows at 250 ms steps
	grep ", 0, 0, 0$" w_bw.1.log | head -n 3 | cut -d, -f1 >t &&
	printf "250\n500\n750\n" >want &&
	test_cmp want t &&
	# the windows add up to the I/O the report counts
	ios=$(jq ".jobs[0].read.total_ios" out.json) &&
	win=$(grep ", 0, 0, 0$" w_iops.1.log |
	      awk -F", " "{ s += \$2 * 0.25 } END { printf \"%d\", s }") &&
	test $((win * 10)) -ge $((ios * 8)) &&
	test $((win * 10)) -le $((ios * 12)) &&
	# bandwidth: the mean window is the report bandwidth (KiB/s)
	bw=$(jq ".jobs[0].read.bw" out.json) &&
	mbw=$(grep ", 0, 0, 0$" w_bw.1.log |
	      awk -F", " "{ s += \$2 } END { printf \"%d\", s / NR }") &&
	test $((mbw * 10)) -ge $((bw * 8)) &&
	test $((mbw * 10)) -le $((bw * 12)) &&
	# latency windows lie between the report min and max
	min=$(jq ".jobs[0].read.clat_ns.min" out.json) &&
	max=$(jq ".jobs[0].read.clat_ns.max" out.json) &&
	grep ", 0, 0, 0$" w_clat.1.log |
	awk -F", " -v lo="$min" -v hi="$max" \
		"\$2 < lo || \$2 > hi { bad++ } END { exit bad }"
'

test_expect_success_if JQ 'log_max_value logs the window maximum' '
	"$IOLITE" --name=x --ioengine=null --size=1g --rw=read $T \
		--runtime=1 --time_based --write_lat_log=x --log_avg_msec=200 \
		--log_max_value=1 --output-format=json >out.json 2>err &&
	max=$(jq ".jobs[0].read.clat_ns.max" out.json) &&
	mean=$(jq ".jobs[0].read.clat_ns.mean | floor" out.json) &&
	awk -F", " -v hi="$max" -v m="$mean" \
		"\$2 > hi || \$2 < m { bad++ } END { exit bad }" x_clat.1.log &&
	test "$(wc -l <x_clat.1.log)" -ge 4
'

# fio 3.33 honours log_avg_msec=2 (about 400 lines a second here, loaded);
# iolite's reporter woke every 10 ms, so no two of its lines were less
# than 10 ms apart: it now wakes as often as the shortest window asks.
# An idle machine gives some 450 lines 2 ms apart in a second; a loaded
# one delays some wake-ups (the suite's four scripts at once: fewer than
# 150 lines), so the test asks for 30 gaps of 2 ms, which a 10 ms tick
# cannot give at all, not for a count.
test_expect_success 'log_avg_msec below 10: honoured for bw and iops logs' '
	"$IOLITE" --name=ms --ioengine=null --size=1g --rw=read --runtime=1 \
		--time_based --write_bw_log=ms --write_iops_log=ms \
		--log_avg_msec=2 >out 2>err &&
	test_must_be_empty err &&
	for f in ms_bw.1.log ms_iops.1.log
	do
		n=$(awk -F", " "NR > 1 && \$1 - p == 2 { n++ } { p = \$1 } END { print n + 0 }" $f) &&
		echo "$f: $n gaps of 2 ms, $(wc -l <$f) lines" &&
		test "$n" -ge 30 || exit 1
	done &&
	# the windows end on the 2 ms grid (but the last: the job ended at
	# some other moment, and a window of at least half the length that
	# ends there is logged then; a loaded CI makes it odd)
	sed "\$d" ms_bw.1.log | awk -F", " "\$1 % 2 { bad++ } END { exit bad }"
'

test_expect_success 'numjobs: a file per instance, per_job_logs=0 shares one' '
	"$IOLITE" --name=n --ioengine=null --size=1m --rw=read --numjobs=2 \
		--write_iops_log=n >out 2>err &&
	test "$(sum_col n_iops.1.log 2)" = 256 &&
	test "$(sum_col n_iops.2.log 2)" = 256 &&
	"$IOLITE" --name=s --ioengine=null --size=1m --rw=read --numjobs=2 \
		--write_iops_log=s --per_job_logs=0 >out 2>err &&
	test_path_is_missing s_iops.1.log &&
	test "$(sum_col s_iops.log 2)" = 512
'

test_expect_success 'a bare write_*_log is named after the job' '
	cat >bare.fio <<-EOF &&
	[bare]
	ioengine=null
	size=64k
	write_bw_log
	write_lat_log
	EOF
	"$IOLITE" bare.fio >out 2>err &&
	test_must_be_empty err &&
	test "$(wc -l <bare_bw.1.log)" = 16 &&
	test -f bare_clat.1.log &&
	"$IOLITE" --name=cl --ioengine=null --size=64k --write_iops_log \
		--rw=write >out 2>err &&
	test_must_be_empty err &&
	test "$(wc -l <cl_iops.1.log)" = 16
'

test_expect_success 'histogram log: fio buckets per log_hist_msec window' '
	"$IOLITE" --name=h --ioengine=null --size=1g --rw=read --runtime=1 \
		$T --time_based --write_hist_log=h --log_hist_msec=250 \
		>out 2>err &&
	test_must_be_empty err &&
	n=$(wc -l <h_clat_hist.1.log) &&
	test "$n" -ge 3 && test "$n" -le 5 &&
	! awk -F, "NF != 1859" h_clat_hist.1.log | grep -q . &&
	# the windows hold the I/Os of the run (a short tail left out)
	ios=$(sed -n "s/.*issued rwts: total=\([0-9]*\),.*/\1/p" out) &&
	sum=$(awk -F, "{ for (i = 4; i <= NF; i++) s += \$i }
		       END { printf \"%d\", s }" h_clat_hist.1.log) &&
	test "$sum" -le "$ios" &&
	test $((sum * 10)) -ge $((ios * 7)) &&
	# the default 1856 buckets, merged by 2^3 with coarseness 3
	"$IOLITE" --name=c --ioengine=null --size=1m --rw=read \
		--write_hist_log=c --log_hist_msec=100 \
		--log_hist_coarseness=3 >out 2>err &&
	test "$(awk -F, "{ print NF }" c_clat_hist.1.log | sort -u)" = 235 &&
	test "$(awk -F, "{ for (i = 4; i <= NF; i++) s += \$i } END { print s }" \
		c_clat_hist.1.log)" = 256
'

test_expect_success 'write_hist_log without log_hist_msec: empty, as fio' '
	"$IOLITE" --name=e --ioengine=null --size=1m --write_hist_log=e \
		>out 2>err &&
	test_must_be_empty err &&
	test -f e_clat_hist.1.log &&
	test_must_be_empty e_clat_hist.1.log
'

test_expect_success 'a log that cannot be created: error before anything' '
	test_must_fail "$IOLITE" --name=b --filename=data --size=64k \
		--rw=write --write_bw_log=nodir/b >out 2>err &&
	grep -q "option .write_bw_log.: cannot create log file .nodir/b_bw.1.log.: No such file or directory" err &&
	test_path_is_missing data
'

fio2gnuplot=$(command -v fio2gnuplot)
test_expect_success_if FIO2GNUPLOT 'fio2gnuplot reads the bandwidth and IOPS logs' '
	mkdir plot && cd plot &&
	"$IOLITE" --name=g --ioengine=null --size=1g --rw=read $T \
		--runtime=1 --time_based --write_bw_log=g --write_iops_log=g \
		--log_avg_msec=100 >out 2>err &&
	n=$(wc -l <g_bw.1.log) &&
	python3 "$fio2gnuplot" -b -d bw >log 2>&1 &&
	grep -q "values_count=$n" bw/result.global &&
	grep -q "^min=[1-9]" bw/result.global &&
	python3 "$fio2gnuplot" -i -d iops >log 2>&1 &&
	grep -q "values_count=$n" iops/result.global
'

test_expect_success_if FIO_GENERATE_PLOTS 'fio_generate_plots plots every log' '
	mkdir gp && cd gp &&
	"$IOLITE" --name=gp --ioengine=null --size=1g --rw=randrw $T \
		--runtime=1 --time_based --write_lat_log=gp \
		--write_bw_log=gp --write_iops_log=gp --log_avg_msec=100 \
		>out 2>err &&
	fio_generate_plots test >log 2>&1 &&
	for k in lat clat iops bw; do
		test -s test-$k.svg || return 1
	done &&
	# a synchronous engine has no submission latency: its slat log is
	# empty, as fio leaves it
	test -f gp_slat.1.log && ! test -s gp_slat.1.log
'

test_done

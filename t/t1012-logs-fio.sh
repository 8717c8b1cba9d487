#!/bin/sh
# Log lines as fio 3.33 writes them, run side by side with fio on the
# same jobs: the columns that do not depend on timing (direction, block
# size, offset, priority) line by line for sequential jobs, the shape of
# every line otherwise; which logs are empty (slat of an inline engine);
# windowed, maximum, histogram and aggregate (--bandwidth-log) logs.
. "$(dirname "$0")/test-lib.sh"

if ! test_have_prereq FIO; then
	skip_all "fio is not installed (Debian package fio)"
fi

# both DIR ARGS...: fio in DIR/fio, iolite in DIR/iol, same arguments
both() {
	d=$1
	shift
	mkdir -p "$d/fio" "$d/iol" &&
	(cd "$d/fio" && fio "$@" --output-format=terse >out 2>err) &&
	(cd "$d/iol" && "$IOLITE" "$@" --output-format=terse >out 2>err &&
	 test_must_be_empty err)
}

# tail_cmp DIR FILE: columns 3 on (ddir, bs[, offset], prio) equal
tail_cmp() {
	cut -d, -f3- "$1/fio/$2" >"$1/fio.tail" &&
	cut -d, -f3- "$1/iol/$2" >"$1/iol.tail" &&
	test -s "$1/fio.tail" &&
	test_cmp "$1/fio.tail" "$1/iol.tail"
}

# shape DIR FILE REGEX: every line of both matches; both empty or not
shape() {
	if test -s "$1/fio/$2"; then
		test -s "$1/iol/$2" || { echo "$2: empty in iolite only"; return 1; }
	else
		test_must_be_empty "$1/iol/$2" || return 1
	fi
	! grep -Ev "$3" "$1/fio/$2" && ! grep -Ev "$3" "$1/iol/$2"
}

# The null engine's time_based jobs would spin a CPU each (fio's and
# iolite's) for the whole runtime: a think time after each I/O leaves it
# idle; the windows, maxima and histograms log as for any job.
T="--thinktime=10ms"

test_expect_success 'sequential psync: each line as fio, offsets and all' '
	both s --name=s --ioengine=psync --filename=f --size=256k \
		--rw=write --bs=4k --log_offset=1 --write_lat_log=s \
		--write_bw_log=s --write_iops_log=s &&
	for k in lat clat bw iops; do
		tail_cmp s s_$k.1.log || return 1
		shape s s_$k.1.log "^[0-9]+, [0-9]+, 1, 4096, [0-9]+, 0$" ||
			return 1
	done &&
	test_must_be_empty s/fio/s_slat.1.log &&
	test_must_be_empty s/iol/s_slat.1.log
'

test_expect_success 'log_prio: the priority in hex, as fio' '
	both p --name=p --ioengine=psync --filename=f --size=128k \
		--rw=read --bs=8k --log_prio=1 --write_lat_log=p \
		--write_iops_log=p &&
	for k in lat clat iops; do
		tail_cmp p p_$k.1.log || return 1
	done &&
	shape p p_clat.1.log "^[0-9]+, [0-9]+, 0, 8192, 0x0000$"
'

test_expect_success_if LIBAIO 'libaio: slat lines too, the same set as fio' '
	both a --name=a --ioengine=libaio --iodepth=4 --filename=f \
		--size=256k --rw=write --bs=4k --log_offset=1 \
		--write_lat_log=a &&
	for k in lat clat slat; do
		cut -d, -f3- a/fio/a_$k.1.log | sort >a/f.$k &&
		cut -d, -f3- a/iol/a_$k.1.log | sort >a/i.$k &&
		test_cmp a/f.$k a/i.$k || return 1
	done
'

test_expect_success 'null engine: slat empty inline, full queued, as fio' '
	both n1 --name=n --ioengine=null --size=1m --rw=randread \
		--write_lat_log=n &&
	test "$(wc -l <n1/iol/n_clat.1.log)" = 256 &&
	shape n1 n_slat.1.log "." &&
	test_must_be_empty n1/iol/n_slat.1.log &&
	both n4 --name=n --ioengine=null --size=1m --rw=randread \
		--iodepth=4 --write_lat_log=n &&
	test "$(wc -l <n4/fio/n_slat.1.log)" = 256 &&
	test "$(wc -l <n4/iol/n_slat.1.log)" = 256
'

test_expect_success 'log_avg_msec windows, mean and max: the same lines' '
	# a job each for mean and max, in one run: logs w0_*.1, w1_*.2
	j="--ioengine=null --size=1g --rw=randrw $T --time_based --runtime=1
	   --log_avg_msec=200 --log_offset=1" &&
	both w --name=w0 $j --log_max_value=0 --write_lat_log=w0 \
		--write_bw_log=w0 --write_iops_log=w0 \
		--name=w1 $j --log_max_value=1 --write_lat_log=w1 \
		--write_bw_log=w1 --write_iops_log=w1 &&
	for l in w0_%s.1.log w1_%s.2.log; do
		for k in lat clat slat bw iops; do
			shape w $(printf $l $k) \
				"^[0-9]+, [0-9]+, [01], 0, 0, 0$" || return 1
		done
	done &&
	test_must_be_empty w/iol/w0_slat.1.log
'

test_expect_success 'histogram log: the same columns as fio' '
	both h --name=h --ioengine=null --size=1g --rw=read --iodepth=2 $T \
		--time_based --runtime=1 --write_hist_log=h \
		--log_hist_msec=250 --log_hist_coarseness=2 &&
	awk -F, "{ print NF }" h/fio/h_clat_hist.1.log | sort -u >h/f.nf &&
	awk -F, "{ print NF }" h/iol/h_clat_hist.1.log | sort -u >h/i.nf &&
	test_cmp h/f.nf h/i.nf &&
	test "$(cat h/i.nf)" = 467 &&
	cut -d, -f2,3 h/fio/h_clat_hist.1.log | sort -u >h/f.c &&
	cut -d, -f2,3 h/iol/h_clat_hist.1.log | sort -u >h/i.c &&
	test_cmp h/f.c h/i.c
'

# fio fills its aggregate logs only while its status line is computed
test_expect_success '--bandwidth-log: the aggregate logs, as fio' '
	mkdir -p g/fio g/iol &&
	(cd g/fio && fio --bandwidth-log --eta=always --output=out \
		--name=g --ioengine=null --size=1g --rw=randrw $T \
		--time_based --runtime=2 >/dev/null 2>&1) &&
	(cd g/iol && "$IOLITE" --bandwidth-log --name=g --ioengine=null \
		--size=1g --rw=randrw $T --time_based --runtime=2 >out 2>err &&
	 test_must_be_empty err) &&
	(cd g/fio && ls agg-*) >g/f.ls &&
	(cd g/iol && ls agg-*) >g/i.ls &&
	test_cmp g/f.ls g/i.ls &&
	d=0 &&
	for k in read write trim; do
		shape g agg-${k}_bw.log "^[0-9]+, [0-9]+, $d, 0, 0$" || return 1
		d=$((d + 1))
	done &&
	# a line per direction every bwavgtime (500 ms) over 2 s
	n=$(wc -l <g/iol/agg-read_bw.log) &&
	test "$n" -ge 3 && test "$n" -le 5 &&
	test "$(grep -c ", 0, 2, 0, 0$" g/iol/agg-trim_bw.log)" = "$n"
'

test_done

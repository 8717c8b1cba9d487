#!/bin/sh
# Think time: thinktime, thinktime_blocks, thinktime_blocks_type,
# thinktime_spin, thinktime_iotime and rate_ignore_thinktime, each shown
# in what the job did (its runtime, depths, CPU time, I/O rate). Times
# have wide margins: the machine running the tests is shared.
. "$(dirname "$0")/test-lib.sh"

NULLJOB="--ioengine=null --size=64m --bs=4k"

test_expect_success_if JQ '100 I/Os with thinktime=10ms take at least 1 s' '
	"$IOLITE" --name=t $NULLJOB --rw=read --number_ios=100 \
		--thinktime=10ms --output-format=json >t.json &&
	test "$(jq ".jobs[0].read.total_ios" t.json)" = 100 &&
	# 99 pauses between 100 I/Os
	between "$(jq ".jobs[0].job_runtime" t.json)" 980 5000
'

test_expect_success_if JQ 'thinktime without a unit is in microseconds' '
	"$IOLITE" --name=t $NULLJOB --rw=read --number_ios=100 \
		--thinktime=2000 --output-format=json >us.json &&
	between "$(jq ".jobs[0].job_runtime" us.json)" 190 1500
'

test_expect_success_if JQ 'thinktime_blocks=10: a pause every 10 I/Os' '
	"$IOLITE" --name=t $NULLJOB --rw=read --number_ios=100 \
		--thinktime=10ms --thinktime_blocks=10 \
		--output-format=json >b.json &&
	between "$(jq ".jobs[0].job_runtime" b.json)" 88 700
'

test_expect_success_if JQ 'thinktime_spin: the pause is spent on the CPU' '
	for s in 0 20ms; do
		"$IOLITE" --name=t $NULLJOB --rw=read --number_ios=20 \
			--thinktime=20ms --thinktime_spin=$s \
			--output-format=json >spin$s.json || return 1
	done &&
	between "$(jq ".jobs[0].job_runtime" spin0.json)" 370 3000 &&
	between "$(jq ".jobs[0].job_runtime" spin20ms.json)" 370 3000 &&
	idle=$(jq ".jobs[0].usr_cpu + .jobs[0].sys_cpu" spin0.json) &&
	busy=$(jq ".jobs[0].usr_cpu + .jobs[0].sys_cpu" spin20ms.json) &&
	echo "cpu: sleeping $idle%, spinning $busy%" &&
	# spinning takes the CPU, sleeping does not: twice as much at least
	# (a loaded machine leaves the spinner its share of a CPU only: 8.7%
	# at a load of 20 on 2 CPUs; a sleeping pause takes well under 1%)
	between "$idle" 0 15 && between "$busy" 3 101 &&
	awk -v b="$busy" -v i="$idle" "BEGIN { exit !(b > 2 * i) }"
'

test_expect_success_if LIBAIO,JQ 'thinktime_blocks_type=issue caps the depth' '
	cat >tb.fio <<-EOF &&
	[global]
	ioengine=libaio
	filename=$TRASH/tb.dat
	size=4m
	bs=4k
	rw=randread
	iodepth=8
	number_ios=400
	thinktime=100us
	thinktime_blocks=4
	[issue]
	thinktime_blocks_type=issue
	[complete]
	stonewall
	thinktime_blocks_type=complete
	EOF
	"$IOLITE" --output-format=json tb.fio >tb.json &&
	jq -e ".jobs[0].iodepth_level | .[\"8\"] == 0 and .[\"4\"] > 0" \
		tb.json >/dev/null &&
	jq -e ".jobs[1].iodepth_level[\"8\"] > 0" tb.json >/dev/null
'

# Pauses of 90 ms or more between completions in a lat log (ms).
pauses() {
	awk -F, 'NR > 1 && $1 - p >= 90 { n++ } { p = $1 }
		 END { print n + 0 }' "$1"
}

test_expect_success_if JQ 'thinktime_iotime: a pause after each 300 ms of I/O' '
	"$IOLITE" --name=io $NULLJOB --rw=read --rate_iops=1000 \
		--thinktime=100ms --thinktime_iotime=300ms \
		--rate_ignore_thinktime=1 --runtime=1200ms --time_based \
		--write_lat_log=io --output-format=json >io.json &&
	# I/O 0-300, pause, 400-700, pause, 800-1100, pause
	n=$(pauses io_clat.1.log) &&
	echo "pauses: $n" && between "$n" 2 3 &&
	between "$(jq ".jobs[0].read.iops" io.json)" 600 850
'

test_expect_success_if JQ 'rate_ignore_thinktime: no catching up after a pause' '
	for i in 0 1; do
		"$IOLITE" --name=i$i $NULLJOB --rw=read --rate_iops=500 \
			--thinktime=200ms --thinktime_blocks=100 \
			--rate_ignore_thinktime=$i --runtime=2 --time_based \
			--output-format=json >ign$i.json || return 1
	done &&
	# catching up keeps the rate; ignoring it loses the pauses (half)
	between "$(jq ".jobs[0].read.iops" ign0.json)" 400 600 &&
	between "$(jq ".jobs[0].read.iops" ign1.json)" 180 330
'

test_done

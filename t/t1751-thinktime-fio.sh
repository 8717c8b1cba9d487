#!/bin/sh
# thinktime with a queue deeper than thinktime_blocks (issue 13 item 8):
# fio's HOWTO says thinktime_blocks caps the queue depth, and fio thinks
# after every group of thinktime_blocks blocks, counted from the blocks
# done when the last think began (those its quiesce completes count for
# the next group). Checked through the IO depth distribution and the
# time the thinks take, on libaio and io_uring, beside fio 3.33 where it
# is installed. (t1310-thinktime.sh has the other think time options.)
. "$(dirname "$0")/test-lib.sh"

dd if=/dev/zero of="$TRASH/tt" bs=64k count=4 2>/dev/null

# think TOOL ENGINE ARGS: 64 random reads of 4k at depth 4 with 5 ms
# thinks into out.TOOL
think() {
	tool=$1 eng=$2
	shift 2
	"$tool" --name=t --filename=tt --size=256k --bs=4k --rw=randread \
		--ioengine="$eng" --iodepth=4 --thinktime=5ms "$@" \
		>"out.$eng" 2>err && test_must_be_empty err
}

# depths FILE: the 1, 2 and 4 figures of "IO depths"
depths() {
	echo "$(pct "$1" "IO depths" 1) $(pct "$1" "IO depths" 2)" \
	     "$(pct "$1" "IO depths" 4)"
}

msec() {
	sed -n "s/.*read: .*(.*\/\([0-9]*\)msec).*/\1/p" "$1"
}

# the cases, N:OPTIONS (commas for spaces); fio and iolite are compared
# on each, the tests below check iolite's runs of 1, 2, 3 and 5
VARIANTS="1: 2:--thinktime_blocks_type=issue
3:--thinktime_blocks_type=issue,--thinktime_blocks=2
4:--thinktime_blocks=2 5:--thinktime_blocks=8"

# The runs mostly think (sleep): they start now, each in a directory of
# its own (TOOL-ENGINE-N), and the tests check them as they end.
. "$TEST_DIR/lib-bg.sh"
for eng in libaio io_uring; do
	case $eng in libaio) pre=LIBAIO ;; io_uring) pre=IO_URING ;; esac
	test_have_prereq $pre || continue
	tools=iolite
	test_have_prereq FIO && tools="fio iolite"
	for v in $VARIANTS; do
		for t in $tools; do
			bg_run $t-$eng-${v%%:*} 'mkdir $t-$eng-${v%%:*} &&
				cd $t-$eng-${v%%:*} && ln -s ../tt tt &&
				tool=fio && { [ $t = fio ] || tool=$IOLITE; } &&
				think "$tool" $eng $(echo ${v#*:} | tr , " ")'
		done
	done
done

for eng in libaio io_uring; do
	case $eng in libaio) pre=LIBAIO ;; io_uring) pre=IO_URING ;; esac

	# fio 3.33: 95.3% of the I/Os at depth 1, a think per I/O after
	# the first four: at least 60 x 5 ms (iolite thought once per 4 I/Os
	# before: 75 ms, 25% at depth 1)
	test_expect_success_if $pre "$eng, thinktime_blocks=1: a think per I/O" '
		bg_wait iolite-'$eng'-1 &&
		set -- $(depths iolite-'$eng'-1/out.'$eng') &&
		at_least "$1" 90 &&
		at_least "$(msec iolite-'$eng'-1/out.'$eng')" 300
	'

	# by issue the groups are exact: depth 1 only, or 1 and 2 by halves
	test_expect_success_if $pre "$eng, thinktime_blocks_type=issue: exact" '
		bg_wait iolite-'$eng'-2 &&
		test "$(depths iolite-'$eng'-2/out.'$eng')" = "100.0 0.0 0.0" &&
		bg_wait iolite-'$eng'-3 &&
		test "$(depths iolite-'$eng'-3/out.'$eng')" = "50.0 50.0 0.0"
	'

	# a group as deep as the queue or deeper: the queue fills (fio:
	# 12.5% 25% 62.5%)
	test_expect_success_if $pre "$eng, thinktime_blocks=8: the queue fills" '
		bg_wait iolite-'$eng'-5 &&
		test "$(depths iolite-'$eng'-5/out.'$eng')" = "12.5 25.0 62.5"
	'

	if ! test_have_prereq $pre; then
		test_expect_success_if $pre "$eng: fio 3.33 gives the same depths" :
		continue
	fi
	test_expect_success_if FIO "$eng: fio 3.33 gives the same depths" '
		for v in $VARIANTS; do
			r='$eng'-${v%%:*} &&
			bg_wait fio-$r && bg_wait iolite-$r &&
			depths fio-$r/out.'$eng' >fio.d &&
			depths iolite-$r/out.'$eng' >io.d &&
			test_cmp fio.d io.d || return 1
		done
	'
done

test_done

#!/bin/sh
# io_submit_mode=offload: a pool of submission threads calls the engine
# (engine/offload.c). The same I/O as inline, the IO depths reach
# iodepth, no deadlock at depth 1, 8 and 32, when runtime stops a
# time_based job, or on SIGINT; the queueing engines (libaio, io_uring,
# posixaio: one instance per submission thread) write the same bytes as
# inline; engines that cannot be offloaded are refused.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'offload psync writes what inline psync writes' '
	"$IOLITE" --name=o --filename=a --size=2m --bs=4k --rw=randwrite \
		--buffer_pattern=0x11223344 --end_fsync=1 >in.out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --name=o --filename=b --size=2m --bs=4k --rw=randwrite \
		--buffer_pattern=0x11223344 --end_fsync=1 --iodepth=8 \
		--io_submit_mode=offload >off.out 2>err &&
	test_must_be_empty err &&
	test "$(issued in.out)" = "$(issued off.out)" &&
	cmp a b &&
	grep -q "io_submit_mode=offload: 8 submission threads calling psync" \
		off.out
'

for d in 1 8 32; do
	test_expect_success "offload iodepth=$d: all I/O done, depths reach $d" "
		timeout 60 \"\$IOLITE\" --name=o --filename=a --size=2m --bs=4k \
			--rw=randrw --ioengine=pvsync --iodepth=$d \
			--io_submit_mode=offload >out 2>err &&
		test_must_be_empty err &&
		r=\$(issued out) && test \"\${r%,*,*}\" != 0,0 &&
		grep -q 'read: IOPS=' out && grep -q 'write: IOPS=' out &&
		at_least \"\$(pct out 'IO depths' $d)\" 50
	"
done

test_expect_success 'offload null, time_based: runtime stops it' '
	timeout 60 "$IOLITE" --name=o --ioengine=null --size=1g --bs=4k \
		--rw=randread --iodepth=16 --io_submit_mode=offload \
		--time_based --runtime=1 >out 2>err &&
	test_must_be_empty err &&
	grep -q "read: IOPS=" out
'

test_expect_success 'offload: SIGINT mid-run stops it cleanly' '
	timeout 60 "$IOLITE" --name=o --filename=a --size=2m --bs=4k \
		--rw=randread --iodepth=32 --io_submit_mode=offload \
		--time_based --runtime=30 >out 2>err &
	pid=$! &&
	sleep 1 &&
	kill -s INT $pid &&
	{ wait $pid; echo $? >rc; } &&
	test "$(cat rc)" = 130 &&
	grep -q "read: IOPS=" out
'

for e in libaio io_uring posixaio; do
	pre=$(echo $e | tr a-z A-Z)
	test $e = posixaio && pre=
	test_expect_success_if "$pre" "offload $e writes what inline $e writes" "
		\"\$IOLITE\" --name=o --filename=a --size=2m --bs=4k \\
			--rw=randwrite --ioengine=$e --iodepth=8 \\
			--buffer_pattern=0x55667788 >in.out 2>err &&
		test_must_be_empty err &&
		timeout 60 \"\$IOLITE\" --name=o --filename=b --size=2m --bs=4k \\
			--rw=randwrite --ioengine=$e --iodepth=8 \\
			--buffer_pattern=0x55667788 --io_submit_mode=offload \\
			>off.out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued in.out)\" = \"\$(issued off.out)\" &&
		cmp a b &&
		grep -q 'io_submit_mode=offload: 8 submission threads calling $e' \\
			off.out &&
		at_least \"\$(pct off.out 'IO depths' 8)\" 50
	"
done

test_expect_success 'engines that cannot be offloaded are refused' '
	test_must_fail "$IOLITE" --name=o --filename=a --size=1m \
		--ioengine=sync --io_submit_mode=offload >out 2>err &&
	grep -q "offload works with ioengine psync, pvsync, pvsync2, null, io_uring, libaio or posixaio, not .sync." err
'

test_expect_success_if IO_URING 'io_uring registerfiles cannot be offloaded' '
	test_must_fail "$IOLITE" --name=o --filename=a --size=1m \
		--ioengine=io_uring --registerfiles=1 \
		--io_submit_mode=offload 2>err &&
	grep -q "which rules out .registerfiles." err
'

test_done

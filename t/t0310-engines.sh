#!/bin/sh
# The engines through the binary: each runs a job to completion, writes
# what it says, and the names iolite lacks get a clear message.

. "$(dirname "$0")/test-lib.sh"

for e in sync psync vsync pvsync pvsync2; do
	test_expect_success "$e: write then read 64k" "
		\"\$IOLITE\" --name=w --filename=f.$e --ioengine=$e --size=64k \
			--bs=4k --rw=write >out 2>err &&
		test_must_be_empty err &&
		grep 'ioengine=$e' out &&
		grep 'total=0,16,0,0' out &&
		test \$(stat -c %s f.$e) = 65536 &&
		\"\$IOLITE\" --name=r --filename=f.$e --ioengine=$e \
			--bs=4k --rw=randread >out 2>err &&
		test_must_be_empty err &&
		grep 'total=16,0,0,0' out
	"
done

test_expect_success 'vsync coalesces at iodepth=8' '
	"$IOLITE" --name=v --filename=v8 --ioengine=vsync --iodepth=8 \
		--size=256k --bs=4k --rw=write >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,64,0,0" out &&
	test $(stat -c %s v8) = 262144
'

test_expect_success 'fsync= issues syncs through the engine' '
	"$IOLITE" --name=s --filename=fs --ioengine=psync --size=64k \
		--bs=4k --rw=write --fsync=4 >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,16,0,[1-9]" out
'

test_expect_success 'null at depth 1 and 16, no file' '
	"$IOLITE" --name=n --ioengine=null --size=1m --bs=4k --rw=randrw \
		>out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --name=n --ioengine=null --iodepth=16 --size=1m --bs=4k \
		--rw=read >out 2>err &&
	test_must_be_empty err &&
	grep "total=256,0,0,0" out &&
	test ! -e n.0.0
'

test_expect_success 'pvsync2 nowait=1 ends (EAGAIN is an error, not a hang)' '
	dd if=/dev/zero of=nw bs=64k count=4 2>/dev/null &&
	"$IOLITE" --name=n --filename=nw --ioengine=pvsync2 --nowait=1 \
		--bs=4k --rw=randread >out 2>err
	rc=$?
	test $rc = 0 || grep "Resource temporarily unavailable" err
'

test_expect_success 'trim punches holes in a file' '
	"$IOLITE" --name=w --filename=tr --size=1m --bs=64k --rw=write \
		>out 2>err &&
	before=$(stat -c %b tr) &&
	"$IOLITE" --name=t --filename=tr --size=1m --bs=64k --rw=trim \
		>out 2>err &&
	test_must_be_empty err &&
	after=$(stat -c %b tr) &&
	test $(stat -c %s tr) = 1048576 &&
	test "$after" -lt "$before"
'

test_expect_success_if LOOP 'trim on a block device uses BLKDISCARD' '
	dev=$(test_loop $TRASH_SHM/t0310.img 4M) &&
	"$IOLITE" --name=t --filename=$dev --bs=64k --rw=trim >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,0,[1-9]" out
'

test_expect_success 'an engine fio has but iolite lacks' '
	test_must_fail "$IOLITE" --name=x --ioengine=splice --size=1m >out 2>err &&
	grep "ioengine '\''splice'\'' is not supported" err &&
	test ! -e x.0.0
'

test_expect_success 'an unknown engine' '
	test_must_fail "$IOLITE" --name=x --ioengine=nosuch --size=1m \
		>out 2>err &&
	grep "^iolite: <cmdline>:2: option '\''ioengine'\'': unknown engine '\''nosuch'\'' (see --enghelp)$" err &&
	printf "[x]\nsize=1m\nioengine=nosuch\n" >eng.fio &&
	test_must_fail "$IOLITE" eng.fio >out 2>err &&
	grep "^iolite: eng.fio:3: option .ioengine.: unknown engine .nosuch." err &&
	test_path_is_missing x.0.0
'

test_expect_success '--enghelp lists the engines, --enghelp=pvsync2 its options' '
	"$IOLITE" --enghelp >out &&
	for e in sync psync vsync pvsync pvsync2 null; do
		grep "^	$e " out || return 1
	done &&
	"$IOLITE" --enghelp=pvsync2 >out &&
	grep "^hipri " out && grep "^nowait " out
'

test_done

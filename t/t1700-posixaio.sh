#!/bin/sh
# The posixaio engine (aio_read/aio_write/aio_fsync, reaped with
# aio_error/aio_return, waited for with aio_suspend): the same I/O as
# psync for the same job, and the IO depths reach iodepth.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'posixaio is listed by --enghelp' '
	"$IOLITE" --enghelp >out &&
	grep -qw posixaio out
'

# A pattern: the same bytes whatever buffer slot carries the write; the
# files are laid out with zeroes, so a write that did not happen shows.
test_expect_success 'posixaio writes what psync writes, same counts' '
	"$IOLITE" --name=p --filename=a --size=4m --bs=4k --rw=randwrite \
		--buffer_pattern=0x5a5b5c5d \
		--ioengine=psync --end_fsync=1 >psync.out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --name=p --filename=b --size=4m --bs=4k --rw=randwrite \
		--buffer_pattern=0x5a5b5c5d \
		--ioengine=posixaio --iodepth=16 --end_fsync=1 >aio.out 2>err &&
	test_must_be_empty err &&
	test "$(issued psync.out)" = "$(issued aio.out)" &&
	test "$(issued aio.out)" = "0,1024,0,0" &&
	cmp a b &&
	test "$(tr -d "\000" <b | wc -c)" = 4194304

'

test_expect_success 'posixaio iodepth=16: the IO depths reach 16, never more' '
	"$IOLITE" --name=p --filename=a --size=4m --bs=4k --rw=randread \
		--ioengine=posixaio --iodepth=16 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "1024,0,0,0" &&
	at_least "$(pct out "IO depths" 16)" 50 &&
	test "$(pct out "IO depths" 32)" = 0.0
'

test_expect_success 'posixaio mixed rw, time based: reads and writes done' '
	"$IOLITE" --name=p --filename=a --size=4m --bs=4k --rw=randrw \
		--ioengine=posixaio --iodepth=8 --runtime=1 --time_based \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	grep -q "\"io_bytes\" : [1-9]" out.json
'

test_expect_success_if FIO 'posixaio: fio accepts the same job' '
	fio --name=p --filename=a --size=1m --bs=4k --rw=randread \
		--ioengine=posixaio --iodepth=4 --output-format=json \
		>fio.json 2>/dev/null &&
	"$IOLITE" --name=p --filename=a --size=1m --bs=4k --rw=randread \
		--ioengine=posixaio --iodepth=4 --output-format=json \
		>io.json &&
	grep -q "\"total_ios\" : 256" fio.json &&
	grep -q "\"total_ios\" : 256" io.json
'

test_done

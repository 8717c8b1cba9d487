#!/bin/sh
# ioengine=nbd against nbdkit on 127.0.0.1 (t/lib-nbd.sh): the export's
# size as the file's, reads, writes, trims and flushes at a depth, data
# checked by verify and against the file plugin's backing file; side by
# side with fio 3.33's nbd engine (counts, bytes, write_iolog, the data
# written); the network's errors: no server and no such export (the job
# fails as it starts), the server killed mid-run and one that stops
# answering (report kept, non-zero exit, the library's reason); a
# read-only export written to is refused before the run.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-nbd.sh"

test_expect_success_if !NBD 'without libnbd or nbdkit: the engine says which package' '
	if "$IOLITE" --enghelp | grep -qw nbd; then
		echo "built with libnbd: nbdkit is what is missing"
	else
		test_must_fail "$IOLITE" --name=x --ioengine=nbd \
			--uri=nbd://127.0.0.1:1 --parse-only 2>err &&
		grep "ioengine .nbd. is not available in this build: install libnbd-dev" err
	fi
'

test_skip_unless NBD PYTHON3
T=60	# seconds any one run may take

test_expect_success 'write, then verify: the export is the file, its size the job' '
	nbd_start mem memory 4M &&
	timeout $T "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$(cat mem.port) --rw=randwrite --bs=4k \
		--iodepth=8 --verify=crc32c --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	printf "%s\n" "read ios=1024 bytes=4194304 err=0" \
		"write ios=1024 bytes=4194304 err=0" >expect &&
	figures out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'trims and flushes (fsync=N), over a unix socket' '
	nbdkit -f --exit-with-parent -U "$TRASH/sock" -P mem.pid memory 1M \
		>mem.log 2>&1 &
	nbd_wait_ mem.pid $! &&
	set -- --ioengine=nbd --uri="nbd+unix:///?socket=$TRASH/sock" \
		--bs=64k --iodepth=4 --output-format=json &&
	timeout $T "$IOLITE" "$@" --name=t --rw=trimwrite >out.json 2>err &&
	test_must_be_empty err &&
	printf "%s\n" "write ios=16 bytes=1048576 err=0" \
		"trim ios=16 bytes=1048576 err=0" >expect &&
	figures out.json >actual &&
	test_cmp expect actual &&
	timeout $T "$IOLITE" "$@" --name=f --rw=write --fsync=4 >out.json \
		2>err &&
	test_must_be_empty err &&
	# as fio: no sync after the last write (the end of the job)
	printf "%s\n" "write ios=16 bytes=1048576 err=0" "sync ios=3" >expect &&
	figures out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'a region past the export'"'"'s end is refused before any I/O' '
	nbd_start mem memory 1M &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$(cat mem.port) --rw=write --size=2m \
		>out 2>err &&
	grep "option .size.: 2097152 bytes from offset 0 go beyond the end of NBD export .nbd://127.0.0.1:[0-9]*. (1048576 bytes)" err &&
	test_must_be_empty out &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd --rw=write \
		--size=1m 2>err &&
	grep "option .uri.: ioengine .nbd. needs the server" err
'

test_expect_success 'no server: the job fails as it starts, its report kept' '
	port=$(free_port) &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$port --rw=write --size=1m >out 2>err &&
	grep "^iolite: job .w.: cannot connect to .nbd://127.0.0.1:$port.: .*Connection refused$" err &&
	test $(wc -l <err) = 1 &&
	grep "^w: (groupid=0, jobs=1): err=111" out &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd --output-format=json \
		--uri=nbd://127.0.0.1:$port --rw=write >out.json 2>err &&
	grep "\"error\" : 111," out.json
'

test_expect_success 'an export the server does not have, a read-only one written' '
	nbd_start named --filter=exportname memory 1M exportname=disk \
		exportname-strict=true &&
	port=$(cat named.port) &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$port/nope --rw=read >out 2>err &&
	grep "^iolite: job .w.: cannot connect to .nbd://127.0.0.1:$port/nope.: .*no export named .nope." err &&
	grep "^w: (groupid=0, jobs=1): err=" out &&
	"$IOLITE" --name=r --ioengine=nbd --uri=nbd://127.0.0.1:$port/disk \
		--rw=read --output-format=terse >out 2>err &&
	test_must_be_empty err &&
	nbd_start ro -r memory 1M &&
	port=$(cat ro.port) &&
	test_must_fail "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$port --rw=randrw 2>err &&
	grep "job .w.: option .uri.: .nbd://127.0.0.1:$port. is a read-only export: the job writes" err &&
	"$IOLITE" --name=r --ioengine=nbd --uri=nbd://127.0.0.1:$port \
		--rw=read --output-format=terse >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'the server killed mid-run: the reason, the report kept' '
	nbd_start srv --filter=log memory 16M logfile="$TRASH/srv.reqs" &&
	port=$(cat srv.port) &&
	start=$(date +%s) &&
	{ (n=0; while ! grep -q Write srv.reqs 2>/dev/null &&
		[ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done;
	   sleep 0.2; nbd_stop srv) & } &&
	test_must_fail timeout $T "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$port --rw=randwrite --bs=4k --iodepth=4 \
		--time_based --runtime=20 --output-format=json >out.json 2>err &&
	test $(( $(date +%s) - start )) -lt 15 &&
	grep "^iolite: job .w.: write of 4096 bytes at offset [0-9]* of .w.0.0. failed: .nbd://127.0.0.1:$port.: .* (ENOTCONN)$" err &&
	test $(wc -l <err) = 1 &&
	figures out.json >fig &&
	grep "^write ios=[1-9][0-9]* bytes=[1-9][0-9]* err=107$" fig
'

test_expect_success 'a server that stops answering is given up after the runtime' '
	nbd_start srv --filter=delay memory 16M wdelay=60 &&
	port=$(cat srv.port) &&
	test_must_fail timeout $T "$IOLITE" --name=w --ioengine=nbd \
		--uri=nbd://127.0.0.1:$port --rw=randwrite --bs=4k --iodepth=2 \
		--time_based --runtime=1 --output-format=json >out.json 2>err &&
	grep "of .w.0.0. failed: .nbd://127.0.0.1:$port.: no reply from the server within 5 s of the job.s end (ETIMEDOUT)" err &&
	figures out.json >fig &&
	grep "^write ios=2 bytes=0 err=110$" fig
'

test_expect_success_if FIO_NBD 'side by side with fio: counts, bytes, write_iolog, the data' '
	truncate -s 4m fio.img iolite.img &&
	nbd_start fio file fio.img &&
	nbd_start iolite file iolite.img &&
	set -- --name=j --ioengine=nbd --rw=randrw --bs=4k --iodepth=4 \
		--io_size=1m --buffer_pattern=0x0102030405 \
		--output-format=json &&
	timeout $T fio "$@" --uri=nbd://127.0.0.1:$(cat fio.port) \
		--write_iolog=fio.log >fio.json 2>fio.err &&
	timeout $T "$IOLITE" "$@" --uri=nbd://127.0.0.1:$(cat iolite.port) \
		--write_iolog=iolite.log >iolite.json 2>iolite.err &&
	test_must_be_empty iolite.err &&
	figures fio.json >expect &&
	figures iolite.json >actual &&
	test_cmp expect actual &&
	grep -q "^read ios=[1-9]" actual &&
	cut -d" " -f2- fio.log >expect &&
	cut -d" " -f2- iolite.log >actual &&
	test_cmp expect actual &&
	md5sum <fio.img >expect &&
	md5sum <iolite.img >actual &&
	test_cmp expect actual
'

test_done

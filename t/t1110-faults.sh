#!/bin/sh
# Faults met mid-run, made for real: ENOSPC from a 1 MiB tmpfs mounted in
# the scratch directory, EIO and short transfers from t/fusefault (a FUSE
# file system that fails at given offsets). Each error names job,
# direction, file, offset and errno; the report still shows what was
# done; continue_on_error and ignore_error decide who goes on, as fio;
# the exit status is non-zero when an error stopped a job (as fio, a job
# that went past all of its errors exits 0, its report says them).
. "$(dirname "$0")/test-lib.sh"

shorts() {
	sed -n 's/.*issued rwts: .* short=\([0-9,]*\) .*/\1/p' "$1" | head -n 1
}

test_at_exit='umount "$TRASH/m" 2>/dev/null; umount "$TRASH/fz" 2>/dev/null'

# ---- ENOSPC ----

test_skip_reason=
if test_skip_unless ROOT && mkdir "$TRASH/m" &&
   ! mount -t tmpfs -o size=1m iolite-test "$TRASH/m" 2>/dev/null; then
	test_skip_reason="cannot mount a tmpfs on $TRASH/m"
fi

# a 2 MiB file with a hole on a 1 MiB file system: the second MiB fails
wjob() {
	rm -f m/f && truncate -s 2m m/f &&
	"$IOLITE" --name=w --filename=m/f --size=2m --bs=64k --rw=write \
		--ioengine=psync "$@"
}

test_expect_success 'ENOSPC: the job stops, names what failed, reports what it did' '
	test_must_fail wjob >out 2>err &&
	echo "iolite: job '\''w'\'': write of 65536 bytes at offset 1048576 of '\''m/f'\'' failed: No space left on device (ENOSPC)" >expect &&
	test_cmp expect err &&
	grep "^w: (groupid=0, jobs=1): err=28 " out &&
	grep "^  write: .*(1024KiB/" out &&
	test "$(issued out)" = 0,17,0,0
'

test_expect_success 'ENOSPC: continue_on_error=write still stops (EIO and EILSEQ only)' '
	test_must_fail wjob --continue_on_error=write >out 2>err &&
	test $(wc -l <err) = 1 &&
	test "$(issued out)" = 0,17,0,0 &&
	grep "errors    : total=1, first_error=28/<No space left on device>" out
'

test_expect_success 'ENOSPC: ignore_error=,ENOSPC goes on to the end' '
	wjob --ignore_error=,ENOSPC >out 2>err &&
	test "$(issued out)" = 0,32,0,0 &&
	test_must_be_empty err &&
	grep "^  job .w.: 16 errors continued past (continue_on_error, ignore_error); the first:$" out &&
	grep "^  job .w.: write of 65536 bytes at offset 1048576 of .m/f. failed: No space left on device (ENOSPC)$" out &&
	test $(grep -c "^  job .w.: write of .* failed: No space" out) = 8 &&
	grep "errors    : total=16, first_error=28/" out &&
	grep "^  write: .*(1024KiB/" out &&
	wjob --ignore_error=,ENOSPC --output-format=json >out.json 2>err &&
	grep "\"total_err\" : 16," out.json &&
	grep "\"first_error\" : 28," out.json
'

test_expect_success 'ENOSPC: a long run of errors is one note, nothing on stderr' '
	rm -f m/f && truncate -s 4m m/f &&
	"$IOLITE" --name=w --filename=m/f --size=4m --bs=16k \
		--rw=write --ignore_error=,ENOSPC >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "errors continued past" out) = 1 &&
	grep "job .w.: 192 errors continued past" out &&
	test $(grep -c "^  job .w.: write of" out) = 8 &&
	grep "errors    : total=192," out
'

test_expect_success 'ENOSPC: the verify state says how far the writes got' '
	test_must_fail wjob --verify=crc32c >out 2>err &&
	grep "^writes 16$" local-w-0-verify.state &&
	"$IOLITE" --name=w --filename=m/f --size=2m --bs=64k --rw=write \
		--verify=crc32c --verify_only --verify_state_load=1 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,0,0,0 &&
	test_must_fail "$IOLITE" --name=w --filename=m/f --size=2m --bs=64k \
		--rw=write --verify=crc32c --verify_only >out 2>err &&
	grep "offset 1048576 of .m/f. failed: no verify header" err
'
test_skip_reason=
umount "$TRASH/m" 2>/dev/null

# ---- EIO and short transfers: t/fusefault ----

FF=${IOLITE_FUSEFAULT:-}
test_skip_unless FUSE

# fault OPTIONS...: a fresh 1 MiB file fz/data failing as told
fault() {
	umount "$TRASH/fz" 2>/dev/null
	mkdir -p "$TRASH/fz" && "$FF" "$TRASH/fz" --size=1m "$@" &&
	test "$(stat -c %s "$TRASH/fz/data")" = 1048576
}

rjob() {
	"$IOLITE" --name=r --filename=fz/data --size=256k --bs=4k \
		--rw=read "$@"
}

test_expect_success 'EIO on a read: the job stops there and says so' '
	fault --eio-read=65536 &&
	test_must_fail rjob >out 2>err &&
	echo "iolite: job '\''r'\'': read of 4096 bytes at offset 65536 of '\''fz/data'\'' failed: Input/output error (EIO)" >expect &&
	test_cmp expect err &&
	grep "^r: (groupid=0, jobs=1): err= 5 " out &&
	grep "^  read: .*(64.0KiB/" out &&
	test "$(issued out)" = 17,0,0,0
'

test_expect_success 'EIO on a read: continue_on_error=read goes on' '
	rjob --continue_on_error=read >out 2>err &&
	test_must_be_empty err &&
	grep "^  job .r.: read of 4096 bytes at offset 65536 of .fz/data. failed: Input/output error (EIO)$" out &&
	test "$(issued out)" = 64,0,0,0 &&
	grep "^  read: .*(252KiB/" out &&
	grep "errors    : total=1, first_error=5/<Input/output error>" out
'

test_expect_success 'EIO on a read: continue_on_error=write does not cover it' '
	test_must_fail rjob --continue_on_error=write >out 2>err &&
	test "$(issued out)" = 17,0,0,0
'

test_expect_success 'EIO on a read: ignore_error=EIO goes on' '
	rjob --ignore_error=EIO >out 2>err &&
	test "$(issued out)" = 64,0,0,0
'

test_expect_success_if LIBCRYPTO 'EIO on a write: named, and not read back by verify' '
	fault --eio-write=131072 &&
	test_must_fail "$IOLITE" --name=w --filename=fz/data --size=256k \
		--bs=4k --rw=write --verify=md5 >out 2>err &&
	grep "^iolite: job .w.: write of 4096 bytes at offset 131072 of .fz/data. failed: Input/output error (EIO)$" err &&
	test "$(issued out)" = 0,33,0,0 &&
	"$IOLITE" --name=w --filename=fz/data --size=256k \
		--bs=4k --rw=write --verify=md5 --continue_on_error=write \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^  job .w.: write of 4096 bytes at offset 131072 .*(EIO)$" out &&
	test "$(issued out)" = 63,64,0,0
'

test_expect_success_if LIBCRYPTO 'short transfers: the rest is issued again, data intact' '
	fault --short-read=8192 --short-write=16384 &&
	"$IOLITE" --name=w --filename=fz/data --size=256k --bs=4k \
		--rw=write --verify=sha256 >out 2>err &&
	test_must_be_empty err &&
	test "$(shorts out)" = 1,1,0,0 &&
	grep "^  read: .*(256KiB/" out &&
	grep "^  write: .*(256KiB/" out
'

test_expect_success 'a read that moves no bytes is an error' '
	fault --zero-read=12288 &&
	test_must_fail rjob >out 2>err &&
	grep "^iolite: job .r.: read of 4096 bytes at offset 12288 of .fz/data. failed: short read: no bytes transferred (EIO)$" err &&
	test "$(issued out)" = 4,0,0,0 &&
	rjob --continue_on_error=read >out 2>err &&
	test "$(issued out)" = 64,0,0,0
'

test_expect_success 'a short read then nothing names both counts' '
	fault --short-read=12288 --zero-read=14336 &&
	test_must_fail rjob >out 2>err &&
	grep "offset 12288 of .fz/data. failed: short read: 2048 of 4096 bytes, then no more (EIO)$" err
'

for e in libaio io_uring; do
	uc=$(echo $e | tr a-z A-Z)
	# as fio: the sync path makes it an EIO, a completion event does not
	test_expect_success_if $uc "$e: a read that moves no bytes is done, 0 bytes" "
		fault --zero-read=12288 &&
		rjob --ioengine=$e --iodepth=4 --continue_on_error=read \
			--output-format=json >out.json 2>err &&
		test_must_be_empty err &&
		grep '\"total_err\" : 0,' out.json &&
		grep '\"io_bytes\" : 258048,' out.json &&
		fault --short-read=12288 --zero-read=14336 &&
		rjob --ioengine=$e --iodepth=4 >out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out)\" = 65,0,0,0 &&
		test \"\$(shorts out)\" = 1,0,0,0
	"
	test_expect_success_if $uc "$e at depth 8: EIO and short reads" "
		fault --eio-read=65536 --short-read=8192 &&
		test_must_fail rjob --ioengine=$e --iodepth=8 >out 2>err &&
		grep 'read of 4096 bytes at offset 65536 of .fz/data. failed: Input/output error (EIO)' err &&
		rjob --ioengine=$e --iodepth=8 \
			--continue_on_error=read >out 2>err &&
		test \"\$(shorts out)\" = 1,0,0,0 &&
		grep 'errors    : total=1,' out
	"
done
test_skip_reason=

# ---- error_dump: which errors let through are printed (t/fusefault) ----

if ! test_have_prereq ROOT; then
	test_skip_reason="needs root to mount a FUSE file system"
elif [ ! -c /dev/fuse ]; then
	test_skip_reason="no /dev/fuse"
elif [ -z "$FF" ] || [ ! -x "$FF" ]; then
	test_skip_reason="t/fusefault not built (libfuse3-dev missing)"
fi

test_expect_success 'error_dump=0: an EIO let through is counted, not named' '
	fault --eio-read=65536 &&
	rjob --continue_on_error=read --error_dump=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 64,0,0,0 &&
	grep "errors    : total=1, first_error=5/<Input/output error>" out &&
	! grep "failed: Input/output error" out &&
	rjob --continue_on_error=read --error_dump=1 >out 2>err &&
	test_must_be_empty err &&
	grep "read of 4096 bytes at offset 65536 of .fz/data. failed: Input/output error (EIO)" out &&
	test_must_fail rjob --error_dump=0 >out 2>err &&
	grep "offset 65536 of .fz/data. failed: Input/output error (EIO)" err
'
test_skip_reason=

test_expect_success 'fifty jobs with errors continued past: every note kept' '
	for i in $(seq 1 50); do
		printf "[j%d]\nfilename=/dev/full\nrw=write\nsize=4k\n" $i
		printf "ignore_error=,ENOSPC\n"
	done >many.fio &&
	"$IOLITE" many.fio >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "^  job .j[0-9]*.: write of 4096 bytes" out) = 50
'

test_done

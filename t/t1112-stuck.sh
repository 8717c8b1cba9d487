#!/bin/sh
# A job whose I/O never completes (t/fusefault --hang-read: the request is
# never answered, as a dead device's) cannot stop. Once told to stop (its
# runtime over, a stop signal) and its I/O count still for --stuck-timeout,
# the job is given up: its figures as they stand, its iolog closed, the
# error on stderr, the report written, exit non-zero. A second stop signal
# gives up at once. The process itself ends when the kernel lets go of
# the I/O (here: the file system's daemon killed after the report).
. "$(dirname "$0")/test-lib.sh"

FF=${IOLITE_FUSEFAULT:-}
test_skip_unless FUSE

test_at_exit='kill -9 $ffpid 2>/dev/null; umount -l "$TRASH/fz" 2>/dev/null'
ffpid=

# hang: fz/data, 4 MiB, whose read covering 1 MiB is never answered
hang() {
	mkdir -p "$TRASH/fz" &&
	"$FF" "$TRASH/fz" --size=4m --hang-read=1m -f 2>ff.err &
	ffpid=$!
	test -n "$ffpid" &&
	n=0 && while [ ! -e "$TRASH/fz/data" ] && [ $n -lt 100 ]; do
		sleep 0.1; n=$((n + 1)); done &&
	test -e "$TRASH/fz/data"
}

# release: the daemon killed, the stuck read ends (ENOTCONN)
release() {
	test -n "$ffpid" && kill -9 $ffpid 2>/dev/null
	wait $ffpid 2>/dev/null
	ffpid=
	umount -l "$TRASH/fz" 2>/dev/null
	:
}

# run_bg ARGS...: iolite in the background reading fz/data, 64 KiB blocks
run_bg() {
	"$IOLITE" --name=r --filename=fz/data --rw=read --bs=64k \
		--ioengine=psync --output-format=json "$@" >out 2>err &
	ipid=$!
}

# report_out: waits (up to 60 s) for the whole JSON report in out
report_out() {
	n=0 && while [ "$(tail -n 1 out 2>/dev/null)" != "}" ] &&
		[ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done &&
	test "$(tail -n 1 out)" = "}"
}

# finish: the hang released, iolite's exit status in rc
finish() {
	release
	wait $ipid
	rc=$?
}

jfield() {
	sed -n "s/^ *\"$1\" : \([0-9]*\),*$/\1/p" out | head -n 1
}

test_expect_success 'runtime over, the read never answered: given up, report kept' '
	hang &&
	run_bg --runtime=1 --time_based --stuck-timeout=1 \
		--write_iolog=r.iolog &&
	report_out && finish &&
	test $rc = 1 &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .r.: given up: its I/O has not moved for [0-9]* s since it was told to stop" err &&
	test "$(jfield error)" = 110 &&
	test "$(jfield io_bytes)" = 1048576 &&
	grep "1 job(s) given up with an I/O that never completed" out &&
	test $(grep -c " read " r.iolog) -ge 16
'

test_expect_success 'a stop signal, the read never answered: given up after the timeout' '
	hang &&
	run_bg --stuck-timeout=1 --size=4m &&
	sleep 1 && kill -INT $ipid &&
	report_out && finish &&
	test $rc = 130 &&
	grep "terminating on signal 2" err &&
	grep "given up: its I/O has not moved" err &&
	test "$(jfield io_bytes)" = 1048576 &&
	grep "interrupted by SIGINT" out
'

test_expect_success 'a second stop signal gives up at once' '
	hang &&
	run_bg --size=4m &&
	sleep 1 && kill -INT $ipid && sleep 0.5 && kill -INT $ipid &&
	report_out && finish &&
	test $rc = 130 &&
	grep "given up" err &&
	test "$(jfield error)" = 110 &&
	test "$(jfield io_bytes)" = 1048576
'

test_expect_success 'the other jobs of the run keep their results' '
	hang && : >plain && {
		"$IOLITE" --output-format=json --stuck-timeout=1 \
		--name=ok --filename=plain --rw=write --bs=4k --size=64k \
		--name=r --filename=fz/data --rw=read --bs=64k \
		--runtime=1 --time_based >out 2>err &
	} &&
	ipid=$! &&
	report_out && finish &&
	test $rc = 1 &&
	test $(wc -l <err) = 1 &&
	test $(grep -c "\"error\" : 0," out) = 1 &&
	test $(grep -c "\"error\" : 110," out) = 1 &&
	test "$(stat -c %s plain)" = 65536
'

test_expect_success '--stuck-timeout refuses 0 and nonsense before any I/O' '
	test_must_fail "$IOLITE" --stuck-timeout=0 --name=x --size=4k \
		--filename=never >out 2>err &&
	grep "option .--stuck-timeout.: it must be more than 0" err &&
	test_must_fail "$IOLITE" --stuck-timeout=soon --name=x --size=4k \
		--filename=never >out 2>err &&
	grep "stuck-timeout" err &&
	test ! -e never
'

test_done

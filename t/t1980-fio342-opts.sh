#!/bin/sh
# Options fio added after 3.33 (issue #28). Debian's fio 3.33 does not
# know them, so no side-by-side row can run them: the expectations here
# are fio 3.42's behaviour, measured with fio 3.42 beside iolite and
# written down as fixed figures (each test says what fio 3.42 did).

. "$(dirname "$0")/test-lib.sh"

# syncs NAME ARGS...: the job under strace in directory d; NAME.calls
# holds "syncfs N fsync M", NAME.dir the directory syncfs was made on
syncs() {
	name=$1
	shift
	rm -rf d && mkdir d &&
	strace -f -qq -o "$name.trace" -e trace=openat,fsync,syncfs,pwrite64 \
		"$IOLITE" --name=j --directory=d --rw=write --bs=4k --size=64k \
		--output-format=json "$@" >"$name.json" 2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	echo "syncfs $(grep -c " syncfs(" "$name.trace")" \
		"fsync $(grep -c " fsync(" "$name.trace")" >"$name.calls"
}

# fio 3.42, 16 writes of 4k (strace): one syncfs per loop, in place of
# end_fsync's fsyncs, none from fsync_on_close with it, fsync=4's three
# fsyncs kept; the report's sync count holds fsync=N's only
test_expect_success_if STRACE 'end_syncfs: one syncfs(2) per loop, as fio 3.42' '
	syncs one --end_syncfs=1 &&
	echo "syncfs 1 fsync 0" >expect && test_cmp expect one.calls &&
	syncs loops --end_syncfs=1 --loops=3 --nrfiles=2 &&
	echo "syncfs 3 fsync 0" >expect && test_cmp expect loops.calls &&
	syncs both --end_syncfs=1 --end_fsync=1 --fsync_on_close=1 &&
	echo "syncfs 1 fsync 0" >expect && test_cmp expect both.calls &&
	syncs n --end_syncfs=1 --fsync=4 --ioengine=libaio --iodepth=4 &&
	echo "syncfs 1 fsync 3" >expect && test_cmp expect n.calls &&
	grep -A3 "\"sync\" *:" n.json | grep "\"total_ios\" *: *3,"
'

test_expect_success_if STRACE 'end_syncfs: made on the first file'"'"'s directory, after the last write' '
	syncs dir --end_syncfs=1 &&
	grep -B1 " syncfs(" dir.trace | head -1 | grep "\"d\", .*O_DIRECTORY" &&
	awk "/ syncfs\\(/ { s = NR } / pwrite64\\(/ { w = NR } END { exit !(s > w) }" \
		dir.trace
'

# fio 3.42: no syncfs for a job that does not write, nor with the null
# engine, nor with create_only
test_expect_success_if STRACE 'end_syncfs: none without file writes' '
	syncs rd --end_syncfs=1 --rw=read &&
	grep "^syncfs 0 " rd.calls &&
	syncs null --end_syncfs=1 --ioengine=null &&
	grep "^syncfs 0 " null.calls &&
	syncs co --end_syncfs=1 --create_only=1 &&
	grep "^syncfs 0 " co.calls
'

test_expect_success 'end_syncfs: a value that is not a boolean is refused' '
	test_must_fail "$IOLITE" --name=j --filename=f --size=64k \
		--end_syncfs=2 >out 2>err &&
	grep "end_syncfs" err &&
	test_path_is_missing f
'

test_done

#!/bin/sh
# sync_file_range=flags:N (fio 3.33's HOWTO): every N writes, a
# sync_file_range(2) with those flags over the range the file's writes
# covered since its last sync; fsync=N's count (t/sbs/loops.txt compares
# the counts and the write_iolog sequences with fio's). Here: the calls'
# arguments, fio's and fixed ones, the report's sync block, the log's
# lines and their replay, and the option's grammar.

. "$(dirname "$0")/test-lib.sh"

# Both fio and strace for the comparisons of syscalls: skipped for the
# first one missing.
test_have_prereq FIO && FIO_STRACE=STRACE || FIO_STRACE=FIO

# trace TOOL NAME ARGS...: the job under strace, its sync_file_range
# calls into NAME.calls ("OFFSET NBYTES FLAGS"), its report in NAME.out
trace() {
	tool=$1 name=$2
	shift 2
	rm -f f &&
	strace -f -qq -o "$name.trace" -e trace=sync_file_range \
		"$tool" --name=j --filename=f "$@" >"$name.out" 2>"$name.err" &&
	sed -n 's/^[0-9]* *sync_file_range([0-9]*, \([0-9]*\), \([0-9]*\), \([A-Z_|]*\)) = 0$/\1 \2 \3/p' \
		"$name.trace" >"$name.calls"
}

SEQ="--size=64k --bs=4k --rw=write --sync_file_range=wait_before,write:4"

test_expect_success_if STRACE 'every 4 writes: the range written since the last call, the flags' '
	trace "$IOLITE" seq $SEQ &&
	test_must_be_empty seq.err &&
	cat >expect <<-\EOF &&
	0 16384 SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE
	16384 16384 SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE
	32768 16384 SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE
	EOF
	test_cmp expect seq.calls
'

test_expect_success 'the report counts them as syncs, not as short writes' '
	rm -f f &&
	"$IOLITE" --name=j --filename=f $SEQ >out 2>err &&
	test_must_be_empty err &&
	grep "issued rwts: total=0,16,0,3 short=0,0,0,0 " out &&
	grep "sync (.sec): min=" out
'

test_expect_success 'write_iolog logs each one after every 4th write, length 0' '
	rm -f f &&
	"$IOLITE" --name=j --filename=f $SEQ --write_iolog=w.log >out 2>err &&
	test_must_be_empty err &&
	awk "\$3 == \"write\" { n++ } \$3 == \"sync_file_range\" { print n, \$5 }" \
		w.log >actual &&
	printf "4 0\n8 0\n12 0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a replay skips the logged sync_file_range lines, as fio' '
	"$IOLITE" --name=r --read_iolog=w.log >out 2>err &&
	test_must_be_empty err &&
	grep "issued rwts: total=0,16,0,0 " out
'

test_expect_success_if STRACE 'random writes: from the lowest to the end of the highest' '
	trace "$IOLITE" rand --size=64k --bs=4k --rw=randwrite \
		--sync_file_range=write:4 --write_iolog=rand.log &&
	test_must_be_empty rand.err &&
	awk "\$3 == \"write\" { if (!n++ || \$4 < lo) lo = \$4
				if (\$4 + \$5 > hi) hi = \$4 + \$5 }
	     \$3 == \"sync_file_range\" { print lo, hi - lo, \"SYNC_FILE_RANGE_WRITE\"
					n = 0; hi = 0 }" rand.log >expect &&
	test $(wc -l <expect) = 3 &&
	test_cmp expect rand.calls
'

# a new loop begins with the sync the last one ended with (fio 3.33:
# 4 logged, 3 calls): a sync_file_range with nothing written since the
# last makes no call
test_expect_success_if STRACE 'nothing written since the last sync: counted and logged, no call' '
	trace "$IOLITE" mixed --size=32k --bs=4k --rw=write --loops=2 \
		--sync_file_range=write:4 --write_iolog=mixed.log &&
	test_must_be_empty mixed.err &&
	awk "\$3 == \"write\" { w = 1 }
	     \$3 == \"sync_file_range\" { n++; if (w) c++; w = 0 }
	     END { print n, c }" mixed.log >counts &&
	read lines calls <counts &&
	test "$calls" -lt "$lines" &&
	test $(wc -l <mixed.calls) = "$calls" &&
	grep "issued rwts: total=[0-9]*,[0-9]*,0,$lines " mixed.out
'

test_expect_success_if $FIO_STRACE 'the calls fio 3.33 makes for the same jobs' '
	trace fio fio-seq $SEQ &&
	test_cmp fio-seq.calls seq.calls &&
	for args in "--size=32k --bs=4k --rw=write --sync_file_range=write:3 --loops=2" \
		    "--size=64k --bs=16k --rw=write --sync_file_range=wait_after" \
		    "--size=64k --bs=4k --rw=write --nrfiles=2 --sync_file_range=write:3"; do
		trace fio fio-x $args && trace "$IOLITE" x $args &&
		test_must_be_empty x.err &&
		test -s x.calls &&
		test_cmp fio-x.calls x.calls || return 1
	done
'

test_expect_success 'sync_file_range: the grammar' '
	"$IOLITE" --parse-only --name=j --sync_file_range=write >out 2>err &&
	grep "^sync_file_range=write:1$" out &&
	"$IOLITE" --parse-only --name=j \
		--sync_file_range=wait_after,wait_before,write:8 >out 2>err &&
	grep "^sync_file_range=wait_before,write,wait_after:8$" out &&
	test_must_fail "$IOLITE" --parse-only --name=j \
		--sync_file_range=WRITE:2 2>err &&
	grep "option .sync_file_range.: invalid value .WRITE." err &&
	test_must_fail "$IOLITE" --parse-only --name=j \
		--sync_file_range=write:4k 2>err &&
	grep "option .sync_file_range.: invalid number of writes .4k." err
'

test_expect_success 'sync_file_range=write:0 makes no sync' '
	rm -f f &&
	"$IOLITE" --name=j --filename=f --size=16k --bs=4k --rw=write \
		--sync_file_range=write:0 >out 2>err &&
	test_must_be_empty err &&
	grep "issued rwts: total=0,4,0,0 " out
'

test_done

#!/bin/sh
# I/O logs: write_iolog writes fio's version 3 format; read_iolog replays
# version 2 and 3 logs (iolite's and fio's) with the same offsets, sizes
# and directions, at the logged times unless replay_no_stall; redirect,
# skip, scale, align, chunked reading; bad logs refused before any I/O.
. "$(dirname "$0")/test-lib.sh"

# the log without its timestamps: what a replay must reproduce
strip_ts() {
	sed "1d; s/^[0-9]* //" "$1"
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

test_expect_success 'write_iolog: version 3 header, add/open/close, a line per I/O' '
	"$IOLITE" --name=w --ioengine=psync --filename=a:b --size=128k \
		--rw=randrw --bs=4k --fsync=5 --write_iolog=w.log \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(head -n 1 w.log)" = "fio version 3 iolog" &&
	sed -n 2,4p w.log | cut -d" " -f2- >head &&
	printf "a add\nb add\na open\n" >want &&
	test_cmp want head &&
	# each file is opened just before its first I/O, as fio logs it
	test "$(grep " b " w.log | sed -n 2p | cut -d" " -f2-)" = "b open" &&
	tail -n 2 w.log | cut -d" " -f2- >tail &&
	printf "a close\nb close\n" >want &&
	test_cmp want tail &&
	test "$(grep -Ec " (read|write) [0-9]+ 4096$" w.log)" = 32 &&
	test "$(grep -c " sync 0 0$" w.log)" -gt 0 &&
	! sed 1d w.log | grep -Ev "^[0-9]+ [ab] (add|open|close|(read|write|sync) [0-9]+ [0-9]+)$" &&
	# times never go backwards
	sed 1d w.log | cut -d" " -f1 | sort -n -c
'

test_expect_success 'a replay issues the same I/O: files, offsets, sizes, directions, syncs' '
	"$IOLITE" --name=r --ioengine=psync --read_iolog=w.log \
		--write_iolog=r.log >out 2>err &&
	test_must_be_empty err &&
	strip_ts w.log >want &&
	strip_ts r.log >got &&
	test_cmp want got &&
	grep -q "issued rwts: total=[1-9][0-9]*,[1-9]" out
'

test_expect_success 'mixed sizes and trims replay; the job takes its sizes from the log' '
	"$IOLITE" --name=m --ioengine=psync --filename=m --size=1m \
		--rw=randtrimwrite --bssplit=4k/50:64k/50 --number_ios=40 \
		--write_iolog=m.log >out 2>err &&
	test_must_be_empty err &&
	grep -q " trim " m.log && grep -q " 65536$" m.log &&
	"$IOLITE" --name=m2 --ioengine=psync --bs=512 --read_iolog=m.log \
		--write_iolog=m2.log >out 2>err &&
	test_must_be_empty err &&
	strip_ts m.log >want && strip_ts m2.log >got && test_cmp want got
'

test_expect_success_if LIBAIO 'queued replay, read in chunks, reproduces a long log' '
	"$IOLITE" --name=q --ioengine=libaio --iodepth=8 --filename=q \
		--size=24m --rw=randrw --bs=4k --write_iolog=q.log \
		>out 2>err &&
	test "$(wc -l <q.log)" -gt 6000 &&
	"$IOLITE" --name=q2 --ioengine=libaio --iodepth=8 --read_iolog=q.log \
		--read_iolog_chunked=1 --replay_no_stall=1 \
		--write_iolog=q2.log >out 2>err &&
	test_must_be_empty err &&
	strip_ts q.log >want && strip_ts q2.log >got && test_cmp want got
'

test_expect_success 'timestamps are honoured; replay_no_stall and replay_time_scale go faster' '
	dd if=/dev/zero of=t bs=64k count=1 2>/dev/null &&
	{
		echo "fio version 3 iolog" &&
		echo "0 t add" && echo "0 t open" &&
		for i in 0 1 2 3 4 5 6 7 8 9 10; do
			echo "$((i * 80000)) t read $((i * 4096)) 4096"
		done &&
		echo "800000 t close"
	} >t.log &&
	# the job'"'"'s own run time (the report'"'"'s run=), not the process'"'"'s
	# wall time: start-up under a sanitizer or a load is no part of it
	"$IOLITE" --name=t --ioengine=psync --read_iolog=t.log >out 2>err &&
	test_must_be_empty err &&
	t1=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	"$IOLITE" --name=t --ioengine=psync --read_iolog=t.log \
		--replay_no_stall=1 >out 2>err &&
	t2=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	"$IOLITE" --name=t --ioengine=psync --read_iolog=t.log \
		--replay_time_scale=400 >out 2>err &&
	t3=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	echo "logged 800 ms; replay $t1 ms, no_stall $t2 ms, x4 $t3 ms" &&
	test "$t1" -ge 750 && test "$t1" -lt 3000 &&
	test "$t2" -lt 300 &&
	test "$t3" -ge 180 && test "$t3" -lt $((t1 - 200)) &&
	grep -q "issued rwts: total=11,0" out
'

test_expect_success 'runtime= ends a replay that is waiting for its next I/O' '
	{
		echo "fio version 3 iolog" &&
		echo "0 t add" && echo "0 t open" &&
		echo "0 t read 0 4096" &&
		echo "30000000 t read 4096 4096"
	} >long.log &&
	t0=$(now_ms) &&
	"$IOLITE" --name=t --ioengine=psync --read_iolog=long.log \
		--runtime=300ms >out 2>err &&
	t1=$(now_ms) &&
	test $((t1 - t0)) -lt 3000 &&
	grep -q "issued rwts: total=1,0" out
'

test_expect_success 'replay_redirect sends every I/O to one file; the logged ones stay untouched' '
	"$IOLITE" --name=w --ioengine=psync --filename=x1:x2 --size=64k \
		--rw=write --bs=8k --write_iolog=x.log >out 2>err &&
	cksum x1 x2 >before &&
	"$IOLITE" --name=r --ioengine=psync --read_iolog=x.log \
		--replay_redirect=red --write_iolog=red.log >out 2>err &&
	test_must_be_empty err &&
	cksum x1 x2 >after && test_cmp before after &&
	test "$(stat -c %s red)" = 32768 &&
	test "$(grep -c "^[0-9]* red write " red.log)" = 8 &&
	! grep -q " x[12] " red.log &&
	strip_ts x.log | sed "s/^x[12] //" | grep write >want &&
	strip_ts red.log | sed "s/^red //" | grep write >got &&
	test_cmp want got
'

test_expect_success 'replay_skip, replay_scale and replay_align change what is replayed' '
	{
		echo "fio version 3 iolog" &&
		echo "0 s add" && echo "0 s open" &&
		echo "1 s write 8192 4096" &&
		echo "2 s read 20480 4096" &&
		echo "3 s sync 0 0" &&
		echo "4 s write 40960 8192"
	} >s.log &&
	dd if=/dev/zero of=s bs=64k count=1 2>/dev/null &&
	"$IOLITE" --name=s --ioengine=psync --read_iolog=s.log \
		--replay_skip=read,sync --replay_scale=2 --replay_align=8k \
		--write_iolog=s2.log >out 2>err &&
	test_must_be_empty err &&
	strip_ts s2.log | grep -v "add\|open\|close" >got &&
	printf "s write 0 4096\ns write 16384 8192\n" >want &&
	test_cmp want got
'

test_expect_success 'a version 2 log replays, waits included' '
	{
		echo "fio version 2 iolog" &&
		echo "t add" && echo "t open" &&
		echo "t read 0 4096" &&
		echo "t wait 300000 0" &&
		echo "t write 4096 4096" &&
		echo "t close"
	} >v2.log &&
	t0=$(now_ms) &&
	"$IOLITE" --name=v --ioengine=psync --read_iolog=v2.log \
		--write_iolog=v2w.log >out 2>err &&
	t1=$(now_ms) &&
	test_must_be_empty err &&
	test $((t1 - t0)) -ge 280 &&
	strip_ts v2w.log | grep -v "add\|open\|close" >got &&
	printf "t read 0 4096\nt write 4096 4096\n" >want &&
	test_cmp want got
'

test_expect_success 'numjobs: clones take the logs of a list in turn' '
	"$IOLITE" --name=n --ioengine=psync --read_iolog=s.log:t.log \
		--numjobs=2 --replay_no_stall=1 --group_reporting=1 \
		>out 2>err &&
	test_must_be_empty err &&
	grep -q "issued rwts: total=12,2,0,1" out
'

test_expect_success 'bad log lines are refused with the log file:line, before any I/O' '
	{
		echo "fio version 3 iolog" &&
		echo "0 newfile add" && echo "0 newfile open" &&
		echo "5 newfile write 0 4096" &&
		echo "6 newfile frobnicate 0 4096"
	} >bad.log &&
	test_must_fail "$IOLITE" --name=b --read_iolog=bad.log \
		--replay_redirect=never --write_iolog=never.log >out 2>err &&
	grep "bad.log:5: unknown action .frobnicate." err &&
	grep "option .read_iolog." err &&
	test_path_is_missing never && test_path_is_missing never.log &&
	test_path_is_missing newfile
'

test_expect_success 'a bare sync line is refused: it needs an offset and a length' '
	dd if=/dev/zero of=bs bs=4k count=1 2>/dev/null &&
	printf "fio version 2 iolog\nbs add\nbs open\nbs sync\n" >bs.log &&
	test_must_fail "$IOLITE" --name=b --read_iolog=bs.log >out 2>err &&
	grep "bs.log:4: .sync. needs an offset and a length (0 0, as write_iolog writes it)$" err &&
	printf "fio version 2 iolog\nbs add\nbs open\nbs read\n" >br.log &&
	test_must_fail "$IOLITE" --name=b --read_iolog=br.log >out 2>err &&
	grep "br.log:4: .read. needs an offset and a length$" err
'

# Each sync and datasync of a log is an I/O of the worker loops: counted
# in the sync slot of "issued rwts", never past it (datasync's index was
# past the end of issued[] and pace's per-direction table: a sanitizer
# build stops there; the plain build reported short reads).
for eng in "psync" "null --iodepth=4" "psync --rate_iops=100000" \
	   "null --iodepth=4 --rate_iops=100000 --thinktime=1"; do
	test_expect_success "replayed syncs and datasyncs: ioengine=$eng" '
		dd if=/dev/zero of=ds bs=4k count=4 2>/dev/null &&
		{
			echo "fio version 2 iolog" &&
			echo "ds add" && echo "ds open" &&
			echo "ds write 0 4096" && echo "ds datasync 0 0" &&
			echo "ds read 4096 4096" && echo "ds sync 0 0" &&
			echo "ds trim 8192 4096" && echo "ds datasync 0 0" &&
			echo "ds close"
		} >ds.log &&
		"$IOLITE" --name=d --ioengine=$eng --read_iolog=ds.log \
			--replay_no_stall=1 >out 2>err &&
		test_must_be_empty err &&
		grep -q "issued rwts: total=1,1,1,3 short=0,0,0,0 dropped=0,0,0,0" out
	'
done

test_expect_success 'rate_iops paces a replay by I/Os, whatever their sizes' '
	dd if=/dev/zero of=ri bs=64k count=1 2>/dev/null &&
	{
		echo "fio version 2 iolog" &&
		echo "ri add" && echo "ri open" &&
		echo "ri read 0 1" &&
		for i in 1 2 3 4 5 6 7 8 9 10; do
			echo "ri read $((i * 4096)) 4096"
		done
	} >ri.log &&
	# 11 I/Os at 100 a second: 100 ms; in bytes at the smallest I/O
	# (100 B/s) the second alone would be due 10 s after the first
	"$IOLITE" --name=r --ioengine=psync --read_iolog=ri.log \
		--replay_no_stall=1 --rate_iops=100 >out 2>err &&
	test_must_be_empty err &&
	grep -q "issued rwts: total=11,0,0,0" out &&
	t=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	echo "11 I/Os at rate_iops=100: $t ms" &&
	test "$t" -ge 90 && test "$t" -lt 2000
'

test_expect_success 'files a log names must exist: iolite does not create them' '
	{
		echo "fio version 3 iolog" &&
		echo "0 $TRASH/nothere add" && echo "0 $TRASH/nothere open" &&
		echo "5 $TRASH/nothere write 0 4096"
	} >miss.log &&
	test_must_fail "$IOLITE" --name=b --read_iolog=miss.log >out 2>err &&
	grep "nothere. (named in .miss.log.) does not exist" err &&
	test_path_is_missing nothere
'

test_expect_success 'replay options need read_iolog; blktrace and bad values refused' '
	test_must_fail "$IOLITE" --name=b --filename=f --size=4k \
		--replay_no_stall=1 2>err &&
	grep "option .replay_no_stall. needs read_iolog" err &&
	printf "\007tae0000000000000000" >bt.bin &&
	test_must_fail "$IOLITE" --name=b --read_iolog=bt.bin 2>err &&
	grep "blktrace replay is not supported" err &&
	test_must_fail "$IOLITE" --name=b --read_iolog=s.log \
		--replay_align=3000 2>err &&
	grep "not a power of 2" err &&
	test_must_fail "$IOLITE" --name=b --read_iolog=s.log \
		--replay_skip=reads 2>err &&
	grep "invalid value .reads." err &&
	test_must_fail "$IOLITE" --name=b --filename=f --size=4k \
		--write_iolog=nodir/x.log 2>err &&
	grep "option .write_iolog.: cannot write" err &&
	test_path_is_missing f
'

# one job file: a job records, a later stonewall group replays (fio reads
# the log when the job starts)
rec_replay_job() {
	cat <<-EOF
	[global]
	ioengine=psync
	[rec]
	filename=$1
	size=256k
	rw=randrw
	bs=4k
	fsync=7
	write_iolog=$2
	[replay]
	stonewall
	replay_no_stall=1
	read_iolog=$2
	$3
	EOF
}

issued() {
	sed -n "s/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p" "$1"
}

test_expect_success 'one job file records a log and a later group replays it' '
	rec_replay_job one one.log "write_iolog=one-r.log" >one.fio &&
	"$IOLITE" one.fio >out 2>err &&
	test_must_be_empty err &&
	strip_ts one.log >want &&
	strip_ts one-r.log >got &&
	test_cmp want got &&
	grep -q " write " one.log && grep -q " sync " one.log &&
	issued out >n &&
	test "$(wc -l <n)" = 2 &&
	test "$(sed -n 1p n)" = "$(sed -n 2p n)"
'

test_expect_success 'the writer and the replay may spell the log path differently' '
	# ./dot.log written, $PWD//dot.log replayed: the same file
	rec_replay_job one ./dot.log "" |
		sed "s|^read_iolog=.*|read_iolog=$PWD//dot.log|" >dot.fio &&
	"$IOLITE" dot.fio >out 2>err &&
	test_must_be_empty err &&
	issued out >n &&
	test "$(sed -n 1p n)" = "$(sed -n 2p n)"
'

test_expect_success 'a log an earlier group writes is checked when the job starts' '
	# stale lines before what the job appends: read at start, not before
	{
		echo "fio version 3 iolog" &&
		echo "0 one add" && echo "0 one open" &&
		echo "1 one frobnicate 0 4096"
	} >late.log &&
	rec_replay_job one late.log "write_iolog=never.log" >late.fio &&
	test_must_fail "$IOLITE" late.fio >out 2>err &&
	grep "job .replay.: late.fio:[0-9]*: option .read_iolog.: late.log:4: unknown action .frobnicate." err &&
	grep -q "^rec: (groupid=0, jobs=1): err= 0" out &&
	test_path_is_missing never.log &&
	{
		echo "fio version 3 iolog" &&
		echo "0 other add" && echo "0 other open" &&
		echo "1 other read 0 4096"
	} >late.log &&
	test_must_fail "$IOLITE" late.fio >out 2>err &&
	grep "late.log:4: I/O to .other., which is not a file of the jobs that write the log" err &&
	test_path_is_missing other
'

test_expect_success 'a replay of a log its writers only read may not write' '
	dd if=/dev/zero of=ro bs=64k count=4 2>/dev/null &&
	{
		echo "fio version 3 iolog" &&
		echo "0 ro add" && echo "0 ro open" &&
		echo "1 ro write 0 4096"
	} >ro.log &&
	rec_replay_job ro ro.log | sed "s/^rw=randrw/rw=randread/" >ro.fio &&
	cksum ro >before &&
	test_must_fail "$IOLITE" ro.fio >out 2>err &&
	grep "ro.log:4: a write, but the jobs that write the log do not write" err &&
	cksum ro >after && test_cmp before after &&
	# --readonly: refused up front when the recording job writes
	rm -f one2 one2.log &&
	rec_replay_job one2 one2.log >ro2.fio &&
	test_must_fail "$IOLITE" --readonly ro2.fio >out 2>err &&
	grep "refuses jobs that write" err &&
	test_path_is_missing one2 && test_path_is_missing one2.log
'

test_expect_success 'a missing log no earlier group writes is refused before any file is created' '
	rec_replay_job gone1 gone.log | grep -v "^stonewall" >same.fio &&
	test_must_fail "$IOLITE" same.fio >out 2>err &&
	grep "gone.log. does not exist, and no job of an earlier stonewall group writes it" err &&
	test_path_is_missing gone1 && test_path_is_missing gone.log &&
	cat >later.fio <<-EOF &&
	[replay]
	read_iolog=gone.log
	[rec]
	stonewall
	filename=gone1
	size=64k
	write_iolog=gone.log
	EOF
	test_must_fail "$IOLITE" later.fio >out 2>err &&
	grep "later.fio:2: option .read_iolog.: .gone.log. does not exist" err &&
	test_path_is_missing gone1 && test_path_is_missing gone.log
'

test_expect_success_if FIO 'record then replay in one job file: fio 3.33 replays as many I/Os' '
	# fio ignores write_iolog in a replaying job: compare the counts
	rec_replay_job "$TRASH/ff1" "$TRASH/ff1.log" >f1.fio &&
	fio --output=fout f1.fio 2>ferr &&
	issued fout >fn &&
	test "$(wc -l <fn)" = 2 &&
	test "$(sed -n 1p fn)" = "$(sed -n 2p fn)" &&
	rec_replay_job "$TRASH/ff2" "$TRASH/ff2.log" >f2.fio &&
	"$IOLITE" f2.fio >out 2>err &&
	test_must_be_empty err &&
	issued out >n &&
	test "$(sed -n 1p n)" = "$(sed -n 2p n)" &&
	echo "fio: $(cat fn | tr "\n" " ") iolite: $(cat n | tr "\n" " ")" &&
	# the same I/O count per run: size / bs, split between reads and writes
	test "$(sed -n 1p fn | awk "{ print \$1 + \$2 }")" = \
		"$(sed -n 1p n | awk "{ print \$1 + \$2 }")" &&
	test "$(grep -Ec " (read|write) " ff1.log)" = \
		"$(grep -Ec " (read|write) " ff2.log)"
'

test_expect_success_if FIO 'a log fio 3.33 writes replays the same in iolite' '
	fio --name=f --ioengine=psync --filename="$TRASH/ff" --size=64k \
		--rw=randrw --bs=4k --fsync=3 --write_iolog=fio.log \
		--output=/dev/null &&
	test "$(head -n 1 fio.log)" = "fio version 3 iolog" &&
	"$IOLITE" --name=r --ioengine=psync --read_iolog=fio.log \
		--write_iolog=fio2.log >out 2>err &&
	test_must_be_empty err &&
	# fio 3.33 writes the offset of the I/O before on a sync line
	strip_ts fio.log | grep -v "add\|open\|close" |
		sed "s/ sync [0-9]* / sync 0 /" >want &&
	strip_ts fio2.log | grep -v "add\|open\|close" >got &&
	test_cmp want got &&
	# same layout line for line: add, open, I/O, close
	strip_ts fio.log | cut -d" " -f2 | uniq >want &&
	strip_ts fio2.log | cut -d" " -f2 | uniq >got &&
	test_cmp want got
'

test_expect_success_if FIO 'a log iolite writes replays in fio 3.33' '
	"$IOLITE" --name=w --ioengine=psync --filename="$TRASH/fi" --size=64k \
		--rw=randrw --bs=4k --write_iolog=io.log >out 2>err &&
	n=$(grep -Ec " (read|write) " io.log) &&
	fio --name=r --ioengine=psync --read_iolog=io.log \
		--replay_no_stall=1 >fout 2>err &&
	test_must_be_empty err &&
	rw=$(sed -n "s/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p" fout) &&
	echo "iolite logged $n, fio replayed $rw (reads, writes)" &&
	test $(echo "$rw" | awk "{ print \$1 + \$2 }") = "$n" &&
	test "$(grep -c " read " io.log) $(grep -c " write " io.log)" = "$rw"
'

# fio 3.42's own tests replay logs of 2 GiB trims beside 4 KiB writes at
# iodepth 128: buffers sized by the trims would be 256 GiB (fio 3.42
# itself fails there unless memory is overcommitted)
test_expect_success_if JQ 'a replay sizes its buffers by reads and writes, not trims' '
	truncate -s 3G big.dat &&
	{
		echo "fio version 2 iolog" &&
		echo "$PWD/big.dat add" && echo "$PWD/big.dat open" &&
		echo "$PWD/big.dat trim 0 2147483648" &&
		echo "$PWD/big.dat write 0 4096" &&
		echo "$PWD/big.dat write 2147483648 8192" &&
		echo "$PWD/big.dat close"
	} >trims.log &&
	"$IOLITE" --name=t --read_iolog=trims.log --ioengine=null \
		--iodepth=128 --mem=malloc --output-format=json >out 2>err &&
	test_must_be_empty err &&
	test "$(jq -c ".jobs[0] | [.trim.io_bytes, .write.io_bytes]" out)" = \
		"[2147483648,12288]"
'

test_done

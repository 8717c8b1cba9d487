#!/bin/sh
# Trims: rw=trim, randtrim, trimwrite, randtrimwrite with every engine
# that can trim (fallocate punch-hole on files, BLKDISCARD on block
# devices), block sizes given per direction, and trim statistics in every
# output, shaped as fio's (compared on a loop device, which discards).

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

JSONCMP="$TEST_DIR/jsoncmp.py"
IMG=$TRASH_SHM/t1400.img
no_samples=1

# A loop device over an image in /dev/shm, released at the end.
loop_dev() {
	test_loop_once "$IMG" 8M
}

# zero_pages FILE BS: how many BS-sized blocks of FILE are all zeroes.
zero_blocks() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
bs = int(sys.argv[2])
print(sum(1 for i in range(0, len(d), bs) if not d[i:i + bs].strip(b"\0")))
' "$1" "$2"
}

engines="sync psync vsync pvsync pvsync2 mmap"
test_have_prereq LIBAIO && engines="$engines libaio"
test_have_prereq IO_URING && engines="$engines io_uring"

for e in $engines; do
	test_expect_success "$e: trim punches every block out of a file" "
		\"\$IOLITE\" --name=w --filename=f-$e --size=1m --bs=64k \
			--rw=write >/dev/null &&
		test \$(stat -c %b f-$e) -gt 0 &&
		\"\$IOLITE\" --name=t --filename=f-$e --size=1m --bs=64k \
			--rw=randtrim --ioengine=$e --iodepth=4 >out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out)\" = 0,0,16,0 &&
		test \$(stat -c %b f-$e) = 0 &&
		test \$(stat -c %s f-$e) = 1048576
	"
done

test_expect_success 'null engine: trims are counted' '
	"$IOLITE" --name=t --ioengine=null --size=1m --bs=4k --rw=trim \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,0,256,0
'

# the trim size the smallest: with a smaller read size the random map
# is fio's in mismatched units, which may end the pass early
test_expect_success_if PYTHON3 'randtrimwrite bs=16k,32k,8k: each trim written back whole' '
	truncate -s 1m rtw &&
	"$IOLITE" --name=t --filename=rtw --size=1m --bs=16k,32k,8k \
		--rw=randtrimwrite >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,128,128,0 &&
	grep -q "^  write: IOPS=.*(1024KiB/" out &&
	test "$(zero_blocks rtw 4096)" = 0
'

test_expect_success_if PYTHON3 'trimwrite bs=4k,8k,16k: fio'"'"'s order and counts' '
	truncate -s 64k tw &&
	"$IOLITE" --name=t --filename=tw --size=64k --bs=4k,8k,16k \
		--rw=trimwrite --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	python3 - out.json <<-\EOF
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"][0]
	assert j["trim"]["total_ios"] == 4 and j["trim"]["io_bytes"] == 65536
	assert j["write"]["total_ios"] == 7 and j["write"]["io_bytes"] == 57344
	EOF
'

test_expect_success_if PYTHON3 'trimwrite: every block trimmed is written again' '
	"$IOLITE" --name=w --filename=tw2 --size=1m --bs=64k --rw=write \
		--zero_buffers >/dev/null &&
	"$IOLITE" --name=t --filename=tw2 --size=1m --bs=16k --rw=trimwrite \
		>out 2>err &&
	test "$(issued out)" = 0,64,64,0 &&
	test "$(zero_blocks tw2 4096)" = 0 &&
	test $(stat -c %b tw2) -ge 2048
'

test_expect_success_if PYTHON3 'trim statistics in normal, JSON, json+ and terse' '
	"$IOLITE" --name=t --filename=st --size=1m --bs=4k --rw=trimwrite \
		--output-format=normal,json+,terse >out 2>err &&
	test_must_be_empty err &&
	grep -q "^  trim: IOPS=" out &&
	grep -q "^   TRIM: bw=.*io=1024KiB" out &&
	sed -n "/^{/,/^}/p" out >out.json &&
	python3 - out.json <<-\EOF
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"][0]["trim"]
	assert j["total_ios"] == 256 and j["clat_ns"]["N"] == 256
	assert sum(j["clat_ns"]["bins"].values()) == 256
	assert j["iops"] > 0 and j["bw_bytes"] > 0
	EOF
	grep -q "^3;iolite" out
'

test_expect_success_if LOOP,PYTHON3 'a device: discarded blocks read back as zeroes' '
	dev=$(loop_dev) &&
	"$IOLITE" --name=w --filename=$dev --size=4m --bs=64k --rw=write \
		>/dev/null 2>err &&
	test_must_be_empty err &&
	test "$(head -c 4194304 $dev | zero_blocks /dev/stdin 65536)" = 0 &&
	"$IOLITE" --name=t --filename=$dev --size=4m --bs=64k --rw=randtrim \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,0,64,0 &&
	test "$(head -c 4194304 $dev | zero_blocks /dev/stdin 65536)" = 64
'

# fio 3.33 aligns random trims to the smallest block size of all the
# directions and stops early when bs differs per direction (29 of 64 trims
# for bs=4k,8k,16k over 1 MiB): random modes are compared with one size.
for rw in randtrim trimwrite randtrimwrite; do
	bs=16k
	test $rw = trimwrite && bs=4k,8k,16k
	job="--name=t --size=1m --bs=$bs --rw=$rw"
	test_expect_success_if LOOP,FIO "$rw on a device: normal report as fio's" "
		dev=\$(loop_dev) &&
		fio $job --filename=\$dev >f.txt 2>/dev/null &&
		\"\$IOLITE\" $job --filename=\$dev >i.txt 2>err &&
		test_must_be_empty err &&
		test \"\$(issued f.txt)\" = \"\$(issued i.txt)\" &&
		normalize f.txt | drop_samples >f.norm &&
		normalize i.txt | drop_samples >i.norm &&
		test_cmp f.norm i.norm
	"
	test_expect_success_if LOOP,FIO,PYTHON3 "$rw on a device: json+ and terse as fio's" "
		dev=\$(loop_dev) &&
		fio $job --filename=\$dev --output-format=json+ \
			>f.json 2>/dev/null &&
		\"\$IOLITE\" $job --filename=\$dev \
			--output-format=json+ >i.json &&
		python3 \"\$JSONCMP\" f.json i.json &&
		fio $job --filename=\$dev --output-format=terse \
			>f.t 2>/dev/null &&
		\"\$IOLITE\" $job --filename=\$dev --output-format=terse \
			>i.t &&
		test \$(tr ';' '\n' <f.t | wc -l) = \
		     \$(tr ';' '\n' <i.t | wc -l)
	"
done

test_done

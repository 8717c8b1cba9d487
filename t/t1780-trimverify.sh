#!/bin/sh
# Verify trims (trim_percentage, trim_backlog, trim_backlog_batch,
# trim_verify_zero), verify_backlog_batch and softrandommap, with fio
# 3.33's semantics. The I/O sequences below are fio's (write_iolog of
# fio 3.33 on a loop device over /dev/shm: fio trims only block devices;
# iolite punches holes in files, which read back as zeroes too). Where
# fio and a loop device are there, both run the same jobs on a device.

. "$(dirname "$0")/test-lib.sh"

IMG=$TRASH_SHM/t1780.img

# A loop device over an image in /dev/shm, released at the end.
loop_dev() {
	test_loop_once "$IMG" 8M
}

# seq LOG: the I/O lines of a write_iolog as t0 w0 r0 ... (4k blocks)
seq_of() {
	awk 'NR > 1 && $3 != "open" && $3 != "close" && $3 != "add" {
		printf "%s%s%d", sep, substr($3, 1, 1), $4 / 4096; sep = " "
	} END { print "" }' "$1"
}

# run_seq NAME TARGET OPTIONS...: iolite's job, its issued counts in
# NAME.ios and its I/O sequence in NAME.seq
run_seq() {
	n=$1 t=$2
	shift 2
	rm -f "$n.log" &&
	"$IOLITE" --name="$n" --filename="$t" --bs=4k --size=64k \
		--verify=crc32c --write_iolog="$n.log" "$@" >"$n.out" 2>"$n.err" &&
	test_must_be_empty "$n.err" &&
	issued "$n.out" >"$n.ios" &&
	seq_of "$n.log" >"$n.seq"
}

# fio's sequences (fio 3.33, psync, on a loop device)
b4='t0 w0 t1 w1 t2 w2 t3 w3 t0 t1 t2 t3'
reads='r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r14 r15'
# trim_backlog=4 (a round of 4 every 4 blocks pending; a round goes on
# as blocks come)
cat >"$TRASH"/exp.b4 <<EOF
$b4 t4 w4 t4 t5 w5 t6 w6 t7 w7 t5 t6 t7 t8 w8 t8 t9 w9 t9 t10 w10 t11 w11 t10 t11 t12 w12 t12 t13 w13 t13 t14 w14 t14 t15 w15 t15 $reads
EOF
# trim_backlog_batch=2: rounds of 2 (the round's first trim is free)
cat >"$TRASH"/exp.batch2 <<EOF
$b4 t4 w4 t4 t5 w5 t5 t6 w6 t7 w7 t6 t7 t8 w8 t8 t9 w9 t10 w10 t11 w11 t9 t10 t11 t12 w12 t13 w13 t14 w14 t15 w15 t12 t13 t14 t15 $reads
EOF
# trim_verify_zero=0: a trimmed block is no longer pending, nor read back
cat >"$TRASH"/exp.zero0 <<EOF
$b4 t4 w4 t4 t5 w5 t6 w6 t7 w7 t8 w8 t5 t6 t7 t8 t9 w9 t9 t10 w10 t11 w11 t12 w12 t13 w13 t10 t11 t12 t13 t14 w14 t14 t15 w15 r15
EOF
# with verify_backlog=8: the read-backs take their blocks out of the trims
cat >"$TRASH"/exp.vb8 <<EOF
$b4 t4 w4 t4 t5 w5 t6 w6 t7 w7 r0 r1 r2 r3 r4 r5 r6 r7 t8 w8 t9 w9 t10 w10 t11 w11 t8 t9 t10 t11 t12 w12 t12 t13 w13 t14 w14 t15 w15 r8 r9 r10 r11 r12 r13 r14 r15
EOF

test_expect_success 'trim_backlog=4: fio'"'"'s trims, then every block checked as zeroes' '
	truncate -s 64k f &&
	run_seq b4 f --rw=trimwrite --trim_percentage=100 --trim_backlog=4 &&
	test "$(cat b4.ios)" = 16,16,32,0 &&
	test_cmp exp.b4 b4.seq &&
	test $(stat -c %b f) = 0
'

test_expect_success 'trim_backlog_batch=2: rounds of two' '
	truncate -s 64k f &&
	run_seq batch2 f --rw=trimwrite --trim_percentage=100 \
		--trim_backlog=4 --trim_backlog_batch=2 &&
	test "$(cat batch2.ios)" = 16,16,32,0 &&
	test_cmp exp.batch2 batch2.seq
'

test_expect_success 'trim_verify_zero=0: trimmed blocks are not read back' '
	truncate -s 64k f &&
	run_seq zero0 f --rw=trimwrite --trim_percentage=100 \
		--trim_backlog=4 --trim_verify_zero=0 &&
	test "$(cat zero0.ios)" = 1,16,31,0 &&
	test_cmp exp.zero0 zero0.seq
'

test_expect_success 'verify_backlog=8 with trim_backlog=4' '
	truncate -s 64k f &&
	run_seq vb8 f --rw=trimwrite --trim_percentage=100 \
		--trim_backlog=4 --verify_backlog=8 &&
	test "$(cat vb8.ios)" = 16,16,26,0 &&
	test_cmp exp.vb8 vb8.seq
'

test_expect_success 'trim_percentage=50: about half the blocks trimmed once more' '
	truncate -s 1m f &&
	"$IOLITE" --name=p --filename=f --bs=4k --size=1m --verify=crc32c \
		--rw=trimwrite --trim_percentage=50 --trim_backlog=16 \
		--trim_verify_zero=0 >out 2>err &&
	test_must_be_empty err &&
	IFS=, read r w t s <<-EOF &&
	$(issued out)
	EOF
	test $w = 256 &&
	# each extra trim is a block not read back
	test $((t - 256 + r)) = 256 &&
	test $r -gt 80 && test $r -lt 176
'

test_expect_success 'trim_percentage without trim_backlog: no trims (fio)' '
	truncate -s 64k f &&
	run_seq nob f --rw=trimwrite --trim_percentage=100 &&
	test "$(cat nob.ios)" = 16,16,16,0
'

test_expect_success 'trims with a job that does not trim: refused' '
	test_must_fail "$IOLITE" --name=x --filename=nofile --size=64k \
		--rw=write --verify=crc32c --trim_percentage=50 \
		--trim_backlog=4 >out 2>err &&
	grep "option '"'"'trim_backlog'"'"': verify trims need a job that trims" err &&
	test_path_is_missing nofile
'

test_expect_success 'trim_percentage past 100: refused' '
	test_must_fail "$IOLITE" --name=x --filename=nofile --size=64k \
		--rw=trimwrite --verify=crc32c --trim_percentage=101 \
		--trim_backlog=4 2>err &&
	grep "trim_percentage" err &&
	test_path_is_missing nofile
'

# verify_backlog_batch: fio's sequences on a file (fio 3.33, psync)
w4='w0 w1 w2 w3'
cat >"$TRASH"/exp.vbb2 <<EOF
$w4 r0 r1 w4 w5 r2 r3 w6 w7 r4 r5 w8 w9 r6 r7 w10 w11 r8 r9 w12 w13 r10 r11 w14 w15 r12 r13 r14 r15
EOF
cat >"$TRASH"/exp.vbb6 <<EOF
$w4 r0 r1 r2 r3 w4 r4 w5 r5 w6 w7 w8 w9 r6 r7 r8 r9 w10 r10 w11 r11 w12 w13 w14 w15 r12 r13 r14 r15
EOF
cat >"$TRASH"/exp.vbb3 <<EOF
$w4 r0 r1 r2 w4 w5 w6 r3 r4 r5 w7 w8 w9 r6 r7 r8 w10 w11 w12 r9 r10 r11 w13 w14 w15 r12 r13 r14 r15
EOF
for b in 2 6 3; do
	test_expect_success "verify_backlog=4 verify_backlog_batch=$b: fio's rounds" "
		rm -f v &&
		run_seq vbb$b v --rw=write --verify_backlog=4 \
			--verify_backlog_batch=$b &&
		test \"\$(cat vbb$b.ios)\" = 16,16,0,0 &&
		test_cmp exp.vbb$b vbb$b.seq
	"
done

for c in "trimwrite --trim_percentage=100 --trim_backlog=4" \
	 "trimwrite --trim_percentage=100 --trim_backlog=4 --trim_backlog_batch=2" \
	 "trimwrite --trim_percentage=100 --trim_backlog=4 --trim_backlog_batch=8" \
	 "trimwrite --trim_percentage=100 --trim_backlog=4 --trim_verify_zero=0" \
	 "trimwrite --trim_percentage=100 --trim_backlog=3 --verify_backlog=5 --trim_verify_zero=0" \
	 "trimwrite --trim_percentage=100 --trim_backlog=4 --verify_backlog=8"; do
	test_expect_success_if LOOP,FIO "on a loop device as fio: --rw=$c" "
		dev=\$(loop_dev) &&
		run_seq i \$dev --rw=$c &&
		rm -f f.log &&
		fio --name=f --filename=\$dev --bs=4k --size=64k \
			--verify=crc32c --write_iolog=f.log --rw=$c \
			>f.out 2>f.err &&
		issued f.out >f.ios && seq_of f.log >f.seq &&
		test_cmp f.ios i.ios &&
		test_cmp f.seq i.seq
	"
done

# softrandommap: the bitmap of a job with several block sizes over a
# 15 TiB file is 480 MiB; with 300 MB of address space it cannot be had
if ! truncate -s 15T "$TRASH/big" 2>/dev/null; then
	test_skip_reason="no 15 TiB sparse file on this file system"
elif ! sh -c 'ulimit -v 300000 && "$1" --name=t --filename=big --size=1m \
	--rw=randread --io_size=1m --directory="$2"' sh "$IOLITE" "$TRASH" \
	>/dev/null 2>&1; then
	test_skip_reason="iolite does not run in 300 MB of address space (a sanitizer build?)"
fi
test_expect_success 'softrandommap: without room for the map, no map' '
	(
		ulimit -v 300000 &&
		test_must_fail "$IOLITE" --name=t --filename=big \
			--rw=randread --bsrange=4k-8k --io_size=1m \
			>out 2>err &&
		grep "no memory for the random map.*softrandommap runs without" err &&
		"$IOLITE" --name=t --filename=big --rw=randread \
			--bsrange=4k-8k --io_size=1m --softrandommap=1 \
			>out 2>err
	) &&
	test_must_be_empty err &&
	grep "read: IOPS=.*(10[0-9][0-9]KiB/" out
'
test_skip_reason=
rm -f "$TRASH/big"

test_expect_success 'softrandommap with room for the map: the map is kept' '
	"$IOLITE" --name=t --filename=s --size=1m --rw=randwrite \
		--bsrange=4k-16k --softrandommap=1 --write_iolog=s.log \
		>out 2>err &&
	test_must_be_empty err &&
	# a map: every byte written exactly once
	awk "\$3 == \"write\" { n += \$5 } END { print n }" s.log >n &&
	echo 1048576 >exp &&
	test_cmp exp n
'

# serialize_overlap: 64 random writes over two 4k blocks, 8 deep: with
# the option no more than 2 are ever in flight (fio 3.33: 1=44%, 2=56%),
# without it 8 (fio: 8=89%)
depths() {
	sed -n 's/^ *IO depths *: //p' "$1"
}
for e in libaio io_uring posixaio; do
	case $e in
	libaio) t="test_expect_success_if LIBAIO" ;;
	io_uring) t="test_expect_success_if IO_URING" ;;
	*) t=test_expect_success ;;	# posixaio: glibc's
	esac
	$t "serialize_overlap ($e): overlapping I/Os one at a time" "
		\"\$IOLITE\" --name=s --filename=ov --size=8k --bs=4k \
			--rw=randwrite --norandommap --iodepth=8 --ioengine=$e \
			--number_ios=64 --io_size=1m --serialize_overlap=1 \
			>on.out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued on.out)\" = 0,64,0,0 &&
		depths on.out | grep '4=0.0%, 8=0.0%, 16=0.0%' &&
		\"\$IOLITE\" --name=s --filename=ov --size=8k --bs=4k \
			--rw=randwrite --norandommap --iodepth=8 --ioengine=$e \
			--number_ios=64 --io_size=1m >off.out 2>err &&
		depths off.out | grep -v ' 8=0.0%'
	"
done

test_expect_success 'serialize_overlap with a synchronous engine: accepted, same I/O' '
	"$IOLITE" --name=s --filename=ov --size=64k --bs=4k --rw=randwrite \
		--iodepth=8 --serialize_overlap=1 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,16,0,0
'

# verify_async: the same I/O and the same failures as inline checks
for e in psync libaio; do
	case $e in
	libaio) t="test_expect_success_if LIBAIO" ;;
	*) t=test_expect_success ;;
	esac
	$t "verify_async ($e): the same I/O as inline, every block checked" "
		for va in 0 2; do
			rm -f va.\$va va\$va.log &&
			\"\$IOLITE\" --name=a --filename=va.\$va --size=1m \
				--bs=4k --rw=randwrite --verify=crc32c \
				--verify_backlog=16 --verify_backlog_batch=5 \
				--ioengine=$e --iodepth=4 --verify_async=\$va \
				--write_iolog=va\$va.log >va\$va.out 2>err &&
			test_must_be_empty err &&
			issued va\$va.out >va\$va.ios || return 1
		done &&
		test \"\$(cat va2.ios)\" = 256,256,0,0 &&
		test_cmp va0.ios va2.ios &&
		grep -c ' read ' va2.log >n && echo 256 >exp && test_cmp exp n
	"
	$t "verify_async ($e): the first bad block stops the job, as inline" "
		rm -f bad &&
		\"\$IOLITE\" --name=b --filename=bad --size=1m --bs=4k \
			--rw=write --verify=crc32c --do_verify=0 >/dev/null &&
		printf x | dd of=bad bs=1 seek=500000 conv=notrunc 2>/dev/null &&
		printf x | dd of=bad bs=1 seek=20000 conv=notrunc 2>/dev/null &&
		for va in 0 1 3; do
			test_must_fail \"\$IOLITE\" --name=b --filename=bad \
				--size=1m --bs=4k --rw=read --verify=crc32c \
				--ioengine=$e --iodepth=8 --verify_async=\$va \
				>/dev/null 2>err.\$va || return 1
		done &&
		grep 'offset 16384 .*crc32c mismatch' err.0 &&
		test_cmp err.0 err.1 && test_cmp err.0 err.3 &&
		for va in 0 3; do
			\"\$IOLITE\" --name=b --filename=bad \
				--size=1m --bs=4k --rw=read --verify=crc32c \
				--ioengine=$e --iodepth=8 --verify_async=\$va \
				--continue_on_error=verify >out.\$va 2>err.\$va &&
			test_must_be_empty err.\$va &&
			grep '^  job .b.: verify of' out.\$va >coe.\$va &&
			issued out.\$va >>coe.ios || return 1
		done &&
		test_line_count() { test \$(wc -l <\"\$1\") = \$2; } &&
		test_line_count coe.0 2 && test_cmp coe.0 coe.3 &&
		uniq coe.ios >u && test_line_count u 1
	"
done

test_expect_success 'verify_async with trims: the same sequence' '
	truncate -s 64k f &&
	run_seq vat f --rw=trimwrite --trim_percentage=100 --trim_backlog=4 \
		--verify_backlog=8 --verify_async=2 &&
	test_cmp exp.vb8 vat.seq
'

test_expect_success 'verify_async_cpus: the threads on those CPUs' '
	"$IOLITE" --name=c --filename=c --size=256k --bs=4k --rw=write \
		--verify=crc32c --verify_async=2 --verify_async_cpus=0 \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 64,64,0,0 &&
	test_must_fail "$IOLITE" --name=c --filename=nofile --size=256k \
		--rw=write --verify=crc32c --verify_async=2 \
		--verify_async_cpus=4096 >out 2>err &&
	grep "option '"'"'verify_async_cpus'"'"': cpu 4096 does not exist" err &&
	test_path_is_missing nofile
'

test_done

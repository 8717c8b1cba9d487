#!/bin/sh
# Write buffer contents: buffer_pattern (fio's grammar: numbers, hex,
# strings, files, concatenated), buffer_compress_percentage and
# buffer_compress_chunk, dedupe_percentage with dedupe_mode, and the
# defaults (random, scrambled; zero_buffers; refill_buffers). Every case
# reads the written file back and checks the data is as asked.

. "$(dirname "$0")/test-lib.sh"

W="--rw=write --bs=4k --size=1m"

cat >"$TRASH/blocks.py" <<\EOF
# blocks.py FILE BS: "blocks dups distinct_dup_values zero_blocks"
import hashlib, sys
d = open(sys.argv[1], "rb").read()
bs = int(sys.argv[2])
seen, dupvals, dups, zeros, n = set(), set(), 0, 0, 0
for i in range(0, len(d), bs):
    b = d[i:i + bs]
    n += 1
    if not b.strip(b"\0"):
        zeros += 1
    h = hashlib.sha1(b).digest()
    if h in seen:
        dups += 1
        dupvals.add(h)
    seen.add(h)
print(n, dups, len(dupvals), zeros)
EOF

# blocks FILE BS FIELD: one field of blocks.py's line (1-based)
blocks() {
	python3 "$TRASH/blocks.py" "$1" "$2" | cut -d" " -f"$3"
}

# ratio FILE: gzip'd size as a percentage of the size
ratio() {
	echo $(( $(gzip -c "$1" | wc -c) * 100 / $(stat -c %s "$1") ))
}

# pattern_is FILE HEX: each 4 KiB block of FILE is HEX (bytes) repeated
# from the block's first byte
pattern_is() {
	python3 - "$1" "$2" <<-\EOF
	import sys
	d = open(sys.argv[1], "rb").read()
	p = bytes.fromhex(sys.argv[2])
	want = (p * (4096 // len(p) + 1))[:4096]
	sys.exit(0 if d and d == want * (len(d) // 4096) else 1)
	EOF
}

test_expect_success_if PYTHON3 'buffer_pattern: hex, decimal, string, concatenated' '
	"$IOLITE" --name=a --filename=p1 $W --buffer_pattern=0xdeadbeef \
		>/dev/null &&
	pattern_is p1 deadbeef &&
	"$IOLITE" --name=a --filename=p2 $W --buffer_pattern=258 >/dev/null &&
	pattern_is p2 0201 &&
	"$IOLITE" --name=a --filename=p3 $W --buffer_pattern=-12 >/dev/null &&
	pattern_is p3 f4ffffff &&
	"$IOLITE" --name=a --filename=p4 $W --buffer_pattern="\"abc\"" \
		>/dev/null &&
	pattern_is p4 616263 &&
	"$IOLITE" --name=a --filename=p5 $W \
		--buffer_pattern="0xdeadbeef\"abc\"-12" >/dev/null &&
	pattern_is p5 deadbeef616263f4ffffff
'

test_expect_success_if PYTHON3 'buffer_pattern from a file, in a job file' '
	printf "hello, file" >pat.bin &&
	cat >job.fio <<-\EOF &&
	[a]
	filename=p6
	rw=write
	bs=4k
	size=1m
	buffer_pattern=0x01'"'"'pat.bin'"'"'"z"
	EOF
	"$IOLITE" job.fio >out 2>err &&
	test_must_be_empty err &&
	pattern_is p6 0168656c6c6f2c2066696c657a
'

# fio 3.42 reads a pattern file whole (up to 128 MiB; fio 3.33 stops at
# 512 bytes): each block starts the pattern over, and %o after it
# still holds the block's offset
test_expect_success_if PYTHON3 'buffer_pattern: a file longer than 512 bytes, whole' '
	python3 -c "import os; open(\"long.bin\", \"wb\").write(os.urandom(6000))" &&
	"$IOLITE" --name=a --filename=p7 --rw=write --bs=16k --size=64k \
		--buffer_pattern="'"'"'long.bin'"'"'" >/dev/null &&
	python3 - <<-\EOF &&
	d = open("p7", "rb").read(); p = open("long.bin", "rb").read()
	blk = (p * 3)[:16384]
	assert len(d) == 65536 and d == blk * 4
	EOF
	"$IOLITE" --name=a --filename=p8 --rw=write --bs=8k --size=16k \
		--verify=pattern --verify_pattern="'"'"'long.bin'"'"'%o" \
		>/dev/null 2>err &&
	test_must_be_empty err &&
	python3 - <<-\EOF
	import struct
	d = open("p8", "rb").read(); p = open("long.bin", "rb").read()
	reps = [(p + struct.pack("<Q", off)) * 2 for off in (0, 8192)]
	assert d == reps[0][:8192] + reps[1][:8192]
	EOF
'

# "abcd"-120xdeadface: fio 3.33 and 3.42 read -12, then 0xdeadface
test_expect_success_if PYTHON3 'buffer_pattern: a number ends where 0x begins' '
	"$IOLITE" --name=a --filename=p9 $W \
		--buffer_pattern="\"abcd\"-120xdeadface" >/dev/null &&
	pattern_is p9 61626364f4ffffffdeadface
'

test_expect_success 'buffer_pattern: bad values refused with file:line' '
	test_must_fail "$IOLITE" --name=a --filename=x $W \
		--buffer_pattern=0xab%o 2>err &&
	grep "option .buffer_pattern.*%o" err &&
	test_must_fail "$IOLITE" --name=a --filename=x $W \
		--buffer_pattern="'"'"'nosuch'"'"'" 2>err &&
	grep "<cmdline>:[0-9]*: option .buffer_pattern.*cannot open .nosuch." err &&
	test_must_fail "$IOLITE" --name=a --filename=x $W \
		--buffer_pattern="\"abc" 2>err &&
	grep "unterminated" err &&
	test ! -e x
'

# fill FILE BYTE: 1 MiB of BYTE (hex)
fill() {
	python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]) * (1 << 20))' "$1" "$2"
}

# kinds FILE: how many 4 KiB blocks are all 0x5a, all 0x77, other
kinds() {
	python3 - "$1" <<-\EOF
	import sys
	d = open(sys.argv[1], "rb").read()
	b = [d[i:i + 4096] for i in range(0, len(d), 4096)]
	a = sum(x == b"\x5a" * 4096 for x in b)
	c = sum(x == b"\x77" * 4096 for x in b)
	print(a, c, len(b) - a - c)
	EOF
}

test_expect_success_if PYTHON3 'a write after a read sends what the read left, unless refilled' '
	# fio refills a buffer for a write only with refill_buffers (which
	# buffer_pattern turns on in a job that reads, where it stands):
	# else a randrw job writes back the bytes it last read
	fill rw1 77 &&
	"$IOLITE" --name=a --filename=rw1 --rw=randrw --bs=4k --size=1m \
		--buffer_pattern=0x5a --refill_buffers=0 >/dev/null &&
	set -- $(kinds rw1) &&
	echo "pattern=$1 old=$2 other=$3" &&
	test $1 -le 8 && test $(($1 + $2)) = 256 &&
	fill rw2 77 &&
	"$IOLITE" --name=a --filename=rw2 --rw=randrw --bs=4k --size=1m \
		--refill_buffers=0 --buffer_pattern=0x5a >/dev/null &&
	set -- $(kinds rw2) &&
	echo "pattern=$1 old=$2 other=$3" &&
	test $1 -ge 75 && test $1 -le 181 && test $(($1 + $2)) = 256
'

test_expect_success_if PYTHON3 'a read job lays out what its writes would hold' '
	"$IOLITE" --name=a --filename=l1 --rw=read --bs=4k --size=1m \
		--buffer_pattern=0x5a >/dev/null &&
	test "$(kinds l1)" = "256 0 0" &&
	"$IOLITE" --name=a --filename=l2 --rw=read --bs=4k --size=1m \
		--buffer_compress_percentage=50 >/dev/null &&
	r=$(ratio l2) && echo "gzip=$r%" &&
	test $r -ge 48 && test $r -le 58 &&
	"$IOLITE" --name=a --filename=l3 --rw=read --bs=4k --size=4m \
		--dedupe_percentage=50 >/dev/null &&
	d=$(blocks l3 4096 2) && echo "dups=$d/1024" &&
	test $d -ge 450 && test $d -le 574 &&
	"$IOLITE" --name=a --filename=l4a:l4b --rw=read --bs=4k \
		--size=1m >/dev/null &&
	cat l4a l4b >l4 &&
	test "$(blocks l4 512 2)" = 0
'

test_expect_success_if PYTHON3 'scramble_buffers: no 512-byte sector written twice' '
	"$IOLITE" --name=a --filename=sc1 --rw=write --bs=4k --size=256k \
		>/dev/null &&
	test "$(blocks sc1 512 2)" = 0 &&
	# another run, with the same randseed or not: other sectors (as
	# fio, whose stamps hold the time), so a deduplicating target does
	# not find the first run in the second
	cp sc1 sc1.first &&
	"$IOLITE" --name=a --filename=sc1 --rw=write --bs=4k --size=256k \
		--randseed=7 >/dev/null &&
	cat sc1.first sc1 >sc1.both &&
	test "$(blocks sc1.both 512 2)" = 0 &&
	"$IOLITE" --name=a --filename=sc1 --rw=write --bs=4k --size=256k \
		>/dev/null &&
	cat sc1.first sc1 >sc1.both &&
	test "$(blocks sc1.both 512 2)" = 0 &&
	"$IOLITE" --name=a --filename=sc2a:sc2b --rw=write --bs=64k \
		--size=1m >/dev/null &&
	cat sc2a sc2b >sc2 &&
	test "$(blocks sc2 512 2)" = 0 &&
	"$IOLITE" --name=a --filename=sc3 --rw=write --bs=4k --size=256k \
		--zero_buffers --scramble_buffers=1 >/dev/null &&
	test "$(blocks sc3 512 2)" = 0 &&
	"$IOLITE" --name=a --filename=sc4 --rw=write --bs=4k --size=256k \
		--scramble_buffers=1 --buffer_pattern=0x5a >/dev/null &&
	test "$(kinds sc4)" = "64 0 0"
'

test_expect_success_if PYTHON3 'compression or dedupe given: no scramble; refill_buffers=0 kept' '
	"$IOLITE" --name=a --filename=n1 $W --buffer_compress_percentage=0 \
		>/dev/null &&
	test "$(blocks n1 4096 2)" = 255 &&
	"$IOLITE" --name=a --filename=n2 $W --buffer_compress_percentage=50 \
		--refill_buffers=0 >/dev/null &&
	test "$(blocks n2 4096 2)" = 255 &&
	"$IOLITE" --name=a --filename=n3 $W --dedupe_percentage=50 \
		--refill_buffers=0 >/dev/null &&
	test "$(blocks n3 4096 2)" = 255 &&
	# dedupe_percentage sets refill_buffers where it stands
	"$IOLITE" --name=a --filename=n4 $W --refill_buffers=0 \
		--dedupe_percentage=0 >/dev/null &&
	test "$(blocks n4 4096 2)" = 0 && test "$(ratio n4)" -ge 99
'

test_expect_success_if PYTHON3 'defaults: random, no two blocks alike; zero_buffers' '
	"$IOLITE" --name=a --filename=d1 $W >/dev/null &&
	test "$(blocks d1 4096 2)" = 0 &&
	"$IOLITE" --name=a --filename=d2 $W --refill_buffers >/dev/null &&
	test "$(blocks d2 4096 2)" = 0 &&
	test "$(ratio d2)" -ge 99 &&
	"$IOLITE" --name=a --filename=d3 $W --zero_buffers >/dev/null &&
	test "$(blocks d3 4096 4)" = 256
'

test_expect_success_if PYTHON3 'scramble_buffers=0 writes the same block every time' '
	"$IOLITE" --name=a --filename=s0 $W --scramble_buffers=0 \
		>/dev/null &&
	test "$(blocks s0 4096 2)" = 255
'

test_expect_success_if PYTHON3 'buffer_compress_percentage: gzip gets close to it' '
	for pct in 25 50 75; do
		"$IOLITE" --name=a --filename=c$pct --rw=write --bs=64k \
			--size=2m --buffer_compress_percentage=$pct \
			>/dev/null || return 1
		r=$(ratio c$pct)
		echo "pct=$pct gzip=$r%"
		# deflate on random data adds a little; zero runs cost a little
		test $r -ge $((100 - pct - 2)) && test $r -le $((100 - pct + 8)) ||
			return 1
	done &&
	"$IOLITE" --name=a --filename=c100 --rw=write --bs=64k --size=2m \
		--buffer_compress_percentage=100 >/dev/null &&
	test "$(ratio c100)" -le 1 &&
	test "$(blocks c50 4096 2)" = 0
'

test_expect_success_if PYTHON3 'buffer_compress_chunk: random, then zeroes, per chunk' '
	"$IOLITE" --name=a --filename=k0 --rw=write --bs=64k --size=1m \
		--buffer_compress_percentage=25 --buffer_compress_chunk=0 \
		>/dev/null &&
	"$IOLITE" --name=a --filename=k4 --rw=write --bs=64k --size=1m \
		--buffer_compress_percentage=25 --buffer_compress_chunk=4k \
		>/dev/null &&
	python3 - k0 65536 k4 4096 <<-\EOF
	import sys
	for path, chunk in ((sys.argv[1], int(sys.argv[2])),
	                    (sys.argv[3], int(sys.argv[4]))):
	    d = open(path, "rb").read()
	    r = chunk * 75 // 100
	    for i in range(0, len(d), chunk):
	        c = d[i:i + chunk]
	        assert not c[r:].strip(b"\0"), (path, i)
	        assert c[:r].count(0) < r // 64, (path, i)
	EOF
'

test_expect_success_if PYTHON3 'buffer_compress_percentage with buffer_pattern' '
	"$IOLITE" --name=a --filename=cp --rw=write --bs=4k --size=1m \
		--buffer_compress_percentage=50 --buffer_compress_chunk=4k \
		--buffer_pattern="\"xy\"" >/dev/null &&
	python3 - cp <<-\EOF
	import sys
	d = open(sys.argv[1], "rb").read()
	for i in range(0, len(d), 4096):
	    assert d[i + 2048:i + 4096] == b"xy" * 1024, i
	    assert d[i:i + 2048] != b"xy" * 1024, i
	EOF
'

test_expect_success_if PYTHON3 'dedupe_percentage: that share of blocks repeats' '
	for pct in 0 30 70; do
		"$IOLITE" --name=a --filename=dd$pct --rw=randwrite --bs=4k \
			--size=4m --dedupe_percentage=$pct >/dev/null || return 1
		d=$(blocks dd$pct 4096 2)
		echo "pct=$pct dups=$d/1024"
		# binomial over 1024 blocks: sd < 1.5%; allow 6%
		test $((d * 100 / 1024)) -ge $((pct - 6)) &&
		test $((d * 100 / 1024)) -le $((pct + 6)) || return 1
	done &&
	test "$(blocks dd0 4096 2)" = 0
'

test_expect_success_if PYTHON3 'dedupe_mode=working_set repeats blocks of a small set' '
	"$IOLITE" --name=a --filename=ws --rw=write --bs=4k --size=4m \
		--dedupe_percentage=50 --dedupe_mode=working_set \
		--dedupe_working_set_percentage=2 >/dev/null &&
	d=$(blocks ws 4096 2) &&
	v=$(blocks ws 4096 3) &&
	echo "dups=$d values=$v" &&
	# 20 working-set blocks take about half the writes
	test $d -ge 430 && test $d -le 600 && test $v -le 20
'

test_expect_success_if PYTHON3 'dedupe with compression: both hold' '
	"$IOLITE" --name=a --filename=dc --rw=write --bs=4k --size=4m \
		--dedupe_percentage=40 --buffer_compress_percentage=50 \
		>/dev/null &&
	d=$(blocks dc 4096 2) &&
	test $d -ge 340 && test $d -le 480 &&
	r=$(ratio dc) &&
	test $r -le 40
'

test_expect_success 'refused: working_set without size, a bad percentage' '
	test_must_fail "$IOLITE" --name=a --filename=x --rw=write \
		--dedupe_percentage=10 --dedupe_mode=working_set 2>err &&
	grep "<cmdline>:[0-9]*: option .dedupe_mode.*size=" err &&
	test_must_fail "$IOLITE" --name=a --filename=x $W \
		--dedupe_percentage=60 --dedupe_mode=working_set \
		--dedupe_working_set_percentage=50 2>err &&
	grep "<cmdline>:[0-9]*: option .dedupe_percentage.: 60% cannot be reached" err &&
	test_must_fail "$IOLITE" --name=a --filename=x $W \
		--buffer_compress_percentage=101 2>err &&
	grep "buffer_compress_percentage" err &&
	test ! -e x
'

test_expect_success_if FIO 'buffer_pattern: the same bytes as fio' '
	printf "from a file" >fp.bin &&
	for pat in 258 "0xdead\"abc\"-12" "0x01'"'"'fp.bin'"'"'7"; do
		fio --name=a --filename=f.fio $W --buffer_pattern="$pat" \
			>/dev/null 2>&1 &&
		"$IOLITE" --name=a --filename=f.iolite $W \
			--buffer_pattern="$pat" >/dev/null &&
		cmp f.fio f.iolite || return 1
	done
'

test_expect_success_if FIO 'buffer_compress_percentage: gzip close to fio' '
	fio --name=a --filename=cf.fio --rw=write --bs=64k --size=2m \
		--buffer_compress_percentage=60 >/dev/null 2>&1 &&
	"$IOLITE" --name=a --filename=cf.iolite --rw=write --bs=64k \
		--size=2m --buffer_compress_percentage=60 >/dev/null &&
	a=$(ratio cf.fio) && b=$(ratio cf.iolite) &&
	echo "fio=$a% iolite=$b%" &&
	test $((a - b)) -le 3 && test $((b - a)) -le 3
'

test_done

#!/bin/sh
# sprandom, spr_op, spr_num_regions, spr_cs (fio 3.42, issue #28).
# Debian's fio 3.33 does not know them, so no side-by-side row can run
# them: the expectations here are fio 3.42's behaviour, measured with
# fio 3.42's write_iolog beside iolite and written down as fixed figures
# (each test says what fio 3.42 did). The rewrites are random draws (fio
# 3.42's counts move with randseed), so their counts are checked against
# bounds; the shape of the sequence is fio's rule and checked exactly.

. "$(dirname "$0")/test-lib.sh"

# spr NAME ARGS...: a sprandom job on file f (removed first); NAME.w
# holds its writes' "offset length", in order
spr() {
	name=$1
	shift
	rm -f f "$name.log" &&
	"$IOLITE" --name=j --filename=f --rw=randwrite --sprandom=1 \
		--write_iolog="$name.log" --output-format=terse "$@" \
		>"$name.out" 2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	awk '$3 == "write" { print $4, $5 }' "$name.log" >"$name.w"
}

# shape FILE R DEFER: fio 3.42's rule over the writes in FILE, regions of
# R writes: region 0 writes new blocks; in region k the blocks written
# before (rewrites) are blocks region k-1 wrote last, taken in its order,
# in one run that starts at the region's second write (DEFER 1, spr_cs:
# that ends at the region's end). Prints "regions N rewrites A B ...".
shape() {
	awk -v R="$2" -v defer="$3" '
	function region_end() {
		if (m && (last != first + m - 1 ||
			  (defer ? last != i - 1 : first != lo + 1))) {
			print "rewrites of region " k " not in one run"
			bad = 1; exit 1
		}
		inv = inv " " m
	}
	{
		i = NR - 1
		if (i % R == 0) {
			if (i) region_end()
			k = i / R; lo = i; m = 0; prevpos = -1
		}
		b = $1
		if (b in at) {
			p = at[b]
			if (!k || p < lo - R || p >= lo || p <= prevpos) {
				print "write " i " rewrites block " b \
				      " of write " p " out of order"
				bad = 1; exit 1
			}
			prevpos = p
			if (!m++) first = i
			last = i
		}
		at[b] = i
	}
	END {
		if (bad) exit 1
		i = NR
		region_end()
		print "regions " k + 1 " rewrites" inv
	}
	' "$1"
}

# count FILE: "writes N distinct D sizes S"
count() {
	awk '{ n++; if (!($1 in d)) { d[$1]; u++ } s[$2] }
	     END { for (x in s) l = l " " x
		   print "writes " n " distinct " u " sizes" l }' "$1"
}

# fio 3.42, 16 MiB, 4 regions, spr_op 0.15: 4701 writes of 4k (at most
# ceil(4096 x 1.15) = 4711), each of the 4096 blocks; regions of 1177;
# region 1 rewrote 300 of region 0's writes, region 2 188, region 3 117
test_expect_success 'sprandom: every block, regions of rewrites, as fio 3.42' '
	spr basic --size=16M --spr_num_regions=4 &&
	count basic.w >c &&
	read -r _ n _ u _ sz <c &&
	test "$u" -eq 4096 && test "$sz" -eq 4096 &&
	test "$n" -gt 4500 && test "$n" -le 4711 &&
	awk "\$1 % 4096 || \$1 >= 16777216 { exit 1 }" basic.w &&
	shape basic.w 1177 0 >s &&
	read -r _ k _ _ a b c3 <s &&
	test "$k" -eq 4 &&
	test "$a" -gt 240 && test "$a" -lt 360 &&
	test "$b" -gt 130 && test "$b" -lt 250 &&
	test "$c3" -gt 60 && test "$c3" -lt 170 &&
	test $((4096 + a + b + c3)) -eq "$n"
'

test_expect_success 'the shape check sees rewrites out of order or place' '
	awk "NR == 1179 { x = \$0; next } NR == 1180 { print; print x; next }
	     { print }" basic.w >bad.w &&
	test_must_fail shape bad.w 1177 0 &&
	test_must_fail shape basic.w 1177 1
'

# fio 3.42, 8 MiB of 512-byte blocks, 2 regions, spr_op 0.5: region 0 is
# 12288 new writes; region 1 rewrites 0.59 of them (fio 3.42's
# --debug=sprandom: validity [0.41, 1.00], one less 1 / (0.5 / 0.5 + 0.7);
# 0.586 to 0.593 over seven seeds at 32 MiB), then the blocks left
test_expect_success 'spr_op: the oldest region keeps fio 3.42'"'"'s validity' '
	spr op --size=8M --bs=512 --spr_num_regions=2 --spr_op=0.5 &&
	count op.w >c &&
	read -r _ n _ u _ sz <c &&
	test "$u" -eq 16384 && test "$sz" -eq 512 &&
	shape op.w 12288 0 >s &&
	read -r _ k _ _ a <s &&
	test "$k" -eq 2 &&
	test "$a" -gt $((12288 * 56 / 100)) &&
	test "$a" -lt $((12288 * 62 / 100)) &&
	test $((16384 + a)) -eq "$n"
'

# fio 3.42 with spr_cs=4096: the same draws, each region's rewrites moved
# to its end (877 new writes, then region 0's 300)
test_expect_success 'spr_cs: the rewrites close each region, as fio 3.42' '
	spr cs --size=16M --spr_num_regions=4 --spr_cs=4096 &&
	count cs.w >c &&
	read -r _ n _ u _ <c &&
	test "$u" -eq 4096 &&
	shape cs.w 1177 1 >s &&
	read -r _ k _ _ a b c3 <s &&
	test "$k" -eq 4 && test "$a" -gt 240 && test "$a" -lt 360 &&
	test_must_fail shape cs.w 1177 0
'

# fio 3.42, spr_op=0, 1 MiB, 60 regions: regions of 4 writes, and the
# job ends where region 61 would begin: 244 writes, 12 blocks never
# written (50 regions: 255)
test_expect_success 'the sequence ends after region N, as fio 3.42' '
	spr r60 --size=1M --spr_num_regions=60 --spr_op=0 &&
	count r60.w >c &&
	echo "writes 244 distinct 244 sizes 4096" >expect &&
	test_cmp expect c &&
	spr r50 --size=1M --spr_num_regions=50 --spr_op=0 &&
	count r50.w | grep "^writes 255 distinct 255 "
'

# fio 3.42 (4 MiB, 4 regions): io_size=2M and 8M write what no io_size
# does (1168 writes), loops=2 too, number_ios=100 stops at 100
test_expect_success 'one pass: io_size and loops change nothing, number_ios cuts' '
	spr one --size=4M --spr_num_regions=4 &&
	count one.w >one.c &&
	spr io --size=4M --spr_num_regions=4 --io_size=2M &&
	count io.w >io.c && test_cmp one.c io.c &&
	spr io8 --size=4M --spr_num_regions=4 --io_size=8M &&
	count io8.w >io8.c && test_cmp one.c io8.c &&
	spr loops --size=4M --spr_num_regions=4 --loops=2 &&
	count loops.w >loops.c && test_cmp one.c loops.c &&
	spr nios --size=4M --spr_num_regions=4 --number_ios=100 &&
	test "$(wc -l <nios.w)" -eq 100
'

test_expect_success 'time_based: the pass, then the job ends' '
	spr tb --size=4M --spr_num_regions=4 --time_based --runtime=20 &&
	count tb.w >tb.c && test_cmp one.c tb.c
'

# fio 3.42, randrw over 16 MiB, 4 regions: 2255 writes and 2141 reads;
# each I/O's direction is rwmixread's draw (these 80 are fio's first),
# a read takes a new block (none a write touches), the writes alone
# keep randwrite's shape (region 1 rewrote 300)
test_expect_success 'randrw: fio'"'"'s directions, reads on new blocks' '
	spr rrw --size=16M --spr_num_regions=4 --rw=randrw &&
	awk "\$3 == \"read\" { print \$4, \$5 }" rrw.log >rrw.r &&
	awk "\$3 == \"read\" { printf \"r\" } \$3 == \"write\" { printf \"w\" }" \
		rrw.log | cut -c1-80 >dirs &&
	printf "%s%s\n" rrrwrrwwwrwrwrrrwwrrwwwwrwrwwwwrrwrwwrrw \
		wrwrrwwrwwwrrwrwrwwrrwwwwwrrrwrwwrwwwwrw >expect &&
	test_cmp expect dirs &&
	count rrw.r >rc && read -r _ nr _ ur _ <rc && test "$nr" -eq "$ur" &&
	count rrw.w >wc && read -r _ nw _ uw _ <wc &&
	test $((ur + uw)) -eq 4096 &&
	test "$(cut -d" " -f1 rrw.r rrw.w | sort -u | wc -l)" -eq 4096 &&
	test $((nr + nw)) -le 4711 &&
	shape rrw.w 1177 0 >s &&
	read -r _ k _ _ a <s &&
	test "$a" -gt 240 && test "$a" -lt 360 &&
	test $((uw + a)) -eq "$nw"
'

test_expect_success 'the options dump as given (--parse-only)' '
	rm -f f &&
	"$IOLITE" --parse-only --name=j --filename=f --rw=randwrite \
		--sprandom=1 --spr_op=0.21 --spr_num_regions=400 \
		--spr_cs=64k >dump 2>err &&
	test_must_be_empty err &&
	grep "^sprandom=1\$" dump && grep "^spr_op=0.21\$" dump &&
	grep "^spr_num_regions=400\$" dump && grep "^spr_cs=65536\$" dump &&
	test_path_is_missing f
'

test_expect_success 'a JSON report stays JSON' '
	rm -f f &&
	"$IOLITE" --name=j --filename=f --rw=randwrite --sprandom=1 \
		--size=1M --output-format=json >j.json 2>j.err &&
	test_must_be_empty j.err &&
	head -c 1 j.json | grep "{" &&
	grep "\"sprandom\" *: *\"1\"" j.json
'

# refused: spr_fails OPTION ARGS...: non-zero, OPTION named on stderr, no
# file made
spr_fails() {
	opt=$1
	shift
	rm -f f &&
	test_must_fail "$IOLITE" --name=j --filename=f --sprandom=1 \
		--size=1M "$@" >out 2>err &&
	grep "option '$opt'" err &&
	test_path_is_missing f
}

# fio 3.42: "sprandom requires random write, random_generator=lfsr,
# norandommap=1" (read, write, rw, randtrim, trimwrite), "sprandom
# requires random_generator=lfsr", "... requires norandommap=1",
# "SPRandom supports only one file", "spr_cs [..] must be smaller than
# region_sz [..]"; 1000 regions of 256 blocks die of SIGFPE, spr_op=-1
# of an assertion, spr_op=0.99 over 100 regions of 1 MiB of another
test_expect_success 'what fio 3.42 refuses, refused before any I/O' '
	spr_fails sprandom --rw=read &&
	spr_fails sprandom --rw=write &&
	spr_fails sprandom --rw=trimwrite &&
	spr_fails random_generator --rw=randwrite \
		--random_generator=tausworthe &&
	spr_fails norandommap --rw=randwrite --norandommap=0 &&
	spr_fails spr_cs --rw=randwrite --spr_num_regions=4 --spr_cs=8M &&
	spr_fails spr_num_regions --rw=randwrite --spr_num_regions=1000 &&
	spr_fails spr_num_regions --rw=randwrite --spr_num_regions=0 &&
	spr_fails spr_op --rw=randwrite --spr_op=-1 &&
	spr_fails spr_op --rw=randwrite --spr_op=1 &&
	rm -rf d && mkdir d &&
	test_must_fail "$IOLITE" --name=j --directory=d --sprandom=1 \
		--rw=randwrite --size=1M --nrfiles=2 2>err &&
	grep "sprandom.*one file" err &&
	test -z "$(ls d)"
'

# fio 3.42 takes these and does odd things (randrw with spr_cs: the
# rewrites in one run of writes, some out of the rule; bs=4k,8k: no write
# at all; zipf: one write); iolite refuses
test_expect_success 'what iolite does not run with sprandom is refused' '
	spr_fails spr_cs --rw=randrw --spr_cs=4096 &&
	spr_fails sprandom --rw=randwrite --bs=4k,8k &&
	spr_fails sprandom --rw=randwrite --bsrange=4k-16k &&
	spr_fails random_distribution --rw=randwrite \
		--random_distribution=zipf:1.2 &&
	spr_fails percentage_random --rw=randwrite --percentage_random=50 &&
	spr_fails verify --rw=randwrite --verify=crc32c
'

test_done

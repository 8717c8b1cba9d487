#!/bin/sh
# Strided zones, zoned distributions, percentage_random and rw_sequencer,
# checked through what reaches the disk: a job writes random data into a
# file of zeros, and the blocks that are no longer zero show where it
# went. (t/unit/workload.c checks the exact offset sequences.)
. "$(dirname "$0")/test-lib.sh"

# The 4 KiB blocks of file $1 that are not all zeros, on one line.
written_blocks() {
	od -An -v -tx1 -w4096 "$1" |
		awk '{ for (i = 1; i <= NF; i++) if ($i != "00") {
			printf "%s%d", sep, NR - 1; sep = " "; break } }
		     END { print "" }'
}

# A file of $2 KiB of zeros at $1, laid out already so no job fills it.
zeros() {
	dd if=/dev/zero of="$1" bs=1k count="$2" 2>/dev/null
}

wl() {
	"$IOLITE" --name=z --ioengine=psync --bs=4k "$@" >out 2>err &&
	test_must_be_empty err
}

test_expect_success 'strided: only the first 16k of each 64k zone' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=write --zonemode=strided \
		--zonesize=16k --zonerange=64k &&
	test "$(issued out)" = "0,64,0,0" &&
	echo "0 1 2 3 16 17 18 19 32 33 34 35 48 49 50 51" >expect &&
	written_blocks f >actual &&
	test_cmp expect actual
'

test_expect_success 'strided: zoneskip leaves whole zones alone' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=write --zonemode=strided \
		--zonesize=8k --zonerange=16k --zoneskip=48k &&
	echo "0 1 16 17 32 33 48 49" >expect &&
	written_blocks f >actual &&
	test_cmp expect actual
'

test_expect_success 'strided random: inside the zones, each zone covered' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=randwrite --zonemode=strided \
		--zonesize=16k --zonerange=16k --zoneskip=48k &&
	echo "0 1 2 3 16 17 18 19 32 33 34 35 48 49 50 51" >expect &&
	written_blocks f >actual &&
	test_cmp expect actual
'

test_expect_success 'strided: a zone cut by the end of the file ends the job' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=read --zonemode=strided \
		--zonesize=32k --zonerange=48k &&
	test "$(issued out)" = "44,0,0,0"
'

test_expect_success 'zoned: all writes in the first quarter' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=randwrite --norandommap \
		--random_distribution=zoned:100/25 --io_size=800k &&
	test "$(issued out)" = "0,200,0,0" &&
	for b in $(written_blocks f); do
		test $b -lt 16 || return 1
	done &&
	test -n "$(written_blocks f)"
'

test_expect_success 'zoned: a zone with 0% of the accesses is left alone' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=randwrite --norandommap \
		--random_distribution=zoned:0/50:100/ --io_size=800k &&
	for b in $(written_blocks f); do
		test $b -ge 32 || return 1
	done
'

test_expect_success 'zoned_abs: per direction, writes in the first 64k' '
	zeros f 1024 &&
	wl --filename=f --size=1m --rw=randrw --norandommap \
		--random_distribution=zoned_abs:50/512k:50/,100/64k \
		--io_size=1600k &&
	for b in $(written_blocks f); do
		test $b -lt 16 || return 1
	done
'

test_expect_success 'rw_sequencer=identical: each random block 4 times' '
	zeros f 256 &&
	wl --filename=f --size=256k --rw=randwrite:4 \
		--rw_sequencer=identical &&
	test "$(issued out)" = "0,64,0,0" &&
	test $(written_blocks f | wc -w) = 16
'

test_expect_success 'percentage_random=0: a random job goes sequentially' '
	zeros f 256 &&
	wl --filename=f --size=256k --io_size=128k --rw=randwrite \
		--percentage_random=0 &&
	seq -s " " 0 31 >expect &&
	written_blocks f >actual &&
	test_cmp expect actual
'

# file:line: option: message, and no file created (the line of the
# option named, or of the job's section when the job did not set it; on
# the command line, argv indexes: --name is 1)
expect_refused() {
	msg=$1
	shift
	test_must_fail "$IOLITE" --name=z --filename=nf --size=64k "$@" \
		>out 2>err &&
	echo "iolite: $msg" >expect &&
	test_cmp expect err &&
	test_path_is_missing nf
}

test_expect_success 'zone options checked before anything is created' '
	expect_refused "<cmdline>:1: option '\''zonesize'\'': zonemode=strided needs a zone size" \
		--zonemode=strided &&
	expect_refused "<cmdline>:4: option '\''zonesize'\'': zones need zonemode=strided" \
		--zonesize=16k &&
	expect_refused "<cmdline>:4: option '\''zonesize'\'': zones need zonemode=strided" \
		--zonesize=16k
'

# zonemode=zbd (doc/compat.md): zoned block devices only; what a file,
# a page-cache write or an option not done yet would need is refused by
# name before anything is created (the zoned runs: t/vm's zbd-* rows)
test_expect_success 'zonemode=zbd: refusals before anything is created' '
	expect_refused "<cmdline>:4: option '\''zonemode'\'': '\''nf'\'' is not a block device: zones emulated on files are not supported yet" \
		--zonemode=zbd --zonesize=16k --direct=1 --rw=write &&
	expect_refused "<cmdline>:4: option '\''zonemode'\'': '\''nf'\'' is not a block device: zones emulated on files are not supported yet" \
		--zonemode=zbd --read_beyond_wp=1 &&
	expect_refused "<cmdline>:1: option '\''direct'\'': zonemode=zbd writes need direct=1 (the page cache would write out of order)" \
		--zonemode=zbd --rw=write &&
	expect_refused "<cmdline>:8: option '\''zone_reset_frequency'\'': its resets would lose what verify reads back" \
		--zonemode=zbd --rw=write --direct=1 --verify=crc32c \
		--zone_reset_frequency=0.5 &&
	expect_refused "<cmdline>:7: option '\''recover_zbd_write_error'\'': needs continue_on_error (the writes go on after an error only then)" \
		--zonemode=zbd --rw=randwrite --direct=1 \
		--recover_zbd_write_error=1 &&
	expect_refused "<cmdline>:10: option '\''recover_zbd_write_error'\'': with an asynchronous engine, moving a write pointer writes zeroes over what verify reads back" \
		--zonemode=zbd --rw=write --direct=1 --continue_on_error=all \
		--ioengine=posixaio --verify=crc32c \
		--recover_zbd_write_error=1 &&
	expect_refused "<cmdline>:6: option '\''zone_reset_threshold'\'': invalid ratio '\''1.5'\'' (0..1)" \
		--zonemode=zbd --direct=1 --zone_reset_threshold=1.5
'

# fio 3.33 says "zoned_abs sizes exceed file size" and runs on with a
# few I/Os; it counts in blocks of the smallest size: 19k fit in 18k at
# bs=4k (4 blocks each), 20k do not. The check is of the file's region,
# or of a strided zone's range where that is smaller (fio 3.33 and 3.42
# say so for 64k of zones in a 64k file with zonerange=48k), not of a
# zone's window (zonesize).
test_expect_success 'zoned_abs sizes must fit the region' '
	expect_refused "<cmdline>:6: option '\''random_distribution'\'': the zoned_abs sizes add up to 20480 bytes (5 blocks of 4096), more than the 4 of the 18432-byte region of '\''nf'\''" \
		--size=18k --rw=randread --random_distribution=zoned_abs:50/16k:50/4k &&
	wl --filename=f --size=18k --rw=randread \
		--random_distribution=zoned_abs:50/16k:50/3k &&
	test "$(issued out)" = "5,0,0,0" &&
	zeros f 1024 &&
	expect_refused "<cmdline>:7: option '\''random_distribution'\'': the zoned_abs sizes add up to 17408 bytes (17 blocks of 1024), more than the 16 of the 16384-byte region of '\''f'\''" \
		--filename=f --size=16k --bsrange=1k-4k \
		--random_distribution=zoned_abs:100/17k &&
	wl --filename=f --size=1m --rw=randwrite --zonemode=strided \
		--zonesize=16k --zonerange=256k --norandommap \
		--random_distribution=zoned_abs:50/16k:50/48k &&
	test "$(issued out)" = "0,256,0,0" &&
	expect_refused "<cmdline>:10: option '\''random_distribution'\'': the zoned_abs sizes add up to 65536 bytes (16 blocks of 4096), more than the 12 of the 49152-byte strided zone range of '\''f'\''" \
		--filename=f --size=64k --rw=randwrite --zonemode=strided \
		--zonesize=16k --zonerange=48k \
		--random_distribution=zoned_abs:80/32k:20/32k &&
	wl --filename=f --size=64k --rw=randwrite --zonemode=strided \
		--zonesize=16k --zonerange=18k \
		--random_distribution=zoned_abs:50/10k:50/9k &&
	test "$(issued out)" != "0,0,0,0"
'

# fio 3.33 runs them: each read starts at a zone start and runs past it
test_expect_success 'zones smaller than a block are no error' '
	zeros f 64 &&
	wl --filename=f --size=64k --rw=read --bs=8k --zonemode=strided \
		--zonesize=16k --zonerange=4k &&
	test "$(issued out)" = "8,0,0,0"
'

test_expect_success 'zoned distributions are checked as they are parsed' '
	test_must_fail "$IOLITE" --name=z --filename=nf --size=64k \
		--random_distribution=zoned:60/10:30/20 2>err &&
	grep "option '\''random_distribution'\'': access percentages in '\''60/10:30/20'\'' add up to 90, not 100" err &&
	test_path_is_missing nf
'

# The same zones as fio: the blocks written, and the I/O counts.
test_expect_success_if FIO 'strided zones write the blocks fio writes' '
	for spec in "--rw=write --zonesize=8k --zonerange=32k --zoneskip=16k" \
		    "--rw=randwrite --zonesize=16k --zonerange=16k --zoneskip=16k" \
		    "--rw=write --zonesize=32k --zonerange=48k"; do
		zeros a 256 && zeros b 256 &&
		fio --name=z --filename=a --size=256k --bs=4k \
			--zonemode=strided $spec >fio.out 2>&1 &&
		wl --filename=b --size=256k --zonemode=strided $spec &&
		written_blocks a >expect &&
		written_blocks b >actual &&
		test_cmp expect actual &&
		test "$(issued fio.out)" = "$(issued out)" || return 1
	done
'

test_done

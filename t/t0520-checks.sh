#!/bin/sh
# Measurement checks: notes in the report (never on stderr) when figures
# would mislead: a run too short, buffers beyond the last-level cache on a
# memory-speed target, a job allowed on CPUs remote to its device.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'a run of a few ms gets a note on stdout, not stderr' '
	"$IOLITE" --name=short --ioengine=null --size=1m >out 2>err &&
	test_must_be_empty err &&
	grep -q "^Notes:" out &&
	grep -q "job .short. was measured for [0-9]* ms: too short" out
'

test_expect_success_if PYTHON3 'the note is in the JSON too, and the JSON stays pure' '
	"$IOLITE" --name=short --ioengine=null --size=1m \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	python3 -c "import json,sys; d=json.load(open(\"out.json\")); \
assert any(\"too short\" in n for n in d[\"iolite\"][\"notes\"])"
'

test_expect_success 'a run of over a second gets no such note' '
	"$IOLITE" --name=long --ioengine=null --size=1m --time_based \
		--runtime=1100ms >out 2>err &&
	! grep -q "too short" out
'

# a fake sysfs: a 64 KiB last-level cache, two NUMA nodes, cpus on node 0
mkfake() {
	root=$1
	mkdir -p "$root/devices/system/cpu/cpu0/cache/index0" \
		"$root/devices/system/cpu/cpu0/cache/index3" \
		"$root/devices/system/node/node0/cpu0" \
		"$root/devices/system/node/node0/cpu1" \
		"$root/devices/system/node/node1" &&
	echo 1 >"$root/devices/system/cpu/cpu0/cache/index0/level" &&
	echo 32K >"$root/devices/system/cpu/cpu0/cache/index0/size" &&
	echo 3 >"$root/devices/system/cpu/cpu0/cache/index3/level" &&
	echo 64K >"$root/devices/system/cpu/cpu0/cache/index3/size"
}

test_expect_success 'buffers beyond the last-level cache on tmpfs: a note' '
	mkfake fake &&
	f=$TRASH_SHM/checks &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=big --rw=read \
		--bs=128k --size=1m --filename=$f >out 2>err;
	rc=$?; rm -f $f; test $rc = 0 &&
	test_must_be_empty err &&
	grep -q "exceed the CPU.s last-level cache (64 KiB)" out
'

test_expect_success 'small buffers on tmpfs: no cache note' '
	f=$TRASH_SHM/checks &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=small --rw=read \
		--bs=4k --size=1m --filename=$f >out 2>err;
	rc=$?; rm -f $f; test $rc = 0 &&
	! grep -q "last-level cache" out
'

test_expect_success_if LOOP 'a device on another NUMA node: a note' '
	dev=$(test_loop $TRASH_SHM/numa 8m) &&
	mm=$(stat -c "%t:%T" $dev) &&
	maj=$((0x${mm%:*})) && min=$((0x${mm#*:})) &&
	mkdir -p fake/dev/block/$maj:$min/device &&
	echo 1 >fake/dev/block/$maj:$min/device/numa_node &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=remote --rw=read \
		--bs=4k --size=1m --filename=$dev >out 2>err &&
	test_must_be_empty err &&
	grep -q "job .remote. may run on cpu 0, which is not on numa node 1 of .$dev." out
'

test_expect_success 'the mmap engine says how it mapped, in the notes' '
	f=$TRASH_SHM/checks-mm &&
	"$IOLITE" --name=m --ioengine=mmap --rw=randread --size=4m \
		--filename=$f --numjobs=2 >out 2>err;
	rc=$?; rm -f $f; test $rc = 0 &&
	test_must_be_empty err &&
	test "$(grep -c "^  mmap: 4MiB mapped in 1 file" out)" = 1
'

test_expect_success 'mmap options are refused with other engines' '
	test_must_fail "$IOLITE" --name=p --ioengine=psync --mmap_copy=libc \
		--size=1m --filename=nf 2>err &&
	grep -q "option .mmap_copy. is not valid with ioengine .psync." err &&
	test_path_is_missing nf
'

# fio's steadystate example carries "threads=1", an option of fio's
# tiobench profile that does nothing without profile=tiobench
test_expect_success 'tiobench profile options run, with a note saying they do nothing' '
	"$IOLITE" --name=t --ioengine=null --size=1m --threads=1 \
		--numruns=2 >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "option .threads. belongs to fio.s tiobench profile and changes nothing" out)" = 1 &&
	"$IOLITE" --name=t --ioengine=null --size=1m --output-format=json \
		--threads=1 >out.json 2>err &&
	test_must_be_empty err &&
	grep -q "tiobench profile" out.json &&
	test_must_fail "$IOLITE" --name=t --ioengine=null --size=1m \
		--profile=tiobench 2>err &&
	grep -q "option .profile.: fio.s workload profile .tiobench. is not supported yet" err
'

test_expect_success 'random I/O in zones smaller than a block: a note, no I/O' '
	"$IOLITE" --name=z --ioengine=null --rw=randread --size=256k \
		--bs=64k --zonemode=strided --zonesize=16k >out 2>err &&
	test_must_be_empty err &&
	grep -q "zones of 16384 bytes hold no read block of 65536 bytes" out &&
	grep -q "issued rwts: total=0,0,0,0" out &&
	"$IOLITE" --name=z --ioengine=null --rw=read --size=256k \
		--bs=64k --zonemode=strided --zonesize=16k >out 2>err &&
	! grep -q "hold no" out
'

test_done

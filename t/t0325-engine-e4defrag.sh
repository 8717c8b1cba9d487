#!/bin/sh
# e4defrag: each write swaps its range's blocks with a donor file's
# (EXT4_IOC_MOVE_EXT), the data staying as it was, as fio's engine. On
# an ext4 file system on a loop device (root, losetup and mkfs.ext4 from
# e2fsprogs: the LOOP prerequisite); the image lives in /dev/shm and the
# mount in the test directory, both released at exit whatever happened.

. "$(dirname "$0")/test-lib.sh"

test_have_prereq LOOP || skip_all "needs root and loop devices (LOOP)"
command -v mkfs.ext4 >/dev/null 2>&1 ||
	skip_all "mkfs.ext4 is not installed (e2fsprogs)"

IMG=/dev/shm/iolite-t0325-$$.img
MNT=$TRASH/mnt
TFS=$TRASH/tfs
mkdir "$MNT" "$TFS"

release_all() {
	for m in "$MNT" "$TFS"; do
		while grep -q " $m " /proc/self/mounts 2>/dev/null; do
			umount "$m" || break
		done
	done
	rm -f "$IMG"
}
test_at_exit=release_all

# ioctls TRACE: the EXT4_IOC_MOVE_EXT calls of an strace log
moves() {
	grep -c "ioctl([0-9]*, _IOC(_IOC_READ|_IOC_WRITE, 0x66, 0xf, 0x28)" "$1"
}

test_have_prereq FIO && FIO_STRACE=STRACE || FIO_STRACE=FIO

test_expect_success 'an ext4 file system on a loop device' '
	truncate -s 64M "$IMG" &&
	mkfs.ext4 -q -F "$IMG" &&
	mount -o loop "$IMG" "$MNT" &&
	test "$(stat -f -c %t "$MNT")" = ef53
'

test_expect_success 'writes swap extents with the donor; the data stays' '
	"$IOLITE" --name=d --directory="$MNT" --rw=write --bs=64k \
		--size=1m >out 2>err &&
	md5sum <"$MNT/d.0.0" >before &&
	"$IOLITE" --name=d --directory="$MNT" --ioengine=e4defrag \
		--donorname=donor --rw=write --bs=64k --size=1m >out 2>err &&
	test_must_be_empty err &&
	grep "total=0,16,0,0 short=0,0,0,0" out &&
	md5sum <"$MNT/d.0.0" >after &&
	test_cmp before after &&
	test $(stat -c %s "$MNT/donor") = 1048576 &&
	grep "^  e4defrag: 1048576 bytes of extents swapped with donor .*/mnt/donor. (kept), allocated at start$" out
'

test_expect_success_if STRACE 'one EXT4_IOC_MOVE_EXT per write; inplace=1 allocates and truncates around each' '
	rm -f "$MNT/donor" &&
	strace -f -qq -o st -e trace=ioctl,fallocate,ftruncate \
		"$IOLITE" --name=d --directory="$MNT" --ioengine=e4defrag \
		--donorname=donor --inplace=1 --rw=write --bs=64k \
		--filesize=256k >out 2>err &&
	test_must_be_empty err &&
	test $(moves st) = 4 &&
	for off in 0 65536 131072 196608; do
		grep -q "fallocate([0-9]*, 0, $off, 65536) *= 0" st || exit 1
	done &&
	test $(grep -c "ftruncate([0-9]*, 0) *= 0" st) = 4 &&
	test $(stat -c %s "$MNT/donor") = 0
'

test_expect_success_if $FIO_STRACE 'fio issues the same swaps for the same job' '
	rm -f "$MNT/donor" "$MNT/d.0.0" &&
	strace -f -qq -o fio.st -e trace=ioctl \
		fio --name=d --directory="$MNT" --ioengine=e4defrag \
		--donorname=donor --rw=randwrite --bs=64k --filesize=512k \
		>fio.out 2>&1 &&
	rm -f "$MNT/donor" "$MNT/d.0.0" &&
	strace -f -qq -o st -e trace=ioctl \
		"$IOLITE" --name=d --directory="$MNT" --ioengine=e4defrag \
		--donorname=donor --rw=randwrite --bs=64k --filesize=512k \
		>out 2>err &&
	test $(moves fio.st) = $(moves st) &&
	test "$(issued fio.out)" = "$(issued out)" &&
	test $(stat -c %s "$MNT/donor") = 524288
'

test_expect_success_if ROOT 'a file off ext4 is refused before any swap' '
	mount -t tmpfs -o size=8m tmpfs "$TFS" &&
	test_must_fail "$IOLITE" --name=d --directory="$TFS" \
		--ioengine=e4defrag --donorname=donor --rw=write --bs=64k \
		--size=256k >out 2>err &&
	grep "is not on an ext4 file system: EXT4_IOC_MOVE_EXT needs one" err &&
	test_path_is_missing "$TFS/donor"
'

test_expect_success 'refused: no donorname, reads, verify' '
	test_must_fail "$IOLITE" --name=d --directory="$MNT" \
		--ioengine=e4defrag --rw=write --size=64k >out 2>err &&
	grep "option .donorname.: ioengine .e4defrag. needs donorname=" err &&
	test_must_fail "$IOLITE" --name=d --directory="$MNT" \
		--ioengine=e4defrag --donorname=x --rw=read --size=64k \
		>out 2>err &&
	grep "option .rw.: ioengine .e4defrag. only writes" err &&
	test_must_fail "$IOLITE" --name=d --directory="$MNT" \
		--ioengine=e4defrag --donorname=x --rw=write --size=64k \
		--verify=crc32c >out 2>err &&
	grep "option .verify.: ioengine .e4defrag. moves no data" err &&
	test_path_is_missing "$MNT/x"
'

test_done

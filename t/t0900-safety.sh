#!/bin/sh
# Safety around devices: a job that writes or trims a block device that is
# mounted (itself, a partition of it, or a device stacked on it), in use,
# or that holds a filesystem, partition table or other signature is
# refused before anything is created or written, unless
# allow_mounted_write=1; --readonly refuses every writing job;
# allow_file_create=0 creates nothing; files are removed only with
# unlink=1 and device nodes never.
#
# Devices are loop devices over images in /dev/shm (root and losetup, the
# LOOP prerequisite); every loop device, mount and image is released at
# exit whatever happened.

. "$(dirname "$0")/test-lib.sh"

SHM=$TRASH_SHM/t0900
MNT=$TRASH/mnt
mkdir "$MNT"

# loop_new NAME MIB [losetup flags]: a loop device over a zeroed image.
loop_new() {
	test_loop "$SHM-$1.img" "$2"M $3
}

# loop_over FILE [losetup flags]: a loop device over FILE (or a device).
loop_over() {
	test_loop "$1" - $2
}

# the mount first; the loop devices after it (test-lib.sh)
release_all() {
	while grep -q " $MNT " /proc/self/mounts 2>/dev/null; do
		umount "$MNT" || break
	done
}
test_at_exit=release_all

# Runs iolite expecting a refusal: exit 1, one line on stderr, no output.
refuse() {
	test_must_fail "$IOLITE" "$@" >out 2>err &&
	test_must_be_empty out &&
	test "$(wc -l <err)" = 1
}

# The refusal message, as a grep pattern: refused DEV WHAT-PATTERN
refused() {
	grep "^iolite: <cmdline>:[0-9]*: option 'allow_mounted_write': '$1' $2" err
}

# test_expect_success when loop devices and the tools of "$1" (a
# blank-separated list: mkfs.ext4 is the prerequisite MKFS_EXT4) are there.
expect_with() {
	prereqs=LOOP
	for t in $1; do
		prereqs="$prereqs,$(echo "$t" | tr a-z.- A-Z__)"
	done
	shift
	test_expect_success_if "$prereqs" "$@"
}

# A dos partition table with one Linux partition from sector 2048 to the
# end: the boot signature and one 16-byte entry, written by hand.
write_mbr() {
	sectors=$(($(stat -c %s "$1") / 512 - 2048))
	le32() {
		printf "\\$(printf %o $(($1 & 255)))\\$(printf %o $((($1 >> 8) & 255)))\\$(printf %o $((($1 >> 16) & 255)))\\$(printf %o $((($1 >> 24) & 255)))"
	}
	{
		printf '\000\040\041\000\203\376\377\377'
		le32 2048
		le32 "$sectors"
	} | dd of="$1" bs=1 seek=446 conv=notrunc status=none &&
	printf '\125\252' | dd of="$1" bs=1 seek=510 conv=notrunc status=none
}

expect_with "mkfs.ext4" 'an ext4 device is refused for writes and trims, and left untouched' '
	dev=$(loop_new ext4 32) &&
	mkfs.ext4 -q "$dev" &&
	cp "$SHM-ext4.img" before.img &&
	refuse --name=w --filename=$dev --size=1m --rw=write &&
	refused $dev "holds an ext4 filesystem and the job writes to it: set allow_mounted_write=1 to overwrite it$" &&
	refuse --name=t --filename=$dev --size=1m --rw=randtrim &&
	refused $dev "holds an ext4 filesystem" &&
	refuse --name=m --filename=$dev --size=1m --rw=randrw \
		--ioengine=psync &&
	refused $dev "holds an ext4 filesystem" &&
	cmp before.img "$SHM-ext4.img"
'

expect_with "mkfs.ext4" 'reading a device with a filesystem is allowed' '
	dev=$(loop_new ext4r 32) &&
	mkfs.ext4 -q "$dev" &&
	"$IOLITE" --name=r --filename=$dev --size=1m --rw=randread \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^r: (groupid=0" out
'

expect_with "mkfs.ext4" 'a refusal in one job stops every job before any file is made' '
	dev=$(loop_new ext4j 32) &&
	mkfs.ext4 -q "$dev" &&
	cat >two.fio <<-EOF &&
	[plain]
	filename=plain.dat
	size=64k
	rw=write

	[dev]
	filename=$dev
	size=1m
	rw=write
	EOF
	test_must_fail "$IOLITE" two.fio >out 2>err &&
	grep "^iolite: two.fio:[0-9]*: option '\''allow_mounted_write'\'': '\''$dev'\'' holds an ext4 filesystem" err &&
	test ! -e plain.dat
'

expect_with "mkfs.ext4" 'allow_mounted_write=1 overwrites the signature' '
	dev=$(loop_new ext4o 32) &&
	mkfs.ext4 -q "$dev" &&
	"$IOLITE" --name=w --filename=$dev --size=1m --rw=write \
		--allow_mounted_write=1 >out 2>err &&
	test_must_be_empty err &&
	! cmp -s -n 1048576 "$SHM-ext4o.img" /dev/zero &&
	"$IOLITE" --name=w2 --filename=$dev --size=64k --rw=write \
		>out 2>err &&
	test_must_be_empty err
'

expect_with "mkfs.ext4" 'a mounted device is refused, naming the mount point' '
	dev=$(loop_new mnt 32) &&
	mkfs.ext4 -q "$dev" &&
	mount "$dev" "$MNT" &&
	{
		refuse --name=w --filename=$dev --size=1m --rw=write &&
		refused $dev "is mounted and the job writes to it (mounted on '\''$MNT'\''): set allow_mounted_write=1 to destroy the filesystem on it$" &&
		"$IOLITE" --name=r --filename=$dev --size=1m --rw=read \
			>out 2>err &&
		test_must_be_empty err
		rc=$?
		umount "$MNT"
		test $rc = 0
	}
'

expect_with "mkfs.ext4 partx" 'a disk with a mounted partition is refused, and the partition' '
	rm -f "$SHM-part.img" && truncate -s 40M "$SHM-part.img" &&
	write_mbr "$SHM-part.img" &&
	dev=$(loop_over "$SHM-part.img" -P) &&
	{ test -b ${dev}p1 || partx -a $dev; } &&
	mkfs.ext4 -q ${dev}p1 &&
	mount ${dev}p1 "$MNT" &&
	{
		refuse --name=w --filename=$dev --size=1m --rw=write &&
		refused $dev "is mounted and the job writes to it (its partition '\''${dev}p1'\'' is mounted on '\''$MNT'\'')" &&
		refuse --name=w --filename=${dev}p1 --size=1m --rw=write &&
		refused ${dev}p1 "is mounted and the job writes to it (mounted on '\''$MNT'\'')"
		rc=$?
		umount "$MNT"
		test $rc = 0
	}
'

expect_with "mkfs.ext4" 'a device under a mounted loop device is refused' '
	base=$(loop_new base 32) &&
	mkfs.ext4 -q "$base" &&
	top=$(loop_over "$base") &&
	mount "$top" "$MNT" &&
	{
		refuse --name=w --filename=$base --size=1m --rw=write &&
		refused $base "is mounted and the job writes to it (the device '\''$top'\'' built on it is mounted on '\''$MNT'\'')"
		rc=$?
		umount "$MNT"
		test $rc = 0
	}
'

expect_with "mkfs.ext4" 'the image file of a mounted loop device is refused' '
	dev=$(loop_new back 32) &&
	mkfs.ext4 -q "$dev" &&
	mount "$dev" "$MNT" &&
	{
		refuse --name=w --filename="$SHM-back.img" --size=1m \
			--rw=randwrite &&
		refused "$SHM-back.img" "backs loop device '\''$dev'\'' and the job writes to it ('\''$dev'\'' is mounted on '\''$MNT'\''): set allow_mounted_write=1 to destroy the filesystem on it$" &&
		"$IOLITE" --name=r --filename="$SHM-back.img" --size=1m \
			--rw=read >out 2>err &&
		test_must_be_empty err
		rc=$?
		umount "$MNT"
		test $rc = 0
	} &&
	"$IOLITE" --name=w --filename="$SHM-back.img" --size=64k \
		--offset=31m --rw=write >out 2>err &&
	test_must_be_empty err
'

expect_with "" 'a device with a loop device over it is in use' '
	base=$(loop_new used 8) &&
	top=$(loop_over "$base") &&
	refuse --name=w --filename=$base --size=1m --rw=write &&
	refused $base "is in use ('\''$top'\'' is built on it) and the job writes to it: set allow_mounted_write=1 to write anyway$"
'

expect_with "" 'a dos partition table is refused' '
	rm -f "$SHM-dos.img" && truncate -s 8M "$SHM-dos.img" &&
	write_mbr "$SHM-dos.img" &&
	dev=$(loop_over "$SHM-dos.img") &&
	refuse --name=w --filename=$dev --size=1m --offset=1m --rw=write &&
	refused $dev "holds a dos partition table and the job writes to it"
'

expect_with "sfdisk" 'a gpt partition table is refused' '
	dev=$(loop_new gpt 8) &&
	echo "label: gpt" | sfdisk -q "$dev" >/dev/null &&
	refuse --name=w --filename=$dev --size=1m --offset=1m --rw=write &&
	refused $dev "holds a gpt partition table and the job writes to it"
'

expect_with "mkswap" 'a swap signature is refused' '
	dev=$(loop_new swap 8) &&
	mkswap "$dev" >/dev/null 2>&1 &&
	refuse --name=w --filename=$dev --size=1m --offset=1m --rw=write &&
	refused $dev "holds a swap signature and the job writes to it"
'

expect_with "" 'a zeroed device is written without a word' '
	dev=$(loop_new clean 8) &&
	"$IOLITE" --name=w --filename=$dev --size=1m --rw=write --bs=64k \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^w: (groupid=0" out &&
	! cmp -s -n 1048576 "$SHM-clean.img" /dev/zero
'

expect_with "" 'unlink=1 never removes a device node' '
	dev=$(loop_new unl 8) &&
	"$IOLITE" --name=w --filename=$dev --size=256k --rw=write \
		--unlink=1 >out 2>err &&
	test_must_be_empty err &&
	test -b $dev
'

expect_with "" '--readonly refuses writing and trimming a device' '
	dev=$(loop_new ro 8) &&
	cp "$SHM-ro.img" before.img &&
	bad= &&
	for rw in write randwrite rw trim randtrim trimwrite; do
		refuse --readonly --name=w --filename=$dev --size=1m \
			--rw=$rw &&
		grep "^iolite: .*job '\''w'\'' writes, and --readonly refuses jobs that write$" err ||
		bad="$bad $rw"
	done &&
	test -z "$bad" &&
	cmp before.img "$SHM-ro.img" &&
	"$IOLITE" --readonly --name=r --filename=$dev --size=1m --rw=read \
		>out 2>err &&
	test_must_be_empty err
'

test_expect_success '--readonly refuses a writing job in a job file and creates nothing' '
	cat >ro.fio <<-EOF &&
	[r]
	filename=ro-r.dat
	size=64k
	rw=read
	[w]
	filename=ro-w.dat
	size=64k
	rw=randwrite
	EOF
	test_must_fail "$IOLITE" --readonly ro.fio >out 2>err &&
	grep "^iolite: ro.fio:[0-9]*: job '\''w'\'' writes, and --readonly refuses jobs that write$" err &&
	test ! -e ro-r.dat &&
	test ! -e ro-w.dat
'

test_expect_success 'allow_file_create=0 creates nothing, wherever it is set' '
	test_must_fail "$IOLITE" --name=x --filename=afc/sub/f --size=64k \
		--rw=write --allow_file_create=0 >out 2>err &&
	grep "option '\''allow_file_create'\'': '\''afc/sub/f'\'' does not exist and allow_file_create=0 forbids creating it" err &&
	test ! -e afc &&
	mkdir d &&
	cat >afc.fio <<-EOF &&
	[global]
	allow_file_create=0
	directory=d
	size=64k
	[a]
	rw=read
	nrfiles=2
	numjobs=2
	EOF
	test_must_fail "$IOLITE" afc.fio >out 2>err &&
	grep "^iolite: afc.fio:[0-9]*: option '\''allow_file_create'\'': '\''d/a.0.0'\'' does not exist" err &&
	test -z "$(ls d)"
'

test_expect_success 'allow_file_create=0 uses a file that exists' '
	dd if=/dev/zero of=have.dat bs=64k count=1 status=none &&
	"$IOLITE" --name=x --filename=have.dat --size=64k --rw=write \
		--allow_file_create=0 >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'files are kept without unlink=1 and removed with it' '
	mkdir keep &&
	"$IOLITE" --name=k --directory=keep --nrfiles=2 --size=64k \
		--rw=write >out 2>err &&
	test_must_be_empty err &&
	test -f keep/k.0.0 && test -f keep/k.0.1 &&
	"$IOLITE" --name=k --directory=keep --nrfiles=2 --size=64k \
		--rw=randread --unlink=0 >out 2>err &&
	test -f keep/k.0.0 && test -f keep/k.0.1 &&
	"$IOLITE" --name=k --directory=keep --nrfiles=2 --size=64k \
		--rw=read --unlink=1 >out 2>err &&
	test_must_be_empty err &&
	test -z "$(ls keep)"
'

test_expect_success 'a refused run removes nothing, even with unlink=1' '
	dd if=/dev/zero of=old.dat bs=64k count=1 status=none &&
	test_must_fail "$IOLITE" --name=x --filename=old.dat --size=64k \
		--rw=write --unlink=1 --bs=128k >out 2>err &&
	grep "block size 131072 is larger than size 65536" err &&
	test -f old.dat
'

test_done

#!/bin/sh
# t/vm/boot.sh JOBS WORK: boots the test guest once, runs the job table
# JOBS in it (t/vm/runjobs.sh) and leaves the results in WORK/out; WORK
# (a scratch directory) also gets console.log, the guest's console.
#
# The guest: QEMU's emulated CPU (TCG: slow, so the results are
# functional, never timings; KVM is not used, as it hung on the machine
# this was written on), one CPU, 1 GiB, Debian's kernel
# (fetch-kernel.sh), the initramfs of mkinitramfs.sh, and
#   one NVMe controller: namespace 1 zoned (16 zones of 16 MiB,
#     /dev/nvme0n1, /dev/ng0n1), namespace 2 conventional (256 MiB,
#     /dev/nvme0n2, /dev/ng0n2), over sparse files in WORK
#   null_blk (init.sh): a zoned /dev/nullb0 in the guest's memory
# The results come back on a second serial port, as a base64 tar between
# two marker lines: a serial port needs no driver module and no file
# system on the host side, and the end marker tells a complete result
# from a guest that died half-way.
#
# IOLITE_VM_TIMEOUT (seconds, default 900): the guest is killed past it,
# so a hung guest never hangs the suite. IOLITE: the iolite to test.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# = 2 ] || vm_die "usage: boot.sh JOBS WORK"
jobs=$1 work=$2
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	vm_die "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
kdir=$("$VM_DIR/fetch-kernel.sh")
ver=$(cat "$kdir/.ready")
mkdir -p "$work/out"
"$VM_DIR/mkinitramfs.sh" "$kdir" "$jobs" "$work/initramfs.cpio"
rm -f "$work/zns.img" "$work/conv.img"
truncate -s 256M "$work/zns.img" "$work/conv.img"

rc=0
timeout -s KILL "${IOLITE_VM_TIMEOUT:-900}" qemu-system-x86_64 \
	-accel tcg,tb-size=256 -cpu max -smp 1 -m 1024 \
	-nodefaults -display none -no-reboot \
	-kernel "$kdir/boot/vmlinuz-$ver" -initrd "$work/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet" \
	-serial "file:$work/console.log" -serial "file:$work/results.b64" \
	-drive "file=$work/zns.img,if=none,id=zns,format=raw" \
	-drive "file=$work/conv.img,if=none,id=conv,format=raw,discard=unmap" \
	-device nvme,serial=iolitevm,id=nvme0 \
	-device nvme-ns,drive=zns,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=16M,zoned.zone_capacity=16M \
	-device nvme-ns,drive=conv,bus=nvme0,nsid=2 \
	>"$work/qemu.log" 2>&1 || rc=$?
rm -f "$work/zns.img" "$work/conv.img" "$work/initramfs.cpio"
if [ $rc = 137 ]; then
	vm_die "the guest was killed after ${IOLITE_VM_TIMEOUT:-900} s (hung?): $work/console.log"
elif [ $rc != 0 ]; then
	vm_die "qemu failed ($rc): $(tail -n 3 "$work/qemu.log")"
fi
grep -q '^==iolite-vm-end==' "$work/results.b64" ||
	vm_die "the guest sent no complete results: $work/console.log"
tr -d '\r' <"$work/results.b64" |
	sed -n '/^==iolite-vm-results==$/,/^==iolite-vm-end==$/p' |
	sed '1d;$d' | base64 -d | tar -xzf - -C "$work/out" ||
	vm_die "the guest's results do not unpack"
rm -f "$work/results.b64"

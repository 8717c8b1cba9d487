#!/bin/sh
# t/vm/boot.sh JOBS WORK: boots the test guest once, runs the job table
# JOBS in it (t/vm/runjobs.sh) and leaves the results in WORK/out; WORK
# (a scratch directory) also gets console.log, the guest's console.
#
# The guest: QEMU's emulated CPU (TCG: slow, so the results are
# functional, never timings; KVM is not used, as it hung on the machine
# this was written on), one CPU, 1 GiB, Debian's kernel
# (fetch-kernel.sh), the initramfs of mkinitramfs.sh, and
#   one NVMe controller, its namespaces over sparse files in WORK:
#     1 zoned (16 zones of 16 MiB, /dev/nvme0n1, /dev/ng0n1)
#     2 conventional (256 MiB, /dev/nvme0n2, /dev/ng0n2)
#     3 zoned, 16 zones of 16 MiB with a capacity of 12 MiB, at most 4
#       open and 6 active (/dev/nvme0n3, /dev/ng0n3)
#     4 64 MiB, 8 bytes of metadata per block in a separate buffer,
#       protection type 1 (/dev/nvme0n4, /dev/ng0n4)
#     5 64 MiB, 8 bytes of metadata at each block's end (extended LBAs),
#       type 1 (/dev/ng0n5; /dev/nvme0n5 too, with PRACT: the metadata
#       is all protection information)
#     6 64 MiB, 16 bytes of metadata per block in a separate buffer,
#       type 1 with the 64-bit guard (pif=2: /dev/nvme0n6, /dev/ng0n6)
#     7 the same with extended LBAs (/dev/ng0n7; /dev/nvme0n7 with PRACT)
#   an AHCI controller with one SATA disk (64 MiB, QEMU's ATA emulation:
#     a write cache SET FEATURES switches, no security feature set)
#   null_blk (init.sh): a zoned /dev/nullb0 in the guest's memory
#   scsi_debug (init.sh): a host-aware zoned SCSI disk in its memory for
#     the rows, then a plain 64 MiB one for pts
# The results come back on a second serial port, as a base64 tar between
# two marker lines: a serial port needs no driver module and no file
# system on the host side, and the end marker tells a complete result
# from a guest that died half-way.
#
# IOLITE_VM_TIMEOUT (seconds, default 900): the guest is killed past it,
# so a hung guest never hangs the suite. IOLITE: the iolite to test.
# IOLITE_VM_QEMU_ARGS: more words for qemu (split at spaces), e.g.
# "-trace pci_nvme_dsm" (its lines in WORK/qemu.log, kept with
# IOLITE_TEST_KEEP=1 or when boot.sh runs alone).
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
imgs="zns conv zcap pi pix pi64 pix64 sata"
for i in $imgs; do rm -f "$work/$i.img"; done
truncate -s 256M "$work/zns.img" "$work/conv.img" "$work/zcap.img"
truncate -s 64M "$work/pi.img" "$work/pix.img" "$work/pi64.img" \
	"$work/pix64.img" "$work/sata.img"

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
	-drive "file=$work/zcap.img,if=none,id=zcap,format=raw" \
	-device nvme-ns,drive=zcap,bus=nvme0,nsid=3,zoned=true,zoned.zone_size=16M,zoned.zone_capacity=12M,zoned.max_open=4,zoned.max_active=6 \
	-drive "file=$work/pi.img,if=none,id=pi,format=raw" \
	-device nvme-ns,drive=pi,bus=nvme0,nsid=4,ms=8,mset=0,pi=1 \
	-drive "file=$work/pix.img,if=none,id=pix,format=raw" \
	-device nvme-ns,drive=pix,bus=nvme0,nsid=5,ms=8,mset=1,pi=1 \
	-drive "file=$work/pi64.img,if=none,id=pi64,format=raw" \
	-device nvme-ns,drive=pi64,bus=nvme0,nsid=6,ms=16,mset=0,pi=1,pif=2 \
	-drive "file=$work/pix64.img,if=none,id=pix64,format=raw" \
	-device nvme-ns,drive=pix64,bus=nvme0,nsid=7,ms=16,mset=1,pi=1,pif=2 \
	-device ahci,id=ahci0 \
	-drive "file=$work/sata.img,if=none,id=sata,format=raw" \
	-device ide-hd,drive=sata,bus=ahci0.0 \
	${IOLITE_VM_QEMU_ARGS:-} >"$work/qemu.log" 2>&1 || rc=$?
for i in $imgs; do rm -f "$work/$i.img"; done
rm -f "$work/initramfs.cpio"
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

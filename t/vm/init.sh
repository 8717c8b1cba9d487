#!/bin/sh
# /init of the test guest (t/vm/mkinitramfs.sh puts it there; busybox
# sh): mounts, loads the modules, makes the null_blk device, finds the
# devices boot.sh gave the guest, runs the job table and sends the
# results back on the second serial port, then powers off. The first
# serial port is the console: the kernel's messages and the progress
# lines below (boot.sh keeps it as console.log).
/bin/busybox --install -s /bin
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp

say() {
	echo "iolite-vm: $*"
}

# Whatever happens below, the guest ends: a result never comes back
# half-written (the end marker is last), and boot.sh's timeout catches a
# guest that hangs in the kernel.
finish() {
	say "sending results"
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	{
		echo "==iolite-vm-results=="
		tar -C /tmp/out -cf - . | gzip -1 | base64
		echo "==iolite-vm-end=="
	} >/dev/ttyS1
	say "done"
	sync
	poweroff -f
}

mkdir -p /tmp/out
# the SCSI disk of a model (/dev/sdX), or nothing: "scsi_debug", and
# "QEMU HARDDISK" (the AHCI disk)
sd() {
	for d_ in /sys/block/sd*; do
		grep -qs "$1" "$d_/device/model" && echo "/dev/${d_##*/}"
	done
}
# null_blk: a host-managed zoned device of 16 zones of 64 MiB, in memory
# (memory_backed: what is written reads back, which the md5 checks need;
# pages are allocated only as written)
while read -r m; do
	args=
	[ "$m" = null_blk.ko ] &&
		args="nr_devices=1 zoned=1 zone_size=64 memory_backed=1 gb=1"
	# scsi_debug: a host-aware zoned SCSI disk (SMR's model: zones
	# sequential write preferred) of 8 zones of 1 MiB, the first
	# conventional, in memory; delay=0: each command answered at once
	[ "$m" = scsi_debug.ko ] &&
		args="zbc=host-aware dev_size_mb=8 zone_size_mb=1 zone_nr_conv=1 delay=0"
	# shellcheck disable=SC2086
	insmod "/lib/modules/$m" $args ||
		say "insmod $m failed" | tee -a /tmp/out/errors
done </vm/modules

# the NVMe controller's namespaces appear as its probe ends (async), as
# do the SCSI disks
i=0
while [ $i -lt 100 ]; do
	set -- /sys/block/nvme*n*
	[ $# -ge 4 ] && [ -c /dev/ng0n7 ] && [ -b /dev/nullb0 ] &&
		[ -n "$(sd scsi_debug)" ] && [ -n "$(sd "QEMU HARDDISK")" ] &&
		break
	sleep 0.1
	i=$((i + 1))
done

# the namespaces by their number (boot.sh says which is which)
ns() {
	for n_ in /sys/block/nvme*n"$1"; do
		[ -e "$n_" ] && echo "/dev/${n_##*/}"
	done
}
ng() {
	for c_ in /dev/ng*n"$1"; do
		[ -c "$c_" ] && echo "$c_"
	done
}
VM_DEV_ZNS=$(ns 1) VM_DEV_ZNS_NG=$(ng 1)
VM_DEV_CONV=$(ns 2) VM_DEV_CONV_NG=$(ng 2)
VM_DEV_ZCAP=$(ns 3) VM_DEV_ZCAP_NG=$(ng 3)
VM_DEV_PI=$(ns 4) VM_DEV_PI_NG=$(ng 4)
VM_DEV_PIX_NG=$(ng 5)
VM_DEV_PI64=$(ns 6) VM_DEV_PI64_NG=$(ng 6) VM_DEV_PIX64_NG=$(ng 7)
[ -b /dev/nullb0 ] && VM_DEV_NULLZ=/dev/nullb0
VM_DEV_HA=$(sd scsi_debug) VM_DEV_SATA=$(sd "QEMU HARDDISK")
export VM_DEV_ZNS VM_DEV_ZNS_NG VM_DEV_CONV VM_DEV_CONV_NG VM_DEV_NULLZ \
	VM_DEV_ZCAP VM_DEV_ZCAP_NG VM_DEV_PI VM_DEV_PI_NG VM_DEV_PIX_NG \
	VM_DEV_PI64 VM_DEV_PI64_NG VM_DEV_PIX64_NG VM_DEV_HA VM_DEV_SATA

{
	echo "kernel: $(uname -r)"
	echo "fio: $(fio --version)"
	echo "iolite: $(iolite --version 2>&1 | head -n 1)"
	for b in /sys/block/nvme*n* /sys/block/nullb* /sys/block/sd*; do
		[ -e "$b" ] || continue
		q=$b/queue
		echo "${b##*/}: zoned=$(cat "$q/zoned") nr_zones=$(cat "$q/nr_zones")" \
			"chunk_sectors=$(cat "$q/chunk_sectors")" \
			"max_open_zones=$(cat "$q/max_open_zones" 2>/dev/null)" \
			"size=$(($(cat "$b/size") * 512))" \
			"scheduler=$(cat "$q/scheduler")"
	done
	# the namespaces' formats (LBA size, metadata), for the rows to come
	command -v nvme >/dev/null && nvme list
} >/tmp/out/info
say "devices: zns=${VM_DEV_ZNS:-none} conv=${VM_DEV_CONV:-none}" \
	"zcap=${VM_DEV_ZCAP:-none} pi=${VM_DEV_PI:-none}" \
	"pix=${VM_DEV_PIX_NG:-none} pi64=${VM_DEV_PI64:-none}" \
	"pix64=${VM_DEV_PIX64_NG:-none} nullz=${VM_DEV_NULLZ:-none}" \
	"ha=${VM_DEV_HA:-none} sata=${VM_DEV_SATA:-none}"

VM_WIPE=yes /vm/runjobs.sh /vm/jobs.txt /tmp/out
echo $? >/tmp/out/runjobs.rc
# iolite pts last: it formats the conventional namespace
if [ -n "$VM_DEV_CONV" ]; then
	say "iolite pts on $VM_DEV_CONV"
	/vm/pts.sh "$VM_DEV_CONV" /tmp/out/pts
fi
# and on the SCSI disks: the write cache, killed runs, the ATA purge.
# scsi_debug makes every disk of one zone model, so the host-aware one
# the rows used goes, and a plain 64 MiB disk comes for pts
VM_DEV_SDEBUG=
if [ -n "$VM_DEV_HA" ] && rmmod scsi_debug &&
	insmod /lib/modules/scsi_debug.ko dev_size_mb=64; then
	i=0
	while [ $i -lt 100 ] && [ -z "$(sd scsi_debug)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	VM_DEV_SDEBUG=$(sd scsi_debug)
fi
say "iolite pts on ${VM_DEV_SATA:-no SATA disk}, ${VM_DEV_SDEBUG:-no scsi_debug}"
/vm/pts-scsi.sh "${VM_DEV_SATA:-}" "${VM_DEV_SDEBUG:-}" /tmp/out/pts-scsi
finish

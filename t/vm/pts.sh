#!/bin/sh
# t/vm/pts.sh DEV OUT: `iolite pts` on the guest's conventional NVMe
# namespace DEV, after the job table (it formats the namespace), scaled
# to seconds; OUT gets the run's JSON, stderr and exit status for
# t/t2700-vm-nvme.sh. A test's figures are not the point here: the NVMe
# side is (Format NVM as the purge, the SMART log's temperature, the
# controller's identity). 64 KiB at 64 MiB, past the 8 MiB tested, are
# written with random bytes first and read back after (md5): the format
# erases them, where a run limited to 8 MiB would not touch them. The
# volatile write cache (nvme-cli, when the guest has it) before and
# after: pts turns it off for the enterprise variant, and back.
dev=$1 out=$2
vwc() {
	command -v nvme >/dev/null &&
		nvme get-feature "$dev" -f 6 2>&1 | sed -n "s/.*Current value: *//p"
}
mkdir -p "$out" || exit 1
dd if=/dev/urandom of=/tmp/pts.pat bs=64k count=1 2>/dev/null
dd if=/tmp/pts.pat of="$dev" bs=64k seek=1024 count=1 conv=fsync 2>/dev/null
dd if="$dev" bs=64k skip=1024 count=1 2>/dev/null | md5sum >"$out/before.md5"
vwc >"$out/vwc.before"
iolite pts iops "$dev" --destroy-data --round-time=50ms --bs=4k \
	--mix=0/100 --capacity-limit=8M --max-rounds=5 \
	--output-format=json --output="$out/iops.json" 2>"$out/iops.err"
echo $? >"$out/iops.rc"
vwc >"$out/vwc.after"
dd if="$dev" bs=64k skip=1024 count=1 2>/dev/null | md5sum >"$out/after.md5"
dd if=/dev/zero bs=64k count=1 2>/dev/null | md5sum >"$out/zero.md5"
# Sanitize asked for alone: QEMU 7.2's controller has none (SANICAP 0),
# so the run says so and is marked not purged
iolite pts iops "$dev" --destroy-data --purge=sanitize --round-time=50ms \
	--bs=4k --mix=0/100 --capacity-limit=8M --max-rounds=5 \
	--precondition=none --output-format=json \
	--output="$out/sanitize.json" 2>"$out/sanitize.err"
echo $? >"$out/sanitize.rc"

#!/bin/sh
# t/vm/pts-scsi.sh SATA SDEBUG OUT: `iolite pts` on the guest's SCSI
# disks, for t/t2700-vm-nvme.sh: the write cache switched through the sd
# driver's cache_type (on the AHCI disk libata turns it into ATA SET
# FEATURES; on scsi_debug it is a MODE SELECT of the caching page) and
# put back, also when pts is killed mid-round (SIGTERM: pts itself;
# SIGKILL: its guard process); the ATA Secure Erase's checks (QEMU's ATA
# disk has no security feature set; scsi_debug is no ATA drive). OUT
# gets each run's JSON, stderr, exit status and the cache_type around it.
sata=$1 sdebug=$2 out=$3
mkdir -p "$out" || exit 1

# cache DEV: its sd cache_type
cache() {
	cat /sys/block/"${1#/dev/}"/device/scsi_disk/*/cache_type
}

# wait_cache DEV STATE: until DEV's cache is STATE, 60 s at most
wait_cache() {
	wc_i=0
	while [ "$(cache "$1")" != "$2" ] && [ $wc_i -lt 600 ]; do
		sleep 0.1
		wc_i=$((wc_i + 1))
	done
}

if [ -n "$sata" ]; then
	cache "$sata" >"$out/sata.before"
	iolite pts iops "$sata" --destroy-data --round-time=50ms --bs=4k \
		--mix=0/100 --capacity-limit=8M --max-rounds=5 \
		--precondition=none --output-format=json \
		--output="$out/sata.json" 2>"$out/sata.err"
	echo $? >"$out/sata.rc"
	cache "$sata" >"$out/sata.after"
fi

[ -n "$sdebug" ] || exit 0
# a run of minutes (60 s a cell), killed once the cache is switched
for sig in TERM KILL; do
	cache "$sdebug" >"$out/$sig.before"
	iolite pts iops "$sdebug" --destroy-data --round-time=60s --bs=4k \
		--mix=0/100 --capacity-limit=8M --max-rounds=5 \
		--precondition=none --output-format=json \
		--output="$out/$sig.json" 2>"$out/$sig.err" &
	pid=$!
	wait_cache "$sdebug" "write through"
	cache "$sdebug" >"$out/$sig.during"
	sleep 1
	kill -"$sig" $pid
	wait $pid
	echo $? >"$out/$sig.rc"
	wait_cache "$sdebug" "write back"
	cache "$sdebug" >"$out/$sig.after"
done

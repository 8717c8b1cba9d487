#!/bin/sh
# t/vm/runjobs.sh JOBS OUT: runs each row of the job table JOBS through
# fio and iolite, one after the other on the same device, and leaves what
# t/vm/check.sh compares in OUT/ROW/TOOL/:
#   cmd, rc, stderr         the command line, its exit status, its stderr
#   out.json, iolog         the JSON report and the write_iolog
#   md5.before, md5.after   md5 of the row's span of the device
#   zones.before, zones.after  blkzone report (zoned devices)
# A row whose device is not given leaves OUT/ROW/skip with the reason.
#
# It runs in the test guest (t/vm/init.sh) and on any Linux host with the
# devices (doc/vm.md): POSIX sh, busybox or not. The devices, by the
# names the table uses:
#   VM_DEV_CONV, VM_DEV_CONV_NG   a conventional NVMe namespace, its
#                                 /dev/ngXnY
#   VM_DEV_ZNS, VM_DEV_ZNS_NG     a zoned (host-managed) namespace, its
#                                 /dev/ngXnY
#   VM_DEV_ZCAP, VM_DEV_ZCAP_NG   a zoned namespace whose zones' capacity
#                                 is less than their size, with open and
#                                 active zone limits, its /dev/ngXnY
#   VM_DEV_PI, VM_DEV_PI_NG       a namespace with 8 bytes of metadata per
#                                 block (separate), protection type 1
#   VM_DEV_PIX_NG                 the same with extended LBAs (metadata
#                                 inline; no block device)
#   VM_DEV_PI64, VM_DEV_PI64_NG   a namespace with 16 bytes of metadata
#                                 per block (separate), protection type 1
#                                 with the 64-bit guard
#   VM_DEV_PIX64_NG               the same with extended LBAs
#   VM_DEV_NULLZ                  a zoned null_blk device
#   VM_DEV_HA                     a host-aware zoned block device (an SMR
#                                 disk, or scsi_debug's) whose first zone
#                                 is conventional
# EVERYTHING ON THEM IS LOST: each row resets the zones or zeroes its
# span first, so the script runs only with VM_WIPE=yes.
# FIO and IOLITE name the binaries (default: fio and iolite on PATH);
# VM_JOB_TIMEOUT (seconds, default 120) stops one hung run.
#
# The table, one row a line (# comments, blank lines ignored):
#   name | device | span | prep | checks | options
# device: conv, conv-ng, zns, zns-ng, zcap, zcap-ng, pi, pi-ng, pix-ng,
# pi64, pi64-ng, pix64-ng, nullz or ha; span: the bytes from the device's start that are reset before
# each tool's run and read back after (k, m, g suffixes); prep: - or fill
# (the span written with a fixed pattern after the reset, by fio, before
# each tool's run); checks:
# what check.sh compares (see there); options: fio's command-line words,
# without --name, --filename and the output options, which this adds
# (@DEV in them stands for the device's path: a second job's filename).
# A device with no block device (an extended-LBA namespace whose
# metadata is more than its protection information) is neither reset
# nor read back: its rows can only check what the tools report.
set -u

[ $# = 2 ] || { echo "usage: runjobs.sh JOBS OUT" >&2; exit 2; }
[ "${VM_WIPE:-}" = yes ] || {
	echo "runjobs.sh: overwrites the devices it is given: set VM_WIPE=yes" >&2
	exit 2
}
jobs=$1 out=$2
: "${FIO:=fio}" "${IOLITE:=iolite}"
PATH=$PATH:/usr/sbin:/sbin

# bytes SIZE: SIZE with a k, m or g suffix (powers of 1024) in bytes
bytes() {
	case $1 in
	*[kK]) echo $((${1%?} * 1024)) ;;
	*[mM]) echo $((${1%?} * 1048576)) ;;
	*[gG]) echo $((${1%?} * 1073741824)) ;;
	*)	echo "$1" ;;
	esac
}

# device NAME: the path the table's device NAME stands for, or nothing
device() {
	case $1 in
	conv)	echo "${VM_DEV_CONV:-}" ;;
	conv-ng) echo "${VM_DEV_CONV_NG:-}" ;;
	zns)	echo "${VM_DEV_ZNS:-}" ;;
	zns-ng)	echo "${VM_DEV_ZNS_NG:-}" ;;
	zcap)	echo "${VM_DEV_ZCAP:-}" ;;
	zcap-ng) echo "${VM_DEV_ZCAP_NG:-}" ;;
	pi)	echo "${VM_DEV_PI:-}" ;;
	pi-ng)	echo "${VM_DEV_PI_NG:-}" ;;
	pix-ng)	echo "${VM_DEV_PIX_NG:-}" ;;
	pi64)	echo "${VM_DEV_PI64:-}" ;;
	pi64-ng) echo "${VM_DEV_PI64_NG:-}" ;;
	pix64-ng) echo "${VM_DEV_PIX64_NG:-}" ;;
	ha)	echo "${VM_DEV_HA:-}" ;;
	nullz)	echo "${VM_DEV_NULLZ:-}" ;;
	esac
}

# the block device behind a /dev/ngXnY (its namespace's /dev/nvmeXnY):
# the one resets, fills and reads back go through
blockdev_of() {
	case $1 in
	/dev/ng*) echo "/dev/nvme${1#/dev/ng}" ;;
	*)	echo "$1" ;;
	esac
}

zoned() {
	[ "$(cat "/sys/block/${1#/dev/}/queue/zoned" 2>/dev/null)" != none ]
}

# reset DEV SPAN: the state each tool starts from: every zone empty, or
# the span zeroed (and out of the page cache, as a read-back must see the
# device)
reset() {
	[ -b "$1" ] || return 0
	if zoned "$1"; then
		blkzone reset "$1"
	else
		dd if=/dev/zero of="$1" bs=65536 count=$(($2 / 65536)) \
			conv=fsync 2>/dev/null
	fi
	blockdev --flushbufs "$1"
}

# fill DEV SPAN OUT: the span written with a fixed pattern, by fio with
# O_DIRECT, one write at a time from the start: on a zoned device each at
# the write pointer of a zone just reset (fio's zonemode=zbd would refuse
# a span smaller than a zone)
fill() {
	"$FIO" --name=fill --filename="$1" --rw=write --bs=64k --size="$2" \
		--direct=1 --ioengine=psync --buffer_pattern=0x696f6c697465 \
		--output="$3"
}

# snap DEV SPAN DIR WHEN: md5 of the span, zones of a zoned device
snap() {
	[ -b "$1" ] || return 0
	blockdev --flushbufs "$1"
	dd if="$1" bs=65536 count=$(($2 / 65536)) 2>/dev/null | md5sum |
		cut -d' ' -f1 >"$3/md5.$4"
	if zoned "$1"; then
		blkzone report "$1" >"$3/zones.$4"
	fi
}

# run_tool ROW TOOL DEV SPAN PREP OPTIONS
run_tool() {
	d=$out/$1/$2 dev=$3 span=$4 bdev=$(blockdev_of "$3")
	mkdir -p "$d"
	bin=$FIO
	[ "$2" = iolite ] && bin=$IOLITE
	reset "$bdev" "$span" || echo "reset failed" >>"$d/prep.err"
	if [ "$5" = fill ] && [ ! -b "$bdev" ]; then
		echo "fill: no block device for '$dev'" >>"$d/prep.err"
	elif [ "$5" = fill ]; then
		fill "$bdev" "$span" "$d/fill.out" >>"$d/prep.err" 2>&1 ||
			echo "fill failed: $(head -n 3 "$d/fill.out")" >>"$d/prep.err"
	fi
	snap "$bdev" "$span" "$d" before
	opts=$(echo "$6" | sed "s|@DEV|$dev|g")
	echo "$2 --name=$1 --filename=$dev $opts" >"$d/cmd"
	# shellcheck disable=SC2086
	timeout "${VM_JOB_TIMEOUT:-120}" "$bin" --name="$1" --filename="$dev" \
		$opts --output-format=json --output="$d/out.json" \
		--write_iolog="$d/iolog" >"$d/stdout" 2>"$d/stderr"
	echo $? >"$d/rc"
	snap "$bdev" "$span" "$d" after
}

# trim WORDS: the words, one space between (the table's cells are padded)
trim() {
	# shellcheck disable=SC2086
	set -f && set -- $1 && echo "$*"
}

# pi_prime DEV: the last MiB of a namespace with protection information
# written once (zeroes, their tuples made by the block layer): QEMU fails
# the block layer's reads of blocks never written (their reference tags
# are not their LBAs), and the safety check of a tool about to write
# reads the device's end for signatures; each row's span covers its start
pi_prime() {
	[ -b "$1" ] || return 0
	pp_n=$(($(blockdev --getsize64 "$1") / 512))
	dd if=/dev/zero of="$1" bs=512 seek=$((pp_n - 2048)) count=2048 \
		conv=fsync 2>/dev/null
}
pi_prime "${VM_DEV_PI:-}"
pi_prime "$(blockdev_of "${VM_DEV_PIX_NG:-}")"
pi_prime "${VM_DEV_PI64:-}"
pi_prime "$(blockdev_of "${VM_DEV_PIX64_NG:-}")"

sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$jobs" |
while IFS='|' read -r name dev span prep _checks opts; do
	name=$(trim "$name") dev=$(trim "$dev") span=$(trim "$span")
	prep=$(trim "$prep") opts=$(trim "$opts")
	mkdir -p "$out/$name"
	path=$(device "$dev")
	if [ -z "$path" ] || [ ! -e "$path" ]; then
		echo "no $dev device" >"$out/$name/skip"
		continue
	fi
	echo "iolite-vm: row $name ($path)"
	# (stdin is the table: nothing the row runs may read it)
	for tool in fio iolite; do
		run_tool "$name" "$tool" "$path" "$(bytes "$span")" "$prep" \
			"$opts" </dev/null
		# a run the guest lost (a tool killed by VM_JOB_TIMEOUT or a
		# signal: emulated NVMe under a loaded TCG host can drop a
		# completion; a command interrupted, EINTR) is run once more,
		# from the same preparation, and says so (check.sh prints it)
		d=$out/$name/$tool
		if [ "$(cat "$d/rc")" -ge 124 ] ||
		   grep -q "EINTR\|Interrupted system call" "$d/stderr"; then
			why="rc $(cat "$d/rc"), $(head -c 200 "$d/stderr" |
				tr '\n' ' ')"
			rm -f "$d/iolog" "$d/out.json"	# (write_iolog appends)
			run_tool "$name" "$tool" "$path" "$(bytes "$span")" \
				"$prep" "$opts" </dev/null
			echo "$why" >"$d/retried"
		fi
	done
done

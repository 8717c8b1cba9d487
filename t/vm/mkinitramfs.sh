#!/bin/sh
# t/vm/mkinitramfs.sh KERNEL-DIR JOBS OUT: the guest's initramfs, an
# uncompressed cpio archive (the guest's CPU is emulated: unpacking costs
# nothing, inflating would cost seconds), made of
#   /init            t/vm/init.sh: mounts, modules, devices, jobs, results
#   /vm/             runjobs.sh, pts.sh, pts-scsi.sh and the job table JOBS
#   /bin/busybox     static; its applets are linked at boot
#   /usr/bin, /usr/sbin: iolite ($IOLITE, the build's binary), fio
#                    ($IOLITE_VM_FIO, default the host's: another build,
#                    e.g. a newer fio to compare with by hand),
#                    blkzone (util-linux) and nvme (nvme-cli, if there),
#                    with the shared libraries ldd lists and the loader
#   $IOLITE_VM_EXTRA files named there (spaces between), each at its own
#                    path with the libraries ldd lists: by hand, e.g.
#                    valgrind's launcher and tool to count instructions
#   /lib/modules/    the modules of KERNEL-DIR (fetch-kernel.sh) the
#                    devices need (NVMe, null_blk, sd_mod, scsi_debug,
#                    the CRCs of t10-pi), their dependencies first, listed in
#                    /vm/modules in the order init loads them
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# = 3 ] || vm_die "usage: mkinitramfs.sh KERNEL-DIR JOBS OUT"
kdir=$1 jobs=$2 out=$3
: "${IOLITE:=$VM_DIR/../../iolite}"
ver=$(cat "$kdir/.ready")
mods=$kdir/lib/modules/$ver
bb=$(vm_busybox) || vm_die "no static busybox (apt-get install busybox-static)"
[ -x "$IOLITE" ] || vm_die "no iolite binary '$IOLITE' (make first)"
fio=${IOLITE_VM_FIO:-$(command -v fio)} || vm_die "no fio (apt-get install fio)"
[ -x "$fio" ] || vm_die "no fio binary '$fio'"
blkzone=$(command -v blkzone) || vm_die "no blkzone (apt-get install util-linux)"

root=$(mktemp -d "${TMPDIR:-/tmp}/iolite-vm-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/usr/bin" "$root/usr/sbin" "$root/vm" \
	"$root/lib/modules" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"

# copy_lib PATH: PATH (a library or the loader) at its own path, the file
# it names rather than a symlink
copy_lib() {
	[ -e "$root$1" ] && return 0
	mkdir -p "$root${1%/*}"
	cp -L "$1" "$root$1"
}

# copy_prog PATH DIR: a program and every library ldd says it loads
copy_prog() {
	cp -L "$1" "$root/$2/"
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }' | while read -r cp_lib; do
		copy_lib "$cp_lib"
	done
}

copy_prog "$IOLITE" usr/bin
copy_prog "$fio" usr/bin
[ "${fio##*/}" = fio ] || mv "$root/usr/bin/${fio##*/}" "$root/usr/bin/fio"
copy_prog "$blkzone" usr/sbin
nvme=$(command -v nvme 2>/dev/null) && copy_prog "$nvme" usr/sbin
for x in ${IOLITE_VM_EXTRA:-}; do
	[ -e "$x" ] || vm_die "no file '$x' (IOLITE_VM_EXTRA)"
	mkdir -p "$root${x%/*}"
	copy_prog "$x" "${x%/*}"
done
cp "$bb" "$root/bin/busybox"
# the interpreter of /init; init.sh links the other applets
ln -s busybox "$root/bin/sh"
cp "$VM_DIR/init.sh" "$root/init"
cp "$VM_DIR/runjobs.sh" "$VM_DIR/pts.sh" "$VM_DIR/pts-scsi.sh" "$jobs" \
	"$root/vm/"
[ "${jobs##*/}" = jobs.txt ] || mv "$root/vm/${jobs##*/}" "$root/vm/jobs.txt"
chmod +x "$root/init" "$root/vm/runjobs.sh" "$root/vm/pts.sh" \
	"$root/vm/pts-scsi.sh"

# mod_deps NAME: the module files (as modules.dep names them) that NAME
# needs, each after its own dependencies; nothing for a built-in one
mod_deps() {
	awk -v want="$1" -F': *' '
	function base(p) { sub(/.*\//, "", p); sub(/\.ko.*/, "", p)
		gsub(/-/, "_", p); return p }
	{ dep[base($1)] = $2; path[base($1)] = $1 }
	function walk(m,   n, d, i) {
		if (m in seen) return
		seen[m] = 1
		n = split(dep[m], d, " ")
		for (i = n; i >= 1; i--) walk(base(d[i]))
		print path[m]
	}
	END { w = want; gsub(/-/, "_", w); if (w in path) walk(w) }
	' "$mods/modules.dep"
}

# the modules the devices need: the NVMe driver, null_blk (and configfs,
# which it uses), the SCSI disk driver, AHCI and scsi_debug (pts's SATA
# and SCSI disks, the host-aware rows' disk); the CRC ones first, as
# t10-pi (nvme-core's, sd_mod's) asks the crypto API for crct10dif and
# crc64-rocksoft (the 64-bit guard's), whose providers no dependency
# names
: >"$root/vm/modules"
for m in crct10dif_generic crc64_rocksoft_generic \
	t10-pi nvme-core nvme configfs null_blk sd_mod ahci scsi_debug; do
	mod_deps "$m"
done | awk '!seen[$0]++' | while read -r f; do
	b=${f##*/}
	case $f in
	*.xz)	xz -dc "$mods/$f" >"$root/lib/modules/${b%.xz}"; b=${b%.xz} ;;
	*.zst)	zstd -qdc "$mods/$f" >"$root/lib/modules/${b%.zst}"; b=${b%.zst} ;;
	*)	cp "$mods/$f" "$root/lib/modules/" ;;
	esac
	echo "$b" >>"$root/vm/modules"
done
grep -q '^nvme\.ko$' "$root/vm/modules" ||
	vm_die "the kernel in '$kdir' has no nvme module (built in? this rig loads it)"

(cd "$root" && find . | sort | "$bb" cpio -o -H newc) >"$out" 2>/dev/null ||
	vm_die "cpio failed making '$out'"

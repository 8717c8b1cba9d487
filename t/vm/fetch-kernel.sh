#!/bin/sh
# t/vm/fetch-kernel.sh: Debian's kernel for the test guest, fetched with
# apt-get download and unpacked into the cache (t/vm/lib.sh); prints the
# directory that holds boot/vmlinuz-VERSION and lib/modules/VERSION (with
# its modules.dep). Fetched once: a second call prints the cached one.
#
# IOLITE_VM_KERNEL_PKG  the package (default: the one linux-image-amd64
#                       depends on; offline, the newest in the cache)
#
# Debian's own kernel, not the host's: the host may run any kernel (a
# container's, a cloud one without null_blk), and the guest wants one
# whose modules are files it can load (nvme, null_blk). apt-get download
# needs no root; the package is never installed.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

# the newest kernel unpacked in the cache, if any
cached() {
	for c_ in "$VM_CACHE"/linux-image-*/.ready; do
		[ -f "$c_" ] && dirname "$c_"
	done | sort -V | tail -n 1
}

pkg=${IOLITE_VM_KERNEL_PKG:-$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)}
if [ -z "$pkg" ]; then
	dir=$(cached)
	[ -n "$dir" ] || vm_die "no kernel package: apt-cache knows no linux-image-amd64 (not Debian, or no apt lists: apt-get update) and the cache ($VM_CACHE) has none"
	echo "$dir"
	exit 0
fi
dir=$VM_CACHE/$pkg
if [ -f "$dir/.ready" ]; then
	echo "$dir"
	exit 0
fi

command -v apt-get >/dev/null 2>&1 || vm_die "no apt-get to fetch '$pkg'"
command -v dpkg-deb >/dev/null 2>&1 || vm_die "no dpkg-deb to unpack '$pkg'"
bb=$(vm_busybox) || vm_die "no static busybox (apt-get install busybox-static): its depmod maps the modules"
mkdir -p "$VM_CACHE"
tmp=$(mktemp -d "$VM_CACHE/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# as root apt drops to user _apt to download, who cannot write here
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg") \
	>"$tmp/log" 2>&1 ||
	vm_die "apt-get download '$pkg' failed (network?): $(tail -n 1 "$tmp/log")"
dpkg-deb -x "$tmp"/"$pkg"_*.deb "$tmp/root"
ver=${pkg#linux-image-}
[ -f "$tmp/root/boot/vmlinuz-$ver" ] || vm_die "'$pkg' has no boot/vmlinuz-$ver"
# the package leaves modules.dep to its postinst; busybox's depmod writes
# it (the host may have no kmod)
"$bb" depmod -b "$tmp/root" "$ver" ||
	vm_die "depmod failed on the modules of '$pkg'"
rm -rf "$dir"
mkdir "$dir"
mv "$tmp/root/boot" "$tmp/root/lib" "$dir/"
echo "$ver" >"$dir/.ready"
# an unpacked kernel is 400 MB: the one Debian has replaced goes
for old in "$VM_CACHE"/linux-image-*; do
	[ "$old" = "$dir" ] || rm -rf "$old"
done
echo "$dir"

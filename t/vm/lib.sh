# Shared by the scripts of t/vm/ (sourced, POSIX sh): where the cache is,
# and the messages. doc/vm.md describes the rig.
#
# IOLITE_VM_CACHE   the kernel package, unpacked (default
#                   $XDG_CACHE_HOME/iolite-vm or ~/.cache/iolite-vm); never
#                   inside the tree, which the tests may not write in

# shellcheck disable=SC2034 # (the scripts that source this use them)
VM_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034
VM_CACHE=${IOLITE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/iolite-vm}
# blkzone, depmod and the like live in /sbin, off a normal user's PATH
PATH=$PATH:/usr/sbin:/sbin
export PATH

vm_die() {
	echo "iolite-vm: $*" >&2
	exit 1
}

# vm_busybox: the path of a statically linked busybox (the guest has no
# libc of its own for it), or nothing
vm_busybox() {
	for vb_ in "${IOLITE_VM_BUSYBOX:-}" /bin/busybox /usr/bin/busybox \
		"$(command -v busybox 2>/dev/null)"; do
		[ -x "$vb_" ] || continue
		LC_ALL=C ldd "$vb_" 2>&1 | grep -q "not a dynamic" || continue
		echo "$vb_"
		return 0
	done
	return 1
}

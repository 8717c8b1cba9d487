# Test library for iolite's shell tests: TAP output for prove.
#
#   . ./test-lib.sh   (from a t/tNNNN-name.sh script, run from anywhere)
#   test_expect_success 'description' 'commands'
#   test_expect_failure ... is not provided: a known bug is an issue.
#   test_must_fail cmd...      cmd must exit non-zero (not crash)
#   test_cmp expected actual   files equal, diff shown otherwise
#   test_expect_success_if PREREQ[,PREREQ...] 'description' 'commands'
#   test_have_prereq PREREQ[,PREREQ...]   true when all hold (!PREREQ:
#                              when it does not)
#   test_require PREREQ...     skip the whole script unless all hold
#   test_skip_unless PREREQ... skip the tests that follow unless all hold
#                              (until test_skip_reason= is reset)
#   test_done
#
# Prerequisites are named in one table below (prereq_check_), each with a
# one-line reason naming the package or setting that would enable it; a
# test that needs something optional declares it and skips with that
# reason, never fails for want of it.
#
# Each script gets its own scratch directory ($TRASH, and $TRASH_SHM in
# /dev/shm), removed at the end unless IOLITE_TEST_KEEP=1; tests write
# nowhere else. $IOLITE is the binary under test.

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/.." && pwd)
: "${IOLITE:=$SRC_DIR/iolite}"
export IOLITE
DATA="$TEST_DIR/data"
# losetup, mkfs.ext4, fsfreeze and the like live in /sbin, off a normal
# user's PATH
PATH=$PATH:/usr/sbin:/sbin
export PATH
# python3 may be a version manager's shim (pyenv's costs half a second of
# CPU a call): the tests call the interpreter it stands for, found once
# (by make test for the whole suite, else here; empty: no python3).
if [ -z "${IOLITE_PYTHON3+set}" ]; then
	IOLITE_PYTHON3=$(python3 -c 'import sys; print(sys.executable)' \
		2>/dev/null)
	export IOLITE_PYTHON3
fi
if [ -n "$IOLITE_PYTHON3" ] && [ -x "$IOLITE_PYTHON3" ]; then
	python3() { "$IOLITE_PYTHON3" "$@"; }
fi
test_count=0
test_failed=0
test_skipped=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/iolite-test.XXXXXX")
# $TRASH_SHM: scratch space in memory (tmpfs), for the tests that want a
# memory-speed target or loop-device images; removed with $TRASH.
TRASH_SHM=$(mktemp -d /dev/shm/iolite-test.XXXXXX 2>/dev/null) ||
	TRASH_SHM=$(mkdir "$TRASH/shm" && echo "$TRASH/shm")
trap 'test_cleanup' EXIT

test_cleanup() {
	# in a subshell: a slip in it must not skip the rest of the clean-up
	(eval "${test_at_exit:-:}")
	test_loop_release_all_
	if [ "${IOLITE_TEST_KEEP:-0}" = 1 ]; then
		echo "# kept $TRASH $TRASH_SHM"
	else
		rm -rf "$TRASH" "$TRASH_SHM"
	fi
}

# test_loop IMAGE SIZE [losetup flags]: a loop device over IMAGE (made
# SIZE long and zeroed first, unless SIZE is -), its name printed. Every
# one is detached at exit (after test_at_exit, which unmounts), the last
# attached first, or earlier by test_loop_release DEV; a device is only
# detached while it still backs IMAGE, since a number freed early may be
# another script's by then. Needs the LOOP prerequisite.
test_loop() {
	tl_img=$1 tl_size=$2
	shift 2
	if [ "$tl_size" != - ]; then
		rm -f "$tl_img" && truncate -s "$tl_size" "$tl_img" || return 1
	fi
	tl_dev=$(losetup -f --show "$@" "$tl_img") || return 1
	# the name the image was given, and the kernel's for it
	echo "$tl_dev $tl_img $(losetup -n -O BACK-FILE "$tl_dev")" \
		>>"$TRASH/.loops"
	echo "$tl_dev"
}

# test_loop_once IMAGE SIZE: test_loop's device over IMAGE (an absolute
# path), made on the first call and the same one after
test_loop_once() {
	tl_dev=$(awk -v f="$1" '$2 == f { print $1 }' "$TRASH/.loops" \
		2>/dev/null | tail -n 1)
	if [ -n "$tl_dev" ]; then
		echo "$tl_dev"
	else
		test_loop "$@"
	fi
}

# test_loop_release DEV: detach a device of test_loop's now
test_loop_release() {
	[ -f "$TRASH/.loops" ] || return 0
	while read -r tl_dev tl_img tl_back; do
		[ "$tl_dev" = "$1" ] || continue
		test_loop_backs_ "$tl_dev" "$tl_back" &&
			losetup -d "$tl_dev"
	done <"$TRASH/.loops"
	grep -v "^$1 " "$TRASH/.loops" >"$TRASH/.loops.new"
	mv "$TRASH/.loops.new" "$TRASH/.loops"
}

# test_loop_backs_ DEV BACK: DEV is still over BACK (deleted or not)
test_loop_backs_() {
	tl_now=$(losetup -n -O BACK-FILE "$1" 2>/dev/null) &&
	[ "${tl_now% (deleted)}" = "$2" ]
}

test_loop_release_all_() {
	[ -f "$TRASH/.loops" ] || return 0
	tac "$TRASH/.loops" | while read -r tl_dev tl_img tl_back; do
		test_loop_backs_ "$tl_dev" "$tl_back" &&
			losetup -d "$tl_dev" 2>/dev/null
	done
	rm -f "$TRASH/.loops"
}

# Runs the commands in a subshell with set -e semantics per line via &&.
test_run_() {
	(cd "$TRASH" && eval "$1") >"$TRASH/.out" 2>&1
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "$test_skip_reason" ]; then
		echo "ok $test_count # skip $1 ($test_skip_reason)"
		test_skipped=$((test_skipped + 1))
		return
	fi
	if test_run_ "$2"; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		# on stderr too: prove shows it without -v (a CI log)
		sed 's/^/#   /' "$TRASH/.out" >&2
		test_failed=$((test_failed + 1))
	fi
}

# test_expect_success with prerequisites: skip, saying why, unless all hold.
test_expect_success_if() {
	prereq=$1
	shift
	if test_have_prereq "$prereq"; then
		test_expect_success "$@"
	else
		test_count=$((test_count + 1))
		echo "ok $test_count # skip $1 ($prereq_missing)"
		test_skipped=$((test_skipped + 1))
	fi
}

test_must_fail() {
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ $rc -gt 128 ]; then
		echo "test_must_fail: command died of signal $((rc - 128)): $*" >&2
		return 1
	fi
	return 0
}

test_cmp() {
	diff -u "$1" "$2"
}

# Fails (and shows the file) unless the file is empty.
test_must_be_empty() {
	if [ -s "$1" ]; then
		echo "'$1' is not empty:" >&2
		cat "$1" >&2
		return 1
	fi
}

# ---- prerequisites ----
#
# The table: NAME) a check that, when it fails, leaves in $prereq_why one line
# saying what is missing and which Debian package (or setting) brings it.
# Names are upper case; tools are named after the command (MKFS_EXT4 for
# mkfs.ext4). Results are cached for the script.
prereq_check_() {
	prereq_why=
	case $1 in
	ROOT)	[ "$(id -u)" = 0 ] || prereq_why="not running as root" ;;
	# a figure a clock fixes (a rate over a runtime) holds in a normal
	# build; a sanitizer's checks make a worker late by more than it
	UNSANITIZED) [ -z "${IOLITE_SANITIZE:-}" ] ||
		prereq_why="built with -fsanitize=$IOLITE_SANITIZE: the timing does not hold" ;;
	FIO)	prereq_cmd_ fio fio ;;
	JQ)	prereq_cmd_ jq jq ;;
	# ioprio_set(2) takes a priority hint from Linux 6.10 on
	IOPRIO_HINTS)
		prereq_v_=$(uname -r | sed "s/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/")
		set -- $prereq_v_
		[ "$1" -gt 6 ] || { [ "$1" = 6 ] && [ "$2" -ge 10 ]; } ||
			prereq_why="Linux $1.$2: I/O priority hints need 6.10" ;;
	PYTHON3) prereq_cmd_ python3 python3 ;;
	PROMTOOL) prereq_cmd_ promtool prometheus ;;
	PROMETHEUS_CLIENT) prereq_cmd_ python3 python3 &&
		prereq_py_ prometheus_client python3-prometheus-client ;;
	PROMETHEUS) prereq_cmd_ prometheus prometheus &&
		prereq_cmd_ python3 python3 ;;
	PUSHGATEWAY) prereq_cmd_ prometheus-pushgateway prometheus-pushgateway &&
		prereq_cmd_ python3 python3 ;;
	STRACE)	prereq_cmd_ strace strace && prereq_strace_ ;;
	GNUPLOT) prereq_cmd_ gnuplot gnuplot-nox ;;
	FIO2GNUPLOT)
		prereq_cmd_ fio2gnuplot fio && prereq_cmd_ python3 python3 &&
			prereq_py_ six python3-six ;;
	FIO_GENERATE_PLOTS)
		prereq_cmd_ fio_generate_plots fio &&
			prereq_cmd_ gnuplot gnuplot-nox ;;
	FIO_JSONPLUS_CLAT2CSV)
		prereq_cmd_ fio_jsonplus_clat2csv fio &&
			prereq_cmd_ python3 python3 && prereq_py_ six python3-six ;;
	CHROMIUM) prereq_cmd_ chromium chromium ;;
	XMLLINT) prereq_cmd_ xmllint libxml2-utils ;;
	TRACEFS) if [ "$(id -u)" != 0 ]; then
			prereq_why="tracing needs root"
		elif ! grep -qw tracefs /proc/filesystems; then
			prereq_why="the kernel has no tracefs"
		fi ;;
	SETPRIV) if [ "$(id -u)" != 0 ]; then
			prereq_why="changing to user nobody needs root"
		else
			prereq_cmd_ setpriv util-linux &&
			{ id nobody >/dev/null 2>&1 || prereq_why="no user nobody"; }
		fi ;;
	MKFS_EXT4) prereq_cmd_ mkfs.ext4 e2fsprogs ;;
	TRASH_EXT4) [ "$(stat -f -c %t "$TRASH")" = ef53 ] ||
			prereq_why="the test directory is not on ext4 (TMPDIR)" ;;
	MOVE_EXT) if [ "$(stat -f -c %t "$TRASH")" != ef53 ]; then
			prereq_why="the test directory is not on ext4 (TMPDIR)"
		else
			prereq_move_ext_ "$TRASH"
		fi ;;
	SFDISK)	prereq_cmd_ sfdisk fdisk ;;
	PARTX)	prereq_cmd_ partx util-linux ;;
	FINDMNT) prereq_cmd_ findmnt util-linux ;;
	MKSWAP)	prereq_cmd_ mkswap util-linux ;;
	FSFREEZE) prereq_cmd_ fsfreeze util-linux ;;
	CC)	prereq_cmd_ "${CC:-cc}" gcc ;;
	CLANG)	prereq_cmd_ clang clang ;;
	LIBFUZZER) prereq_libfuzzer_ ;;
	LOOP)	prereq_loop_ ;;
	ZRAM)	if [ "$(id -u)" != 0 ]; then
			prereq_why="zram devices need root"
		elif [ ! -w /sys/class/zram-control/hot_add ]; then
			prereq_why="no /sys/class/zram-control (modprobe zram; CONFIG_ZRAM)"
		fi ;;
	MKNOD)	prereq_mknod_ ;;
	FUSE)	prereq_fuse_ ;;
	ODIRECT) prereq_odirect_ "$TRASH" ;;
	SHM_ODIRECT) prereq_odirect_ "$TRASH_SHM" ;;
	LIBAIO)	prereq_engine_ libaio libaio-dev "fs.aio-max-nr, seccomp" ;;
	IO_URING)
		prereq_engine_ io_uring liburing-dev \
			"sysctl kernel.io_uring_disabled, seccomp" ;;
	LIBAIO_BUILT) prereq_built_ libaio libaio-dev ;;
	IO_URING_BUILT) prereq_built_ io_uring liburing-dev ;;
	LIBCRYPTO) prereq_build_ libcrypto libssl-dev --verify=md5 ;;
	XXHASH)	prereq_build_ libxxhash libxxhash-dev --verify=xxhash ;;
	JANSSON) "$IOLITE" compare /dev/null /dev/null 2>&1 |
			grep -q libjansson-dev &&
			prereq_why="iolite built without jansson: apt-get install libjansson-dev and rebuild" ;;
	ZLIB)	prereq_build_ zlib zlib1g-dev --inflate-log=/dev/null ;;
	IPV6)	grep -q "^0\{31\}1 " /proc/net/if_inet6 2>/dev/null ||
			prereq_why="no IPv6 on the loopback (::1)" ;;
	PERF)	! "$IOLITE" --name=p --ioengine=null --size=4k --profile 2>&1 | grep -q "CPU profile not taken" || prereq_why="perf events refused (kernel.perf_event_paranoid, a container) or absent (CONFIG_PERF_EVENTS)" ;;
	PERF_KERNEL) ! "$IOLITE" --name=p --ioengine=null --size=4k --profile 2>&1 | grep -q "CPU profile.*not" || prereq_why="perf events of the kernel side refused (kernel.perf_event_paranoid=2 or more for a normal user)" ;;
	LIBDW)	! "$IOLITE" --name=p --ioengine=null --size=1g --time_based --runtime=200ms --profile-rate=997 2>&1 | grep -q "built without elfutils" || prereq_why="iolite built without libdw: apt-get install libdw-dev and rebuild" ;;
	SMP)	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ||
			prereq_why="needs 2 or more CPUs" ;;
	MPI)	prereq_cmd_ mpirun openmpi-bin && { [ -x "${IOLITE_MPI:-${IOLITE%/*}/iolite-mpi}" ] || prereq_why="iolite-mpi not built: apt-get install libopenmpi-dev and rebuild"; } ;;
	SRUN)	{ command -v srun >/dev/null 2>&1 && timeout -s KILL 5 srun -n 2 true >/dev/null 2>&1; } || prereq_why="srun -n 2 true failed: needs a Slurm cluster up (Debian's slurm-wlm, slurmctld and a running slurmd; doc/mpi.md)" ;;
	QEMU)	prereq_cmd_ qemu-system-x86_64 qemu-system-x86 ;;
	# the test guest's (t/vm/): a static busybox, and Debian's kernel
	# package in the cache, or fetched now (apt-get download: network)
	BUSYBOX_STATIC) (. "$TEST_DIR/vm/lib.sh" && vm_busybox >/dev/null) ||
			prereq_why="no statically linked busybox: apt-get install busybox-static" ;;
	VM_KERNEL) "$TEST_DIR/vm/fetch-kernel.sh" >/dev/null 2>"$TRASH/.vmk" ||
			prereq_why="no kernel for the guest: $(sed 's/^iolite-vm: //' "$TRASH/.vmk")"
		rm -f "$TRASH/.vmk" ;;
	TSC)	grep -qw constant_tsc /proc/cpuinfo &&
			grep -qw nonstop_tsc /proc/cpuinfo ||
			prereq_why="the CPU has no invariant TSC (constant_tsc, nonstop_tsc in /proc/cpuinfo)" ;;
	# storage on a server: the engine built, the server's package
	NBD)	prereq_built_ nbd libnbd-dev && prereq_cmd_ nbdkit nbdkit ;;
	NBD_BUILT) prereq_built_ nbd libnbd-dev ;;
	FIO_NBD) prereq_cmd_ fio fio && { fio --enghelp 2>/dev/null |
			grep -qw nbd || prereq_why="fio was built without its nbd engine"; } ;;
	# tgtd's control socket is in /run: the tests bind their scratch
	# directory there in a mount namespace of their own
	LIBISCSI) prereq_built_ libiscsi libiscsi-dev &&
		prereq_cmd_ tgtd tgt && prereq_cmd_ tgtadm tgt &&
		prereq_cmd_ unshare util-linux && { [ "$(id -u)" = 0 ] ||
		prereq_why="tgtd in a mount namespace of its own needs root"; } ;;
	LIBNFS) prereq_built_ nfs libnfs-dev ;;
	# nfs-ganesha with its VFS backend (t/lib-nfs.sh), as root: the
	# backend opens files by handle (CAP_DAC_READ_SEARCH)
	GANESHA) if [ "$(id -u)" != 0 ]; then
			prereq_why="nfs-ganesha's VFS backend needs root"
		elif prereq_cmd_ ganesha.nfsd nfs-ganesha; then
			prereq_why="no ganesha VFS backend: apt-get install nfs-ganesha-vfs"
			for prereq_f_ in /usr/lib/*/ganesha/libfsalvfs.so \
				/usr/lib/ganesha/libfsalvfs.so; do
				[ -e "$prereq_f_" ] && prereq_why=
			done
		fi &&
		[ -z "$prereq_why" ] && prereq_cmd_ "${CC:-cc}" gcc &&
		prereq_cmd_ python3 python3 ;;
	HTTP)	prereq_built_ http libcurl4-openssl-dev ;;
	NGINX)	prereq_cmd_ nginx nginx-core ;;
	*)	# a typo must not turn tests into skips
		echo "bug in the test: unknown prerequisite $1" >&2
		exit 1 ;;
	esac
	[ -z "$prereq_why" ]
}

# prereq_cmd_ COMMAND PACKAGE
prereq_cmd_() {
	command -v "$1" >/dev/null 2>&1 && return 0
	prereq_why="no $1: apt-get install $2"
	return 1
}

# prereq_py_ MODULE PACKAGE: python3 can import MODULE
prereq_py_() {
	python3 -c "import $1" >/dev/null 2>&1 && return 0
	prereq_why="no python3 module $1: apt-get install $2"
	return 1
}

prereq_strace_() {
	# ptrace may be refused (a container without CAP_SYS_PTRACE)
	strace -f -o /dev/null true >/dev/null 2>&1 && return 0
	prereq_why="strace cannot trace here (ptrace refused: a container?)"
	return 1
}

prereq_libfuzzer_() {
	prereq_cmd_ clang clang || return 1
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return 0; }\n' \
		>"$TRASH/.fuzzprobe.c"
	clang -fsanitize=fuzzer "$TRASH/.fuzzprobe.c" \
		-o "$TRASH/.fuzzprobe" >/dev/null 2>&1 ||
		prereq_why="clang without libFuzzer: apt-get install libclang-rt-dev"
	rm -f "$TRASH/.fuzzprobe.c" "$TRASH/.fuzzprobe"
	[ -z "$prereq_why" ]
}

prereq_loop_() {
	if [ "$(id -u)" != 0 ]; then
		prereq_why="loop devices need root"
	elif ! command -v losetup >/dev/null 2>&1; then
		prereq_why="no losetup: apt-get install mount"
	elif [ ! -e /dev/loop-control ]; then
		prereq_why="no /dev/loop-control (modprobe loop; a container needs the loop devices passed in)"
	elif ! losetup -f >/dev/null 2>&1; then
		prereq_why="no free loop device (losetup -f fails)"
	fi
	[ -z "$prereq_why" ]
}

# a character device node made in $TRASH can be read (/dev/zero's numbers)
prereq_mknod_() {
	if [ "$(id -u)" != 0 ]; then
		prereq_why="making device nodes needs root"
	elif ! mknod "$TRASH/.node" c 1 5 2>/dev/null ||
	     ! head -c 1 "$TRASH/.node" >/dev/null 2>&1; then
		prereq_why="cannot make a usable device node in ${TMPDIR:-/tmp} (mounted nodev?)"
	fi
	rm -f "$TRASH/.node"
	[ -z "$prereq_why" ]
}

# t/fusefault (built by make when libfuse3-dev is there) mounted as root
prereq_fuse_() {
	if [ "$(id -u)" != 0 ]; then
		prereq_why="mounting a FUSE file system needs root"
	elif [ ! -c /dev/fuse ]; then
		prereq_why="no /dev/fuse (modprobe fuse; a container needs it passed in)"
	elif [ -z "${IOLITE_FUSEFAULT:-}" ] || [ ! -x "$IOLITE_FUSEFAULT" ]; then
		prereq_why="t/fusefault not built: apt-get install libfuse3-dev pkg-config and rebuild"
	fi
	[ -z "$prereq_why" ]
}

# prereq_odirect_ DIR: DIR's file system takes O_DIRECT (tmpfs does from
# Linux 6.6)
prereq_odirect_() {
	dd if=/dev/zero of="$1/.odirect" bs=4096 count=1 oflag=direct \
		>/dev/null 2>&1 ||
		prereq_why="the file system of $1 refuses O_DIRECT (tmpfs before Linux 6.6; point TMPDIR at a disk file system)"
	rm -f "$1/.odirect"
	[ -z "$prereq_why" ]
}

# prereq_move_ext_ DIR: ext4 in DIR swaps extents (EXT4_IOC_MOVE_EXT);
# some kernels' ext4 refuses it (EPERM, as fio sees too), and iolite's
# refusal is right there
prereq_move_ext_() {
	if ! "$IOLITE" --name=prereq --ioengine=e4defrag --donorname="$1/.prereq-d" \
		--rw=write --bs=4k --size=8k --filename="$1/.prereq-e4" \
		>/dev/null 2>"$1/.prereq-err"
	then
		prereq_why="ext4 here refuses EXT4_IOC_MOVE_EXT: $(sed -n "1s/.*failed: //p" "$1/.prereq-err")"
	fi
	rm -f "$1/.prereq-e4" "$1/.prereq-d" "$1/.prereq-err"
	[ -z "$prereq_why" ]
}

# prereq_built_ ENGINE PACKAGE: this build has the engine
prereq_built_() {
	"$IOLITE" --enghelp 2>/dev/null | grep -qw "$1" && return 0
	prereq_why="iolite built without $1: apt-get install $2 and rebuild"
	return 1
}

# prereq_engine_ ENGINE PACKAGE SETTINGS: built in, and the kernel lets a
# job use it (the build having it is not enough: a sysctl, seccomp or
# exhausted limits refuse it at run time)
prereq_engine_() {
	prereq_built_ "$1" "$2" || return 1
	if ! "$IOLITE" --name=prereq --ioengine="$1" --size=4k --rw=write \
		--filename="$TRASH/.prereq-$1" >/dev/null 2>"$TRASH/.prereq-err"
	then
		prereq_why="$1 refused at run time ($3): $(sed -n "1s/^iolite: job .prereq.: //p" "$TRASH/.prereq-err")"
	fi
	rm -f "$TRASH/.prereq-$1" "$TRASH/.prereq-err"
	[ -z "$prereq_why" ]
}

# prereq_build_ LIBRARY PACKAGE OPTION: iolite accepts OPTION, which it
# refuses when LIBRARY was not there at build time
prereq_build_() {
	"$IOLITE" --name=prereq --parse-only "$3" >/dev/null 2>&1 ||
		prereq_why="iolite built without $1: apt-get install $2 and rebuild"
	[ -z "$prereq_why" ]
}

# test_have_prereq NAME[,NAME...]: true when all hold (!NAME: when NAME
# does not); otherwise $prereq_missing says "missing NAME: why" for the
# first that does not.
test_have_prereq() {
	prereq_missing=
	for prereq_p_ in $(echo "$1" | tr , ' '); do
		prereq_n_=${prereq_p_#!}
		eval "prereq_c_=\${prereq_ok_$prereq_n_-}"
		if [ -z "$prereq_c_" ]; then
			prereq_c_=0
			prereq_check_ "$prereq_n_" && prereq_c_=1
			eval "prereq_ok_$prereq_n_=\$prereq_c_"
			eval "prereq_why_$prereq_n_=\$prereq_why"
		fi
		if [ "$prereq_n_" != "$prereq_p_" ]; then
			[ "$prereq_c_" = 0 ] && continue
			prereq_missing="$prereq_n_ is there: the test is for its absence"
			return 1
		fi
		if [ "$prereq_c_" = 0 ]; then
			eval "prereq_missing=\"missing $prereq_p_: \$prereq_why_$prereq_p_\""
			return 1
		fi
	done
}

# test_require NAME...: skips the whole script unless all hold.
test_require() {
	for prereq_r_ in "$@"; do
		test_have_prereq "$prereq_r_" || skip_all "$prereq_missing"
	done
}

# test_skip_unless NAME...: the tests that follow skip (until
# test_skip_reason= resets it) unless all hold; an earlier reason stays.
test_skip_unless() {
	for prereq_r_ in "$@"; do
		test_have_prereq "$prereq_r_" && continue
		test_skip_reason=${test_skip_reason:-$prereq_missing}
		return 1
	done
}

# Skips the whole script (call before any test).
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

test_done() {
	echo "1..$test_count"
	[ $test_failed -eq 0 ]
	exit $?
}

test_path_is_missing() {
	if [ -e "$1" ]; then
		echo "'$1' exists" >&2
		return 1
	fi
}

# ---- servers on loopback ----

# free_port: a TCP port nobody listens on now, below the kernel's
# ephemeral range (so no client's connection takes it meanwhile); the
# server started on it reports a race it loses.
free_port() {
	fp_low_=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	fp_low_=${fp_low_:-32768}
	while :; do
		fp_p_=$(( 10000 + $(od -An -N2 -tu2 /dev/urandom) % (fp_low_ - 10002) ))
		grep -q "$(printf ":%04X " "$fp_p_")" /proc/net/tcp \
			/proc/net/tcp6 2>/dev/null || break
	done
	echo "$fp_p_"
}

# ---- report helpers shared by the scripts ----

# issued FILE: the "issued rwts: total=R,W,T,S" counts of a normal report.
issued() {
	sed -n 's/.*issued rwts: total=\([0-9,]*\) .*/\1/p' "$1" | head -n 1
}

# pct FILE LABEL KEY: the KEY=x% figure of the report line LABEL
# ("IO depths", "submit", "complete").
pct() {
	sed -n "s/.*$2 *:.*[ :]$3=\([0-9.]*\)%.*/\1/p" "$1" | head -n 1
}

# at_least A B: A >= B as numbers.
at_least() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'
}

# between V LO HI: LO <= V <= HI (V may be a float); says which when not.
between() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { if (v + 0 >= lo + 0 && v + 0 <= hi + 0) exit 0
			 print v " not in " lo ".." hi; exit 1 }'
}

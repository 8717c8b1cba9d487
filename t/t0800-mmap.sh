#!/bin/sh
# The mmap engines (mmap, dev-dax, libpmem) through the binary: bytes they
# write are the bytes psync writes, offset= is honoured, device DAX is
# sized (and refused beyond its end) through a fake sysfs tree, every
# flush mode and copy routine runs or is refused clearly, syncs become
# msync on ordinary files, and pmem-style job files run unchanged.

. "$(dirname "$0")/test-lib.sh"

# Does /proc/cpuinfo list the flag? (Linux hides vector flags it cannot
# save, so this matches what iolite finds.)
cpu_flag() {
	grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -qx "$1"
}

# A node with /dev/zero's numbers stands in for a DAX device: its shared
# mapping is memory, so real I/O works through it. Needs mknod and a
# filesystem that allows device nodes (MKNOD).
if_node() {
	test_skip_unless MKNOD
	test_expect_success "$@"
	test_skip_reason=
}

if_strace() {
	test_skip_unless STRACE
	test_expect_success "$@"
	test_skip_reason=
}

# fake_dax NAME SIZE [ALIGN]: $TRASH/NAME is a DAX device of SIZE bytes
# for iolite run with IOLITE_SYSFS_ROOT=$TRASH/sys.
fake_dax() {
	mknod "$TRASH/$1" c 1 5 &&
	mkdir -p "$TRASH/sys/dev/char/1:5" &&
	echo "$2" >"$TRASH/sys/dev/char/1:5/size" &&
	if [ -n "$3" ]; then
		echo "$3" >"$TRASH/sys/dev/char/1:5/align"
	fi
}

# Bytes read plus written, from a JSON report.
json_io_bytes() {
	grep '"io_bytes"' "$1" | head -2 | sed 's/[^0-9]//g' |
		awk '{ s += $1 } END { print s }'
}

# Counts msync calls of a run: count_msync OUT -- iolite args...
count_msync() {
	out=$1
	shift
	strace -f -qq -e trace=msync -o "$out.trace" "$IOLITE" "$@" \
		>"$out" 2>"$out.err" &&
	test_must_be_empty "$out.err" &&
	grep -c 'msync(' "$out.trace" || true
}

SHM=$TRASH_SHM/t0800
mkdir -p "$SHM"
test_at_exit='rm -rf "$SHM"'

test_expect_success 'the engines are listed, with their options' '
	"$IOLITE" --enghelp >out &&
	grep "^	mmap " out && grep "^	dev-dax " out &&
	grep "^	libpmem " out &&
	"$IOLITE" --enghelp=dev-dax >out &&
	grep "^mmap_populate " out && grep "^mmap_advise " out &&
	grep "^mmap_copy " out && grep "^pmem_flush " out
'

# mmap lays its files out with the job's own data first (as fio's), and
# the writes carry on that stream: psync with overwrite=1 does the same.
# The runs compared refill their buffers: scrambling, the default,
# differs from run to run (as fio's)
for rw in randwrite write; do
	test_expect_success "$rw: mmap writes the bytes psync writes" "
		\"\$IOLITE\" --name=w --filename=p.dat --ioengine=psync \
			--overwrite=1 --rw=$rw --bs=4k --size=1m \
			--refill_buffers >out 2>err &&
		test_must_be_empty err &&
		\"\$IOLITE\" --name=w --filename=m.dat --ioengine=mmap \
			--rw=$rw --bs=4k --size=1m --refill_buffers >out 2>err &&
		test_must_be_empty err &&
		grep 'ioengine=mmap' out &&
		grep 'total=0,256,0,0' out &&
		cmp p.dat m.dat &&
		! cmp -s m.dat /dev/zero 2>/dev/null &&
		rm -f p.dat m.dat
	"
done

test_expect_success 'mmap reads and writes a file on /dev/shm' '
	"$IOLITE" --name=rw --filename="$SHM/rw" --ioengine=mmap \
		--rw=randrw --bs=4k --size=2m >out 2>err &&
	test_must_be_empty err &&
	grep "total=[1-9][0-9]*,[1-9][0-9]*,0,0" out &&
	test $(stat -c %s "$SHM/rw") = 2097152
'

test_expect_success 'offset= is honoured: only the region changes' '
	head -c 1048576 /dev/urandom >orig &&
	cp orig m.dat && cp orig p.dat &&
	"$IOLITE" --name=o --filename=m.dat --ioengine=mmap --rw=randwrite \
		--bs=4k --offset=256k --size=256k --refill_buffers >out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --name=o --filename=p.dat --ioengine=psync --rw=randwrite \
		--bs=4k --offset=256k --size=256k --refill_buffers >out 2>err &&
	cmp m.dat p.dat &&
	cmp -n 262144 orig m.dat &&
	cmp -i 524288 orig m.dat &&
	! cmp -s -i 262144 -n 262144 orig m.dat
'

test_expect_success 'an unaligned offset= with an odd block size' '
	head -c 1048576 /dev/urandom >orig &&
	cp orig m.dat && cp orig p.dat &&
	for e in mmap psync; do
		"$IOLITE" --name=o --filename=$(echo $e | cut -c1).dat \
			--ioengine=$e --rw=write --bs=1000 --offset=4196 \
			--size=100000 --refill_buffers >out 2>err || return 1
		test_must_be_empty err || return 1
	done &&
	cmp m.dat p.dat &&
	cmp -n 4196 orig m.dat &&
	cmp -i 104196 orig m.dat
'

test_expect_success 'several files, each mapped' '
	for e in psync mmap; do
		mkdir $e &&
		"$IOLITE" --name=n --directory=$e --nrfiles=3 --ioengine=$e \
			--overwrite=1 --rw=randwrite --size=768k \
			--refill_buffers >out 2>err ||
			return 1
		test_must_be_empty err || return 1
	done &&
	for i in 0 1 2; do
		cmp psync/n.0.$i mmap/n.0.$i || return 1
	done
'

test_expect_success_if LOOP 'a block device is mapped too' '
	dev=$(test_loop "$SHM/loop.img" 8M) &&
	"$IOLITE" --name=w --filename=$dev --ioengine=mmap \
		--rw=randwrite --size=4m --refill_buffers >out 2>err &&
	! cmp -n 4194304 $dev /dev/zero >/dev/null 2>&1 &&
	# detached: the image holds what went through the device
	test_loop_release $dev &&
	test_must_be_empty err &&
	"$IOLITE" --name=w --filename=p.dat --ioengine=psync \
		--rw=randwrite --size=4m --refill_buffers >out 2>err &&
	cmp -n 4194304 "$SHM/loop.img" p.dat
'

test_expect_success 'direct=1 needs no O_DIRECT from the filesystem' '
	"$IOLITE" --name=d --filename="$SHM/direct" --ioengine=mmap \
		--direct=1 --rw=randread --size=256k >out 2>err &&
	test_must_be_empty err &&
	grep "total=64,0,0,0" out
'

# under the sanitizers their shadow memory takes page faults in the run
test_skip_reason=${IOLITE_SANITIZE:+"built with -fsanitize=$IOLITE_SANITIZE"}
test_expect_success 'mmap_populate=1 prefaults at open: no faults in the run' '
	"$IOLITE" --name=p --filename="$SHM/pop" --ioengine=mmap \
		--rw=randread --size=4m >out 2>err &&
	test_must_be_empty err &&
	grep "minf=[1-9]" out &&
	"$IOLITE" --name=p --filename="$SHM/pop" --ioengine=mmap \
		--mmap_populate=1 --rw=randread --size=4m >out 2>err &&
	test_must_be_empty err &&
	grep "minf=0$" out
'
test_skip_reason=

test_expect_success 'mmap_advise: every hint runs, a bad one is refused' '
	for a in auto none normal random sequential willneed nohugepage; do
		"$IOLITE" --name=a --filename="$SHM/adv" --ioengine=mmap \
			--mmap_advise=$a --rw=read --size=256k >out 2>err ||
			return 1
		test_must_be_empty err || return 1
	done &&
	{
		# a kernel without transparent huge pages refuses this one
		"$IOLITE" --name=a --filename="$SHM/adv" --ioengine=mmap \
			--mmap_advise=hugepage --rw=read --size=256k >out 2>err ||
			grep "madvise(hugepage) of '\''$SHM/adv'\'' failed" err
	} &&
	test_must_fail "$IOLITE" --name=a --filename="$SHM/adv" \
		--ioengine=mmap --mmap_advise=fast --size=256k >out 2>err &&
	grep "option '\''mmap_advise'\'': invalid value '\''fast'\''" err
'

# ---- device DAX through a fake sysfs tree ----

if_node 'device DAX is sized from sysfs: size= is optional' '
	fake_dax dax0.0 8388608 2097152 &&
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" --name=d --ioengine=dev-dax \
		--filename="$TRASH/dax0.0" --rw=randrw --bs=4k \
		--output-format=json >out 2>err &&
	test_must_be_empty err &&
	test "$(json_io_bytes out)" = 8388608
'

if_node 'the class/dax and bus/dax layouts size it too' '
	mknod "$TRASH/dax1.0" c 1 5 &&
	mkdir -p "$TRASH/sys1/class/dax/dax1.0" &&
	echo 4194304 >"$TRASH/sys1/class/dax/dax1.0/size" &&
	IOLITE_SYSFS_ROOT=$TRASH/sys1 "$IOLITE" --name=d --ioengine=dev-dax \
		--filename="$TRASH/dax1.0" --rw=read --bs=64k \
		--output-format=json >out 2>err &&
	test_must_be_empty err &&
	test "$(json_io_bytes out)" = 4194304 &&
	mkdir -p "$TRASH/sys2/bus/dax/devices/dax1.0" &&
	echo 2097152 >"$TRASH/sys2/bus/dax/devices/dax1.0/size" &&
	IOLITE_SYSFS_ROOT=$TRASH/sys2 "$IOLITE" --name=d --ioengine=mmap \
		--filename="$TRASH/dax1.0" --rw=read --bs=64k \
		--output-format=json >out 2>err &&
	test_must_be_empty err &&
	test "$(json_io_bytes out)" = 2097152
'

if_node 'an offset inside a 2MiB unit maps from the unit start' '
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" --name=d --ioengine=dev-dax \
		--filename="$TRASH/dax0.0" --rw=randrw --bs=4k --offset=12k \
		--size=1m --output-format=json >out 2>err &&
	test_must_be_empty err &&
	test "$(json_io_bytes out)" = 1048576
'

if_node 'a size beyond the DAX device is refused' '
	test_must_fail env IOLITE_SYSFS_ROOT="$TRASH/sys" "$IOLITE" --name=d \
		--ioengine=dev-dax --filename="$TRASH/dax0.0" --size=16m \
		>out 2>err &&
	grep "option '\''size'\'': 16777216 bytes from offset 0 go beyond the end of DAX device '\''$TRASH/dax0.0'\'' (8388608 bytes)" err &&
	test_must_fail env IOLITE_SYSFS_ROOT="$TRASH/sys" "$IOLITE" --name=d \
		--ioengine=dev-dax --filename="$TRASH/dax0.0" --offset=6m \
		--size=4m >out 2>err &&
	grep "go beyond the end of DAX device" err &&
	test_must_fail env IOLITE_SYSFS_ROOT="$TRASH/sys" "$IOLITE" --name=d \
		--ioengine=dev-dax --filename="$TRASH/dax0.0" --offset=8m \
		>out 2>err &&
	grep "option '\''offset'\'': 8388608 is at or beyond the end" err
'

if_node 'a DAX node sysfs cannot size is refused' '
	mknod "$TRASH/dax7.0" c 1 5 &&
	test_must_fail env IOLITE_SYSFS_ROOT="$TRASH/nosys" "$IOLITE" \
		--name=d --ioengine=dev-dax --filename="$TRASH/dax7.0" \
		>out 2>err &&
	grep "cannot size DAX device '\''$TRASH/dax7.0'\'': no size in $TRASH/nosys/dev/char/1:5" err
'

if_node 'another character device still needs size=' '
	mknod "$TRASH/zero" c 1 5 &&
	test_must_fail env IOLITE_SYSFS_ROOT="$TRASH/sys" "$IOLITE" \
		--name=d --ioengine=mmap --filename="$TRASH/zero" >out 2>err &&
	grep "is a character device: size= is required" err &&
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" --name=d --ioengine=mmap \
		--filename="$TRASH/zero" --size=1m --rw=randwrite >out 2>err &&
	test_must_be_empty err
'

# ---- flush modes and copy routines ----

flush_flag() {
	case $1 in
	none|auto|default) echo ;;
	nt) echo sse2 ;;
	*) echo "$1" ;;
	esac
}

for m in default auto none clwb clflushopt clflush nt; do
	f=$(flush_flag $m)
	if [ -z "$f" ] || cpu_flag "$f"; then
		test_expect_success "pmem_flush=$m runs" "
			\"\$IOLITE\" --name=f --filename=\"\$SHM/flush\" \
				--ioengine=mmap --pmem_flush=$m --rw=randwrite \
				--bs=4k --size=256k >out 2>err &&
			test_must_be_empty err &&
			grep 'total=0,64,0,0' out
		"
	else
		test_expect_success "pmem_flush=$m is refused: no $f" "
			test_must_fail \"\$IOLITE\" --name=f --ioengine=mmap \
				--filename=\"\$SHM/flush-no\" --pmem_flush=$m \
				--size=256k >out 2>err &&
			grep \"'$m' needs\" err &&
			test ! -e \"\$SHM/flush-no\"
		"
	fi
done

test_expect_success 'a flush mode the CPU lacks is refused before any file' '
	for m in clwb clflushopt clflush; do
		test_must_fail env IOLITE_CPU_DISABLE=$m "$IOLITE" --name=f \
			--ioengine=dev-dax --filename="$SHM/flush-no" \
			--pmem_flush=$m --size=256k >out 2>err || return 1
		grep "option '\''pmem_flush'\'': '\''$m'\'' needs [A-Z]*, which this CPU does not have" err ||
			return 1
	done &&
	test ! -e "$SHM/flush-no" &&
	IOLITE_CPU_DISABLE=clwb,clflushopt "$IOLITE" --name=f \
		--ioengine=dev-dax --filename="$SHM/flush-auto" \
		--pmem_flush=auto --rw=write --size=256k >out 2>err &&
	test_must_be_empty err
'

copy_flag() {
	case $1 in
	auto|libc) echo ;;
	movsb) echo erms ;;
	avx2|avx2-nt) echo avx2 ;;
	avx512|avx512-nt) echo avx512f ;;
	esac
}

for c in auto libc movsb avx2 avx2-nt avx512 avx512-nt; do
	f=$(copy_flag $c)
	if [ -z "$f" ] || cpu_flag "$f"; then
		test_expect_success "mmap_copy=$c writes and reads" "
			rm -f p.dat m.dat &&
			\"\$IOLITE\" --name=w --filename=p.dat --ioengine=psync \
				--overwrite=1 --rw=randwrite --bs=1000 --refill_buffers \
				--size=100000 >out 2>err &&
			\"\$IOLITE\" --name=w --filename=m.dat --ioengine=mmap \
				--mmap_copy=$c --rw=randwrite --bs=1000 --refill_buffers \
				--size=100000 >out 2>err &&
			test_must_be_empty err &&
			cmp p.dat m.dat &&
			\"\$IOLITE\" --name=r --filename=m.dat --ioengine=mmap \
				--mmap_copy=$c --rw=randread --bs=1000 >out 2>err &&
			test_must_be_empty err &&
			grep 'total=100,0,0,0' out &&
			rm -f p.dat m.dat
		"
	else
		test_expect_success "mmap_copy=$c is refused: no $f" "
			test_must_fail \"\$IOLITE\" --name=c --ioengine=mmap \
				--mmap_copy=$c --size=256k >out 2>err &&
			grep \"'$c' needs\" err &&
			test ! -e c.0.0
		"
	fi
done

test_expect_success 'a copy routine the CPU lacks is refused, with its line' '
	printf "[c]\nioengine=mmap\nmmap_copy=avx512-nt\nsize=256k\n" >job.fio &&
	test_must_fail env IOLITE_CPU_DISABLE=avx512f "$IOLITE" job.fio \
		>out 2>err &&
	grep "^iolite: job.fio:3: option '\''mmap_copy'\'': '\''avx512-nt'\'' needs AVX-512F, which this CPU does not have$" err &&
	test_must_fail env IOLITE_CPU_DISABLE=avx2 "$IOLITE" --name=c \
		--ioengine=mmap --mmap_copy=avx2 --size=256k >out 2>err &&
	grep "'\''avx2'\'' needs AVX2" err &&
	test_must_fail env IOLITE_CPU_DISABLE=erms "$IOLITE" --name=c \
		--ioengine=mmap --mmap_copy=movsb --size=256k >out 2>err &&
	grep "'\''movsb'\'' needs ERMS" err &&
	test ! -e c.0.0 &&
	IOLITE_CPU_DISABLE=avx2,avx512f,erms "$IOLITE" --name=c \
		--ioengine=mmap --mmap_copy=auto --pmem_flush=nt \
		--rw=randwrite --size=256k >out 2>err &&
	test_must_be_empty err
'

# ---- syncs ----

if_strace 'fsync=N and sync=1 are msync of the written range' '
	n=$(count_msync out --name=s --filename="$SHM/sync" --ioengine=mmap \
		--rw=write --bs=4k --size=64k --fsync=4) &&
	test "$n" = 3 &&
	n=$(count_msync out --name=s --filename="$SHM/sync" --ioengine=mmap \
		--rw=randwrite --bs=4k --size=64k --sync=1) &&
	test "$n" = 16 &&
	n=$(count_msync out --name=s --filename="$SHM/sync" --ioengine=mmap \
		--rw=write --bs=4k --size=64k --end_fsync=1) &&
	test "$n" = 1 &&
	n=$(count_msync out --name=s --filename="$SHM/sync" --ioengine=mmap \
		--rw=write --bs=4k --size=64k) &&
	test "$n" = 0
'

if_strace 'direct=1 drops each I/O'\''s pages, as fio'\''s mmap engine does' '
	strace -f -qq -e trace=madvise -o tr "$IOLITE" --name=d \
		--filename="$SHM/drop" --ioengine=mmap --direct=1 \
		--rw=randread --bs=4k --size=64k >out 2>err &&
	test_must_be_empty err &&
	with=$(grep -c MADV_DONTNEED tr || true) &&
	strace -f -qq -e trace=madvise -o tr "$IOLITE" --name=d \
		--filename="$SHM/drop" --ioengine=mmap \
		--rw=randread --bs=4k --size=64k >out 2>err &&
	without=$(grep -c MADV_DONTNEED tr || true) &&
	test $((with - without)) = 16
'

test_skip_unless STRACE
if_node 'on device DAX a sync is a flush, not msync' '
	n=$(IOLITE_SYSFS_ROOT=$TRASH/sys count_msync out --name=s \
		--filename="$TRASH/dax0.0" --ioengine=dev-dax --rw=write \
		--bs=4k --size=64k --sync=1 --fsync=2) &&
	test "$n" = 0 &&
	grep "total=0,16,0,[1-9]" out
'

# ---- pmem-style job files ----

test_expect_success 'a libpmem job file runs against /dev/shm' '
	mkdir -p "$SHM/pmem" &&
	PMEM_DIR=$SHM/pmem "$IOLITE" "$DATA/dax/libpmem.fio" >out 2>err &&
	test_must_be_empty err &&
	grep "^libpmem-seqwrite: (g=0): rw=write,.*ioengine=libpmem" out &&
	grep "^libpmem-seqread: (g=1): rw=read,.*ioengine=libpmem" out &&
	grep "WRITE: bw=" out && grep "READ: bw=" out
'

test_expect_success 'a dev-dax job file runs against a /dev/shm file' '
	head -c 8388608 /dev/zero >"$SHM/daxfile" &&
	PMEM_TARGET=$SHM/daxfile "$IOLITE" "$DATA/dax/dev-dax.fio" \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^dev-dax-write: (g=0): rw=randwrite, bs=(R) 2048KiB-2048KiB.*ioengine=dev-dax" out &&
	grep "^dev-dax-read: (g=1): rw=randread,.*ioengine=dev-dax" out &&
	grep "WRITE: bw=" out && grep "READ: bw=" out
'

if_node 'a dev-dax job file runs against a (fake) DAX device' '
	PMEM_TARGET=$TRASH/dax0.0 IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" \
		"$DATA/dax/dev-dax.fio" >out 2>err &&
	test_must_be_empty err &&
	grep "WRITE: bw=" out && grep "READ: bw=" out
'

page=$(getconf PAGESIZE)
test_skip_reason=$(test "$page" = 4096 || echo "pages of $page bytes")
test_expect_success 'syncs with blocks not of whole pages: refused before any file' '
	mkdir refuse && (
		cd refuse &&
		test_must_fail "$IOLITE" --name=r --ioengine=mmap --rw=write \
			--size=64k --bs=4k,4k,1k --fdatasync=4 >out 2>err &&
		grep "<cmdline>:[0-9]*: option .fdatasync.: ioengine=mmap" err &&
		grep "page size (4096 bytes), not 1024" err &&
		test_must_fail "$IOLITE" --name=r --ioengine=mmap --rw=read \
			--size=64k --bs=6k --direct=1 >out 2>err &&
		grep "option .direct.: .*not 6144" err &&
		test_must_fail "$IOLITE" --name=r --ioengine=mmap --rw=write \
			--size=64k --bs=512 --file_append=1 >out 2>err &&
		grep "option .file_append.: ioengine=mmap cannot append" err &&
		! test -e r.0.0 &&
		"$IOLITE" --name=r --ioengine=mmap --rw=write --size=64k \
			--bs=4k,6k --fsync=2 --sync=1 >out 2>err &&
		test_must_be_empty err &&
		"$IOLITE" --name=r --ioengine=mmap --rw=write --size=64k \
			--bs=512 --end_fsync=1 --fsync_on_close=1 >out 2>err &&
		test_must_be_empty err
	)
'

test_done

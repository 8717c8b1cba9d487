#!/bin/sh
# The file, offset, block size and per-I/O flag options of issue 15.7,
# checked on the I/O iolite issues (write_iolog) and its refusals; the
# side-by-side rows with fio are in t/sbs/fileopts.txt (t1870).
. "$(dirname "$0")/test-lib.sh"

# iolog_ops LOG: "action offset length" of each read, write and trim line
# of a write_iolog, the action of each sync line (file names may hold
# spaces: the fields are taken from the end)
iolog_ops() {
	awk '$(NF-2) ~ /^(read|write|trim)$/ { print $(NF-2), $(NF-1), $NF; next }
	     $NF ~ /^(sync|datasync|sync_file_range)$/ { print $NF }' "$1"
}

test_expect_success 'io_size=N% is a share of the regions' '
	"$IOLITE" --name=a --directory="$TRASH" --nrfiles=2 --filesize=256k \
		--io_size=25% --bs=4k --rw=write --ioengine=null \
		--write_iolog="$TRASH/a.log" >out &&
	test $(iolog_ops "$TRASH/a.log" | grep -c "^write") = 32
'

test_expect_success 'io_size above 100% is refused' '
	test_must_fail "$IOLITE" --name=a --directory="$TRASH" --size=1m \
		--io_size=101% --rw=write 2>err &&
	grep "option .io_size.: invalid percentage" err &&
	! ls "$TRASH"/a.0.0
'

test_expect_success 'offset_increment=N% and offset_align place each clone' '
	"$IOLITE" --name=p --filename="$TRASH/g" --size=1m --rw=write \
		--bs=64k >/dev/null &&
	"$IOLITE" --name=i --filename="$TRASH/g" --size=4k --numjobs=3 \
		--offset_increment=10% --offset_align=64k --bs=4k --rw=write \
		--write_iolog="$TRASH/i.log" >/dev/null &&
	iolog_ops "$TRASH/i.log" | sort -n -k2 >got &&
	printf "write %s 4096\n" 0 131072 262144 >want &&
	test_cmp want got
'

test_expect_success 'offset=N% is rounded up to the smallest block by default' '
	"$IOLITE" --name=o --filename="$TRASH/g" --size=4k --offset=10% \
		--bs=4k --rw=write --write_iolog="$TRASH/o.log" >/dev/null &&
	test "$(iolog_ops "$TRASH/o.log")" = "write 106496 4096"
'

# rwf_count TRACE FLAG: preadv2/pwritev2 calls whose flags hold FLAG
rwf_count() {
	grep -E "p(read|write)v2\(" "$1" | grep -c "$2" || true
}

test_expect_success_if STRACE 'hipri_percentage: that share of pvsync2 writes get RWF_HIPRI' '
	strace -f -o "$TRASH/h.trace" -e trace=pwritev2 "$IOLITE" --name=h \
		--filename="$TRASH/h" --size=800k --bs=4k --rw=write \
		--ioengine=pvsync2 --hipri=1 --hipri_percentage=30 >/dev/null &&
	n=$(rwf_count "$TRASH/h.trace" "RWF_HIPRI") &&
	all=$(grep -c "pwritev2(" "$TRASH/h.trace") &&
	test "$all" = 200 && test "$n" -gt 35 && test "$n" -lt 85 &&
	strace -f -o "$TRASH/h0.trace" -e trace=pwritev2 "$IOLITE" --name=h \
		--filename="$TRASH/h" --size=40k --bs=4k --rw=write \
		--ioengine=pvsync2 --hipri=1 --hipri_percentage=0 >/dev/null &&
	test "$(rwf_count "$TRASH/h0.trace" "RWF_HIPRI")" = 0 &&
	strace -f -o "$TRASH/h1.trace" -e trace=pwritev2 "$IOLITE" --name=h \
		--filename="$TRASH/h" --size=40k --bs=4k --rw=write \
		--ioengine=pvsync2 --hipri=1 >/dev/null &&
	test "$(rwf_count "$TRASH/h1.trace" "RWF_HIPRI")" = 10
'

# uncached: RWF_DONTCACHE (0x80) on each read and write where the file
# system has it (ext4 on Linux 6.15 and later), else the job is refused
# with the reason
test_expect_success_if STRACE 'uncached: RWF_DONTCACHE on each pvsync2 read, or refused' '
	"$IOLITE" --name=p --filename="$TRASH/u" --size=64k --rw=write \
		>/dev/null &&
	if strace -f -o "$TRASH/u.trace" -e trace=preadv2 "$IOLITE" --name=u \
		--filename="$TRASH/u" --size=64k --bs=4k --rw=read \
		--ioengine=pvsync2 --uncached=1 >out 2>err
	then
		test $(grep -c "preadv2(.*0x80" "$TRASH/u.trace") = 17 &&
		test $(grep -c "preadv2(" "$TRASH/u.trace") = 17
	else
		grep "option .uncached.: the file system of .*EOPNOTSUPP" err
	fi
'

test_expect_success_if IO_URING 'nowait on io_uring: a write that would block fails with EAGAIN' '
	test_must_fail "$IOLITE" --name=n --filename="$TRASH/n" --size=64k \
		--bs=4k --rw=write --ioengine=io_uring --nowait=1 \
		--output-format=json >out.json &&
	grep "\"error\" : 11," out.json &&
	"$IOLITE" --name=n --filename="$TRASH/n2" --size=64k --bs=4k \
		--rw=write --ioengine=io_uring --output-format=json >out.json &&
	grep "\"error\" : 0," out.json
'

test_expect_success_if LIBAIO 'nowait on libaio: the flag reaches the kernel' '
	test_must_fail "$IOLITE" --name=n --filename="$TRASH/na" --size=64k \
		--bs=4k --rw=write --ioengine=libaio --nowait=1 \
		--output-format=json >out.json &&
	grep "\"error\" : 95," out.json
'

# atomic: statx says whether the file system and device take untorn
# writes; this machine's ext4 on virtio and tmpfs do not
test_expect_success 'atomic: refused with the reason where statx has no atomic unit' '
	if test_must_fail "$IOLITE" --name=a --filename="$TRASH/a" --size=64k \
		--bs=4k --rw=write --ioengine=pvsync2 --atomic=1 >out 2>err
	then
		grep "option .atomic.: .* takes no atomic writes (statx" err
	else
		grep "err= 0" out
	fi
'

# uncached and atomic are checked before any file is laid out: a file
# still to be made is stood for by an O_TMPFILE in its directory
test_expect_success 'atomic refused: no file, no directory, nor an earlier job'"'"'s file' '
	cat >at.fio <<-EOF &&
	[first]
	filename=$TRASH/at-first
	size=64k
	rw=write
	[a]
	filename=$TRASH/at-dir/sub/a
	size=64k
	bs=4k
	rw=write
	ioengine=pvsync2
	atomic=1
	EOF
	if test_must_fail "$IOLITE" at.fio >out 2>err
	then
		grep "^iolite: at.fio:11: option .atomic.: .* takes no atomic writes" err &&
		test_must_be_empty out &&
		! test -e "$TRASH/at-first" &&
		! test -e "$TRASH/at-dir"
	else
		grep "err= 0" out
	fi
'

test_expect_success 'uncached refused on tmpfs before the layout: nothing made, nothing grown' '
	# (without a tmpfs at /dev/shm, $TRASH_SHM is on $TRASH: no test)
	test "$(stat -f -c %T "$TRASH_SHM")" != tmpfs ||
	{
	test_must_fail "$IOLITE" --name=u --filename="$TRASH_SHM/ud/u" \
		--size=64k --rw=write --ioengine=pvsync2 --uncached=1 \
		>out 2>err &&
	grep "option .uncached.: the file system of .*EOPNOTSUPP" err &&
	! test -e "$TRASH_SHM/ud" &&
	printf abc >"$TRASH_SHM/small" &&
	test_must_fail "$IOLITE" --name=u --filename="$TRASH_SHM/small" \
		--size=64k --rw=read --ioengine=pvsync2 --uncached=1 \
		>out 2>err &&
	grep "option .uncached.: the file system of .*small" err &&
	test "$(stat -c %s "$TRASH_SHM/small")" = 3
	}
'

test_expect_success 'atomic: refused with engines that pass no per-write flags' '
	test_must_fail "$IOLITE" --name=a --filename="$TRASH/a2" --size=64k \
		--rw=write --atomic=1 2>err &&
	grep "option .atomic.: not supported with ioengine .psync." err &&
	! test -e "$TRASH/a2"
'

test_expect_success 'uncached and hipri_percentage belong to their engines' '
	test_must_fail "$IOLITE" --name=a --filename="$TRASH/x" --size=64k \
		--rw=write --uncached=1 2>err &&
	grep "option .uncached. is not valid with ioengine .psync. (only pvsync2, io_uring, io_uring_cmd)" err &&
	test_must_fail "$IOLITE" --name=a --filename="$TRASH/x" --size=64k \
		--rw=write --ioengine=psync --hipri_percentage=5 2>err &&
	grep "option .hipri_percentage. is not valid" err &&
	! test -e "$TRASH/x"
'

# write_hint: fcntl(F_SET_RW_HINT = 0x40c) on each file as it is opened,
# as fio; with direct=1 fio asks F_SET_FILE_RW_HINT, which Linux 5.17
# removed: both tools fail the job with EINVAL there
test_expect_success_if STRACE 'write_hint: F_SET_RW_HINT at each open' '
	strace -f -o "$TRASH/w.trace" -e trace=fcntl "$IOLITE" --name=w \
		--directory="$TRASH" --nrfiles=2 --size=32k --rw=write \
		--write_hint=short >/dev/null &&
	test $(grep -c "fcntl([0-9]*, \(0x40c\|F_SET_RW_HINT\)" "$TRASH/w.trace") = 2 &&
	for e in mmap falloc; do
		strace -f -o "$TRASH/w$e.trace" -e trace=fcntl "$IOLITE" \
			--name=w --filename="$TRASH/w$e" --size=16k --rw=write \
			--ioengine=$e --write_hint=long >/dev/null &&
		test $(grep -c "fcntl([0-9]*, \(0x40c\|F_SET_RW_HINT\)" \
			"$TRASH/w$e.trace") = 1 || return 1
	done
'

test_expect_success 'write_hint: an unknown life time is refused' '
	test_must_fail "$IOLITE" --name=w --filename="$TRASH/w" --size=32k \
		--rw=write --write_hint=forever 2>err &&
	grep "option .write_hint." err && ! test -e "$TRASH/w"
'

test_expect_success 'hipri on pvsync2: the notes say when polling cannot happen' '
	"$IOLITE" --name=h --filename="$TRASH/hp" --size=32k --rw=write \
		--ioengine=pvsync2 --hipri=1 >out &&
	grep "job .h.: hipri on buffered I/O: the kernel polls only O_DIRECT" out &&
	"$IOLITE" --name=h --filename="$TRASH/hp" --size=32k --rw=write \
		--ioengine=pvsync2 --hipri=1 --hipri_percentage=0 >out &&
	! grep "hipri" out
'

test_expect_success 'bs_is_seq_rand: random I/Os of every direction take the second size' '
	"$IOLITE" --name=b --directory="$TRASH" --size=256k --rw=randrw \
		--bs=4k,16k --bs_is_seq_rand=1 --ioengine=null \
		--write_iolog="$TRASH/b.log" >/dev/null &&
	iolog_ops "$TRASH/b.log" | awk "{ print \$3 }" | sort -u >got &&
	echo 16384 >want && test_cmp want got &&
	"$IOLITE" --name=b --directory="$TRASH" --size=256k --rw=rw \
		--bs=4k,16k --bs_is_seq_rand=1 --ioengine=null \
		--write_iolog="$TRASH/b2.log" >/dev/null &&
	iolog_ops "$TRASH/b2.log" | awk "{ print \$3 }" | sort -u >got &&
	echo 4096 >want && test_cmp want got
'

test_expect_success 'bs_is_seq_rand: a random job'"'"'s sequential I/Os take the first size' '
	"$IOLITE" --name=b --directory="$TRASH" --size=256k \
		--rw=randread --percentage_random=0 --bs_is_seq_rand=1 \
		--bs=4k,16k --ioengine=null --write_iolog="$TRASH/b3.log" \
		>/dev/null &&
	iolog_ops "$TRASH/b3.log" | awk "{ print \$3 }" | sort -u >got &&
	echo 4096 >want && test_cmp want got &&
	"$IOLITE" --name=b --directory="$TRASH" --size=256k \
		--rw=randread:4 --bs_is_seq_rand=1 --bs=4k,16k \
		--ioengine=null --write_iolog="$TRASH/b4.log" >/dev/null &&
	iolog_ops "$TRASH/b4.log" | awk "{ print \$3 }" | sort -u >got &&
	printf "16384\n4096\n" >want && test_cmp want got
'

test_expect_success 'bs_unaligned: lengths off the smallest size, within the range' '
	"$IOLITE" --name=u --directory="$TRASH" --size=1m --rw=write \
		--bsrange=1k-8k --bs_unaligned=1 --ioengine=null \
		--write_iolog="$TRASH/u.log" >/dev/null &&
	iolog_ops "$TRASH/u.log" >ops &&
	awk "\$3 % 1024 { odd++ } \$3 < 1024 || \$3 > 8192 { bad++ }
	     END { exit !(odd > NR / 2 && !bad) }" ops &&
	"$IOLITE" --name=u --directory="$TRASH" --size=1m --rw=write \
		--bsrange=1k-8k --ioengine=null \
		--write_iolog="$TRASH/a.log" >/dev/null &&
	iolog_ops "$TRASH/a.log" | awk "\$3 % 1024 { exit 1 }"
'

test_expect_success 'allrandrepeat: the same offsets run to run, even with randrepeat=0' '
	for i in 1 2; do
		"$IOLITE" --name=r --directory="$TRASH" --size=16m \
			--rw=randwrite --norandommap=1 --randrepeat=0 \
			--allrandrepeat=1 --number_ios=64 --ioengine=null \
			--write_iolog="$TRASH/r$i.log" >/dev/null &&
		iolog_ops "$TRASH/r$i.log" >r$i || return 1
	done &&
	test_cmp r1 r2 &&
	for i in 3 4; do
		"$IOLITE" --name=r --directory="$TRASH" --size=16m \
			--rw=randwrite --norandommap=1 --randrepeat=0 \
			--number_ios=64 --ioengine=null \
			--write_iolog="$TRASH/r$i.log" >/dev/null &&
		iolog_ops "$TRASH/r$i.log" >r$i || return 1
	done &&
	! cmp -s r3 r4
'

test_expect_success_if STRACE 'create_fsync: the layout is fsynced unless create_fsync=0' '
	strace -f -o "$TRASH/c1.trace" -e trace=fsync "$IOLITE" --name=c \
		--filename="$TRASH/c1" --size=64k --rw=read >/dev/null &&
	test $(grep -c "fsync(" "$TRASH/c1.trace") = 1 &&
	strace -f -o "$TRASH/c0.trace" -e trace=fsync "$IOLITE" --name=c \
		--filename="$TRASH/c0" --size=64k --rw=read --create_fsync=0 \
		>/dev/null &&
	test $(grep -c "fsync(" "$TRASH/c0.trace") = 0
'

test_expect_success 'create_only: the files are laid out, no I/O' '
	"$IOLITE" --name=c --filename="$TRASH/co" --size=64k --rw=read \
		--create_only=1 --write_iolog="$TRASH/co.log" \
		--output-format=json >out.json &&
	test $(wc -c <"$TRASH/co") = 65536 &&
	test -z "$(iolog_ops "$TRASH/co.log")" &&
	grep "\"total_ios\" : 0," out.json
'

test_expect_success 'file_append: from the end of the file' '
	"$IOLITE" --name=p --filename="$TRASH/fa" --size=64k --rw=write \
		>/dev/null &&
	"$IOLITE" --name=a --filename="$TRASH/fa" --size=8k --bs=4k \
		--rw=write --file_append=1 --write_iolog="$TRASH/fa.log" \
		>/dev/null &&
	printf "write %s 4096\n" 65536 69632 >want &&
	iolog_ops "$TRASH/fa.log" >got && test_cmp want got &&
	test $(wc -c <"$TRASH/fa") = 73728
'

test_expect_success_if STRACE 'pre_read: the region read once first, not dropped at open' '
	"$IOLITE" --name=p --filename="$TRASH/pr" --size=64k --rw=write \
		>/dev/null &&
	strace -f -o "$TRASH/pr.trace" -e trace=pread64,fadvise64 "$IOLITE" \
		--name=p --filename="$TRASH/pr" --size=16k --bs=4k --rw=read \
		--pre_read=1 >/dev/null &&
	test $(grep -c "pread64(.*= 4096" "$TRASH/pr.trace") = 8 &&
	! grep DONTNEED "$TRASH/pr.trace"
'

test_expect_success_if STRACE 'unlink_each_loop: deleted between loops, kept after the last' '
	strace -f -o "$TRASH/ul.trace" -e trace=unlink "$IOLITE" --name=u \
		--filename="$TRASH/ul" --size=16k --bs=4k --rw=write --loops=3 \
		--unlink_each_loop=1 --write_iolog="$TRASH/ul.log" >/dev/null &&
	test $(grep -c "unlink(.*ul\") *= 0" "$TRASH/ul.trace") = 2 &&
	test $(iolog_ops "$TRASH/ul.log" | grep -c "^write") = 12 &&
	test $(wc -c <"$TRASH/ul") = 16384
'

test_expect_success 'unlink_each_loop: a job that reads is refused before anything is made' '
	test_must_fail "$IOLITE" --name=u --filename="$TRASH/ur" --size=16k \
		--rw=read --loops=2 --unlink_each_loop=1 2>err &&
	grep "option .unlink_each_loop.: the job reads" err &&
	! test -e "$TRASH/ur"
'

# fio 3.33 on this machine read c, s/b, a in this order (readdir's): the
# same names on the same file system give the same order here
test_expect_success 'opendir: every regular file below, recursively, in readdir order' '
	mkdir -p "$TRASH/od/s" &&
	printf "%4096s" x >"$TRASH/od/a" && printf "%8192s" x >"$TRASH/od/c" &&
	printf "%4096s" x >"$TRASH/od/s/b" && ln -s a "$TRASH/od/l" &&
	"$IOLITE" --name=o --opendir="$TRASH/od" --bs=4k --rw=read \
		--write_iolog="$TRASH/od.log" >/dev/null &&
	awk "\$(NF-2) == \"read\"" "$TRASH/od.log" | wc -l >n &&
	echo 4 >want && test_cmp want n &&
	awk "/ add\$/ { print \$(NF-1) }" "$TRASH/od.log" | sed "s|.*/od/||" >got &&
	test $(wc -l <got) = 3 && grep -qx "s/b" got &&
	"$IOLITE" --name=o --opendir="$TRASH/od" --nrfiles=1 --bs=4k \
		--rw=read --write_iolog="$TRASH/od1.log" >/dev/null &&
	test $(grep -c " add\$" "$TRASH/od1.log") = 1 &&
	head -1 got >first && awk "/ add\$/ { print \$(NF-1) }" \
		"$TRASH/od1.log" | sed "s|.*/od/||" >got1 && test_cmp first got1
'

test_expect_success 'opendir: a missing directory is refused' '
	test_must_fail "$IOLITE" --name=o --opendir="$TRASH/none" --rw=read 2>err &&
	grep "option .opendir.: cannot list .*No such file" err
'

test_done

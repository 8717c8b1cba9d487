#!/bin/sh
# The syscalls around a job's I/O, as fio 3.33 makes them (issue 13,
# items 1, 2 and 9): invalidate=1 drops the page cache at every open
# (posix_fadvise DONTNEED of the job's region, BLKFLSBUF on a block
# device), loops close and open the files again (with end_fsync and
# fsync_on_close at each loop's end), and fsync=N / fdatasync=N sync as
# often as fio does. Counted with strace; each case has the figures fio
# 3.33 gives, and is run through fio too where it is installed.
. "$(dirname "$0")/test-lib.sh"

test_have_prereq STRACE || skip_all "strace is not installed (or cannot trace here)"
# the calls not traced cost nothing with a seccomp filter (strace 5.3 on):
# a third less CPU for a traced fio run
SECCOMP=
strace -f --seccomp-bpf -qq -e trace=close -o /dev/null true 2>/dev/null &&
	SECCOMP=--seccomp-bpf

# counts DIR TOOL ARGS...: iolite runs the job in DIR first to lay the
# files out (the same files fio would lay out; fio's start-up costs ~0.3 s
# of CPU, iolite's next to none), then TOOL runs it under strace; a file
# the layout got wrong would show as fio's extra opens. DIR.counts gets the
# calls made on the job's files (j.N.M, or a device named by filename=):
# "open=2 close=2 dontneed=2 flush=0 fsync=1 fdatasync=0 msync=0" (msync
# names no file: all of them).
counts() {
	d=$1 tool=$2
	shift 2
	mkdir -p "$d" &&
	(cd "$d" &&
	 "$IOLITE" --name=j --output-format=terse "$@" >/dev/null 2>&1 &&
	 strace -f $SECCOMP -qq -y -o ../"$d.raw" \
		-e trace=openat,close,fadvise64,fsync,fdatasync,ioctl,msync \
		"$tool" --name=j --output-format=terse "$@" \
		>../"$d.out" 2>../"$d.err") &&
	sed "s/^[0-9]* *//" "$d.raw" |
		grep -E "j\.[0-9]+\.[0-9]+|${dev:-^\$}" >"$d.tr" || :
	c() { grep -c "$1" "$d.tr" || :; }
	echo "open=$(c "^openat(") close=$(c "^close(")" \
	     "dontneed=$(c FADV_DONTNEED) flush=$(c BLKFLSBUF)" \
	     "seq=$(c FADV_SEQUENTIAL) random=$(c FADV_RANDOM)" \
	     "fsync=$(c "^fsync(") fdatasync=$(c "^fdatasync(")" \
	     "msync=$(grep -c "^[0-9]* *msync(" "$d.raw" || :)" >"$d.counts"
}

# check NAME "WANT" ARGS...: iolite's calls include each "key=value" of
# WANT, and fio's match them too where fio is installed.
check() {
	name=$1 want=$2
	shift 2
	counts "$name.i" "$IOLITE" "$@" &&
	for kv in $want; do
		grep -q "\(^\| \)$kv\( \|$\)" "$name.i.counts" || {
			echo "iolite: want $kv, got $(cat "$name.i.counts")"
			return 1
		}
	done &&
	if test_have_prereq FIO; then
		counts "$name.f" fio "$@" &&
		for kv in $want; do
			grep -q "\(^\| \)$kv\( \|$\)" "$name.f.counts" || {
				echo "fio: want $kv, got $(cat "$name.f.counts")"
				return 1
			}
		done
	fi
}

W="--size=64k --bs=4k --rw=write"

test_expect_success 'invalidate=1 drops the cache of the job region at open' '
	check inv "open=1 close=1 dontneed=1" --size=1m --rw=read &&
	grep "^fadvise64([0-9]*<.*/j.0.0>, 0, 1048576, POSIX_FADV_DONTNEED)" \
		inv.i.tr &&
	check part "dontneed=1" --filename=j.0.0 --offset=256k --size=256k \
		--rw=read &&
	grep "^fadvise64([0-9]*<.*/j.0.0>, 262144, 262144, POSIX_FADV_DONTNEED)" \
		part.i.tr
'

test_expect_success 'with direct=1, for mmap, and not with invalidate=0' '
	check dio "dontneed=1" --size=64k --rw=read --direct=1 &&
	check mm "dontneed=1" --size=64k --rw=read --ioengine=mmap &&
	check noinv "open=1 dontneed=0" --size=64k --rw=read --invalidate=0
'

test_expect_success 'fadvise_hint: the access pattern advised after each drop' '
	check hs "dontneed=1 seq=1 random=0" --size=64k --rw=read &&
	check hr "dontneed=1 seq=0 random=1" --size=64k --rw=randread &&
	check hm "seq=0 random=1" --size=64k --rw=randrw &&
	check h0 "dontneed=1 seq=0 random=0" --size=64k --rw=read \
		--fadvise_hint=0 &&
	check hf "seq=1 random=0" --size=64k --rw=randread \
		--fadvise_hint=sequential &&
	grep "^fadvise64([0-9]*<.*/j.0.0>, 0, 65536, POSIX_FADV_RANDOM)" hr.i.tr
'

test_expect_success 'loops: the files are closed and opened again, cache dropped each time' '
	check lr "open=3 close=3 dontneed=3" --size=64k --rw=read --loops=3 &&
	check lw "open=2 close=2 dontneed=2 fsync=0" $W --loops=2 &&
	check lm "open=8 close=8 dontneed=8" --size=64k --rw=read \
		--nrfiles=4 --loops=2
'

test_expect_success 'loops with fsync_on_close and end_fsync: a sync at each loop end' '
	check c1 "open=1 fsync=1" $W --fsync_on_close=1 &&
	check e1 "open=1 fsync=1" $W --end_fsync=1 &&
	check ce1 "open=1 fsync=1" $W --end_fsync=1 --fsync_on_close=1 &&
	check c3 "open=5 close=5 dontneed=5 seq=5 fsync=5" $W \
		--fsync_on_close=1 --loops=3 &&
	check e3 "open=5 fsync=3" $W --end_fsync=1 --loops=3 &&
	check c2f "fsync=6" $W --fsync_on_close=1 --nrfiles=2 --loops=2 &&
	check e2f "fsync=4" $W --end_fsync=1 --nrfiles=2 --loops=2 &&
	check er "fsync=0" --size=64k --rw=read --end_fsync=1 --loops=2
'

test_expect_success 'fsync=N: a sync before the write after every N, none after the last' '
	check f4 "fsync=3" $W --fsync=4 &&
	check f16 "fsync=0" $W --fsync=16 &&
	check f1 "fsync=15" $W --fsync=1 &&
	check f5 "fsync=3" $W --fsync=5 &&
	check d4 "fdatasync=3 fsync=0" $W --fdatasync=4 &&
	check fd "fsync=3 fdatasync=4" $W --fsync=4 --fdatasync=3 &&
	check r4 "fsync=3" --size=64k --bs=4k --rw=randwrite --fsync=4 &&
	check n4 "fsync=3" $W --fsync=4 --nrfiles=2 &&
	check m4 "msync=3" $W --fsync=4 --ioengine=mmap
'

test_expect_success 'fsync=N with loops: the loop end syncs, the next loop may start with one' '
	check f4l2 "fsync=8" $W --fsync=4 --loops=2 &&
	check f4l3 "fsync=13" $W --fsync=4 --loops=3 &&
	check f3l2 "fsync=10" $W --fsync=3 --loops=2 &&
	check n4l2 "fsync=8" $W --fsync=4 --nrfiles=2 --loops=2
'

test_expect_success 'fsync=N with end_fsync or fsync_on_close: one more at the end' '
	check f4e "fsync=4" $W --fsync=4 --end_fsync=1 &&
	check f4c "fsync=4" $W --fsync=4 --fsync_on_close=1 &&
	check f16e "fsync=1" $W --fsync=16 --end_fsync=1 &&
	check f4cl "fsync=9" $W --fsync=4 --fsync_on_close=1 --loops=2 &&
	check f4el "fsync=9" $W --fsync=4 --end_fsync=1 --loops=2
'

# a queueing engine ends its pass on the bytes issued: no sync at the
# end of a loop (fio asks for no further I/O), and the job is unsynced
# only once an I/O completed after the sync (deeper queues: compat.md)
test_expect_success_if LIBAIO 'fsync=N with a queueing engine: no sync at the loop end' '
	check aio "fsync=3" $W --fsync=4 --ioengine=libaio --iodepth=4 &&
	check aiol "fsync=7" $W --fsync=4 --ioengine=libaio --iodepth=4 \
		--loops=2 &&
	check aio1 "fsync=11" $W --fsync=4 --ioengine=libaio --iodepth=1 \
		--loops=3
'

test_expect_success 'the counts: fsync=N syncs are issued I/O, end syncs are not' '
	mkdir rep && (cd rep &&
	"$IOLITE" --name=j $W --fsync=4 >a &&
	test "$(issued a)" = "0,16,0,3" &&
	"$IOLITE" --name=j $W --fsync=4 --loops=2 >b &&
	test "$(issued b)" = "0,32,0,8" &&
	"$IOLITE" --name=j $W --end_fsync=1 --fsync_on_close=1 >c &&
	test "$(issued c)" = "0,16,0,0")
'

# a mixed job: a sync after every 4th write and only then, as the HOWTO
# says (fio 3.33 syncs again after a read at the same count: "S R S";
# doc/compat.md), whatever comes between
test_expect_success 'a mixed job syncs once per N writes, not after reads' '
	mkdir mix && (cd mix &&
	for s in 1 2 3 4 5 6 7 8; do
		rm -f log &&
		"$IOLITE" --name=j --size=64k --bs=4k --rw=rw --fsync=4 \
			--randseed=$s --write_iolog=log >/dev/null &&
		awk "\$3 ~ /^(read|write|sync)\$/ { printf \"%s\", substr(\$3, 1, 1) }
		     END { print \"\" }" log >>seqs || exit 1
	done &&
	cat seqs &&
	awk "{ w = 0
	       for (i = 1; i <= length(\$0); i++) {
		c = substr(\$0, i, 1)
		if ((c == \"s\") != (w == 4)) exit 1
		if (c == \"s\") w = 0
		if (c == \"w\") w++
	       } }" seqs &&
	! grep -q "srs" seqs && grep -q "wswr\|wsrw\|wsrr" seqs)
'

test_expect_success 'time_based: the cache is dropped at each wrap, not without a map' '
	check tb "open=1 close=1" --size=64k --bs=4k --rw=read --time_based \
		--runtime=300ms &&
	strace -f -qq -y -e trace=pread64,fadvise64 -o tb.raw2 \
		"$IOLITE" --name=j --size=64k --bs=4k --rw=read --time_based \
		--runtime=300ms --output-format=terse --directory=tb.i >/dev/null &&
	dn=$(grep -c DONTNEED tb.raw2) &&
	# the data file'"'"'s reads only, not the loader'"'"'s of libc
	rd=$(grep -c "^[0-9]* *pread64([0-9]*<[^>]*/tb\.i/" tb.raw2) &&
	echo "$dn drops for $rd reads" &&
	test "$rd" -gt 16 &&
	# one per pass begun (the time may run out just after a wrap)
	test $((dn * 16)) -ge "$rd" && test $(((dn - 2) * 16)) -lt "$rd" &&
	strace -f -qq -y -e trace=fadvise64 -o nm.raw "$IOLITE" --name=j \
		--size=64k --bs=4k --rw=randread --norandommap --time_based \
		--runtime=200ms --output-format=terse --directory=tb.i >/dev/null &&
	test "$(grep -c DONTNEED nm.raw)" = 1
'

test_expect_success 'write_iolog: the loops close, open and sync as in fio' '
	mkdir ilog && (cd ilog &&
	"$IOLITE" --name=j --size=16k --bs=4k --rw=write --fsync=2 --loops=2 \
		--write_iolog=log >/dev/null &&
	cut -d" " -f2,3 log >seq &&
	cat >want <<-\EOF &&
	version 3
	j.0.0 add
	j.0.0 open
	j.0.0 write
	j.0.0 write
	j.0.0 sync
	j.0.0 write
	j.0.0 write
	j.0.0 sync
	j.0.0 close
	j.0.0 open
	j.0.0 sync
	j.0.0 write
	j.0.0 write
	j.0.0 sync
	j.0.0 write
	j.0.0 write
	j.0.0 close
	EOF
	test_cmp want seq &&
	if test_have_prereq FIO; then
		rm -f log && fio --name=j --size=16k --bs=4k --rw=write \
			--fsync=2 --loops=2 --write_iolog=log >/dev/null &&
		cut -d" " -f2,3 log >fseq && test_cmp want fseq
	fi)
'

test_expect_success_if LOOP 'a block device: BLKFLSBUF at every open, no fadvise' '
	dev=$(test_loop "$TRASH/img" 8m) &&
	check bd "flush=2 dontneed=0" --filename=$dev \
		--size=1m --rw=read --loops=2 &&
	check bdm "flush=1 dontneed=0" --filename=$dev --size=1m --rw=read \
		--ioengine=mmap &&
	if command -v setpriv >/dev/null 2>&1; then
		# without CAP_SYS_ADMIN the flush cannot happen: a note says so
		setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
			"$IOLITE" --name=j --filename=$dev --size=1m \
			--rw=read >note.out 2>note.err &&
		test_must_be_empty note.err &&
		grep "^  job .j.: invalidate=1 cannot drop the page cache of $dev without CAP_SYS_ADMIN (BLKFLSBUF)" note.out
	fi
'

test_done

#!/bin/sh
# The queueing engines and fio's queue options, checked through what
# happened: the IO depths, submit and complete distributions of the
# report, the issued counts, the bytes on disk and the syscalls made.
#
# The null engine at depth > 1 completes every I/O at commit and, as
# fio's null, takes no more until that batch is reaped, so its
# distributions are exact and fio's; libaio and io_uring run on a
# page-cached file, where reads complete at submit as well.
. "$(dirname "$0")/test-lib.sh"

# A job for the null engine: 4096 random reads of 4k.
null_job() {
	"$IOLITE" --name=q --ioengine=null --rw=randread --bs=4k --size=16m \
		"$@" >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "4096,0,0,0"
}

test_expect_success 'null iodepth=16: one batch in flight at a time, as fio' '
	null_job --iodepth=16 &&
	test "$(pct out "IO depths" 1)" = 100.0 &&
	test "$(pct out submit 4)" = 100.0 &&
	test "$(pct out complete 4)" = 100.0 &&
	null_job --iodepth=16 --iodepth_batch=16 &&
	test "$(pct out "IO depths" 16)" = 100.0 &&
	test "$(pct out submit 16)" = 100.0 &&
	test "$(pct out complete 16)" = 100.0
'

test_expect_success 'null depth 1: no submit or complete calls counted (fio)' '
	null_job &&
	test "$(pct out "IO depths" 1)" = 100.0 &&
	test "$(pct out submit 4)" = 0.0 &&
	test "$(pct out complete 4)" = 0.0
'

test_expect_success 'null hands back its whole batch, past iodepth_batch_complete_max' '
	null_job --iodepth=32 --iodepth_batch=8 --iodepth_batch_complete_max=2 &&
	test "$(pct out "IO depths" 8)" = 100.0 &&
	test "$(pct out complete 8)" = 100.0 &&
	test "$(pct out complete 4)" = 0.0
'

test_expect_success 'null iodepth_batch=3: the rest of the last batch has no depth' '
	"$IOLITE" --name=q --ioengine=null --rw=write --bs=4k --size=64k \
		--iodepth=8 --iodepth_batch=3 >out &&
	test "$(issued out)" = "0,16,0,0" &&
	test "$(pct out "IO depths" 2)" = 93.8 &&
	test "$(pct out "IO depths" 1)" = 0.0
'

test_expect_success 'iodepth_batch_complete_min=0 alone: one I/O at a time (fio)' '
	null_job --iodepth=16 --iodepth_batch=8 --iodepth_batch_complete_min=0 &&
	test "$(pct out "IO depths" 1)" = 100.0 &&
	test "$(pct out submit 4)" = 100.0 &&
	null_job --iodepth=16 --iodepth_batch=8 --iodepth_batch_complete_min=0 \
		--iodepth_batch_complete_max=16 &&
	test "$(pct out "IO depths" 8)" = 100.0
'

test_expect_success 'null iodepth_batch_complete_min=0 polls and completes' '
	null_job --iodepth=8 --iodepth_batch_complete_min=0
'

# A page-cached file for the real engines: 4 MiB, 1024 blocks of 4k.
dd if=/dev/zero of="$TRASH/data" bs=64k count=64 2>/dev/null

# aio_job ENGINE ARGS...: 1024 random reads of the cached file.
aio_job() {
	e=$1
	shift
	timeout 60 "$IOLITE" --name=q --ioengine=$e --filename=data \
		--rw=randread --bs=4k "$@" >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "1024,0,0,0"
}

# Batched submission, on a real queue (the first engine this build has).
qe=
test_have_prereq IO_URING && qe=io_uring
test_have_prereq LIBAIO && qe=libaio
test -n "$qe" || test_skip_reason="neither libaio nor io_uring ($prereq_missing)"

# As fio: iodepth_batch_complete_max defaults to iodepth_batch_complete_min,
# so a full queue is refilled by as many as were reaped: batches of 8 need
# both options (with only the first, submits are of 1, as fio's are).
test_expect_success "$qe iodepth_batch_submit=8: every submit is of 8" '
	aio_job $qe --iodepth=32 --iodepth_batch_submit=8 \
		--iodepth_batch_complete_min=8 &&
	test "$(pct out submit 8)" = 100.0 &&
	test "$(pct out submit 4)" = 0.0 &&
	test "$(pct out submit 16)" = 0.0 &&
	at_least "$(pct out "IO depths" 32)" 0.1
'

test_expect_success "$qe iodepth_batch alias; iodepth_batch_submit=0 is the depth" '
	aio_job $qe --iodepth=32 --iodepth_batch=16 \
		--iodepth_batch_complete=16 &&
	test "$(pct out submit 16)" = 100.0 &&
	aio_job $qe --iodepth=32 --iodepth_batch_submit=0 \
		--iodepth_batch_complete_min=32 &&
	test "$(pct out submit 32)" = 100.0 &&
	test "$(pct out complete 32)" = 100.0 &&
	test "$(pct out "IO depths" 32)" = 100.0
'

test_skip_unless JQ
test_expect_success "$qe JSON iodepth_submit / iodepth_complete / iodepth_level" '
	timeout 60 "$IOLITE" --name=q --ioengine=$qe --filename=data \
		--rw=randread --bs=4k --iodepth=32 --iodepth_batch_submit=8 \
		--iodepth_batch_complete_min=16 \
		--iodepth_batch_complete_max=16 \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(jq ".jobs[0].read.total_ios" out.json)" = 1024 &&
	test "$(jq ".jobs[0].iodepth_submit[\"8\"]" out.json)" = 100 &&
	test "$(jq ".jobs[0].iodepth_complete[\"16\"]" out.json)" = 100 &&
	test "$(jq ".jobs[0].iodepth_level[\"32\"] > 0" out.json)" = true &&
	test "$(jq ".jobs[0].iodepth_level[\">=64\"]" out.json)" = 0
'
test_skip_reason=

for e in libaio io_uring; do
	prereq=$(echo $e | tr a-z A-Z)
	test_expect_success_if $prereq "$e: the IO depths reach iodepth=16" "
		aio_job $e --iodepth=16 &&
		at_least \"\$(pct out 'IO depths' 16)\" 0.1 &&
		test \"\$(pct out 'IO depths' 32)\" = 0.0 &&
		aio_job $e --iodepth=16 --iodepth_batch_complete_max=1 &&
		at_least \"\$(pct out 'IO depths' 16)\" 95
	"

	test_expect_success_if $prereq "$e: batches of 8 submitted and reaped" "
		aio_job $e --iodepth=32 --iodepth_batch_submit=8 \
			--iodepth_batch_complete_min=8 \
			--iodepth_batch_complete_max=8 &&
		test \"\$(pct out submit 8)\" = 100.0 &&
		test \"\$(pct out complete 8)\" = 100.0
	"

	test_expect_success_if $prereq "$e: iodepth_low and complete_min=0 complete" "
		aio_job $e --iodepth=32 --iodepth_low=4 &&
		aio_job $e --iodepth=32 --iodepth_batch_complete_min=0 \
			--iodepth_batch_complete_max=4 &&
		at_least \"\$(pct out complete 4)\" 0.1
	"
done

test_expect_success_if LIBAIO 'libaio userspace_reap=1 reaps from the ring' '
	aio_job libaio --iodepth=16 --userspace_reap=1 \
		--iodepth_batch_complete_min=0
'

test_expect_success_if LIBAIO,STRACE 'libaio userspace_reap=1: no io_getevents calls' '
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" &&
	export ASAN_OPTIONS &&
	strace -f -qq -c -o st1 -e trace=io_getevents,io_submit \
		"$IOLITE" --name=q --ioengine=libaio --filename=data \
		--rw=randread --bs=4k --iodepth=16 --userspace_reap=1 \
		--iodepth_batch_complete_min=0 >out 2>err &&
	test_must_be_empty err &&
	grep io_submit st1 &&
	! grep io_getevents st1
'

# Buffered reads of a page-cached file complete inside io_submit(): their
# completions are in the ring when the worker reaps, and reading it saves
# the io_getevents() call fio makes for every batch (issue 26). A reap
# for a minimum still waits in io_getevents() for what is missing.
test_expect_success_if LIBAIO,STRACE 'libaio reads the ring first: io_getevents only for what is missing' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" &&
	export ASAN_OPTIONS &&
	strace -f -qq -c -o st0 -e trace=io_getevents,io_submit \
		"$IOLITE" --name=q --ioengine=libaio --filename=data \
		--rw=randread --bs=4k --iodepth=16 --iodepth_batch_submit=4 \
		--iodepth_batch_complete_min=4 \
		--norandommap >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "1024,0,0,0" &&
	sub=$(awk "\$NF == \"io_submit\" { print \$4 }" st0) &&
	get=$(awk "\$NF == \"io_getevents\" { print \$4 }" st0) &&
	echo "io_submit $sub, io_getevents ${get:-0}" &&
	test "$sub" -ge 250 &&
	test "${get:-0}" -lt $((sub / 10))
'

# Writing: every engine must write the same blocks with the same bytes.
dd if=/dev/zero bs=64k count=16 2>/dev/null | tr '\000' '\377' >"$TRASH/ones"

# write_job NAME ENGINE ARGS...: 100 random 4k writes into a copy of
# "ones" (1 MiB of 0xff) called NAME; the random map makes them distinct.
write_job() {
	name=$1
	e=$2
	shift 2
	cp ones "$name" &&
	timeout 60 "$IOLITE" --name=w --ioengine=$e --filename="$name" \
		--rw=randwrite --bs=4k --size=1m --number_ios=100 "$@" \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,100,0,0"
}

engines="psync pvsync2"
test_have_prereq LIBAIO && engines="$engines libaio"
test_have_prereq IO_URING && engines="$engines io_uring"

test_expect_success "same issued counts and bytes on disk: $engines" '
	for e in $engines; do
		write_job z.$e $e --zero_buffers --iodepth=8 || return 1
		test "$(tr -d "\377" <z.$e | wc -c)" = $((100 * 4096)) ||
			return 1
		cmp z.psync z.$e || return 1
	done &&
	! cmp -s ones z.psync
'

# refill_buffers: each write's contents drawn in issue order, so they do
# not follow which buffer an engine frees first (scrambling, the default,
# differs from run to run, as fio's)
test_expect_success "random buffer contents, same bytes from: $engines" '
	for e in $engines; do
		write_job r.$e $e --refill_buffers || return 1
		cmp r.psync r.$e || return 1
	done &&
	test "$(tr -d "\377" <r.psync | wc -c)" -gt $((99 * 4096))
'

for opts in "--fixedbufs" "--registerfiles" "--nonvectored=0" \
	"--sqthread_poll" "--sqthread_poll --sqthread_poll_cpu=0" \
	"--force_async=1" "--force_async=3" \
	"--fixedbufs --registerfiles --sqthread_poll --force_async=2"; do
	test_expect_success_if IO_URING "io_uring $opts: runs and writes right" "
		write_job u io_uring $opts --refill_buffers &&
		cmp r.psync u &&
		write_job uz io_uring $opts --zero_buffers --iodepth=8 &&
		cmp z.psync uz &&
		aio_job io_uring --iodepth=8 $opts
	"
done

test_expect_success_if IO_URING 'io_uring force_async=1: the io-wq workers are reported' '
	aio_job io_uring --iodepth=8 --force_async=1 &&
	grep "^  io_uring wq  : threads=[1-9][0-9]* (max [1-9][0-9]* at once), cpu=" out
'

test_expect_success_if IO_URING,JQ 'io_uring force_async=1: the io-wq workers in JSON' '
	"$IOLITE" --name=q --ioengine=io_uring --filename=data \
		--rw=randread --bs=4k --iodepth=8 --force_async=1 \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(jq ".jobs[0].iolite.iowq_threads > 0" out.json)" = true
'

# The ring's task-work mode is the kernel's best (DEFER_TASKRUN where it
# exists), named in the notes; with it, completions are posted only when
# asked for, so polling reaps (complete_min=0) must still see them all.
test_expect_success_if IO_URING 'io_uring: the notes name the task-work mode' '
	aio_job io_uring --iodepth=8 &&
	grep -E "^  io_uring: (single_issuer, defer_taskrun|coop_taskrun|default task work)" out &&
	aio_job io_uring --iodepth=16 --iodepth_batch_complete_min=0 &&
	grep -E "^  io_uring: " out
'

# A batch that fills the queue is followed by a wait: submit_and_wait
# (the default) makes them one io_uring_enter(to_submit, min_complete),
# fio's way (submit_and_wait=0) two, and slat then times the submission
# alone. strace shows the calls' arguments: the ring, then N, M.
enters_both() {
	sed -n "s/^[0-9]* *io_uring_enter(//p" "$1" |
	awk -F", " "\$2 > 0 && \$3 > 0 { n++ } END { print n + 0 }"
}
enters_submit() {
	sed -n "s/^[0-9]* *io_uring_enter(//p" "$1" |
	awk -F", " "\$2 > 0 { n++ } END { print n + 0 }"
}
test_expect_success_if IO_URING,STRACE 'io_uring submit_and_wait: one call submits a full queue and waits' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" &&
	export ASAN_OPTIONS &&
	for sw in 1 0; do
		strace -f -qq -o st$sw -e trace=io_uring_enter \
			"$IOLITE" --name=q --ioengine=io_uring --filename=data \
			--rw=randread --bs=4k --iodepth=16 \
			--iodepth_batch_submit=8 --iodepth_batch_complete_min=8 \
			--norandommap --submit_and_wait=$sw >out$sw 2>err &&
		test_must_be_empty err &&
		test "$(issued out$sw)" = "1024,0,0,0" || return 1
	done &&
	both=$(enters_both st1) && sub=$(enters_submit st1) &&
	echo "submit_and_wait=1: $both of $sub submitting calls waited" &&
	test "$sub" -ge 100 && test "$both" -ge $((sub * 9 / 10)) &&
	test "$(enters_both st0)" = 0 &&
	test "$(enters_submit st0)" -ge 100 &&
	grep "^  io_uring: .*; [0-9]*% of submissions waited in the same call (submit_and_wait: its time is in clat, not slat)" out1 &&
	! grep "submissions waited" out0 &&
	grep "^    slat" out0 && grep "^    slat" out1
'

test_expect_success_if IO_URING 'submit_and_wait is io_uring'"'"'s own option' '
	test_must_fail "$IOLITE" --name=q --ioengine=libaio --filename=data \
		--rw=randread --bs=4k --submit_and_wait=0 >out 2>err &&
	grep "submit_and_wait" err
'

test_expect_success_if IO_URING 'io_uring sqthread_poll: no task-work flags' '
	"$IOLITE" --name=q --ioengine=io_uring --filename=data --rw=randread \
		--bs=4k --size=1m --iodepth=4 --sqthread_poll=1 >out 2>err ||
	grep "sqthread_poll needs" err ||
	grep "^  io_uring: default task work" out
'

test_expect_success_if IO_URING 'io_uring hipri without direct=1 says why' '
	test_must_fail timeout 20 "$IOLITE" --name=h --ioengine=io_uring \
		--filename=data --rw=randread --bs=4k --hipri >out 2>err &&
	grep "option .hipri.: io_uring polled completions need direct=1" err &&
	test "$(wc -l <err)" = 1 &&
	test_must_be_empty out
'

# tmpfs takes O_DIRECT (Linux 6.6 and later) but has no block device
shm=$TRASH_SHM/hipri
if test_have_prereq IO_URING,SHM_ODIRECT; then
	test_expect_success 'io_uring hipri on a file with no block device' "
		dd if=/dev/zero of=$shm bs=64k count=4 oflag=direct 2>/dev/null &&
		test_must_fail timeout 20 \"\$IOLITE\" --name=h \
			--ioengine=io_uring --filename=$shm --rw=randread \
			--bs=4k --hipri --direct=1 >out 2>err &&
		grep \"hipri: '$shm' is not on a block device\" err &&
		test \"\$(wc -l <err)\" = 1
	"
else
	test_expect_success_if IO_URING,SHM_ODIRECT 'io_uring hipri on a file with no block device' :
fi

if test_have_prereq LOOP,IO_URING; then
	test_expect_success 'io_uring hipri on a loop device: no poll queues' '
		dev=$(test_loop "$TRASH/lo.img" 4M) &&
		{
			timeout 20 "$IOLITE" --name=h --ioengine=io_uring \
				--filename=$dev --rw=randread --bs=4k --hipri \
				--direct=1 >out 2>err
			test $? = 1
		} &&
		grep "has no poll queues" err &&
		grep "$(basename "$dev")\|$dev" err &&
		test "$(wc -l <err)" = 1
	'
else
	test_expect_success_if LOOP,IO_URING 'io_uring hipri on a loop device: no poll queues' :
fi

# fsync=N with a queueing engine: a sync after every N-th write, each
# after the writes before it completed (strace sees the fsyncs of libaio,
# which syncs inline; io_uring's are ring operations, counted in JSON)
test_expect_success_if LIBAIO,JQ,STRACE 'fsync=16 and fdatasync=8 with queueing engines' '
	for e in libaio io_uring; do
		test_have_prereq IO_URING || test $e = libaio || continue
		"$IOLITE" --name=s --ioengine=$e --iodepth=8 --filename=fs \
			--size=1m --rw=write --fsync=16 --output-format=json \
			>out.json &&
		test "$(jq ".jobs[0].sync.total_ios" out.json)" = 15 &&
		"$IOLITE" --name=s --ioengine=$e --iodepth=8 --filename=fs \
			--size=256k --rw=randwrite --fdatasync=8 \
			--output-format=json >out.json &&
		test "$(jq ".jobs[0].sync.total_ios" out.json)" = 7 || exit 1
	done &&
	strace -f -e trace=fsync -o st "$IOLITE" --name=s --ioengine=libaio \
		--iodepth=8 --filename=fs --size=64k --rw=write --fsync=4 \
		>/dev/null &&
	test "$(grep -c "fsync(" st)" = 3
'

test_done

#!/bin/sh
# End to end: every rw mode and sync engine, checked through what happened
# (issued counts in the report, bytes on disk), and the run semantics
# (loops, number_ios, time_based, ramp_time, stonewall, numjobs,
# group_reporting, startdelay, wait_for).
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'a write job writes exactly size bytes of zero_buffers' '
	"$IOLITE" --name=w --rw=write --bs=4k --size=1m --ioengine=psync \
		--zero_buffers --filename=f >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,256,0,0" &&
	test "$(stat -c %s f)" = 1048576 &&
	cmp -n 1048576 f /dev/zero
'

test_expect_success 'default write buffers are not zeros' '
	"$IOLITE" --name=w --rw=write --bs=4k --size=256k --ioengine=psync \
		--filename=g >out 2>err &&
	test_must_be_empty err &&
	test "$(stat -c %s g)" = 262144 &&
	! cmp -s -n 262144 g /dev/zero
'

test_expect_success 'randwrite with the random map writes every block' '
	dd if=/dev/zero bs=64k count=4 2>/dev/null | tr "\000" "\377" >r &&
	"$IOLITE" --name=w --rw=randwrite --bs=4k --size=256k \
		--ioengine=psync --zero_buffers --filename=r >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,64,0,0" &&
	cmp -n 262144 r /dev/zero
'

for engine in sync psync vsync pvsync pvsync2; do
	test_expect_success "engine $engine: write then read back, same counts" "
		\"\$IOLITE\" --name=w --rw=write --bs=8k --size=512k \
			--ioengine=$engine --filename=e-$engine >out 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out)\" = \"0,64,0,0\" &&
		\"\$IOLITE\" --name=r --rw=randread --bs=8k --size=512k \
			--ioengine=$engine --filename=e-$engine >out2 2>err &&
		test_must_be_empty err &&
		test \"\$(issued out2)\" = \"64,0,0,0\" &&
		grep -q 'READ: bw=.*io=512KiB' out2
	"
done

test_expect_success 'engines write the same bytes for the same job' '
	for e in sync psync vsync pvsync pvsync2; do
		"$IOLITE" --name=w --rw=randwrite --bs=4k --size=128k \
			--ioengine=$e --refill_buffers --randseed=7 \
			--filename=same-$e >/dev/null || return 1
	done &&
	test "$(stat -c %s same-psync)" = 131072
'

test_expect_success 'rw=rw mixes reads and writes, totals add up' '
	"$IOLITE" --name=m --rw=rw --bs=4k --size=1m --ioengine=psync \
		--filename=m >out 2>err &&
	test_must_be_empty err &&
	t=$(issued out) &&
	r=${t%%,*} && rest=${t#*,} && w=${rest%%,*} &&
	test $((r + w)) = 256 && test "$r" -gt 0 && test "$w" -gt 0
'

test_expect_success 'randrw with rwmixread=100 only reads' '
	"$IOLITE" --name=m --rw=randrw --rwmixread=100 --bs=4k --size=1m \
		--ioengine=psync --filename=m >out 2>err &&
	test "$(issued out)" = "256,0,0,0"
'

test_expect_success 'null engine: number_ios caps the I/Os' '
	"$IOLITE" --name=n --ioengine=null --rw=randread --size=1g \
		--number_ios=1000 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "1000,0,0,0"
'

test_expect_success 'loops repeats the pass' '
	"$IOLITE" --name=n --ioengine=null --rw=read --size=1m --loops=3 \
		>out 2>err &&
	test "$(issued out)" = "768,0,0,0"
'

test_expect_success 'time_based wraps around the region' '
	"$IOLITE" --name=n --ioengine=null --rw=randread --size=64k \
		--runtime=200ms --time_based >out 2>err &&
	test_must_be_empty err &&
	n=$(issued out) && test "${n%%,*}" -gt 16
'

test_expect_success 'runtime caps a size-bound job' '
	"$IOLITE" --name=n --ioengine=null --rw=read --size=1p \
		--runtime=100ms >out 2>err &&
	grep -q "run=[0-9]*-[0-9]*msec" out &&
	run=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	# runtime only (the ramp is not in it); a sanitizer under load can
	# start the measured phase a few ms late, so 50, not 100
	{ test -n "$run" && test "$run" -ge 50 && test "$run" -lt 5000 ||
	  { cat out; false; }; }
'

test_expect_success 'ramp_time is not in the measured time' '
	"$IOLITE" --name=n --ioengine=null --rw=read --size=4k \
		--ramp_time=500ms --runtime=100ms --time_based >out 2>err &&
	test_must_be_empty err &&
	run=$(sed -n "s/.*run=\([0-9]*\)-.*/\1/p" out) &&
	# runtime only: with the ramp it would be 600 ms or more; a
	# sanitizer under load can start the measured phase a few ms late,
	# so 50, not 100
	{ test -n "$run" && test "$run" -ge 50 && test "$run" -lt 500 ||
	  { cat out; false; }; }
'

# fio: the ramp does not make the job longer; all of it counts, no latency
test_expect_success 'a job that ends during ramp_time counts all of its I/O' '
	"$IOLITE" --name=n --ioengine=null --rw=write --size=256k --bs=4k \
		--loops=2 --ramp_time=5s >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,128,0,0" &&
	grep "write: IOPS=.*(512KiB/" out &&
	! grep "clat" out &&
	grep "ended during its ramp_time" out
'

# fio's count: the sync after every N writes comes before the next one,
# so none follows the last (t1740 has the whole rule)
test_expect_success 'fsync=N issues a sync every N writes' '
	"$IOLITE" --name=w --rw=write --bs=4k --size=64k --fsync=4 \
		--ioengine=psync --filename=s >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,16,0,3"
'

# fio's HOWTO: each instance picks its delay from the range
test_expect_success 'startdelay=lo-hi: each instance waits a delay from the range' '
	start=$(date +%s%N) &&
	"$IOLITE" --name=d --ioengine=null --rw=read --size=4k \
		--startdelay=300ms-400ms --numjobs=3 --debug=job >out 2>err &&
	end=$(date +%s%N) &&
	sed -n "s/.* starts \([0-9]*\) us late (startdelay)/\1/p" out >delays &&
	test $(wc -l <delays) = 3 &&
	test $(sort -u delays | wc -l) -gt 1 &&
	while read d; do
		test "$d" -ge 300000 && test "$d" -le 400000 || return 1
	done <delays &&
	test $(((end - start) / 1000000)) -ge 300 &&
	test $(grep -c "issued rwts: total=1,0,0,0 " out) = 3
'

# the HOWTO: a sync after every N writes; reads do not make one due
test_expect_success 'fsync=N in a mixed job: a sync after every Nth write' '
	"$IOLITE" --name=m --rw=randrw --bs=4k --size=1m --fsync=3 \
		--number_ios=200 --write_iolog=m.log --filename=m >out 2>err &&
	test_must_be_empty err &&
	awk "\$3 == \"write\" { w++ } \$3 == \"read\" { r++ }
	     \$3 == \"sync\" { if (w != 3) bad++; s++; w = 0 }
	     END { print s + 0, r + 0, bad + 0 }" m.log >got &&
	read syncs reads bad <got &&
	test "$bad" = 0 && test "$reads" -gt 50 && test "$syncs" -gt 20
'

# fio leaves end_fsync's sync out of the counts (t1740 counts the calls)
test_expect_success 'end_fsync syncs at the end, outside the counts' '
	"$IOLITE" --name=w --rw=write --bs=4k --size=64k --end_fsync=1 \
		--ioengine=psync --filename=s >out 2>err &&
	test "$(issued out)" = "0,16,0,0"
'

test_expect_success 'numjobs clones share the name, one report each' '
	"$IOLITE" --name=c --ioengine=null --rw=read --size=1m --numjobs=2 \
		>out 2>err &&
	test "$(grep -c "^c: (groupid=0, jobs=1)" out)" = 2
'

test_expect_success 'group_reporting merges the clones' '
	"$IOLITE" --name=c --ioengine=null --rw=read --size=1m --numjobs=3 \
		--group_reporting >out 2>err &&
	grep -q "^c: (groupid=0, jobs=3)" out &&
	test "$(issued out)" = "768,0,0,0"
'

test_expect_success 'stonewall starts a new group' '
	cat >sw.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[a]
	rw=read
	[b]
	stonewall
	rw=write
	EOF
	"$IOLITE" sw.fio >out 2>err &&
	test_must_be_empty err &&
	grep -q "^a: (groupid=0" out &&
	grep -q "^b: (groupid=1" out &&
	grep -q "^Run status group 1 (all jobs):" out
'

test_expect_success 'startdelay and wait_for order the jobs' '
	"$IOLITE" --name=first --ioengine=null --rw=read --size=1m \
		--startdelay=100ms --name=second --ioengine=null --rw=read \
		--size=1m --wait_for=first >out 2>err &&
	test_must_be_empty err &&
	grep -q "^second:" out
'

# fio refuses all three ("waitee job b unknown", "a job cannot wait for
# itself"); a cycle hung for ever, the other two were ignored
test_expect_success 'wait_for names an earlier job: a later one, itself or none is refused' '
	printf "[a]\nwait_for=b\nsize=64k\n[b]\nwait_for=a\nsize=64k\n" >cyc.fio &&
	test_must_fail "$IOLITE" cyc.fio >out 2>err &&
	echo "iolite: cyc.fio:2: option '\''wait_for'\'': job '\''b'\'' comes after job '\''a'\'': wait_for names an earlier job (jobs waiting for later ones could wait for each other for ever)" >expect &&
	test_cmp expect err &&
	printf "[a]\nsize=64k\nwait_for=a\n" >self.fio &&
	test_must_fail "$IOLITE" self.fio >out 2>err &&
	grep "^iolite: self.fio:3: option .wait_for.: job .a. cannot wait for itself$" err &&
	test_must_fail "$IOLITE" --name=a --size=64k --wait_for=zz >out 2>err &&
	grep "^iolite: <cmdline>:3: option .wait_for.: no job .zz. (wait_for names an earlier job)$" err &&
	test_path_is_missing a.0.0 && test_path_is_missing b.0.0
'

test_expect_success 'time_based without a runtime is refused (it would never end)' '
	test_must_fail "$IOLITE" --name=t --size=64k --time_based >out 2>err &&
	grep "^iolite: <cmdline>:3: option .time_based.: needs a runtime (runtime=): without one the job would never end$" err &&
	test_path_is_missing t.0.0 &&
	"$IOLITE" --name=t --ioengine=null --size=64k --time_based \
		--runtime=100ms >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'rw=trim punches every block out of a file' '
	"$IOLITE" --name=w --rw=write --bs=64k --size=1m --filename=tr \
		>/dev/null &&
	test "$(du -k tr | cut -f1)" -ge 1024 &&
	"$IOLITE" --name=t --rw=trim --bs=64k --size=1m --filename=tr \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,0,16,0" &&
	grep -q "^   TRIM: bw=" out &&
	test "$(du -k tr | cut -f1)" = 0 &&
	test "$(stat -c %s tr)" = 1048576
'

test_expect_success 'rw=trimwrite trims then writes each block' '
	"$IOLITE" --name=t --rw=trimwrite --bs=64k --size=1m --filename=tr \
		--zero_buffers >out 2>err &&
	test "$(issued out)" = "0,16,16,0" &&
	test "$(du -k tr | cut -f1)" -ge 1024
'

test_expect_success 'rw=randtrim trims every block once with the map' '
	"$IOLITE" --name=t --rw=randtrim --bs=64k --size=1m --filename=tr \
		>out 2>err &&
	test "$(issued out)" = "0,0,16,0" &&
	test "$(du -k tr | cut -f1)" = 0
'

test_done

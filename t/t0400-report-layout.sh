#!/bin/sh
# The normal report has fio's layout: run fio and iolite on the same jobs
# and compare the reports' line structure and labels once every measured
# number is replaced by '#'. Lines whose presence depends on measured
# values (the lat bucket lines, the percentile rows whose per-line count
# follows the widest value) are compared separately.

. "$(dirname "$0")/test-lib.sh"

test_require FIO

. "$TEST_DIR/lib-report.sh"

# compare NAME ARGS...: runs both tools, compares normalised reports.
# A run that hangs fails after a minute rather than stalling the suite.
compare() {
	name=$1
	shift
	timeout 60 fio "$@" >"$name.fio" 2>"$name.fio.err" &&
	timeout 60 "$IOLITE" "$@" >"$name.iolite" 2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	normalize "$name.fio" | drop_samples >"$name.fio.norm" &&
	normalize "$name.iolite" | drop_samples >"$name.iolite.norm" &&
	test_cmp "$name.fio.norm" "$name.iolite.norm" &&
	pct_labels "$name.fio" >"$name.fio.pct" &&
	pct_labels "$name.iolite" >"$name.iolite.pct" &&
	test_cmp "$name.fio.pct" "$name.iolite.pct" &&
	grep -qE '^  lat \((nsec|usec|msec)\)   : ' "$name.iolite"
}

test_expect_success 'normaliser hides numbers, keeps labels' '
	cat >in <<-\EOF &&
	  read: IOPS=2048k, BW=8000MiB/s (8389MB/s)(64.0MiB/8msec)
	    clat (usec): min=2, max=183, avg= 4.65, stdev= 6.37
	   bw (  MiB/s): min=11365, max=12744, per=100.00%, avg=12276.71, stdev=788.90, samples=3
	  lat (nsec)   : 20=54.50%, 50=45.25%
	     |  1.00th=[   10],  5.00th=[   10], 10.00th=[   10], 20.00th=[   10],
	EOF
	cat >expect <<-\EOF &&
	  read: IOPS=#, BW=#B/s (#B/s)(#B/#msec)
	    clat (UNIT): min=#, max=#, avg=#, stdev=#
	   bw (UNIT/s): min=#, max=#, per=#%, avg=#, stdev=#, samples=#
	EOF
	normalize in >actual &&
	test_cmp expect actual
'

test_expect_success "normaliser drops iolite's own lines and notes" '
	cat >in <<-\EOF &&
	  cpu          : usr=0.65%, sys=40.86%, ctx=4000, majf=0, minf=14
	  iolite       : usr=12.5ns/IO, clock=tsc
	  io_uring wq  : threads=3 (max 2 at once), cpu=1.5ms (usr+sys)
	  IO depths    : 1=100.0%

	Run status group 0 (all jobs):

	Notes:
	  clock: a note
	EOF
	cat >expect <<-\EOF &&
	  cpu          : usr=#%, sys=#%, ctx=#, majf=#, minf=#
	  IO depths    : #=#%

	Run status group # (all jobs):
	EOF
	normalize in >actual &&
	test_cmp expect actual
'

test_expect_success 'randread on the null engine' '
	compare randread --name=a --ioengine=null --rw=randread --size=64m --bs=4k
'

test_expect_success 'randrw: a block per direction' '
	compare randrw --name=a --ioengine=null --rw=randrw --size=64m --bs=4k &&
	grep -q "^  read: IOPS=" randrw.iolite &&
	grep -q "^  write: IOPS=" randrw.iolite &&
	grep -q "^   READ: bw=" randrw.iolite &&
	grep -q "^  WRITE: bw=" randrw.iolite
'

test_expect_success 'numjobs=2: two reports of the same name' '
	compare nj2 --name=a --ioengine=null --rw=read --size=64m --bs=4k \
		--numjobs=2 &&
	test $(grep -c "^a: (groupid=0, jobs=1)" nj2.iolite) = 2
'

test_expect_success 'numjobs=2 group_reporting: one merged report' '
	compare njgr --name=a --ioengine=null --rw=read --size=64m --bs=4k \
		--numjobs=2 --group_reporting &&
	test $(grep -c "^a: (groupid=0, jobs=2)" njgr.iolite) = 1
'

test_expect_success 'two stonewalled jobs: two run status groups' '
	compare sw --name=a --ioengine=null --rw=read --size=64m --bs=4k \
		--name=b --stonewall --ioengine=null --rw=write --size=32m \
		--bs=64k &&
	grep -q "^Run status group 1 (all jobs):" sw.iolite
'

test_expect_success 'time_based: bw and iops sample lines' '
	compare tb --name=a --ioengine=null --rw=read --size=64m --bs=4k \
		--time_based --runtime=1 &&
	grep -q "^   bw (" tb.iolite &&
	grep -q "^   iops        : " tb.iolite
'

# Disk stats: a loop device over a scratch file.
loopdev=
if test_have_prereq LOOP; then
	loopdev=$(test_loop "$TRASH/disk.img" 64m 2>/dev/null) || loopdev=
fi

if test -n "$loopdev"; then
	test_expect_success 'block device: disk stats of the loop device' '
		no_samples=1 &&
		compare disk --name=a --ioengine=psync --rw=randread \
			--size=16m --bs=4k --direct=1 --filename=$loopdev &&
		grep -q "^Disk stats (read/write):" disk.iolite &&
		grep -q "^  ${loopdev#/dev/}: ios=[0-9]*/0, merge=" disk.iolite
	'
else
	test_expect_success_if LOOP 'block device: disk stats of the loop device' :
fi

test_done

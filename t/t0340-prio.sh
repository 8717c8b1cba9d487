#!/bin/sh
# I/O priorities: prio, prioclass, cmdprio_percentage, cmdprio_class,
# cmdprio, cmdprio_bssplit. Options parse (and fail) as fio 3.33's; the
# priorities reach the kernel (the job thread's, read back by
# ioprio_get; each request's, seen by the block layer's block_rq_issue
# tracepoint on a loop device); the per-priority latency blocks are laid
# out as fio's in the normal report, JSON and json+, with counts within
# the percentage's binomial bounds; the logs' priority column is fio's;
# notes say where priorities have no effect; the real-time class is
# refused up front without CAP_SYS_NICE.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

test_require PYTHON3
JSONCMP="$TEST_DIR/jsoncmp.py"

# prios.py FILE DIR...: per direction, "DIR class/level:N" per entry of
# its "prios" (nothing without them), then "DIR total:N" (its
# completions).
cat >"$TRASH/prios.py" <<\EOF
import json, sys
doc = json.load(open(sys.argv[1]))
for d in sys.argv[2:]:
    blk = doc["jobs"][0][d]
    for p in blk.get("prios", []):
        lat = p.get("clat_ns", p.get("lat_ns"))
        print("%s %d/%d:%d" % (d, p["prioclass"], p["prio"], lat["N"]))
    print("%s total:%d" % (d, blk["clat_ns"]["N"]))
EOF

# binomial K N P: K within 5 standard deviations of N * P
binomial() {
	awk -v k="$1" -v n="$2" -v p="$3" 'BEGIN {
		d = k - n * p; if (d < 0) d = -d
		if (d <= 5 * sqrt(n * p * (1 - p)) + 1) exit 0
		print k " of " n " is not " p * 100 "%"; exit 1 }'
}

# count FILE PRIO: the N of "PRIO:N" in prios.py output (0 when absent)
count() {
	sed -n "s|^$2:||p" "$1" | grep . || echo 0
}

# --- options -------------------------------------------------------------

test_expect_success_if IO_URING_BUILT,LIBAIO_BUILT 'the options parse; --parse-only shows them canonical' '
	"$IOLITE" --name=j --filename=f --size=1m --ioengine=io_uring \
		--prio=4 --prioclass=2 --cmdprio_percentage=50,20 \
		--cmdprio_class=2,3 --cmdprio=3 --parse-only >out &&
	grep -qx "prio=4" out && grep -qx "prioclass=2" out &&
	grep -qx "cmdprio_percentage=50,20" out &&
	grep -qx "cmdprio_class=2,3" out && grep -qx "cmdprio=3" out &&
	"$IOLITE" --name=j --filename=f --size=1m --ioengine=libaio \
		--cmdprio_bssplit=8k/20/2/3:4k/10::16k/0,4k/100 --parse-only >out &&
	grep -qx "cmdprio_bssplit=4096/10:8192/20/2/3,4096/100" out
'

# bad value | what iolite says [| fio: what fio 3.33 does instead]
cat >"$TRASH/bad.txt" <<\EOF
--ioengine=io_uring --cmdprio_percentage=101|option 'cmdprio_percentage': 101 is out of range (0..100)
--ioengine=io_uring --cmdprio_class=0|option 'cmdprio_class': 0 is out of range (1..3)
--ioengine=io_uring --cmdprio_class=1,4|option 'cmdprio_class': 4 is out of range (1..3)|fio: prints the error, runs
--ioengine=io_uring --cmdprio=8|option 'cmdprio': 8 is out of range (0..7)
--ioengine=psync --prio=8|option 'prio': 8 is out of range (0..7)
--ioengine=psync --prioclass=4|option 'prioclass': 4 is out of range (0..3)
--ioengine=psync --cmdprio_percentage=10|option 'cmdprio_percentage' is not valid with ioengine 'psync' (only io_uring, io_uring_cmd, libaio
--ioengine=io_uring --cmdprio_percentage=10 --cmdprio_bssplit=4k/10|options 'cmdprio_percentage' and 'cmdprio_bssplit' are mutually exclusive
--ioengine=io_uring --cmdprio_bssplit=4k/60:4k/50|the percentages for block size 4096 add up to 110, more than 100
--ioengine=io_uring --cmdprio_bssplit=4k/10/1|a class needs a level
--ioengine=io_uring --cmdprio_bssplit=foo/10|invalid block size 'foo'
--ioengine=io_uring --cmdprio_bssplit=4k/10/4/0|invalid class '4' (0..3)|fio: clamps to 3
EOF

# bad_values ENGINE: the lines of bad.txt for ioengine ENGINE
bad_values() {
	while IFS="|" read -r args msg fio; do
		case $args in --ioengine=$1\ *) ;; *) continue ;; esac
		test_must_fail "$IOLITE" --name=j --filename=made --size=1m \
			--number_ios=4 $args >out 2>err &&
		grep -qF "iolite: <cmdline>:" err &&
		grep -qF "$msg" err &&
		test_must_be_empty out &&
		test_path_is_missing made || { echo "for: $args"; cat err; return 1; }
	done <bad.txt
}

test_expect_success 'bad values (psync): an error naming the option, nothing created' '
	bad_values psync
'

test_expect_success_if IO_URING_BUILT 'bad values (io_uring): an error naming the option, nothing created' '
	bad_values io_uring
'

test_expect_success_if FIO 'fio 3.33 refuses the same values (but two)' '
	while IFS="|" read -r args msg fio; do
		test -z "$fio" || continue
		test_must_fail fio --name=j --filename=fmade --size=1m \
			--number_ios=4 $args >out 2>&1 ||
			{ echo "fio took: $args"; exit 1; }
	done <bad.txt
'

test_expect_success 'a job file: the error names file and line' '
	printf "[j]\nfilename=made\nsize=1m\nioengine=psync\ncmdprio=2\n" >bad.fio &&
	test_must_fail "$IOLITE" bad.fio 2>err &&
	grep -q "^iolite: bad.fio:5: option .cmdprio. is not valid with ioengine .psync." err
'

# --- the job thread's priority --------------------------------------------

test_expect_success 'psync: ioprio_set on the job thread, ioprio_get agrees' '
	"$IOLITE" --debug=process --name=j --filename=f --size=1m \
		--ioengine=psync --prioclass=3 --prio=7 --number_ios=8 \
		--output-format=terse >out 2>err &&
	grep -q "job .j. thread [0-9]*: ioprio_set 0x6007 (class 3, level 7), ioprio_get 0x6007" out &&
	"$IOLITE" --debug=process --name=j --filename=f --size=1m \
		--ioengine=psync --prio=2 --number_ios=8 \
		--output-format=terse >out 2>err &&
	grep -q "ioprio_set 0x4002 (class 2, level 2), ioprio_get 0x4002" out
'

test_expect_success 'no priority options: no ioprio_set' '
	"$IOLITE" --debug=process --name=j --filename=f --size=1m \
		--ioengine=psync --number_ios=8 --output-format=terse >out 2>err &&
	! grep -q ioprio_set out
'

# --- reports --------------------------------------------------------------

for eng in io_uring libaio; do
	have=IO_URING
	[ $eng = libaio ] && have=LIBAIO
	test_expect_success_if $have "$eng: per-priority counts within the share" "
		\"\$IOLITE\" --name=j --filename=f --size=8m --bs=4k \
			--rw=randrw --ioengine=$eng --iodepth=4 --number_ios=2000 \
			--cmdprio_percentage=40,10 --cmdprio_class=2 \
			--cmdprio=1,6 --output-format=json >out.json &&
		python3 prios.py out.json read write >rw &&
		sed -n \"s/^read //p\" rw >r && sed -n \"s/^write //p\" rw >w &&
		test \$(grep -c / r) = 2 && test \$(grep -c / w) = 2 &&
		nr=\$(count r total) && nw=\$(count w total) &&
		test \$((nr + nw)) = 2000 &&
		test \$((\$(count r 0/0) + \$(count r 2/1))) = \$nr &&
		test \$((\$(count w 0/0) + \$(count w 2/6))) = \$nw &&
		binomial \$(count r 2/1) \$nr 0.40 &&
		binomial \$(count w 2/6) \$nw 0.10
	"
done

# The jobs below that use the real-time class (cmdprio_class's default)
# need CAP_SYS_NICE: iolite refuses them otherwise, so they need ROOT.

# split_report OUT TEXT JSON: a normal,json(+) output cut in its two
# reports (the JSON one: from a "{" line to a "}" line)
split_report() {
	sed -n "/^{$/,/^}$/p" "$1" >"$3" && test -s "$3" &&
	sed "/^{$/,/^}$/d" "$1" >"$2"
}

# compare NAME ARGS...: the same job through fio and iolite; normal report
# line structure, json+ keys and types (fmt=json: JSON's), both reports
# of one run (a fio costs 0.2 s of CPU to start)
compare() {
	name=$1
	shift
	fio "$@" --output-format=normal,${fmt:-json+} >$name.f.out \
		2>$name.fio.err &&
	"$IOLITE" "$@" --output-format=normal,${fmt:-json+} >$name.i.out \
		2>$name.err &&
	test_must_be_empty $name.err &&
	split_report $name.f.out $name.fio $name.f.json &&
	split_report $name.i.out $name.iolite $name.i.json &&
	normalize $name.fio | no_samples=1 drop_samples >$name.fn &&
	normalize $name.iolite | no_samples=1 drop_samples >$name.in &&
	test_cmp $name.fn $name.in &&
	python3 "$JSONCMP" $name.f.json $name.i.json
}

test_expect_success_if FIO,IO_URING,ROOT 'io_uring: report layout as fio 3.33' '
	fmt=json compare u --name=j --filename=f --size=8m --bs=4k --rw=randrw \
		--ioengine=io_uring --iodepth=4 --number_ios=2000 \
		--cmdprio_percentage=50,30 --cmdprio_class=1,2 &&
	grep -q "^    clat prio 1/0 (" u.iolite &&
	grep -q "^    clat prio 2/0 ([0-9.]*% of IOs) percentiles" u.iolite &&
	grep -q "^    clat prio 0/0 ([0-9.]*% of IOs) percentiles" u.iolite
'

test_expect_success_if FIO,LIBAIO,ROOT 'libaio, lat_percentiles: "lat prio" blocks as fio' '
	compare a --name=j --filename=f --size=8m --bs=4k --rw=randread \
		--ioengine=libaio --iodepth=4 --number_ios=2000 \
		--cmdprio_percentage=50 --lat_percentiles=1 &&
	grep -q "^    lat prio 1/0 ([0-9.]*% of IOs) percentiles" a.iolite &&
	grep -q "\"lat_ns\"" a.i.json && ! grep -q "clat prio" a.iolite
'

test_expect_success_if FIO,IO_URING,ROOT 'cmdprio_bssplit and unified_rw_reporting as fio' '
	compare b --name=j --filename=f --size=8m --bssplit=4k/50:8k/50 \
		--rw=randrw --ioengine=io_uring --iodepth=4 --number_ios=2000 \
		--cmdprio_bssplit=4k/30/2/3:4k/70/3/1,8k/50 \
		--unified_rw_reporting=mixed &&
	grep -q "^  mixed: " b.iolite && grep -q "clat prio 3/1" b.iolite &&
	compare m --name=j --filename=f --size=8m --bs=4k --rw=randrw \
		--ioengine=io_uring --iodepth=4 --number_ios=2000 \
		--cmdprio_percentage=50 --clat_percentiles=0 &&
	! grep -q "% of IOs" m.iolite && grep -q "clat prio 1/0 (" m.iolite
'

cat >"$TRASH/group.fio" <<\EOF
[global]
filename=f
size=8m
bs=4k
rw=randread
number_ios=200
ioengine=psync
group_reporting

[a]
prio=3
[b]
prioclass=3
prio=7
[c]
EOF

test_expect_success_if FIO 'group_reporting, differing prio: per priority as fio' '
	# f laid out already (by the io_uring tests, when they run): neither
	# report has a "Laying out" line
	truncate -s 8m f &&
	fio group.fio >g.fio 2>/dev/null && "$IOLITE" group.fio >g.iolite &&
	normalize g.fio | no_samples=1 drop_samples >g.fn &&
	normalize g.iolite | no_samples=1 drop_samples >g.in &&
	test_cmp g.fn g.in &&
	grep "prio .*% of IOs" g.iolite >lines &&
	test $(grep -c "(33.33% of IOs)" lines) = 3 &&
	sed -n "s/^    clat prio \([0-9/]*\) (.*/\1/p" g.iolite >order &&
	printf "2/3\n3/7\n0/0\n2/3\n3/7\n0/0\n" >want && test_cmp want order
'

test_expect_success 'one priority with samples: no per-priority blocks' '
	"$IOLITE" --name=j --filename=f --size=8m --bs=4k --rw=randread \
		--ioengine=psync --prio=3 --number_ios=100 >out &&
	! grep -q "prio " out &&
	"$IOLITE" --name=j --filename=f --size=8m --bs=4k --rw=randread \
		--ioengine=psync --prio=3 --number_ios=100 \
		--output-format=json >out.json &&
	! grep -q "\"prios\"" out.json
'

# --- logs -----------------------------------------------------------------

# logcol PREFIX: "ddir, prio" of every line of the clat log, counted
logcol() {
	cut -d, -f3,5 ${1}_clat.1.log | sort | uniq -c | awk "{ print \$2, \$3 }"
}

test_expect_success_if IO_URING,ROOT 'log_prio: the value in hex, as fio writes it' '
	"$IOLITE" --name=j --filename=f --size=8m --bs=4k --rw=randrw \
		--ioengine=io_uring --number_ios=400 --cmdprio_percentage=100 \
		--cmdprio=2,5 --write_lat_log=L --log_prio=1 \
		--output-format=terse >/dev/null &&
	logcol L >got && printf "0, 0x2002\n1, 0x2005\n" >want &&
	test_cmp want got &&
	"$IOLITE" --name=j --filename=f --size=8m --bs=4k --rw=randrw \
		--ioengine=io_uring --number_ios=400 --cmdprio_percentage=100,0 \
		--prio=5 --write_lat_log=M --output-format=terse >/dev/null &&
	logcol M >got && printf "0, 1\n1, 0\n" >want && test_cmp want got
'

test_expect_success_if FIO,IO_URING,ROOT 'log_prio: the same values as fio 3.33 on the same job' '
	for t in fio "$IOLITE"; do
		rm -f P_clat.1.log &&
		$t --name=j --filename=f --size=8m --bs=4k --rw=randrw \
			--ioengine=io_uring --number_ios=2000 \
			--cmdprio_bssplit=4k/30/2/3:4k/70/3/1,4k/50 --prio=4 \
			--write_lat_log=P --log_prio=1 --output-format=terse \
			>/dev/null 2>&1 &&
		logcol P >$(basename $t).col || exit 1
	done &&
	test_cmp fio.col iolite.col &&
	printf "0, 0x4003\n0, 0x6001\n1, 0x2000\n1, 0x4004\n" >want &&
	test_cmp want iolite.col
'

# --- notes ----------------------------------------------------------------

# A fake sysfs with the device of $TRASH behind a disk whose scheduler
# is $1 (IOLITE_SYSFS_ROOT).
fake_sched() {
	mm=$(stat -c "%Hd:%Ld" "$TRASH") &&
	rm -rf "$TRASH/fake" &&
	mkdir -p "$TRASH/fake/dev/block" "$TRASH/fake/devices/x/block/fakedisk/queue" &&
	ln -s ../../devices/x/block/fakedisk "$TRASH/fake/dev/block/$mm" &&
	echo "$1" >"$TRASH/fake/devices/x/block/fakedisk/queue/scheduler"
}

test_expect_success 'a scheduler that ignores priorities: a note' '
	fake_sched "[none] mq-deadline kyber bfq" &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --ioengine=psync --prio=3 --number_ios=8 >out 2>err &&
	test_must_be_empty err &&
	grep -q "job .j.: I/O priorities have no effect on .f.: the I/O scheduler of fakedisk is .none., which ignores them" out &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --ioengine=psync --prio=3 --number_ios=8 \
		--output-format=json >out.json &&
	sed -n "/\"notes\" : \[/,/\]/p" out.json >notes &&
	grep -q "I/O scheduler of fakedisk is .none., which ignores them" notes
'

test_expect_success 'mq-deadline, bfq, or no priorities: no note' '
	fake_sched "none [mq-deadline] kyber bfq" &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --ioengine=psync --prio=3 --number_ios=8 >out &&
	! grep -q "I/O priorities" out &&
	fake_sched "none mq-deadline kyber [bfq]" &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --ioengine=psync --prio=3 --number_ios=8 >out &&
	! grep -q "I/O priorities" out &&
	fake_sched "[none] mq-deadline" &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --ioengine=psync --number_ios=8 >out &&
	! grep -q "I/O priorities" out
'

test_expect_success 'buffered writes: a note' '
	fake_sched "none [mq-deadline]" &&
	IOLITE_SYSFS_ROOT=$PWD/fake "$IOLITE" --name=j --filename=f \
		--size=1m --rw=write --ioengine=psync --prio=3 >out &&
	grep -q "buffered writes (direct=0) reach the device from the kernel.s writeback" out
'

test_expect_success_if ROOT 'a file on tmpfs: a note' '
	mkdir shm && mount -t tmpfs -o size=8m none shm &&
	"$IOLITE" --name=j --filename=shm/f --size=1m --ioengine=psync \
		--prio=3 --number_ios=8 >out 2>err;
	rc=$?; umount shm; test $rc = 0 &&
	grep -q "job .j.: I/O priorities have no effect on .shm/f.: it is on tmpfs" out
'

# --- the real-time class without CAP_SYS_NICE -------------------------------

test_expect_success_if SETPRIV,IO_URING,LIBAIO_BUILT 'real time without CAP_SYS_NICE: refused up front' '
	chmod 711 "$TRASH" && mkdir -m 1777 open &&
	for args in "--ioengine=psync --prioclass=1" \
		    "--ioengine=io_uring --cmdprio_percentage=10" \
		    "--ioengine=libaio --cmdprio_bssplit=4k/10/1/0"; do
		test_must_fail setpriv --reuid=nobody --regid=nogroup \
			--clear-groups "$IOLITE" --name=j --filename=open/f \
			--size=1m --number_ios=8 $args >out 2>err &&
		grep -q "needs CAP_SYS_NICE or CAP_SYS_ADMIN" err &&
		test_path_is_missing open/f || { cat err; exit 1; }
	done &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOLITE" \
		--name=j --filename=open/f --size=1m --number_ios=8 \
		--ioengine=io_uring --cmdprio_percentage=10 \
		--cmdprio_class=2 --output-format=terse >out 2>err &&
	test_must_be_empty err
'

# --- the kernel sees each request's priority --------------------------------

# A loop device over a scratch file and a trace instance of the block
# layer's block_rq_issue event, which records each request's ioprio.
loopdev= inst= tmount=
if test_have_prereq LOOP && test_have_prereq TRACEFS; then
	loopdev=$(test_loop "$TRASH/disk.img" 64m 2>/dev/null) || loopdev=
	tfs=/sys/kernel/tracing
	if [ -n "$loopdev" ] && [ ! -d $tfs/instances ]; then
		mkdir "$TRASH/tracefs" &&
		mount -t tracefs nodev "$TRASH/tracefs" 2>/dev/null &&
		tfs=$TRASH/tracefs && tmount=$tfs
	fi
	if [ -n "$loopdev" ] && [ -d $tfs/instances ] &&
	   mkdir $tfs/instances/iolite-t0340-$$ 2>/dev/null; then
		inst=$tfs/instances/iolite-t0340-$$
	fi
	test_at_exit='[ -n "$inst" ] && rmdir "$inst"
		[ -n "$tmount" ] && umount "$tmount"'
fi

# traced OUT IOLITE-ARGS...: the run, and "class,level" of each request
# the loop device issued, one a line, in OUT
traced() {
	out=$1
	shift
	mm=$(stat -c "%t:%T" $loopdev) &&
	echo "dev == $(( (0x${mm%:*} << 20) | 0x${mm#*:} ))" \
		>$inst/events/block/block_rq_issue/filter &&
	echo >$inst/trace &&
	echo 1 >$inst/events/block/block_rq_issue/enable &&
	"$IOLITE" --filename=$loopdev --direct=1 "$@" >run.out 2>run.err
	rc=$?
	echo 0 >$inst/events/block/block_rq_issue/enable
	test $rc = 0 && test_must_be_empty run.err &&
	sed -n "s/.* \([a-z]*\),[0-9]*,\([0-9]*\) \[.*/\1,\2/p" $inst/trace >$out
}

if [ -n "$inst" ]; then
	# a request without a priority of its own gets the kernel's default,
	# best effort at a level from the thread's nice value
	dflt=be,$(( ($(nice) + 20) / 5 ))

	test_expect_success_if IO_URING 'io_uring: each request carries its priority (sqe->ioprio)' '
		traced t1 --name=j --size=32m --bs=4k --rw=randread \
			--ioengine=io_uring --iodepth=8 --number_ios=2000 \
			--cmdprio_percentage=30 --cmdprio_class=3 --cmdprio=2 &&
		n=$(wc -l <t1) && at_least $n 1900 &&
		test $(grep -vc "^\(idle,2\|$dflt\)$" t1) = 0 &&
		binomial $(grep -c "^idle,2$" t1) $n 0.30
	'

	test_expect_success_if LIBAIO 'libaio: each request carries its priority (IOCB_FLAG_IOPRIO)' '
		traced t2 --name=j --size=32m --bs=4k --rw=randread \
			--ioengine=libaio --iodepth=8 --number_ios=2000 \
			--cmdprio_bssplit=4k/60/1/5 &&
		n=$(wc -l <t2) && at_least $n 1900 &&
		test $(grep -vc "^\(rt,5\|$dflt\)$" t2) = 0 &&
		binomial $(grep -c "^rt,5$" t2) $n 0.60
	'

	test_expect_success 'psync: every request at the thread.s priority' '
		traced t3 --name=j --size=32m --bs=4k --rw=randread \
			--ioengine=psync --number_ios=500 --prioclass=3 --prio=1 &&
		at_least $(wc -l <t3) 500 && test $(sort -u t3) = idle,1 &&
		traced t4 --name=j --size=32m --bs=4k --rw=randread \
			--ioengine=psync --number_ios=500 &&
		test $(sort -u t4) = $dflt
	'

	test_expect_success_if IO_URING 'io_uring with prio and cmdprio: both values reach the device' '
		traced t5 --name=j --size=32m --bs=4k --rw=randread \
			--ioengine=io_uring --iodepth=8 --number_ios=1000 \
			--prio=1 --cmdprio_percentage=50 &&
		sort -u t5 >got && printf "be,1\nrt,0\n" >want &&
		test_cmp want got
	'

	name=${loopdev#/dev/}
	test_expect_success 'loop device: a note with none, none with mq-deadline' '
		old=$(sed "s/.*\[\(.*\)\].*/\1/" /sys/block/$name/queue/scheduler) &&
		echo none >/sys/block/$name/queue/scheduler &&
		"$IOLITE" --name=j --filename=$loopdev --direct=1 --size=8m \
			--ioengine=psync --prio=3 --number_ios=8 >out1 &&
		echo mq-deadline >/sys/block/$name/queue/scheduler &&
		"$IOLITE" --name=j --filename=$loopdev --direct=1 --size=8m \
			--ioengine=psync --prio=3 --number_ios=8 >out2;
		rc=$?; echo $old >/sys/block/$name/queue/scheduler; test $rc = 0 &&
		grep -q "the I/O scheduler of $name is .none., which ignores them" out1 &&
		! grep -q "I/O priorities" out2
	'
else
	for t in 'io_uring: each request carries its priority (sqe->ioprio)' \
		 'libaio: each request carries its priority (IOCB_FLAG_IOPRIO)' \
		 'psync: every request at the thread.s priority' \
		 'io_uring with prio and cmdprio: both values reach the device' \
		 'loop device: a note with none, none with mq-deadline'; do
		test_count=$((test_count + 1))
		echo "ok $test_count # skip $t (missing LOOP or TRACEFS)"
		test_skipped=$((test_skipped + 1))
	done
fi

test_done

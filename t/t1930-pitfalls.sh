#!/bin/sh
# Pitfalls of issue 16: the tester's own stalls (run-queue delay and
# involuntary context switches in JSON, a note when the worker was
# starved of CPU), numa_cpu_nodes=auto and numa_mem_policy=auto against a
# fake sysfs, and the notes for reads of holes, buffered jobs that fit in
# the page cache, disks that barely moved and files too small for a
# block (the decisions at their thresholds are t/unit/pitfall.c).
. "$(dirname "$0")/test-lib.sh"

cd "$TRASH" || exit 1
NCPU=$(getconf _NPROCESSORS_CONF)
LAST=$((NCPU - 1))

# notes FILE.json: the run's notes, one a line
notes() {
	python3 -c "import json, sys
for n in json.load(open(sys.argv[1]))['iolite']['notes']: print(n)" "$1"
}

# ---- the tester's stalls ----

test_expect_success_if PYTHON3 'JSON carries the stall figures, the note follows them' '
	"$IOLITE" --name=a --ioengine=null --size=1m --time_based \
		--runtime=300ms --output-format=json >a.json &&
	notes a.json >notes &&
	python3 - a.json notes <<-\EOF
	import json, sys
	job = json.load(open(sys.argv[1]))["jobs"][0]
	me = job["iolite"]
	ms, pct, n = me["run_delay_ms"], me["run_delay_pct"], me["nivcsw"]
	assert isinstance(ms, float) and isinstance(pct, float), me
	assert isinstance(n, int) and n >= 0, me
	starved = any("starved of CPU" in l for l in open(sys.argv[2]))
	if ms == -1:	# a kernel without schedstat: no figure, no note
	    assert pct == 0 and not starved, (me, starved)
	    sys.exit(0)
	assert 0 <= ms <= job["job_runtime"] * 1.05 + 5, (ms, job["job_runtime"])
	assert abs(pct - 100.0 * ms / job["job_runtime"]) < 0.5 + pct / 50, me
	assert starved == (pct > 1.0), (starved, pct)
	EOF
'

if ! command -v taskset >/dev/null; then
	test_skip_reason="no taskset (util-linux)"
fi
test_expect_success_if PYTHON3 'a busy thread on the worker'"'"'s cpu: the note says it was starved' '
	cpu=$(taskset -cp $$ | sed "s/.*: //; s/[-,].*//") &&
	test -n "$cpu" || exit 1
	taskset -c "$cpu" sh -c "while :; do :; done" &
	hog=$!
	"$IOLITE" --name=a --ioengine=null --size=1m --time_based \
		--runtime=1 --cpus_allowed="$cpu" --output-format=json >b.json
	ret=$?
	kill $hog && wait $hog
	test $ret = 0 &&
	notes b.json >notes &&
	grep "^job .a.: the tester was starved of CPU: its worker thread was runnable but not running for [0-9.]* ms ([0-9.]*% of [0-9]* ms run; [0-9]* involuntary context switches)" notes &&
	python3 -c "import json; me = json.load(open(\"b.json\"))[\"jobs\"][0][\"iolite\"]; \
		assert me[\"run_delay_pct\"] > 10 and me[\"nivcsw\"] > 0, me"
'
test_skip_reason=

# Alone on a CPU is not quiet on a shared machine: other processes queue
# on every CPU. A real-time worker (SCHED_FIFO) that sleeps between I/Os
# is run at once when it wakes; then the note must stay away.
if ! chrt -f 1 true 2>/dev/null; then
	test_skip_reason="cannot run SCHED_FIFO (chrt, CAP_SYS_NICE)"
fi
test_expect_success_if PYTHON3 'a worker that gets its cpu at once: no stall note' '
	chrt -f 1 "$IOLITE" --name=a --ioengine=null --size=1m --time_based \
		--runtime=1 --thinktime=20ms --output-format=json >c.json &&
	notes c.json >notes &&
	! grep "starved" notes &&
	python3 -c "import json; me = json.load(open(\"c.json\"))[\"jobs\"][0][\"iolite\"]; \
		assert 0 <= me[\"run_delay_pct\"] <= 1, me"
'
test_skip_reason=

# ---- numa_cpu_nodes=auto, numa_mem_policy=auto ----

# two nodes of one cpu each (node0: every cpu but the last), and the
# file system of $TRASH behind a PCI device on node 1
mkdir -p fake/devices/system/node/node0 fake/devices/system/node/node1
echo 0-1 >fake/devices/system/node/possible
NODE0=0
test $LAST -gt 1 && NODE0=0-$((LAST - 1))
echo $NODE0 >fake/devices/system/node/node0/cpulist
echo $LAST >fake/devices/system/node/node1/cpulist
c=0
while test $c -lt $LAST; do
	mkdir -p fake/devices/system/node/node0/cpu$c
	c=$((c + 1))
done
mkdir -p fake/devices/system/node/node1/cpu$LAST
DEV=$(stat -c "%Hd:%Ld" .)
mkdir -p fake/dev/block/$DEV/device/device
echo -1 >fake/dev/block/$DEV/device/numa_node
echo 1 >fake/dev/block/$DEV/device/device/numa_node
FAKE=$PWD/fake

# job_cpus LINE OPTIONS...: the affinity of the job's threads while it
# runs (cpus), the memory policies of the process's threads (maps), taken
# once either has the line LINE (the job's thread has started) or the
# run has ended
job_cpus() {
	want=$1
	shift
	IOLITE_SYSFS_ROOT=$FAKE "$IOLITE" --name=x --ioengine=null \
		--filename=f --size=1m --time_based --runtime=1 \
		--thinktime=10ms --output-format=json "$@" >out 2>err &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		for t in /proc/$pid/task/*; do
			grep "^Cpus_allowed_list:" $t/status
		done >cpus 2>/dev/null
		cat /proc/$pid/task/*/numa_maps >maps 2>/dev/null
		grep -q -- "$want" cpus maps && break
		sleep 0.02
	done
	wait $pid
}

test_expect_success_if SMP 'without auto, the note names the node the job should use' '
	IOLITE_SYSFS_ROOT=$FAKE "$IOLITE" --name=x --ioengine=null \
		--filename=f --size=1m --output-format=json >out 2>err &&
	test_must_be_empty err &&
	grep "job .x. may run on cpu 0, which is not on numa node 1 of .f.: numa_cpu_nodes=auto (or =1) runs it on that node" out
'

test_expect_success_if SMP 'numa_cpu_nodes=auto runs the job on its device'"'"'s node' '
	job_cpus "^Cpus_allowed_list:	$LAST$" --numa_cpu_nodes=auto &&
	test_must_be_empty err &&
	grep -x "Cpus_allowed_list:	$LAST" cpus &&
	! grep "numa node" out
'

test_expect_success_if SMP 'numa_cpu_nodes=auto follows the device to node 0' '
	echo 0 >fake/dev/block/$DEV/device/numa_node &&
	job_cpus "^Cpus_allowed_list:	$NODE0$" --numa_cpu_nodes=auto &&
	grep -x "Cpus_allowed_list:	$NODE0" cpus &&
	! grep -x "Cpus_allowed_list:	$LAST" cpus
'

test_expect_success 'numa_mem_policy=auto binds the job to its device'"'"'s node' '
	echo 0 >fake/dev/block/$DEV/device/numa_node &&
	job_cpus " bind:0 " --numa_mem_policy=auto &&
	test_must_be_empty err &&
	grep -q " bind:0 " maps
'

test_expect_success 'numa_mem_policy=auto: a node the kernel lacks fails, saying which' '
	echo 1 >fake/dev/block/$DEV/device/numa_node &&
	IOLITE_SYSFS_ROOT=$FAKE test_must_fail "$IOLITE" --name=x \
		--ioengine=null --filename=f --size=1m \
		--numa_mem_policy=auto >out 2>err &&
	grep "numa_mem_policy .auto. (bind:1): set_mempolicy:" err
'

test_expect_success_if SMP 'auto and a cpus_allowed without the node'"'"'s cpus: refused' '
	IOLITE_SYSFS_ROOT=$FAKE test_must_fail "$IOLITE" --name=x \
		--ioengine=null --filename=f --size=1m --numa_cpu_nodes=auto \
		--cpus_allowed=0 2>err &&
	grep "option .numa_cpu_nodes.: auto: no cpu of numa node 1 (the job.s target.s) is in cpus_allowed" err
'

test_expect_success 'auto with a target sysfs says nothing about: refused before any file' '
	rm -r fake/dev &&
	IOLITE_SYSFS_ROOT=$FAKE test_must_fail "$IOLITE" --name=x \
		--ioengine=psync --filename=g --size=1m \
		--numa_cpu_nodes=auto 2>err &&
	grep "^iolite: <cmdline>:[0-9]*: option .numa_cpu_nodes.: auto: sysfs does not say which numa node .g. is on" err &&
	test_path_is_missing g
'

test_expect_success 'auto on a one-node machine is node 0' '
	"$IOLITE" --name=x --ioengine=null --size=1m --numa_cpu_nodes=auto \
		--numa_mem_policy=auto >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'numa_cpu_nodes=auto and --cmdhelp' '
	"$IOLITE" --cmdhelp=numa_cpu_nodes >help &&
	grep "auto: the node of the job" help
'

# ---- reads of holes, the page cache, idle disks ----

test_expect_success_if PYTHON3 'reads of a sparse file'"'"'s holes: a note' '
	truncate -s 8m sparse &&
	"$IOLITE" --name=h --ioengine=psync --filename=sparse --size=8m \
		--rw=read --bs=1m --output-format=json >h.json &&
	notes h.json >notes &&
	grep "^job .h. reads .sparse., where 8192 KiB of its 8192 KiB region (100%) were never written (holes of a sparse file)" notes
'

test_expect_success_if PYTHON3 'files too small for the read block: a note, the writes done' '
	mkdir small &&
	"$IOLITE" --name=s --ioengine=null --directory=small --nrfiles=2 \
		--size=16k --bs=16k,4k --rw=rw --rwmixread=0 \
		--output-format=json >s.json &&
	notes s.json >notes &&
	grep "^job .s.: the region of .small/s.0.0. is 8192 bytes, smaller than the read block size 16384, so no reads go to it (nor to the job.s other files that small)" notes &&
	python3 -c "import json, sys
j = json.load(open(sys.argv[1]))[\"jobs\"][0]
assert j[\"write\"][\"total_ios\"] == 4, j[\"write\"]" s.json
'

test_expect_success_if PYTHON3 'every file takes both blocks: no such note' '
	"$IOLITE" --name=s --ioengine=null --directory=small --nrfiles=2 \
		--size=64k --bs=16k,4k --rw=rw --output-format=json >s.json &&
	notes s.json >notes &&
	! grep "smaller than the" notes
'

test_expect_success_if PYTHON3 'a file iolite laid out, or a job that only writes: no hole note' '
	"$IOLITE" --name=h --ioengine=psync --filename=full --size=8m \
		--rw=read --bs=1m --output-format=json >h.json &&
	notes h.json >notes &&
	! grep "never written" notes &&
	"$IOLITE" --name=h --ioengine=psync --filename=sparse --size=8m \
		--rw=write --bs=1m --end_fsync=1 --output-format=json >h.json &&
	notes h.json >notes &&
	! grep "never written" notes
'

test_expect_success_if PYTHON3 'buffered rereads of a region that fits in memory: a note' '
	# io_size beyond the region, random offsets without a map: a pass
	# comes round to blocks it read
	for o in --io_size=32m "--rw=randread --norandommap"; do
		"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
			--rw=read --bs=64k $o --output-format=json >c.json &&
		notes c.json >notes &&
		grep "^job .c. is buffered (direct=0) and its 8 MiB region fits in the page cache ([0-9]* MiB available): reads of blocks the job read before are served from memory" notes ||
		return 1
	done &&
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=randread --bs=1m --time_based --runtime=200ms \
		--invalidate=0 --output-format=json >c.json &&
	notes c.json >notes &&
	grep "^job .c. is buffered .*: reads of blocks cached already (invalidate=0) are served from memory" notes &&
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=write --bs=1m --output-format=json >c.json &&
	notes c.json >notes &&
	grep "^job .c. is buffered .*: its writes, never synced, need only reach memory" notes
'

# invalidate=1 drops the cache at every loop and time_based wrap of a
# job that reads each block once a pass: its reads are the device's
test_expect_success_if PYTHON3 'passes that start cold (invalidate=1): no page cache note' '
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=randread --bs=1m --time_based --runtime=200ms \
		--output-format=json >c.json &&
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=read --bs=1m --loops=3 --output-format=json >d.json &&
	for f in c d; do notes $f.json; done >notes &&
	! grep "fits in the page cache" notes
'

test_expect_success_if PYTHON3 'one pass, synced writes, or more than memory: no page cache note' '
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=read --bs=1m --output-format=json >c.json &&
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=write --bs=1m --end_fsync=1 --output-format=json >d.json &&
	printf "MemTotal: 8192 kB\nMemAvailable: 4096 kB\n" >meminfo &&
	IOLITE_MEMINFO=$PWD/meminfo "$IOLITE" --name=c --ioengine=psync \
		--filename=full --size=8m --rw=randread --bs=1m --invalidate=0 \
		--time_based --runtime=200ms --output-format=json >e.json &&
	for f in c d e; do notes $f.json; done >notes &&
	! grep "fits in the page cache" notes
'

# The idle-disk note end to end needs $TRASH on a disk the kernel keeps
# statistics for (not tmpfs or an overlay): the report's disk_util says.
if test_have_prereq PYTHON3 &&
   "$IOLITE" --name=d --ioengine=psync --filename=full --size=8m --rw=read \
	--bs=1m --output-format=json >disk.json &&
   ! python3 -c "import json, sys; sys.exit(not json.load(open(\"disk.json\")).get(\"disk_util\"))"; then
	test_skip_reason="\$TRASH is on no disk with statistics (tmpfs, overlay)"
fi
# (the disk is the machine's: another process writing to it during the
# run takes the note away, as it should; three tries, one must be quiet)
test_expect_success_if PYTHON3 'reads the page cache served: the disk barely moved, a note' '
	for try in 1 2 3; do
		"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
			--rw=read --bs=1m --invalidate=0 --io_size=256m \
			--output-format=json >c.json &&
		notes c.json >notes || return 1
		grep "^disk .[a-z0-9]*. moved [0-9]* KiB while the jobs on disks moved 262144 KiB (it was busy [0-9.]*% of the run): the I/O was served above the device" notes &&
			break
		test $try != 3 || return 1
	done
'
test_skip_reason=

test_expect_success_if ODIRECT,PYTHON3 'direct reads: no page cache note, and the disk moved the bytes' '
	"$IOLITE" --name=c --ioengine=psync --filename=full --size=8m \
		--rw=randread --bs=64k --direct=1 --time_based --runtime=200ms \
		--output-format=json >c.json &&
	notes c.json >notes &&
	! grep "page cache" notes &&
	! grep "^disk .* moved" notes
'

test_done

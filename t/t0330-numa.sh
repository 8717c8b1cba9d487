#!/bin/sh
# CPU and NUMA placement: cpus_allowed, cpumask, numa_cpu_nodes and
# numa_mem_policy are checked against the machine before anything runs,
# and carried out in the job's thread (affinity, set_mempolicy). A fake
# sysfs tree (IOLITE_SYSFS_ROOT) stands in two nodes with one CPU each,
# so numa_cpu_nodes can be seen to pin a job on a one-node machine.

. "$(dirname "$0")/test-lib.sh"

NCPU=$(getconf _NPROCESSORS_CONF)
LAST=$((NCPU - 1))

test_expect_success 'a cpu that does not exist is refused up front' '
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--cpus_allowed=0,$NCPU 2>err &&
	grep "option .cpus_allowed.: cpu $NCPU does not exist" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--cpus_allowed=1-0 2>err &&
	grep "invalid cpu list .1-0." err
'

test_expect_success 'cpumask naming a missing cpu is refused' '
	test $NCPU -ge 62 ||
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--cpumask=$((1 << NCPU)) 2>err &&
	grep "option .cpumask.: .* names cpus this machine does not have" err
'

test_expect_success 'numa_mem_policy forms are checked' '
	for bad in "foo:0" "bind" "prefer:0,0-1" "local:0" "bind:x"; do
		test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
			--numa_mem_policy=$bad 2>err &&
		grep "option .numa_mem_policy.:" err || exit 1
	done &&
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--numa_cpu_nodes=4096 2>err &&
	grep "option .numa_cpu_nodes.: node 4096 does not exist" err
'

cd "$TRASH" || exit 1
mkdir -p fake/devices/system/node/node0 fake/devices/system/node/node1
echo 0-1 >fake/devices/system/node/possible
echo 0 >fake/devices/system/node/node0/cpulist
echo $LAST >fake/devices/system/node/node1/cpulist

# the affinity of the job's thread while it runs: the task whose allowed
# list differs from the process's
job_cpus() {
	"$@" --name=x --ioengine=psync --filename=f --size=1m --rw=read \
		--time_based --runtime=2 --output-format=terse >out 2>err &
	pid=$!
	sleep 1
	for t in /proc/$pid/task/*; do
		grep "^Cpus_allowed_list:" $t/status
	done >cpus
	wait $pid
}

test_expect_success_if SMP 'numa_cpu_nodes runs the job on that node'"'"'s cpus' '
	IOLITE_SYSFS_ROOT=$PWD/fake job_cpus "$IOLITE" --numa_cpu_nodes=1 &&
	test ! -s err &&
	grep -x "Cpus_allowed_list:	$LAST" cpus &&
	IOLITE_SYSFS_ROOT=$PWD/fake job_cpus "$IOLITE" --numa_cpu_nodes=0 &&
	grep -x "Cpus_allowed_list:	0" cpus &&
	! grep -x "Cpus_allowed_list:	$LAST" cpus
'

test_expect_success_if SMP 'numa_cpu_nodes and cpus_allowed with no cpu in common' '
	IOLITE_SYSFS_ROOT=$PWD/fake test_must_fail "$IOLITE" --name=x \
		--ioengine=null --size=1m --numa_cpu_nodes=1 \
		--cpus_allowed=0 2>err &&
	grep "no cpu of nodes .1. is in cpus_allowed .0." err
'

test_expect_success 'numa_mem_policy=bind:0 is the job thread'"'"'s policy' '
	"$IOLITE" --name=x --ioengine=psync --filename=f --size=1m --rw=read \
		--time_based --runtime=2 --numa_mem_policy=bind:0 \
		--output-format=terse >out 2>err &
	pid=$! &&
	sleep 1 &&
	cat /proc/$pid/task/*/numa_maps >maps 2>/dev/null;
	wait $pid &&
	test ! -s err &&
	grep -q " bind:0 " maps
'

test_expect_success 'a policy the kernel refuses fails the job, saying why' '
	IOLITE_SYSFS_ROOT=$PWD/fake test_must_fail "$IOLITE" --name=x \
		--ioengine=null --size=1m --numa_mem_policy=bind:1 \
		>out 2>err &&
	grep "numa_mem_policy .bind:1.: set_mempolicy:" err
'

test_done

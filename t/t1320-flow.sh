#!/bin/sh
# Flows: jobs that share a flow_id issue I/Os in the ratio of their flow
# weights. A job paced at a known rate (rate_iops) sets the pace of the
# others: each may go as fast as its share lets it, so a fast job with
# twice the weight of a slow one issues twice as many I/Os in the same
# time, and finishes with it.
. "$(dirname "$0")/test-lib.sh"

# flowjob ID: jobs of weight 3 and 2 in flow 1, and a job of weight 1
# at 300 IOPS in flow ID.
flowjob() {
	cat <<-EOF
	[global]
	ioengine=null
	size=64m
	bs=4k
	[fast]
	rw=randread
	flow_id=1
	flow=3
	number_ios=450
	[middle]
	rw=randread
	flow_id=1
	flow=2
	number_ios=300
	[slow]
	rw=randwrite
	flow_id=$1
	flow=1
	rate_iops=300
	number_ios=150
	EOF
}

test_expect_success_if JQ 'flow=3:2:1: the jobs keep the ratio of I/Os' '
	flowjob 1 >flow.fio &&
	"$IOLITE" --output-format=json flow.fio >flow.json &&
	jq -r ".jobs[] | \"\(.jobname) \(.read.total_ios + .write.total_ios) \(.job_runtime)\"" \
		flow.json &&
	# the slow job takes half a second; the others are held to
	# three and two times its pace, so they take as long
	between "$(jq ".jobs[2].job_runtime" flow.json)" 400 2000 &&
	between "$(jq ".jobs[0].job_runtime" flow.json)" 350 2000 &&
	between "$(jq ".jobs[1].job_runtime" flow.json)" 350 2000
'

# timing between threads: under the sanitizers and a loaded machine the
# fast pair's own turns take longer than the slow job's pace
test_skip_reason=${IOLITE_SANITIZE:+"built with -fsanitize=$IOLITE_SANITIZE"}
test_expect_success_if JQ 'another flow_id does not hold a job back' '
	flowjob 2 >flow2.fio &&
	"$IOLITE" --output-format=json flow2.fio >flow2.json &&
	# fast and middle share flow 1 (3:2), slow is alone in flow 2: fast
	# ends well before slow (held back, it would take as long: three
	# times the pace of slow for three times its I/Os); relative, so a
	# loaded machine slowing both does not fail it
	between "$(jq ".jobs[2].job_runtime" flow2.json)" 400 2000 &&
	test "$(jq ".jobs[0].job_runtime < .jobs[2].job_runtime * 0.7" \
		flow2.json)" = true
'
test_skip_reason=

test_expect_success_if JQ 'a finished job holds no one back' '
	cat >done.fio <<-\EOF &&
	[global]
	ioengine=null
	size=64m
	bs=4k
	flow_id=5
	[short]
	rw=read
	flow=1
	number_ios=200
	rate_iops=1000
	[long]
	rw=read
	flow=1
	number_ios=10000
	EOF
	"$IOLITE" --output-format=json done.fio >done.json &&
	# long is held to short pace for 0.2 s, then runs free
	test "$(jq ".jobs[1].read.total_ios" done.json)" = 10000 &&
	test "$(jq ".jobs[1].job_runtime < 1500" done.json)" = true
'

test_expect_success_if JQ 'flow_sleep: a held job sleeps between tries' '
	flowjob 1 | sed "s/^\[global\]/[global]\nflow_sleep=500/" >fs.fio &&
	"$IOLITE" --output-format=json fs.fio >fs.json &&
	between "$(jq ".jobs[0].job_runtime" fs.json)" 350 2500 &&
	test "$(jq ".jobs[0].usr_cpu < 50" fs.json)" = true
'

test_expect_success 'flow weights are 0..1000' '
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--flow=1001 2>err &&
	grep -q "option .flow.: 1001 is out of range" err
'

test_expect_success_if FIO,JQ,PYTHON3 'fio keeps the same pace on the same job' '
	command -v python3 >/dev/null &&
	fio --output-format=json flow.fio >fio.json 2>fio.err &&
	jq -r ".jobs[] | \"\(.jobname) \(.job_runtime)\"" fio.json &&
	# fio spins while held: slower on a busy machine, not faster
	between "$(jq ".jobs[0].job_runtime" fio.json)" 350 5000 &&
	python3 "$TEST_DIR/jsoncmp.py" fio.json flow.json
'

test_done

#!/bin/sh
# exitall with exit_what: which jobs stop when one finishes. group (the
# default): the finished job's group; stonewall: every running job, the
# next stonewall group still starts; all: everything. As fio 3.33,
# exitall set in any job holds for every job, and exitall_on_error stops
# the failed job's group.
. "$(dirname "$0")/test-lib.sh"

test_require JQ

# Job file: a (1 s) and b (2 s) in group 0, c (2 s) in group 1 running
# beside them (new_group), d (1 s) after a stonewall. $1 goes into [a],
# $2 into [d].
jobs() {
	cat <<-EOF
	[global]
	ioengine=null
	size=1g
	bs=4k
	time_based
	rate_iops=500
	[a]
	runtime=1
	$1
	[b]
	runtime=2
	[c]
	new_group
	runtime=2
	[d]
	stonewall
	runtime=1
	$2
	EOF
}

# ms FILE JOB: the job's job_runtime (ms), "none" when not reported
ms() {
	jq -r "[.jobs[] | select(.jobname == \"$2\") | .job_runtime][0] // \"none\"" "$1"
}

stopped() { test "$(ms "$1" "$2")" -lt 1600; }
ran() { test "$(ms "$1" "$2")" -ge 1900; }

test_expect_success 'no exitall: every job runs its runtime' '
	jobs "" "" >none.fio &&
	"$IOLITE" none.fio --output-format=json >none.json 2>err &&
	test_must_be_empty err &&
	ran none.json b && ran none.json c &&
	test "$(ms none.json d)" -ge 900
'

test_expect_success 'exit_what=group, exitall set in another job: a stops b only' '
	jobs "" "exitall" >group.fio &&
	"$IOLITE" group.fio --output-format=json >group.json 2>err &&
	test_must_be_empty err &&
	stopped group.json b &&
	ran group.json c &&
	test "$(ms group.json d)" -ge 900
'

test_expect_success 'exit_what=stonewall: a stops b and c, d still runs' '
	jobs "exitall
exit_what=stonewall" "" >sw.fio &&
	"$IOLITE" sw.fio --output-format=json >sw.json 2>err &&
	test_must_be_empty err &&
	stopped sw.json b && stopped sw.json c &&
	test "$(ms sw.json d)" -ge 900
'

test_expect_success 'exit_what=all: a stops everything, d never starts' '
	jobs "exitall
exit_what=all" "" >all.fio &&
	"$IOLITE" all.fio --output-format=json >all.json 2>err &&
	test_must_be_empty err &&
	stopped all.json b && stopped all.json c &&
	# as fio: listed with zeros in JSON, left out of the normal report
	test "$(ms all.json d)" = 0 &&
	test "$(jq "[.jobs[] | select(.jobname == \"d\")][0].read.total_ios" \
		all.json)" = 0 &&
	"$IOLITE" all.fio >all.out 2>err &&
	test_must_be_empty err &&
	grep -q "^a: (groupid" all.out &&
	! grep -q "^d: (groupid" all.out
'

test_expect_success 'exitall_on_error: a failed job stops its group' '
	dd if=/dev/zero of=data bs=1M count=4 2>/dev/null &&
	jobs "ioengine=psync
filename=data
size=4m
bs=256k
max_latency=1
exitall_on_error" "" >err.fio &&
	test_must_fail "$IOLITE" err.fio --output-format=json >err.json \
		2>err &&
	grep "job .a.: latency of" err &&
	stopped err.json b &&
	ran err.json c &&
	test "$(ms err.json d)" -ge 900
'

test_expect_success 'bad exit_what values are refused' '
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=1m \
		--exitall --exit_what=some 2>err &&
	grep "option .exit_what.: invalid value .some." err
'

test_done

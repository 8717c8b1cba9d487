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

# The runs mostly wait (rate_iops, runtime): they run together, each test
# checks its own.
. "$TEST_DIR/lib-bg.sh"
cd "$TRASH" &&
jobs "" "" >none.fio &&
jobs "" "exitall" >group.fio &&
jobs "exitall
exit_what=stonewall" "" >sw.fio &&
jobs "exitall
exit_what=all" "" >all.fio &&
dd if=/dev/zero of=data bs=1M count=4 2>/dev/null &&
jobs "ioengine=psync
filename=data
size=4m
bs=256k
max_latency=1
exitall_on_error" "" >err.fio &&
cd - >/dev/null || exit 1
for j in none group sw all; do
	bg_run $j '"$IOLITE" $j.fio --output-format=json >$j.json 2>$j.err'
done
bg_run all.out '"$IOLITE" all.fio >all.out 2>all.out.err'
bg_run err 'test_must_fail "$IOLITE" err.fio --output-format=json \
	>err.json 2>err.err'

test_expect_success 'no exitall: every job runs its runtime' '
	bg_wait none &&
	test_must_be_empty none.err &&
	ran none.json b && ran none.json c &&
	test "$(ms none.json d)" -ge 900
'

test_expect_success 'exit_what=group, exitall set in another job: a stops b only' '
	bg_wait group &&
	test_must_be_empty group.err &&
	stopped group.json b &&
	ran group.json c &&
	test "$(ms group.json d)" -ge 900
'

test_expect_success 'exit_what=stonewall: a stops b and c, d still runs' '
	bg_wait sw &&
	test_must_be_empty sw.err &&
	stopped sw.json b && stopped sw.json c &&
	test "$(ms sw.json d)" -ge 900
'

test_expect_success 'exit_what=all: a stops everything, d never starts' '
	bg_wait all &&
	test_must_be_empty all.err &&
	stopped all.json b && stopped all.json c &&
	# as fio: listed with zeros in JSON, left out of the normal report
	test "$(ms all.json d)" = 0 &&
	test "$(jq "[.jobs[] | select(.jobname == \"d\")][0].read.total_ios" \
		all.json)" = 0 &&
	bg_wait all.out &&
	test_must_be_empty all.out.err &&
	grep -q "^a: (groupid" all.out &&
	! grep -q "^d: (groupid" all.out
'

test_expect_success 'exitall_on_error: a failed job stops its group' '
	bg_wait err &&
	grep "job .a.: latency of" err.err &&
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

#!/bin/sh
# Signals: SIGINT / SIGTERM stop the run cleanly and report what ran
# (marked as interrupted, exit status 128 + signal); a second one gives
# up the jobs still running and reports, a third ends the process at
# once; SIGUSR1 prints the report so far and the run goes
# on.
. "$(dirname "$0")/test-lib.sh"

# Runs iolite in the background with the arguments after $2 (a sleep
# before the signal $3 ... see below), output to NAME.out / NAME.err,
# status to NAME.status.
#   run_signal NAME SECONDS SIGNAL iolite-args...
run_signal() {
	name=$1 delay=$2 sig=$3
	shift 3
	"$IOLITE" "$@" >$name.out 2>$name.err &
	pid=$!
	sleep "$delay"
	kill -s "$sig" "$pid"
	wait "$pid"
	echo $? >$name.status
}

# The runs wait for their signal: those stopped after 1 s run together
# (and the pty's), then the two of the SIGUSR1 tests together.
. "$TEST_DIR/lib-bg.sh"
bg_run int 'run_signal int 1 INT --name=i --ioengine=null --size=1g \
	--rw=read --runtime=20 --time_based --write_bw_log=i --log_avg_msec=100'
test_have_prereq JQ && bg_run term 'run_signal term 1 TERM --name=t \
	--ioengine=null --size=1g --rw=write --runtime=20 --time_based \
	--output-format=json'
bg_run sw 'run_signal sw 1 INT --ioengine=null --size=1g --runtime=20 \
	--time_based --name=first --rw=read --name=second --stonewall --rw=write'
test_have_prereq JQ && bg_run swj 'run_signal swj 1 INT --ioengine=null \
	--size=1g --runtime=20 --time_based --name=first --rw=read \
	--name=second --stonewall --rw=write --output-format=json'

# msec of the first job's read line in report $1
read_msec() {
	sed -n "s/.*read: .*(.*\/\([0-9]*\)msec).*/\1/p" "$1"
}

test_expect_success 'SIGINT: the I/O done so far, marked, status 130' '
	bg_wait int &&
	mv int.out out && mv int.err err && mv int.status rc &&
	test "$(cat rc)" = 130 &&
	grep -q "^iolite: terminating on signal 2 (SIGINT)$" err &&
	grep -q "^i: (groupid=0" out &&
	ms=$(read_msec out) &&
	test "$ms" -gt 500 && test "$ms" -lt 5000 &&
	grep -q "io=[1-9]" out &&
	grep -A1 "^Notes:" out | grep -q "interrupted by SIGINT" &&
	# logs flushed: the windows up to the stop
	n=$(wc -l <i_bw.1.log) &&
	test "$n" -ge 5 && test "$n" -le 50
'

test_expect_success_if JQ 'SIGTERM: the same, noted in the JSON, status 143' '
	bg_wait term &&
	mv term.out out && mv term.err err && mv term.status rc &&
	test "$(cat rc)" = 143 &&
	jq -e ".iolite.notes | map(select(test(\"interrupted by SIGTERM\"))) | length == 1" \
		out >/dev/null &&
	jq -e ".jobs[0].write.io_bytes > 0 and .jobs[0].job_runtime < 10000" \
		out >/dev/null
'

test_expect_success 'SIGINT between stonewalled groups: later ones never start' '
	bg_wait sw &&
	mv sw.out out && mv sw.err err && mv sw.status rc &&
	test "$(cat rc)" = 130 &&
	grep -q "^first: (groupid=0" out &&
	# as fio, a job that never started is left out of the normal report
	! grep -q "^second: (groupid" out &&
	! grep -q "WRITE:" out
'

test_expect_success_if JQ 'SIGINT between groups: JSON lists the later job with zeros' '
	bg_wait swj &&
	mv swj.out out && mv swj.err err && mv swj.status rc &&
	test "$(cat rc)" = 130 &&
	test "$(jq -r ".jobs[1].jobname" out)" = second &&
	test "$(jq ".jobs[1].write.total_ios" out)" = 0 &&
	test "$(jq ".jobs[0].read.total_ios > 0" out)" = true
'

bg_run usr1 'run_signal usr1 0.7 USR1 --name=u --ioengine=null --size=1g \
	--rw=read --runtime=2 --time_based'
bg_run ramp 'run_signal ramp 0.5 USR1 --name=r --ioengine=null --size=1g \
	--rw=read --ramp_time=2 --runtime=500ms --time_based'

test_expect_success 'SIGUSR1: a report now, the run goes on to the end' '
	bg_wait usr1 &&
	mv usr1.out out && mv usr1.err err && mv usr1.status rc &&
	test "$(cat rc)" = 0 &&
	test_must_be_empty err &&
	test "$(grep -c "^u: (groupid=0" out)" = 2 &&
	read_msec out >ms &&
	first=$(head -n 1 ms) && last=$(tail -n 1 ms) &&
	test "$first" -gt 300 && test "$first" -lt 1500 &&
	test "$last" -ge 1900 &&
	! grep -q "interrupted" out
'

test_expect_success 'SIGUSR1 during ramp_time: the job shows no I/O yet' '
	bg_wait ramp &&
	mv ramp.out out && mv ramp.err err && mv ramp.status rc &&
	test "$(cat rc)" = 0 &&
	test "$(grep -c "^r: (groupid=0" out)" = 2 &&
	sed -n "s/.*issued rwts: total=\([0-9]*\),.*/\1/p" out >issued &&
	test "$(head -n 1 issued)" = 0 &&
	test "$(tail -n 1 issued)" -gt 0
'

# A paced writer stopped by a signal leaves a verify state that counts
# the writes that completed: the write drawn and waiting for its turn
# (the rate's, the think time's) when the signal came was never issued,
# and a verify_only run checking it found "no verify header".
vs_args='--ioengine=psync --filename=vs.f --size=1m --bs=4k --rw=write
	--verify=crc32c'
bg_run vrate 'mkdir vrate && cd vrate && run_signal w 1 INT --name=v $vs_args \
	--do_verify=0 --rate_iops=20'
bg_run vthink 'mkdir vthink && cd vthink && run_signal w 1 TERM --name=v $vs_args \
	--do_verify=0 --thinktime=40ms'

for pace in rate think; do
	test_expect_success "a $pace-paced write stopped by a signal: its verify state holds" '
		bg_wait v$pace && cd v$pace &&
		test "$(cat w.status)" -gt 128 &&
		test -s local-v-0-verify.state &&
		w=$(issued w.out | cut -d, -f2) &&
		echo "$w writes completed" && test "$w" -gt 3 &&
		"$IOLITE" --name=v $vs_args --verify_only \
			--verify_state_load=1 >v.out 2>v.err &&
		test_must_be_empty v.err &&
		test "$(issued v.out)" = "$w,0,0,0"
	'
done

# A read that never completes: sync reads of a pseudo-terminal nobody
# writes to. The first SIGINT waits for it; the second gives the job up
# and the report is written (t1112 has the rest); a third ends the
# process at once (a report that itself hangs).
test_expect_success_if PYTHON3 'a second SIGINT gives up the stuck job, the report kept' '
	cat >pty.py <<-\EOF &&
	import os, signal, subprocess, sys, time
	master, slave = os.openpty()
	p = subprocess.Popen([sys.argv[1], "--name=p", "--rw=read", "--bs=1",
			      "--size=4k", "--ioengine=sync",
			      "--filename=" + os.ttyname(slave)],
			     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
	time.sleep(0.7)
	alive = []
	for i in range(int(sys.argv[2])):
	    p.send_signal(signal.SIGINT)
	    time.sleep(0.5)
	    alive.append("alive" if p.poll() is None else "dead")
	out, err = p.communicate(timeout=10)
	print(" ".join(alive), p.returncode)
	sys.stderr.write(err.decode())
	sys.stdout.write(out.decode())
	EOF
	python3 pty.py "$IOLITE" 2 >out 2>err &&
	head -n 1 out >status &&
	echo "alive dead 130" >want &&
	test_cmp want status &&
	grep -q "terminating on signal 2" err &&
	grep -q "^iolite: job .p.: given up: its I/O has not moved" err &&
	grep -q "^p: (groupid=0, jobs=1): err=110" out &&
	grep -q "1 job(s) given up" out
'

test_expect_success 'SIGTERM while --trigger runs: the command stopped, the report kept' '
	rm -f cmd.pid late &&
	"$IOLITE" --name=j --ioengine=null --size=1g --time_based \
		--runtime=20 --trigger-timeout=100ms \
		--trigger="echo \$\$ >cmd.pid; sleep 30; echo late >late" \
		>trig.out 2>trig.err &
	pid=$! && n=0 &&
	while ! test -s cmd.pid && [ $n -lt 200 ]; do
		sleep 0.1; n=$((n + 1))
	done &&
	kill -s TERM $pid && { wait $pid; echo $? >trig.status; } &&
	test "$(cat trig.status)" = 143 &&
	grep -x "iolite: trigger command .echo \$\$ >cmd.pid; sleep 30; echo late >late. stopped: iolite got SIGTERM" trig.err &&
	grep -q "^j: (groupid=0" trig.out &&
	grep -q "ran .*, stopped by SIGTERM sent to iolite" trig.out &&
	# the command (the shell, and its sleep) is gone
	! kill -0 "$(cat cmd.pid)" 2>/dev/null &&
	test_path_is_missing late
'

test_done

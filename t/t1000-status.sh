#!/bin/sh
# The status line: fio's shape, percent and ETA for time-based, size-bound,
# ramp_time and stonewalled runs, and where it goes (stdout only; never
# into a JSON or terse report on stdout, nor into --output files).
. "$(dirname "$0")/test-lib.sh"

# status lines of output file $1, one per line, trailing padding removed
status_lines() {
	tr '\r' '\n' <"$1" | sed -n 's/ *$//; /^Jobs: /p'
}

# Checks every status line of $1 against fio's layout.
check_shape() {
	status_lines "$1" >lines &&
	test -s lines &&
	! grep -Ev '^Jobs: [0-9]+ \(f=[0-9]+\)(, ([0-9.]+[KMGTP]?i?B/s-[0-9.]+[KMGTP]?i?B/s|[0-9]+-[0-9]+ IOPS))?: \[([PC/RrWwMmDd_X]\([0-9]+\),?)+\]\[([0-9]+\.[0-9]|-\.-)%\](\[([rwt]=[0-9.]+[KMGTP]?i?B/s,?)+\]\[([rwt]=[0-9.]+[kMGT]?,?)+ IOPS\])?\[eta ([0-9]+d:)?([0-9][0-9]h:)?[0-9][0-9]m:[0-9][0-9]s\]$' lines
}

# "pct eta_seconds" of each line of $1 with the state $2
pct_eta() {
	status_lines "$1" | grep -F "$2" |
	sed -n 's/.*\]\[\([0-9.]*\)%\].*\[eta \([0-9]*\)m:\([0-9]*\)s\]$/\1 \2 \3/p' |
	awk '{ print $1, $2 * 60 + $3 }'
}

# The null engine's time_based jobs would spin a CPU each for the whole
# runtime: a think time after each I/O leaves it idle (the status line and
# the reports are those of any job, a thinking one too).
T="--thinktime=10ms"

test_expect_success 'time_based: lines every eta-interval, fio shape' '
	"$IOLITE" --name=t --ioengine=null --size=1g --rw=read $T \
		--runtime=2 --time_based --eta=always --eta-interval=250ms \
		--eta-newline=250ms >out 2>err &&
	test_must_be_empty err &&
	check_shape out &&
	test "$(grep -c "^Jobs: 1 (f=1): \[R(1)\]" lines)" -ge 4 &&
	grep -q "^t: (groupid=0" out
'

test_expect_success 'time_based: percent is the runtime done, ETA what is left' '
	pct_eta out "[R(1)]" >pe &&
	test "$(wc -l <pe)" -ge 4 &&
	# pct * 2s / 100 + eta = 2s, give or take the rounding of eta
	awk "{ d = \$1 * 2 / 100 + \$2 - 2; if (d < -0.75 || d > 0.75) bad++ }
	     END { exit bad }" pe &&
	# and both move the right way
	awk "NR > 1 && (\$1 < p || \$2 > e) { bad++ } { p = \$1; e = \$2 }
	     END { exit bad }" pe &&
	test "$(head -n 1 pe | cut -d" " -f1 | cut -d. -f1)" -lt 40
'

# Size-bound jobs held at a steady pace (rate_iops), so that the bytes
# done grow in step with the clock whatever else the machine is doing.
test_expect_success 'size-bound: percent follows the bytes done' '
	# 600 blocks at 400 a second: 1.5 s
	"$IOLITE" --name=s --ioengine=null --size=2400k --bs=4k --rw=read \
		--rate_iops=400 --eta=always --eta-interval=250ms >out 2>err &&
	test_must_be_empty err &&
	check_shape out &&
	ms=$(sed -n "s/.*read: .*(.*\/\([0-9]*\)msec).*/\1/p" out) &&
	pct_eta out "[R(1)]" >pe &&
	test "$(wc -l <pe)" -ge 3 &&
	# line k comes at about k * 250 ms: its percent is that of the run
	awk -v ms="$ms" "{ want = NR * 250 * 100 / ms; d = \$1 - want;
			   if (d < -20 || d > 20) bad++ } END { exit bad }" pe
'

test_expect_success 'loops: percent over every loop' '
	# three loops of 180 blocks at 400 a second: 1.35 s in all
	"$IOLITE" --name=l --ioengine=null --size=720k --bs=4k --loops=3 \
		--rw=read --rate_iops=400 --eta=always --eta-interval=250ms \
		>out 2>err &&
	check_shape out &&
	ms=$(sed -n "s/.*read: .*(.*\/\([0-9]*\)msec).*/\1/p" out) &&
	pct_eta out "[R(1)]" >pe &&
	test "$(wc -l <pe)" -ge 3 &&
	# percent of all three loops (a per-loop one falls back at each)
	awk -v ms="$ms" "{ want = NR * 250 * 100 / ms; d = \$1 - want;
			   if (d < -20 || d > 20) bad++ } END { exit bad }" pe
'

test_expect_success 'ramp_time: / while ramping, ETA counts ramp and runtime' '
	"$IOLITE" --name=r --ioengine=null --size=1g --rw=write $T \
		--ramp_time=1 --runtime=1 --time_based --eta=always \
		--eta-interval=250ms >out 2>err &&
	check_shape out &&
	status_lines out | grep -F "[/(1)]" | head -n 1 >first &&
	grep -q "eta 00m:0[12]s" first &&
	status_lines out | grep -qF "[W(1)]"
'

test_expect_success 'stonewall: the queued group is in the ETA' '
	"$IOLITE" --eta=always --eta-interval=250ms --ioengine=null $T \
		--size=1g --runtime=1 --time_based \
		--name=a --rw=randread --name=b --stonewall --rw=randwrite \
		>out 2>err &&
	check_shape out &&
	status_lines out | grep -F "[r(1),P(1)]" | head -n 1 >first &&
	grep -q "eta 00m:02s" first &&
	status_lines out | grep -qF "[_(1),w(1)]" &&
	pct_eta out "[r(1),P(1)]" | awk "\$1 > 55 { bad++ } END { exit bad }"
'

test_expect_success 'mixed jobs: letters in job order, both directions' '
	"$IOLITE" --eta=always --eta-interval=250ms --ioengine=null $T \
		--size=1g --runtime=1 --time_based \
		--name=a --rw=rw --numjobs=2 --name=b --rw=randtrim >out 2>err &&
	check_shape out &&
	status_lines out | grep -q "^Jobs: 3 (f=3): \[M(2),d(1)\]\[[0-9.]*%\]\[r=.*,w=.*,t=.*\]\[r=.*,w=.*,t=.* IOPS\]"
'

test_expect_success '--eta=never, and auto when stdout is not a terminal' '
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=600ms $T \
		--time_based --eta=never --eta-interval=250ms >out 2>err &&
	! grep -q "Jobs:" out &&
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=600ms $T \
		--time_based --eta-interval=250ms >out 2>err &&
	! grep -q "Jobs:" out &&
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=600ms $T \
		--time_based --eta=auto --eta-interval=250ms >out 2>err &&
	! grep -q "Jobs:" out
'

test_expect_success 'JSON on stdout: no status line in it' '
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=600ms $T \
		--time_based --eta=always --eta-interval=250ms \
		--output-format=json >out 2>err &&
	test_must_be_empty err &&
	! grep -q "Jobs:" out &&
	head -c 1 out | grep -q "{" &&
	tail -n 1 out | grep -q "^}$"
'

test_expect_success '--output=FILE: status on stdout, report in the file' '
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=600ms $T \
		--time_based --eta=always --eta-interval=250ms \
		--output-format=json --output=report.json >out 2>err &&
	test_must_be_empty err &&
	check_shape out &&
	! grep -q "Jobs:" report.json &&
	grep -q "\"jobname\" : \"t\"" report.json
'

test_expect_success 'bad --eta values are refused' '
	test_must_fail "$IOLITE" --eta=sometimes --name=t --ioengine=null \
		--size=1m 2>err &&
	grep -q "invalid value .sometimes." err &&
	test_must_fail "$IOLITE" --eta-interval=100ms --name=t \
		--ioengine=null --size=1m 2>err &&
	grep -q "too short" err &&
	test_must_fail "$IOLITE" --eta-newline=abc --name=t \
		--ioengine=null --size=1m 2>err &&
	grep -q "invalid time .abc." err
'

test_expect_success '--status-interval prints the report as the run goes' '
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=1600ms \
		$T --time_based --status-interval=500ms >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "^t: (groupid=0" out)" -ge 4 &&
	sed -n "s/.*read: .*(.*\/\([0-9]*\)msec).*/\1/p" out >runs &&
	# cumulative: each report covers more of the run
	awk "NR > 1 && \$1 < p { bad++ } { p = \$1 } END { exit bad }" runs &&
	test "$(head -n 1 runs)" -lt 1000
'

# ---- the rate part (", 0-200 IOPS") of rate-limited jobs ----

test_expect_success 'rate_iops: ", 0-200 IOPS" after the jobs, fio shape' '
	"$IOLITE" --name=r --filename=r.f --size=512k --rw=write \
		--rate_iops=200 --eta=always --eta-interval=250ms \
		--eta-newline=250ms >out 2>err &&
	test_must_be_empty err &&
	status_lines out >lines &&
	grep -q "^Jobs: 1 (f=1), 0-200 IOPS: \[W(1)\]" lines &&
	sed "s/, 0-200 IOPS:/:/" lines >plain &&
	! grep -v "^Jobs: 1 (f=1): \[W(1)\]" plain
'

test_expect_success 'rate and rate_min over two jobs and both directions' '
	"$IOLITE" --name=r --filename=r.f --size=1m --rw=rw --rate=1m,500k \
		--rate_min=100k --numjobs=2 --eta=always --eta-interval=250ms \
		--eta-newline=250ms >out 2>err &&
	test_must_be_empty err &&
	status_lines out | grep -q "^Jobs: 2 (f=2), 400KiB/s-3048KiB/s: \[M(2)\]"
'

test_expect_success_if FIO 'fio shows the same rate part' '
	fio --name=r --filename=fr.f --size=512k --rw=write --rate_iops=200 \
		--eta=always --eta-interval=250ms --eta-newline=1 \
		--output=fio.out >out 2>&1 &&
	status_lines out | grep -q "^Jobs: 1 (f=1), 0-200 IOPS"
'

test_expect_success 'a report while the run goes on has no "too short" note' '
	"$IOLITE" --name=t --ioengine=null --size=1g --runtime=1500ms \
		$T --time_based --status-interval=300ms >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "^t: (groupid=0" out)" -ge 3 &&
	! grep "too short for stable figures" out &&
	"$IOLITE" --name=s --ioengine=null --size=1m >out 2>err &&
	grep -q "too short for stable figures" out
'

test_done

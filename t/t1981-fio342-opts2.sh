#!/bin/sh
# Options fio added after 3.33 (issue #28), continued from
# t1980-fio342-opts.sh: Debian's fio 3.33 does not know them, so the
# expectations are fio 3.42's behaviour, measured with fio 3.42 beside
# iolite and written down as fixed figures (each test says what fio
# 3.42 did).

. "$(dirname "$0")/test-lib.sh"

# ioprio NAME ARGS...: the job's ioprio_set calls (strace) in NAME.calls
ioprio() {
	name=$1
	shift
	strace -f -qq -o "$name.trace" -e trace=ioprio_set \
		"$IOLITE" --name=j --filename=p.f --size=64k --ioengine=psync \
		"$@" >"$name.out" 2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	grep -o "ioprio_set(IOPRIO_WHO_PROCESS, [1-9][0-9]*, .*) = 0" \
		"$name.trace" | sed "s/, [0-9]*, /, TID, /" >"$name.calls"
}

# fio 3.42 on Linux 6.18 (strace): priohint=1 sets class BE, data 8
# (hint 1 << 3, level 0); with prio=3 data 11; with prioclass=3 and
# priohint=7 IDLE, 56; priohint=1023 BE, 8184
test_expect_success_if STRACE,IOPRIO_HINTS 'priohint: the job thread'"'"'s hint, as fio 3.42' '
	ioprio h1 --priohint=1 &&
	echo "ioprio_set(IOPRIO_WHO_PROCESS, TID, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 8)) = 0" >expect &&
	test_cmp expect h1.calls &&
	ioprio h2 --priohint=1 --prio=3 &&
	echo "ioprio_set(IOPRIO_WHO_PROCESS, TID, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 11)) = 0" >expect &&
	test_cmp expect h2.calls &&
	ioprio h3 --priohint=7 --prioclass=3 &&
	echo "ioprio_set(IOPRIO_WHO_PROCESS, TID, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 56)) = 0" >expect &&
	test_cmp expect h3.calls &&
	ioprio h4 --priohint=1023 --prioclass=2 &&
	echo "ioprio_set(IOPRIO_WHO_PROCESS, TID, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 8184)) = 0" >expect &&
	test_cmp expect h4.calls
'

# fio 3.42, libaio, cmdprio_percentage=50 cmdprio_class=2 cmdprio=1
# cmdprio_hint=2: log_prio's column 0x4011 for those I/Os, "clat prio
# 2/1/2" and "clat prio 0/0/0" in the report, JSON prios with
# "priohint" : 2 (fio 3.42 prints the key and the third field always;
# iolite only when a hint is there, fio 3.33's forms otherwise)
test_expect_success_if LIBAIO,IOPRIO_HINTS,JQ 'cmdprio_hint: per-I/O hints in the logs and reports' '
	set -- --name=j --filename=c.f --size=64k --ioengine=libaio \
		--iodepth=2 --cmdprio_percentage=50 --cmdprio_class=2 \
		--cmdprio=1 --cmdprio_hint=2 --randseed=7 &&
	"$IOLITE" "$@" --write_lat_log=c --log_prio=1 >c.out 2>c.err &&
	test_must_be_empty c.err &&
	cut -d, -f5 c_clat.1.log | sort -u >c.prios &&
	printf " 0x0000\n 0x4011\n" >expect &&
	test_cmp expect c.prios &&
	grep "^    clat prio 2/1/2 (" c.out &&
	grep "^    clat prio 0/0/0 (" c.out &&
	"$IOLITE" "$@" --output-format=json >c.json &&
	test "$(jq -c "[.jobs[0].read.prios[] | [.prioclass, .prio, .priohint]]" c.json)" = "[[0,0,0],[2,1,2]]"
'

test_expect_success_if LIBAIO,IOPRIO_HINTS,JQ 'cmdprio_bssplit: a fifth field, the hint' '
	"$IOLITE" --name=j --filename=b.f --size=256k --ioengine=libaio \
		--bssplit=4k/50:8k/50 --randseed=3 \
		--cmdprio_bssplit=4k/100/2/1/3:8k/100/3/0 \
		--output-format=json >b.json 2>b.err &&
	test_must_be_empty b.err &&
	test "$(jq -c "[.jobs[0].read.prios[] | [.prioclass, .prio, .priohint]]" b.json)" = "[[2,1,3],[3,0,0]]" &&
	"$IOLITE" --name=j --ioengine=libaio \
		--cmdprio_bssplit=4k/50/2/1/3 --parse-only >dump &&
	grep "cmdprio_bssplit=4096/50/2/1/3" dump
'

test_expect_success 'priohint, cmdprio_hint: 0 to 1023; cmdprio_hint is libaio'"'"'s and io_uring'"'"'s' '
	test_must_fail "$IOLITE" --name=j --filename=r.f --size=64k \
		--priohint=1024 >out 2>err &&
	grep "priohint.*out of range" err &&
	test_must_fail "$IOLITE" --name=j --filename=r.f --size=64k \
		--ioengine=psync --cmdprio_hint=1 >out 2>err &&
	grep "cmdprio_hint.*not valid with ioengine .psync." err &&
	test_must_fail "$IOLITE" --name=j --filename=r.f --size=64k \
		--ioengine=libaio --cmdprio_bssplit=4k/50/2/1/1024 >out 2>err &&
	grep "cmdprio_bssplit.*hint .1024." err &&
	test_path_is_missing r.f
'

# a kernel before 6.10 refuses a value with a hint (EINVAL): fio 3.42
# meets it on the job thread or on every I/O; iolite refuses the job
test_expect_success_if !IOPRIO_HINTS 'priohint: refused up front where the kernel has no hints' '
	test_must_fail "$IOLITE" --name=j --filename=k.f --size=64k \
		--priohint=1 >out 2>err &&
	grep "option .priohint.: this kernel does not take I/O priority hints" err &&
	test_path_is_missing k.f
'

test_done

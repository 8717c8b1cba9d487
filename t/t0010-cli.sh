#!/bin/sh
# The tool options of the command line: --version, --help, --showcmd,
# --enghelp, --output, --output-format, --eta, --max-jobs, --section,
# --readonly, and exit codes.
. "$(dirname "$0")/test-lib.sh"

test_expect_success '--version prints iolite-VERSION' '
	"$IOLITE" --version >out 2>err &&
	test_must_be_empty err &&
	grep -q "^iolite-[0-9]" out
'

test_expect_success '--help prints usage to stdout, exit 0' '
	"$IOLITE" --help >out 2>err &&
	test_must_be_empty err &&
	grep -q "usage: iolite" out
'

test_expect_success 'an unknown tool option fails' '
	test_must_fail "$IOLITE" -Z 2>err &&
	grep -q "unknown command-line option" err
'

test_expect_success '--enghelp lists the engines of this build' '
	"$IOLITE" --enghelp >out 2>err &&
	for e in sync psync vsync pvsync pvsync2 null; do
		grep -qw "$e" out || return 1
	done
'

test_expect_success '--enghelp=pvsync2 lists its options' '
	"$IOLITE" --enghelp=pvsync2 >out &&
	grep -qw hipri out && grep -qw nowait out
'

test_expect_success '--enghelp=nosuch fails' '
	test_must_fail "$IOLITE" --enghelp=nosuch 2>err &&
	test -s err
'

test_expect_success '--showcmd turns a job file into a command line' '
	cat >s.fio <<-\EOF &&
	[global]
	ioengine=null
	[a]
	rw=randread
	bs=8k
	EOF
	"$IOLITE" --showcmd s.fio >out &&
	grep -q -- "--name=a" out && grep -q -- "--bs=8k" out &&
	grep -q -- "--ioengine=null" out
'

test_expect_success '--showcmd output runs as the same jobs' '
	"$IOLITE" --parse-only s.fio >expect &&
	cmd=$(cat out | sed "s/^iolite //") &&
	eval "\"\$IOLITE\" --parse-only $cmd" >actual &&
	grep "^bs=" expect >e1 && grep "^bs=" actual >a1 && test_cmp e1 a1
'

test_expect_success '--output writes the report to a file, nothing on stdout' '
	"$IOLITE" --output=rep.txt --name=a --ioengine=null --size=1m >out 2>err &&
	test_must_be_empty out && test_must_be_empty err &&
	grep -q "issued rwts: total=256,0,0,0" rep.txt
'

test_expect_success '--output-format=nosuch is refused before running' '
	test_must_fail "$IOLITE" --output-format=nosuch --name=a \
		--ioengine=null --size=1m >out 2>err &&
	grep -q "nosuch" err
'

test_expect_success '--eta is accepted and changes nothing on stdout' '
	"$IOLITE" --eta=never --name=a --ioengine=null --size=1m >out 2>err &&
	test_must_be_empty err && grep -q "Run status group 0" out
'

test_expect_success '--max-jobs refuses more job instances' '
	test_must_fail "$IOLITE" --max-jobs=2 --name=a --ioengine=null \
		--size=1m --numjobs=3 2>err &&
	grep -q "max-jobs" err
'

test_expect_success '--max-jobs allows as many' '
	"$IOLITE" --max-jobs=3 --name=a --ioengine=null --size=1m \
		--numjobs=3 >out 2>err &&
	test_must_be_empty err
'

test_expect_success '--section runs only the named job' '
	cat >two.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[first]
	rw=read
	[second]
	rw=write
	EOF
	"$IOLITE" --section=second two.fio >out 2>err &&
	test_must_be_empty err &&
	! grep -q "^first:" out && grep -q "^second:" out
'

test_expect_success '--readonly refuses a writing job, creates nothing' '
	test_must_fail "$IOLITE" --readonly --name=w --rw=write --size=64k \
		--filename=ro.dat 2>err &&
	grep -q "readonly" err &&
	test_path_is_missing ro.dat
'

test_expect_success '--readonly refuses trims too' '
	test_must_fail "$IOLITE" --readonly --name=t --rw=randtrim \
		--size=64k --filename=ro.dat 2>err &&
	grep -q "readonly" err
'

test_expect_success '--readonly lets a read job run' '
	"$IOLITE" --name=w --rw=write --size=64k --filename=r.dat >/dev/null &&
	"$IOLITE" --readonly --name=r --rw=read --size=64k \
		--filename=r.dat >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'no arguments: nothing to run, exit 1' '
	test_must_fail "$IOLITE" >out 2>err &&
	test -s err
'

test_done

#!/bin/sh
# How many job instances a run takes (numjobs clones included): at most
# 4096, fio's limit too, refused up front with the reason, before any file
# is created; --max-jobs lowers the limit. And what a clone costs in
# memory: a few pages of statistics, not the ~400 KiB it once took.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'numjobs=100000 is refused at once, nothing created' '
	test_must_fail "$IOLITE" --name=j --filename=big.f --size=1m \
		--numjobs=100000 >out 2>err &&
	grep "iolite: <cmdline>:1: option .numjobs.: 100000 job instances are over the limit of 4096 (each is a thread" err &&
	test_must_be_empty out &&
	test_path_is_missing big.f
'

test_expect_success 'the limit counts every job of the run' '
	"$IOLITE" --name=a --ioengine=null --numjobs=4000 --name=b \
		--ioengine=null --numjobs=96 --parse-only >out 2>err &&
	test_must_be_empty err &&
	cat >two.fio <<-\EOF &&
	[a]
	ioengine=null
	numjobs=4000
	[b]
	ioengine=null
	numjobs=97
	EOF
	test_must_fail "$IOLITE" two.fio --parse-only >out 2>err &&
	grep "iolite: two.fio:4: option .numjobs.: 97 more job instances make 4097, over the limit of 4096" err
'

test_expect_success '--max-jobs lowers the limit, never raises it' '
	test_must_fail "$IOLITE" --max-jobs=3 --name=a --ioengine=null \
		--numjobs=2 --name=b --ioengine=null --numjobs=2 >out 2>err &&
	grep "option .numjobs.: 2 more job instances make 4, over --max-jobs=3" err &&
	test_must_fail "$IOLITE" --max-jobs=5000 --name=a --ioengine=null \
		>out 2>err &&
	grep "option .--max-jobs.: 5000 is over the limit of 4096" err
'

test_expect_success_if FIO 'fio refuses numjobs=100000 too' '
	test_must_fail fio --name=j --ioengine=null --size=1m \
		--numjobs=100000 >out 2>&1 &&
	grep -q "maximum number of jobs" out
'

# peak RSS (KiB) of the command, from wait4() in bench/cputime.c (built
# here with the compiler that built iolite: no need for GNU time)
peak_kb() {
	./cputime rss.txt "$@" >/dev/null 2>&1 &&
	awk '{ print $5 }' rss.txt
}

# the sanitizers' shadow memory and quarantine make RSS meaningless
if [ -n "$IOLITE_SANITIZE" ]; then
	test_skip_reason="built with -fsanitize=$IOLITE_SANITIZE"
elif ! (cd "$TRASH" && ${CC:-cc} -O2 -o cputime "$SRC_DIR/bench/cputime.c") \
	>/dev/null 2>&1; then
	test_skip_reason="no C compiler to build bench/cputime.c: apt-get install gcc"
fi

test_expect_success 'a clone costs well under 200 KiB' '
	one=$(peak_kb "$IOLITE" --name=j --ioengine=null --size=4k \
		--output-format=terse) &&
	many=$(peak_kb "$IOLITE" --name=j --ioengine=null --size=4k \
		--numjobs=300 --output-format=terse) &&
	echo "1 job: $one KiB, 300 jobs: $many KiB" &&
	test $(( (many - one) / 299 )) -lt 200
'
test_skip_reason=

test_done

#!/bin/sh
# include chains: as deep as fio takes them (fio keeps each level's file
# open, so its only bound is the open-file limit: 1,018 levels under
# `ulimit -n 1024`), and include loops refused with the chain named.
. "$(dirname "$0")/test-lib.sh"

# chain N: job.fio includes inc1.fio, which includes inc2.fio ... incN.fio,
# which sets size=1m
chain() {
	rm -f inc*.fio
	i=1
	while test $i -lt "$1"; do
		echo "include inc$((i + 1)).fio" >inc$i.fio
		i=$((i + 1))
	done
	echo "size=1m" >inc$1.fio
	printf "[a]\nioengine=null\ninclude inc1.fio\n" >job.fio
}

test_expect_success 'an include chain 50 deep runs' '
	chain 50 &&
	"$IOLITE" --output-format=terse job.fio >out 2>err &&
	test_must_be_empty err &&
	grep -q "^3;iolite-[^;]*;a;0;0;1024;" out
'

test_expect_success_if FIO 'fio runs the same 50-deep chain' '
	fio --output-format=terse job.fio >fio.out 2>fio.err &&
	grep -q "^3;fio-[^;]*;a;0;0;1024;" fio.out
'

test_expect_success 'a chain 1000 deep parses under ulimit -n 1024' '
	chain 1000 &&
	(ulimit -n 1024 && "$IOLITE" --parse-only job.fio) >out 2>err &&
	test_must_be_empty err && grep -qx "size=1048576" out
'

test_expect_success 'past the open-file limit: a clear error' '
	chain 1100 &&
	(ulimit -n 1024 && test_must_fail "$IOLITE" --parse-only job.fio) \
		>out 2>err &&
	grep -q "include file .inc10[0-9][0-9].fio. cannot be opened: Too many open files (includes nested [0-9]* deep reach the open-file limit, ulimit -n)" err
'

test_expect_success 'an include loop is refused, every file named' '
	chain 3 &&
	echo "include inc1.fio" >inc3.fio &&
	test_must_fail "$IOLITE" --parse-only job.fio >out 2>err &&
	test_must_be_empty out &&
	grep -qx "iolite: inc3.fio:1: include loop: .inc1.fio. is already being read (.inc1.fio. includes .inc2.fio. includes .inc3.fio. includes .inc1.fio.)" err
'

test_expect_success 'one file included twice, not nested, is no loop' '
	echo "bs=8k" >twice.inc &&
	printf "[a]\nioengine=null\nsize=1m\ninclude twice.inc\ninclude twice.inc\n[b]\nioengine=null\nsize=1m\ninclude twice.inc\n" >twice.fio &&
	"$IOLITE" --parse-only twice.fio >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "^bs=8192" out) = 2
'

test_done

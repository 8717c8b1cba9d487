#!/bin/sh
# Jobs from the command line (--name=a --bs=4k --name=b ...), global
# options before the first --name, and mixing them with job files, as fio
# does. Compared through --parse-only dumps.

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'command-line jobs read like a job file' '
	cat >two.fio <<-\EOF &&
	[a]
	rw=randread
	bs=4k

	[b]
	iodepth=2
	EOF
	"$IOLITE" --parse-only two.fio >expect &&
	"$IOLITE" --parse-only --name=a --rw=randread --bs=4k \
		--name=b --iodepth=2 >out 2>err &&
	test_cmp expect out &&
	test_must_be_empty err
'

test_expect_success 'options before the first --name are global' '
	cat >global.fio <<-\EOF &&
	[global]
	bs=8k
	[a]
	[b]
	bs=16k
	EOF
	"$IOLITE" --parse-only global.fio >expect &&
	"$IOLITE" --parse-only --bs=8k --name=a --name=b --bs=16k >out &&
	test_cmp expect out
'

test_expect_success '--name=global starts global options again' '
	cat >later.fio <<-\EOF &&
	[a]
	[global]
	iodepth=4
	[b]
	EOF
	"$IOLITE" --parse-only later.fio >expect &&
	"$IOLITE" --parse-only --name=a --name=global --iodepth=4 \
		--name=b >out &&
	test_cmp expect out
'

test_expect_success 'bare flags and separate values on the command line' '
	printf "[a]\nnorandommap\nbs=2k\n" >flag.fio &&
	"$IOLITE" --parse-only flag.fio >expect &&
	"$IOLITE" --parse-only --name a --norandommap --bs 2k >out &&
	test_cmp expect out
'

test_expect_success 'command-line global options reach job-file jobs' '
	cat >f.fio <<-\EOF &&
	[global]
	rw=read
	[f1]
	[f2]
	iodepth=2
	EOF
	cat >merged.fio <<-\EOF &&
	[global]
	bs=8k
	rw=read
	[f1]
	[f2]
	iodepth=2
	EOF
	"$IOLITE" --parse-only merged.fio >expect &&
	"$IOLITE" --parse-only --bs=8k f.fio >out &&
	test_cmp expect out
'

test_expect_success 'options after a job file apply to it as well' '
	"$IOLITE" --parse-only --bs=8k f.fio >expect &&
	"$IOLITE" --parse-only f.fio --bs=8k >out &&
	test_cmp expect out
'

test_expect_success 'a job file overrides command-line global options' '
	printf "[global]\nbs=2k\n[f1]\n[f2]\nbs=16k\n" >o.fio &&
	printf "[f1]\nbs=2k\n\n[f2]\nbs=16k\n" >expect.fio &&
	"$IOLITE" --parse-only expect.fio >expect &&
	"$IOLITE" --parse-only --bs=8k o.fio >out &&
	test_cmp expect out
'

test_expect_success 'command-line jobs come before job-file jobs' '
	printf "[c]\nbs=8k\nrw=write\n\n[f1]\nbs=8k\nrw=read\n" >order.fio &&
	printf "[f1]\nrw=read\n" >f1.fio &&
	"$IOLITE" --parse-only order.fio >expect &&
	"$IOLITE" --parse-only --bs=8k f1.fio --name=c --rw=write >out &&
	test_cmp expect out
'

test_expect_success 'a command-line job does not take options given after it as globals' '
	printf "[a]\nbs=4k\n\n[b]\n" >own.fio &&
	"$IOLITE" --parse-only own.fio >expect &&
	"$IOLITE" --parse-only --name=a --bs=4k --name=b >out &&
	test_cmp expect out
'

test_expect_success 'errors name <cmdline> and the argument index' '
	test_must_fail "$IOLITE" --parse-only --name=a --bss=4k 2>err &&
	echo "iolite: <cmdline>:3: unknown option '\''bss'\'' (did you mean '\''bs'\''?)" >expect &&
	test_cmp expect err
'

test_expect_success 'an empty --name is an error' '
	test_must_fail "$IOLITE" --parse-only --name= --bs=4k 2>err &&
	echo "iolite: <cmdline>:2: option '\''name'\'' requires a value" >expect &&
	test_cmp expect err
'

# fio drops command-line jobs given after a --section, but not those
# before it; iolite never drops them (--section is about job files)
test_expect_success '--section does not filter command-line jobs' '
	printf "[a]\nbs=4k\n[b]\nbs=8k\n" >s.fio &&
	printf "[x]\n\n[b]\nbs=8k\n" >s-expect.fio &&
	"$IOLITE" --parse-only s-expect.fio >expect &&
	"$IOLITE" --parse-only --name=x --section=b s.fio >out &&
	test_cmp expect out
'

test_done

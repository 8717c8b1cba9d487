#!/bin/sh
# Options through the binary: --cmdhelp, parse errors and their messages,
# the canonical --parse-only dump, and (with fio installed) the number
# grammar and the set of option names compared with fio's.

. "$(dirname "$0")/test-lib.sh"

# Runs iolite expecting exit 1, stdout empty and exactly $1 on stderr.
# The remaining arguments are iolite's.
expect_error() {
	echo "iolite: $1" >err.expect &&
	shift &&
	test_must_fail "$IOLITE" "$@" >out 2>err &&
	test_must_be_empty out &&
	test_cmp err.expect err
}

test_expect_success '--cmdhelp lists options by category' '
	"$IOLITE" --cmdhelp >out 2>err &&
	test_must_be_empty err &&
	grep "^Block sizes and I/O pattern:$" out &&
	grep "^  bs  *: " out &&
	grep "^  iodepth  *: " out &&
	grep "^fio options not supported yet" out &&
	grep "namenode" out
'

test_expect_success '--cmdhelp=bs shows alias, type and default' '
	"$IOLITE" --cmdhelp=bs >out 2>err &&
	test_must_be_empty err &&
	head -n 1 out | grep "^bs: " &&
	grep "^  alias:    blocksize$" out &&
	grep "^  default:  4k$" out &&
	grep "^  type:  *size" out
'

test_expect_success '--cmdhelp finds an option by alias' '
	"$IOLITE" --cmdhelp=readwrite >out &&
	head -n 1 out | grep "^rw: " &&
	grep "randtrimwrite" out
'

test_expect_success '--cmdhelp=table: a row per implemented option, fields a program reads' '
	"$IOLITE" --cmdhelp=table >out 2>err &&
	test_must_be_empty err &&
	head -n 1 out >head &&
	printf "name\talias\tkind\tdefault\tmin\tmax\tunit_us\tvalues\tcategory\tengines\n" >expect &&
	test_cmp expect head &&
	awk -F "\t" "NF != 10 { print \"line \" NR \": \" NF \" fields\"; bad = 1 } END { exit bad }" out &&
	grep "^bs	blocksize	size_dir	4k	1	0	0	-	" out &&
	grep "^ramp_time	-	time	0	0	0	1000000	-	" out &&
	grep "^rw	readwrite	cb	read	.*,randtrimwrite	" out &&
	grep "^donorname	.*	e4defrag\$" out &&
	! grep "^namenode	" out &&
	"$IOLITE" --cmdhelp | grep -c "^  [a-z0-9_-]* *: " >nr &&
	test "$(($(wc -l <out) - 1))" = "$(cat nr)"
'

test_expect_success '--cmdhelp=nosuch fails' '
	test_must_fail "$IOLITE" --cmdhelp=nosuch >out 2>err &&
	grep "nosuch" err
'

test_expect_success 'unknown option: suggestion, exit 1' '
	expect_error "<cmdline>:3: unknown option '\''bss'\'' (did you mean '\''bs'\''?)" \
		--parse-only --name=x --bss=4k
'

test_expect_success 'unknown option in a job file names file and line' '
	printf "[job]\nrw=read\niodpeth=4\n" >j.fio &&
	expect_error "j.fio:3: unknown option '\''iodpeth'\'' (did you mean '\''iodepth'\''?)" \
		--parse-only j.fio
'

test_expect_success 'a fio option iolite lacks is "not supported yet"' '
	expect_error "<cmdline>:3: option '\''threads-per-queue'\'' is not supported yet" \
		--parse-only --name=x --threads-per-queue=2 &&
	expect_error "<cmdline>:3: option '\''profile'\'': fio'\''s workload profile '\''tiobench'\'' is not supported yet (iolite'\''s profile= is a CPU profile: none, cpu or system)" \
		--parse-only --name=x --profile=tiobench
'

test_expect_success 'an option of a refused engine says which and why' '
	expect_error "<cmdline>:3: option '\''namenode'\'' is not supported: an option of ioengine libhdfs (a Hadoop HDFS client (libhdfs, a JVM): iolite measures local kernel I/O, not network storage services)" \
		--parse-only --name=x --namenode=r1
'

test_expect_success 'a fio option iolite lacks, with a reason of its own' '
	expect_error "<cmdline>:3: option '\''block_error_percentiles'\'' is not supported yet: fio'\''s per-block record of trims and write failures (its block lifetime percentiles, for wearing flash out with trims on a block device) is not implemented" \
		--parse-only --name=x --block_error_percentiles=1 &&
	expect_error "<cmdline>:3: option '\''stream_id'\'' is not supported: an option of ioengine sg (SCSI generic (SG_IO) commands; iolite issues block I/O through the kernel'\''s block layer only)" \
		--parse-only --name=x --stream_id=3
'

test_expect_success 'out of range' '
	expect_error "<cmdline>:3: option '\''rwmixread'\'': 150 is out of range (0..100)" \
		--parse-only --name=x --rwmixread=150
'

test_expect_success 'bs=0 is refused' '
	expect_error "<cmdline>:3: option '\''bs'\'': 0 is out of range (minimum 1)" \
		--parse-only --name=x --bs=0
'

test_expect_success 'ignore_error: names, numbers, negated numbers; lists in order' '
	"$IOLITE" --parse-only --name=x --ignore_error=,-28:5,EILSEQ:: >out &&
	grep "^ignore_error=,ENOSPC:EIO,EILSEQ$" out &&
	"$IOLITE" --parse-only --name=x --ignore_error=,ENOSPC \
		--continue_on_error=none >out &&
	grep "^continue_on_error=none$" out &&
	"$IOLITE" --parse-only --name=x --continue_on_error=none \
		--ignore_error=,ENOSPC >out &&
	grep "^continue_on_error=write$" out
'

test_expect_success 'ignore_error: an error after an empty entry is refused' '
	expect_error "<cmdline>:3: option '\''ignore_error'\'': an empty entry in '\'',:ENOSPC'\'' (fio would ignore the errors after it)" \
		--parse-only --name=x --ignore_error=,:ENOSPC
'

test_expect_success 'size overflow' '
	expect_error "<cmdline>:3: option '\''size'\'': '\''99999999999999999999t'\'' is too large" \
		--parse-only --name=x --size=99999999999999999999t
'

test_expect_success 'bad number' '
	expect_error "<cmdline>:3: option '\''bs'\'': invalid size '\''abc'\''" \
		--parse-only --name=x --bs=abc
'

test_expect_success 'a bare non-bool option needs a value' '
	printf "[job]\nbs\n" >j.fio &&
	expect_error "j.fio:2: option '\''bs'\'' needs a value" --parse-only j.fio
'

test_expect_success 'block size larger than size' '
	expect_error "<cmdline>:3: option '\''bs'\'': block size 1048576 is larger than size 4096" \
		--parse-only --name=x --bs=1m --size=4k
'

test_expect_success 'an engine option with another engine' '
	test_must_fail "$IOLITE" --parse-only --name=x --hipri 2>err &&
	grep "option '\''hipri'\'' is not valid with ioengine '\''psync'\''" err &&
	"$IOLITE" --parse-only --name=x --ioengine=pvsync2 --hipri >out 2>err &&
	test_must_be_empty err
'

# fio knows an engine's own options only with that engine loaded: with
# psync, io_uring's and libaio's are unknown options, an error
test_expect_success 'io_uring and libaio options with psync are refused' '
	for o in fixedbufs registerfiles sqthread_poll sqthread_poll_cpu=1 \
		 force_async=1 nonvectored=0 cmdprio_percentage=10 \
		 cmdprio_class=2 cmdprio=3 cmdprio_bssplit=4k/50; do
		test_must_fail "$IOLITE" --parse-only --name=x --$o 2>err &&
		grep -q "option .${o%%=*}. is not valid with ioengine .psync. (only io_uring, io_uring_cmd, libaio)$\\|(only io_uring, io_uring_cmd)$" err ||
			{ cat err >&2; return 1; }
	done &&
	test_must_fail "$IOLITE" --parse-only --name=x --userspace_reap 2>err &&
	grep -q "option .userspace_reap. is not valid with ioengine .psync. (only libaio)$" err
'

# fio 3.35+'s end-to-end protection options: io_uring_cmd's alone, and
# pi_chk takes only the three field names
test_expect_success_if IO_URING_BUILT 'md_per_io_size, pi_act, pi_chk, apptag, apptag_mask' '
	for o in md_per_io_size=64 pi_act=0 pi_chk=GUARD apptag=1 \
		 apptag_mask=0xff; do
		test_must_fail "$IOLITE" --parse-only --name=x --$o 2>err &&
		grep -q "option .${o%%=*}. is not valid with ioengine .psync. (only io_uring_cmd)$" err ||
			{ cat err >&2; return 1; }
	done &&
	"$IOLITE" --parse-only --name=x --ioengine=io_uring_cmd \
		--pi_chk=reftag,GUARD --apptag=0xbeef --apptag_mask=0xff00 \
		--pi_act=0 --md_per_io_size=1k >out 2>err &&
	test_must_be_empty err &&
	grep "^pi_chk=GUARD,REFTAG$" out &&
	grep "^apptag=48879$" out && grep "^md_per_io_size=1024$" out &&
	test_must_fail "$IOLITE" --parse-only --name=x --ioengine=io_uring_cmd \
		--pi_chk=GUARD,CRC 2>err &&
	grep "option .pi_chk.: invalid value .CRC. (valid: GUARD, REFTAG, APPTAG)" err &&
	test_must_fail "$IOLITE" --parse-only --name=x --ioengine=io_uring_cmd \
		--pi_act=2 2>err &&
	grep "option .pi_act." err &&
	test_must_fail "$IOLITE" --parse-only --name=x --ioengine=io_uring_cmd \
		--apptag=0x10000 2>err &&
	grep "option .apptag.: 65536 is out of range" err
'

test_expect_success 'nothing is created when options are wrong' '
	test_must_fail "$IOLITE" --name=x --filename="$TRASH/f" --size=1m \
		--rw=write --bs=0 2>err &&
	test ! -e "$TRASH/f"
'

cat >"$TRASH/canon.fio" <<\EOF
[global]
blocksize=4k,64k
readwrite=randrw:8
rwmixwrite=30
timeout=90
[one]
size=10%
bssplit=4k/50:1k/:32k/
buffered=0
norandommap
random_distribution=zipf:1.2
startdelay=1500ms
kb_base=1000
offset=1m
EOF

cat >"$TRASH/canon.expect" <<\EOF
[one]
size=10%
offset=1000000
bs=4096,65536
bssplit=4000/50:1000/25:32000/25
rw=randrw:8
rwmixwrite=30
buffered=0
runtime=90s
startdelay=1500ms
norandommap=1
random_distribution=zipf:1.2
kb_base=1000
EOF

test_expect_success '--parse-only prints the canonical form' '
	"$IOLITE" --parse-only canon.fio >out 2>err &&
	test_must_be_empty err &&
	test_cmp canon.expect out
'

test_expect_success 'the canonical form parses to itself' '
	"$IOLITE" --parse-only canon.fio >again.fio &&
	"$IOLITE" --parse-only again.fio >out &&
	test_cmp canon.expect out
'

# fio prints the value it parsed when it is out of range, and so does
# iolite: rwmixread (0..100) shows how both read a size.
fio_value() {
	fio --parse-only --name=x --kb_base="$1" --rwmixread="$2" 2>&1 |
		sed -n "s/.*max value out of range: \([0-9]*\).*/\1/p" | head -n 1
}
iolite_value() {
	"$IOLITE" --parse-only --name=x --kb_base="$1" --rwmixread="$2" 2>&1 |
		sed -n "s/.* \([0-9]*\) is out of range.*/\1/p"
}

test_expect_success_if FIO 'sizes mean what fio makes of them' '
	for kb in 1024 1000; do
		for v in 1k 1K 1kb 1KB 1ki 1kib 1KiB 1m 1mi 1MiB 1g 1GiB 4096 \
			 0x400 101; do
			f=$(fio_value $kb $v) &&
			i=$(iolite_value $kb $v) &&
			echo "kb_base=$kb $v: fio $f iolite $i" &&
			test -n "$f" && test "$f" = "$i" || exit 1
		done
	done
'

test_expect_success_if FIO 'every option name fio knows is known here' '
	fio --cmdhelp=all | sed -n "s/^ *\([a-z0-9_-]*\) *:.*/\1/p" >names &&
	test $(wc -l <names) -gt 150 &&
	while read -r n; do
		"$IOLITE" --cmdhelp="$n" >/dev/null 2>&1 ||
			{ echo "missing: $n"; exit 1; }
	done <names
'

test_done

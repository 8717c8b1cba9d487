#!/bin/sh
# Job-file parsing, as data: every t/data/parse/NAME.fio is run with
# --parse-only (from that directory, plus the arguments in NAME.args if
# present) and must print NAME.expect exactly with nothing on stderr, or
# fail with exit 1 and print NAME.err exactly on stderr.

. "$(dirname "$0")/test-lib.sh"

PARSE="$DATA/parse"
export PARSE

# the environment env.fio and err-unterminated.fio expect
IOLITE_T_BS=16k
IOLITE_T_DEPTH=8
export IOLITE_T_BS IOLITE_T_DEPTH
unset IOLITE_T_UNSET

# Runs one case: $1 = name; stdout, stderr and exit code land in $TRASH.
run_case() {
	args=
	if [ -f "$PARSE/$1.args" ]; then
		args=$(cat "$PARSE/$1.args")
	fi
	# shellcheck disable=SC2086
	(cd "$PARSE" && "$IOLITE" --parse-only $args "$1.fio") \
		>"$TRASH/$1.out" 2>"$TRASH/$1.stderr"
	echo $? >"$TRASH/$1.rc"
}

for f in "$PARSE"/*.fio; do
	name=$(basename "$f" .fio)
	if [ -f "$PARSE/$name.expect" ]; then
		test_expect_success "parse $name" "
			run_case $name &&
			test_cmp \"\$PARSE/$name.expect\" $name.out &&
			test_must_be_empty $name.stderr &&
			echo 0 >rc.expect && test_cmp rc.expect $name.rc
		"
	elif [ -f "$PARSE/$name.err" ]; then
		test_expect_success "error $name" "
			run_case $name &&
			test_cmp \"\$PARSE/$name.err\" $name.stderr &&
			test_must_be_empty $name.out &&
			echo 1 >rc.expect && test_cmp rc.expect $name.rc
		"
	else
		test_expect_success "$name.fio has a .expect or a .err" 'false'
	fi
done

test_expect_success 'a missing job file is an error' '
	test_must_fail "$IOLITE" --parse-only no-such.fio 2>err &&
	echo "iolite: job file '\''no-such.fio'\'' cannot be opened: No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'a directory is not a job file' '
	mkdir d &&
	test_must_fail "$IOLITE" --parse-only d 2>err &&
	echo "iolite: job file '\''d'\'' cannot be read: Is a directory" >expect &&
	test_cmp expect err
'

test_expect_success 'a [global] on the command line after the last job is checked' '
	test_must_fail "$IOLITE" --name=a --ioengine=null --size=1m \
		--name=global --rw=frob >out 2>err &&
	grep "^iolite: <cmdline>:5: option .rw.: invalid value .frob." err &&
	test_must_be_empty out && test_path_is_missing a.0.0 &&
	"$IOLITE" --parse-only --bs=8k --name=a --name=global --bs=16k >out &&
	grep -x "bs=8192" out
'

# A path that is no job file (a device, a log): refused once it goes past
# 16 MiB or a million lines, memory bounded, the file named.
test_expect_success 'a job file without end is refused, naming it' '
	test_must_fail "$IOLITE" --parse-only /dev/zero 2>err &&
	echo "iolite: job file '\''/dev/zero'\'' goes past 16 MiB, the most iolite reads of a job file and its includes" >expect &&
	test_cmp expect err &&
	printf "[a]\nioengine=null\ninclude /dev/zero\n" >z.fio &&
	test_must_fail "$IOLITE" z.fio >out 2>err &&
	grep "^iolite: z.fio:3: include file ./dev/zero. goes past 16 MiB" err &&
	test_must_be_empty out &&
	{ echo "[a]"; yes "bs=4k" | head -n 1000000; } >long.fio &&
	test_must_fail "$IOLITE" --parse-only long.fio 2>err &&
	grep "^iolite: job file .long.fio. goes past 1000000 lines" err
'

test_expect_success '$ncpus, $pagesize and $mb_memory are the system values' '
	ncpus=$(getconf _NPROCESSORS_ONLN) &&
	pagesize=$(getconf PAGESIZE) &&
	mb=$(( $(getconf _PHYS_PAGES) * pagesize / 1048576 )) &&
	cat >kw.fio <<-\EOF &&
	[kw]
	iodepth=$ncpus
	description=$mb_memory MiB, $pagesize
	EOF
	"$IOLITE" --parse-only kw.fio >out &&
	grep -x "iodepth=$ncpus" out &&
	grep -x "description=$mb MiB, $pagesize" out
'

test_expect_success 'arithmetic on reserved keywords is evaluated' '
	pagesize=$(getconf PAGESIZE) &&
	cat >math.fio <<-\EOF &&
	[math]
	bs=2*$pagesize
	description=/tmp/f$pagesize-x
	EOF
	"$IOLITE" --parse-only math.fio >out &&
	cat >plain.fio <<-EOF &&
	[math]
	bs=$((2 * pagesize))
	description=/tmp/f$pagesize-x
	EOF
	"$IOLITE" --parse-only plain.fio >expect &&
	test_cmp expect out
'

test_expect_success 'an include path may be absolute' '
	echo "bs=64k" >"$TRASH/abs.inc" &&
	printf "[j]\ninclude %s\n" "$TRASH/abs.inc" >abs.fio &&
	printf "[j]\nbs=64k\n" >plain.fio &&
	"$IOLITE" --parse-only abs.fio >out &&
	"$IOLITE" --parse-only plain.fio >expect &&
	test_cmp expect out
'

test_expect_success 'a later [global] does not change earlier jobs' '
	printf "[global]\nbs=8k\n[a]\n" >one.fio &&
	printf "[global]\nbs=8k\n[a]\n[global]\nbs=16k\n" >two.fio &&
	"$IOLITE" --parse-only one.fio >expect &&
	"$IOLITE" --parse-only two.fio >out &&
	test_cmp expect out
'

test_expect_success '[global] does not reach into the next job file' '
	printf "[global]\nbs=8k\n[a]\n" >g.fio &&
	printf "[b]\n" >h.fio &&
	printf "[a]\nbs=8k\n\n[b]\n" >both.fio &&
	"$IOLITE" --parse-only both.fio >expect &&
	"$IOLITE" --parse-only g.fio h.fio >out &&
	test_cmp expect out
'

test_expect_success 'options in jobs --section skips are not checked' '
	printf "[a]\nbs=4k\n[b]\nbss=1\ninclude nope.inc\n" >skip.fio &&
	"$IOLITE" --parse-only --section=a skip.fio >out &&
	test_must_fail "$IOLITE" --parse-only skip.fio 2>err &&
	grep "skip.fio:5: include file '\''nope.inc'\'' cannot be opened" err
'

test_expect_success 'a line that expands to nothing is refused with its file:line' '
	printf "[a]\n\${IOLITE_T0100_UNSET}\nsize=1m\n" >unset.fio &&
	test_must_fail env -u IOLITE_T0100_UNSET "$IOLITE" --parse-only unset.fio 2>err &&
	grep "unset.fio:2: .*expands to nothing" err
'

test_done

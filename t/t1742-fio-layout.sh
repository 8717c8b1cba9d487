#!/bin/sh
# The layout (issue 13, item 14): fio's "Laying out IO file" line says
# what each job lays out, a layout that cannot fit on its file system is
# refused before anything is written, and SIGINT/SIGTERM during the
# layout leave no partial file behind.
. "$(dirname "$0")/test-lib.sh"

# layout_lines DIR TOOL ARGS...: the "Laying out" lines TOOL prints for
# the job, run in DIR (created), to DIR.lines.
layout_lines() {
	d=$1 tool=$2
	shift 2
	mkdir "$d" &&
	(cd "$d" && "$tool" "$@") >"$d.out" 2>"$d.err" &&
	{ grep "Laying out" "$d.out" >"$d.lines" || :; }
}

# same_lines NAME EXPECTED ARGS...: iolite prints EXPECTED (a file), as
# fio does where it is installed.
same_lines() {
	name=$1 want=$2
	shift 2
	layout_lines "$name.i" "$IOLITE" "$@" &&
	test_cmp "$want" "$name.i.lines" &&
	if test_have_prereq FIO; then
		layout_lines "$name.f" fio "$@" &&
		test_cmp "$name.f.lines" "$name.i.lines"
	fi
}

test_expect_success 'one file: "Laying out IO file (1 file / 1MiB)"' '
	echo "j: Laying out IO file (1 file / 1MiB)" >one.want &&
	same_lines one one.want --name=j --size=1m --rw=read &&
	echo "j: Laying out IO file (1 file / 0MiB)" >small.want &&
	same_lines small small.want --name=j --size=64k --rw=write
'

test_expect_success 'several files and jobs: one line per job, total MiB' '
	cat >many.want <<-\EOF &&
	j: Laying out IO files (3 files / total 1MiB)
	k: Laying out IO file (1 file / 1MiB)
	EOF
	same_lines many many.want --name=j --size=2m --nrfiles=3 \
		--rw=read --name=k --size=1m --rw=write
'

test_expect_success 'the line comes after "Starting", and not without a layout' '
	sed -n "3,4p" one.i.out >order &&
	printf "Starting 1 process\nj: Laying out IO file (1 file / 1MiB)\n" \
		>order.want &&
	test_cmp order.want order &&
	(cd one.i && "$IOLITE" --name=j --size=1m --rw=read >../again.out) &&
	! grep "Laying out" again.out
'

test_expect_success 'a file grown: its whole size counts, as fio' '
	mkdir grow && (cd grow &&
	"$IOLITE" --name=j --size=2m --nrfiles=2 --rw=read >/dev/null &&
	"$IOLITE" --name=j --size=3m --nrfiles=2 --rw=read >out) &&
	grep "^j: Laying out IO files (2 files / total 3MiB)$" grow/out
'

test_expect_success 'no layout line in JSON or terse output' '
	mkdir quiet && (cd quiet &&
	"$IOLITE" --name=j --size=64k --rw=read --output-format=json >json &&
	head -n 1 json >first && echo "{" >first.want &&
	test_cmp first.want first &&
	"$IOLITE" --name=j --size=64k --rw=read --filename=t \
		--output-format=terse >terse &&
	! grep "Laying out" json terse)
'

test_expect_success 'a layout bigger than the free space is refused, nothing written' '
	mkdir full && (cd full &&
	printf "[j]\nrw=read\nsize=1m\noffset=1p\n" >job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err &&
	grep "^iolite: job.fio:4: option .offset.: laying out .j.0.0. to 1125899907891200 bytes (offset 1125899906842624 + 1048576) needs .* on its file system, which has .* free$" err &&
	test_path_is_missing j.0.0 &&
	test_must_fail "$IOLITE" --name=j --rw=write --size=2p \
		--nrfiles=2 2>err2 &&
	grep "option .size.: laying out .j.0.[01]. .* with the other files there" err2 &&
	test_path_is_missing j.0.0 && test_path_is_missing j.0.1)
'

test_expect_success 'a sparse layout needs no free space up front' '
	mkdir sparse && (cd sparse &&
	"$IOLITE" --name=j --rw=write --size=4k --offset=1t \
		--fallocate=none --output-format=terse >out &&
	test "$(stat -c %s j.0.0)" = 1099511631872)
'

# interrupt SIG DIR ARGS...: starts a layout of DIR/big, sends SIG once
# it is under way (past 1MiB), waits; the exit status goes to DIR.rc,
# stderr to DIR.err
interrupt() {
	sig=$1 d=$2
	shift 2
	(cd "$d" && exec "$IOLITE" --output-format=terse "$@" \
		>/dev/null 2>"../$d.err") &
	pid=$!
	i=0
	while [ $i -lt 200 ] &&
	      [ "$(stat -c %s "$d/big" 2>/dev/null || echo 0)" -le 1048576 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -s "$sig" $pid
	wait $pid
	echo $? >"$d.rc"
}

# enough free space for a layout that takes a few seconds to write
free_kb=$(df -Pk "$TRASH" | awk "NR == 2 { print \$4 }")
big=
[ "${free_kb:-0}" -gt $((16 * 1024 * 1024)) ] && big=8g

test -n "$big" || test_skip_reason="under 16GiB free for a layout that lasts"

test_expect_success 'SIGINT during the layout removes the file it created' '
	mkdir int &&
	interrupt INT int --name=j --rw=read --size=$big --filename=big &&
	test "$(cat int.rc)" = 130 &&
	grep "^iolite: <cmdline>:[0-9]*: interrupted by SIGINT while laying out .big.: removed$" int.err &&
	test_path_is_missing int/big
'

test_expect_success 'SIGTERM during the layout cuts a grown file back' '
	mkdir term &&
	head -c 65536 /dev/zero >term/big &&
	interrupt TERM term --name=j --rw=read --size=$big --filename=big &&
	test "$(cat term.rc)" = 143 &&
	grep "interrupted by SIGTERM while laying out .big.: cut back to its size$" term.err &&
	test "$(stat -c %s term/big)" = 65536
'
test_skip_reason=

test_done

#!/bin/sh
# Scale (issue 13, item 12): thousands of files, hundreds of clones,
# long file name lists and deep queues, from the job files in
# t/data/scale/ (which also seed the fuzz corpus). `make test
# SANITIZE=address,undefined` runs them under the sanitizers, where a
# use-after-free in files_resolve once showed from 9 files up. And the
# descriptors: RLIMIT_NOFILE raised when it can be, else refused up front.
. "$(dirname "$0")/test-lib.sh"

SCALE=$DATA/scale

# run_job NAME JOB [ARGS...]: runs $SCALE/JOB.fio in NAME/ (created);
# NAME.issued: the "issued rwts" lines, NAME.files: how many files
run_job() {
	name=$1 job=$2
	shift 2
	mkdir "$name" &&
	(cd "$name" && "$IOLITE" "$SCALE/$job.fio" "$@") >"$name.out" \
		2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	sed -n "s/.*issued rwts: total=\([0-9,]*\) .*/\1/p" "$name.out" \
		>"$name.issued" &&
	ls "$name" | wc -l | tr -d " " >"$name.files"
}

# expect NAME ISSUED FILES: the issued lines (space-separated) and count
expect() {
	echo "$2" | tr " " "\n" >"$1.want" &&
	test_cmp "$1.want" "$1.issued" &&
	test "$(cat "$1.files")" = "$3"
}

# same_as_fio NAME JOB: fio issues what iolite did (where installed)
same_as_fio() {
	if test_have_prereq FIO; then
		mkdir "$1.fio" &&
		(cd "$1.fio" && fio "$SCALE/$2.fio") >"$1.fio.out" 2>/dev/null &&
		sed -n "s/.*issued rwts: total=\([0-9,]*\) .*/\1/p" \
			"$1.fio.out" >"$1.fio.issued" &&
		test_cmp "$1.fio.issued" "$1.issued"
	fi
}

test_expect_success '1100 files, laid out and read back by a later job' '
	run_job many many-files &&
	expect many "0,1100,0,0 1100,0,0,0" 1100 &&
	same_as_fio many many-files
'

test_expect_success '300 clones of 4 files each' '
	run_job clones clones &&
	expect clones "0,1200,0,0" 1200
'

test_expect_success '2000 files, 16 open at a time' '
	run_job open openfiles &&
	expect open "0,2000,0,0" 2000 &&
	same_as_fio open openfiles
'

test_expect_success 'a list of 500 file names, shared by two jobs' '
	run_job list long-list &&
	expect list "0,500,0,0 500,0,0,0" 500 &&
	test "$(stat -c %s list/f1)" = 4096 &&
	test "$(stat -c %s list/f500)" = 4096 &&
	same_as_fio list long-list
'

test_expect_success 'a queue 16384 deep (null engine)' '
	run_job deep deep-queue &&
	expect deep "16384,0,0,0" 0 &&
	grep "IO depths *: .*>=64=100.0%" deep.out
'

# deep_cmd NAME ARGS...: a command-line job in NAME/, as run_job
deep_cmd() {
	name=$1
	shift
	mkdir "$name" &&
	(cd "$name" && "$IOLITE" --name=q --rw=randread --size=16m \
		--filename=q "$@") >"$name.out" 2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	issued "$name.out" >"$name.issued" &&
	ls "$name" | wc -l | tr -d " " >"$name.files"
}

test_expect_success_if LIBAIO 'libaio 4096 deep' '
	deep_cmd aio --ioengine=libaio --iodepth=4096 &&
	expect aio "4096,0,0,0" 1
'

test_expect_success_if IO_URING 'io_uring 4096 deep' '
	deep_cmd uring --ioengine=io_uring --iodepth=4096 &&
	expect uring "4096,0,0,0" 1
'

test_expect_success 'a low soft RLIMIT_NOFILE is raised to what the jobs need' '
	hard=$(ulimit -Hn) &&
	{ test "$hard" = unlimited || test "$hard" -ge 1024; } &&
	mkdir soft && (cd soft && ulimit -Sn 256 &&
	"$IOLITE" --name=m --nrfiles=400 --filesize=4k --rw=write >out 2>err) &&
	test_must_be_empty soft/err &&
	test "$(issued soft/out)" = "0,400,0,0"
'

# nofile_refused LIMIT JOB MESSAGE: under ulimit -n LIMIT, job.fio
# (printf's format JOB) is refused with "iolite: MESSAGE", nothing made
# but what the test wrote; the shell stays under the limit for the rest
nofile_refused() {
	ulimit -n "$1" &&
	printf "$2" >job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err &&
	echo "iolite: $3" >expect &&
	test_cmp expect err &&
	test "$(ls)" = "err
expect
job.fio
out"
}

test_expect_success 'files beyond the hard RLIMIT_NOFILE are refused up front' '
	mkdir hard && (cd hard &&
	nofile_refused 256 "[m]\nnrfiles=400\nfilesize=4k\nrw=write\n" \
		"job.fio:2: option '\''nrfiles'\'': the jobs running together keep about 420 files open at once (this one 400), more than the 256 file descriptors RLIMIT_NOFILE allows (ulimit -n): set openfiles= lower or raise the limit" &&
	"$IOLITE" job.fio --openfiles=64 >out2 2>err2 &&
	test_must_be_empty err2 &&
	test "$(issued out2)" = "0,400,0,0")
'

# Log files are open from start to end: counted, and named when they are
# what goes past the limit (they were blamed on nrfiles)
test_expect_success 'log files beyond the hard RLIMIT_NOFILE are refused, naming the log' '
	mkdir logs && (cd logs &&
	nofile_refused 128 "[m]\nioengine=null\nsize=64k\nnumjobs=25\nwrite_lat_log=l\nwrite_bw_log=b\n" \
		"job.fio:5: option '\''write_lat_log'\'': the run keeps its 100 log files open from start to end: with the jobs running together that is about 216 file descriptors, more than the 128 RLIMIT_NOFILE allows (ulimit -n): raise the limit or log fewer jobs" &&
	sed "s/numjobs=25/numjobs=5/" job.fio >five.fio &&
	"$IOLITE" five.fio >out2 2>err2 &&
	test_must_be_empty err2 &&
	test "$(ls l_*.log b_*.log | wc -l)" = 20)
'

test_done
test_done

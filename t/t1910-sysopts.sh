#!/bin/sh
# The job's process, memory and reports (issue 15.7): exec_prerun and
# exec_postrun, nice, stats, disk_util, the log epochs, mem/iomem,
# iomem_align, lockmem, thp, log_compression_cpus, gtod_cpu and
# write_barrier, with fio 3.33's semantics: compared with fio where it
# is installed, fixed figures otherwise. The root-only options (uid, gid,
# ioscheduler, cgroup, huge pages) are in t1911.
. "$(dirname "$0")/test-lib.sh"

# fio JOBFILE-ARGS...: fio when installed, else nothing (and success)
fio_too() {
	test_have_prereq FIO || return 0
	fio "$@"
}

test_expect_success 'the options parse and dump canonically' '
	cat >all.fio <<-\EOF &&
	[j]
	size=64k
	nice=-3
	ioscheduler=mq-deadline
	cgroup=bench/a
	cgroup_weight=500
	cgroup_nodelete=1
	exec_prerun=echo hello
	exec_postrun=true
	iomem=mmap:/tmp/x
	mem_align=512
	hugepage-size=4m
	lockmem=1m
	disk_util=0
	stats=0
	log_unix_epoch=1
	log_alternate_epoch=1
	log_alternate_epoch_clock_id=1
	log_compression_cpus=0
	gtod_cpu=0
	write_barrier=4
	uid=1000
	gid=100
	EOF
	cat >expect <<-\EOF &&
	[j]
	size=65536
	uid=1000
	gid=100
	nice=-3
	ioscheduler=mq-deadline
	cgroup=bench/a
	cgroup_weight=500
	cgroup_nodelete=1
	exec_prerun=echo hello
	exec_postrun=true
	mem=mmap:/tmp/x
	iomem_align=512
	hugepage-size=4194304
	lockmem=1048576
	disk_util=0
	stats=0
	log_unix_epoch=1
	log_alternate_epoch=1
	log_alternate_epoch_clock_id=1
	log_compression_cpus=0
	gtod_cpu=0
	write_barrier=4
	EOF
	"$IOLITE" --parse-only all.fio >out 2>err &&
	test_must_be_empty err &&
	test_cmp expect out
'

# refused NAME MESSAGE ARGS...: iolite fails before running, saying so
refused() {
	msg=$1
	shift
	test_must_fail "$IOLITE" --name=r --size=64k "$@" >out 2>err &&
	grep -F -- "$msg" err || { cat err; return 1; }
}

test_expect_success 'bad values are refused with the reason' '
	refused "option '\''nice'\'': '\''-21'\'' is not a nice value (-20..19)" --nice=-21 &&
	refused "option '\''nice'\'': '\''20'\'' is not a nice value" --nice=20 &&
	refused "option '\''mem'\'': unknown type '\''heap'\''" --mem=heap &&
	refused "option '\''mem'\'': '\''shm'\'' takes no file" --mem=shm:/x &&
	refused "option '\''mem'\'': '\''cudamalloc'\'' is GPU memory" --mem=cudamalloc &&
	refused "option '\''thp'\'' is not valid with ioengine '\''psync'\'' (only mmap)" --thp=1 &&
	refused "option '\''cgroup'\'': '\''../x'\'' leaves the cgroup mount" --cgroup=../x &&
	refused "option '\''cgroup'\'': '\''/x'\'' is not a cgroup name" --cgroup=/x &&
	refused "option '\''cgroup_weight'\'': 50 is out of range" --cgroup_weight=50 &&
	refused "option '\''log_alternate_epoch_clock_id'\'': 99 is not a clock" \
		--log_unix_epoch=1 --log_alternate_epoch_clock_id=99 &&
	refused "option '\''gtod_cpu'\'': cpu 4096 does not exist" --gtod_cpu=4096 &&
	refused "option '\''log_compression_cpus'\'': cpu 4096 does not exist" \
		--log_compression_cpus=4096 &&
	refused "option '\''exec_prerun'\'' needs a value" --exec_prerun= &&
	refused "is not on a hugetlbfs mount" --mem=mmaphuge:$PWD/hb &&
	: >exists &&
	refused "'\''$PWD/exists'\'' exists: the shared mapping would write" \
		--mem=mmapshared:$PWD/exists &&
	test_path_is_missing r.0.0
'

test_expect_success 'exec_prerun and exec_postrun: output in NAME.*.txt, a note each' '
	mkdir ex && (cd ex &&
	"$IOLITE" --name=e --size=64k --rw=write \
		--exec_prerun="echo before; echo to-stderr >&2" \
		--exec_postrun="echo after" >out 2>err) &&
	test_must_be_empty ex/err &&
	printf "before\nto-stderr\n" >expect &&
	test_cmp expect ex/e.prerun.txt &&
	echo after >expect &&
	test_cmp expect ex/e.postrun.txt &&
	grep "job '\''e'\'': the output of exec_prerun is in e.prerun.txt" ex/out &&
	grep "job '\''e'\'': the output of exec_postrun is in e.postrun.txt" ex/out
'

test_expect_success 'the commands write files, never the JSON report' '
	mkdir exj && (cd exj &&
	"$IOLITE" --name=e --size=64k --rw=write --exec_prerun="echo x" \
		--output-format=json >out 2>err) &&
	test_must_be_empty exj/err &&
	test "$(head -n 1 exj/out)" = "{" && test "$(tail -n 1 exj/out)" = "}"
'

test_expect_success 'a failing exec_prerun fails the job before its I/O' '
	mkdir exf && (cd exf &&
	test_must_fail "$IOLITE" --name=f --size=64k --rw=write \
		--exec_prerun="echo no; exit 3" --output-format=json >out 2>err) &&
	grep "job '\''f'\'': exec_prerun '\''echo no; exit 3'\'' exited with status 3 (its output is in f.prerun.txt)" exf/err &&
	grep "\"error\" : 125," exf/out &&
	grep "\"io_bytes\" : 0," exf/out &&
	! grep "\"io_bytes\" : [1-9]" exf/out &&
	echo no >expect && test_cmp expect exf/f.prerun.txt
'

test_expect_success 'a failing exec_postrun is a note, the run succeeds' '
	mkdir exp && (cd exp &&
	"$IOLITE" --name=p --size=64k --rw=write --exec_postrun="exit 4" \
		>out 2>err) &&
	test_must_be_empty exp/err &&
	grep "job '\''p'\'': exec_postrun '\''exit 4'\'' exited with status 4" exp/out
'

test_expect_success 'the commands see what fio shows them (output files as fio)' '
	cat >cmd.fio <<-\EOF &&
	[c]
	size=64k
	rw=write
	exec_prerun=echo hello from c
	exec_postrun=echo done
	EOF
	mkdir ci cf &&
	(cd ci && "$IOLITE" ../cmd.fio >out 2>err) &&
	echo "hello from c" >expect && test_cmp expect ci/c.prerun.txt &&
	if test_have_prereq FIO; then
		(cd cf && fio ../cmd.fio >out 2>err) &&
		test_cmp cf/c.prerun.txt ci/c.prerun.txt &&
		test_cmp cf/c.postrun.txt ci/c.postrun.txt
	fi
'

test_expect_success 'nice adds to the thread nice value, as fio' '
	base=$(nice) &&
	want=$((base + 5)) && { [ $want -le 19 ] || want=19; } &&
	mkdir ni nf &&
	(cd ni && "$IOLITE" --name=n --size=64k --rw=write --nice=5 \
		--exec_prerun=nice >out 2>err) &&
	test_must_be_empty ni/err &&
	echo $want >expect && test_cmp expect ni/n.prerun.txt &&
	(cd nf && fio_too --name=n --size=64k --rw=write --nice=5 \
		--exec_prerun=nice >out 2>err) &&
	{ ! test_have_prereq FIO || test_cmp expect nf/n.prerun.txt; }
'

test_expect_success 'nice=0 leaves the value alone; the main thread keeps its own' '
	base=$(nice) &&
	"$IOLITE" --name=n0 --size=64k --rw=write --exec_prerun=nice \
		>out 2>err &&
	echo $base >expect && test_cmp expect n0.prerun.txt
'

test_expect_success 'stats=0: the job runs, and is left out of the reports' '
	cat >stats.fio <<-\EOF &&
	[global]
	size=64k
	rw=write
	[a]
	stats=0
	filename=fa
	[b]
	filename=fb
	EOF
	"$IOLITE" stats.fio >normal 2>err &&
	test_must_be_empty err &&
	test -f fa &&
	! grep "^a: (groupid" normal &&
	grep "^b: (groupid=0, jobs=1)" normal &&
	grep "WRITE: .* io=64.0KiB" normal &&
	"$IOLITE" stats.fio --output-format=json >json &&
	test "$(grep -c "\"jobname\"" json)" = 1 &&
	grep "\"jobname\" : \"b\"" json &&
	"$IOLITE" stats.fio --output-format=terse >terse &&
	test "$(wc -l <terse)" = 1 && grep "^3;iolite-[^;]*;b;" terse
'

test_expect_success_if FIO 'stats=0: the same jobs and group total as fio' '
	mkdir sf && (cd sf && fio ../stats.fio >normal 2>err) &&
	grep "^[a-z]*: (groupid" sf/normal | cut -d: -f1 >fio.jobs &&
	grep "^[a-z]*: (groupid" normal | cut -d: -f1 >iol.jobs &&
	test_cmp fio.jobs iol.jobs &&
	sed -n "s/.* io=\([^ ]*\) .*/\1/p" sf/normal >fio.io &&
	sed -n "s/.* io=\([^ ]*\) .*/\1/p" normal >iol.io &&
	test_cmp fio.io iol.io
'

test_expect_success 'disk_util=0: no disk statistics block, in any format' '
	"$IOLITE" --name=d --size=64k --rw=write --disk_util=0 >normal &&
	! grep "Disk stats" normal &&
	"$IOLITE" --name=d --size=64k --rw=write --disk_util=0 \
		--output-format=json >json &&
	! grep "\"disk_util\" : \[" json &&
	"$IOLITE" --name=d --size=64k --rw=write >normal1 &&
	if grep -q "Disk stats" normal1 && test_have_prereq FIO; then
		fio --name=d --size=64k --rw=write --disk_util=0 >fio0 &&
		! grep "Disk stats" fio0 &&
		fio --name=d --size=64k --rw=write >fio1 &&
		grep "Disk stats" fio1
	fi
'

# in_window FILE LO HI: every line's time (first column) is in [LO, HI]
in_window() {
	test -s "$1" &&
	awk -F, -v lo="$2" -v hi="$3" '
		$1 + 0 < lo || $1 + 0 > hi { print "line " NR ": " $1 " not in " lo "-" hi; bad = 1 }
		END { exit bad }' "$1"
}

now_ms() { date +%s%3N; }
uptime_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

test_expect_success 'log_unix_epoch: the time column is Unix time in ms, as fio' '
	for t in iol fio; do
		mkdir -p ep$t || return 1
		test $t = fio && ! test_have_prereq FIO && continue
		lo=$(now_ms) &&
		if test $t = fio; then
			(cd ep$t && fio --name=u --size=64k --rw=write \
				--write_lat_log=u --write_bw_log=u \
				--log_unix_epoch=1 >out 2>err)
		else
			(cd ep$t && "$IOLITE" --name=u --size=64k --rw=write \
				--write_lat_log=u --write_bw_log=u \
				--log_unix_epoch=1 >out 2>err)
		fi &&
		hi=$(now_ms) &&
		in_window ep$t/u_clat.1.log $lo $hi &&
		in_window ep$t/u_bw.1.log $lo $hi || return 1
	done
'

test_expect_success 'log_alternate_epoch with clock id 1: CLOCK_MONOTONIC ms, as fio' '
	for t in iol fio; do
		mkdir -p ea$t || return 1
		test $t = fio && ! test_have_prereq FIO && continue
		lo=$(uptime_ms) &&
		if test $t = fio; then
			(cd ea$t && fio --name=a --size=64k --rw=read \
				--write_lat_log=a --log_alternate_epoch=1 \
				--log_alternate_epoch_clock_id=1 >out 2>err)
		else
			(cd ea$t && "$IOLITE" --name=a --size=64k --rw=read \
				--write_lat_log=a --log_alternate_epoch=1 \
				--log_alternate_epoch_clock_id=1 >out 2>err)
		fi &&
		hi=$(($(uptime_ms) + 10)) &&
		in_window ea$t/a_lat.1.log $((lo - 10)) $hi || return 1
	done
'

test_expect_success 'the clock id alone changes nothing (a note says so)' '
	"$IOLITE" --name=c --size=64k --rw=write --write_lat_log=c \
		--log_alternate_epoch_clock_id=1 >out 2>err &&
	in_window c_lat.1.log 0 60000 &&
	grep "option '\''log_alternate_epoch_clock_id'\'' changes nothing without log_unix_epoch" out
'

test_expect_success 'gtod_cpu and write_barrier: accepted, noted, the same I/O' '
	"$IOLITE" --name=g --size=64k --rw=write --gtod_cpu=0 \
		--write_barrier=2 >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,16,0,0" &&
	grep "job '\''g'\'': option '\''gtod_cpu'\'' changes nothing" out &&
	grep "job '\''g'\'': option '\''write_barrier'\'' changes nothing" out
'

# --- memory (strace shows where the buffers are) ---------------------------

# strace_in DIR CMD...: CMD under strace in DIR, a file per thread
# (-ff: no call split by another thread's) joined in DIR/st
strace_in() {
	d=$1
	shift
	mkdir -p "$d" &&
	(cd "$d" && strace -ff -qq -e raw=pwrite64,pread64 -o st.t "$@" \
		>out 2>err) &&
	cat "$d"/st.t.* >"$d/st"
}

# traced DIR ARGS...: iolite under strace, the trace in DIR/st
traced() {
	d=$1
	shift
	strace_in "$d" "$IOLITE" "$@" --output-format=terse &&
	test_must_be_empty "$d/err"
}

# buffer address of DIR/st's first I/O: 4 KiB at offset 0
first_buf() {
	sed -n "s/.*p\(write\|read\)64(0x[0-9a-f]*, \(0x[0-9a-f]*\), 0x1000, 0).*/\2/p" \
		"$1/st" | head -n 1
}

test_expect_success_if STRACE 'mem=shm: the buffers are a System V segment' '
	traced shm --name=s --size=64k --rw=write --mem=shm &&
	grep "shmget(IPC_PRIVATE, 8192, IPC_CREAT|0600)" shm/st &&
	at=$(sed -n "s/.*shmat([0-9]*, NULL, 0) *= \(0x[0-9a-f]*\)/\1/p" shm/st) &&
	test -n "$at" && test "$(first_buf shm)" = "$at" &&
	grep "shmctl([0-9]*, IPC_RMID" shm/st
'

test_expect_success_if STRACE 'mem=mmapshared: a shared anonymous mapping' '
	traced msh --name=s --size=64k --rw=write --mem=mmapshared &&
	grep "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0)" msh/st
'

test_expect_success_if STRACE 'mem=mmap:FILE: a new file is made, mapped and removed' '
	traced mfile --name=s --size=64k --rw=write --mem=mmap:$TRASH/mfile/buf &&
	grep "openat(AT_FDCWD, \"$TRASH/mfile/buf\", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0644)" mfile/st &&
	grep "ftruncate([0-9]*, 8192)" mfile/st &&
	grep "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE, " mfile/st &&
	test_path_is_missing mfile/buf
'

test_expect_success 'mem=mmap:FILE of an existing file: used, kept, never cut' '
	printf "precious" >keep &&
	"$IOLITE" --name=k --size=64k --rw=write --mem=mmap:$PWD/keep \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(head -c 8 keep)" = precious
'

# buffer address modulo the page of DIR's first I/O
buf_mod() {
	printf "%d\n" $(($(first_buf "$1") % 4096))
}

test_expect_success_if STRACE 'iomem_align: the buffers start that far past a page, as fio' '
	traced al --name=a --size=64k --rw=write --iomem_align=512 &&
	test "$(buf_mod al)" = 512 &&
	traced al100 --name=a --size=64k --rw=read --mem_align=100 --mem=shm &&
	test "$(buf_mod al100)" = 100 &&
	if test_have_prereq FIO; then
		strace_in alf fio --name=a --size=64k --rw=write \
			--iomem_align=512 &&
		test "$(buf_mod alf)" = 512
	fi
'

# AddressSanitizer turns mlock(2) into a no-op that succeeds
test_skip_reason=${IOLITE_SANITIZE:+"built with -fsanitize=$IOLITE_SANITIZE"}
test_expect_success_if STRACE 'lockmem: that much mlock()ed for the job, as fio' '
	traced lm --name=l --size=64k --rw=write --lockmem=1m &&
	grep "mlock(0x[0-9a-f]*, 1048576) *= 0" lm/st &&
	grep "munlock(0x[0-9a-f]*, 1048576) *= 0" lm/st &&
	if test_have_prereq FIO; then
		strace_in lmf fio --name=l --size=64k --rw=write \
			--lockmem=1m &&
		grep "mlock(0x[0-9a-f]*, 1048576) *= 0" lmf/st
	fi
'
test_skip_reason=

test_expect_success_if STRACE 'thp: MADV_HUGEPAGE on the mmap engine mapping, as fio' '
	"$IOLITE" --name=t --size=4m --rw=write >/dev/null &&
	strace_in th "$IOLITE" --name=t --filename=../t.0.0 --size=4m \
		--rw=read --ioengine=mmap --thp=1 &&
	grep "madvise(0x[0-9a-f]*, 4194304, MADV_HUGEPAGE) *= 0" th/st &&
	grep "mmap: .*, thp, " th/out &&
	if test_have_prereq FIO; then
		strace_in thf fio --name=t --filename=../t.0.0 --size=4m \
			--rw=read --ioengine=mmap --thp=1 &&
		grep "madvise(0x[0-9a-f]*, 4194304, MADV_HUGEPAGE) *= 0" thf/st
	fi
'

test_expect_success_if SMP 'log_compression_cpus: the log writers run on those CPUs' '
	test_have_prereq STRACE || return 0
	traced lc --name=l --size=64k --rw=write --write_lat_log=l \
		--log_compression_cpus=1 &&
	grep "sched_setaffinity([1-9][0-9]*, [0-9]*, \[1\]) *= 0" lc/st
'

test_done

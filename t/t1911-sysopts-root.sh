#!/bin/sh
# The job's process options that need root (issue 15.7): uid and gid
# (the job's thread only), a negative nice, ioscheduler on a loop device,
# the blkio cgroup, lockmem beyond RLIMIT_MEMLOCK, huge page buffers
# (shmhuge, mmaphuge, a hugetlbfs file). Each compared with fio 3.33
# where it is installed; everything made here is undone at the end.
. "$(dirname "$0")/test-lib.sh"

if ! test_have_prereq ROOT; then
	skip_all "needs root (uid, gid, ioscheduler, cgroup, huge pages)"
fi

# the user the jobs switch to can reach the scratch directory
chmod 755 "$TRASH"

# a file the job can write as another user: made by us, full size (so
# that neither tool lays it out again as root)
mkfile() {
	mkdir -m 777 "$1" && truncate -s 64k "$1/$2" && chmod 666 "$1/$2"
}

test_expect_success 'uid and gid: the job thread and its commands run as them' '
	mkfile u u.0.0 && (cd u &&
	"$IOLITE" --name=u --size=64k --rw=write --uid=65534 --gid=65534 \
		--exec_prerun="id -u" --exec_postrun="id -g" \
		--output=report >out 2>err) &&
	test_must_be_empty u/err &&
	echo 65534 >expect &&
	test_cmp expect u/u.prerun.txt && test_cmp expect u/u.postrun.txt &&
	test "$(stat -c %u u/u.prerun.txt)" = 65534 &&
	test "$(stat -c %u u/report)" = 0
'

test_expect_success 'uid: the job opens its files as that user (EACCES), as fio' '
	mkdir -m 777 ua && (cd ua &&
	test_must_fail "$IOLITE" --name=a --size=64k --rw=write \
		--uid=65534 --output-format=json >out 2>err) &&
	grep "job '\''a'\'': cannot open '\''a.0.0'\'': Permission denied" ua/err &&
	grep "\"error\" : 13," ua/out &&
	if test_have_prereq FIO; then
		mkdir -m 777 uf && (cd uf &&
		fio --name=a --size=64k --rw=write --uid=65534 \
			--output-format=json >out 2>err;
		grep "\"error\" : 13," out)
	fi
'

test_expect_success 'uid: the same commands output as fio' '
	test_have_prereq FIO || return 0
	mkfile uc f && (cd uc &&
	fio --name=c --filename=f --size=64k --rw=write --uid=65534 \
		--gid=65534 --exec_prerun="id" >out 2>err) &&
	mv uc/c.prerun.txt fio.txt &&
	(cd uc && "$IOLITE" --name=c --filename=f --size=64k --rw=write \
		--uid=65534 --gid=65534 --exec_prerun="id" >out 2>err) &&
	test_cmp fio.txt uc/c.prerun.txt
'

test_expect_success 'nice below 0 (root only)' '
	want=$(($(nice) - 5)) && { [ $want -ge -20 ] || want=-20; } &&
	"$IOLITE" --name=n --size=64k --rw=write --nice=-5 \
		--exec_prerun=nice >out 2>err &&
	echo $want >expect && test_cmp expect n.prerun.txt
'

test_expect_success 'nice below 0 after a uid switch is refused, as fio' '
	mkdir -m 777 nu && (cd nu &&
	test_must_fail "$IOLITE" --name=n --size=64k --rw=write --nice=-5 \
		--uid=65534 >out 2>err) &&
	grep "option '\''nice'\'': cannot add -5: Operation not permitted" nu/err
'

# --- ioscheduler, on a loop device of our own ------------------------------

loop=
if test_have_prereq LOOP && loop=$(test_loop "$TRASH/img" 8M 2>/dev/null); then
	sched=/sys/block/${loop#/dev/}/queue/scheduler
	# a scheduler the device offers and does not use
	other=$(tr -d '[]' <"$sched" | tr ' ' '\n' | grep -v '^$' |
		grep -vx "$(sed 's/.*\[\(.*\)\].*/\1/' "$sched")" | head -n 1)
else
	loop=
fi

test_expect_success_if LOOP 'ioscheduler: the device is switched, and stays so, as fio' '
	test -n "$loop" && test -n "$other" || { echo "no loop device"; return 1; }
	before=$(cat "$sched") &&
	"$IOLITE" --name=s --filename=$loop --size=64k --rw=read \
		--ioscheduler=$other >out 2>err &&
	test_must_be_empty err &&
	grep "\[$other\]" "$sched" &&
	if test_have_prereq FIO; then
		old=$(echo "$before" | sed "s/.*\[\(.*\)\].*/\1/") &&
		echo $old >"$sched" &&
		fio --name=s --filename=$loop --size=64k --rw=read \
			--ioscheduler=$other >fio.out 2>&1 &&
		grep "\[$other\]" "$sched"
	fi
'

test_expect_success_if LOOP 'ioscheduler: a name the device does not offer is refused first' '
	test_must_fail "$IOLITE" --name=s --filename=$loop --size=64k \
		--rw=read --ioscheduler=nosuch >out 2>err &&
	grep "<cmdline>:5: option '\''ioscheduler'\'': device '\''${loop#/dev/}'\'' offers .*, not '\''nosuch'\''" err &&
	test_must_be_empty out
'

# --- the blkio cgroup --------------------------------------------------------

# the mount fio would take: the first cgroup v1 blkio mount, unless a
# cgroup2 mount comes first
blkio=$(awk '$3 == "cgroup2" { exit } $3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)
cg=iolite-t1911-$$
if test -n "$blkio"; then
	test_at_exit="${test_at_exit:-:}; rmdir $blkio/$cg-keep $blkio/$cg-pre $blkio/$cg $blkio/$cg-f 2>/dev/null; :"
fi

test_expect_success 'cgroup: the job thread runs in it; it is removed after' '
	test -n "$blkio" || return 0
	"$IOLITE" --name=c --size=64k --rw=write --cgroup=$cg \
		--exec_prerun="cat /proc/self/cgroup" >out 2>err &&
	test_must_be_empty err &&
	grep "^[0-9]*:blkio:/$cg\$" c.prerun.txt &&
	test_path_is_missing "$blkio/$cg" &&
	if test_have_prereq FIO; then
		mkdir cf && (cd cf && fio --name=c --size=64k --rw=write \
			--cgroup=$cg-f --exec_prerun="cat /proc/self/cgroup" \
			>out 2>err) &&
		grep "^[0-9]*:blkio:/$cg-f\$" cf/c.prerun.txt
	fi
'

# some kernels' blkio controller has no weight file (v1 without CFQ or
# BFQ): there the job must fail, naming the file it could not write
weight=
for f in blkio.weight blkio.bfq.weight; do
	test -n "$blkio" && test -f "$blkio/$f" && weight=$f && break
done
test_expect_success 'cgroup_weight where the controller has no weight file: the job fails, naming it' '
	test -n "$blkio" && test -z "$weight" || return 0
	test_must_fail "$IOLITE" --name=c --size=64k --rw=write \
		--cgroup=$cg-keep --cgroup_nodelete=1 --cgroup_weight=300 \
		>out 2>err &&
	grep "option '\''cgroup_weight'\'': cannot write 300 to $blkio/$cg-keep/blkio.bfq.weight" err &&
	rmdir "$blkio/$cg-keep"
'

if test -n "$blkio" && test -z "$weight"; then
	test_skip_reason="the blkio controller at $blkio has neither blkio.weight nor blkio.bfq.weight"
fi
test_expect_success 'cgroup_nodelete and cgroup_weight: kept, with that weight' '
	test -n "$blkio" || return 0
	"$IOLITE" --name=c --size=64k --rw=write --cgroup=$cg-keep \
		--cgroup_nodelete=1 --cgroup_weight=300 >out 2>err &&
	test_must_be_empty err &&
	test -d "$blkio/$cg-keep" &&
	grep -w 300 $blkio/$cg-keep/$weight &&
	rmdir "$blkio/$cg-keep"
'
test_skip_reason=

test_expect_success 'cgroup: one that was there before is left there' '
	test -n "$blkio" || return 0
	mkdir "$blkio/$cg-pre" &&
	"$IOLITE" --name=c --size=64k --rw=write --numjobs=2 --cgroup=$cg-pre \
		>out 2>err &&
	test -d "$blkio/$cg-pre" &&
	rmdir "$blkio/$cg-pre"
'

test_expect_success 'cgroup: a name whose parent is missing fails the job (ENOENT)' '
	test -n "$blkio" || return 0
	test_must_fail "$IOLITE" --name=c --size=64k --rw=write \
		--cgroup=$cg/a/b >out 2>err &&
	grep "option '\''cgroup'\'': $blkio/$cg/a/b: No such file or directory" err
'

# --- lockmem beyond the limit ------------------------------------------------

# AddressSanitizer turns mlock(2) into a no-op that succeeds
test_skip_reason=${IOLITE_SANITIZE:+"built with -fsanitize=$IOLITE_SANITIZE"}
test_expect_success 'lockmem beyond RLIMIT_MEMLOCK (as another user): the job fails' '
	mkdir -m 777 lk && (cd lk && ulimit -l 64 &&
	test_must_fail "$IOLITE" --name=l --size=64k --rw=write --uid=65534 \
		--lockmem=1m >out 2>err) &&
	grep "option '\''lockmem'\'': cannot lock 1048576 bytes: .* (RLIMIT_MEMLOCK is 65536 bytes)" lk/err &&
	if test_have_prereq FIO; then
		# fio does no I/O either (but calls it a success)
		mkdir -m 777 lkf && (cd lkf && ulimit -l 64 &&
		fio --name=l --size=64k --rw=write --uid=65534 --lockmem=1m \
			--output-format=json >out 2>err;
		grep "\"io_bytes\" : 0," out && ! grep "\"io_bytes\" : [1-9]" out)
	fi
'
test_skip_reason=

# --- huge pages ---------------------------------------------------------------

hp=/proc/sys/vm/nr_hugepages
hp_before=$(cat $hp 2>/dev/null)
hp_free() { awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo; }

test_expect_success 'shmhuge without free huge pages: the job fails, saying why' '
	test "$(hp_free)" = 0 || return 0
	test_must_fail "$IOLITE" --name=h --size=64k --rw=write --mem=shmhuge \
		>out 2>err &&
	grep "huge pages of 2097152 bytes are needed (reserve them in /proc/sys/vm/nr_hugepages)" err
'

# reserve 4 (8 MiB), the value before restored at the end
huge=
if test -n "$hp_before" && echo $((hp_before + 4)) >$hp 2>/dev/null; then
	test_at_exit="${test_at_exit:-:}; echo $hp_before >$hp"
	test "$(hp_free)" -ge 4 && huge=1
fi

test_expect_success 'shmhuge and mmaphuge: buffers of huge pages, as fio' '
	test -n "$huge" || { echo "# no huge pages could be reserved"; return 0; }
	test_have_prereq STRACE || return 0
	for m in shmhuge mmaphuge; do
		mkdir $m && (cd $m && strace -ff -qq -o st.t "$IOLITE" \
			--name=h --size=64k --rw=write --mem=$m \
			>out 2>err) &&
		test_must_be_empty $m/err &&
		cat $m/st.t.* >$m/st &&
		test "$(issued $m/out)" = "0,16,0,0" || return 1
	done &&
	grep "shmget(IPC_PRIVATE, 2097152, IPC_CREAT|SHM_HUGETLB|0600)" shmhuge/st &&
	grep "mmap(NULL, 2097152, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB, -1, 0)" mmaphuge/st &&
	if test_have_prereq FIO; then
		for m in shmhuge mmaphuge; do
			fio --name=h --size=64k --rw=write --mem=$m \
				>fio.$m 2>&1 &&
			test "$(issued fio.$m)" = "0,16,0,0" || return 1
		done
	fi
'

test_expect_success 'mmaphuge:FILE on hugetlbfs: made, used and removed' '
	test -n "$huge" || return 0
	mkdir hfs && mount -t hugetlbfs none hfs &&
	"$IOLITE" --name=f --size=64k --rw=write --mem=mmaphuge:$PWD/hfs/buf \
		>out 2>err;
	rc=$?
	ls hfs >left
	umount hfs &&
	test $rc = 0 && test_must_be_empty err && test_must_be_empty left &&
	test "$(issued out)" = "0,16,0,0"
'

test_done

#!/bin/sh
# Errors (issue 13, items 15 and 16): the report carries the real errno,
# and what the kernel would refuse (an immutable file, fs.aio-max-nr, an
# io_uring ring too big, a directory that cannot be written) is refused
# before any file is created, naming file:line and the option; an empty
# filename= needs a value (fio: "requires an argument").
. "$(dirname "$0")/test-lib.sh"

# chattr +i works here (root, on a file system with the flag)
can_chattr() {
	test_have_prereq ROOT && touch "$TRASH/.ci" &&
	chattr +i "$TRASH/.ci" 2>/dev/null && chattr -i "$TRASH/.ci"
}

test_expect_success 'filename= empty is refused, nothing created' '
	mkdir e && (cd e &&
	printf "[j]\nsize=64k\nrw=write\nfilename=\n" >job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err &&
	echo "iolite: job.fio:4: option '\''filename'\'' needs a value" >want &&
	test_cmp want err &&
	printf "[global]\nfilename=x\n[j]\nsize=64k\nrw=write\nfilename=\n" \
		>job2.fio &&
	test_must_fail "$IOLITE" job2.fio 2>err2 &&
	grep "^iolite: job2.fio:6: option .filename. needs a value" err2 &&
	test_must_fail "$IOLITE" --name=j --size=64k --rw=write \
		--directory= 2>err3 &&
	grep "^iolite: <cmdline>:4: option .directory. needs a value" err3 &&
	test "$(ls | tr "\n" " ")" = "err err2 err3 job.fio job2.fio out want ")
'

test_expect_success_if FIO 'fio refuses an empty filename= too' '
	mkdir ef && (cd ef &&
	printf "[j]\nsize=64k\nrw=write\nfilename=\n" >job.fio &&
	fio job.fio >out 2>err || :
	grep "filename requires an argument\|failed parsing filename=" err &&
	test_path_is_missing j.0.0)
'

can_chattr || test_skip_reason="no chattr +i here (root on ext4, xfs, tmpfs)"

test_expect_success 'an immutable file is refused up front' '
	mkdir imm && (cd imm &&
	head -c 65536 /dev/zero >f && chattr +i f &&
	printf "[w]\nrw=write\nsize=64k\nfilename=f\n[n]\nrw=write\nsize=64k\n" \
		>job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err; r=$?
	chattr -i f
	test $r = 0 &&
	echo "iolite: job.fio:4: option '\''filename'\'': cannot write '\''f'\'': it is immutable (chattr +i): Operation not permitted" >want &&
	test_cmp want err &&
	test_path_is_missing n.0.0 &&
	chattr +a f &&
	test_must_fail "$IOLITE" --name=r --rw=read --size=128k \
		--filename=f 2>err2; r=$?
	chattr -a f
	test $r = 0 &&
	grep "cannot write .f.: it is append-only (chattr +a)" err2)
'

# the file turns immutable after the checks (once "Starting" is out),
# before the job opens it (startdelay)
test_expect_success 'the real errno in every report: EPERM is 1, not 22' '
	mkdir late &&
	head -c 65536 /dev/zero >late/f &&
	(cd late && exec "$IOLITE" --name=j --rw=write --size=64k --filename=f \
		--startdelay=2 --output-format=normal,json,terse >out 2>err) &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q "^Starting" late/out 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	chattr +i late/f
	wait $pid
	r=$?
	chattr -i late/f
	test $r = 1 &&
	grep "^j: (groupid=0, jobs=1): err= 1 (error=Operation not permitted)" late/out &&
	grep "\"error\" : 1,$" late/out &&
	test "$(grep "^3;" late/out | cut -d";" -f5)" = 1 &&
	grep "cannot open .f.: Operation not permitted" late/err
'

test_skip_reason=
test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	command -v prlimit >/dev/null 2>&1 ||
	test_skip_reason="needs root and setpriv, prlimit (util-linux)"

test_expect_success 'a directory that cannot be written is refused up front' '
	chmod 755 "$TRASH" && mkdir -m 755 ro &&
	test_must_fail setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IOLITE" --name=j --size=64k --rw=write --filename=ro/x 2>err &&
	grep "option .filename.: cannot create .ro/x. in .ro.: Permission denied$" err &&
	test_path_is_missing ro/x
'

# what fs.aio-max-nr allows in all: the contexts of other processes on
# the machine come and go (fs.aio-nr), so the depths asked for here are
# over the whole limit, never just over what is left at one moment
aio_max() {
	cat /proc/sys/fs/aio-max-nr
}

test_skip_reason=

test_expect_success_if LIBAIO 'libaio: io_setup beyond fs.aio-max-nr is refused up front' '
	max=$(aio_max) &&
	mkdir aio && (cd aio &&
	printf "[j]\nioengine=libaio\niodepth=%s\nsize=64k\nrw=read\n" \
		$((max + 1)) >job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err &&
	grep "^iolite: job.fio:3: option .iodepth.: libaio needs $((max + 1)) AIO events (io_setup), more than the [0-9]* fs.aio-max-nr leaves" err &&
	test_path_is_missing j.0.0 &&
	half=$((max / 2 + 1)) &&
	test_must_fail "$IOLITE" --name=j --ioengine=libaio --iodepth=$half \
		--numjobs=2 --size=64k --rw=read 2>err2 &&
	grep "the 2 libaio jobs running together need $((half * 2)) AIO events" err2 &&
	test_path_is_missing j.0.0 && test_path_is_missing j.1.0 &&
	"$IOLITE" --name=j --ioengine=libaio --iodepth=$half --size=64k \
		--rw=read --name=k --stonewall --ioengine=libaio \
		--iodepth=$half --size=64k --rw=read --output-format=terse \
		>terse &&
	test "$(cut -d";" -f5 terse | sort -u)" = 0)
'

# fio's "aio" and "linuxaio" are libaio: its options and its limits
test_expect_success_if LIBAIO 'ioengine=aio is libaio: its options, its fs.aio-max-nr check' '
	max=$(aio_max) &&
	mkdir alias && (cd alias &&
	"$IOLITE" --parse-only --name=j --ioengine=aio --nowait=1 \
		--cmdprio_percentage=10 --size=64k >out &&
	grep "^nowait=1$" out &&
	test_must_fail "$IOLITE" --name=j --ioengine=linuxaio \
		--iodepth=$((max + 1)) --size=64k --rw=read 2>err &&
	grep "option .iodepth.: libaio needs $((max + 1)) AIO events" err &&
	test_path_is_missing j.0.0)
'

test_expect_success_if IO_URING 'io_uring: a ring above 32768 entries is refused up front' '
	mkdir ur && (cd ur &&
	test_must_fail "$IOLITE" --name=j --ioengine=io_uring --iodepth=40000 \
		--size=64k --rw=read 2>err &&
	grep "option .iodepth.: 40000: an io_uring ring holds at most 32768 entries" err &&
	test_path_is_missing j.0.0)
'

test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	command -v prlimit >/dev/null 2>&1 ||
	test_skip_reason="needs root and setpriv, prlimit (util-linux)"

test_expect_success_if IO_URING 'io_uring fixedbufs beyond RLIMIT_MEMLOCK without CAP_IPC_LOCK' '
	mkdir ml && (cd ml &&
	test_must_fail prlimit --memlock=65536 setpriv --inh-caps=-ipc_lock \
		--bounding-set=-ipc_lock "$IOLITE" --name=j --ioengine=io_uring \
		--iodepth=64 --fixedbufs=1 --size=64k --rw=read 2>err &&
	grep "option .fixedbufs.: the io_uring jobs running together lock 260KiB of memory (registered buffers), more than RLIMIT_MEMLOCK allows (64.0KiB, ulimit -l) without CAP_IPC_LOCK" err &&
	test_path_is_missing j.0.0)
'
test_skip_reason=

test_done

#!/bin/sh
# What iolite writes, and how (doc/safety.md): errors that end a run
# reach stderr naming the file; names iolite makes up are never
# followed through a symlink; a symlink the user named is followed
# unless it sits in a shared sticky directory and belongs to another
# user; new files are made with O_EXCL; --output never names the job
# file or a job's data file.

. "$(dirname "$0")/test-lib.sh"

cd "$TRASH" || exit 1

# ---- report write errors ----

test_expect_success 'a report cut short (/dev/full): named on stderr, exit 1' '
	for f in normal json json+ terse; do
		test_must_fail "$IOLITE" --name=j --ioengine=null --size=1m \
			--output=/dev/full --output-format=$f >out 2>err &&
		grep -x "iolite: cannot write the report to .\/dev\/full.: No space left on device" err ||
			{ echo "format $f"; cat err; exit 1; }
	done
'

test_expect_success 'stdout on /dev/full: said on stderr, exit 1' '
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=1m \
		--output-format=json >/dev/full 2>err &&
	grep -x "iolite: cannot write the report to standard output: No space left on device" err
'

if test_have_prereq ROOT && mkdir small &&
   mount -t tmpfs -o size=8k iolite-test "$TRASH/small" 2>/dev/null; then
	test_skip_reason=
	test_at_exit='umount "$TRASH/small" 2>/dev/null'
else
	test_skip_reason="needs root to mount a tmpfs"
fi

test_expect_success 'an --output on a full file system: named on stderr' '
	head -c 6k /dev/zero >small/fill &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=1m \
		--output=small/out --output-format=json+ >out 2>err &&
	grep -x "iolite: cannot write the report to .small/out.: No space left on device" err &&
	test $(wc -l <err) = 1 &&
	rm small/out small/fill
'

test_expect_success 'a per-I/O log on a full file system: named on stderr' '
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64m \
		--write_lat_log=small/l --output=rep >out 2>err &&
	grep "^iolite: cannot write log files* .small/l_lat.1.log. (No space left on device)" err &&
	grep "not written in full: .small/l_lat.1.log." rep &&
	rm -f small/*
'
test_skip_reason=

# ---- names iolite makes up: never followed ----

# A file another user would rather see overwritten.
echo precious >victim

# intact: the victim still holds what it held
intact() {
	test "$(cat "$TRASH/victim")" = precious
}

test_expect_success 'a symlink at a log name of ours: refused before any I/O' '
	mkdir logs && ln -s ../victim logs/j_lat.1.log &&
	test_must_fail "$IOLITE" --name=j --directory=logs --size=64k \
		--rw=read --write_lat_log=logs/j >out 2>err &&
	grep -x "iolite: <cmdline>:[0-9]*: option .write_lat_log.: cannot create log file .logs/j_lat.1.log.: a symbolic link where iolite makes a file of its own: not followed" err &&
	intact && test_path_is_missing logs/j.0.0
'

test_expect_success 'a symlink at --bandwidth-log or a page name of ours: refused' '
	mkdir bwl && (cd bwl && ln -s ../victim agg-write_bw.log &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--bandwidth-log >out 2>err &&
	grep "cannot create log file .agg-write_bw.log.: a symbolic link" err) &&
	ln -s victim page.html &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--output=page.json --output-format=json,html 2>err &&
	grep -x "iolite: cannot open output file .page.html.: a symbolic link where iolite makes a file of its own: not followed" err &&
	intact
'

test_expect_success 'a symlink at a data file name of ours: refused, filename= follows' '
	mkdir data && ln -s ../victim data/j.0.0 &&
	test_must_fail "$IOLITE" --name=j --directory=data --size=4k \
		--rw=write >out 2>err &&
	grep "option .directory.: .data/j.0.0.: a symbolic link where iolite makes a file of its own: not followed (name the file with filename= to use it)" err &&
	intact &&
	# named, the same link is what the user asked for
	echo precious >mine && ln -s ../mine data/named &&
	"$IOLITE" --name=j --filename=data/named --size=4k --rw=write \
		>out 2>err &&
	test_must_be_empty err &&
	test $(wc -c <mine) = 4096 && test -L data/named
'

test_expect_success 'a FIFO at a name of ours: refused, nothing hangs' '
	mkdir fifo && mkfifo fifo/j_lat.1.log &&
	test_must_fail timeout 20 "$IOLITE" --name=j --ioengine=null \
		--size=64k --write_lat_log=fifo/j >out 2>err &&
	grep "cannot create log file .fifo/j_lat.1.log.: not a regular file, where iolite makes a file of its own" err
'

test_expect_success 'the verify state: written under a fresh name, never followed' '
	mkdir vs && (cd vs &&
	ln -s ../victim local-v-0-verify.state &&
	ln -s ../victim local-v-0-verify.state.tmp &&
	"$IOLITE" --name=v --filename=f --size=64k --rw=write \
		--verify=crc32c --verify_state_save=1 >out 2>err &&
	test_must_be_empty err &&
	test -f local-v-0-verify.state && ! test -L local-v-0-verify.state &&
	grep -q "^iolite verify state 1$" local-v-0-verify.state &&
	# nothing left behind but the old .tmp link
	test "$(ls -a | grep -c verify.state)" = 2) &&
	intact
'

test_expect_success 'exec_prerun output and std_redirect: never followed' '
	mkdir ex && (cd ex && ln -s ../victim j.prerun.txt &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=4k \
		--exec_prerun="echo hi" >out 2>err &&
	grep "option .exec_prerun.: cannot create j.prerun.txt: a symbolic link" err) &&
	intact
'

test_expect_success 'a symlink the user named: --output and write_iolog follow it' '
	mkdir own && ln -s ../rep.txt own/out && ln -s ../io.log own/iolog &&
	"$IOLITE" --name=j --ioengine=null --size=64k --output=own/out \
		--write_iolog=own/iolog >out 2>err &&
	test_must_be_empty err &&
	grep -q "^j: (groupid=0" rep.txt && grep -q "^fio version 3 iolog$" io.log
'

# ---- --output never overwrites what the run reads ----

test_expect_success '--output naming the job file or a data file: refused first' '
	printf "[j]\nfilename=jf.dat\nsize=64k\nrw=write\n" >j.fio &&
	cp j.fio j.fio.orig &&
	test_must_fail "$IOLITE" j.fio --output=j.fio >out 2>err &&
	grep -x "iolite: option .--output.: .j.fio. is the job file .j.fio.: not overwritten" err &&
	test_cmp j.fio.orig j.fio && test_path_is_missing jf.dat &&
	# the same file by another name
	test_must_fail "$IOLITE" ./j.fio --output=$TRASH/j.fio 2>err &&
	grep "is the job file" err && test_cmp j.fio.orig j.fio &&
	# a data file still to be made, and one that exists
	test_must_fail "$IOLITE" --name=d --filename=new.dat --size=64k \
		--rw=write --output=./new.dat 2>err &&
	grep -x "iolite: <cmdline>:[0-9]*: option .--output.: ..\/new.dat. is the data file .new.dat. of job .d.: not overwritten" err &&
	test_path_is_missing new.dat &&
	echo precious >old.dat &&
	test_must_fail "$IOLITE" --name=d --filename=old.dat --size=4k \
		--rw=read --output=old.dat 2>err &&
	grep "is the data file .old.dat." err &&
	test "$(cat old.dat)" = precious
'

# ---- root, in a sticky directory others can write ----

if test_have_prereq SETPRIV; then
	chmod 711 "$TRASH" && chmod 644 victim && mkdir -m 1777 tmp
	as_nobody() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	}
fi

test_expect_success_if SETPRIV 'root: another user'\''s symlink at a log name: refused' '
	as_nobody ln -s ../victim tmp/j_lat.1.log &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--rw=read --write_lat_log=tmp/j >out 2>err &&
	grep "cannot create log file .tmp/j_lat.1.log.: a symbolic link" err &&
	intact && rm tmp/j_lat.1.log
'

test_expect_success_if SETPRIV 'root: a named symlink of another user in a sticky directory: refused' '
	as_nobody ln -s ../victim tmp/out &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--output=tmp/out >out 2>err &&
	grep -x "iolite: cannot open output file .tmp/out.: a symbolic link owned by another user in a sticky directory others can write: not followed" err &&
	test_must_fail "$IOLITE" --name=j --filename=tmp/out --size=4k \
		--rw=write >out 2>err &&
	grep "option .filename.: .tmp/out.: a symbolic link owned by another user" err &&
	intact && rm tmp/out &&
	# root'\''s own link there is followed
	ln -s ../rootrep tmp/mine &&
	"$IOLITE" --name=j --ioengine=null --size=64k --output=tmp/mine &&
	grep -q "^j: (groupid=0" rootrep && rm tmp/mine
'

test_expect_success_if SETPRIV 'root: another user'\''s file, or a hard link, in a sticky directory: not written' '
	as_nobody sh -c "echo theirs >tmp/j_lat.1.log" &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--write_lat_log=tmp/j >out 2>err &&
	grep "cannot create log file .tmp/j_lat.1.log.: a file owned by another user in a sticky directory others can write: not written" err &&
	test "$(cat tmp/j_lat.1.log)" = theirs && rm tmp/j_lat.1.log &&
	# a hard link to a file elsewhere (as protected_hardlinks=0 would let
	# another user make): its target is never cut
	ln victim tmp/j_lat.1.log &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=64k \
		--write_lat_log=tmp/j >out 2>err &&
	grep "a file with other hard links, in a sticky directory others can write: not written" err &&
	intact && rm tmp/j_lat.1.log
'

test_done

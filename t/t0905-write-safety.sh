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

test_done

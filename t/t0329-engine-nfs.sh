#!/bin/sh
# nfs: a server's files through libnfs, against nfs-ganesha (its VFS
# backend, user space) started here on 127.0.0.1 (t/lib-nfs.sh). The
# counts and bytes are the job's arithmetic, the write_iolog and the
# data on the export's backing directory are a local psync job's (fio
# 3.33 has no nfs engine to compare with); the errors of the network
# (refused connection, missing export, read-only export, permission
# denied, a missing file, a server killed mid-run, a server that stops
# answering) fail the job with the server's reason, the report kept.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-bg.sh"
. "$TEST_DIR/lib-nfs.sh"

test_require LIBNFS JQ

test_expect_success 'refused before anything: no nfs_url, a bad one, trims, local-file options' '
	test_must_fail "$IOLITE" --name=x --ioengine=nfs --size=64k 2>err &&
	grep -q "option .nfs_url.: ioengine .nfs. needs the server and export" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=nfs --size=64k \
		--nfs_url=http://h/e 2>err &&
	grep -q "option .nfs_url.: .http://h/e. is not nfs://SERVER/EXPORT" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=nfs --size=64k \
		--nfs_url=nfs://h/e --rw=randtrim 2>err &&
	grep -q "option .rw.: NFS has no trims" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=nfs --size=64k \
		--nfs_url=nfs://h/e --unlink=1 2>err &&
	grep -q "option .unlink.: not with ioengine nfs" err &&
	test_must_fail "$IOLITE" --name=x --ioengine=psync --size=64k \
		--nfs_url=nfs://h/e 2>err &&
	grep -q "option .nfs_url.*nfs" err &&
	! ls x.* 2>/dev/null
'

test_skip_unless GANESHA

# the servers: one for the jobs, one killed mid-run, one stopped
test_expect_success 'ganesha starts, exporting rw and ro' '
	nfs_start a && echo "$NFS_URL_RW" >url && echo "$NFS_URL_RO" >url_ro &&
	nfs_start k && echo "$NFS_URL_RW" >url_k &&
	nfs_start s && echo "$NFS_URL_RW" >url_s && echo "$NFS_PID" >pid_s &&
	mkdir local
'
URL=$(cat "$TRASH/url" 2>/dev/null)

# the stalled server: the job's runtime is over, its I/O has no answer;
# 5 s later what is in flight fails (ETIMEDOUT), the report kept
test -s "$TRASH/pid_s" && bg_run stall '
	"$IOLITE" --name=s --ioengine=nfs --nfs_url="$(cat url_s)" \
		--rw=randwrite --bs=4k --size=64m --iodepth=4 --time_based \
		--runtime=1 --output-format=json >s.json 2>s.err &
	ip=$!
	while ! test -s s/rw/s.0.0 && kill -0 $ip; do sleep 0.05; done
	kill -STOP "$(cat pid_s)"
	wait $ip; echo $? >s.rc
	kill -CONT "$(cat pid_s)"
'

# JOB --key=value...: the same job through nfs and through psync into
# local/, JSON in nfs.json and psync.json, write_iologs without times
# (and local/ left out of the names) in nfs.log and psync.log
both() {
	"$IOLITE" --ioengine=nfs --nfs_url="$URL" --output-format=json \
		--write_iolog=nfs.raw "$@" >nfs.json &&
	"$IOLITE" --ioengine=psync --directory=local --output-format=json \
		--write_iolog=psync.raw "$@" >psync.json &&
	cut -d" " -f2- nfs.raw >nfs.log &&
	cut -d" " -f2- psync.raw | sed "s|^local/||" >psync.log
}

# figures JSON: reads, read bytes, writes, write bytes, syncs, error
figures() {
	jq -r ".jobs[0] | [.read.total_ios, .read.io_bytes, .write.total_ios,
		.write.io_bytes, .sync.total_ios, .error] | @tsv" "$1"
}

# the data: verify's blocks (a header and a fill seeded per block), the
# same whichever I/O unit carries them, unlike a plain job's buffers
test_expect_success 'write, 2 files at depth 4, end_fsync: the arithmetic, the data and the iolog of psync' '
	both --name=w --rw=write --bs=64k --size=1m --nrfiles=2 --iodepth=4 \
		--end_fsync=1 --verify=crc32c --do_verify=0 &&
	printf "0\t0\t16\t1048576\t0\t0\n" >expect &&
	figures nfs.json >actual && test_cmp expect actual &&
	test "$(stat -c %s a/rw/w.0.0)" = 524288 &&
	cat a/rw/w.0.0 a/rw/w.0.1 | md5sum >actual &&
	cat local/w.0.0 local/w.0.1 | md5sum >expect &&
	test_cmp expect actual &&
	test_cmp psync.log nfs.log &&
	jq -e ".iolite.notes | map(select(startswith(\"nfs: nfs://127.0.0.1\"))) | length == 1" \
		nfs.json >/dev/null
'

# fio 3.33 (psync) makes 7 syncs of this job, not 8: none after the last
test_expect_success 'randwrite at depth 8 with fsync=8 and verify: COMMITs counted, data and iolog as psync' '
	both --name=r --rw=randwrite --bs=4k --size=256k --iodepth=8 \
		--fsync=8 --verify=crc32c --do_verify=1 &&
	printf "64\t262144\t64\t262144\t7\t0\n" >expect &&
	figures nfs.json >actual && test_cmp expect actual &&
	figures psync.json >actual && test_cmp expect actual &&
	cmp a/rw/r.0.0 local/r.0.0 &&
	test_cmp psync.log nfs.log
'

test_expect_success 'read back what the write job wrote, randread at depth 16, fdatasync in a write mix' '
	"$IOLITE" --name=w --ioengine=nfs --nfs_url="$URL" --rw=randread \
		--bs=16k --size=1m --nrfiles=2 --iodepth=16 \
		--output-format=json >nfs.json &&
	printf "64\t1048576\t0\t0\t0\t0\n" >expect &&
	figures nfs.json >actual && test_cmp expect actual &&
	both --name=m --rw=randrw --bs=4k --size=128k --iodepth=4 \
		--fdatasync=4 --randseed=7 &&
	test_cmp psync.log nfs.log &&
	test "$(figures nfs.json | cut -f3,5)" = \
		"$(figures psync.json | cut -f3,5)"
'

# fails JOBARGS...: the job fails, its one error line in err, the JSON
# report on stdout still whole (out.json)
fails() {
	test_must_fail "$IOLITE" --name=x --ioengine=nfs --size=64k \
		--output-format=json "$@" >out.json 2>err &&
	test "$(wc -l <err)" = 1 &&
	jq -e ".jobs[0].jobname == \"x\" and .jobs[0].error != 0" out.json \
		>/dev/null
}

test_expect_success 'a refused connection, a missing export: the job, the export and the reason' '
	port=$(free_port) &&
	fails --nfs_url="nfs://127.0.0.1/e?nfsport=$port&mountport=$port" &&
	grep -q "^iolite: job .x.: nfs: cannot mount export ./e. of 127.0.0.1: ." err &&
	fails --nfs_url="$(echo "$URL" | sed "s|/rw?|/none?|")" &&
	grep -q "^iolite: job .x.: nfs: cannot mount export .$TRASH/a/none. of 127.0.0.1: .*MNT3ERR_" err
'

test_expect_success 'a read-only export written, a directory not writable, a missing file read' '
	fails --nfs_url="$(cat url_ro)" --rw=write &&
	grep -q "^iolite: job .x.: nfs: cannot open .x.0.0. on nfs://127.0.0.1$TRASH/a/ro: .*NFS3ERR_ROFS" err &&
	! test -e a/ro/x.0.0 &&
	mkdir a/rw/locked && chmod 555 a/rw/locked &&
	fails --nfs_url="$URL&uid=65534&gid=65534" --directory=locked \
		--rw=write &&
	grep -q "cannot open .locked/x.0.0. on .*NFS3ERR_ACCES" err &&
	fails --nfs_url="$URL" --filename=missing --rw=read &&
	grep -q "cannot open .missing. on .*NFS3ERR_NOENT" err &&
	jq -e ".jobs[0].error == 2" out.json >/dev/null
'

test_expect_success 'the server killed mid-run: the I/O fails with the reason, the report kept' '
	"$IOLITE" --name=k --ioengine=nfs --nfs_url="$(cat url_k)" \
		--rw=randwrite --bs=4k --size=64m --iodepth=4 --time_based \
		--runtime=30 --output-format=json >k.json 2>k.err &
	ip=$! &&
	while ! test -s k/rw/k.0.0 && kill -0 $ip; do sleep 0.05; done &&
	kill -9 "$(cat k/pid)" &&
	{ wait $ip; test $? = 1; } &&
	test "$(wc -l <k.err)" = 1 &&
	grep -q "^iolite: job .k.: write of 4096 bytes at offset [0-9]* of .k.0.0. failed: .* (nfs://127.0.0.1$TRASH/k/rw)$" k.err &&
	jq -e ".jobs[0].error == 5 and .jobs[0].write.total_ios > 0 and .jobs[0].job_runtime < 20000" \
		k.json >/dev/null
'

test_expect_success 'a server that stops answering: ETIMEDOUT 5 s after the runtime, the report kept' '
	bg_wait stall &&
	test "$(cat s.rc)" = 1 &&
	test "$(wc -l <s.err)" = 1 &&
	grep -q "^iolite: job .s.: write of 4096 bytes .* failed: no answer from the server after the job.s end (nfs://" s.err &&
	jq -e ".jobs[0].error == 110 and .jobs[0].write.total_ios > 0" \
		s.json >/dev/null
'

test_done

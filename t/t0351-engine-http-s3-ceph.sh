#!/bin/sh
# http_mode=s3 against radosgw on a one-node Ceph cluster on 127.0.0.1
# (t/lib-ceph.sh, the Ceph engines' helper): requests signed with AWS
# signature v4, the objects' bytes read back by a signer of the test's
# own (t/s3req.py, Python's hmac), reads verified, range reads, trims
# as DELETE, a bad secret refused by the server (403). It starts a
# cluster: its name ends in -ceph, so that make test-ceph runs it (the
# Ceph engines' target, beside t/lib-ceph.sh), not make test.

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3 HTTP LIBCRYPTO
. "$TEST_DIR/lib-ceph.sh"
ceph_require rgw

T=120	# seconds any one run may take
S3REQ="$TEST_DIR/s3req.py"

# at the top level, so that ceph_stop knows the daemons' ids
ceph_ok=0
ceph_start "$TRASH/ceph" rgw >"$TRASH/ceph.out" 2>&1 && ceph_ok=1
EP=$CEPH_S3_ENDPOINT
AK=$CEPH_S3_ACCESS_KEY
SK=$CEPH_S3_SECRET_KEY

s3() {
	python3 "$S3REQ" "$1" "$EP" "$2" "$AK" "$SK" $3
}

test_expect_success 'a one-node Ceph cluster with radosgw, a bucket' '
	{ test $ceph_ok = 1 || { echo "$ceph_why"; false; }; } &&
	test "$(s3 PUT /bkt)" = 200
'
[ $ceph_ok = 1 ] || test_skip_reason="no cluster: $ceph_why"

s3job() {
	timeout $T "$IOLITE" --ioengine=http --http_mode=s3 \
		--http_host=${EP#http://} --http_s3_keyid="$AK" \
		--http_s3_key="$SK" "$@"
}

test_expect_success 'signed PUTs, verified GETs, the objects'"'"' bytes' '
	s3job --name=s3 --filename=/bkt/o --rw=write --bs=4k --size=64k \
		--verify=crc32c --scramble_buffers=0 >out 2>err &&
	test_must_be_empty err &&
	grep "^    PUT   : n=16, .*errors=0, bytes=65536$" out &&
	grep "^    GET   : n=16, .*errors=0, bytes=65536$" out &&
	for o in 0 4096 61440; do
		test "$(s3 GET /bkt/o_${o}_4096 o.$o)" = 200 || return 1
	done &&
	"$IOLITE" --name=s3 --ioengine=psync --filename=local --rw=write \
		--bs=4k --size=64k --verify=crc32c --scramble_buffers=0 \
		>/dev/null &&
	dd if=local bs=4k count=1 2>/dev/null | cmp - o.0 &&
	dd if=local bs=4k skip=1 count=1 2>/dev/null | cmp - o.4096 &&
	dd if=local bs=4k skip=15 count=1 2>/dev/null | cmp - o.61440
'

test_expect_success 'range mode: one object, HEAD, then Range GETs' '
	s3job --name=r --filename=/bkt/whole --rw=write --bs=64k --size=64k \
		--http_object_mode=range --scramble_buffers=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(s3 GET /bkt/whole whole)" = 200 &&
	"$IOLITE" --name=r --ioengine=psync --filename=local.r --rw=write \
		--bs=64k --size=64k --scramble_buffers=0 >/dev/null &&
	cmp local.r whole &&
	s3job --name=rr --filename=/bkt/whole --rw=read --bs=4k --size=64k \
		--http_object_mode=range >out 2>err &&
	test_must_be_empty err &&
	grep "^    GET   : n=16, .*errors=0, bytes=65536$" out &&
	grep "^    HEAD  : n=1, .*errors=0" out
'

test_expect_success 'a wrong secret: 403 from the server, the job fails' '
	test_must_fail timeout $T "$IOLITE" --ioengine=http --http_mode=s3 \
		--http_host=${EP#http://} --http_s3_keyid="$AK" \
		--http_s3_key=wrong --name=bad --filename=/bkt/o --rw=read \
		--bs=4k --size=16k >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .bad.: read of 4096 bytes at offset 0 of ./bkt/o. failed: GET $EP/bkt/o_0_4096: HTTP/1.1 403 Forbidden (SignatureDoesNotMatch)$" err &&
	grep "^bad: (groupid=0, jobs=1): err=13" out
'

test_expect_success 'trims are DELETEs: the objects go' '
	s3job --name=t --filename=/bkt/o --rw=trim --bs=4k --size=64k \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^    DELETE: n=16, .*errors=0" out &&
	test "$(s3 GET /bkt/o_0_4096)" = 404
'

test_done

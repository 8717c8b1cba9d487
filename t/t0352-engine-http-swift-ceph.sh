#!/bin/sh
# http_mode=swift, and S3 with a customer's key (SSE-C) and a storage
# class, against radosgw on a one-node Ceph cluster on 127.0.0.1
# (t/lib-ceph.sh). Swift as fio does it: the token is got beforehand (v1
# auth at /auth/1.0, by t/swiftreq.py) and given as
# http_swift_auth_token; each PUT carries its MD5 (radosgw checks it).
# The objects are read back by the test's own clients (t/swiftreq.py,
# t/s3req.py) and compared with the same job's file through psync; the
# SSE-C objects are also looked at in the cluster (rados get: not the
# plain bytes). radosgw takes SSE-C over plain http only with
# rgw_crypt_require_ssl off (CEPH_RGW_OPTS). Side by side with fio
# when the fio in PATH has the http engine (Debian's has not: skipped).
# Its name ends in -ceph: make test-ceph runs it.

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3 HTTP LIBCRYPTO
. "$TEST_DIR/lib-ceph.sh"
ceph_require rgw
CEPH_RGW_OPTS=--rgw-crypt-require-ssl=false
CEPH_RGW_CLASSES=COLD
KEY=0123456789abcdef0123456789abcdef	# 32 bytes, as AES256 wants
SW="$TEST_DIR/swiftreq.py"
S3REQ="$TEST_DIR/s3req.py"
T=120	# seconds any one run may take
ceph_ok=0
ceph_start "$TRASH/ceph" rgw >"$TRASH/ceph.out" 2>&1 && ceph_ok=1
EP=$CEPH_S3_ENDPOINT
HOST=${EP#http://}

test_expect_success 'a cluster with radosgw, a Swift token, a container' '
	{ test $ceph_ok = 1 || { echo "$ceph_why"; false; }; } &&
	python3 "$SW" auth "$EP" iolite:swift "$CEPH_SWIFT_KEY" >token &&
	test "$(python3 "$SW" PUT "$EP/swift/v1/cont" "$(cat token)")" = 201 &&
	test "$(python3 "$S3REQ" PUT "$EP" /bkt "$CEPH_S3_ACCESS_KEY" \
		"$CEPH_S3_SECRET_KEY")" = 200
'
[ $ceph_ok = 1 ] || test_skip_reason="no cluster: $ceph_why"
TOKEN=$(cat "$TRASH/token" 2>/dev/null)

swift() {
	python3 "$SW" "$1" "$EP/swift/v1$2" "$TOKEN" $3
}

swiftjob() {
	timeout $T "$IOLITE" --ioengine=http --http_mode=swift \
		--http_host="$HOST" --http_swift_auth_token="$TOKEN" "$@"
}

# the same job's bytes through psync, into FILE
local_copy() {
	f_=$1
	shift
	"$IOLITE" --name=l --ioengine=psync --filename="$f_" \
		--scramble_buffers=0 "$@" >/dev/null
}

test_expect_success 'swift: PUTs with their MD5, verified GETs, the bytes' '
	swiftjob --name=sw --filename=/swift/v1/cont/o --rw=write --bs=4k \
		--size=64k --verify=crc32c --scramble_buffers=0 >out 2>err &&
	test_must_be_empty err &&
	grep "^sw: (groupid=0, jobs=1): err= 0" out &&
	test "$(issued out)" = 16,16,0,0 &&
	grep "^    PUT   : n=16, .*errors=0, bytes=65536$" out &&
	grep "^    GET   : n=16, .*errors=0, bytes=65536$" out &&
	local_copy local --rw=write --bs=4k --size=64k --verify=crc32c &&
	: >objs &&
	for o in 0 4096 8192 12288 16384 20480 24576 28672 32768 36864 \
		40960 45056 49152 53248 57344 61440; do
		test "$(swift GET /cont/o_${o}_4096 obj)" = 200 &&
		cat obj >>objs || return 1
	done &&
	test "$(md5sum <objs)" = "$(md5sum <local)"
'

test_expect_success 'swift, range mode: one object, HEAD, Range GETs' '
	swiftjob --name=r --filename=/swift/v1/cont/whole --rw=write \
		--bs=64k --size=64k --http_object_mode=range \
		--scramble_buffers=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(swift GET /cont/whole whole)" = 200 &&
	local_copy local.r --rw=write --bs=64k --size=64k &&
	cmp local.r whole &&
	swiftjob --name=rr --filename=/swift/v1/cont/whole --rw=read \
		--bs=4k --size=64k --http_object_mode=range >out 2>err &&
	test_must_be_empty err &&
	grep "^    GET   : n=16, .*errors=0, bytes=65536$" out &&
	grep "^    HEAD  : n=1, .*errors=0" out
'

test_expect_success 'swift: a bad token, 401 AccessDenied; report kept' '
	test_must_fail swiftjob --name=bad --http_swift_auth_token=nope \
		--filename=/swift/v1/cont/o --rw=write --bs=4k --size=16k \
		>out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .bad.: write of 4096 bytes at offset 0 of ./swift/v1/cont/o. failed: PUT $EP/swift/v1/cont/o_0_4096: HTTP/1.1 401 Unauthorized (AccessDenied)$" err &&
	grep "^bad: (groupid=0, jobs=1): err=13" out &&
	grep "^    PUT   : n=0, .*errors=1" out &&
	test_must_fail swiftjob --name=bad --http_swift_auth_token=nope \
		--filename=/swift/v1/cont/o --rw=read --bs=4k --size=16k \
		--output-format=json >out.json 2>err &&
	test $(wc -l <err) = 1 &&
	grep "GET $EP/swift/v1/cont/o_0_4096: HTTP/1.1 401 Unauthorized (AccessDenied)$" err &&
	python3 -c "import json, sys
j = json.load(open(sys.argv[1]))[\"jobs\"][0]
assert j[\"error\"] == 13, j[\"error\"]" out.json
'

test_expect_success 'swift: a missing container, 404 NoSuchBucket' '
	test_must_fail swiftjob --name=nc --filename=/swift/v1/none/o \
		--rw=write --bs=4k --size=16k >out 2>err &&
	grep "PUT $EP/swift/v1/none/o_0_4096: HTTP/1.1 404 Not Found (NoSuchBucket)$" err &&
	grep "^nc: (groupid=0, jobs=1): err= 2" out
'

test_expect_success 'swift: trims are DELETEs, the objects go' '
	swiftjob --name=t --filename=/swift/v1/cont/o --rw=trim --bs=4k \
		--size=64k >out 2>err &&
	test_must_be_empty err &&
	grep "^    DELETE: n=16, .*errors=0" out &&
	test "$(swift GET /cont/o_0_4096)" = 404
'

s3job() {
	timeout $T "$IOLITE" --ioengine=http --http_mode=s3 \
		--http_host="$HOST" --http_s3_keyid="$CEPH_S3_ACCESS_KEY" \
		--http_s3_key="$CEPH_S3_SECRET_KEY" "$@"
}

# sse KEY: the SSE-C headers of KEY for s3req.py, as fio makes them (the
# key's first 32 bytes, zeros after it)
sse() {
	python3 -c 'import base64, hashlib, sys
k = sys.argv[1].encode()[:32].ljust(32, b"\0")
print("x-amz-server-side-encryption-customer-algorithm:AES256")
print("x-amz-server-side-encryption-customer-key:" +
      base64.b64encode(k).decode())
print("x-amz-server-side-encryption-customer-key-md5:" +
      base64.b64encode(hashlib.md5(k).digest()).decode())' "$1"
}

s3() {
	m_=$1 p_=$2 o_=$3
	shift 3
	python3 "$S3REQ" "$m_" "$EP" "$p_" "$CEPH_S3_ACCESS_KEY" \
		"$CEPH_S3_SECRET_KEY" "$o_" "$@"
}

# rgw_stat OBJECT: radosgw's record of bkt/OBJECT (its attributes)
rgw_stat() {
	radosgw-admin -c "$CEPH_CONF" object stat --bucket=bkt \
		--object="$1" 2>/dev/null
}

test_expect_success 'SSE-C: written with the key, verified, encrypted' '
	s3job --name=e --filename=/bkt/e --rw=write --bs=4k --size=16k \
		--http_s3_sse_customer_key=$KEY --verify=crc32c \
		--scramble_buffers=0 >out 2>err &&
	test_must_be_empty err &&
	grep "^    PUT   : n=4, .*errors=0, bytes=16384$" out &&
	grep "^    GET   : n=4, .*errors=0, bytes=16384$" out &&
	rgw_stat e_0_4096 | grep -a "\"user.rgw.crypt.mode\": \"SSE-C-AES256\"" &&
	test "$(s3 GET /bkt/e_4096_4096 e1 $(sse $KEY))" = 200 &&
	local_copy local.e --rw=write --bs=4k --size=16k --verify=crc32c &&
	dd if=local.e bs=4k skip=1 count=1 2>/dev/null >plain1 &&
	cmp plain1 e1 &&
	raw=$(rados -c "$CEPH_CONF" -p default.rgw.buckets.data ls |
		grep "_e_4096_4096\$") &&
	rados -c "$CEPH_CONF" -p default.rgw.buckets.data get "$raw" raw1 &&
	test $(wc -c <raw1) = 4096 &&
	! cmp -s raw1 plain1
'

test_expect_success 'SSE-C: no key, a wrong key: the server'"'"'s reason' '
	test_must_fail s3job --name=nokey --filename=/bkt/e --rw=read \
		--bs=4k --size=16k >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .nokey.: read of 4096 bytes at offset 0 of ./bkt/e. failed: GET $EP/bkt/e_0_4096: HTTP/1.1 400 Bad Request (InvalidArgument: Requests specifying Server Side Encryption with Customer provided keys must provide a valid encryption algorithm.)$" err &&
	grep "^nokey: (groupid=0, jobs=1): err= 5" out &&
	test_must_fail s3job --name=wrong --filename=/bkt/e --rw=read \
		--bs=4k --size=16k --http_s3_sse_customer_key=${KEY%?}X \
		>out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "GET $EP/bkt/e_0_4096: HTTP/1.1 400 Bad Request (InvalidArgument: The calculated MD5 hash of the key did not match the hash that was provided.)$" err &&
	s3job --name=right --filename=/bkt/e --rw=read --bs=4k --size=16k \
		--http_s3_sse_customer_key=$KEY --verify=crc32c >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'SSE-C: a short key is padded with zeros, as fio' '
	s3job --name=s --filename=/bkt/s --rw=write --bs=4k --size=4k \
		--http_s3_sse_customer_key=short --scramble_buffers=0 \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(s3 GET /bkt/s_0_4096 s0 $(sse short))" = 200 &&
	local_copy local.s --rw=write --bs=4k --size=4k &&
	cmp local.s s0
'

test_expect_success 'storage class: STANDARD by default, COLD, unknown' '
	s3job --name=c --filename=/bkt/std --rw=write --bs=4k --size=4k \
		>out 2>err &&
	test_must_be_empty err &&
	rgw_stat std_0_4096 | grep -a "\"user.rgw.storage_class\": \"STANDARD\"" &&
	s3job --name=c --filename=/bkt/cold --rw=write --bs=4k --size=4k \
		--http_s3_storage_class=COLD >out 2>err &&
	test_must_be_empty err &&
	rgw_stat cold_0_4096 | grep -a "\"user.rgw.storage_class\": \"COLD\"" &&
	test_must_fail s3job --name=g --filename=/bkt/g --rw=write --bs=4k \
		--size=4k --http_s3_storage_class=GLACIER >out 2>err &&
	grep "PUT $EP/bkt/g_0_4096: HTTP/1.1 400 Bad Request (InvalidArgument)$" err
'

# fio with the http engine (Debian's 3.33 is built without it): the
# same jobs side by side when `fio` in PATH has it
fio_why=
if ! command -v fio >/dev/null 2>&1; then
	fio_why="no fio (apt-get install fio)"
elif ! fio --enghelp 2>/dev/null | grep -q "^[[:space:]]*http\$"; then
	fio_why="$(fio --version) has no http engine (built without libcurl)"
fi
skip_was=$test_skip_reason
test_skip_reason=${test_skip_reason:-$fio_why}
PAT="--verify=pattern --verify_pattern=%o --do_verify=0"

# figs JSON: the writes' count and bytes, the job's error
figs() {
	python3 -c "import json, sys
j = json.load(open(sys.argv[1]))[\"jobs\"][0]
print(j[\"write\"][\"total_ios\"], j[\"write\"][\"io_bytes\"], j[\"error\"])" "$1"
}

test_expect_success 'side by side with fio: Swift and SSE-C objects, iologs' '
	for tool in fio "$IOLITE"; do
		t=$(basename $tool) &&
		rm -f $t.sw.log &&
		$tool --name=s --ioengine=http --http_mode=swift \
			--http_host="$HOST" --http_swift_auth_token="$TOKEN" \
			--filename=/swift/v1/cont/$t --rw=randwrite --bs=4k \
			--size=32k $PAT --write_iolog=$t.sw.log \
			--output-format=json >$t.sw.json 2>err &&
		test_must_be_empty err &&
		figs $t.sw.json >>figs.$t &&
		sed -n "s|^[0-9]* /swift/v1/cont/$t |X |p" $t.sw.log |
			sort >>iolog.$t &&
		$tool --name=e --ioengine=http --http_mode=s3 \
			--http_host="$HOST" --http_s3_keyid="$CEPH_S3_ACCESS_KEY" \
			--http_s3_key="$CEPH_S3_SECRET_KEY" \
			--http_s3_sse_customer_key=short --filename=/bkt/$t \
			--rw=randwrite --bs=4k --size=32k $PAT \
			--output-format=json >$t.e.json 2>err &&
		test_must_be_empty err &&
		figs $t.e.json >>figs.$t &&
		for o in 0 4096 8192 12288 16384 20480 24576 28672; do
			test "$(swift GET /cont/${t}_${o}_4096 ob)" = 200 &&
			echo "swift $o $(md5sum <ob)" &&
			test "$(s3 GET /bkt/${t}_${o}_4096 ob $(sse short))" = 200 &&
			echo "sse-c $o $(md5sum <ob)" || return 1
		done >>objs.$t || return 1
	done &&
	cat figs.fio && test_cmp figs.fio figs.iolite &&
	test $(grep -c " write " iolog.fio) = 8 &&
	test_cmp iolog.fio iolog.iolite &&
	test $(wc -l <objs.fio) = 16 && test_cmp objs.fio objs.iolite &&
	s3job --name=x --filename=/bkt/fio --rw=read --bs=4k --size=32k \
		--verify=pattern --verify_pattern=%o \
		--http_s3_sse_customer_key=short >out 2>err &&
	test_must_be_empty err
'
test_skip_reason=$skip_was

test_done

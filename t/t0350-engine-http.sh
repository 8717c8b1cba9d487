#!/bin/sh
# http (WebDAV) against nginx started here on 127.0.0.1 (t/lib-http.sh):
# fio's objects (one per block, FILENAME_OFFSET_LENGTH; range mode's one
# per file), their bytes the same as the sync engine's file, reads
# verified, trims as DELETE, the per-method table (normal and JSON), and
# the errors of the network: refused connection, bad credentials, a
# missing object, a server that stops answering, one killed mid-run:
# the job and the server's reason on stderr, the report kept, exit 1;
# https over a certificate made for the test (openssl).
# Debian's fio 3.33 has no http engine: no side-by-side rows.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-http.sh"

test_require PYTHON3 HTTP NGINX
nginx_start "$TRASH/ng" || skip_all "$nginx_why"
test_at_exit="nginx_stop"
DAV=$TRASH/ng/dav
T=60	# seconds any one run may take

http() {
	timeout $T "$IOLITE" --ioengine=http --http_host=$NGINX_HOST "$@"
}

# pyjson FILE EXPR: EXPR of the JSON document j (its first job: job)
cat >"$TRASH/pyjson.py" <<\PYEOF
import json, sys
j = json.load(open(sys.argv[1]))
job = j["jobs"][0]
print(eval(sys.argv[2]))
PYEOF
pyjson() {
	python3 "$TRASH/pyjson.py" "$@"
}

# concat PREFIX: the objects PREFIX_OFF_LEN in offset order, as one stream
concat() {
	python3 -c 'import glob, sys
p = sys.argv[1]
objs = sorted(glob.glob(p + "_*"), key=lambda n: int(n.split("_")[-2]))
sys.stdout.buffer.write(b"".join(open(o, "rb").read() for o in objs))' "$1"
}

test_expect_success 'refused before any request: paths, keys, tokens' '
	test_must_fail "$IOLITE" --name=j --ioengine=http --rw=write \
		--size=4k 2>err &&
	grep "option .filename.: ioengine .http. needs filename=/PATH" err &&
	test_must_fail "$IOLITE" --name=j --ioengine=http --rw=write \
		--size=4k --filename=obj 2>err &&
	grep "must begin with ./." err &&
	test_must_fail "$IOLITE" --name=j --ioengine=http --rw=write \
		--size=4k --filename=/o --http_mode=s3 2>err &&
	grep "http_s3_keyid and http_s3_key" err &&
	test_must_fail "$IOLITE" --name=j --ioengine=http --rw=write \
		--size=4k --filename=/o --http_mode=swift 2>err &&
	grep "http_swift_auth_token" err &&
	test_must_fail "$IOLITE" --name=j --ioengine=http --rw=write \
		--size=4k --filename=/o --http_user=u 2>err &&
	grep "http_user and http_pass go together" err &&
	test_must_fail "$IOLITE" --name=j --ioengine=psync --rw=write \
		--size=4k --filename=x --http_host=h 2>err &&
	grep "http_host" err &&
	! ls "$DAV"/o* 2>/dev/null
'

test_expect_success 'random writes: an object per block, the sync engine'"'"'s bytes' '
	http --name=d --filename=/d --rw=randwrite --bs=4k --size=256k \
		--scramble_buffers=0 --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test $(ls "$DAV" | grep -c "^d_[0-9]*_4096$") = 64 &&
	test $(stat -c %s "$DAV/d_4096_4096") = 4096 &&
	"$IOLITE" --name=d --ioengine=psync --filename=local --rw=randwrite \
		--bs=4k --size=256k --scramble_buffers=0 >/dev/null &&
	concat "$DAV/d" >objs &&
	cmp objs local &&
	test "$(pyjson out.json "job[\"write\"][\"total_ios\"]")" = 64 &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"PUT\"][\"requests\"]")" = 64 &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"PUT\"][\"bytes\"]")" = 262144
'

test_expect_success 'write, then verified reads (GET), the table per method' '
	http --name=v --filename=/v --rw=write --bs=8k --size=128k \
		--verify=crc32c --write_iolog=v.log >out 2>err &&
	test_must_be_empty err &&
	grep "^  http requests (usec):" out &&
	grep "^    PUT   : n=16, .*errors=0, bytes=131072$" out &&
	grep "^    GET   : n=16, .*errors=0, bytes=131072$" out &&
	grep "^      ttfb: p50=" out &&
	grep -c " /v write " v.log >n && test "$(cat n)" = 16 &&
	grep -c " /v read " v.log >n && test "$(cat n)" = 16
'

test_expect_success 'JSON: GET latency and time to first byte, rates' '
	http --name=r --filename=/v --rw=read --bs=8k --size=128k \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	pyjson out.json "job[\"iolite\"][\"http\"][\"GET\"]" >get &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"GET\"][\"lat_ns\"][\"N\"]")" = 16 &&
	pyjson out.json "all(0 < job[\"iolite\"][\"http\"][\"GET\"][\"ttfb_ns\"][\"percentile\"][k] <= job[\"iolite\"][\"http\"][\"GET\"][\"lat_ns\"][\"max\"] for k in (\"50.000000\", \"99.000000\"))" >ok &&
	test "$(cat ok)" = True &&
	pyjson out.json "job[\"iolite\"][\"http\"][\"GET\"][\"rate\"] > 0 and job[\"iolite\"][\"http\"][\"PUT\"][\"requests\"] == 0" >ok &&
	test "$(cat ok)" = True
'

test_expect_success 'numjobs=2, group_reporting: the requests add up' '
	http --name=g --filename=/g --rw=write --bs=4k --size=32k --numjobs=2 \
		--group_reporting --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"PUT\"][\"requests\"]")" = 16
'

test_expect_success 'iodepth=8: requests in flight together, posixaio'"'"'s bytes' '
	http --name=q --filename=/q --rw=randwrite --bs=4k --size=256k \
		--iodepth=8 --refill_buffers=1 --output-format=json \
		>out.json 2>err &&
	test_must_be_empty err &&
	test $(ls "$DAV" | grep -c "^q_[0-9]*_4096$") = 64 &&
	"$IOLITE" --name=q --ioengine=posixaio --filename=local.q \
		--rw=randwrite --bs=4k --size=256k --iodepth=8 \
		--refill_buffers=1 >/dev/null &&
	concat "$DAV/q" >objs.q &&
	cmp objs.q local.q &&
	pyjson out.json "job[\"iodepth_level\"][\"8\"] > 50" >ok &&
	test "$(cat ok)" = True &&
	http --name=q --filename=/q --rw=randwrite --bs=4k --size=256k \
		--iodepth=8 --verify=crc32c >out 2>err &&
	test_must_be_empty err &&
	grep "^    GET   : n=64, .*errors=0, bytes=262144$" out
'

test_expect_success 'ramp_time: the requests count from its end, as the I/Os' '
	http --name=rp --filename=/rp --rw=write --bs=4k --size=64k \
		--ramp_time=300ms --runtime=600ms --time_based \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	pyjson out.json "(job[\"write\"][\"total_ios\"], job[\"iolite\"][\"http\"][\"PUT\"][\"requests\"])" >n &&
	pyjson out.json "job[\"write\"][\"total_ios\"] == job[\"iolite\"][\"http\"][\"PUT\"][\"requests\"] > 0" >ok &&
	cat n && test "$(cat ok)" = True
'

test_expect_success 'trims are DELETEs: the objects go' '
	http --name=t --filename=/d --rw=trim --bs=4k --size=256k \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	! ls "$DAV" | grep "^d_" &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"DELETE\"][\"requests\"]")" = 64
'

test_expect_success 'a missing object reads as zeros (fio), counted and noted' '
	http --name=z --filename=/nothing --rw=read --bs=4k --size=16k \
		--verify=pattern --verify_pattern=0 --verify_only=1 >out 2>err &&
	test_must_be_empty err &&
	grep "^    GET   : n=4, .*, 404=4$" out &&
	grep "http: 4 GETs answered 404 Not Found: read as zeros" out
'

test_expect_success 'range mode: one object, read by Range GETs and verified' '
	"$IOLITE" --name=rg --ioengine=psync --filename=local.rg --rw=write \
		--bs=4k --size=64k --verify=crc32c --do_verify=0 >/dev/null &&
	cp local.rg "$DAV/rg" &&
	http --name=rg --filename=/rg --rw=write --bs=4k --size=64k \
		--verify=crc32c --verify_only=1 --http_object_mode=range \
		>out 2>err &&
	test_must_be_empty err &&
	grep "^    GET   : n=16, .*bytes=65536$" out &&
	cmp local.rg "$DAV/rg"
'

test_expect_success 'range mode: a missing object fails the job at HEAD' '
	test_must_fail http --name=m --filename=/missing --rw=read --bs=4k \
		--size=16k --http_object_mode=range >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .m.: object ./missing.: HEAD http://$NGINX_HOST/missing: HTTP/1.1 404 Not Found$" err &&
	grep "^m: (groupid=0, jobs=1): err= 2" out
'

test_expect_success 'credentials: 401 with a bad password, accepted with the right one' '
	test_must_fail http --name=a --filename=/auth/a --rw=write --bs=4k \
		--size=16k --http_user=u --http_pass=bad \
		--output-format=json >out.json 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .a.: write of 4096 bytes at offset 0 of ./auth/a. failed: PUT http://$NGINX_HOST/auth/a_0_4096: HTTP/1.1 401 Unauthorized$" err &&
	test "$(pyjson out.json "job[\"error\"]")" = 13 &&
	test "$(pyjson out.json "job[\"iolite\"][\"http\"][\"PUT\"][\"errors\"]")" = 1 &&
	! ls "$DAV/auth" | grep . &&
	http --name=a --filename=/auth/a --rw=write --bs=4k --size=16k \
		--http_user=u --http_pass=secret >out 2>err &&
	test_must_be_empty err &&
	test $(ls "$DAV/auth" | grep -c "^a_") = 4
'

test_expect_success 'the reason in an error'"'"'s body: S3'"'"'s XML, plain text' '
	test_must_fail http --name=x --filename=/s3err/o --rw=write --bs=4k \
		--size=4k >out 2>err &&
	grep "^iolite: job .x.: write of 4096 bytes at offset 0 of ./s3err/o. failed: PUT http://$NGINX_HOST/s3err/o_0_4096: HTTP/1.1 403 Forbidden (AccessDenied: Access Denied)$" err &&
	grep "^x: (groupid=0, jobs=1): err=13" out &&
	test_must_fail http --name=t --filename=/txterr/o --rw=read --bs=4k \
		--size=4k >out 2>err &&
	grep "GET http://$NGINX_HOST/txterr/o_0_4096: HTTP/1.1 409 Conflict (Locked by someone)$" err
'

test_expect_success 'a refused connection: the job, the URL and curl'"'"'s reason' '
	PORT=$(free_port) &&
	test_must_fail timeout $T "$IOLITE" --ioengine=http \
		--http_host=127.0.0.1:$PORT --name=c --filename=/c --rw=write \
		--size=16k --output-format=json,normal >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .c.: write of 4096 bytes at offset 0 of ./c. failed: PUT http://127.0.0.1:$PORT/c_0_4096: .*Couldn.t connect to server" err &&
	grep "^c: (groupid=0, jobs=1): err=111" out
'

test_expect_success 'a server that never answers: runtime holds, ETIMEDOUT' '
	PORT=$(free_port) || exit 1
	python3 -c "import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((\"127.0.0.1\", int(sys.argv[1])))
s.listen(4)
open(\"silent.up\", \"w\").close()
c = s.accept()
time.sleep(30)" $PORT &
	pid=$! &&
	n=0 &&
	while ! test -f silent.up && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done &&
	test -f silent.up &&
	test_must_fail timeout $T "$IOLITE" --ioengine=http \
		--http_host=127.0.0.1:$PORT --name=s --filename=/s --rw=write \
		--size=16k --runtime=1 --time_based >out 2>err;
	rc=$?; kill $pid; wait $pid
	test $rc = 0 &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .s.: write of 4096 bytes at offset 0 of ./s. failed: PUT http://127.0.0.1:$PORT/s_0_4096: no answer in .* s, cut at the job.s end" err &&
	grep "^s: (groupid=0, jobs=1): err=110" out
'

[ -n "$NGINX_TLS_HOST" ] || test_skip_reason=$nginx_tls_why
test_expect_success 'https=insecure: over TLS, the certificate not checked' '
	timeout $T "$IOLITE" --ioengine=http --http_host=$NGINX_TLS_HOST \
		--https=insecure --name=tls --filename=/tls --rw=write --bs=4k \
		--size=32k --verify=crc32c >out 2>err &&
	test_must_be_empty err &&
	grep "^    PUT   : n=8, .*errors=0, bytes=32768$" out &&
	grep "^    GET   : n=8, .*errors=0, bytes=32768$" out &&
	test $(ls "$DAV" | grep -c "^tls_") = 8
'

test_expect_success 'https=on: a self-signed certificate refused, curl says why' '
	test_must_fail timeout $T "$IOLITE" --ioengine=http \
		--http_host=$NGINX_TLS_HOST --https=on --name=tv --filename=/tv \
		--rw=write --bs=4k --size=8k >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .tv.: write of 4096 bytes at offset 0 of ./tv. failed: PUT https://$NGINX_TLS_HOST/tv_0_4096: SSL certificate problem" err &&
	! ls "$DAV" | grep "^tv_"
'
test_skip_reason=

test_expect_success 'nginx killed mid-run (iodepth=4): the error, the report kept, exit 1' '
	(
		# once the run has written objects, the server goes
		while ! ls "$DAV" | grep -q "^k_"; do sleep 0.05; done
		kill $NGINX_PID
	) &
	test_must_fail http --name=k --filename=/k --rw=randrw --bs=4k \
		--size=64k --runtime=20 --time_based --iodepth=4 \
		--output-format=json,normal >out 2>err &&
	wait &&
	test $(wc -l <err) = 1 &&
	grep "^iolite: job .k.: .* of 4096 bytes at offset [0-9]* of ./k. failed: [A-Z]* http://$NGINX_HOST/k_[0-9]*_4096: " err &&
	grep "^k: (groupid=0, jobs=1): err=" out &&
	grep "^  http requests (usec):" out &&
	grep "\"jobname\" : \"k\"" out
'

test_done

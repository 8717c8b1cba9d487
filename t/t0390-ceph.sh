#!/bin/sh
# The rados and rbd engines against a one-node Ceph cluster started here
# (t/lib-ceph.sh: a monitor, a manager, one memstore OSD on 127.0.0.1),
# side by side with fio 3.33's engines of the same names: the objects
# and the image's blocks written, the counts, the bytes, the iolog; and
# the errors of the network: no monitor, a missing pool, image or
# object, an unknown user, the OSD killed mid-run.
#
# Not in make test (the cluster takes ~20 s and ~10 CPU-s to start):
# make test-ceph runs it (and .ci/run does).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-ceph.sh"

"$IOLITE" --enghelp | grep -qw rados ||
	skip_all "iolite built without rados: apt-get install librados-dev and rebuild"
"$IOLITE" --enghelp | grep -qw rbd ||
	skip_all "iolite built without rbd: apt-get install librbd-dev and rebuild"
ceph_have || skip_all "$ceph_why"

test_at_exit=ceph_stop
cd "$TRASH" || exit 1

# here, not in a test's subshell: the daemons and $CEPH_* outlive it
ceph_rc=0
ceph_start "$TRASH/ceph" || ceph_rc=$?
test_expect_success 'a one-node Ceph cluster starts on 127.0.0.1' '
	test $ceph_rc = 0 || { echo "# $ceph_why" >&2; false; }
'
[ $ceph_rc = 0 ] || test_skip_reason="the cluster did not start"
# doc/engines.md's figures: how long each step took
[ -f "$TRASH/ceph/log/start.txt" ] &&
	awk 'NR == 1 { s = $1 } { printf "# ceph start: %s at %.1f s\n", $2, $1 - s }' \
		"$TRASH/ceph/log/start.txt"

R() { rados -c "$CEPH_CONF" -p "$CEPH_POOL" "$@"; }
# obj_size NAME: an object's size
obj_size() { R stat "$1" | sed 's/.*size //'; }
# json FILE EXPR: a figure of the first job of a JSON report (j: the job)
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(eval(sys.argv[2]))' "$1" "$2"
}
# new_image: the test image again, empty
new_image() {
	rbd -c "$CEPH_CONF" rm "$CEPH_POOL/$CEPH_IMAGE" >/dev/null 2>&1
	rbd -c "$CEPH_CONF" create --size "$CEPH_IMAGE_MB" \
		"$CEPH_POOL/$CEPH_IMAGE"
}
# image_md5 BYTES: md5 of the image's first BYTES
image_md5() {
	rbd -c "$CEPH_CONF" export "$CEPH_POOL/$CEPH_IMAGE" - 2>/dev/null |
		head -c "$1" | md5sum | cut -d" " -f1
}
# the I/O lines of an iolog (fio opens each file before its first I/O,
# iolite, as for any engine without files, at the start)
iolog_io() { grep -E " (read|write|trim|sync) " "$1" | cut -d" " -f2-; }

RADOS="--ioengine=rados --pool=$CEPH_POOL --conf=$CEPH_CONF"
RBD="--ioengine=rbd --pool=$CEPH_POOL --rbdname=$CEPH_IMAGE"
export CEPH_CONF	# rbd has no conf=: librados reads $CEPH_CONF
# offset-stamped data, the same from both tools
PAT="--verify=pattern --verify_pattern=%o --do_verify=0"

test_expect_success 'rados: one object per file, named and sized as fio' '
	"$IOLITE" --name=w $RADOS --rw=write --bs=64k --size=1m --nrfiles=2 \
		--iodepth=4 --output-format=json >w.json 2>err &&
	test_must_be_empty err &&
	test "$(json w.json "j[\"write\"][\"total_ios\"]")" = 16 &&
	test "$(json w.json "j[\"write\"][\"io_bytes\"]")" = 1048576 &&
	R ls | grep "^w\\." | sort >objs &&
	printf "w.0.0\nw.0.1\n" >want &&
	test_cmp want objs &&
	test "$(obj_size w.0.0)" = 524288 &&
	test "$(obj_size w.0.1)" = 524288
'

test_expect_success 'rados: written, read back and verified (iodepth 8)' '
	"$IOLITE" --name=v $RADOS --rw=randwrite --bs=4k --size=512k \
		--iodepth=8 --verify=crc32c >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "128,128,0,0" &&
	"$IOLITE" --name=v $RADOS --rw=read --bs=4k --size=512k \
		--iodepth=4 --busy_poll=1 --verify=crc32c --verify_only \
		>out 2>err &&
	test_must_be_empty err &&
	R get v.0.0 v.obj &&
	"$IOLITE" --name=c --rw=read --bs=4k --size=512k --filename=v.obj \
		--verify=crc32c --verify_only >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'clientname and clustername name the user as fio does' '
	"$IOLITE" --name=c $RADOS --clientname=admin --rw=write --bs=4k \
		--size=8k >out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --name=c $RADOS --clustername=ceph \
		--clientname=client.admin --rw=write --bs=4k --size=8k \
		>out 2>err &&
	test_must_be_empty err &&
	test_must_fail "$IOLITE" --name=c $RADOS --clientname=client.admin \
		--rw=write --bs=4k --size=8k >out 2>err &&
	grep "as client.client.admin: " err
'

test_expect_success 'rados: a trim zeroes its range of the object' '
	"$IOLITE" --name=t $RADOS --rw=write --bs=64k --size=256k \
		--buffer_pattern=0x5a >out 2>err &&
	"$IOLITE" --name=t $RADOS --rw=trim --bs=64k --size=256k \
		--offset=64k --io_size=64k >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,0,1,0" &&
	R get t.0.0 t.obj &&
	test "$(head -c 65536 t.obj | tr -d "\\132" | wc -c)" = 0 &&
	test "$(head -c 131072 t.obj | tail -c 65536 | tr -d "\\000" | wc -c)" = 0
'

test_expect_success 'rados: touch_objects makes them empty; a read past the end is zeros' '
	"$IOLITE" --name=e $RADOS --rw=read --bs=4k --size=16k \
		--verify=pattern --verify_pattern=0 --verify_only \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "4,0,0,0" &&
	test "$(obj_size e.0.0)" = 0
'

test_expect_success 'rados: a missing object (touch_objects=0): the job fails naming it' '
	test_must_fail "$IOLITE" --name=m $RADOS --touch_objects=0 --rw=read \
		--bs=4k --size=16k --output-format=json >m.json 2>err &&
	grep "job .m.: read of 4096 bytes at offset 0 of .m\\.0\\.0. failed: No such file or directory" err &&
	test "$(json m.json "j[\"error\"]")" = 2
'

test_expect_success 'rados: bad input is refused before the run' '
	test_must_fail "$IOLITE" --name=b --ioengine=rados --size=4k 2>err &&
	grep "option .pool.: ioengine .rados. needs pool=" err &&
	test_must_fail "$IOLITE" --name=b $RADOS --size=4k --rw=write \
		--fsync=1 2>err &&
	grep "option .fsync.: ioengine .rados. has no sync" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=rbd --pool=p --size=4k \
		2>err &&
	grep "option .rbdname.: ioengine .rbd. needs rbdname=" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=psync --pool=p \
		--size=4k 2>err &&
	grep "pool" err
'

test_expect_success 'rbd: the image is the file: its size, written and verified' '
	"$IOLITE" --name=r $RBD --rw=write --bs=1m --iodepth=4 \
		--verify=md5 --output-format=json >r.json 2>err &&
	test_must_be_empty err &&
	test "$(json r.json "j[\"write\"][\"io_bytes\"]")" = \
		$((CEPH_IMAGE_MB * 1048576)) &&
	test "$(json r.json "j[\"read\"][\"io_bytes\"]")" = \
		$((CEPH_IMAGE_MB * 1048576)) &&
	"$IOLITE" --name=r $RBD --rw=randrw --bs=16k --iodepth=8 \
		--io_size=2m --fsync=8 --rwmixread=50 --write_iolog=r.log \
		--output-format=json >r.json 2>err &&
	test_must_be_empty err &&
	grep -q "^[0-9]* r\\.0\\.0 add" r.log &&
	# one flush per 8 writes (fio 3.42 and the HOWTO; fio 3.33 queues
	# more: doc/compat.md, fsync-queued)
	writes=$(grep -c " write " r.log) &&
	test "$(grep -c " sync " r.log)" = $((writes / 8)) &&
	test "$(json r.json "j[\"sync\"][\"total_ios\"]")" = $((writes / 8))
'

test_expect_success 'rbd: a discard reads back as zeros' '
	"$IOLITE" --name=d $RBD --rw=write --bs=64k --size=256k \
		--buffer_pattern=0x5a >out 2>err &&
	"$IOLITE" --name=d $RBD --rw=trim --bs=64k --size=256k >out 2>err &&
	test_must_be_empty err &&
	test "$(issued out)" = "0,0,4,0" &&
	test "$(image_md5 262144)" = \
		"$(head -c 262144 /dev/zero | md5sum | cut -d" " -f1)"
'

test_expect_success 'rbd: a missing image or pool is refused naming it' '
	test_must_fail "$IOLITE" --name=n --ioengine=rbd --pool=$CEPH_POOL \
		--rbdname=nosuch --rw=write --bs=4k 2>err &&
	grep "cannot open RBD image .$CEPH_POOL/nosuch.: No such file or directory" err &&
	test_must_fail "$IOLITE" --name=n --ioengine=rbd --pool=nosuch \
		--rbdname=img --rw=write --bs=4k 2>err &&
	grep "cannot open Ceph pool .nosuch.: No such file or directory" err
'

test_expect_success 'rados: a missing pool: the job fails, the report is kept' '
	test_must_fail "$IOLITE" --name=p --ioengine=rados --pool=nosuch \
		--conf="$CEPH_CONF" --rw=write --bs=4k --size=16k \
		--output-format=json >p.json 2>err &&
	echo "iolite: job '"'p'"': cannot open Ceph pool '"'nosuch'"': No such file or directory" >want &&
	test_cmp want err &&
	test "$(json p.json "j[\"error\"]")" = 2
'

test_expect_success 'an unknown user: refused by the monitor, the reason given' '
	test_must_fail "$IOLITE" --name=u $RADOS --clientname=nobody \
		--rw=write --bs=4k --size=16k >out 2>err &&
	echo "iolite: job '"'u'"': cannot connect to Ceph cluster '"'ceph'"' as client.nobody: Permission denied" >want &&
	test_cmp want err &&
	grep "Run status group" out
'

test_expect_success 'no monitor: a timeout (client_mount_timeout), not a hang' '
	sed "s/^mon host = .*/mon host = v2:127.0.0.1:$(free_port)/" \
		"$CEPH_CONF" >nomon.conf &&
	printf "[client]\nclient mount timeout = 2\n" >>nomon.conf &&
	test_must_fail timeout 60 "$IOLITE" --name=n --ioengine=rados \
		--pool=$CEPH_POOL --conf=nomon.conf --rw=write --bs=4k \
		--size=16k --output-format=json >n.json 2>err &&
	grep "job .n.: cannot connect to Ceph cluster .ceph. as client.admin: Connection timed out" err &&
	test "$(json n.json "j[\"error\"]")" = 110
'

test_expect_success_if FIO 'side by side with fio: rados objects, counts, bytes, iolog' '
	for tool in fio "$IOLITE"; do
		rm -f s.log &&
		$tool --name=s $RADOS --rw=randwrite --bs=4k --size=256k \
			--nrfiles=2 --iodepth=4 $PAT --write_iolog=s.log \
			--output-format=json >s.json 2>err || return 1
		test_must_be_empty err &&
		json s.json "j[\"write\"][\"total_ios\"], j[\"write\"][\"io_bytes\"]" \
			>>figs.$(basename $tool) &&
		iolog_io s.log | sort >>iolog.$(basename $tool) &&
		for o in s.0.0 s.0.1; do
			echo "$o $(obj_size $o) $(R get $o - | md5sum)"
			R rm $o
		done >>objs.$(basename $tool) || return 1
	done &&
	cat figs.fio && test_cmp figs.fio figs.iolite &&
	test_cmp iolog.fio iolog.iolite &&
	cat objs.fio && test_cmp objs.fio objs.iolite
'

test_expect_success_if FIO 'side by side with fio: the rbd image written, counts, iolog' '
	for tool in fio "$IOLITE"; do
		new_image && rm -f b.log &&
		$tool --name=s $RBD --rw=randwrite --bs=16k --size=1m \
			--offset=1m --iodepth=8 $PAT --write_iolog=b.log \
			--output-format=json >b.json 2>err || return 1
		test_must_be_empty err &&
		json b.json "j[\"write\"][\"total_ios\"], j[\"write\"][\"io_bytes\"]" \
			>>bfigs.$(basename $tool) &&
		iolog_io b.log | sort >>blog.$(basename $tool) &&
		image_md5 4194304 >>bmd5.$(basename $tool) || return 1
	done &&
	cat bfigs.fio && test_cmp bfigs.fio bfigs.iolite &&
	test_cmp blog.fio blog.iolite &&
	test_cmp bmd5.fio bmd5.iolite
'

# last: it kills the OSD
test_expect_success 'the OSD killed mid-run: the I/O times out, the report is kept' '
	cp "$CEPH_CONF" osd.conf &&
	printf "[client]\nrados osd op timeout = 3\n" >>osd.conf &&
	{ sleep 2; kill -9 $CEPH_OSD_PID; } &
	test_must_fail timeout 120 "$IOLITE" --name=k --ioengine=rados \
		--pool=$CEPH_POOL --conf=osd.conf --rw=randwrite --bs=4k \
		--size=1m --iodepth=4 --time_based --runtime=100 \
		--output-format=json >k.json 2>err &&
	wait &&
	cat err &&
	test "$(wc -l <err)" = 1 &&
	grep "job .k.: write of 4096 bytes at offset [0-9]* of .k\\.0\\.0. failed: Connection timed out" err &&
	test "$(json k.json "j[\"error\"]")" = 110 &&
	test "$(json k.json "j[\"write\"][\"total_ios\"] > 0")" = True
'

test_done

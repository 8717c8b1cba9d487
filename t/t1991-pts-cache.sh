#!/bin/sh
# iolite pts (issue #31): the variant's write cache on a SCSI disk
# (scsi_disk/H:C:T:L/cache_type, which the sd driver turns into a MODE
# SELECT), switched for the run and put back however pts ends: at the
# end, after a SIGTERM mid-round, and after a SIGKILL (the guard process
# puts it back). The disk is a zram device with a fake sysfs tree
# (IOLITE_SYSFS_ROOT) giving it a cache_type; the real attribute is
# exercised in the QEMU guest (t/vm/pts.sh, scsi_debug).

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-pts.sh"
test_at_exit='zram_remove_all'

test_skip_unless ZRAM

# fake_disk DEV STATE: a fake sysfs tree in $TRASH/sys where DEV is a
# SCSI disk whose cache is STATE; the attribute's path in ct
fake_disk() {
	ct=$TRASH/sys/class/block/${1#/dev/}/device/scsi_disk/2:0:0:0 &&
	mkdir -p "$ct" && ct=$ct/cache_type && printf "%s\n" "$2" >"$ct"
}

# wait_cache STATE: until the fake attribute says STATE (10 s at most)
wait_cache() {
	wc_i=0
	while [ "$(cat "$ct")" != "$1" ] && [ $wc_i -lt 100 ]; do
		sleep 0.1
		wc_i=$((wc_i + 1))
	done
	test "$(cat "$ct")" = "$1"
}

# pts_bg DEV [OPTS]: a scaled run that would last minutes, in the
# background (its pid in pid), once the cache is switched
pts_bg() {
	dev=$1 && shift &&
	{ IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" pts iops "$dev" \
		--destroy-data --round-time=60s --bs=4k --mix=0/100 \
		--capacity-limit=16M --max-rounds=5 --precondition=none \
		--output-format=json --output=bg.json "$@" 2>bg.err &
	  echo $! >pid; } &&
	wait_cache "write through"
}

test_expect_success 'enterprise: the cache off for the run, on again after' '
	z=$(zram_add 64M) && echo "$z" >zdev &&
	fake_disk "$z" "write back" &&
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" pts iops "$z" --destroy-data \
		--round-time=20ms --bs=4k --mix=0/100 --capacity-limit=16M \
		--max-rounds=5 --output-format=json --output=e.json 2>err &&
	test_must_be_empty err &&
	test "$(cat "$ct")" = "write back" &&
	python3 - <<-\PY
	import json
	s = {x["name"]: x for x in json.load(open("e.json"))["settings"]}
	c = s["write cache"]
	assert c["spec"] == "off" and c["honoured"] == 1, c
	assert c["used"].startswith("off (SCSI MODE SELECT"), c
	assert "on before, restored after" in c["used"], c
	PY
'

test_expect_success 'client: the cache on for the run, off again after' '
	z=$(cat zdev) && fake_disk "$z" "write through" &&
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" pts iops "$z" --destroy-data \
		--variant=client --round-time=20ms --bs=4k --mix=0/100 \
		--capacity-limit=16M --max-rounds=5 >out 2>err &&
	test_must_be_empty err &&
	test "$(cat "$ct")" = "write through" &&
	grep "write cache *on *on (SCSI MODE SELECT.*off before, restored after) *yes" out
'

test_expect_success 'already as the variant asks: left alone, no restore' '
	z=$(cat zdev) && fake_disk "$z" "write through" &&
	IOLITE_SYSFS_ROOT=$TRASH/sys "$IOLITE" pts iops "$z" --destroy-data \
		--round-time=20ms --bs=4k --mix=0/100 --capacity-limit=16M \
		--max-rounds=5 >out 2>err &&
	test_must_be_empty err &&
	grep "write cache *off *off (SCSI MODE SELECT.*off before) *yes" out
'

test_expect_success 'SIGTERM mid-round: the cache back, the report written' '
	z=$(cat zdev) && fake_disk "$z" "write back" &&
	pts_bg "$z" && sleep 0.3 &&
	kill -TERM "$(cat pid)" && { wait "$(cat pid)"; echo $? >rc; } &&
	test "$(cat rc)" = 143 &&
	test "$(cat "$ct")" = "write back" &&
	grep "interrupted: the report covers the rounds done" bg.json &&
	python3 -c "import json; json.load(open(\"bg.json\"))"
'

test_expect_success 'SIGKILL mid-round: the guard puts the cache back' '
	z=$(cat zdev) && fake_disk "$z" "write back" &&
	pts_bg "$z" && sleep 0.3 &&
	kill -KILL "$(cat pid)" && { wait "$(cat pid)"; echo $? >rc; } &&
	test "$(cat rc)" = 137 &&
	wait_cache "write back"
'

test_done

# A one-node Ceph cluster for the tests, in a scratch directory, on
# 127.0.0.1 only: a monitor, a manager, one OSD on memstore (in memory:
# the quickest to start, and librbd works on it), a pool of size 1 with an
# RBD image, and optionally radosgw with an S3 user.
#
#   . "$TEST_DIRECTORY"/lib-ceph.sh
#   ceph_start DIR [rgw]     starts it all under DIR; 0, or 1 with the
#                            reason in $ceph_why (and the logs in DIR/log)
#   ceph_stop                stops every daemon ceph_start started
#
# After ceph_start, for the tests:
#   CEPH_CONF         the configuration file (rados, rbd and the engines'
#                     conf=; librados also reads $CEPH_CONF)
#   CEPH_POOL         a pool of size 1 (8 placement groups)
#   CEPH_IMAGE        an RBD image in it, CEPH_IMAGE_MB MiB
#   CEPH_MON          the monitor's address (v2 protocol)
#   CEPH_OSD_PID      the OSD's process, for the tests that kill it
# and with rgw:
#   CEPH_S3_ENDPOINT  http://127.0.0.1:PORT, radosgw's S3
#   CEPH_S3_ACCESS_KEY, CEPH_S3_SECRET_KEY  the keys of its user "iolite"
#
# Knobs for radosgw, set before ceph_start:
#   CEPH_RGW_OPTS     more options on radosgw's command line, e.g.
#                     --rgw-crypt-require-ssl=false (SSE-C over http)
#   CEPH_RGW_CLASSES  storage classes (space between them) added to the
#                     default placement, each with a data pool of its own
#                     (radosgw is started again to see them: ~3 s)
# and CEPH_SWIFT_KEY after ceph_start: the Swift key of "iolite:swift",
# a subuser of "iolite" with full access (auth at $CEPH_S3_ENDPOINT/auth/1.0).
#
# ceph_have says whether the packages are there (else $ceph_why names the
# one missing), for test_skip_unless-style checks. Nothing here writes
# outside DIR; every daemon logs to DIR/log and keeps its sockets in
# DIR/run. The daemons run in the foreground of a background job (-f), so
# ceph_stop knows their process ids; it kills them by id.
#
# The cost, measured on 2 CPUs (doc/engines.md): see ceph_start's timing
# lines in DIR/log/start.txt.

ceph_pids=

ceph_have() {
	ceph_why=
	for ceph_p_ in ceph-mon:ceph-mon ceph-mgr:ceph-mgr ceph-osd:ceph-osd \
		ceph:ceph-common rados:ceph-common rbd:ceph-common \
		ceph-authtool:ceph-common monmaptool:ceph-mon \
		python3:python3; do
		command -v "${ceph_p_%%:*}" >/dev/null 2>&1 && continue
		ceph_why="no ${ceph_p_%%:*} (apt-get install ${ceph_p_#*:})"
		return 1
	done
	if [ "$1" = rgw ]; then
		for ceph_p_ in radosgw radosgw-admin; do
			command -v $ceph_p_ >/dev/null 2>&1 && continue
			ceph_why="no $ceph_p_ (apt-get install radosgw)"
			return 1
		done
	fi
	return 0
}

# ceph_require [rgw]: for a test script (t/test-lib.sh): skips it all,
# naming the package, unless ceph_have; the cluster stops when it ends.
ceph_require() {
	ceph_have "$1" || skip_all "$ceph_why"
	test_at_exit="ceph_stop"
}

# A base port B with B..B+N-1 all free (the OSD binds several ports in
# its range, which Ceph does not take from the kernel).
ceph_free_range() {
	python3 - "$1" <<'EOF'
import random, socket, sys
n = int(sys.argv[1])
for _ in range(200):
    base = random.randrange(20000, 32000 - n)
    socks = []
    try:
        for p in range(base, base + n):
            s = socket.socket()
            s.bind(("127.0.0.1", p))
            socks.append(s)
    except OSError:
        continue
    finally:
        for s in socks:
            s.close()
    print(base)
    sys.exit(0)
sys.exit(1)
EOF
}

# ceph_wait SECONDS CMD...: runs CMD every 0.2 s until it succeeds.
ceph_wait() {
	ceph_w_end=$(( $(date +%s) + $1 ))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$ceph_w_end" ] || return 1
		sleep 0.2
	done
}

# ceph_key NAME CAPS...: a new key for NAME in the cluster's keyring
ceph_key() {
	ceph_k_=$1
	shift
	[ -f "$ceph_dir/keyring" ] || set -- --create-keyring "$@"
	ceph-authtool "$ceph_dir/keyring" "$@" --gen-key -n "$ceph_k_" \
		>/dev/null
}

ceph_cmd() {
	ceph -c "$CEPH_CONF" --connect-timeout 20 "$@"
}

ceph_fail() {
	ceph_why=$1
	ceph_stop
	return 1
}

# ceph_bg DAEMON ARGS...: started in the background, its id kept; where
# setpriv can, killed too when the shell that started it dies without
# ceph_stop (a test script killed by a timeout).
ceph_bg() {
	if setpriv --pdeathsig KILL true 2>/dev/null; then
		set -- setpriv --pdeathsig KILL "$@"
	fi
	"$@" >>"$ceph_dir/log/daemons.out" 2>&1 &
	ceph_pids="$ceph_pids $!"
}

ceph_clock() {
	echo "$(date +%s.%N) $1" >>"$ceph_dir/log/start.txt"
}

# The pool takes I/O: its placement groups are active (asked of an OSD
# directly, not of the manager's statistics, which lag by seconds).
ceph_pool_active() {
	timeout 10 rados -c "$CEPH_CONF" -p "$CEPH_POOL" \
		--rados-osd-op-timeout 5 put .iolite-probe /dev/null &&
	rados -c "$CEPH_CONF" -p "$CEPH_POOL" rm .iolite-probe
}

ceph_start() {
	ceph_dir=$1
	ceph_have "$2" || return 1
	mkdir -p "$ceph_dir/log" "$ceph_dir/run" "$ceph_dir/mon" \
		"$ceph_dir/osd" "$ceph_dir/mgr" || return 1
	ceph_clock start
	CEPH_CONF=$ceph_dir/ceph.conf
	ceph_fsid=$(cat /proc/sys/kernel/random/uuid)
	ceph_mon_port=$(free_port) || { ceph_why="no free port"; return 1; }
	ceph_range=$(ceph_free_range 40) || { ceph_why="no free ports"; return 1; }
	CEPH_MON=v2:127.0.0.1:$ceph_mon_port
	CEPH_POOL=iolite
	CEPH_IMAGE=img
	CEPH_IMAGE_MB=64
	cat >"$CEPH_CONF" <<EOF
[global]
fsid = $ceph_fsid
mon host = $CEPH_MON
public addr = 127.0.0.1
ms bind msgr1 = false
ms bind port min = $ceph_range
ms bind port max = $((ceph_range + 39))
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
run dir = $ceph_dir/run
admin socket = $ceph_dir/run/\$name.\$pid.asok
log file = $ceph_dir/log/\$name.log
log to stderr = false
err to stderr = true
crash dir = $ceph_dir/crash
mon data = $ceph_dir/mon/\$name
mgr data = $ceph_dir/mgr/\$name
osd data = $ceph_dir/osd/\$name
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon osd down out interval = 0
osd max object name len = 460
osd max object namespace len = 64
auth allow insecure global id reclaim = false
keyring = $ceph_dir/keyring
EOF
	# every key in one keyring, which the monitor starts with: no
	# "ceph auth" round trips (a second of CPU each) for the daemons'
	ceph_key mon. --cap mon 'allow *' &&
	ceph_key client.admin --cap mon 'allow *' --cap osd 'allow *' \
		--cap mgr 'allow *' &&
	ceph_key mgr.x --cap mon 'allow profile mgr' --cap osd 'allow *' \
		--cap mds 'allow *' &&
	ceph_key osd.0 --cap osd 'allow *' --cap mon 'allow profile osd' \
		--cap mgr 'allow profile osd' &&
	ceph_key client.rgw.a --cap mon 'allow rw' --cap osd 'allow rwx' &&
	monmaptool --create --addv a "[$CEPH_MON]" --fsid "$ceph_fsid" \
		"$ceph_dir/monmap" >/dev/null &&
	ceph-mon -c "$CEPH_CONF" --mkfs -i a --monmap "$ceph_dir/monmap" \
		--keyring "$ceph_dir/keyring" >>"$ceph_dir/log/mkfs.out" 2>&1 ||
		ceph_fail "ceph-mon --mkfs failed (log/mkfs.out)" || return 1
	ceph_bg ceph-mon -c "$CEPH_CONF" -f -i a
	mkdir -p "$ceph_dir/mgr/mgr.x" "$ceph_dir/osd/osd.0"
	ceph_bg ceph-mgr -c "$CEPH_CONF" -f -i x
	# the OSD, in the map first (the command waits for the monitor)
	ceph_osd_uuid=$(cat /proc/sys/kernel/random/uuid)
	ceph_cmd osd new "$ceph_osd_uuid" >/dev/null 2>&1 ||
		ceph_fail "the monitor did not answer (log/mon.a.log)" || return 1
	ceph_clock mon
	ceph-osd -c "$CEPH_CONF" -i 0 --mkfs --osd-uuid "$ceph_osd_uuid" \
		>>"$ceph_dir/log/mkfs.out" 2>&1 ||
		ceph_fail "ceph-osd --mkfs failed (log/mkfs.out)" || return 1
	ceph_bg ceph-osd -c "$CEPH_CONF" -f -i 0
	CEPH_OSD_PID=$!
	ceph_clock osd
	# size 1 by default (osd pool default size); the pool is usable once
	# the OSD is up and has peered its placement groups
	ceph_cmd osd pool create "$CEPH_POOL" 8 8 >/dev/null 2>&1 ||
		ceph_fail "the pool could not be made" || return 1
	ceph_wait 60 ceph_pool_active ||
		ceph_fail "the pool did not become active (log/osd.0.log)" ||
		return 1
	rbd -c "$CEPH_CONF" create --size "$CEPH_IMAGE_MB" \
		"$CEPH_POOL/$CEPH_IMAGE" >>"$ceph_dir/log/mkfs.out" 2>&1 ||
		ceph_fail "rbd create failed (log/mkfs.out)" || return 1
	ceph_clock pool
	export CEPH_CONF CEPH_POOL CEPH_IMAGE CEPH_IMAGE_MB CEPH_MON CEPH_OSD_PID
	[ "$2" = rgw ] || return 0
	ceph_start_rgw
}

ceph_start_rgw() {
	ceph_rgw_port=$(free_port) || { ceph_why="no free port"; return 1; }
	mkdir -p "$ceph_dir/rgw"
	CEPH_S3_ENDPOINT=http://127.0.0.1:$ceph_rgw_port
	ceph_rgw_run || return 1
	radosgw-admin -c "$CEPH_CONF" user create --uid=iolite \
		--display-name=iolite >"$ceph_dir/rgw-user.json" \
		2>>"$ceph_dir/log/mkfs.out" ||
		ceph_fail "radosgw-admin user create failed" || return 1
	CEPH_S3_ACCESS_KEY=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["keys"][0]["access_key"])' \
		"$ceph_dir/rgw-user.json")
	CEPH_S3_SECRET_KEY=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["keys"][0]["secret_key"])' \
		"$ceph_dir/rgw-user.json")
	radosgw-admin -c "$CEPH_CONF" subuser create --uid=iolite \
		--subuser=iolite:swift --access=full --key-type=swift \
		--gen-secret >"$ceph_dir/rgw-swift.json" \
		2>>"$ceph_dir/log/mkfs.out" ||
		ceph_fail "radosgw-admin subuser create failed" || return 1
	CEPH_SWIFT_KEY=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["swift_keys"][0]["secret_key"])' \
		"$ceph_dir/rgw-swift.json")
	# the zone exists once radosgw has run: the classes, then again
	if [ -n "$CEPH_RGW_CLASSES" ]; then
		for ceph_c_ in $CEPH_RGW_CLASSES; do
			ceph_rgw_class "$ceph_c_" || ceph_fail \
				"storage class $ceph_c_ could not be added" ||
				return 1
		done
		# TERM: its watches go with it (a killed one's hold the
		# next radosgw's cache notices for 30 s); KILL after 10 s
		kill "$ceph_rgw_pid"
		{ sleep 10; kill -9 "$ceph_rgw_pid" 2>/dev/null; } &
		ceph_w_=$!
		wait "$ceph_rgw_pid" 2>/dev/null
		kill "$ceph_w_" 2>/dev/null
		ceph_pids=$(echo " $ceph_pids " | sed "s/ $ceph_rgw_pid / /")
		ceph_rgw_run || return 1
	fi
	ceph_clock rgw
	export CEPH_S3_ENDPOINT CEPH_S3_ACCESS_KEY CEPH_S3_SECRET_KEY \
		CEPH_SWIFT_KEY
}

# radosgw on $ceph_rgw_port, its id in ceph_rgw_pid, once it answers.
ceph_rgw_run() {
	# shellcheck disable=SC2086 # CEPH_RGW_OPTS: words
	ceph_bg radosgw -c "$CEPH_CONF" -f -n client.rgw.a \
		--rgw-data "$ceph_dir/rgw" \
		--rgw-frontends "beast endpoint=127.0.0.1:$ceph_rgw_port" \
		$CEPH_RGW_OPTS
	ceph_rgw_pid=$!
	ceph_wait 60 python3 -c "import urllib.request
urllib.request.urlopen('$CEPH_S3_ENDPOINT', timeout=2)" ||
		ceph_fail "radosgw did not answer (log/client.rgw.a.log)"
}

# ceph_rgw_class NAME: a storage class in the default placement (its
# objects in a pool of their own), read by radosgw when it starts.
ceph_rgw_class() {
	radosgw-admin -c "$CEPH_CONF" zonegroup placement add \
		--rgw-zonegroup default --placement-id default-placement \
		--storage-class "$1" >>"$ceph_dir/log/mkfs.out" 2>&1 &&
	radosgw-admin -c "$CEPH_CONF" zone placement add \
		--rgw-zone default --placement-id default-placement \
		--storage-class "$1" --data-pool "default.rgw.$1.data" \
		>>"$ceph_dir/log/mkfs.out" 2>&1
}

# Stops the daemons, each by its id: KILL, as nothing of theirs is kept
# (memstore, the scratch directory).
ceph_stop() {
	ceph_s_=
	for ceph_s_ in $ceph_pids; do
		kill -9 "$ceph_s_" 2>/dev/null
	done
	for ceph_s_ in $ceph_pids; do
		wait "$ceph_s_" 2>/dev/null
	done
	ceph_pids=
	return 0
}

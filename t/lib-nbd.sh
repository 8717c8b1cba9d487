# Servers of block storage over the network for the engine tests
# (t0353 nbd, t0354 libiscsi), on 127.0.0.1 only, every file they keep in
# $TRASH, stopped when the script ends.
#
#   nbd_start NAME ARGS   nbdkit in the background on a free port (tried
#                         again on another when it was taken meanwhile),
#                         with ARGS (plugin, filters, its parameters); its
#                         port in NAME.port, its pid in NAME.pid; returns
#                         once it listens. --exit-with-parent: it ends
#                         with the test (or script) that started it.
#   nbd_stop NAME         stops it (SIGKILL: a server killed)
#   figures JSON          "DIR ios=N bytes=N err=N" for each direction
#                         the job did, and "sync ios=N" (python3)
#   tgt_start NAME IQN IMAGE   tgtd on a free port, target IQN with LUN 1
#                         over the file IMAGE, and target IQN-chap with the
#                         same LUN for user iolite, password secret-of-12
#                         (CHAP) only (its port in NAME.port, its
#                         pid in NAME.pid); returns once it is set up.
#                         tgtd's control socket is always under /run/tgtd:
#                         tgtd and tgtadm run in a mount namespace of their
#                         own (unshare, as root) where $TRASH/NAME.run is
#                         /run, so nothing is written outside $TRASH.
#                         nbd_stop NAME stops it too.


# nbd_wait_ FILE PID: until FILE has something (5 s at most) while PID runs
nbd_wait_() {
	for nbd_i_ in $(seq 100); do
		test -s "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

nbd_start() {
	nbd_name_=$1
	shift
	for nbd_try_ in 1 2 3; do
		nbd_port_=$(free_port)
		rm -f "$TRASH/$nbd_name_.pid"
		# -P: written once nbdkit listens
		nbdkit -f --exit-with-parent -i 127.0.0.1 -p "$nbd_port_" \
			-P "$TRASH/$nbd_name_.pid" "$@" \
			>"$TRASH/$nbd_name_.log" 2>&1 &
		nbd_pid_=$!
		if nbd_wait_ "$TRASH/$nbd_name_.pid" "$nbd_pid_"; then
			echo "$nbd_port_" >"$TRASH/$nbd_name_.port"
			return 0
		fi
		kill -9 "$nbd_pid_" 2>/dev/null
		wait "$nbd_pid_" 2>/dev/null
	done
	cat "$TRASH/$nbd_name_.log"
	return 1
}

nbd_stop() {
	kill -9 "$(cat "$TRASH/$1.pid")" 2>/dev/null
	rm -f "$TRASH/$1.pid"
}

# the set-up in the namespace: tgt_setup_ RUN PORT IQN IMAGE BASE
tgt_setup_='
	mount --bind "$1" /run || exit 1
	tgtd -f --iscsi portal=127.0.0.1:$2 &
	echo $! >"$5.pid"
	for i in $(seq 100); do
		test -S /run/tgtd/socket.0 && break
		kill -0 $(cat "$5.pid") 2>/dev/null || exit 1
		sleep 0.05
	done
	tgtadm --lld iscsi --mode target --op new --tid 1 --targetname "$3" &&
	tgtadm --lld iscsi --mode logicalunit --op new --tid 1 --lun 1 \
		--backing-store "$4" &&
	tgtadm --lld iscsi --mode target --op bind --tid 1 \
		--initiator-address ALL &&
	tgtadm --lld iscsi --mode target --op new --tid 2 \
		--targetname "$3-chap" &&
	tgtadm --lld iscsi --mode logicalunit --op new --tid 2 --lun 1 \
		--backing-store "$4" &&
	tgtadm --lld iscsi --mode target --op bind --tid 2 \
		--initiator-address ALL &&
	tgtadm --lld iscsi --mode account --op new --user iolite \
		--password secret-of-12 &&
	tgtadm --lld iscsi --mode account --op bind --tid 2 --user iolite &&
	echo ready >"$5.ready" || kill -9 $(cat "$5.pid")
	wait
'

tgt_start() {
	mkdir -p "$TRASH/$1.run"
	for tgt_try_ in 1 2 3; do
		tgt_port_=$(free_port)
		rm -f "$TRASH/$1.pid" "$TRASH/$1.ready"
		unshare -m sh -c "$tgt_setup_" sh "$TRASH/$1.run" "$tgt_port_" \
			"$2" "$3" "$TRASH/$1" >"$TRASH/$1.log" 2>&1 &
		tgt_sh_=$!
		if nbd_wait_ "$TRASH/$1.ready" "$tgt_sh_" &&
		   grep -q "$(printf ":%04X 00000000:0000 0A" "$tgt_port_")" \
			/proc/net/tcp; then
			echo "$tgt_port_" >"$TRASH/$1.port"
			return 0
		fi
		nbd_stop "$1"
		wait "$tgt_sh_" 2>/dev/null
	done
	cat "$TRASH/$1.log"
	return 1
}

cat >"$TRASH/figures.py" <<\EOF
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{\n"):])["jobs"][0]
for d in ("read", "write", "trim"):
    b = j[d]
    if b["total_ios"]:
        print("%s ios=%d bytes=%d err=%d" % (d, b["total_ios"],
              b["io_bytes"], j["error"]))
if j["sync"]["total_ios"]:
    print("sync ios=%d" % j["sync"]["total_ios"])
EOF
figures() {
	python3 "$TRASH/figures.py" "$1"
}

# every server still up when the script ends
test_at_exit="${test_at_exit:+$test_at_exit; }"'for f in "$TRASH"/*.pid; do
	test -s "$f" && kill -9 "$(cat "$f")" 2>/dev/null; done; :'

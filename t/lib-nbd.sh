# Servers of block storage over the network for the engine tests
# (t0327 nbd, t0328 libiscsi), on 127.0.0.1 only, every file they keep in
# $TRASH, stopped when the script ends.
#
#   nbd_free_port         a TCP port nobody listens on now, below the
#                         kernel's ephemeral range (no connect of another
#                         process is given it meanwhile)
#   nbd_start NAME ARGS   nbdkit in the background on a free port (tried
#                         again on another when it was taken meanwhile),
#                         with ARGS (plugin, filters, its parameters); its
#                         port in NAME.port, its pid in NAME.pid; returns
#                         once it listens. --exit-with-parent: it ends
#                         with the test (or script) that started it.
#   nbd_stop NAME         stops it (SIGKILL: a server killed)

nbd_free_port() {
	nbd_low_=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	nbd_low_=${nbd_low_:-32768}
	while :; do
		nbd_p_=$(( 10000 + $(od -An -N2 -tu2 /dev/urandom) % (nbd_low_ - 10002) ))
		nbd_hex_=$(printf ":%04X " "$nbd_p_")
		grep -q "$nbd_hex_" /proc/net/tcp /proc/net/tcp6 2>/dev/null ||
			break
	done
	echo "$nbd_p_"
}

nbd_start() {
	nbd_name_=$1
	shift
	for nbd_try_ in 1 2 3; do
		nbd_port_=$(nbd_free_port)
		rm -f "$TRASH/$nbd_name_.pid"
		# -P: written once nbdkit listens
		nbdkit -f --exit-with-parent -i 127.0.0.1 -p "$nbd_port_" \
			-P "$TRASH/$nbd_name_.pid" "$@" \
			>"$TRASH/$nbd_name_.log" 2>&1 &
		nbd_pid_=$!
		for nbd_i_ in $(seq 100); do
			test -s "$TRASH/$nbd_name_.pid" && break
			kill -0 "$nbd_pid_" 2>/dev/null || break
			sleep 0.05
		done
		if test -s "$TRASH/$nbd_name_.pid"; then
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

# every server still up when the script ends
test_at_exit="${test_at_exit:+$test_at_exit; }"'for f in "$TRASH"/*.pid; do
	test -s "$f" && kill -9 "$(cat "$f")" 2>/dev/null; done; :'

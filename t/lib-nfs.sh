# NFS servers for the nfs engine's tests: nfs-ganesha with its VFS
# backend (user space, no kernel nfsd), on 127.0.0.1 only, its ports
# picked free, everything it writes in $TRASH. Needs the GANESHA
# prerequisite (root, nfs-ganesha, nfs-ganesha-vfs, a C compiler).
#
#   nfs_start NAME   starts server NAME in the foreground of a background
#                    job (config, log, pid file and NFSv4 recovery
#                    directory in $TRASH/NAME/), exporting
#                    $TRASH/NAME/rw read-write and $TRASH/NAME/ro read-
#                    only, root not squashed; waits until it serves.
#                    Sets NFS_URL_RW and NFS_URL_RO (nfs:// URLs with the
#                    ports, as a job's nfs_url), NFS_PID, NFS_DIR; the
#                    pid is in $TRASH/NAME/pid too.
#   nfs_stop NAME    stops it (SIGTERM, then SIGKILL); every server
#                    still up is stopped at exit
#
# Without rpcbind: ganesha registers NFSv3 and MOUNT with the portmapper
# and exits when it cannot, so it runs with a stand-in for libntirpc's
# rpcb_set/rpcb_unset (LD_PRELOAD, built here) that says yes; the
# clients skip the portmapper too (libnfs's nfsport= and mountport=).
# NFSv3 it is: libnfs 4.0's NFSv4 cannot write more than about 2 KiB at
# once ("Failed to encode COMPOUND4args").


nfs_shim_() {
	[ -f "$TRASH/.norpcbind.so" ] && return 0
	cat >"$TRASH/.norpcbind.c" <<\EOF
/* rpcbind's stand-in for ganesha: every (un)registration succeeds */
int rpcb_set(void) { return 1; }
int rpcb_unset(void) { return 1; }
EOF
	"${CC:-cc}" -shared -fPIC -o "$TRASH/.norpcbind.so" \
		"$TRASH/.norpcbind.c"
}

# nfs_export_ ID DIR ACCESS: an EXPORT block, NFSv3 over TCP
nfs_export_() {
	cat <<EOF
EXPORT {
	Export_Id = $1;
	Path = $2;
	Pseudo = $2;
	Access_Type = $3;
	Squash = No_Root_Squash;
	SecType = sys;
	Protocols = 3;
	Transports = TCP;
	FSAL { Name = VFS; }
}
EOF
}

# nfs_config_ DIR NFS_PORT MOUNT_PORT
nfs_config_() {
	cat <<EOF
NFS_CORE_PARAM {
	Bind_addr = 127.0.0.1;
	NFS_Port = $2;
	MNT_Port = $3;
	Protocols = 3;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Enable_UDP = false;
}
NFSV4 {
	Graceless = true;
	RecoveryBackend = fs;
	RecoveryRoot = $1/recovery;
}
NFS_KRB5 { Active_krb5 = false; }
LOG { Default_Log_Level = EVENT; }
EOF
	nfs_export_ 1 "$1/rw" RW
	nfs_export_ 2 "$1/ro" RO
}

nfs_start() {
	NFS_DIR=$TRASH/$1
	mkdir -p "$NFS_DIR/rw" "$NFS_DIR/ro" "$NFS_DIR/recovery" &&
	nfs_shim_ || return 1
	for nfs_try_ in 1 2 3; do
		nfs_port_=$(free_port) && nfs_mport_=$(free_port) &&
		[ "$nfs_port_" != "$nfs_mport_" ] || continue
		nfs_config_ "$NFS_DIR" "$nfs_port_" "$nfs_mport_" \
			>"$NFS_DIR/ganesha.conf"
		rm -f "$NFS_DIR/ganesha.log"
		LD_PRELOAD=$TRASH/.norpcbind.so ganesha.nfsd -F \
			-f "$NFS_DIR/ganesha.conf" -L "$NFS_DIR/ganesha.log" \
			-p "$NFS_DIR/ganesha.pid" -N NIV_EVENT \
			</dev/null >"$NFS_DIR/ganesha.out" 2>&1 &
		NFS_PID=$!
		echo "$NFS_PID" >"$NFS_DIR/pid"
		# serving once the log says so; gone: a port lost, try again
		nfs_n_=300
		while [ $nfs_n_ -gt 0 ] && kill -0 "$NFS_PID" 2>/dev/null &&
			! grep -q "NFS SERVER INITIALIZED" \
				"$NFS_DIR/ganesha.log" 2>/dev/null; do
			sleep 0.1
			nfs_n_=$((nfs_n_ - 1))
		done
		if grep -q "NFS SERVER INITIALIZED" "$NFS_DIR/ganesha.log" \
			2>/dev/null && kill -0 "$NFS_PID" 2>/dev/null; then
			nfs_q_="?nfsport=$nfs_port_&mountport=$nfs_mport_"
			NFS_URL_RW="nfs://127.0.0.1$NFS_DIR/rw$nfs_q_"
			NFS_URL_RO="nfs://127.0.0.1$NFS_DIR/ro$nfs_q_"
			NFS_PORT=$nfs_port_
			return 0
		fi
		kill -9 "$NFS_PID" 2>/dev/null
		wait "$NFS_PID" 2>/dev/null
	done
	echo "ganesha did not start; its log:" >&2
	cat "$NFS_DIR/ganesha.log" "$NFS_DIR/ganesha.out" >&2
	return 1
}

nfs_stop() {
	nfs_p_=$(cat "$TRASH/$1/pid" 2>/dev/null) || return 0
	kill -CONT "$nfs_p_" 2>/dev/null
	kill "$nfs_p_" 2>/dev/null
	nfs_n_=50
	while kill -0 "$nfs_p_" 2>/dev/null && [ $nfs_n_ -gt 0 ]; do
		sleep 0.1
		nfs_n_=$((nfs_n_ - 1))
	done
	kill -9 "$nfs_p_" 2>/dev/null
	wait "$nfs_p_" 2>/dev/null
	rm -f "$TRASH/$1/pid"
	return 0
}

# by their pid files: a test's subshell may have started them
nfs_stop_all_() {
	for nfs_f_ in "$TRASH"/*/pid; do
		[ -f "$nfs_f_" ] || continue
		nfs_p_=$(cat "$nfs_f_")
		kill -CONT "$nfs_p_" 2>/dev/null
		kill -9 "$nfs_p_" 2>/dev/null
	done
}
test_at_exit="nfs_stop_all_; ${test_at_exit:-:}"

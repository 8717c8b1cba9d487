# Runs started ahead, for the scripts whose runs mostly wait (a rate, a
# runtime, a timer): the script starts its independent runs together at
# the top level, and each test waits for the run it checks, so their
# waits overlap instead of adding up. Only runs that cannot disturb each
# other's assertions go here (they use little CPU and no shared file).
#
#   bg_run NAME 'commands'  runs the commands (like a test body: in
#                           $TRASH, a subshell) in the background; their
#                           output goes to NAME.log, their exit status
#                           to NAME.rc when they end
#   bg_wait NAME            (in a test) waits for NAME to end, at most
#                           $BG_TIMEOUT s (default 300); fails (showing
#                           NAME.log) unless the commands exited 0
#
# A run holds a lock on NAME.lock (flock, util-linux) while it lasts:
# bg_wait sleeps on it rather than polling (a poll a few times a second
# costs a fork each time). Without flock, it polls.
#
# The script waits for its runs before it ends (and $TRASH goes): the
# EXIT trap waits for them first.

bg_run() {
	# taken before the fork: a bg_wait cannot find it free too early;
	# the run keeps it (fd 9) until it has written NAME.rc
	exec 9>"$TRASH/$1.lock"
	command -v flock >/dev/null && flock 9
	(cd "$TRASH" || exit
	 (eval "$2") >"$1.log" 2>&1 9>&-
	 echo $? >"$1.rc.tmp" && mv "$1.rc.tmp" "$1.rc") &
	bg_pids="$bg_pids $!"
	exec 9>&-
}

bg_wait() {
	if command -v flock >/dev/null; then
		flock -s -w "${BG_TIMEOUT:-300}" "$TRASH/$1.lock" true
	else
		bg_n_=$((${BG_TIMEOUT:-300} * 10))
		while ! test -f "$TRASH/$1.rc" && [ $bg_n_ -gt 0 ]; do
			bg_n_=$((bg_n_ - 1))
			sleep 0.1
		done
	fi
	if ! test -f "$TRASH/$1.rc"; then
		echo "bg_wait: run '$1' not ended (or not started) after ${BG_TIMEOUT:-300} s" >&2
		return 1
	fi
	bg_rc_=$(cat "$TRASH/$1.rc")
	[ "$bg_rc_" = 0 ] && return
	echo "bg_wait: run '$1' exited $bg_rc_:" >&2
	cat "$TRASH/$1.log" >&2
	return 1
}

# before test_cleanup (and test_at_exit, which may run in a subshell,
# where the runs are not its children to wait for)
bg_end_() {
	[ -z "$bg_pids" ] || wait $bg_pids
}
trap 'bg_end_; test_cleanup' EXIT

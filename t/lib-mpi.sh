# Helpers for the iolite-mpi tests (t1970 under mpirun, t1971 under
# srun), sourced after test-lib.sh: the binary, and the job files and
# wait of the tests of a failing rank and of a stop by a signal. Run in
# $TRASH (the test's directory).
IOLITE_MPI=${IOLITE_MPI:-${IOLITE%/*}/iolite-mpi}
host=$(hostname)
# Under SANITIZE, no leak report: Open MPI keeps its own allocations to
# the end, some in plugins it has unloaded by then (LSan cannot name
# them to suppress them). ASan's other checks stay on.
if [ -n "$IOLITE_SANITIZE" ]; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
fi

# full.fio: rank 1 writes to /dev/full (ENOSPC) while ranks 0, 2 and 3
# read for a minute unless stopped.
mpi_full_fio() {
	cat >full.fio <<-\EOF
	[w]
	ranks=0,2-3
	ioengine=null
	size=1g
	rate_iops=100
	time_based
	runtime=60
	[bad]
	ranks=1
	ioengine=psync
	rw=write
	filename=/dev/full
	size=64k
	EOF
}

# int.fio: every rank reads for a minute unless stopped, its job
# touching started.$rank first.
mpi_int_fio() {
	cat >int.fio <<-\EOF
	[w]
	ioengine=null
	size=1g
	rate_iops=100
	time_based
	runtime=60
	exec_prerun=touch started.$rank
	EOF
}

# Waits (40 s at most) until the 4 ranks have started int.fio's job: a
# signal before that ends a rank with no report (doc/mpi.md).
mpi_wait_started() {
	mpi_n_=0
	while [ $mpi_n_ -lt 400 ] &&
		! { test -e started.0 && test -e started.1 &&
		    test -e started.2 && test -e started.3; }; do
		sleep 0.1
		mpi_n_=$((mpi_n_ + 1))
	done
}

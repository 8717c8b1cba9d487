#!/bin/sh
# iolite-mpi started by Slurm's srun (issue 18), 4 tasks on this machine
# through srun's PMIx plugin (the one Debian's Open MPI talks to): each
# rank knows its rank, the number of ranks and its host ($rank, $nranks,
# $hostname), the report is printed once, by rank 0, on srun's stdout,
# and its "All clients" counts are the ranks' sum; a rank that fails
# makes the exit status non-zero with its rank and host named; scancel
# stops the ranks with the report; a launch the MPI library does not see
# as one job (srun --mpi=none) is refused before any file is written.
# Needs a Slurm cluster up (the SRUN prerequisite; doc/mpi.md says how
# it was set up on one machine); elsewhere t/t1970-mpi.sh covers mpirun.
. "$(dirname "$0")/test-lib.sh"

test_require MPI SRUN PYTHON3
. "$TEST_DIR/lib-mpi.sh"
# --overcommit: 4 tasks on a node of 2 CPUs; a job name for scancel
job=iolite-t1971-$$
run() {
	timeout 60 srun --overcommit -n 4 --mpi=pmix -J "$job" \
		"$IOLITE_MPI" "$@"
}

cat >"$TRASH/job.fio" <<EOF
[w]
ioengine=psync
rw=write
bs=4k
size=128k
filename=f.\$rank.\$nranks.\$hostname
[r]
stonewall
ioengine=psync
rw=read
bs=4k
size=128k
filename=f.\$rank.\$nranks.\$hostname
EOF

test_expect_success 'srun: every rank writes its own file, one report on stdout' '
	run --output-format=json+,normal job.fio >out 2>err &&
	test_must_be_empty err &&
	for r in 0 1 2 3; do
		test $(stat -c %s f.$r.4.$host) = 131072 || return 1
	done &&
	ls f.* | wc -l >n && echo 4 >expect && test_cmp expect n &&
	test $(grep -c "^{\$" out) = 1 && test $(grep -c "^}\$" out) = 1 &&
	sed -n "/^{\$/,/^}\$/p" out >out.json &&
	sed "/^{\$/,/^}\$/d" out >out.txt &&
	test $(grep -c "^All clients: (groupid=" out.txt) = 2 &&
	for r in 0 1 2 3; do
		grep -qx "<$host> rank $r:" out.txt || return 1
	done &&
	grep -q "iolite-mpi: 4 ranks on 1 host" out.txt
'

test_expect_success 'srun: All clients is the sum of the ranks, per group' '
	python3 - "$host" >res <<-\EOF &&
	import json, sys
	cs = json.load(open("out.json"))["client_stats"]
	hosts = [c for c in cs if c["jobname"] != "All clients"]
	alls = {c["groupid"]: c for c in cs if c["jobname"] == "All clients"}
	assert sorted(alls) == [0, 1], alls.keys()
	assert all(c["hostname"] == sys.argv[1] for c in cs)
	for g, dd in ((0, "write"), (1, "read")):
	    ranks = [c for c in hosts if c["groupid"] == g]
	    assert sorted(c["rank"] for c in ranks) == [0, 1, 2, 3], ranks
	    for k in ("total_ios", "io_bytes"):
	        assert alls[g][dd][k] == sum(c[dd][k] for c in ranks), (g, k)
	    assert alls[g][dd]["io_bytes"] == 4 * 131072, alls[g][dd]
	    bins = {}
	    for c in ranks:
	        for b, n in c[dd]["clat_ns"]["bins"].items():
	            bins[b] = bins.get(b, 0) + n
	    assert alls[g][dd]["clat_ns"]["bins"] == bins, g
	print("ok")
	EOF
	grep -qx ok res
'

test_expect_success 'srun: a rank failing (ENOSPC) stops all; non-zero exit, rank named' '
	mpi_full_fio &&
	{ run --output-format=terse full.fio >out 2>err; rc=$?; } &&
	test $rc != 0 && test $rc != 124 &&
	grep -q "^iolite: rank 1 (host $host) failed: job .bad. failed: No space left on device" err &&
	test $(grep -c "^3;iolite-" out) = 5 &&
	grep -q "^3;iolite-[^;]*;All clients;" out
'

# scancel: Slurm sends SIGTERM to the tasks and waits KillWait before a
# SIGKILL, and srun goes on forwarding their output: the report comes
# whole on stdout (unlike a signal to mpirun, doc/mpi.md). The signal
# comes once every rank runs its job.
test_expect_success 'srun: scancel stops every rank, with the report on stdout' '
	mpi_int_fio &&
	{ run --output-format=json,normal int.fio >out 2>err & pid=$!; } &&
	mpi_wait_started &&
	sleep 0.3 && scancel -n "$job" &&
	{ wait $pid; rc=$?; } &&
	test $rc != 0 && test $rc != 124 &&
	grep -q "^iolite: rank 0 (host $host) failed: interrupted by signal 15" err &&
	sed -n "/^{\$/,/^}\$/p" out >int.json &&
	python3 -c "
import json
cs = json.load(open(\"int.json\"))[\"client_stats\"]
a = [c for c in cs if c[\"jobname\"] == \"All clients\"]
assert len(a) == 1 and a[0][\"read\"][\"total_ios\"] > 0, a
assert sorted(c[\"rank\"] for c in cs if \"rank\" in c) == [0, 1, 2, 3]
" &&
	test $(grep -c "^All clients: (groupid=0" out) = 1
'

# An MPI library that does not see srun's tasks as one job makes each a
# one-rank run (rank 0 everywhere, writing rank 0's files): simulated
# with srun --mpi=none and Slurm's variables other than the task count
# hidden (Open MPI would otherwise refuse the direct launch itself).
test_expect_success 'srun with no MPI wiring: refused, no file written' '
	test_must_fail timeout 60 srun -n 2 --mpi=none sh -c "
		for v in \$(env | sed -n \"s/^\\(SLURM_[A-Z_]*\\)=.*/\\1/p\"); do
			case \$v in
			SLURM_STEP_NUM_TASKS|SLURM_PROCID) ;;
			*) unset \$v ;;
			esac
		done
		exec \"$IOLITE_MPI\" --name=x --ioengine=psync --rw=write \
			--size=4k --filename=one" >out 2>err &&
	test_path_is_missing one &&
	test $(grep -c "^iolite: the launcher started 2 tasks (SLURM_STEP_NUM_TASKS), but MPI sees each as a run of one rank: .*srun --mpi=pmix" err) = 1 &&
	test_must_be_empty out
'

test_done

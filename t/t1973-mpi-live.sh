#!/bin/sh
# iolite-mpi's live numbers (issue 30, item 5) under mpirun on this
# machine: rank 0 writes one interval stream of all ranks, a line per
# group and tick ("All clients"), whose counts add up to the report's
# "All clients" exactly and whose histograms merge into its histogram
# bucket for bucket, on the ranks' common ticks; it serves the one
# metrics endpoint of the run (the others bind nothing), which
# Prometheus scrapes; a busy port stops every rank before any I/O; the
# page draws the merged stream.
. "$(dirname "$0")/test-lib.sh"

test_skip_unless MPI PYTHON3
. "$TEST_DIR/lib-mpi.sh"
CHECK="$TEST_DIR/live/check_stream.py"
RUN="$TEST_DIR/live/metrics_run.py"
mpi() {
	n=$1
	shift
	mpirun --allow-run-as-root --oversubscribe -np "$n" "$IOLITE_MPI" \
		--eta=never "$@"
}
LIVE_LAUNCH="mpirun --allow-run-as-root --oversubscribe -np 3"
export LIVE_LAUNCH

# Group 0: a short write on every rank. Group 1, a stonewall later:
# ranks 0-1 write from its start, ranks 2-3 read and write a second
# later (startdelay): the group's intervals are of two ranks, then four.
cat >"$TRASH/job.fio" <<EOF
[global]
bs=4k
[w]
ioengine=psync
rw=write
size=256k
filename=f.\$rank
[n]
stonewall
ranks=0-1
ioengine=null
rw=write
size=1g
rate_iops=400
time_based
runtime=2500ms
[m]
ranks=2-3
ioengine=null
rw=randrw
size=1g
rate_iops=200
startdelay=1
time_based
runtime=1500ms
EOF

test_expect_success 'one stream of all ranks: exact sums, the ticks in step' '
	mpi 4 job.fio --interval-period=250ms --interval-output=s.jsonl \
		--output-format=json+,html --output=r >out 2>err &&
	test_must_be_empty err &&
	sed -n "/^{\$/,/^}\$/p" r >r.json &&
	python3 "$CHECK" s.jsonl r.json &&
	python3 -c "
import json, sys
L = [json.loads(l) for l in open(\"s.jsonl\")]
assert all(r[\"jobname\"] == \"All clients\" for r in L), L[0]
g1 = [r for r in L if r[\"groupid\"] == 1]
# ranks 0-1 alone, then all four from the startdelay on
ranks = [r[\"ranks\"] for r in g1]
print(ranks)
assert ranks[0] == 2 and 4 in ranks and ranks.index(4) >= 2, ranks
# whole periods in between (a loaded machine makes a tick late now and
# then): the ranks end their intervals together
d = sorted(r[\"duration_ms\"] for r in g1[1:-1])
assert abs(d[len(d) // 2] - 250) < 40, d
" &&
	# only rank 0 wrote it: no other file of the name
	test "$(ls s.jsonl*)" = s.jsonl
'

test_expect_success_if JANSSON 'the page draws the merged stream' '
	grep -q "<h2 id=\"stream\">Over time: the interval stream" r.html &&
	grep -q "data-chart=\"iops-interval\"" r.html &&
	grep -q "<g data-s=\"All clients\"" r.html
'

test_expect_success 'one endpoint, at rank 0: counters as the report, a busy port stops all' '
	python3 "$RUN" endpoint "$IOLITE_MPI" --eta=never --name=a \
		--ioengine=null --rw=randrw --size=1g --time_based \
		--runtime=1500ms --rate_iops=2000,2000 >res 2>&1 ||
		{ cat res; false; }
	grep -q "jobname=\"All clients\",jobid=\"0\",groupid=\"0\"" final.txt
'

test_expect_success_if PROMETHEUS 'prometheus scraping the run agrees with the merged stream' '
	python3 "$RUN" prom "$IOLITE_MPI" --eta=never --name=a \
		--ioengine=null --size=4m --rw=randrw --time_based \
		--runtime=6s --rate_iops=700,700
'

test_done

#!/bin/sh
# iolite-mpi under Open MPI's mpirun, 4 ranks on this machine (issue
# 18): the report's "All clients" jobs are the exact merge of the ranks'
# (I/O counts and bytes add up, the json+ histogram is the bucket-wise
# sum, min/max/mean combine, the per-second bandwidth samples are the
# sum of the ranks' samples for the same period); $rank names each
# rank's files and each rank writes its own; ranks= gives ranks different
# sections and the stonewall groups stay in step; a rank that cannot
# start stops every rank before any I/O and rank 0 names its host; a rank
# that fails mid-run stops the others early with a report and a non-zero
# exit; a rank killed mid-run ends the run with an error in bounded time.
# The plain iolite links no MPI and refuses ranks=.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'the plain iolite links no MPI library' '
	! ldd "$IOLITE" 2>/dev/null | grep -q libmpi
'

test_expect_success 'the plain iolite refuses ranks= (an iolite-mpi option)' '
	test_must_fail "$IOLITE" --name=x --ioengine=null --size=4k \
		--ranks=0 2>err &&
	grep -q "option .ranks. is iolite-mpi.s.*mpirun -np N iolite-mpi" err
'

test_skip_unless MPI PYTHON3
. "$TEST_DIR/lib-mpi.sh"
# Keep every rank to a little CPU: the machine may have two.
mpi() {
	mpirun --allow-run-as-root --oversubscribe -np 4 "$IOLITE_MPI" "$@"
}

# Group 0: each rank writes its own file. Group 1: writers on ranks 0-1,
# rate-limited null-engine I/O on ranks 2-3 (readers in a real run), in
# the same stonewall group: ranks 2-3 drop job "n" and keep "m", which
# starts a second later (its samples land on the grid's second point),
# and "o", writers as "n" but a second later. "m" and "o" sample every
# second where "n" samples every half second: the group's series are
# all on the longer period's grid, so the writers' add up per second.
cat >"$TRASH/job.fio" <<EOF
[global]
bs=4k
[w]
ioengine=psync
rw=write
size=256k
filename=f.\$rank
write_iolog=w.\$rank.log
[n]
stonewall
ranks=0-1
ioengine=null
rw=write
size=1g
rate_iops=400
time_based
runtime=3
bwavgtime=500
iopsavgtime=500
[m]
ranks=2-3
ioengine=null
rw=read
size=1g
rate_iops=200
startdelay=1
time_based
runtime=2
bwavgtime=1000
iopsavgtime=1000
[o]
ranks=2-3
ioengine=null
rw=write
size=1g
rate_iops=100
startdelay=1
time_based
runtime=2
bwavgtime=1000
iopsavgtime=1000
EOF

test_expect_success 'four ranks run the job list, one report and one page' '
	mpi --eta=never --output-format=json+,normal,html --output=out \
		job.fio >stdout 2>err &&
	test_must_be_empty err &&
	test_must_be_empty stdout &&
	sed -n "/^{\$/,/^}\$/p" out >out.json &&
	sed "/^{\$/,/^}\$/d" out >out.txt &&
	test -s out.json && grep -q "^All clients: " out.txt &&
	test -s out.html && ls *.html >pages && echo out.html >expect &&
	test_cmp expect pages
'

test_expect_success '$rank names each rank'"'"'s file, written by that rank alone' '
	for r in 0 1 2 3; do
		test $(stat -c %s f.$r) = 262144 &&
		grep -q "^[0-9]* f.$r add" w.$r.log &&
		! grep -v " f.$r " w.$r.log | grep -q " f\." || return 1
	done
'

cat >"$TRASH/check.py" <<'EOF'
import json, sys
d = json.load(open("out.json"))
assert "jobs" not in d, "fio's client mode lists client_stats"
cs = d["client_stats"]
hosts = [c for c in cs if c["jobname"] != "All clients"]
alls = {c["groupid"]: c for c in cs if c["jobname"] == "All clients"}
assert sorted(alls) == [0, 1], alls.keys()
assert sorted(c["rank"] for c in hosts if c["groupid"] == 0) == [0, 1, 2, 3]
assert all(c["hostname"] == sys.argv[1] for c in cs)
names = {(c["rank"], c["jobname"]) for c in hosts if c["groupid"] == 1}
assert names == {(0, "n"), (1, "n"), (2, "m"), (3, "m"), (2, "o"), (3, "o")}, names
for g, a in alls.items():
    ranks = [c for c in hosts if c["groupid"] == g]
    assert "job options" not in a
    for dd in ("read", "write", "trim"):
        for k in ("total_ios", "io_bytes", "short_ios", "drop_ios"):
            assert a[dd][k] == sum(c[dd][k] for c in ranks), (g, dd, k)
        if not a[dd]["total_ios"]:
            continue
        for lat in ("clat_ns", "lat_ns"):
            bins = {}
            for c in ranks:
                for b, n in c[dd][lat].get("bins", {}).items():
                    bins[b] = bins.get(b, 0) + n
            if lat == "clat_ns" or bins:
                assert a[dd][lat]["bins"] == bins, (g, dd, lat)
            have = [c[dd][lat] for c in ranks if c[dd]["total_ios"]]
            assert a[dd][lat]["min"] == min(x["min"] for x in have)
            assert a[dd][lat]["max"] == max(x["max"] for x in have)
            n = sum(x["N"] for x in have)
            mean = sum(x["mean"] * x["N"] for x in have) / n
            assert a[dd][lat]["N"] == n
            assert abs(a[dd][lat]["mean"] - mean) <= 1e-6 * mean + 1e-3
        # on the grid from the group's common start, of the group's
        # longest period (m's and o's 1000 ms, not n's 500 ms): the sum
        # of the ranks' samples for the same interval
        if g == 1:
            sa = a["iolite"]["samples"][dd]
            sr = [c["iolite"]["samples"][dd] for c in ranks
                  if dd in c["iolite"].get("samples", {})]
            assert len(sr) == {"read": 2, "write": 4}[dd], sr
            for k in ("bw", "iops"):
                assert sa[k + "_period_ms"] == 1000, sa
                assert all(s[k + "_period_ms"] == 1000 for s in sr), sr
                n = max(len(s[k]) for s in sr)
                assert n >= 2 and len(sa[k]) == n, (n, sa, sr)
                for i in range(n):
                    tot = sum(s[k][i] for s in sr if i < len(s[k]))
                    assert abs(sa[k][i] - tot) <= len(sr), (k, i, sa, sr)
            # the IOPS of each second: n's 400 on ranks 0-1 from the
            # start, m's 200 (read) and o's 100 (write) on ranks 2-3
            # from the next second (startdelay=1)
            want = {"read": [0, 400], "write": [800, 1000]}[dd]
            for i, w in enumerate(want):
                assert abs(sa["iops"][i] - w) <= w / 4 + 2, (dd, i, sa)
    if g == 1:
        assert "group 1's jobs sample at different periods" in \
            open("out.txt").read()
# html: rank 0's page has the All clients jobs, as JSON's, in group order
import re
rows = re.findall(r'data-jobi="(\d+)" data-dir="(\w+)" data-iops="[^"]*" '
                  r'data-bw="(\d+)" data-ios="(\d+)"', open("out.html").read())
want = {(str(g), dd, str(a[dd]["bw_bytes"]), str(a[dd]["total_ios"]))
        for g, a in alls.items() for dd in ("read", "write", "trim")
        if a[dd]["total_ios"]}
assert set(rows) == want and len(rows) == len(want), (rows, want)
assert "iolite-mpi: 4 ranks on 1 host" in open("out.html").read()
# group 1's series over time: a point per second (its longest period)
caps = set(re.findall(r"A sample every \d+ ms", open("out.html").read()))
assert caps == {"A sample every 1000 ms"}, caps
# the clock offsets measured at the start, per rank
ck = d["iolite"]["ranks"]
assert [c["rank"] for c in ck] == [0, 1, 2, 3], ck
assert all(c["hostname"] == sys.argv[1] for c in ck), ck
assert ck[0]["offset_ns"] == 0 and ck[0]["rtt_ns"] == 0, ck
for c in ck[1:]:
    # one host, one clock: only the exchange's error, within its round trip
    assert 0 < c["rtt_ns"] and abs(c["offset_ns"]) <= c["rtt_ns"], ck
assert alls[1]["write"]["total_ios"] and alls[1]["read"]["total_ios"]
assert alls[0]["write"]["total_ios"] == 4 * 64
print("ok")
EOF

test_expect_success 'All clients: counts, json+ histograms, moments, samples merged exactly' '
	python3 check.py "$host" >res && grep -qx ok res
'

test_expect_success 'normal: a section per rank, then All clients and the clock note' '
	for r in 0 1 2 3; do
		grep -qx "<$host> rank $r:" out.txt || return 1
	done &&
	test $(grep -c "^All clients: (groupid=" out.txt) = 2 &&
	grep -q "clock offsets to rank 0" out.txt &&
	grep -q "^  iolite-mpi: rank 3 of 4 on $host; clock offset" out.txt
'

test_expect_success 'IOLITE_MPI_HOSTS=summary: a line per rank, All clients in full' '
	IOLITE_MPI_HOSTS=summary mpi --name=s --ioengine=null --rw=write \
		--size=64k --output-format=json,normal --output=sum >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "^<$host> rank [0-3]: jobs=1, err= 0; write: IOPS=" sum) = 4 &&
	sed -n "/^{\$/,/^}\$/p" sum >sum.json &&
	python3 -c "
import json
cs = json.load(open(\"sum.json\"))[\"client_stats\"]
r = [c for c in cs if c[\"jobname\"] == \"rank summary\"]
a = [c for c in cs if c[\"jobname\"] == \"All clients\"]
assert sorted(c[\"rank\"] for c in r) == [0, 1, 2, 3] and len(a) == 1
assert sum(c[\"write\"][\"io_bytes\"] for c in r) == a[0][\"write\"][\"io_bytes\"] == 4 * 65536
"
'

# One rank (MPI's singleton start, a third of mpirun's cost): the ranks'
# agreement not to start is the next test's.
test_expect_success 'what iolite-mpi does not do yet is refused before any I/O' '
	for o in --repeat=2 --sweep=bs=4k,8k --profile-folded=p.txt; do
		test_must_fail "$IOLITE_MPI" $o --name=x --ioengine=psync \
			--rw=write --size=4k --filename=r.f >out 2>err &&
		grep -q "^iolite: rank 0 (host $host) cannot start: option .${o%%=*}.: not supported by iolite-mpi yet" err &&
		test_path_is_missing r.f && test_path_is_missing p.txt ||
		return 1
	done
'

test_expect_success 'a rank that cannot start stops all before any I/O; rank 0 names it' '
	mkdir d0 d1 d3 &&
	printf "[x]\nioengine=psync\nrw=write\nsize=64k\n%s\nfilename=f\n" \
		"directory=d\$rank" >bad.fio &&
	test_must_fail mpi bad.fio >out 2>err &&
	grep -q "^iolite: rank 2 (host $host) cannot start: .*d2.* does not exist; no rank started any I/O" err &&
	test_path_is_missing d0/f && test_path_is_missing d1/f &&
	test_path_is_missing d3/f && ! grep -q "All clients" out
'

test_expect_success 'a rank stuck before the start: the others time out, all end' '
	mkdir stuck &&
	for r in 0 1 3; do
		printf "ioengine=null\nsize=4k\n" >stuck/inc.$r || return 1
	done &&
	mkfifo stuck/inc.2 &&
	printf "[x]\ninclude inc.\$rank\n" >stuck/t.fio &&
	start=$(date +%s) &&
	{ (cd stuck && IOLITE_MPI_TIMEOUT=2 timeout 50 mpirun \
		--allow-run-as-root --oversubscribe -np 4 "$IOLITE_MPI" \
		t.fio) >out 2>err; rc=$?; } &&
	test $rc != 0 && test $rc != 124 &&
	test $(( $(date +%s) - start )) -lt 40 &&
	grep -q "^iolite: rank 0 (host $host): no word from rank 2 within 2 s" err
'

test_expect_success 'a rank failing mid-run (ENOSPC) stops the others, reported with its host' '
	mpi_full_fio &&
	start=$(date +%s) &&
	test_must_fail mpi --output-format=json full.fio >out 2>err &&
	test $(( $(date +%s) - start )) -lt 30 &&
	grep -q "^iolite: rank 1 (host $host) failed: job .bad. failed: No space left on device" err &&
	python3 -c "
import json
d = json.load(open(\"out\"))
a = [c for c in d[\"client_stats\"] if c[\"jobname\"] == \"All clients\"][0]
assert a[\"error\"] == 28 and a[\"read\"][\"total_ios\"] > 0
"
'

# mpirun passes SIGINT and SIGTERM to the ranks as SIGTERM; SIGTERM
# here, as a shell running the tests in the background may have left
# SIGINT ignored. The report goes to a file: once signalled, mpirun may
# stop forwarding the ranks' output (doc/mpi.md). The signal comes once
# every rank runs its job (before, it ends a rank with no report).
test_expect_success 'SIGTERM to mpirun stops every rank, with the report' '
	mpi_int_fio &&
	start=$(date +%s) &&
	{ mpirun --allow-run-as-root --oversubscribe -np 4 "$IOLITE_MPI" \
		--output-format=terse --output=out int.fio >/dev/null 2>err &
	  pid=$!; } &&
	mpi_wait_started &&
	sleep 0.5 && kill -TERM $pid &&
	{ wait $pid; rc=$?; } &&
	test $rc != 0 &&
	test $(( $(date +%s) - start )) -lt 50 &&
	test $(grep -c "^3;iolite-" out) = 5 &&
	grep -q "^3;iolite-[^;]*;All clients;" out
'

# mpirun ends the others with SIGTERM when a rank dies, then SIGKILL a
# second later: rank 0 writes what the others measured before that
# (their parts, "All clients" of the ranks whose results reached it) and
# names the lost rank; it wrote only its header lines before.
test_expect_success 'a rank killed mid-run: the others reported, the lost rank named' '
	cat >kill.fio <<-\EOF &&
	[w]
	ranks=0-1,3
	ioengine=null
	size=1g
	rate_iops=100
	time_based
	runtime=60
	[dies]
	ranks=2
	ioengine=null
	size=1m
	exec_prerun=sleep 1 && kill -9 $PPID
	EOF
	start=$(date +%s) &&
	{ timeout 50 mpirun --allow-run-as-root --oversubscribe -np 4 \
		"$IOLITE_MPI" kill.fio --output=out >/dev/null 2>err; rc=$?; } &&
	test $rc != 0 && test $rc != 124 &&
	test $(( $(date +%s) - start )) -lt 40 &&
	grep "^<$host> rank [0-9]:$" out >ranks &&
	printf "<$host> rank %s:\n" 0 1 3 >want &&
	test_cmp want ranks &&
	grep -q "^All clients: (groupid=0, jobs=2)" out &&
	grep -q "lost: rank 2 sent no report within 0.35 s of the stop; no results from rank 2: \"All clients\" lacks ranks 2-3: the report holds what the other ranks measured" out &&
	grep -q "^iolite: lost: rank 2 sent no report" err
'

test_done

#!/usr/bin/env python3
# check_stream.py STREAM REPORT: the interval stream (--interval-output)
# against the final json+ report (iolite-mpi's: its "All clients" jobs,
# the stream's jobid their groupid): for each reported job and direction the
# intervals' counts and bytes sum to the report's exactly, their clat bins
# merge into the report's bucket for bucket; each job's intervals follow
# one another (seq 1, 2, ..., each starting where the last ended) and only
# the last is marked last. Prints what differs and exits 1.
import json
import sys

def main():
    lines = open(sys.argv[1]).read().splitlines()
    rep = json.load(open(sys.argv[2]))
    recs = {}
    for n, line in enumerate(lines, 1):
        r = json.loads(line)            # one object a line
        if r.get("type") != "interval":
            sys.exit("line %d: not an interval" % n)
        recs.setdefault(r["jobid"], []).append(r)
    bad = 0
    if "client_stats" in rep:
        # iolite-mpi: a line per group, of all ranks, as "All clients"
        alls = [c for c in rep["client_stats"] if c["jobname"] == "All clients"]
        jobs = {c["groupid"]: c for c in alls}
    else:
        jobs = dict(enumerate(rep["jobs"]))
    if sorted(recs) != sorted(jobs):
        print("jobs in the stream %s, in the report %s" % (sorted(recs), sorted(jobs)))
        return 1
    for k, job in sorted(jobs.items()):
        rs = recs[k]
        if [r["seq"] for r in rs] != list(range(1, len(rs) + 1)):
            print("job %d: seq %s" % (k, [r["seq"] for r in rs])); bad += 1
        if [r["last"] for r in rs] != [False] * (len(rs) - 1) + [True]:
            print("job %d: last %s" % (k, [r["last"] for r in rs])); bad += 1
        for a, b in zip(rs, rs[1:]):
            if a["end_ms"] != b["start_ms"]:
                print("job %d: a gap %s %s" % (k, a["end_ms"], b["start_ms"])); bad += 1
        if any(r["jobname"] != job["jobname"] for r in rs):
            print("job %d: name" % k); bad += 1
        for d in ("read", "write", "trim"):
            want = job[d]
            got_ios = sum(r[d]["total_ios"] for r in rs if d in r)
            got_bytes = sum(r[d]["io_bytes"] for r in rs if d in r)
            if (got_ios, got_bytes) != (want["total_ios"], want["io_bytes"]):
                print("job %d %s: ios/bytes %d/%d, report %d/%d" % (
                    k, d, got_ios, got_bytes, want["total_ios"], want["io_bytes"]))
                bad += 1
            bins = {}
            for r in rs:
                for key, v in r.get(d, {}).get("clat_ns", {}).get("bins", {}).items():
                    bins[key] = bins.get(key, 0) + v
            wbins = want["clat_ns"].get("bins", {})
            if bins != wbins:
                diff = [x for x in set(bins) | set(wbins) if bins.get(x) != wbins.get(x)]
                print("job %d %s: bins differ at %s" % (k, d, sorted(diff)[:5]))
                bad += 1
            n = sum(r[d]["clat_ns"]["N"] for r in rs if d in r and "clat_ns" in r[d])
            if n != want["clat_ns"]["N"]:
                print("job %d %s: clat N %d, report %d" % (k, d, n, want["clat_ns"]["N"])); bad += 1
    print("%d jobs, %d intervals" % (len(jobs), len(lines)))
    return 1 if bad else 0

sys.exit(main())

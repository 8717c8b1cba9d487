#!/usr/bin/env python3
# jsoncmp.py FIO IOLITE: fio's and iolite's JSON for the same job have the
# same keys and value types, recursively, in the same order. Maps whose
# keys are data ("bins": latency -> count) are compared by value type
# only; "disk_util" entries by the shape of the first entry (the disks
# behind a file depend on the machine, not on the tool).
#
# iolite adds exactly two keys of its own, and they must be there with
# their shape: "iolite" at the end of the document ({"clock": str,
# "notes": [str]}) and at the end of each job ({"usr_ns_per_io": float,
# "iowq_cpu_ms": float, "iowq_threads": int, "iowq_max_threads": int,
# "run_delay_ms": float, "run_delay_pct": float, "nivcsw": int}).
# A job with log files adds "log_wait_ms": float, "log_dropped": int; a
# rated job's "iolite" may end with "co_lat_ns": {direction: a block
# shaped as fio's "lat_ns"}, and a job with bw/iops samples with
# "samples" (below). Any other key fio lacks is an error.
import json, re, sys

DATA_KEYS = {"bins"}
OWN = {
    "": ("iolite", [("clock", "str"), ("notes", "list")]),
    "job": ("iolite", [("usr_ns_per_io", "float"), ("iowq_cpu_ms", "float"),
                       ("iowq_threads", "int"),
                       ("iowq_max_threads", "int"),
                       ("run_delay_ms", "float"), ("run_delay_pct", "float"),
                       ("nivcsw", "int")]),
}
JOB_PATH = re.compile(r"^/jobs\[\d+\]$")
# optional trailing keys of a job's "iolite", with their kind: with log
# files, the time the job waited for the log writer and the entries
# dropped (log_drop_when_behind); a rated job's co_lat_ns; the bw/iops
# samples in order ({direction: {"bw_period_ms": int, "bw": [int],
# "iops_period_ms": int, "iops": [int]}}) when the sampler took any,
# and "clat_mean_ns": [int] (as many as "iops") when clat was measured
OWN_OPTIONAL = [("log_wait_ms", "float"), ("log_dropped", "int"),
                ("co_lat_ns", "dict"), ("samples", "dict")]
SAMPLES = [("bw_period_ms", "int"), ("bw", "list"),
           ("iops_period_ms", "int"), ("iops", "list")]

def check_samples(where, obj, errs):
    for d, s in obj.items():
        if d not in ("read", "write", "trim", "mixed") or kind(s) != "dict":
            errs.append("%s/samples/%s: not a direction's samples" % (where, d))
            continue
        want = SAMPLES + ([("clat_mean_ns", "list")]
                          if "clat_mean_ns" in s else [])
        if [(k, kind(v)) for k, v in s.items()] != want:
            errs.append("%s/samples/%s: %s, want %s" % (where, d,
                        [(k, kind(v)) for k, v in s.items()], want))
            continue
        if "clat_mean_ns" in s and len(s["clat_mean_ns"]) != len(s["iops"]):
            errs.append("%s/samples/%s/clat_mean_ns: not one per IOPS point"
                        % (where, d))
        for k in ("bw", "iops") + (("clat_mean_ns",)
                                   if "clat_mean_ns" in s else ()):
            if not all(kind(v) == "int" for v in s[k]) or len(s[k]) > 512:
                errs.append("%s/samples/%s/%s: not up to 512 ints" %
                            (where, d, k))

def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    return type(v).__name__

def own_key(path):
    if path == "":
        return OWN[""]
    if JOB_PATH.match(path):
        return OWN["job"]
    return None

def check_own(path, obj, shape, errs):
    where = path + "/iolite"
    if kind(obj) != "dict":
        errs.append("%s: not an object" % where)
        return
    want = [k for k, _ in shape]
    if shape is OWN["job"][1]:
        for k, t in OWN_OPTIONAL:
            if k in obj:
                want.append(k)
                shape = shape + [(k, t)]
    if list(obj) != want:
        errs.append("%s: keys %s, want %s" % (where, list(obj), want))
        return
    for k, t in shape:
        if kind(obj[k]) != t:
            errs.append("%s/%s: %s, want %s" % (where, k, kind(obj[k]), t))
    if "samples" in obj:
        check_samples(where, obj["samples"], errs)
    if "notes" in obj:
        for n in obj["notes"]:
            if kind(n) != "str":
                errs.append("%s/notes: %r is not a string" % (where, n))

def cmp(a, b, path, errs):
    if kind(a) != kind(b):
        errs.append("%s: fio has %s, iolite %s" % (path, kind(a), kind(b)))
        return
    if isinstance(a, dict):
        if path.split("/")[-1] in DATA_KEYS:
            for k, v in b.items():
                if kind(v) != "int":
                    errs.append("%s/%s: not an int" % (path, k))
            return
        own = own_key(path)
        if own:
            if own[0] in a:
                errs.append("%s: fio has %r too" % (path, own[0]))
            elif own[0] not in b:
                errs.append("%s: iolite lacks its own %r" % (path, own[0]))
            else:
                check_own(path, b[own[0]], own[1], errs)
                b = {k: v for k, v in b.items() if k != own[0]}
        ka, kb = list(a), list(b)
        for k in ka:
            if k not in b:
                errs.append("%s: iolite lacks %r" % (path, k))
        for k in kb:
            if k not in a:
                errs.append("%s: iolite adds %r" % (path, k))
        common = [k for k in ka if k in b]
        if common != [k for k in kb if k in a]:
            errs.append("%s: key order %s vs %s" % (path, common,
                        [k for k in kb if k in a]))
        for k in common:
            cmp(a[k], b[k], path + "/" + k, errs)
    elif isinstance(a, list):
        if path.endswith("disk_util"):
            if a and b:
                cmp(a[0], b[0], path + "[0]", errs)
            return
        if len(a) != len(b):
            errs.append("%s: %d entries vs %d" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            cmp(x, y, "%s[%d]" % (path, i), errs)

fio = json.load(open(sys.argv[1]))
iol = json.load(open(sys.argv[2]))
errs = []
cmp(fio, iol, "", errs)
for e in errs:
    print(e)
sys.exit(1 if errs else 0)

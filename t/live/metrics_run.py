#!/usr/bin/env python3
# metrics_run.py MODE IOLITE [ARGS...]: runs iolite with its metrics
# endpoint on a free loopback port and checks it from outside.
#
# endpoint: scrapes while the job runs and after it (--metrics-linger),
#   beside a client that connects and never sends and one that sends and
#   never reads; checks the answers (200 on /metrics, 404, 405), that
#   the run ends on its own with status 0 and nothing on stderr, and that
#   the final scrape's counters are the report's. Writes final.txt.
# prom: starts Debian's prometheus (scrape every second) on a free port,
#   runs a several-second job, and checks its queries against the job's
#   interval stream and final report.
# push: starts prometheus-pushgateway, runs a job with --metrics-push,
#   and checks the gateway holds the final counters.
# $LIVE_LAUNCH (mpirun ... ) goes before IOLITE: iolite-mpi's run, whose
# report's figures are its group 0's "All clients" job.
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import urllib.error

# The Go servers on one thread, at a lower priority: the suite's other
# scripts, which run beside this one, time things
GO_ENV = dict(os.environ, GOMAXPROCS="1")
QUIET = ["nice", "-n", "10"]

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p

def get(url, method="GET", timeout=5, accept=None, ctype=None):
    req = urllib.request.Request(url, method=method)
    if accept:
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            if ctype is not None:
                ctype.append(r.headers.get("Content-Type"))
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""

# What Prometheus 2.42 sends, and the content types of the two answers
PROM_ACCEPT = ("application/openmetrics-text;version=1.0.0,"
               "application/openmetrics-text;version=0.0.1;q=0.75,"
               "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
OM_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8"
TEXT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

def om_check(text, om):
    """The OpenMetrics answer against the Prometheus text of the same
    figures: the same samples, a counter's family without _total, and
    '# EOF' last."""
    bad = []
    if not om.endswith("\n# EOF\n"):
        bad.append("OpenMetrics: no '# EOF' at the end")
    samples = lambda t: [l for l in t.splitlines() if l and l[0] != "#"]
    if samples(text) != samples(om):
        bad.append("OpenMetrics: the samples differ from the text's")
    for line in om.splitlines():
        if line.startswith("# TYPE ") and line.endswith(" counter") and \
                line.split()[2].endswith("_total"):
            bad.append("OpenMetrics: a counter family named with _total: " + line)
    if "# TYPE iolite_ios counter" not in om:
        bad.append("OpenMetrics: no family iolite_ios")
    return bad

def wait_up(url, proc, what, limit=30):
    end = time.time() + limit
    while time.time() < end:
        if proc is not None and proc.poll() is not None:
            sys.exit("%s exited early (%d)" % (what, proc.returncode))
        try:
            return get(url, timeout=1)
        except (OSError, urllib.error.URLError):
            time.sleep(0.05)
    sys.exit("%s did not answer at %s" % (what, url))

def metric(text, name, **labels):
    """The value of the series name{labels...} (a subset of its labels)."""
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        lab, val = line[len(name) + 1:].rsplit("} ", 1)
        have = dict(kv.split("=", 1) for kv in lab.split(","))
        if all(have.get(k) == '"%s"' % v for k, v in labels.items()):
            return float(val)
    return None

LAUNCH = os.environ.get("LIVE_LAUNCH", "").split()

def report(path):
    return json.load(open(path))

def report_job(path):
    """The job the metrics' first series are of: the first job, or
    iolite-mpi's group 0 "All clients"."""
    d = report(path)
    if "client_stats" in d:
        return [c for c in d["client_stats"] if c["jobname"] == "All clients"
                and c["groupid"] == 0][0]
    return d["jobs"][0]

def endpoint(iolite, extra):
    bad = []
    # a port in use: refused, naming it, before anything is made
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    rc = subprocess.call(LAUNCH + [iolite, "--metrics-listen=127.0.0.1:%d" % busy.getsockname()[1],
                          "--interval-output=busy.jsonl", "--output=busy.txt"] + extra,
                         stderr=open("err", "w"))
    busy.close()
    if rc == 0 or "option '--metrics-listen': cannot listen on" not in open("err").read() \
            or os.path.exists("busy.jsonl") or os.path.exists("busy.txt"):
        bad.append("a busy port: rc %d, %s" % (rc, open("err").read()))
    port = free_port()
    base = "http://127.0.0.1:%d" % port
    cmd = LAUNCH + [iolite, "--metrics-listen=127.0.0.1:%d" % port,
           "--metrics-linger=3s", "--output-format=json",
           "--output=r.json"] + extra
    p = subprocess.Popen(cmd, stderr=open("err", "w"))
    wait_up(base + "/metrics", p, "iolite")
    idle = socket.create_connection(("127.0.0.1", port))
    mute = socket.socket()
    mute.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    mute.connect(("127.0.0.1", port))
    mute.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    if get(base + "/")[0] != 404:
        bad.append("/ is not a 404")
    if get(base + "/metrics/x")[0] != 404:
        bad.append("/metrics/x is not a 404")
    if get(base + "/metrics", method="POST")[0] != 405:
        bad.append("POST is not a 405")
    # the job's end: its last interval counted, the endpoint still there
    while True:
        st, text = get(base + "/metrics")
        if st != 200:
            bad.append("/metrics answered %d" % st)
            break
        if metric(text, "iolite_job_done") == 1:
            break
        time.sleep(0.1)
    open("final.txt", "w").write(text)
    # the same figures as OpenMetrics, asked as Prometheus asks; a
    # weight of 0 is a refusal
    ct = []
    st, om = get(base + "/metrics", accept=PROM_ACCEPT, ctype=ct)
    open("final.om", "w").write(om)
    if st != 200 or ct != [OM_TYPE]:
        bad.append("OpenMetrics: %d %s" % (st, ct))
    bad += om_check(text, om)
    ct = []
    st, t0 = get(base + "/metrics", ctype=ct,
                 accept="application/openmetrics-text;q=0,text/plain;q=0.5")
    if ct != [TEXT_TYPE] or t0 != text:
        bad.append("Accept with OpenMetrics at q=0: %s" % ct)
    rc = p.wait(timeout=60)
    idle.close()
    mute.close()
    if rc != 0:
        bad.append("iolite exited %d" % rc)
    if os.path.getsize("err"):
        bad.append("stderr: " + open("err").read())
    j = report_job("r.json")
    for d in ("read", "write"):
        for name, key in (("iolite_ios_total", "total_ios"),
                          ("iolite_bytes_total", "io_bytes")):
            v = metric(text, name, ddir=d)
            if v != j[d][key]:
                bad.append("%s %s: %s, report %s" % (name, d, v, j[d][key]))
        c = metric(text, "iolite_clat_seconds_count", ddir=d)
        inf = metric(text, "iolite_clat_seconds_bucket", ddir=d, le="+Inf")
        if c != j[d]["clat_ns"]["N"] or inf != c:
            bad.append("clat count %s, +Inf %s, report %s" % (c, inf, j[d]["clat_ns"]["N"]))
    notes = " ".join(report("r.json").get("iolite", {}).get("notes", []))
    if "cut at the deadline" not in notes:
        bad.append("no note of the silent client: " + notes)
    return bad

def prom_query(base, q, t=None):
    url = base + "/api/v1/query?query=" + urllib.parse.quote(q)
    if t is not None:
        url += "&time=%.3f" % t
    st, body = get(url)
    # while it starts (its storage not open yet) it may answer 503
    try:
        return json.loads(body)["data"]["result"] if st == 200 else []
    except ValueError:
        return []

def prom(iolite, extra):
    import urllib.parse  # noqa: F401
    iport, pport = free_port(), free_port()
    base = "http://127.0.0.1:%d" % pport
    open("prom.yml", "w").write(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
        "scrape_configs:\n  - job_name: iolite\n"
        "    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % iport)
    pr = subprocess.Popen(QUIET + ["prometheus", "--config.file=prom.yml",
                           "--storage.tsdb.path=tsdb",
                           "--web.listen-address=127.0.0.1:%d" % pport],
                          stdout=open("prom.log", "w"), stderr=subprocess.STDOUT,
                          env=GO_ENV)
    bad = []
    try:
        wait_up(base + "/-/ready", pr, "prometheus", 60)
        # its first scrape (of nothing yet: up is 0) comes a moment
        # after it is ready; the job starts once the scraping does
        end = time.time() + 60
        while not prom_query(base, "up"):
            if time.time() > end:
                return ["prometheus never scraped"]
            time.sleep(0.2)
        cmd = LAUNCH + [iolite, "--metrics-listen=127.0.0.1:%d" % iport,
               "--metrics-linger=3s", "--interval-period=1s",
               "--interval-output=s.jsonl", "--output-format=json+",
               "--output=r.json"] + extra
        rc = subprocess.call(cmd, stderr=open("err", "w"))
        if rc or os.path.getsize("err"):
            return ["iolite: %d %s" % (rc, open("err").read())]
        bad += prom_check(base)
    finally:
        pr.terminate()
        pr.wait(timeout=30)
    return bad

def prom_check(base):
    bad = []
    j = report_job("r.json")
    L = [json.loads(l) for l in open("s.jsonl") if json.loads(l)["jobid"] == 0]
    d = "read"
    # every scraped value is one the stream's running sum took (the
    # counters move once an interval), and the last is the report's
    sums, s = [0], 0
    for r in L:
        s += r[d]["total_ios"]
        sums.append(s)
    raw = prom_query(base, 'iolite_ios_total{ddir="%s"}[10m]' % d)
    vals = [(float(t), float(v)) for t, v in raw[0]["values"]]
    if len(vals) < 4:
        bad.append("only %d scrapes" % len(vals))
    for t, v in vals:
        if int(v) not in sums:
            bad.append("scraped %d at %.3f: not a running sum of the stream" % (v, t))
    if int(vals[-1][1]) != j[d]["total_ios"]:
        bad.append("last scrape %d, report %d" % (vals[-1][1], j[d]["total_ios"]))
    # increase() over all of it: what the scrapes saw, no less, and no
    # more than the report (its extrapolation toward the run's start
    # stops at zero); a counter reset would break either bound
    t_end = vals[-1][0]
    v_first, v_last = vals[0][1], vals[-1][1]
    q = prom_query(base, 'increase(iolite_ios_total{ddir="%s"}[1h])' % d, t_end)
    inc = float(q[0]["value"][1])
    if not (v_last - v_first - 0.5 <= inc <= j[d]["total_ios"] + 0.5):
        bad.append("increase %.1f: not within [%d, %d]" % (
            inc, v_last - v_first, j[d]["total_ios"]))
    # the histogram's quantiles against the report's percentiles: within
    # the bucket (a quarter of an octave, linear in between)
    for qq, key in ((0.5, "50.000000"), (0.99, "99.000000")):
        q = prom_query(base, 'histogram_quantile(%g, iolite_clat_seconds_bucket{ddir="%s"})' % (qq, d), t_end)
        got = float(q[0]["value"][1]) * 1e9
        want = j[d]["clat_ns"]["percentile"][key]
        if not (want / 1.3 <= got <= want * 1.3):
            bad.append("p%g: prometheus %.0f ns, report %d ns" % (qq * 100, got, want))
    # the interval's quantile too: the stream's last full interval
    print("scrapes %d, running sums %d, increase %.0f (report %d)" % (
        len(vals), len(sums), inc, j[d]["total_ios"]))
    return bad

def push(iolite, extra):
    gport = free_port()
    base = "http://127.0.0.1:%d" % gport
    gw = subprocess.Popen(QUIET + ["prometheus-pushgateway",
                           "--web.listen-address=127.0.0.1:%d" % gport],
                          stdout=open("gw.log", "w"), stderr=subprocess.STDOUT,
                          env=GO_ENV)
    bad = []
    try:
        wait_up(base + "/-/ready", gw, "pushgateway", 60)
        cmd = [iolite, "--metrics-push=%s/metrics/job/iolite" % base,
               "--output-format=json", "--output=r.json"] + extra
        rc = subprocess.call(cmd, stderr=open("err", "w"))
        if rc or os.path.getsize("err"):
            return ["iolite: %d %s" % (rc, open("err").read())]
        st, text = get(base + "/metrics")
        j = report("r.json")["jobs"][0]
        for d in ("read", "write"):
            v = metric(text, "iolite_ios_total", ddir=d)
            if v != j[d]["total_ios"]:
                bad.append("gateway %s: %s, report %s" % (d, v, j[d]["total_ios"]))
        notes = report("r.json").get("iolite", {}).get("notes", [])
        if any("metrics-push" in n for n in notes):
            bad.append("notes: %s" % notes)
        # a gateway that is not there: a note, the run still succeeds
        gw.terminate()
        gw.wait(timeout=30)
        rc = subprocess.call(cmd, stderr=open("err", "w"))
        notes = report("r.json").get("iolite", {}).get("notes", [])
        if rc or os.path.getsize("err") or \
                not any("--metrics-push: cannot push" in n for n in notes):
            bad.append("gateway gone: rc %d, notes %s" % (rc, notes))
    finally:
        if gw.poll() is None:
            gw.terminate()
            gw.wait(timeout=30)
    return bad

def main():
    mode, iolite, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = {"endpoint": endpoint, "prom": prom, "push": push}[mode](iolite, extra)
    for b in bad:
        print(b)
    return 1 if bad else 0

if __name__ == "__main__":
    import urllib.parse  # noqa: F401
    sys.exit(main())

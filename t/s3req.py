#!/usr/bin/env python3
# s3req.py METHOD ENDPOINT PATH ACCESS SECRET [OUTFILE [NAME:VALUE...]]:
# one signed S3 request for the http engine's S3 tests (t0351, t0352)
# (AWS signature v4, empty body), independent of iolite's signer, the
# headers given signed too; prints the status, the body to OUTFILE ('-':
# nowhere)
import datetime, hashlib, hmac, sys, urllib.error, urllib.parse, urllib.request
method, ep, path, ak, sk = sys.argv[1:6]
out = sys.argv[6] if len(sys.argv) > 6 and sys.argv[6] != "-" else None
extra = dict(h.split(":", 1) for h in sys.argv[7:])
host = urllib.parse.urlparse(ep).netloc
now = datetime.datetime.now(datetime.timezone.utc)
amz, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
sha = hashlib.sha256(b"").hexdigest()
hdrs = {"host": host, "x-amz-content-sha256": sha, "x-amz-date": amz}
hdrs.update((k.lower(), v) for k, v in extra.items())
names = ";".join(sorted(hdrs))
creq = "\n".join([method, urllib.parse.quote(path), "",
                  "".join("%s:%s\n" % (k, hdrs[k]) for k in sorted(hdrs)),
                  names, sha])
scope = "%s/us-east-1/s3/aws4_request" % day
sts = "\n".join(["AWS4-HMAC-SHA256", amz, scope,
                 hashlib.sha256(creq.encode()).hexdigest()])
k = ("AWS4" + sk).encode()
for m in (day, "us-east-1", "s3", "aws4_request"):
    k = hmac.new(k, m.encode(), hashlib.sha256).digest()
sig = hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()
req = urllib.request.Request(ep + urllib.parse.quote(path), method=method)
req.add_header("x-amz-content-sha256", sha)
req.add_header("x-amz-date", amz)
for k, v in extra.items():
    req.add_header(k, v)
req.add_header("Authorization", "AWS4-HMAC-SHA256 Credential=%s/%s, "
               "SignedHeaders=%s, Signature=%s" % (ak, scope, names, sig))
try:
    with urllib.request.urlopen(req, timeout=20) as r:
        body, st = r.read(), r.status
except urllib.error.HTTPError as e:
    body, st = e.read(), e.code
if out:
    open(out, "wb").write(body)
print(st)

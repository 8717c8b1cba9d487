#!/usr/bin/env python3
# For the http engine's Swift test (t0352), independent of iolite:
#   swiftreq.py auth ENDPOINT USER KEY    Swift v1 auth (GET /auth/1.0 with
#                                         X-Auth-User, X-Auth-Key): prints
#                                         the X-Auth-Token, or the status
#   swiftreq.py METHOD URL TOKEN [OUTFILE]
#                                         one request with X-Auth-Token, an
#                                         empty body: prints the status, the
#                                         body to OUTFILE
import sys, urllib.error, urllib.request


def send(req):
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


if sys.argv[1] == "auth":
    ep, user, key = sys.argv[2:5]
    req = urllib.request.Request(ep + "/auth/1.0")
    req.add_header("X-Auth-User", user)
    req.add_header("X-Auth-Key", key)
    st, hdrs, _ = send(req)
    print(hdrs.get("X-Auth-Token") if st // 100 == 2 else st)
    sys.exit(0 if st // 100 == 2 else 1)
method, url, token = sys.argv[1:4]
req = urllib.request.Request(url, method=method,
                             data=b"" if method == "PUT" else None)
req.add_header("X-Auth-Token", token)
st, _, body = send(req)
if len(sys.argv) > 4:
    open(sys.argv[4], "wb").write(body)
print(st)

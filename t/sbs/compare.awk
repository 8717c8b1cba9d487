# compare.awk: the verdict on every row of a table, as TAP lines
# (lib-sbs.sh). Inputs, in order: the rows (parse.awk's output), fio's
# figures and iolite's (figures.awk's and coverage.awk's output; fio's
# is /dev/null without fio). -v fam=TABLE start=N (tests before these)
# havefio=0/1 trace=0/1 w=DIR (W/fio/ROW.seq, W/iolite/ROW.seq)
# cnt=FILE (gets "tests failed skipped"), skipf=FILE ("ROW<tab>reason"
# for the rows that did not run: a prerequisite is missing, or unknown).
#
# With fio: every checked key and fixed figure is compared between the
# tools, and the fixed figures against fio (a disagreement is the row's
# fault: "table error"). Without fio: iolite against the fixed figures.
# A howto row (fio 3.33 contradicts its HOWTO there) checks iolite
# against the fixed figures (the HOWTO's) either way; fio must differ.
# A nofio row (fio 3.33 hangs on it) is not given to fio.
# Unless the row checks err, both tools must succeed.

BEGIN {
	FS = "\t"
	split("fsync fdatasync fadvise64 dontneed openat close ftruncate fallocate sync_file_range", sl, " ")
	for (i = 1; i in sl; i++) straced[sl[i]] = 1
	# default tolerances: mix and depth in percentage points, perfile
	# and regions in points of the total, runtime in percent (and 20 ms)
	deftol["mix"] = 5; deftol["depth"] = 10; deftol["perfile"] = 10; deftol["regions"] = 5; deftol["runtime"] = 50
	deftol["dsubmit"] = deftol["dcomplete"] = 10
	while (skipf != "" && (getline l < skipf) > 0) {
		split(l, p, "\t"); norun[p[1]] = p[2]
	}
}

FNR == 1 { fi = FILENAME == ARGV[1] ? 1 : FILENAME == ARGV[2] ? 2 : 3 }
fi == 1 { nrow++; name[nrow] = $1; chk[nrow] = $2; exp_[nrow] = $3; opt_[nrow] = $4; next }
{
	e = index($2, "=")
	k = substr($2, 1, e - 1); val = substr($2, e + 1)
	if (fi == 2) F[$1, k] = val; else I[$1, k] = val
	if (fi == 2) fk[$1] = fk[$1] " " k; else ik[$1] = ik[$1] " " k
}

function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?$/ }
function pad3(s,    n, x) {
	if (s == "none") return s
	n = split(s, x, ",")
	while (n++ < 3) s = s ",0"
	return s
}
function abs(x) { return x < 0 ? -x : x }

# same(key, a, b): a and b agree for key, within its tolerance
function same(key, a, b,    t, na, nb, x, y, i, n, ta, tb, da, db, sn, p, m) {
	# per-direction figures may leave out trailing zeros: ios=0,119
	if (key ~ /^(ios|bytes|runtime|lios)(\.|$)/) { a = pad3(a); b = pad3(b) }
	if (a == b) return 1
	if (key in tol) t = tol[key]
	else if (key in deftol) t = deftol[key]
	else return 0
	if (a == "none" || b == "none") return 0
	na = split(a, x, ","); nb = split(b, y, ",")
	if (key ~ /^(depth|dsubmit|dcomplete)$/) {
		for (i = 1; i <= na; i++) { split(x[i], p, ":"); da[p[1]] = p[2]; sn[p[1]] = 1 }
		for (i = 1; i <= nb; i++) { split(y[i], p, ":"); db[p[1]] = p[2]; sn[p[1]] = 1 }
		for (i in sn) if (abs(da[i] - db[i]) > t) return 0
		return 1
	}
	if (key == "regions") {
		for (i = 1; i <= na; i++) { ta += x[i]; tb += y[i] }
		if (na != nb) return 0
		for (i = 1; i <= na; i++)
			if (abs((ta ? 100 * x[i] / ta : 0) - (tb ? 100 * y[i] / tb : 0)) > t)
				return 0
		return 1
	}
	if (key == "perfile") {
		for (i = 1; i <= na; i++) ta += x[i]
		for (i = 1; i <= nb; i++) tb += y[i]
		n = na > nb ? na : nb
		for (i = 1; i <= n; i++)
			if (abs((ta ? 100 * x[i] / ta : 0) - (tb ? 100 * y[i] / tb : 0)) > t)
				return 0
		return 1
	}
	if (na != nb) return 0
	for (i = 1; i <= na; i++) {
		if (!num(x[i]) || !num(y[i])) { if (x[i] != y[i]) return 0; continue }
		if (key == "mix") { if (abs(x[i] - y[i]) > t) return 0; continue }
		m = x[i] > y[i] ? x[i] : y[i]
		if (abs(x[i] - y[i]) > t * m / 100 && !(key == "runtime" && abs(x[i] - y[i]) <= 20))
			return 0
	}
	return 1
}

# want(key, tolerance): compare key (within the tolerance, "" for none)
function want(k, t) {
	if (!(k in wanted)) { wanted[k] = 1; order[++nk] = k }
	if (t != "") tol[k] = t
}

# "" when the two I/O sequences are the same, else the first difference
function seqdiff(r,    fa, fb, a, b, n, ra, rb, d) {
	fa = w "/fio/" r ".seq"; fb = w "/iolite/" r ".seq"
	d = ""
	for (n = 1; ; n++) {
		ra = (getline a < fa) > 0; rb = (getline b < fb) > 0
		if (!ra && !rb) break
		if (!ra) a = "(end)"
		if (!rb) b = "(end)"
		if (a != b) {
			d = "seq: first difference at I/O line " n ": fio \"" a "\" iolite \"" b "\""
			break
		}
	}
	close(fa); close(fb)
	return d
}

# the first lines a tool wrote to stderr
function said(tool, f,    l, s, n) {
	s = ""
	if (f == "") return ""
	while (n < 3 && (getline l < f) > 0) { s = s (n++ ? " / " : "") l }
	close(f)
	return s == "" ? "" : tool " said: " s
}

function verdict(r, checks, expect,    nc, c, i, k, t, p, ne, ex, e, f, o, nm, v, checked, pend, kk, howto, fiodiff, nofio, hf, unchecked) {
	delete wanted; delete tol; delete E; delete grp; delete msg
	nk = 0; nm = 0; v = "ok"; checked = 0; pend = ""; howto = 0; fiodiff = ""
	nc = split(checks, c, ",")
	for (i = 1; i <= nc; i++) {
		k = c[i]
		if (k ~ /^pending=/) { pend = substr(k, 9); continue }
		if (k == "solo" || k ~ /^needs=/) continue
		if (k == "howto") { howto = 1; continue }
		if (k == "nofio") { nofio = 1; continue }
		t = ""
		# tolerances are numbers (a string compares as text in awk)
		if (match(k, /~[0-9]+$/)) { t = substr(k, RSTART + 1) + 0; k = substr(k, 1, RSTART - 1) }
		if (k == "counts") { want("ios", t); want("syncs", t); grp["ios"] = grp["syncs"] = 1 }
		else if (k == "bytes") { want("bytes", t); grp["bytes"] = 1 }
		else if (k == "set") { want("cover", t); want("twice", t); want("bsset", t); want("mix", t) }
		else if (k == "sys") { want("fsync", t); want("fdatasync", t); want("dontneed", t) }
		else if (k == "err") { want("rc"); want("jerr"); want("errs") }
		else if (k == "depth") { want("depth", t); want("dsubmit", t); want("dcomplete", t) }
		else want(k, t)
	}
	# a multi-job row's per-job counts go with its counts and bytes
	hf = havefio && !nofio
	kk = fk[r] " " ik[r]
	nc = split(kk, c, " ")
	for (i = 1; i <= nc; i++) {
		split(c[i], p, ".")
		if (p[2] != "" && grp[p[1]]) want(c[i], (p[1] in tol) ? tol[p[1]] : "")
	}
	ne = (expect == "-") ? 0 : split(expect, ex, " ")
	for (i = 1; i <= ne; i++) {
		e = index(ex[i], "=")
		if (!e) { res = "table"; rmsg = "bad fixed figure \"" ex[i] "\" (want key=value)"; return }
		k = substr(ex[i], 1, e - 1); E[k] = substr(ex[i], e + 1); want(k, "")
	}
	if (hf && !("rc" in wanted) && F[r, "rc"] != 0) {
		res = "table"; rmsg = "fio fails on this row (exit " F[r, "rc"] "): check err, or fix the options"
		rmsg = rmsg "\n" said("fio", F[r, "errf"])
		return
	}
	if (!("rc" in wanted)) {
		if (I[r, "rc"] != 0) { v = "diff"; msg[++nm] = "iolite fails (exit " I[r, "rc"] ")" }
		else if (hf && F[r, "jerr"] != I[r, "jerr"]) {
			v = "diff"; msg[++nm] = "job error: fio=" F[r, "jerr"] " iolite=" I[r, "jerr"]
		} else if (hf && F[r, "errs"] != I[r, "errs"]) {
			v = "diff"; msg[++nm] = "total_err,first_error: fio=" F[r, "errs"] " iolite=" I[r, "errs"]
		}
	}
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if ((k in straced) && !trace) { unchecked++; continue }
		f = ((r, k) in F) ? F[r, k] : "none"
		o = ((r, k) in I) ? I[r, k] : "none"
		# a tool that refused the job up front has no job error to compare
		if ((k == "jerr" || k == "errs") && !(k in E) && (f == "none" || o == "none")) continue
		if (howto) {
			if (hf && (k in E) && !same(k, E[k], f) && fiodiff == "")
				fiodiff = k
			if (k in E) {
				checked++
				if (!same(k, E[k], o)) { v = "diff"; msg[++nm] = k ": expected=" E[k] " iolite=" o " (fio=" f ")" }
			}
			continue
		}
		if (hf && (k in E) && !same(k, E[k], f)) {
			res = "table"; rmsg = "fixed figure " k "=" E[k] " but fio gives " f
			return
		}
		if (hf && k == "seq") {
			checked++
			t = seqdiff(r)
			if (t != "") { v = "diff"; msg[++nm] = t }
		} else if (hf) {
			checked++
			if (!same(k, f, o)) { v = "diff"; msg[++nm] = k ": fio=" f " iolite=" o }
		} else if (k in E) {
			checked++
			if (!same(k, E[k], o)) { v = "diff"; msg[++nm] = k ": expected=" E[k] " iolite=" o }
		} else {
			unchecked++
		}
	}
	if (howto && hf && fiodiff == "") {
		res = "table"; rmsg = "marked howto, but fio gives the fixed figures now: drop howto"
		return
	}
	if (v == "ok" && !checked) {
		res = "skip"
		rmsg = hf ? "nothing to compare without strace" : ne ? "its fixed figures need strace" : "no fixed figures: needs fio"
		return
	}
	# a pending row is fixed only when every check was made
	if (v == "ok" && pend != "" && unchecked) {
		res = "skip"; rmsg = "pending fix " pend ": what was checked matches, the rest needs " (hf ? "strace" : "fio")
		return
	}
	res = v; rmsg = ""; pending = pend
	for (i = 1; i <= nm; i++) rmsg = rmsg (i > 1 ? "\n" : "") msg[i]
	if (v != "ok") {
		if (hf) { t = said("fio", F[r, "errf"]); if (t != "") rmsg = rmsg "\n" t }
		t = said("iolite", I[r, "errf"]); if (t != "") rmsg = rmsg "\n" t
	}
}

function notes(s,    n, l, i) {
	n = split(s, l, "\n")
	for (i = 1; i <= n; i++) if (l[i] != "") print "#   " l[i]
}

END {
	t = start
	for (i = 1; i <= nrow; i++) {
		r = name[i]; t++
		title = fam ": " r
		if (r ~ /^!/) {
			print "not ok " t " - " fam ": line " substr(r, 2) " # table error"
			print "#   " opt_[i]
			failed++
			continue
		}
		res = ""; rmsg = ""; pending = ""
		if (r in norun) { res = norun[r] ~ /unknown/ ? "table" : "skip"; rmsg = norun[r] }
		else verdict(r, chk[i], exp_[i])
		first = rmsg; sub(/\n.*/, "", first)
		if (res == "ok" && pending != "") {
			print "not ok " t " - " title " # fixed: remove pending=" pending
			failed++
		} else if (res == "ok") {
			print "ok " t " - " title
		} else if (res == "skip") {
			print "ok " t " # skip " title " (" rmsg ")"
			skipped++
		} else if (res == "diff" && pending != "") {
			print "ok " t " # skip " title ": pending fix " pending " (" first ")"
			skipped++
		} else if (res == "diff") {
			print "not ok " t " - " title
			notes(rmsg)
			failed++
		} else {
			print "not ok " t " - " title " # table error"
			notes(rmsg)
			failed++
		}
	}
	print (t - start), failed + 0, skipped + 0 > cnt
}

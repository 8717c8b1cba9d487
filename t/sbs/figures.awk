# figures.awk: the figures of every row of one tool's run of a table
# (lib-sbs.sh). One pass over everything the run left, in this order:
#   W/map        ROW BASE JOB TRACED: the run that did the row
#                (BASE.json, BASE.rc, BASE.err, BASE.strace), the job
#                name in its JSON ("*": every job of BASE is the row's)
#                and 1 when the run was traced
#   W/files.lst  "CRC SIZE ROW/path" (cksum) of every file the rows left
#   W/logs.lst   "LINES ROW/path" of every *.log file (wc -l), sorted
#   BASE.rc, BASE.json, BASE.strace of every run
#   W/d/ROW/*.iolog, the rows' write_iolog files
# Writes "ROW<tab>key=value" lines (keys in doc/sidebyside.md) to stdout,
# each row's I/O sequence (file action offset length, D/ dropped) to
# W/ROW.seq and coverage events to W/events (coverage.awk sums them).
# -v w=W

function strip(s) { gsub(/"([^"\\]|\\.)*"/, "\"\"", s); return s }
function trip(r, k) { return (v[r, "read", k] + 0) "," (v[r, "write", k] + 0) "," (v[r, "trim", k] + 0) }
function out(r, k, val) { printf "%s\t%s=%s\n", r, k, val }

# a row's directory in a path: w/d/ROW/...
function rowof(s,    i, r) {
	i = index(s, dpre)
	if (!i) return ""
	r = substr(s, i + length(dpre))
	i = index(r, "/")
	return i ? substr(r, 1, i - 1) : ""
}

BEGIN {
	dpre = w "/d/"; OFS = " "
	dkey["iodepth_level"] = "depth"; dkey["iodepth_submit"] = "dsubmit"
	dkey["iodepth_complete"] = "dcomplete"
}

FNR == 1 {
	b = FILENAME; sub(/\.[a-z]+$/, "", b)
	depth = 0; use = 0; r = ""
	if (seqf != "") { close(seqf); seqf = "" }
}

FILENAME == w "/map" {
	rows[++nrow] = $1; base[$1] = $2
	if ($3 == "*") solo[$2] = $1
	if ($4 == 1) traced[$2] = 1
	next
}

FILENAME == w "/files.lst" {
	i = index($3, "/"); r = substr($3, 1, i - 1); f = substr($3, i + 1)
	fl[r] = fl[r] (fl[r] == "" ? "" : ",") f ":" $2
	fn[r] = fn[r] (fn[r] == "" ? "" : ",") f
	fd[r] = fd[r] (fd[r] == "" ? "" : ",") f ":" $1
	next
}

FILENAME == w "/logs.lst" {
	i = index($2, "/"); r = substr($2, 1, i - 1)
	ll[r] = ll[r] (ll[r] == "" ? "" : ",") substr($2, i + 1) ":" $1
	next
}

FILENAME ~ /\.rc$/ { rc[b] = $1; next }

# fio's JSON and iolite's: pretty-printed, a key per line; fio may put
# notes before it. The jobs are at depth 3, their directions at 4.
FILENAME ~ /\.json$/ {
	line = $0
	key = ""
	if (match(line, /^[ \t]*"[^"]*"[ \t]*:/)) {
		key = substr(line, RSTART, RLENGTH)
		sub(/^[ \t]*"/, "", key); sub(/"[ \t]*:$/, "", key)
		val = substr(line, RSTART + RLENGTH)
		sub(/^[ \t]*/, "", val); sub(/,[ \t]*$/, "", val); gsub(/"/, "", val)
	}
	if (key != "" && depth == 3 && path[1] == "jobs") {
		if (key == "jobname") {
			j = val
			r = (b in solo) ? solo[b] : j
			use = (r in base) && base[r] == b
			if (use) {
				seenjson[r] = 1
				if (!((r, j) in jseen)) { jseen[r, j] = 1; jobs[r] = jobs[r] " " j }
			}
		}
		if (use && key == "error" && val + 0 && !jerr[r])
			jerr[r] = val + 0
		# continue_on_error's: the errors summed, the first one's errno
		if (use && key == "total_err") { terr[r] += val; hasterr[r] = 1 }
		if (use && key == "first_error" && val + 0 && !ferr[r])
			ferr[r] = val + 0
	}
	if (key != "" && use && depth == 4 && path[1] == "jobs") {
		dir = path[3]
		if ((dir == "read" || dir == "write" || dir == "trim") &&
		    (key == "total_ios" || key == "io_bytes")) {
			v[r, dir, key] += val; v[r "." j, dir, key] += val
		}
		if (dir == "mixed" && (key == "total_ios" || key == "io_bytes")) {
			v[r, dir, key] += val; mixed[r] = 1
		}
		if ((dir == "read" || dir == "write" || dir == "trim") && key == "runtime" &&
		    val + 0 > v[r, dir, key] + 0)
			v[r, dir, key] = val + 0
		if (dir == "sync" && key == "total_ios") {
			v[r, "sync"] += val; v[r "." j, "sync"] += val
		}
		# the first job's IO depths: levels, submit and complete calls
		if ((dir in dkey) && !depthdone[r, dir]) {
			k = key; sub(/^>=/, "", k)
			d = sprintf("%.0f", val)
			if (d + 0 > 0) dl[r, dir] = dl[r, dir] (dl[r, dir] == "" ? "" : ",") k ":" d
		}
	}
	s = strip(line)
	o = gsub(/[\[{]/, "", s); c = gsub(/[\]}]/, "", s)
	if (o > c) path[depth] = key
	if (use && depth == 4 && o < c && (path[3] in dkey) && dl[r, path[3]] != "")
		depthdone[r, path[3]] = 1
	depth += o - c
	next
}

# strace -f -y: the calls on files under a row's directory
FILENAME ~ /\.strace$/ {
	r = rowof($0)
	if (r == "" || index($0, ".iolog")) next
	for (i = 1; i <= NF; i++)
		if (match($i, /^[a-z_0-9]+\(/)) {
			sc = substr($i, 1, RLENGTH - 1)
			n[r, sc]++
			if (sc == "fadvise64" && index($0, "POSIX_FADV_DONTNEED"))
				n[r, "dontneed"]++
			break
		}
	next
}

# write_iolog version 3: TIME FILE ACTION [OFFSET LENGTH]
FILENAME ~ /\.iolog$/ {
	if (FNR == 1) {
		r = rowof(FILENAME)
		seqf = w "/" r ".seq"
		if (seqopen[r]++) printf "" >> seqf; else printf "" > seqf
		logged[r] = 1
	}
	if ($1 !~ /^[0-9]+$/ || NF < 3) next
	f = $2
	i = index(f, dpre r "/")
	if (i == 1) f = substr(f, length(dpre r "/") + 1)
	a = $3
	lfiles[r, f] = 1
	if (a == "open") { op[r, f]++; next }
	if (a == "close") { cl[r, f]++; next }
	if (a == "add") next
	# a sync line carries whatever offset fio's reused I/O unit held
	if (a == "sync" || a == "datasync" || a == "sync_file_range")
		print f, a >> seqf
	else print f, a, $4, $5 >> seqf
	if (a != "read" && a != "write" && a != "trim") next
	nio[r, a]++; per[r, f]++
	ro[r, nio[r, "all"]++] = $4
	if ($4 + $5 > rmax[r]) rmax[r] = $4 + $5
	bs[r, $5] = 1
	if ((r, f, a) in last) {
		st = $4 - last[r, f, a]
		if (!((r, a, st) in stride) && nst[r, a] <= 64) {
			stride[r, a, st] = 1
			sl[r, a] = sl[r, a] " " st; nst[r, a]++
		}
	}
	last[r, f, a] = $4
	printf "%s\t%s\t%.0f\t1\n%s\t%s\t%.0f\t-1\n", r, f, $4, r, f, $4 + $5 > (w "/events")
	next
}

# the keys of a list kept in SUBSEP-joined arrays, sorted
function keys(arr, r, how,    k, p, x, nn, i, j, s, a) {
	nn = 0
	for (k in arr) {
		split(k, p, SUBSEP)
		if (p[1] != r) continue
		x = (how == "count") ? arr[k] : p[2]
		a[++nn] = x
		if (how == "opens") a[nn] = p[2] ":" (op[k] + 0) "/" (cl[k] + 0)
	}
	for (i = 2; i <= nn; i++) {
		x = a[i]
		for (j = i - 1; j >= 1; j--) {
			if (how == "opens" ? a[j] <= x : how == "num" ? a[j] + 0 <= x + 0 : a[j] + 0 >= x + 0)
				break
			a[j + 1] = a[j]
		}
		a[j + 1] = x
	}
	s = ""
	for (i = 1; i <= nn; i++) s = s (i > 1 ? "," : "") a[i]
	return s == "" ? "none" : s
}

# I/Os per eighth of the span the row's I/Os reached (offsets 0 to the
# furthest end), in order: where a distribution puts its hot spots
function regions(r,    i, k, c, s) {
	for (k = 0; k < 8; k++) c[k] = 0
	for (i = 0; i < nio[r, "all"]; i++) {
		k = int(8 * ro[r, i] / rmax[r])
		c[k > 7 ? 7 : k]++
	}
	s = c[0]
	for (k = 1; k < 8; k++) s = s "," c[k]
	return s
}

# per direction, the offset steps between its I/Os on a file:
# read:4096,write:-61440/4096 (slash-separated, sorted; "many" past 64)
function strides(r,    s, dirs, i, d, a, nn, j, x, t) {
	split("read write trim", dirs, " ")
	s = ""
	for (i = 1; i <= 3; i++) {
		d = dirs[i]
		nn = split(sl[r, d], a, " ")
		if (nst[r, d] > 64) { s = s (s == "" ? "" : ",") d ":many"; continue }
		for (j = 2; j <= nn; j++) {
			x = a[j]
			for (t = j - 1; t >= 1 && a[t] + 0 > x + 0; t--) a[t + 1] = a[t]
			a[t + 1] = x
		}
		if (!nn) continue
		s = s (s == "" ? "" : ",") d ":"
		for (j = 1; j <= nn; j++) s = s (j > 1 ? "/" : "") a[j]
	}
	return s == "" ? "none" : s
}

END {
	for (i = 1; i <= nrow; i++) {
		r = rows[i]; bb = base[r]
		out(r, "rc", (bb in rc) ? rc[bb] : "none")
		if (bb in solo) out(r, "errf", bb ".err")
		if (seenjson[r]) {
			out(r, "ios", trip(r, "total_ios"))
			out(r, "total", v[r, "read", "total_ios"] + v[r, "write", "total_ios"] + v[r, "trim", "total_ios"])
			out(r, "bytes", trip(r, "io_bytes"))
			out(r, "syncs", v[r, "sync"] + 0)
			out(r, "jerr", jerr[r] + 0)
			out(r, "errs", hasterr[r] ? (terr[r] + 0) "," (ferr[r] + 0) : "none")
			out(r, "runtime", trip(r, "runtime"))
			for (k in dkey)
				out(r, dkey[k], dl[r, k] == "" ? "none" : dl[r, k])
			if (mixed[r])
				out(r, "mixed", (v[r, "mixed", "total_ios"] + 0) "," (v[r, "mixed", "io_bytes"] + 0))
			nj = split(jobs[r], jl, " ")
			if (nj > 1)
				for (k = 1; k <= nj; k++) {
					out(r, "ios." jl[k], trip(r "." jl[k], "total_ios"))
					out(r, "bytes." jl[k], trip(r "." jl[k], "io_bytes"))
					out(r, "syncs." jl[k], v[r "." jl[k], "sync"] + 0)
				}
		}
		if (logged[r]) {
			out(r, "lios", (nio[r, "read"] + 0) "," (nio[r, "write"] + 0) "," (nio[r, "trim"] + 0))
			rw = nio[r, "read"] + nio[r, "write"]
			out(r, "mix", rw ? sprintf("%.0f", 100 * nio[r, "read"] / rw) : "none")
			out(r, "bsset", keys(bs, r, "num"))
			out(r, "opens", keys(lfiles, r, "opens"))
			out(r, "perfile", keys(per, r, "count"))
			out(r, "regions", nio[r, "all"] ? regions(r) : "none")
			out(r, "stride", strides(r))
		} else {
			printf "" > (w "/" r ".seq")
			close(w "/" r ".seq")
		}
		if (traced[bb]) {
			split("fsync fdatasync fadvise64 dontneed openat close ftruncate fallocate sync_file_range", scl, " ")
			for (k = 1; k in scl; k++) out(r, scl[k], n[r, scl[k]] + 0)
		}
		out(r, "files", (r in fl) ? fl[r] : "none")
		out(r, "names", (r in fn) ? fn[r] : "none")
		out(r, "data", (r in fd) ? fd[r] : "none")
		out(r, "loglines", (r in ll) ? ll[r] : "none")
	}
}

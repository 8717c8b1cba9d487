#!/bin/sh
# The include layers of src/: a file includes headers of its own folder
# and of lower layers only, and the run side and the results side never
# include each other. The layers are written once, in doc/design.md's
# "Layers" block; this script reads them from there and checks every
# `#include "folder/x.h"` line of src/ against them.
. "$(dirname "$0")/test-lib.sh"

DESIGN=$SRC_DIR/doc/design.md

# The block after the marker line in doc/design.md (highest layer first),
# as lines "L folder rank side" (side: both, run or results) and
# "X from to" for the exceptions. A line "A B | C D" puts A and B on the
# run side, C and D on the results side, at the same rank.
layers_read() {
	awk '
	/t0016-layers.sh reads the next block/ { on = 1; next }
	on && !started && /^[ \t]*$/ { next }
	on && /^[ \t]*$/ { exit }
	on && $1 == "exception" { print "X", $2, $4; next }
	on { started = 1; line[++n] = $0 }
	END {
		for (i = 1; i <= n; i++) {
			nf = split(line[i], w, " ")
			side = "both"
			for (k = 1; k <= nf; k++) {
				if (w[k] == "|") {
					side = "results"
					continue
				}
				if (side == "both" && index(line[i], "|"))
					side = "run"
				print "L", w[k], n - i, side
			}
		}
	}' "$1"
}

# Every include of a project header in $2/src that goes up a layer or
# across the sides, one line each: "src/a/b.c:12: ...". $1: the layers
# as layers_read() gives them.
layers_check() {
	(cd "$2" && grep -rHn --include='*.c' --include='*.h' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src) |
	awk -v layers="$1" '
	BEGIN {
		while ((getline l < layers) > 0) {
			split(l, w, " ")
			if (w[1] == "L") {
				rank[w[2]] = w[3]
				side[w[2]] = w[4]
			} else {
				allow[w[2] "/" w[3]] = 1
			}
		}
	}
	function folder_of(path,   p, n) {
		n = split(path, p, "/")
		return n > 2 ? p[2] : "main"
	}
	{
		file = $0
		sub(/:.*/, "", file)
		rest = substr($0, length(file) + 2)
		ln = rest
		sub(/:.*/, "", ln)
		h = rest
		sub(/^[^"]*"/, "", h)
		sub(/".*/, "", h)
		from = folder_of(file)
		if (index(h, "/")) {
			to = h
			sub(/\/.*/, "", to)
		} else {
			# a bare name: a header beside the file, else in src/
			dir = file
			sub(/\/[^\/]*$/, "", dir)
			to = (getline t < (dir "/" h)) >= 0 ? from : "main"
			close(dir "/" h)
		}
		where = file ":" ln ": includes \"" h "\": "
		if (!(from in rank)) {
			print where from "/ has no layer in doc/design.md"
			next
		}
		if (!(to in rank)) {
			print where to "/ has no layer in doc/design.md"
			next
		}
		if (from == to || allow[from "/" to])
			next
		if (side[from] != "both" && side[to] != "both" &&
		    side[from] != side[to])
			print where to "/ is on the " side[to] \
				" side, " from "/ on the " side[from] " side"
		else if (rank[to] >= rank[from])
			print where to "/ is not below " from "/"
	}'
}

test_expect_success 'doc/design.md has the layers block' '
	layers_read "$DESIGN" >layers &&
	grep "^L util 0 both$" layers &&
	grep "^L run [0-9]* run$" layers &&
	grep "^L report [0-9]* results$" layers
'

test_expect_success 'every folder of src/ has a layer, and every layer a folder' '
	awk "\$1 == \"L\" && \$2 != \"main\" { print \$2 }" layers |
		sort >named &&
	(cd "$SRC_DIR/src" && for d in */; do echo "${d%/}"; done) |
		sort >have &&
	test_cmp named have
'

# The checker itself, on a made-up tree with one include of each kind.
test_expect_success 'an include up a layer or across the sides is named' '
	mkdir -p fake/src/stats fake/src/run fake/src/report \
		fake/src/workload fake/src/util fake/src/new fake/src/mpi &&
	printf "#include \"stats/stats.h\"\n#include \"run/runner.h\"\n" \
		>fake/src/stats/a.c &&
	printf "#include \"stats/stats.h\"\n#include \"util/log.h\"\n" \
		>fake/src/run/b.c &&
	printf "\n#include \"run/run_status.h\"\n" >fake/src/report/c.c &&
	printf "#include \"engine/engine.h\"\n" >fake/src/workload/d.h &&
	printf "#  include \"opt/opt.h\"\n" >fake/src/util/e.c &&
	printf "#include \"util/log.h\"\n" >fake/src/new/f.c &&
	printf "#include \"main.h\"\n#include \"cli/cli.h\"\n" \
		>fake/src/mpi/g.c &&
	layers_check "$PWD/layers" fake | sort >out &&
	cat >expect <<-\EOF &&
	src/new/f.c:1: includes "util/log.h": new/ has no layer in doc/design.md
	src/report/c.c:2: includes "run/run_status.h": run/ is on the run side, report/ on the results side
	src/stats/a.c:2: includes "run/runner.h": run/ is on the run side, stats/ on the results side
	src/util/e.c:1: includes "opt/opt.h": opt/ is not below util/
	src/workload/d.h:1: includes "engine/engine.h": engine/ is not below workload/
	EOF
	test_cmp expect out
'

test_expect_success 'no file of src/ includes a header of a higher layer' '
	layers_check "$PWD/layers" "$SRC_DIR" >bad &&
	test_must_be_empty bad
'

test_done

#!/bin/sh
# unified_rw_reporting: none, mixed (one "mixed" block summing read, write
# and trim) and both (the directions, then "mixed"), in the normal report,
# JSON, json+ and terse, with fio 3.33's layout; the mixed block is the
# exact merge of the directions.

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

JSONCMP="$TEST_DIR/jsoncmp.py"
no_samples=1
JOB="--name=u --filename=$TRASH/file --size=2m --rw=randrw --bs=4k"

# mixed_check FILE: the "mixed" block of every job is the sum of its
# directions: counts add, min and max combine, means and variances merge
# (Chan et al.), json+ bins add bucket by bucket.
cat >"$TRASH/mixed_check.py" <<\EOF
import json, math, sys

def merge(blocks, key):
    n = sum(b[key]["N"] for b in blocks)
    if not n:
        return None
    mean = sum(b[key]["N"] * b[key]["mean"] for b in blocks) / n
    m2 = 0.0
    for b in blocks:
        k = b[key]["N"]
        if k:
            m2 += (k - 1) * b[key]["stddev"] ** 2 + \
                  k * (b[key]["mean"] - mean) ** 2
    return (n, min(b[key]["min"] for b in blocks if b[key]["N"]),
            max(b[key]["max"] for b in blocks if b[key]["N"]), mean,
            math.sqrt(m2 / (n - 1)) if n > 1 else 0.0)

def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))

doc = json.load(open(sys.argv[1]))
for job in doc["jobs"]:
    dirs = [job[d] for d in ("read", "write", "trim")]
    mx = job["mixed"]
    for k in ("io_bytes", "total_ios", "short_ios", "drop_ios"):
        assert mx[k] == sum(d[k] for d in dirs), k
    assert mx["io_bytes"] > 0
    for key in ("clat_ns", "lat_ns"):
        want = merge(dirs, key)
        got = mx[key]
        assert got["N"] == want[0], (key, got["N"], want[0])
        assert got["min"] == want[1] and got["max"] == want[2], key
        assert close(got["mean"], want[3]), (key, got["mean"], want[3])
        assert close(got["stddev"], want[4]), (key, got["stddev"], want[4])
        if "bins" in got:
            bins = {}
            for d in dirs:
                for b, c in d[key].get("bins", {}).items():
                    bins[b] = bins.get(b, 0) + c
            assert got["bins"] == bins, key
    assert mx["runtime"] == max(d["runtime"] for d in dirs)
print("ok")
EOF

test_expect_success 'unified_rw_reporting takes none, mixed, both, 0, 1, 2' '
	for v in none mixed both 0 1 2; do
		"$IOLITE" --parse-only --name=a --unified_rw_reporting=$v ||
		return 1
	done &&
	test_must_fail "$IOLITE" --parse-only --name=a \
		--unified_rw_reporting=sum 2>err &&
	grep -q "unified_rw_reporting" err
'

test_expect_success 'none: no mixed block anywhere' '
	"$IOLITE" $JOB --output-format=normal,json >out 2>err &&
	test_must_be_empty err &&
	! grep -q "mixed" out &&
	! grep -q MIXED out
'

test_expect_success 'mixed: one mixed block, every I/O counted in it' '
	"$IOLITE" $JOB --unified_rw_reporting=mixed >out 2>err &&
	test_must_be_empty err &&
	grep -q "^  mixed: IOPS=" out &&
	! grep -qE "^  (read|write): " out &&
	grep -q "^  MIXED: bw=" out &&
	! grep -qE "^ +(READ|WRITE): " out &&
	grep -q "issued rwts: total=512,0,0,0 " out
'

test_expect_success_if PYTHON3 'mixed JSON: only the mixed block, with every I/O' '
	"$IOLITE" $JOB --unified_rw_reporting=mixed --output-format=json \
		>out.json &&
	python3 - out.json <<-\EOF
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"][0]
	for k in ("read", "write", "trim", "sync"):
	    assert k not in j, k
	assert j["mixed"]["total_ios"] == 512
	assert j["mixed"]["io_bytes"] == 2 << 20
	assert j["mixed"]["clat_ns"]["N"] == 512
	EOF
'

test_expect_success_if PYTHON3 'both: directions then mixed, an exact merge (json+)' '
	"$IOLITE" $JOB --unified_rw_reporting=both --output-format=json+ \
		>both.json &&
	python3 mixed_check.py both.json &&
	"$IOLITE" $JOB --unified_rw_reporting=both >out &&
	grep -E "^  (read|write|mixed): " out | cut -d: -f1 >labels &&
	printf "  read\n  write\n  mixed\n" >expect &&
	test_cmp expect labels &&
	grep -E "^ +(READ|WRITE|MIXED): " out | cut -d: -f1 >labels &&
	printf "   READ\n  WRITE\n  MIXED\n" >expect &&
	test_cmp expect labels
'

test_expect_success_if PYTHON3 'both with group_reporting and numjobs: merged exactly' '
	"$IOLITE" $JOB --numjobs=2 --group_reporting \
		--unified_rw_reporting=both --output-format=json+ \
		--percentile_list=50:99 >grp.json &&
	python3 mixed_check.py grp.json &&
	python3 - grp.json <<-\EOF
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"]
	assert len(j) == 1 and j[0]["mixed"]["total_ios"] == 1024
	EOF
'

test_expect_success_if PYTHON3 'both with trims: the mixed block adds them' '
	"$IOLITE" --name=t --filename="$TRASH/tfile" --size=1m --bs=4k \
		--rw=trimwrite --unified_rw_reporting=both \
		--output-format=json >tw.json &&
	python3 mixed_check.py tw.json &&
	python3 - tw.json <<-\EOF
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"][0]
	assert j["trim"]["total_ios"] == 256 and j["write"]["total_ios"] == 256
	assert j["mixed"]["total_ios"] == 512
	EOF
'

test_expect_success 'terse: one block with mixed, three with both' '
	"$IOLITE" $JOB --output-format=terse >none.t &&
	"$IOLITE" $JOB --unified_rw_reporting=mixed --output-format=terse \
		>mixed.t &&
	"$IOLITE" $JOB --unified_rw_reporting=both --output-format=terse \
		>both.t &&
	n=$(tr ";" "\n" <none.t | wc -l) &&
	m=$(tr ";" "\n" <mixed.t | wc -l) &&
	b=$(tr ";" "\n" <both.t | wc -l) &&
	test $((n - m)) -eq 41 && test $((b - n)) -eq 41 &&
	test "$(cut -d";" -f6 mixed.t)" = 2048 &&
	test "$(cut -d";" -f88 both.t)" = 2048
'

# fio 3.33 prints zeros for the mixed line's IOPS and BW with "both"
# (its mixed block is summed after the rates are worked out); iolite
# prints the real figures, so the line is compared without them.
fio_both_fix() {
	sed -E 's/^  mixed: IOPS=#, BW=# \(#\)/  mixed: IOPS=#, BW=#B\/s (#B\/s)/'
}

for mode in mixed both; do
	test_expect_success_if FIO "$mode: normal report laid out as fio's" "
		fio $JOB --unified_rw_reporting=$mode >$mode.fio 2>/dev/null &&
		\"\$IOLITE\" $JOB --unified_rw_reporting=$mode >$mode.iolite &&
		normalize $mode.fio | fio_both_fix | drop_samples >fio.norm &&
		normalize $mode.iolite | drop_samples >iolite.norm &&
		test_cmp fio.norm iolite.norm
	"
	for fmt in json json+; do
		test_expect_success_if FIO,PYTHON3 "$mode: $fmt shaped as fio's" "
			fio $JOB --unified_rw_reporting=$mode \
				--output-format=$fmt >f.json 2>/dev/null &&
			\"\$IOLITE\" $JOB --unified_rw_reporting=$mode \
				--output-format=$fmt >i.json &&
			python3 \"\$JSONCMP\" f.json i.json
		"
	done
	test_expect_success_if FIO "$mode: terse has fio's fields" "
		fio $JOB --unified_rw_reporting=$mode \
			--output-format=terse >f.t 2>/dev/null &&
		\"\$IOLITE\" $JOB --unified_rw_reporting=$mode \
			--output-format=terse >i.t &&
		test \$(tr ';' '\n' <f.t | wc -l) = \$(tr ';' '\n' <i.t | wc -l)
	"
done

test_done

#!/bin/sh
# JSON and json+ output: fio's shape for the same job (keys, nesting,
# value types, compared recursively against fio 3.33's own output), pure
# JSON on stdout, counts that agree with what was asked, json+ bins that
# add up, and Debian's fio_jsonplus_clat2csv reading iolite's json+.

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3

# jsoncmp.py FIO IOLITE (shared with other tests): same keys and value
# types as fio's, recursively, plus exactly iolite's own "iolite" keys.
JSONCMP="$TEST_DIR/jsoncmp.py"

# jsoncheck.py FILE [NUMBER_IOS]: the document is one JSON object with '{'
# and '}' alone on its first and last lines; json+ bins add up to each
# block's N and, for completion latencies, to total_ios; with NUMBER_IOS
# the directions' total_ios add up to it.
cat >"$TRASH/jsoncheck.py" <<\EOF
import json, sys

text = open(sys.argv[1]).read()
lines = text.split("\n")
assert lines[0] == "{", "first line %r" % lines[0]
assert lines[-2] == "}" and lines[-1] == "", "last line %r" % lines[-2:]
doc = json.loads(text)
want = int(sys.argv[2]) if len(sys.argv) > 2 else None
for job in doc["jobs"]:
    total = 0
    for d in ("read", "write", "trim"):
        blk = job[d]
        total += blk["total_ios"]
        for lat in ("slat_ns", "clat_ns", "lat_ns"):
            b = blk[lat]
            if "bins" in b:
                s = sum(b["bins"].values())
                assert s == b["N"], "%s %s bins %d != N %d" % (d, lat, s, b["N"])
                assert all(int(k) >= 0 for k in b["bins"]), "bin keys"
                if lat == "clat_ns":
                    assert s == blk["total_ios"], \
                        "%s bins %d != total_ios %d" % (d, s, blk["total_ios"])
            if "percentile" in b:
                vals = list(b["percentile"].values())
                assert vals == sorted(vals), "%s %s percentiles" % (d, lat)
                assert vals[-1] <= b["max"], "percentile above max"
        if blk["io_bytes"]:
            assert blk["io_kbytes"] == blk["io_bytes"] // 1024
    if want is not None:
        assert total == want, "total_ios %d, asked for %d" % (total, want)
EOF

cat >"$TRASH/two.fio" <<\EOF
[global]
ioengine=null
size=16m
group_reporting

[a]
rw=read
numjobs=2
description=two "jobs" here

[b]
rw=write
bs=8k
EOF

# compare NAME ARGS...: fio and iolite on the same job, same JSON shape.
compare() {
	name=$1
	shift
	fio "$@" >"$name.fio" 2>"$name.fio.err" &&
	"$IOLITE" "$@" >"$name.iolite" 2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	python3 jsoncheck.py "$name.iolite" &&
	python3 "$JSONCMP" "$name.fio" "$name.iolite"
}

test_expect_success 'jsoncmp tolerates iolite'"'"'s own keys and no others' '
	cat >a.json <<-\EOF &&
	{"x": 1, "jobs": [{"jobname": "a", "read": {"N": 1}}]}
	EOF
	cat >b.json <<-\EOF &&
	{"x": 2, "jobs": [{"jobname": "b", "read": {"N": 3},
	  "iolite": {"usr_ns_per_io": 1.5, "iowq_cpu_ms": 0.0,
		     "iowq_threads": 0, "iowq_max_threads": 0,
		     "run_delay_ms": 0.5, "run_delay_pct": 0.1,
		     "nivcsw": 2}}],
	 "iolite": {"clock": "tsc", "notes": ["n"]}}
	EOF
	python3 "$JSONCMP" a.json b.json &&
	sed "s/\"N\": 3/\"N\": 3, \"M\": 1/" b.json >extra.json &&
	test_must_fail python3 "$JSONCMP" a.json extra.json >out &&
	grep -q "iolite adds .M." out &&
	sed "s/\"iowq_threads\": 0/\"iowq_threads\": 0.5/" b.json >type.json &&
	test_must_fail python3 "$JSONCMP" a.json type.json >out &&
	grep -q "iowq_threads: float, want int" out &&
	sed "s/, \"notes\": \[\"n\"\]//" b.json >lack.json &&
	test_must_fail python3 "$JSONCMP" a.json lack.json >out &&
	grep -q "keys .*want" out &&
	test_must_fail python3 "$JSONCMP" a.json a.json >out &&
	grep -q "iolite lacks its own" out
'

test_expect_success_if FIO 'null engine: same JSON shape as fio' '
	compare null --output-format=json --name=a --ioengine=null \
		--rw=randread --size=16m
'

test_expect_success_if FIO 'psync on a file: same JSON shape as fio' '
	compare psync --output-format=json --ioengine=psync \
		--filename="$TRASH/file" --name=p --rw=randrw --size=4m --bs=4k
'

test_expect_success_if FIO 'two jobs, group_reporting: same JSON shape' '
	compare group --output-format=json two.fio
'

test_expect_success_if FIO 'numjobs=2: same JSON shape' '
	compare numjobs --output-format=json --name=n --ioengine=null \
		--rw=read --size=8m --numjobs=2
'

test_expect_success_if FIO 'json+: same shape as fio, bins included' '
	compare plus --output-format=json+ --name=a --ioengine=null \
		--rw=randrw --size=16m &&
	grep -q "\"bins\" : {" plus.iolite
'

test_expect_success 'number_ios: issued totals are exact' '
	"$IOLITE" --output-format=json+ --name=a --ioengine=null \
		--rw=randrw --bs=4k --size=64m --number_ios=1000 >n.json &&
	python3 jsoncheck.py n.json 1000 &&
	"$IOLITE" --output-format=json --name=a --ioengine=null \
		--rw=write --bs=4k --size=4m --numjobs=3 --group_reporting \
		>g.json &&
	python3 jsoncheck.py g.json 3072
'

test_expect_success 'description and options are escaped, job order kept' '
	"$IOLITE" --output-format=json --ioengine=null --size=1m \
		--name=first --rw=read --description="tab	quote\" back\\" \
		--name=second --rw=write >esc.json &&
	python3 - <<-\EOF
	import json
	d = json.load(open("esc.json"))
	assert [j["jobname"] for j in d["jobs"]] == ["first", "second"]
	assert d["jobs"][0]["desc"] == "tab\tquote\" back\\", d["jobs"][0]
	assert "desc" not in d["jobs"][1]
	assert d["global options"] == {"ioengine": "null", "size": "1m"}, \
	    d["global options"]
	assert d["jobs"][1]["job options"] == {"name": "second", "rw": "write"}
	assert d["jobs"][1]["write"]["io_bytes"] == 1 << 20
	EOF
'

if test_have_prereq FIO_JSONPLUS_CLAT2CSV; then
	test_expect_success 'fio_jsonplus_clat2csv converts the json+ output' '
		"$IOLITE" --output-format=json+ --ioengine=null --size=8m \
			--name=r --rw=randread --name=w --rw=write >plus.json &&
		fio_jsonplus_clat2csv plus.json lat.csv >convert.out &&
		test -s lat_job0.csv && test -s lat_job1.csv &&
		head -1 lat_job0.csv | grep -q "^nsec, read_slat_ns_count" &&
		test $(wc -l <lat_job0.csv) -gt 1 &&
		fio_jsonplus_clat2csv plus.json lat.csv --validate >valid.out &&
		test $(grep -c validated valid.out) = 2
	'
else
	test_expect_success_if FIO_JSONPLUS_CLAT2CSV 'fio_jsonplus_clat2csv converts the json+ output' :
fi

test_expect_success 'json output is only JSON; the run writes no stderr' '
	"$IOLITE" --output-format=json --name=a --ioengine=null --size=1m \
		>only.json 2>only.err &&
	test_must_be_empty only.err &&
	python3 -c "import json; json.load(open(\"only.json\"))"
'

test_expect_success 'normal,json prints both, JSON before the report' '
	"$IOLITE" --output-format=normal,json --name=a --ioengine=null \
		--size=1m >both.out &&
	python3 - <<-\EOF
	text = open("both.out").read()
	lines = text.split("\n")
	start = lines.index("{")
	end = lines.index("}")
	import json
	json.loads("\n".join(lines[start:end + 1]))
	rest = "\n".join(lines[end + 1:])
	assert "Run status group 0" in rest, rest
	assert rest.startswith("\na: (groupid=0"), rest[:40]
	EOF
'

test_expect_success 'unknown output format is an error before the run' '
	test_must_fail "$IOLITE" --output-format=json,xml --name=a \
		--ioengine=null --size=1m >out 2>err &&
	test_must_be_empty out &&
	grep -q "xml" err
'

test_done

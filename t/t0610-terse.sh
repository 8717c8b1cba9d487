#!/bin/sh
# Terse output (version 3, also --minimal): fio's field count for the same
# job, and field values consistent with the JSON of the same run.

. "$(dirname "$0")/test-lib.sh"

# nfields FILE: the field count of each line, one a line
nfields() {
	awk -F';' '{ print NF }' "$1"
}

# same_count NAME ARGS...: fio and iolite give lines of equal field count
same_count() {
	name=$1
	shift
	fio --output-format=terse "$@" >"$name.fio" 2>"$name.fio.err" &&
	"$IOLITE" --output-format=terse "$@" >"$name.iolite" \
		2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	nfields "$name.fio" >"$name.fio.n" &&
	nfields "$name.iolite" >"$name.iolite.n" &&
	test_cmp "$name.fio.n" "$name.iolite.n"
}

test_expect_success_if FIO 'null engine: fio'"'"'s field count' '
	same_count null --name=a --ioengine=null --rw=randread --size=16m &&
	test "$(cat null.iolite.n)" = 121
'

test_expect_success_if FIO 'psync on a file: same count, disks included' '
	same_count psync --ioengine=psync --filename="$TRASH/file" \
		--name=p --rw=randrw --size=4m --bs=4k
'

test_expect_success_if FIO 'two jobs and a description: same count' '
	same_count two --ioengine=null --size=4m --name=a --rw=read \
		--description=words --name=b --rw=write --numjobs=2 &&
	test $(wc -l <two.iolite) = 3 &&
	head -1 two.iolite | grep -q ";words\$"
'

test_expect_success_if FIO 'continue_on_error adds the error fields' '
	same_count coe --name=a --ioengine=null --rw=read --size=1m \
		--continue_on_error=all &&
	test "$(cat coe.iolite.n)" = 123
'

test_expect_success '--minimal is terse' '
	"$IOLITE" --minimal --name=a --ioengine=null --rw=read --size=1m \
		>min.out 2>min.err &&
	test_must_be_empty min.err &&
	test $(wc -l <min.out) = 1 &&
	grep -q "^3;iolite-[^;]*;a;0;0;1024;" min.out
'

test_expect_success '--terse-version=3 accepted, others refused' '
	"$IOLITE" --minimal --terse-version=3 --name=a --ioengine=null \
		--size=1m >v3.out &&
	grep -q "^3;" v3.out &&
	test_must_fail "$IOLITE" --minimal --terse-version=2 --name=a \
		--ioengine=null --size=1m >v2.out 2>v2.err &&
	test_must_be_empty v2.out &&
	grep -q "terse-version" v2.err
'

test_expect_success_if PYTHON3 'terse fields agree with the JSON of the same run' '
	"$IOLITE" --output-format=terse,json --name=a --ioengine=null \
		--rw=randrw --bs=4k --size=8m --number_ios=1000 >tj.out &&
	python3 - <<-\EOF
	import json
	text = open("tj.out").read()
	line, rest = text.split("\n", 1)
	f = line.split(";")
	assert len(f) == 121, len(f)
	j = json.loads(rest)["jobs"][0]
	assert f[2] == j["jobname"] and int(f[3]) == j["groupid"]
	for base, d in ((5, "read"), (46, "write")):
	    b = j[d]
	    assert int(f[base]) == b["io_kbytes"], (d, f[base])
	    assert int(f[base + 1]) == b["bw"], (d, f[base + 1])
	    assert int(f[base + 2]) == int(b["iops"]), (d, f[base + 2])
	    assert int(f[base + 3]) == b["runtime"], (d, f[base + 3])
	    c = b["clat_ns"]
	    assert int(f[base + 8]) == c["min"] // 1000, (d, f[base + 8])
	    assert int(f[base + 9]) == c["max"] // 1000, (d, f[base + 9])
	    assert abs(float(f[base + 10]) - c["mean"] / 1000) < 1e-5
	    p = c.get("percentile", {})
	    for i, (k, v) in enumerate(p.items()):
	        assert f[base + 12 + i] == "%s%%=%d" % (k, v // 1000), \
	            (d, i, f[base + 12 + i])
	assert j["read"]["total_ios"] + j["write"]["total_ios"] == 1000
	assert f[87] == "%f%%" % j["usr_cpu"], f[87]
	assert float(f[92].rstrip("%")) == round(j["iodepth_level"]["1"], 1)
	EOF
'

test_done

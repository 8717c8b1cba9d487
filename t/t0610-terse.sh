#!/bin/sh
# Terse output (versions 2 to 5; 3 is also --minimal): fio's field count
# and field layout for the same job, field values consistent with the JSON
# of the same run, and --append-terse.

. "$(dirname "$0")/test-lib.sh"

# nfields FILE: the field count of each line, one a line
nfields() {
	awk -F';' '{ print NF }' "$1"
}

# shape FILE: each line as one letter a field: P percentile "p%=v", %
# percentage, f decimal, i integer, s anything else (names, version)
shape() {
	awk -F';' '{
		s = ""
		for (i = 1; i <= NF; i++) {
			f = $i
			if (f ~ /=/) t = "P"
			else if (f ~ /%$/) t = "%"
			else if (f ~ /^-?[0-9]+\.[0-9]+$/) t = "f"
			else if (f ~ /^-?[0-9]+$/) t = "i"
			else t = "s"
			s = s t
		}
		print s
	}' "$1"
}

# The cases fio and iolite are compared on: NAME's options are
# $args_NAME, a file each. fio's start-up mostly waits: its runs start
# now, together, and each test runs iolite's once fio's has ended.
args_null="--name=a --ioengine=null --rw=randread --size=16m"
args_psync="--ioengine=psync --filename=f.psync --name=p --rw=randrw \
	--size=4m --bs=4k"
args_two="--ioengine=null --size=4m --name=a --rw=read \
	--description=words --name=b --rw=write --numjobs=2"
args_coe="--name=a --ioengine=null --rw=read --size=1m --continue_on_error=all"
for v in 2 3 4 5; do
	eval "args_n$v=\"--name=a --ioengine=null --rw=randrw --size=4m \
		--description=words\""
	eval "args_p$v=\"--name=p --ioengine=psync --rw=randrw \
		--filename=f.p$v --size=2m --bs=4k --time_based --runtime=300ms\""
	eval "args_t$v=\"--ioengine=null --size=2m --name=a --rw=randtrim \
		--name=b --rw=write --numjobs=2\""
done
. "$TEST_DIR/lib-bg.sh"
if test_have_prereq FIO; then
	for c in null psync two coe; do
		bg_run fio-$c 'eval "fio --output-format=terse \$args_$c" \
			>$c.fio 2>$c.fio.err'
	done
	for v in 2 3 4 5; do
		for c in n$v p$v t$v; do
			bg_run fio-$c 'eval "fio --minimal --terse-version=$v \
				\$args_$c" >$c.fio 2>$c.fio.err'
		done
	done
fi

# same_shape V NAME: --terse-version=V of fio and iolite give the same
# lines, field for field (count, and the kind of each field)
same_shape() {
	v=$1 name=$2
	eval "set -- \$args_$name"
	bg_wait fio-$name &&
	"$IOLITE" --minimal --terse-version=$v "$@" >"$name.iolite" \
		2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	shape "$name.fio" >"$name.fio.s" &&
	shape "$name.iolite" >"$name.iolite.s" &&
	test_cmp "$name.fio.s" "$name.iolite.s"
}

# same_count NAME: fio and iolite give lines of equal field count
same_count() {
	name=$1
	eval "set -- \$args_$name"
	bg_wait fio-$name &&
	"$IOLITE" --output-format=terse "$@" >"$name.iolite" \
		2>"$name.iolite.err" &&
	test_must_be_empty "$name.iolite.err" &&
	nfields "$name.fio" >"$name.fio.n" &&
	nfields "$name.iolite" >"$name.iolite.n" &&
	test_cmp "$name.fio.n" "$name.iolite.n"
}

test_expect_success_if FIO 'null engine: fio'"'"'s field count' '
	same_count null &&
	test "$(cat null.iolite.n)" = 121
'

test_expect_success_if FIO 'psync on a file: same count, disks included' '
	same_count psync
'

test_expect_success_if FIO 'two jobs and a description: same count' '
	same_count two &&
	test $(wc -l <two.iolite) = 3 &&
	head -1 two.iolite | grep -q ";words\$"
'

test_expect_success_if FIO 'continue_on_error adds the error fields' '
	same_count coe &&
	test "$(cat coe.iolite.n)" = 123
'

test_expect_success '--minimal is terse' '
	"$IOLITE" --minimal --name=a --ioengine=null --rw=read --size=1m \
		>min.out 2>min.err &&
	test_must_be_empty min.err &&
	test $(wc -l <min.out) = 1 &&
	grep -q "^3;iolite-[^;]*;a;0;0;1024;" min.out
'

test_expect_success '--terse-version=3 is the default, 1 and 6 are refused' '
	"$IOLITE" --minimal --terse-version=3 --name=a --ioengine=null \
		--size=1m >v3.out &&
	grep -q "^3;" v3.out &&
	"$IOLITE" --minimal --name=a --ioengine=null --size=1m >dflt.out &&
	grep -q "^3;" dflt.out &&
	for v in 1 6 x ""; do
		test_must_fail "$IOLITE" --minimal --terse-version=$v --name=a \
			--ioengine=null --size=1m >bad.out 2>bad.err &&
		test_must_be_empty bad.out &&
		grep -q "terse-version" bad.err || return 1
	done
'

# Field counts fio 3.33 prints for one null-engine job with a description
# (no disk): v2 161 (+ the description line), v3 122, v4 163, v5 181.
test_expect_success 'terse versions 2, 4, 5: fio'"'"'s field counts' '
	for v in 2 3 4 5; do
		"$IOLITE" --minimal --terse-version=$v --name=a --ioengine=null \
			--rw=randrw --size=1m --description=words \
			>t$v.out 2>t$v.err &&
		test_must_be_empty t$v.err &&
		nfields t$v.out | tr "\n" " " >t$v.n || return 1
	done &&
	test "$(cat t2.n)" = "161 2 " && test "$(cat t3.n)" = "122 " &&
	test "$(cat t4.n)" = "163 " && test "$(cat t5.n)" = "181 " &&
	grep -q "^2;a;0;0;" t2.out && tail -1 t2.out | grep -qx ";words" &&
	grep -q "^4;iolite-[^;]*;a;0;0;" t4.out &&
	grep -q "^5;iolite-[^;]*;a;0;0;.*;words\$" t5.out
'

test_expect_success_if PYTHON3 'terse v5: the iops sample fields agree with the JSON' '
	"$IOLITE" --output-format=terse,json --terse-version=5 --name=a \
		--ioengine=null --rw=read --size=64m --rate_iops=2000 \
		--number_ios=1500 >v5j.out &&
	python3 - <<-\EOF
	import json
	text = open("v5j.out").read()
	line, rest = text.split("\n", 1)
	f = line.split(";")
	assert len(f) == 180, len(f)
	r = json.loads(rest)["jobs"][0]["read"]
	# read: kb bw iops runtime, slat 4, clat 4, 20 pct, lat 4, bw 5, then
	# the bw sample count and iops min;max;mean;stdev;count
	base = 5 + 4 + 4 + 4 + 20 + 4 + 5
	assert int(f[base]) == r["bw_samples"], (f[base], r["bw_samples"])
	assert int(f[base + 1]) == r["iops_min"], f[base + 1]
	assert int(f[base + 2]) == r["iops_max"], f[base + 2]
	assert abs(float(f[base + 3]) - r["iops_mean"]) < 1e-3, f[base + 3]
	assert int(f[base + 5]) == r["iops_samples"], f[base + 5]
	assert r["iops_samples"] > 0
	EOF
'

for v in 2 3 4 5; do
	test_expect_success_if FIO "terse v$v: fio's layout, null engine" "
		same_shape $v n$v
	"
	test_expect_success_if FIO "terse v$v: fio's layout, a file (disk fields)" "
		same_shape $v p$v
	"
	test_expect_success_if FIO "terse v$v: fio's layout, trims and two jobs" "
		same_shape $v t$v
	"
done

test_expect_success '--append-terse: terse lines before the normal report' '
	"$IOLITE" --append-terse --name=a --ioengine=null --size=1m \
		--name=b --ioengine=null --size=1m >app.out 2>app.err &&
	test_must_be_empty app.err &&
	test $(grep -c "^3;iolite-" app.out) = 2 &&
	grep -n "^3;iolite-\|^a: (groupid" app.out | cut -d: -f2 | \
		cut -c1-2 >order &&
	printf "3;\n3;\na\n" >order.expect && test_cmp order.expect order &&
	grep -q "Run status group 0" app.out
'

test_expect_success '--append-terse follows --terse-version, not with json' '
	"$IOLITE" --append-terse --terse-version=5 --name=a --ioengine=null \
		--size=1m >app5.out &&
	test $(grep -c "^5;iolite-" app5.out) = 1 &&
	"$IOLITE" --append-terse --output-format=json --name=a \
		--ioengine=null --size=1m >appj.out &&
	! grep -q "^3;" appj.out &&
	"$IOLITE" --append-terse --output-format=terse,normal --name=a \
		--ioengine=null --size=1m >appt.out &&
	test $(grep -c "^3;" appt.out) = 1
'

test_expect_success_if FIO '--append-terse: where fio puts the lines' '
	for t in fio "$IOLITE"; do
		"$t" --append-terse --name=a --ioengine=null --size=1m \
			--name=b --ioengine=null --size=1m >app.$$ &&
		grep -n "^3;\|^a: (groupid\|^Starting" app.$$ | \
			cut -d";" -f1 | sed "s/ .*//" || return 1
	done >both &&
	head -4 both >fio.order && tail -4 both >iolite.order &&
	test_cmp fio.order iolite.order
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

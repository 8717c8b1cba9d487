#!/bin/sh
# iolite pts (issue #31): SNIA PTS's IOPS and WSAT tests, scaled down to
# seconds (--round-time, --capacity-limit, --max-rounds, a part of the
# matrix) on a zram device, a loop device and a file. The steady-state
# rule's arithmetic is t/unit/pts_steady.c's on hand-made series; here
# the figures of a real run are worked out again from its rounds
# (python3), and the refusals come before anything is written.

. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIR/lib-pts.sh"
test_at_exit='[ -f "$TRASH/umount" ] && sh "$TRASH/umount"; zram_remove_all'

# The quick matrix: 4k and 128k at 100% write, 65/35 and 100% read.
QUICK="--round-time=50ms --bs=4k,128k --mix=0/100,65/35,100/0"

# check_ss JSON [CELLS [LOOP]]: the window's figures worked out again
# from the rounds; the matrix has CELLS cells, its tracked one the mean
check_ss() {
	python3 - "$@" <<-\PY
	import json, sys
	L = json.load(open(sys.argv[1]))["loops"]
	d = L[int(sys.argv[3]) if len(sys.argv) > 3 else 0]
	y = [r["tracked"] for r in d["rounds"]]
	s = d["steady_state"]
	w = y[s["window_first"] - 1:s["window_last"]]
	assert len(w) == 5 and s["window_last"] == len(y), (s, len(y))
	x = list(range(s["window_first"], s["window_last"] + 1))
	avg = sum(w) / 5
	mx = sum(x) / 5
	slope = sum((a - mx) * (b - avg) for a, b in zip(x, w)) / \
		sum((a - mx) ** 2 for a in x)
	near = lambda a, b: abs(a - b) <= 1e-3 * max(1, abs(b))
	assert near(s["average"], avg), (s["average"], avg)
	assert near(s["range"], max(w) - min(w))
	assert near(s["slope"], slope), (s["slope"], slope)
	assert near(s["excursion"], abs(slope) * 4)
	rok = max(w) - min(w) <= 0.2 * avg
	sok = abs(slope) * 4 <= 0.1 * avg
	assert s["range_ok"] == rok and s["slope_ok"] == sok
	assert s["reached"] == (rok and sok)
	# stopped at the first steady window, else at the limit
	for n in range(5, len(y)):
	    v = y[n - 5:n]
	    a = sum(v) / 5
	    xs = list(range(n - 4, n + 1))
	    sl = sum((p - (n - 2)) * (q - a) for p, q in zip(xs, v)) / 10
	    assert not (max(v) - min(v) <= 0.2 * a and abs(sl) * 4 <= 0.1 * a), n
	# the matrix: each cell the mean of its rounds in the window
	m = [c for c in d["matrix"] if c["rw_mix"] == "0/100"]
	t = {"IOPS": "iops", "MB/s": "bw_bytes", "ms": "lat_mean_ns"}[d["unit"]]
	k = {"IOPS": 1, "MB/s": 1e6, "ms": 1e6}[d["unit"]]
	bs = {"4k": 4096, "128k": 131072, "1024k": 1048576}[s["tracked"].split()[0]]
	assert near([c[t] for c in m if c["bs"] == bs][0] / k, avg)
	assert len(sys.argv) < 3 or len(d["matrix"]) == int(sys.argv[2])
	PY
}

test_expect_success 'bad input: the option named, nothing created' '
	test_must_fail "$IOLITE" pts iops 2>err &&
	grep "a TEST and a TARGET are needed" err &&
	test_must_fail "$IOLITE" pts dirt f --capacity-limit=8m 2>err &&
	grep "unknown test .dirt. (iops, tp, lat, wsat, hir, xsr, dirth)" err &&
	test_must_fail "$IOLITE" pts nosuch f 2>err &&
	grep "unknown test .nosuch." err &&
	test_must_fail "$IOLITE" pts iops f --variant=home 2>err &&
	grep "option .--variant.: not enterprise or client: .home." err &&
	test_must_fail "$IOLITE" pts iops f --round-time=0 2>err &&
	grep "option .--round-time." err &&
	test_must_fail "$IOLITE" pts iops f --max-rounds=4 2>err &&
	grep "option .--max-rounds.: not a count from 5 to 100: .4." err &&
	test_must_fail "$IOLITE" pts iops f --bs=4k,3k 2>err &&
	grep "option .--bs.: not one of the spec.s sizes .* .3k." err &&
	test_must_fail "$IOLITE" pts iops f --mix=50/50 2>err &&
	grep "option .--mix.: the matrix must keep 0/100" err &&
	test_must_fail "$IOLITE" pts lat f --bs=8k 2>err &&
	grep "option .--bs.: the matrix must keep the tracked block size (4k)" err &&
	test_must_fail "$IOLITE" pts iops f --purge=wipe 2>err &&
	grep "option .--purge.: not auto, format, sanitize, secure-erase, discard or none: .wipe." err &&
	test_must_fail "$IOLITE" pts iops f --ioengine=nosuch \
		--capacity-limit=8m --html=p.html 2>err &&
	grep "nosuch" err &&
	test_must_fail "$IOLITE" pts iops f --html=p.html 2>err &&
	grep "cannot use .f." err &&
	test ! -e f && test ! -e p.html
'

test_expect_success 'pts --help' '
	"$IOLITE" pts --help >out &&
	grep "usage: iolite pts TEST TARGET" out &&
	grep -- "--destroy-data" out
'

test_expect_success_if ODIRECT 'a file: scaled IOPS run, marked, its arithmetic' '
	truncate -s 8m f &&
	"$IOLITE" pts iops f --round-time=20ms --bs=4k --mix=0/100 \
		--max-rounds=6 --output-format=json --output=f.json \
		--precondition=none 2>err &&
	test_must_be_empty err &&
	check_ss f.json 1 &&
	grep "\"pts_result\" : 0" f.json &&
	grep "the target is a file, not a device" f.json &&
	grep "not purged: .f. is a file" f.json
'

test_skip_unless ZRAM
test_expect_success 'zram: refused without --destroy-data, before a write' '
	z=$(zram_add 64M) && echo "$z" >zdev &&
	dd if=/dev/urandom of=pat bs=64k count=1 2>/dev/null &&
	dd if=pat of="$z" bs=64k count=1 conv=fsync 2>/dev/null &&
	test_must_fail "$IOLITE" pts iops "$z" $QUICK --html=p.html 2>err &&
	grep "option .--destroy-data.: .$z. is a block device" err &&
	test ! -e p.html &&
	dd if="$z" of=back bs=64k count=1 2>/dev/null && cmp pat back
'

test_expect_success_if MKFS_EXT4 'zram: a device with a file system is refused' '
	z=$(cat zdev) &&
	mkfs.ext4 -q -F "$z" &&
	test_must_fail "$IOLITE" pts iops "$z" $QUICK --destroy-data 2>err &&
	grep "ext4" err && grep "allow_mounted_write" err &&
	blkid "$z" | grep -q ext4
'

test_expect_success_if MKFS_EXT4 'zram: a mounted device is refused, whatever the consent' '
	z=$(cat zdev) && mkdir mnt &&
	mount "$z" mnt && echo "umount $TRASH/mnt" >umount &&
	test_must_fail "$IOLITE" pts iops "$z" $QUICK --destroy-data \
		--allow-mounted-write 2>err;
	rc=$?; umount mnt && rm umount && test $rc = 0 &&
	grep "is in use (mounted" err &&
	blkid "$z" | grep -q ext4
'

test_expect_success 'zram: scaled IOPS run: purge, precondition, rounds, window' '
	z=$(cat zdev) &&
	"$IOLITE" pts iops "$z" $QUICK --destroy-data --allow-mounted-write \
		--capacity-limit=16M --max-rounds=5 --output-format=json \
		--output=z.json --html=z.html 2>err &&
	test_must_be_empty err &&
	check_ss z.json 6 &&
	grep "\"purged\" : 1" z.json &&
	grep "BLKDISCARD over the whole device (67108864 bytes)" z.json &&
	grep "\"bytes\" : 33554432" z.json &&
	grep -c "\"round\" :" z.json >n && test "$(cat n)" = 5 &&
	! blkid "$z"
'

test_expect_success 'zram: --purge: tried in order, each attempt said' '
	z=$(cat zdev) &&
	"$IOLITE" pts iops "$z" --round-time=20ms --bs=4k --mix=0/100 \
		--destroy-data --capacity-limit=16M --max-rounds=5 \
		--precondition=none >out 2>err &&
	test_must_be_empty err &&
	grep "^Purge: no ATA Secure Erase: not an ATA drive (ATA PASS-THROUGH: .*); BLKDISCARD over the whole device" out &&
	grep "purge *secure erase, sanitize or format *BLKDISCARD *no" out &&
	"$IOLITE" pts iops "$z" --round-time=20ms --bs=4k --mix=0/100 \
		--destroy-data --capacity-limit=16M --max-rounds=5 \
		--precondition=none --purge=format >out 2>err &&
	grep "^Purge: no NVMe Format or Sanitize: not an NVMe namespace; not purged (--purge left out the discard)" out &&
	grep "the device was not purged" out &&
	"$IOLITE" pts iops "$z" --round-time=20ms --bs=4k --mix=0/100 \
		--destroy-data --capacity-limit=16M --max-rounds=5 \
		--precondition=none --purge=none --output-format=json >j 2>err &&
	grep "\"method\" : \"none\"" j &&
	grep "not purged (--purge=none)" j
'

test_expect_success_if XMLLINT 'zram: the page is well-formed, with its charts and tables' '
	xmllint --noout z.html &&
	grep -o "data-chart=\"pts-[a-z-]*\"" z.html >charts &&
	printf "data-chart=\"%s\"\n" pts-convergence pts-window pts-matrix \
		pts-matrix-bars >want && test_cmp want charts &&
	grep "id=\"not-pts\"" z.html &&
	grep "<table class=\"matrix\">" z.html
'

test_expect_success_if CHROMIUM 'zram: Chromium renders the page, not blank' '
	. "$TEST_DIR/lib-chromium.sh" &&
	SHOT_SIZE=1280,2400 shot z.html z.png &&
	! grep -E "CONSOLE|Failed to load|Uncaught" z.png.err &&
	python3 "$TEST_DIR/pngcheck.py" z.png 0072B2 D55E00 009E73
'

test_expect_success 'zram: the text report, client variant' '
	z=$(cat zdev) &&
	"$IOLITE" pts iops "$z" --round-time=20ms --bs=4k --mix=0/100 \
		--destroy-data --variant=client --capacity-limit=16M \
		--max-rounds=5 --precondition=sprandom >out 2>err &&
	test_must_be_empty err &&
	grep "^NOT A PTS RESULT" out &&
	grep "client variant" out &&
	grep "outstanding I/O per thread *16 " out &&
	grep "threads *2 " out &&
	grep "active range *75%: 8 GiB in 2048 segments *75% of 16777216 bytes: 1536 segments of 4096 bytes, at random, apart *no" out &&
	grep "^  - ActiveRange segments: 1536 of 4096 bytes (the spec: 2048 of 4 MiB, 8 GiB)" out &&
	grep "sprandom .*deviates from the spec" out &&
	grep "^Measurement window: rounds 1-5" out
'

test_expect_success 'zram: client: the writes only in the ActiveRange segments' '
	z=$(cat zdev) &&
	"$IOLITE" pts iops "$z" --round-time=40ms --bs=4k --mix=0/100 \
		--destroy-data --variant=client --capacity-limit=16M \
		--max-rounds=5 --precondition=none --purge=discard >out 2>err &&
	test_must_be_empty err &&
	grep "1536 segments of 4096 bytes, at random, apart" out &&
	python3 - "$z" <<-\PY
	import sys
	# discarded zram reads zeros: the blocks written are the non-zero ones
	with open(sys.argv[1], "rb") as f:
	    data = f.read(16 << 20)
	used = [k for k in range(len(data) // 4096)
	        if data[k * 4096:(k + 1) * 4096].count(0) != 4096]
	# in the active range (75% of 16 MiB), 1536 one-block segments apart
	assert used and max(used) < 3072, used[-5:]
	assert all(b - a >= 2 for a, b in zip(used, used[1:])), "touching"
	# at most the segments; most of them hit (a few thousand writes)
	assert 500 <= len(used) <= 1536, len(used)
	assert min(used) < 256 and max(used) > 3072 - 256, (min(used), max(used))
	PY
'

test_expect_success 'zram: throughput: a loop per block size, sequential' '
	z=$(cat zdev) &&
	"$IOLITE" pts tp "$z" --round-time=20ms --destroy-data \
		--capacity-limit=16M --max-rounds=5 --output-format=json \
		--output=tp.json --html=tp.html 2>err &&
	test_must_be_empty err &&
	check_ss tp.json 2 0 && check_ss tp.json 2 1 &&
	python3 - <<-\PY
	import json
	L = json.load(open("tp.json"))["loops"]
	assert [l["name"] for l in L] == ["throughput 1024k", "throughput 128k"]
	for l in L:
	    assert l["unit"] == "MB/s" and l["purge"]["purged"] == 1
	    assert "sequential" in l["steady_state"]["tracked"]
	    # twice the capacity before each loop
	    assert l["precondition"]["bytes"] == 2 * 16 << 20
	    for c in l["matrix"]:
	        # MB/s and IOPS agree: bytes/s = IOPS x the block size
	        assert abs(c["bw_bytes"] - c["iops"] * c["bs"]) <= \
	            0.02 * c["bw_bytes"] + c["bs"], c
	PY
	grep -c "data-chart=\"pts-" tp.html >n && test "$(cat n)" = 6 &&
	if test_have_prereq XMLLINT; then xmllint --noout tp.html; fi
'

test_expect_success 'zram: latency: one I/O at a time, mean, max, 99.999%' '
	z=$(cat zdev) &&
	"$IOLITE" pts lat "$z" --round-time=20ms --destroy-data \
		--capacity-limit=16M --max-rounds=5 --output-format=json \
		--output=lat.json 2>err &&
	test_must_be_empty err &&
	check_ss lat.json 6 &&
	python3 - <<-\PY
	import json
	d = json.load(open("lat.json"))
	s = {x["name"]: x for x in d["settings"]}
	assert s["outstanding I/O per thread"]["used"].startswith("1 ")
	assert s["threads"]["used"] == "1"
	l = d["loops"][0]
	# 0.5k cells cannot run on zram (4 KiB logical blocks): 2 sizes x 3
	assert sorted({c["bs"] for c in l["matrix"]}) == [4096, 8192]
	assert sorted({c["rw_mix"] for c in l["matrix"]}) == \
	    ["0/100", "100/0", "65/35"]
	for c in l["matrix"]:
	    assert 0 < c["lat_mean_ns"] <= c["lat_99.999_ns"] <= c["lat_max_ns"], c
	# one I/O at a time: in each round, IOPS x mean latency (the time
	# an I/O was in flight per second) is at most one second (Little:
	# L = IOPS x W), 32 at the enterprise depth; 5% more for a runtime
	# in whole ms of a 20 ms cell
	for r in l["rounds"]:
	    assert len(r["cells"]) == 6, r
	    for c in r["cells"]:
	        assert 0 < c["iops"] * c["lat_mean_ns"] / 1e9 <= 1.1, (r["round"], c)
	PY
'

test_expect_success 'zram: WSAT until four times the range is written' '
	z=$(cat zdev) &&
	"$IOLITE" pts wsat "$z" --round-time=20ms --destroy-data \
		--capacity-limit=32M --wsat-time=20s --output-format=json \
		--output=w.json --html=w.html 2>err &&
	test_must_be_empty err &&
	python3 - <<-\PY
	import json
	d = json.load(open("w.json"))["loops"][0]
	w = d["wsat"]
	assert len(w) >= 2, w
	t = [p["written_bytes"] for p in w]
	assert t == sorted(t), t
	# 4 x 32 MiB by the samples (a partial last interval is not one)
	assert 0.5 * 4 * 32 << 20 < t[-1] < 1.5 * 4 * 32 << 20, t[-1]
	assert d["precondition"]["bytes"] == 0
	PY
	grep -c "data-chart=\"pts-wsat" w.html >n && test "$(cat n)" = 2
'
test_skip_reason=

test_expect_success_if LOOP 'a loop device: scaled IOPS and WSAT runs, discarded' '
	l=$(test_loop "$TRASH_SHM/img" 32M) &&
	"$IOLITE" pts iops "$l" --round-time=20ms --bs=4k --mix=0/100 \
		--destroy-data --max-rounds=5 --output-format=json \
		--output=l.json 2>err &&
	test_must_be_empty err &&
	check_ss l.json 1 &&
	grep "\"purged\" : 1" l.json &&
	"$IOLITE" pts wsat "$l" --round-time=20ms --destroy-data \
		--wsat-time=10s --output-format=json --output=lw.json 2>err &&
	test_must_be_empty err &&
	python3 -c "import json; w = json.load(open(\"lw.json\"))[\"loops\"][0][\"wsat\"]; assert len(w) >= 2 and w[-1][\"written_bytes\"] > w[0][\"written_bytes\"] > 0, w"
'

test_done

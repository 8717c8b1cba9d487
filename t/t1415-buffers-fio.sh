#!/bin/sh
# The data written, side by side with fio 3.33: each row runs one job
# through both tools (both must exit 0) and compares the files left,
# each file and all of them together: unique 4 KiB blocks (u4), unique
# 512-byte sectors (u512) and the zlib (level 6) compressed size as a
# share of the size (z): what storage that deduplicates or compresses
# measures. The contents themselves are each tool's own random bytes.
#
# A row: name | checks | job options. A check is a figure, exact, or
# within a tolerance: u4~8 (percent of the larger value), z~0.02
# (absolute). Figures that follow from random draws (dedupe) get a
# tolerance of a few standard deviations; both tools' draws are fixed by
# their seeds, so a row does not flicker. "pre" in the checks: the job
# runs on an existing 1 MiB file of random bytes (j.0.0, the same for
# both tools). "aio": the row needs libaio.

. "$(dirname "$0")/test-lib.sh"

test_skip_unless FIO PYTHON3

cat >"$TRASH/compare.py" <<\EOF
# compare.py NAME CHECKS: the files NAME/fio and NAME/iolite left,
# compared per file and (with several files) all together: u4 u512 z
import os, sys, zlib

def props(d):
    u4 = len({d[i:i + 4096] for i in range(0, len(d), 4096)})
    u512 = len({d[i:i + 512] for i in range(0, len(d), 512)})
    z = len(zlib.compress(d, 6)) / max(len(d), 1)
    return (u4, u512, z)

def load(top):
    names = sorted(n for n in os.listdir(top) if not n.endswith(".state"))
    datas = [open(os.path.join(top, n), "rb").read() for n in names]
    out = {n: props(d) for n, d in zip(names, datas)}
    if len(datas) > 1:
        out["ALL"] = props(b"".join(datas))
    return out

name, checks = sys.argv[1], sys.argv[2]
fio, iol = load(name + "/fio"), load(name + "/iolite")
checks = [c for c in checks.split(",") if c not in ("pre", "aio")]
idx = {"u4": 0, "u512": 1, "z": 2}
bad = 0
if sorted(fio) != sorted(iol):
    print("files: fio %s iolite %s" % (sorted(fio), sorted(iol)))
    sys.exit(1)
for n in sorted(fio):
    for c in checks:
        key, _, tol = c.partition("~")
        a, b = float(fio[n][idx[key]]), float(iol[n][idx[key]])
        if key == "z":
            ok = abs(a - b) <= float(tol or 0)
        else:
            ok = abs(a - b) <= max(a, b) * float(tol or 0) / 100
        print("%s %s: fio %g iolite %g%s" % (n, c, a, b,
                                             "" if ok else "  <- differs"))
        bad += not ok
sys.exit(1 if bad else 0)
EOF

cat >"$TRASH/global.fio" <<\EOF
[global]
rw=write
bs=4k
size=4m
dedupe_percentage=50
dedupe_mode=working_set
dedupe_working_set_percentage=50
dedupe_global=1
[a]
[b]
EOF

# run_both NAME CHECKS ARGS...: the job in NAME/fio and NAME/iolite
run_both() {
	name=$1 checks=$2
	shift 2
	for tool in fio iolite; do
		mkdir -p "$name/$tool" || return 1
		case $checks in
		*pre*)	python3 -c 'import random, sys; random.seed(7); open(sys.argv[1], "wb").write(random.randbytes(1 << 20))' \
				"$name/$tool/j.0.0" || return 1 ;;
		esac
		bin=fio
		[ $tool = iolite ] && bin=$IOLITE
		case $1 in
		@*)	(cd "$name/$tool" && "$bin" "$TRASH/${1#@}" \
				>out 2>err) ;;
		*)	(cd "$name/$tool" && "$bin" --name=j "$@" >out 2>err) ;;
		esac || { echo "$tool failed:"; cat "$name/$tool/err"; return 1; }
		rm -f "$name/$tool/out" "$name/$tool/err"
	done
	python3 "$TRASH/compare.py" "$name" "$checks"
}

while IFS='|' read -r name checks args; do
	case $name in ''|'#'*) continue ;; esac
	name=$(echo $name) checks=$(echo $checks)
	prereq=FIO,PYTHON3
	case $checks in *aio*) prereq=$prereq,LIBAIO ;; esac
	test_expect_success_if $prereq "$name: $args" "
		run_both $name $checks $args
	"
done <<\EOF
# a read job's layout holds what the job's writes would
layout-compress | u4,u512,z~0.02 | --rw=read --size=1m --bs=4k --buffer_compress_percentage=50
layout-pattern  | u4,u512,z~0.01 | --rw=read --size=1m --bs=4k --buffer_pattern=0xab
layout-dedupe   | u4~8,u512~8,z~0.05 | --rw=read --size=4m --bs=4k --dedupe_percentage=50
# a fill per block of the largest write size (64k): dedupes 64k blocks
layout-dedupe-bs | u4~10,u512~10,z~0.02 | --rw=read --size=4m --bs=4k,64k --dedupe_percentage=50
layout-nrfiles  | u4,u512,z~0.02 | --rw=read --size=1m --bs=4k --nrfiles=2
layout-numjobs  | u4,u512,z~0.02 | --rw=read --size=1m --bs=4k --numjobs=2
layout-chunk0   | u4,u512,z~0.02 | --rw=read --size=4m --bsrange=4k-64k --buffer_compress_percentage=50 --buffer_compress_chunk=0
# scramble_buffers stamps every sector of every write
scramble        | u4,u512,z~0.02 | --rw=write --size=256k --bs=4k
scramble-nrfiles | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --nrfiles=2
scramble-numjobs | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --numjobs=2
scramble-bs64k  | u4,u512,z~0.03 | --rw=write --size=4m --bs=64k
scramble-bsrange | u4,u512,z~0.02 | --rw=write --size=1m --bsrange=512-8k
scramble-zero   | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --zero_buffers --scramble_buffers=1
pattern-scramble | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --buffer_pattern=0x12 --scramble_buffers=1
scramble-pattern | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --scramble_buffers=1 --buffer_pattern=0x12
scramble-aio    | u4,u512,aio | --rw=write --size=1m --bs=4k --ioengine=libaio --iodepth=8
# given at all, compression and dedupe turn scrambling off
compress0       | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --buffer_compress_percentage=0
compress-norefill | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --buffer_compress_percentage=50 --refill_buffers=0
dedupe-norefill | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --dedupe_percentage=50 --refill_buffers=0
norefill-dedupe | u4~8,u512~8,z~0.03 | --rw=write --size=4m --bs=4k --refill_buffers=0 --dedupe_percentage=50
dedupe0         | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --dedupe_percentage=0
refill-zero     | u4,u512,z~0.01 | --rw=write --size=1m --bs=4k --refill_buffers --zero_buffers
# compression and dedupe themselves, and with each other
compress-chunk0-bsrange | u4,u512,z~0.02 | --rw=write --size=1m --bsrange=4k-64k --buffer_compress_percentage=50 --buffer_compress_chunk=0
compress-pattern | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --buffer_pattern=0xab --buffer_compress_percentage=50
dedupe          | u4~8,u512~8,z~0.03 | --rw=write --size=4m --bs=4k --dedupe_percentage=50
dedupe-compress | u4~8,u512~8,z~0.03 | --rw=write --size=4m --bs=4k --dedupe_percentage=50 --buffer_compress_percentage=50
# a repeat moves the stream back: after a short repeat of a long block
# the next new write repeats the rest of it (71% unique, not 78%)
dedupe-bssplit  | u4~5,u512~5,z~0.03 | --rw=write --size=8m --bssplit=4k/50:16k/50 --dedupe_percentage=30
dedupe-nrfiles  | u4~8,u512~8,z~0.04 | --rw=write --size=2m --bs=4k --nrfiles=2 --dedupe_percentage=50
dedupe100-chunk | u4,u512,z~0.01 | --rw=write --size=1m --bs=64k --dedupe_percentage=100 --buffer_compress_chunk=8k
# working_set: the set is the job's first new blocks (fio: 514 of 1024)
ws50            | u4~3,u512~3,z~0.02 | --rw=write --size=4m --bs=4k --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=50
ws10            | u4~3,u512~3,z~0.02 | --rw=write --size=4m --bs=4k --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=10
ws90            | u4~3,u512~3,z~0.02 | --rw=write --size=4m --bs=4k --dedupe_percentage=90 --dedupe_mode=working_set --dedupe_working_set_percentage=10
# the io_us' first fills draw from the job's blocks too
ws-aio          | u4~3,u512~3,aio | --rw=write --size=4m --bs=4k --ioengine=libaio --iodepth=32 --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=10
ws-randrw       | u4~8,u512~8,z~0.02 | --rw=randrw --size=4m --bs=4k --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=20
ws-global       | u4~4,u512~4,z~0.02 | @global.fio
# reads and writes: no refill, a write takes what the last read left
randrw-compress | u4,u512,z~0.02 | --rw=randrw --size=1m --bs=4k --buffer_compress_percentage=50
randrw-dedupe   | u4~10,u512~10,z~0.05 | --rw=randrw --size=1m --bs=4k --dedupe_percentage=50
randrw-pattern  | u4,u512,z~0.01 | --rw=randrw --size=1m --bs=4k --buffer_pattern=0x5a
randrw-zero-pre | u4~5,u512~5,z~0.03,pre | --rw=randrw --size=1m --bs=4k --zero_buffers
randrw-pattern-pre | u4~5,u512~5,z~0.03,pre | --rw=randrw --size=1m --bs=4k --buffer_pattern=0x5a
pattern-norefill-pre | u4~5,u512~5,z~0.03,pre | --rw=randrw --size=1m --bs=4k --buffer_pattern=0x5a --refill_buffers=0
norefill-pattern-pre | u4~5,u512~5,z~0.03,pre | --rw=randrw --size=1m --bs=4k --refill_buffers=0 --buffer_pattern=0x5a
pattern-scramble-pre | u4~5,u512~5,z~0.03,pre | --rw=randrw --size=1m --bs=4k --buffer_pattern=0x5a --refill_buffers=0 --scramble_buffers=1
refill-pattern-scramble | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --refill_buffers --buffer_pattern=0x5a --scramble_buffers=1
# verify's blocks: compressible as asked, a header per smallest block
verify-compress | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --verify=crc32c --buffer_compress_percentage=50 --buffer_compress_chunk=1k
verify-interval | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --verify=crc32c --verify_interval=1k --buffer_compress_percentage=50
verify-pattern-compress | u4,u512,z~0.02 | --rw=write --size=1m --bs=4k --verify=crc32c --buffer_compress_percentage=30 --buffer_pattern=0x5a
verify-bsrange  | u4,u512~2,z~0.02 | --rw=write --size=1m --bsrange=4k-16k --verify=crc32c --buffer_compress_percentage=50
EOF

test_expect_success_if FIO 'dedupe_percentage past what the working set leaves: both refuse' '
	mkdir refuse && cd refuse &&
	test_must_fail fio --name=j --rw=write --size=1m --bs=4k \
		--ioengine=null --dedupe_percentage=51 \
		--dedupe_mode=working_set \
		--dedupe_working_set_percentage=50 >out 2>&1 &&
	test_must_fail "$IOLITE" --name=j --rw=write --size=1m --bs=4k \
		--ioengine=null --dedupe_percentage=51 \
		--dedupe_mode=working_set \
		--dedupe_working_set_percentage=50 2>err &&
	grep "option .dedupe_percentage.: 51% cannot be reached" err &&
	"$IOLITE" --name=j --rw=write --size=1m --bs=4k --ioengine=null \
		--dedupe_percentage=50 --dedupe_mode=working_set \
		--dedupe_working_set_percentage=50 >out
'

test_done

#!/bin/sh
# The file system metadata engines: filecreate, filestat, filedelete,
# dircreate, dirstat, dirdelete. As in fio, a job's I/Os do nothing but
# are counted (size / bs per file), and the one operation per file and
# pass (create, stat, unlink, mkdir, rmdir) is what is timed: one
# completion latency each, in the job's direction, no I/O latency. With
# fio 3.33 installed (which has the three file engines; the dir engines
# came in 3.34) the same jobs run through both tools and the counts, the
# files left and the JSON keys must agree; otherwise the counts are the
# ones fio 3.33 gives, written out.

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3

JSONCMP="$TEST_DIR/jsoncmp.py"

# figures JSON: "DIR ios=N bytes=N clat=N lat=N err=N" for the job's
# one direction with I/O (fio's read when nothing was counted).
cat >"$TRASH/figures.py" <<\EOF
import json, sys
text = open(sys.argv[1]).read()
# fio may print an error line before its JSON on the same stream
job = json.loads(text[text.index("{\n"):])["jobs"][0]
for d in ("read", "write", "trim"):
    b = job[d]
    if b["total_ios"] or d == "trim":
        break
print("%s ios=%d bytes=%d clat=%d lat=%d err=%d" % (d, b["total_ios"],
      b["io_bytes"], b["clat_ns"]["N"], b["lat_ns"]["N"], job["error"]))
EOF

figures() {
	python3 "$TRASH/figures.py" "$1"
}

# run TOOL DIR ARGS...: the job in a fresh directory DIR, JSON in DIR.json
run() {
	tool=$1 dir=$2
	shift 2
	rm -rf "$dir" && mkdir "$dir" &&
	"$tool" --name=m --directory="$dir" --output-format=json "$@" \
		>"$dir.json" 2>"$dir.err"
}

test_expect_success 'filecreate: one create per file, I/Os counted, not timed' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=10 --filesize=16k \
		--bs=4k &&
	test_must_be_empty c.err &&
	echo "read ios=40 bytes=163840 clat=10 lat=0 err=0" >expect &&
	figures c.json >actual &&
	test_cmp expect actual &&
	test $(ls c | wc -l) = 10 &&
	test "$(stat -c "%a %s" c/m.0.0 c/m.0.9 | sort -u)" = "600 0"
'

test_expect_success_if FIO 'filecreate: fio creates the same files, counts and keys' '
	run fio cf --ioengine=filecreate --nrfiles=10 --filesize=16k --bs=4k &&
	figures cf.json >fio &&
	figures c.json >ours &&
	test_cmp fio ours &&
	(cd cf && ls) >fio.files &&
	(cd c && ls) >ours.files &&
	test_cmp fio.files ours.files &&
	python3 "$JSONCMP" cf.json c.json
'

test_expect_success 'filecreate without a size: one block per file; writes count as writes' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=3 --rw=write --bs=8k &&
	test_must_be_empty c.err &&
	echo "write ios=3 bytes=24576 clat=3 lat=0 err=0" >expect &&
	figures c.json >actual &&
	test_cmp expect actual
'

test_expect_success 'filecreate: every pass creates the files again (fio: loops=2, 6 creates)' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=3 --filesize=8k \
		--bs=4k --loops=2 &&
	echo "read ios=12 bytes=49152 clat=6 lat=0 err=0" >expect &&
	figures c.json >actual &&
	test_cmp expect actual
'

test_expect_success 'filecreate: disable_lat leaves the creates untimed' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=3 --disable_lat=1 &&
	echo "read ios=3 bytes=12288 clat=0 lat=0 err=0" >expect &&
	figures c.json >actual &&
	test_cmp expect actual
'

test_expect_success 'filecreate: the runtime is the creates (fio: IOPS is a create rate)' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=200 &&
	python3 -c "
import json, sys
r = json.load(open(\"c.json\"))[\"jobs\"][0][\"read\"]
# the run lasted at least as long as the creates it timed
assert r[\"runtime\"] * 1e6 >= r[\"clat_ns\"][\"mean\"] * r[\"clat_ns\"][\"N\"] * 0.9, r
"
'

test_expect_success 'filecreate: unlink=1 removes the files it made' '
	run "$IOLITE" c --ioengine=filecreate --nrfiles=4 --unlink=1 &&
	test_must_be_empty c.err &&
	test $(ls c | wc -l) = 0
'

test_expect_success 'filestat: laid-out files, one stat each, nothing removed' '
	run "$IOLITE" s --ioengine=filestat --nrfiles=3 --filesize=8k --bs=4k &&
	test_must_be_empty s.err &&
	echo "read ios=6 bytes=24576 clat=3 lat=0 err=0" >expect &&
	figures s.json >actual &&
	test_cmp expect actual &&
	test "$(stat -c %s s/m.0.0 s/m.0.1 s/m.0.2 | sort -u)" = 8192
'

test_expect_success_if FIO 'filestat: the same counts and keys as fio' '
	run fio sf --ioengine=filestat --nrfiles=3 --filesize=8k --bs=4k &&
	figures sf.json >fio &&
	figures s.json >ours &&
	test_cmp fio ours &&
	python3 "$JSONCMP" sf.json s.json
'

for t in stat lstat statx; do
	case $t in
	stat) want='newfstatat(AT_FDCWD, "st/m.0.[01]", {.*}, 0) = 0' ;;
	lstat) want='newfstatat(AT_FDCWD, "st/m.0.[01]", {.*}, AT_SYMLINK_NOFOLLOW) = 0' ;;
	statx) want='statx(AT_FDCWD, "st/m.0.[01]", AT_STATX_SYNC_AS_STAT, STATX_ALL, {.*}) = 0' ;;
	esac
	test_expect_success_if STRACE "filestat stat_type=$t: each file looked up with $t(2)" "
		mkdir -p st && rm -f st/* &&
		strace -f -qq -o trace -e trace=newfstatat,statx \"\$IOLITE\" \
			--name=m --directory=st --ioengine=filestat \
			--stat_type=$t --nrfiles=2 --filesize=4k >out 2>err &&
		test_must_be_empty err &&
		test \$(grep -c '$want' trace) = 2 &&
		test \$(grep -c 'm\.0\.[01]\".* = 0\$' trace) = 2
	"
done

test_expect_success 'filedelete: laid-out files, one unlink each, all gone' '
	run "$IOLITE" d --ioengine=filedelete --nrfiles=3 --filesize=8k --bs=4k &&
	test_must_be_empty d.err &&
	echo "read ios=6 bytes=24576 clat=3 lat=0 err=0" >expect &&
	figures d.json >actual &&
	test_cmp expect actual &&
	test $(ls d | wc -l) = 0
'

test_expect_success 'filedelete loops=2: the second pass fails with ENOENT, as fio' '
	test_must_fail run "$IOLITE" d --ioengine=filedelete --nrfiles=3 \
		--filesize=8k --bs=4k --loops=2 &&
	echo "read ios=6 bytes=24576 clat=3 lat=0 err=2" >expect &&
	figures d.json >actual &&
	test_cmp expect actual &&
	grep "^iolite: job .m.: cannot delete .*/m.0.0.: No such file or directory$" d.err
'

test_expect_success_if FIO 'filedelete loops=2: fio counts the same and fails the same' '
	test_must_fail run fio df --ioengine=filedelete --nrfiles=3 \
		--filesize=8k --bs=4k --loops=2 &&
	figures df.json >fio &&
	figures d.json >ours &&
	test_cmp fio ours
'

test_expect_success 'filedelete never unlinks a device node' '
	test_must_fail "$IOLITE" --name=m --ioengine=filedelete \
		--filename=/dev/null --size=4k >out 2>err &&
	grep "works on regular files only, and ./dev/null. is not one" err &&
	test -c /dev/null
'

test_expect_success 'dircreate: one mkdir (0700) per directory; a second run finds them (EEXIST)' '
	run "$IOLITE" dc --ioengine=dircreate --nrfiles=5 &&
	test_must_be_empty dc.err &&
	echo "read ios=5 bytes=20480 clat=5 lat=0 err=0" >expect &&
	figures dc.json >actual &&
	test_cmp expect actual &&
	test "$(stat -c "%F %a" dc/m.0.* | sort -u)" = "directory 700" &&
	test_must_fail "$IOLITE" --name=m --directory=dc --ioengine=dircreate \
		--nrfiles=5 >out 2>err &&
	grep "cannot make directory .*: File exists" err
'

test_expect_success 'dircreate: unlink=1 removes the directories' '
	run "$IOLITE" dc --ioengine=dircreate --nrfiles=5 --unlink=1 &&
	test_must_be_empty dc.err &&
	test $(ls dc | wc -l) = 0
'

test_expect_success 'dirstat: every directory made first, then one stat each' '
	run "$IOLITE" ds --ioengine=dirstat --nrfiles=4 --rw=write \
		--stat_type=lstat &&
	test_must_be_empty ds.err &&
	echo "write ios=4 bytes=16384 clat=4 lat=0 err=0" >expect &&
	figures ds.json >actual &&
	test_cmp expect actual &&
	test $(ls -d ds/m.0.* | wc -l) = 4
'

test_expect_success 'dirdelete: every directory made, then removed' '
	run "$IOLITE" dd --ioengine=dirdelete --nrfiles=4 &&
	test_must_be_empty dd.err &&
	echo "read ios=4 bytes=16384 clat=4 lat=0 err=0" >expect &&
	figures dd.json >actual &&
	test_cmp expect actual &&
	test $(ls dd | wc -l) = 0
'

test_expect_success 'refused: stat_type elsewhere, verify, --readonly, a missing directory' '
	test_must_fail "$IOLITE" --name=m --ioengine=filecreate \
		--stat_type=lstat >out 2>err &&
	grep "option .stat_type. is not valid with ioengine .filecreate. (only filestat, dirstat)" err &&
	test_must_fail "$IOLITE" --name=m --ioengine=filestat --size=4k \
		--verify=crc32c >out 2>err &&
	grep "option .verify.: ioengine .filestat. moves no data" err &&
	test_must_fail "$IOLITE" --readonly --name=m --ioengine=filecreate \
		>out 2>err &&
	grep "writes, and --readonly refuses" err &&
	test_must_fail "$IOLITE" --name=m --ioengine=dircreate \
		--directory=nowhere >out 2>err &&
	grep "option .directory.: .nowhere. does not exist" err &&
	test_path_is_missing nowhere &&
	test_path_is_missing m.0.0
'

test_done

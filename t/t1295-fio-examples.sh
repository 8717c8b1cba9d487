#!/bin/sh
# fio's own example job files, shortened (examples/fio/: each names its
# original and what changed: files in a scratch directory instead of
# devices, small sizes, runtimes of a second or less), parse and run: exit
# 0, nothing on stderr, one report block per job, and the I/O counts fio
# 3.33 issues on the same shortened job where they do not depend on time
# or chance. ${FIO_EX_DIR} in a job is a scratch directory of its own,
# ${FIO_EX_PORT} a port for the network examples. Then the examples iolite
# refuses on purpose (network and object-store clients, RDMA, GPU, SCSI
# generic, MTD, NVMe passthrough, zoned devices, user-space drivers) are
# refused with the reason.
. "$(dirname "$0")/test-lib.sh"

EX="$SRC_DIR/examples/fio"
PORT=$((20000 + $$ % 20000))

# The "issued rwts" totals of each reported job, in report order: a
# number is exact, + is at least one, * anything (a job's I/Os add up
# to one at least; a short time-based mix may do no I/O of one kind on a
# loaded machine). Exact counts are
# fio 3.33's on the same file (checked side by side when this was
# written); time-based, rate-bound or random-mix jobs get + and *.
expect_of() {
	case $1 in
	1mbs_clients)	echo 64,0,0,0 64,0,0,0 64,0,0,0 64,0,0,0 ;;
	aio-read)	echo 32,0,0,0 32,0,0,0 32,0,0,0 32,0,0,0 ;;
	backwards-read)	echo 256,0,0,0 ;;
	basic-verify)	echo 512,512,0,0 ;;
	butterfly)	echo 256,0,0,0 256,0,0,0 ;;
	# random mixes over fio's random map of 1m writes in 4k units: the
	# passes end by the draws (fio 3.33: 5,3 2,7 4,4)
	cmdprio-bssplit) echo +,+,0,0 +,+,0,0 *,+,0,0 ;;
	cmdprio-percentage) echo 64,0,0,0 ;;
	cpuio|exec)	echo ;;	# no I/O: the job count is checked
	cross-stripe-verify) echo 24,24,0,0 ;;
	dedupe-global)	echo 0,1024,0,0 0,1024,0,0 ;;
	dircreate-ioengine) echo 10,0,0,0 10,0,0,0 10,0,0,0 ;;
	dirdelete-ioengine|filedelete-ioengine|filestat-ioengine)
			echo 50,0,0,0 50,0,0,0 50,0,0,0 ;;
	dirstat-ioengine) echo 5,0,0,0 5,0,0,0 5,0,0,0 5,0,0,0 ;;
	disk-zone-profile) echo 1024,0,0,0 ;;
	e4defrag)	echo 0,128,0,0 0,+,0,0 +,+,0,0 ;;
	e4defrag2)	echo 0,256,0,0 0,256,0,0 0,+,0,0 0,+,0,0 +,+,0,0 \
			     +,+,0,0 ;;
	falloc)		echo 0,+,+,0 0,128,0,0 128,0,0,0 ;;
	filecreate-ioengine) echo 100,0,0,0 100,0,0,0 100,0,0,0 100,0,0,0 ;;
	fio-rand-RW|fio-seq-RW) echo '*,*,0,0 *,*,0,0 *,*,0,0 *,*,0,0' ;;
	fio-rand-write)	echo 0,+,0,0 0,+,0,0 0,+,0,0 0,+,0,0 ;;
	fio-rand-read|fio-seq-read) echo +,0,0,0 ;;
	fio-seq-write|mmap-cxlmem) echo 0,+,0,0 ;;
	fsx|iometer-file-access-server|jesd219) echo +,+,0,0 ;;
	ftruncate)	echo 0,+,0,0 0,+,0,0 ;;
	libpmem)	echo 0,+,0,0 +,0,0,0 ;;
	mobile-storage)	echo 16,0,0,0 0,16,0,0 512,0,0,0 0,512,0,0 ;;
	netio)		echo 1024,0,0,0 0,1024,0,0 ;;
	netio_multicast) echo +,0,0,0 +,0,0,0 0,1024,0,0 ;;
	null|zipf)	echo 16384,0,0,0 ;;
	numa)		echo 16,0,0,0 16,0,0,0 ;;
	ssd-test)	echo +,0,0,0 +,0,0,0 0,+,0,0 0,+,0,0 ;;
	surface-scan)	echo 0,64,0,0 64,0,0,0 ;;
	tiobench-example)
		for i in 1 2 3 4 5 6 7 8; do printf '0,512,0,0 '; done
		for i in 1 2 3 4 5 6 7 8; do printf '512,0,0,0 '; done
		echo ;;
	waitfor)	echo 0,+,0,0 +,0,0,0 0,+,0,0 +,0,0,0 ;;
	*)		echo "no expectation for $1" >&2; return 1 ;;
	esac
}

# Jobs reported: the report blocks of examples without I/O counts (the
# others: as many as expect_of names)
jobs_of() {
	case $1 in
	cpuio)	echo 4 ;;
	exec)	echo 7 ;;
	esac
}

# check_counts NAME OUT: the report's totals, one "r,w,t,s" a job, against
# expect_of NAME, each field "n|+|*"; a job's I/Os add up to one at least,
# whatever the pattern (one awk: a few processes a job cost more than it)
check_counts() {
	want=$(expect_of "$1") && jobs=$(jobs_of "$1") &&
	awk -v want="$want" -v jobs="$jobs" -v name="$1" '
		/\(groupid=/ { nj++ }
		/issued rwts: total=/ {
			s = $0
			sub(/.*issued rwts: total=/, "", s)
			sub(/ .*/, "", s)
			got[++n] = s
		}
		function fail(msg) { print name ": " msg > "/dev/stderr"; bad = 1 }
		END {
			m = split(want, w, " ")
			if (nj != (jobs == "" ? m : jobs))
				fail(nj + 0 " jobs reported")
			if (m && n != m)
				fail(n + 0 " totals, expected " m)
			for (i = 1; m && i <= n; i++) {
				k = split(got[i], g, ",")
				split(w[i], p, ",")
				sum = 0
				for (j = 1; j <= k; j++) {
					sum += g[j]
					if (p[j] == "+" && g[j] + 0 < 1 ||
					    p[j] != "+" && p[j] != "*" && g[j] != p[j])
						fail("issued " got[i] ", expected " w[i])
				}
				if (sum < 1)
					fail("issued " got[i] ", no I/O")
			}
			exit bad
		}' "$2"
}

# The prerequisites of example $1, comma-separated (one awk: a fork
# costs more than the check)
example_prereqs() {
	awk '/^ioengine=libaio/ { p["LIBAIO"] = 1 }
	     /^direct=1/ || /^buffered=0/ { p["ODIRECT"] = 1 }
	     /^ioengine=e4defrag/ { p["MOVE_EXT"] = 1 }
	     END { s = ""
		   if ("LIBAIO" in p) s = "LIBAIO"
		   if ("ODIRECT" in p) s = s (s == "" ? "" : ",") "ODIRECT"
		   if ("MOVE_EXT" in p) s = s (s == "" ? "" : ",") "MOVE_EXT"
		   print s }' "$1"
}

test_expect_success 'there are shortened fio examples' '
	ls "$EX"/*.fio >list &&
	test "$(wc -l <list)" -ge 40 &&
	awk "FNR == 1 { b = FILENAME; sub(/.*\//, \"\", b)
		if (index(\$0, \"# fio examples/\" b \" (fio 3.\") != 1) {
			print FILENAME \": no first line naming the original\"
			bad = 1 } } END { exit bad }" $(cat list) >&2
'

for ex in "$EX"/*.fio; do
	name=${ex##*/} name=${name%.fio}
	pre=$(example_prereqs "$ex")
	PORT=$((PORT + 1))
	test_expect_success_if "$pre" "$name parses and runs" '
		mkdir "$name" &&
		FIO_EX_DIR=$TRASH/$name FIO_EX_PORT=$PORT &&
		export FIO_EX_DIR FIO_EX_PORT &&
		"$IOLITE" --parse-only "$ex" >"$name.parse" 2>"$name.perr" &&
		test_must_be_empty "$name.perr" &&
		test -s "$name.parse" &&
		"$IOLITE" "$ex" >"$name.out" 2>"$name.err" &&
		test_must_be_empty "$name.err" &&
		grep -q "^Run status group 0" "$name.out" &&
		check_counts "$name" "$name.out"
	'
done

# ioengine=E: refused, saying why (a reason after the colon)
for e in gfapi gfapi_async libhdfs dfs \
	 rdma librpma_apm_client libcufile sg mtd libzbc xnvme \
	 libblkio spdk pmemblk cpp_null ime_psync; do
	test_expect_success "ioengine=$e is refused with the reason" '
		test_must_fail "$IOLITE" --parse-only --name=x --ioengine=$e \
			2>err &&
		grep -q "^iolite: <cmdline>:3: option '\''ioengine'\'': ioengine '\''$e'\'' is not supported: ..........*" err
	'
done

test_expect_success 'the options of refused engines say whose they are' '
	for o in volume=v \
		 hdfsdirectory=d sg_write_mode=verify skip_bad=1 \
		 gpu_dev_ids=0 serverip=h; do
		test_must_fail "$IOLITE" --parse-only --name=x --$o 2>err &&
		grep -q "is not supported: an option of [a-z_=]* .*(.*)" err ||
			{ cat err >&2; return 1; }
	done
'

# Debian's fio-examples: fio 3.33's own files, unchanged. Those iolite
# refuses on purpose say so with the reason, never "not supported yet".
FIOEX=/usr/share/doc/fio/examples
[ -d "$FIOEX" ] ||
	test_skip_reason="no fio 3.33 examples: apt-get install fio-examples"
test_expect_success "fio's refused examples are refused with the reason" '
	for n in dfs gfapi ime libhdfs \
		 librpma_apm-client libcufile-posix libzbc-seq-read \
		 mtd pmemblk sg_verify \
		 cpp_null; do
		# the variables libcufile-posix.fio and dfs.fio say they
		# need (an empty pool= is refused before dfs is)
		test_must_fail env FIO_DIR="$TRASH" GPU_DEV_IDS=0 POOL=p CONT=c \
			"$IOLITE" --parse-only "$FIOEX/$n.fio" >/dev/null 2>err &&
		grep -q "is not supported: " err ||
			{ echo "$n:" >&2; cat err >&2; return 1; }
	done
'

# nfs.fio: the nfs engine with libnfs; without, refused naming it
test_expect_success_if LIBNFS "fio's nfs.fio parses" '
	"$IOLITE" --parse-only "$FIOEX/nfs.fio" >out 2>err &&
	test_must_be_empty err &&
	grep -q "^nfs_url=nfs://127.0.0.1/nfs" out
'
test_expect_success_if !LIBNFS "fio's nfs.fio names libnfs-dev" '
	test_must_fail "$IOLITE" --parse-only "$FIOEX/nfs.fio" 2>err &&
	grep -q "ioengine .nfs. is not available in this build: install libnfs-dev" err
# the http engine's: they parse, given the variables they say they need
test_expect_success_if HTTP "fio's http examples parse" '
	for n in http-s3 http-s3-crypto http-s3-storage-class http-swift \
		 http-webdav; do
		env S3_KEY=k S3_ID=i SSE_KEY=01234567890123456789012345678901 \
			STORAGE_CLASS=STANDARD_IA SWIFT_id=t \
			"$IOLITE" --parse-only "$FIOEX/$n.fio" >/dev/null 2>err &&
		test_must_be_empty err ||
			{ echo "$n:" >&2; cat err >&2; return 1; }
	done
'

# uring-cmd-ng.fio: io_uring_cmd parses (it runs on a /dev/ngXnY only:
# t/t2700-vm-nvme.sh runs such jobs in a guest)
test_expect_success_if IO_URING "fio's uring-cmd-ng.fio parses" '
	"$IOLITE" --parse-only "$FIOEX/uring-cmd-ng.fio" >out 2>err &&
	test_must_be_empty err
'

# nbd.fio and libiscsi.fio parse where the engines are built (they run
# against a server: t0353, t0354)
for n in nbd libiscsi; do
	test_expect_success "fio's $n.fio parses (or names its package)" '
		if "$IOLITE" --enghelp | grep -qw $n; then
			uri=nbd://127.0.0.1 "$IOLITE" --parse-only \
				"$FIOEX/$n.fio" >out 2>err &&
			test_must_be_empty err &&
			grep -q "^ioengine=$n" out
		else
			test_must_fail "$IOLITE" --parse-only "$FIOEX/$n.fio" \
				2>err &&
			grep -q "is not available in this build: install lib[a-z]*-dev" err
		fi
	'
done
# rados.fio, rbd.fio: the Ceph engines parse (t0390 runs them against a
# cluster: make test-ceph); a build without the library names it
test_expect_success "fio's rados.fio and rbd.fio parse, or name the package" '
	for e in rados:librados-dev rbd:librbd-dev; do
		n=${e%%:*}
		if "$IOLITE" --enghelp | grep -qw "$n"; then
			"$IOLITE" --parse-only "$FIOEX/$n.fio" >out 2>err &&
			test_must_be_empty err &&
			grep -q "^pool=" out || return 1
		else
			test_must_fail "$IOLITE" --parse-only "$FIOEX/$n.fio" \
				2>err &&
			grep -q "install ${e#*:}" err || return 1
		fi
	done
'

# zbd-rand-write.fio: its open-zone limit parses; run, its 16 writing
# clones on one zoned device are refused by name (numjobs: not yet)
test_expect_success "fio's zbd-rand-write.fio parses" '
	"$IOLITE" --parse-only "$FIOEX/zbd-rand-write.fio" >out 2>err &&
	test_must_be_empty err &&
	grep -q "^max_open_zones=32" out
'
test_skip_reason=

test_done

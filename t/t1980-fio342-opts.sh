#!/bin/sh
# Options fio added after 3.33 (issue #28). Debian's fio 3.33 does not
# know them, so no side-by-side row can run them: the expectations here
# are fio 3.42's behaviour, measured with fio 3.42 beside iolite and
# written down as fixed figures (each test says what fio 3.42 did).

. "$(dirname "$0")/test-lib.sh"

# syncs NAME ARGS...: the job under strace in directory d; NAME.calls
# holds "syncfs N fsync M", NAME.dir the directory syncfs was made on
syncs() {
	name=$1
	shift
	rm -rf d && mkdir d &&
	strace -f -qq -o "$name.trace" -e trace=openat,fsync,syncfs,pwrite64 \
		"$IOLITE" --name=j --directory=d --rw=write --bs=4k --size=64k \
		--output-format=json "$@" >"$name.json" 2>"$name.err" &&
	test_must_be_empty "$name.err" &&
	echo "syncfs $(grep -c " syncfs(" "$name.trace")" \
		"fsync $(grep -c " fsync(" "$name.trace")" >"$name.calls"
}

# fio 3.42, 16 writes of 4k (strace): one syncfs per loop, in place of
# end_fsync's fsyncs, none from fsync_on_close with it, fsync=4's three
# fsyncs kept; the report's sync count holds fsync=N's only
test_expect_success_if STRACE,LIBAIO 'end_syncfs: one syncfs(2) per loop, as fio 3.42' '
	syncs one --end_syncfs=1 &&
	echo "syncfs 1 fsync 0" >expect && test_cmp expect one.calls &&
	syncs loops --end_syncfs=1 --loops=3 --nrfiles=2 &&
	echo "syncfs 3 fsync 0" >expect && test_cmp expect loops.calls &&
	syncs both --end_syncfs=1 --end_fsync=1 --fsync_on_close=1 &&
	echo "syncfs 1 fsync 0" >expect && test_cmp expect both.calls &&
	syncs n --end_syncfs=1 --fsync=4 --ioengine=libaio --iodepth=4 &&
	echo "syncfs 1 fsync 3" >expect && test_cmp expect n.calls &&
	grep -A3 "\"sync\" *:" n.json | grep "\"total_ios\" *: *3,"
'

test_expect_success_if STRACE 'end_syncfs: made on the first file'"'"'s directory, after the last write' '
	syncs dir --end_syncfs=1 &&
	grep -B1 " syncfs(" dir.trace | head -1 | grep "\"d\", .*O_DIRECTORY" &&
	awk "/ syncfs\\(/ { s = NR } / pwrite64\\(/ { w = NR } END { exit !(s > w) }" \
		dir.trace
'

# fio 3.42: no syncfs for a job that does not write, nor with the null
# engine, nor with create_only
test_expect_success_if STRACE 'end_syncfs: none without file writes' '
	syncs rd --end_syncfs=1 --rw=read &&
	grep "^syncfs 0 " rd.calls &&
	syncs null --end_syncfs=1 --ioengine=null &&
	grep "^syncfs 0 " null.calls &&
	syncs co --end_syncfs=1 --create_only=1 &&
	grep "^syncfs 0 " co.calls
'

test_expect_success 'end_syncfs: a value that is not a boolean is refused' '
	test_must_fail "$IOLITE" --name=j --filename=f --size=64k \
		--end_syncfs=2 >out 2>err &&
	grep "end_syncfs" err &&
	test_path_is_missing f
'

# vjob FILE [options...]: 16 blocks of 4k written in order, verified
vjob() {
	file=$1
	shift
	"$IOLITE" --name=v --filename="$file" --size=64k --bs=4k \
		--rw=write --ioengine=psync --verify=crc32c "$@"
}

# fio 3.42 (numjobs=2 clones writing one file, verify=crc32c): "bad
# header rand_seed" by default and with verify_write_sequence=0, a pass
# with verify_header_seed=0. Here deterministic: a block of another
# seed, then an older write of the same seed, put back under the
# writer's saved state.
test_expect_success 'verify_header_seed=0: a block of another seed passes' '
	vjob s.f --randseed=1 >/dev/null &&
	cp s.f s.old &&
	vjob s.f --randseed=2 >/dev/null &&
	dd if=s.old of=s.f bs=4k skip=2 seek=2 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail vjob s.f --verify_only --randseed=2 \
		--verify_state_load=1 >out 2>err &&
	grep "offset 8192 .*stale block: expected write 2 of seed" err &&
	test_must_fail vjob s.f --verify_only --randseed=2 \
		--verify_state_load=1 --verify_write_sequence=0 >out 2>err &&
	grep "offset 8192 .*stale block" err &&
	vjob s.f --verify_only --randseed=2 --verify_state_load=1 \
		--verify_header_seed=0 >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'verify_write_sequence=0: an older write of the job passes' '
	vjob q.f --randseed=1 >/dev/null &&
	cp q.f q.old &&
	vjob q.f --randseed=1 --loops=2 >/dev/null &&
	dd if=q.old of=q.f bs=4k skip=2 seek=2 count=1 conv=notrunc 2>/dev/null &&
	test_must_fail vjob q.f --verify_only --randseed=1 --loops=2 \
		--verify_state_load=1 --verify_header_seed=0 >out 2>err &&
	grep "stale block: expected write 18 of seed 0x[0-9a-f]*, received write 2 of" err &&
	vjob q.f --verify_only --randseed=1 --loops=2 --verify_state_load=1 \
		--verify_write_sequence=0 >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'verify_header_seed, verify_write_sequence: booleans' '
	test_must_fail vjob b.f --verify_header_seed=x >out 2>err &&
	grep "verify_header_seed" err &&
	test_must_fail vjob b.f --verify_write_sequence=2 >out 2>err &&
	grep "verify_write_sequence" err &&
	test_path_is_missing b.f
'

# fio 3.42 spins a loop of pause instructions per I/O: 102400 null
# I/Os took 2.25 s of user time with thinkcycles=1000, 21.7 s with
# 10000, 0.14 s without (iolite: 2.0, 20.2, 0.01). A pause is some 3 to
# 40 ns by CPU model: 10000 I/Os with 10000 take 0.25 s at least.
test_expect_success_if JQ 'thinkcycles: the CPU time grows with the cycles' '
	for n in 0 10000; do
		"$IOLITE" --name=t --ioengine=null --size=40000k --bs=4k \
			--thinkcycles=$n --output-format=json >c$n.json || return 1
	done &&
	# CPU ms: the share of the runtime times the runtime, the same on a
	# loaded machine (the spinner then runs longer at a smaller share)
	ms="(.jobs[0].usr_cpu + .jobs[0].sys_cpu) * .jobs[0].job_runtime / 100 | floor" &&
	c0=$(jq "$ms" c0.json) &&
	c1=$(jq "$ms" c10000.json) &&
	echo "cpu: $c0 ms without, $c1 ms with" &&
	between "$c0" 0 150 && between "$c1" 200 1000000
'

test_expect_success 'thinkcycles: the same I/O, in the same order' '
	for n in 0 100; do
		"$IOLITE" --name=t --ioengine=null --size=1m --bs=4k \
			--rw=randrw --thinkcycles=$n --write_iolog=l$n.log \
			>out 2>err &&
		test_must_be_empty err &&
		awk "{ \$1 = \"\" } 1" l$n.log >l$n.io || return 1
	done &&
	test $(grep -c " read \\| write " l0.io) = 256 &&
	test_cmp l0.io l100.io
'

test_expect_success 'thinkcycles: a count of 32 bits; others refused' '
	test_must_fail "$IOLITE" --name=t --ioengine=null --size=4k \
		--thinkcycles=-1 >out 2>err &&
	grep "thinkcycles" err &&
	test_must_fail "$IOLITE" --name=t --ioengine=null --size=4k \
		--thinkcycles=4294967296 >out 2>err &&
	grep "thinkcycles.*out of range" err
'

# fio 3.42: "job_start" after "groupid", ms of clock_gettime(id):
# 1796590746185 with 0 (realtime), 73257776 with 1 (monotonic: the
# uptime), and the option echoed in "job options". fio 3.42 prints the
# key in every job; iolite only when the option is set (fio 3.33's keys)
test_expect_success_if JQ 'job_start_clock_id: job_start in that clock, in ms' '
	up0=$(cut -d. -f1 /proc/uptime) &&
	"$IOLITE" --name=j --ioengine=null --size=4k \
		--job_start_clock_id=1 --output-format=json >m.json &&
	up1=$(cut -d. -f1 /proc/uptime) &&
	between "$(jq ".jobs[0].job_start" m.json)" \
		$((up0 * 1000)) $((up1 * 1000 + 1000)) &&
	test "$(jq -r ".jobs[0][\"job options\"].job_start_clock_id" m.json)" = 1 &&
	t0=$(date +%s) &&
	"$IOLITE" --name=j --ioengine=null --size=4k \
		--job_start_clock_id=0 --output-format=json >r.json &&
	t1=$(date +%s) &&
	between "$(jq ".jobs[0].job_start" r.json)" \
		$((t0 * 1000)) $((t1 * 1000 + 1000)) &&
	"$IOLITE" --name=j --ioengine=null --size=4k \
		--output-format=json >n.json &&
	test "$(jq ".jobs[0] | has(\"job_start\")" n.json)" = false
'

test_expect_success 'job_start_clock_id: a clock id beyond 11 is refused' '
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=4k \
		--job_start_clock_id=12 >out 2>err &&
	grep "job_start_clock_id.*out of range" err
'

# fio 3.42, log_avg_msec=200: avg (or 0) and max (or 1) give
# "200, V, 0, 0, 0"; both gives "200, AVG, MAX, 0, 0, 0" in the latency
# logs, the value twice in the bandwidth and IOPS logs
test_expect_success 'log_window_value=both: the mean, then the maximum' '
	for v in avg max both; do
		"$IOLITE" --name=j --ioengine=null --size=64m --bs=4k \
			--rate_iops=2000 --runtime=1 --time_based \
			--write_lat_log=$v --write_iops_log=$v \
			--log_avg_msec=200 --log_window_value=$v >out 2>err &&
		test_must_be_empty err || return 1
	done &&
	for v in avg max; do
		awk -F", " "NF != 5 || \$1 % 200 { exit 1 }" ${v}_clat.1.log ||
		return 1
	done &&
	awk -F", " "NF != 6 || \$2 > \$3 { exit 1 }" both_clat.1.log &&
	awk -F", " "NF != 6 || \$2 != \$3 || \$2 < 1000 { exit 1 }" \
		both_iops.1.log &&
	test $(wc -l <both_clat.1.log) -ge 4
'

test_expect_success 'log_window_value: log_max_value its old name, bad values refused' '
	"$IOLITE" --name=j --ioengine=null --size=1m --write_lat_log=o \
		--log_avg_msec=100 --log_max_value=1 >out 2>err &&
	test_must_be_empty err &&
	test_must_fail "$IOLITE" --name=j --ioengine=null --size=1m \
		--log_window_value=mean >out 2>err &&
	grep "log_window_value.*mean" err
'

# fio 3.42's data placement options (io_uring_cmd's and xnvme's) need
# an NVMe device with FDP, which QEMU 7.2's NVMe lacks: refused by name
# with the reason, aliases included, before the file is made
test_expect_success 'data placement options: refused by name, nothing made' '
	for o in fdp=1 dataplacement=fdp data_placement=streams plids=0,2 \
		fdp_pli=1-3 plid_select=random fdp_pli_select=roundrobin \
		dp_scheme=scheme.txt; do
		test_must_fail "$IOLITE" --name=j --filename=dp.f --size=64k \
			--$o >out 2>err &&
		grep "option .${o%%=*}. is not supported yet: NVMe data placement.*FDP" err &&
		test_path_is_missing dp.f || return 1
	done
'

# issue 28 lists random_sequence_stride among fio 3.42's options, but
# fio 3.42 has none of that name: "unrecognized option", exit 1, and
# --cmdhelp says "No such command". Unknown here too, nothing made.
test_expect_success 'random_sequence_stride: unknown, as in fio 3.42' '
	test_must_fail "$IOLITE" --name=j --filename=rs.f --size=64k \
		--rw=randread --random_sequence_stride=4k >out 2>err &&
	grep "unknown option .random_sequence_stride." err &&
	test_path_is_missing rs.f
'

# fio 3.42, log_issue_time=1 with log_offset=1: a 7th column, the I/O's
# issue time in ns from the log's epoch ("0, 17785, 1, 4096, 0, 0,
# 29519"), in the clat and slat lines (the same figure for one I/O);
# 0 in the lat, bw and iops lines and in windows (log_avg_msec: "100,
# 13457, 1, 0, 0, 0, 0"; with log_window_value=both 8 columns)
test_expect_success_if LIBAIO 'log_issue_time: the issue time after the priority' '
	"$IOLITE" --name=j --filename=it.f --size=64k --bs=4k --rw=randrw \
		--ioengine=libaio --iodepth=4 --write_lat_log=it \
		--write_bw_log=it --log_offset=1 --log_issue_time=1 \
		>out 2>err &&
	test_must_be_empty err &&
	test $(wc -l <it_clat.1.log) = 16 &&
	awk -F", " "NF != 7 || int((\$7 + \$2) / 1000000) != \$1 { exit 1 }" \
		it_clat.1.log &&
	awk -F", " "NF != 7 || \$7 != 0 { exit 1 }" it_lat.1.log &&
	awk -F", " "NF != 7 || \$7 != 0 { exit 1 }" it_bw.1.log &&
	cut -d, -f5,7 it_clat.1.log | sort >c.issue &&
	cut -d, -f5,7 it_slat.1.log | sort >s.issue &&
	test_cmp c.issue s.issue &&
	test $(cut -d, -f7 it_clat.1.log | sort -u | wc -l) -gt 1
'

test_expect_success 'log_issue_time: 0 in the windows, after both values' '
	"$IOLITE" --name=j --ioengine=null --size=64m --bs=4k \
		--rate_iops=2000 --runtime=1 --time_based --write_lat_log=iw \
		--write_iops_log=iw --log_offset=1 --log_issue_time=1 \
		--log_avg_msec=200 --log_window_value=both >out 2>err &&
	test_must_be_empty err &&
	awk -F", " "NF != 8 || \$8 != 0 { exit 1 }" iw_clat.1.log &&
	awk -F", " "NF != 8 || \$8 != 0 { exit 1 }" iw_iops.1.log &&
	test $(wc -l <iw_clat.1.log) -ge 4
'

test_expect_success 'log_issue_time: iolite plot reads the 7-column lines' '
	"$IOLITE" --name=j --filename=ip.f --size=256k --bs=4k --rw=randread \
		--ioengine=psync --write_lat_log=ip --log_offset=1 \
		--log_issue_time=1 >out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" plot ip_clat.1.log -o ip.html >out 2>err &&
	test_must_be_empty err &&
	grep -q "<h2>ip_clat.1.log</h2>" ip.html
'

# fio 3.42: "log_issue_time option requires write_lat_log and
# log_offset options", exit 1, nothing run
test_expect_success 'log_issue_time: needs write_lat_log and log_offset' '
	test_must_fail "$IOLITE" --name=j --filename=in.f --size=64k \
		--write_lat_log=in --log_issue_time=1 >out 2>err &&
	grep "log_issue_time.*write_lat_log and log_offset" err &&
	test_must_fail "$IOLITE" --name=j --filename=in.f --size=64k \
		--write_bw_log=in --log_offset=1 --log_issue_time=1 \
		>out 2>err &&
	grep "log_issue_time.*write_lat_log and log_offset" err &&
	test_path_is_missing in.f
'

test_done

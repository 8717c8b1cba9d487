#!/bin/sh
# log_prio (the priority column), log_compression / log_store_compressed
# (fio's .fz files: binary samples in zlib streams) and --inflate-log.
. "$(dirname "$0")/test-lib.sh"

test_expect_success_if !ZLIB 'without zlib, log_compression is refused' '
	test_must_fail "$IOLITE" --name=c --filename=f --size=64k \
		--write_lat_log=c --log_compression=4k 2>err &&
	grep -q "install zlib1g-dev" err
'

job() {
	"$IOLITE" --name=c --filename=f --size=1m --bs=4k --rw=randrw \
		--write_lat_log=c --log_offset=1 "$@" >out 2>err &&
	test_must_be_empty err
}

test_expect_success 'log_prio: the last column is the priority value in hex' '
	job --log_prio=1 &&
	test "$(wc -l <c_clat.1.log)" = 256 &&
	! grep -v "^[0-9]*, [0-9]*, [01], 4096, [0-9]*, 0x0000$" c_clat.1.log &&
	job &&
	! grep -v "^[0-9]*, [0-9]*, [01], 4096, [0-9]*, 0$" c_clat.1.log
'

test_expect_success_if ZLIB 'log_store_compressed: .fz files that inflate to the log' '
	job --log_prio=1 &&
	sed "s/^[0-9]*, [0-9]*, //" c_clat.1.log >plain &&
	rm -f c_*.log &&
	job --log_prio=1 --log_compression=1k --log_store_compressed=1 &&
	test_path_is_missing c_clat.1.log &&
	test -s c_clat.1.log.fz &&
	"$IOLITE" --inflate-log=c_clat.1.log.fz >inflated 2>err &&
	test_must_be_empty err &&
	test "$(wc -l <inflated)" = 256 &&
	sed "s/^[0-9]*, [0-9]*, //" inflated >inf &&
	test_cmp plain inf &&
	# 1k chunks of 40-byte samples: several zlib streams
	test "$(od -An -tx1 -v c_clat.1.log.fz | tr -s " \n" "  " |
		grep -o "78 9c" | wc -l)" -gt 2
'

test_expect_success_if ZLIB 'compressed bandwidth log with log_avg_msec' '
	"$IOLITE" --name=c --filename=f --size=1m --bs=4k --rw=read \
		--write_bw_log=b --log_avg_msec=50 --runtime=1 --time_based \
		--log_store_compressed=1 >out 2>err &&
	test_must_be_empty err &&
	"$IOLITE" --inflate-log=b_bw.1.log.fz >bw &&
	n=$(wc -l <bw) && test "$n" -ge 5 && test "$n" -le 60 &&
	! grep -v "^[0-9]*, [0-9]*, 0, 0, 0$" bw
'

test_expect_success_if ZLIB 'log options refused: small chunks, histograms, bad files' '
	test_must_fail "$IOLITE" --name=c --filename=f --size=64k \
		--write_lat_log=c --log_compression=100 2>err &&
	grep -q "option .log_compression.: 100 is out of range (minimum 1024)" err &&
	test_must_fail "$IOLITE" --name=c --filename=f --size=64k \
		--write_hist_log=h --log_hist_msec=10 \
		--log_store_compressed=1 2>err &&
	grep -q "option .log_store_compressed.: histogram logs" err &&
	echo "not zlib" >bad.fz &&
	test_must_fail "$IOLITE" --inflate-log=bad.fz 2>err &&
	grep -q "bad.fz" err
'

test_expect_success_if FIO,ZLIB 'fio 3.33 .fz files inflate with iolite, and ours with fio' '
	fio --name=c --filename=f --size=1m --bs=4k --rw=randread \
		--write_lat_log=fio --log_offset=1 --log_prio=1 \
		--log_compression=4k --log_store_compressed=1 \
		--output=/dev/null &&
	"$IOLITE" --inflate-log=fio_clat.1.log.fz >ours &&
	fio --inflate-log=fio_clat.1.log.fz >theirs &&
	test_cmp theirs ours &&
	test "$(wc -l <ours)" = 256 &&
	job --log_compression=4k --log_store_compressed=1 &&
	fio --inflate-log=c_lat.1.log.fz >theirs &&
	"$IOLITE" --inflate-log=c_lat.1.log.fz >ours &&
	test_cmp ours theirs &&
	test "$(wc -l <ours)" = 256
'

test_done

#!/bin/sh
# Several files per job and how they are laid out: filename_format,
# nrfiles with file_service_type and openfiles, fallocate, fill_device,
# create_serialize and lockfile. (t/unit/workload.c checks the order in
# which files are served; t/unit/filelock.c the locks.)
. "$(dirname "$0")/test-lib.sh"

run() {
	"$IOLITE" "$@" >out 2>err &&
	test_must_be_empty err
}

cat >"$TRASH/names.fio" <<\EOF
[global]
size=16k
nrfiles=2
filename_format=x/y/$jobname-$jobnum-$filenum$clientuid
rw=write
[a]
numjobs=2
[b]
EOF

test_expect_success 'filename_format: $jobname, $jobnum, $filenum, $clientuid' '
	mkdir names &&
	(cd names && "$IOLITE" ../names.fio >../out 2>../err) &&
	test_must_be_empty err &&
	(cd names && find . -type f | sort) >actual &&
	cat >expect <<-\EOF &&
	./x/y/a-0-0
	./x/y/a-0-1
	./x/y/a-1-0
	./x/y/a-1-1
	./x/y/b-0-0
	./x/y/b-0-1
	EOF
	test_cmp expect actual
'

test_expect_success_if FIO 'filename_format: the names fio gives' '
	mkdir fionames && (cd fionames && fio ../names.fio >/dev/null) &&
	(cd fionames && find . -type f | sort) >expect &&
	(cd names && find . -type f | sort) >actual &&
	test_cmp expect actual
'

# the skewed types make hot and cold files: the budget, not the files,
# ends the job (t1750-workload-fio.sh checks the shares against fio)
for fst in roundrobin roundrobin:2 sequential random random:3 zipf:1.2 \
	   pareto gauss; do
	case $fst in z*|p*|g*) what="12 writes, files laid out" ;;
		     *) what="writes every file" ;; esac
	test_expect_success "file_service_type=$fst $what" '
		rm -f j.* &&
		run --name=j --rw=write --bs=4k --size=48k --nrfiles=3 \
			--file_service_type=$fst &&
		test "$(issued out)" = "0,12,0,0" &&
		for i in 0 1 2; do
			test $(stat -c %s j.0.$i) = 16384 &&
			case $fst in z*|p*|g*) continue ;; esac &&
			! cmp -s -n 16384 j.0.$i /dev/zero || return 1
		done
	'
done

test_expect_success 'openfiles=1: every file of a random job done' '
	rm -f j.* &&
	run --name=j --rw=randwrite --bs=4k --size=64k --nrfiles=4 \
		--openfiles=1 &&
	test "$(issued out)" = "0,16,0,0" &&
	for i in 0 1 2 3; do
		! cmp -s -n 16384 j.0.$i /dev/zero || return 1
	done
'

test_expect_success 'file_service_type: a bad value is refused' '
	rm -f j.* &&
	test_must_fail "$IOLITE" --name=j --size=16k \
		--file_service_type=lru 2>err &&
	grep "option '\''file_service_type'\'': invalid value '\''lru'\''" err &&
	test_path_is_missing j.0.0
'

# allocated 512-byte blocks of a 1 MiB file after one 4k write; its size
# is 1 MiB where the layout sets it (native, posix, truncate), else what
# the write made (none, keep: FALLOC_FL_KEEP_SIZE), as with fio
allocated() {
	rm -f fa &&
	run --name=fa --filename=fa --rw=write --bs=4k --size=1m \
		--number_ios=1 --fallocate=$1 &&
	case $1 in
	none|0|keep) test $(stat -c %s fa) = 4096 ;;
	*) test $(stat -c %s fa) = 1048576 ;;
	esac &&
	stat -c %b fa
}

if fallocate -l 4096 "$TRASH/.fa" 2>/dev/null; then
	test_expect_success 'fallocate=native, posix, keep: allocated' '
		for m in native posix keep 1; do
			test $(allocated $m) -ge 2048 || return 1
		done
	'
else
	test_expect_success 'fallocate (skipped: no fallocate here)' ':'
fi

test_expect_success 'fallocate=none, truncate: a sparse file of the size' '
	for m in none truncate 0; do
		test $(allocated $m) -lt 2048 || return 1
	done
'

test_expect_success 'create_serialize=0: jobs lay out their files at once' '
	cat >par.fio <<-\EOF &&
	[global]
	size=1m
	rw=read
	bs=64k
	create_serialize=0
	[p1]
	[p2]
	[p3]
	filename=shared
	[p4]
	filename=shared
	EOF
	run par.fio &&
	for f in p1.0.0 p2.0.0 shared; do
		test $(stat -c %s $f) = 1048576 &&
		! cmp -s -n 1048576 $f /dev/zero || return 1
	done &&
	test $(grep -c "issued rwts: total=16,0,0,0" out) = 4
'

test_expect_success 'lockfile: jobs sharing a file run to the end' '
	for m in exclusive readwrite none; do
		run --name=l1 --filename=lk --size=256k --rw=randrw \
			--lockfile=$m --name=l2 --filename=lk --size=256k \
			--rw=randread --lockfile=$m &&
		test $(grep -c "issued rwts" out) = 2 || return 1
	done
'

# fill_device needs a small filesystem of its own: a tmpfs mount
mnt="$TRASH/mnt"
test_skip_reason=
if test_skip_unless ROOT && mkdir "$mnt" &&
   ! mount -t tmpfs -o size=4m iolite-test "$mnt" 2>/dev/null; then
	test_skip_reason="cannot mount a tmpfs on $mnt"
fi
[ -n "$test_skip_reason" ] || test_at_exit="umount '$mnt'"

	test_expect_success 'fill_device: a write job fills the filesystem' '
		run --name=fill --directory="$mnt" --rw=write --bs=64k \
			--fill_device=1 &&
		test "$(issued out)" = "0,64,0,0" &&
		test $(stat -c %s "$mnt/fill.0.0") = 4194304 &&
		test "$(df --output=avail "$mnt" | tail -n 1 | tr -d " ")" = 0 &&
		rm "$mnt/fill.0.0"
	'

	test_expect_success 'fill_device: a read job reads what filled it' '
		run --name=fill --directory="$mnt" --rw=read --bs=64k \
			--fill_fs=1 &&
		test "$(issued out)" = "64,0,0,0" &&
		rm "$mnt/fill.0.0"
	'

	test_expect_success 'fill_device with size= writes size' '
		run --name=fill --directory="$mnt" --rw=write --bs=64k \
			--fill_device=1 --size=1m &&
		test "$(issued out)" = "0,16,0,0" &&
		rm "$mnt/fill.0.0"
	'
test_skip_reason=

test_done

#!/bin/sh
# Targets through the binary: what is refused (exit 1, one message on
# stderr, nothing created), and what is created, where and how big.

. "$(dirname "$0")/test-lib.sh"

# Runs iolite expecting failure; stderr in err, stdout in out.
refuse() {
	test_must_fail "$IOLITE" "$@" >out 2>err
}

test_expect_success 'a missing path under /dev is refused, never created' '
	refuse --name=x --filename=/dev/iolite-t0300-missing --size=1m \
		--rw=read &&
	grep "^iolite: .*option '\''filename'\'': '\''/dev/iolite-t0300-missing'\'' does not exist; iolite does not create files under /dev" err &&
	test $(wc -l <err) = 1 &&
	test_must_be_empty out &&
	test ! -e /dev/iolite-t0300-missing
'

test_expect_success 'nor a missing directory under /dev' '
	refuse --name=x --filename=/dev/iolite-t0300-dir/dax0.0 --size=1m \
		--rw=write &&
	grep "does not create files under /dev" err &&
	test ! -e /dev/iolite-t0300-dir
'

test_expect_success 'a job file error names the file and the option'"'"'s line' '
	cat >job.fio <<-EOF &&
	[global]
	size=1m

	[dax]
	filename=/dev/iolite-t0300-missing
	rw=randread
	EOF
	refuse job.fio &&
	grep "^iolite: job.fio:5: option '\''filename'\'': '\''/dev/iolite-t0300-missing'\'' does not exist" err
'

test_expect_success 'an option from [global] is named at its line there' '
	printf "[global]\ndirectory=nodir\nsize=64k\n\n[j]\nrw=write\n" >g.fio &&
	refuse g.fio &&
	grep "^iolite: g.fio:2: option '\''directory'\'': '\''nodir'\'' does not exist" err &&
	test ! -e nodir
'

test_expect_success 'a parent that is a regular file' '
	echo data >plain &&
	refuse --name=x --filename=plain/sub/f --size=64k --rw=write &&
	grep "option '\''filename'\'': cannot create '\''plain/sub/f'\'': '\''plain'\'' is not a directory" err &&
	test "$(cat plain)" = data
'

test_expect_success 'directory= must exist, as with fio' '
	refuse --name=x --directory=nodir --size=64k --rw=write &&
	grep "option '\''directory'\'': '\''nodir'\'' does not exist" err &&
	test ! -e nodir
'

test_expect_success 'allow_file_create=0 with a missing file' '
	refuse --name=x --filename=absent --size=64k --rw=read \
		--allow_file_create=0 &&
	grep "option '\''allow_file_create'\'': '\''absent'\'' does not exist and allow_file_create=0 forbids creating it" err &&
	test ! -e absent
'

test_expect_success 'a missing file needs size=' '
	refuse --name=x --filename=absent --rw=read &&
	grep "option '\''size'\'': '\''absent'\'' does not exist: size= is required" err &&
	test ! -e absent
'

test_expect_success 'a character device needs size=' '
	refuse --name=x --filename=/dev/zero --rw=read &&
	grep "'\''/dev/zero'\'' is a character device: size= is required" err
'

test_expect_success_if LOOP 'size beyond a block device' '
	dev=$(test_loop $TRASH_SHM/t0300.img 4M) &&
	refuse --name=x --filename=$dev --size=8m --rw=read &&
	"$IOLITE" --name=y --filename=$dev --rw=read --bs=64k \
		>ok.out 2>ok.err &&
	grep "option '\''size'\'': 8388608 bytes from offset 0 go beyond the end of block device '\''$dev'\'' (4194304 bytes)" err &&
	test_must_be_empty ok.err &&
	grep "total=64," ok.out
'

test_expect_success_if LOOP 'writes to a mounted device need allow_mounted_write=1' '
	dev=$(test_loop $TRASH_SHM/t0300m.img 8M) &&
	mkdir mnt &&
	{
		mkfs.ext4 -q $dev && mount $dev mnt &&
		refuse --name=x --filename=$dev --size=1m --rw=write &&
		"$IOLITE" --name=y --filename=$dev --size=1m --rw=read \
			>ok.out 2>ok.err
		rc=$?
		umount mnt
		test $rc = 0
	} &&
	grep "option '\''allow_mounted_write'\'': '\''$dev'\'' is mounted and the job writes to it" err &&
	test_must_be_empty ok.err
'

test_expect_success_if ODIRECT 'direct=1 with bs=1000' '
	refuse --name=x --filename=d1 --size=1m --rw=read --direct=1 \
		--bs=1000 &&
	grep "^iolite: .*option '\''bs'\'': 1000 is not a multiple of the logical block size [0-9]* of '\''d1'\'', required by direct=1$" err &&
	test ! -e d1
'

test_expect_success_if ODIRECT 'direct=1 with a misaligned offset' '
	refuse --name=x --filename=d1 --size=1m --rw=read --direct=1 \
		--offset=100 &&
	grep "option '\''offset'\'': 100 is not a multiple" err &&
	test ! -e d1
'

test_expect_success_if ODIRECT 'direct=1 with strided zones off the grid' '
	refuse --name=x --filename=d1 --size=256k --rw=read --direct=1 \
		--zonemode=strided --zonesize=32k --zoneskip=16KiB &&
	grep "option '\''zoneskip'\'': zones start every 48768 bytes (zonerange + zoneskip), not a multiple of the logical block size" err &&
	test ! -e d1 &&
	"$IOLITE" --name=x --filename=d1 --size=32k --rw=read --direct=1 \
		--zonemode=strided --zonesize=32k --zoneskip=16KiB \
		--output-format=terse >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'files are created at their size, directories too' '
	mkdir top &&
	"$IOLITE" --name=lay --directory=top --filename_format="a/b/\$jobname.\$filenum" \
		--nrfiles=2 --size=128k --rw=read --bs=4k >out 2>err &&
	test_must_be_empty err &&
	test -d top/a/b &&
	test $(stat -c %s top/a/b/lay.0) = 65536 &&
	test $(stat -c %s top/a/b/lay.1) = 65536
'

test_expect_success 'default names are jobname.clone.filenum' '
	mkdir names &&
	"$IOLITE" --name=n --directory=names --nrfiles=3 --numjobs=2 \
		--size=96k --rw=write --bs=4k >out 2>err &&
	test_must_be_empty err &&
	(cd names && ls) >actual &&
	printf "n.0.0\nn.0.1\nn.0.2\nn.1.0\nn.1.1\nn.1.2\n" >expect &&
	test_cmp expect actual &&
	test $(stat -c %s names/n.1.2) = 32768
'

test_expect_success 'several directories are used round-robin by clones' '
	mkdir rr1 rr2 &&
	"$IOLITE" --name=r --directory=rr1:rr2 --numjobs=3 --size=16k \
		--rw=write --bs=4k >out 2>err &&
	test -e rr1/r.0.0 && test -e rr2/r.1.0 && test -e rr1/r.2.0
'

test_expect_success 'an existing file without size= is used whole' '
	dd if=/dev/zero of=whole bs=4k count=10 2>/dev/null &&
	"$IOLITE" --name=w --filename=whole --rw=read --bs=4k >out 2>err &&
	test_must_be_empty err &&
	grep "total=10," out
'

test_expect_success 'a short file is extended' '
	printf abc >short &&
	"$IOLITE" --name=s --filename=short --size=64k --rw=read --bs=4k \
		>out 2>err &&
	test $(stat -c %s short) = 65536 &&
	test "$(head -c 3 short)" = abc
'

test_expect_success 'unlink=1 removes the files after the run' '
	mkdir ul &&
	"$IOLITE" --name=u --directory=ul --nrfiles=2 --size=32k \
		--rw=write --bs=4k --unlink=1 >out 2>err &&
	test_must_be_empty err &&
	test -z "$(ls ul)"
'

test_expect_success 'null creates nothing' '
	mkdir nul &&
	"$IOLITE" --name=z --directory=nul --ioengine=null --size=1m \
		--rw=write >out 2>err &&
	test_must_be_empty err &&
	test -z "$(ls nul)"
'

test_done

#!/bin/sh
# The file, offset, block size and per-I/O flag options of issue 15.7,
# checked on the I/O iolite issues (write_iolog) and its refusals; the
# side-by-side rows with fio are in t/sbs/fileopts.txt (t1870).
. "$(dirname "$0")/test-lib.sh"

# iolog_ops LOG: "action offset length" of each read, write and trim line
# of a write_iolog, the action of each sync line (file names may hold
# spaces: the fields are taken from the end)
iolog_ops() {
	awk '$(NF-2) ~ /^(read|write|trim)$/ { print $(NF-2), $(NF-1), $NF; next }
	     $NF ~ /^(sync|datasync|sync_file_range)$/ { print $NF }' "$1"
}

test_expect_success 'io_size=N% is a share of the regions' '
	"$IOLITE" --name=a --directory="$TRASH" --nrfiles=2 --filesize=256k \
		--io_size=25% --bs=4k --rw=write --ioengine=null \
		--write_iolog="$TRASH/a.log" >out &&
	test $(iolog_ops "$TRASH/a.log" | grep -c "^write") = 32
'

test_expect_success 'io_size above 100% is refused' '
	test_must_fail "$IOLITE" --name=a --directory="$TRASH" --size=1m \
		--io_size=101% --rw=write 2>err &&
	grep "option .io_size.: invalid percentage" err &&
	! ls "$TRASH"/a.0.0
'

test_expect_success 'offset_increment=N% and offset_align place each clone' '
	"$IOLITE" --name=p --filename="$TRASH/g" --size=1m --rw=write \
		--bs=64k >/dev/null &&
	"$IOLITE" --name=i --filename="$TRASH/g" --size=4k --numjobs=3 \
		--offset_increment=10% --offset_align=64k --bs=4k --rw=write \
		--write_iolog="$TRASH/i.log" >/dev/null &&
	iolog_ops "$TRASH/i.log" | sort -n -k2 >got &&
	printf "write %s 4096\n" 0 131072 262144 >want &&
	test_cmp want got
'

test_expect_success 'offset=N% is rounded up to the smallest block by default' '
	"$IOLITE" --name=o --filename="$TRASH/g" --size=4k --offset=10% \
		--bs=4k --rw=write --write_iolog="$TRASH/o.log" >/dev/null &&
	test "$(iolog_ops "$TRASH/o.log")" = "write 106496 4096"
'

test_done

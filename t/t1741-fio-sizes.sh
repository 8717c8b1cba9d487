#!/bin/sh
# filesize= with size= and offset= (issue 13, items 4 and 5): the files
# are filesize big, size= is only the default io_size (fio's HOWTO) and
# offset= moves the region's start inside the file, never its end. Each
# case checks iolite's issued counts and file sizes against fixed figures
# (what fio 3.33 does), and against fio itself where it is installed.
. "$(dirname "$0")/test-lib.sh"

# run DIR TOOL ARGS...: TOOL runs the job in DIR (created); DIR.issued
# holds the "issued rwts" counts summed over the jobs, DIR.sizes
# "name=bytes" of the files in DIR.
run() {
	d=$1 tool=$2
	shift 2
	mkdir "$d" &&
	(cd "$d" && "$tool" --output-format=normal "$@") >"$d.out" 2>"$d.err" &&
	sed -n "s/.*issued rwts: total=\([0-9,]*\) .*/\1/p" "$d.out" |
		awk -F, "{ for (i = 1; i <= 4; i++) s[i] += \$i }
			 END { print s[1] \",\" s[2] \",\" s[3] \",\" s[4] }" \
		>"$d.issued" &&
	(cd "$d" && for f in *; do
		printf "%s=%s\n" "$f" "$(stat -c %s "$f")"
	done) >"$d.sizes"
}

# check NAME ISSUED SIZES ARGS...: iolite issues ISSUED (R,W,T,S) and
# leaves the files SIZES ("a=1 b=2", sorted by name); fio too, where it
# is installed, unless SIZES starts with '~' (fio 3.33 leaves other file
# sizes there: see doc/compat.md), when only its counts must match.
check() {
	name=$1 want=$2 sizes=$3
	shift 3
	run "$name.i" "$IOLITE" --name=j --bs=4k "$@" &&
	echo "$want" >"$name.want" &&
	test_cmp "$name.want" "$name.i.issued" &&
	echo "${sizes#\~}" | tr ' ' '\n' >"$name.wsizes" &&
	test_cmp "$name.wsizes" "$name.i.sizes" &&
	if test_have_prereq FIO; then
		run "$name.f" fio --name=j --bs=4k "$@" &&
		test_cmp "$name.i.issued" "$name.f.issued" &&
		case $sizes in
		~*) ;;
		*) test_cmp "$name.i.sizes" "$name.f.sizes" ;;
		esac
	fi
}

test_expect_success 'filesize with size: size is the default io_size' '
	check a "0,128,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--size=512k &&
	check b "0,3,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--size=10000 &&
	check c "128,0,0,0" "j.0.0=1048576" --rw=randread --filesize=1m \
		--size=512k &&
	check d "0,128,0,0" "j.0.0=1048576 j.0.1=1048576" --rw=write \
		--filesize=1m --nrfiles=2 --size=512k
'

test_expect_success 'filesize with size beyond the files: no wrap, as without size' '
	check e "0,256,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--size=2m &&
	check f "0,256,0,0" "j.0.0=1048576" --rw=randwrite --norandommap \
		--filesize=1m --size=2m &&
	check g "0,512,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--io_size=2m
'

# the region is N% of the file, and a new file is laid out to the
# region's end only, as fio 3.33 and 3.42 do (512k, 100k; 64k + 256k);
# the random offsets stay inside it
test_expect_success 'filesize with size=N%: N% of each file, in whole blocks' '
	check h "0,128,0,0" "j.0.0=524288" --rw=write --filesize=1m \
		--size=50% &&
	check i "0,25,0,0" "j.0.0=102400" --rw=write --filesize=1m \
		--size=10% &&
	check i2 "0,64,0,0" "j.0.0=327680" --rw=randwrite --filesize=1m \
		--size=25% --offset=64k &&
	run i3 "$IOLITE" --name=j --bs=4k --rw=randwrite --filesize=1m \
		--size=25% --offset=64k --write_iolog=../i3.log &&
	awk "\$3 == \"write\" && (\$4 < 65536 || \$4 + \$5 > 327680)" \
		i3.log >outside &&
	test_must_be_empty outside &&
	test $(grep -c " write " i3.log) = 64
'

test_expect_success 'a filesize range with size: never more than size' '
	run r "$IOLITE" --name=j --bs=4k --rw=write --filesize=8k-32k \
		--nrfiles=4 --size=64k &&
	w=$(cut -d, -f2 r.issued) &&
	test "$w" -le 16 &&
	total=0 &&
	for s in $(sed "s/.*=//" r.sizes); do
		total=$((total + s))
	done &&
	test $((w * 4096)) -le "$total" &&
	for s in $(sed "s/.*=//" r.sizes); do
		test "$s" -ge 8192 && test "$s" -le 32768 || exit 1
	done
'

test_expect_success 'filesize with offset: the region ends at filesize' '
	check o1 "0,192,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--offset=256k &&
	check o2 "192,0,0,0" "j.0.0=1048576" --rw=read --filesize=1m \
		--offset=256k &&
	check o3 "0,128,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--offset=256k --size=512k &&
	check o4 "0,231,0,0" "j.0.0=1048576" --rw=write --filesize=1m \
		--offset=100000 &&
	check o5 "0,384,0,0" "j.0.0=1048576 j.0.1=1048576" --rw=write \
		--filesize=1m --offset=256k --nrfiles=2 &&
	check o6 "0,128,0,0" "j.0.0=786432" --rw=write --filesize=1m \
		--offset=256k --size=50%
'

test_expect_success 'filesize with offset_increment: each clone from its offset' '
	check inc "0,576,0,0" "f=1048576" --rw=write --filesize=1m \
		--offset_increment=256k --numjobs=3 --filename=f
'

# fio refuses an offset past the smallest size a filesize range allows
# ("you need to specify valid offset="), whatever the draw; a file that
# ends at the offset gets no I/O (a job with no other file: no I/O at
# all, which iolite refuses).
test_expect_success 'an offset at or past filesize is refused, nothing created' '
	mkdir past && (cd past &&
	printf "[j]\nrw=write\nfilesize=1m\noffset=1m\n" >job.fio &&
	test_must_fail "$IOLITE" job.fio >out 2>err &&
	grep "^iolite: job.fio:3: option .filesize.: the job could do no I/O: the region of .j.0.0. is 0 bytes, smaller than the block size 4096$" err &&
	test_path_is_missing j.0.0 &&
	test_must_fail "$IOLITE" --name=j --rw=write --filesize=1m \
		--offset=256k --offset_increment=512k --numjobs=3 \
		--filename=f 2>err2 &&
	grep "option .offset_increment.: 1310720 is beyond the end of .f. (filesize 1048576)$" err2 &&
	test_path_is_missing f &&
	test_must_fail "$IOLITE" --name=j --rw=write --filesize=16k-64k \
		--offset=20k --randseed=5 --bs=4k 2>err3 &&
	grep "option .offset.: 20480 is beyond the end of .j.0.0. (filesize range from 16384)$" err3 &&
	test_path_is_missing j.0.0)
'

test_expect_success 'a file of a filesize range that ends at the offset gets no I/O' '
	check fend "0,2,0,0" "j.0.0=16384 j.0.1=24576 j.0.2=24576" \
		--rw=write --bs=8k --size=64k --nrfiles=3 \
		--offset=16k --filesize=16k-32k --randseed=2
'

test_done

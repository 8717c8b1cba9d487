#!/bin/sh
# The workload side by side with fio 3.33 (issue 13 items 3, 6, 7; issue
# 15 item 1): random maps with mixed block sizes, skewed file service,
# offset modifiers at the end of the file and backwards. Each case runs
# iolite and checks figures derived from fio's behaviour; where fio is
# installed, the same job runs through fio and is held to the same
# figures, or compared exactly where the I/O is deterministic.
# (t1751-thinktime-fio.sh has thinktime with queue depth.)
. "$(dirname "$0")/test-lib.sh"

# ios_of LOG: the I/Os of a write_iolog as "file dir offset length" (fio's
# log, with or without times)
ios_of() {
	awk 'NF == 5 { $1 = $2; $2 = $3; $3 = $4; $4 = $5 }
	     $2 == "read" || $2 == "write" || $2 == "trim" {
		print $1, $2, $3, $4 }' "$1"
}

# seq TOOL LOG ARGS...: runs the tool on the null engine with write_iolog
# and prints its I/Os (ios_of)
seq_of() {
	tool=$1 log=$2
	shift 2
	rm -f "$log" &&
	"$tool" --ioengine=null --write_iolog="$log" "$@" >"$log.out" \
		2>"$log.err" &&
	test_must_be_empty "$log.err" &&
	ios_of "$log"
}

# Same as seq_of for a job file (no --ioengine).
seq_job() {
	tool=$1 log=$2
	shift 2
	rm -f "$log" &&
	"$tool" --write_iolog="$log" "$@" >"$log.out" 2>"$log.err" &&
	test_must_be_empty "$log.err" &&
	ios_of "$log"
}

# job_as_fio ARGS...: the job gives fio's I/O sequence
job_as_fio() {
	seq_job "$IOLITE" io.log "$@" >io.seq &&
	seq_job fio fio.log "$@" >fio.seq &&
	test_cmp fio.seq io.seq
}

# jobs_of TOOL JOB...: each JOB (the options of one job) runs as job jN of
# one TOOL command with its own write_iolog (one process: a fio costs
# 0.2 s of CPU to start); job N's I/Os go to T.N.seq, T io or fio
jobs_of() {
	tool=$1
	shift
	case $tool in fio) t=fio ;; *) t=io ;; esac
	n=0 args=
	for a in "$@"; do
		args="$args --name=j$n --write_iolog=$t.$n.log $a"
		n=$((n + 1))
	done
	rm -f $t.*.log &&
	"$tool" $args >$t.out 2>$t.err && test_must_be_empty $t.err &&
	i=0 && while [ $i -lt $n ]; do
		ios_of $t.$i.log >$t.$i.seq || return 1
		i=$((i + 1))
	done
}

# same_seqs N...: jobs N of jobs_of gave fio's I/O sequence
same_seqs() {
	for i in "$@"; do
		test -s fio.$i.seq && test_cmp fio.$i.seq io.$i.seq || return 1
	done
}

# jobs_as_fio JOB...: every job gives fio's I/O sequence (jobs_of)
jobs_as_fio() {
	jobs_of "$IOLITE" "$@" && jobs_of fio "$@" &&
	same_seqs $(seq 0 $(($# - 1)))
}

# ios_bytes SEQ: "I/Os bytes"
ios_bytes() {
	awk '{ n++; b += $4 } END { print n + 0, b + 0 }' "$1"
}

# coverage SEQ SIZE UNIT: how many UNIT-byte pieces of [0, SIZE) the I/Os
# cover once, more than once and never: "once multi none".
coverage() {
	awk -v size="$2" -v unit="$3" '
		{ for (o = $3; o < $3 + $4; o += unit) c[o / unit]++ }
		END { for (i = 0; i < size / unit; i++)
				if (c[i] == 1) one++; else if (c[i]) m++; else z++
		      print one + 0, m + 0, z + 0 }' "$1"
}

# passes SEQ SIZE UNIT: cuts the I/Os into passes of SIZE bytes; prints
# the passes in which every UNIT piece is covered exactly once, then the
# number of passes: equal when every whole pass covers the file once.
passes() {
	awk -v size="$2" -v unit="$3" '
		{ for (o = $3; o < $3 + $4; o += unit) c[o / unit]++
		  t += $4
		  if (t >= size) {
			ok = t == size
			for (i = 0; i < size / unit; i++)
				if (c[i] != 1) ok = 0
			good += ok; n++; t = 0; delete c } }
		END { print good + 0, n + 0 }' "$1"
}

# sizes SEQ: the lengths that occur, in KiB, sorted, on one line
sizes() {
	awk '{ print $4 / 1024 }' "$1" | sort -n | uniq | tr "\n" " " |
		sed "s/ $//"
}

# per_file SEQ: I/Os per file, by file index (the last dot-number)
per_file() {
	awk '{ f = $1; sub(/.*\./, "", f); c[f]++ }
	     END { for (f in c) print f, c[f] }' "$1" | sort -n
}

# skew SEQ: "I/Os hottest hottest+next" (next file, cyclically)
skew() {
	per_file "$1" | awk '{ c[$1] = $2; t += $2; n = $1 + 1 > n ? $1 + 1 : n }
		END { for (i = 0; i < 8; i++) if (c[i] > c[h]) h = i
		      print t, c[h], c[h] + c[(h + 1) % 8] }'
}

# --- 13.3: random maps with mixed block sizes ---------------------------

# A pass over 1 MiB with 4k-16k blocks: every byte once, 1048576 bytes,
# the four sizes, and as many I/Os as fio's rule gives: fio 3.33 issues
# 106-136 (119 with its default seed) over 40 seeds, iolite 113-139.
mixed_ok() {
	set -- $(ios_bytes "$1") $(coverage "$1" 1048576 4096) &&
	between "$1" 100 150 && test "$2" = 1048576 &&
	test "$3 $4 $5" = "256 0 0"
}

test_expect_success 'bsrange=4k-16k randwrite: every byte once, one pass' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite >io.seq &&
	mixed_ok io.seq &&
	test "$(sizes io.seq)" = "4 8 12 16"
'

test_expect_success_if FIO 'bsrange=4k-16k: fio 3.33 gives the same figures' '
	seq_of fio fio.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite >fio.seq &&
	mixed_ok fio.seq &&
	test "$(sizes fio.seq)" = "4 8 12 16"
'

# bssplit: the cut I/Os give sizes the split does not name (fio: 20k,
# 28k, 40k, 52k ...), all multiples of 4k up to 64k.
split_ok() {
	f=$1 &&
	set -- $(ios_bytes "$f") $(coverage "$f" 1048576 4096) &&
	between "$1" 30 80 && test "$2" = 1048576 &&
	test "$3 $4 $5" = "256 0 0" &&
	awk '$4 % 4096 || $4 > 65536 { exit 1 }' "$f" &&
	s=" $(sizes "$f") " &&
	for k in 4 8 64; do
		case "$s" in *" $k "*) ;; *) return 1 ;; esac
	done &&
	test -n "$(awk '$4 != 4096 && $4 != 8192 && $4 != 65536' "$f")"
}

test_expect_success 'bssplit randread: each byte once, cut sizes appear' '
	seq_of "$IOLITE" io.log --name=j --size=1m --rw=randread \
		--bssplit=4k/10:8k/40:64k/50 >io.seq &&
	split_ok io.seq &&
	awk "\$3 < 53248" io.seq | grep -q . &&
	awk "\$3 + \$4 > 1007616" io.seq | grep -q .
'

test_expect_success_if FIO 'bssplit randread: fio 3.33 alike' '
	seq_of fio fio.log --name=j --size=1m --rw=randread \
		--bssplit=4k/10:8k/40:64k/50 >fio.seq &&
	split_ok fio.seq
'

# 1k-7k: fio 313-357 I/Os over 40 seeds, iolite 316-360
test_expect_success 'bsrange=1k-7k: each KiB once' '
	seq_of "$IOLITE" io.log --name=j --size=1m --rw=randwrite \
		--bsrange=1k-7k >io.seq &&
	set -- $(ios_bytes io.seq) $(coverage io.seq 1048576 1024) &&
	between "$1" 300 380 && test "$2 $3 $4 $5" = "1048576 1024 0 0" &&
	test "$(sizes io.seq)" = "1 2 3 4 5 6 7"
'

test_expect_success 'randrw with bsrange: reads and writes share the map' '
	seq_of "$IOLITE" io.log --name=j --size=1m --rw=randrw \
		--bsrange=4k-16k >io.seq &&
	mixed_ok io.seq &&
	grep -q " read " io.seq && grep -q " write " io.seq
'

test_expect_success 'loops=3: the map starts over, each pass once' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite --loops=3 >io.seq &&
	test "$(passes io.seq 1048576 4096)" = "3 3"
'

test_expect_success 'time_based: every whole pass covers the file once' '
	seq_of "$IOLITE" io.log --name=j --size=256k --bsrange=4k-16k \
		--rw=randwrite --time_based --runtime=10ms >io.seq &&
	set -- $(passes io.seq 262144 4096) &&
	test "$2" -ge 3 && test "$1" = "$2"
'

test_expect_success 'norandommap: no map, blocks written more than once' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite --norandommap >io.seq &&
	set -- $(ios_bytes io.seq) $(coverage io.seq 1048576 4096) &&
	at_least "$2" 1048576 && test "$4" -gt 0 && test "$5" -gt 0 &&
	test "$(sizes io.seq)" = "4 8 12 16"
'

test_expect_success 'random_distribution=zipf: no map either (fio)' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite --random_distribution=zipf:1.2 >io.seq &&
	set -- $(coverage io.seq 1048576 4096) &&
	test "$2" -gt 0 && test "$3" -gt 64
'

test_expect_success 'percentage_random=50: runs go on, the map still used' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bsrange=4k-16k \
		--rw=randwrite --percentage_random=50 >io.seq &&
	set -- $(ios_bytes io.seq) &&
	between "$2" 1048576 1064960 &&
	awk "p == \$3 { n++ } { p = \$3 + \$4 } END { exit n < 20 }" io.seq
'

test_expect_success 'bssplit sizes are cut to a multiple of the smallest' '
	seq_of "$IOLITE" io.log --name=j --size=1m --rw=randwrite \
		--bssplit=4k/50:6k/50 >io.seq &&
	test "$(ios_bytes io.seq)" = "256 1048576" &&
	test "$(sizes io.seq)" = 4 &&
	seq_of "$IOLITE" io.log --name=j --size=4m --rw=write \
		--bssplit=3k/50:8k/50 >io.seq &&
	test "$(sizes io.seq)" = "3 6"
'

test_expect_success 'bsrange=3k-8k: 3k, 6k and 8k (fio: 3:3:2)' '
	seq_of "$IOLITE" io.log --name=j --size=4m --rw=write \
		--bsrange=3k-8k >io.seq &&
	test "$(sizes io.seq)" = "3 6 8" &&
	set -- $(awk "{ c[\$4 / 1024]++ } END { print c[3], c[6], c[8] }" \
		 io.seq) &&
	between "$1" 220 300 && between "$2" 220 300 &&
	between "$3" 170 250
'

test_expect_success_if FIO 'bssplit and bsrange sizes: fio 3.33 alike' '
	jobs_of fio "--ioengine=null --size=1m --rw=randwrite \
			--bssplit=4k/50:6k/50" \
		"--ioengine=null --size=4m --rw=write --bsrange=3k-8k" &&
	test "$(sizes fio.0.seq)" = 4 &&
	test "$(sizes fio.1.seq)" = "3 6 8"
'

# --- 13.6: file_service_type makes hot and cold files -----------------

# zipf:1.2 over 8 files of 1 MiB: the budget (2048 blocks) ends the job,
# one file takes most (fio 3.33: 77-91% over seeds) and the next one the
# tail (together 92-94%)
zipf_ok() {
	set -- $(skew "$1") &&
	test "$1" = 2048 && at_least "$2" 1536 && at_least "$3" 1843
}

for rw in randread read; do
	test_expect_success "file_service_type=zipf:1.2, $rw: a hot file" '
		seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m \
			--bs=4k --rw='$rw' --file_service_type=zipf:1.2 >io.seq &&
		zipf_ok io.seq
	'
	test_expect_success_if FIO "file_service_type=zipf:1.2, $rw: fio alike" '
		seq_of fio fio.log --name=m --nrfiles=8 --size=8m --bs=4k \
			--rw='$rw' --file_service_type=zipf:1.2 >fio.seq &&
		zipf_ok fio.seq
	'
done

test_expect_success 'zipf, rw=read: the hot file is read again from 0' '
	seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m --bs=4k \
		--rw=read --file_service_type=zipf:1.2 >io.seq &&
	hot=$(per_file io.seq | sort -k2n | tail -n 1 | cut -d" " -f1) &&
	awk -v f="m.0.$hot" "\$1 == f { if (\$3 != n % 256 * 4096) exit 1
					n++ }" io.seq
'

# pareto:0.2: fio 55-75% on one file, with the next 75-82%
pareto_ok() {
	set -- $(skew "$1") &&
	test "$1" = 2048 && at_least "$2" 1024 && at_least "$3" 1434
}

test_expect_success 'file_service_type=pareto:0.2: skewed' '
	seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m --bs=4k \
		--rw=randread --file_service_type=pareto:0.2 >io.seq &&
	pareto_ok io.seq
'

test_expect_success_if FIO 'file_service_type=pareto:0.2: fio alike' '
	seq_of fio fio.log --name=m --nrfiles=8 --size=8m --bs=4k \
		--rw=randread --file_service_type=pareto:0.2 >fio.seq &&
	pareto_ok fio.seq
'

# normal:50 (fio: 9 124 377 544 496 367 126 5) and gauss, that is
# normal:0 (fio: 0 1 146 895 884 121 1 0): a bell on files 3 and 4
bell_ok() {
	per_file "$1" | awk -v dev="$2" '{ c[$1] = $2; t += $2 }
		END { mid = c[3] + c[4]; four = mid + c[2] + c[5]
		      if (t != 2048) exit 1
		      if (dev) exit !(four > 1638 && c[0] + c[7] < 82 &&
				     c[1] && c[6])
		      exit !(mid > 1638 && !c[0] && !c[7]) }'
}

for fst in normal:50 gauss; do
	dev=${fst#*:}
	[ "$dev" = gauss ] && dev=0
	test_expect_success "file_service_type=$fst: the middle files" '
		seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m \
			--bs=4k --rw=randread --file_service_type='$fst' \
			>io.seq &&
		bell_ok io.seq '$dev'
	'
	test_expect_success_if FIO "file_service_type=$fst: fio alike" '
		seq_of fio fio.log --name=m --nrfiles=8 --size=8m --bs=4k \
			--rw=randread --file_service_type='$fst' >fio.seq &&
		bell_ok fio.seq '$dev'
	'
done

test_expect_success 'openfiles=2 with zipf: two files, one of them hot' '
	seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m --bs=4k \
		--rw=randread --file_service_type=zipf:1.2 --openfiles=2 \
		>io.seq &&
	test "$(per_file io.seq | wc -l)" = 2 &&
	set -- $(skew io.seq) && test "$1" = 2048
'

test_expect_success 'roundrobin, sequential, random: every file in full' '
	for fst in roundrobin roundrobin:4 sequential random random:4; do
		seq_of "$IOLITE" io.log --name=m --nrfiles=8 --size=8m \
			--bs=4k --rw=randread --file_service_type=$fst \
			>io.seq &&
		test "$(per_file io.seq | awk "{ print \$2 }" | uniq)" = 256 ||
		return 1
	done
'

test_expect_success_if FIO 'roundrobin:4 and sequential: fio'"'"'s sequence' '
	j="--ioengine=null --nrfiles=4 --size=256k --bs=4k --rw=read" &&
	jobs_as_fio "$j --file_service_type=roundrobin:4" \
		"$j --file_service_type=sequential"
'

# --- 13.7: offset modifiers at the end of the file ----------------------

# rw=write:4k, bs=8k over 1 MiB: the next write would cross the end at
# 1044480, so the job ends after 85 (fio 3.33: 85, 696320 bytes)
test_expect_success 'rw=write:4k: ends where the next block would cross' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bs=8k --rw=write:4k \
		>io.seq &&
	test "$(ios_bytes io.seq)" = "85 696320" &&
	awk "\$3 != (NR - 1) * 12288 { exit 1 }" io.seq &&
	test "$(tail -n 1 io.seq | cut -d" " -f3)" = 1032192
'

test_expect_success 'rw=read:512k, bs=1m over 128m: 85 reads' '
	seq_of "$IOLITE" io.log --name=j --size=128m --bs=1m \
		--rw=read:512k >io.seq &&
	test "$(ios_bytes io.seq)" = "85 89128960"
'

test_expect_success 'a step past the end of the file wraps (write:8k)' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bs=8k --rw=write:8k \
		>io.seq &&
	test "$(ios_bytes io.seq)" = "128 1048576" &&
	test "$(sed -n 65p io.seq | cut -d" " -f3)" = 0
'

test_expect_success 'loops=2: each loop ends at the same place (170)' '
	seq_of "$IOLITE" io.log --name=j --size=1m --bs=8k --rw=write:4k \
		--loops=2 >io.seq &&
	test "$(ios_bytes io.seq)" = "170 1392640" &&
	test "$(sed -n 86p io.seq | cut -d" " -f3)" = 0
'

test_expect_success 'a region at an offset: holes do not wrap (fio 3.33)' '
	dd if=/dev/zero of=f320 bs=1k count=320 2>/dev/null &&
	seq_job "$IOLITE" io.log --name=j --filename=f320 --offset=256k \
		--size=64k --bs=4k --rw=write:4k >io.seq &&
	test "$(ios_bytes io.seq)" = "8 32768" &&
	test "$(tail -n 1 io.seq | cut -d" " -f3)" = 319488
'

test_expect_success_if FIO 'offset modifiers at the end: fio'"'"'s sequences' '
	n="--ioengine=null" &&
	jobs_as_fio "$n --size=1m --bs=8k --rw=write:4k" \
		"$n --size=1m --bs=8k --rw=write:4k --loops=2" \
		"$n --size=1m --bs=8k --rw=write:8k" \
		"$n --size=1m --bs=8k --rw=read:12k" \
		"$n --size=1000k --bs=8k --rw=write:4k" \
		"$n --size=128m --bs=1m --rw=read:512k" \
		"$n --size=64k --io_size=48k --bs=4k --rw=read --loops=2" \
		"--filename=f320 --offset=256k --size=64k --bs=4k --rw=write:4k"
'

# --- 15.1: negative offset modifiers (reading backwards) ----------------

# fio's examples/backwards-read.fio (Debian fio-examples 3.33), with 8m
# instead of 128m: the first read at 0, then from the end down by 4k
# (8k back from the end of each read), wrapping to the end below 0
cat >"$TRASH/backwards-read.fio" <<EOF
# examples/backwards-read.fio of fio 3.33, size 8m instead of 128m
[backwards-read]
bs=4k
# seek -8k back for every IO
rw=read:-8k
filename=bw.dat
size=8m
EOF

test_expect_success 'backwards-read.fio: 0, then down from the end' '
	seq_job "$IOLITE" io.log backwards-read.fio >io.seq &&
	test "$(ios_bytes io.seq)" = "2048 8388608" &&
	awk "NR == 1 && \$3 != 0 { exit 1 }
	     NR > 1 && \$3 != 8388608 - 8192 - (NR - 2) * 4096 { exit 1 }" \
		io.seq
'

test_expect_success_if FIO 'backwards-read.fio: fio'"'"'s sequence' '
	job_as_fio backwards-read.fio
'

# fio's examples/butterfly.fio: a forward and a backward reader in a flow
cat >"$TRASH/butterfly.fio" <<EOF
# examples/butterfly.fio of fio 3.33, on a 1 MiB file here, a log each,
# buffered (direct=1 dropped: the sequence is the same)
[global]
filename=bf.dat
bs=4k

[forward]
rw=read
flow=2
write_iolog=forward.log

[backward]
rw=read:-8k
flow=2
write_iolog=backward.log
EOF

# per-job sequences of the butterfly run by $1 into $2.forward/.backward
butterfly() {
	dd if=/dev/zero of=bf.dat bs=64k count=16 2>/dev/null &&
	rm -f forward.log backward.log &&
	"$1" butterfly.fio >bf.out 2>bf.err && test_must_be_empty bf.err &&
	for j in forward backward; do
		awk "NF == 5 && \$3 == \"read\" { print \$4, \$5 }" $j.log \
			>$2.$j || return 1
	done
}

test_expect_success 'butterfly.fio: forward up, backward down' '
	butterfly "$IOLITE" io &&
	test $(wc -l <io.forward) = 256 && test $(wc -l <io.backward) = 256 &&
	awk "\$1 != (NR - 1) * 4096 { exit 1 }" io.forward &&
	awk "NR == 1 && \$1 != 0 { exit 1 }
	     NR > 1 && \$1 != 1048576 - 8192 - (NR - 2) * 4096 { exit 1 }" \
		io.backward
'

test_expect_success_if FIO 'butterfly.fio: fio'"'"'s sequence per job' '
	butterfly fio fio &&
	test_cmp fio.forward io.forward && test_cmp fio.backward io.backward
'

test_expect_success 'backwards with loops=2: the second loop goes on' '
	seq_of "$IOLITE" io.log --name=j --size=64k --bs=4k --rw=read:-8k \
		--loops=2 >io.seq &&
	awk "{ printf \"%d \", \$3 / 1024 }" io.seq >actual &&
	printf "0 56 52 48 44 40 36 32 28 24 20 16 12 8 4 0 " >expect &&
	printf "56 52 48 44 40 36 32 28 24 20 16 12 8 4 0 56 " >>expect &&
	test_cmp expect actual
'

# offset_increment: the second job's region [256k, 512k) starts at its
# start, then goes down from 504k (fio 3.33)
test_expect_success 'backwards with offset_increment: each job its region' '
	seq_of "$IOLITE" io.log --name=j --size=256k --numjobs=2 \
		--offset_increment=256k --bs=4k --rw=read:-8k >io.seq &&
	awk "\$3 < 262144" io.seq >io.job0 &&
	awk "\$3 >= 262144" io.seq >io.job1 &&
	test $(wc -l <io.job0) = 64 && test $(wc -l <io.job1) = 64 &&
	awk "NR == 1 && \$3 != 262144 { exit 1 }
	     NR > 1 && \$3 != 524288 - 8192 - (NR - 2) * 4096 { exit 1 }" \
		io.job1
'

test_expect_success 'backwards from an offset: as fio 3.33 steps it' '
	dd if=/dev/zero of=f1m bs=64k count=16 2>/dev/null &&
	seq_job "$IOLITE" io.log --name=j --filename=f1m --offset=256k \
		--size=512k --bs=4k --rw=read:-8k >io.seq &&
	test "$(head -n 1 io.seq | cut -d" " -f3)" = 516096 &&
	test "$(sed -n 63p io.seq | cut -d" " -f3)" = 262144 &&
	test "$(sed -n 64p io.seq | cut -d" " -f3)" = 778240
'

test_expect_success 'rw=rw:-8k: each direction goes backwards' '
	seq_of "$IOLITE" io.log --name=j --size=64k --bs=4k --rw=rw:-8k \
		>io.seq &&
	for d in read write; do
		awk -v d=$d "\$2 == d { print \$3 / 1024 }" io.seq | head -n 3 |
			tr "\n" " " >actual &&
		printf "0 56 52 " >expect && test_cmp expect actual || return 1
	done
'

test_expect_success_if FIO 'backwards: fio'"'"'s sequences' '
	n="--ioengine=null --bs=4k" f="--filename=f1m --bs=4k --rw=read:-8k" &&
	set -- "$n --size=64k --rw=read:-8k --loops=2" \
		"$n --size=64k --rw=write:-8k" \
		"$n --size=1m --rw=read:-12k" \
		"$n --size=1m --rw=read:-3k" \
		"$n --size=1m --rw=read:-1000k" \
		"$f --offset=256k --size=512k" "$f --offset=512k --size=256k" \
		"$f --offset=256k --size=64k --loops=2" \
		"$n --size=64k --rw=rw:-8k" &&
	jobs_of "$IOLITE" "$@" && jobs_of fio "$@" &&
	same_seqs 0 1 2 3 4 5 6 7 &&
	for d in read write; do
		awk -v d=$d "\$2 == d" io.8.seq | head -n 3 >io.h &&
		awk -v d=$d "\$2 == d" fio.8.seq | head -n 3 >fio.h &&
		test_cmp fio.h io.h || return 1
	done
'

# strided zones: each zone is stepped as a file of its own (fio 3.33
# leaves the zone, reading 248k over and over: not followed)
test_expect_success 'backwards in strided zones: inside each zone' '
	seq_of "$IOLITE" io.log --name=j --size=256k --bs=4k --rw=read:-8k \
		--zonemode=strided --zonesize=16k --zoneskip=48k >io.seq &&
	awk "{ printf \"%d \", \$3 / 1024 }" io.seq | cut -d" " -f1-16 \
		>actual &&
	echo "0 8 4 0 64 72 68 64 128 136 132 128 192 200 196 192" >expect &&
	test_cmp expect actual
'

test_expect_success 'a negative modifier on a random mode is refused' '
	test_must_fail "$IOLITE" --name=j --size=1m --rw=randread:-8 \
		--ioengine=null >out 2>err &&
	grep "option .rw.: modifier .-8.: a negative offset modifier needs a sequential mode" err &&
	test_must_be_empty out
'

test_expect_success 'rw=read:-8k shows as read:-8192 in --parse-only' '
	"$IOLITE" --name=j --rw=read:-8k --size=1m --parse-only >out &&
	grep -q "rw=read:-8192" out
'

test_done

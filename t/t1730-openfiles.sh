#!/bin/sh
# openfiles (only that many of the job's files open at once, opened and
# closed as the workload moves on) and lockfile (exclusive, readwrite:
# I/O to a file shared by jobs is serialised), seen in the syscalls.
. "$(dirname "$0")/test-lib.sh"


# max_open TRACE PREFIX: the most files under PREFIX open at once.
max_open() {
	python3 - "$1" "$2" <<'PY'
import re, sys
fds, most = {}, 0
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) +openat\(AT_FDCWD, \"([^\"]*)\".* = (\d+)$", line)
    if m and m.group(2).startswith(sys.argv[2]):
        fds[(m.group(1), m.group(3))] = 1
        most = max(most, len(fds))
        continue
    m = re.match(r"(\d+) +close\((\d+)\) += 0", line)
    if m:
        for k in list(fds):
            if k[1] == m.group(2):
                del fds[k]
print(most)
PY
}

# overlaps TRACE: how many pread64/pwrite64 of one thread ran while one
# of another thread did (strace -f -ttt -T). The tracer records a
# syscall's exit before the thread can release its lock, so under a lock
# the intervals cannot overlap.
overlaps() {
	python3 - "$1" "$2" <<'PY'
import re, sys
opened, iv = {}, []
want = sorted(sys.argv[2].split(","))
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) +([\d.]+) (.*)$", line)
    if not m:
        continue
    pid, ts, rest = m.group(1), float(m.group(2)), m.group(3)
    if "unfinished" in rest and rest.split("(")[0] in ("pread64", "pwrite64"):
        opened[pid] = (ts, rest.split("(")[0])
    elif "resumed>" in rest and pid in opened:
        s, name = opened.pop(pid)
        iv.append((s, ts, pid, name))
    else:
        name = rest.split("(")[0]
        d = re.search(r"<([\d.]+)>$", rest)
        if name in ("pread64", "pwrite64") and d:
            iv.append((ts, ts + float(d.group(1)), pid, name))
iv.sort()
n = 0
for i, a in enumerate(iv):
    for b in iv[i + 1:]:
        if b[0] >= a[1]:
            break
        if b[2] != a[2] and sorted([a[3], b[3]]) == want:
            n += 1
print(n)
PY
}

test_expect_success 'openfiles=2 of 8, roundrobin: every file written in full' '
	mkdir d &&
	"$IOLITE" --name=j --directory=d --nrfiles=8 --openfiles=2 \
		--file_service_type=roundrobin --size=2m --bs=4k --rw=write \
		--buffer_pattern=0x77 >out 2>err &&
	test_must_be_empty err &&
	for i in 0 1 2 3 4 5 6 7; do
		test "$(tr -d "\\167" <d/j.0.$i | wc -c)" = 0 &&
		test "$(wc -c <d/j.0.$i)" = 262144 || return 1
	done
'

test_expect_success_if STRACE,PYTHON3,LIBAIO 'openfiles=2 of 8: never more than 2 open, all 8 opened' '
	strace -f -o trace -e trace=openat,close "$IOLITE" --name=j \
		--directory=d --nrfiles=8 --openfiles=2 \
		--file_service_type=roundrobin --size=2m --bs=4k --rw=randread \
		--ioengine=libaio --iodepth=4 >out 2>err &&
	test "$(max_open trace d/j.0.)" = 2 &&
	test "$(grep -c "openat(.*d/j\.0\.[0-7]\"" trace)" -ge 8 &&
	grep -q "read: IOPS" out
'

test_expect_success_if STRACE,PYTHON3 'without openfiles all 8 are open at once' '
	strace -f -o trace -e trace=openat,close "$IOLITE" --name=j \
		--directory=d --nrfiles=8 --size=2m --bs=4k --rw=read >out &&
	test "$(max_open trace d/j.0.)" = 8
'

test_expect_success_if STRACE,PYTHON3 'lockfile=exclusive: two jobs on a file never overlap' '
	strace -f -ttt -T -o trace -e trace=pread64,pwrite64 "$IOLITE" \
		--filename=shared --size=512k --bs=4k --lockfile=exclusive \
		--name=a --rw=randwrite --name=b --rw=randread --iodepth=1 \
		>out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c pwrite64 trace)" -ge 128 &&
	test "$(grep -c pread64 trace)" -ge 128 &&
	test "$(overlaps trace pread64,pwrite64)" = 0 &&
	test "$(overlaps trace pwrite64,pwrite64)" = 0
'

test_expect_success_if STRACE,PYTHON3,LIBAIO 'lockfile=readwrite: a write never overlaps a read' '
	strace -f -ttt -T -o trace -e trace=pread64,pwrite64 "$IOLITE" \
		--filename=shared --size=512k --bs=4k --lockfile=readwrite \
		--name=a --rw=randwrite --name=b --rw=randread \
		--name=c --rw=randread --ioengine=libaio --iodepth=4 \
		>out 2>err || return 1
	test_must_be_empty err &&
	test "$(overlaps trace pread64,pwrite64)" = 0
'

test_expect_success_if LIBAIO 'lockfile=readwrite: readers and a writer, depth 8, all done' '
	timeout 60 "$IOLITE" --filename=shared --size=1m --bs=4k \
		--lockfile=readwrite --ioengine=libaio --iodepth=8 \
		--name=a --rw=randwrite --name=b --rw=randread \
		--name=c --rw=randread --output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "\"io_bytes\" : 1048576" out.json)" = 3
'

test_expect_success_if LIBAIO 'lockfile=exclusive, time based with SIGINT: no hang' '
	timeout 60 "$IOLITE" --filename=shared --size=1m --bs=4k \
		--lockfile=exclusive --time_based --runtime=20 \
		--name=a --rw=randwrite --name=b --rw=randread --iodepth=4 \
		--ioengine=libaio >out 2>err &
	pid=$! &&
	sleep 1 &&
	kill -s INT $pid &&
	{ wait $pid; echo $? >rc; } &&
	test "$(cat rc)" = 130
'

# as fio: openfiles binds the write phase; the read-back opens each file
# as it reaches it and keeps it open (layout, write, read-back: 3 opens)
test_expect_success_if STRACE,PYTHON3 'openfiles=2 of 8 with verify: the read-back opens all 8' '
	mkdir v &&
	strace -f -o trace -e trace=openat,close "$IOLITE" --name=j \
		--directory=v --nrfiles=8 --openfiles=2 --size=2m --bs=4k \
		--rw=write --verify=crc32c --verify_state_save=0 >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "openat(.*v/j\.0\.[0-7]\"" trace)" = 24 &&
	test "$(max_open trace v/j.0.)" = 8 &&
	grep -q "read: IOPS" out
'

test_done

#!/bin/sh
# A submission the kernel turns away for now (EAGAIN: no memory for the
# requests, or EBUSY: its completion ring overflowing) is made again, as
# fio makes it, and the job ends with all its I/O done. A preloaded
# wrapper of liburing's submits and libaio's io_submit() says EAGAIN to
# some calls: the first (nothing in flight, so a wait for completions
# before submitting again would never end) or every third. io_uring's
# entries are left in the ring as the kernel leaves them (flushed, not
# taken). `timeout` only keeps a hang from stopping the suite: the
# checks are the exit status and the counts.
. "$(dirname "$0")/test-lib.sh"

cat >"$TRASH/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <libaio.h>
#include <liburing.h>

static unsigned long calls;

/* SHIM_EAGAIN=first: the first call; =3: every third */
static int refuse(void)
{
	const char *how = getenv("SHIM_EAGAIN");
	unsigned long n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);

	if (!how)
		return 0;
	if (!strcmp(how, "first"))
		return n == 1;
	return n % strtoul(how, NULL, 10) == 0;
}

/* what the kernel leaves: the entries in the ring, not taken */
static int uring_refuse(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;

	sq->sqe_head = sq->sqe_tail;
	io_uring_smp_store_release(sq->ktail, sq->sqe_tail);
	return -EAGAIN;
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int io_uring_submit(struct io_uring *ring)
{
	return refuse() ? uring_refuse(ring) : NEXT(io_uring_submit)(ring);
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned int n)
{
	return refuse() ? uring_refuse(ring) :
	       NEXT(io_uring_submit_and_wait)(ring, n);
}

int io_uring_submit_and_get_events(struct io_uring *ring)
{
	return refuse() ? uring_refuse(ring) :
	       NEXT(io_uring_submit_and_get_events)(ring);
}

int io_submit(io_context_t ctx, long nr, struct iocb *ios[])
{
	return refuse() ? -EAGAIN : NEXT(io_submit)(ctx, nr, ios);
}
EOF
sed -i 's/#include <stdlib.h>/#include <stdlib.h>\n#include <string.h>/' "$TRASH/shim.c"
${CC:-cc} -O2 -shared -fPIC -o "$TRASH/shim.so" "$TRASH/shim.c" -ldl \
	>"$TRASH/shim.log" 2>&1 ||
	shim_skip="${CC:-cc} did not build the submit wrapper (liburing-dev, libaio-dev, gcc): $(head -n 1 "$TRASH/shim.log")"

# run ENGINE HOW ARGS...: 256 4k writes through the wrapper
run() {
	engine=$1 how=$2
	shift 2
	rm -f e.f &&
	SHIM_EAGAIN=$how LD_PRELOAD="$TRASH/shim.so" timeout -k 10 120 \
		"$IOLITE" --name=j --filename=e.f --size=1m --bs=4k \
		--rw=randwrite --ioengine="$engine" --output-format=json \
		"$@" >out.json 2>err &&
	test_must_be_empty err &&
	grep -q "\"total_ios\" *: *256" out.json
}

# depth 1, or a batch that fills the queue: the worker waits for a
# completion right after the commit (iolite before the fix: for ever,
# and SIGTERM did not end it)
test_skip_reason=${shim_skip:-}
test_skip_unless IO_URING
test_expect_success 'io_uring: the first submit says EAGAIN at depth 1' '
	run io_uring first --iodepth=1
'
test_expect_success 'io_uring: the first submit of a full queue says EAGAIN' '
	run io_uring first --iodepth=4 --iodepth_batch_submit=4
'
test_expect_success 'io_uring: every third submit says EAGAIN' '
	run io_uring 3 --iodepth=4 --iodepth_batch_submit=2
'
test_expect_success 'io_uring: submit_and_wait says EAGAIN' '
	run io_uring first --iodepth=4 --iodepth_batch_submit=4 \
		--submit_and_wait=1
'

# fio 3.33: a libaio EAGAIN with nothing in flight is tried again (for
# 30 s at most); iolite made it the job's error before
test_skip_reason=${shim_skip:-}
test_skip_unless LIBAIO
test_expect_success 'libaio: the first io_submit says EAGAIN at depth 1' '
	run libaio first --iodepth=1
'
test_expect_success 'libaio: every third io_submit says EAGAIN' '
	run libaio 3 --iodepth=4 --iodepth_batch_submit=2
'

test_done

/* SPDX-License-Identifier: MIT */
/*
 * The floor for bench/limit.sh: the least a tester can do to keep a
 * device busy with 4 KiB random reads, with no statistics at all: the
 * system calls a good tester makes and nothing else (issue 26).
 *
 *   minimal TARGET MODE [IODEPTH [BATCH [BS [SECONDS [DIRECT]]]]]
 *
 * TARGET is a block device or a file; MODE is one of
 *
 *   io_uring        IORING_OP_READ (not readv: one buffer, no iovec)
 *   io_uring_fixed  IORING_OP_READ_FIXED on registered buffers, the file
 *                   registered too (IOSQE_FIXED_FILE)
 *   aio             libaio: io_submit() of the batch, then
 *                   io_getevents(min = BATCH, max = BATCH)
 *   aio_reap        the same, but completions are taken from the ring
 *                   the kernel maps into the process when it already
 *                   holds BATCH of them, io_getevents() otherwise
 *   psync           pread(2) at iodepth 1 (IODEPTH and BATCH unused)
 *
 * Defaults: iodepth 32, batch 8, bs 4096, 3 seconds, direct 0. Offsets
 * are random multiples of BS over the target's size (xorshift64, with
 * repeats, as fio's norandommap). io_uring's ring asks for
 * SINGLE_ISSUER|DEFER_TASKRUN, then COOP_TASKRUN, then nothing, and its
 * fd is registered; each round is one io_uring_enter() that submits the
 * reads the last round reaped and waits for BATCH completions, then up
 * to BATCH CQEs are read in one pass (as t/io_uring -sBATCH -cBATCH, or
 * fio's iodepth_batch_submit = iodepth_batch_complete_min/max = BATCH).
 *
 * Prints "mode=M iops=N ios=N cpu_s=N secs=N" and, for io_uring, the
 * task-work mode the kernel took. ios counts the reads completed before
 * the time ran out (those still in flight are then reaped, uncounted);
 * cpu_s is the process's user + system time (getrusage), setup included.
 *
 * Build with -DHAVE_LIBURING=1 -luring and/or -DHAVE_LIBAIO=1 -laio for
 * the modes that need them; bench/limit.sh does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif

struct bench {
	const char *mode;
	int fd;
	unsigned int depth, batch;
	uint64_t bs, nblocks, rand;
	char *bufs;			/* depth buffers of bs bytes */
	double secs, t0, elapsed;
	unsigned long long ios;
	const char *note;		/* printed after the figures */
};

static void die(const char *what, int err)
{
	fprintf(stderr, "minimal: %s: %s\n", what, strerror(err));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static uint64_t next_offset(struct bench *b)
{
	uint64_t x = b->rand;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	b->rand = x;
	return (x % b->nblocks) * b->bs;
}

static char *buf_of(struct bench *b, unsigned int slot)
{
	return b->bufs + (size_t)slot * b->bs;
}

/* Reads are b->bs bytes at bs-aligned offsets inside the target. */
static void check_read(long res, const struct bench *b)
{
	if (res < 0)
		die("read", (int)-res);
	if ((uint64_t)res != b->bs) {
		fprintf(stderr, "minimal: short read: %ld of %llu bytes\n",
			res, (unsigned long long)b->bs);
		exit(1);
	}
}

/* The clock once per round of BATCH completions: a vDSO call, no more. */
static int time_is_up(struct bench *b)
{
	b->elapsed = now() - b->t0;
	return b->elapsed >= b->secs;
}

/* --- io_uring ----------------------------------------------------------- */

#ifdef HAVE_LIBURING
#ifdef IORING_SETUP_DEFER_TASKRUN	/* liburing 2.3 and later */
static const unsigned int taskrun_modes[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};
static const char *const taskrun_names[] = {
	"defer_taskrun", "coop_taskrun", "default",
};
#else
static const unsigned int taskrun_modes[] = { 0 };
static const char *const taskrun_names[] = { "default" };
#endif

static void uring_setup(struct bench *b, struct io_uring *ring, int fixed)
{
	struct io_uring_params p;
	unsigned int i;
	int ret;

	for (i = 0;; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = taskrun_modes[i];
		ret = io_uring_queue_init_params(b->depth, ring, &p);
		if (ret != -EINVAL || !taskrun_modes[i])
			break;
	}
	if (ret < 0)
		die("io_uring_queue_init_params", -ret);
	b->note = taskrun_names[i];
#ifdef IORING_SETUP_DEFER_TASKRUN
	if (io_uring_register_ring_fd(ring) != 1)
		die("io_uring_register_ring_fd", EINVAL);
#endif
	if (fixed) {
		struct iovec *iov = calloc(b->depth, sizeof(*iov));

		if (!iov)
			die("calloc", ENOMEM);
		for (i = 0; i < b->depth; i++) {
			iov[i].iov_base = buf_of(b, i);
			iov[i].iov_len = b->bs;
		}
		ret = io_uring_register_buffers(ring, iov, b->depth);
		if (ret < 0)
			die("io_uring_register_buffers", -ret);
		free(iov);
		ret = io_uring_register_files(ring, &b->fd, 1);
		if (ret < 0)
			die("io_uring_register_files", -ret);
	}
}

/* One SQE reading into buffer SLOT (its user_data too). */
static void uring_prep(struct bench *b, struct io_uring *ring,
		       unsigned int slot, int fixed)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (fixed) {
		io_uring_prep_read_fixed(sqe, 0, buf_of(b, slot),
					 (unsigned int)b->bs, next_offset(b),
					 (int)slot);
		sqe->flags |= IOSQE_FIXED_FILE;
	} else {
		io_uring_prep_read(sqe, b->fd, buf_of(b, slot),
				   (unsigned int)b->bs, next_offset(b));
	}
	sqe->user_data = slot;
}

/*
 * Reaps up to MAX CQEs in one pass, re-preparing each slot unless
 * stopping. MAX is BATCH while running, as iodepth_batch_complete_max
 * bounds a tester's reaps: more per pass would be fewer system calls
 * than the job asks for.
 */
static unsigned int uring_reap(struct bench *b, struct io_uring *ring,
			       struct io_uring_cqe **cqes, unsigned int max,
			       int fixed, int again)
{
	unsigned int i, n = io_uring_peek_batch_cqe(ring, cqes, max);

	for (i = 0; i < n; i++) {
		check_read(cqes[i]->res, b);
		if (again)
			uring_prep(b, ring, (unsigned int)cqes[i]->user_data,
				   fixed);
	}
	io_uring_cq_advance(ring, n);
	return n;
}

static void run_uring(struct bench *b, int fixed)
{
	struct io_uring_cqe **cqes = calloc(b->depth, sizeof(*cqes));
	unsigned int i, inflight = 0;
	struct io_uring ring;
	int ret;

	if (!cqes)
		die("calloc", ENOMEM);
	uring_setup(b, &ring, fixed);
	for (i = 0; i < b->depth; i++)
		uring_prep(b, &ring, i, fixed);
	b->t0 = now();
	for (;;) {
		unsigned int want = inflight + io_uring_sq_ready(&ring);

		want = want < b->batch ? want : b->batch;
		ret = io_uring_submit_and_wait(&ring, want);
		if (ret < 0)
			die("io_uring_submit_and_wait", -ret);
		inflight += (unsigned int)ret;
		if (time_is_up(b))
			break;
		ret = (int)uring_reap(b, &ring, cqes, b->batch, fixed, 1);
		inflight -= (unsigned int)ret;
		b->ios += (unsigned int)ret;
	}
	while (inflight) {
		inflight -= uring_reap(b, &ring, cqes, b->depth, fixed, 0);
		if (inflight && (ret = io_uring_submit_and_wait(&ring, 1)) < 0)
			die("io_uring_submit_and_wait", -ret);
	}
	io_uring_queue_exit(&ring);
	free(cqes);
}
#endif

/* --- libaio ------------------------------------------------------------- */

#ifdef HAVE_LIBAIO
/*
 * The completion ring the kernel maps at the address io_setup() returns
 * as the io_context_t: kernel ABI, struct aio_ring in fs/aio.c.
 */
struct aio_user_ring {
	unsigned int id, nr, head, tail;
	unsigned int magic, compat_features, incompat_features;
	unsigned int header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1

/* Takes up to MAX events from the user-space ring if it holds MIN. */
static int aio_ring_reap(io_context_t ctx, struct io_event *ev,
			 unsigned int min, unsigned int max)
{
	struct aio_user_ring *r = (struct aio_user_ring *)ctx;
	unsigned int head = r->head, tail, n = 0;

	if (r->magic != AIO_RING_MAGIC)
		return 0;
	tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	if ((tail + r->nr - head) % r->nr < min)
		return 0;
	while (head != tail && n < max) {
		ev[n++] = r->events[head];
		head = (head + 1) % r->nr;
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static void aio_prep(struct bench *b, struct iocb *cb, unsigned int slot)
{
	io_prep_pread(cb, b->fd, buf_of(b, slot), b->bs,
		      (long long)next_offset(b));
	cb->data = (void *)(uintptr_t)slot;
}

static void aio_submit(io_context_t ctx, struct iocb **list, long n)
{
	long done = 0;

	while (done < n) {
		int ret = io_submit(ctx, n - done, list + done);

		if (ret < 0)
			die("io_submit", -ret);
		done += ret;
	}
}

/* BATCH events: from the ring when allowed and there, else a syscall. */
static int aio_wait(struct bench *b, io_context_t ctx, struct io_event *ev,
		    unsigned int min, int user_reap)
{
	int n = user_reap ? aio_ring_reap(ctx, ev, min, b->batch) : 0;

	if (!n)
		n = io_getevents(ctx, min, b->batch, ev, NULL);
	if (n < 0)
		die("io_getevents", -n);
	return n;
}

static void run_aio(struct bench *b, int user_reap)
{
	struct iocb *cbs = calloc(b->depth, sizeof(*cbs));
	struct iocb **list = calloc(b->depth, sizeof(*list));
	struct io_event *ev = calloc(b->depth, sizeof(*ev));
	unsigned int i, inflight = b->depth;
	io_context_t ctx = 0;
	int ret, n;

	if (!cbs || !list || !ev)
		die("calloc", ENOMEM);
	ret = io_setup((int)b->depth, &ctx);
	if (ret < 0)
		die("io_setup", -ret);
	for (i = 0; i < b->depth; i++) {
		aio_prep(b, &cbs[i], i);
		list[i] = &cbs[i];
	}
	b->t0 = now();
	aio_submit(ctx, list, b->depth);
	while (!time_is_up(b)) {
		n = aio_wait(b, ctx, ev, b->batch, user_reap);
		for (i = 0; i < (unsigned int)n; i++) {
			unsigned int slot = (unsigned int)(uintptr_t)ev[i].data;

			check_read((long)ev[i].res, b);
			aio_prep(b, &cbs[slot], slot);
			list[i] = &cbs[slot];
		}
		b->ios += (unsigned int)n;
		aio_submit(ctx, list, n);
	}
	for (; inflight; inflight -= (unsigned int)n)
		n = aio_wait(b, ctx, ev, 1, user_reap);
	io_destroy(ctx);
	free(ev);
	free(list);
	free(cbs);
}
#endif

/* --- psync -------------------------------------------------------------- */

static void run_psync(struct bench *b)
{
	char *buf = buf_of(b, 0);

	b->t0 = now();
	do {
		unsigned int i;

		/* the clock every 64 reads, a fraction of one read's cost */
		for (i = 0; i < 64; i++)
			check_read(pread(b->fd, buf, b->bs,
					 (off_t)next_offset(b)), b);
		b->ios += 64;
	} while (!time_is_up(b));
}

/* --- setup -------------------------------------------------------------- */

static uint64_t target_size(int fd, const char *path)
{
	uint64_t size;
	struct stat st;

	if (fstat(fd, &st))
		die(path, errno);
	if (!S_ISBLK(st.st_mode))
		return (uint64_t)st.st_size;
	if (ioctl(fd, BLKGETSIZE64, &size))
		die(path, errno);
	return size;
}

static unsigned long arg(int argc, char **argv, int i, unsigned long def)
{
	char *end;
	unsigned long v;

	if (argc <= i)
		return def;
	v = strtoul(argv[i], &end, 0);
	if (*end || end == argv[i]) {
		fprintf(stderr, "minimal: bad number '%s'\n", argv[i]);
		exit(2);
	}
	return v;
}

static void setup(struct bench *b, int argc, char **argv)
{
	size_t len;

	b->mode = argv[2];
	b->depth = (unsigned int)arg(argc, argv, 3, 32);
	b->batch = (unsigned int)arg(argc, argv, 4, 8);
	b->bs = arg(argc, argv, 5, 4096);
	b->secs = (double)arg(argc, argv, 6, 3);
	b->rand = 0x9E3779B97F4A7C15ull;
	b->fd = open(argv[1], O_RDONLY | (arg(argc, argv, 7, 0) ? O_DIRECT : 0));
	if (b->fd < 0)
		die(argv[1], errno);
	if (!b->depth || !b->batch || b->batch > b->depth || !b->bs) {
		fprintf(stderr, "minimal: need 0 < batch <= iodepth, bs > 0\n");
		exit(2);
	}
	b->nblocks = target_size(b->fd, argv[1]) / b->bs;
	if (!b->nblocks) {
		fprintf(stderr, "minimal: '%s' is smaller than bs\n", argv[1]);
		exit(2);
	}
	/* page-aligned buffers, as O_DIRECT needs */
	len = (size_t)b->depth * b->bs;
	b->bufs = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (b->bufs == MAP_FAILED)
		die("mmap", errno);
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };

	if (argc < 3 || argc > 8) {
		fprintf(stderr, "usage: %s TARGET io_uring|io_uring_fixed|aio|"
			"aio_reap|psync [IODEPTH [BATCH [BS [SECONDS "
			"[DIRECT]]]]]\n", argv[0]);
		return 2;
	}
	setup(&b, argc, argv);
	if (0) {
#ifdef HAVE_LIBURING
	} else if (!strcmp(b.mode, "io_uring")) {
		run_uring(&b, 0);
	} else if (!strcmp(b.mode, "io_uring_fixed")) {
		run_uring(&b, 1);
#endif
#ifdef HAVE_LIBAIO
	} else if (!strcmp(b.mode, "aio")) {
		run_aio(&b, 0);
	} else if (!strcmp(b.mode, "aio_reap")) {
		run_aio(&b, 1);
#endif
	} else if (!strcmp(b.mode, "psync")) {
		run_psync(&b);
	} else {
		fprintf(stderr, "minimal: mode '%s' unknown or not built "
			"(io_uring needs liburing, aio libaio)\n", b.mode);
		return 2;
	}
	printf("mode=%s iops=%.0f ios=%llu cpu_s=%.3f secs=%.3f%s%s\n",
	       b.mode, (double)b.ios / b.elapsed, b.ios, cpu_s(), b.elapsed,
	       b.note ? " ring=" : "", b.note ? b.note : "");
	return 0;
}

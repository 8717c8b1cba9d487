/* SPDX-License-Identifier: MIT */
/*
 * io_uring through liburing. queue() fills a submission queue entry;
 * commit() submits everything queued in one io_uring_submit(); getevents()
 * waits for at least min completions and takes up to max in one batch.
 *
 * Options: fixedbufs (the I/O buffers registered once, READ_FIXED /
 * WRITE_FIXED), registerfiles (fixed file table), sqthread_poll and
 * sqthread_poll_cpu (a kernel thread polls the submission queue: no
 * submit syscall while it is awake), hipri (IORING_SETUP_IOPOLL: polled
 * completions, needs O_DIRECT and a device with poll queues), force_async
 * (IOSQE_ASYNC on every Nth request, punting it to an io-wq worker),
 * nonvectored (0: READV/WRITEV with one iovec; default: READ/WRITE).
 * I/O priorities: each read and write's in sqe->ioprio (engine/cmdprio.h).
 *
 * When the kernel refuses a feature the error says which and why.
 *
 * Without liburing the engine is declared all the same (its options, its
 * flags) but has no functions: ioengine=io_uring is then refused with
 * the package to install.
 */
#include "engine/engines.h"

#ifdef HAVE_LIBURING
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include "engine/uring.h"

#include "opt/opt.h"
#include "util/log.h"

static const char *setup_hint(int err, unsigned int flags)
{
	if (err == -EPERM && (flags & IORING_SETUP_SQPOLL))
		return " (sqthread_poll needs CAP_SYS_NICE on this kernel)";
	if (err == -EINVAL && (flags & IORING_SETUP_SQ_AFF))
		return " (sqthread_poll_cpu names a CPU that cannot be used)";
	if (err == -ENOMEM)
		return " (locked memory limit too low: raise ulimit -l)";
	if (err == -ENOSYS)
		return " (this kernel has no io_uring)";
	if (err == -EPERM)
		return " (io_uring is disabled: see /proc/sys/kernel/io_uring_disabled)";
	return "";
}

/*
 * How completions reach the worker, best first; tried in turn, each
 * refused with EINVAL by kernels that predate it. DEFER_TASKRUN (with
 * SINGLE_ISSUER: only the worker thread ever uses the ring) posts
 * completions only when the worker enters the kernel for them, and
 * wakes a worker waiting for min_complete of them once, not once per
 * completion; COOP_TASKRUN at least spares the interrupt that tells a
 * running worker about each one. fio 3.33 asks for all three where the
 * kernel has them (strace: COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN)
 * and registers no ring fd.
 */
#ifdef IORING_SETUP_DEFER_TASKRUN	/* liburing 2.3 and later */
static const unsigned int taskrun_modes[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};
#define uring_submit_get(r) io_uring_submit_and_get_events(r)
#define uring_get_events(r) io_uring_get_events(r)
#define uring_register_ring_fd(r) io_uring_register_ring_fd(r)
#else	/* older headers: the kernel's default task work only */
static const unsigned int taskrun_modes[] = { 0 };
#define IORING_SETUP_DEFER_TASKRUN 0
#define IORING_SETUP_COOP_TASKRUN 0
#define uring_submit_get(r) io_uring_submit(r)
#define uring_get_events(r) 0
#define uring_register_ring_fd(r) 0
#endif

/*
 * io_uring_queue_init_params() with the best task-work mode the kernel
 * takes. Not with sqthread_poll (a kernel thread submits) or hipri
 * (completions are polled, not posted), nor when other threads call the
 * engine (io_submit_mode=offload).
 */
static int uring_setup(struct uring_engine *ue, unsigned int depth,
		       const struct io_uring_params *want)
{
	const struct job_options *o = &ue->e.plan->o;
	unsigned int i = 0;
	struct io_uring_params p;
	int ret;

	if (want->flags & (IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL) ||
	    o->io_submit_mode != IO_SUBMIT_INLINE)
		i = ARRAY_SIZE(taskrun_modes) - 1;
	for (;; i++) {
		p = *want;
		p.flags |= taskrun_modes[i];
		ret = io_uring_queue_init_params(depth, &ue->ring, &p);
		if (ret != -EINVAL || !taskrun_modes[i])
			break;
	}
	if (ret < 0)
		return ret;
	ue->taskrun = taskrun_modes[i];
	/*
	 * The worker's io_uring_enter() calls skip the file table lookup.
	 * A registered ring fd belongs to the task that registered it: not
	 * with offload, where a submission thread uses the ring.
	 */
	if (o->io_submit_mode == IO_SUBMIT_INLINE)
		ue->ring_fd_registered =
			uring_register_ring_fd(&ue->ring) == 1;
	return 0;
}

int uring_engine_setup(struct uring_engine *ue, unsigned int extra,
		       struct strbuf *err)
{
	const struct job_options *o = &ue->e.plan->o;
	unsigned int depth = ue->e.depth;
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = extra;
	if (o->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	if (o->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
		if (opt_is_set(o, "sqthread_poll_cpu")) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = o->sqthread_poll_cpu;
		}
	}
	ret = uring_setup(ue, depth, &p);
	if (ret < 0) {
		strbuf_addf(err, "%s: setting up a ring of %u failed: %s%s",
			    ue->e.plan->o.ioengine, depth, strerror(-ret),
			    setup_hint(ret, p.flags));
		return ret;
	}
	ue->cqe_shift = (extra & IORING_SETUP_CQE32) ? 1 : 0;
	ue->done = xcalloc(depth + 1, sizeof(*ue->done));
	ue->iovs = xcalloc(depth + 1, sizeof(*ue->iovs));
	ue->force_async = o->force_async;
	ue->vectored = o->nonvectored == 0;
	ue->fixedbufs = o->fixedbufs;
	ue->registerfiles = o->registerfiles;
	ue->prio = cmdprio_init(&ue->cp, ue->e.plan);
	rwflags_init(&ue->rf, ue->e.plan, false);
	if (ue->fixedbufs) {
		ret = io_uring_register_buffers_sparse(&ue->ring, depth + 1);
		if (ret < 0) {
			strbuf_addf(err, "%s: fixedbufs: registering %u buffers failed: %s%s",
				    ue->e.plan->o.ioengine, depth + 1,
				    strerror(-ret),
				    ret == -ENOMEM ? " (locked memory limit too low: raise ulimit -l)" : "");
			uring_engine_teardown(ue);
			return ret;
		}
	}
	return 0;
}

void uring_engine_teardown(struct uring_engine *ue)
{
	io_uring_queue_exit(&ue->ring);
	free(ue->done);
	free(ue->iovs);
}

static int uring_init(const struct job_plan *plan, unsigned int depth,
		      struct engine **out, struct strbuf *err)
{
	struct uring_engine *ue = xcalloc(1, sizeof(*ue));
	int ret;

	ue->e.plan = plan;
	ue->e.depth = depth;
	ret = uring_engine_setup(ue, 0, err);
	if (ret < 0) {
		free(ue);
		return ret;
	}
	ue->plain = !ue->vectored && !ue->prio && !ue->force_async &&
		    !ue->rf.hipri_draw;
	ue->op[DDIR_READ] = ue->fixedbufs ? IORING_OP_READ_FIXED :
			    IORING_OP_READ;
	ue->op[DDIR_WRITE] = ue->fixedbufs ? IORING_OP_WRITE_FIXED :
			     IORING_OP_WRITE;
	ue->sqe_flags = ue->registerfiles ? IOSQE_FIXED_FILE : 0;
	*out = &ue->e;
	return 0;
}

void uring_cleanup(struct engine *e)
{
	struct uring_engine *ue = to_uring(e);

	uring_engine_teardown(ue);
	free(ue);
}

/*
 * Polled completions (hipri, IORING_SETUP_IOPOLL) exist only for O_DIRECT
 * I/O on a block device with poll queues. Anything else is never found by
 * polling and would wait forever, so it is refused up front, saying why.
 */
static int check_pollable(const struct engine *e, const struct engine_file *f,
			  struct strbuf *err)
{
	char path[128];
	struct stat st;
	dev_t dev;
	FILE *fp;
	int val = 0;

	if (!e->plan->o.direct) {
		strbuf_addf(err, "io_uring: hipri needs direct=1: polled completions exist only for O_DIRECT I/O ('%s')",
			    f->path);
		return -EINVAL;
	}
	if (fstat(f->fd, &st))
		return -errno;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev)) {
		strbuf_addf(err, "io_uring: hipri: '%s' is not on a block device, so it has no poll queues",
			    f->path);
		return -EOPNOTSUPP;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/io_poll",
		 major(dev), minor(dev));
	fp = fopen(path, "r");
	if (!fp) {
		/* a partition: the queue belongs to the whole disk */
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/../queue/io_poll", major(dev),
			 minor(dev));
		fp = fopen(path, "r");
	}
	if (fp) {
		if (fscanf(fp, "%d", &val) != 1)
			val = 0;
		fclose(fp);
	}
	if (val != 1) {
		strbuf_addf(err, "io_uring: hipri: the device of '%s' (%u:%u) has no poll queues (%s is not 1; NVMe needs the nvme.poll_queues module parameter)",
			    f->path, major(dev), minor(dev), path);
		return -EOPNOTSUPP;
	}
	return 0;
}

int uring_open_file(struct engine *e, struct engine_file *f,
			   struct strbuf *err)
{
	struct uring_engine *ue = to_uring(e);
	int ret = engine_open_fd(e, f, err);
	unsigned int idx;

	if (!ret && e->plan->o.hipri)
		ret = check_pollable(e, f, err);
	if (ret || !ue->registerfiles)
		return ret;
	idx = (unsigned int)(f - e->files);
	if (!ue->files_registered) {
		ret = io_uring_register_files_sparse(&ue->ring, e->nr_files);
		if (ret < 0) {
			strbuf_addf(err, "io_uring: registerfiles: %s",
				    strerror(-ret));
			return ret;
		}
		ue->files_registered = 1;
	}
	ret = io_uring_register_files_update(&ue->ring, idx, &f->fd, 1);
	if (ret < 0) {
		strbuf_addf(err, "io_uring: registerfiles: registering '%s' failed: %s",
			    f->path, strerror(-ret));
		return ret;
	}
	return 0;
}

int uring_prep(struct engine *e, struct io_u *u)
{
	struct uring_engine *ue = to_uring(e);
	struct iovec *iov = &ue->iovs[u->index];
	int ret;

	iov->iov_base = u->buf;
	iov->iov_len = 0;
	if (!ue->fixedbufs)
		return 0;
	/* registered once, at its largest size: the worker's buffer slot */
	iov->iov_len = e->plan->max_bs;
	ret = io_uring_register_buffers_update_tag(&ue->ring, u->index, iov,
						   NULL, 1);
	return ret < 0 ? ret : 0;
}

/*
 * A plain read or write: one entry, every field written (a reused entry
 * keeps nothing of an earlier one), no decision left to make.
 */
static inline void queue_rw(struct uring_engine *ue, struct io_uring_sqe *sqe,
			    const struct io_u *u, int fd)
{
	sqe->opcode = ue->op[u->ddir];
	sqe->flags = ue->sqe_flags;
	sqe->ioprio = 0;
	sqe->fd = fd;
	sqe->off = u->offset;
	sqe->addr = (unsigned long)u->buf;
	sqe->len = u->len;
	sqe->rw_flags = ue->rf.rwf[u->ddir];
	sqe->buf_index = ue->fixedbufs ? (uint16_t)u->index : 0;
	sqe->personality = 0;
	sqe->file_index = 0;
	sqe->addr3 = 0;
	sqe->__pad2[0] = 0;
	sqe->user_data = (unsigned long)u;
}

static enum engine_q uring_queue(struct engine *e, struct io_u *u)
{
	struct uring_engine *ue = to_uring(e);
	struct engine_file *f = &e->files[u->file];
	struct io_uring_sqe *sqe;
	int fd = ue->registerfiles ? (int)u->file : f->fd;

	if (likely(ue->plain && u->ddir <= DDIR_WRITE)) {
		sqe = io_uring_get_sqe(&ue->ring);
		if (likely(sqe)) {
			queue_rw(ue, sqe, u, fd);
			return ENGINE_Q_QUEUED;
		}
	}
	if (u->ddir == DDIR_TRIM && (f->flags & EF_BLOCKDEV)) {
		if (unlikely(ue->prio))
			cmdprio_pick(&ue->cp, u);
		engine_io_result(u, engine_do_other(e, f, u));
		return ENGINE_Q_DONE;
	}
	sqe = io_uring_get_sqe(&ue->ring);
	if (!sqe && (ue->ring.flags & IORING_SETUP_SQPOLL)) {
		/*
		 * The polling thread may post a completion before it moves
		 * the submission queue's head past the entry: the ring looks
		 * full with nothing in flight. Wait for it (rare path).
		 */
		io_uring_sqring_wait(&ue->ring);
		sqe = io_uring_get_sqe(&ue->ring);
	}
	if (!sqe)
		return ENGINE_Q_BUSY;
	switch (u->ddir) {
	case DDIR_READ:
	case DDIR_WRITE: {
		int rd = u->ddir == DDIR_READ;

		if (ue->fixedbufs) {
			if (rd)
				io_uring_prep_read_fixed(sqe, fd, u->buf, u->len,
							 u->offset, (int)u->index);
			else
				io_uring_prep_write_fixed(sqe, fd, u->buf, u->len,
							  u->offset, (int)u->index);
		} else if (ue->vectored) {
			struct iovec *iov = &ue->iovs[u->index];

			iov->iov_base = u->buf;
			iov->iov_len = u->len;
			if (rd)
				io_uring_prep_readv(sqe, fd, iov, 1, u->offset);
			else
				io_uring_prep_writev(sqe, fd, iov, 1, u->offset);
		} else if (rd) {
			io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
		} else {
			io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
		}
		sqe->rw_flags = rwflags_get(&ue->rf, u->ddir);
		break;
	}
	case DDIR_TRIM:
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE,
					(off_t)u->offset, (off_t)u->len);
		break;
	case DDIR_SYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case DDIR_DATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	case DDIR_SYNC_FILE_RANGE:
		io_uring_prep_sync_file_range(sqe, fd, u->len, u->offset,
					      (int)e->plan->o.sync_file_range);
		break;
	default:
		u->error = EINVAL;
		return ENGINE_Q_DONE;
	}
	/* every I/O, so that a reused io_u never keeps an earlier one's */
	if (unlikely(ue->prio)) {
		cmdprio_pick(&ue->cp, u);
		if (u->ddir <= DDIR_WRITE)
			sqe->ioprio = u->ioprio;
	}
	if (ue->registerfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (ue->force_async && ++ue->async_count >= ue->force_async) {
		ue->async_count = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, u);
	return ENGINE_Q_QUEUED;
}

int uring_commit(struct engine *e)
{
	struct uring_engine *ue = to_uring(e);
	int ret;

	ue->commits++;
	do {
		/*
		 * With deferred task work, completions are posted only when
		 * asked: this one call submits and takes what is done, so the
		 * next reap often finds enough without a syscall (fio gets
		 * the same by submitting with IORING_ENTER_GETEVENTS).
		 */
		if (ue->taskrun & IORING_SETUP_DEFER_TASKRUN)
			ret = uring_submit_get(&ue->ring);
		else
			ret = io_uring_submit(&ue->ring);
	} while (ret == -EINTR);
	if (ret == -EAGAIN || ret == -EBUSY)
		return 0;	/* the worker reaps, then submits again */
	return ret < 0 ? ret : 0;
}

/*
 * Submits and waits for min completions in one io_uring_enter(): the
 * worker asks when the batch fills the queue, so that it would wait
 * right after anyway (a device that completes in io-wq or an interrupt
 * then costs one system call per batch, not two).
 */
int uring_commit_wait(struct engine *e, unsigned int min)
{
	struct uring_engine *ue = to_uring(e);
	int ret;

	ue->commits++;
	ue->commit_waits++;
	do {
		ret = io_uring_submit_and_wait(&ue->ring, min);
	} while (ret == -EINTR);
	if (ret == -EAGAIN || ret == -EBUSY)
		return 0;	/* the worker reaps, then submits again */
	return ret < 0 ? ret : 0;
}

/*
 * Takes up to max completions off the CQ ring in one pass, in place
 * (liburing's peek_batch is a library call that copies pointers first):
 * one acquire load of the tail, one release store of the head.
 */
static unsigned int reap_cq(struct uring_engine *ue, unsigned int max)
{
	struct io_uring_cq *cq = &ue->ring.cq;
	unsigned int head = *cq->khead, n;
	unsigned int ready = io_uring_smp_load_acquire(cq->ktail) - head;

	n = ready < max ? ready : max;
	for (unsigned int i = 0; i < n; i++) {
		const struct io_uring_cqe *cqe =
			&cq->cqes[((head + i) & cq->ring_mask) << ue->cqe_shift];
		struct io_u *u = io_uring_cqe_get_data(cqe);
		long res = cqe->res;

		if (unlikely(ue->status_io)) {
			ue->status_io(ue, u, res);
		} else {
			/* a punched hole completes with 0, not the length */
			if (unlikely(!res) && u->ddir == DDIR_TRIM)
				res = (long)u->len;
			engine_io_result(u, res);
		}
		ue->done[i] = u;
	}
	if (n)
		io_uring_smp_store_release(cq->khead, head + n);
	return n;
}

/*
 * Entries a commit left in the submission ring (io_uring_enter() said
 * EAGAIN or EBUSY: the kernel short of memory for requests, or its
 * completion ring overflowing) go in before any wait: a wait would be
 * for completions of I/O never submitted, for ever when nothing else is
 * in flight. As fio does, the submission is tried again until it takes
 * them all (a microsecond's sleep between tries), unless completions
 * are there to reap first. 0: all submitted; 1: some are left, and
 * completions wait; or -errno.
 */
static __attribute__((noinline)) int uring_resubmit(struct uring_engine *ue)
{
	const struct timespec us = { 0, 1000 };
	int ret;

	while (io_uring_sq_ready(&ue->ring)) {
		ret = io_uring_submit(&ue->ring);
		if (ret >= 0 || ret == -EINTR)
			continue;
		if (ret != -EAGAIN && ret != -EBUSY)
			return ret;
		if (io_uring_cq_ready(&ue->ring))
			return 1;
		nanosleep(&us, NULL);
	}
	return 0;
}

int uring_getevents(struct engine *e, unsigned int min,
			   unsigned int max, const struct timespec *timeout)
{
	struct uring_engine *ue = to_uring(e);
	int ret;

	/* (with sqthread_poll the kernel's thread takes them in its time) */
	if (unlikely(io_uring_sq_ready(&ue->ring)) &&
	    !(ue->ring.flags & IORING_SETUP_SQPOLL)) {
		ret = uring_resubmit(ue);
		if (ret < 0)
			return ret;
		if (ret)
			return (int)reap_cq(ue, max);
	}
	if (min && io_uring_cq_ready(&ue->ring) < min) {
		/* (often there already: the commit waited for them) */
		struct io_uring_cqe *cqe;

		do {
			ret = io_uring_wait_cqe_nr(&ue->ring, &cqe, min);
		} while (ret == -EINTR);
		if (ret < 0)
			return ret;
	} else if ((ue->taskrun & IORING_SETUP_DEFER_TASKRUN) &&
		   !io_uring_cq_ready(&ue->ring)) {
		/* polling: deferred completions are posted only when asked */
		ret = uring_get_events(&ue->ring);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
	return (int)reap_cq(ue, max);
}

struct io_u *uring_event(struct engine *e, unsigned int i)
{
	return to_uring(e)->done[i];
}

/* Which task-work mode the ring got, for the report's notes. */
void uring_describe(struct engine *e, struct strbuf *out)
{
	struct uring_engine *ue = to_uring(e);

	strbuf_addf(out, "io_uring: %s%s",
		    ue->taskrun & IORING_SETUP_DEFER_TASKRUN ?
		    "single_issuer, defer_taskrun" :
		    ue->taskrun & IORING_SETUP_COOP_TASKRUN ? "coop_taskrun" :
		    "default task work",
		    ue->ring_fd_registered ? ", registered ring fd" : "");
	if (ue->commit_waits)
		strbuf_addf(out, "; %.0f%% of submissions waited in the same "
			    "call (submit_and_wait: its time is in clat, not "
			    "slat)", 100.0 * (double)ue->commit_waits /
			    (double)ue->commits);
}

#endif	/* HAVE_LIBURING */

/* in fio's order (--enghelp=io_uring) */
static const char *const uring_options[] = {
	"hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio_hint",
	"cmdprio",
	"cmdprio_bssplit", "fixedbufs", "registerfiles", "sqthread_poll",
	"sqthread_poll_cpu", "nonvectored", "uncached", "nowait",
	"force_async", "submit_and_wait", NULL,
};

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.help = "Linux io_uring through liburing (fixedbufs, registerfiles, sqthread_poll, hipri, force_async)",
	.flags = ENGINE_F_RWFLAGS | ENGINE_F_OFFLOAD_OWN | ENGINE_F_IOWQ |
		 ENGINE_F_URING,
	.options = uring_options,
#ifdef HAVE_LIBURING
	.init = uring_init,
	.cleanup = uring_cleanup,
	.open_file = uring_open_file,
	.close_file = engine_close_fd,
	.prep = uring_prep,
	.queue = uring_queue,
	.commit = uring_commit,
	.commit_wait = uring_commit_wait,
	.getevents = uring_getevents,
	.event = uring_event,
	.describe = uring_describe,
#endif
};

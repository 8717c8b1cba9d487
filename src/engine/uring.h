/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_URING_H
#define IOLITE_ENGINE_URING_H

/*
 * Private to the two io_uring engines (io_uring.c, uring_cmd.c): the
 * ring and what both do with it (setup with the best task-work mode,
 * registered buffers and files, commit, the CQ walk). io_uring_cmd
 * embeds struct uring_engine as its first member and differs in how it
 * fills an entry (an NVMe command in a 128-byte entry) and reads a
 * completion (0 or an NVMe status, not a byte count).
 */
#ifdef HAVE_LIBURING
#include <liburing.h>
#include <stdbool.h>
#include <sys/uio.h>

#include "engine/cmdprio.h"
#include "engine/engines.h"
#include "engine/rwflags.h"

struct uring_engine {
	struct engine e;
	struct io_uring ring;
	struct io_u **done;
	struct iovec *iovs;		/* one per io_u (vectored, fixedbufs) */
	unsigned int force_async;	/* every Nth: IOSQE_ASYNC; 0 = never */
	unsigned int async_count;
	int vectored;
	int fixedbufs;
	int registerfiles;
	int files_registered;	/* the sparse table exists (files reopen
				 * for each loop: it is made once) */
	int bufs_registered;
	/*
	 * A read or write with nothing per I/O to decide (no vectored iovec,
	 * no priority, no forced async, no hipri draw): queue_rw() fills its
	 * entry from these, chosen once
	 */
	bool plain;
	uint8_t op[2];			/* by ddir: READ(_FIXED), WRITE(_FIXED) */
	uint8_t sqe_flags;		/* IOSQE_FIXED_FILE with registerfiles */
	unsigned int taskrun;		/* the task-work flags the ring got */
	uint64_t commits, commit_waits;	/* submissions; ... that waited too */
	int ring_fd_registered;
	/*
	 * I/O priorities (prio, prioclass, cmdprio*): every read and write
	 * carries its own in sqe->ioprio, as fio (the submitting context
	 * may be sqthread_poll's kernel thread, not the job's thread)
	 */
	bool prio;
	struct cmdprio cp;
	struct rwflags rf;	/* nowait, uncached, atomic: sqe->rw_flags */
	/*
	 * io_uring_cmd: completions are 0 or an NVMe status (status_io()
	 * makes them an io_u's result), in 32-byte entries (cqe_shift 1)
	 */
	unsigned int cqe_shift;
	void (*status_io)(struct uring_engine *ue, struct io_u *u, long res);
};

static inline struct uring_engine *to_uring(struct engine *e)
{
	return (struct uring_engine *)e;
}

/*
 * Sets up ue (allocated by the caller, zeroed, ue->e.plan and depth set)
 * for plan: the ring with the job's flags and extra (SQE128 | CQE32 for
 * io_uring_cmd), the per-I/O arrays, the registered buffer table. 0, or
 * -errno with the reason in err (ue is then torn down).
 */
int uring_engine_setup(struct uring_engine *ue, unsigned int extra,
		       struct strbuf *err);
void uring_engine_teardown(struct uring_engine *ue);
void uring_cleanup(struct engine *e);
int uring_open_file(struct engine *e, struct engine_file *f,
		    struct strbuf *err);
int uring_prep(struct engine *e, struct io_u *u);
int uring_commit(struct engine *e);
int uring_commit_wait(struct engine *e, unsigned int min);
int uring_getevents(struct engine *e, unsigned int min, unsigned int max,
		    const struct timespec *timeout);
struct io_u *uring_event(struct engine *e, unsigned int i);
void uring_describe(struct engine *e, struct strbuf *out);

#endif	/* HAVE_LIBURING */
#endif

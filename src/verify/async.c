/* SPDX-License-Identifier: MIT */
/*
 * verify_async: checker threads fed by single-producer rings (async.h
 * has the contract). Each ring holds as many entries as the worker has
 * io_us, so it can never be full: at most every io_u is in a check.
 */
#include "verify/async.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "util/log.h"
#include "verify/verify.h"

#define SPIN_LOOPS 4096
#define MSG_LEN 512

struct vq_ent {
	struct io_u *u;
	uint64_t seq;
	uint32_t kind;
};

struct vres {
	uint32_t index;
	int32_t ret;
};

struct vthread {
	struct verify_async *a;
	struct verify *c;		/* this thread's checker */
	pthread_t tid;
	bool started;
	struct vq_ent *in;
	struct vres *out;
	/* the worker writes in_tail and out_head, the thread the others */
	_Atomic uint64_t in_tail __attribute__((aligned(64)));
	uint64_t out_head;
	_Atomic uint64_t in_head __attribute__((aligned(64)));
	_Atomic uint64_t out_tail;
	_Atomic uint32_t in_seq __attribute__((aligned(64)));	/* futex */
	_Atomic uint32_t sleeping;
};

struct verify_async {
	unsigned int nr;
	uint64_t mask;
	struct vthread *t;
	char (*msg)[MSG_LEN];		/* per io_u: its failure */
	uint64_t submitted, reaped;	/* the worker's */
	_Atomic uint32_t out_seq __attribute__((aligned(64)));	/* futex */
	_Atomic uint32_t worker_sleeping;
	_Atomic bool stop;
};

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };

	syscall(SYS_futex, (void *)addr, FUTEX_WAIT_PRIVATE, val, &ts, NULL,
		0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, (void *)addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Waits for the worker to hand over more (or to stop). */
static void thread_idle(struct vthread *t, uint64_t head)
{
	struct verify_async *a = t->a;
	uint32_t s;
	int i;

	for (i = 0; i < SPIN_LOOPS; i++) {
		if (atomic_load_explicit(&t->in_tail, memory_order_acquire) !=
		    head || atomic_load(&a->stop))
			return;
		cpu_relax();
	}
	s = atomic_load(&t->in_seq);
	atomic_store(&t->sleeping, 1);
	/* pairs with the add in verify_async_submit(): one sees the other */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&t->in_tail, memory_order_acquire) == head &&
	    !atomic_load(&a->stop))
		futex_wait(&t->in_seq, s);
	atomic_store(&t->sleeping, 0);
}

static void *checker_main(void *arg)
{
	struct vthread *t = arg;
	struct verify_async *a = t->a;

	for (;;) {
		uint64_t h = atomic_load_explicit(&t->in_head,
						  memory_order_relaxed);
		uint64_t o;
		struct vq_ent e;
		int ret;

		if (atomic_load_explicit(&t->in_tail, memory_order_acquire) ==
		    h) {
			if (atomic_load(&a->stop))
				break;
			thread_idle(t, h);
			continue;
		}
		e = t->in[h & a->mask];
		ret = verify_checker_run(t->c, e.u, e.seq, e.kind);
		if (ret)
			memcpy(a->msg[e.u->index], verify_errmsg(t->c),
			       MSG_LEN);
		o = atomic_load_explicit(&t->out_tail, memory_order_relaxed);
		t->out[o & a->mask] = (struct vres){ e.u->index, ret };
		atomic_store_explicit(&t->out_tail, o + 1,
				      memory_order_release);
		atomic_store_explicit(&t->in_head, h + 1,
				      memory_order_release);
		atomic_fetch_add(&a->out_seq, 1);
		if (atomic_load(&a->worker_sleeping))
			futex_wake(&a->out_seq);
	}
	return NULL;
}

void verify_async_submit(struct verify_async *a, struct io_u *u,
			 uint64_t seq, unsigned int kind)
{
	struct vthread *t = &a->t[a->submitted++ % a->nr];
	uint64_t tail = atomic_load_explicit(&t->in_tail,
					     memory_order_relaxed);

	t->in[tail & a->mask] = (struct vq_ent){ u, seq, kind };
	atomic_store_explicit(&t->in_tail, tail + 1, memory_order_release);
	atomic_fetch_add(&t->in_seq, 1);
	if (unlikely(atomic_load_explicit(&t->sleeping, memory_order_relaxed)))
		futex_wake(&t->in_seq);
}

bool verify_async_reap(struct verify_async *a, bool wait,
		       unsigned int *index, int *ret, const char **msg)
{
	struct vthread *t;
	struct vres r;

	if (a->reaped == a->submitted)
		return false;
	t = &a->t[a->reaped % a->nr];
	while (atomic_load_explicit(&t->out_tail, memory_order_acquire) ==
	       t->out_head) {
		uint32_t s;

		if (!wait)
			return false;
		s = atomic_load(&a->out_seq);
		atomic_store(&a->worker_sleeping, 1);
		atomic_thread_fence(memory_order_seq_cst);
		if (atomic_load_explicit(&t->out_tail, memory_order_acquire) ==
		    t->out_head)
			futex_wait(&a->out_seq, s);
		atomic_store(&a->worker_sleeping, 0);
	}
	r = t->out[t->out_head++ & a->mask];
	a->reaped++;
	*index = r.index;
	*ret = r.ret;
	*msg = a->msg[r.index];
	return true;
}

unsigned int verify_async_pending(const struct verify_async *a)
{
	return (unsigned int)(a->submitted - a->reaped);
}

static int start_threads(struct verify_async *a, const struct verify *v,
			 const char *cpus, struct strbuf *err)
{
	cpu_set_t set;
	unsigned int i;
	int ret;

	if (cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		struct strbuf why = STRBUF_INIT;

		if (cpulist_parse(cpus, "cpu", n > 0 ? (unsigned int)n : 1, 0,
				  &set, &why)) {
			strbuf_addf(err, "option 'verify_async_cpus': %s",
				    strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
	}
	for (i = 0; i < a->nr; i++) {
		struct vthread *t = &a->t[i];

		t->a = a;
		t->c = verify_checker_new(v);
		t->in = xcalloc(a->mask + 1, sizeof(*t->in));
		t->out = xcalloc(a->mask + 1, sizeof(*t->out));
		ret = pthread_create(&t->tid, NULL, checker_main, t);
		if (ret) {
			strbuf_addf(err, "cannot start verify_async thread %u: %s",
				    i, strerror(ret));
			return -1;
		}
		t->started = true;
		if (cpus)
			pthread_setaffinity_np(t->tid, sizeof(set), &set);
	}
	return 0;
}

int verify_async_new(struct verify_async **out, const struct verify *v,
		     unsigned int nr, const char *cpus, unsigned int nr_ios,
		     struct strbuf *err)
{
	struct verify_async *a;
	uint64_t cap = 1;

	*out = NULL;
	if (!nr)
		return 0;
	while (cap < nr_ios)
		cap <<= 1;
	a = xcalloc(1, sizeof(*a));
	a->nr = nr;
	a->mask = cap - 1;
	a->t = xcalloc(nr, sizeof(*a->t));
	a->msg = xcalloc(nr_ios, sizeof(*a->msg));
	if (start_threads(a, v, cpus, err)) {
		verify_async_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

void verify_async_free(struct verify_async *a)
{
	unsigned int i;

	if (!a)
		return;
	atomic_store(&a->stop, true);
	for (i = 0; i < a->nr; i++) {
		struct vthread *t = &a->t[i];

		if (t->started) {
			atomic_fetch_add(&t->in_seq, 1);
			futex_wake(&t->in_seq);
			pthread_join(t->tid, NULL);
		}
		if (t->c)
			verify_checker_free(t->c);
		free(t->in);
		free(t->out);
	}
	free(a->t);
	free(a->msg);
	free(a);
}

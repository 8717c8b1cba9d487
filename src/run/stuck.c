/* SPDX-License-Identifier: MIT */
/*
 * Jobs that cannot stop: see run/stuck.h. The reporter thread calls
 * stuck_tick() every tick; the decision and the giving up happen here,
 * the job's result is made by worker_abandon() (worker_setup.c), which
 * knows the worker's insides.
 */
#include "run/stuck.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/worker.h"
#include "util/log.h"
#include "util/strbuf.h"

/* a real-time signal of its own: no engine or library uses it */
#define SIG_PARK (SIGRTMIN + 5)
#define PARK_WAIT_NS 100000000ull	/* a running thread parks in this */

struct stuck_job {
	uint64_t told_ns;	/* first seen told to stop; 0: not yet */
	uint64_t last_ios;	/* completions when last looked at */
	uint64_t moved_ns;	/* when they last moved */
};

struct stuck_watch {
	unsigned int nr;
	struct stuck_job j[];
};

/*
 * Set by the thread itself when it parks. Thread-local, not in the
 * run_job: a thread parks when its system call comes back, which may be
 * after the run's memory is gone; its own storage lasts as long as it.
 */
static __thread _Atomic int parked_here;

_Atomic int *stuck_thread_flag(void)
{
	return &parked_here;
}

static void park(int sig)
{
	(void)sig;
	atomic_store(&parked_here, 1);
	for (;;)
		pause();
}

void stuck_signal_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = park;
	sigemptyset(&sa.sa_mask);
	sigaction(SIG_PARK, &sa, NULL);
}

struct stuck_watch *stuck_watch_new(unsigned int nr_jobs)
{
	struct stuck_watch *sw = xcalloc(1, sizeof(*sw) + (size_t)nr_jobs *
					 sizeof(sw->j[0]));

	sw->nr = nr_jobs;
	return sw;
}

void stuck_watch_free(struct stuck_watch *sw)
{
	free(sw);
}

static uint64_t job_ios(const struct run_job *rj)
{
	uint64_t n = 0;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		n += atomic_load_explicit(&rj->st->live_ios[d],
					  memory_order_relaxed);
	return n;
}

/* Told to stop: the run's stop, this job's own, or its runtime over. */
static bool job_told(const struct run_job *rj, int st, uint64_t now,
		     bool stopping)
{
	uint64_t rt = rj->plan->o.runtime_us;

	if (stopping || rj->ctx->stop || rj->stop)
		return true;
	return st == WS_RUNNING && rt && now > rj->run_start_ns + rt * 1000;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

/*
 * Parks job rj's thread and makes its result. Under ctx->lock, so that
 * a worker finishing now either finished first (nothing to do) or finds
 * itself given up.
 */
static bool give_up(struct run_job *rj, uint64_t now, uint64_t idle_ns)
{
	struct run_ctx *ctx = rj->ctx;
	_Atomic int *pf;
	uint64_t waited;

	pthread_mutex_lock(&ctx->lock);
	if (atomic_load(&rj->state) == WS_DONE) {
		pthread_mutex_unlock(&ctx->lock);
		return false;
	}
	atomic_store(&rj->abandoned, 1);
	pthread_kill(rj->thread, SIG_PARK);
	/*
	 * A thread in the kernel parks when its call comes back; one
	 * running iolite's code parks at once: wait for that with the lock
	 * held (so that it cannot be parked holding it), and nothing of the
	 * job moves while its result is made.
	 */
	pf = __atomic_load_n(&rj->parked, __ATOMIC_ACQUIRE);
	for (waited = 0; waited < PARK_WAIT_NS && (!pf || !atomic_load(pf));
	     waited += 1000000)
		sleep_ns(1000000);
	pthread_mutex_unlock(&ctx->lock);
	worker_abandon(rj, now, idle_ns);
	return true;
}

unsigned int stuck_tick(struct stuck_watch *sw, struct run_ctx *ctx,
			uint64_t now, uint64_t timeout_ns, bool stopping,
			bool hurry)
{
	unsigned int i, n = 0;

	for (i = 0; i < ctx->nr_jobs && i < sw->nr; i++) {
		struct run_job *rj = &ctx->jobs[i];
		struct stuck_job *sj = &sw->j[i];
		int st = atomic_load(&rj->state);
		uint64_t ios;

		if (st == WS_DONE || !atomic_load(&rj->thread_up))
			continue;
		ios = job_ios(rj);
		if (ios != sj->last_ios || !sj->moved_ns) {
			sj->last_ios = ios;
			sj->moved_ns = now;
		}
		if (!sj->told_ns && job_told(rj, st, now, stopping))
			sj->told_ns = now;
		if (!sj->told_ns)
			continue;
		if (!hurry && (now - sj->told_ns < timeout_ns ||
			       now - sj->moved_ns < timeout_ns))
			continue;
		n += give_up(rj, now, now - sj->moved_ns);
	}
	return n;
}

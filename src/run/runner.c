/* SPDX-License-Identifier: MIT */
#include "run/runner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/clock.h"
#include "util/log.h"

static struct run_ctx *current_ctx;

void runner_stop(void)
{
	if (current_ctx)
		current_ctx->stop = 1;
}

struct sampler {
	struct run_ctx *ctx;
	volatile int done;
	uint64_t interval_us;
	/* per job: what the previous sample saw */
	uint64_t *last_ns;
	uint64_t (*last_bytes)[DDIR_RWDIR_CNT];
	uint64_t (*last_ios)[DDIR_RWDIR_CNT];
	int *seen;
};

/*
 * Bandwidth and IOPS samples, taken off the I/O path from the workers'
 * relaxed-atomic live counters (design.md rule 5). A sample covers one
 * interval of one running (not ramping) job.
 */
static void sample_once(struct sampler *s, uint64_t now)
{
	unsigned int i, d;

	for (i = 0; i < s->ctx->nr_jobs; i++) {
		struct run_job *rj = &s->ctx->jobs[i];
		uint64_t dt;

		if (atomic_load(&rj->state) != WS_RUNNING) {
			s->seen[i] = 0;
			continue;
		}
		if (!s->seen[i]) {
			s->seen[i] = 1;
			s->last_ns[i] = rj->run_start_ns;
			memset(s->last_bytes[i], 0, sizeof(s->last_bytes[i]));
			memset(s->last_ios[i], 0, sizeof(s->last_ios[i]));
		}
		if (now < s->last_ns[i] + s->interval_us * 1000)
			continue;
		dt = now - s->last_ns[i];
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t b, n;

			if (!ddir_used(rj->plan, (enum ddir)d))
				continue;
			b = atomic_load_explicit(&rj->st->live_bytes[d],
						 memory_order_relaxed);
			n = atomic_load_explicit(&rj->st->live_ios[d],
						 memory_order_relaxed);
			welford_add(&rj->res.bw_samples[d],
				    (b - s->last_bytes[i][d]) * 1000000000ull /
				    1024 / dt);
			welford_add(&rj->res.iops_samples[d],
				    (n - s->last_ios[i][d]) * 1000000000ull / dt);
			s->last_bytes[i][d] = b;
			s->last_ios[i][d] = n;
		}
		s->last_ns[i] = now;
	}
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	unsigned int tick = 0, i;

	while (!s->done) {
		clock_sleep_us(10000, &s->done);
		sample_once(s, clock_now_ns());
		if (++tick % 10)
			continue;
		/* io_uring's io-wq workers: every 100 ms */
		for (i = 0; i < s->ctx->nr_jobs; i++) {
			struct run_job *rj = &s->ctx->jobs[i];
			int st = atomic_load(&rj->state);

			if (rj->iowq && (st == WS_RAMP || st == WS_RUNNING))
				iowq_scan(rj->iowq);
		}
	}
	return NULL;
}

static int start_job(struct run_job *rj, struct strbuf *err)
{
	pthread_attr_t attr;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	ret = pthread_create(&rj->thread, &attr, worker_main, rj);
	pthread_attr_destroy(&attr);
	if (ret) {
		strbuf_addf(err, "cannot start a thread for job '%s': %s",
			    rj->plan->o.name, strerror(ret));
		return -1;
	}
	return 0;
}

int runner_run(struct run_job *jobs, unsigned int nr, struct strbuf *err)
{
	struct run_ctx ctx;
	struct sampler s;
	pthread_t sampler_thread;
	unsigned int i, j;
	int ret = 0, failed = 0;

	memset(&ctx, 0, sizeof(ctx));
	pthread_mutex_init(&ctx.lock, NULL);
	pthread_cond_init(&ctx.cond, NULL);
	ctx.jobs = jobs;
	ctx.nr_jobs = nr;
	for (i = 0; i < nr; i++) {
		jobs[i].ctx = &ctx;
		if (!jobs[i].st)
			jobs[i].st = xcalloc(1, sizeof(*jobs[i].st));
		worker_stats_init(jobs[i].st);
		jobs[i].res.plan = jobs[i].plan;
		jobs[i].res.st = jobs[i].st;
		jobs[i].res.devs = jobs[i].files->devs;
		jobs[i].res.nr_devs = jobs[i].files->nr_devs;
		atomic_store(&jobs[i].state, WS_INIT);
		if (jobs[i].plan->o.ioengine &&
		    !strcmp(jobs[i].plan->o.ioengine, "io_uring")) {
			jobs[i].iowq = xmalloc(sizeof(*jobs[i].iowq));
			iowq_track_init(jobs[i].iowq, 0);
		}
	}
	current_ctx = &ctx;

	memset(&s, 0, sizeof(s));
	s.ctx = &ctx;
	s.interval_us = 500000;
	s.last_ns = xcalloc(nr, sizeof(*s.last_ns));
	s.last_bytes = xcalloc(nr, sizeof(*s.last_bytes));
	s.last_ios = xcalloc(nr, sizeof(*s.last_ios));
	s.seen = xcalloc(nr, sizeof(*s.seen));
	if (pthread_create(&sampler_thread, NULL, sampler_main, &s)) {
		strbuf_addstr(err, "cannot start the sampler thread");
		ret = -1;
		goto out;
	}

	/* stonewall: everything before a stonewalled job finishes first */
	for (i = 0; i < nr && !ctx.stop; i = j) {
		for (j = i + 1; j < nr; j++)
			if (jobs[j].plan->o.stonewall && jobs[j].plan->clone == 0)
				break;
		for (unsigned int k = i; k < j; k++) {
			if (start_job(&jobs[k], err)) {
				ctx.stop = 1;
				ret = -1;
				j = k;
				break;
			}
		}
		for (unsigned int k = i; k < j; k++)
			pthread_join(jobs[k].thread, NULL);
		if (ret < 0)
			break;
	}

	s.done = 1;
	pthread_join(sampler_thread, NULL);
	for (i = 0; i < nr; i++)
		if (jobs[i].res.error || jobs[i].errmsg[0])
			failed = 1;
out:
	for (i = 0; i < nr; i++) {
		if (!jobs[i].iowq)
			continue;
		iowq_track_release(jobs[i].iowq);
		free(jobs[i].iowq);
		jobs[i].iowq = NULL;
	}
	current_ctx = NULL;
	free(s.last_ns);
	free(s.last_bytes);
	free(s.last_ios);
	free(s.seen);
	pthread_mutex_destroy(&ctx.lock);
	pthread_cond_destroy(&ctx.cond);
	if (ret < 0)
		return -1;
	return failed;
}

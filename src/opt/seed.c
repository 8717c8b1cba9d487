/* SPDX-License-Identifier: MIT */
/*
 * fio's seed for one of a job's random streams, where iolite draws what
 * fio draws (file sizes, Poisson gaps): util/prng.h has the recipe.
 */
#include <sys/random.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/prng.h"

void plan_draw_startdelay(struct job_plan *p)
{
	struct job_options *o = &p->o;
	struct prng_taus64 r;
	uint64_t span;

	if (!o->startdelay_hi_us)
		return;
	span = o->startdelay_hi_us - o->startdelay_us;
	prng_taus64_seed(&r, plan_fio_seed(p, STREAM_STARTDELAY));
	o->startdelay_us += prng_scale64(prng_taus64_next(&r), span + 1);
	o->startdelay_hi_us = 0;
}

/*
 * fio numbers a job's clones as it makes them, the first after the job
 * itself, but names each by a count going down: with numjobs=3 the
 * second job of the run is g.2.0 (and writes g_lat.2.log), the third
 * g.1.0. Clone k of n is fio's job (first + n - k), its seeds with it.
 */
unsigned int plan_fio_jobnr(const struct job_plan *p)
{
	unsigned int n = p->o.numjobs ? p->o.numjobs : 1;
	unsigned int first = p->job_index - p->clone + 1;

	if (!p->clone || p->clone >= n)
		return first + p->clone;
	return first + n - p->clone;
}

uint64_t plan_fio_seed(const struct job_plan *p, unsigned int stream)
{
	const struct job_options *o = &p->o;
	unsigned int nr = plan_fio_jobnr(p);
	struct timespec ts;
	uint64_t s;

	if (o->allrandrepeat)
		return prng_fio_allrand_seed(nr, stream);
	if (o->randrepeat || opt_is_set(o, "randseed"))
		return prng_fio_seed(o->randseed, nr, stream);
	/* neither: another sequence every run, as fio's */
	if (getrandom(&s, sizeof(s), 0) == (ssize_t)sizeof(s))
		return s;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
	       ((uint64_t)getpid() << 16) ^ stream;
}

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

uint64_t plan_fio_seed(const struct job_plan *p, unsigned int stream)
{
	const struct job_options *o = &p->o;
	unsigned int nr = p->job_index + 1;	/* fio's job number */
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

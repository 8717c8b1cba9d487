/* SPDX-License-Identifier: MIT */
/*
 * Per-I/O priority draws (see cmdprio.h): fio's rule, one draw per I/O
 * that may get a priority, r in 0..99; it gets one when r is below the
 * percentage (of its direction, or of its block size with
 * cmdprio_bssplit, whose entries for one size split that range in the
 * order given).
 */
#include "engine/cmdprio.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"

/* The PRNG stream of the priority draws, apart from the workload's. */
#define CMDPRIO_STREAM 16

static uint64_t job_seed(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	struct timespec ts;
	uint64_t s;

	if (o->randrepeat || opt_is_set(o, "randseed"))
		s = o->randseed;
	else if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
		    ((uint64_t)getpid() << 16);
	}
	return prng_derive(prng_derive(s, p->job_index), CMDPRIO_STREAM);
}

bool cmdprio_init(struct cmdprio *c, const struct job_plan *p)
{
	memset(c, 0, sizeof(*c));
	if (!p->prio)
		return false;
	c->pp = p->prio;
	c->def = p->prio->def;
	prng_taus_seed(&c->rng, job_seed(p));
	return true;
}

static inline unsigned int draw(struct cmdprio *c)
{
	return (unsigned int)(((uint64_t)prng_taus_next(&c->rng) * 100) >> 32);
}

bool cmdprio_pick(struct cmdprio *c, struct io_u *u)
{
	const struct prio_choice *ch;
	const struct prio_dir *pd;
	unsigned int r, i;

	u->ioprio = c->def;
	u->prio_idx = 0;
	if (!c->pp || u->ddir > DDIR_WRITE)
		return false;
	pd = &c->pp->dir[u->ddir];
	switch (pd->mode) {
	case PRIO_MODE_PERC:
		ch = &pd->perc;
		if (draw(c) >= ch->upto)
			return false;
		break;
	case PRIO_MODE_BSSPLIT:
		for (i = 0; i < pd->nr_bs && pd->bs[i].bs != u->len; i++)
			;
		if (i == pd->nr_bs)
			return false;
		r = draw(c);
		if (r >= pd->bs[i].total)
			return false;
		for (ch = &pd->choice[pd->bs[i].first]; r >= ch->upto; ch++)
			;
		break;
	default:
		return false;
	}
	u->ioprio = ch->ioprio;
	u->prio_idx = ch->idx;
	return true;
}

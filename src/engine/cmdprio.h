/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_CMDPRIO_H
#define IOLITE_ENGINE_CMDPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "opt/prio_opts.h"
#include "util/prng.h"

/*
 * Per-I/O priorities for the engines that can give each request its own
 * (io_uring: sqe->ioprio; libaio: iocb aio_reqprio with
 * IOCB_FLAG_IOPRIO), as fio's cmdprio options: for each read or write a
 * draw in 0..99 decides whether it gets the cmdprio priority (of its
 * block size, with cmdprio_bssplit) or the job's own. The draws are the
 * engine's own PRNG stream, repeatable with randrepeat / randseed.
 *
 * An engine calls cmdprio_init() once and, when it returns true (the
 * job has priorities at all), cmdprio_pick() for every read and write:
 * a job without priorities pays one predictable branch.
 */
struct cmdprio {
	const struct prio_plan *pp;
	uint16_t def;		/* the job's priority (0: none) */
	struct prng_taus rng;
};

bool cmdprio_init(struct cmdprio *c, const struct job_plan *p);

/*
 * Sets u->ioprio and u->prio_idx for a read or write; returns true when
 * u got a cmdprio priority rather than the job's.
 */
bool cmdprio_pick(struct cmdprio *c, struct io_u *u);

#endif

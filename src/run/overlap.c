/* SPDX-License-Identifier: MIT */
/*
 * serialize_overlap: the I/Os in flight, as a dense array of their
 * ranges (swap-remove on completion, pos[] says where each io_u is), so
 * that the check walks only what is in flight.
 */
#include "run/overlap.h"

#include <stdlib.h>

#include "util/log.h"

struct range {
	uint64_t start, end;	/* [start, end) */
	uint32_t file;
	uint32_t index;		/* the io_u */
};

struct overlap {
	unsigned int nr;	/* in flight */
	unsigned int nr_ios;
	unsigned int *pos;	/* per io_u: its slot in r, or UINT_MAX */
	struct range r[];
};

#define NOT_IN_FLIGHT (~0u)

struct overlap *overlap_new(bool on, unsigned int nr_ios)
{
	struct overlap *o;
	unsigned int i;

	if (!on || nr_ios < 2)
		return NULL;
	o = xcalloc(1, sizeof(*o) + nr_ios * sizeof(o->r[0]));
	o->nr_ios = nr_ios;
	o->pos = xcalloc(nr_ios, sizeof(*o->pos));
	for (i = 0; i < nr_ios; i++)
		o->pos[i] = NOT_IN_FLIGHT;
	return o;
}

void overlap_free(struct overlap *o)
{
	if (!o)
		return;
	free(o->pos);
	free(o);
}

bool overlap_busy(const struct overlap *o, const struct io_u *u)
{
	uint64_t start = u->offset, end = u->offset + u->len;
	unsigned int i;

	for (i = 0; i < o->nr; i++) {
		const struct range *r = &o->r[i];

		if (r->file == u->file && r->start < end && start < r->end &&
		    r->index != u->index)
			return true;
	}
	return false;
}

void overlap_issue(struct overlap *o, const struct io_u *u)
{
	struct range *r;

	if (o->pos[u->index] != NOT_IN_FLIGHT)
		return;		/* the rest of a short transfer */
	r = &o->r[o->nr];
	r->start = u->offset;
	r->end = u->offset + u->len;
	r->file = u->file;
	r->index = u->index;
	o->pos[u->index] = o->nr++;
}

void overlap_done(struct overlap *o, const struct io_u *u)
{
	unsigned int p = o->pos[u->index];

	if (p == NOT_IN_FLIGHT)
		return;
	o->pos[u->index] = NOT_IN_FLIGHT;
	if (p != --o->nr) {
		o->r[p] = o->r[o->nr];
		o->pos[o->r[p].index] = p;
	}
}

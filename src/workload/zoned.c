/* SPDX-License-Identifier: MIT */
/*
 * random_distribution=zoned and zoned_abs: the table a direction's draws
 * pick their zone from, built for each window (a file's region, or a
 * strided zone). Split out of workload.c; drawing from the table stays
 * there, on the I/O path (zoned_block).
 */
#include "workload/workload_int.h"

/* pct percent of v, without overflow */
static uint64_t pct_of(uint64_t v, uint64_t pct)
{
	return v / 100 * pct + v % 100 * pct / 100;
}

/*
 * The zone table of direction d over a window of wsize bytes holding
 * nblk random positions of align bytes. Zones are laid end to end from
 * the window start and cut at its end; one that starts past the end
 * drops out and its share of the accesses goes to the others.
 */
void zoned_build(struct workload *w, struct wl_rand *q,
			uint64_t wsize, uint64_t align)
{
	const struct job_options *o = w->o;
	const struct rdist_zone *z = o->rdist_zones[q->zdir];
	unsigned int nz = o->nr_rdist_zones[q->zdir], i, j, nrest = 0;
	bool abs = o->random_distribution == RDIST_ZONED_ABS;
	struct wl_zoned *t = q->zt;
	uint64_t lo = 0, fixed = 0, rest = 0;

	for (i = 0; i < nz; i++) {
		if (z[i].rest)
			nrest++;
		else if (abs)
			fixed = fixed + z[i].size < fixed ? UINT64_MAX :
				fixed + z[i].size;
	}
	if (nrest && wsize > fixed)
		rest = (wsize - fixed) / nrest;
	t->nslots = 0;
	t->nz = 0;
	for (i = 0; i < nz; i++) {
		uint64_t bytes, b0, b1;

		if (abs)
			bytes = z[i].rest ? rest : z[i].size;
		else
			bytes = pct_of(wsize, z[i].size);
		b0 = lo / align;
		lo = lo + bytes < lo ? UINT64_MAX : lo + bytes;
		b1 = lo / align;
		if (!z[i].access || b0 >= q->nblk)
			continue;
		if (b1 > q->nblk)
			b1 = q->nblk;
		if (b1 <= b0)	/* less than a block: still one */
			b1 = b0 + 1;
		t->z[t->nz].first = b0;
		t->z[t->nz].n = b1 - b0;
		for (j = 0; j < z[i].access && t->nslots < ZONE_SLOTS; j++)
			t->slot[t->nslots++] = (uint16_t)t->nz;
		t->nz++;
	}
	if (!t->nslots) {
		/* nothing left inside the window: uniform over it */
		t->z[0].first = 0;
		t->z[0].n = q->nblk;
		t->slot[0] = 0;
		t->nslots = 1;
		t->nz = 1;
	}
}

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_BSDRAW_H
#define IOLITE_WORKLOAD_BSDRAW_H

/*
 * Block sizes as fio draws them: one stream per direction (seeded in
 * workload_init.c), fio's scaling of a draw to a size, and fio's rule for
 * a size that does not fit. Only workload.c includes it (its next()).
 */
#include "workload/workload_int.h"

/* The next draw of direction d's block-size stream (fio's). */
static inline uint64_t bs_draw(struct workload *w, unsigned int d)
{
	w->bs_r = w->bs64 ? prng_taus64_next(&w->r_bs.t64[d]) :
			    prng_taus_next(&w->r_bs.t[d]);
	return w->bs_r;
}

/*
 * fio's size for the draw r: a range scales r to [min, min + max), cut
 * to a multiple of min (but with bs_unaligned), and what passes max is
 * max (bsrange=4k-64k: 64k twice as likely as the others; 3k-8k: 3k,
 * 6k, 8k as 3:3:2); bssplit takes the percent r falls in (the slots in
 * fio's order, by percentage, smallest first), and a draw past the
 * percentages' sum the last size.
 */
static inline uint32_t bs_of_draw(const struct workload *w,
				  const struct wl_bs *b, uint64_t r,
				  uint32_t *slot)
{
	double u = w->bs64 ? (double)r / 18446744073709551616.0 :
			     (double)r / 4294967296.0;
	uint64_t v;

	if (b->kind == BS_SPLIT) {
		/* fio: r / cum <= max / 100, the first cumulative that holds */
		uint64_t q = (w->bs64 ? UINT64_MAX : UINT32_MAX) / 100 + 1;

		*slot = (uint32_t)(r / q);
		return b->split[*slot < b->nsplit ? *slot : b->nsplit - 1];
	}
	v = b->min + (uint64_t)((double)b->max * u);
	if (!b->unaligned)
		v -= v % b->min;
	return v > b->max ? b->max : (uint32_t)v;
}

static inline uint32_t bs_pick(struct workload *w, const struct wl_bs *b,
			       unsigned int d)
{
	if (b->kind == BS_FIXED)
		return b->min;		/* no draw, as fio */
	return bs_of_draw(w, b, bs_draw(w, d), &w->split_slot);
}

/*
 * A size of b for avail (>= b->min) bytes when the one drawn does not
 * fit: fio's rule. bssplit: the first size that fits from the drawn
 * percent on, else (none, or the draw was past the percentages) a new
 * draw; bsrange: new draws until one fits. A job whose sizes of more
 * than 0% never fit gets the smallest after many draws (fio would spin).
 */
static __attribute__((noinline)) uint32_t bs_fit(struct workload *w, const struct wl_bs *b,
		       uint64_t avail, unsigned int d)
{
	uint32_t s = w->split_slot, v;
	unsigned int tries;

	for (tries = 0; tries < 10000; tries++) {
		if (tries) {
			v = bs_of_draw(w, b, bs_draw(w, d), &s);
			if (v <= avail)
				return v;
		}
		if (b->kind != BS_SPLIT)
			continue;
		for (; s < b->nsplit; s++)
			if (b->split[s] <= avail)
				return b->split[s];
	}
	return b->min;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * active_segments (iolite's own option; SNIA PTS-C's ActiveRange
 * segmentation): a random job's offsets confined to N segments of S
 * bytes each, spread over the file's region at random, no two touching.
 *
 * Placement: the region holds G = region / S slots of S bytes; N of them
 * are taken with at least one free slot between any two: N distinct
 * numbers drawn from 0 .. G - N (Floyd's sampling: N draws, uniform over
 * every such choice), sorted, the k-th moved on by k slots. The draws
 * come from a fixed seed, so every job (and every numjobs clone, every
 * run) with the same region, N and S gets the same segments: the
 * segments are the device's test range, not the job's.
 *
 * Drawing: one uniform number over the N segments' positions together,
 * then segment = n / positions, block = its first + n % positions:
 * uniform over the union, one 64-bit PRNG step and one division. Only
 * this mode's jobs pay it (rand_block's own case; no fast path).
 */
#include "workload/workload_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#define SEG_SEED 0x5345474d454e5453ULL	/* "SEGMENTS" */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* n distinct numbers of 0 .. m - 1 (n <= m), sorted, into out */
static void pick_sorted(uint64_t *out, uint64_t n, uint64_t m)
{
	uint64_t size = 1, mask, j, k, used = 0, *set;
	struct prng_taus64 r;

	while (size < 2 * n)
		size <<= 1;
	mask = size - 1;
	set = xmalloc(size * sizeof(*set));
	for (k = 0; k < size; k++)
		set[k] = UINT64_MAX;
	prng_taus64_seed(&r, SEG_SEED);
	/* Floyd: for j = m - n .. m - 1, t in 0 .. j; taken already: j */
	for (j = m - n; j < m; j++) {
		uint64_t t = prng_scale64(prng_taus64_next(&r), j + 1), h;

		for (h = (t * 0x9e3779b97f4a7c15ULL) & mask; set[h] != t &&
		     set[h] != UINT64_MAX; h = (h + 1) & mask)
			;
		if (set[h] == t)
			t = j;	/* j is new: nothing above j was drawn */
		for (h = (t * 0x9e3779b97f4a7c15ULL) & mask;
		     set[h] != UINT64_MAX; h = (h + 1) & mask)
			;
		set[h] = t;
		out[used++] = t;
	}
	free(set);
	qsort(out, n, sizeof(*out), cmp_u64);
}

bool wl_segs_fit(uint64_t region, uint64_t n, uint64_t size)
{
	return size && n && region / size >= 2 * n - 1;
}

int wl_segs_build(struct workload *w, struct wl_rand *q, uint64_t wsize,
		  uint64_t align)
{
	const struct job_options *o = w->o;
	uint64_t n = o->act_segs, size = o->act_seg_size, maxbs, k;
	struct wl_segs *s;

	if (!wl_segs_fit(wsize, n, size))
		return -ERANGE;
	maxbs = w->bs[q->zdir].max;
	s = xmalloc(sizeof(*s) + n * sizeof(s->first[0]));
	s->n = n;
	/* the positions whose block ends inside the segment */
	s->len = (size - maxbs) / align + 1;
	s->total = n * s->len;
	pick_sorted(s->first, n, wsize / size - (n - 1));
	for (k = 0; k < n; k++)
		s->first[k] = (s->first[k] + k) * size / align;
	free(q->segs);
	q->segs = s;
	return 0;
}

int wl_segs_check(const struct job_plan *p, const struct engine_file *files,
		  unsigned int nr_files, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int i;

	for (i = 0; o->act_segs && i < nr_files; i++)
		if (!wl_segs_fit(files[i].io_size, o->act_segs,
				 o->act_seg_size))
			return wl_fail(p, err, "option 'active_segments': %u "
				       "segments of %" PRIu64 " bytes, no two "
				       "touching, need %" PRIu64 " bytes; the "
				       "region of '%s' is %" PRIu64 " bytes",
				       o->act_segs, o->act_seg_size,
				       (2 * (uint64_t)o->act_segs - 1) *
				       o->act_seg_size, files[i].path ?
				       files[i].path : "", files[i].io_size);
	return 0;
}

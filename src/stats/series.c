/* SPDX-License-Identifier: MIT */
/*
 * Bounded rate series (stats/series.h): appended by the sampler thread,
 * summed when results are merged. Never on the I/O path.
 */
#include <string.h>

#include "stats/series.h"

/* Pairs up neighbours: half the points, each covering twice the time. */
static void series_halve(struct series *s)
{
	uint32_t i, n = s->nr / 2;

	for (i = 0; i < n; i++)
		s->v[i] = (s->v[2 * i] + s->v[2 * i + 1] + 1) / 2;
	/* an odd last point stands alone: it keeps its value */
	if (s->nr & 1)
		s->v[n++] = s->v[s->nr - 1];
	s->nr = n;
	s->period_ms *= 2;
	s->stride *= 2;
}

void series_add(struct series *s, uint64_t v, uint32_t period_ms)
{
	if (!s->stride) {
		s->period_ms = period_ms;
		s->stride = 1;
	}
	s->pend_sum += v;
	if (++s->pend_n < s->stride)
		return;
	if (s->nr == SERIES_MAX) {
		/* the pending samples make half a point of the new width */
		series_halve(s);
		return;
	}
	s->v[s->nr++] = (s->pend_sum + s->stride / 2) / s->stride;
	s->pend_sum = 0;
	s->pend_n = 0;
}

void series_sum(struct series *dst, const struct series *src)
{
	struct series tmp;
	uint32_t i;

	if (!src->nr)
		return;
	if (!dst->nr) {
		*dst = *src;
		return;
	}
	while (dst->period_ms < src->period_ms && dst->nr > 1)
		series_halve(dst);
	if (src->period_ms < dst->period_ms) {
		tmp = *src;
		while (tmp.period_ms < dst->period_ms && tmp.nr > 1)
			series_halve(&tmp);
		src = &tmp;
	}
	for (i = 0; i < src->nr; i++) {
		if (i < dst->nr)
			dst->v[i] += src->v[i];
		else
			dst->v[i] = src->v[i];
	}
	if (src->nr > dst->nr)
		dst->nr = src->nr;
}

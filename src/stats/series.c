/* SPDX-License-Identifier: MIT */
/* Bounded time series of bandwidth and IOPS samples: see series.h. */
#include "stats/series.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static unsigned int per_point(const struct series *s)
{
	return s->per_point ? s->per_point : 1;
}

/* The latency of a and b's I/Os together: each weighted by its count. */
static double lat_mix(double la, double wa, double lb, double wb)
{
	return wa + wb > 0 ? (la * wa + lb * wb) / (wa + wb) : 0;
}

/* Points 2i and 2i + 1 become point i: half as many, twice as long. */
static void halve(struct series *s)
{
	unsigned int i, k = 0;

	for (i = 0; i < s->nr; i += 2, k++) {
		struct series_point p = s->pt[i];

		if (i + 1 < s->nr) {
			const struct series_point *b = &s->pt[i + 1];
			unsigned int n = p.n + b->n;

			p.lat = lat_mix(p.lat, p.v * p.n, b->lat, b->v * b->n);
			p.v = (p.v * p.n + b->v * b->n) / n;
			p.lo = b->lo < p.lo ? b->lo : p.lo;
			p.hi = b->hi > p.hi ? b->hi : p.hi;
			p.t_ms = b->t_ms;
			p.n = n;
		}
		s->pt[k] = p;
	}
	s->nr = k;
	s->per_point = per_point(s) * 2;
}

void series_add(struct series *s, uint64_t t_ms, double v)
{
	series_add_lat(s, t_ms, v, 0);
}

void series_add_lat(struct series *s, uint64_t t_ms, double v, double lat)
{
	struct series_point *p;

	if (s->nr && s->pt[s->nr - 1].n < per_point(s)) {
		p = &s->pt[s->nr - 1];
		p->lat = lat_mix(p->lat, p->v * p->n, lat, v);
		p->v += (v - p->v) / (p->n + 1);
		p->lo = v < p->lo ? v : p->lo;
		p->hi = v > p->hi ? v : p->hi;
		p->t_ms = t_ms;
		p->n++;
		return;
	}
	if (s->nr == SERIES_MAX)
		halve(s);
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 16;
		if (s->alloc > SERIES_MAX)
			s->alloc = SERIES_MAX;
		s->pt = xrealloc(s->pt, s->alloc * sizeof(*s->pt));
	}
	p = &s->pt[s->nr++];
	p->t_ms = t_ms;
	p->v = p->lo = p->hi = v;
	p->n = 1;
	p->lat = lat;
}

void series_copy(struct series *dst, const struct series *src)
{
	*dst = *src;
	dst->pt = NULL;
	dst->alloc = src->nr;
	if (src->nr) {
		dst->pt = xmalloc(src->nr * sizeof(*src->pt));
		memcpy(dst->pt, src->pt, src->nr * sizeof(*src->pt));
	}
}

void series_sum(struct series *dst, const struct series *src)
{
	struct series tmp;
	unsigned int i;

	if (!src->nr)
		return;
	if (!dst->nr) {
		series_release(dst);
		series_copy(dst, src);
		return;
	}
	series_copy(&tmp, src);
	while (per_point(dst) < per_point(&tmp))
		halve(dst);
	while (per_point(&tmp) < per_point(dst))
		halve(&tmp);
	for (i = 0; i < tmp.nr; i++) {
		struct series_point *d = &dst->pt[i];
		const struct series_point *a = &tmp.pt[i];

		if (i == dst->nr) {
			/* only src ran this long: its points as they are */
			if (dst->nr == dst->alloc) {
				dst->alloc = SERIES_MAX;
				dst->pt = xrealloc(dst->pt,
						   dst->alloc * sizeof(*dst->pt));
			}
			dst->pt[dst->nr++] = *a;
			continue;
		}
		d->lat = lat_mix(d->lat, d->v, a->lat, a->v);
		d->v += a->v;
		d->lo += a->lo;
		d->hi += a->hi;
		if (a->t_ms > d->t_ms)
			d->t_ms = a->t_ms;
		if (a->n > d->n)
			d->n = a->n;
	}
	series_release(&tmp);
}

void series_reset(struct series *s)
{
	s->nr = 0;
	s->per_point = 0;
}

void series_release(struct series *s)
{
	free(s->pt);
	memset(s, 0, sizeof(*s));
}

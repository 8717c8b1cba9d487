/* SPDX-License-Identifier: MIT */
/* Per-kind request tables (util/reqstat.h). */
#include <stdio.h>
#include <string.h>

#include "util/reqstat.h"
#include "util/strbuf.h"

const char *req_kind_name(enum req_kind k)
{
	static const char *const names[REQ_NR] = {
		"PUT", "GET", "HEAD", "DELETE",
	};

	return (unsigned int)k < REQ_NR ? names[k] : "?";
}

struct reqstats *reqstats_new(const char *name)
{
	struct reqstats *s = xcalloc(1, sizeof(*s));

	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

/* Below 64 a bucket each; above, 32 buckets per power of two. */
static unsigned int req_lat_index(uint64_t v)
{
	unsigned int msb = 63u - (unsigned int)__builtin_clzll(v | 1);
	unsigned int shift = msb > REQ_LAT_BITS ? msb - REQ_LAT_BITS : 0;
	unsigned int idx = (shift << REQ_LAT_BITS) + (unsigned int)(v >> shift);

	return idx < REQ_LAT_NR ? idx : REQ_LAT_NR - 1;
}

/*
 * The bucket's first value and its width: below 64 the value itself;
 * above, idx = (shift << BITS) + (v >> shift) with v >> shift in
 * [32, 64), so idx >> BITS is shift + 1.
 */
static void req_lat_bounds(unsigned int idx, uint64_t *lo, uint64_t *w)
{
	unsigned int shift;

	if (idx < 2u << REQ_LAT_BITS) {
		*lo = idx;
		*w = 1;
		return;
	}
	shift = (idx >> REQ_LAT_BITS) - 1;
	*lo = (uint64_t)(idx - (shift << REQ_LAT_BITS)) << shift;
	*w = 1ull << shift;
}

void req_lat_add(struct req_lat *l, uint64_t ns)
{
	if (!l->n || ns < l->min)
		l->min = ns;
	if (ns > l->max)
		l->max = ns;
	l->n++;
	l->sum += ns;
	l->bucket[req_lat_index(ns)]++;
}

static void req_lat_merge(struct req_lat *d, const struct req_lat *s)
{
	unsigned int i;

	if (!s->n)
		return;
	if (!d->n || s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
	d->n += s->n;
	d->sum += s->sum;
	for (i = 0; i < REQ_LAT_NR; i++)
		d->bucket[i] += s->bucket[i];
}

void reqstats_merge(struct reqstats *dst, const struct reqstats *src)
{
	unsigned int k;

	for (k = 0; k < REQ_NR; k++) {
		struct req_kind_stat *d = &dst->k[k];
		const struct req_kind_stat *s = &src->k[k];

		d->requests += s->requests;
		d->errors += s->errors;
		d->not_found += s->not_found;
		d->bytes += s->bytes;
		req_lat_merge(&d->lat, &s->lat);
		req_lat_merge(&d->ttfb, &s->ttfb);
	}
}

struct reqstats *reqstats_dup(const struct reqstats *s)
{
	struct reqstats *c;

	if (!s)
		return NULL;
	c = xmalloc(sizeof(*c));
	memcpy(c, s, sizeof(*c));
	return c;
}

uint64_t req_lat_pct(const struct req_lat *l, double pct)
{
	uint64_t rank, seen = 0, lo, w, v;
	unsigned int i;

	if (!l->n)
		return 0;
	/* the sample of rank ceil(pct% of n), at least the first */
	rank = (uint64_t)((double)l->n * pct / 100.0 + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank >= l->n)
		return l->max;
	for (i = 0; i < REQ_LAT_NR; i++) {
		seen += l->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == REQ_LAT_NR)
		return l->max;
	req_lat_bounds(i, &lo, &w);
	v = lo + w / 2;
	if (v < l->min)
		v = l->min;
	if (v > l->max)
		v = l->max;
	return v;
}

bool reqstats_any(const struct reqstats *s)
{
	unsigned int k;

	for (k = 0; s && k < REQ_NR; k++)
		if (s->k[k].requests || s->k[k].errors)
			return true;
	return false;
}

/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "stats/stats.h"

void worker_stats_init(struct worker_stats *s)
{
	unsigned int d;

	memset(s, 0, sizeof(*s));
	/* min "unset": the first sample always replaces it */
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		s->dir[d].slat.min = UINT64_MAX;
		s->dir[d].clat.min = UINT64_MAX;
		s->dir[d].lat.min = UINT64_MAX;
	}
	s->sync_lat.min = UINT64_MAX;
}

/*
 * fio's lat buckets are labelled by their exclusive upper edge: "2=" holds
 * 0-1, "4=" 2-3, "10=" 4-9, "20=" 10-19, "50=" 20-49, "100=" 50-99,
 * "250=" 100-249, "500=" 250-499, "750=" 500-749, "1000=" 750-999, and in
 * milliseconds also "2000=" 1000-1999 and ">=2000=". A value's bit length
 * picks a row; within a row at most two edges remain, so the bucket is
 * the row's first index plus two comparisons. 0xffff is "no edge".
 */
struct lat_row {
	uint8_t first;
	uint16_t edge1, edge2;
};

static const struct lat_row lat_rows[13] = {
	[0] = { 0, 0xffff, 0xffff },	/* 0 */
	[1] = { 0, 0xffff, 0xffff },	/* 1 */
	[2] = { 1, 0xffff, 0xffff },	/* 2-3 */
	[3] = { 2, 0xffff, 0xffff },	/* 4-7 */
	[4] = { 2, 10, 0xffff },	/* 8-15 */
	[5] = { 3, 20, 0xffff },	/* 16-31 */
	[6] = { 4, 50, 0xffff },	/* 32-63 */
	[7] = { 5, 100, 0xffff },	/* 64-127 */
	[8] = { 6, 250, 0xffff },	/* 128-255 */
	[9] = { 7, 500, 0xffff },	/* 256-511 */
	[10] = { 8, 750, 1000 },	/* 512-1023 */
	[11] = { 10, 2000, 0xffff },	/* 1024-2047 */
	[12] = { 11, 0xffff, 0xffff },	/* 2048-4095 */
};

static inline unsigned int lat_index(uint64_t v)
{
	unsigned int bits;
	const struct lat_row *r;

	bits = v ? 64u - (unsigned int)__builtin_clzll(v) : 0;
	if (bits > 12)
		return LAT_MS_NR - 1;
	r = &lat_rows[bits];
	return r->first + (v >= r->edge1) + (v >= r->edge2);
}

void stats_lat_bucket(struct worker_stats *s, uint64_t ns)
{
	if (ns < 1000)
		s->lat_ns[lat_index(ns)]++;
	else if (ns < 1000000)
		s->lat_us[lat_index(ns / 1000)]++;
	else
		s->lat_ms[lat_index(ns / 1000000)]++;
}

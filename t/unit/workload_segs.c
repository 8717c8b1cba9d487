/* SPDX-License-Identifier: MIT */
/*
 * active_segments (src/workload/segments.c): random offsets confined to
 * N segments of S bytes placed at random over the region, no two
 * touching: every offset (and block) inside a segment, every segment
 * hit about evenly, the same segments for every clone and direction,
 * the refusals named.
 */
#include "workload_fx.h"

#define MB (1024 * KB)
#define NIO 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Draws NIO I/Os of spec over a region of size; the segments seen (the
 * S-slots hit, sorted) into seg, their hit counts into hits; returns the
 * number of slots hit, or 0 when an I/O left its slot or the region.
 */
static size_t slots(const char *spec, uint64_t size, uint64_t seg_size,
		    unsigned int job_index, uint64_t *seg, uint64_t *hits,
		    size_t max)
{
	uint64_t *all = malloc(NIO * sizeof(*all));
	struct io_u u;
	struct fx f;
	size_t i, n = 0, bad = 0;

	if (build_idx(&f, spec, size, 1, job_index)) {
		diag("%s: %s", spec, strbuf_str(&f.err));
		free(all);
		return 0;
	}
	for (i = 0; i < NIO; i++) {
		uint64_t off;

		memset(&u, 0, sizeof(u));
		next_io(f.w, &u);
		off = rel(&f, &u);
		all[i] = off / seg_size;
		/* the block ends in the slot its offset is in */
		bad += off + u.len > size ||
		       (off + u.len - 1) / seg_size != all[i];
	}
	qsort(all, NIO, sizeof(*all), cmp_u64);
	for (i = 0; i < NIO; i++) {
		if (i && all[i] == all[i - 1]) {
			hits[n - 1]++;
			continue;
		}
		if (n == max) {
			bad++;
			break;
		}
		seg[n] = all[i];
		hits[n++] = 1;
	}
	free(all);
	fx_free(&f);
	return bad ? 0 : n;
}

static void test_segments(void)
{
	static uint64_t seg[4096], hits[4096], seg2[4096], h2[4096];
	size_t n, n2, k;
	uint64_t lo = UINT64_MAX, hi = 0;
	int apart = 1, same = 1;

	/* PTS-C's 2048 segments over 64 MiB: 8k each, 4k blocks */
	n = slots("rw=randwrite bs=4k active_segments=2048 "
		  "active_segment_size=8k", 64 * MB, 8 * KB, 0, seg, hits,
		  4096);
	ok(n == 2048, "2048 segments of 8k: every I/O inside one, all 2048 "
	   "hit (%zu)", n);
	for (k = 0; k < n; k++) {
		if (k)
			apart &= seg[k] >= seg[k - 1] + 2;
		lo = hits[k] < lo ? hits[k] : lo;
		hi = hits[k] > hi ? hits[k] : hi;
	}
	ok(n && apart, "no two segments touch");
	/* ~97.7 I/Os a segment: a binomial's spread, not a skew */
	ok(n && lo >= 50 && hi <= 160, "segments hit evenly: %" PRIu64
	   " to %" PRIu64 " I/Os each (mean %.1f)", lo, hi, NIO / 2048.0);
	ok(n && seg[0] < 100 && seg[n - 1] > 8192 - 100,
	   "spread over the whole region: slots %" PRIu64 " .. %" PRIu64
	   " of 8192", n ? seg[0] : 0, n ? seg[n - 1] : 0);

	/* another clone, and reads with writes: the same segments */
	n2 = slots("rw=randrw bs=4k active_segments=2048 "
		   "active_segment_size=8k", 64 * MB, 8 * KB, 3, seg2, h2,
		   4096);
	for (k = 0; k < n && k < n2; k++)
		same &= seg[k] == seg2[k];
	ok(n2 == n && same, "clone 3, rw=randrw: the same 2048 segments");

	/* a block size range: every block ends inside its segment */
	n = slots("rw=randread bsrange=4k-16k active_segments=64 "
		  "active_segment_size=64k", 16 * MB, 64 * KB, 0, seg, hits,
		  4096);
	ok(n == 64, "bsrange=4k-16k: blocks end in their segment, all 64 "
	   "hit (%zu)", n);

	/* the tightest fit: 2N - 1 slots, every other one */
	n = slots("rw=randread bs=4k active_segments=8 "
		  "active_segment_size=4k", 15 * 4 * KB, 4 * KB, 0, seg,
		  hits, 64);
	for (k = 0, apart = n == 8; apart && k < n; k++)
		apart = seg[k] == 2 * k;
	ok(apart, "8 segments in 15 slots: slots 0, 2, .. 14");
}

static void expect_fail(const char *spec, uint64_t size, const char *msg)
{
	struct fx f;
	int failed = build(&f, spec, size, 1) < 0;

	if (!failed)
		failed = workload_check(&f.p, f.files, f.nr, &f.err) < 0;
	ok(failed && strstr(strbuf_str(&f.err), msg), "%s: refused: %s",
	   spec, strbuf_str(&f.err));
	if (f.w)
		workload_free(f.w);
	strbuf_release(&f.err);
}

static void test_errors(void)
{
	expect_fail("rw=randread active_segments=4", MB,
		    "option 'active_segments': needs active_segment_size");
	expect_fail("rw=read active_segments=4 active_segment_size=4k", MB,
		    "needs random offsets");
	expect_fail("rw=randread active_segments=4 active_segment_size=6k",
		    MB, "option 'active_segment_size': 6144 is not a "
		    "multiple of the block size 4096");
	expect_fail("rw=randread active_segments=4 active_segment_size=4k "
		    "norandommap=0", MB, "option 'norandommap'");
	expect_fail("rw=randread active_segments=4 active_segment_size=4k "
		    "random_distribution=zipf:1.2", MB,
		    "option 'random_distribution'");
	expect_fail("rw=randread active_segments=8 active_segment_size=4k",
		    14 * 4 * KB, "option 'active_segments': 8 segments of "
		    "4096 bytes, no two touching, need 61440 bytes");
}

int main(void)
{
	test_segments();
	test_errors();
	return done_testing();
}

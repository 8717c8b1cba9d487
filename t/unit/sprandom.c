/* SPDX-License-Identifier: MIT */
/*
 * sprandom's sequence (src/workload/sprandom.[ch]): the validity targets
 * against the figures fio 3.42 prints with --debug=sprandom, and the
 * shape of the writes (regions, rewrites, the ends) as measured with its
 * write_iolog.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "workload/sprandom.h"

/* fio 3.42's "validity resampled" lines, two decimals */
static void check_validity(double op, unsigned int n, const double *want)
{
	double v[8];
	unsigned int i;
	int good = 1;

	spr_validity(op, n, v);
	for (i = 0; i < n; i++)
		if (fabs(v[i] - want[i]) > 0.005 + 1e-9) {
			diag("region %u: %.4f, fio 3.42: %.2f", i, v[i],
			     want[i]);
			good = 0;
		}
	ok(good, "validity op=%g over %u regions: fio 3.42's (%.3f .. %.3f)",
	   op, n, v[0], v[n - 1]);
}

struct run {
	uint64_t n, distinct, *order;
	unsigned char *seen;
};

static void run_all(struct spr *s, uint64_t nblk, struct run *r)
{
	uint64_t b;

	memset(r, 0, sizeof(*r));
	r->seen = calloc(nblk, 1);
	r->order = calloc(2 * nblk + 16, sizeof(*r->order));
	while (spr_next(s, &b)) {
		if (b >= nblk)
			break;
		r->distinct += !r->seen[b]++;
		r->order[r->n++] = b;
	}
}

/*
 * The shape (no region's rewrites reach R here): region k is writes
 * [kR, (k+1)R); region 0 is new writes; region k's rewrites are blocks
 * region k-1 wrote, in its order, in one run: from its second write on,
 * or (deferred) up to its end. Returns region 1's rewrites, or -1 when
 * the shape is broken.
 */
static long check_shape(const struct run *r, uint64_t nblk, uint64_t R,
			bool defer)
{
	unsigned char *seen = calloc(nblk, 1);
	uint64_t k, i;
	long inv1 = -1;

	for (k = 0; k * R < r->n; k++) {
		uint64_t lo = k * R, hi = lo + R < r->n ? lo + R : r->n;
		uint64_t pos = lo - (k ? R : 0), first = 0, last = 0, m = 0;

		for (i = lo; i < hi; i++) {
			uint64_t b = r->order[i];

			if (!seen[b]) {
				seen[b] = 1;
				continue;
			}
			if (!k)
				goto bad;
			if (!m++)
				first = i;
			last = i;
			while (pos < lo && r->order[pos] != b)
				pos++;
			if (pos++ == lo)
				goto bad;
		}
		/* one run, where it belongs */
		if (m && (last != first + m - 1 ||
			  (defer ? last != hi - 1 : first != lo + 1)))
			goto bad;
		if (k == 1)
			inv1 = (long)m;
	}
	free(seen);
	return inv1;
bad:
	free(seen);
	return -1;
}

int main(void)
{
	static const double v1[] = { 0.41, 0.55, 0.74, 1.00 };
	static const double v2[] = { 0.35, 0.45, 0.58, 0.76, 1.00 };
	static const double v3[] = { 0.98, 0.99, 0.99, 1.00, 1.00 };
	static const double v4[] = { 0.75, 1.00 };
	struct spr s;
	struct run r;
	long inv;

	check_validity(0.5, 4, v1);
	check_validity(0.6, 5, v2);
	check_validity(0.01, 5, v3);
	check_validity(0.15, 2, v4);

	/* fio 3.42: P = ceil(4096 x 1.15) = 4711, R = 1177 */
	ok(spr_phys_blocks(4096, 0.15) == 4711 &&
	   spr_region_writes(4096, 0.15, 4) == 1177 &&
	   spr_region_writes(4096, 0.15, 7) == 673 &&
	   spr_region_writes(65536, 0.3, 3) == 28399,
	   "physical capacity and region sizes as fio 3.42's");
	ok(spr_region_writes(256, 0.15, 1000) == 0, "too many regions: none");

	ok(!spr_init(&s, 4096, 0.15, 4, false, 1, 2), "init");
	run_all(&s, 4096, &r);
	ok(r.n <= 4711 && r.n > 4096 + 400, "4096 blocks, 4 regions: %llu "
	   "writes (fio 3.42: 4701, at most 4711)", (unsigned long long)r.n);
	ok(r.distinct == 4096, "every block written");
	inv = check_shape(&r, 4096, 1177, false);
	ok(inv > 230 && inv < 360, "regions, rewrites of the region before "
	   "in its order (region 1: %ld; fio 3.42: 300)", inv);
	ok(check_shape(&r, 4096, 1177, true) == -1,
	   "the shape check tells deferred rewrites from these");
	spr_release(&s);
	free(r.seen);
	free(r.order);

	ok(!spr_init(&s, 4096, 0.15, 4, true, 1, 2), "init, spr_cs");
	run_all(&s, 4096, &r);
	inv = check_shape(&r, 4096, 1177, true);
	ok(inv > 230 && inv < 360 && r.order[1177] != r.order[0] &&
	   r.distinct == 4096, "spr_cs: the rewrites end each region");
	spr_release(&s);
	free(r.seen);
	free(r.order);

	/* fio 3.42: 51 regions of 5 over 256 blocks, then the end */
	ok(!spr_init(&s, 256, 0, 50, false, 3, 4), "init, op 0");
	run_all(&s, 256, &r);
	ok(r.n == 255 && r.distinct == 255, "op=0, 50 regions of 5 blocks: "
	   "255 writes (region 50 is the last), as fio 3.42");
	spr_release(&s);
	free(r.seen);
	free(r.order);

	return done_testing();
}

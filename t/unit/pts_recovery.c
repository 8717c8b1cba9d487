/* SPDX-License-Identifier: MIT */
/*
 * The recovery tests' arithmetic on hand-made figures: host idle
 * recovery's IOPS over a wait state's access periods only (pts/hir.c),
 * cross-stimulus recovery's settled throughput (pts/xsr.c).
 */
#include <math.h>

#include "tap.h"
#include "pts/pts_int.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

int main(void)
{
	/* 600 ms of 50 ms busy + 100 ms idle: 200 ms busy, 3000 I/Os */
	ok(NEAR(pts_hir_access_iops(3000, 600, 50, 100), 15000),
	   "3000 I/Os, a third of 600 ms busy: 15000 IOPS");
	/* wait state 10 of 5 s: 360 x 55 s = 19800 s, 1800 s busy */
	ok(NEAR(pts_hir_access_iops(90000000, 19800000, 5000, 50000), 50000),
	   "the spec's W=10: 1800 s busy of 19800 s");
	ok(NEAR(pts_hir_access_iops(1000, 2000, 5000, 0), 500),
	   "no wait: the run's own IOPS");
	ok(pts_hir_access_iops(1000, 0, 5000, 5000) == 0 &&
	   pts_hir_access_iops(1000, 100, 0, 5000) == 0,
	   "no time: 0, not a division by zero");
	if (!ok(pts_hir_wait[0] == 1 && pts_hir_wait[1] == 2 &&
		pts_hir_wait[2] == 3 && pts_hir_wait[3] == 5 &&
		pts_hir_wait[4] == 10, "the wait states 1, 2, 3, 5, 10"))
		diag("%u", pts_hir_wait[4]);
	{
		double bw[10] = { 9, 9, 9, 9, 9, 9, 9, 9, 2, 4 };
		double three[3] = { 1, 2, 6 };

		ok(NEAR(pts_xsr_settled(bw, 10), 3),
		   "the last fifth of 10 samples: the last 2, mean 3");
		ok(NEAR(pts_xsr_settled(three, 3), 6),
		   "fewer than 5 samples: the last one");
		ok(pts_xsr_settled(bw, 0) == 0, "no samples: 0");
	}
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* serialize_overlap (src/run/overlap.c): which I/Os must wait. */
#include <string.h>

#include "tap.h"
#include "run/overlap.h"

static struct io_u ios[4];

static struct io_u *io(unsigned int i, unsigned int file, uint64_t off,
		       uint32_t len)
{
	struct io_u *u = &ios[i];

	memset(u, 0, sizeof(*u));
	u->index = i;
	u->file = file;
	u->offset = off;
	u->len = len;
	return u;
}

int main(void)
{
	struct overlap *o;

	diag("in-flight ranges of serialize_overlap");
	ok(overlap_new(false, 8) == NULL, "off: no state");
	ok(overlap_new(true, 1) == NULL, "a depth of 1: no state");
	o = overlap_new(true, 4);
	ok(o != NULL, "on with a queue");

	overlap_issue(o, io(0, 0, 8192, 4096));
	ok(!overlap_busy(o, io(1, 0, 4096, 4096)), "ends where the other starts");
	ok(!overlap_busy(o, io(1, 0, 12288, 4096)), "starts where the other ends");
	ok(overlap_busy(o, io(1, 0, 8192, 4096)), "the same block");
	ok(overlap_busy(o, io(1, 0, 12287, 4096)), "one byte in common");
	ok(overlap_busy(o, io(1, 0, 0, 65536)), "covers it");
	ok(!overlap_busy(o, io(1, 1, 8192, 4096)), "another file");

	overlap_issue(o, io(1, 0, 0, 4096));
	overlap_issue(o, io(2, 1, 0, 4096));
	ok(overlap_busy(o, io(3, 1, 2048, 512)), "the third in flight counts");
	overlap_done(o, &ios[0]);
	ok(!overlap_busy(o, io(3, 0, 8192, 4096)), "completed: no longer in the way");
	ok(overlap_busy(o, io(3, 1, 0, 1)), "the others still are (moved slot)");
	overlap_done(o, &ios[2]);
	ok(!overlap_busy(o, io(3, 1, 0, 1)), "all of file 1 done");
	ok(overlap_busy(o, io(3, 0, 0, 1)), "io 1 still in flight");
	overlap_done(o, &ios[1]);
	overlap_done(o, &ios[1]);	/* twice: no harm */
	ok(!overlap_busy(o, io(3, 0, 0, 1 << 20)), "nothing in flight");
	/* a short transfer's rest is issued again: one slot */
	overlap_issue(o, io(1, 0, 0, 4096));
	overlap_issue(o, &ios[1]);
	overlap_done(o, &ios[1]);
	ok(!overlap_busy(o, io(3, 0, 0, 4096)), "issued twice, done once: gone");
	overlap_free(o);
	return done_testing();
}

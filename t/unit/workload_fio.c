/* SPDX-License-Identifier: MIT */
/*
 * The workload at the edges of its regions, where it follows fio 3.33:
 * the random map of per-direction block sizes, continuations with no
 * room, regions that move after the first sweep, regions smaller than
 * a block, and loops=N's passes.
 */
#include "workload_fx.h"

#define SEEDS 12

static int has(const uint64_t *set, size_t n, uint64_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == v)
			return 1;
	return 0;
}

/*
 * bs=8k,512: one map in 512-byte units, each direction's block number a
 * bit of it: read block b and write block b are never both done.
 */
static void test_xmap_units(void)
{
	static struct io_u ios[4096];
	static uint64_t bits[4096];
	unsigned int seed, short_pass = 0;
	int good = 1;

	for (seed = 0; seed < SEEDS; seed++) {
		struct fx f;
		size_t n, i, nb = 0;
		uint64_t bytes = 0;

		build_idx(&f, "rw=randrw bs=8k,512", 1024 * KB, 1, seed);
		n = drain(f.w, ios, 4096);
		good &= n <= 4096 && all_inside(&f, ios, n);
		for (i = 0; good && i < n; i++) {
			uint64_t unit = ios[i].ddir == DDIR_READ ? 8 * KB : 512;
			uint64_t b = rel(&f, &ios[i]) / unit;

			good = ios[i].len == unit && !has(bits, nb, b);
			bits[nb++] = b;
			bytes += ios[i].len;
		}
		short_pass += bytes < 1024 * KB;
		fx_free(&f);
	}
	ok(good, "bs=8k,512 randrw: read block b and write block b share "
	   "one bit of the map");
	ok(short_pass >= SEEDS / 2, "bs=8k,512 randrw: the pass ends before "
	   "1 MiB when a read's next free bit is past its blocks (%u of %d)",
	   short_pass, SEEDS);
}

/* The unused read size sets the unit: randwrite bs=512,4k ends early. */
static void test_xmap_unused(void)
{
	struct io_u ios[64];
	unsigned int seed, shorter = 0;
	int good = 1;

	for (seed = 0; seed < SEEDS; seed++) {
		struct fx f;
		size_t n, i, j;

		build_idx(&f, "rw=randwrite bs=512,4k", 64 * KB, 1, seed);
		n = drain(f.w, ios, 64);
		good &= n >= 1 && n <= 16 && all_inside(&f, ios, n);
		for (i = 0; good && i < n; i++) {
			good = ios[i].len == 4 * KB &&
			       rel(&f, &ios[i]) % (4 * KB) == 0;
			for (j = 0; good && j < i; j++)
				good = ios[j].offset != ios[i].offset;
		}
		shorter += n < 16;
		fx_free(&f);
	}
	ok(good && shorter, "randwrite bs=512,4k: distinct 4k blocks, and "
	   "%u of %d passes end before the 16th", shorter, SEEDS);
	for (seed = 0, good = 1; seed < SEEDS; seed++) {
		struct fx f;

		build_idx(&f, "rw=randwrite bs=4k", 64 * KB, 1, seed);
		good &= drain(f.w, NULL, 64) == 16;
		fx_free(&f);
	}
	ok(good, "randwrite bs=4k: all 16 blocks, every seed");
}

/*
 * A continuation with no room inside the region ends the file; one at
 * its end is drawn at random (16000 bytes: blocks at 0, 4k, 8k).
 */
static void test_continuation(void)
{
	struct io_u ios[64];
	unsigned int seed, at8k = 0, at12k = 0;
	struct fx f;
	size_t n, i;
	int good = 1, goes_on = 0;

	build(&f, "rw=randread percentage_random=0 bs=4k", 16000, 1);
	n = drain(f.w, ios, 64);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) == i * 4 * KB;
	ok(good && n == 3, "percentage_random=0 over 16000 bytes: 0, 4k, "
	   "8k, and 12k has no room (%zu)", n);
	fx_free(&f);

	for (seed = 0, good = 1; seed < 4 * SEEDS; seed++) {
		build_idx(&f, "rw=randread:2 norandommap bs=4k", 16000, 1,
			  seed);
		n = drain(f.w, ios, 64);
		for (i = 0; i < n; i += 2)
			if (rel(&f, &ios[i]) == 8 * KB) {
				at8k++;
				good &= i + 1 == n;
			}
		fx_free(&f);
		/* 16384 bytes: the continuation of 12k is past the end */
		build_idx(&f, "rw=randread:2 norandommap bs=4k", 16 * KB, 1,
			  seed);
		n = drain(f.w, ios, 64);
		for (i = 0; i + 1 < n; i += 2)
			if (rel(&f, &ios[i]) == 12 * KB) {
				at12k++;
				goes_on = 1;
			}
		fx_free(&f);
	}
	ok(good && at8k, "randread:2 over 16000 bytes: a random read at 8k "
	   "is the last (%u)", at8k);
	ok(goes_on && at12k, "randread:2 over 16k: after 12k one is drawn "
	   "at random");
}

/* A workload over 256k whose later sweeps start at later (relative). */
static void build_later(struct fx *f, const char *spec, uint64_t later)
{
	fx_setup(f, spec, 256 * KB, 1, 0, FIRST_REGION);
	f->files[0].io_offset_later = FIRST_REGION + later;
	fx_init(f);
}

/* Sweeps after the first start at io_offset_later; the end stays. */
static void test_moved_region(void)
{
	static const uint64_t want[] = { 0, 1, 2, 3, 2, 3, 2, 3 };
	struct io_u ios[64];
	struct fx f;
	size_t n, i;
	int good;

	build_later(&f, "rw=write bs=64k io_size=512k", 128 * KB);
	n = drain(f.w, ios, 64);
	good = n == 8;
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == want[i] * 64 * KB;
	ok(good, "io_size twice the region, later from 128k: 0-256k, then "
	   "128k-256k twice (%zu)", n);
	fx_free(&f);

	build_later(&f, "rw=randwrite bs=16k", 128 * KB);
	n = drain(f.w, NULL, 64);
	workload_rewind(f.w);
	good = n == 16 && drain(f.w, ios, 64) == 8 && all_inside(&f, ios, 8);
	for (i = 0; good && i < 8; i++)
		good = rel(&f, &ios[i]) >= 128 * KB;
	ok(good, "random, later from 128k: 16 writes, then the 8 blocks of "
	   "128k-256k");
	fx_free(&f);

	build_later(&f, "rw=write bs=64k", 256 * KB);
	n = drain(f.w, NULL, 64);
	workload_rewind(f.w);
	ok(n == 4 && drain(f.w, NULL, 64) == 0, "later at the region's end: "
	   "the next sweep has nothing");
	fx_free(&f);
}

/* Files too small for a block: no I/O to them; none fits: refused. */
static void test_small_regions(void)
{
	struct io_u ios[64];
	struct fx f;
	size_t n, i;
	int good = 1;

	fx_setup(&f, "rw=randrw bs=8k", 4 * KB, 2, 0, FIRST_REGION);
	good = workload_check(&f.p, f.files, f.nr, &f.err) < 0 &&
	       strstr(strbuf_str(&f.err), "could do no I/O");
	ok(good, "regions of 4k, bs=8k: refused (%s)", strbuf_str(&f.err));
	plan_release(&f.p);
	strbuf_release(&f.err);

	fx_setup(&f, "rw=write bs=8k", 4 * KB, 2, 0, FIRST_REGION);
	f.files[1].io_size = 16 * KB;
	good = !workload_check(&f.p, f.files, f.nr, &f.err) && !fx_init(&f);
	n = good ? drain(f.w, ios, 64) : 0;
	for (i = 0; i < n; i++)
		good &= ios[i].file == 1;
	ok(good && n == 2, "files of 4k and 16k, bs=8k: two writes, both to "
	   "the 16k file (%zu)", n);
	if (f.w)
		fx_free(&f);
}

/* Bytes of a pass (drained), its I/O count in *n. */
static uint64_t pass_bytes(struct fx *f, struct io_u *ios, size_t max,
			   size_t *n)
{
	uint64_t bytes = 0;
	size_t i;

	*n = drain(f->w, ios, max);
	for (i = 0; i < *n && i < max; i++)
		bytes += ios[i].len;
	return bytes;
}

/*
 * loops=N: the job's bytes end its loops at N x size, so a loop goes on
 * past size until its files are used up, and the next starts them over
 * with the first one's draws (fio 3.33's write_iolog: rw=rw size=64k
 * loops=2 is 30 I/Os, then 2 with psync; 16 and 16 with libaio)
 */
static void test_plain_loops(void)
{
	static struct io_u ios[256], again[256];
	size_t n, m, i;
	uint64_t b1, b2;
	struct fx f;
	int good;

	build_at(&f, "rw=rw bs=4k loops=2", 64 * KB, 1, 0, 0);
	b1 = pass_bytes(&f, ios, 256, &n);
	ok(b1 > 64 * KB && b1 < 128 * KB && !workload_spent(f.w),
	   "rw=rw loops=2: the first loop goes on past 64k (%" PRIu64 ")",
	   b1);
	workload_rewind(f.w);
	b2 = pass_bytes(&f, again, 256, &m);
	for (i = 0, good = m > 0; good && i < m; i++)
		good = again[i].offset == ios[i].offset &&
		       again[i].ddir == ios[i].ddir;
	ok(good && b1 + b2 == 128 * KB && workload_spent(f.w),
	   "... the second starts over, the first's draws, to 128k (%zu + %zu)",
	   n, m);
	fx_free(&f);

	/* a queueing engine's loop ends at size bytes of its own */
	build_at(&f, "rw=rw bs=4k loops=2", 64 * KB, 1, 0, 0);
	workload_loops_queued(f.w);
	b1 = pass_bytes(&f, ios, 256, &n);
	workload_rewind(f.w);
	b2 = pass_bytes(&f, again, 256, &m);
	ok(b1 == 64 * KB && b2 == 64 * KB && again[0].offset == ios[0].offset,
	   "rw=rw loops=2, queued: 64k a loop, each from the start (%zu, %zu)",
	   n, m);
	fx_free(&f);

	/* number_ios counts the job's I/Os: number_ios x loops */
	build_at(&f, "rw=write bs=4k number_ios=4 loops=3", 8 * KB, 3, 0, 0);
	n = drain(f.w, ios, 256);
	workload_rewind(f.w);
	m = drain(f.w, again, 256);
	ok(n == 6 && m == 6 && again[0].file == 0 && !rel(&f, &again[0]) &&
	   workload_spent(f.w), "3 files of 8k, number_ios=4 loops=3: 6 and 6 "
	   "writes, none left (%zu, %zu)", n, m);
	fx_free(&f);

	/* offsets without a map: the first loop takes the job's bytes */
	build_at(&f, "rw=randread bs=4k norandommap=1 loops=3", 64 * KB, 1, 0,
		 0);
	n = drain(f.w, NULL, 256);
	ok(n == 48 && workload_spent(f.w), "norandommap loops=3: 48 reads in "
	   "the first loop (%zu)", n);
	fx_free(&f);
}

int main(void)
{
	test_xmap_units();
	test_xmap_unused();
	test_continuation();
	test_moved_region();
	test_small_regions();
	test_plain_loops();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* The workload (src/workload/): offsets, sizes, directions, passes. */
#include <limits.h>

#include "workload_fx.h"

static void test_sequential(void)
{
	struct io_u ios[64];
	struct fx f;
	size_t n, i;
	int good = 1;

	build(&f, "rw=read bs=4k", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) == i * 4 * KB &&
			ios[i].len == 4 * KB &&
			ios[i].ddir == DDIR_READ && ios[i].file == 0;
	ok(n == 16 && good, "rw=read: 16 sequential 4k reads over 64k (%zu)",
	   n);
	ok(workload_pass_bytes(f.w) == 64 * KB, "pass bytes = region");
	workload_rewind(f.w);
	n = drain(f.w, ios, 64);
	ok(n == 16 && rel(&f, &ios[0]) == 0, "rewind starts over");
	fx_free(&f);

	/* a partial last block is skipped, as fio does */
	build(&f, "rw=write bs=4k", 10 * KB, 1);
	n = drain(f.w, ios, 64);
	ok(n == 2 && all_inside(&f, ios, n) && ios[0].ddir == DDIR_WRITE,
	   "10k region, 4k blocks: 2 writes (%zu)", n);
	fx_free(&f);

	/* io_size under the region: the last I/O may cross it (fio) */
	build(&f, "rw=read bs=4k io_size=10k", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	ok(n == 3, "io_size=10k: 3 reads of 4k (%zu)", n);
	fx_free(&f);

	/* io_size beyond the region wraps around */
	build(&f, "rw=read bs=4k io_size=40k", 16 * KB, 1);
	n = drain(f.w, ios, 64);
	good = n == 10;
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == (i % 4) * 4 * KB;
	ok(good, "io_size=40k over 16k: 10 reads wrapping (%zu)", n);
	fx_free(&f);

	/*
	 * rw=write:4k: a 4k hole after each write; a step past the end of
	 * a region at 0 that ends with its target wraps (fio)
	 */
	build_at(&f, "rw=write:4k bs=4k", 64 * KB, 1, 0, 0);
	n = drain(f.w, ios, 64);
	good = n == 16 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == (i % 8) * 8 * KB;
	ok(good, "rw=write:4k: holes of 4k, 16 writes, wrap at the end (%zu)",
	   n);
	fx_free(&f);

	/* ... one at an offset ends there instead (fio 3.33) */
	build(&f, "rw=write:4k bs=4k", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	good = n == 8 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == i * 8 * KB;
	ok(good, "rw=write:4k at an offset: 8 writes, no wrap (%zu)", n);
	fx_free(&f);

	/* number_ios caps each pass */
	build(&f, "rw=read bs=4k number_ios=5", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	workload_rewind(f.w);
	ok(n == 5 && drain(f.w, NULL, 64) == 5, "number_ios=5 per pass");
	fx_free(&f);
}

static void test_mixed_sequential(void)
{
	static struct io_u ios[256];
	uint64_t next[2] = { 0, 0 };
	struct fx f;
	size_t n, i, cnt[2] = { 0, 0 };
	int good = 1;

	build(&f, "rw=rw bs=4k", 256 * KB, 1);
	n = drain(f.w, ios, 256);
	for (i = 0; i < n; i++) {
		unsigned int d = ios[i].ddir;

		if (d > DDIR_WRITE) {
			good = 0;
			break;
		}
		good &= rel(&f, &ios[i]) == next[d];
		next[d] += 4 * KB;
		cnt[d]++;
	}
	ok(good && n == 64 && cnt[0] && cnt[1],
	   "rw=rw: reads and writes each sequential, 64 I/Os (%zu: %zu/%zu)",
	   n, cnt[0], cnt[1]);
	fx_free(&f);

	build(&f, "rw=trimwrite bs=4k", 32 * KB, 1);
	n = drain(f.w, ios, 64);
	good = n == 16;
	for (i = 0; good && i < n; i += 2)
		good = ios[i].ddir == DDIR_TRIM &&
		       ios[i + 1].ddir == DDIR_WRITE &&
		       ios[i].offset == ios[i + 1].offset &&
		       rel(&f, &ios[i]) == i / 2 * 4 * KB;
	ok(good, "trimwrite: trim then write each block (%zu)", n);
	fx_free(&f);

	build(&f, "rw=trimwrite bs=4k number_ios=3", 32 * KB, 1);
	ok(drain(f.w, NULL, 64) == 6, "trimwrite number_ios=3: 3 pairs");
	fx_free(&f);
}

/* One pass of a random-map job covers each block exactly once. */
static int covers_once(struct fx *f, uint64_t nblk, uint64_t bs,
		       uint64_t *first, uint64_t *sum_pos)
{
	unsigned char *seen = calloc(nblk, 1);
	struct io_u u;
	uint64_t n = 0, b;
	int good = 1;

	*sum_pos = 0;
	while (!workload_next(f->w, &u)) {
		uint64_t r = rel(f, &u);

		if (r % bs || u.len != bs || r / bs >= nblk || n >= nblk) {
			good = 0;
			break;
		}
		b = r / bs;
		if (seen[b]++)
			good = 0;
		if (n < 8)
			first[n] = b;
		/* order signature: position-weighted sum of blocks */
		*sum_pos += b * (n + 1);
		n++;
	}
	free(seen);
	return good && n == nblk;
}

static void test_random_map(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 1000, 4096,
					  (1ULL << 20) + 7 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], a[8], b[8], sa, sb;
		struct fx f;
		int c1, c2;

		/* randrepeat=0: fio's generators go on, another order */
		build(&f, "rw=randread bs=4k randrepeat=0", n * 4 * KB, 1);
		c1 = covers_once(&f, n, 4 * KB, a, &sa);
		workload_rewind(f.w);
		c2 = covers_once(&f, n, 4 * KB, b, &sb);
		ok(c1 && c2, "random map, %" PRIu64 " blocks: every block once "
		   "in each of two passes", n);
		if (n >= 1000)
			ok(sa != sb || memcmp(a, b, sizeof(a)),
			   "random map, %" PRIu64 " blocks, randrepeat=0: the "
			   "second pass has another order", n);
		fx_free(&f);
	}
}

/* The I/Os of pass a and pass b (drain()ed) are the same, n of them. */
static int same_ios(const struct io_u *a, const struct io_u *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].file != b[i].file || a[i].offset != b[i].offset ||
		    a[i].len != b[i].len || a[i].ddir != b[i].ddir)
			return 0;
	return 1;
}

/*
 * fio (randrepeat=1, no randseed) seeds its generators again for a pass
 * that starts after the files were used up: it draws what the first one
 * drew, sizes and directions too; a pass that goes on mid-file does not.
 */
static void test_replay(void)
{
	static const char *const specs[] = {
		"rw=randread bs=4k",
		"rw=randread bsrange=4k-16k",
		"rw=randrw bssplit=4k/50:16k/50",
		"rw=read bsrange=4k-16k",
	};
	struct io_u a[200], b[200];
	size_t i, na, nb, k;
	uint64_t bytes;
	struct fx f;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		build(&f, specs[i], 256 * KB, 1);
		na = drain(f.w, a, 200);
		workload_rewind(f.w);
		nb = drain(f.w, b, 200);
		ok(na <= 200 && na == nb && same_ios(a, b, na),
		   "%s: the second loop replays the first (%zu, %zu)",
		   specs[i], na, nb);
		fx_free(&f);
	}

	/* io_size beyond the file: the restart replays, the last block
	 * crossing the budget is whole */
	build(&f, "rw=randread bsrange=4k-16k io_size=400k", 256 * KB, 1);
	na = drain(f.w, a, 200);
	for (k = 0, bytes = 0; k < na && bytes < 256 * KB; k++)
		bytes += a[k].len;
	ok(bytes == 256 * KB && na > k && same_ios(a, a + k, na - k),
	   "bsrange io_size=400k over 256k: the map is used up after %zu "
	   "I/Os, then they come again (%zu in all)", k, na);
	for (bytes = 0, i = 0; i < na; i++)
		bytes += a[i].len;
	ok(bytes >= 400 * KB && bytes - a[na - 1].len < 400 * KB,
	   "bsrange io_size=400k: %" PRIu64 " bytes, the last I/O whole",
	   bytes);
	fx_free(&f);

	/* with randseed (fio: not from the first pass) and randrepeat=0 */
	build(&f, "rw=randread bsrange=4k-16k randseed=7", 256 * KB, 1);
	na = drain(f.w, a, 200);
	workload_rewind(f.w);
	nb = drain(f.w, b, 200);
	ok(!(na == nb && same_ios(a, b, na)),
	   "randseed=7: the second loop draws anew");
	fx_free(&f);

	/* a loop that goes on mid-file does not start over: io_size=64k
	 * loops=3 over 256k reads on in loop 2 */
	build(&f, "rw=randread bs=4k io_size=64k loops=3", 256 * KB, 1);
	na = drain(f.w, a, 200);
	workload_rewind(f.w);
	nb = drain(f.w, b, 200);
	ok(na == 16 && nb == 16 && !same_ios(a, b, 4),
	   "io_size=64k loops=3: loop 2 goes on (%zu, %zu)", na, nb);
	fx_free(&f);
}

static void test_random_other(void)
{
	static struct io_u ios[4096];
	struct fx f;
	size_t n, i;
	int good;

	/* region 10 blocks + 2k: the partial block is never touched */
	build(&f, "rw=randwrite bs=4k", 42 * KB, 1);
	n = drain(f.w, ios, 64);
	ok(n == 10 && all_inside(&f, ios, n),
	   "random map over 10.5 blocks: 10 writes inside (%zu)", n);
	fx_free(&f);

	build(&f, "rw=randread bs=4k norandommap", 42 * KB, 1);
	n = drain(f.w, ios, 64);
	good = all_inside(&f, ios, n);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) % (4 * KB) == 0;
	ok(n == 11 && good, "norandommap: 11 aligned reads inside (%zu)", n);
	fx_free(&f);

	build(&f, "rw=randread bs=8k norandommap", 8 * 1024 * KB, 1);
	n = drain(f.w, ios, 4096);
	good = n == 1024 && all_inside(&f, ios, n);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) % (8 * KB) == 0;
	ok(good, "norandommap 8k over 8M: 1024 aligned reads inside");
	fx_free(&f);

	build(&f, "rw=randread bs=4k ba=2k", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	good = n == 16 && all_inside(&f, ios, n);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) % (2 * KB) == 0;
	ok(good, "blockalign=2k: aligned to 2k, inside, no map (%zu)", n);
	fx_free(&f);

	build(&f, "rw=randread bs=4k random_generator=tausworthe64 "
	      "norandommap", 16 * 1024 * KB, 1);
	n = drain(f.w, ios, 4096);
	good = n == 4096 && all_inside(&f, ios, n);
	for (i = 0; i < n; i++)
		good &= rel(&f, &ios[i]) % (4 * KB) == 0;
	ok(good, "tausworthe64: aligned reads inside");
	fx_free(&f);

	/* lfsr: every block once per pass without a map, same order */
	{
		uint64_t a[8], b[8], sa, sb;

		build(&f, "rw=randread bs=4k random_generator=lfsr",
		      1000 * 4 * KB, 1);
		ok(covers_once(&f, 1000, 4 * KB, a, &sa),
		   "lfsr: every block once");
		workload_rewind(f.w);
		ok(covers_once(&f, 1000, 4 * KB, b, &sb) && sa == sb,
		   "lfsr: the next pass repeats the order, as fio's does");
		fx_free(&f);
	}

	/* rw=randread:4 -- a new random offset every 4 I/Os */
	build(&f, "rw=randread:4 bs=4k norandommap", 1024 * KB, 1);
	n = drain(f.w, ios, 4096);
	good = n == 256 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++) {
		if (i % 4 == 0)
			continue;
		/* sequential after the random one, unless it hit the end */
		if (rel(&f, &ios[i - 1]) + 4 * KB < 1024 * KB)
			good = ios[i].offset == ios[i - 1].offset + 4 * KB;
	}
	ok(good, "rw=randread:4: random offset, then 3 sequential");
	fx_free(&f);

	/* per-direction block sizes and alignment */
	build(&f, "rw=randrw bs=4k,64k", 4096 * KB, 1);
	n = drain(f.w, ios, 4096);
	good = n > 0 && all_inside(&f, ios, n);
	for (i = 0; i < n; i++) {
		uint64_t bs = ios[i].ddir == DDIR_READ ? 4 * KB : 64 * KB;

		good &= ios[i].len == bs && rel(&f, &ios[i]) % bs == 0;
	}
	ok(good, "bs=4k,64k randrw: sizes and alignment per direction");
	fx_free(&f);

	/* no write fits: reads until the first write is drawn (fio) */
	if (build(&f, "rw=randrw bs=4k,64k", 32 * KB, 1)) {
		ok(0, "a region smaller than the write block size: %s",
		   strbuf_str(&f.err));
		strbuf_release(&f.err);
		return;
	}
	n = drain(f.w, ios, 4096);
	good = n <= 8 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = ios[i].ddir == DDIR_READ && ios[i].len == 4 * KB;
	ok(good, "a region smaller than the write block size: reads only, "
	   "%zu of them", n);
	fx_free(&f);
}

/* First 1000 offsets of a norandommap job (a signature of the seed). */
static void sequence(const char *spec, unsigned int job_index,
		     uint64_t *out)
{
	struct fx f;
	struct io_u u;
	size_t i;

	build_idx(&f, spec, 64 * 1024 * KB, 1, job_index);
	for (i = 0; i < 1000; i++) {
		next_io(f.w, &u);
		out[i] = u.offset;
	}
	fx_free(&f);
}

static void test_seeds(void)
{
	static uint64_t a[1000], b[1000];
	const char *base = "rw=randread norandommap";
	char spec[128];

	sequence(base, 0, a);
	sequence(base, 0, b);
	ok(!memcmp(a, b, sizeof(a)), "randrepeat: the same sequence twice");
	sequence("rw=randread", 0, a);
	sequence("rw=randread", 0, b);
	ok(!memcmp(a, b, sizeof(a)),
	   "randrepeat with the map: the same sequence twice");

	/*
	 * fio 3.33: with randrepeat (the default) the offsets' seed is the
	 * job's number alone, randseed or not; randseed moves them only
	 * with randrepeat=0
	 */
	sequence(base, 0, a);
	snprintf(spec, sizeof(spec), "%s randseed=1234", base);
	sequence(spec, 0, b);
	ok(!memcmp(a, b, sizeof(a)), "randrepeat: randseed leaves the offsets");
	snprintf(spec, sizeof(spec), "%s randseed=1234 randrepeat=0", base);
	sequence(spec, 0, b);
	ok(memcmp(a, b, sizeof(a)), "randrepeat=0: another randseed, another sequence");
	sequence(spec, 0, a);
	ok(!memcmp(a, b, sizeof(a)), "the same randseed, the same sequence");

	sequence(base, 0, a);
	sequence(base, 1, b);
	ok(memcmp(a, b, sizeof(a)), "clones (job index 0, 1) differ");

	snprintf(spec, sizeof(spec), "%s randrepeat=0", base);
	sequence(spec, 0, a);
	sequence(spec, 0, b);
	ok(memcmp(a, b, sizeof(a)), "randrepeat=0: runs differ");
}

static void test_rwmix(void)
{
	struct fx f;
	struct io_u u;
	size_t i, reads = 0, n = 100000;

	build(&f, "rw=randrw rwmixread=70 norandommap", 1024 * 1024 * KB, 1);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		reads += u.ddir == DDIR_READ;
	}
	ok(reads > n * 68 / 100 && reads < n * 72 / 100,
	   "rwmixread=70: %.2f%% reads in 100k", 100.0 * reads / n);
	fx_free(&f);

	build(&f, "rw=randrw rwmixwrite=100 norandommap", 1024 * KB, 1);
	for (i = 0, reads = 0; i < 1000; i++) {
		next_io(f.w, &u);
		reads += u.ddir == DDIR_READ;
	}
	ok(reads == 0, "rwmixwrite=100: no reads");
	fx_free(&f);
}

static void test_block_sizes(void)
{
	struct fx f;
	struct io_u u;
	size_t i, n = 100000, c4 = 0, c32 = 0, c64 = 0, other = 0;
	size_t cnt[5] = { 0 };
	int good = 1;

	build(&f, "rw=randread bssplit=4k/10:64k/50:32k/40 norandommap",
	      1024 * 1024 * KB, 1);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		if (u.len == 4 * KB)
			c4++;
		else if (u.len == 32 * KB)
			c32++;
		else if (u.len == 64 * KB)
			c64++;
		else
			other++;
	}
	ok(!other && c4 > n * 9 / 100 && c4 < n * 11 / 100 &&
	   c32 > n * 385 / 1000 && c32 < n * 415 / 1000 &&
	   c64 > n * 485 / 1000 && c64 < n * 515 / 1000,
	   "bssplit 4k/10:64k/50:32k/40: %zu/%zu/%zu of %zu", c4, c64, c32, n);
	fx_free(&f);

	build(&f, "rw=randread bsrange=4k-16k norandommap",
	      1024 * 1024 * KB, 1);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		if (u.len % (4 * KB) || u.len < 4 * KB || u.len > 16 * KB)
			good = 0;
		else
			cnt[u.len / (4 * KB)]++;
		if ((u.offset - f.files[0].io_offset) % (4 * KB))
			good = 0;
	}
	for (i = 1; i <= 4; i++)
		good &= cnt[i] > n * 23 / 100 && cnt[i] < n * 27 / 100;
	ok(good, "bsrange=4k-16k: multiples of 4k, each about 25%% "
	   "(%zu %zu %zu %zu)", cnt[1], cnt[2], cnt[3], cnt[4]);
	fx_free(&f);

	/* variable sizes never run past the region end */
	{
		static struct io_u ios[4096];

		build(&f, "rw=randread bsrange=4k-64k", 130 * KB, 1);
		n = drain(f.w, ios, 4096);
		ok(n > 0 && n <= 33 && all_inside(&f, ios, n),
		   "bsrange with the map: %zu I/Os inside a 130k region", n);
		fx_free(&f);
		build(&f, "rw=read bsrange=4k-64k", 130 * KB, 1);
		n = drain(f.w, ios, 4096);
		ok(n > 0 && all_inside(&f, ios, n),
		   "bsrange sequential: %zu I/Os inside a 130k region", n);
		fx_free(&f);
	}
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Share of the I/Os that go to the hottest pct percent of 1000 blocks. */
/*
 * The share of the hottest pct percent of nblk blocks; *hottest: the
 * hottest block, *used: the blocks hit at all.
 */
static double hot_share_n(const char *dist, unsigned int pct, size_t nblk,
			  uint64_t *hottest, size_t *used)
{
	static uint32_t hits[1024];
	char spec[128];
	struct fx f;
	struct io_u u;
	size_t i, n = 200000;
	uint64_t top = 0, best = 0;

	memset(hits, 0, sizeof(hits));
	snprintf(spec, sizeof(spec), "rw=randread random_distribution=%s",
		 dist);
	build(&f, spec, nblk * 4 * KB, 1);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		hits[rel(&f, &u) / (4 * KB)]++;
	}
	for (i = 0, *used = 0; i < nblk; i++) {
		if (hits[i] > hits[best])
			best = i;
		*used += hits[i] != 0;
	}
	*hottest = best;
	qsort(hits, nblk, sizeof(hits[0]), cmp_desc);
	for (i = 0; i < pct * nblk / 100; i++)
		top += hits[i];
	fx_free(&f);
	return (double)top / n;
}

static double hot_share(const char *dist, unsigned int pct,
			uint64_t *hottest)
{
	size_t used;

	return hot_share_n(dist, pct, 1024, hottest, &used);
}

/*
 * fio draws zipf, pareto and normal from the region in ranges of the
 * smallest block, rounded up: with 300 KiB blocks in 1 MiB, 4 ranges of
 * which 3 fit; drawing the 4th ends the pass early, never an I/O past
 * the end.
 */
static void test_dist_partial_range(void)
{
	static const char *const dists[] = { "zipf:0.8", "pareto:0.3",
					     "normal" };
	unsigned int d, seed, early = 0, outside = 0, runs = 0;
	struct io_u ios[8];
	char spec[128];
	struct fx f;

	for (d = 0; d < 3; d++)
		for (seed = 0; seed < 20; seed++) {
			size_t n;

			snprintf(spec, sizeof(spec), "rw=randread bs=300k "
				 "random_distribution=%s", dists[d]);
			if (build_idx(&f, spec, 1024 * KB, 1, seed))
				continue;
			n = drain(f.w, ios, 6);
			runs++;
			early += n < 4;
			outside += !all_inside(&f, ios, n);
			fx_free(&f);
		}
	ok(runs == 60 && early > 0 && !outside,
	   "a drawn range past the last block ends the pass (%u of %u "
	   "passes early, %u with an I/O outside)", early, runs, outside);
}

static void test_distributions(void)
{
	uint64_t h1, h2;
	size_t used;
	double z12 = hot_share("zipf:1.2", 10, &h1);
	double z08 = hot_share("zipf:0.8", 10, &h2);
	double uni = hot_share("random", 10, &h2);
	double par = hot_share("pareto:0.2", 20, &h2);
	double nor = hot_share("normal:10", 20, &h2);

	/* exact zipf:1.2 over 1000 ranks gives the first 100 about 83% */
	ok(z12 > 0.75, "zipf:1.2: hottest 10%% of blocks get %.1f%% (> 75%%)",
	   100 * z12);
	ok(z08 > 0.3 && z08 < z12,
	   "zipf:0.8 is less skewed: %.1f%% (between 30%% and zipf:1.2)",
	   100 * z08);
	ok(uni < 0.15, "uniform: hottest 10%% get %.1f%% (< 15%%)", 100 * uni);
	/* pareto:h gives the hottest h of the blocks 1 - h of the I/O */
	ok(par > 0.75 && par < 0.86,
	   "pareto:0.2: hottest 20%% get %.1f%% (about 80%%)", 100 * par);
	/* normal:10: +-1 sigma is 20% of the blocks and 68% of the I/O */
	ok(nor > 0.65, "normal:10: hottest 20%% get %.1f%% (> 65%%)",
	   100 * nor);
	ok(h1 != 0, "zipf's hottest block is scattered (block %" PRIu64 ")",
	   h1);

	/*
	 * fio's scatter (a multiplicative hash, then mod n) folds ranks
	 * onto one block where n is not a power of two: over 1000 blocks
	 * it reaches 308 (k * 0x61c8864680b583eb mod 2^64 mod 1000)
	 */
	hot_share_n("pareto:0.2", 20, 1000, &h2, &used);
	ok(used > 250 && used <= 308, "pareto:0.2 over 1000 blocks folds onto "
	   "%zu (at most 308)", used);
	/* a centre puts the likeliest rank there (fio's base) */
	hot_share("zipf:1.2:0.25", 10, &h1);
	hot_share("pareto:0.2:0", 10, &h2);
	ok(h1 == 256 && h2 == 0, "zipf:1.2:0.25's hottest block is 256 of "
	   "1024 (%" PRIu64 "), pareto:0.2:0's block 0 (%" PRIu64 ")", h1, h2);
}

static void test_files(void)
{
	static struct io_u ios[256];
	uint64_t next[3] = { 0, 0, 0 };
	struct fx f;
	size_t n, i;
	int good;

	build(&f, "rw=read bs=4k", 16 * KB, 3);
	n = drain(f.w, ios, 256);
	good = n == 12 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++) {
		good = ios[i].file == i % 3 && rel(&f, &ios[i]) ==
		       next[ios[i].file];
		next[ios[i].file] += 4 * KB;
	}
	ok(good, "3 files: round robin, each sequential (%zu)", n);
	fx_free(&f);

	build(&f, "rw=randread bs=4k", 64 * KB, 3);
	n = drain(f.w, ios, 256);
	{
		unsigned char seen[3][16];

		memset(seen, 0, sizeof(seen));
		good = n == 48 && all_inside(&f, ios, n);
		for (i = 0; good && i < n; i++) {
			uint64_t b = rel(&f, &ios[i]) / (4 * KB);

			good = ios[i].file == i % 3 && !seen[ios[i].file][b]++;
		}
	}
	ok(good, "3 files, random map: round robin, each block once (%zu)", n);
	fx_free(&f);

	/* io_size beyond all regions: files start over */
	build(&f, "rw=randread bs=4k io_size=96k", 16 * KB, 2);
	n = drain(f.w, ios, 256);
	ok(n == 24 && all_inside(&f, ios, n),
	   "2 files, io_size 3x the regions: 24 I/Os (%zu)", n);
	fx_free(&f);
}


/* ---- strided zones ---------------------------------------------------- */

/* One pass, relative offsets in KiB, into kb[]; returns the count. */
static size_t pass_kb(struct fx *f, uint64_t *kb, size_t max)
{
	static struct io_u ios[4096];
	size_t n = drain(f->w, ios, max < 4096 ? max : 4096), i;

	for (i = 0; i < n && i < max; i++)
		kb[i] = rel(f, &ios[i]) / KB;
	return n;
}

static void test_zones_sequential(void)
{
	static uint64_t kb[4096];
	static struct io_u ios_buf[4096];
	struct fx f;
	size_t n, i;
	int good;

	/* 16k of each 64k zone, zones end to end, wrapping until 1M done */
	build(&f, "rw=read bs=4k zonemode=strided zonesize=16k zonerange=64k",
	      1024 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 256;
	for (i = 0; good && i < n; i++)
		good = kb[i] == (i / 4) % 16 * 64 + i % 4 * 4;
	ok(good, "strided 16k of 64k zones: 0 4 8 12 64 68 ... wrapping, "
	   "256 reads (%zu)", n);
	fx_free(&f);

	build(&f, "rw=read bs=4k zonemode=strided zonesize=16k zonerange=64k "
	      "zoneskip=64k", 1024 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 256;
	for (i = 0; good && i < n; i++)
		good = kb[i] == (i / 4) % 8 * 128 + i % 4 * 4;
	ok(good, "zoneskip=64k: zones start every 128k (%zu)", n);
	fx_free(&f);

	/* zonerange defaults to zonesize: zoneskip alone leaves gaps */
	build(&f, "rw=read bs=4k zonemode=strided zonesize=16k zoneskip=16k",
	      256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 64;
	for (i = 0; good && i < n; i++)
		good = kb[i] == (i / 4) % 8 * 32 + i % 4 * 4;
	ok(good, "zonerange defaults to zonesize (%zu)", n);
	fx_free(&f);

	/* zonesize beyond zonerange: each zone is gone over twice */
	build(&f, "rw=read bs=4k zonemode=strided zonesize=32k zonerange=16k "
	      "zoneskip=16k", 256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 64;
	for (i = 0; good && i < n; i++)
		good = kb[i] == (i / 8) % 8 * 32 + i % 4 * 4;
	ok(good, "zonesize 32k over 16k zones: every zone twice (%zu)", n);
	fx_free(&f);

	/* a zone the region end cuts short ends the file, as fio */
	build(&f, "rw=read bs=4k zonemode=strided zonesize=32k zonerange=48k",
	      256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 44 && kb[40] == 240 && kb[43] == 252;
	for (i = 0; good && i < 40; i++)
		good = kb[i] == i / 8 * 48 + i % 8 * 4;
	ok(good, "48k zones over 256k: 44 reads, the last zone cut at the "
	   "end (%zu)", n);
	fx_free(&f);

	/* a zonerange past the region: the first zone over and over */
	build(&f, "rw=read bs=4k zonemode=strided zonesize=16k zonerange=1m",
	      256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 64;
	for (i = 0; good && i < n; i++)
		good = kb[i] == i % 4 * 4;
	ok(good, "zonerange beyond the region: zone 0 again (%zu)", n);
	fx_free(&f);

	/* the next pass goes on with the next zone (fio) */
	build(&f, "rw=write bs=4k zonemode=strided zonesize=8k zonerange=32k "
	      "io_size=16k", 256 * KB, 1);
	n = pass_kb(&f, kb, 16);
	workload_rewind(f.w);
	good = n == 4 && kb[2] == 32 && pass_kb(&f, kb + 4, 16) == 4 &&
	       kb[4] == 64 && kb[6] == 96;
	ok(good, "a new pass goes on with the next zone");
	fx_free(&f);

	/*
	 * several files: the zone count is the job's (fio), so after 8k
	 * the file taking the next I/O moves on: file 0 every time here
	 * (0, 32k, 64k, 96k, back to 0), file 1 never leaves its first
	 * zone (fio's write_iolog)
	 */
	{
		static struct io_u ios[256];
		int zgood = 1;

		build(&f, "rw=read bs=4k zonemode=strided zonesize=8k "
		      "zonerange=32k", 128 * KB, 2);
		n = drain(f.w, ios, 256);
		for (i = 0; i < n; i++)
			zgood &= rel(&f, &ios[i]) / KB ==
				 (i % 2 ? (i / 2) % 8 * 4 : (i / 2) % 4 * 32) &&
				 ios[i].file == i % 2;
		ok(n == 64 && zgood, "2 files, round robin: the job's zone "
		   "count moves file 0 only (%zu)", n);
		fx_free(&f);
	}

	/* a block past the zone's end: it goes on from the last I/O (fio) */
	build(&f, "rw=write bs=1k zonemode=strided zonesize=32000",
	      256 * KB, 1);
	n = drain(f.w, ios_buf, 4096);
	good = n == 256 && rel(&f, &ios_buf[31]) == 31744 &&
	       rel(&f, &ios_buf[32]) == 32000 &&
	       rel(&f, &ios_buf[64]) == 64000;
	ok(good, "bs=1k in zones of 32000: the 32nd write at 31744, the next "
	   "zone at 32000 (%zu)", n);
	fx_free(&f);

	/* zones smaller than a block: each I/O starts at a zone's start */
	build(&f, "rw=read bs=8k zonemode=strided zonesize=16k zonerange=4k",
	      64 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 8;
	for (i = 0; good && i < n; i++)
		good = kb[i] == i / 2 * 4;
	ok(good, "8k reads in 4k zones: 0 0 4 4 8 8 12 12 (%zu)", n);
	fx_free(&f);
}

static void test_zones_random(void)
{
	static uint64_t kb[4096];
	struct fx f;
	size_t n, i, j;
	int good;

	build(&f, "rw=randread bs=4k zonemode=strided zonesize=16k "
	      "zonerange=64k", 256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 64;
	for (i = 0; good && i < n; i++) {
		good = kb[i] / 64 == (i / 4) % 4 && kb[i] % 4 == 0;
		for (j = i / 4 * 4; good && j < i; j++)
			good = kb[j] != kb[i];
	}
	ok(good, "randread in 64k zones: 4 distinct blocks inside each zone "
	   "(%zu)", n);
	fx_free(&f);

	/* zonesize beyond zonerange: the map starts over inside the zone */
	build(&f, "rw=randread bs=4k zonemode=strided zonesize=32k "
	      "zonerange=16k zoneskip=16k", 256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 64;
	for (i = 0; good && i < n; i += 4) {
		unsigned int seen = 0;

		for (j = i; j < i + 4; j++) {
			good &= kb[j] / 32 == (i / 8) % 8 && kb[j] % 32 < 16;
			seen |= 1u << (kb[j] % 16 / 4);
		}
		good &= seen == 0xf;
	}
	ok(good, "randread, 32k in 16k zones: each zone covered twice "
	   "(%zu)", n);
	fx_free(&f);

	build(&f, "rw=randwrite bs=4k zonemode=strided zonesize=16k "
	      "zonerange=64k norandommap random_distribution=zipf:1.2",
	      1024 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 256;
	for (i = 0; good && i < n; i++)
		good = kb[i] / 64 == (i / 4) % 16;
	ok(good, "zipf inside strided zones stays in the zone (%zu)", n);
	fx_free(&f);

	/* a map used up before zonesize bytes ends the file (fio) */
	build(&f, "rw=randwrite bs=4k zonemode=strided zonesize=32000",
	      256 * KB, 1);
	n = pass_kb(&f, kb, 4096);
	good = n == 7;
	for (i = 0; good && i < n; i++)
		good = kb[i] < 28 && kb[i] % 4 == 0;
	ok(good, "zones of 32000 bytes, 4k blocks: 7 writes, then the map "
	   "is used up (%zu)", n);
	fx_free(&f);

	/* a zone smaller than a block holds no random offset */
	build(&f, "rw=randread bs=64k zonemode=strided zonesize=16k",
	      256 * KB, 1);
	ok(pass_kb(&f, kb, 4096) == 0, "64k reads in 16k zones: none");
	fx_free(&f);

	/*
	 * a draw past the region end ends the file: 16k of a 64k zone
	 * (randrepeat=0: with it fio's offsets ignore randseed)
	 */
	{
		size_t tot = 0, runs = 200, r;

		for (r = 0; r < runs; r++) {
			char spec[128];

			snprintf(spec, sizeof(spec), "rw=randwrite bs=4k "
				 "zonemode=strided zonesize=64k randseed=%zu "
				 "randrepeat=0",
				 r + 1);
			build(&f, spec, 16 * KB, 1);
			n = pass_kb(&f, kb, 4096);
			for (i = 0; i < n; i++)
				tot += kb[i] >= 16;
			tot += n * 1000;
			fx_free(&f);
		}
		/* 4 of 16 blocks in the file: 4 / 13 writes on average */
		ok(tot % 1000 == 0 && tot / 1000 > runs * 4 / 13 / 2 &&
		   tot / 1000 < runs * 4 / 13 * 2, "16k file, 64k zones: "
		   "%zu writes in %zu runs, none past the end", tot / 1000,
		   runs);
	}
}

static void expect_fail(const char *spec, uint64_t size, const char *msg)
{
	struct fx f;
	int failed = build(&f, spec, size, 1) < 0;

	ok(failed && strstr(strbuf_str(&f.err), msg), "%s: refused: %s",
	   spec, strbuf_str(&f.err));
	if (!failed)
		fx_free(&f);
	else
		strbuf_release(&f.err);
}

static void test_zone_errors(void)
{
	expect_fail("rw=read zonemode=strided", 64 * KB,
		    "t.fio:1: option 'zonesize': zonemode=strided needs a "
		    "zone size");
	expect_fail("rw=read zonesize=16k", 64 * KB,
		    "option 'zonesize': zones need zonemode=strided");
	/*
	 * zonemode=zbd is not refused here: zbd_check_target() checks the
	 * device when the files resolve (t1200, t2700's guest rows)
	 */
}

/* ---- zoned distributions --------------------------------------------- */

/* Hits per block of 4k over nblk blocks, n random reads. */
static void block_hits(const char *spec, uint64_t nblk, size_t n,
		       uint32_t *hits, int *inside)
{
	struct fx f;
	struct io_u u;
	size_t i;

	memset(hits, 0, nblk * sizeof(*hits));
	*inside = 1;
	if (build(&f, spec, nblk * 4 * KB, 1)) {
		*inside = 0;
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t b;

		next_io(f.w, &u);
		b = rel(&f, &u) / (4 * KB);
		if (b >= nblk || rel(&f, &u) % (4 * KB))
			*inside = 0;
		else
			hits[b]++;
	}
	fx_free(&f);
}

static double share(const uint32_t *hits, uint64_t lo, uint64_t hi,
		    size_t n)
{
	uint64_t s = 0;

	for (; lo < hi; lo++)
		s += hits[lo];
	return (double)s / n;
}

static int near(double v, double want, double tol)
{
	return v > want - tol && v < want + tol;
}

static void test_zoned(void)
{
	static uint32_t hits[1000];
	size_t n = 200000;
	double a, b, c, d;
	int inside;

	block_hits("rw=randread random_distribution=zoned:60/10:30/20:8/30:"
		   "2/40", 1000, n, hits, &inside);
	a = share(hits, 0, 100, n);
	b = share(hits, 100, 300, n);
	c = share(hits, 300, 600, n);
	d = share(hits, 600, 1000, n);
	ok(inside && near(a, .60, .01) && near(b, .30, .01) &&
	   near(c, .08, .01) && near(d, .02, .005),
	   "zoned:60/10:30/20:8/30:2/40: %.3f %.3f %.3f %.3f", a, b, c, d);
	/* uniform inside a zone: the halves of the first zone match */
	a = share(hits, 0, 50, n);
	b = share(hits, 50, 100, n);
	ok(near(a, b, .02), "uniform inside a zone (%.3f, %.3f)", a, b);

	block_hits("rw=randread random_distribution=zoned:50/5:30/15:20/",
		   1000, n, hits, &inside);
	a = share(hits, 0, 50, n);
	b = share(hits, 50, 200, n);
	c = share(hits, 200, 1000, n);
	ok(inside && near(a, .5, .01) && near(b, .3, .01) &&
	   near(c, .2, .01), "zoned:50/5:30/15:20/ (blank: the rest): "
	   "%.3f %.3f %.3f", a, b, c);

	/* only 60% of the region is covered: nothing beyond it */
	block_hits("rw=randread random_distribution=zoned:60/10:40/50",
		   1000, n, hits, &inside);
	ok(inside && share(hits, 600, 1000, n) == 0 &&
	   near(share(hits, 0, 100, n), .6, .01),
	   "zones over 60%% of the region leave the rest alone");

	block_hits("rw=randread random_distribution=zoned_abs:60/400k:40/",
		   1000, n, hits, &inside);
	a = share(hits, 0, 100, n);
	b = share(hits, 100, 1000, n);
	ok(inside && near(a, .6, .01) && near(b, .4, .01),
	   "zoned_abs:60/400k:40/: %.3f %.3f", a, b);

	/* zones past the region end give their share to the others */
	block_hits("rw=randread random_distribution=zoned_abs:50/1m:25/1g:"
		   "25/1g", 1000, n, hits, &inside);
	a = share(hits, 0, 256, n);
	b = share(hits, 256, 1000, n);
	ok(inside && near(a, 2.0 / 3, .01) && near(b, 1.0 / 3, .01),
	   "zoned_abs cut at the region end: the third zone's share goes to "
	   "the others in proportion (%.3f %.3f)", a, b);

	/* per direction: reads in the first tenth, writes anywhere */
	{
		struct fx f;
		struct io_u u;
		size_t i, rbad = 0, wlow = 0, wn = 0;

		build(&f, "rw=randrw random_distribution=zoned:100/10,"
		      "50/50:50/50", 1000 * 4 * KB, 1);
		for (i = 0; i < 20000; i++) {
			uint64_t blk;

			next_io(f.w, &u);
			blk = rel(&f, &u) / (4 * KB);
			if (u.ddir == DDIR_READ) {
				rbad += blk >= 100;
			} else {
				wn++;
				wlow += blk < 500;
			}
		}
		ok(!rbad && wn && near((double)wlow / wn, .5, .03),
		   "zoned per direction: reads in the first 10%%, writes "
		   "half in each half (%zu, %.3f)", rbad,
		   (double)wlow / (double)(wn ? wn : 1));
		fx_free(&f);
	}
}

/* ---- percentage_random and rw_sequencer -------------------------------- */

/* Share of I/Os that continue from the previous one. */
static double seq_share(const char *spec, size_t n)
{
	struct fx f;
	struct io_u u, prev;
	size_t i, seq = 0;

	build(&f, spec, 64 * 1024 * KB, 1);
	next_io(f.w, &prev);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		seq += u.offset == prev.offset + prev.len;
		prev = u;
	}
	fx_free(&f);
	return (double)seq / n;
}

static void test_percentage_random(void)
{
	double s100 = seq_share("rw=randread", 20000);
	double s50 = seq_share("rw=randread percentage_random=50", 20000);
	double s20 = seq_share("rw=randread percentage_random=20 "
			       "norandommap", 20000);
	double s0 = seq_share("rw=randread percentage_random=0", 1000);

	ok(s100 < .01, "percentage_random=100: random (%.3f sequential)",
	   s100);
	ok(near(s50, .5, .02), "percentage_random=50: %.3f sequential", s50);
	ok(near(s20, .8, .02), "percentage_random=20: %.3f sequential", s20);
	ok(s0 == 1.0, "percentage_random=0: sequential (%.3f)", s0);
	ok(seq_share("rw=read percentage_random=50", 1000) == 1.0,
	   "a sequential job ignores percentage_random");

	/* per direction: random reads, sequential writes from 0 */
	{
		struct fx f;
		struct io_u u;
		uint64_t next_w = 0;
		size_t i, wbad = 0, rseq = 0, rn = 0;
		uint64_t rprev = UINT64_MAX;

		build(&f, "rw=randrw percentage_random=100,0 norandommap",
		      64 * 1024 * KB, 1);
		for (i = 0; i < 4000; i++) {
			next_io(f.w, &u);
			if (u.ddir == DDIR_WRITE) {
				wbad += rel(&f, &u) != next_w;
				next_w = rel(&f, &u) + 4 * KB;
			} else {
				rn++;
				rseq += u.offset == rprev;
				rprev = u.offset + u.len;
			}
		}
		ok(!wbad && rn && rseq < rn / 50, "percentage_random=100,0: "
		   "random reads, sequential writes (%zu, %zu)", wbad, rseq);
		fx_free(&f);
	}
}

static void test_rw_sequencer(void)
{
	static struct io_u ios[256];
	struct fx f;
	size_t n, i;
	int good;

	build(&f, "rw=randread:4 rw_sequencer=identical bs=4k", 256 * KB, 1);
	n = drain(f.w, ios, 256);
	good = n == 64 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = i % 4 == 0 || ios[i].offset == ios[i - 1].offset;
	ok(good, "rw=randread:4 identical: each random offset 4 times (%zu)",
	   n);
	fx_free(&f);

	build(&f, "rw=randread:4 rw_sequencer=sequential bs=4k", 256 * KB, 1);
	n = drain(f.w, ios, 256);
	good = n == 64 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = i % 4 == 0 || ios[i].offset == ios[i - 1].offset +
		       4 * KB || rel(&f, &ios[i - 1]) + 4 * KB == 256 * KB;
	ok(good, "rw=randread:4 sequential: then 3 sequential (%zu)", n);
	fx_free(&f);

	/* sequential jobs: the :N is a hole, the sequencer changes nothing */
	build_at(&f, "rw=read:4k rw_sequencer=identical bs=4k", 64 * KB, 1, 0,
		 0);
	n = drain(f.w, ios, 256);
	good = n == 16;
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == (i % 8) * 8 * KB;
	ok(good, "rw=read:4k with identical: holes as before (%zu)", n);
	fx_free(&f);
}

int main(void)
{
	test_sequential();
	test_mixed_sequential();
	test_random_map();
	test_replay();
	test_random_other();
	test_seeds();
	test_rwmix();
	test_block_sizes();
	test_distributions();
	test_dist_partial_range();
	test_files();
	test_zones_sequential();
	test_zones_random();
	test_zone_errors();
	test_zoned();
	test_percentage_random();
	test_rw_sequencer();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* The workload (src/workload/): offsets, sizes, directions, passes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "workload/workload.h"

#define KB 1024ULL
#define MAX_FILES 8

struct fx {
	struct job_plan p;
	struct engine_file files[MAX_FILES];
	char names[MAX_FILES][8];
	unsigned int nr;
	struct workload *w;
	struct strbuf err;
};

/*
 * Builds a workload from "name=value" pairs separated by spaces, over nr
 * files of size bytes each. File i's region starts at (i + 1) MiB + 8 KiB
 * so that offsets must include the region start. Returns 0 or -1 (the
 * message in f->err).
 */
static int build_idx(struct fx *f, const char *spec, uint64_t size,
		     unsigned int nr, unsigned int job_index)
{
	struct job_options o;
	char *copy = strdup(spec), *tok, *save = NULL;
	unsigned int i;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	opt_defaults(&o);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq++ = '\0';
		if (opt_set(&o, tok, eq, 1024, &f->err)) {
			diag("option %s: %s", tok, strbuf_str(&f->err));
			goto out;
		}
	}
	if (plan_build(&f->p, &o, "t.fio", 1, &f->err)) {
		diag("plan: %s", strbuf_str(&f->err));
		goto out;
	}
	f->p.job_index = job_index;
	f->nr = nr;
	for (i = 0; i < nr; i++) {
		snprintf(f->names[i], sizeof(f->names[i]), "f%u", i);
		f->files[i].path = f->names[i];
		f->files[i].fd = -1;
		f->files[i].io_offset = (i + 1) * 1024 * KB + 8 * KB;
		f->files[i].io_size = size;
		f->files[i].real_size = f->files[i].io_offset + size;
	}
	ret = workload_init(&f->w, &f->p, f->files, nr, &f->err);
	if (ret)
		plan_release(&f->p);
out:
	job_options_release(&o);
	free(copy);
	return ret;
}

static int build(struct fx *f, const char *spec, uint64_t size,
		 unsigned int nr)
{
	return build_idx(f, spec, size, nr, 0);
}

static void fx_free(struct fx *f)
{
	workload_free(f->w);
	plan_release(&f->p);
	strbuf_release(&f->err);
}

/* Runs one pass into ios (at most max); returns the count, or max + 1. */
static size_t drain(struct workload *w, struct io_u *ios, size_t max)
{
	size_t n = 0;
	struct io_u u;

	for (;;) {
		memset(&u, 0, sizeof(u));
		if (workload_next(w, &u))
			return n;
		if (n == max)
			return max + 1;
		if (ios)
			ios[n] = u;
		n++;
	}
}

/* The next I/O, starting a new pass when one ends (like time_based). */
static void next_io(struct workload *w, struct io_u *u)
{
	if (workload_next(w, u)) {
		workload_rewind(w);
		workload_next(w, u);
	}
}

static uint64_t rel(const struct fx *f, const struct io_u *u)
{
	return u->offset - f->files[u->file].io_offset;
}

/* Every I/O inside its file's region. */
static int all_inside(const struct fx *f, const struct io_u *ios, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct engine_file *e = &f->files[ios[i].file];

		if (ios[i].file >= f->nr || ios[i].offset < e->io_offset ||
		    ios[i].offset + ios[i].len > e->io_offset + e->io_size)
			return 0;
	}
	return 1;
}

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

	/* rw=write:4k: a 4k hole after each write, wrapping at the end */
	build(&f, "rw=write:4k bs=4k", 64 * KB, 1);
	n = drain(f.w, ios, 64);
	good = n == 16 && all_inside(&f, ios, n);
	for (i = 0; good && i < n; i++)
		good = rel(&f, &ios[i]) == (i % 8) * 8 * KB;
	ok(good, "rw=write:4k: holes of 4k, 16 writes, wrap at the end (%zu)",
	   n);
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

		build(&f, "rw=randread bs=4k", n * 4 * KB, 1);
		c1 = covers_once(&f, n, 4 * KB, a, &sa);
		workload_rewind(f.w);
		c2 = covers_once(&f, n, 4 * KB, b, &sb);
		ok(c1 && c2, "random map, %" PRIu64 " blocks: every block once "
		   "in each of two passes", n);
		if (n >= 1000)
			ok(sa != sb || memcmp(a, b, sizeof(a)),
			   "random map, %" PRIu64 " blocks: the second pass "
			   "has another order", n);
		fx_free(&f);
	}
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

	good = build(&f, "rw=randrw bs=4k,64k", 32 * KB, 1) < 0;
	ok(good && strstr(strbuf_str(&f.err), "smaller than the write block "
			  "size"), "a region smaller than the write block "
	   "size is refused (%s)", strbuf_str(&f.err));
	strbuf_release(&f.err);
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

	sequence(base, 0, a);
	snprintf(spec, sizeof(spec), "%s randseed=1234", base);
	sequence(spec, 0, b);
	ok(memcmp(a, b, sizeof(a)), "another randseed, another sequence");
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
static double hot_share(const char *dist, unsigned int pct,
			uint64_t *hottest)
{
	static uint32_t hits[1000];
	char spec[128];
	struct fx f;
	struct io_u u;
	size_t i, n = 200000;
	uint64_t top = 0, best = 0;

	memset(hits, 0, sizeof(hits));
	snprintf(spec, sizeof(spec), "rw=randread random_distribution=%s",
		 dist);
	build(&f, spec, 1000 * 4 * KB, 1);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		hits[rel(&f, &u) / (4 * KB)]++;
	}
	for (i = 0; i < 1000; i++)
		if (hits[i] > hits[best])
			best = i;
	*hottest = best;
	qsort(hits, 1000, sizeof(hits[0]), cmp_desc);
	for (i = 0; i < pct * 10; i++)
		top += hits[i];
	fx_free(&f);
	return (double)top / n;
}

static void test_distributions(void)
{
	uint64_t h1, h2;
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

int main(void)
{
	test_sequential();
	test_mixed_sequential();
	test_random_map();
	test_random_other();
	test_seeds();
	test_rwmix();
	test_block_sizes();
	test_distributions();
	test_files();
	return done_testing();
}

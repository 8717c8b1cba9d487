/* SPDX-License-Identifier: MIT */
/*
 * The workload (src/workload/), continued from workload.c: the file
 * service, sync turns, openfiles, the workload's options and num_range.
 */
#include <limits.h>

#include "workload_fx.h"

/* ---- file service ------------------------------------------------------- */

/* The files of one pass as a string of digits. */
static void file_order(const char *spec, unsigned int nr, uint64_t size,
		       char *out, size_t max)
{
	static struct io_u ios[512];
	struct fx f;
	size_t n, i;

	build(&f, spec, size, nr);
	n = drain(f.w, ios, 512);
	for (i = 0; i < n && i + 1 < max; i++)
		out[i] = (char)('0' + ios[i].file);
	out[i] = '\0';
	fx_free(&f);
}

/* The index of the largest of cnt[0..nr). */
static unsigned int hottest(const size_t *cnt, unsigned int nr)
{
	unsigned int i, h = 0;

	for (i = 1; i < nr; i++)
		if (cnt[i] > cnt[h])
			h = i;
	return h;
}

/* n I/Os of a job over 8 files of 1 MiB, counted per file into cnt */
static void count_files(const char *spec, size_t *cnt, size_t n)
{
	struct fx f;
	struct io_u u;
	size_t i;

	memset(cnt, 0, 8 * sizeof(*cnt));
	build(&f, spec, 1024 * KB, 8);
	for (i = 0; i < n; i++) {
		next_io(f.w, &u);
		cnt[u.file]++;
	}
	fx_free(&f);
}

static void test_file_service(void)
{
	static struct io_u ios[64];
	char s[600];
	size_t cnt[8] = { 0 };
	struct fx f;
	size_t i, k, n = 40000;
	unsigned int hot;
	int good;

	file_order("rw=read bs=4k", 3, 16 * KB, s, sizeof(s));
	ok(!strcmp(s, "012012012012"), "roundrobin: %s", s);
	file_order("rw=read bs=4k file_service_type=roundrobin:2", 3,
		   16 * KB, s, sizeof(s));
	ok(!strcmp(s, "001122001122"), "roundrobin:2: %s", s);
	file_order("rw=read bs=4k file_service_type=sequential", 3, 16 * KB,
		   s, sizeof(s));
	ok(!strcmp(s, "000011112222"), "sequential: %s", s);
	file_order("rw=randread bs=4k file_service_type=sequential:2", 3,
		   16 * KB, s, sizeof(s));
	ok(!strcmp(s, "000011112222"), "sequential:2 (N ignored, as fio): "
	   "%s", s);
	file_order("rw=read bs=4k file_service_type=random", 3, 64 * KB, s,
		   sizeof(s));
	ok(strlen(s) == 48 && strchr(s, '0') && strchr(s, '1') &&
	   strchr(s, '2') && strcmp(s, "012012012012012012012012012012012012"
				    "012012012012"),
	   "random: every file, not in turn (%s)", s);
	file_order("rw=read bs=4k file_service_type=random:4", 3, 64 * KB, s,
		   sizeof(s));
	{
		int runs = 1;

		/* each turn is 4 I/Os (or until the file is done) */
		for (i = 1; s[i]; i++)
			if (s[i] != s[i - 1] && i % 4)
				runs = 0;
		ok(strlen(s) == 48 && runs, "random:4: turns of 4 (%s)", s);
	}

	/*
	 * zipf and pareto: the hot spot lies where a draw put it, and the
	 * file holding it takes most (fsrv.h); the next one the tail
	 */
	count_files("rw=randread bs=4k norandommap "
		    "file_service_type=zipf:1.2", cnt, n);
	hot = hottest(cnt, 8);
	ok(cnt[hot] > n * 3 / 4 && cnt[hot] + cnt[(hot + 1) % 8] > n * 88 / 100,
	   "zipf:1.2: one file takes over 75%%, with the next over 88%% (%zu "
	   "%zu of %zu)", cnt[hot], cnt[(hot + 1) % 8], n);

	count_files("rw=randread bs=4k norandommap "
		    "file_service_type=pareto:0.2", cnt, n);
	hot = hottest(cnt, 8);
	ok(cnt[hot] > n / 2 && cnt[hot] + cnt[(hot + 1) % 8] > n * 3 / 4,
	   "pareto:0.2: one file over 50%%, with the next over 75%% (%zu %zu "
	   "of %zu)", cnt[hot], cnt[(hot + 1) % 8], n);

	count_files("rw=randread bs=4k norandommap file_service_type=gauss",
		    cnt, n);
	ok(cnt[3] + cnt[4] > n * 8 / 10 && cnt[0] + cnt[7] < n / 500 &&
	   cnt[2] && cnt[5], "gauss: around the middle files (%zu %zu %zu "
	   "%zu %zu)", cnt[0], cnt[2], cnt[3], cnt[4], cnt[7]);

	count_files("rw=randread bs=4k norandommap "
		    "file_service_type=normal:50", cnt, n);
	ok(cnt[2] + cnt[3] + cnt[4] + cnt[5] > n * 8 / 10 &&
	   cnt[0] + cnt[7] < n / 25 && cnt[1] && cnt[6],
	   "normal:50: wider around the middle (%zu %zu %zu %zu)", cnt[0],
	   cnt[1], cnt[3], cnt[7]);

	/*
	 * A skewed job's files never end: one that is done starts over
	 * (fio), and the budget of 16 blocks ends the pass
	 */
	build(&f, "rw=read bs=4k file_service_type=zipf:2", 16 * KB, 4);
	n = drain(f.w, ios, 64);
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[ios[i].file]++;
	hot = hottest(cnt, 4);
	good = n == 16 && cnt[hot] > 4;
	/* the hot file is read from its start again after its end */
	for (i = 0, k = 0; good && i < n; i++)
		if (ios[i].file == hot)
			good = rel(&f, &ios[i]) == k++ % 4 * 4 * KB;
	ok(good, "zipf: a finished file starts over, 16 blocks (%zu, %zu on "
	   "file %u)", n, cnt[hot], hot);
	fx_free(&f);
}

/*
 * A pass as file digits, an 'S' where a sync takes a turn before every
 * every-th I/O (fsync=every, syncs at I/O counts that are multiples),
 * over passes passes (workload_rewind() between them, as loops).
 */
static void sync_order(const char *spec, unsigned int nr, unsigned int every,
		       unsigned int passes, char *out, size_t max)
{
	struct fx f;
	struct io_u u;
	size_t n = 0, ios = 0, synced = 0;
	unsigned int p, fi;

	build(&f, spec, 16 * KB, nr);
	for (p = 0; p < passes; p++) {
		if (p)
			workload_rewind(f.w);
		for (;;) {
			if (ios && ios % every == 0 && ios != synced &&
			    n + 2 < max &&
			    (fi = workload_sync_file(f.w, false)) != UINT_MAX) {
				out[n++] = 'S';
				out[n++] = (char)('0' + fi);
				synced = ios;
			}
			memset(&u, 0, sizeof(u));
			if (workload_next(f.w, &u) || n + 1 >= max)
				break;
			out[n++] = (char)('0' + u.file);
			ios++;
		}
	}
	out[n] = '\0';
	fx_free(&f);
}

static void test_sync_turns(void)
{
	char s[200];
	struct fx f;

	/* fio: two files, fsync=3: 4 turns a cycle, every sync on file 1 */
	sync_order("rw=write bs=4k", 2, 3, 1, s, sizeof(s));
	ok(!strcmp(s, "010S1010S111"), "a sync takes a turn: %s", s);
	sync_order("rw=write bs=4k file_service_type=sequential", 2, 3, 1, s,
		   sizeof(s));
	ok(!strcmp(s, "000S0011S111"), "sequential: the current file's: %s",
	   s);
	/* a new pass goes on with the turn (io_size ends it mid-turn) */
	sync_order("rw=write bs=4k io_size=16k loops=3", 3, 100, 3, s,
		   sizeof(s));
	ok(!strcmp(s, "012012012012"), "round robin goes on across passes: %s",
	   s);
	build(&f, "rw=write bs=4k", 16 * KB, 1);
	ok(workload_sync_file(f.w, false) == UINT_MAX,
	   "one file: no turn to take");
	fx_free(&f);
}

static void test_openfiles(void)
{
	static struct io_u ios[64];
	char ev[128];
	size_t n, i, k = 0;
	struct fx f;
	unsigned int file;
	bool open;
	int good;

	build(&f, "rw=read bs=4k openfiles=2", 16 * KB, 4);
	ok(workload_open_limit(f.w) == 2 && workload_file_in_use(f.w, 0) &&
	   workload_file_in_use(f.w, 1) && !workload_file_in_use(f.w, 2) &&
	   !workload_file_event(f.w, &file, &open),
	   "openfiles=2: files 0 and 1 in use at start, no events yet");
	for (n = 0; n < 64; n++) {
		if (workload_next(f.w, &ios[n]))
			break;
		while (workload_file_event(f.w, &file, &open) &&
		       k + 4 < sizeof(ev)) {
			ev[k++] = open ? '+' : '-';
			ev[k++] = (char)('0' + file);
		}
		ev[k++] = (char)('0' + ios[n].file);
	}
	ev[k] = '\0';
	ok(n == 16 && !strcmp(ev, "01010101-0+2-1+323232323"),
	   "openfiles=2 over 4 files: %s", ev);
	workload_rewind(f.w);
	good = workload_file_in_use(f.w, 2) && workload_file_in_use(f.w, 3) &&
	       !workload_file_in_use(f.w, 0);
	ok(good, "a new pass keeps the files in use");
	fx_free(&f);

	build(&f, "rw=randread bs=4k openfiles=1 file_service_type=random",
	      16 * KB, 3);
	for (n = 0; n < 64 && !workload_next(f.w, &ios[n]); n++)
		;
	/* fio draws each file to open among those not done */
	good = n == 12 && ios[0].file != ios[4].file &&
	       ios[4].file != ios[8].file && ios[0].file != ios[8].file;
	for (i = 0; good && i < n; i++)
		good = ios[i].file == ios[i - i % 4].file;
	ok(good, "openfiles=1: one file after the other (%zu)", n);
	fx_free(&f);

	/* the draws vary with the seed: the first file is any of them */
	for (i = 0, k = 0; i < 16; i++) {
		char opts[96];

		snprintf(opts, sizeof(opts), "rw=randread bs=4k openfiles=1 "
			 "file_service_type=random randseed=%zu", i + 1);
		build(&f, opts, 16 * KB, 3);
		if (!workload_next(f.w, &ios[0]))
			k |= 1U << ios[0].file;
		fx_free(&f);
	}
	ok(k == 7, "openfiles=1, random: the first file is drawn (%zx)", k);

	/* sequential: the next file in order takes the turn, as in fio */
	build(&f, "rw=read bs=4k openfiles=3 file_service_type=sequential",
	      16 * KB, 4);
	for (n = 0; n < 64 && !workload_next(f.w, &ios[n]); n++)
		;
	good = n == 16;
	for (i = 0; good && i < n; i++)
		good = ios[i].file == i / 4;
	ok(good, "openfiles=3, sequential: files in order (%zu)", n);
	fx_free(&f);

	/*
	 * skewed: a used-up file is closed and the next one drawn (fio),
	 * not started over in place: 256 writes over 4 files of 16
	 * blocks go to more than one file
	 */
	build(&f, "rw=write bs=4k openfiles=1 file_service_type=pareto:0.5 "
	      "io_size=1m", 64 * KB, 4);
	for (n = 0, k = 0; n < 256 && !workload_next(f.w, &ios[0]); n++)
		k |= 1U << ios[0].file;
	ok(n == 256 && __builtin_popcountl(k) > 1,
	   "openfiles=1, pareto: a used-up file gives way (%zx)", k);
	fx_free(&f);

	build(&f, "rw=read bs=4k openfiles=8", 16 * KB, 4);
	ok(workload_open_limit(f.w) == 0 && workload_file_in_use(f.w, 3),
	   "openfiles above nrfiles: no limit");
	fx_free(&f);
}

/* ---- the options ------------------------------------------------------ */

static void roundtrip(const char *name, const char *in, const char *canon)
{
	struct job_options o, o2;
	struct strbuf err = STRBUF_INIT, f1 = STRBUF_INIT, f2 = STRBUF_INIT;
	int r;

	opt_defaults(&o);
	opt_defaults(&o2);
	r = opt_set(&o, name, in, 1024, &err);
	opt_format(opt_lookup(name), &o, &f1);
	if (!r)
		r = opt_set(&o2, name, strbuf_str(&f1), 1024, &err);
	opt_format(opt_lookup(name), &o2, &f2);
	ok(!r && !strcmp(strbuf_str(&f1), canon) &&
	   !strcmp(strbuf_str(&f2), canon), "%s=%s formats as '%s' (%s)",
	   name, in, strbuf_str(&f1), strbuf_str(&err));
	job_options_release(&o);
	job_options_release(&o2);
	strbuf_release(&err);
	strbuf_release(&f1);
	strbuf_release(&f2);
}

static void refused(const char *name, const char *in, const char *msg)
{
	struct job_options o;
	struct strbuf err = STRBUF_INIT;
	int r;

	opt_defaults(&o);
	r = opt_set(&o, name, in, 1024, &err);
	ok(r && !strcmp(strbuf_str(&err), msg), "%s=%s: %s", name, in,
	   strbuf_str(&err));
	job_options_release(&o);
	strbuf_release(&err);
}

static void test_options(void)
{
	roundtrip("random_distribution", "zoned:60/10:30/20:8/30:2/40",
		  "zoned:60/10:30/20:8/30:2/40");
	roundtrip("random_distribution", "zoned:50/5:30/15:20/",
		  "zoned:50/5:30/15:20/80");
	roundtrip("random_distribution", "zoned:50/:50/",
		  "zoned:50/50:50/50");
	roundtrip("random_distribution", "zoned:50/5:30/15:20/,50/10:50/90",
		  "zoned:50/5:30/15:20/80,50/10:50/90");
	roundtrip("random_distribution", "zoned:100/10,zoned:50/50:50/50,",
		  "zoned:100/10,50/50:50/50,");
	roundtrip("random_distribution", "zoned_abs:60/20g:40/",
		  "zoned_abs:60/21474836480:40/");
	roundtrip("percentage_random", "50", "50");
	roundtrip("percentage_random", "50,20", "50,20");
	roundtrip("file_service_type", "random:8", "random:8");
	roundtrip("file_service_type", "roundrobin", "roundrobin");
	roundtrip("file_service_type", "zipf", "zipf:1.1");
	roundtrip("file_service_type", "gauss:5", "normal:5");
	roundtrip("fallocate", "1", "posix");
	roundtrip("fallocate", "keep", "keep");
	roundtrip("fill_fs", "1", "1");
	roundtrip("lockfile", "readwrite", "readwrite");
	roundtrip("rw_sequencer", "identical", "identical");
	roundtrip("zonesize", "16k", "16384");

	refused("random_distribution", "zoned:50/50:30/50",
		"option 'random_distribution': access percentages in "
		"'50/50:30/50' add up to 80, not 100");
	refused("random_distribution", "zoned:50/60:50/60",
		"option 'random_distribution': range percentages in "
		"'50/60:50/60' add up to 120, more than 100");
	refused("random_distribution", "zoned:60/10:40/0",
		"option 'random_distribution': zone 2 of '60/10:40/0' gets "
		"40% of the accesses but has no range");
	refused("random_distribution", "zoned",
		"option 'random_distribution': distribution 'zoned' needs "
		"its zones, e.g. zoned:60/10:40/");
	refused("random_distribution", "zoned:60-10",
		"option 'random_distribution': zone '60-10' is not "
		"access/range");
	refused("percentage_random", "101",
		"option 'percentage_random': invalid percentage '101' "
		"(0..100)");
	refused("file_service_type", "random:0",
		"option 'file_service_type': invalid switch count '0' (1 or "
		"more I/Os)");
	refused("file_service_type", "zipf:1",
		"option 'file_service_type': zipf theta must be above 0 and "
		"not 1, not 1");
	refused("file_service_type", "lru",
		"option 'file_service_type': invalid value 'lru' (valid: "
		"roundrobin, sequential, random, zipf, pareto, normal, "
		"gauss)");
}

/*
 * num_range (fio 3.42): trims of several ranges, one I/O each, drawn
 * as the next trims would be; measured with fio 3.42 in the test guest
 * (t/vm/jobs.txt's nr- rows), here over a file whose target goes on
 * past the region unless end says otherwise.
 */
static size_t ranges_pass(const char *spec, uint64_t size, bool end,
			  struct io_u *ios, struct io_range (*r)[8],
			  size_t max)
{
	struct fx f;
	size_t n = 0;

	if (fx_setup(&f, spec, size, 1, 0, FIRST_REGION))
		return 0;
	if (!end)
		f.files[0].real_size += 1024 * KB;
	if (fx_init(&f))
		return 0;
	for (; n < max; n++) {
		memset(&ios[n], 0, sizeof(ios[n]));
		ios[n].buf = r[n];
		if (workload_next(f.w, &ios[n]))
			break;
	}
	fx_free(&f);
	return n;
}

static void test_num_range(void)
{
	const char *nr = "ioengine=io_uring_cmd num_range=";
	static struct io_range r[64][8];
	struct io_u ios[64];
	char spec[128];
	uint8_t seen[16] = { 0 };
	uint64_t bytes = 0, o;
	size_t n, i, k;
	int good = 1;

	snprintf(spec, sizeof(spec), "rw=trim bs=4k %s4", nr);
	n = ranges_pass(spec, 64 * KB, false, ios, r, 64);
	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++)
			good &= r[i][k].offset == FIRST_REGION + i * 16 * KB +
				k * 4 * KB && r[i][k].len == 4 * KB;
	ok(n == 4 && good && ios[0].len == 16 * KB &&
	   ios[0].offset == FIRST_REGION + 12 * KB,
	   "num_range=4, sequential: 4 trims of 4 ranges, each at its last");
	/*
	 * fio holds the last range's offset plus the whole length to the
	 * target's end: the fourth trim (60k + 16k) ends the file
	 */
	n = ranges_pass(spec, 64 * KB, true, ios, r, 64);
	ok(n == 3, "num_range=4 at the target's end: 3 trims (%zu)", n);

	snprintf(spec, sizeof(spec), "rw=randtrim bs=4k %s3", nr);
	n = ranges_pass(spec, 64 * KB, false, ios, r, 64);
	for (i = 0; i < n; i++) {
		uint64_t sum = 0;

		for (k = 0; sum < ios[i].len && k < 3; k++) {
			o = (r[i][k].offset - FIRST_REGION) / (4 * KB);
			good &= o < 16 && !seen[o]++;
			sum += r[i][k].len;
		}
		good &= sum == ios[i].len &&
			ios[i].offset == r[i][k - 1].offset;
		bytes += ios[i].len;
	}
	ok(n == 6 && good && bytes == 64 * KB && ios[5].len == 4 * KB,
	   "num_range=3, random map: 5 trims of 3 blocks and 1 of the last, each block once");
	snprintf(spec, sizeof(spec),
		 "rw=randtrim bs=4k norandommap=1 %s3", nr);
	n = ranges_pass(spec, 64 * KB, false, ios, r, 64);
	ok(n == 6 && ios[5].len == 12 * KB,
	   "num_range=3, no map: 6 trims of 12k, past the 64k budget (%zu)",
	   n);
	snprintf(spec, sizeof(spec),
		 "rw=randtrim bs=4k number_ios=2 %s4", nr);
	n = ranges_pass(spec, 64 * KB, false, ios, r, 64);
	ok(n == 2 && ios[1].len == 16 * KB,
	   "num_range=4, number_ios=2: 2 trims of 4 ranges (%zu)", n);
}

int main(void)
{
	test_file_service();
	test_sync_turns();
	test_openfiles();
	test_options();
	test_num_range();
	return done_testing();
}

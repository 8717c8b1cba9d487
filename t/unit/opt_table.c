/* SPDX-License-Identifier: MIT */
/* The option table, its types, and plan_build (src/opt/). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"

static struct job_options *fresh(void)
{
	struct job_options *o = malloc(sizeof(*o));

	opt_defaults(o);
	return o;
}

static void drop(struct job_options *o)
{
	job_options_release(o);
	free(o);
}

/* Sets name=val (kb_base 1024); returns the error text or "" on success. */
static const char *set(struct job_options *o, const char *name,
		       const char *val)
{
	static struct strbuf err = STRBUF_INIT;

	strbuf_reset(&err);
	if (opt_set(o, name, val, 1024, &err))
		return strbuf_str(&err)[0] ? strbuf_str(&err) : "(no message)";
	return "";
}

static const char *fmt(const struct job_options *o, const char *name)
{
	static struct strbuf out = STRBUF_INIT;

	strbuf_reset(&out);
	opt_format(opt_lookup(name), o, &out);
	return strbuf_str(&out);
}

/* name=in parses, formats as canon, and canon parses back to canon. */
static void roundtrip(const char *name, const char *in, const char *canon)
{
	struct job_options *a = fresh(), *b = fresh();
	const char *e = set(a, name, in);
	char *first = strdup(fmt(a, name));

	if (!ok(!*e && !strcmp(first, canon), "%s=%s formats as '%s' (%s%s)",
		name, in ? in : "(bare)", canon, first, e))
		goto out;
	e = set(b, name, first);
	ok(!*e && !strcmp(fmt(b, name), first), "%s=%s parses back (%s%s)",
	   name, first, fmt(b, name), e);
out:
	free(first);
	drop(a);
	drop(b);
}

static void fails(const char *name, const char *val, const char *msg)
{
	struct job_options *o = fresh();
	const char *e = set(o, name, val);

	ok(!strcmp(e, msg), "%s=%s: '%s' (got '%s')", name,
	   val ? val : "(bare)", msg, e);
	drop(o);
}

static void test_table(void)
{
	struct strbuf err = STRBUF_INIT;
	const struct opt_def *d;

	ok(opt_table_selfcheck(&err) == 0, "table self-check passes");
	if (err.len)
		diag("%s", strbuf_str(&err));
	strbuf_release(&err);
	ok(opt_table_size > 250, "table knows fio's option names (%zu rows)",
	   opt_table_size);

	ok(opt_lookup("blocksize") == opt_lookup("bs") && opt_lookup("bs"),
	   "blocksize is an alias of bs");
	ok(opt_lookup("readwrite") == opt_lookup("rw"), "readwrite = rw");
	ok(opt_lookup("timeout") == opt_lookup("runtime"), "timeout = runtime");
	ok(opt_lookup("wait_for_previous") == opt_lookup("stonewall"),
	   "wait_for_previous = stonewall");
	ok(opt_lookup("disable_bw") == opt_lookup("disable_bw_measurement"),
	   "disable_bw = disable_bw_measurement");
	ok(opt_lookup("io_limit") == opt_lookup("io_size"), "io_limit");
	ok(opt_lookup("blockalign") == opt_lookup("ba"), "blockalign = ba");
	ok(opt_lookup("blocksize_range") == opt_lookup("bsrange"),
	   "blocksize_range = bsrange");
	ok(opt_lookup("nr_files") == opt_lookup("nrfiles"), "nr_files");
	ok(opt_lookup("fileoffset") == opt_lookup("offset"), "fileoffset");
	ok(!opt_lookup("BS"), "lookup is case-sensitive, as fio");
	ok(!opt_lookup("b"), "no prefix matching");
	d = opt_lookup("iomem");
	ok(d && d->type == OPT_STR && !strcmp(d->name, "mem"),
	   "iomem is an alias of mem");
	d = opt_lookup("threads");
	ok(d && d->type == OPT_UINT && strcmp(d->name, "thread") &&
	   !opt_lookup("thread")->alias,
	   "threads is fio's tiobench option, not an alias of thread");

	ok(opt_suggest("bss") && !strcmp(opt_suggest("bss"), "bs"),
	   "bss -> bs");
	ok(opt_suggest("iodpeth") && !strcmp(opt_suggest("iodpeth"), "iodepth"),
	   "transposition iodpeth -> iodepth");
	ok(opt_suggest("runtme") && !strcmp(opt_suggest("runtme"), "runtime"),
	   "runtme -> runtime");
	ok(opt_suggest("BS") && !strcmp(opt_suggest("BS"), "bs"),
	   "case: BS -> bs");
	ok(!opt_suggest("xyzzyplugh"), "nothing close to xyzzyplugh");
}

static void test_defaults(void)
{
	struct job_options *o = fresh();
	size_t i;
	int any = 0;

	for (i = 0; i < OPT_TABLE_MAX; i++)
		any |= o->set[i];
	ok(!any, "defaults mark nothing as set");
	ok(o->iodepth == 1 && o->numjobs == 1 && o->loops == 1 &&
	   o->nrfiles == 1, "iodepth, numjobs, loops, nrfiles default to 1");
	ok(o->bs[0] == 4096 && o->bs[1] == 4096 && o->bs[2] == 4096,
	   "bs defaults to 4k in every direction");
	ok(o->rw == RW_READ && o->rwmixread == 50, "rw=read, rwmixread=50");
	ok(o->kb_base == 1024 && o->unit_base == 0, "kb_base=1024, unit_base=0");
	ok(o->randrepeat && o->randseed == 0x89 &&
	   o->random_generator == RANDGEN_TAUSWORTHE &&
	   o->random_distribution == RDIST_RANDOM, "randomness defaults");
	ok(o->allow_file_create && o->invalidate && o->scramble_buffers &&
	   !o->overwrite && !o->unlink && !o->direct && !o->zero_buffers,
	   "file and buffer bools as fio");
	ok(o->ioengine && !strcmp(o->ioengine, "psync"), "ioengine=psync");
	ok(o->filename_format &&
	   !strcmp(o->filename_format, "$jobname.$jobnum.$filenum"),
	   "filename_format default");
	ok(o->sync == SYNC_NONE && o->continue_on_error == 0 &&
	   o->cpus_allowed_policy == CPUS_SHARED &&
	   o->clocksource == CLOCK_SRC_DEFAULT, "enum defaults");
	ok(!o->filename && !o->size.bytes && !o->size.pct && !o->runtime_us,
	   "no filename, size or runtime by default");
	drop(o);
}

static void test_types(void)
{
	struct job_options *o;
	struct strbuf err = STRBUF_INIT;

	roundtrip("description", "a b c", "a b c");
	roundtrip("direct", "1", "1");
	roundtrip("direct", NULL, "1");
	roundtrip("direct", "true", "1");
	roundtrip("buffered", "0", "0");
	roundtrip("iodepth", "32", "32");
	roundtrip("iodepth", "1k", "1024");
	roundtrip("randseed", "0x10", "16");
	roundtrip("io_size", "1g", "1073741824");
	roundtrip("size", "10m", "10485760");
	roundtrip("size", "50%", "50%");
	roundtrip("offset", "0x1000", "4096");
	/* fio swaps an inverted bsrange, takes filesize's as written */
	roundtrip("bsrange", "64k-4k", "4096-65536");
	fails("filesize", "64k-4k", "option 'filesize': range '64k-4k' runs "
	      "from 65536 down to 4096: give the smaller size first");
	roundtrip("filesize", "4k:8k", "4096-8192");
	roundtrip("filesize", "8k", "8192-8192");
	roundtrip("bs", "8k", "8192");
	roundtrip("bs", "8k,32k", "8192,32768");
	roundtrip("bs", "8k,32k,16k", "8192,32768,16384");
	roundtrip("bs", "8k,32k,", "8192,32768,4096");
	roundtrip("bs", ",8k", "4096,8192");
	roundtrip("bs", ",8k,", "4096,8192,4096");
	roundtrip("bs", "8k,8k,4k", "8192,8192,4096");
	roundtrip("bsrange", "1k-4k,2k:8k", "1024-4096,2048-8192");
	roundtrip("runtime", "90", "90s");
	roundtrip("runtime", "1m", "60s");
	roundtrip("runtime", "1500ms", "1500ms");
	roundtrip("runtime", "7us", "7us");
	roundtrip("ramp_time", "0", "0us");
	roundtrip("startdelay", "2", "2s");
	roundtrip("startdelay", "100ms-200ms", "100ms-200ms");
	roundtrip("startdelay", "1:2", "1s-2s");
	roundtrip("startdelay", "1-1", "1s");
	roundtrip("sync", "1", "sync");
	roundtrip("sync", "dsync", "dsync");
	roundtrip("continue_on_error", "io", "io");
	roundtrip("continue_on_error", "1", "all");
	roundtrip("kb_base", "1000", "1000");
	roundtrip("unit_base", "8", "8");
	roundtrip("cpus_allowed_policy", "split", "split");
	roundtrip("clocksource", "cpu", "cpu");
	roundtrip("random_generator", "lfsr", "lfsr");
	roundtrip("rw", "randrw", "randrw");
	roundtrip("rw", "readwrite", "rw");
	roundtrip("rw", "randread:8", "randread:8");
	/* fio reads the count's digits: randread:8k is 8 */
	roundtrip("rw", "randread:8k", "randread:8");
	roundtrip("rw", "read:-8k", "read:-8192");
	roundtrip("rw", "write:4k", "write:4096");
	roundtrip("rw", "write:4k", "write:4096");
	roundtrip("rw", "read:", "read");
	roundtrip("rwmixwrite", "30", "30");
	roundtrip("random_distribution", "zipf:1.2", "zipf:1.2");
	roundtrip("random_distribution", "zipf:1.2:0.25", "zipf:1.2:0.25");
	roundtrip("random_distribution", "normal:10:0.2", "normal:10:0.2");
	roundtrip("random_distribution", "pareto:0.3:0", "pareto:0.3:0");
	roundtrip("random_distribution", "zipf", "zipf:1.1");
	roundtrip("random_distribution", "pareto", "pareto:0.2");
	roundtrip("random_distribution", "normal:5", "normal:5");
	roundtrip("bssplit", "4k/10:64k/50:32k/40", "4096/10:65536/50:32768/40");
	roundtrip("bssplit", "4k/50:1k/:32k/", "4096/50:1024/25:32768/25");
	roundtrip("bssplit", "4k/:8k/:16k/", "4096/34:8192/33:16384/33");
	roundtrip("bssplit", "4k", "4096/100");
	roundtrip("bssplit", "2k/50:4k/50,4k/90:8k/10",
		  "2048/50:4096/50,4096/90:8192/10");
	roundtrip("offset_increment", "1m", "1048576");
	roundtrip("offset_increment", "10%", "10%");
	roundtrip("io_size", "50%", "50%");

	/* side effects and aliases */
	o = fresh();
	set(o, "rwmixread", "20");
	set(o, "rwmixwrite", "30");
	ok(o->rwmixread == 70, "the later of rwmixread/rwmixwrite wins");
	set(o, "rwmixread", "10");
	ok(o->rwmixread == 10 && !strcmp(fmt(o, "rwmixwrite"), "90"),
	   "rwmixwrite formats as 100 - rwmixread");
	set(o, "direct", "1");
	ok(!*set(o, "buffered", NULL) && !o->direct, "bare buffered clears direct");
	ok(!*set(o, "blocksize", "16k") && o->bs[2] == 16384,
	   "set through an alias");
	ok(opt_is_set(o, "bs") && opt_is_set(o, "blocksize") &&
	   !opt_is_set(o, "iodepth"), "opt_is_set by name or alias");
	ok(!*set(o, "filename", "a") && !*set(o, "filename", "b") &&
	   !strcmp(o->filename, "b"), "string replaced, not leaked");
	ok(!strcmp(set(o, "filename", ""), "option 'filename' needs a value") &&
	   !strcmp(o->filename, "b"), "an empty string value is refused, as fio");
	drop(o);

	/* kb_base reaches every type, callbacks included */
	o = fresh();
	ok(opt_set(o, "bs", "4k", 1000, &err) == 0 && o->bs[0] == 4000,
	   "bs=4k with kb_base=1000 is 4000");
	ok(opt_set(o, "rw", "write:1k", 1000, &err) == 0 &&
	   o->rw_seq_add == 1000, "rw=write:1k with kb_base=1000");
	ok(opt_set(o, "bssplit", "1KiB/100", 1000, &err) == 0 &&
	   o->bssplit[0][0].bs == 1024, "bssplit with kb_base=1000");
	ok(o->kb_base == 1024, "callbacks leave o->kb_base alone");
	drop(o);
	strbuf_release(&err);
}

static void test_errors(void)
{
	fails("bss", "4k", "unknown option 'bss' (did you mean 'bs'?)");
	fails("xyzzyplugh", "1", "unknown option 'xyzzyplugh'");
	fails("profile", "tiobench", "option 'profile': fio's workload "
	      "profile 'tiobench' is not supported yet (iolite's profile= "
	      "is a CPU profile: none, cpu or system)");
	fails("namenode", "r1", "option 'namenode' is not supported: an "
	      "option of ioengine libhdfs (a Hadoop HDFS client (libhdfs, a "
	      "JVM): iolite measures local kernel I/O, not network storage "
	      "services)");
	fails("bs", NULL, "option 'bs' needs a value");
	fails("bs", "", "option 'bs' needs a value");
	fails("bs", "abc", "option 'bs': invalid size 'abc'");
	fails("bs", "0", "option 'bs': 0 is out of range (minimum 1)");
	fails("blocksize", "0",
	      "option 'blocksize': 0 is out of range (minimum 1)");
	fails("bs", "1,2,3,4",
	      "option 'bs': too many values in '1,2,3,4' (at most "
	      "read,write,trim)");
	fails("rwmixread", "150",
	      "option 'rwmixread': 150 is out of range (0..100)");
	fails("rwmixwrite", "101",
	      "option 'rwmixwrite': 101 is out of range (0..100)");
	fails("iodepth", "0", "option 'iodepth': 0 is out of range (minimum 1)");
	fails("iodepth", "5000000000",
	      "option 'iodepth': 5000000000 is out of range (1..4294967295)");
	fails("numjobs", "0", "option 'numjobs': 0 is out of range (minimum 1)");
	fails("size", "99999999999999999999t",
	      "option 'size': '99999999999999999999t' is too large");
	fails("size", "101%", "option 'size': invalid percentage '101%' "
	      "(1%..100%)");
	fails("direct", "2", "option 'direct': invalid boolean '2' (use 0 or 1)");
	fails("runtime", "5x", "option 'runtime': invalid time '5x'");
	fails("sync", "fast", "option 'sync': invalid value 'fast' (valid: "
	      "none, 0, sync, 1, dsync)");
	fails("rw", "randomread", "option 'rw': invalid value 'randomread' "
	      "(valid: read, write, trim, randread, randwrite, randtrim, rw, "
	      "readwrite, randrw, trimwrite, randtrimwrite)");
	fails("rw", "randread:x",
	      "option 'rw': modifier 'x': not a count of I/Os");
	fails("rw", "randread:-8", "option 'rw': modifier '-8': a negative "
	      "offset modifier needs a sequential mode (read, write, rw, "
	      "trim, trimwrite)");
	fails("bssplit", "4k/60:8k/50",
	      "option 'bssplit': percentages in '4k/60:8k/50' add up to 110, "
	      "not 100");
	fails("bssplit", "4k/10:8k/20",
	      "option 'bssplit': percentages in '4k/10:8k/20' add up to 30, "
	      "not 100");
	fails("bssplit", "0/100", "option 'bssplit': block size 0 is not "
	      "allowed");
	fails("bssplit", "4k/abc", "option 'bssplit': invalid percentage "
	      "'abc' (0..100)");
	fails("random_distribution", "zipf:1",
	      "option 'random_distribution': zipf theta must be above 0 and "
	      "not 1, not 1");
	fails("random_distribution", "pareto:1",
	      "option 'random_distribution': pareto h must be between 0 and "
	      "1, not 1");
	fails("random_distribution", "normal:100",
	      "option 'random_distribution': normal sigma must be in 0..100 "
	      "(exclusive), not 100");
	fails("random_distribution", "zoned:50/50:40/50",
	      "option 'random_distribution': access percentages in "
	      "'50/50:40/50' add up to 90, not 100");
	fails("random_distribution", "zipf:1.2:1.25",
	      "option 'random_distribution': invalid centre '1.25' (a number "
	      "from 0 to 1)");
	fails("random_distribution", "random:1:0.5",
	      "option 'random_distribution': a centre ('0.5') is for zipf, "
	      "pareto and normal only");
	fails("startdelay", "5-1",
	      "option 'startdelay': range '5-1' ends below its start");
}

static void test_dump(void)
{
	struct job_options *o = fresh(), *o2 = fresh();
	struct strbuf out = STRBUF_INIT, out2 = STRBUF_INIT;
	char *line, *save = NULL, *copy;

	set(o, "name", "job1");
	set(o, "iodepth", "8");
	set(o, "bs", "4k,64k");
	set(o, "rw", "randrw:4");
	set(o, "norandommap", NULL);
	set(o, "runtime", "2m");
	opt_dump(o, &out);
	ok(!strcmp(strbuf_str(&out), "bs=4096,65536\nrw=randrw:4\n"
		   "iodepth=8\nruntime=120s\nnorandommap=1\n"),
	   "dump: set options only, table order, name left out");
	if (tap_failed)
		diag("dump was:\n%s", strbuf_str(&out));

	/* the dump is input: parsing it gives the same dump */
	copy = strdup(strbuf_str(&out));
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		*eq = '\0';
		set(o2, line, eq + 1);
	}
	free(copy);
	opt_dump(o2, &out2);
	ok(!strcmp(strbuf_str(&out), strbuf_str(&out2)), "dump round-trips");
	strbuf_release(&out);
	strbuf_release(&out2);
	drop(o);
	drop(o2);
}

static const struct opt_enum bad_enum[] = { { NULL, 0, NULL } };

static const struct opt_def broken[] = {
	{ .name = "aa", .type = OPT_UINT, .off = offsetof(struct job_options,
	  iodepth), .help = "ok" },
	{ .name = "aa", .type = OPT_UINT, .off = offsetof(struct job_options,
	  numjobs), .help = "duplicate name" },
	{ .name = "bb", .alias = "cc,aa", .type = OPT_BOOL,
	  .off = offsetof(struct job_options, direct), .help = "alias clash" },
	{ .name = "dd", .type = OPT_UINT, .off = offsetof(struct job_options,
	  iodepth) },
	{ .name = "ee", .type = OPT_UINT, .off = offsetof(struct job_options,
	  iodepth), .def = "lots", .help = "bad default" },
	{ .name = "ff", .type = OPT_UINT, .off = offsetof(struct job_options,
	  iodepth), .min = 10, .max = 5, .help = "min > max" },
	{ .name = "gg", .type = OPT_ENUM, .off = offsetof(struct job_options,
	  sync), .enums = bad_enum, .help = "empty enum" },
	{ .name = "hh", .type = OPT_CALLBACK, .help = "callback, no cb" },
	{ .name = "i i", .type = OPT_BOOL, .off = offsetof(struct job_options,
	  direct), .help = "space in name" },
	{ .name = "jj", .type = OPT_U64, .off = sizeof(struct job_options),
	  .help = "offset past the struct" },
	{ .name = "kk", .type = OPT_TIME, .off = offsetof(struct job_options,
	  runtime_us), .help = "time without unit" },
};

static void test_selfcheck_catches(void)
{
	struct strbuf err = STRBUF_INIT;
	const char *e;

	ok(opt_table_check(broken, 1, &err) == 0, "a good row passes");
	ok(opt_table_check(broken, sizeof(broken) / sizeof(broken[0]),
			   &err) == -1, "a broken table fails");
	e = strbuf_str(&err);
	ok(strstr(e, "'aa' is defined twice (rows 0 and 1)") != NULL,
	   "duplicate name caught");
	ok(strstr(e, "'aa' is defined twice (rows 0 and 2)") != NULL,
	   "alias clashing with a name caught");
	ok(strstr(e, "option 'dd': no help text") != NULL, "missing help");
	ok(strstr(e, "option 'ee': default 'lots' does not parse") != NULL,
	   "unparsable default");
	ok(strstr(e, "option 'ff': min 10 > max 5") != NULL, "min > max");
	ok(strstr(e, "option 'gg': enum without values") != NULL,
	   "empty enum");
	ok(strstr(e, "option 'hh': callback row without cb or format") != NULL,
	   "callback without functions");
	ok(strstr(e, "bad character in 'i i'") != NULL, "bad name");
	ok(strstr(e, "option 'jj': field offset") != NULL, "offset out of range");
	ok(strstr(e, "option 'kk': time without a default unit") != NULL,
	   "time without unit");
	if (tap_failed)
		diag("%s", e);
	strbuf_release(&err);
}

static void test_filenames(void)
{
	unsigned int n = 99;
	char **v = opt_split_filenames("a:b\\:c::/dev/d:", &n);

	ok(n == 3 && !strcmp(v[0], "a") && !strcmp(v[1], "b:c") &&
	   !strcmp(v[2], "/dev/d") && !v[3], "split at ':', '\\:' escapes, "
	   "empty names dropped");
	opt_free_filenames(v);
	v = opt_split_filenames("", &n);
	ok(n == 0 && v && !v[0], "empty list");
	opt_free_filenames(v);
}

static void test_copy(void)
{
	struct job_options *o = fresh(), c;

	set(o, "filename", "x");
	set(o, "cpus_allowed", "0-1");
	job_options_copy(&c, o);
	ok(c.filename != o->filename && !strcmp(c.filename, "x") &&
	   c.ioengine != o->ioengine && !strcmp(c.cpus_allowed, "0-1") &&
	   c.iodepth == o->iodepth && !memcmp(c.set, o->set, sizeof(c.set)),
	   "copy is deep");
	job_options_release(&c);
	ok(!c.filename && !c.ioengine && !c.filename_format, "release clears");
	drop(o);
}

static int plan(struct job_plan *p, struct job_options *o, struct strbuf *err)
{
	strbuf_reset(err);
	return plan_build(p, o, "job.fio", 3, err);
}

static void test_plan(void)
{
	struct strbuf err = STRBUF_INIT;
	struct job_options *o = fresh();
	struct job_plan p;

	ok(plan(&p, o, &err) == 0 && p.ddir_mask == 1u << DDIR_READ &&
	   !p.random && !p.writes && !p.mixed && p.bs_fixed &&
	   p.min_bs == 4096 && p.max_bs == 4096 && p.dir_align[0] == 4096,
	   "defaults: sequential reads of 4k");
	ok(p.o.ioengine != o->ioengine && !strcmp(p.o.ioengine, "psync") &&
	   !strcmp(p.src_file, "job.fio"), "plan owns copies");
	plan_release(&p);

	set(o, "rw", "randrw");
	set(o, "bs", "4k,64k");
	ok(plan(&p, o, &err) == 0 &&
	   p.ddir_mask == (1u << DDIR_READ | 1u << DDIR_WRITE) && p.random &&
	   p.writes && p.mixed && !p.bs_fixed && p.min_bs == 4096 &&
	   p.max_bs == 65536, "randrw with per-direction bs");
	plan_release(&p);

	set(o, "rw", "randtrimwrite");
	set(o, "bs", "8k,8k,4k");
	ok(plan(&p, o, &err) == 0 &&
	   p.ddir_mask == (1u << DDIR_TRIM | 1u << DDIR_WRITE) && p.random &&
	   p.writes && !ddir_used(&p, DDIR_READ) && p.min_bs == 4096,
	   "randtrimwrite uses trim and write");
	plan_release(&p);

	set(o, "rw", "write");
	set(o, "bs", "8k,32k");
	ok(plan(&p, o, &err) == 0 && p.bs_fixed && p.min_bs == 32768 &&
	   p.dir_min_bs[DDIR_READ] == 8192,
	   "only used directions count for min/max");
	plan_release(&p);

	set(o, "bsrange", ",1k-16k");
	set(o, "ba", "512");
	ok(plan(&p, o, &err) == 0 && !p.bs_fixed && p.min_bs == 1024 &&
	   p.max_bs == 16384 && p.dir_align[DDIR_WRITE] == 512,
	   "bsrange beats bs; blockalign");
	plan_release(&p);

	set(o, "bssplit", ",4k/50:128k/50");
	ok(plan(&p, o, &err) == 0 && p.min_bs == 4096 &&
	   p.max_bs == 131072 && p.dir_align[DDIR_WRITE] == 512,
	   "bssplit beats bsrange");
	plan_release(&p);
	drop(o);

	o = fresh();
	set(o, "bs", "1m");
	set(o, "size", "4k");
	ok(plan(&p, o, &err) == -1 && !strcmp(strbuf_str(&err),
	   "job.fio:3: option 'bs': block size 1048576 is larger than size "
	   "4096"), "bs larger than size: %s", strbuf_str(&err));
	set(o, "size", "1m");
	ok(plan(&p, o, &err) == 0, "bs equal to size is fine");
	plan_release(&p);
	set(o, "size", "1%");
	ok(plan(&p, o, &err) == 0, "size as a percentage is checked later");
	plan_release(&p);
	set(o, "size", "4k");
	set(o, "bsrange", "2k-1m");
	ok(plan(&p, o, &err) == 0, "bsrange with min below size is fine");
	plan_release(&p);
	set(o, "bsrange", "8k-1m");
	ok(plan(&p, o, &err) == -1 && !strcmp(strbuf_str(&err),
	   "job.fio:3: option 'bsrange': minimum block size 8192 is larger "
	   "than size 4096"), "bsrange larger than size: %s",
	   strbuf_str(&err));
	drop(o);

	o = fresh();
	set(o, "hipri", NULL);
	ok(plan(&p, o, &err) == -1 && !strcmp(strbuf_str(&err),
	   "job.fio:3: option 'hipri' is not valid with ioengine 'psync' "
	   "(only pvsync2, io_uring, io_uring_cmd)"), "hipri needs its engine: %s",
	   strbuf_str(&err));
	set(o, "ioengine", "pvsync2");
	set(o, "nowait", "1");
	ok(plan(&p, o, &err) == 0 && p.o.hipri && p.o.nowait,
	   "hipri and nowait with pvsync2");
	plan_release(&p);
	set(o, "ioengine", "libaio");
	ok(plan(&p, o, &err) == -1 && strstr(strbuf_str(&err), "'hipri'"),
	   "hipri with libaio refused");
	drop(o);

	/* an alias owns its engine's options (fio's "aio" is libaio) */
	o = fresh();
	set(o, "ioengine", "aio");
	set(o, "nowait", "1");
	set(o, "cmdprio_percentage", "10");
	ok(plan(&p, o, &err) == 0 && p.o.nowait,
	   "nowait and cmdprio with ioengine=aio (libaio): %s",
	   strbuf_str(&err));
	plan_release(&p);
	set(o, "ioengine", "psync");
	ok(plan(&p, o, &err) == -1 && !strcmp(strbuf_str(&err),
	   "job.fio:3: option 'nowait' is not valid with ioengine 'psync' "
	   "(only pvsync2, io_uring, io_uring_cmd, libaio)"), "nowait with psync: %s",
	   strbuf_str(&err));
	drop(o);

	/* options built in code get the parser's limits too */
	o = fresh();
	o->bs[DDIR_READ] = 0;
	ok(plan(&p, o, &err) == -1 && !strcmp(strbuf_str(&err),
	   "job.fio:3: option 'bs': read block size is 0"), "bs=0: %s",
	   strbuf_str(&err));
	o->bs[DDIR_READ] = 4096;
	o->numjobs = 0;
	ok(plan(&p, o, &err) == -1 && strstr(strbuf_str(&err), "'numjobs'"),
	   "numjobs=0");
	o->numjobs = 1;
	o->iodepth = 0;
	ok(plan(&p, o, &err) == -1 && strstr(strbuf_str(&err), "'iodepth'"),
	   "iodepth=0");
	drop(o);
	strbuf_release(&err);
}

static void test_help(void)
{
	struct strbuf out = STRBUF_INIT;

	ok(opt_cmdhelp(NULL, &out) == 0 &&
	   strstr(strbuf_str(&out), "\n  bs                      : ") &&
	   strstr(strbuf_str(&out), "Block sizes and I/O pattern:\n") &&
	   strstr(strbuf_str(&out), "verify"), "--cmdhelp lists all");
	strbuf_reset(&out);
	ok(opt_cmdhelp("blocksize", &out) == 0 &&
	   !strncmp(strbuf_str(&out), "bs: ", 4) &&
	   strstr(strbuf_str(&out), "  alias:    blocksize\n") &&
	   strstr(strbuf_str(&out), "  default:  4k\n"),
	   "--cmdhelp=blocksize shows bs");
	strbuf_reset(&out);
	ok(opt_cmdhelp("sync", &out) == 0 &&
	   strstr(strbuf_str(&out), "dsync"), "--cmdhelp=sync lists values");
	strbuf_reset(&out);
	ok(opt_cmdhelp("nosuch", &out) == -1 && !out.len,
	   "--cmdhelp=nosuch fails");
	opt_doc_markdown(&out);
	ok(strstr(strbuf_str(&out), "# iolite job options") &&
	   strstr(strbuf_str(&out), "| `bs` (blocksize) |") &&
	   strstr(strbuf_str(&out), "- `namenode`\n"), "markdown doc");
	strbuf_release(&out);
}

int main(void)
{
	test_table();
	test_defaults();
	test_types();
	test_errors();
	test_dump();
	test_selfcheck_catches();
	test_filenames();
	test_copy();
	test_plan();
	test_help();
	return done_testing();
}

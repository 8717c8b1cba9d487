/* SPDX-License-Identifier: MIT */
/*
 * src/job/ without the option table: variable expansion, the expression
 * evaluator, and what the reader and the command line put in a job_list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job_internal.h"
#include "tap.h"

static char dir[TAP_TMP_MAX];

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static char *path_of(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static int expand_is(const char *in, const char *want)
{
	char *got = job_expand_vars(in);
	int r;

	if (!want)
		return ok(!got, "'%s' is an error", in);
	r = ok(got && !strcmp(got, want), "'%s' -> '%s'", in, want);
	if (!r)
		diag("got '%s'", got ? got : "(null)");
	free(got);
	return r;
}

static void test_expand(void)
{
	char want[128];
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	long psz = sysconf(_SC_PAGESIZE);
	unsigned long long mb = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
				(unsigned long long)psz >> 20;

	setenv("IOLITE_T_BS", "16k", 1);
	unsetenv("IOLITE_T_UNSET");
	expand_is("${IOLITE_T_BS}", "16k");
	expand_is("a${IOLITE_T_BS}b${IOLITE_T_BS}", "a16kb16k");
	expand_is("$IOLITE_T_BS", "16k");
	expand_is("$IOLITE_T_UNSET_X/a", "$IOLITE_T_UNSET_X/a");
	expand_is("x${IOLITE_T_UNSET}y", "xy");
	expand_is("${}", "");
	expand_is("${IOLITE_T_BS", NULL);
	expand_is("no vars $ here", "no vars $ here");
	expand_is("${IOLITE_T_BS}*2", "16k*2");

	snprintf(want, sizeof(want), "%ld", ncpus);
	expand_is("$ncpus", want);
	snprintf(want, sizeof(want), "%ldx", ncpus);
	expand_is("$ncpusx", want);
	snprintf(want, sizeof(want), "/tmp/f%ld", ncpus);
	expand_is("/tmp/f$ncpus", want);
	snprintf(want, sizeof(want), "%ld", psz * 2);
	expand_is("$pagesize*2", want);
	snprintf(want, sizeof(want), "%ld", psz * 2 / 3);
	expand_is("2 * $pagesize / 3", want);
	snprintf(want, sizeof(want), "%ld", (1 + ncpus) * 2);
	expand_is("(1+$ncpus)*2", want);
	snprintf(want, sizeof(want), "%ld", 5 - ncpus);
	expand_is("-$ncpus+5", want);
	snprintf(want, sizeof(want), "%llu", mb);
	expand_is("$mb_memory", want);
	snprintf(want, sizeof(want), "%llu", 8 * mb);
	expand_is("8*$mb_memory", want);
	snprintf(want, sizeof(want), "%ld*2k", psz);
	expand_is("$pagesize*2k", want);
}

static int eval_is(const char *s, int64_t want)
{
	int64_t v = 0;
	int ret = job_eval_expr(s, &v);

	return ok(!ret && v == want, "'%s' = %lld (got %d, %lld)", s,
		  (long long)want, ret, (long long)v);
}

static void test_eval(void)
{
	int64_t v;

	eval_is("1+2*3", 7);
	eval_is("(1+2)*3", 9);
	eval_is("2^3^2", 512);
	eval_is("-2^2", 4);
	eval_is("7/2", 3);
	eval_is("7%4", 3);
	eval_is(" 10 - 2 - 3 ", 5);
	eval_is("9223372036854775807", INT64_MAX);
	ok(job_eval_expr("1/0", &v) == -EINVAL, "division by zero fails");
	ok(job_eval_expr("2*", &v) == -EINVAL, "dangling operator fails");
	ok(job_eval_expr("(1+2", &v) == -EINVAL, "open parenthesis fails");
	ok(job_eval_expr("4k", &v) == -EINVAL, "units are not numbers");
	ok(job_eval_expr("9223372036854775807+1", &v) == -EINVAL,
	   "overflow fails");
	ok(job_eval_expr("2^64", &v) == -EINVAL, "power overflow fails");
}

static const struct job_entry *ent(const struct job_desc *jd, size_t i)
{
	static const struct job_entry none = { (char *)"?", NULL, (char *)"?", 0 };

	return i < jd->nr ? &jd->ents[i] : &none;
}

static int ent_is(const struct job_desc *jd, size_t i, const char *key,
		  const char *val, int line)
{
	const struct job_entry *e = ent(jd, i);
	int r = !strcmp(e->key, key) && e->line == line &&
		(val ? e->val && !strcmp(e->val, val) : !e->val);

	ok(r, "%s entry %zu is %s=%s at line %d", jd->name ? jd->name : "global",
	   i, key, val ? val : "(flag)", line);
	if (!r)
		diag("got %s=%s at %s:%d", e->key, e->val ? e->val : "(flag)",
		     e->file, e->line);
	return r;
}

static int read_ok(struct job_list *jl, const char *name,
		   const char *const *sections)
{
	struct strbuf err = STRBUF_INIT;
	int ret = job_file_read(jl, path_of(name), sections, &err);

	if (ret)
		diag("error: %s", err.buf);
	strbuf_release(&err);
	return ret == 0;
}

static void test_reader(void)
{
	struct job_list jl;

	write_file("a.fio",
		   "; leading comment\n"
		   "# another\n"
		   "\n"
		   "[global]\n"
		   "  bs = 8k  \n"
		   "rw=randread ; trailing\n"
		   "[j1]\r\n"
		   "norandommap\n"
		   "description=a=b#c\n"
		   "size=\n"
		   "[global]\n"
		   "iodepth=4\n"
		   "\t[j2]\t\n"
		   "bs=16k\n");
	job_list_init(&jl);
	ok(read_ok(&jl, "a.fio", NULL), "a.fio reads");
	ok(jl.nr == 2, "two jobs");
	if (jl.nr == 2) {
		ok(!strcmp(jl.jobs[0].name, "j1") && jl.jobs[0].line == 7,
		   "j1 at line 7");
		ok(jl.jobs[0].nr == 5, "j1 has 5 entries");
		ent_is(&jl.jobs[0], 0, "bs", "8k", 5);
		ent_is(&jl.jobs[0], 1, "rw", "randread", 6);
		ent_is(&jl.jobs[0], 2, "norandommap", NULL, 8);
		ent_is(&jl.jobs[0], 3, "description", "a=b", 9);
		ent_is(&jl.jobs[0], 4, "size", "", 10);
		ok(!strcmp(ent(&jl.jobs[0], 0)->file, path_of("a.fio")),
		   "entries carry the file name");
		ok(jl.jobs[1].nr == 4, "j2 has 4 entries");
		ent_is(&jl.jobs[1], 2, "iodepth", "4", 12);
		ent_is(&jl.jobs[1], 3, "bs", "16k", 14);
	}
	ok(jl.global.nr == 3, "jl->global has the 3 [global] entries");
	job_list_release(&jl);

	/* --section: skipped jobs still see [global] */
	job_list_init(&jl);
	ok(read_ok(&jl, "a.fio", (const char *const[]){ "j2", "nope", NULL }),
	   "--section=j2 reads");
	ok(jl.nr == 1 && !strcmp(jl.jobs[0].name, "j2") &&
	   jl.jobs[0].nr == 4, "only j2, with all globals");
	job_list_release(&jl);
}

static void test_include(void)
{
	struct job_list jl;

	if (mkdir(path_of("sub"), 0755) || mkdir(path_of("sub/in"), 0755))
		perror("mkdir");
	write_file("sub/top.fio",
		   "[global]\n"
		   "include g.inc\n"
		   "[j]\n"
		   "include in/j.inc\n"
		   "rw=read\n");
	write_file("sub/g.inc", "thread\n");
	write_file("sub/in/j.inc", "bs=4k\ninclude k.inc\n");
	write_file("sub/in/k.inc", "\niodepth=2\n");
	job_list_init(&jl);
	ok(read_ok(&jl, "sub/top.fio", NULL), "nested relative includes");
	ok(jl.nr == 1 && jl.jobs[0].nr == 4, "one job, 4 entries");
	if (jl.nr == 1) {
		ent_is(&jl.jobs[0], 0, "thread", NULL, 1);
		ent_is(&jl.jobs[0], 1, "bs", "4k", 1);
		ent_is(&jl.jobs[0], 2, "iodepth", "2", 2);
		ok(!strcmp(ent(&jl.jobs[0], 2)->file, path_of("sub/in/k.inc")),
		   "included entries carry the included file's path");
		ent_is(&jl.jobs[0], 3, "rw", "read", 5);
	}
	job_list_release(&jl);
}

static int read_err(const char *name, const char *want)
{
	struct strbuf err = STRBUF_INIT, exp = STRBUF_INIT;
	struct job_list jl;
	int ret, r;

	job_list_init(&jl);
	ret = job_file_read(&jl, path_of(name), NULL, &err);
	/* '@' in want stands for the scratch directory */
	for (; *want; want++)
		if (*want == '@')
			strbuf_addstr(&exp, dir);
		else
			strbuf_addch(&exp, *want);
	r = ok(ret == -1 && !strcmp(err.buf ? err.buf : "", exp.buf),
	       "%s: error '%s'", name, exp.buf);
	if (!r)
		diag("got %d '%s'", ret, err.buf ? err.buf : "");
	job_list_release(&jl);
	strbuf_release(&err);
	strbuf_release(&exp);
	return r;
}

static void test_errors(void)
{
	write_file("e1.fio", "bs=4k\n[j]\n");
	read_err("e1.fio", "@/e1.fio:1: option 'bs' outside of any job section");
	write_file("e2.fio", "[j]\n[k\n");
	read_err("e2.fio", "@/e2.fio:2: malformed section header '[k'");
	write_file("e3.fio", "[j]x\n");
	read_err("e3.fio", "@/e3.fio:1: malformed section header '[j]x'");
	write_file("e4.fio", "[]\n");
	read_err("e4.fio", "@/e4.fio:1: malformed section header '[]'");
	write_file("e5.fio", "[j]\ndescription=${HOME\n");
	read_err("e5.fio",
		 "@/e5.fio:2: unterminated '${' in 'description=${HOME'");
	write_file("e6.fio", "[j]\ninclude nope.inc\n");
	read_err("e6.fio", "@/e6.fio:2: include file '@/nope.inc' cannot be "
		 "opened: No such file or directory");
	write_file("e7.fio", "[j]\ninclude e7.inc\n");
	write_file("e7.inc", "bs=4k\ninclude e7.inc\n");
	read_err("e7.fio", "@/e7.inc:2: include loop: '@/e7.inc' is already "
		 "being read ('@/e7.inc' includes '@/e7.inc')");
	write_file("e8.fio", "[j]\ninclude e8.inc\n");
	write_file("e8.inc", "bs=4k\n[k]\n");
	read_err("e8.fio",
		 "@/e8.inc:2: section '[k]' not allowed in an included file");
	write_file("e9.fio", "include e7.inc\n[j]\n");
	read_err("e9.fio",
		 "@/e9.fio:1: 'include e7.inc' outside of any job section");
	write_file("e10.fio", "[j]\ninclude\n");
	read_err("e10.fio", "@/e10.fio:2: 'include' needs a file name");
	write_file("e11.fio", "[j]\n = 4k\n");
	read_err("e11.fio", "@/e11.fio:2: missing option name before '='");
	read_err("missing.fio", "job file '@/missing.fio' cannot be opened: "
		 "No such file or directory");
	read_err("sub", "job file '@/sub' cannot be read: Is a directory");
}

static int add(struct job_list *jl, const char *key, const char *val, int i)
{
	struct strbuf err = STRBUF_INIT;
	int ret = job_cmdline_add(jl, key, val, i, &err);

	strbuf_release(&err);
	return ret;
}

static void test_cmdline(void)
{
	struct strbuf err = STRBUF_INIT;
	struct job_list jl;

	write_file("f.fio", "[global]\nbs=8k\n[f1]\n[global]\nrw=read\n[f2]\n");
	write_file("g.fio", "[g1]\n");
	job_list_init(&jl);
	add(&jl, "runtime", "10", 1);
	add(&jl, "name", "a", 2);
	add(&jl, "bs", "4k", 3);
	add(&jl, "name", "global", 4);
	add(&jl, "iodepth", "2", 5);
	add(&jl, "name", "b", 6);
	add(&jl, "norandommap", NULL, 7);
	ok(jl.nr == 2, "two command-line jobs");
	ok(jl.cmdline_nr == 2 && jl.global.nr == 2, "two global options");
	ok(add(&jl, "name", NULL, 8) == -1, "--name needs a value");
	job_cmdline_add(&jl, "name", "", 9, &err);
	ok(!strcmp(strbuf_str(&err), "<cmdline>:9: option 'name' requires a value"),
	   "empty --name message");
	if (jl.nr == 2) {
		ok(jl.jobs[0].nr == 2, "a: runtime and its bs");
		ent_is(&jl.jobs[0], 0, "runtime", "10", 1);
		ent_is(&jl.jobs[0], 1, "bs", "4k", 3);
		ok(!strcmp(ent(&jl.jobs[0], 1)->file, "<cmdline>") &&
		   !strcmp(jl.jobs[0].file, "<cmdline>") &&
		   jl.jobs[0].line == 2, "a comes from <cmdline> at argv 2");
		ok(jl.jobs[1].nr == 3, "b: runtime, iodepth, flag");
		ent_is(&jl.jobs[1], 1, "iodepth", "2", 5);
		ent_is(&jl.jobs[1], 2, "norandommap", NULL, 7);
	}
	ok(read_ok(&jl, "f.fio", NULL), "f.fio after the command line");
	ok(read_ok(&jl, "g.fio", NULL), "g.fio after f.fio");
	ok(jl.nr == 5, "five jobs");
	if (jl.nr == 5) {
		ok(jl.jobs[2].nr == 3, "f1: 2 command-line globals + bs");
		ent_is(&jl.jobs[2], 1, "iodepth", "2", 5);
		ent_is(&jl.jobs[2], 2, "bs", "8k", 2);
		ok(jl.jobs[3].nr == 4, "f2: + rw");
		ok(jl.jobs[4].nr == 2,
		   "g1: command-line globals only, not f.fio's [global]");
	}
	/* a global option after the files still goes before their globals */
	add(&jl, "name", "global", 10);
	add(&jl, "size", "1m", 11);
	ok(jl.cmdline_nr == 3 && jl.global.nr == 5, "global grows to 5");
	ent_is(&jl.global, 2, "size", "1m", 11);
	ent_is(&jl.global, 3, "bs", "8k", 2);
	job_list_release(&jl);
	strbuf_release(&err);
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(tap_tmp(dir, "iolite-job-unit.XXXXXX"))) {
		perror("mkdtemp");
		return 1;
	}
	test_expand();
	test_eval();
	test_reader();
	test_include();
	test_errors();
	test_cmdline();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}

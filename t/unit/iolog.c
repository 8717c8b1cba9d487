/* SPDX-License-Identifier: MIT */
/* fio's iolog reader (src/workload/iolog.[ch]): formats and errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "workload/iolog.h"

#define MAX_IOS 64

struct parsed {
	int ret;		/* 0: whole log read, -1: an error */
	unsigned int n;
	struct iolog_io io[MAX_IOS];
	char err[512];
	unsigned int nr_files;
	char files[4][64];
};

static void parse(const char *text, struct parsed *pr)
{
	struct strbuf err = STRBUF_INIT;
	struct iolog_reader r;
	int ret;

	memset(pr, 0, sizeof(*pr));
	ret = iolog_reader_mem(&r, "t.log", text, strlen(text), &err);
	while (!ret && pr->n < MAX_IOS) {
		ret = iolog_reader_next(&r, &pr->io[pr->n], &err);
		if (ret <= 0)
			break;
		pr->n++;
		ret = 0;
	}
	pr->ret = ret < 0 ? -1 : 0;
	snprintf(pr->err, sizeof(pr->err), "%s", strbuf_str(&err));
	pr->nr_files = r.nr_files;
	for (ret = 0; ret < (int)r.nr_files && ret < 4; ret++)
		snprintf(pr->files[ret], sizeof(pr->files[ret]), "%s",
			 r.files[ret]);
	iolog_reader_close(&r);
	strbuf_release(&err);
}

static int io_is(const struct iolog_io *io, uint64_t t, unsigned int file,
		 unsigned int ddir, uint64_t off, uint32_t len)
{
	return io->time_us == t && io->file == file && io->ddir == ddir &&
	       io->offset == off && io->len == len;
}

static void test_v3(void)
{
	struct parsed p;

	parse("fio version 3 iolog\n"
	      "10 /tmp/a add\n"
	      "11 /tmp/b add\n"
	      "20 /tmp/a open\n"
	      "21 /tmp/b open\n"
	      "30 /tmp/a read 4096 512\n"
	      "\n"
	      "40 /tmp/b write 0 8192\n"
	      "50 /tmp/a trim 1048576 65536\n"
	      "60 /tmp/b sync 0 0\n"
	      "70 /tmp/a datasync 0 0\n"
	      "80 /tmp/a close\n"
	      "81 /tmp/b close\n", &p);
	ok(p.ret == 0 && p.n == 5, "v3: 5 I/Os read (%d, %u: %s)", p.ret,
	   p.n, p.err);
	ok(p.nr_files == 2 && !strcmp(p.files[0], "/tmp/a") &&
	   !strcmp(p.files[1], "/tmp/b"), "v3: files in 'add' order");
	ok(io_is(&p.io[0], 30, 0, DDIR_READ, 4096, 512), "v3: read");
	ok(io_is(&p.io[1], 40, 1, DDIR_WRITE, 0, 8192), "v3: write");
	ok(io_is(&p.io[2], 50, 0, DDIR_TRIM, 1048576, 65536), "v3: trim");
	ok(io_is(&p.io[3], 60, 1, DDIR_SYNC, 0, 0) &&
	   io_is(&p.io[4], 70, 0, DDIR_DATASYNC, 0, 0), "v3: syncs");
}

static void test_v2(void)
{
	struct parsed p;

	parse("fio version 2 iolog\n"
	      "/d/f add\n"
	      "/d/f open\n"
	      "/d/f read 0 4096\n"
	      "/d/f wait 250 0\n"
	      "/d/f write 4096 4096\n"
	      "/d/f wait 99 0\n"
	      "/d/f read 8192 4096\n"
	      "/d/f wait 1000 0\n"
	      "/d/f read 0 4096\n"
	      "/d/f close\n", &p);
	ok(p.ret == 0 && p.n == 4, "v2: 4 I/Os (%s)", p.err);
	ok(p.io[0].time_us == 0 && p.io[1].time_us == 250 &&
	   p.io[2].time_us == 250 && p.io[3].time_us == 1250,
	   "v2: waits add up, those below 100 us are dropped");
}

static void test_appended_and_spaces(void)
{
	struct parsed p;

	parse("fio version 3 iolog\r\n"
	      "0 /my dir/f 1 add\r\n"
	      "0 /my dir/f 1 open\r\n"
	      "500 /my dir/f 1 write 0 4096\r\n"
	      "600 /my dir/f 1 close\r\n"
	      "fio version 3 iolog\n"
	      "0 /my dir/f 1 add\n"
	      "5 /my dir/f 1 open\n"
	      "100 /my dir/f 1 read 0 4096\n", &p);
	ok(p.ret == 0 && p.n == 2, "appended logs read (%s)", p.err);
	ok(p.nr_files == 1 && !strcmp(p.files[0], "/my dir/f 1"),
	   "a name with spaces, CRLF line ends (%s)", p.files[0]);
	ok(p.io[0].time_us == 500 && p.io[1].time_us == 700,
	   "the appended log's times follow the first's (%llu)",
	   (unsigned long long)p.io[1].time_us);
}

static void expect_error(const char *text, const char *want, const char *what)
{
	struct parsed p;

	parse(text, &p);
	if (!ok(p.ret == -1 && strstr(p.err, want), "%s: '%s'", what, p.err))
		diag("wanted '%s'", want);
}

static void test_errors(void)
{
	static const char h3[] = "fio version 3 iolog\n";
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s0 /f add\n1 /f open\n2 /f bogus 0 1\n",
		 h3);
	expect_error(buf, "t.log:4: unknown action 'bogus'", "bad action");
	snprintf(buf, sizeof(buf), "%s0 /f read 0 4096\n", h3);
	expect_error(buf, "t.log:2: I/O to '/f', which no 'add' line names",
		     "I/O before add");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f read 0 4096\n", h3);
	expect_error(buf, "t.log:3: I/O to '/f', which is not open",
		     "I/O before open");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f open\n0 /f close\n"
		 "1 /f write 0 1\n", h3);
	expect_error(buf, "t.log:5: I/O to '/f', which is not open",
		     "I/O after close");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f open\n1 /f wait 5 0\n",
		 h3);
	expect_error(buf, "t.log:4: 'wait' is not allowed", "wait in v3");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f open\n1 /f read 0 0\n",
		 h3);
	expect_error(buf, "t.log:4: length 0 is out of range", "zero length");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f open\n"
		 "1 /f read 18446744073709551615 2\n", h3);
	expect_error(buf, "past 2^64", "offset overflow");
	snprintf(buf, sizeof(buf), "%s0 /f add\n0 /f open\n1 /f read 0x10 2\n",
		 h3);
	expect_error(buf, "t.log:4: invalid offset or length '0x10 2'",
		     "hex offset");
	snprintf(buf, sizeof(buf), "%s/f add\n", h3);
	expect_error(buf, "t.log:2: a version 3 line starts with its "
		     "timestamp", "v3 line without a timestamp");
	snprintf(buf, sizeof(buf), "%s0 /f open\n", h3);
	expect_error(buf, "before an 'add' line", "open before add");
	snprintf(buf, sizeof(buf), "%s0 /f add\nfio version 2 iolog\n", h3);
	expect_error(buf, "t.log:3: a version 2 header in a version 3 log",
		     "mixed versions");
	expect_error("fio version 4 iolog\n", "t.log:1: not a fio iolog",
		     "unknown version");
	expect_error("0, 4096, 4096\n", "version 1 format is not supported",
		     "version 1 log");
	expect_error("", "t.log:1: empty file", "empty log");
	expect_error("\x07\x74\x61\x65 blktrace", "blktrace replay is not "
		     "supported", "blktrace binary");
}

/* A file longer than the reader's block: lines across block ends. */
static void test_file(void)
{
	char path[TAP_TMP_MAX];
	struct strbuf err = STRBUF_INIT;
	struct iolog_reader r;
	struct iolog_io io;
	unsigned int i, n = 0, bad = 0;
	int fd = mkstemp(tap_tmp(path, "iolog-unit-XXXXXX"));
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int ret;

	if (!f) {
		ok(0, "cannot make a temporary file");
		return;
	}
	fprintf(f, "fio version 3 iolog\n0 /some/longer/name/for/the/file "
		"add\n0 /some/longer/name/for/the/file open\n");
	for (i = 0; i < 20000; i++)
		fprintf(f, "%u /some/longer/name/for/the/file %s %u 4096\n",
			i, i % 3 ? "read" : "write", i * 4096);
	fclose(f);
	ret = iolog_reader_open(&r, path, &err);
	while (!ret && (ret = iolog_reader_next(&r, &io, &err)) > 0) {
		ret = 0;
		if (io.time_us != n || io.offset != (uint64_t)n * 4096 ||
		    io.ddir != (n % 3 ? DDIR_READ : DDIR_WRITE))
			bad++;
		n++;
	}
	ok(ret == 0 && n == 20000 && !bad, "a 1.2 MB log read in blocks "
	   "(%u I/Os, %u wrong: %s)", n, bad, strbuf_str(&err));
	iolog_reader_close(&r);
	strbuf_reset(&err);

	f = fopen(path, "w");
	fprintf(f, "fio version 3 iolog\n0 /");
	for (i = 0; i < 70000; i++)
		fputc('x', f);
	fprintf(f, " add\n");
	fclose(f);
	ret = iolog_reader_open(&r, path, &err);
	if (!ret)
		ret = iolog_reader_next(&r, &io, &err);
	ok(ret == -1 && strstr(strbuf_str(&err), ":2: line longer than"),
	   "an endless line is refused ('%s')", strbuf_str(&err));
	iolog_reader_close(&r);
	strbuf_reset(&err);
	unlink(path);

	ret = iolog_reader_open(&r, path, &err);
	ok(ret == -1 && strstr(strbuf_str(&err), "cannot open"),
	   "a missing log: '%s'", strbuf_str(&err));
	iolog_reader_close(&r);
	strbuf_release(&err);
}

int main(void)
{
	test_v3();
	test_v2();
	test_appended_and_spaces();
	test_errors();
	test_file();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * files_resolve / files_prepare / files_finish with hand-made plans:
 * names, sizes and regions, what is refused (and that nothing is created
 * then), layout, sharing, unlink.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/files.h"
#include "tap.h"

static char scratch[4096];

static void plan_init(struct job_plan *p, const char *name, bool reads,
		      bool writes)
{
	memset(p, 0, sizeof(*p));
	p->o.name = (char *)name;
	p->o.ioengine = (char *)"psync";
	p->o.nrfiles = 1;
	p->o.allow_file_create = true;
	p->o.invalidate = true;
	/* sizes a write-only file on any file system (native may not) */
	p->o.fallocate = FALLOCATE_TRUNCATE;
	p->o.bs[0] = p->o.bs[1] = p->o.bs[2] = 4096;
	p->ddir_mask = (reads ? 1u << DDIR_READ : 0) |
		       (writes ? 1u << DDIR_WRITE : 0);
	p->writes = writes;
	p->min_bs = p->max_bs = 4096;
	p->src_file = "job.fio";
	p->src_line = 3;
}

static char *sp(const char *name)
{
	static char buf[4][4200];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", scratch, name);
	return buf[i];
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static off_t fsize(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static int resolve(struct job_plan *p, unsigned int nr, struct job_files *jf,
		   struct strbuf *err)
{
	strbuf_reset(err);
	return files_resolve(p, nr, jf, err);
}

static void make_file(const char *path, size_t len, int c)
{
	char *buf = malloc(len + 1);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	memset(buf, c, len + 1);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		perror(path);
	close(fd);
	free(buf);
}

static void test_names(void)
{
	int rc;
	struct job_plan p[3];
	struct job_files jf[3];
	struct strbuf err = STRBUF_INIT;
	char dirs[8400];
	unsigned int i;

	mkdir(sp("d1"), 0755);
	mkdir(sp("d2"), 0755);
	snprintf(dirs, sizeof(dirs), "%s:%s", sp("d1"), sp("d2"));
	for (i = 0; i < 3; i++) {
		plan_init(&p[i], "x", false, true);
		p[i].clone = i;
		p[i].o.nrfiles = 2;
		p[i].o.size.bytes = 64 * 1024;
		p[i].o.directory = dirs;
	}
	rc = resolve(p, 3, jf, &err);
	ok(rc == 0, "names: resolve (%s)", strbuf_str(&err));
	ok(jf[0].nr_files == 2 && !strcmp(jf[0].files[0].path,
					  sp("d1/x.0.0")) &&
	   !strcmp(jf[0].files[1].path, sp("d1/x.0.1")),
	   "names: default format $jobname.$jobnum.$filenum: %s",
	   jf[0].files[1].path);
	ok(!strcmp(jf[1].files[0].path, sp("d2/x.1.0")) &&
	   !strcmp(jf[2].files[0].path, sp("d1/x.2.0")),
	   "names: clones take the directories round-robin");
	ok(jf[0].files[0].io_size == 32 * 1024 &&
	   jf[0].files[1].io_offset == 0 && jf[0].total_io_size == 65536,
	   "names: size is split over nrfiles");
	ok(jf[0].need_create[0] && jf[0].need_layout[0] &&
	   !jf[0].need_fill[0] && !exists(sp("d1/x.0.0")),
	   "names: resolve creates nothing");
	ok(files_prepare(p, 3, jf, NULL, &err) == 0, "names: prepare (%s)",
	   strbuf_str(&err));
	ok(fsize(sp("d1/x.0.0")) == 32768 && fsize(sp("d2/x.1.1")) == 32768,
	   "names: prepare creates the files at their size");
	for (i = 0; i < 3; i++) {
		files_finish(&p[i], &jf[i]);
		job_files_release(&jf[i]);
	}
	ok(exists(sp("d1/x.0.0")), "names: kept without unlink=1");

	plan_init(&p[0], "y", true, false);
	p[0].o.filename = (char *)"a\\:b:c::";
	p[0].o.nrfiles = 5;	/* ignored with filename= */
	p[0].o.directory = dirs;
	p[0].o.size.bytes = 8192 * 2;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 && jf[0].nr_files == 2 &&
	   !strcmp(jf[0].files[0].path, sp("d1/a:b")) &&
	   !strcmp(jf[0].files[1].path, sp("d1/c")),
	   "names: filename list, '\\:' escapes, first directory");
	job_files_release(&jf[0]);

	plan_init(&p[0], "fmt", true, false);
	p[0].o.filename_format = (char *)"s1/s2/$jobname-$filenum-$jobnum";
	p[0].o.directory = sp("");
	p[0].clone = 4;
	p[0].o.nrfiles = 2;
	p[0].o.size.bytes = 16384;
	p[0].o.unlink = true;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 &&
	   !strcmp(jf[0].files[1].path, sp("s1/s2/fmt-1-4")),
	   "names: filename_format: %s", jf[0].nr_files ?
	   jf[0].files[1].path : strbuf_str(&err));
	ok(!exists(sp("s1")), "names: directories not created by resolve");
	ok(files_prepare(p, 1, jf, NULL, &err) == 0 &&
	   fsize(sp("s1/s2/fmt-1-4")) == 8192, "names: prepare creates the "
	   "directories of filename_format");
	files_finish(&p[0], &jf[0]);
	ok(!exists(sp("s1/s2/fmt-0-4")) && !exists(sp("s1/s2/fmt-1-4")),
	   "names: unlink=1 removes the files");
	job_files_release(&jf[0]);
	strbuf_release(&err);
}

static void test_refusals(void)
{
	int rc;
	struct job_plan p;
	struct job_files jf;
	struct strbuf err = STRBUF_INIT;
	char want[9000];

	plan_init(&p, "r", false, true);
	p.o.size.bytes = 1 << 20;
	p.o.filename = (char *)"/dev/iolite-no-such-device";
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 &&
	   !strncmp(strbuf_str(&err), "job.fio:3: option 'filename': "
		    "'/dev/iolite-no-such-device' does not exist; ", 73) &&
	   strstr(strbuf_str(&err), "/dev"), "refuse: missing /dev path: %s", strbuf_str(&err));
	ok(!exists("/dev/iolite-no-such-device"), "refuse: nothing created");

	p.o.filename = (char *)"/dev/iolite-no-such-dir/x";
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "does not "
	   "exist; iolite does not create files under /dev"),
	   "refuse: missing /dev directory: %s", strbuf_str(&err));
	ok(!exists("/dev/iolite-no-such-dir"), "refuse: no directory made");

	make_file(sp("plain"), 10, 'p');
	p.o.filename = sp("plain/sub/x");
	snprintf(want, sizeof(want), "job.fio:3: option 'filename': cannot "
		 "create '%s': '%s' is not a directory", sp("plain/sub/x"),
		 sp("plain"));
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && !strcmp(strbuf_str(&err), want),
	   "refuse: parent is a regular file: %s", strbuf_str(&err));

	p.o.filename = sp("nofile");
	p.o.allow_file_create = false;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 &&
	   strstr(strbuf_str(&err), "option 'allow_file_create'") &&
	   strstr(strbuf_str(&err), "does not exist"),
	   "refuse: allow_file_create=0: %s", strbuf_str(&err));
	p.o.allow_file_create = true;

	p.o.size.bytes = 0;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "option "
	   "'size'") && strstr(strbuf_str(&err), "does not exist: size= is required"),
	   "refuse: missing file without size: %s", strbuf_str(&err));
	make_file(sp("empty"), 0, 0);
	p.o.filename = sp("empty");
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "is empty"),
	   "refuse: empty file without size: %s", strbuf_str(&err));

	p.o.filename = (char *)"/dev/null";
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "character "
	   "device: size= is required") && strstr(strbuf_str(&err), "/dev/dax"),
	   "refuse: character device without size: %s", strbuf_str(&err));
	p.o.size.bytes = 1 << 20;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == 0 && jf.files[0].flags ==
	   EF_CHARDEV && !jf.need_create[0] && !jf.need_layout[0],
	   "chardev: with size= it is used as is");
	job_files_release(&jf);

	p.o.filename = (char *)"f";
	p.o.directory = sp("nodir");
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "option 'directory': '") &&
	   strstr(strbuf_str(&err), "nodir' does not exist"),
	   "refuse: a missing directory=: %s", strbuf_str(&err));
	p.o.directory = sp("plain");
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "plain' is not a directory"),
	   "refuse: directory= names a file: %s", strbuf_str(&err));
	ok(!exists(sp("nodir")), "refuse: directory= not created");
	p.o.directory = NULL;

	p.o.filename = sp("");
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "is a "
	   "directory"), "refuse: a directory: %s", strbuf_str(&err));

	make_file(sp("small"), 10000, 's');
	p.o.filename = sp("small");
	p.o.size.bytes = 0;
	p.o.offset.bytes = 8192;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "smaller than "
	   "the block size 4096"), "refuse: region below bs: %s", strbuf_str(&err));
	p.o.offset.bytes = 20000;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "option "
	   "'offset': 20000 is at or beyond the end"),
	   "refuse: offset beyond the file: %s", strbuf_str(&err));
	strbuf_release(&err);
}

static void test_sizes(void)
{
	int rc;
	struct job_plan p[2];
	struct job_files jf[2];
	struct strbuf err = STRBUF_INIT;
	char buf[16];
	int fd;

	make_file(sp("have"), 1 << 20, 'h');
	plan_init(&p[0], "s", true, false);
	p[0].o.filename = sp("have");
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 && jf[0].files[0].io_size == 1 << 20
	   && !jf[0].need_layout[0] && jf[0].files[0].flags == EF_REGULAR,
	   "size: an existing file without size= uses its size");
	job_files_release(&jf[0]);

	p[0].o.size.pct = 25;
	p[0].o.offset.pct = 50;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 &&
	   jf[0].files[0].io_offset == 512 * 1024 &&
	   jf[0].files[0].io_size == 256 * 1024,
	   "size: size=25%% offset=50%% of an existing file");
	job_files_release(&jf[0]);

	p[0].o.size.pct = 0;
	p[0].o.offset.pct = 0;
	p[0].o.size.bytes = 64 * 1024;
	p[0].o.offset.bytes = 4096;
	p[0].o.offset_increment.bytes = 128 * 1024;
	p[0].clone = 3;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 &&
	   jf[0].files[0].io_offset == 4096 + 3 * 128 * 1024 &&
	   jf[0].files[0].io_size == 64 * 1024,
	   "size: clone 3 starts at offset + 3 * offset_increment");
	job_files_release(&jf[0]);

	/* a short existing file is extended, its data kept */
	make_file(sp("short"), 10000, 'k');
	plan_init(&p[0], "e", true, false);
	p[0].o.filename = sp("short");
	p[0].o.size.bytes = 256 * 1024;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 && !jf[0].need_create[0] &&
	   jf[0].need_layout[0] && jf[0].need_fill[0],
	   "layout: a short file is to be extended with data");
	ok(files_prepare(p, 1, jf, NULL, &err) == 0 &&
	   fsize(sp("short")) == 256 * 1024, "layout: extended to size");
	fd = open(sp("short"), O_RDONLY);
	memset(buf, 0, sizeof(buf));
	ok(pread(fd, buf, 2, 9999) == 2 && buf[0] == 'k' && buf[1] != 'k',
	   "layout: old data kept, new data after it");
	ok(pread(fd, buf, 16, 200000) == 16 && memcmp(buf, "\0\0\0\0\0\0\0\0"
	   "\0\0\0\0\0\0\0\0", 16), "layout: written data, not zeros");
	close(fd);
	job_files_release(&jf[0]);

	/* two jobs on one new file: laid out once, to the larger size */
	plan_init(&p[0], "w", false, true);
	plan_init(&p[1], "r", true, false);
	p[0].o.filename = p[1].o.filename = sp("shared");
	p[0].o.size.bytes = 128 * 1024;
	p[1].o.size.bytes = 64 * 1024;
	p[1].o.offset.bytes = 256 * 1024;
	rc = resolve(p, 2, jf, &err);
	ok(rc == 0, "share: resolve (%s)", strbuf_str(&err));
	ok(jf[0].need_create[0] && jf[0].need_layout[0] &&
	   jf[0].need_fill[0] && !jf[1].need_create[0] &&
	   !jf[1].need_layout[0], "share: the first job lays it out, with "
	   "data since the other reads it");
	ok(jf[0].files[0].real_size == 320 * 1024 &&
	   jf[1].files[0].real_size == 320 * 1024, "share: to the larger "
	   "size");
	ok(files_prepare(p, 2, jf, NULL, &err) == 0 &&
	   fsize(sp("shared")) == 320 * 1024, "share: prepared once");
	job_files_release(&jf[0]);
	job_files_release(&jf[1]);

	/* a reader without size= after a writer that makes the file */
	p[0].o.filename = p[1].o.filename = sp("shared2");
	p[1].o.size.bytes = 0;
	p[1].o.offset.bytes = 0;
	rc = resolve(p, 2, jf, &err);
	ok(rc == 0 &&
	   jf[1].files[0].io_size == 128 * 1024, "share: a later job sizes "
	   "by what the earlier one makes (%s)", strbuf_str(&err));
	job_files_release(&jf[0]);
	job_files_release(&jf[1]);

	/* write-only: allocated to size, not written */
	plan_init(&p[0], "wo", false, true);
	p[0].o.filename = sp("wonly");
	p[0].o.size.bytes = 1 << 20;
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 && !jf[0].need_fill[0] &&
	   files_prepare(p, 1, jf, NULL, &err) == 0 && fsize(sp("wonly")) ==
	   1 << 20, "layout: write-only file sized without writing");
	job_files_release(&jf[0]);
	p[0].o.overwrite = true;
	p[0].o.filename = sp("wover");
	rc = resolve(p, 1, jf, &err);
	ok(rc == 0 && jf[0].need_fill[0],
	   "layout: overwrite=1 writes the file out");
	job_files_release(&jf[0]);
	strbuf_release(&err);
}

static void test_direct(void)
{
	int rc;
	struct job_plan p;
	struct job_files jf;
	struct strbuf err = STRBUF_INIT;
	char want[9000];
	struct stat st;
	int fd;

	fd = open(sp("odirect-probe"), O_CREAT | O_RDWR | O_DIRECT, 0644);
	if (fd < 0) {
		plan_init(&p, "d", true, false);
		p.o.direct = true;
		p.o.filename = sp("odirect-new");
		p.o.size.bytes = 1 << 20;
		rc = resolve(&p, 1, &jf, &err);
		ok(rc == -1 && strstr(strbuf_str(&err),
		   "does not support O_DIRECT"),
		   "direct: filesystem without O_DIRECT: %s", strbuf_str(&err));
		strbuf_release(&err);
		return;
	}
	close(fd);
	plan_init(&p, "d", true, false);
	p.o.direct = true;
	p.o.filename = sp("dfile");
	p.o.size.bytes = 1 << 20;
	p.o.bs[DDIR_READ] = 1000;
	snprintf(want, sizeof(want), "job.fio:3: option 'bs': 1000 is not a "
		 "multiple of the logical block size 512 of '%s', required by "
		 "direct=1", sp("dfile"));
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && !strcmp(strbuf_str(&err), want),
	   "direct: bs=1000: %s", strbuf_str(&err));
	ok(!exists(sp("dfile")), "direct: nothing created");
	p.o.bs[DDIR_READ] = 4096;
	p.o.bssplit[DDIR_READ][0].bs = 4096;
	p.o.bssplit[DDIR_READ][1].bs = 6000;
	p.o.nr_bssplit[DDIR_READ] = 2;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "option "
	   "'bssplit': 6000"), "direct: bssplit checked: %s", strbuf_str(&err));
	p.o.nr_bssplit[DDIR_READ] = 0;
	p.o.offset.bytes = 100;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "option "
	   "'offset': 100"), "direct: offset checked: %s", strbuf_str(&err));
	p.o.offset.bytes = 0;
	p.o.bs[DDIR_WRITE] = 1000;	/* not used by a read job */
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == 0, "direct: aligned job resolves "
	   "(%s)", strbuf_str(&err));
	stat(scratch, &st);
	if (jf.nr_devs)
		ok(jf.nr_devs == 1 && jf.devs[0] == st.st_dev,
		   "devs: the filesystem's device");
	else
		skip("the scratch directory is not on a block device",
		     "devs: the filesystem's device");
	job_files_release(&jf);
	strbuf_release(&err);
}

static void test_null(void)
{
	int rc;
	struct job_plan p;
	struct job_files jf;
	struct strbuf err = STRBUF_INIT;

	plan_init(&p, "n", true, true);
	p.o.ioengine = (char *)"null";
	p.o.filename = (char *)"/dev/iolite-null-target";
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == -1 && strstr(strbuf_str(&err), "size= is "
	   "required"), "null: needs size=: %s", strbuf_str(&err));
	p.o.size.bytes = 1 << 30;
	rc = resolve(&p, 1, &jf, &err);
	ok(rc == 0 && jf.nr_files == 1 &&
	   jf.files[0].io_size == 1 << 30 && jf.files[0].flags == 0 &&
	   !jf.need_create[0] && !jf.need_layout[0] && jf.nr_devs == 0,
	   "null: a name only, nothing looked at");
	ok(files_prepare(&p, 1, &jf, NULL, &err) == 0 &&
	   !exists("/dev/iolite-null-target"), "null: nothing created");
	job_files_release(&jf);
	strbuf_release(&err);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[4200];

	snprintf(scratch, sizeof(scratch), "%s/iolite-files.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	diag("scratch %s", scratch);
	test_names();
	test_refusals();
	test_sizes();
	test_direct();
	test_null();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd))
		diag("could not remove %s", scratch);
	return done_testing();
}

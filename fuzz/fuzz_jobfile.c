/* SPDX-License-Identifier: MIT */
/*
 * The job-file reader: the input is a job file. It is read, every job is
 * built and planned, and the --parse-only dump is made. Where the dump
 * holds nothing the reader treats specially (comments, $ expansion,
 * include), reading the dump back must give the same dump: --parse-only
 * prints a job file that means what the original meant.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/iolite-fuzz-jobfile.XXXXXX";
static char path[64], path2[64];

static void remove_dir(void)
{
	unlink(path);
	unlink(path2);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_write_dict("", "=");
	/*
	 * An empty directory of our own: "include x" in an input (relative
	 * to the including file) can only reach the input itself (the
	 * include loop check), the dump or nothing.
	 */
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	snprintf(path2, sizeof(path2), "%s/dump.fio", dir);
	atexit(remove_dir);
	return 0;
}

static int write_file(const char *p, const void *data, size_t size)
{
	FILE *f = fopen(p, "w");
	int ret;

	if (!f)
		abort();
	ret = fwrite(data, 1, size, f) == size ? 0 : -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* Is the dump plain "key=value" text the reader takes back as it is? */
static int plain_dump(const struct strbuf *d)
{
	return !strpbrk(d->buf, ";#$\\\r\t\v\f") && !strstr(d->buf, "include");
}

static void check_roundtrip(const struct strbuf *dump)
{
	struct strbuf err = STRBUF_INIT, again = STRBUF_INIT;
	struct job_list jl;

	if (!plain_dump(dump) || write_file(path2, dump->buf, dump->len))
		return;
	job_list_init(&jl);
	if (job_file_read(&jl, path2, NULL, &err) ||
	    fuzz_build_jobs(&jl, &again) ||
	    strcmp(dump->buf, strbuf_str(&again))) {
		fprintf(stderr, "dump:\n%s\nread back:\n%s\nerror: %s\n",
			dump->buf, strbuf_str(&again), strbuf_str(&err));
		abort();
	}
	job_list_release(&jl);
	strbuf_release(&again);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, dump = STRBUF_INIT;
	struct job_list jl;

	fuzz_selftest(data, size);

	/* absolute includes could reach /dev/zero: not a parser finding */
	if (size > 65536 || (memmem(data, size, "include", 7) &&
			     memchr(data, '/', size)))
		return -1;
	if (write_file(path, data, size))
		return 0;
	job_list_init(&jl);
	if (!job_file_read(&jl, path, NULL, &err) &&
	    !fuzz_build_jobs(&jl, &dump) && dump.len)
		check_roundtrip(&dump);
	job_list_release(&jl);
	strbuf_release(&dump);
	strbuf_release(&err);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * trimwrite and randtrimwrite sequences (src/workload/), checked against
 * what fio 3.33 issues for the same jobs (its write_iolog on a loop
 * device): every trim followed by its writes, and with block sizes given
 * per direction (bs=read,write,trim) fio's own order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "workload/workload.h"

#define KB 1024ULL
#define REGION (1024 * KB + 8 * KB)	/* offsets include the start */
#define MAX_IOS 64

struct fx {
	struct job_plan p;
	struct engine_file file;
	char name[8];
	struct workload *w;
	struct strbuf err;
	struct io_u ios[MAX_IOS + 1];
	size_t n;
};

/* A workload from "name=value ..." over one file; drains one pass. */
static int run(struct fx *f, const char *spec, uint64_t size)
{
	struct job_options o;
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	opt_defaults(&o);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq++ = '\0';
		if (opt_set(&o, tok, eq, 1024, &f->err))
			goto out;
	}
	if (plan_build(&f->p, &o, "t.fio", 1, &f->err))
		goto out;
	strcpy(f->name, "f0");
	f->file.path = f->name;
	f->file.fd = -1;
	f->file.io_offset = REGION;
	f->file.io_size = size;
	f->file.real_size = REGION + size;
	if (workload_init(&f->w, &f->p, &f->file, 1, &f->err)) {
		plan_release(&f->p);
		goto out;
	}
	while (f->n <= MAX_IOS && !workload_next(f->w, &f->ios[f->n]))
		f->n++;
	ret = 0;
out:
	if (ret)
		diag("%s: %s", spec, strbuf_str(&f->err));
	job_options_release(&o);
	free(copy);
	return ret;
}

static void fx_free(struct fx *f)
{
	workload_free(f->w);
	plan_release(&f->p);
	strbuf_release(&f->err);
}

/* "t0/16 w0/8 ...": direction, offset and length in KiB of each I/O. */
static void seq_str(const struct fx *f, char *out, size_t len)
{
	size_t i, at = 0;

	out[0] = '\0';
	for (i = 0; i < f->n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%c%" PRIu64 "/%u",
				       i ? " " : "",
				       "rwt"[f->ios[i].ddir],
				       (uint64_t)((f->ios[i].offset - REGION) / KB),
				       f->ios[i].len / 1024);
}

static void check_seq(const char *spec, uint64_t size, const char *want)
{
	struct fx f;
	char got[1024];

	if (run(&f, spec, size)) {
		ok(0, "%s", spec);
		return;
	}
	seq_str(&f, got, sizeof(got));
	if (!ok(!strcmp(got, want), "%s: fio's order", spec))
		diag("got  %s\n# want %s", got, want);
	fx_free(&f);
}

/* randtrimwrite: each trim is followed by a write of the same block. */
static void check_rand_pairs(const char *spec, uint64_t size, uint32_t len)
{
	struct fx f;
	uint64_t seen = 0;
	size_t i;
	int good;

	if (run(&f, spec, size)) {
		ok(0, "%s", spec);
		return;
	}
	good = f.n && f.n % 2 == 0 && f.n <= MAX_IOS;
	for (i = 0; good && i < f.n; i += 2) {
		const struct io_u *t = &f.ios[i], *w = &f.ios[i + 1];

		good = t->ddir == DDIR_TRIM && w->ddir == DDIR_WRITE &&
		       t->offset == w->offset && t->len == len &&
		       w->len == len;
		seen |= 1ULL << ((t->offset - REGION) / len);
	}
	ok(good && seen == (1ULL << (size / len)) - 1,
	   "%s: every block trimmed then written with the trim's length",
	   spec);
	fx_free(&f);
}

int main(void)
{
	/* equal sizes: trim a block, write it, next block */
	check_seq("rw=trimwrite bs=4k", 16 * KB,
		  "t0/4 w0/4 t4/4 w4/4 t8/4 w8/4 t12/4 w12/4");
	/* fio 3.33: writes follow until one starts where the trim did */
	check_seq("rw=trimwrite bs=4k,8k,16k", 64 * KB,
		  "t0/16 w0/8 t16/16 w8/8 w16/8 t32/16 w24/8 w32/8 "
		  "t48/16 w40/8 w48/8");
	/* larger writes: the job ends when the writes reach the end */
	check_seq("rw=trimwrite bs=4k,16k,4k", 64 * KB,
		  "t0/4 w0/16 t4/4 w16/16 w32/16 w48/16");
	check_rand_pairs("rw=randtrimwrite bs=4k,8k,16k", 64 * KB, 16 * KB);
	check_rand_pairs("rw=randtrimwrite bs=4k", 64 * KB, 4 * KB);
	return done_testing();
}

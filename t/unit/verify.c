/* SPDX-License-Identifier: MIT */
/*
 * Verification without a disk: patterns, checksums, the block header,
 * the error policy, the verify options and state file, and the whole
 * write / read-back flow of verify/ driven against a byte array that
 * stands in for the file (so corruptions are exact and nothing is timed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "opt/verify_opts.h"
#include "util/pattern.h"
#include "verify/fault.h"
#include "verify/hash.h"
#include "verify/header.h"
#include "verify/state.h"
#include "verify/verify.h"
#include "workload/workload.h"

static const char *pat_hex(const char *s)
{
	static char out[256];
	struct byte_pattern p;
	struct strbuf err = STRBUF_INIT;
	unsigned int i;

	if (pattern_parse(s, &p, &err)) {
		snprintf(out, sizeof(out), "error: %s", strbuf_str(&err));
		strbuf_release(&err);
		return out;
	}
	for (i = 0; i < p.len && i < 100; i++)
		sprintf(out + 2 * i, "%02x", p.buf[i]);
	out[2 * i] = '\0';
	return out;
}

static void test_pattern(void)
{
	struct byte_pattern p;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	unsigned char buf[64];
	unsigned char want;
	struct byte_pattern q;

	ok(!strcmp(pat_hex("0xdeadbeef"), "deadbeef"), "hex bytes in order");
	ok(!strcmp(pat_hex("0x123"), "0123"), "odd hex digits: leading 0");
	ok(!strcmp(pat_hex("0X0A"), "0a"), "0X prefix");
	ok(!strcmp(pat_hex("255"), "ff"), "decimal 255 is one byte");
	ok(!strcmp(pat_hex("258"), "0201"), "decimal little-endian");
	ok(!strcmp(pat_hex("-12"), "f4ffffff"), "negative: 4 bytes");
	ok(!strcmp(pat_hex("2147483647"), "ffffff7f"), "INT_MAX");
	ok(!strncmp(pat_hex("4294967295"), "error: invalid pattern", 22),
	   "beyond 32-bit signed is refused (as fio)");
	ok(!strcmp(pat_hex("\"abc\""), "616263"), "a quoted string");
	ok(!strcmp(pat_hex("0x01\"ab\""), "016162"), "pieces combine");
	ok(!strcmp(pat_hex("\"a\"\"b\""), "6162"), "two strings");
	ok(!strncmp(pat_hex("abc"), "error: invalid pattern 'abc' at 'abc'",
		    37), "bare text refused: %s", pat_hex("abc"));
	ok(!strncmp(pat_hex("\"ab"), "error: invalid pattern '\"ab': unterminated",
		    41), "unterminated string");
	ok(!strncmp(pat_hex("'/nonexistent/pat'"), "error: invalid pattern", 22) &&
	   strstr(pat_hex("'/nonexistent/pat'"), "cannot open"),
	   "a missing pattern file refused");
	{
		char path[TAP_TMP_MAX], spec[TAP_TMP_MAX + 16];
		int fd = mkstemp(tap_tmp(path, "iolite-pat-XXXXXX"));

		ok(fd >= 0 && write(fd, "xy", 2) == 2, "pattern file made");
		if (fd >= 0)
			close(fd);
		snprintf(spec, sizeof(spec), "0x01'%s'\"z\"", path);
		ok(!strcmp(pat_hex(spec), "0178797a"), "pattern file read: %s",
		   pat_hex(spec));
		unlink(path);
	}
	ok(!strncmp(pat_hex("0x1 0x2"), "error:", 6), "spaces refused");

	ok(!pattern_parse("0xff%o\"abcd\"-12", &p, &err) && p.len == 17 &&
	   p.nr_fmt == 1 && p.fmt_pos[0] == 1, "fio's example: 17 bytes, %%o at 1");
	pattern_fill(&p, buf, sizeof(buf), 0x1000);
	ok(buf[0] == 0xff && buf[1] == 0x00 && buf[2] == 0x10 &&
	   !memcmp(buf + 9, "abcd", 4) && buf[13] == 0xf4 && buf[17] == 0xff &&
	   buf[19] == 0x10, "fill: each repetition has the block's offset");
	ok(pattern_check(&p, buf, sizeof(buf), 0, 0x1000, &want) == -1,
	   "check: a filled block matches");
	buf[40] ^= 1;
	ok(pattern_check(&p, buf, sizeof(buf), 0, 0x1000, &want) == 40,
	   "check: the first bad byte");
	ok(pattern_check(&p, buf, sizeof(buf), 41, 0x1000, &want) == -1,
	   "check: bytes before skip are not compared");
	ok(pattern_check(&p, buf, sizeof(buf), 0, 0x2000, &want) == 2 &&
	   want == 0x20, "check: another offset differs at the %%o");
	pattern_format(&p, &sb);
	ok(!strcmp(strbuf_str(&sb), "0xff%o0x61626364f4ffffff"),
	   "format: canonical %s", strbuf_str(&sb));
	ok(!pattern_parse(strbuf_str(&sb), &q, &err) && q.len == p.len &&
	   !memcmp(q.buf, p.buf, p.len) && q.nr_fmt == 1 &&
	   q.fmt_pos[0] == 1, "format parses back to the same pattern");
	strbuf_release(&sb);
	strbuf_release(&err);
}

static int sum_is(enum verify_mode m, const char *a, const char *b,
		  const char *hexwant)
{
	struct vhash *h = vhash_new(m);
	unsigned char out[VHASH_MAX];
	char hx[2 * VHASH_MAX + 1];
	unsigned int i, n = verify_csum_size(m);

	vhash_sum(h, a, strlen(a), b, strlen(b), out);
	for (i = 0; i < n; i++)
		sprintf(hx + 2 * i, "%02x", out[i]);
	vhash_free(h);
	if (strcmp(hx, hexwant))
		diag("%s: got %s", verify_mode_name(m), hx);
	return !strcmp(hx, hexwant);
}

static void test_hash(void)
{
	struct vhash *h;
	unsigned char x[VHASH_MAX], y[VHASH_MAX];
	char data[100];

	ok(vhash_crc32c("123456789", 9) == 0xe3069283,
	   "crc32c check value (%s)", vhash_crc32c_impl());
	ok(sum_is(VERIFY_CRC32C, "1234", "56789", "839206e3"),
	   "crc32c over two ranges = over one (little-endian)");
#ifdef HAVE_LIBISAL
	ok(!strcmp(vhash_crc32c_impl(), "isa-l"), "crc32c by ISA-L (%s)",
	   vhash_crc32c_impl());
#else
	skip(WITHOUT_ISAL, "crc32c by ISA-L");
#endif
#ifdef HAVE_LIBCRYPTO
	ok(sum_is(VERIFY_MD5, "a", "bc", "900150983cd24fb0d6963f7d28e17f72"),
	   "md5(abc)");
	ok(sum_is(VERIFY_SHA1, "ab", "c",
		  "a9993e364706816aba3e25717850c26c9cd0d89d"), "sha1(abc)");
	ok(sum_is(VERIFY_SHA256, "", "abc",
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	   "sha256(abc)");
	ok(sum_is(VERIFY_SHA512, "abc", "",
		  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
	   "sha512(abc)");
#else
	skip(WITHOUT_LIBCRYPTO, "md5, sha1, sha256, sha512 of abc");
#endif
#ifdef HAVE_LIBXXHASH
	h = vhash_new(VERIFY_XXHASH);
	memset(data, 'x', sizeof(data));
	vhash_sum(h, "hdr", 3, data, sizeof(data), x);
	data[50] ^= 1;
	vhash_sum(h, "hdr", 3, data, sizeof(data), y);
	ok(memcmp(x, y, 8), "xxhash: one flipped bit changes the sum");
	data[50] ^= 1;
	vhash_sum(h, "hdX", 3, data, sizeof(data), y);
	ok(memcmp(x, y, 8), "xxhash: the header is covered too");
	vhash_free(h);
#else
	skip(WITHOUT_XXHASH, "xxhash: a flipped bit, the header covered");
#endif
	ok(vhash_new(VERIFY_PATTERN) == NULL && vhash_new(VERIFY_NULL) == NULL,
	   "no checksum context for pattern and null");
	(void)h;
	(void)x;
	(void)y;
	(void)data;
}

static void test_header(void)
{
	enum verify_mode m = VERIFY_CRC32C;
	unsigned int hl = verify_hdr_size(m);
	struct vhash *h = vhash_new(m);
	unsigned char a[512], b[512], want[VHASH_MAX], have[VHASH_MAX];
	struct vexpect e = { .offset = 4096, .len = 512, .job = 3, .file = 1,
			     .seed = 0x1234, .seq = 7, .known = true };
	struct vexpect x;
	struct verify_hdr g;

	ok(VERIFY_HDR_FIXED == 48 && sizeof(struct verify_hdr) == 48,
	   "header fixed part is 48 bytes");
	ok(verify_hdr_size(VERIFY_CRC32C) == 56 &&
	   verify_hdr_size(VERIFY_MD5) == 64 &&
	   verify_hdr_size(VERIFY_SHA1) == 72 &&
	   verify_hdr_size(VERIFY_SHA256) == 80 &&
	   verify_hdr_size(VERIFY_SHA512) == 112 &&
	   verify_hdr_size(VERIFY_XXHASH) == 56 &&
	   verify_hdr_size(VERIFY_PATTERN) == 0, "header sizes");

	memset(a, 0x5a, sizeof(a));
	vhdr_stamp(h, m, hl, a, &e);
	ok(!memcmp(a, "IOLB", 4), "magic on disk reads IOLB");
	ok(vhdr_check(h, m, hl, a, &e, &g, want, have) == VH_OK &&
	   g.offset == 4096 && g.seq == 7 && g.job == 3,
	   "a stamped chunk checks out");
	memcpy(b, a, sizeof(a));
	b[300] ^= 0x10;
	ok(vhdr_check(h, m, hl, b, &e, &g, want, have) == VH_CSUM,
	   "a flipped data bit is a checksum mismatch");
	memcpy(b, a, sizeof(a));
	b[30] ^= 1;	/* inside the offset field */
	ok(vhdr_check(h, m, hl, b, &e, &g, want, have) == VH_CSUM,
	   "a flipped header bit is a checksum mismatch");
	x = e;
	x.offset = 8192;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_OFFSET,
	   "a sound chunk at another offset is misplaced");
	x = e;
	x.seq = 9;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_STALE,
	   "an older write than expected is stale");
	x = e;
	x.seq = 5;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_OK,
	   "a newer write of the job supersedes the expected one");
	x = e;
	x.seed = 0x9999;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_STALE,
	   "another seed is stale");
	x = e;
	x.job = 4;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_WRITER,
	   "another job's block is foreign");
	x.known = false;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_OK,
	   "unknown writer: only the header's soundness and offset");
	x = e;
	x.len = 256;
	ok(vhdr_check(h, m, hl, a, &x, &g, want, have) == VH_LEN,
	   "another length");
	memset(b, 0, sizeof(b));
	ok(vhdr_check(h, m, hl, b, &e, &g, want, have) == VH_MAGIC,
	   "zeroes: no header");
	vhash_free(h);
#ifdef HAVE_LIBCRYPTO
	h = vhash_new(VERIFY_MD5);
	ok(vhdr_check(h, VERIFY_MD5, verify_hdr_size(VERIFY_MD5), a, &e, &g,
		      want, have) == VH_MODE,
	   "a crc32c block checked as md5: another mode");
	vhash_free(h);
#else
	skip(WITHOUT_LIBCRYPTO, "a crc32c block checked as md5");
#endif
}

static void test_fault(void)
{
	struct job_options o;
	struct fault_policy fp;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct opt_def *def = opt_lookup("ignore_error");

	opt_defaults(&o);
	fault_policy_init(&fp, &o);
	ok(!fault_non_fatal(&fp, FAULT_READ, EIO), "none: EIO stops");
	ok(!opt_set(&o, "continue_on_error", "read", 1024, &err),
	   "continue_on_error=read");
	fault_policy_init(&fp, &o);
	ok(fault_non_fatal(&fp, FAULT_READ, EIO) &&
	   !fault_non_fatal(&fp, FAULT_WRITE, EIO),
	   "read: EIO on reads continues, on writes stops");
	ok(!opt_set(&o, "continue_on_error", "write", 1024, &err),
	   "continue_on_error=write");
	fault_policy_init(&fp, &o);
	ok(!fault_non_fatal(&fp, FAULT_WRITE, ENOSPC),
	   "write: ENOSPC still stops (only EIO and EILSEQ are non-fatal)");
	ok(!opt_set(&o, "continue_on_error", "verify", 1024, &err),
	   "continue_on_error=verify");
	fault_policy_init(&fp, &o);
	ok(fault_non_fatal(&fp, FAULT_VERIFY, EILSEQ), "verify: EILSEQ goes on");
	ok(!opt_set(&o, "continue_on_error", "none", 1024, &err) &&
	   !opt_set(&o, "ignore_error", "EAGAIN,ENOSPC:122", 1024, &err),
	   "ignore_error=EAGAIN,ENOSPC:122 parses");
	fault_policy_init(&fp, &o);
	ok(fault_non_fatal(&fp, FAULT_READ, EAGAIN) &&
	   fault_non_fatal(&fp, FAULT_WRITE, ENOSPC) &&
	   fault_non_fatal(&fp, FAULT_WRITE, EDQUOT) &&
	   !fault_non_fatal(&fp, FAULT_WRITE, EIO) &&
	   !fault_non_fatal(&fp, FAULT_VERIFY, EILSEQ),
	   "ignore_error: exactly the listed errors, per class");
	ok((o.continue_on_error & (COE_READ | COE_WRITE)) ==
	   (COE_READ | COE_WRITE), "a list turns its class on (fio)");
	opt_format(def, &o, &sb);
	ok(!strcmp(strbuf_str(&sb), "EAGAIN,ENOSPC:EDQUOT"),
	   "canonical: %s", strbuf_str(&sb));
	ok(opt_set(&o, "ignore_error", "EBOGUS", 1024, &err) &&
	   strstr(strbuf_str(&err), "unknown error 'EBOGUS'"),
	   "an unknown errno name is refused");
	strbuf_reset(&err);
	ok(opt_set(&o, "ignore_error", "1,2,3,4", 1024, &err) &&
	   strstr(strbuf_str(&err), "more than 3"), "four lists refused");
	job_options_release(&o);
	strbuf_release(&err);
	strbuf_release(&sb);
}

/* A plan from name=value pairs; NULL and the message on failure. */
static struct job_plan *plan_of(const char *const *kv, struct strbuf *err)
{
	static struct job_plan p;
	struct job_options o;

	opt_defaults(&o);
	o.name = strdup("j");
	for (; *kv; kv += 2)
		if (opt_set(&o, kv[0], kv[1], 1024, err)) {
			job_options_release(&o);
			return NULL;
		}
	memset(&p, 0, sizeof(p));
	if (plan_build(&p, &o, "t.fio", 3, err)) {
		job_options_release(&o);
		return NULL;
	}
	job_options_release(&o);
	return &p;
}

static int plan_fails(const char *const *kv, const char *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct job_plan *p = plan_of(kv, &err);
	int ret = !p && strstr(strbuf_str(&err), msg);

	if (!ret)
		diag("got '%s'", strbuf_str(&err));
	if (p)
		plan_release(p);
	strbuf_release(&err);
	return ret;
}

static void test_options(void)
{
	struct strbuf err = STRBUF_INIT;
	struct job_plan *p;
	const char *alias[] = { "verify", "crc32c-intel", "size", "64k", NULL };
	const char *pat[] = { "verify_pattern", "0xaa", "size", "64k", NULL };

	p = plan_of(alias, &err);
	ok(p && p->o.verify == VERIFY_CRC32C, "crc32c-intel is crc32c");
	if (p)
		plan_release(p);
	p = plan_of(pat, &err);
	ok(p && p->o.verify == VERIFY_PATTERN,
	   "verify_pattern alone means verify=pattern");
	if (p)
		plan_release(p);
	ok(opt_set(&(struct job_options){ 0 }, "verify", "crc65", 1024, &err) &&
	   strstr(strbuf_str(&err), "invalid value 'crc65'"),
	   "an unknown checksum is refused by name");
	strbuf_release(&err);
	ok(plan_fails((const char *[]){ "verify", "pattern", NULL },
		      "'pattern' needs verify_pattern="),
	   "verify=pattern needs a pattern");
	ok(plan_fails((const char *[]){ "verify_only", "1", NULL },
		      "option 'verify_only' needs verify="),
	   "verify_only needs verify=");
#ifndef HAVE_LIBCRYPTO
	skip(WITHOUT_LIBCRYPTO, "verify_only and time_based; header room for "
	     "bs, verify_interval, verify_offset (md5, sha512)");
	return;
#endif
	ok(plan_fails((const char *[]){ "verify", "md5", "verify_only", "1",
					"time_based", "1", "runtime", "1",
					NULL },
		      "does not work with time_based"),
	   "verify_only refuses time_based");
	ok(plan_fails((const char *[]){ "verify", "sha512", "bs", "64", NULL },
		      "t.fio:3: option 'bs': 64 bytes cannot hold the 112-byte header of verify=sha512"),
	   "a block too small for the header is refused, naming bs");
	ok(plan_fails((const char *[]){ "verify", "md5", "verify_interval",
					"32", NULL },
		      "option 'verify_interval': 32 bytes cannot hold"),
	   "an interval too small, naming verify_interval");
	p = plan_of((const char *[]){ "verify", "crc32c", "verify_interval",
				      "8k", NULL }, &err);
	ok(p != NULL, "an interval beyond the block: one chunk (fio)");
	if (p)
		plan_release(p);
	strbuf_release(&err);
	ok(plan_fails((const char *[]){ "verify", "md5", "verify_offset",
					"4090", NULL },
		      "option 'verify_offset': 4090 leaves no room"),
	   "verify_offset past the room for the header");
}

static void test_state(void)
{
	char path[TAP_TMP_MAX];
	int fd = mkstemp(tap_tmp(path, "iolite-vstate-XXXXXX"));
	struct verify_state s = { .index = 2, .mode = VERIFY_SHA256,
				  .seed = 0xabcdef0123ULL, .writes = 1234 };
	struct verify_state t;
	struct strbuf err = STRBUF_INIT;
	FILE *f;

	close(fd);
	strcpy(s.job, "my job");
	ok(!verify_state_save(path, &s, &err), "state saved");
	ok(!verify_state_load(path, &t, &err) && !strcmp(t.job, "my job") &&
	   t.index == 2 && t.mode == VERIFY_SHA256 &&
	   t.seed == 0xabcdef0123ULL && t.writes == 1234,
	   "state loads back the same");
	f = fopen(path, "w");
	fputs("iolite verify state 1\njob x\nwrites 3\n", f);
	fclose(f);
	ok(verify_state_load(path, &t, &err) &&
	   strstr(strbuf_str(&err), "is incomplete"), "an incomplete state");
	strbuf_reset(&err);
	f = fopen(path, "w");
	fputs("garbage\n", f);
	fclose(f);
	ok(verify_state_load(path, &t, &err) &&
	   strstr(strbuf_str(&err), "line 1 is not what iolite writes"),
	   "a foreign file");
	unlink(path);
	strbuf_reset(&err);
	ok(verify_state_load(path, &t, &err) &&
	   strstr(strbuf_str(&err), "cannot read verify state"),
	   "a missing state");
	strbuf_release(&err);
}

/* ---- the flow, against memory ---- */

#define DISK (256 * 1024)
static unsigned char disk[DISK];
static unsigned char bufs[4][16384];

struct sim {
	struct job_plan *p;
	struct engine_file f;
	struct workload *wl;
	struct verify *v;
	struct io_u u[4];
	unsigned long reads, writes, fails;
	char first[512];
};

static int sim_init(struct sim *s, const char *const *kv)
{
	struct strbuf err = STRBUF_INIT;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->p = plan_of(kv, &err);
	if (!s->p) {
		diag("plan: %s", strbuf_str(&err));
		return -1;
	}
	s->f.path = (char *)"mem";
	s->f.fd = -1;
	s->f.flags = EF_REGULAR;
	s->f.real_size = DISK;
	s->f.io_size = s->p->o.size.bytes ? s->p->o.size.bytes : DISK;
	if (workload_init(&s->wl, s->p, &s->f, 1, &err) ||
	    verify_init(&s->v, s->p, &s->f, 1, 4, s->wl, &err)) {
		diag("init: %s", strbuf_str(&err));
		return -1;
	}
	for (i = 0; i < 4; i++) {
		s->u[i].index = i;
		s->u[i].buf = bufs[i];
	}
	strbuf_release(&err);
	return 0;
}

/*
 * Runs the job with depth 2 and completion in issue order: like the
 * worker, verify_next, then prep (writes land in disk[]), complete.
 */
static void sim_run(struct sim *s, unsigned int loops)
{
	unsigned int k = 0;

	for (;;) {
		struct io_u *u = &s->u[k++ % 2];

		if (verify_next(s->v, u)) {
			if (verify_pass_end(s->v))
				continue;
			if (--loops) {
				workload_rewind(s->wl);
				continue;
			}
			return;
		}
		if (u->ddir == DDIR_WRITE) {
			verify_prep_write(s->v, u);
			memcpy(disk + u->offset, u->buf, u->len);
			s->writes++;
		} else if (u->ddir == DDIR_READ) {
			memcpy(u->buf, disk + u->offset, u->len);
			s->reads++;
		}
		if (verify_complete(s->v, u)) {
			if (!s->fails++)
				snprintf(s->first, sizeof(s->first), "%s",
					 verify_errmsg(s->v));
		}
	}
}

static void sim_free(struct sim *s)
{
	verify_free(s->v);
	workload_free(s->wl);
	plan_release(s->p);
}

static void test_flow_one(const char *mode, const char *extra_k,
			  const char *extra_v)
{
	const char *w[] = { "verify", mode, "rw", "write", "bs", "4k",
			    "size", "64k", extra_k, extra_v, NULL };
	const char *vo[] = { "verify", mode, "rw", "write", "bs", "4k",
			     "size", "64k", "verify_only", "1", extra_k,
			     extra_v, NULL };
	struct sim s;
	unsigned char save[4096];

	if (!extra_k)
		w[8] = vo[10] = NULL;
	memset(disk, 0, sizeof(disk));
	if (sim_init(&s, w))
		return;
	sim_run(&s, 1);
	ok(s.writes == 16 && s.reads == 16 && !s.fails,
	   "%s %s: 16 writes read back clean", mode, extra_k ? extra_k : "");
	sim_free(&s);

	disk[5000] ^= 0x40;
	if (sim_init(&s, vo))
		return;
	sim_run(&s, 1);
	ok(s.writes == 0 && s.reads == 16 && s.fails == 1 &&
	   strstr(s.first, "at offset 4096 of 'mem' failed"),
	   "%s: a flipped byte fails at its block: %s", mode, s.first);
	sim_free(&s);
	disk[5000] ^= 0x40;

	memcpy(save, disk + 12288, 4096);
	memcpy(disk + 12288, disk + 4096, 4096);
	if (sim_init(&s, vo))
		return;
	sim_run(&s, 1);
	ok(s.fails == 1 && strstr(s.first, "offset 12288"),
	   "%s: a block copied over another fails there: %s", mode, s.first);
	sim_free(&s);
	memcpy(disk + 12288, save, 4096);
}

static void test_flow(void)
{
	struct sim s;
	unsigned char old[4096];
	const char *w1[] = { "verify", "crc32c", "rw", "write", "bs", "4k",
			     "size", "64k", "randseed", "1", NULL };
	const char *w2[] = { "verify", "crc32c", "rw", "write", "bs", "4k",
			     "size", "64k", "randseed", "2", NULL };
	const char *vo2[] = { "verify", "crc32c", "rw", "write", "bs", "4k",
			      "size", "64k", "randseed", "2", "verify_only",
			      "1", NULL };
	const char *over[] = { "verify", "md5", "rw", "randwrite",
			       "bsrange", "4k-16k", "norandommap", "1",
			       "size", "256k", NULL };
	const char *backlog[] = { "verify", "xxhash", "rw", "randwrite",
				  "bs", "4k", "size", "256k",
				  "verify_backlog", "7", NULL };
	const char *loops[] = { "verify", "sha1", "rw", "write", "bs", "8k",
				"size", "64k", NULL };
	const char *rd[] = { "verify", "crc32c", "rw", "read", "bs", "4k",
			     "size", "64k", NULL };
	const char *mixed[] = { "verify", "crc32c", "rw", "randrw", "bs",
				"4k", "size", "64k", NULL };

	test_flow_one("crc32c", NULL, NULL);
#ifdef HAVE_LIBCRYPTO
	test_flow_one("md5", NULL, NULL);
	test_flow_one("sha256", "verify_interval", "1k");
	test_flow_one("sha512", "verify_offset", "1000");
#else
	skip(WITHOUT_LIBCRYPTO, "md5, sha256, sha512: read back, flips, "
	     "misplaced and stale blocks");
#endif
#ifdef HAVE_LIBXXHASH
	test_flow_one("xxhash", "verify_pattern", "0x55aa");
#else
	skip(WITHOUT_XXHASH, "xxhash: read back, flips, misplaced and stale "
	     "blocks");
#endif
	test_flow_one("pattern", "verify_pattern", "\"iolite\"%o");

	/* stale: an older write's block put back */
	memset(disk, 0, sizeof(disk));
	if (!sim_init(&s, w1)) {
		sim_run(&s, 1);
		sim_free(&s);
	}
	memcpy(old, disk + 8192, 4096);
	if (!sim_init(&s, w2)) {
		sim_run(&s, 1);
		sim_free(&s);
	}
	memcpy(disk + 8192, old, 4096);
	/* without the writer's state, verify_only checks blocks, as fio */
	if (!sim_init(&s, vo2)) {
		sim_run(&s, 1);
		ok(s.fails == 0 && s.reads == 16,
		   "verify_only: an earlier write's sound block passes: %s",
		   s.first);
		sim_free(&s);
	}

	memset(disk, 0, sizeof(disk));
#ifdef HAVE_LIBCRYPTO
	if (!sim_init(&s, over)) {
		sim_run(&s, 1);
		ok(!s.fails && s.reads > 0 && s.reads <= s.writes,
		   "overlapping random writes: only the newest are checked (%lu of %lu)",
		   s.reads, s.writes);
		sim_free(&s);
	}
#else
	(void)over;
	skip(WITHOUT_LIBCRYPTO, "overlapping random writes (md5)");
#endif
#ifdef HAVE_LIBXXHASH
	if (!sim_init(&s, backlog)) {
		sim_run(&s, 1);
		ok(!s.fails && s.writes == 64 && s.reads == 64,
		   "verify_backlog: every write read back once");
		sim_free(&s);
	}
#else
	(void)backlog;
	skip(WITHOUT_XXHASH, "verify_backlog (xxhash)");
#endif
#ifdef HAVE_LIBCRYPTO
	if (!sim_init(&s, loops)) {
		sim_run(&s, 3);
		ok(!s.fails && s.writes == 24 && s.reads == 24,
		   "loops=3: each pass read back after it");
		sim_free(&s);
	}
#else
	(void)loops;
	skip(WITHOUT_LIBCRYPTO, "loops=3 (sha1)");
#endif
	/* a read-only job checks what it reads: a sound header, its offset */
	if (!sim_init(&s, w1)) {
		sim_run(&s, 1);
		sim_free(&s);
	}
	if (!sim_init(&s, rd)) {
		sim_run(&s, 1);
		ok(!s.fails && s.reads == 16, "rw=read checks written data");
		sim_free(&s);
	}
	memset(disk + 20480, 0, 4096);
	if (!sim_init(&s, rd)) {
		sim_run(&s, 1);
		ok(s.fails == 1 && strstr(s.first, "offset 20480") &&
		   strstr(s.first, "no verify header"),
		   "rw=read: a block never written fails: %s", s.first);
		sim_free(&s);
	}
	/* a mixed job reads back its own writes only */
	memset(disk, 0, sizeof(disk));
	if (!sim_init(&s, mixed)) {
		sim_run(&s, 1);
		ok(!s.fails && s.writes > 0, "randrw: the workload's reads are not checked");
		sim_free(&s);
	}
}

/*
 * fio's other checksums: their catalogue check values over "123456789"
 * split in two ranges (the parameters were matched against blocks fio
 * 3.33 wrote; see verify/crc.h), sha3 from libcrypto, meta.
 */
static void test_fio_modes(void)
{
	enum verify_mode m;
	unsigned int i, seen = 0;

	ok(sum_is(VERIFY_CRC64, "1234", "56789", "cad9b8c414d9c6e9"),
	   "crc64 is CRC-64/REDIS (0xe9c6d914c4b8d9ca), over two ranges");
	ok(sum_is(VERIFY_CRC32, "123", "456789", "7f89a189"),
	   "crc32: poly 0x04c11db7, init 0, no final xor (0x89a1897f)");
	ok(sum_is(VERIFY_CRC16, "12345678", "9", "3dbb"),
	   "crc16 is CRC-16/ARC (0xbb3d)");
	ok(sum_is(VERIFY_CRC7, "", "123456789", "75"),
	   "crc7 is CRC-7/MMC (0x75)");
	ok(sum_is(VERIFY_META, "123456789", "data not covered", "839206e3"),
	   "meta: crc32c of the header alone");
#ifdef HAVE_LIBCRYPTO
	ok(sum_is(VERIFY_SHA3_224, "a", "bc",
		  "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"),
	   "sha3-224(abc)");
	ok(sum_is(VERIFY_SHA3_256, "ab", "c",
		  "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
	   "sha3-256(abc)");
	ok(sum_is(VERIFY_SHA3_384, "abc", "",
		  "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
		  "98d88cea927ac7f539f1edf228376d25"), "sha3-384(abc)");
	ok(sum_is(VERIFY_SHA3_512, "", "abc",
		  "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
		  "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"),
	   "sha3-512(abc)");
#endif
	i = 0;
	for (m = vhash_next(VERIFY_NONE); m < VERIFY_MODE_NR;
	     m = vhash_next(m), i++) {
		struct vhash *h = vhash_new(m);
		unsigned char out[VHASH_MAX];

		/* every mode the iteration gives can be summed */
		if (h && verify_csum_size(m)) {
			vhash_sum(h, "x", 1, NULL, 0, out);
			seen++;
		}
		vhash_free(h);
	}
	/* the CRCs and meta need no library */
	ok(seen == i && i >= 6, "vhash_next: %u checksums, each usable", i);
}

/*
 * experimental_verify: the pass is replayed as reads, in write order;
 * a byte changed between the pass and its read-back fails there; loops
 * stay in step; no log is kept (verify_backlog changes nothing).
 */
static void test_experimental(void)
{
	const char *kv[] = { "verify", "crc32c", "rw", "randwrite", "bs",
			     "4k", "size", "64k", "experimental_verify", "1",
			     "verify_backlog", "4", NULL };
	uint64_t order[2][16];
	unsigned int nw = 0, nr = 0, k = 0, passes = 0, loops = 2;
	bool same = true;
	struct sim s;

	memset(disk, 0, sizeof(disk));
	if (sim_init(&s, kv))
		return;
	for (;;) {
		struct io_u *u = &s.u[k++ % 2];

		if (verify_next(s.v, u)) {
			if (!passes++)
				disk[5000] ^= 0x40;	/* after the pass */
			if (verify_pass_end(s.v))
				continue;
			if (--loops) {
				workload_rewind(s.wl);
				continue;
			}
			break;
		}
		if (u->ddir == DDIR_WRITE) {
			verify_prep_write(s.v, u);
			memcpy(disk + u->offset, u->buf, u->len);
			if (nw < 16)
				order[0][nw] = u->offset;
			nw++;
		} else {
			memcpy(u->buf, disk + u->offset, u->len);
			if (nr < 16)
				order[1][nr] = u->offset;
			nr++;
		}
		if (verify_complete(s.v, u) && !s.fails++)
			snprintf(s.first, sizeof(s.first), "%s",
				 verify_errmsg(s.v));
	}
	for (k = 0; k < 16; k++)
		same &= order[0][k] == order[1][k];
	ok(nw == 32 && nr == 32, "experimental_verify, loops=2: 32 writes, "
	   "32 reads (%u, %u)", nw, nr);
	ok(same, "the read-back replays the writes in their order");
	ok(s.fails == 1 && strstr(s.first, "offset 4096 of 'mem' failed"),
	   "a byte changed after the pass fails at its block: %s", s.first);
	sim_free(&s);
}

int main(void)
{
	test_pattern();
	test_hash();
	test_header();
	test_fault();
	test_options();
	test_state();
	test_flow();
	test_fio_modes();
	test_experimental();
	return done_testing();
}

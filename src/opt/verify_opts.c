/* SPDX-License-Identifier: MIT */
/*
 * Verification and error options. verify= names a checksum whose library
 * may be missing from this build (md5 and sha* come from OpenSSL's
 * libcrypto, xxhash from libxxhash); such a value is refused here, at
 * parse time, with the package to install. The CRCs are always there
 * (ISA-L, the CPU's crc32 instruction, or tables), and so is meta.
 */
#include "opt/verify_opts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt/internal.h"
#include "util/cpulist.h"

const struct opt_enum verify_mode_enums[] = {
	{ "0", VERIFY_NONE, "no verification" },
	{ "none", VERIFY_NONE, "same as 0" },
	{ "md5", VERIFY_MD5, "md5 checksum in a block header (libcrypto)" },
	{ "crc64", VERIFY_CRC64,
	  "fio's crc64 (CRC-64/REDIS) in a block header" },
	{ "crc32", VERIFY_CRC32,
	  "fio's crc32 (poly 0x04c11db7, init 0) in a block header" },
	{ "crc32c", VERIFY_CRC32C, "crc32c checksum in a block header" },
	{ "crc32c-intel", VERIFY_CRC32C, "same as crc32c" },
	{ "crc16", VERIFY_CRC16,
	  "fio's crc16 (CRC-16/ARC) in a block header" },
	{ "crc7", VERIFY_CRC7, "fio's crc7 (CRC-7/MMC) in a block header" },
	{ "sha1", VERIFY_SHA1, "sha1 checksum in a block header (libcrypto)" },
	{ "sha256", VERIFY_SHA256,
	  "sha256 checksum in a block header (libcrypto)" },
	{ "sha512", VERIFY_SHA512,
	  "sha512 checksum in a block header (libcrypto)" },
	{ "sha3-224", VERIFY_SHA3_224,
	  "sha3-224 checksum in a block header (libcrypto)" },
	{ "sha3-256", VERIFY_SHA3_256,
	  "sha3-256 checksum in a block header (libcrypto)" },
	{ "sha3-384", VERIFY_SHA3_384,
	  "sha3-384 checksum in a block header (libcrypto)" },
	{ "sha3-512", VERIFY_SHA3_512,
	  "sha3-512 checksum in a block header (libcrypto)" },
	{ "xxhash", VERIFY_XXHASH,
	  "xxHash (XXH3, 64 bits) in a block header (libxxhash)" },
	{ "meta", VERIFY_META,
	  "the block header alone (offset, writer, length; no data "
	  "checksum), as fio's meta" },
	{ "pattern", VERIFY_PATTERN,
	  "no header: every byte must match verify_pattern" },
	{ "null", VERIFY_NULL, "read back, check nothing" },
	{ NULL, 0, NULL },
};

const char *verify_mode_name(enum verify_mode m)
{
	const struct opt_enum *e;

	if (m == VERIFY_NONE)
		return "none";
	for (e = verify_mode_enums; e->name; e++)
		if (e->value == (int)m)
			return e->name;
	return "?";
}

unsigned int verify_csum_size(enum verify_mode m)
{
	switch (m) {
	case VERIFY_CRC7:
		return 1;
	case VERIFY_CRC16:
		return 2;
	case VERIFY_CRC32C:
	case VERIFY_CRC32:
	case VERIFY_META:
		return 4;
	case VERIFY_CRC64:
	case VERIFY_XXHASH:
		return 8;
	case VERIFY_MD5:
		return 16;
	case VERIFY_SHA1:
		return 20;
	case VERIFY_SHA3_224:
		return 28;
	case VERIFY_SHA256:
	case VERIFY_SHA3_256:
		return 32;
	case VERIFY_SHA3_384:
		return 48;
	case VERIFY_SHA512:
	case VERIFY_SHA3_512:
		return 64;
	default:
		return 0;
	}
}

/* Must match struct verify_hdr in verify/header.h (48 bytes). */
#define VERIFY_HDR_FIXED 48

unsigned int verify_hdr_size(enum verify_mode m)
{
	unsigned int c = verify_csum_size(m);

	if (!c)
		return 0;
	return (VERIFY_HDR_FIXED + c + 7) / 8 * 8;
}

const char *verify_mode_missing_lib(enum verify_mode m)
{
	switch (m) {
	case VERIFY_MD5:
	case VERIFY_SHA1:
	case VERIFY_SHA256:
	case VERIFY_SHA512:
	case VERIFY_SHA3_224:
	case VERIFY_SHA3_256:
	case VERIFY_SHA3_384:
	case VERIFY_SHA3_512:
#ifndef HAVE_LIBCRYPTO
		return "libssl-dev";
#else
		return NULL;
#endif
	case VERIFY_XXHASH:
#ifndef HAVE_LIBXXHASH
		return "libxxhash-dev";
#else
		return NULL;
#endif
	default:
		return NULL;
	}
}

int verify_mode_cb(const struct opt_def *def, struct job_options *o,
		   const char *val, struct strbuf *err)
{
	const char *lib;
	int v;

	if (opt_enum_lookup(verify_mode_enums, val, &v)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", val);
		opt_enum_list(verify_mode_enums, err);
		strbuf_addch(err, ')');
		return -1;
	}
	lib = verify_mode_missing_lib((enum verify_mode)v);
	if (lib) {
		strbuf_addf(err, "'%s' is not available in this build: install %s and rebuild",
			    val, lib);
		return -1;
	}
	o->verify = (enum verify_mode)v;
	return 0;
}

void verify_mode_fmt(const struct opt_def *def, const struct job_options *o,
		     struct strbuf *out)
{
	strbuf_addstr(out, verify_mode_name(o->verify));
}

int verify_pattern_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	return pattern_parse(val, &o->verify_pattern, err);
}

void verify_pattern_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out)
{
	pattern_format(&o->verify_pattern, out);
}

/* "EIO", "5" or "-5" (fio takes a negated errno too): an errno, or -1. */
static int parse_errno(const char *s)
{
	char *end;
	long v;
	int e;

	if (*s == 'E') {
		/* glibc names every errno it knows; there is no reverse */
		for (e = 1; e < 4096; e++) {
			const char *n = strerrorname_np(e);

			if (n && !strcmp(n, s))
				return e;
		}
		return -1;
	}
	v = strtol(s, &end, 10);
	if (v < 0)
		v = -v;
	if (end == s || *end || v <= 0 || v >= 4096)
		return -1;
	return (int)v;
}

/*
 * ignore_error=READ,WRITE,VERIFY, each a ':'-separated list of errno
 * names or numbers; a part may be empty. A list turns continue_on_error
 * on for its class then and there, so a continue_on_error= after it
 * decides again (as fio: "ignore_error=,ENOSPC continue_on_error=none"
 * stops at the first ENOSPC).
 */
int ignore_error_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err)
{
	char *copy = xstrdup(val), *part = copy;
	unsigned int cls;
	int ret = -1;

	memset(o->ignore_error, 0, sizeof(o->ignore_error));
	memset(o->nr_ignore_error, 0, sizeof(o->nr_ignore_error));
	for (cls = 0; part; cls++) {
		char *next = strchr(part, ','), *tok, *next_tok;

		if (next)
			*next++ = '\0';
		if (cls >= 3) {
			strbuf_addf(err, "'%s' has more than 3 lists (read,write,verify)",
				    val);
			goto out;
		}
		for (tok = part; *tok; tok = next_tok) {
			char *colon = strchr(tok, ':');
			int e;

			next_tok = colon ? colon + 1 : tok + strlen(tok);
			if (colon)
				*colon = '\0';
			/*
			 * fio ends a list at an empty entry and drops what
			 * follows it unsaid (",:ENOSPC" ignores nothing):
			 * trailing ':'s are harmless, an error after an
			 * empty entry is refused rather than dropped
			 */
			if (!*tok) {
				if (!next_tok[strspn(next_tok, ":")])
					break;
				strbuf_addf(err, "an empty entry in '%s' (fio would ignore the errors after it)",
					    val);
				goto out;
			}
			e = parse_errno(tok);
			if (e < 0) {
				strbuf_addf(err, "unknown error '%s' (use a name like EIO or a number)",
					    tok);
				goto out;
			}
			if (o->nr_ignore_error[cls] >= IGNORE_ERROR_MAX) {
				strbuf_addf(err, "more than %d errors in one list",
					    IGNORE_ERROR_MAX);
				goto out;
			}
			o->ignore_error[cls][o->nr_ignore_error[cls]++] = e;
		}
		/* as fio: a list turns continue_on_error on for its class */
		if (o->nr_ignore_error[cls])
			o->continue_on_error |= 1u << cls;
		part = next;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

void ignore_error_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out)
{
	unsigned int cls, i, last = 0;

	for (cls = 0; cls < 3; cls++)
		if (o->nr_ignore_error[cls])
			last = cls + 1;
	for (cls = 0; cls < last; cls++) {
		if (cls)
			strbuf_addch(out, ',');
		for (i = 0; i < o->nr_ignore_error[cls]; i++) {
			const char *n = strerrorname_np(o->ignore_error[cls][i]);

			if (i)
				strbuf_addch(out, ':');
			if (n)
				strbuf_addstr(out, n);
			else
				strbuf_addf(out, "%d", o->ignore_error[cls][i]);
		}
	}
}


static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * fio's verify interval (3.33 and 3.42): verify_interval, else the
 * smallest write; no larger than the smallest write (or read, in a job
 * that reads); and where it does not divide both the smallest and the
 * largest write, their greatest common divisor. So bsrange=1000-1024
 * and bssplit=4KiB/50:16k/50 have 8 and 32 bytes, no room for a header
 * (fio 3.33 fails the first write, "Blocksize too small", EINVAL; 3.42
 * refuses the job), and so does verify_interval=512 with
 * bsrange=4KiB-4K (4000 to 4096: 32). Sets *cut when the divisor was
 * taken. iolite's chunks are its own (verify/verify.c); only which jobs
 * can run follows this.
 */
static uint64_t fio_interval(const struct job_plan *p, bool *cut)
{
	const struct job_options *o = &p->o;
	uint64_t lo = p->dir_min_bs[DDIR_WRITE], hi = p->dir_max_bs[DDIR_WRITE];
	uint64_t iv = o->verify_interval ? o->verify_interval : lo;

	if (iv > lo)
		iv = lo;
	else if (ddir_used(p, DDIR_READ) && iv > p->dir_min_bs[DDIR_READ])
		iv = p->dir_min_bs[DDIR_READ];
	*cut = !iv || lo % iv || hi % iv;
	return *cut ? gcd64(lo, hi) : iv;
}

/*
 * fio 3.33's header of mode m: 40 bytes and the mode's checksum field
 * (sha256 and sha512 keep twice their digest; meta none). fio fails a
 * write whose interval is not longer than it ("Blocksize too small").
 */
static unsigned int fio_hdr_size(enum verify_mode m)
{
	switch (m) {
	case VERIFY_SHA256:
		return 40 + 64;
	case VERIFY_SHA512:
		return 40 + 128;
	case VERIFY_XXHASH:
		return 40 + 4;
	case VERIFY_META:
		return 40;
	default:
		return 40 + verify_csum_size(m);
	}
}

/*
 * The interval fio would take cannot hold fio 3.33's header: refused,
 * where fio 3.33 fails the first write (gen r10k 1746, 2573, 6997,
 * 7350). iolite's own header is longer, and its chunks are its own:
 * what decides is fio's (bssplit=65536/50:8KiB/50 verify=sha1 has
 * 64-byte intervals, room for fio 3.33's 60: it runs; gen s40b 517).
 */
static int check_fio_interval(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	bool cut;
	uint64_t iv = fio_interval(p, &cut);
	unsigned int hdr = fio_hdr_size(o->verify);
	const char *opt = o->nr_bssplit[DDIR_WRITE] ? "bssplit" :
			  o->bsrange[DDIR_WRITE].max ? "bsrange" : "bs";

	if (!cut || !ddir_used(p, DDIR_WRITE) || o->bs_unaligned ||
	    iv > hdr + o->verify_offset)
		return 0;
	return plan_fail(p, err, "option '%s': writes of %llu to %llu bytes verify in fio's chunks of their greatest common divisor, %llu, too short for fio's %u-byte header of verify=%s at offset %llu; make the sizes multiples of one chunk",
			 opt, (unsigned long long)p->dir_min_bs[DDIR_WRITE],
			 (unsigned long long)p->dir_max_bs[DDIR_WRITE],
			 (unsigned long long)iv, hdr,
			 verify_mode_name(o->verify),
			 (unsigned long long)o->verify_offset);
}

int verify_plan_check(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;
	unsigned int hdr;
	uint64_t chunk;

	if (o->verify_async_cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		struct strbuf why = STRBUF_INIT;
		cpu_set_t set;

		if (cpulist_parse(o->verify_async_cpus, "cpu",
				  n > 0 ? (unsigned int)n : 1, 0, &set, &why)) {
			plan_fail(p, err, "option 'verify_async_cpus': %s",
				  strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
	}
	if (o->verify == VERIFY_NONE && o->verify_pattern.len)
		o->verify = VERIFY_PATTERN;
	if (o->verify == VERIFY_NONE) {
		if (o->verify_only)
			return plan_fail(p, err, "option 'verify_only' needs verify= (which checksum or pattern to verify)");
		return 0;
	}
	if (o->verify == VERIFY_PATTERN && !o->verify_pattern.len)
		return plan_fail(p, err, "option 'verify': 'pattern' needs verify_pattern= (the bytes to check)");
	if (o->verify_only && o->time_based)
		return plan_fail(p, err, "option 'verify_only' does not work with time_based (nothing says how far to verify)");
	/* fio 3.33 aborts on such a job (a trim from a job that does not trim) */
	if (o->trim_backlog && o->trim_percentage && ddir_used(p, DDIR_WRITE) &&
	    !ddir_used(p, DDIR_TRIM))
		return plan_fail(p, err, "option 'trim_backlog': verify trims need a job that trims (rw=trimwrite or randtrimwrite)");
	hdr = verify_hdr_size(o->verify);
	if (!hdr)
		return 0;
	/* an interval past a block's end: the block is one chunk (fio) */
	chunk = o->verify_interval && o->verify_interval < p->min_bs ?
		o->verify_interval : p->min_bs;
	if (chunk < hdr + o->verify_offset) {
		if (o->verify_offset)
			return plan_fail(p, err, "option 'verify_offset': %llu leaves no room for the %u-byte header of verify=%s in %llu-byte chunks",
				    (unsigned long long)o->verify_offset, hdr,
				    verify_mode_name(o->verify),
				    (unsigned long long)chunk);
		return plan_fail(p, err, "option '%s': %llu bytes cannot hold the %u-byte header of verify=%s",
			    chunk < p->min_bs ? "verify_interval" : "bs",
			    (unsigned long long)chunk, hdr,
			    verify_mode_name(o->verify));
	}
	return check_fio_interval(p, err);
}

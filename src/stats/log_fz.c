/* SPDX-License-Identifier: MIT */
/*
 * fio's compressed logs (log_store_compressed, .fz files) and
 * --inflate-log. fio's .fz files hold its in-memory samples, in host
 * byte order, in zlib streams one after the other: time (ms), value,
 * ddir with flag bits, priority, block size, and with log_offset the
 * offset. A stream holds log_compression bytes of samples (1 MiB by
 * default); an empty log is one empty stream, as fio writes it.
 */
#include "stats/log_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "util/log.h"

#define FZ_OFFSET_BIT 0x80000000u
#define FZ_PRIO_BIT 0x40000000u
#define FZ_DDIR_MASK 0x1fu
#define FZ_SAMPLE 32u		/* bytes; + 8 with the offset */

void log_fz_flush(struct log_file *lf)
{
#ifdef HAVE_ZLIB
	uLongf n = compressBound((uLong)lf->raw_len);
	unsigned char *out = xmalloc(n);

	if (compress2(out, &n, lf->raw ? lf->raw : out, (uLong)lf->raw_len,
		      Z_DEFAULT_COMPRESSION) != Z_OK) {
		if (!lf->err)
			lf->err = ENOMEM;
	} else {
		log_out_write(lf, out, n);
	}
	free(out);
#endif
	lf->raw_len = 0;
	lf->streams++;
}

void log_fz_sample(struct log_file *lf, uint64_t t_ms, uint64_t value,
		   unsigned int ddir, uint64_t bs, const uint64_t *offset,
		   bool prio_hex, unsigned int prio_val)
{
	unsigned char rec[FZ_SAMPLE + 8];
	uint32_t d = ddir | (prio_hex ? FZ_PRIO_BIT : 0);
	uint16_t prio = (uint16_t)prio_val;
	size_t len = FZ_SAMPLE;

	memset(rec, 0, sizeof(rec));
	if (offset) {
		d |= FZ_OFFSET_BIT;
		memcpy(rec + FZ_SAMPLE, offset, 8);
		len += 8;
	}
	memcpy(rec, &t_ms, 8);
	memcpy(rec + 8, &value, 8);
	memcpy(rec + 16, &d, 4);
	memcpy(rec + 20, &prio, 2);
	memcpy(rec + 24, &bs, 8);
	if (!lf->raw)
		lf->raw = xmalloc(lf->chunk + sizeof(rec));
	memcpy(lf->raw + lf->raw_len, rec, len);
	lf->raw_len += len;
	if (lf->raw_len + len > lf->chunk)
		log_fz_flush(lf);
}

/* --- --inflate-log ------------------------------------------------------ */

#ifdef HAVE_ZLIB
/* Every zlib stream of the file, one after the other, into out. */
static int inflate_all(const unsigned char *in, size_t len,
		       struct strbuf *out, struct strbuf *err)
{
	unsigned char buf[64 * 1024];

	while (len) {
		z_stream z;
		int ret;

		memset(&z, 0, sizeof(z));
		if (inflateInit(&z) != Z_OK) {
			strbuf_addstr(err, "zlib: cannot start inflating");
			return -1;
		}
		z.next_in = (unsigned char *)in;
		z.avail_in = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			ret = inflate(&z, Z_NO_FLUSH);
			strbuf_add(out, buf, sizeof(buf) - z.avail_out);
		} while (ret == Z_OK);
		inflateEnd(&z);
		if (ret != Z_STREAM_END) {
			strbuf_addf(err, "not a complete zlib stream at byte %zu",
				    (size_t)(z.next_in - in) + 0);
			return -1;
		}
		len -= (size_t)(z.next_in - in);
		in = z.next_in;
	}
	return 0;
}

/* One sample of the decoded streams at s (len bytes left): its size. */
static size_t decode_sample(const unsigned char *s, size_t len,
			    struct log_entry *e)
{
	uint32_t d;
	uint16_t prio;

	if (len < FZ_SAMPLE)
		return 0;
	memcpy(&d, s + 16, 4);
	if ((d & FZ_OFFSET_BIT) && len < FZ_SAMPLE + 8)
		return 0;
	memcpy(&e->t_ms, s, 8);
	memcpy(&e->value, s + 8, 8);
	memcpy(&prio, s + 20, 2);
	memcpy(&e->bs, s + 24, 8);
	e->ddir = d & FZ_DDIR_MASK;
	e->has_offset = d & FZ_OFFSET_BIT;
	e->offset = 0;
	if (e->has_offset)
		memcpy(&e->offset, s + FZ_SAMPLE, 8);
	e->prio_hex = d & FZ_PRIO_BIT;
	/* without log_prio: the flag, a real-time class (ioprio class 1) */
	e->prio = e->prio_hex ? prio : (prio >> 13) == 1;
	return FZ_SAMPLE + (e->has_offset ? 8 : 0);
}

#endif

int log_fz_each(const char *path,
		int (*fn)(void *arg, const struct log_entry *e), void *arg,
		struct strbuf *err)
{
#ifdef HAVE_ZLIB
	struct strbuf in = STRBUF_INIT, raw = STRBUF_INIT;
	size_t off = 0;
	int ret = strbuf_read_file(&in, path);

	if (ret) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(-ret));
		ret = -1;
		goto out;
	}
	ret = -1;
	if (inflate_all((const unsigned char *)in.buf, in.len, &raw, err)) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "'%s': %s", path, strbuf_str(err));
		strbuf_reset(err);
		strbuf_addstr(err, strbuf_str(&msg));
		strbuf_release(&msg);
		goto out;
	}
	while (off < raw.len) {
		struct log_entry e;
		size_t sz = decode_sample((const unsigned char *)raw.buf + off,
					  raw.len - off, &e);

		if (!sz)
			break;
		ret = fn(arg, &e);
		if (ret)
			goto out;
		ret = -1;
		off += sz;
	}
	if (off != raw.len) {
		strbuf_addf(err, "'%s': %zu bytes at the end are not a whole "
			    "log record", path, raw.len - off);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&in);
	strbuf_release(&raw);
	return ret;
#else
	strbuf_addf(err, "cannot inflate '%s': this build has no zlib: "
		    "install zlib1g-dev (or zlib-devel) and rebuild", path);
	(void)fn, (void)arg;
	return -1;
#endif
}

static int print_sample(void *arg, const struct log_entry *e)
{
	FILE *out = arg;

	fprintf(out, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", ", e->t_ms,
		e->value, e->ddir, e->bs);
	if (e->has_offset)
		fprintf(out, "%" PRIu64 ", ", e->offset);
	if (e->prio_hex)
		fprintf(out, "0x%04x\n", e->prio);
	else
		fprintf(out, "%u\n", e->prio);
	return 0;
}

int log_inflate(const char *path, FILE *out, struct strbuf *err)
{
	return log_fz_each(path, print_sample, out, err);
}

/* SPDX-License-Identifier: MIT */
#include "util/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The bytes being parsed: grown as needed, up to PATTERN_LIMIT. */
struct pbuf {
	unsigned char *b;
	size_t len, cap;
};

static int grow(struct pbuf *pb, size_t need)
{
	size_t cap = pb->cap ? pb->cap : PATTERN_INLINE;
	unsigned char *nb;

	if (need > PATTERN_LIMIT)
		return -1;
	while (cap < need)
		cap *= 2;
	if (cap > PATTERN_LIMIT)
		cap = PATTERN_LIMIT;
	if (cap == pb->cap)
		return 0;
	nb = realloc(pb->b, cap);
	if (!nb)
		return -1;
	pb->b = nb;
	pb->cap = cap;
	return 0;
}

static int put(struct pbuf *pb, unsigned char c)
{
	if (pb->len >= pb->cap && grow(pb, pb->len + 1))
		return -1;
	pb->b[pb->len++] = c;
	return 0;
}

/* "0x..." at s: hex bytes in text order. Returns chars used or -1. */
static int parse_hex(const char *s, struct pbuf *pb)
{
	const char *q = s + 2;
	size_t n = 0, i;

	while (hexval((unsigned char)q[n]) >= 0)
		n++;
	if (!n)
		return -1;
	i = 0;
	if (n % 2) {
		/* an odd count: the first digit is a byte of its own */
		if (put(pb, (unsigned char)hexval((unsigned char)q[0])))
			return -2;
		i = 1;
	}
	for (; i < n; i += 2)
		if (put(pb, (unsigned char)(hexval((unsigned char)q[i]) << 4 |
					    hexval((unsigned char)q[i + 1]))))
			return -2;
	return (int)(n + 2);
}

/* A decimal number at s, ending where "0x" starts (-120x1 is -12, 0x1). */
static int parse_dec(const char *s, struct pbuf *pb)
{
	char num[16];
	size_t n = (*s == '-' || *s == '+'), d = 0;
	long long v;
	unsigned long long u;
	unsigned int nb, i;

	while (isdigit((unsigned char)s[n + d]) &&
	       !(d && s[n + d] == '0' && (s[n + d + 1] == 'x' ||
					  s[n + d + 1] == 'X')))
		d++;
	if (!d || n + d >= sizeof(num))
		return -1;
	memcpy(num, s, n + d);
	num[n + d] = '\0';
	errno = 0;
	v = strtoll(num, NULL, 10);
	if (errno || v < INT_MIN || v > INT_MAX)
		return -1;
	if (v < 0) {
		u = (uint32_t)(int32_t)v;
		nb = 4;
	} else {
		u = (unsigned long long)v;
		for (nb = 1; nb < 4 && (u >> (8 * nb)); nb++)
			;
	}
	for (i = 0; i < nb; i++)
		if (put(pb, (unsigned char)(u >> (8 * i))))
			return -2;
	return (int)(n + d);
}

/*
 * 'name' at q: the file's bytes, as many as the pattern's limit leaves
 * room for. Returns chars used, or -1 with a message.
 */
static int parse_file(const char *q, const char *s, struct pbuf *pb,
		      struct strbuf *err)
{
	const char *e = strchr(q + 1, '\'');
	char path[PATH_MAX];
	size_t n = 0, got;
	FILE *f;

	if (!e || e == q + 1 || (size_t)(e - q - 1) >= sizeof(path)) {
		strbuf_addf(err, "invalid pattern '%s': %s file name at '%s'",
			    s, e ? "bad" : "unterminated", q);
		return -1;
	}
	memcpy(path, q + 1, (size_t)(e - q - 1));
	path[e - q - 1] = '\0';
	f = fopen(path, "rb");
	if (!f) {
		strbuf_addf(err, "invalid pattern '%s': cannot open '%s': %s",
			    s, path, strerror(errno));
		return -1;
	}
	do {
		if (pb->len >= pb->cap && grow(pb, pb->len + 1))
			break;
		got = fread(pb->b + pb->len, 1, pb->cap - pb->len, f);
		pb->len += got;
		n += got;
	} while (got);
	if (ferror(f) || !n) {
		strbuf_addf(err, "invalid pattern '%s': %s '%s'", s,
			    n ? "cannot read" : "nothing in", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return (int)(e - q) + 1;
}

/* Patterns longer than the inline buffer: kept until the process ends. */
static struct ext_pattern {
	struct ext_pattern *next;
	unsigned char b[];
} *ext_patterns;

static int pattern_store(struct byte_pattern *p, const struct pbuf *pb)
{
	struct ext_pattern *x;

	p->len = (uint32_t)pb->len;
	if (pb->len <= PATTERN_INLINE) {
		memcpy(p->buf, pb->b, pb->len);
		return 0;
	}
	x = malloc(sizeof(*x) + pb->len);
	if (!x)
		return -1;
	memcpy(x->b, pb->b, pb->len);
	x->next = ext_patterns;
	ext_patterns = x;
	p->ext = x->b;
	return 0;
}

static int parse_string(const char *q, const char *s, struct pbuf *pb,
			struct strbuf *err)
{
	const char *e = strchr(q + 1, '"');
	int n;

	if (!e) {
		strbuf_addf(err, "invalid pattern '%s': unterminated string at '%s'",
			    s, q);
		return -1;
	}
	for (n = 1; q + n < e; n++)
		if (put(pb, (unsigned char)q[n]))
			return -2;
	return (int)(e - q) + 1;
}

static int parse_piece(const char *q, const char *s, struct byte_pattern *p,
		       struct pbuf *pb, struct strbuf *err)
{
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		return parse_hex(q, pb);
	if (*q == '-' || *q == '+' || isdigit((unsigned char)*q))
		return parse_dec(q, pb);
	if (*q == '"')
		return parse_string(q, s, pb, err);
	if (*q == '\'')
		return parse_file(q, s, pb, err);
	if (q[0] == '%' && q[1] == 'o') {
		if (p->nr_fmt >= PATTERN_FMT_MAX) {
			strbuf_addf(err, "invalid pattern '%s': more than %d %%o",
				    s, PATTERN_FMT_MAX);
			return -1;
		}
		p->fmt_pos[p->nr_fmt++] = (uint32_t)pb->len;
		for (int i = 0; i < 8; i++)
			if (put(pb, 0))
				return -2;
		return 2;
	}
	strbuf_addf(err, "invalid pattern '%s' at '%s' (expected 0x..., a 32-bit number, \"text\", 'file' or %%o)",
		    s, q);
	return -1;
}

int pattern_parse(const char *s, struct byte_pattern *p, struct strbuf *err)
{
	struct pbuf pb = { 0 };
	const char *q = s;
	int n = 0;

	memset(p, 0, sizeof(*p));
	if (!*s) {
		strbuf_addstr(err, "empty pattern");
		return -1;
	}
	while (*q) {
		size_t had = err->len;

		n = parse_piece(q, s, p, &pb, err);
		if (n == -2) {
			strbuf_addf(err, "invalid pattern '%s': longer than %u bytes",
				    s, PATTERN_LIMIT);
			break;
		}
		if (n < 0) {
			if (err->len == had)
				strbuf_addf(err, "invalid pattern '%s' at '%s' (expected 0x..., a 32-bit number, \"text\", 'file' or %%o)",
					    s, q);
			break;
		}
		q += n;
	}
	if (n >= 0 && !pb.len) {
		strbuf_addf(err, "invalid pattern '%s': no bytes", s);
		n = -1;
	}
	if (n >= 0 && pattern_store(p, &pb)) {
		strbuf_addf(err, "invalid pattern '%s': out of memory", s);
		n = -1;
	}
	free(pb.b);
	return n < 0 ? -1 : 0;
}

static const unsigned char *bytes_of(const struct byte_pattern *p)
{
	return p->ext ? p->ext : p->buf;
}

void pattern_format(const struct byte_pattern *p, struct strbuf *out)
{
	const unsigned char *b = bytes_of(p);
	unsigned int i = 0, f = 0;
	int in_hex = 0;

	while (i < p->len) {
		if (f < p->nr_fmt && p->fmt_pos[f] == i) {
			strbuf_addstr(out, "%o");
			in_hex = 0;
			i += 8;
			f++;
			continue;
		}
		if (!in_hex)
			strbuf_addstr(out, "0x");
		in_hex = 1;
		strbuf_addf(out, "%02x", b[i++]);
	}
}

/* The first n bytes (n <= p->len) of one repetition, %o = offset. */
static void pattern_rep(const struct byte_pattern *p, unsigned char *rep,
			size_t n, uint64_t offset)
{
	unsigned int f, i;

	memcpy(rep, bytes_of(p), n);
	for (f = 0; f < p->nr_fmt; f++)
		for (i = 0; i < 8 && p->fmt_pos[f] + i < n; i++)
			rep[p->fmt_pos[f] + i] = (unsigned char)(offset >> (8 * i));
}

void pattern_fill(const struct byte_pattern *p, void *buf, size_t len,
		  uint64_t offset)
{
	unsigned char *b = buf;
	size_t done;

	if (!len)
		return;
	done = len < p->len ? len : p->len;
	pattern_rep(p, b, done, offset);
	/* double what is there: a few large copies, not len / p->len small */
	for (; done < len; done *= 2)
		memcpy(b + done, b, done < len - done ? done : len - done);
}

long pattern_check(const struct byte_pattern *p, const void *buf, size_t len,
		   size_t skip, uint64_t offset, unsigned char *want)
{
	const unsigned char *b = buf, *rep = bytes_of(p);
	unsigned char small[PATTERN_INLINE], *own = NULL;
	size_t i = skip, k;
	long ret = -1;

	if (p->nr_fmt) {	/* the offset pasted in: a copy of its own */
		own = p->len <= sizeof(small) ? small : malloc(p->len);
		if (!own)
			abort();
		pattern_rep(p, own, p->len, offset);
		rep = own;
	}
	k = skip % p->len;
	while (i < len) {
		size_t n = p->len - k, j;

		if (n > len - i)
			n = len - i;
		/* one memcmp per repetition; bytes only on a mismatch */
		if (memcmp(b + i, rep + k, n)) {
			for (j = 0; b[i + j] == rep[k + j]; j++)
				;
			*want = rep[k + j];
			ret = (long)(i + j);
			break;
		}
		i += n;
		k = 0;
	}
	if (own != small)
		free(own);
	return ret;
}

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

static int put(struct byte_pattern *p, unsigned char c)
{
	if (p->len >= PATTERN_MAX)
		return -1;
	p->buf[p->len++] = c;
	return 0;
}

/* "0x..." at s: hex bytes in text order. Returns chars used or -1. */
static int parse_hex(const char *s, struct byte_pattern *p)
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
		if (put(p, (unsigned char)hexval((unsigned char)q[0])))
			return -2;
		i = 1;
	}
	for (; i < n; i += 2)
		if (put(p, (unsigned char)(hexval((unsigned char)q[i]) << 4 |
					   hexval((unsigned char)q[i + 1]))))
			return -2;
	return (int)(n + 2);
}

static int parse_dec(const char *s, struct byte_pattern *p)
{
	char *end;
	long long v;
	unsigned long long u;
	unsigned int nb, i;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno || v < INT_MIN || v > INT_MAX)
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
		if (put(p, (unsigned char)(u >> (8 * i))))
			return -2;
	return (int)(end - s);
}

/*
 * 'name' at q: the file's bytes, as many as fit (fio reads no more than
 * the pattern holds either). Returns chars used, or -1 with a message.
 */
static int parse_file(const char *q, const char *s, struct byte_pattern *p,
		      struct strbuf *err)
{
	const char *e = strchr(q + 1, '\'');
	char path[PATH_MAX];
	size_t n, room = PATTERN_MAX - p->len;
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
	n = fread(p->buf + p->len, 1, room, f);
	if (ferror(f) || !n) {
		strbuf_addf(err, "invalid pattern '%s': %s '%s'", s,
			    n ? "cannot read" : "nothing in", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	p->len = (uint16_t)(p->len + n);
	return (int)(e - q) + 1;
}

int pattern_parse(const char *s, struct byte_pattern *p, struct strbuf *err)
{
	const char *q = s;

	memset(p, 0, sizeof(*p));
	if (!*s) {
		strbuf_addstr(err, "empty pattern");
		return -1;
	}
	while (*q) {
		int n;

		if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
			n = parse_hex(q, p);
		} else if (*q == '-' || *q == '+' ||
			   isdigit((unsigned char)*q)) {
			n = parse_dec(q, p);
		} else if (*q == '"') {
			const char *e = strchr(q + 1, '"');

			if (!e) {
				strbuf_addf(err, "invalid pattern '%s': unterminated string at '%s'",
					    s, q);
				return -1;
			}
			for (n = 1; q + n < e; n++)
				if (put(p, (unsigned char)q[n]))
					break;
			n = q + n < e ? -2 : (int)(e - q) + 1;
		} else if (q[0] == '%' && q[1] == 'o') {
			if (p->nr_fmt >= PATTERN_FMT_MAX) {
				strbuf_addf(err, "invalid pattern '%s': more than %d %%o",
					    s, PATTERN_FMT_MAX);
				return -1;
			}
			p->fmt_pos[p->nr_fmt++] = p->len;
			n = 2;
			for (int i = 0; i < 8 && n > 0; i++)
				if (put(p, 0))
					n = -2;
		} else if (*q == '\'') {
			n = parse_file(q, s, p, err);
			if (n == -1)
				return -1;
		} else {
			n = -1;
		}
		if (n == -2) {
			strbuf_addf(err, "invalid pattern '%s': longer than %d bytes",
				    s, PATTERN_MAX);
			return -1;
		}
		if (n < 0) {
			strbuf_addf(err, "invalid pattern '%s' at '%s' (expected 0x..., a 32-bit number, \"text\" or %%o)",
				    s, q);
			return -1;
		}
		q += n;
	}
	if (!p->len) {
		strbuf_addf(err, "invalid pattern '%s': no bytes", s);
		return -1;
	}
	return 0;
}

void pattern_format(const struct byte_pattern *p, struct strbuf *out)
{
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
		strbuf_addf(out, "%02x", p->buf[i++]);
	}
}

/* One repetition with the offset pasted in, into rep (PATTERN_MAX). */
static void pattern_rep(const struct byte_pattern *p, unsigned char *rep,
			uint64_t offset)
{
	unsigned int f, i;

	memcpy(rep, p->buf, p->len);
	for (f = 0; f < p->nr_fmt; f++)
		for (i = 0; i < 8; i++)
			rep[p->fmt_pos[f] + i] = (unsigned char)(offset >> (8 * i));
}

void pattern_fill(const struct byte_pattern *p, void *buf, size_t len,
		  uint64_t offset)
{
	unsigned char *b = buf;
	size_t done;

	if (!len)
		return;
	if (len <= p->len) {
		unsigned char rep[PATTERN_MAX];

		pattern_rep(p, rep, offset);
		memcpy(b, rep, len);
		return;
	}
	pattern_rep(p, b, offset);
	/* double what is there: a few large copies, not len / p->len small */
	for (done = p->len; done < len; done *= 2)
		memcpy(b + done, b, done < len - done ? done : len - done);
}

long pattern_check(const struct byte_pattern *p, const void *buf, size_t len,
		   size_t skip, uint64_t offset, unsigned char *want)
{
	const unsigned char *b = buf;
	unsigned char rep[PATTERN_MAX];
	size_t i = skip, k;

	pattern_rep(p, rep, offset);
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
			return (long)(i + j);
		}
		i += n;
		k = 0;
	}
	return -1;
}

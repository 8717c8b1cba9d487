/* SPDX-License-Identifier: MIT */
/*
 * AWS signature version 4 and the digests of the http engine
 * (engine/http_sign.h). The steps are AWS's: a canonical request (method,
 * encoded path, query, the headers sorted by name, their names, the
 * body's hash), a string to sign (algorithm, date, scope, the canonical
 * request's hash), a key derived by HMAC-SHA256 from the secret through
 * the date, region, service and "aws4_request", and the signature, the
 * HMAC of the string to sign under that key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/http_sign.h"

#ifdef HAVE_LIBCRYPTO
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

static void hex(const unsigned char *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = 0;
}

void http_base64(const void *p, size_t n, struct strbuf *out)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 |
			     b[i + 2];

		strbuf_addch(out, tab[v >> 18]);
		strbuf_addch(out, tab[(v >> 12) & 63]);
		strbuf_addch(out, tab[(v >> 6) & 63]);
		strbuf_addch(out, tab[v & 63]);
	}
	if (i < n) {
		uint32_t v = (uint32_t)b[i] << 16 |
			     (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0);

		strbuf_addch(out, tab[v >> 18]);
		strbuf_addch(out, tab[(v >> 12) & 63]);
		strbuf_addch(out, i + 1 < n ? tab[(v >> 6) & 63] : '=');
		strbuf_addch(out, '=');
	}
}

void sigv4_uri_encode(const char *path, struct strbuf *out)
{
	const unsigned char *c;

	for (c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
		    (*c >= '0' && *c <= '9') || strchr("-._~/", *c))
			strbuf_addch(out, (char)*c);
		else
			strbuf_addf(out, "%%%02X", *c);
	}
}

#ifdef HAVE_LIBCRYPTO
static int digest(const EVP_MD *md, const void *p, size_t n,
		  unsigned char *out, unsigned int *len)
{
	return EVP_Digest(p, n, out, len, md, NULL) == 1 ? 0 : -1;
}

/* out: the digest of p in hex. */
static int digest_hex(const EVP_MD *md, const void *p, size_t n, char *out)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int len;

	if (digest(md, p, n, d, &len))
		return -1;
	hex(d, len, out);
	return 0;
}

int http_sha256_hex(const void *p, size_t n, char out[65])
{
	return digest_hex(EVP_sha256(), p, n, out);
}

int http_md5_hex(const void *p, size_t n, char out[33])
{
	return digest_hex(EVP_md5(), p, n, out);
}

int http_md5_base64(const void *p, size_t n, struct strbuf *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len;

	if (digest(EVP_md5(), p, n, md, &len))
		return -1;
	http_base64(md, len, out);
	return 0;
}

/* md = HMAC-SHA256(key, s); 32 bytes. */
static int hmac(const void *key, size_t klen, const char *s,
		unsigned char md[32])
{
	unsigned int len = 32;

	return HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)s,
		    strlen(s), md, &len) ? 0 : -1;
}

static int cmp_header(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, ":"), ny = strcspn(y, ":");
	int c = strncmp(x, y, nx < ny ? nx : ny);

	return c ? c : (nx > ny) - (nx < ny);
}

/* The headers sorted by name: "name:value\n" each, and "a;b;c". */
static void canonical_headers(const char *const *h, struct strbuf *lines,
			      struct strbuf *names)
{
	size_t n = 0, i;
	const char **v;

	while (h[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	memcpy(v, h, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_header);
	for (i = 0; i < n; i++) {
		const char *colon = strchr(v[i], ':');
		const char *val = colon ? colon + 1 : "";
		size_t nl = colon ? (size_t)(colon - v[i]) : strlen(v[i]);
		size_t vl;

		while (*val == ' ' || *val == '\t')
			val++;
		vl = strlen(val);
		while (vl && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
			vl--;
		strbuf_add(lines, v[i], nl);
		strbuf_addch(lines, ':');
		strbuf_add(lines, val, vl);
		strbuf_addch(lines, '\n');
		if (i)
			strbuf_addch(names, ';');
		strbuf_add(names, v[i], nl);
	}
	free(v);
}

/* The signing key, then the signature of sts, in hex. */
static int signature(const struct sigv4_req *r, const char *sts,
		     char sig[65])
{
	unsigned char md[32];
	char date[9];
	struct strbuf k = STRBUF_INIT;
	int ret;

	snprintf(date, sizeof(date), "%.8s", r->amz_date);
	strbuf_addf(&k, "AWS4%s", r->secret);
	ret = hmac(k.buf, k.len, date, md) ||
	      hmac(md, 32, r->region, md) ||
	      hmac(md, 32, r->service, md) ||
	      hmac(md, 32, "aws4_request", md) ||
	      hmac(md, 32, sts, md);
	strbuf_release(&k);
	if (ret)
		return -1;
	hex(md, 32, sig);
	return 0;
}

int sigv4_sign(const struct sigv4_req *r, struct strbuf *auth,
	       struct strbuf *creq, struct strbuf *sts)
{
	struct strbuf c = STRBUF_INIT, s = STRBUF_INIT, names = STRBUF_INIT;
	char chash[65], sig[65];
	int ret = -1;

	strbuf_addf(&c, "%s\n", r->method);
	sigv4_uri_encode(r->path, &c);
	strbuf_addf(&c, "\n%s\n", r->query ? r->query : "");
	canonical_headers(r->headers, &c, &names);
	strbuf_addf(&c, "\n%s\n%s", strbuf_str(&names), r->payload_sha256);
	if (http_sha256_hex(c.buf, c.len, chash))
		goto out;
	strbuf_addf(&s, "AWS4-HMAC-SHA256\n%s\n%.8s/%s/%s/aws4_request\n%s",
		    r->amz_date, r->amz_date, r->region, r->service, chash);
	if (signature(r, strbuf_str(&s), sig))
		goto out;
	strbuf_addf(auth, "AWS4-HMAC-SHA256 Credential=%s/%.8s/%s/%s/"
		    "aws4_request,SignedHeaders=%s,Signature=%s", r->keyid,
		    r->amz_date, r->region, r->service, strbuf_str(&names),
		    sig);
	if (creq)
		strbuf_addstr(creq, strbuf_str(&c));
	if (sts)
		strbuf_addstr(sts, strbuf_str(&s));
	ret = 0;
out:
	strbuf_release(&c);
	strbuf_release(&s);
	strbuf_release(&names);
	return ret;
}
#else
int http_sha256_hex(const void *p, size_t n, char out[65])
{
	out[0] = 0;
	return -1;
}

int http_md5_hex(const void *p, size_t n, char out[33])
{
	out[0] = 0;
	return -1;
}

int http_md5_base64(const void *p, size_t n, struct strbuf *out)
{
	return -1;
}

int sigv4_sign(const struct sigv4_req *r, struct strbuf *auth,
	       struct strbuf *creq, struct strbuf *sts)
{
	(void)hex;
	return -1;
}
#endif

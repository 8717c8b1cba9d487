/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_HTTP_SIGN_H
#define IOLITE_ENGINE_HTTP_SIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/*
 * The http engine's request signing: AWS signature version 4 (S3) and
 * the digests S3 and Swift send (SHA-256 and MD5 in hex, base64). Pure
 * functions of their input (the date is given), so that AWS's published
 * examples test them (t/unit/http_sign.c). Written here, not curl's
 * CURLOPT_AWS_SIGV4: curl 7.88 signs only the headers it knows of its
 * own, and a body it streams (a PUT from the I/O buffer) goes unsigned,
 * where S3 wants the body's SHA-256 in x-amz-content-sha256 and fio signs
 * the storage class and the SSE headers too. Needs libcrypto
 * (HAVE_LIBCRYPTO): without it every call fails and returns -1, and the
 * option checks refuse http_mode=s3 and swift before that.
 */

/* A request to sign; headers are "name:value", names in lower case. */
struct sigv4_req {
	const char *method;	/* "GET", "PUT" ... */
	const char *path;	/* the URL's path, not yet encoded */
	const char *query;	/* canonical query string, or "" */
	const char *const *headers;	/* NULL-terminated, any order */
	const char *payload_sha256;	/* hex of the body's SHA-256 */
	const char *amz_date;	/* YYYYMMDDTHHMMSSZ */
	const char *region;
	const char *service;	/* "s3" */
	const char *keyid;
	const char *secret;
};

/*
 * Appends the Authorization header's value ("AWS4-HMAC-SHA256
 * Credential=..., SignedHeaders=..., Signature=...") to auth; with creq
 * and sts non-NULL, appends the canonical request and the string to
 * sign there too (for the tests). 0, or -1 without libcrypto.
 */
int sigv4_sign(const struct sigv4_req *r, struct strbuf *auth,
	       struct strbuf *creq, struct strbuf *sts);

/* S3's encoding of a path: all but A-Z a-z 0-9 - . _ ~ / as %XX. */
void sigv4_uri_encode(const char *path, struct strbuf *out);

/* out: 64 hex digits and a NUL. 0, or -1 without libcrypto. */
int http_sha256_hex(const void *p, size_t n, char out[65]);
/* out: the base64 of the MD5 of p. 0, or -1 without libcrypto. */
int http_md5_base64(const void *p, size_t n, struct strbuf *out);
/* out: 32 hex digits and a NUL. 0, or -1 without libcrypto. */
int http_md5_hex(const void *p, size_t n, char out[33]);
void http_base64(const void *p, size_t n, struct strbuf *out);

#endif

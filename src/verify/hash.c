/* SPDX-License-Identifier: MIT */
#include "verify/hash.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBISAL
#include <isa-l/crc.h>
#endif
#ifdef HAVE_LIBCRYPTO
#include <openssl/evp.h>
#endif
#ifdef HAVE_LIBXXHASH
#include <xxhash.h>
#endif
#if defined(__x86_64__) && !defined(HAVE_LIBISAL)
#include <nmmintrin.h>
#endif

#include "opt/verify_opts.h"
#include "verify/crc.h"
#include "util/log.h"
#include "util/strbuf.h"

struct vhash {
	enum verify_mode mode;
#ifdef HAVE_LIBCRYPTO
	EVP_MD_CTX *ctx;
	EVP_MD *md;
#endif
};

/* ---- crc32c: update functions on the raw (uninverted) register ---- */

typedef uint32_t (*crc_fn)(uint32_t crc, const void *buf, size_t len);

#ifdef HAVE_LIBISAL
static uint32_t crc_isal(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	/* crc32_iscsi takes an int length */
	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		crc = crc32_iscsi((unsigned char *)p, (int)n, crc);
		p += n;
		len -= n;
	}
	return crc;
}
#endif

#if defined(__x86_64__) && !defined(HAVE_LIBISAL)
__attribute__((target("sse4.2")))
static uint32_t crc_sse42(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
	}
	crc = (uint32_t)c;
	for (; len; len--, p++)
		crc = _mm_crc32_u8(crc, *p);
	return crc;
}
#endif

#ifndef HAVE_LIBISAL
/* Only where neither ISA-L nor the instruction is there. */
static uint32_t crc_table[256];

static void crc_table_init(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc_soft(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}
#endif

static crc_fn crc_update;
static const char *crc_impl;

static void crc_pick_once(void)
{
#ifdef HAVE_LIBISAL
	crc_impl = "isa-l";
	crc_update = crc_isal;
#else
	crc_table_init();
	crc_impl = "table";
	crc_update = crc_soft;
#ifdef __x86_64__
	if (__builtin_cpu_supports("sse4.2")) {
		crc_impl = "sse4.2";
		crc_update = crc_sse42;
	}
#endif
#endif
}

/* Workers set up in parallel: choose once. */
static void crc_pick(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, crc_pick_once);
}

const char *vhash_crc32c_impl(void)
{
	crc_pick();
	return crc_impl;
}

uint32_t vhash_crc32c(const void *buf, size_t len)
{
	crc_pick();
	return ~crc_update(~0u, buf, len);
}

enum verify_mode vhash_next(enum verify_mode m)
{
	while ((m = (enum verify_mode)(m + 1)) < VERIFY_MODE_NR)
		if (verify_csum_size(m) && !verify_mode_missing_lib(m))
			return m;
	return VERIFY_MODE_NR;
}

/* ---- contexts ---- */

#ifdef HAVE_LIBCRYPTO
/* libcrypto's name of a mode's digest; NULL: not one of its */
static const char *evp_name(enum verify_mode m)
{
	switch (m) {
	case VERIFY_MD5:
		return "MD5";
	case VERIFY_SHA1:
		return "SHA1";
	case VERIFY_SHA256:
		return "SHA256";
	case VERIFY_SHA512:
		return "SHA512";
	case VERIFY_SHA3_224:
		return "SHA3-224";
	case VERIFY_SHA3_256:
		return "SHA3-256";
	case VERIFY_SHA3_384:
		return "SHA3-384";
	case VERIFY_SHA3_512:
		return "SHA3-512";
	default:
		return NULL;
	}
}
#endif

struct vhash *vhash_new(enum verify_mode m)
{
	struct vhash *h;

	if (!verify_csum_size(m))
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->mode = m;
	crc_pick();
#ifdef HAVE_LIBCRYPTO
	{
		const char *name = evp_name(m);

		if (name) {
			/* fetched once: no name lookup per block */
			h->md = EVP_MD_fetch(NULL, name, NULL);
			h->ctx = EVP_MD_CTX_new();
			if (!h->md || !h->ctx)
				BUG("libcrypto has no %s digest", name);
		}
	}
#endif
	return h;
}

void vhash_free(struct vhash *h)
{
	if (!h)
		return;
#ifdef HAVE_LIBCRYPTO
	EVP_MD_CTX_free(h->ctx);
	EVP_MD_free(h->md);
#endif
	free(h);
}

static void put_le(unsigned char *out, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)(v >> (8 * i));
}

/* fio's CRCs over the two ranges, little-endian into out. */
static bool sum_crc(enum verify_mode m, const void *a, size_t alen,
		    const void *b, size_t blen, unsigned char *out)
{
	switch (m) {
	case VERIFY_CRC64:
		put_le(out, crc_fio64(crc_fio64(0, a, alen), b, blen), 8);
		return true;
	case VERIFY_CRC32:
		put_le(out, crc_fio32(crc_fio32(0, a, alen), b, blen), 4);
		return true;
	case VERIFY_CRC16:
		put_le(out, crc_fio16(crc_fio16(0, a, alen), b, blen), 2);
		return true;
	case VERIFY_CRC7:
		out[0] = crc_fio7(crc_fio7(0, a, alen), b, blen);
		return true;
	default:
		return false;
	}
}

void vhash_sum(struct vhash *h, const void *a, size_t alen, const void *b,
	       size_t blen, unsigned char *out)
{
	switch (h->mode) {
	case VERIFY_META:
	case VERIFY_CRC32C: {
		uint32_t c = crc_update(~0u, a, alen);

		/* fio's meta: the header's own fields, not the data */
		if (h->mode == VERIFY_META)
			blen = 0;
		put_le(out, ~crc_update(c, b, blen), 4);
		return;
	}
#ifdef HAVE_LIBXXHASH
	case VERIFY_XXHASH: {
		/* the header's hash seeds the data's: one pass, no state */
		XXH64_hash_t s = XXH3_64bits(a, alen);

		put_le(out, XXH3_64bits_withSeed(b, blen, s), 8);
		return;
	}
#endif
	default:
		break;
	}
	if (sum_crc(h->mode, a, alen, b, blen, out))
		return;
#ifdef HAVE_LIBCRYPTO
	if (h->md) {
		unsigned int n = 0;

		if (!EVP_DigestInit_ex(h->ctx, h->md, NULL) ||
		    !EVP_DigestUpdate(h->ctx, a, alen) ||
		    !EVP_DigestUpdate(h->ctx, b, blen) ||
		    !EVP_DigestFinal_ex(h->ctx, out, &n))
			BUG("libcrypto digest failed");
		return;
	}
#endif
	BUG("no checksum for verify mode %d", (int)h->mode);
}

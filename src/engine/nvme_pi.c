/* SPDX-License-Identifier: MIT */
/*
 * Protection information made and checked by the host (engine/nvme_pi.h),
 * per the NVMe base specification's 16-bit and 64-bit guard formats.
 */
#include "engine/nvme_pi.h"

#include <pthread.h>
#include <string.h>

#include "opt/options.h"

#ifdef HAVE_LIBISAL
#include <isa-l/crc.h>

uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len)
{
	return crc16_t10dif(crc, buf, (uint64_t)len);
}
#else

/* pi_crc16's table: the CRC of each byte value, shifted in high */
static const uint16_t t10dif_table[256] = {
	0x0000, 0x8bb7, 0x9cd9, 0x176e, 0xb205, 0x39b2, 0x2edc, 0xa56b,
	0xefbd, 0x640a, 0x7364, 0xf8d3, 0x5db8, 0xd60f, 0xc161, 0x4ad6,
	0x54cd, 0xdf7a, 0xc814, 0x43a3, 0xe6c8, 0x6d7f, 0x7a11, 0xf1a6,
	0xbb70, 0x30c7, 0x27a9, 0xac1e, 0x0975, 0x82c2, 0x95ac, 0x1e1b,
	0xa99a, 0x222d, 0x3543, 0xbef4, 0x1b9f, 0x9028, 0x8746, 0x0cf1,
	0x4627, 0xcd90, 0xdafe, 0x5149, 0xf422, 0x7f95, 0x68fb, 0xe34c,
	0xfd57, 0x76e0, 0x618e, 0xea39, 0x4f52, 0xc4e5, 0xd38b, 0x583c,
	0x12ea, 0x995d, 0x8e33, 0x0584, 0xa0ef, 0x2b58, 0x3c36, 0xb781,
	0xd883, 0x5334, 0x445a, 0xcfed, 0x6a86, 0xe131, 0xf65f, 0x7de8,
	0x373e, 0xbc89, 0xabe7, 0x2050, 0x853b, 0x0e8c, 0x19e2, 0x9255,
	0x8c4e, 0x07f9, 0x1097, 0x9b20, 0x3e4b, 0xb5fc, 0xa292, 0x2925,
	0x63f3, 0xe844, 0xff2a, 0x749d, 0xd1f6, 0x5a41, 0x4d2f, 0xc698,
	0x7119, 0xfaae, 0xedc0, 0x6677, 0xc31c, 0x48ab, 0x5fc5, 0xd472,
	0x9ea4, 0x1513, 0x027d, 0x89ca, 0x2ca1, 0xa716, 0xb078, 0x3bcf,
	0x25d4, 0xae63, 0xb90d, 0x32ba, 0x97d1, 0x1c66, 0x0b08, 0x80bf,
	0xca69, 0x41de, 0x56b0, 0xdd07, 0x786c, 0xf3db, 0xe4b5, 0x6f02,
	0x3ab1, 0xb106, 0xa668, 0x2ddf, 0x88b4, 0x0303, 0x146d, 0x9fda,
	0xd50c, 0x5ebb, 0x49d5, 0xc262, 0x6709, 0xecbe, 0xfbd0, 0x7067,
	0x6e7c, 0xe5cb, 0xf2a5, 0x7912, 0xdc79, 0x57ce, 0x40a0, 0xcb17,
	0x81c1, 0x0a76, 0x1d18, 0x96af, 0x33c4, 0xb873, 0xaf1d, 0x24aa,
	0x932b, 0x189c, 0x0ff2, 0x8445, 0x212e, 0xaa99, 0xbdf7, 0x3640,
	0x7c96, 0xf721, 0xe04f, 0x6bf8, 0xce93, 0x4524, 0x524a, 0xd9fd,
	0xc7e6, 0x4c51, 0x5b3f, 0xd088, 0x75e3, 0xfe54, 0xe93a, 0x628d,
	0x285b, 0xa3ec, 0xb482, 0x3f35, 0x9a5e, 0x11e9, 0x0687, 0x8d30,
	0xe232, 0x6985, 0x7eeb, 0xf55c, 0x5037, 0xdb80, 0xccee, 0x4759,
	0x0d8f, 0x8638, 0x9156, 0x1ae1, 0xbf8a, 0x343d, 0x2353, 0xa8e4,
	0xb6ff, 0x3d48, 0x2a26, 0xa191, 0x04fa, 0x8f4d, 0x9823, 0x1394,
	0x5942, 0xd2f5, 0xc59b, 0x4e2c, 0xeb47, 0x60f0, 0x779e, 0xfc29,
	0x4ba8, 0xc01f, 0xd771, 0x5cc6, 0xf9ad, 0x721a, 0x6574, 0xeec3,
	0xa415, 0x2fa2, 0x38cc, 0xb37b, 0x1610, 0x9da7, 0x8ac9, 0x017e,
	0x1f65, 0x94d2, 0x83bc, 0x080b, 0xad60, 0x26d7, 0x31b9, 0xba0e,
	0xf0d8, 0x7b6f, 0x6c01, 0xe7b6, 0x42dd, 0xc96a, 0xde04, 0x55b3,
};

uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		crc = (uint16_t)(crc << 8) ^ t10dif_table[(crc >> 8 ^ *p++) & 0xff];
	return crc;
}
#endif

/* the 64-bit guard's polynomial, reflected (0xad93d23594c93659 reversed) */
#define POLY64_NVME_REFL 0x9a6c9329ac4bc9b5ULL

/* t64[k][b]: the CRC of byte b followed by k zero bytes (slice-by-8) */
static uint64_t t64[8][256];

static void crc64_init(void)
{
	for (unsigned int b = 0; b < 256; b++) {
		uint64_t c = b;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ POLY64_NVME_REFL : c >> 1;
		t64[0][b] = c;
	}
	for (unsigned int b = 0; b < 256; b++)
		for (int k = 1; k < 8; k++)
			t64[k][b] = t64[k - 1][b] >> 8 ^
				    t64[0][t64[k - 1][b] & 0xff];
}

uint64_t pi_crc64(uint64_t crc, const void *buf, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const uint8_t *p = buf;

	pthread_once(&once, crc64_init);
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t w;

		memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		w ^= crc;
		crc = t64[7][w & 0xff] ^ t64[6][w >> 8 & 0xff] ^
		      t64[5][w >> 16 & 0xff] ^ t64[4][w >> 24 & 0xff] ^
		      t64[3][w >> 32 & 0xff] ^ t64[2][w >> 40 & 0xff] ^
		      t64[1][w >> 48 & 0xff] ^ t64[0][w >> 56];
	}
	while (len--)
		crc = crc >> 8 ^ t64[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* Block i's data, and its tuple with the bytes of metadata the guard covers. */
struct pi_block {
	const uint8_t *data;
	const uint8_t *md;	/* the metadata's start */
	size_t md_before;	/* metadata bytes before the tuple */
};

/* Where the fields sit in a tuple of each format */
struct pi_fields {
	int guard, app, ref;	/* bytes of each */
};

static struct pi_fields pi_fields(const struct nvme_pi *pi)
{
	if (pi->pif == NVME_PIF_64)
		return (struct pi_fields){ .guard = 8, .app = 2, .ref = 6 };
	return (struct pi_fields){ .guard = 2, .app = 2, .ref = 4 };
}

static struct pi_block pi_block(const struct nvme_pi *pi, const uint8_t *data,
				const uint8_t *md, uint32_t i)
{
	struct pi_block b;

	if (pi->ext) {
		b.data = data + (size_t)i * (pi->lba_size + pi->ms);
		b.md = b.data + pi->lba_size;
	} else {
		b.data = data + (size_t)i * pi->lba_size;
		b.md = md + (size_t)i * pi->ms;
	}
	b.md_before = pi->first ? 0 : pi->ms - nvme_pi_tuple_size(pi->pif);
	return b;
}

static uint64_t pi_guard(const struct nvme_pi *pi, const struct pi_block *b)
{
	if (pi->pif == NVME_PIF_64) {
		uint64_t crc = pi_crc64(0, b->data, pi->lba_size);

		return pi_crc64(crc, b->md, b->md_before);
	}
	return pi_crc16(pi_crc16(0, b->data, pi->lba_size), b->md,
			b->md_before);
}

/* The reference tag of lba: its low 32 or 48 bits, all ones for type 3 */
static uint64_t pi_reftag(const struct nvme_pi *pi, uint64_t lba)
{
	uint64_t mask = (1ULL << 8 * pi_fields(pi).ref) - 1;

	return pi->type == 3 ? mask : lba & mask;
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

void nvme_pi_generate(const struct nvme_pi *pi, uint8_t *data, uint8_t *md,
		      uint32_t nlb, uint64_t slba)
{
	struct pi_fields f = pi_fields(pi);

	for (uint32_t i = 0; i < nlb; i++) {
		struct pi_block b = pi_block(pi, data, md, i);
		uint8_t *t = (uint8_t *)b.md + b.md_before;

		put_be(t, pi_guard(pi, &b), f.guard);
		put_be(t + f.guard, pi->apptag, f.app);
		put_be(t + f.guard + f.app, pi_reftag(pi, slba + i), f.ref);
	}
}

static bool pi_mismatch(struct nvme_pi_error *e, const char *field,
			uint64_t lba, uint64_t expected, uint64_t actual)
{
	e->field = field;
	e->lba = lba;
	e->expected = expected;
	e->actual = actual;
	return false;
}

/* The escape: application tag all ones (type 3: the reference tag too) */
static bool pi_escaped(const struct nvme_pi *pi, uint64_t app, uint64_t ref)
{
	return app == 0xffff &&
	       (pi->type != 3 || ref == pi_reftag(pi, 0));
}

bool nvme_pi_verify(const struct nvme_pi *pi, const uint8_t *data,
		    const uint8_t *md, uint32_t nlb, uint64_t slba,
		    struct nvme_pi_error *e)
{
	struct pi_fields f = pi_fields(pi);

	for (uint32_t i = 0; i < nlb; i++) {
		struct pi_block b = pi_block(pi, data, md, i);
		const uint8_t *t = b.md + b.md_before;
		uint64_t guard = get_be(t, f.guard);
		uint64_t app = get_be(t + f.guard, f.app);
		uint64_t ref = get_be(t + f.guard + f.app, f.ref), want;

		if (pi_escaped(pi, app, ref))
			continue;
		if ((pi->chk & PI_CHK_GUARD) &&
		    guard != (want = pi_guard(pi, &b)))
			return pi_mismatch(e, "guard", slba + i, want, guard);
		if ((pi->chk & PI_CHK_APPTAG) &&
		    (app & pi->apptag_mask) != (pi->apptag & pi->apptag_mask))
			return pi_mismatch(e, "application tag", slba + i,
					   pi->apptag, app);
		if ((pi->chk & PI_CHK_REFTAG) && pi->type != 3 &&
		    ref != (want = pi_reftag(pi, slba + i)))
			return pi_mismatch(e, "reference tag", slba + i, want,
					   ref);
	}
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * fio's crc64, crc32, crc16 and crc7 (see crc.h for the parameters).
 * The tables are the classic byte-at-a-time ones, computed from the
 * polynomial at first use.
 */
#include "verify/crc.h"

#include <pthread.h>

#ifdef HAVE_LIBISAL
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#endif

#define POLY64_REFL 0x95ac9329ac4bc9b5ULL	/* 0xad93d23594c935a9 reversed */
#define POLY32 0x04c11db7u
#define POLY16_REFL 0xa001u			/* 0x8005 reversed */
#define POLY7 0x09u

static uint16_t t16[256];
static uint8_t t7[256];		/* the 7-bit register, kept in bits 7..1 */
#ifndef HAVE_LIBISAL
static uint64_t t64[256];
static uint32_t t32[256];
#endif

static void tables_init(void)
{
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		uint16_t c16 = (uint16_t)i;
		uint8_t c7 = (uint8_t)i;

		for (k = 0; k < 8; k++) {
			c16 = c16 & 1 ? (uint16_t)((c16 >> 1) ^ POLY16_REFL) :
			      (uint16_t)(c16 >> 1);
			c7 = c7 & 0x80 ? (uint8_t)((c7 << 1) ^ (POLY7 << 1)) :
			     (uint8_t)(c7 << 1);
		}
		t16[i] = c16;
		t7[i] = c7;
#ifndef HAVE_LIBISAL
		{
			uint64_t c64 = i;
			uint32_t c32 = (uint32_t)i << 24;

			for (k = 0; k < 8; k++) {
				c64 = c64 & 1 ? (c64 >> 1) ^ POLY64_REFL :
				      c64 >> 1;
				c32 = c32 & 0x80000000u ? (c32 << 1) ^ POLY32 :
				      c32 << 1;
			}
			t64[i] = c64;
			t32[i] = c32;
		}
#endif
	}
}

/* Workers set up in parallel: the tables are made once. */
static void tables(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, tables_init);
}

/*
 * ISA-L's functions invert the CRC they are given and the one they
 * return; fio's CRCs have neither inversion: undone on both sides.
 */
uint64_t crc_fio64(uint64_t crc, const void *buf, size_t len)
{
#ifdef HAVE_LIBISAL
	return ~crc64_jones_refl(~crc, buf, len);
#else
	const unsigned char *p = buf;

	tables();
	while (len--)
		crc = t64[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
#endif
}

uint32_t crc_fio32(uint32_t crc, const void *buf, size_t len)
{
#ifdef HAVE_LIBISAL
	return ~crc32_ieee(~crc, buf, len);
#else
	const unsigned char *p = buf;

	tables();
	while (len--)
		crc = t32[((crc >> 24) ^ *p++) & 0xff] ^ (crc << 8);
	return crc;
#endif
}

uint16_t crc_fio16(uint16_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	tables();
	while (len--)
		crc = (uint16_t)(t16[(crc ^ *p++) & 0xff] ^ (crc >> 8));
	return crc;
}

uint8_t crc_fio7(uint8_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint8_t r = (uint8_t)(crc << 1);

	tables();
	while (len--)
		r = t7[r ^ *p++];
	return (uint8_t)(r >> 1);
}

const char *crc_fio_impl(void)
{
#ifdef HAVE_LIBISAL
	return "isa-l";
#else
	return "table";
#endif
}

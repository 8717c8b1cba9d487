/* SPDX-License-Identifier: MIT */
/*
 * Protection information made and checked by the host (engine/nvme_pi.c):
 * the CRC16 T10-DIF, the tuples' bytes and places (separate metadata,
 * extended LBAs, the tuple first or last), and what a check catches.
 * The CRC values come from a bit-at-a-time Python model of the
 * polynomial 0x8bb7, not from the table the code uses. The 64-bit
 * guard's tuples (the NVMe CRC-64, a 48-bit reference tag) too; its CRC
 * against the NVMe base specification's examples (4 KiB buffers) and
 * the kernel's crc64-rocksoft test vector (4 KiB of zeroes, the same).
 */
#include <string.h>

#include "tap.h"
#include "engine/nvme_pi.h"
#include "opt/options.h"

#define LBA 512
#define ALL (PI_CHK_GUARD | PI_CHK_APPTAG | PI_CHK_REFTAG)

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void test_crc(void)
{
	uint8_t b[LBA];

	ok(pi_crc16(0, "123456789", 9) == 0xd0db,
	   "pi_crc16: the catalogue's check value 0xd0db");
	for (int i = 0; i < LBA; i++)
		b[i] = (uint8_t)(i & 1 ? 0x5b : 0x5a);
	ok(pi_crc16(0, b, LBA) == 0x7d5d, "pi_crc16 of 0x5a5b x 256");
	for (int i = 0; i < LBA; i++)
		b[i] = (uint8_t)i;
	ok(pi_crc16(pi_crc16(0, b, 100), b + 100, LBA - 100) == 0x4f10,
	   "pi_crc16 continues over two pieces (0x00..0xff twice)");
}

static void test_separate(void)
{
	struct nvme_pi pi = {
		.lba_size = LBA, .ms = 8, .type = 1, .apptag = 0x1234,
		.apptag_mask = 0xffff, .chk = ALL,
	};
	uint8_t data[4 * LBA], md[32];
	struct nvme_pi_error e;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i & 1 ? 0x5b : 0x5a);
	nvme_pi_generate(&pi, data, md, 4, 0x1ffffffffULL);
	ok(be(md, 2) == 0x7d5d && be(md + 2, 2) == 0x1234 &&
	   be(md + 4, 4) == 0xffffffff, "block 0: guard, apptag, reftag big-endian");
	ok(be(md + 12, 4) == 0, "block 1: the reference tag is the LBA's low 32 bits");
	ok(nvme_pi_verify(&pi, data, md, 4, 0x1ffffffffULL, &e),
	   "what was made checks");
	data[2 * LBA + 7] ^= 1;
	ok(!nvme_pi_verify(&pi, data, md, 4, 0x1ffffffffULL, &e) &&
	   !strcmp(e.field, "guard") && e.lba == 0x200000001ULL,
	   "a flipped data bit: the guard of its block");
	data[2 * LBA + 7] ^= 1;
	ok(!nvme_pi_verify(&pi, data, md, 4, 0, &e) &&
	   !strcmp(e.field, "reference tag") && e.expected == 0 &&
	   e.actual == 0xffffffff, "another LBA: the reference tag");
	pi.chk = PI_CHK_GUARD | PI_CHK_APPTAG;
	ok(nvme_pi_verify(&pi, data, md, 4, 0, &e),
	   "... not checked without REFTAG");
	pi.apptag = 0x12ff;
	pi.chk = ALL;
	ok(!nvme_pi_verify(&pi, data, md, 4, 0x1ffffffffULL, &e) &&
	   !strcmp(e.field, "application tag") && e.actual == 0x1234,
	   "another apptag: the application tag");
	pi.apptag_mask = 0xff00;
	ok(nvme_pi_verify(&pi, data, md, 4, 0x1ffffffffULL, &e),
	   "... not where apptag_mask leaves its bits out");
	md[2] = md[3] = 0xff;
	data[0] ^= 1;
	pi.apptag_mask = 0xffff;
	ok(!nvme_pi_verify(&pi, data, md, 4, 0x1ffffffffULL, &e) && e.lba == 0x200000000ULL,
	   "block 0 with apptag 0xffff is not checked (block 1 fails)");
}

static void test_extended(void)
{
	struct nvme_pi pi = {
		.lba_size = LBA, .ms = 16, .ext = true, .type = 1,
		.apptag = 0xbeef, .apptag_mask = 0xffff, .chk = ALL,
	};
	uint8_t buf[2 * (LBA + 16)];
	struct nvme_pi_error e;

	memset(buf, 0x5a, sizeof(buf));
	nvme_pi_generate(&pi, buf, NULL, 2, 7);
	ok(be(buf + LBA + 16 + LBA + 8 + 2, 2) == 0xbeef &&
	   be(buf + LBA + 16 + LBA + 8 + 4, 4) == 8,
	   "extended, tuple last: block 1's tuple ends its metadata");
	ok(be(buf + LBA, 8 / 2) == 0x5a5a5a5a, "the metadata before it is left");
	buf[LBA + 3] ^= 1;
	ok(!nvme_pi_verify(&pi, buf, NULL, 2, 7, &e) && e.lba == 7 &&
	   !strcmp(e.field, "guard"),
	   "the guard covers the metadata before the tuple");
	pi.first = true;
	nvme_pi_generate(&pi, buf, NULL, 2, 7);
	ok(be(buf + LBA + 2, 2) == 0xbeef, "tuple first: at the metadata's start");
	buf[LBA + 12] ^= 1;
	ok(nvme_pi_verify(&pi, buf, NULL, 2, 7, &e),
	   "... and the metadata after it is not guarded");
}

static void test_crc64(void)
{
	static uint8_t b[4096];

	ok(pi_crc64(0, "123456789", 9) == 0xae8b14860a799888ULL,
	   "pi_crc64: CRC-64/NVME's check value 0xae8b14860a799888");
	ok(pi_crc64(0, b, sizeof(b)) == 0x6482d367eb22b64eULL,
	   "pi_crc64: 4 KiB of zeroes (NVMe spec; kernel crc64-rocksoft test)");
	memset(b, 0xff, sizeof(b));
	ok(pi_crc64(0, b, sizeof(b)) == 0xc0ddba7302eca3acULL,
	   "pi_crc64: 4 KiB of 0xff (NVMe spec)");
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)i;
	ok(pi_crc64(0, b, sizeof(b)) == 0x3e729f5f6750449cULL,
	   "pi_crc64: 4 KiB of 0x00..0xff (NVMe spec)");
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(0xff - i);
	ok(pi_crc64(0, b, sizeof(b)) == 0x9a2df64b8e9e517eULL,
	   "pi_crc64: 4 KiB of 0xff..0x00 (NVMe spec)");
	for (size_t i = 0; i < 256; i++)
		b[i] = (uint8_t)i;
	ok(pi_crc64(pi_crc64(0, b, 100), b + 100, 156) == 0xff71e21279d9966eULL &&
	   pi_crc64(pi_crc64(0, b, 3), b + 3, 253) == 0xff71e21279d9966eULL,
	   "pi_crc64 continues over two pieces, aligned or not");
}

static void test_guard64(void)
{
	struct nvme_pi pi = {
		.lba_size = LBA, .ms = 16, .type = 1, .pif = NVME_PIF_64,
		.apptag = 0x1234, .apptag_mask = 0xffff, .chk = ALL,
	};
	uint64_t slba = 0xffffffffffffULL;	/* the 48-bit tag wraps */
	uint8_t data[2 * LBA], md[32];
	struct nvme_pi_error e;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i & 1 ? 0x5b : 0x5a);
	nvme_pi_generate(&pi, data, md, 2, slba);
	ok(be(md, 8) == 0x1f65d1aea7ba4537ULL && be(md + 8, 2) == 0x1234 &&
	   be(md + 10, 6) == 0xffffffffffffULL,
	   "64-bit guard: guard 8, apptag 2, reftag 6 bytes, big-endian");
	ok(be(md + 16 + 10, 6) == 0, "block 1: the LBA's low 48 bits");
	ok(nvme_pi_verify(&pi, data, md, 2, slba, &e), "what was made checks");
	data[LBA + 1] ^= 0x80;
	ok(!nvme_pi_verify(&pi, data, md, 2, slba, &e) &&
	   !strcmp(e.field, "guard") && e.lba == slba + 1 &&
	   e.actual == 0x1f65d1aea7ba4537ULL,
	   "a flipped data bit: the 64-bit guard of its block");
	data[LBA + 1] ^= 0x80;
	ok(!nvme_pi_verify(&pi, data, md, 2, 0x1000000000000ULL, &e) &&
	   !strcmp(e.field, "reference tag") && e.expected == 0 &&
	   e.actual == 0xffffffffffffULL,
	   "an LBA past 48 bits compares its low 48");
	pi.type = 3;
	nvme_pi_generate(&pi, data, md, 2, 5);
	ok(be(md + 10, 6) == 0xffffffffffffULL &&
	   nvme_pi_verify(&pi, data, md, 2, 0, &e),
	   "type 3: the reference tag all ones, not checked");
	md[8] = md[9] = 0xff;
	md[15] = 0;
	data[0] ^= 1;
	ok(!nvme_pi_verify(&pi, data, md, 1, 0, &e) &&
	   !strcmp(e.field, "guard"),
	   "type 3: apptag 0xffff escapes only with the reftag all ones");
	md[15] = 0xff;
	ok(nvme_pi_verify(&pi, data, md, 1, 0, &e), "... which it does");
}

static void test_guard64_ext(void)
{
	struct nvme_pi pi = {
		.lba_size = LBA, .ms = 32, .ext = true, .type = 1,
		.pif = NVME_PIF_64, .apptag = 0xbeef, .apptag_mask = 0xffff,
		.chk = ALL,
	};
	uint8_t buf[2 * (LBA + 32)];
	uint8_t *t1 = buf + LBA + 32 + LBA + 16;
	struct nvme_pi_error e;

	memset(buf, 0x5a, sizeof(buf));
	nvme_pi_generate(&pi, buf, NULL, 2, 7);
	ok(be(t1, 8) == 0x329c54b0fa112e5dULL && be(t1 + 8, 2) == 0xbeef &&
	   be(t1 + 10, 6) == 8,
	   "64-bit guard, extended, tuple last: over the data and the 16 bytes before it");
	pi.first = true;
	nvme_pi_generate(&pi, buf, NULL, 2, 7);
	ok(be(buf + LBA, 8) == 0x070d59de60cf31c5ULL &&
	   be(buf + LBA + 10, 6) == 7,
	   "tuple first: at the metadata's start, the guard over the data");
	buf[LBA + 20] ^= 1;
	ok(nvme_pi_verify(&pi, buf, NULL, 2, 7, &e),
	   "... and the metadata after it is not guarded");
}

int main(void)
{
	diag("16-bit guard format, T10 DIF tuples");
	test_crc();
	test_separate();
	test_extended();
	diag("64-bit guard format");
	test_crc64();
	test_guard64();
	test_guard64_ext();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * Protection information made and checked by the host (engine/nvme_pi.c):
 * the CRC16 T10-DIF, the tuples' bytes and places (separate metadata,
 * extended LBAs, the tuple first or last), and what a check catches.
 * The CRC values come from a bit-at-a-time Python model of the
 * polynomial 0x8bb7, not from the table the code uses.
 */
#include <string.h>

#include "tap.h"
#include "engine/nvme_pi.h"
#include "opt/options.h"

#define LBA 512
#define ALL (PI_CHK_GUARD | PI_CHK_APPTAG | PI_CHK_REFTAG)

static uint32_t be(const uint8_t *p, int n)
{
	uint32_t v = 0;

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

int main(void)
{
	diag("16-bit guard format, T10 DIF tuples");
	test_crc();
	test_separate();
	test_extended();
	return done_testing();
}

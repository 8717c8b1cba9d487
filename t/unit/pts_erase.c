/* SPDX-License-Identifier: MIT */
/*
 * The purge's commands as bytes (pts/erase.c), against hand-made
 * figures: ATA PASS-THROUGH (16) CDBs as SAT lays them out (the same
 * bytes sg3_utils' sg_sat_identify sends for IDENTIFY), the security
 * word of IDENTIFY DEVICE, the password sector, NVMe Sanitize's action
 * and its status log.
 */
#include <string.h>

#include "tap.h"
#include "pts/erase.h"

static void put_word(uint8_t *id, unsigned int w, unsigned int v)
{
	id[2 * w] = v & 0xff;
	id[2 * w + 1] = v >> 8;
}

static void cdbs(void)
{
	static const uint8_t ident[16] = {
		0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x40, 0xec, 0
	};
	static const uint8_t erase[16] = {
		0x85, 0x0a, 0x06, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x40, 0xf4, 0
	};
	static const uint8_t prep[16] = {
		0x85, 0x06, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0xf3, 0
	};
	uint8_t c[16];

	ata_cdb(c, ATA_IDENTIFY, ATA_PIO_IN);
	if (!ok(!memcmp(c, ident, 16), "IDENTIFY: PIO in, one sector, 0xec"))
		diag("%02x %02x %02x", c[0], c[1], c[2]);
	ata_cdb(c, ATA_SEC_ERASE_UNIT, ATA_PIO_OUT);
	ok(!memcmp(c, erase, 16), "SECURITY ERASE UNIT: PIO out, one sector");
	ata_cdb(c, ATA_SEC_ERASE_PREPARE, ATA_NODATA);
	ok(!memcmp(c, prep, 16), "SECURITY ERASE PREPARE: no data");
}

static void security_word(void)
{
	uint8_t id[512];
	struct ata_sec s;

	memset(id, 0, sizeof(id));
	put_word(id, 82, 0x746b);	/* bit 1 set, as real drives have */
	put_word(id, 128, 0x0021);	/* supported, enhanced erase */
	put_word(id, 89, 0x0002);	/* 4 minutes */
	put_word(id, 90, 0x8010);	/* extended format: 32 minutes */
	ata_sec_parse(id, &s);
	ok(s.supported && !s.enabled && !s.locked && !s.frozen &&
	   !s.expired && s.enhanced, "word 128 0x0021: supported, enhanced");
	ok(s.erase_min == 4 && s.enh_min == 32, "erase times: 2 x 2 and "
	   "2 x 16 minutes (word 90 in the extended format)");

	put_word(id, 128, 0x0009);	/* supported, frozen */
	put_word(id, 89, 0x00ff);	/* "more than 508 minutes" */
	ata_sec_parse(id, &s);
	ok(s.supported && s.frozen && !s.enabled && s.erase_min == 0,
	   "0x0009: frozen; 0xff: no estimate");
	put_word(id, 128, 0x0007);
	ata_sec_parse(id, &s);
	ok(s.enabled && s.locked, "0x0007: enabled and locked");
	put_word(id, 82, 0x0000);
	ata_sec_parse(id, &s);
	ok(!s.supported, "word 82 bit 1 clear: no security feature set");
	put_word(id, 82, 0xffff);
	put_word(id, 128, 0xffff);
	ata_sec_parse(id, &s);
	ok(!s.supported, "0xffff: the words are not valid");
}

static void password(void)
{
	uint8_t b[512], want[512];

	memset(want, 0, sizeof(want));
	memcpy(want + 2, "abc", 3);
	ata_pw_sector(b, "abc", false);
	ok(!memcmp(b, want, 512), "the user password in words 1-16, "
	   "word 0 zero");
	want[0] = 2;
	ata_pw_sector(b, "abc", true);
	ok(!memcmp(b, want, 512), "enhanced erase: word 0 bit 1");
	ata_pw_sector(b, "0123456789abcdef0123456789abcdefXYZ", false);
	ok(b[33] == 'f' && b[34] == 0, "at most 32 bytes of password");
}

static void sanitize(void)
{
	uint8_t log[20];
	unsigned int prog;

	ok(nvme_sanact(0x7) == SANACT_BLOCK && nvme_sanact(0x3) ==
	   SANACT_BLOCK, "block erase first");
	ok(nvme_sanact(0x1) == SANACT_CRYPTO, "crypto erase else");
	ok(nvme_sanact(0x4) == 0 && nvme_sanact(0) == 0,
	   "overwrite only, or nothing: none");
	ok(nvme_sanitize_cdw10(SANACT_BLOCK) == 2 &&
	   nvme_sanitize_cdw10(SANACT_CRYPTO) == 4, "CDW10: SANACT alone");

	memset(log, 0, sizeof(log));
	log[0] = 0x40;		/* SPROG 16704 (0x4140) */
	log[1] = 0x41;
	log[2] = 0x02;		/* in progress */
	log[12] = 0x2c;		/* block erase: 300 s */
	log[13] = 0x01;
	memset(log + 16, 0xff, 4);	/* crypto erase: no estimate */
	ok(nvme_sanitize_state(log, &prog) == 1 && prog == 16704,
	   "SSTAT 2: in progress, SPROG read");
	ok(nvme_sanitize_estimate(log, SANACT_BLOCK) == 300 &&
	   nvme_sanitize_estimate(log, SANACT_CRYPTO) == 0,
	   "estimates: 300 s; 0xffffffff is none");
	log[0] = log[1] = 0xff;
	log[2] = 0x01;		/* 0x101: done, one sanitize since */
	log[3] = 0x01;
	ok(nvme_sanitize_state(log, &prog) == 0 && prog == 65535,
	   "SSTAT 0x101: done");
	log[2] = 0x04;
	ok(nvme_sanitize_state(log, &prog) == 0, "SSTAT 4: done, no "
	   "deallocation");
	log[2] = 0x03;
	ok(nvme_sanitize_state(log, &prog) == -1, "SSTAT 3: failed");
	log[2] = 0x00;
	ok(nvme_sanitize_state(log, &prog) == -1, "SSTAT 0: never ran");
}

int main(void)
{
	cdbs();
	security_word();
	password();
	sanitize();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
 * The purge's commands as bytes (pts/erase.h): ATA PASS-THROUGH (16)
 * CDBs and the security sectors, from the ATA/ATAPI command set and
 * SAT; NVMe Sanitize's action and status log, from NVM Express.
 */
#include <string.h>

#include "pts/erase.h"

static unsigned int word(const uint8_t *id, unsigned int w)
{
	return id[2 * w] | id[2 * w + 1] << 8;
}

/* words 89, 90: 2-minute units; bit 15 set: 15 bits, else 8 */
static unsigned int erase_minutes(unsigned int w)
{
	unsigned int v = w & 0x8000 ? w & 0x7fff : w & 0xff;

	/* the largest value says "longer than that": unknown */
	if (v == (w & 0x8000 ? 0x7fffu : 0xffu))
		return 0;
	return 2 * v;
}

void ata_sec_parse(const uint8_t id[512], struct ata_sec *s)
{
	unsigned int w82 = word(id, 82), w128 = word(id, 128);

	memset(s, 0, sizeof(*s));
	/* word 82 bit 1: the security feature set; 0xffff: not valid */
	s->supported = w82 != 0xffff && (w82 & 2) && (w128 & 1);
	s->enabled = w128 & 2;
	s->locked = w128 & 4;
	s->frozen = w128 & 8;
	s->expired = w128 & 16;
	s->enhanced = w128 & 32;
	s->erase_min = erase_minutes(word(id, 89));
	s->enh_min = erase_minutes(word(id, 90));
}

void ata_cdb(uint8_t cdb[16], uint8_t cmd, enum ata_proto p)
{
	memset(cdb, 0, 16);
	cdb[0] = 0x85;			/* ATA PASS-THROUGH (16) */
	cdb[1] = (uint8_t)(p << 1);	/* protocol; no 48-bit fields */
	if (p == ATA_PIO_IN)
		cdb[2] = 0x0e;	/* T_DIR in, blocks, count in SECTOR COUNT */
	else if (p == ATA_PIO_OUT)
		cdb[2] = 0x06;	/* T_DIR out, blocks, count in SECTOR COUNT */
	/* no data: no transfer fields; GOOD status is success */
	if (p != ATA_NODATA)
		cdb[6] = 1;	/* one sector */
	cdb[13] = 0x40;		/* DEVICE: LBA mode */
	cdb[14] = cmd;
}

void ata_pw_sector(uint8_t buf[512], const char *pw, bool enhanced)
{
	size_t n = strlen(pw);

	memset(buf, 0, 512);
	/* word 0: bit 0 clear, the user password; bit 1: enhanced erase */
	buf[0] = enhanced ? 2 : 0;
	memcpy(buf + 2, pw, n > 32 ? 32 : n);	/* words 1-16 */
}

unsigned int nvme_sanact(uint32_t sanicap)
{
	if (sanicap & 2)
		return SANACT_BLOCK;
	if (sanicap & 1)
		return SANACT_CRYPTO;
	return 0;
}

uint32_t nvme_sanitize_cdw10(unsigned int a)
{
	return a & 7;	/* AUSE 0: a failed sanitize must be recovered */
}

int nvme_sanitize_state(const uint8_t log[20], unsigned int *progress)
{
	unsigned int st = (log[2] | log[3] << 8) & 7;

	*progress = log[0] | log[1] << 8;
	switch (st) {
	case 2:
		return 1;		/* in progress */
	case 1:
	case 4:
		return 0;		/* done (4: without deallocation) */
	default:
		return -1;	/* 0: never sanitized; 3: failed */
	}
}

uint32_t nvme_sanitize_estimate(const uint8_t log[20], unsigned int a)
{
	unsigned int off = a == SANACT_BLOCK ? 12 : a == SANACT_CRYPTO ? 16 : 8;
	uint32_t v = log[off] | log[off + 1] << 8 | log[off + 2] << 16 |
		     (uint32_t)log[off + 3] << 24;

	return v == 0xffffffffu ? 0 : v;
}

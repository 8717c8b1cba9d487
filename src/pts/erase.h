/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PTS_ERASE_H
#define IOLITE_PTS_ERASE_H

/*
 * The purge's commands as bytes (pure: no device; t/unit/pts_erase.c):
 * ATA Secure Erase through SCSI's ATA PASS-THROUGH (16) (SAT), and NVMe
 * Sanitize's choice of action and its status log. ata.c and nvme.c send
 * them.
 */

#include <stdbool.h>
#include <stdint.h>

/* ATA commands of the security feature set, and IDENTIFY DEVICE */
#define ATA_IDENTIFY 0xec
#define ATA_SEC_SET_PASSWORD 0xf1
#define ATA_SEC_ERASE_PREPARE 0xf3
#define ATA_SEC_ERASE_UNIT 0xf4
#define ATA_SEC_DISABLE_PASSWORD 0xf6

/* ATA PASS-THROUGH protocols (SAT) */
enum ata_proto { ATA_NODATA = 3, ATA_PIO_IN = 4, ATA_PIO_OUT = 5 };

/* The security state IDENTIFY DEVICE reports (words 82, 89, 90, 128). */
struct ata_sec {
	bool supported, enabled, locked, frozen, expired, enhanced;
	unsigned int erase_min, enh_min;	/* minutes; 0: not given */
};

/* id: IDENTIFY DEVICE's 512 bytes, as the device sent them */
void ata_sec_parse(const uint8_t id[512], struct ata_sec *s);

/*
 * ATA PASS-THROUGH (16) for an ATA command cmd with protocol p: one
 * 512-byte sector in or out for the PIO ones, none for ATA_NODATA.
 */
void ata_cdb(uint8_t cdb[16], uint8_t cmd, enum ata_proto p);

/*
 * The sector of SECURITY SET PASSWORD, ERASE UNIT and DISABLE PASSWORD:
 * the user password pw (at most 32 bytes, zero-padded); enhanced: the
 * erase's enhanced mode (ERASE UNIT only).
 */
void ata_pw_sector(uint8_t buf[512], const char *pw, bool enhanced);

/* NVMe Sanitize */
#define SANACT_BLOCK 2
#define SANACT_CRYPTO 4
/*
 * The action for Identify Controller's SANICAP: block erase where the
 * controller has it (every block back to its erased state, as a new
 * drive's), else crypto erase; 0 for none.
 */
unsigned int nvme_sanact(uint32_t sanicap);
/* the Sanitize command's CDW10 for action a (deallocate after: NDAS 0) */
uint32_t nvme_sanitize_cdw10(unsigned int a);
/*
 * The Sanitize Status log's first 20 bytes: 1 in progress, 0 done, -1
 * failed (or never started); *progress: 0..65535 of 65536.
 */
int nvme_sanitize_state(const uint8_t log[20], unsigned int *progress);
/* the log's estimate for action a, in seconds; 0: none given */
uint32_t nvme_sanitize_estimate(const uint8_t log[20], unsigned int a);

#endif

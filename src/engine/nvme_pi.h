/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_NVME_PI_H
#define IOLITE_ENGINE_NVME_PI_H

/*
 * End-to-end protection information (NVMe's 16-bit guard format, T10
 * DIF's tuple: guard, application tag, reference tag, big-endian) made
 * and checked on the host, for io_uring_cmd with pi_act=0: the guard is
 * the CRC16 T10-DIF of each block's data (and of the metadata before the
 * tuple when the tuple ends the metadata), the application tag is
 * apptag, the reference tag the block's LBA (types 1 and 2).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvme_pi {
	uint32_t lba_size;	/* data bytes per block */
	uint32_t ms;		/* metadata bytes per block (8 or more) */
	bool ext;		/* metadata after each block's data, inline */
	bool first;		/* the tuple starts the metadata (DPS bit 3) */
	unsigned int type;	/* 1, 2 or 3 */
	uint16_t apptag, apptag_mask;
	unsigned int chk;	/* PI_CHK_*: the fields a read checks */
};

/*
 * CRC16 T10-DIF (polynomial 0x8bb7, no reflection) of buf, from crc:
 * ISA-L's (folding with carry-less multiplies) when iolite has it.
 */
uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len);

/*
 * Writes the tuples of nlb blocks from slba: in data (extended) or md
 * (a separate buffer of nlb * ms bytes).
 */
void nvme_pi_generate(const struct nvme_pi *pi, uint8_t *data, uint8_t *md,
		      uint32_t nlb, uint64_t slba);

/* What a failed nvme_pi_verify() found. */
struct nvme_pi_error {
	const char *field;	/* "guard", "application tag", "reference tag" */
	uint64_t lba;
	uint32_t expected, actual;
};

/*
 * Checks the fields pi->chk names of nlb blocks read from slba; blocks
 * whose application tag is 0xffff are not checked (the escape value).
 * true, or false with the first mismatch in e.
 */
bool nvme_pi_verify(const struct nvme_pi *pi, const uint8_t *data,
		    const uint8_t *md, uint32_t nlb, uint64_t slba,
		    struct nvme_pi_error *e);

#endif

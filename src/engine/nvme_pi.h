/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_NVME_PI_H
#define IOLITE_ENGINE_NVME_PI_H

/*
 * End-to-end protection information made and checked on the host, for
 * io_uring_cmd with pi_act=0, in the NVMe base specification's two
 * guard formats that have no storage tag, each a big-endian tuple:
 *   16-bit guard (T10 DIF's, 8 bytes): guard 2, application tag 2,
 *          reference tag 4; the guard the CRC16 T10-DIF
 *   64-bit guard (16 bytes): guard 8, application tag 2, reference tag
 *          6 (48 bits); the guard the NVMe CRC-64 (the kernel's
 *          crc64-rocksoft)
 * The guard covers each block's data (and the metadata before the tuple
 * when the tuple ends the metadata), the application tag is apptag, the
 * reference tag the block's LBA (types 1 and 2; all ones for type 3).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The guard formats (PIF in the extended LBA format); 1 is the 32-bit one */
#define NVME_PIF_16 0
#define NVME_PIF_64 2

/* The bytes of a tuple in guard format pif */
static inline uint32_t nvme_pi_tuple_size(unsigned int pif)
{
	return pif == NVME_PIF_16 ? 8 : 16;
}

struct nvme_pi {
	uint32_t lba_size;	/* data bytes per block */
	uint32_t ms;		/* metadata bytes per block (8 or more) */
	bool ext;		/* metadata after each block's data, inline */
	bool first;		/* the tuple starts the metadata (DPS bit 3) */
	unsigned int type;	/* 1, 2 or 3 */
	unsigned int pif;	/* guard format: NVME_PIF_16 or NVME_PIF_64 */
	uint16_t apptag, apptag_mask;
	unsigned int chk;	/* PI_CHK_*: the fields a read checks */
};

/*
 * CRC16 T10-DIF (polynomial 0x8bb7, no reflection) of buf, from crc:
 * ISA-L's (folding with carry-less multiplies) when iolite has it.
 */
uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len);

/*
 * The NVMe CRC-64 of the 64-bit guard (polynomial 0xad93d23594c93659,
 * reflected, initial value and final xor all ones: CRC-64/NVME, the
 * kernel's crc64_rocksoft), of buf: pass 0 to start, the last result
 * to go on over the next range. Slice-by-8 tables made at first use.
 */
uint64_t pi_crc64(uint64_t crc, const void *buf, size_t len);

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
	uint64_t expected, actual;
};

/*
 * Checks the fields pi->chk names of nlb blocks read from slba; blocks
 * whose application tag is 0xffff are not checked (the escape value;
 * type 3 wants the reference tag all ones too).
 * true, or false with the first mismatch in e.
 */
bool nvme_pi_verify(const struct nvme_pi *pi, const uint8_t *data,
		    const uint8_t *md, uint32_t nlb, uint64_t slba,
		    struct nvme_pi_error *e);

#endif

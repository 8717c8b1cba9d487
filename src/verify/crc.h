/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_CRC_H
#define IOLITE_VERIFY_CRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CRCs of fio's verify=crc64, crc32, crc16 and crc7, with fio's exact
 * parameters (found by checking the checksums fio 3.33 stores in its
 * blocks against these definitions; the catalogue names and check values
 * of "123456789" are given):
 *
 *   crc64  poly 0xad93d23594c935a9 reflected, init 0, no final xor
 *          (CRC-64/REDIS, check 0xe9c6d914c4b8d9ca)
 *   crc32  poly 0x04c11db7 MSB first, init 0, no final xor
 *          (check 0x89a1897f)
 *   crc16  poly 0x8005 reflected, init 0, no final xor
 *          (CRC-16/ARC, check 0xbb3d)
 *   crc7   poly 0x09 MSB first, init 0, no final xor
 *          (CRC-7/MMC, check 0x75)
 *
 * ISA-L computes crc64 and crc32 when the build has it; otherwise, and
 * for crc16 and crc7 (ISA-L has neither polynomial), byte-wise tables
 * made once. Each function continues a CRC: pass 0 to start, the last
 * result to go on over the next range.
 */
uint64_t crc_fio64(uint64_t crc, const void *buf, size_t len);
uint32_t crc_fio32(uint32_t crc, const void *buf, size_t len);
uint16_t crc_fio16(uint16_t crc, const void *buf, size_t len);
uint8_t crc_fio7(uint8_t crc, const void *buf, size_t len);

/* Where crc64 and crc32 come from in this build: "isa-l" or "table". */
const char *crc_fio_impl(void);

#endif

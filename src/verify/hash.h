/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_HASH_H
#define IOLITE_VERIFY_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt/options.h"

/*
 * Checksums for verify=, from well-kept libraries: crc32c from ISA-L when
 * the build has it, else the CPU's crc32 instruction (SSE4.2), else a
 * table; fio's crc64, crc32, crc16 and crc7 (verify/crc.h: ISA-L or
 * tables); md5, sha1, sha256, sha512 and sha3-* from OpenSSL's
 * libcrypto; xxhash is XXH3-64 from libxxhash; meta is crc32c over the
 * header alone (fio's meta checks no data). A build without a library
 * refuses the mode at parse time (opt/verify_opts.c), so the worker
 * never meets a missing one.
 *
 * One context per worker, made at setup: hashing a block allocates
 * nothing (the digest context is reused).
 */

#define VHASH_MAX 64	/* sha512 */

struct vhash;

/* Allocates the context for mode m (NULL for modes without a checksum). */
struct vhash *vhash_new(enum verify_mode m);
void vhash_free(struct vhash *h);

/*
 * Checksum of the two byte ranges a, b taken as one message (the header
 * fields, then the data after the header), written to out
 * (verify_csum_size(m) bytes; crc32c and xxhash little-endian).
 */
void vhash_sum(struct vhash *h, const void *a, size_t alen, const void *b,
	       size_t blen, unsigned char *out);

/*
 * The checksums this build computes, in the order of enum verify_mode:
 * vhash_next(VERIFY_NONE) is the first, VERIFY_MODE_NR follows the last.
 * For --crctest, so its list is the one verify= has.
 */
enum verify_mode vhash_next(enum verify_mode prev);

/* Which crc32c code this build and CPU use: "isa-l", "sse4.2", "table". */
const char *vhash_crc32c_impl(void);

/* Standard CRC-32C (Castagnoli) of one buffer: init ~0, final xor ~0. */
uint32_t vhash_crc32c(const void *buf, size_t len);

#endif

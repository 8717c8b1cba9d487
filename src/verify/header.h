/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_HEADER_H
#define IOLITE_VERIFY_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/options.h"
#include "verify/hash.h"

/*
 * The header stamped at the start of every verified chunk of a written
 * block (a chunk is the block, or verify_interval bytes of it). On disk,
 * little-endian:
 *
 *    0  magic    u32  "IOLB"
 *    4  version  u8   1
 *    5  mode     u8   enum verify_mode of the checksum
 *    6  hdr_len  u16  this header and its checksum, rounded up to 8
 *    8  len      u32  bytes of the chunk, header included
 *   12  job      u32  job instance index of the writer
 *   16  file     u32  index of the file in the writer's file list
 *   20  pad      u32  0
 *   24  offset   u64  byte offset of the chunk in its file
 *   32  seed     u64  the writer's verify seed (from randseed)
 *   40  seq      u64  which write of the job this was (0, 1, 2 ...)
 *   48  csum          verify_csum_size(mode) bytes, then zero padding
 *
 * The checksum covers bytes 0..47 and the data after the header: a flipped
 * bit anywhere is a checksum mismatch. A self-consistent chunk with the
 * wrong offset is a misplaced write; with the wrong job, file, seed or
 * sequence number a stale or foreign one (a lost write leaves the older
 * block). The data of a chunk is a pseudo-random stream of (seed, offset,
 * seq), or verify_pattern, so the expected block can be rebuilt.
 */

#define VERIFY_MAGIC 0x424c4f49u	/* "IOLB" as little-endian bytes */
#define VERIFY_VERSION 1
#define VERIFY_HDR_FIXED 48

struct verify_hdr {
	uint32_t magic;
	uint8_t version;
	uint8_t mode;
	uint16_t hdr_len;
	uint32_t len;
	uint32_t job;
	uint32_t file;
	uint32_t pad;
	uint64_t offset;
	uint64_t seed;
	uint64_t seq;
};

/* What a chunk should hold, as the verifier knows it. */
struct vexpect {
	uint64_t offset;	/* of the chunk */
	uint32_t len;
	uint32_t job, file;
	uint64_t seed, seq;
	bool known;	/* job, file, seed, seq known (a replay or this run) */
	bool any_writer;	/* verify_header_seed=0: job, file, seed not checked */
	bool any_seq;	/* verify_write_sequence=0: seq not checked */
};

enum vhdr_result {
	VH_OK,
	VH_MAGIC,	/* no header there */
	VH_MODE,	/* written with another verify= */
	VH_CSUM,	/* checksum mismatch: corrupted */
	VH_LEN,
	VH_OFFSET,	/* misplaced */
	VH_WRITER,	/* another job or file wrote it */
	VH_STALE,	/* an older (or other) write of this job */
};

/* Writes the header of one chunk (len bytes at chunk, data in place). */
void vhdr_stamp(struct vhash *h, enum verify_mode m, unsigned int hdr_len,
		void *chunk, const struct vexpect *e);

/*
 * Checks one chunk against e. Fills *got with the header read (host
 * order) and, for VH_CSUM, want / have with the stored and the computed
 * checksum (VHASH_MAX bytes each).
 */
enum vhdr_result vhdr_check(struct vhash *h, enum verify_mode m,
			    unsigned int hdr_len, const void *chunk,
			    const struct vexpect *e, struct verify_hdr *got,
			    unsigned char *want, unsigned char *have);

/* Decodes the fixed part of a header from disk order. */
void vhdr_decode(const void *chunk, struct verify_hdr *out);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_BUFFER_H
#define IOLITE_WORKLOAD_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opt/plan.h"

/*
 * The bytes a job writes: its buffers' first contents, what each write
 * does to its buffer, and the data a layout writes into the files a job
 * reads. The rules are fio 3.33's, as its files show them:
 *
 * Contents, when a buffer is filled (at the start, for every write with
 * refilling, for every block of a layout), the first that applies:
 * - buffer_compress_percentage=N (1..99) or dedupe_percentage=M: mixed.
 *   Each chunk (buffer_compress_chunk, at most the smallest write block;
 *   0: the smallest write block) is random for its first 100-N percent
 *   and fixed for the rest: buffer_pattern, else zeroes. M percent of
 *   the fills (drawn at random) repeat an earlier block: with
 *   dedupe_mode=repeat the last new one (workload/buffer.c: what follows
 *   it too, as fio 3.33's), with working_set one of the
 *   job's first dedupe_working_set_percentage * size / bs new blocks
 *   (the working set; with dedupe_global the sharing jobs' first blocks,
 *   an equal share from each). dedupe_percentage=100: every chunk the
 *   same. buffer_compress_percentage=100 is zero_buffers.
 * - buffer_pattern: the pattern, repeated from the buffer's first byte.
 * - zero_buffers: zeroes.
 * - else random: a new block every fill.
 * The contents are one stream per job (workload/buffer.c): the layout reads
 * its start, the job's buffers go on from there, so the working set is
 * the first blocks whoever wrote them.
 *
 * Per write (the worker; verify writes its own blocks):
 * - refill: filled as above. With refill_buffers; by default when
 *   buffer_compress_percentage is 1..99 (refill_buffers=0 given keeps
 *   the buffers); dedupe_percentage, given at all, sets refill_buffers
 *   where it stands, and buffer_pattern sets it when the job reads or
 *   compresses (opt/buffer_opts.c; a later refill_buffers wins).
 * - else scramble, unless buffer_compress_percentage or dedupe_percentage
 *   was given at all: every 512-byte sector of the write gets its offset
 *   and the write's number stamped in, so that no two sectors written
 *   are alike (scramble_buffers=1, the default; zero_buffers turns it
 *   off unless scramble_buffers is given; buffer_pattern turns it off
 *   where it stands).
 * - else the buffer as it is: its first contents, or what a read left.
 */

/* What each write does to its buffer (decided once per job). */
enum buf_write {
	BUF_KEEP,	/* nothing */
	BUF_SCRAMBLE,	/* buffer_scramble() */
	BUF_REFILL,	/* buffer_fill_write() */
};

struct buf_fill;

/*
 * Sets up job p's buffers: *mode says what each write does, the nr
 * buffers of buf_size bytes at mem get their first contents (when the
 * job writes: else *mode is BUF_KEEP and they are zeroed), and *out
 * is the fill state (NULL unless *mode is BUF_REFILL). start: where the
 * layout left the job's stream (job_files.fill_drawn). Free with
 * buffer_fill_free().
 */
void buffer_fill_init(struct buf_fill **out, enum buf_write *mode,
		      const struct job_plan *p, uint64_t start, void *mem,
		      size_t buf_size, unsigned int nr);

/* The contents of the next write of len bytes, into buf. */
void buffer_fill_write(struct buf_fill *bf, void *buf, size_t len);

void buffer_fill_free(struct buf_fill *bf);

/*
 * The layout's contents for plans[i]'s files (a layout writes what the
 * job's buffers would hold, a fill per block of blk bytes: the job's
 * largest write block): a fill state at the start of the job's stream.
 * plans: all nr jobs (dedupe_global's shares).
 */
struct buf_fill *buffer_layout_new(const struct job_plan *plans,
				   unsigned int nr, unsigned int i,
				   size_t *blk);

/* True when every block of a layout holds the same bytes (zero, pattern). */
bool buffer_fill_static(const struct buf_fill *bf);

/* Where the job's stream is now (for job_files.fill_drawn). */
uint64_t buffer_fill_drawn(const struct buf_fill *bf);

/*
 * Before the run: the places of the dedupe_global jobs that share a
 * working set (dedupe_percentage and dedupe_mode=working_set) among the
 * nr plans: sets their dedupe_rank and dedupe_ranks.
 */
void buffer_dedupe_link(struct job_plan *const *plans, unsigned int nr);

/*
 * The key of job p's scrambling: from randseed, so a run writes the
 * same bytes as the last one (fio stamps the time: its runs differ).
 */
uint64_t buffer_scramble_key(const struct job_plan *p);

/*
 * scramble_buffers: stamps each whole 512-byte sector of a write of len
 * bytes at off with the sector's offset and the write's number seq, so
 * that no sector repeats another, in this write or any other (a write of
 * less than a sector is left alone, as fio does). Little of the buffer
 * changes, and with words as plain as fio's (an offset; the number and
 * 32 bits of a hash of it and the job's key, the same in every sector of
 * the write), so the data compresses as fio's does: the offset goes in
 * the 64 bytes the hash picks, the number and hash at the end of the
 * first 64.
 */
static inline void buffer_scramble(void *buf, size_t len, uint64_t off,
				   uint64_t seq, uint64_t key)
{
	unsigned char *s = buf, *end = s + (len & ~(size_t)511);
	uint64_t h = (seq ^ key) * 0x9E3779B97F4A7C15ULL, tag = (uint32_t)h;
	size_t line = (size_t)(h >> 61) * 64;

	for (; s < end; s += 512, off += 512) {
		memcpy(s + line, &off, 8);
		memcpy(s + 48, &seq, 8);
		memcpy(s + 56, &tag, 8);
	}
}

#endif

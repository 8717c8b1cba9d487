/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_BUFFER_H
#define IOLITE_RUN_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * Write buffer contents beyond the worker's own defaults (random data,
 * zero_buffers, refill_buffers, scramble_buffers, which stay in
 * run/worker.c): buffer_pattern, buffer_compress_percentage with
 * buffer_compress_chunk, dedupe_percentage with dedupe_mode and
 * dedupe_working_set_percentage. Semantics, as fio's:
 *
 * - buffer_pattern alone: every buffer holds the pattern, repeated from
 *   its first byte; refilled for each write only when the job also reads
 *   (a read overwrites the buffer) or refill_buffers is set.
 * - buffer_compress_percentage=N: each chunk of a write (chunk bytes, or
 *   the whole block when 0) is random for its first 100-N percent and
 *   zeroes (or buffer_pattern) for the rest, so that the data compresses
 *   to about 100-N percent of its size. Refilled for every write.
 * - dedupe_percentage=N: N percent of the writes (drawn at random) repeat
 *   an earlier block: with dedupe_mode=repeat the last unique one, with
 *   working_set one drawn from a set of dedupe_working_set_percentage of
 *   size / block size blocks. The others are new. Refilled for every
 *   write; each block's contents follow from a 64-bit seed, so nothing is
 *   kept but seeds.
 * - dedupe_global with working_set: the jobs that set it share one working
 *   set, of the sum of their shares (buffer_dedupe_link()), so their
 *   deduplicated writes repeat each other's blocks too. With repeat it
 *   changes nothing, as in fio.
 *
 * The fill runs off the I/O loop's fast path: the worker calls
 * buffer_fill_write() only when buffer_fill_init() asked for refills.
 */

struct buf_fill;

/*
 * Sets up the contents p's options ask for and fills the nr buffers of
 * buf_size bytes at mem with them. *out is NULL (and nothing is touched)
 * when none of the options above is set: the worker's defaults apply.
 * seed: the job's buffer PRNG seed. Returns 0 or -ENOMEM with a message.
 * Free with buffer_fill_free().
 */
int buffer_fill_init(struct buf_fill **out, const struct job_plan *p,
		     uint64_t seed, void *mem, size_t buf_size,
		     unsigned int nr, struct strbuf *err);

/* True when every write must go through buffer_fill_write(). */
bool buffer_fill_refills(const struct buf_fill *bf);

/* The contents of the next write of len bytes, into buf. */
void buffer_fill_write(struct buf_fill *bf, void *buf, size_t len);

void buffer_fill_free(struct buf_fill *bf);

/*
 * Before the run: the shared working set of the nr plans' dedupe_global
 * jobs (dedupe_percentage and dedupe_mode=working_set): sets their
 * dedupe_ws_global to the sum of their working sets' blocks.
 */
void buffer_dedupe_link(struct job_plan *const *plans, unsigned int nr);

#endif

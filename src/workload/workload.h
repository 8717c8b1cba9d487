/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_WORKLOAD_H
#define IOLITE_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The workload says WHAT the next I/O is: file, offset, length and
 * direction. Decisions that don't change per I/O (rw mode, fixed bs,
 * random map or not, distribution) are made in workload_init() by picking
 * specialised functions; workload_next() is then a few integer operations
 * (one PRNG step for random offsets without a map, O(1) with the map).
 */

struct workload;

/*
 * Builds the workload for one job instance over its files (regions in
 * engine_file io_offset/io_size). Seeds follow randrepeat/randseed: with
 * randrepeat=1 (default) the same job gives the same sequence run to run.
 * Returns 0 or -1 with a message in err. Allocates; workload_free() frees.
 */
int workload_init(struct workload **out, const struct job_plan *p,
		  const struct engine_file *files, unsigned int nr_files,
		  struct strbuf *err);
void workload_free(struct workload *w);

/*
 * Fills u->file, u->offset, u->len, u->ddir for the next I/O.
 * Returns 0, or 1 when this pass over the region is complete (every block
 * of a size-bound job issued once: the io_size budget is spent). The
 * worker then stops, or calls workload_rewind() for the next loop or,
 * for time_based jobs, to wrap around.
 */
int workload_next(struct workload *w, struct io_u *u);

/* Starts a new pass: sequential offsets back to the start, map cleared. */
void workload_rewind(struct workload *w);

/* Bytes one pass issues (io_size, or size). */
uint64_t workload_pass_bytes(const struct workload *w);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_SPRANDOM_H
#define IOLITE_WORKLOAD_SPRANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "util/prng.h"

/*
 * sprandom (fio 3.42's SSD preconditioning), the order of its writes:
 * see sprandom.c's top for the rule. struct spr is the state of one
 * file's sequence; the workload's next() asks spr_next() for block
 * numbers (workload_int.h wires it). Pure: no I/O, no workload.
 */
struct spr {
	struct prng_lfsr lfsr;		/* the new blocks, each once */
	uint64_t lfsr_left;
	struct prng_taus draw;		/* which writes a region rewrites */
	uint64_t per_region;		/* writes per region (R) */
	uint64_t phys;			/* the physical capacity, in writes */
	uint64_t budget;		/* writes left of it */
	unsigned int nreg, region;	/* regions; the one being written */
	bool defer;			/* spr_cs: rewrites at a region's end */
	bool done;
	int phase;			/* SPR_FIRST, SPR_INV, SPR_NEW */
	double *p;			/* per region: the share rewritten */
	uint64_t *cur, ncur;		/* this region's writes, in order */
	uint64_t *inv, ninv, inv_pos;	/* the rewrites this region owes */
	uint64_t cap;			/* room in cur and inv */
	uint64_t in_region;		/* writes in this region so far */
};

/*
 * The validity each of n regions is left with (v[0], the oldest, the
 * lowest; v[n - 1] = 1) for an over-provisioning ratio op, 0 <= op < 1.
 */
void spr_validity(double op, unsigned int n, double *v);

/*
 * The sequence over nblk blocks: ceil(nblk x (1 + op)) writes at most,
 * nreg regions of that divided by nreg writes (0: the caller refused the
 * job: spr_region_writes()). lfsr_key, draw_seed: the streams. 0, or
 * -ENOMEM.
 */
int spr_init(struct spr *s, uint64_t nblk, double op, unsigned int nreg,
	     bool defer, uint64_t lfsr_key, uint64_t draw_seed);
void spr_release(struct spr *s);

/* The physical capacity in blocks, and the writes of one region. */
uint64_t spr_phys_blocks(uint64_t nblk, double op);
uint64_t spr_region_writes(uint64_t nblk, double op, unsigned int nreg);

/* The next block to write: true, or false once the sequence is over. */
bool spr_next(struct spr *s, uint64_t *blk);
/*
 * rw=randrw's reads (fio 3.42): the next new block, outside the regions
 * but within the P I/Os; false once the sequence is over.
 */
bool spr_read(struct spr *s, uint64_t *blk);

#endif

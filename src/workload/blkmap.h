/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_BLKMAP_H
#define IOLITE_WORKLOAD_BLKMAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The random map of jobs with more than one block size (bsrange, bssplit,
 * or directions of different sizes sharing a map): a bitmap of the blocks
 * of the smallest size that are done in this pass, as fio keeps one.
 *
 * A draw that lands on a done block moves on to the next free one
 * (wrapping to the first), and an I/O takes the free blocks from its
 * start up to its length but stops at the first done one: it is cut to
 * the free run, so that a pass covers every block exactly once and odd
 * sizes (3 blocks of a 4-block bsrange) appear where a run is short.
 *
 * Layout: level 0 has a bit per block; each level above has a bit per
 * 64-bit word of the one below, set when that word is full, up to a level
 * of one word. Bits past the end are set above level 0, so a full word
 * reads as ~0; level 0's last word is full once its padding is taken
 * too, and the search checks for the end instead. A
 * search for the next free block climbs only past full words: O(log64 n)
 * at worst. Memory: n / 8 bytes and 1/63 more; one pass's reset clears it
 * (O(n / 64)). The caller owns the struct; blkmap_free() frees the words.
 */
#define BLKMAP_LEVELS 8
#define BLKMAP_NONE UINT64_MAX

struct blkmap {
	uint64_t n;			/* blocks in use (<= cap) */
	uint64_t lim;			/* n to the end of its word */
	uint64_t cap;			/* blocks allocated for */
	uint64_t nfree;			/* free blocks left in this pass */
	unsigned int nlv;
	uint64_t nbits[BLKMAP_LEVELS];	/* bits of each level, for n */
	uint64_t *lv[BLKMAP_LEVELS];
};

/* Room for cap blocks, all free, n = cap. Returns 0 or -ENOMEM. */
int blkmap_init(struct blkmap *m, uint64_t cap);
void blkmap_free(struct blkmap *m);

/* Every block free again, over the first n (<= cap) blocks. */
void blkmap_reset(struct blkmap *m, uint64_t n);

static inline bool blkmap_is_free(const struct blkmap *m, uint64_t b)
{
	return !(m->lv[0][b >> 6] & 1ULL << (b & 63));
}

/* The first free block at or after b, else the first free one; NONE if full. */
uint64_t blkmap_next_free(const struct blkmap *m, uint64_t b);

/*
 * Marks done the free blocks from b (which must be free) on, at most
 * max of them, stopping at the first done one or the end of the last
 * block's 64-bit word: as in fio's map, an I/O runs on into the word's
 * padding (zones of 32 blocks cut a long I/O at block 64), which no
 * search returns and nfree does not count. Returns how many it marked
 * (at least 1).
 */
uint64_t blkmap_claim(struct blkmap *m, uint64_t b, uint64_t max);

/* Level 0's word idx is full: the levels above learn it. */
void blkmap_word_full(struct blkmap *m, uint64_t idx);

/* blkmap_claim(m, b, 1) for a free block b < n, inline. */
static inline void blkmap_claim1(struct blkmap *m, uint64_t b)
{
	uint64_t *w = &m->lv[0][b >> 6];

	*w |= 1ULL << (b & 63);
	m->nfree--;
	if (*w == ~0ULL)
		blkmap_word_full(m, b >> 6);
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The random map without a bitmap.
 *
 * fio keeps a bitmap of the blocks it has done and, when a random draw
 * hits a used block, searches for a free one. iolite instead walks a
 * keyed pseudo-random permutation p of [0, n): the i-th I/O of a pass
 * goes to block p(i), so a pass visits every block exactly once by
 * construction, nothing needs clearing between passes (a new key gives a
 * new order) and the state is a few words whatever the size of the file.
 *
 * The permutation: let k be the smallest width with 2^k >= n (at least 2),
 * split a k-bit index into a high half of ceil(k/2) bits and a low half
 * of floor(k/2) bits, and run a three-round unbalanced Feistel network
 * over the halves. Each round xors one half with a keyed 64-bit hash of
 * the other (multiply, xorshift, multiply; the top bits are taken) and
 * swaps them, so every round, and hence the network, is a bijection on
 * [0, 2^k) whatever the hash. Three rounds of a good keyed function are
 * the classic Luby-Rackoff construction; here they make consecutive
 * indexes land on unrelated blocks (checked by t/unit/randmap.c).
 *
 * Since 2^k may exceed n, the result is "cycle-walked": while the image
 * is >= n, apply the network again. Following the cycle from an index
 * below n must come back below n, so this is a bijection on [0, n).
 *
 * Cost: one network evaluation is about 25 instructions (three rounds of
 * two multiplies). Cycle-walking never costs more than 2^k < 2n
 * evaluations over a whole pass: each value >= n lies on at most one
 * walk. So a pass of n I/Os costs fewer than 2 evaluations per I/O
 * (between 1 and 2 depending on how far n is below 2^k), and a single I/O
 * takes more than j evaluations with probability about (1 - n/2^k)^j.
 * Memory is O(1): this struct.
 */
#include "workload/randmap.h"

#include "util/prng.h"

static void set_key(struct randmap *m, uint64_t key)
{
	uint64_t x = key;

	m->key[0] = prng_splitmix64(&x);
	m->key[1] = prng_splitmix64(&x);
	m->key[2] = prng_splitmix64(&x);
	m->next = 0;
}

void randmap_init(struct randmap *m, uint64_t n, uint64_t key)
{
	unsigned int k = 2;

	if (!n)
		n = 1;
	while (k < 64 && (1ULL << k) < n)
		k++;
	m->n = n;
	m->lo_bits = k / 2;
	m->hi_bits = k - k / 2;
	m->lo_mask = (1ULL << m->lo_bits) - 1;
	set_key(m, key);
}

void randmap_rekey(struct randmap *m, uint64_t key)
{
	set_key(m, key);
}

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
 * The permutation is a three-round Feistel network over mixed radixes
 * (as in format-preserving encryption): let k be the smallest width with
 * 2^k >= n, j = floor(k / 2) (at least 1) and a = ceil(n / 2^j), and read
 * an index x < a * 2^j as a pair (l, r) = (x / 2^j, x mod 2^j). A round
 * adds a keyed 64-bit hash of one part (multiply, xorshift, multiply) to
 * the other, modulo that part's radix, and swaps the parts; each round is
 * invertible (subtract the same hash), so the network is a bijection on
 * [0, a * 2^j) whatever the hash. Three rounds of a good keyed function
 * are the classic Luby-Rackoff construction; here they make consecutive
 * indexes land on unrelated blocks (checked by t/unit/randmap.c). The
 * modulo a is a multiply-high and a conditional subtract, never a
 * division.
 *
 * Since a * 2^j may exceed n, the result is "cycle-walked": while the
 * image is >= n, apply the network again. Following the cycle from an
 * index below n must come back below n, so this is a bijection on [0, n).
 *
 * Cost: one network evaluation is about 30 instructions (three rounds of
 * two or three multiplies), with no branch the predictor can miss except
 * the walk. The domain exceeds n by less than 2^j <= sqrt(2n), and each
 * value >= n lies on at most one walk, so a whole pass of n I/Os costs
 * fewer than n + sqrt(2n) evaluations: 1 + O(1/sqrt(n)) per I/O. Memory
 * is O(1): this struct, whatever n.
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
	unsigned int k = 0;

	if (!n)
		n = 1;
	while (k < 64 && (1ULL << k) < n)
		k++;
	m->n = n;
	m->lo_bits = k / 2 ? k / 2 : 1;
	m->lo_mask = (1ULL << m->lo_bits) - 1;
	m->hi_shift = 64 - m->lo_bits;
	m->mul1 = 0x9e3779b97f4a7c15ULL;
	m->mul2 = 0xd6e8feb86659fd93ULL;
	/* ceil(n / 2^j) without overflowing near 2^64 */
	m->a = (n >> m->lo_bits) + ((n & m->lo_mask) != 0);
	set_key(m, key);
}

void randmap_rekey(struct randmap *m, uint64_t key)
{
	set_key(m, key);
}

__attribute__((noinline)) uint64_t randmap_walk(const struct randmap *m,
					    uint64_t x)
{
	do
		x = randmap_mix(m, x);
	while (x >= m->n);
	return x;
}

/* SPDX-License-Identifier: MIT */
#include "util/prng.h"

#include <errno.h>

uint64_t prng_derive(uint64_t base, uint64_t stream)
{
	uint64_t x = base ^ (stream * 0xd1342543de82ef95ULL);

	/* two rounds so that base and stream bits are fully mixed */
	prng_splitmix64(&x);
	return prng_splitmix64(&x);
}

/*
 * Each component needs its low-order bits above a minimum (a state below
 * 2^(32-k) would collapse to zero), so a too-small draw is bumped. A few
 * warm-up steps then spread the seed over all bits.
 */
void prng_taus_seed(struct prng_taus *t, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	t->s1 = (uint32_t)prng_splitmix64(&x);
	t->s2 = (uint32_t)prng_splitmix64(&x);
	t->s3 = (uint32_t)prng_splitmix64(&x);
	if (t->s1 < 2)
		t->s1 += 2;
	if (t->s2 < 8)
		t->s2 += 8;
	if (t->s3 < 16)
		t->s3 += 16;
	for (i = 0; i < 10; i++)
		prng_taus_next(t);
}

void prng_taus64_seed(struct prng_taus64 *t, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	t->s1 = prng_splitmix64(&x);
	t->s2 = prng_splitmix64(&x);
	t->s3 = prng_splitmix64(&x);
	t->s4 = prng_splitmix64(&x);
	t->s5 = prng_splitmix64(&x);
	if (t->s1 < 2)
		t->s1 += 2;
	if (t->s2 < 512)
		t->s2 += 512;
	if (t->s3 < 4096)
		t->s3 += 4096;
	if (t->s4 < 131072)
		t->s4 += 131072;
	if (t->s5 < 8388608)
		t->s5 += 8388608;
	for (i = 0; i < 10; i++)
		prng_taus64_next(t);
}

/* fio's stream seeds: the base is stepped by one odd multiplier */
#define FIO_SEED_MUL 0x9e370001ULL
#define FIO_SEED_ALL 0xb1899bedULL

uint64_t prng_fio_seed(uint64_t randseed, unsigned int job_nr,
		       unsigned int stream)
{
	uint64_t s = randseed;
	unsigned int i;

	/* four steps before the first stream's, one between streams */
	for (i = 0; i < 4 + stream; i++)
		s *= FIO_SEED_MUL;
	return s * job_nr + stream;
}

uint64_t prng_fio_allrand_seed(unsigned int job_nr, unsigned int stream)
{
	return FIO_SEED_ALL * job_nr + stream;
}

/* A component's state below its minimum is lifted by it. */
static uint64_t at_least(uint64_t v, uint64_t min)
{
	return v < min ? v + min : v;
}

void prng_taus_seed_fio(struct prng_taus *t, uint64_t seed)
{
	uint32_t s = (uint32_t)seed;
	int i;

	t->s1 = (uint32_t)at_least((uint32_t)(53u * 69069u) ^ s, 1);
	t->s2 = (uint32_t)at_least((uint32_t)(t->s1 * 69069u) ^ s, 7);
	t->s3 = (uint32_t)at_least((uint32_t)(t->s2 * 69069u) ^ s, 15);
	for (i = 0; i < 6; i++)
		prng_taus_next(t);
}

void prng_taus64_seed_fio(struct prng_taus64 *t, uint64_t seed)
{
	const uint64_t mul = 6906969069ULL;
	int i;

	t->s1 = at_least(53 * mul ^ seed, 1);
	t->s2 = at_least(t->s1 * mul ^ seed, 7);
	t->s3 = at_least(t->s2 * mul ^ seed, 15);
	t->s4 = at_least(t->s3 * mul ^ seed, 33);
	t->s5 = at_least(t->s4 * mul ^ seed, 49);
	for (i = 0; i < 6; i++)
		prng_taus64_next(t);
}

/*
 * Toggle masks of primitive polynomials over GF(2), one per register
 * width 1..64: bit (t - 1) is set for every tap t of
 * x^w + x^a + ... + 1. Each was checked for primitivity (x has order
 * 2^w - 1 modulo the polynomial); widths up to 20 are also walked in full
 * by t/unit/prng.c.
 */
static const uint64_t lfsr_masks[64] = {
	0x1ULL, 0x3ULL, 0x6ULL, 0xcULL,
	0x14ULL, 0x30ULL, 0x60ULL, 0xb8ULL,
	0x110ULL, 0x240ULL, 0x500ULL, 0x829ULL,
	0x100dULL, 0x2015ULL, 0x6000ULL, 0xd008ULL,
	0x12000ULL, 0x20400ULL, 0x40023ULL, 0x90000ULL,
	0x140000ULL, 0x300000ULL, 0x420000ULL, 0xe10000ULL,
	0x1200000ULL, 0x2000023ULL, 0x4000013ULL, 0x9000000ULL,
	0x14000000ULL, 0x20000029ULL, 0x48000000ULL, 0x80200003ULL,
	0x100080000ULL, 0x204000003ULL, 0x500000000ULL, 0x801000000ULL,
	0x100000001fULL, 0x2000000031ULL, 0x4400000000ULL, 0xa000140000ULL,
	0x12000000000ULL, 0x300000c0000ULL, 0x63000000000ULL, 0xc0000030000ULL,
	0x1b0000000000ULL, 0x300003000000ULL, 0x420000000000ULL,
	0xc00000180000ULL,
	0x1008000000000ULL, 0x3000000c00000ULL, 0x6000c00000000ULL,
	0x9000000000000ULL,
	0x18003000000000ULL, 0x30000000030000ULL, 0x40000040000000ULL,
	0xc0000600000000ULL,
	0x102000000000000ULL, 0x200004000000000ULL, 0x600003000000000ULL,
	0xc00000000000000ULL,
	0x1800300000000000ULL, 0x3000000000000030ULL, 0x6000000000000000ULL,
	0xd800000000000000ULL,
};

uint64_t prng_lfsr_mask(unsigned int width)
{
	if (width < 1 || width > 64)
		return 0;
	return lfsr_masks[width - 1];
}

int prng_lfsr_init(struct prng_lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned int w = 1;
	uint64_t period, x = seed;

	if (!n)
		return -EINVAL;
	/* smallest w with 2^w - 1 >= n */
	while (w < 64 && ((1ULL << w) - 1) < n)
		w++;
	period = w == 64 ? ~0ULL : (1ULL << w) - 1;
	l->width = w;
	l->mask = lfsr_masks[w - 1];
	l->n = n;
	l->start = 1 + prng_splitmix64(&x) % period;
	l->state = l->start;
	return 0;
}

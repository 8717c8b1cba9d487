/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_NUMFMT_H
#define IOLITE_UTIL_NUMFMT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

/*
 * fio-style number formatting for reports: a number shown with at most
 * 'digits' significant digits (fio's sig_figs, 4 by default), scaled by
 * 1000 (SI: k M G T P) or 1024 (IEC: Ki Mi Gi Ti Pi) until its integer
 * part fits, the rest of the width filled with decimals: 12345 -> "12.3k",
 * 2147483648 bytes -> "2048MiB", 50331648 B/s -> "48.0MiB/s" or
 * "50.3MB/s".
 */
enum numfmt_unit {
	NUMFMT_NONE,		/* "12.3k" (IOPS) */
	NUMFMT_PERSEC,		/* "12.3k/s" */
	NUMFMT_BYTE,		/* "2048MiB" */
	NUMFMT_BIT,		/* value in bytes, shown in bits: "16.0Mibit" */
	NUMFMT_BYTEPERSEC,	/* "48.0MiB/s" */
	NUMFMT_BITPERSEC,	/* value in bytes/s, shown as "384Mibit/s" */
};

/*
 * Appends num formatted to sb. pow2: scale by 1024 with IEC prefixes,
 * else by 1000 with SI ones.
 */
void numfmt(struct strbuf *sb, uint64_t num, unsigned int digits, bool pow2,
	    enum numfmt_unit unit);

/*
 * The bandwidth unit fio uses for a job's unit_base: 8 -> bits per second,
 * otherwise bytes per second.
 */
static inline enum numfmt_unit numfmt_bw_unit(unsigned int unit_base)
{
	return unit_base == 8 ? NUMFMT_BITPERSEC : NUMFMT_BYTEPERSEC;
}

/*
 * Writes v in decimal at p, without a terminating NUL, and returns the
 * end: for log writers that build lines in their own buffers (no stdio
 * on the I/O path). p needs room for 20 characters. Two digits per
 * step from a table, the length worked out first (the bit length times
 * log10(2), corrected by one comparison), 32-bit arithmetic when v fits:
 * the log writer formats tens of millions of these a second.
 */
static inline char *numfmt_put_u64(char *p, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	/* v | 1 has v's digit count and a bit length of at least 1 */
	uint64_t w = v | 1;
	unsigned int t = (unsigned int)(64 - __builtin_clzll(w)) * 1233 >> 12;
	char *end = p + t - (w < pow10[t]) + 1, *q = end;

	while (v >> 32) {
		q -= 2;
		__builtin_memcpy(q, &pairs[(v % 100) * 2], 2);
		v /= 100;
	}
	{
		uint32_t u = (uint32_t)v;

		while (u >= 100) {
			q -= 2;
			__builtin_memcpy(q, &pairs[(u % 100) * 2], 2);
			u /= 100;
		}
		if (u >= 10) {
			q -= 2;
			__builtin_memcpy(q, &pairs[u * 2], 2);
		} else {
			*--q = (char)('0' + u);
		}
	}
	return end;
}

#endif

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
 * on the I/O path). p needs room for 20 characters.
 */
static inline char *numfmt_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

#endif

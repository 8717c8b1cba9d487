/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_PATTERN_H
#define IOLITE_UTIL_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/*
 * Byte patterns as fio's verify_pattern (and buffer_pattern) writes them:
 * a sequence of pieces, without spaces, in any order:
 *
 *   0xdeadbeef   hex bytes in the order written (an odd digit count gets a
 *                leading 0 nibble: 0x123 is 01 23)
 *   -12, 258     a decimal number in 32-bit signed range (a leading +
 *                or - allowed), little-endian, 4 bytes when negative,
 *                else as few bytes as it needs
 *   "abcd"       the characters between double quotes (no escapes)
 *   %o           the block's byte offset, 8 bytes little-endian
 *   'name'       the bytes of file name, up to PATTERN_LIMIT in all
 *                (read once, when the option is parsed; fio 3.42 reads
 *                that much, fio 3.33 stops at 512 bytes)
 *
 * A decimal number ends where "0x" begins: -120xdeadface is -12, then
 * 0xdeadface, as fio reads it.
 *
 * The pattern is repeated to fill a block, from its start in every
 * block; every %o of every repetition holds the offset of the block (not
 * of the repetition), as fio does. The struct is plain data, copied with
 * memcpy by job_options: a pattern longer than the inline buffer lives
 * in memory owned by this module until the process ends, never changed
 * once parsed, which the copies share.
 */

#define PATTERN_INLINE 512	/* bytes held in the struct itself */
#define PATTERN_LIMIT (128u << 20)	/* bytes of one repetition, as fio 3.42 */
#define PATTERN_FMT_MAX 16	/* %o pieces */

struct byte_pattern {
	unsigned char buf[PATTERN_INLINE];
	const unsigned char *ext;	/* the bytes when longer, else NULL */
	uint32_t len;			/* 0: no pattern */
	uint16_t nr_fmt;
	uint32_t fmt_pos[PATTERN_FMT_MAX];	/* where each %o goes */
};

/*
 * Parses s into p (zeroed first). Returns 0, or -1 with a message (no
 * option name, no location) in err, e.g. "invalid pattern 'abc' at 'abc'
 * (expected 0x..., a number, \"text\" or %o)".
 */
int pattern_parse(const char *s, struct byte_pattern *p, struct strbuf *err);

/*
 * Appends the canonical text of p: hex runs and %o ("0xff%o0x61626364"),
 * which pattern_parse() reads back to the same bytes.
 */
void pattern_format(const struct byte_pattern *p, struct strbuf *out);

/* Fills len bytes of buf with p repeated, %o = offset. p->len > 0. */
void pattern_fill(const struct byte_pattern *p, void *buf, size_t len,
		  uint64_t offset);

/*
 * Compares len bytes of buf with what pattern_fill() would write there
 * (buf is the block from its first byte; skip bytes from the start are
 * not compared). Returns the index of the first differing byte, or -1.
 * *want receives the expected byte at that index.
 */
long pattern_check(const struct byte_pattern *p, const void *buf, size_t len,
		   size_t skip, uint64_t offset, unsigned char *want);

#endif

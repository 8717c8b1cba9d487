/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_NUM_H
#define IOLITE_UTIL_NUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * fio's number grammar for option values.
 *
 * Integers: [0x]digits, surrounding blanks allowed, nothing else.
 *
 * Sizes: digits[prefix[i]][B] or 0xhexdigits, no blank inside,
 * case-insensitive, prefixes k m g t p (not after hex: fio ignores them). Which prefixes mean powers of two depends on
 * kb_base, as fio's kb_base section documents: with kb_base=1024 (the
 * default, "compatibility mode") "k"/"kB" are powers of two and "KiB"
 * powers of ten; with kb_base=1000 it is the other way round. Like fio
 * (and unlike the examples in fio's HOWTO), only "iB" marks the IEC form:
 * a lone "Ki" means the same as "K". Fractions, signs and trailing junk
 * ("1.5k", "-5", "4kx") are errors, where fio would silently misread them.
 *
 * Times: digits[unit] with d, h, m/min, s/sec, ms/msec, us/usec,
 * ns/nsec (any case, no blank before the unit); without a unit the
 * option's default unit applies. Results are microseconds (ns round down).
 *
 * Bools: 1/0, true/false, yes/no, on/off (any case). fio itself takes only
 * integers.
 *
 * All functions return 0 or -EINVAL (not a number of this kind) or -ERANGE
 * (overflows 64 bits). *out is only written on success.
 */
int num_parse_u64(const char *s, uint64_t *out);
int num_parse_size(const char *s, unsigned int kb_base, uint64_t *out);
int num_parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out);
int num_parse_bool(const char *s, bool *out);
int num_parse_double(const char *s, double *out);

#endif

/* SPDX-License-Identifier: MIT */
/* The number grammar of option values (util/num.c). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "tap.h"
#include "util/num.h"

static void size_is(const char *s, unsigned int kb_base, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int ret = num_parse_size(s, kb_base, &v);

	ok(ret == 0 && v == want, "size '%s' kb_base=%u is %" PRIu64
	   " (got %d, %" PRIu64 ")", s, kb_base, want, ret, v);
}

static void size_fails(const char *s, int want_err)
{
	uint64_t v = 12345;
	int ret = num_parse_size(s, 1024, &v);

	ok(ret == want_err && v == 12345, "size '%s' fails with %d (got %d)",
	   s, want_err, ret);
}

static void time_is(const char *s, uint64_t unit, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int ret = num_parse_time_us(s, unit, &v);

	ok(ret == 0 && v == want, "time '%s' (unit %" PRIu64 "us) is %"
	   PRIu64 "us (got %d, %" PRIu64 ")", s, unit, want, ret, v);
}

static void time_fails(const char *s, int want_err)
{
	uint64_t v = 7;
	int ret = num_parse_time_us(s, 1000000, &v);

	ok(ret == want_err && v == 7, "time '%s' fails with %d (got %d)", s,
	   want_err, ret);
}

static void bool_is(const char *s, int want)
{
	bool b = !want;
	int ret = num_parse_bool(s, &b);

	if (want < 0)
		ok(ret == -EINVAL, "bool '%s' is invalid", s);
	else
		ok(ret == 0 && b == (bool)want, "bool '%s' is %d", s, want);
}

int main(void)
{
	const uint64_t K = 1024, M = K * K, G = M * K, T = G * K, P = T * K;
	uint64_t v;
	double d;

	diag("kb_base=1024 unless said otherwise");

	/* plain integers */
	ok(num_parse_u64("0", &v) == 0 && v == 0, "u64 0");
	ok(num_parse_u64("  42 ", &v) == 0 && v == 42, "u64 blanks around");
	ok(num_parse_u64("0x1F", &v) == 0 && v == 31, "u64 hex");
	ok(num_parse_u64("18446744073709551615", &v) == 0 &&
	   v == UINT64_MAX, "u64 max");
	ok(num_parse_u64("18446744073709551616", &v) == -ERANGE,
	   "u64 max + 1 overflows");
	ok(num_parse_u64("4k", &v) == -EINVAL, "u64 takes no suffix");
	ok(num_parse_u64("", &v) == -EINVAL, "u64 empty");
	ok(num_parse_u64("-1", &v) == -EINVAL, "u64 negative");
	ok(num_parse_u64("0x", &v) == -EINVAL, "u64 bare 0x");

	/* sizes, kb_base=1024: SI forms are powers of two */
	size_is("4096", 1024, 4096);
	size_is("4k", 1024, 4 * K);
	size_is("4K", 1024, 4 * K);
	size_is("4kb", 1024, 4 * K);
	size_is("4KB", 1024, 4 * K);
	size_is("1m", 1024, M);
	size_is("1g", 1024, G);
	size_is("1t", 1024, T);
	size_is("1p", 1024, P);
	size_is("1024k", 1024, M);
	size_is("10b", 1024, 10);
	size_is("10B", 1024, 10);
	/* ... and the IEC forms powers of ten (fio's compatibility mode) */
	size_is("1KiB", 1024, 1000);
	size_is("1kib", 1024, 1000);
	size_is("1MiB", 1024, 1000000);
	size_is("1GiB", 1024, 1000000000ULL);
	size_is("1TiB", 1024, 1000000000000ULL);
	size_is("1PiB", 1024, 1000000000000000ULL);
	/* a lone "i" is read as fio reads it: like the SI form */
	size_is("1ki", 1024, K);
	size_is("1Mi", 1024, M);

	/* kb_base=1000: the standard meanings */
	size_is("4k", 1000, 4000);
	size_is("4kB", 1000, 4000);
	size_is("1m", 1000, 1000000);
	size_is("1t", 1000, 1000000000000ULL);
	size_is("4KiB", 1000, 4 * K);
	size_is("1MiB", 1000, M);
	size_is("1tib", 1000, T);
	size_is("1pib", 1000, P);
	size_is("1ki", 1000, 1000);
	size_is("4096", 1000, 4096);

	/* hex, blanks, limits */
	size_is("0x10", 1024, 16);
	size_fails("0x10k", -EINVAL);	/* fio silently drops the k */
	size_is("0x1b", 1024, 27);
	size_is(" 8k ", 1024, 8 * K);
	size_is("16383p", 1024, 16383 * P);
	size_fails("16384p", -ERANGE);
	size_fails("99999999999999999999t", -ERANGE);
	size_fails("99999999999999999999", -ERANGE);
	size_fails("abc", -EINVAL);
	size_fails("", -EINVAL);
	size_fails("k", -EINVAL);
	size_fails("4x", -EINVAL);
	size_fails("4kx", -EINVAL);
	size_fails("4kbb", -EINVAL);
	size_fails("4 k", -EINVAL);
	size_fails("1.5k", -EINVAL);
	size_fails("-5k", -EINVAL);
	size_fails("4k-8k", -EINVAL);

	/* times: every unit, default units */
	time_is("10", 1000000, 10000000);
	time_is("10", 1000, 10000);
	time_is("10", 1, 10);
	time_is("5us", 1000000, 5);
	time_is("5usec", 1000000, 5);
	time_is("5ms", 1000000, 5000);
	time_is("5msec", 1000000, 5000);
	time_is("5s", 1, 5000000);
	time_is("5sec", 1, 5000000);
	time_is("2m", 1, 120000000);
	time_is("2min", 1, 120000000);
	time_is("1h", 1, 3600000000ULL);
	time_is("1d", 1, 86400000000ULL);
	time_is("1D", 1, 86400000000ULL);
	time_is("1MS", 1, 1000);
	time_is("1500ns", 1, 1);
	time_is("999nsec", 1, 0);
	time_is("0x10s", 1, 16000000);
	time_is(" 3s ", 1, 3000000);
	time_fails("5x", -EINVAL);
	time_fails("s", -EINVAL);
	time_fails("5 s", -EINVAL);
	time_fails("1.5s", -EINVAL);
	time_fails("99999999999999999d", -ERANGE);

	/* bools */
	bool_is("1", 1);
	bool_is("0", 0);
	bool_is("true", 1);
	bool_is("False", 0);
	bool_is("yes", 1);
	bool_is("no", 0);
	bool_is("ON", 1);
	bool_is("off", 0);
	bool_is(" 1 ", 1);
	bool_is("2", -1);
	bool_is("", -1);
	bool_is("maybe", -1);

	/* doubles */
	ok(num_parse_double("1.25", &d) == 0 && d == 1.25, "double 1.25");
	ok(num_parse_double("1e400", &d) == -ERANGE, "double overflow");
	ok(num_parse_double("1.2x", &d) == -EINVAL, "double junk");
	ok(num_parse_double("nan", &d) == -ERANGE, "double nan refused");

	return done_testing();
}

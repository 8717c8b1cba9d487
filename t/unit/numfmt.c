/* SPDX-License-Identifier: MIT */
/*
 * numfmt: fio's number formatting. Expected strings are the ones fio 3.33
 * printed for the same numbers (IOPS, BW, io sizes, block sizes).
 */
#include <stdio.h>
#include <string.h>

#include "unit/tap.h"
#include "util/numfmt.h"

static void check(uint64_t v, unsigned int digits, bool pow2,
		  enum numfmt_unit unit, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	numfmt(&sb, v, digits, pow2, unit);
	ok(!strcmp(strbuf_str(&sb), want), "%llu -> '%s' (got '%s')",
	   (unsigned long long)v, want, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* numfmt_put_u64 against printf: every length, its edges, random values */
static void check_decimal(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, v, p10 = 1;
	unsigned int i, bad = 0;
	char got[32], want[32];

	for (i = 0; i < 20000 + 3 * 20; i++) {
		if (i < 60) {
			/* 10^k - 1, 10^k, 10^k + 1 */
			v = p10 + (i % 3) - 1;
			if (i % 3 == 2 && p10 <= UINT64_MAX / 10)
				p10 *= 10;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (x % 64);
		}
		*numfmt_put_u64(got, v) = '\0';
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		if (strcmp(got, want) && bad++ < 5)
			diag("%s for %s", got, want);
	}
	*numfmt_put_u64(got, UINT64_MAX) = '\0';
	ok(!bad && !strcmp(got, "18446744073709551615"),
	   "decimal writer agrees with printf (%u differ)", bad);
}

int main(void)
{
	check_decimal();

	/* IOPS: SI, no unit */
	check(8690, 4, false, NUMFMT_NONE, "8690");
	check(2048000, 4, false, NUMFMT_NONE, "2048k");
	check(51183, 4, false, NUMFMT_NONE, "51.2k");
	check(10066784, 4, false, NUMFMT_NONE, "10.1M");
	check(108000, 4, false, NUMFMT_NONE, "108k");
	check(312, 4, false, NUMFMT_NONE, "312");
	check(0, 4, false, NUMFMT_NONE, "0");

	/* bandwidth, both bases */
	check(8388608000ull, 4, true, NUMFMT_BYTEPERSEC, "8000MiB/s");
	check(8388608000ull, 4, false, NUMFMT_BYTEPERSEC, "8389MB/s");
	check(50331648, 4, true, NUMFMT_BYTEPERSEC, "48.0MiB/s");
	check(50331648, 4, false, NUMFMT_BYTEPERSEC, "50.3MB/s");
	check(35567000, 4, true, NUMFMT_BYTEPERSEC, "33.9MiB/s");

	/* unit_base=1: bits (net engines' default) */
	check(1277995, 4, true, NUMFMT_BITPERSEC, "9984Kibit/s");
	check(1277995, 4, false, NUMFMT_BITPERSEC, "10.2Mbit/s");

	/* sizes */
	check(67108864, 4, true, NUMFMT_BYTE, "64.0MiB");
	check(67108864, 4, false, NUMFMT_BYTE, "67.1MB");
	check(2147483648ull, 4, true, NUMFMT_BYTE, "2048MiB");
	check(1048576, 4, true, NUMFMT_BYTE, "1024KiB");
	check(100000000, 4, false, NUMFMT_BYTE, "100MB");
	check(100000000, 4, true, NUMFMT_BYTE, "95.4MiB");
	check(4194304, 4, false, NUMFMT_BYTE, "4194kB");
	check(819200, 4, false, NUMFMT_BYTE, "819kB");
	check(4096, 4, true, NUMFMT_BYTE, "4096B");
	check(65536, 4, true, NUMFMT_BYTE, "64.0KiB");
	check(65536, 4, false, NUMFMT_BYTE, "65.5kB");
	check(16384, 4, true, NUMFMT_BYTE, "16.0KiB");
	check(1024, 4, true, NUMFMT_BYTE, "1024B");

	/* latency min/max: 6 digits */
	check(4134800, 6, false, NUMFMT_NONE, "4134.8k");
	check(4124013, 6, false, NUMFMT_NONE, "4124.0k");
	check(168891, 6, false, NUMFMT_NONE, "168891");

	/* a fraction rounding up to 1 carries (fio: "16.2MiB (17.0MB)") */
	check(16965632, 4, false, NUMFMT_BYTE, "17.0MB");
	check(99960, 4, false, NUMFMT_NONE, "100.0k");

	/* rounding: no room for a fraction rounds half up */
	check(1499, 1, false, NUMFMT_NONE, "1k");
	check(1500, 1, false, NUMFMT_NONE, "2k");
	/* the largest values still get a prefix */
	check(UINT64_MAX, 4, false, NUMFMT_NONE, "18.4E");

	diag("numfmt: fio-style numbers");
	return done_testing();
}

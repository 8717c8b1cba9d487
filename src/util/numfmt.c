/* SPDX-License-Identifier: MIT */
/*
 * fio-style number formatting. The rules, worked out from fio's output:
 * divide by the base (1000 or 1024) until the integer part has at most
 * 'digits' digits; if any division happened and at least two columns are
 * left, show the remainder of the last division as a fraction with the
 * columns left minus one (the point); with no room for a fraction, round
 * the remainder half up into the integer. The fraction only sees the last
 * remainder; one that rounds up to 1 carries into the integer
 * (16965632 -> "17.0MB"), which may then take one column more.
 */
#include <stdio.h>

#include "util/log.h"
#include "util/numfmt.h"

static const char *const si_prefix[] = { "", "k", "M", "G", "T", "P", "E" };
static const char *const iec_prefix[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };

static const char *const unit_suffix[] = {
	[NUMFMT_NONE] = "",
	[NUMFMT_PERSEC] = "/s",
	[NUMFMT_BYTE] = "B",
	[NUMFMT_BIT] = "bit",
	[NUMFMT_BYTEPERSEC] = "B/s",
	[NUMFMT_BITPERSEC] = "bit/s",
};

static unsigned int ndigits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void numfmt(struct strbuf *sb, uint64_t num, unsigned int digits, bool pow2,
	    enum numfmt_unit unit)
{
	const unsigned int base = pow2 ? 1024 : 1000;
	const char *const *prefix = pow2 ? iec_prefix : si_prefix;
	unsigned int scale = 0, len;
	uint64_t rem = 0;
	bool divided = false;
	char frac[32];

	if (unit == NUMFMT_BIT || unit == NUMFMT_BITPERSEC)
		num *= 8;
	if (!digits)
		digits = 1;

	while (ndigits(num) > digits && scale + 1 < ARRAY_SIZE(si_prefix)) {
		rem = num % base;
		num /= base;
		scale++;
		divided = true;
	}

	if (divided) {
		len = ndigits(num);
		if (digits <= len + 1) {
			/* no room for a fraction: round half up */
			if (rem >= base / 2)
				num++;
		} else {
			snprintf(frac, sizeof(frac), "%.*f",
				 (int)(digits - len - 1),
				 (double)rem / (double)base);
			/* frac is "0.xyz", or "1.000" when it rounds up */
			if (frac[0] == '1')
				num++;
			strbuf_addf(sb, "%llu.%s%s%s",
				    (unsigned long long)num, frac + 2,
				    prefix[scale], unit_suffix[unit]);
			return;
		}
	}
	strbuf_addf(sb, "%llu%s%s", (unsigned long long)num, prefix[scale],
		    unit_suffix[unit]);
}

/* SPDX-License-Identifier: MIT */
#include "util/num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static bool rest_is_blank(const char *s)
{
	return *skip_ws(s) == '\0';
}

static bool is_hex(const char *s)
{
	s = skip_ws(s);
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Parses the leading integer (decimal or 0x hex); *end is left after it. */
static int parse_digits(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	unsigned int base = 10;
	const char *p = skip_ws(s);
	int any = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		any = 1;
	}
	if (!any)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

int num_parse_u64(const char *s, uint64_t *out)
{
	const char *end;
	int ret = parse_digits(s, out, &end);

	if (ret)
		return ret;
	return rest_is_blank(end) ? 0 : -EINVAL;
}

static int mul_check(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return -ERANGE;
	*out = a * b;
	return 0;
}

int num_parse_size(const char *s, unsigned int kb_base, uint64_t *out)
{
	static const char prefixes[] = "kmgtp";
	const char *end, *pfx;
	uint64_t v, mult = 1;
	int ret = parse_digits(s, &v, &end);

	if (ret)
		return ret;
	/* fio ignores a unit after hex digits; refuse rather than guess */
	if (is_hex(s) && *end && strchr(prefixes, tolower((unsigned char)*end)))
		return -EINVAL;
	if (*end && (pfx = strchr(prefixes, tolower((unsigned char)*end)))) {
		int power = (int)(pfx - prefixes) + 1;
		bool iec = false;
		uint64_t base;

		end++;
		/*
		 * fio takes the IEC form only when "i" is followed by "b"
		 * ("KiB"); a lone "Ki" reads as "K". That differs from the
		 * examples in fio's HOWTO but is what fio does, and job files
		 * must mean the same number here as there.
		 */
		if ((end[0] == 'i' || end[0] == 'I') &&
		    (end[1] == 'b' || end[1] == 'B')) {
			iec = true;
			end++;
		} else if (end[0] == 'i' || end[0] == 'I') {
			end++;
		}
		/* compatibility mode (1024) swaps the meanings, as fio's */
		if (kb_base == 1000)
			base = iec ? 1024 : 1000;
		else
			base = iec ? 1000 : 1024;
		while (power--)
			mult *= base;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (!rest_is_blank(end))
		return -EINVAL;
	return mul_check(v, mult, out);
}

int num_parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t us;
		bool ns;
	} units[] = {
		{ "us", 1, false }, { "usec", 1, false },
		{ "ms", 1000, false }, { "msec", 1000, false },
		{ "s", 1000000, false }, { "sec", 1000000, false },
		{ "m", 60000000ULL, false }, { "min", 60000000ULL, false },
		{ "h", 3600000000ULL, false },
		{ "d", 86400000000ULL, false },
		{ "ns", 1, true }, { "nsec", 1, true },
	};
	const char *end;
	uint64_t v;
	size_t i, n;
	int ret = parse_digits(s, &v, &end);

	if (ret)
		return ret;
	n = strlen(end);
	while (n && isspace((unsigned char)end[n - 1]))
		n--;
	if (!n)
		return mul_check(v, default_unit_us, out);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strlen(units[i].suffix) != n ||
		    strncasecmp(end, units[i].suffix, n))
			continue;
		if (units[i].ns) {
			*out = v / 1000;
			return 0;
		}
		return mul_check(v, units[i].us, out);
	}
	return -EINVAL;
}

int num_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i, n;

	s = skip_ws(s);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (i = 0; i < 4; i++) {
		if (strlen(yes[i]) == n && !strncasecmp(s, yes[i], n)) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == n && !strncasecmp(s, no[i], n)) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int num_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || !rest_is_blank(end))
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

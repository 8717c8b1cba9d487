/* SPDX-License-Identifier: MIT */
/*
 * CPU features for the copy and flush routines (see cpu.h). A vector
 * extension counts only when the kernel also saves its registers (XCR0):
 * a CPU with AVX-512 under a kernel booted without it would fault on the
 * first instruction.
 */
#include "util/cpu.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef __x86_64__
#include <cpuid.h>
#define CPU_X86 1
#endif

static const struct {
	unsigned int bit;
	const char *key;
	const char *name;
} features[] = {
	{ CPU_SSE2, "sse2", "SSE2" },
	{ CPU_CLFLUSH, "clflush", "CLFLUSH" },
	{ CPU_CLFLUSHOPT, "clflushopt", "CLFLUSHOPT" },
	{ CPU_CLWB, "clwb", "CLWB" },
	{ CPU_ERMS, "erms", "ERMS (enhanced rep movsb)" },
	{ CPU_FSRM, "fsrm", "FSRM (fast short rep mov)" },
	{ CPU_AVX2, "avx2", "AVX2" },
	{ CPU_AVX512F, "avx512f", "AVX-512F" },
};

#ifdef CPU_X86
static unsigned long long xgetbv0(void)
{
	unsigned int lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (unsigned long long)hi << 32 | lo;
}

static unsigned int detect(void)
{
	unsigned int a, b, c, d, f = 0;
	unsigned long long xcr0 = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	if (d & (1u << 26))
		f |= CPU_SSE2;
	if (d & (1u << 19))
		f |= CPU_CLFLUSH;
	if (c & (1u << 27))	/* OSXSAVE: XGETBV may be used */
		xcr0 = xgetbv0();
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return f;
	if (b & (1u << 9))
		f |= CPU_ERMS;
	if (b & (1u << 23))
		f |= CPU_CLFLUSHOPT;
	if (b & (1u << 24))
		f |= CPU_CLWB;
	if (d & (1u << 4))
		f |= CPU_FSRM;
	/* XMM and YMM state */
	if ((b & (1u << 5)) && (xcr0 & 0x6) == 0x6)
		f |= CPU_AVX2;
	/* and opmask, ZMM0-15 upper halves, ZMM16-31 */
	if ((b & (1u << 16)) && (xcr0 & 0xe6) == 0xe6)
		f |= CPU_AVX512F;
	return f;
}
#else
static unsigned int detect(void)
{
	return 0;
}
#endif

static unsigned int parse_disable(const char *s)
{
	unsigned int off = 0;
	size_t i;

	while (s && *s) {
		size_t n = strcspn(s, ", ");

		for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
			if (strlen(features[i].key) == n &&
			    !strncasecmp(s, features[i].key, n))
				off |= features[i].bit;
		s += n;
		s += strspn(s, ", ");
	}
	return off;
}

/*
 * Computed on first use; every thread computes the same value, so a race
 * between two first uses is harmless. Bit 31 marks "computed".
 */
unsigned int cpu_features(void)
{
	static unsigned int cached;
	unsigned int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (v)
		return v & ~(1u << 31);
	v = detect() & ~parse_disable(getenv("IOLITE_CPU_DISABLE"));
	__atomic_store_n(&cached, v | 1u << 31, __ATOMIC_RELAXED);
	return v;
}

const char *cpu_feature_key(unsigned int feature)
{
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (features[i].bit == feature)
			return features[i].key;
	return "?";
}

const char *cpu_feature_name(unsigned int feature)
{
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (features[i].bit == feature)
			return features[i].name;
	return "?";
}

int cpu_require(unsigned int need, const char *what, struct strbuf *err)
{
	unsigned int missing = need & ~cpu_features();
	unsigned int bit;

	if (!missing)
		return 0;
	bit = missing & -missing;
	strbuf_addf(err, "'%s' needs %s, which this CPU does not have", what,
		    cpu_feature_name(bit));
	return -1;
}

void cpu_describe(struct strbuf *out)
{
	unsigned int f = cpu_features();
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (!(f & features[i].bit))
			continue;
		if (!first)
			strbuf_addch(out, ' ');
		strbuf_addstr(out, features[i].key);
		first = 0;
	}
}

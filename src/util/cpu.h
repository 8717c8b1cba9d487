/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_CPU_H
#define IOLITE_UTIL_CPU_H

#include <stdbool.h>

#include "util/strbuf.h"

/*
 * What the CPU can do, for the memory-copy and cache-flush routines of
 * the mmap engines: read once from CPUID (and XGETBV for the vector
 * register state the kernel saves), then cached. On other architectures
 * every feature reads as absent.
 *
 * IOLITE_CPU_DISABLE lists features to treat as absent ("avx512f,clwb";
 * the names cpu_feature_key() gives, any case, ',' or ' ' between), so
 * the refusals can be tested on a CPU that has everything. An unknown
 * name in it is ignored: it is a test aid, not an option.
 */
enum cpu_feature {
	CPU_SSE2 = 1u << 0,		/* movntdq (baseline on x86-64) */
	CPU_CLFLUSH = 1u << 1,
	CPU_CLFLUSHOPT = 1u << 2,
	CPU_CLWB = 1u << 3,
	CPU_ERMS = 1u << 4,		/* enhanced rep movsb */
	CPU_FSRM = 1u << 5,		/* fast short rep mov */
	CPU_AVX2 = 1u << 6,		/* and the OS saves YMM state */
	CPU_AVX512F = 1u << 7,		/* and the OS saves ZMM state */
	CPU_FEATURE_NR = 8,
};

/* The features present (and not disabled), a mask of enum cpu_feature. */
unsigned int cpu_features(void);

static inline bool cpu_has(unsigned int mask)
{
	return (cpu_features() & mask) == mask;
}

/* Short lower-case key ("avx512f") and display name ("AVX-512F"). */
const char *cpu_feature_key(unsigned int feature);
const char *cpu_feature_name(unsigned int feature);

/*
 * Checks that the CPU has every feature in need. Returns 0, or -1 with
 * "'WHAT' needs NAME, which this CPU does not have" in err (the first
 * missing feature is named).
 */
int cpu_require(unsigned int need, const char *what, struct strbuf *err);

/* Appends the present features' keys, space separated ("sse2 clflush"). */
void cpu_describe(struct strbuf *out);

#endif

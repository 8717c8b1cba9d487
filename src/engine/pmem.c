/* SPDX-License-Identifier: MIT */
/*
 * Copy routines, persistence (cache-line write-back and non-temporal
 * stores) and device DAX sizing for the mmap engines. See pmem.h.
 *
 * The vector routines are compiled for their instruction set with target
 * attributes, so the rest of iolite keeps the baseline flags; they are
 * only ever called when cpu_features() says the CPU (and the kernel's
 * saved register state) has them. Each copies the bulk in whole vectors
 * and the last partial vector with one overlapping unaligned move, so
 * there is no byte loop and no call to the C library on the hot path.
 */
#include "engine/pmem.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "opt/mmap_opts.h"
#include "util/cpu.h"
#include "util/log.h"

#ifdef __x86_64__
#include <immintrin.h>
#define PMEM_X86 1
#endif

#define LINE 64u
#define DAX_DEFAULT_ALIGN (2u << 20)

/* ---- names and requirements ---- */

static const char *const copy_names[] = {
	[MMAP_COPY_AUTO] = "auto",
	[MMAP_COPY_LIBC] = "libc",
	[MMAP_COPY_MOVSB] = "movsb",
	[MMAP_COPY_AVX2] = "avx2",
	[MMAP_COPY_AVX2_NT] = "avx2-nt",
	[MMAP_COPY_AVX512] = "avx512",
	[MMAP_COPY_AVX512_NT] = "avx512-nt",
	[MMAP_COPY_SSE2_NT] = "sse2-nt",
};

static const char *const flush_names[] = {
	[PMEM_FLUSH_DEFAULT] = "default",
	[PMEM_FLUSH_AUTO] = "auto",
	[PMEM_FLUSH_NONE] = "none",
	[PMEM_FLUSH_CLWB] = "clwb",
	[PMEM_FLUSH_CLFLUSHOPT] = "clflushopt",
	[PMEM_FLUSH_CLFLUSH] = "clflush",
	[PMEM_FLUSH_NT] = "nt",
};

const char *pmem_copy_name(enum mmap_copy c)
{
	if ((size_t)c < ARRAY_SIZE(copy_names) && copy_names[c])
		return copy_names[c];
	return "?";
}

const char *pmem_flush_name(enum pmem_flush f)
{
	if ((size_t)f < ARRAY_SIZE(flush_names) && flush_names[f])
		return flush_names[f];
	return "?";
}

int pmem_copy_check(enum mmap_copy c, struct strbuf *err)
{
	return cpu_require(mmap_copy_needs((int)c), pmem_copy_name(c), err);
}

int pmem_flush_check(enum pmem_flush f, struct strbuf *err)
{
	return cpu_require(pmem_flush_needs((int)f), pmem_flush_name(f), err);
}

/*
 * auto: rep movsb where the CPU makes it fast (ERMS), else the C
 * library's memcpy. Measured against a bare memcpy loop over a 1 GiB
 * tmpfs mapping (issue 26, doc/performance.md): the AVX2 loop, auto's
 * earlier pick, was 0.82 of it on 64k reads and slower on 4k writes (it
 * reads each destination line before writing it, where rep movsb writes
 * whole lines); movsb and libc were level with the bare loop.
 */
enum mmap_copy pmem_copy_resolve(enum mmap_copy c)
{
	if (c != MMAP_COPY_AUTO)
		return c;
	if (cpu_has(CPU_ERMS))
		return MMAP_COPY_MOVSB;
	return MMAP_COPY_LIBC;
}

enum mmap_copy pmem_copy_nt(enum mmap_copy c)
{
	switch (c) {
	case MMAP_COPY_AVX512:
	case MMAP_COPY_AVX512_NT:
		return MMAP_COPY_AVX512_NT;
	case MMAP_COPY_AVX2:
	case MMAP_COPY_AVX2_NT:
		return MMAP_COPY_AVX2_NT;
	default:
		break;
	}
	if (cpu_has(CPU_AVX512F))
		return MMAP_COPY_AVX512_NT;
	if (cpu_has(CPU_AVX2))
		return MMAP_COPY_AVX2_NT;
	return MMAP_COPY_SSE2_NT;
}

enum pmem_flush pmem_flush_resolve(enum pmem_flush f)
{
	if (f == PMEM_FLUSH_DEFAULT)
		BUG("pmem_flush=default must be resolved by the engine");
	if (f != PMEM_FLUSH_AUTO)
		return f;
	if (cpu_has(CPU_CLWB))
		return PMEM_FLUSH_CLWB;
	if (cpu_has(CPU_CLFLUSHOPT))
		return PMEM_FLUSH_CLFLUSHOPT;
	if (cpu_has(CPU_CLFLUSH))
		return PMEM_FLUSH_CLFLUSH;
	return PMEM_FLUSH_NONE;
}

/* ---- copy routines ---- */

/* Bytes from d to the next cache-line boundary (0 when on one). */
static inline size_t head_bytes(const void *d)
{
	return (LINE - ((uintptr_t)d & (LINE - 1))) & (LINE - 1);
}

static void copy_libc(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
}

#ifdef PMEM_X86

static void copy_movsb(void *dst, const void *src, size_t len)
{
	__asm__ volatile("rep movsb"
			 : "+D"(dst), "+S"(src), "+c"(len)
			 :
			 : "memory");
}

/* Under 32 bytes: at most two overlapping moves of a power of two. */
static inline __attribute__((always_inline)) void
copy_small(char *d, const char *s, size_t n)
{
	if (n >= 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)
					    (const void *)(s + n - 16));

		_mm_storeu_si128((__m128i *)(void *)d, a);
		_mm_storeu_si128((__m128i *)(void *)(d + n - 16), b);
	} else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else {
		size_t i;

		for (i = 0; i < n; i++)
			d[i] = s[i];
	}
}

#define LD256(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define ST256(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

__attribute__((target("avx2")))
static void copy_avx2(void *dst, const void *src, size_t len)
{
	char *d = dst;
	const char *s = src;
	size_t n = len;

	if (n < 32) {
		copy_small(d, s, n);
		return;
	}
	while (n >= 128) {
		__m256i a = LD256(s), b = LD256(s + 32), c = LD256(s + 64),
			e = LD256(s + 96);

		ST256(d, a);
		ST256(d + 32, b);
		ST256(d + 64, c);
		ST256(d + 96, e);
		s += 128;
		d += 128;
		n -= 128;
	}
	while (n >= 32) {
		ST256(d, LD256(s));
		s += 32;
		d += 32;
		n -= 32;
	}
	/* the last 32 bytes of the whole copy, overlapping what is done */
	if (n)
		ST256(d + n - 32, LD256(s + n - 32));
}

/*
 * Non-temporal: every whole 64-byte line of the destination is written
 * with streaming stores; the partial lines at the ends (only when dst or
 * len are not line-aligned) with ordinary stores, which the nt persist
 * routine then writes back. Sources on a 32-byte boundary are read with
 * streaming loads too.
 */
__attribute__((target("avx2")))
static void copy_avx2_nt(void *dst, const void *src, size_t len)
{
	char *d = dst;
	const char *s = src;
	size_t n = len, head = head_bytes(d);

	if (head) {
		if (head > n)
			head = n;
		if (head < 32)
			copy_small(d, s, head);
		else
			copy_avx2(d, s, head);
		d += head;
		s += head;
		n -= head;
	}
	if (!((uintptr_t)s & 31)) {
		while (n >= LINE) {
			__m256i a = _mm256_stream_load_si256(
				(const __m256i *)(const void *)s);
			__m256i b = _mm256_stream_load_si256(
				(const __m256i *)(const void *)(s + 32));

			_mm256_stream_si256((__m256i *)(void *)d, a);
			_mm256_stream_si256((__m256i *)(void *)(d + 32), b);
			s += LINE;
			d += LINE;
			n -= LINE;
		}
	} else {
		while (n >= LINE) {
			__m256i a = LD256(s), b = LD256(s + 32);

			_mm256_stream_si256((__m256i *)(void *)d, a);
			_mm256_stream_si256((__m256i *)(void *)(d + 32), b);
			s += LINE;
			d += LINE;
			n -= LINE;
		}
	}
	if (n)
		copy_avx2(d, s, n);
}

#define LD512(p) _mm512_loadu_si512((const void *)(p))
#define ST512(p, v) _mm512_storeu_si512((void *)(p), (v))

__attribute__((target("avx512f")))
static void copy_avx512(void *dst, const void *src, size_t len)
{
	char *d = dst;
	const char *s = src;
	size_t n = len;

	if (n < 64) {
		if (n >= 32) {
			__m256i a = LD256(s), b = LD256(s + n - 32);

			ST256(d, a);
			ST256(d + n - 32, b);
		} else {
			copy_small(d, s, n);
		}
		return;
	}
	while (n >= 256) {
		__m512i a = LD512(s), b = LD512(s + 64), c = LD512(s + 128),
			e = LD512(s + 192);

		ST512(d, a);
		ST512(d + 64, b);
		ST512(d + 128, c);
		ST512(d + 192, e);
		s += 256;
		d += 256;
		n -= 256;
	}
	while (n >= 64) {
		ST512(d, LD512(s));
		s += 64;
		d += 64;
		n -= 64;
	}
	if (n)
		ST512(d + n - 64, LD512(s + n - 64));
}

__attribute__((target("avx512f")))
static void copy_avx512_nt(void *dst, const void *src, size_t len)
{
	char *d = dst;
	const char *s = src;
	size_t n = len, head = head_bytes(d);

	if (head) {
		if (head > n)
			head = n;
		copy_avx512(d, s, head);
		d += head;
		s += head;
		n -= head;
	}
	if (!((uintptr_t)s & 63)) {
		while (n >= LINE) {
			__m512i a = _mm512_stream_load_si512((void *)s);

			_mm512_stream_si512((void *)d, a);
			s += LINE;
			d += LINE;
			n -= LINE;
		}
	} else {
		while (n >= LINE) {
			_mm512_stream_si512((void *)d, LD512(s));
			s += LINE;
			d += LINE;
			n -= LINE;
		}
	}
	if (n)
		copy_avx512(d, s, n);
}

/* The non-temporal copy every x86-64 CPU can do, for pmem_flush=nt. */
static void copy_sse2_nt(void *dst, const void *src, size_t len)
{
	char *d = dst;
	const char *s = src;
	size_t n = len, head = head_bytes(d);

	if (head) {
		if (head > n)
			head = n;
		memcpy(d, s, head);
		d += head;
		s += head;
		n -= head;
	}
	while (n >= LINE) {
		unsigned int i;

		for (i = 0; i < LINE; i += 16)
			_mm_stream_si128((__m128i *)(void *)(d + i),
					 _mm_loadu_si128((const __m128i *)
							 (const void *)(s + i)));
		s += LINE;
		d += LINE;
		n -= LINE;
	}
	if (n)
		memcpy(d, s, n);
}

#endif /* PMEM_X86 */

pmem_copy_fn pmem_copy_routine(enum mmap_copy c)
{
#ifdef PMEM_X86
	switch (c) {
	case MMAP_COPY_MOVSB:
		return copy_movsb;
	case MMAP_COPY_AVX2:
		return copy_avx2;
	case MMAP_COPY_AVX2_NT:
		return copy_avx2_nt;
	case MMAP_COPY_AVX512:
		return copy_avx512;
	case MMAP_COPY_AVX512_NT:
		return copy_avx512_nt;
	case MMAP_COPY_SSE2_NT:
		return copy_sse2_nt;
	default:
		break;
	}
#endif
	return copy_libc;
}

/* ---- persistence ---- */

void pmem_fence(void)
{
#ifdef PMEM_X86
	_mm_sfence();
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

#ifdef PMEM_X86

__attribute__((target("clwb")))
static void lines_clwb(uintptr_t p, uintptr_t end)
{
	for (p &= ~(uintptr_t)(LINE - 1); p < end; p += LINE)
		_mm_clwb((void *)p);
}

__attribute__((target("clflushopt")))
static void lines_clflushopt(uintptr_t p, uintptr_t end)
{
	for (p &= ~(uintptr_t)(LINE - 1); p < end; p += LINE)
		_mm_clflushopt((void *)p);
}

static void lines_clflush(uintptr_t p, uintptr_t end)
{
	for (p &= ~(uintptr_t)(LINE - 1); p < end; p += LINE)
		_mm_clflush((const void *)p);
}

static void persist_clwb(const void *addr, size_t len)
{
	lines_clwb((uintptr_t)addr, (uintptr_t)addr + len);
	_mm_sfence();
}

static void persist_clflushopt(const void *addr, size_t len)
{
	lines_clflushopt((uintptr_t)addr, (uintptr_t)addr + len);
	_mm_sfence();
}

static void persist_clflush(const void *addr, size_t len)
{
	lines_clflush((uintptr_t)addr, (uintptr_t)addr + len);
	_mm_sfence();
}

/* The best line write-back the CPU has, for the rare partial lines. */
static void lines_best(uintptr_t p, uintptr_t end)
{
	if (cpu_has(CPU_CLWB))
		lines_clwb(p, end);
	else if (cpu_has(CPU_CLFLUSHOPT))
		lines_clflushopt(p, end);
	else
		lines_clflush(p, end);
}

/*
 * After a non-temporal copy only the partial lines at the ends went
 * through the cache; the fence orders the streaming stores.
 */
static void persist_nt(const void *addr, size_t len)
{
	uintptr_t p = (uintptr_t)addr, end = p + len;

	if (p & (LINE - 1))
		lines_best(p, p + 1);
	if ((end & (LINE - 1)) && len)
		lines_best(end - 1, end);
	_mm_sfence();
}

#endif /* PMEM_X86 */

pmem_persist_fn pmem_persist_routine(enum pmem_flush f)
{
#ifdef PMEM_X86
	switch (f) {
	case PMEM_FLUSH_CLWB:
		return persist_clwb;
	case PMEM_FLUSH_CLFLUSHOPT:
		return persist_clflushopt;
	case PMEM_FLUSH_CLFLUSH:
		return persist_clflush;
	case PMEM_FLUSH_NT:
		return persist_nt;
	default:
		break;
	}
#endif
	return NULL;
}

void pmem_flush_range(const void *addr, size_t len)
{
#ifdef PMEM_X86
	if (len)
		lines_best((uintptr_t)addr, (uintptr_t)addr + len);
#endif
	pmem_fence();
}

/* ---- device DAX ---- */

const char *pmem_sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

/* A decimal (or 0x hex) number alone in a sysfs file: 0 or -1. */
static int read_u64(const char *dir, const char *attr, uint64_t *out)
{
	char path[PATH_MAX], buf[64], *end;
	unsigned long long v;
	FILE *f;
	int ret = -1;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
	    (int)sizeof(path))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		errno = 0;
		v = strtoull(buf, &end, 0);
		while (*end == ' ' || *end == '\n')
			end++;
		if (!errno && end != buf && !*end) {
			*out = v;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* The last component of a symlink's target ("dax" for .../bus/dax). */
static int link_base_is(const char *dir, const char *attr, const char *want)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
	    (int)sizeof(path))
		return 0;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	return !strcmp(base, want);
}

static int has_entry(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return 0;
	return !access(path, F_OK);
}

/* The node's own name, after symlinks (/dev/dax0.0 -> "dax0.0"). */
static void node_name(const char *path, char *out, size_t size)
{
	char *real = realpath(path, NULL);
	const char *p = real ? real : path;
	const char *slash = strrchr(p, '/');

	snprintf(out, size, "%s", slash ? slash + 1 : p);
	free(real);
}

static uint64_t dax_align(const char *dir)
{
	static const char *const attrs[] = {
		"align", "dax_region/align", "device/dax_region/align",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!read_u64(dir, attrs[i], &v))
			return v;
	return 0;
}

int pmem_dax_probe(const char *path, dev_t rdev, struct pmem_dax_info *out,
		   struct strbuf *err)
{
	const char *root = pmem_sysfs_root();
	char name[256], dirs[3][PATH_MAX];
	bool looks_dax;
	uint64_t size = 0, align = 0;
	int found = -1;
	size_t i;

	node_name(path, name, sizeof(name));
	snprintf(dirs[0], sizeof(dirs[0]), "%s/dev/char/%u:%u", root,
		 major(rdev), minor(rdev));
	snprintf(dirs[1], sizeof(dirs[1]), "%s/class/dax/%s", root, name);
	snprintf(dirs[2], sizeof(dirs[2]), "%s/bus/dax/devices/%s", root,
		 name);
	looks_dax = !strncmp(name, "dax", 3) ||
		    link_base_is(dirs[0], "subsystem", "dax") ||
		    has_entry(dirs[0], "dax_region");

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		/* a size under dev/char alone does not make a DAX device */
		if (i == 0 && !looks_dax)
			continue;
		if (!read_u64(dirs[i], "size", &size)) {
			found = (int)i;
			break;
		}
	}
	if (found < 0) {
		if (!looks_dax)
			return 0;
		strbuf_addf(err, "cannot size DAX device '%s': no size in "
			    "%s, %s or %s", path, dirs[0], dirs[1], dirs[2]);
		return -1;
	}
	align = dax_align(dirs[found]);
	if (!align)
		align = DAX_DEFAULT_ALIGN;
	if (align & (align - 1) || align < 4096) {
		strbuf_addf(err, "DAX device '%s': invalid align %llu in %s",
			    path, (unsigned long long)align, dirs[found]);
		return -1;
	}
	if (!size) {
		strbuf_addf(err, "DAX device '%s' has size 0 (%s/size)", path,
			    dirs[found]);
		return -1;
	}
	out->size = size;
	out->align = align;
	return 1;
}

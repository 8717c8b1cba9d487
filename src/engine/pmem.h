/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_PMEM_H
#define IOLITE_ENGINE_PMEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "opt/options.h"
#include "util/strbuf.h"

/*
 * Memory-mapped targets: the copy routines the mmap engines move data
 * with, the ways written data is pushed to the persistence domain, and
 * device DAX sizing from sysfs.
 *
 * Copies are chosen explicitly (mmap_copy=) instead of leaving it to
 * whichever memcpy the C library version picks, so that a result does not
 * move with glibc. Persistence (pmem_flush=) writes the cache lines of
 * every write back (clwb, clflushopt, clflush) or writes with
 * non-temporal stores (nt), then fences (sfence): once the write
 * completes, its data is in the persistence domain of a DAX target.
 *
 * Nothing here allocates, except pmem_dax_probe()'s messages in err.
 */

/* Copies len bytes; dst and src do not overlap. */
typedef void (*pmem_copy_fn)(void *dst, const void *src, size_t len);
/*
 * Makes a completed write of [addr, addr + len) persistent: flushes its
 * cache lines (or, after non-temporal stores, the partial lines at its
 * ends) and fences.
 */
typedef void (*pmem_persist_fn)(const void *addr, size_t len);

/* Names as the options spell them ("avx2-nt", "clwb"). */
const char *pmem_copy_name(enum mmap_copy c);
const char *pmem_flush_name(enum pmem_flush f);

/*
 * 0, or -1 with "'avx512' needs AVX-512F, which this CPU does not have"
 * in err.
 */
int pmem_copy_check(enum mmap_copy c, struct strbuf *err);
int pmem_flush_check(enum pmem_flush f, struct strbuf *err);

/*
 * auto -> the routine used on this CPU: avx2 where the CPU has AVX2
 * (fast and the same from 64 bytes to megabytes on current CPUs), else
 * movsb where it has ERMS, else libc. Other modes are returned as is.
 */
enum mmap_copy pmem_copy_resolve(enum mmap_copy c);
/*
 * The non-temporal sibling of a resolved mode, for pmem_flush=nt:
 * avx512(-nt) -> avx512-nt, avx2(-nt) -> avx2-nt, anything else -> the
 * best the CPU has (avx512-nt, avx2-nt, else SSE2 non-temporal stores,
 * which every x86-64 CPU has; the name of that one is "sse2-nt").
 */
enum mmap_copy pmem_copy_nt(enum mmap_copy c);

/*
 * auto -> clwb, clflushopt, clflush: the first the CPU has (none when it
 * has none, off x86). default is the caller's business: it must be
 * resolved to none or auto first (BUG otherwise).
 */
enum pmem_flush pmem_flush_resolve(enum pmem_flush f);

/* The routine for a resolved mode (never auto). */
pmem_copy_fn pmem_copy_routine(enum mmap_copy c);
/* NULL for none; for nt it flushes only the partial lines at the ends. */
pmem_persist_fn pmem_persist_routine(enum pmem_flush f);

/* A store fence: orders earlier stores (and flushes) before later ones. */
void pmem_fence(void);
/*
 * Writes back [addr, addr + len) with the best line flush the CPU has,
 * then fences: what a sync of a DAX target does when no flush mode
 * flushed each write.
 */
void pmem_flush_range(const void *addr, size_t len);

/*
 * Device DAX. A character device is a DAX device when sysfs says so:
 * ROOT/dev/char/MAJ:MIN is in the "dax" subsystem or has a dax_region,
 * or the node's name starts with "dax", with a size in one of
 *   ROOT/dev/char/MAJ:MIN/size
 *   ROOT/class/dax/NAME/size
 *   ROOT/bus/dax/devices/NAME/size
 * NAME is the node's name (dax0.0). The mapping alignment is the align
 * attribute next to size (or in dax_region/), else 2 MiB, the kernel's
 * default. ROOT is /sys, or $IOLITE_SYSFS_ROOT when it is set (tests
 * stand in a fake tree for a node of their own).
 */
struct pmem_dax_info {
	uint64_t size;		/* bytes */
	uint64_t align;		/* mapping alignment, a power of two */
};

/*
 * Returns 1 and fills *out for a DAX device, 0 for another character
 * device, or -1 with a message in err for a node that looks like a DAX
 * device (named dax*, or in the dax subsystem) but cannot be sized.
 */
int pmem_dax_probe(const char *path, dev_t rdev, struct pmem_dax_info *out,
		   struct strbuf *err);

/* The sysfs root in use ("/sys" or $IOLITE_SYSFS_ROOT). */
const char *pmem_sysfs_root(void);

#endif

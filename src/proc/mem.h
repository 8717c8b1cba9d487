/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PROC_MEM_H
#define IOLITE_PROC_MEM_H

#include <stdbool.h>
#include <stddef.h>

#include "opt/plan.h"
#include "opt/sys_opts.h"
#include "util/strbuf.h"

/*
 * The memory of a job's I/O buffers, fio's mem= (iomem=), iomem_align
 * and hugepage-size: one area allocated when the job starts, nr buffers
 * in it, freed when it ends.
 *
 *  malloc      a private anonymous mapping (page aligned; what malloc
 *              gives for areas this size)
 *  shm         shmget(IPC_PRIVATE, 0600) and shmat; marked for removal
 *              at once, so a killed run leaves no segment behind
 *  shmhuge     the same with SHM_HUGETLB, the size a multiple of
 *              hugepage-size
 *  mmap        anonymous and private, or of FILE (mmap:FILE), private:
 *              a new file is made at the size and removed at the end; an
 *              existing one is used as it is (extended when short, never
 *              cut) and kept
 *  mmaphuge    MAP_HUGETLB, or a file on hugetlbfs, shared
 *  mmapshared  anonymous or of a new file, MAP_SHARED (fio 3.33 maps
 *              these private, and faults on a file)
 *
 * Buffer i starts at base + i * stride. Without iomem_align, base is
 * page aligned and stride is the largest block rounded up to a page;
 * with it, base is iomem_align bytes past a page boundary and stride is
 * the largest block, as fio lays them out.
 */
struct iomem {
	void *base;		/* the first buffer */
	size_t stride;		/* from one buffer to the next */
	size_t len;		/* stride * nr: what the buffers cover */
	void *map;		/* what was mapped or attached */
	size_t map_len;
	enum mem_type type;
	char *unlink;		/* a file made for the run, removed at free */
	bool shm;		/* map is a System V segment */
};

/*
 * Before the run (nothing made): mem's type and file against this
 * machine: the huge page size, a hugetlbfs file for mmaphuge, a file of
 * a shared mapping that does not exist yet. 0, or -1 with
 * "file:line: option 'mem': ..." in err.
 */
int iomem_check(const struct job_plan *p, struct strbuf *err);

/*
 * Allocates nr buffers of max_bs bytes for the job; m is overwritten.
 * Returns 0, or -errno with the reason in err (no huge pages free:
 * -ENOMEM, ...).
 */
int iomem_alloc(struct iomem *m, const struct job_plan *p, size_t max_bs,
		unsigned int nr, struct strbuf *err);
/* Frees what iomem_alloc() made; safe on a zeroed or freed m. */
void iomem_free(struct iomem *m);

/*
 * A "Field: N kB" line of /proc/meminfo in bytes ("MemAvailable",
 * "Hugepagesize"), 0 when absent. IOLITE_MEMINFO names another file,
 * for tests.
 */
uint64_t mem_info_bytes(const char *field);

#endif

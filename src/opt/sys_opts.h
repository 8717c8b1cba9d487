/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_SYS_OPTS_H
#define IOLITE_OPT_SYS_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * fio's options about the job's process rather than its files: uid, gid,
 * nice, ioscheduler, cgroup*, exec_prerun/postrun, mem/iomem,
 * iomem_align, hugepage-size, lockmem, thp, disk_util, stats, the log
 * epochs, log_compression_cpus, gtod_cpu, write_barrier. Their values
 * are parsed by the table (opt/table.c) with the callbacks below and
 * checked against each other and this machine by sys_plan_check();
 * proc/proc.c and proc/mem.c carry them out.
 */

/* mem= / iomem= : where the I/O buffers come from (proc/mem.c) */
enum mem_type {
	MEM_MALLOC,	/* the default: a private anonymous mapping */
	MEM_SHM,	/* a System V segment (shmget) */
	MEM_SHMHUGE,	/* the same, of huge pages (SHM_HUGETLB) */
	MEM_MMAP,	/* mmap(2): anonymous, or of a file, private */
	MEM_MMAPHUGE,	/* huge pages: MAP_HUGETLB, or a hugetlbfs file */
	MEM_MMAPSHARED,	/* mmap(2) MAP_SHARED, anonymous or of a file */
};

/*
 * Splits a mem= value ("mmap:/path/file", "shm", NULL for the default)
 * into its type and file (*file points into s, NULL when none). Only the
 * mmap types take a file. Returns 0, or -1 with the reason in err.
 */
int sys_mem_parse(const char *s, enum mem_type *type, const char **file,
		  struct strbuf *err);

/* nice: a signed value in -20..19 (fio's range). */
int sys_nice_cb(const struct opt_def *def, struct job_options *o,
		const char *val, struct strbuf *err);
void sys_nice_fmt(const struct opt_def *def, const struct job_options *o,
		  struct strbuf *out);

extern const struct opt_enum sys_mem_enums[];

/*
 * The rules between these options and the rest of the job, and against
 * this machine (CPUs that exist, clocks the kernel has): mem's type and
 * file, thp only with the mmap engine, cgroup names inside their mount,
 * log_compression_cpus and gtod_cpu naming CPUs that exist, the epoch
 * clock. Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int sys_plan_check(struct job_plan *p, struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_MMAP_OPTS_H
#define IOLITE_OPT_MMAP_OPTS_H

#include "opt/opt.h"
#include "util/strbuf.h"

/* Value lists of mmap_advise, mmap_copy and pmem_flush (opt/table.c). */
extern const struct opt_enum mmap_advise_enums[];
extern const struct opt_enum mmap_copy_enums[];
extern const struct opt_enum pmem_flush_enums[];

/*
 * The CPU features (util/cpu.h's enum cpu_feature mask) an mmap_copy or
 * pmem_flush value needs; 0 for those that run anywhere (libc, auto,
 * none, default). engine/pmem.c checks the routine it picks with them.
 */
unsigned int mmap_copy_needs(int v);
unsigned int pmem_flush_needs(int v);

/*
 * mmap_copy= and pmem_flush= parsers: the value by name, refused with
 * "'VALUE' needs FEATURE, which this CPU does not have" when the CPU
 * lacks what it needs (util/cpu.h; IOLITE_CPU_DISABLE in tests). The
 * _fmt functions write the value's name back.
 */
int mmap_copy_cb(const struct opt_def *def, struct job_options *o,
		 const char *val, struct strbuf *err);
void mmap_copy_fmt(const struct opt_def *def, const struct job_options *o,
		   struct strbuf *out);
int pmem_flush_cb(const struct opt_def *def, struct job_options *o,
		  const char *val, struct strbuf *err);
void pmem_flush_fmt(const struct opt_def *def, const struct job_options *o,
		    struct strbuf *out);

/*
 * The mmap engines' rules (engine_ops.plan_check), fio's refusals:
 * file_append=1, and but for dev-dax block sizes that are not multiples
 * of the page size where the job syncs (fsync=, fdatasync=, and direct=1
 * for mmap).
 */
struct job_plan;
int mmap_plan_check(struct job_plan *p, struct strbuf *err);
int devdax_plan_check(struct job_plan *p, struct strbuf *err);
int libpmem_plan_check(struct job_plan *p, struct strbuf *err);

#endif

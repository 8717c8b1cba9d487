/* SPDX-License-Identifier: MIT */
/*
 * The mmap engines' options with a CPU behind them: mmap_advise,
 * mmap_copy (the copy routine) and pmem_flush (how stores reach the
 * persistence domain). A copy routine or flush mode the CPU lacks is
 * refused when the job is read, before any file is created.
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "opt/mmap_opts.h"

#include "opt/internal.h"
#include "opt/plan.h"
#include "util/cpu.h"

const struct opt_enum mmap_advise_enums[] = {
	{ "auto", MMAP_ADVISE_AUTO,
	  "random or sequential, following rw= (as fio)" },
	{ "none", MMAP_ADVISE_NONE, "no madvise(2) call" },
	{ "normal", MMAP_ADVISE_NORMAL, "MADV_NORMAL" },
	{ "random", MMAP_ADVISE_RANDOM,
	  "MADV_RANDOM: no readahead or fault-around" },
	{ "sequential", MMAP_ADVISE_SEQUENTIAL,
	  "MADV_SEQUENTIAL: aggressive readahead" },
	{ "willneed", MMAP_ADVISE_WILLNEED,
	  "MADV_WILLNEED: start reading the region in" },
	{ "hugepage", MMAP_ADVISE_HUGEPAGE,
	  "MADV_HUGEPAGE: ask for transparent huge pages" },
	{ "nohugepage", MMAP_ADVISE_NOHUGEPAGE,
	  "MADV_NOHUGEPAGE: base pages only" },
	{ NULL, 0, NULL },
};

const struct opt_enum mmap_copy_enums[] = {
	{ "auto", MMAP_COPY_AUTO,
	  "movsb where the CPU has ERMS, else libc" },
	{ "libc", MMAP_COPY_LIBC, "the C library's memcpy(3)" },
	{ "movsb", MMAP_COPY_MOVSB, "rep movsb (needs ERMS)" },
	{ "avx2", MMAP_COPY_AVX2, "32-byte vector loads and stores" },
	{ "avx2-nt", MMAP_COPY_AVX2_NT,
	  "AVX2 with non-temporal (streaming) loads and stores" },
	{ "avx512", MMAP_COPY_AVX512, "64-byte vector loads and stores "
	  "(needs AVX-512F)" },
	{ "avx512-nt", MMAP_COPY_AVX512_NT,
	  "AVX-512 with non-temporal (streaming) loads and stores" },
	{ NULL, 0, NULL },
};

const struct opt_enum pmem_flush_enums[] = {
	{ "default", PMEM_FLUSH_DEFAULT, "none for ioengine=mmap; auto for "
	  "dev-dax and libpmem (nt for libpmem with direct=1)" },
	{ "auto", PMEM_FLUSH_AUTO,
	  "the first of clwb, clflushopt, clflush the CPU has" },
	{ "none", PMEM_FLUSH_NONE, "no flush, no fence" },
	{ "clwb", PMEM_FLUSH_CLWB, "write back each written cache line" },
	{ "clflushopt", PMEM_FLUSH_CLFLUSHOPT,
	  "write back and evict each line, weakly ordered" },
	{ "clflush", PMEM_FLUSH_CLFLUSH,
	  "write back and evict each line, strongly ordered" },
	{ "nt", PMEM_FLUSH_NT, "write with non-temporal stores (the -nt "
	  "sibling of mmap_copy)" },
	{ NULL, 0, NULL },
};

/*
 * What each value needs of the CPU: one list for the option check here
 * and the engine's own (engine/pmem.c). A value the CPU lacks is refused
 * when the job is read, before any file is created.
 */
unsigned int mmap_copy_needs(int v)
{
	switch (v) {
	case MMAP_COPY_MOVSB:
		return CPU_ERMS;
	case MMAP_COPY_AVX2:
	case MMAP_COPY_AVX2_NT:
		return CPU_AVX2;
	case MMAP_COPY_AVX512:
	case MMAP_COPY_AVX512_NT:
		return CPU_AVX512F;
	case MMAP_COPY_SSE2_NT:
		return CPU_SSE2;
	}
	return 0;
}

unsigned int pmem_flush_needs(int v)
{
	switch (v) {
	case PMEM_FLUSH_CLWB:
		return CPU_CLWB;
	case PMEM_FLUSH_CLFLUSHOPT:
		return CPU_CLFLUSHOPT;
	case PMEM_FLUSH_CLFLUSH:
		return CPU_CLFLUSH;
	case PMEM_FLUSH_NT:
		return CPU_SSE2;
	}
	return 0;
}

static int cpu_enum_cb(const struct opt_def *def, const char *val, int *v,
		       unsigned int (*needs)(int), struct strbuf *err)
{
	if (opt_enum_lookup(def->enums, val, v)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", val);
		opt_enum_list(def->enums, err);
		strbuf_addch(err, ')');
		return -1;
	}
	return cpu_require(needs(*v), val, err);
}

int mmap_copy_cb(const struct opt_def *def, struct job_options *o,
		 const char *val, struct strbuf *err)
{
	int v;

	if (cpu_enum_cb(def, val, &v, mmap_copy_needs, err))
		return -1;
	o->mmap_copy = (enum mmap_copy)v;
	return 0;
}

void mmap_copy_fmt(const struct opt_def *def,
		   const struct job_options *o, struct strbuf *out)
{
	strbuf_addstr(out, opt_enum_name(def->enums, (int)o->mmap_copy));
}

int pmem_flush_cb(const struct opt_def *def, struct job_options *o,
		  const char *val, struct strbuf *err)
{
	int v;

	if (cpu_enum_cb(def, val, &v, pmem_flush_needs, err))
		return -1;
	o->pmem_flush = (enum pmem_flush)v;
	return 0;
}

void pmem_flush_fmt(const struct opt_def *def,
		    const struct job_options *o, struct strbuf *out)
{
	strbuf_addstr(out, opt_enum_name(def->enums, (int)o->pmem_flush));
}

/*
 * fio 3.33's mmap engines refuse, before any I/O, what a mapping cannot
 * do: file_append=1 (the mapping is of the file's extent; all three, even
 * for reads), and, where the job syncs, a smallest block size (of the
 * three directions', used or not) that is not a multiple of the page
 * size (bs=6k,8k is refused, bs=4k,6k is not): with fsync=N, fdatasync=N
 * or direct=1 (mmap) and with fsync=N
 * or fdatasync=N (libpmem; dev-dax's rule was not seen: fio fails
 * sooner without a device). fio creates the files first; iolite refuses
 * before any file is created. direct_syncs: direct=1 syncs (mmap's);
 * pages: the page size rule applies (not dev-dax's).
 */
static int check_map(struct job_plan *p, bool direct_syncs, bool pages,
		     struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *why = o->fsync ? "fsync" : o->fdatasync ? "fdatasync" :
			  o->direct && direct_syncs ? "direct" : NULL;
	unsigned int val = o->fsync ? o->fsync :
			   o->fdatasync ? o->fdatasync : 1;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), small = 0;
	unsigned int d;

	if (o->file_append)
		return plan_fail(p, err, "option 'file_append': ioengine=%s "
				 "cannot append to a file (it maps the file's "
				 "extent)", o->ioengine);
	if (!why || !pages)
		return 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (!small || p->dir_min_bs[d] < small)
			small = p->dir_min_bs[d];
	if (!(small % page))
		return 0;
	return plan_fail(p, err, "option '%s': ioengine=%s with %s=%u needs "
			 "a smallest block size (of the three directions, "
			 "used or not) that is a multiple of the page size "
			 "(%" PRIu64 " bytes), not %" PRIu64, why, o->ioengine,
			 why, val, page, small);
}

int mmap_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_map(p, true, true, err);
}

int devdax_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_map(p, false, false, err);
}

int libpmem_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_map(p, false, true, err);
}

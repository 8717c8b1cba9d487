/* SPDX-License-Identifier: MIT */
/*
 * The memory-mapped engines:
 *
 *   mmap     a shared mapping of each file's region; reads copy from the
 *            mapping into the I/O buffer, writes from the buffer into the
 *            mapping; as with fio, direct=1 drops each I/O's pages after
 *            it (msync, MADV_DONTNEED)
 *   dev-dax  the same with persistence on (pmem_flush=auto), for device
 *            DAX (/dev/daxX.Y) job files written for fio's PMDK engine
 *   libpmem  the same for files on a DAX filesystem; as with fio's PMDK
 *            engine, direct=1 asks for non-temporal stores
 *
 * Each file's whole I/O region is mapped once, at open, so an I/O is one
 * copy (and, with a flush mode, the cache-line write-backs and a fence):
 * no window, no mapping per I/O, no syscall. The mapping is placed at an
 * address congruent to its file offset modulo the alignment (the device's
 * for device DAX, 2 MiB otherwise) so that the kernel can map it with huge
 * pages where the target allows.
 *
 * Durability: on device DAX and on files mapped with MAP_SYNC (a DAX
 * filesystem), data is persistent once flushed from the CPU caches, which
 * the flush mode does per write; a sync (fsync=, sync=1, end_fsync) then
 * only fences, or flushes what was written when no flush mode did. On
 * other files a sync is msync(MS_SYNC) of the range written since the
 * last one: sync=1 after every write, fsync=N / fdatasync=N every N.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engines.h"
#include "engine/rwflags.h"
#include "engine/pmem.h"
#include "opt/mmap_opts.h"
#include "util/log.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

#define HUGE_2M (2u << 20)

struct mmap_file {
	char *map;		/* the mapping of [off, off + len) */
	size_t len;
	uint64_t off;		/* file offset of map[0] */
	uint64_t align;		/* address alignment it was placed at */
	bool dax;		/* device DAX or MAP_SYNC: flushes persist */
	bool devdax;
	uint64_t dirty_lo;	/* file range written since the last sync */
	uint64_t dirty_hi;
};

struct mmap_engine {
	struct engine e;
	pmem_copy_fn rd;	/* mapping -> buffer */
	pmem_copy_fn wr;	/* buffer -> mapping */
	pmem_persist_fn persist; /* NULL: flush=none */
	enum mmap_copy copy;	/* resolved, for describe() */
	enum mmap_copy wr_copy;
	enum pmem_flush flush;
	int advice;		/* MADV_*, or -1 for none */
	bool advice_strict;	/* given explicitly: a failure is an error */
	bool populate;
	bool sync_each;		/* sync=1 / dsync: sync every write */
	bool drop_each;		/* mmap, direct=1: drop each I/O's pages */
};

static inline struct mmap_engine *to_mmap(struct engine *e)
{
	return (struct mmap_engine *)e;
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static int advice_of(const struct job_plan *p, bool *strict)
{
	*strict = true;
	switch (p->o.mmap_advise) {
	case MMAP_ADVISE_AUTO:
		/* as fio does with its default fadvise_hint=1 */
		*strict = false;
		return p->random ? MADV_RANDOM : MADV_SEQUENTIAL;
	case MMAP_ADVISE_NONE:
		return -1;
	case MMAP_ADVISE_NORMAL:
		return MADV_NORMAL;
	case MMAP_ADVISE_RANDOM:
		return MADV_RANDOM;
	case MMAP_ADVISE_SEQUENTIAL:
		return MADV_SEQUENTIAL;
	case MMAP_ADVISE_WILLNEED:
		return MADV_WILLNEED;
	case MMAP_ADVISE_HUGEPAGE:
		return MADV_HUGEPAGE;
	case MMAP_ADVISE_NOHUGEPAGE:
		return MADV_NOHUGEPAGE;
	}
	return -1;
}

static const char *advice_name(int advice)
{
	switch (advice) {
	case MADV_NORMAL:
		return "normal";
	case MADV_RANDOM:
		return "random";
	case MADV_SEQUENTIAL:
		return "sequential";
	case MADV_WILLNEED:
		return "willneed";
	case MADV_HUGEPAGE:
		return "hugepage";
	case MADV_NOHUGEPAGE:
		return "nohugepage";
	}
	return "none";
}

/*
 * The engine's copy and flush routines, fixed for the whole run. flush
 * is the job's pmem_flush= with "default" already replaced by the
 * engine's own default.
 */
static int mmap_init_common(const struct engine_ops *ops,
			    const struct job_plan *plan, enum pmem_flush flush,
			    struct engine **out, struct strbuf *err)
{
	struct mmap_engine *me;
	enum mmap_copy copy = pmem_copy_resolve(plan->o.mmap_copy);

	/* the option parser refused these already; this guards the API */
	if (pmem_copy_check(copy, err) || pmem_flush_check(flush, err))
		return -EINVAL;
	flush = pmem_flush_resolve(flush);
	me = xcalloc(1, sizeof(*me));
	me->e.ops = ops;
	me->e.plan = plan;
	me->e.depth = 1;
	me->copy = copy;
	me->flush = flush;
	me->wr_copy = flush == PMEM_FLUSH_NT ? pmem_copy_nt(copy) : copy;
	me->rd = pmem_copy_routine(copy);
	me->wr = pmem_copy_routine(me->wr_copy);
	me->persist = pmem_persist_routine(flush);
	me->advice = advice_of(plan, &me->advice_strict);
	me->populate = plan->o.mmap_populate;
	me->sync_each = plan->o.sync != SYNC_NONE;
	/*
	 * fio's mmap engine reads direct=1 as "do not keep the pages": after
	 * each I/O it writes them back and drops them from the mapping, so
	 * the next touch faults them in again. libpmem reads direct=1 as
	 * non-temporal stores instead (its init), dev-dax ignores it.
	 */
	me->drop_each = ops == &engine_mmap_ops && plan->o.direct;
	*out = &me->e;
	return 0;
}

static int mmap_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	enum pmem_flush f = plan->o.pmem_flush;

	if (f == PMEM_FLUSH_DEFAULT)
		f = PMEM_FLUSH_NONE;
	return mmap_init_common(&engine_mmap_ops, plan, f, out, err);
}

static int devdax_init(const struct job_plan *plan, unsigned int depth,
		       struct engine **out, struct strbuf *err)
{
	enum pmem_flush f = plan->o.pmem_flush;

	if (f == PMEM_FLUSH_DEFAULT)
		f = PMEM_FLUSH_AUTO;
	return mmap_init_common(&engine_devdax_ops, plan, f, out, err);
}

/* fio's libpmem: direct=1 writes with non-temporal stores. */
static int libpmem_init(const struct job_plan *plan, unsigned int depth,
			struct engine **out, struct strbuf *err)
{
	enum pmem_flush f = plan->o.pmem_flush;

	if (f == PMEM_FLUSH_DEFAULT)
		f = plan->o.direct ? PMEM_FLUSH_NT : PMEM_FLUSH_AUTO;
	return mmap_init_common(&engine_libpmem_ops, plan, f, out, err);
}

static void mmap_cleanup(struct engine *e)
{
	free(to_mmap(e));
}

/*
 * Maps len bytes of fd from off at an address congruent to off modulo
 * align: an oversized PROT_NONE reservation, the file mapped over the
 * right part of it with MAP_FIXED, the rest given back. The reservation
 * keeps other threads' mappings out of the range while this happens.
 */
static void *map_aligned(size_t len, uint64_t align, int prot, int flags,
			 int fd, uint64_t off)
{
	size_t rlen = len + align;
	uintptr_t r, a, phase;
	void *res, *m;

	if (align <= page_size())
		return mmap(NULL, len, prot, flags, fd, (off_t)off);
	res = mmap(NULL, rlen, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		return mmap(NULL, len, prot, flags, fd, (off_t)off);
	r = (uintptr_t)res;
	phase = (uintptr_t)(off & (align - 1));
	a = r + ((phase - (r & (align - 1))) & (align - 1));
	m = mmap((void *)a, len, prot, flags | MAP_FIXED, fd, (off_t)off);
	if (m == MAP_FAILED) {
		int saved = errno;

		munmap(res, rlen);
		errno = saved;
		return MAP_FAILED;
	}
	if (a > r)
		munmap(res, a - r);
	if (r + rlen > a + len)
		munmap((void *)(a + len), r + rlen - (a + len));
	return m;
}

/* Does the filesystem map this file with MAP_SYNC (a DAX filesystem)? */
static bool probe_map_sync(int fd, int prot, uint64_t off)
{
	void *p = mmap(NULL, page_size(), prot,
		       MAP_SHARED_VALIDATE | MAP_SYNC, fd, (off_t)off);

	if (p == MAP_FAILED)
		return false;
	munmap(p, page_size());
	return true;
}

/* The file, read-write when the job writes: fd, or -errno said in err */
static int mmap_open_fd(const struct job_plan *p, const struct engine_file *f,
			struct strbuf *err)
{
	int fd, ret;

	do {
		fd = open(f->path, O_CLOEXEC | engine_nofollow(f) |
			  (p->writes ? O_RDWR : O_RDONLY));
	} while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		ret = -errno;
		strbuf_addf(err, "cannot open '%s': %s", f->path,
			    strerror(-ret));
		return ret;
	}
	return fd;
}

/*
 * The part of the file to map, into mf: the job's range rounded out to
 * whole pages, or to a device DAX's units and not past its end, and the
 * address alignment. 0, or -EINVAL said in err.
 */
static int mmap_range(struct mmap_file *mf, const struct engine_file *f,
		      const struct pmem_dax_info *dax, struct strbuf *err)
{
	uint64_t page = page_size(), unit, start, end;

	/* device DAX maps only in whole units of its alignment */
	unit = mf->devdax ? dax->align : page;
	start = f->io_offset / unit * unit;
	end = (f->io_offset + f->io_size + unit - 1) / unit * unit;
	if (mf->devdax && end > dax->size)
		end = dax->size;
	if (end <= start) {
		strbuf_addf(err, "nothing to map in '%s'", f->path);
		return -EINVAL;
	}
	mf->off = start;
	mf->len = (size_t)(end - start);
	mf->align = mf->devdax ? dax->align :
		    mf->len >= HUGE_2M ? HUGE_2M : page;
	return 0;
}

/*
 * Maps mf's range of fd (MAP_SYNC where the filesystem is DAX), then
 * gives the kernel the job's advice. 0, or -errno said in err.
 */
static int mmap_map(const struct mmap_engine *me, const struct job_plan *p,
		    struct mmap_file *mf, const struct engine_file *f,
		    int fd, const struct stat *st, struct strbuf *err)
{
	int prot = PROT_READ | (p->writes ? PROT_WRITE : 0);
	int flags = MAP_SHARED;
	int ret;
	void *m;

	if (!mf->devdax && S_ISREG(st->st_mode) && p->writes &&
	    probe_map_sync(fd, prot, mf->off)) {
		flags = MAP_SHARED_VALIDATE | MAP_SYNC;
		mf->dax = true;
	}
	if (me->populate)
		flags |= MAP_POPULATE;
	m = map_aligned(mf->len, mf->align, prot, flags, fd, mf->off);
	if (m == MAP_FAILED) {
		ret = -errno;
		strbuf_addf(err, "cannot map %zu bytes of '%s' at offset "
			    "%" PRIu64 ": %s", mf->len, f->path, mf->off,
			    strerror(-ret));
		return ret;
	}
	mf->map = m;
	/* thp=: fio's hint, its refusal ignored as fio ignores it */
	if (p->o.thp)
		madvise(m, mf->len, MADV_HUGEPAGE);
	if (me->advice >= 0 && madvise(m, mf->len, me->advice) &&
	    me->advice_strict) {
		ret = -errno;
		strbuf_addf(err, "madvise(%s) of '%s' failed: %s",
			    advice_name(me->advice), f->path, strerror(-ret));
		munmap(m, mf->len);
		return ret;
	}
	return 0;
}

static int mmap_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	struct mmap_engine *me = to_mmap(e);
	const struct job_plan *p = e->plan;
	struct mmap_file *mf;
	struct pmem_dax_info dax = { 0, 0 };
	struct stat st;
	int fd, ret;

	fd = mmap_open_fd(p, f, err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = -errno;
		strbuf_addf(err, "cannot stat '%s': %s", f->path,
			    strerror(-ret));
		goto fail;
	}
	/* write_hint, as every engine's open (engine/rwflags.c) */
	ret = rwflags_open(p, f, fd, err);
	if (ret)
		goto fail;
	mf = xcalloc(1, sizeof(*mf));
	if (S_ISCHR(st.st_mode)) {
		ret = pmem_dax_probe(f->path, st.st_rdev, &dax, err);
		if (ret < 0) {
			ret = -ENODEV;
			goto fail_mf;
		}
		mf->devdax = mf->dax = ret == 1;
	}
	ret = mmap_range(mf, f, &dax, err);
	if (!ret)
		ret = mmap_map(me, p, mf, f, fd, &st, err);
	if (ret)
		goto fail_mf;
	mf->dirty_lo = UINT64_MAX;
	mf->dirty_hi = 0;
	f->fd = fd;
	f->engine_data = mf;
	return 0;
fail_mf:
	free(mf);
fail:
	close(fd);
	return ret;
}

static int mmap_close(struct engine *e, struct engine_file *f)
{
	struct mmap_file *mf = f->engine_data;
	int ret = 0;

	if (mf) {
		if (munmap(mf->map, mf->len))
			ret = -errno;
		free(mf);
		f->engine_data = NULL;
	}
	if (f->fd >= 0 && close(f->fd) && !ret)
		ret = -errno;
	f->fd = -1;
	return ret;
}

/*
 * Makes what was written since the last sync durable. Returns 0 or
 * -errno (the form engine_io_result() takes, with 0 for "all of it").
 */
static long sync_dirty(struct mmap_engine *me, struct mmap_file *mf)
{
	uint64_t lo = mf->dirty_lo, hi = mf->dirty_hi;
	long ret = 0;

	if (hi <= lo)
		return 0;
	mf->dirty_lo = UINT64_MAX;
	mf->dirty_hi = 0;
	if (mf->dax) {
		/* a flush mode already wrote each write back and fenced */
		if (!me->persist)
			pmem_flush_range(mf->map + (lo - mf->off), hi - lo);
	} else {
		uint64_t page = page_size();
		uint64_t a = (lo - mf->off) / page * page;

		if (msync(mf->map + a, (size_t)(hi - mf->off - a), MS_SYNC))
			ret = -errno;
	}
	return ret;
}

static long mmap_other(struct mmap_engine *me, struct engine_file *f,
		       struct io_u *u)
{
	long ret;

	switch (u->ddir) {
	case DDIR_SYNC:
	case DDIR_DATASYNC:
	case DDIR_SYNC_FILE_RANGE:	/* fio's mmap syncs the mapping */
		ret = sync_dirty(me, f->engine_data);
		return ret ? ret : (long)u->len;
	case DDIR_TRIM:
		if (f->flags & EF_CHARDEV)
			return -EOPNOTSUPP;
		return engine_do_other(&me->e, f, u);
	default:
		return -EINVAL;
	}
}

/* direct=1 with ioengine=mmap: write back and drop the I/O's pages. */
static long drop_pages(struct mmap_file *mf, char *addr, uint32_t len,
		       bool write)
{
	uintptr_t page = page_size();
	uintptr_t a = (uintptr_t)addr & ~(page - 1);
	size_t n = (size_t)((uintptr_t)addr + len - a);

	if (write && !mf->dax && msync((void *)a, n, MS_SYNC))
		return -errno;
	if (madvise((void *)a, n, MADV_DONTNEED))
		return -errno;
	return 0;
}

/*
 * One copy, and for writes the flush and fence: no syscall, no clock
 * (but the syscalls sync=1 and direct=1 ask for).
 */
static enum engine_q mmap_queue(struct engine *e, struct io_u *u)
{
	struct mmap_engine *me = to_mmap(e);
	struct engine_file *f = &e->files[u->file];
	struct mmap_file *mf = f->engine_data;
	uint64_t rel = u->offset - mf->off;
	char *addr;

	if (unlikely(u->ddir > DDIR_WRITE)) {
		engine_io_result(u, mmap_other(me, f, u));
		return ENGINE_Q_DONE;
	}
	if (unlikely(u->offset < mf->off || rel >= mf->len ||
		     u->len > mf->len - rel)) {
		engine_io_result(u, -EINVAL);
		return ENGINE_Q_DONE;
	}
	addr = mf->map + rel;
	u->error = 0;
	u->resid = 0;
	if (likely(u->ddir == DDIR_READ)) {
		me->rd(u->buf, addr, u->len);
		if (unlikely(me->drop_each)) {
			long ret = drop_pages(mf, addr, u->len, false);

			if (ret)
				engine_io_result(u, ret);
		}
		return ENGINE_Q_DONE;
	}
	me->wr(addr, u->buf, u->len);
	if (me->persist)
		me->persist(addr, u->len);
	if (u->offset < mf->dirty_lo)
		mf->dirty_lo = u->offset;
	if (u->offset + u->len > mf->dirty_hi)
		mf->dirty_hi = u->offset + u->len;
	if (unlikely(me->sync_each)) {
		long ret = sync_dirty(me, mf);

		if (ret) {
			engine_io_result(u, ret);
			return ENGINE_Q_DONE;
		}
	}
	if (unlikely(me->drop_each)) {
		long ret = drop_pages(mf, addr, u->len, true);

		if (ret)
			engine_io_result(u, ret);
	}
	return ENGINE_Q_DONE;
}

static int mmap_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	return 0;
}

static struct io_u *mmap_event(struct engine *e, unsigned int i)
{
	BUG("mmap engines have no events");
}

/* ---- describe ---- */

struct smaps_sum {
	uint64_t rss_kb;
	uint64_t pmd_kb;	/* mapped with 2 MiB (PMD) entries */
	uint64_t pud_kb;	/* 1 GiB, where smaps reports it */
	uint64_t kps_kb;	/* largest KernelPageSize seen */
	bool found;
};

/* Adds up what /proc/self/smaps says of the VMAs in [lo, hi). */
static void smaps_read(uintptr_t lo, uintptr_t hi, struct smaps_sum *s)
{
	char line[512];
	bool in = false;
	FILE *fp = fopen("/proc/self/smaps", "re");

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long a, b, v;
		char key[64];

		if (sscanf(line, "%llx-%llx ", &a, &b) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a < hi && b > lo;
			s->found |= in;
			continue;
		}
		if (!in || sscanf(line, "%63[^:]: %llu kB", key, &v) != 2)
			continue;
		if (!strcmp(key, "Rss"))
			s->rss_kb += v;
		else if (!strcmp(key, "FilePmdMapped") ||
			 !strcmp(key, "ShmemPmdMapped") ||
			 !strcmp(key, "AnonHugePages"))
			s->pmd_kb += v;
		else if (!strcmp(key, "FilePudMapped"))
			s->pud_kb += v;
		else if (!strcmp(key, "KernelPageSize") && v > s->kps_kb)
			s->kps_kb = v;
	}
	fclose(fp);
}

/* "4KiB", "2MiB", "1.5GiB": one decimal unless exact. */
static void add_size(struct strbuf *out, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;
	uint64_t div = 1;

	while (u + 1 < ARRAY_SIZE(units) && bytes >= div * 1024) {
		div *= 1024;
		u++;
	}
	if (bytes % div == 0)
		strbuf_addf(out, "%" PRIu64 "%s", bytes / div, units[u]);
	else
		strbuf_addf(out, "%.1f%s", (double)bytes / (double)div,
			    units[u]);
}

static void mmap_describe(struct engine *e, struct strbuf *out)
{
	struct mmap_engine *me = to_mmap(e);
	struct smaps_sum s;
	uint64_t mapped = 0, align = 0;
	unsigned int i, nr = 0, ndax = 0, ndev = 0;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < e->nr_files; i++) {
		struct mmap_file *mf = e->files[i].engine_data;

		if (!mf)
			continue;
		nr++;
		mapped += mf->len;
		ndax += mf->dax;
		ndev += mf->devdax;
		if (mf->align > align)
			align = mf->align;
		smaps_read((uintptr_t)mf->map, (uintptr_t)mf->map + mf->len,
			   &s);
	}
	if (!nr)
		return;
	strbuf_addf(out, "%s: ", e->ops->name);
	add_size(out, mapped);
	strbuf_addf(out, " mapped in %u file%s", nr, nr == 1 ? "" : "s");
	if (align > page_size()) {
		strbuf_addstr(out, " at ");
		add_size(out, align);
		strbuf_addstr(out, " alignment");
	}
	if (ndev)
		strbuf_addstr(out, ", device DAX");
	else if (ndax)
		strbuf_addstr(out, ", DAX (MAP_SYNC)");
	strbuf_addstr(out, ", ");
	if (!s.found) {
		strbuf_addstr(out, "page size unknown");
	} else {
		uint64_t kps = s.kps_kb ? s.kps_kb : page_size() / 1024;

		/*
		 * KernelPageSize is the VMA's base page (2 MiB on device
		 * DAX mapped in 2 MiB units); huge pages of tmpfs or a DAX
		 * filesystem show as PMD-mapped bytes instead.
		 */
		if (s.pud_kb && s.pud_kb == s.rss_kb)
			kps = 1u << 20;
		else if (s.pmd_kb && s.pmd_kb + s.pud_kb == s.rss_kb &&
			 kps < 2048)
			kps = 2048;
		add_size(out, kps * 1024);
		strbuf_addstr(out, " pages");
		if (kps < 2048 && s.pmd_kb && s.rss_kb)
			strbuf_addf(out, " and 2MiB pages (%" PRIu64 "%% of "
				    "resident)", s.pmd_kb * 100 / s.rss_kb);
		else if (kps < 1u << 20 && s.pud_kb && s.rss_kb)
			strbuf_addf(out, " and 1GiB pages (%" PRIu64 "%% of "
				    "resident)", s.pud_kb * 100 / s.rss_kb);
	}
	strbuf_addf(out, ", copy=%s", pmem_copy_name(me->copy));
	if (me->wr_copy != me->copy && e->plan->writes)
		strbuf_addf(out, " (writes %s)", pmem_copy_name(me->wr_copy));
	strbuf_addf(out, ", flush=%s", pmem_flush_name(me->flush));
	if (me->populate)
		strbuf_addstr(out, ", populated");
	if (e->plan->o.thp)
		strbuf_addstr(out, ", thp");
	if (me->advice >= 0)
		strbuf_addf(out, ", advice=%s", advice_name(me->advice));
}

/* thp is fio's mmap engine's alone */
static const char *const mmap_options[] = {
	"mmap_populate", "mmap_advise", "mmap_copy", "pmem_flush", "thp",
	NULL,
};
static const char *const pmem_options[] = {
	"mmap_populate", "mmap_advise", "mmap_copy", "pmem_flush", NULL,
};

#define MMAP_OPS(n, h, initfn, opts, rule) {				\
	.name = n,							\
	.help = h,							\
	.flags = ENGINE_F_SYNC | ENGINE_F_NO_ODIRECT | ENGINE_F_MAPS,	\
	.options = opts,						\
	.plan_check = rule,						\
	.init = initfn,							\
	.cleanup = mmap_cleanup,					\
	.open_file = mmap_open,						\
	.close_file = mmap_close,					\
	.queue = mmap_queue,						\
	.getevents = mmap_getevents,					\
	.event = mmap_event,						\
	.describe = mmap_describe,					\
}

const struct engine_ops engine_mmap_ops =
	MMAP_OPS("mmap", "one shared mapping per file, data copied to and "
		 "from it; direct=1 drops pages after each I/O", mmap_init,
		 mmap_options, mmap_plan_check);
const struct engine_ops engine_devdax_ops =
	MMAP_OPS("dev-dax", "mmap with persistence on (pmem_flush=auto), "
		 "for device DAX", devdax_init, pmem_options,
		 devdax_plan_check);
const struct engine_ops engine_libpmem_ops =
	MMAP_OPS("libpmem", "mmap with persistence on; direct=1 writes with "
		 "non-temporal stores", libpmem_init, pmem_options,
		 libpmem_plan_check);

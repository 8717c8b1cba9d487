/* SPDX-License-Identifier: MIT */
/*
 * Per-I/O flags and per-file hints (see rwflags.h). The checks at open
 * are one read, statx or fcntl per file; nothing here runs per I/O but
 * rwflags_get(), inline in the header.
 */
#include "engine/rwflags.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "opt/opt.h"

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT		1036	/* F_LINUX_SPECIFIC_BASE + 12 */
#endif
#ifndef F_SET_FILE_RW_HINT
#define F_SET_FILE_RW_HINT	1038	/* gone since Linux 5.17 */
#endif
#ifndef STATX_WRITE_ATOMIC
#define STATX_WRITE_ATOMIC	0x00010000U
#endif
/* struct statx's atomic write limits (Linux 6.11), by byte offset */
#define STATX_OFF_AWU_MIN	0xa8
#define STATX_OFF_AWU_MAX	0xac

/* The PRNG stream of the RWF_HIPRI draws, apart from the others. */
#define HIPRI_STREAM 17

void rwflags_init(struct rwflags *r, const struct job_plan *p,
		  bool with_hipri)
{
	const struct job_options *o = &p->o;
	int both = 0;

	memset(r, 0, sizeof(*r));
	if (o->nowait)
		both |= RWF_NOWAIT;
	if (o->uncached)
		both |= RWF_DONTCACHE;
	if (with_hipri && o->hipri && o->hipri_percentage == 100)
		both |= RWF_HIPRI;
	r->rwf[0] = both;
	r->rwf[1] = both | (o->atomic ? RWF_ATOMIC : 0);
	if (with_hipri && o->hipri && o->hipri_percentage &&
	    o->hipri_percentage < 100) {
		r->hipri_draw = true;
		r->hipri_cut = (uint32_t)(((uint64_t)o->hipri_percentage << 32)
					  / 100);
		prng_taus_seed(&r->rnd, prng_derive(prng_derive(o->randseed,
					p->job_index), HIPRI_STREAM));
	}
}

/*
 * One read with RWF_DONTCACHE at the end of the file: the kernel checks
 * the flag against the file system before it looks at the offset, and at
 * the end no data moves (a read of 0 bytes).
 */
static int probe_dontcache(const char *path, int fd, struct strbuf *err)
{
	struct iovec iov;
	void *buf;
	ssize_t ret;
	off_t end = lseek(fd, 0, SEEK_END);
	int e;

	if (end < 0)
		end = 0;
	if (posix_memalign(&buf, 4096, 4096))
		return -ENOMEM;
	iov.iov_base = buf;
	iov.iov_len = 4096;
	ret = preadv2(fd, &iov, 1, end, RWF_DONTCACHE);
	e = errno;
	free(buf);
	if (ret >= 0)
		return 0;
	if (e == EOPNOTSUPP)
		strbuf_addf(err, "option 'uncached': the file system of '%s' "
			    "has no uncached I/O (RWF_DONTCACHE: EOPNOTSUPP)",
			    path);
	else if (e == EINVAL)
		strbuf_addf(err, "option 'uncached': this kernel has no "
			    "RWF_DONTCACHE (Linux 6.14 and later have it)");
	else
		strbuf_addf(err, "option 'uncached': reading '%s' with "
			    "RWF_DONTCACHE failed: %s", path, strerror(e));
	return -e;
}

static int check_atomic(const struct job_plan *p, const char *path, int fd,
			struct strbuf *err)
{
	uint64_t sx[32];	/* struct statx: 256 bytes */
	uint64_t lo = p->dir_min_bs[DDIR_WRITE], hi = p->dir_max_bs[DDIR_WRITE];
	uint32_t amin, amax;
	unsigned int mask;

	memset(sx, 0, sizeof(sx));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_WRITE_ATOMIC,
		    sx) < 0) {
		strbuf_addf(err, "option 'atomic': statx of '%s' failed: %s",
			    path, strerror(errno));
		return -errno;
	}
	memcpy(&mask, sx, sizeof(mask));
	memcpy(&amin, (char *)sx + STATX_OFF_AWU_MIN, sizeof(amin));
	memcpy(&amax, (char *)sx + STATX_OFF_AWU_MAX, sizeof(amax));
	if (!(mask & STATX_WRITE_ATOMIC) || !amax) {
		strbuf_addf(err, "option 'atomic': '%s' takes no atomic writes "
			    "(statx reports no STATX_WRITE_ATOMIC unit: the "
			    "file system or the device has none)", path);
		return -EOPNOTSUPP;
	}
	if (lo < amin || hi > amax || (lo & (lo - 1)) || (hi & (hi - 1))) {
		strbuf_addf(err, "option 'atomic': '%s' takes atomic writes "
			    "of %u to %u bytes, a power of two; the job writes "
			    "%llu to %llu", path, amin, amax,
			    (unsigned long long)lo, (unsigned long long)hi);
		return -EINVAL;
	}
	return 0;
}

static int set_write_hint(const struct job_plan *p,
			  const struct engine_file *f, int fd,
			  struct strbuf *err)
{
	uint64_t hint = p->o.write_hint;
	/* with O_DIRECT fio sets the open file's hint, else the inode's */
	int cmd = p->o.direct ? F_SET_FILE_RW_HINT : F_SET_RW_HINT;

	if (!fcntl(fd, cmd, &hint))
		return 0;
	strbuf_addf(err, "option 'write_hint': fcntl(%s) on '%s' failed: %s%s",
		    p->o.direct ? "F_SET_FILE_RW_HINT" : "F_SET_RW_HINT",
		    f->path, strerror(errno),
		    p->o.direct && errno == EINVAL ?
		    " (Linux 5.17 removed the per-file hint that fio sets "
		    "with direct=1)" : "");
	return -errno;
}

int rwflags_check(const struct job_plan *p, const char *path, int fd,
		  struct strbuf *err)
{
	int ret = 0;

	if (p->o.uncached)
		ret = probe_dontcache(path, fd, err);
	if (!ret && p->o.atomic && p->writes)
		ret = check_atomic(p, path, fd, err);
	return ret;
}

int rwflags_open(const struct job_plan *p, const struct engine_file *f,
		 int fd, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	int ret = 0;

	if (opt_is_set(o, "write_hint") &&
	    (f->flags & (EF_REGULAR | EF_BLOCKDEV)))
		ret = set_write_hint(p, f, fd, err);
	return ret;
}

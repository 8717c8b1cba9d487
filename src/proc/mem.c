/* SPDX-License-Identifier: MIT */
/*
 * The I/O buffers' memory: fio's mem= types, iomem_align and
 * hugepage-size (see mem.h). Allocated once per job, never on the I/O
 * path.
 */
#include "proc/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "util/safefile.h"

uint64_t mem_info_bytes(const char *field)
{
	const char *path = getenv("IOLITE_MEMINFO");
	FILE *f = fopen(path && *path ? path : "/proc/meminfo", "re");
	size_t len = strlen(field);
	char line[128];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':' &&
		    sscanf(line + len + 1, " %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

/* The kernel's default huge page size in bytes, 0 when it has none. */
static uint64_t sys_huge_size(void)
{
	return mem_info_bytes("Hugepagesize");
}

static bool huge_type(enum mem_type t)
{
	return t == MEM_SHMHUGE || t == MEM_MMAPHUGE;
}

static int on_hugetlbfs(const char *file)
{
	char *copy = xstrdup(file);
	struct statfs sf;
	int ret;

	ret = statfs(file, &sf);
	if (ret && errno == ENOENT)
		ret = statfs(dirname(copy), &sf);
	free(copy);
	if (ret)
		return -errno;
	return sf.f_type == HUGETLBFS_MAGIC;
}

static int check_file(const struct job_plan *p, enum mem_type t,
		      const char *file, struct strbuf *err)
{
	char *copy;
	struct stat st;
	int ret;

	if (t == MEM_MMAPHUGE) {
		ret = on_hugetlbfs(file);
		if (ret < 0)
			return plan_fail(p, err, "option 'mem': '%s': %s",
					 file, strerror(-ret));
		if (!ret)
			return plan_fail(p, err, "option 'mem': '%s' is not on "
					 "a hugetlbfs mount (mount -t hugetlbfs "
					 "none DIR)", file);
	}
	if (!stat(file, &st)) {
		if (!S_ISREG(st.st_mode))
			return plan_fail(p, err, "option 'mem': '%s' is not a "
					 "regular file", file);
		/* a shared mapping would write the buffers into the file */
		if (t != MEM_MMAP)
			return plan_fail(p, err, "option 'mem': '%s' exists: "
					 "the shared mapping would write into "
					 "it; name a new file (made for the "
					 "run and removed after it)", file);
		return 0;
	}
	copy = xstrdup(file);
	ret = access(dirname(copy), W_OK) ? -errno : 0;
	free(copy);
	if (ret)
		return plan_fail(p, err, "option 'mem': cannot make '%s': %s",
				 file, strerror(-ret));
	return 0;
}

int iomem_check(const struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct strbuf why = STRBUF_INIT;
	const char *file;
	enum mem_type t;
	uint64_t sys;

	if (sys_mem_parse(o->mem, &t, &file, &why)) {
		plan_fail(p, err, "option 'mem': %s", strbuf_str(&why));
		strbuf_release(&why);
		return -1;
	}
	if (huge_type(t)) {
		sys = sys_huge_size();
		if (!sys)
			return plan_fail(p, err, "option 'mem': this kernel "
					 "has no huge pages");
		if (!o->hugepage_size || o->hugepage_size % sys)
			return plan_fail(p, err, "option 'hugepage-size': "
					 "%llu is not a multiple of this "
					 "system's huge page size (%llu)",
					 (unsigned long long)o->hugepage_size,
					 (unsigned long long)sys);
	}
	return file ? check_file(p, t, file, err) : 0;
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

/* A file mapping: a new file is made (and removed at free). */
static int map_file(struct iomem *m, const char *file, int flags,
		    struct strbuf *err)
{
	struct stat st;
	int fd, e;

	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		m->unlink = xstrdup(file);
	else if (errno == EEXIST)	/* there before, or another job's */
		fd = sf_open(file, O_RDWR, 0644, SF_NAMED, NULL);
	if (fd < 0 || fstat(fd, &st))
		goto fail;
	if ((uint64_t)st.st_size < m->map_len &&
	    ftruncate(fd, (off_t)m->map_len))
		goto fail;
	m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (m->map == MAP_FAILED)
		goto fail;
	close(fd);
	return 0;
fail:
	e = errno;
	strbuf_addf(err, "option 'mem': '%s': %s", file, strerror(e));
	if (fd >= 0)
		close(fd);
	m->map = NULL;
	return -e;
}

static int map_shm(struct iomem *m, bool huge, struct strbuf *err)
{
	int id = shmget(IPC_PRIVATE, m->map_len,
			IPC_CREAT | 0600 | (huge ? SHM_HUGETLB : 0));
	void *a;

	if (id < 0)
		return -1;
	a = shmat(id, NULL, 0);
	/* gone once detached: a killed run leaves no segment behind */
	shmctl(id, IPC_RMID, NULL);
	if (a == (void *)-1)
		return -1;
	m->map = a;
	m->shm = true;
	return 0;
}

int iomem_alloc(struct iomem *m, const struct job_plan *p, size_t max_bs,
		unsigned int nr, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), lead = 0;
	const char *file;
	int anon = MAP_PRIVATE | MAP_ANONYMOUS, ret = 0;

	memset(m, 0, sizeof(*m));
	if (sys_mem_parse(o->mem, &m->type, &file, err))
		return -EINVAL;
	if (o->iomem_align) {
		m->stride = max_bs ? max_bs : page;
		lead = (size_t)o->iomem_align;
	} else {
		m->stride = max_bs ? round_up(max_bs, page) : page;
	}
	m->len = m->stride * nr;
	m->map_len = round_up(m->len + lead, page);
	if (huge_type(m->type))
		m->map_len = round_up(m->map_len, (size_t)o->hugepage_size);

	switch (m->type) {
	case MEM_SHM:
	case MEM_SHMHUGE:
		ret = map_shm(m, m->type == MEM_SHMHUGE, err);
		break;
	case MEM_MMAPHUGE:
		if (file) {
			if ((ret = map_file(m, file, MAP_SHARED, err)))
				return ret;
			break;
		}
		m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE,
			      anon | MAP_HUGETLB, -1, 0);
		break;
	case MEM_MMAPSHARED:
	case MEM_MMAP: {
		int flags = m->type == MEM_MMAP ? MAP_PRIVATE : MAP_SHARED;

		if (file) {
			if ((ret = map_file(m, file, flags, err)))
				return ret;
			break;
		}
		m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE,
			      flags | MAP_ANONYMOUS, -1, 0);
		break;
	}
	case MEM_MALLOC:
		m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, anon,
			      -1, 0);
		break;
	}
	if (ret || m->map == MAP_FAILED) {
		int e = errno;

		m->map = NULL;
		strbuf_addf(err, "cannot allocate %zu bytes of I/O buffers "
			    "(mem=%s): %s", m->map_len, o->mem ? o->mem :
			    "malloc", strerror(e));
		if (huge_type(m->type) && (e == ENOMEM || e == EINVAL))
			strbuf_addf(err, "; %zu free huge pages of %llu bytes "
				    "are needed (reserve them in "
				    "/proc/sys/vm/nr_hugepages)",
				    m->map_len / (size_t)o->hugepage_size,
				    (unsigned long long)o->hugepage_size);
		return -e;
	}
	m->base = (char *)m->map + lead;
	return 0;
}

void iomem_free(struct iomem *m)
{
	if (m->map && m->shm)
		shmdt(m->map);
	else if (m->map)
		munmap(m->map, m->map_len);
	if (m->unlink) {
		unlink(m->unlink);
		free(m->unlink);
	}
	memset(m, 0, sizeof(*m));
}

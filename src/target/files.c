/* SPDX-License-Identifier: MIT */
/*
 * Targets: the files and devices each job works on, their sizes and the
 * region of each a job touches.
 *
 * files_resolve() looks (stat, a read-only open of block devices for
 * their size) and decides everything; it creates nothing, so a bad job
 * file never leaves a stray file behind or issues I/O. files_prepare()
 * then does what resolve decided: directories, files, layout.
 *
 * Jobs that name the same file share one "target": it is created and laid
 * out once, to the largest size any of them needs, and a later job may
 * rely on the size an earlier one gives it (as with fio, where the writer
 * runs first and the reader after a stonewall).
 */
#include "target/files.h"
#include "target/fileopts.h"
#include "target/files_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "target/limits.h"
#include "target/safety.h"
#include "engine/nvme.h"
#include "engine/pmem.h"
#include "engine/rwflags.h"
#include "util/log.h"
#include "util/numfmt.h"
#include "util/safefile.h"
#include "util/prng.h"
#include "target/iolog_defer.h"
#include "workload/iolog.h"
#include "workload/workload.h"
#include "zbd/zbd.h"

#define DEFAULT_FILENAME_FORMAT "$jobname.$jobnum.$filenum"
#define DEFAULT_LBS 512u

/*
 * Every target is allocated on its own: resolve_job() keeps pointers to
 * them (slots) while later jobs add more, so the array of pointers may
 * move but a target never does.
 */
struct targets {
	struct target **t;
	size_t nr, alloc;
};

int files_fail(struct strbuf *err, const struct job_plan *p,
	       const char *opt, const char *fmt, ...)
{
	va_list ap;

	if (p->src_file)
		strbuf_addf(err, "%s:%d: ", p->src_file, p->src_line);
	else if (p->o.name)
		strbuf_addf(err, "job '%s': ", p->o.name);
	if (opt)
		strbuf_addf(err, "option '%s': ", opt);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- names ---- */

/*
 * Splits a ':'-separated list where '\:' stands for a colon. Empty
 * entries are dropped. Returns the count; *out is a malloc'd array of
 * malloc'd strings.
 */
static size_t split_list(const char *s, char ***out)
{
	struct strbuf cur = STRBUF_INIT;
	char **v = NULL;
	size_t n = 0;

	for (;; s++) {
		if (*s == '\\' && s[1] == ':') {
			strbuf_addch(&cur, ':');
			s++;
			continue;
		}
		if (*s == ':' || !*s) {
			if (cur.len) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = strbuf_detach(&cur);
			}
			if (!*s)
				break;
			continue;
		}
		strbuf_addch(&cur, *s);
	}
	strbuf_release(&cur);
	*out = v;
	return n;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Expands $jobname, $jobnum, $filenum and $clientuid in filename_format. */
static void expand_format(struct strbuf *sb, const char *fmt,
			  const struct job_plan *p, unsigned int filenum)
{
	static const char jobname[] = "$jobname", jobnum[] = "$jobnum",
			  filen[] = "$filenum", clientuid[] = "$clientuid";

	while (*fmt) {
		if (!strncmp(fmt, jobname, sizeof(jobname) - 1)) {
			strbuf_addstr(sb, p->o.name ? p->o.name : "");
			fmt += sizeof(jobname) - 1;
		} else if (!strncmp(fmt, jobnum, sizeof(jobnum) - 1)) {
			strbuf_addf(sb, "%u", p->clone);
			fmt += sizeof(jobnum) - 1;
		} else if (!strncmp(fmt, filen, sizeof(filen) - 1)) {
			strbuf_addf(sb, "%u", filenum);
			fmt += sizeof(filen) - 1;
		} else if (!strncmp(fmt, clientuid, sizeof(clientuid) - 1)) {
			/* fio's client/server address: empty when local */
			fmt += sizeof(clientuid) - 1;
		} else {
			strbuf_addch(sb, *fmt++);
		}
	}
}

static void add_dir(struct strbuf *sb, const char *dir)
{
	if (!dir)
		return;
	strbuf_addstr(sb, dir);
	if (sb->len && sb->buf[sb->len - 1] != '/')
		strbuf_addch(sb, '/');
}

/*
 * The job's file names. fio's rules: filename= lists the files (a later
 * nrfiles= keeps only its first nrfiles names: opt_files_order_cb()) and
 * all clones share them; otherwise nrfiles names
 * from filename_format, one set per clone. directory= prefixes every
 * name, even an absolute one (as fio does); with several directories,
 * clones with generated names take them round-robin and named files use
 * the first.
 */
static int job_names(const struct job_plan *p, char ***names, size_t *nr,
		     struct strbuf *err)
{
	const struct job_options *o = &p->o;
	char **dirs = NULL, **v = NULL;
	size_t nd = 0, n, i;
	const char *dir = NULL;

	/*
	 * An empty value (filename=) names nothing: fio refuses it ("option
	 * filename requires an argument"); taking it as unset would put a
	 * default-named file in the current directory.
	 */
	if (o->filename && !*o->filename)
		return files_fail(err, p, "filename", "an empty value names no "
				  "file");
	if (o->directory && !*o->directory)
		return files_fail(err, p, "directory", "an empty value names no "
				  "directory");
	if (o->filename_format && !*o->filename_format)
		return files_fail(err, p, "filename_format", "an empty value "
				  "names no file");
	if (p->replay) {	/* read_iolog: the log's files, as named */
		n = p->replay->nr_files;
		v = xcalloc(n, sizeof(*v));
		for (i = 0; i < n; i++)
			v[i] = xstrdup(p->replay->files[i]);
		*names = v;
		*nr = n;
		return 0;
	}
	if (o->directory && *o->directory) {
		nd = split_list(o->directory, &dirs);
		if (nd)
			dir = dirs[0];
	}
	if (o->filename && *o->filename) {
		n = split_list(o->filename, &v);
		while (o->nrfiles_cuts && n > o->nrfiles)
			free(v[--n]);
		for (i = 0; i < n; i++) {
			struct strbuf sb = STRBUF_INIT;

			if (!strcmp(v[i], "-")) {
				free_list(v, n);
				free_list(dirs, nd);
				return files_fail(err, p, "filename", "'-' (stdin or "
					    "stdout) is not supported");
			}
			add_dir(&sb, dir);
			strbuf_addstr(&sb, v[i]);
			free(v[i]);
			v[i] = strbuf_detach(&sb);
		}
	} else {
		const char *fmt = o->filename_format && *o->filename_format ?
			o->filename_format : DEFAULT_FILENAME_FORMAT;

		n = o->nrfiles ? o->nrfiles : 1;
		if (nd)
			dir = dirs[p->clone % nd];
		v = xcalloc(n, sizeof(*v));
		for (i = 0; i < n; i++) {
			struct strbuf sb = STRBUF_INIT;

			add_dir(&sb, dir);
			expand_format(&sb, fmt, p, (unsigned int)i);
			v[i] = strbuf_detach(&sb);
		}
	}
	free_list(dirs, nd);
	if (o->opendir && fileopts_opendir(p, &v, &n, err))
		return -1;
	if (!n) {
		free(v);
		return files_fail(err, p, "filename", "no file name given");
	}
	*names = v;
	*nr = n;
	return 0;
}

/* ---- looking at the target, touching nothing ---- */

char *files_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * The nearest ancestor of path that exists, with its stat. A component
 * that exists but is not a directory ends the walk too: the caller
 * reports it.
 */
char *files_existing_ancestor(const char *path, struct stat *st)
{
	char *d = files_dir_of(path);

	for (;;) {
		char *up;

		if (!stat(d, st))
			return d;
		if (!strcmp(d, "/") || !strcmp(d, "."))
			return d;	/* stat failed on / or . itself */
		up = files_dir_of(d);
		free(d);
		d = up;
	}
}

static bool under_dev(const char *path)
{
	return !strcmp(path, "/dev") || !strncmp(path, "/dev/", 5);
}

/*
 * The logical block size of the block device behind a filesystem, which
 * is what O_DIRECT alignment answers to (st_blksize is the filesystem's
 * preferred I/O size, a different thing). For a partition the queue
 * limits live on the whole disk, one level up. Filesystems without a
 * block device (tmpfs, NFS) fall back to 512.
 */
static unsigned int fs_logical_block_size(dev_t dev)
{
	char path[128];
	unsigned int v;

	snprintf(path, sizeof(path),
		 "/sys/dev/block/%u:%u/queue/logical_block_size",
		 major(dev), minor(dev));
	v = (unsigned int)limits_read_ull(path);
	if (!v) {
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 major(dev), minor(dev));
		v = (unsigned int)limits_read_ull(path);
	}
	return v ? v : DEFAULT_LBS;
}

static bool is_sysfs_blockdev(dev_t dev)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	return !access(path, F_OK);
}

const char *files_name_opt(const struct job_plan *p)
{
	if (p->o.filename && *p->o.filename)
		return "filename";
	if (p->o.directory && *p->o.directory)
		return "directory";
	return NULL;
}

/* Sizes a block device with a read-only open (no I/O). */
static int size_blockdev(const struct job_plan *p, struct target *t,
			 struct strbuf *err)
{
	uint64_t bytes = 0;
	int lbs = 0;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return files_fail(err, p, files_name_opt(p), "cannot open '%s': %s",
			    t->path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		int e = errno;

		close(fd);
		return files_fail(err, p, files_name_opt(p), "cannot size block device "
			    "'%s': %s", t->path, strerror(e));
	}
	close(fd);
	t->cur_size = bytes;
	t->lbs = lbs > 0 ? (unsigned int)lbs : DEFAULT_LBS;
	return 0;
}

/*
 * A character device has no size of its own, except a device DAX node,
 * whose size (and mapping alignment) sysfs gives: pmem_dax_probe() reads
 * it, from $IOLITE_SYSFS_ROOT when set so tests can fake one, and an
 * NVMe namespace's generic node, whose Identify Namespace gives it
 * (size_nvme()). Other character devices need size=.
 */
static int size_nvme(const struct job_plan *p, struct target *t,
		     struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	struct nvme_ns_info ns;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return files_fail(err, p, files_name_opt(p), "cannot open '%s': %s",
				  t->path, strerror(errno));
	ret = nvme_ns_probe(fd, t->path, &ns, &msg);
	close(fd);
	if (ret < 0) {
		files_fail(err, p, files_name_opt(p), "%s", strbuf_str(&msg));
		strbuf_release(&msg);
		return -1;
	}
	strbuf_release(&msg);
	/* extended LBAs: the job's bytes count each block's metadata too */
	t->lbs = nvme_block_bytes(&ns, p->o.pi_act);
	t->cur_size = ns.nsze * t->lbs;
	t->sized = true;
	return 0;
}

static int size_chardev(const struct job_plan *p, struct target *t,
			struct strbuf *err)
{
	struct pmem_dax_info dax;
	struct strbuf msg = STRBUF_INIT;
	int ret;

	if (nvme_is_generic(t->st.st_rdev))
		return size_nvme(p, t, err);
	ret = pmem_dax_probe(t->path, t->st.st_rdev, &dax, &msg);

	if (ret < 0) {
		files_fail(err, p, files_name_opt(p), "%s", strbuf_str(&msg));
		strbuf_release(&msg);
		return -1;
	}
	strbuf_release(&msg);
	if (ret == 1) {
		t->dax = true;
		t->sized = true;
		t->cur_size = dax.size;
	}
	return 0;
}

/*
 * A missing file: may it be created, and where? Refuses a missing path
 * on the /dev filesystem, and a parent that is not a directory.
 */
static int check_creatable(const struct job_plan *p, struct target *t,
			   struct strbuf *err)
{
	struct stat st, devst;
	char *anc = files_existing_ancestor(t->path, &st);
	char *real = NULL;
	int ret = 0;

	if (stat(anc, &st)) {
		ret = files_fail(err, p, files_name_opt(p), "cannot create '%s': %s",
			   t->path, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		ret = files_fail(err, p, files_name_opt(p), "cannot create '%s': '%s' is "
			   "not a directory", t->path, anc);
		goto out;
	}
	/*
	 * A name under /dev that does not exist is almost always a device
	 * that is missing (/dev/dax0.0 without the driver, a typo in
	 * /dev/nvme0n1): creating it would put a plain file on the /dev
	 * filesystem (or the root disk) and benchmark that instead. Mounts
	 * below /dev such as /dev/shm are ordinary places for files.
	 */
	real = realpath(anc, NULL);
	if (real && under_dev(real) && !stat("/dev", &devst) &&
	    devst.st_dev == st.st_dev) {
		ret = files_fail(err, p, files_name_opt(p), "'%s' does not exist; iolite "
			   "does not create files under /dev (that would "
			   "benchmark a plain file instead of the device)",
			   t->path);
		goto out;
	}
	if (!p->o.allow_file_create) {
		ret = files_fail(err, p, "allow_file_create", "'%s' does not exist "
			   "and allow_file_create=0 forbids creating it",
			   t->path);
		goto out;
	}
	/* the missing directories below anc are made there too */
	if (access(anc, W_OK | X_OK)) {
		ret = files_fail(err, p, files_name_opt(p), "cannot create "
				 "'%s' in '%s': %s", t->path, anc,
				 strerror(errno));
		goto out;
	}
	t->fs_dev = st.st_dev;
out:
	free(real);
	free(anc);
	return ret;
}

/*
 * Does the filesystem take O_DIRECT? An existing file is opened with it
 * (read-only, no I/O). For a file still to be created, an unnamed
 * O_TMPFILE in the nearest existing directory answers without leaving
 * anything behind; where O_TMPFILE is not supported the engine's own open
 * will tell.
 */
static int check_odirect(const struct job_plan *p, struct target *t,
			 struct strbuf *err)
{
	int fd;

	if (t->odirect_ok || t->kind != EF_REGULAR)
		return 0;
	if (t->exists) {
		fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	} else {
		struct stat st;
		char *anc = files_existing_ancestor(t->path, &st);

		fd = open(anc, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC,
			  0600);
		free(anc);
		if (fd < 0 && errno != EINVAL) {
			t->odirect_ok = true;
			return 0;
		}
	}
	if (fd < 0) {
		if (errno == EINVAL)
			return files_fail(err, p, "direct", "the filesystem of '%s' "
				    "does not support O_DIRECT (direct=1)",
				    t->path);
		return files_fail(err, p, files_name_opt(p), "cannot open '%s': %s",
			    t->path, strerror(errno));
	}
	close(fd);
	t->odirect_ok = true;
	return 0;
}

/*
 * Can the target be opened as the job (or the layout) will: read-only,
 * or read-write when it is written? An immutable or append-only file
 * (chattr +i, +a) cannot be written even by root: open() would say EPERM
 * only once the job runs, after the other files were laid out.
 */
static int check_access(const struct job_plan *p, const struct target *t,
			bool write, struct strbuf *err)
{
	struct statx stx;
	uint64_t attrs = 0;

	/* statx: the file's attributes without opening it */
	if (write && t->kind == EF_REGULAR &&
	    !statx(AT_FDCWD, t->path, 0, 0, &stx))
		attrs = stx.stx_attributes & stx.stx_attributes_mask;
	if (attrs & (STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND))
		return files_fail(err, p, files_name_opt(p), "cannot write "
				  "'%s': it is %s (%s): %s", t->path,
				  attrs & STATX_ATTR_IMMUTABLE ? "immutable" :
				  "append-only", attrs & STATX_ATTR_IMMUTABLE ?
				  "chattr +i" : "chattr +a", strerror(EPERM));
	if (access(t->path, R_OK | (write ? W_OK : 0)))
		return files_fail(err, p, files_name_opt(p), "cannot %s '%s': "
				  "%s", write ? "write" : "read", t->path,
				  strerror(errno));
	return 0;
}

/*
 * uncached=1, atomic=1: do the kernel and the target's file system (and
 * for atomic, its device) take RWF_DONTCACHE, and RWF_ATOMIC at the
 * job's write sizes? Asked before anything is laid out, with
 * engine/rwflags.c's probes: an existing target is opened read-only;
 * for a file still to be made, an unnamed O_TMPFILE in the nearest
 * existing directory stands for it and leaves nothing behind. Where the file system has no O_TMPFILE nothing is asked: the
 * job's first I/O fails (EOPNOTSUPP) if the flag is not taken.
 */
static int check_rwflags(const struct job_plan *p, const struct target *t,
			 struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int fd, ret;

	if (!p->o.uncached && !(p->o.atomic && p->writes))
		return 0;
	if (t->kind != EF_REGULAR && t->kind != EF_BLOCKDEV)
		return 0;
	if (t->exists) {
		fd = open(t->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return files_fail(err, p, files_name_opt(p), "cannot "
					  "open '%s': %s", t->path,
					  strerror(errno));
	} else {
		struct stat st;
		char *anc = files_existing_ancestor(t->path, &st);

		fd = open(anc, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		free(anc);
		if (fd < 0)
			return 0;
	}
	ret = rwflags_check(p, t->path, fd, &why);
	close(fd);
	if (ret)
		files_fail(err, p, NULL, "%s", strbuf_str(&why));
	strbuf_release(&why);
	return ret ? -1 : 0;
}

static struct target *find_target(struct targets *ts, const char *path,
				  const struct stat *st, bool exists)
{
	size_t i;

	for (i = 0; i < ts->nr; i++) {
		struct target *t = ts->t[i];

		if (!strcmp(t->path, path))
			return t;
		if (exists && t->exists && t->st.st_dev == st->st_dev &&
		    t->st.st_ino == st->st_ino)
			return t;
	}
	return NULL;
}

/*
 * Finds or adds the target for path, looking at it once. A name iolite
 * made up (made) is never followed through a symlink; a named one is,
 * but not another user's in a shared sticky directory (util/safefile.h).
 */
static int get_target(const struct job_plan *p, struct targets *ts,
		      const char *path, bool made, struct target **out,
		      struct strbuf *err)
{
	struct target *t;
	struct stat st;
	const char *why;
	bool exists;

	if (sf_check(path, p->writes, made ? 0 : SF_NAMED, &why))
		return files_fail(err, p, files_name_opt(p), "'%s': %s%s", path,
				  why, made && errno == ELOOP ? " (name the "
				  "file with filename= to use it)" : "");
	exists = !stat(path, &st);
	if (!exists && errno != ENOENT && errno != ENOTDIR)
		return files_fail(err, p, files_name_opt(p), "cannot access '%s': %s",
			    path, strerror(errno));
	t = find_target(ts, path, &st, exists);
	if (t) {
		*out = t;
		return 0;
	}
	if (ts->nr == ts->alloc) {
		ts->alloc = ts->alloc ? 2 * ts->alloc : 8;
		ts->t = xrealloc(ts->t, ts->alloc * sizeof(*ts->t));
	}
	t = xcalloc(1, sizeof(*t));
	ts->t[ts->nr] = t;
	t->path = xstrdup(path);
	t->exists = exists;
	ts->nr++;
	*out = t;

	if (!exists) {
		t->kind = EF_REGULAR;
		return check_creatable(p, t, err);
	}
	t->st = st;
	if (S_ISBLK(st.st_mode)) {
		t->kind = EF_BLOCKDEV;
		t->fs_dev = st.st_rdev;
		return size_blockdev(p, t, err);
	}
	if (S_ISCHR(st.st_mode)) {
		t->kind = EF_CHARDEV;
		return size_chardev(p, t, err);
	}
	if (S_ISREG(st.st_mode)) {
		t->kind = EF_REGULAR;
		t->cur_size = (uint64_t)st.st_size;
		t->fs_dev = st.st_dev;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return files_fail(err, p, files_name_opt(p), "'%s' is a directory", path);
	return files_fail(err, p, files_name_opt(p), "'%s' is neither a file nor a "
		    "device", path);
}

/* ---- direct=1 alignment ---- */

static int check_mult(const struct job_plan *p, const struct target *t,
		      const char *opt, uint64_t v, struct strbuf *err)
{
	if (!v || v % t->lbs == 0)
		return 0;
	return files_fail(err, p, opt, "%llu is not a multiple of the logical block "
		    "size %u of '%s', required by direct=1",
		    (unsigned long long)v, t->lbs, t->path);
}

/*
 * A bssplit size as the job writes it: cut to a multiple of the
 * direction's smallest unless bs_unaligned (fio: bssplit=4k/50:8000/50
 * with direct=1 writes 4096s only), so the cut size is what must suit
 * direct=1 (r10k jobs 3908, 5716: 16KiB and 8KiB among 4k and 8k runs
 * in fio)
 */
static uint64_t split_size(const struct job_plan *p, unsigned int d,
			   unsigned int i)
{
	uint64_t v = p->o.bssplit[d][i].bs, lo = p->dir_min_bs[d];

	if (p->o.bs_unaligned || !lo)
		return v;
	return v - v % lo;
}

/*
 * Strided zones start every zonerange + zoneskip bytes: with direct=1
 * that step must suit the device too, once the job gets past its first
 * zone (fio 3.33 fails the first read of the next zone with EINVAL:
 * zonesize=32K zoneskip=16KiB, 16000, reads 48768). The option named is
 * the one off the grid.
 */
static int check_zone_step(const struct job_plan *p, const struct target *t,
			   struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t range = o->zonerange ? o->zonerange : o->zonesize;
	uint64_t step = range + o->zoneskip;
	uint64_t bytes = o->io_size.bytes ? o->io_size.bytes : o->size.bytes;

	if (o->zonemode != ZONE_MODE_STRIDED || !step || step % t->lbs == 0)
		return 0;
	if (!o->time_based && bytes &&
	    bytes * (o->loops ? o->loops : 1) <= o->zonesize)
		return 0;	/* one zone: no step is taken */
	return files_fail(err, p, o->zoneskip % t->lbs ? "zoneskip" :
			  "zonerange", "zones start every %llu bytes "
			  "(zonerange + zoneskip), not a multiple of the "
			  "logical block size %u of '%s', required by "
			  "direct=1", (unsigned long long)step, t->lbs,
			  t->path);
}

static int check_direct(const struct job_plan *p, struct target *t,
			uint64_t off, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int d, i;

	if (t->kind == EF_CHARDEV)
		return 0;
	if (!t->lbs)
		t->lbs = fs_logical_block_size(t->fs_dev);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (p->ddir_mask && !ddir_used(p, (enum ddir)d))
			continue;
		/* the option that sets the direction's sizes, as validate.c */
		if (o->nr_bssplit[d]) {
			for (i = 0; i < o->nr_bssplit[d] && i < BSSPLIT_MAX;
			     i++)
				if (check_mult(p, t, "bssplit",
					       split_size(p, d, i), err))
					return -1;
		} else if (o->bsrange[d].max) {
			if (check_mult(p, t, "bsrange", o->bsrange[d].min,
				       err) ||
			    check_mult(p, t, "bsrange", o->bsrange[d].max,
				       err))
				return -1;
		} else if (check_mult(p, t, "bs", o->bs[d], err)) {
			return -1;
		}
		if (check_mult(p, t, "blockalign", o->blockalign[d], err))
			return -1;
	}
	if (check_mult(p, t, region_offset_opt(p), off, err) ||
	    check_zone_step(p, t, err))
		return -1;
	return check_odirect(p, t, err);
}

/* ---- resolve ---- */

static void add_dev(struct job_files *jf, dev_t dev)
{
	unsigned int i;

	if (!major(dev) || !is_sysfs_blockdev(dev))
		return;
	for (i = 0; i < jf->nr_devs; i++)
		if (jf->devs[i] == dev)
			return;
	jf->devs = xrealloc(jf->devs, (jf->nr_devs + 1) * sizeof(*jf->devs));
	jf->devs[jf->nr_devs++] = dev;
}

static bool job_reads(const struct job_plan *p)
{
	/* trims too: punching holes in a never-written file tests nothing */
	return !p->ddir_mask || ddir_used(p, DDIR_READ) ||
	       ddir_used(p, DDIR_TRIM);
}

/*
 * directory= must exist, as with fio: a mistyped mount point would
 * otherwise be created on the root filesystem and benchmarked instead.
 */
static int check_dirs(const struct job_plan *p, struct strbuf *err)
{
	char **dirs;
	size_t nd, i;
	int ret = 0;

	if (!p->o.directory || !*p->o.directory)
		return 0;
	nd = split_list(p->o.directory, &dirs);
	for (i = 0; i < nd && !ret; i++) {
		struct stat st;

		if (stat(dirs[i], &st)) {
			int e = errno;

			if (e == ENOENT)
				ret = files_fail(err, p, "directory", "'%s' does not "
					   "exist", dirs[i]);
			else
				ret = files_fail(err, p, "directory", "'%s': %s",
					   dirs[i], strerror(e));
		} else if (!S_ISDIR(st.st_mode)) {
			ret = files_fail(err, p, "directory", "'%s' is not a "
				   "directory", dirs[i]);
		}
	}
	free_list(dirs, nd);
	return ret;
}

/*
 * The workload's own checks (zones, distributions, block sizes against
 * each region) once the regions are known, before anything is created:
 * a job that cannot run stops here rather than in its worker.
 */
static int check_workload(const struct job_plan *p,
			  const struct job_files *jf, struct strbuf *err)
{
	return workload_check(p, jf->files, jf->nr_files, err);
}

/*
 * filesize= with size=: the files are filesize big and size is only the
 * default io_size, as fio's HOWTO says (size=N% made each region N% of
 * its file: region_of_job()). A pass still ends when the files are done, so
 * a size beyond them changes nothing (fio: no wrap without io_size=).
 * io_size=N% is N% of the regions, and with filesize= at most size=, as
 * fio 3.33 and 3.42 (filesize=256k size=100k io_size=50% writes 100KiB).
 */
/*
 * Are the job's files all character devices that end at size= (split
 * over the files: region_chardev_end()), no DAX node among them?
 */
static bool all_chardevs(const struct job_plan *p, const struct job_files *jf)
{
	unsigned int i;

	for (i = 0; i < jf->nr_files; i++)
		if (!(jf->files[i].flags & EF_CHARDEV) ||
		    jf->files[i].real_size != p->o.size.bytes / jf->nr_files)
			return false;
	return jf->nr_files > 0;
}

static int default_io_size(struct job_plan *p, const struct job_files *jf,
			   struct strbuf *err)
{
	struct job_options *o = &p->o;
	uint64_t total = jf->total_io_size, least;
	bool capped = o->filesize.min && o->size.bytes && !p->replay;

	if (capped && !o->io_size.bytes && !o->io_size.pct &&
	    o->size.bytes < total) {
		o->io_size.bytes = o->size.bytes;
		return 0;
	}
	if (!o->io_size.pct)
		return 0;
	/*
	 * io_size=N%: in bytes from here on. On character devices, which
	 * end at size=, fio takes it of size= whole, not of what offset=
	 * leaves of it (size=1M offset=64k io_size=75% of /dev/zero: 192
	 * writes of 4k, where 75% of the region would be 180)
	 */
	o->io_size.bytes = region_pct_of(total, o->io_size.pct);
	if (!o->filesize.min && o->size.bytes && !o->size.pct &&
	    all_chardevs(p, jf)) {
		/* ... and at most the region, as a percentage always is */
		o->io_size.bytes = region_pct_of(o->size.bytes,
						 o->io_size.pct);
		if (o->io_size.bytes > total)
			o->io_size.bytes = total;
	}
	if (capped && o->size.bytes < o->io_size.bytes)
		o->io_size.bytes = o->size.bytes;
	if (!o->io_size.bytes)
		return files_fail(err, p, "io_size", "%u%% of %llu bytes is "
				  "nothing", o->io_size.pct,
				  (unsigned long long)total);
	/* fio: less than the smallest block of any direction is refused */
	least = region_least_bs(p);
	if (o->io_size.bytes < least)
		return files_fail(err, p, "io_size", "%u%% of %llu bytes is "
				  "%llu bytes, less than the block size %llu",
				  o->io_size.pct, (unsigned long long)total,
				  (unsigned long long)o->io_size.bytes,
				  (unsigned long long)least);
	return 0;
}

/* The job's files, named (names taken over), not looked at yet. */
static void files_alloc(struct job_files *jf, struct target ***slots,
			char **names, size_t n, bool made)
{
	size_t i;

	jf->files = xcalloc(n, sizeof(*jf->files));
	jf->need_create = xcalloc(n, sizeof(*jf->need_create));
	jf->need_layout = xcalloc(n, sizeof(*jf->need_layout));
	jf->need_fill = xcalloc(n, sizeof(*jf->need_fill));
	*slots = xcalloc(n, sizeof(**slots));
	jf->nr_files = (unsigned int)n;
	for (i = 0; i < n; i++) {
		jf->files[i].path = names[i];
		jf->files[i].fd = -1;
		jf->files[i].flags = made ? EF_MADE : 0;
	}
	free(names);
}

static bool nvme_target(const struct target *t)
{
	return t->exists && t->kind == EF_CHARDEV &&
	       nvme_is_generic(t->st.st_rdev);
}

/*
 * Writes through a namespace's generic node land on its block device
 * too: the same checks, on that device (target/safety.c).
 */
static int check_nvme_write(const struct job_plan *p, const struct target *t,
			    struct strbuf *err)
{
	char blk[64];
	struct stat st;

	if (nvme_blockdev_of(t->path, blk, sizeof(blk)) || stat(blk, &st))
		return 0;	/* no block device: nothing mounts it */
	return safety_check_blockdev(p, blk, st.st_rdev, err);
}

/*
 * NVMe commands address whole logical blocks: the job's block sizes,
 * blockalign and region start must be multiples of the namespace's
 * (with extended LBAs, of data and metadata: not a power of two).
 */
static int check_nvme_blocks(const struct job_plan *p, const struct target *t,
			     uint64_t off, struct strbuf *err)
{
	static const char *const dn[DDIR_RWDIR_CNT] = {
		"read", "write", "trim",
	};
	uint64_t b = t->lbs;

	if (!b)
		return 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!p->dir_min_bs[d])
			continue;
		if (p->dir_min_bs[d] % b || p->dir_max_bs[d] % b)
			return files_fail(err, p, "bs", "'%s' has %u-byte blocks: a %s block of %llu bytes is not a whole number of them",
					  t->path, t->lbs,
					  dn[d],
					  (unsigned long long)(p->dir_min_bs[d] % b ?
					  p->dir_min_bs[d] : p->dir_max_bs[d]));
		if (p->o.blockalign[d] % b)
			return files_fail(err, p, "blockalign", "'%s' has %u-byte blocks: %llu is not a whole number of them",
					  t->path, t->lbs,
					  (unsigned long long)p->o.blockalign[d]);
	}
	if (off % b)
		return files_fail(err, p, region_offset_opt(p), "'%s' has %u-byte blocks: the region starts at %llu, inside one",
				  t->path, t->lbs, (unsigned long long)off);
	return 0;
}

/* What target t must allow this job (its region starts at off). */
static int target_checks(const struct job_plan *p,
			 const struct engine_ops *ops, struct target *t,
			 uint64_t off, struct strbuf *err)
{
	/* engines that never use O_DIRECT need no support for it */
	if (p->o.direct && !(ops && (ops->flags & ENGINE_F_NO_ODIRECT)) &&
	    check_direct(p, t, off, err))
		return -1;
	if (ops && (ops->flags & ENGINE_F_NVME_CHAR) && !nvme_target(t))
		return files_fail(err, p, files_name_opt(p), "ioengine '%s' works on an NVMe namespace's generic character device (/dev/ngXnY): '%s' is %s",
				  ops->name, t->path, !t->exists ? "missing" :
				  t->kind == EF_BLOCKDEV ? "a block device" :
				  t->kind == EF_CHARDEV ? "another character device" :
				  "a file");
	/* mounted, in use or holding data: see target/safety.c */
	if (t->kind == EF_BLOCKDEV && p->writes &&
	    safety_check_blockdev(p, t->path, t->st.st_rdev, err))
		return -1;
	if (nvme_target(t) && check_nvme_blocks(p, t, off, err))
		return -1;
	if (p->writes && nvme_target(t) && check_nvme_write(p, t, err))
		return -1;
	if (t->kind == EF_REGULAR && t->exists && p->writes &&
	    safety_check_file(p, t->path, &t->st, err))
		return -1;
	if (t->exists && t->kind != EF_CHARDEV &&
	    check_access(p, t, p->writes, err))
		return -1;
	return check_rwflags(p, t, err) ? -1 : 0;
}

/* A regular file the job makes or sizes: its size, fill and layout. */
static void target_claim(const struct job_plan *p,
			 const struct engine_ops *ops, struct target *t,
			 struct engine_file *f, uint64_t off, uint64_t len)
{
	if (off + len > t->want_size)
		t->want_size = off + len;
	if (job_reads(p) || (p->o.overwrite && p->writes) ||
	    (ops && (ops->flags & ENGINE_F_MAPS)))
		t->fill = true;
	f->io_offset_later = region_later_offset(p, region_known_size(t), off);
	t->layout = true;
}

/*
 * The null engine on a character device: fio looks at the name all the
 * same, and the device ends its region at size= as with any engine
 * (region_chardev_end(); size=64k offset=32k on /dev/zero: 64 writes,
 * not 128; a numjobs clone whose offset_increment starts at size= has
 * nothing to do). True when t is one, made a character device.
 */
static bool fake_chardev(const struct engine_ops *ops, struct target *t)
{
	struct stat st;

	if (!(ops->flags & ENGINE_F_FAKEIO) || stat(t->path, &st) ||
	    !S_ISCHR(st.st_mode))
		return false;
	t->kind = EF_CHARDEV;
	return true;
}

static int resolve_job(struct job_plan *p, struct targets *ts,
		       struct job_files *jf, struct target ***slots,
		       struct strbuf *err)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);
	/* names only: no files (null), or the engine makes them itself */
	bool nofile = ops && (ops->flags & (ENGINE_F_NOFILEIO |
					    ENGINE_F_NOLAYOUT |
					    ENGINE_F_REMOTE));
	bool has_dirs = !ops || !(ops->flags & (ENGINE_F_NOFILEIO |
						ENGINE_F_REMOTE));
	bool remote = ops && ops->remote_probe;
	/* names from filename_format are iolite's: never followed */
	bool made = !p->replay && !(p->o.filename && *p->o.filename) &&
		    !p->o.opendir;
	char **names = NULL;
	uint64_t *fsizes;
	size_t n = 0, i;
	int ret = 0;

	if ((has_dirs && check_dirs(p, err)) || job_names(p, &names, &n, err))
		return -1;
	fsizes = p->replay ? NULL : region_draw_filesizes(p, (unsigned int)n);
	files_alloc(jf, slots, names, n, made);

	for (i = 0; i < n && !ret; i++) {
		struct engine_file *f = &jf->files[i];
		struct target tmp, *t = &tmp;
		uint64_t off = 0, len = 0;
		bool sized = false;

		if (remote) {
			/* on a server: sized by the engine's probe (nbd,
			 * libiscsi, rbd) */
			if (remote_target(p, ops, f->path, &tmp, err)) {
				ret = -1;
				break;
			}
		} else if (nofile) {
			/* null: names only, nothing is opened */
			memset(&tmp, 0, sizeof(tmp));
			tmp.path = f->path;
			sized = fake_chardev(ops, &tmp);
		} else if (get_target(p, ts, f->path, made, &t, err)) {
			ret = -1;
			break;
		}
		if (p->replay)	/* read_iolog: as far as the log goes */
			ret = iolog_region(p, (unsigned int)i,
					   t->kind == EF_BLOCKDEV ?
					   t->cur_size : 0, &off, &len, err);
		else
			ret = region_of_job(p, t, fsizes ? fsizes[i] :
					 p->o.filesize.min, (unsigned int)n,
					 nofile && !remote && !sized, &off, &len,
					 err);
		if (!ret && p->o.zonemode == ZONE_MODE_ZBD && !nofile)
			ret = zbd_check_target(p, f->path,
					       t->kind == EF_BLOCKDEV, &off,
					       &len, err);
		if (ret)
			break;
		f->io_offset = off;
		f->io_size = len;
		f->real_size = off + len;
		jf->total_io_size += len;
		/*
		 * null: the file fio imagines ends where the region does, and
		 * a percentage offset is taken of that for later sweeps
		 * (size=256k offset=50% io_size=768k: 128k-384k, then from
		 * 192k)
		 */
		if (remote) {
			ret = check_nvme_blocks(p, t, off, err);
			f->io_offset_later = region_later_offset(p, t->cur_size,
								 off);
			continue;
		}
		if (nofile) {
			f->io_offset_later = region_later_offset(p, off + len, off);
			continue;
		}
		(*slots)[i] = t;
		f->flags |= t->kind;
		if ((ret = target_checks(p, ops, t, off, err)))
			break;
		/* create_on_open: the job neither creates nor sizes it */
		if (t->kind == EF_REGULAR && !p->o.create_on_open) {
			target_claim(p, ops, t, f, off, len);
			f->setup_size = region_known_size(t);
		}
		add_dev(jf, t->fs_dev);
	}
	free(fsizes);
	if (!ret && p->o.filesize.min && p->o.size.pct && !jf->total_io_size)
		ret = files_fail(err, p, "size", "%u%% of the files (filesize) "
				 "is less than one block", p->o.size.pct);
	/* no I/O at all says more than a percentage of nothing */
	if (!ret)
		ret = check_workload(p, jf, err);
	if (!ret)
		ret = default_io_size(p, jf, err);
	return ret;
}

/*
 * Free space, before anything is written: what the layouts will take on
 * each file system (written data, or space fallocate=native, posix or
 * keep reserves; a sparse layout takes nothing yet) must be free there.
 * An offset=1t typo would otherwise write until the disk is full.
 * fill_device jobs fill it on purpose and are left out.
 */
struct fs_need {
	dev_t dev;
	uint64_t need, most;
	unsigned int job, file;	/* the biggest layout on it */
};

static uint64_t layout_bytes(const struct job_plan *p, const struct target *t)
{
	if (p->o.fill_device || (!t->fill &&
	    (p->o.fallocate == FALLOCATE_NONE ||
	     p->o.fallocate == FALLOCATE_TRUNCATE)))
		return 0;
	return t->want_size - t->cur_size;
}

static int space_short(const struct job_plan *plans,
		       const struct job_files *out, const struct fs_need *n,
		       struct strbuf *err)
{
	const struct job_plan *p = &plans[n->job];
	const struct engine_file *f = &out[n->job].files[n->file];
	struct strbuf need = STRBUF_INIT, avail = STRBUF_INIT;
	struct statvfs vfs;
	struct stat st;
	char *where = !out[n->job].need_create[n->file] ? xstrdup(f->path) :
		      files_existing_ancestor(f->path, &st);
	uint64_t free_bytes;
	int ret = 0;

	if (statvfs(where, &vfs))
		goto out;	/* cannot tell: the layout will */
	free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (n->need <= free_bytes)
		goto out;
	numfmt(&need, n->need, 4, true, NUMFMT_BYTE);
	numfmt(&avail, free_bytes, 4, true, NUMFMT_BYTE);
	ret = files_fail(err, p, f->io_offset > f->io_size ? region_offset_opt(p) :
			 p->o.filesize.min ? "filesize" : "size",
			 "laying out '%s' to %llu bytes (offset %llu + %llu) "
			 "needs %s%s on its file system, which has %s free",
			 f->path, (unsigned long long)f->real_size,
			 (unsigned long long)f->io_offset,
			 (unsigned long long)f->io_size, strbuf_str(&need),
			 n->need > n->most ? " with the other files there" : "",
			 strbuf_str(&avail));
out:
	strbuf_release(&need);
	strbuf_release(&avail);
	free(where);
	return ret;
}

static int check_space(const struct job_plan *plans, unsigned int nr,
		       const struct job_files *out, struct target ***slots,
		       struct strbuf *err)
{
	struct fs_need *v = NULL;
	size_t nv = 0, j;
	unsigned int i, k;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		for (k = 0; k < out[i].nr_files; k++) {
			const struct target *t = slots[i][k];
			uint64_t b;

			if (!t || t->kind != EF_REGULAR ||
			    !out[i].need_layout[k] ||
			    !(b = layout_bytes(&plans[i], t)))
				continue;
			for (j = 0; j < nv && v[j].dev != t->fs_dev; j++)
				;
			if (j == nv) {
				v = xrealloc(v, (nv + 1) * sizeof(*v));
				memset(&v[nv++], 0, sizeof(*v));
				v[j].dev = t->fs_dev;
			}
			v[j].need += b;
			if (b > v[j].most) {
				v[j].most = b;
				v[j].job = i;
				v[j].file = k;
			}
		}
	}
	for (j = 0; j < nv && !ret; j++)
		ret = space_short(plans, out, &v[j], err);
	free(v);
	return ret;
}

/*
 * create_on_open=1, and every job on the target says so: nothing is
 * created or laid out before the run (but its directories, as fio); the
 * job's open creates a missing file, empty, and a read job reads what
 * is there: past its end, a read that moves nothing (fio: EIO with the
 * sync engines). A mapping engine (mmap) needs the bytes there before
 * it maps them: fio dies of SIGBUS, iolite refuses.
 */
static int on_open(const struct job_plan *p, const struct target *t,
		   struct engine_file *f, struct strbuf *err)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);

	if (ops && (ops->flags & ENGINE_F_MAPS) &&
	    t->cur_size < f->io_offset + f->io_size)
		return files_fail(err, p, "create_on_open", "'%s' is %s, "
				  "and ioengine=%s maps the job's region: lay "
				  "the file out first (create_on_open=0)",
				  f->path, t->exists ? "shorter than the "
				  "job's region" : "missing", ops->name);
	if (!t->exists)
		f->flags |= EF_CREATE;
	return 0;
}

static int by_fio_jobnr(const void *a, const void *b, void *plans)
{
	const struct job_plan *p = plans;
	unsigned int x = plan_fio_jobnr(&p[*(const unsigned int *)a]);
	unsigned int y = plan_fio_jobnr(&p[*(const unsigned int *)b]);

	return x < y ? -1 : x > y;
}

/*
 * The jobs in fio's order (plan_fio_jobnr(): a job, then its clones from
 * the last named to the first), the order fio sets their files up in: a
 * percentage offset is of the size the jobs before left a shared file
 * (numjobs=3 offset_increment=100% on one file: .2's region before .1's).
 */
static unsigned int *fio_order(const struct job_plan *plans, unsigned int nr)
{
	unsigned int *v = xcalloc(nr ? nr : 1, sizeof(*v)), i;

	for (i = 0; i < nr; i++)
		v[i] = i;
	qsort_r(v, nr, sizeof(*v), by_fio_jobnr, (void *)plans);
	return v;
}

int files_resolve(struct job_plan *plans, unsigned int nr,
		  struct job_files *out, struct strbuf *err)
{
	struct targets ts = { NULL, 0, 0 };
	struct target ***slots = xcalloc(nr ? nr : 1, sizeof(*slots));
	unsigned int *order = fio_order(plans, nr);
	unsigned int i, j, k;
	int ret = 0;

	for (i = 0; i < nr; i++)
		memset(&out[i], 0, sizeof(out[i]));
	for (j = 0; j < nr && !ret; j++) {
		i = order[j];
		/* a log an earlier group writes: the writers' files */
		ret = iolog_defer_files(plans, i, out, err);
		if (!ret)
			ret = resolve_job(&plans[i], &ts, &out[i], &slots[i],
					  err);
	}
	free(order);

	/*
	 * Now that every job has said what it needs: each target's final
	 * size, and which job's entry carries the create / layout work
	 * (the first that uses the target) so it happens once.
	 */
	for (i = 0; i < nr && !ret; i++) {
		struct job_files *jf = &out[i];

		for (k = 0; k < jf->nr_files; k++) {
			struct target *t = slots[i][k];
			struct engine_file *f = &jf->files[k];

			if (!t)
				continue;
			if (t->kind == EF_BLOCKDEV || t->sized)
				f->real_size = t->cur_size;
			else if (t->kind == EF_REGULAR)
				f->real_size = region_known_size(t);
			else if (t->kind == EF_CHARDEV &&
				 region_chardev_end(&plans[i], t, jf->nr_files,
					     false) != UINT64_MAX)
				/* fio's bound: size= (filesize= may be less) */
				f->real_size = region_chardev_end(&plans[i], t,
							   jf->nr_files, false);
			if (t->kind != EF_REGULAR)
				continue;
			if (plans[i].o.create_on_open && !t->layout &&
			    (ret = on_open(&plans[i], t, f, err)))
				break;
			if (t->claimed)
				continue;
			t->claimed = true;
			jf->need_create[k] = !t->exists;
			jf->need_layout[k] = t->layout &&
					     t->want_size > t->cur_size;
			jf->need_fill[k] = t->fill;
			/* a read job grows an existing file: written too */
			if (t->exists && jf->need_layout[k] &&
			    (ret = check_access(&plans[i], t, true, err)))
				break;
		}
	}

	if (!ret)
		ret = check_space(plans, nr, out, slots, err);
	if (!ret)
		ret = limits_check(plans, nr, err);
	for (i = 0; i < nr; i++)
		free(slots[i]);
	free(slots);
	for (i = 0; i < ts.nr; i++) {
		free(ts.t[i]->path);
		free(ts.t[i]);
	}
	free(ts.t);
	if (ret)
		for (i = 0; i < nr; i++)
			job_files_release(&out[i]);
	return ret ? -1 : 0;
}

void files_finish(const struct job_plan *p, struct job_files *jf)
{
	unsigned int k;

	if (!p->o.unlink)
		return;
	/* regular files only: a device node is never removed */
	for (k = 0; k < jf->nr_files; k++)
		if (jf->files[k].flags & EF_REGULAR)
			unlink(jf->files[k].path);
		else if (jf->files[k].flags & EF_DIR)	/* dircreate ... */
			rmdir(jf->files[k].path);
}

void job_files_release(struct job_files *jf)
{
	unsigned int k;

	for (k = 0; k < jf->nr_files; k++)
		free(jf->files[k].path);
	free(jf->files);
	free(jf->devs);
	free(jf->need_create);
	free(jf->need_layout);
	free(jf->need_fill);
	memset(jf, 0, sizeof(*jf));
}

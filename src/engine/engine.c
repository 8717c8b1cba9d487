/* SPDX-License-Identifier: MIT */
/*
 * The engine table and what the file-based engines share: opening a
 * target with the job's flags.
 *
 * Engines are listed here explicitly, nothing registers itself: the table
 * is the one place to read which engines a build has and what each is
 * (its flags, its options, its plan rule). The option checks ask it
 * through opt/engine_decl.h, whose calls are answered here.
 */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "engine/engines.h"
#include "engine/rwflags.h"
#include "opt/opt.h"
#include "opt/refused.h"
#include "util/log.h"

/*
 * The order is --enghelp's and that of the lists of engines in messages
 * ("only pvsync2, io_uring, libaio"). libaio and io_uring are declared
 * in every build; without their library they have no init and
 * engine_find() passes them over.
 */
const struct engine_ops *const engine_table[] = {
	&engine_sync_ops,
	&engine_psync_ops,
	&engine_vsync_ops,
	&engine_pvsync_ops,
	&engine_pvsync2_ops,
	&engine_null_ops,
	&engine_io_uring_ops,
	&engine_io_uring_cmd_ops,
	&engine_libaio_ops,
	&engine_posixaio_ops,
	&engine_mmap_ops,
	&engine_devdax_ops,
	&engine_libpmem_ops,
	&engine_filecreate_ops,
	&engine_filestat_ops,
	&engine_filedelete_ops,
	&engine_dircreate_ops,
	&engine_dirstat_ops,
	&engine_dirdelete_ops,
	&engine_falloc_ops,
	&engine_ftruncate_ops,
	&engine_cpuio_ops,
	&engine_exec_ops,
	&engine_net_ops,
	&engine_netsplice_ops,
	&engine_e4defrag_ops,
	&engine_nbd_ops,
	&engine_libiscsi_ops,
	&engine_nfs_ops,
	&engine_http_ops,
	&engine_rados_ops,
	&engine_rbd_ops,
	NULL,
};

/* Other names fio accepts for an engine. */
static const struct {
	const char *alias;
	const char *name;
} engine_aliases[] = {
	{ "aio", "libaio" },
	{ "linuxaio", "libaio" },
};

static const char *unalias(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engine_aliases); i++)
		if (!strcmp(name, engine_aliases[i].alias))
			return engine_aliases[i].name;
	return name;
}

/* The engine's declaration, built or not, or NULL. */
static const struct engine_ops *decl_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	name = unalias(name);
	for (i = 0; engine_table[i]; i++)
		if (!strcmp(name, engine_table[i]->name))
			return engine_table[i];
	return NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *ops = decl_find(name);

	return ops && ops->init ? ops : NULL;
}

int engine_load(const struct engine_ops *ops, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int r = ops->load ? ops->load(&why) : 0;

	if (r)
		strbuf_addf(err, "ioengine '%s': %s", ops->name,
			    strbuf_str(&why));
	strbuf_release(&why);
	return r ? -1 : 0;
}

bool engine_has_option(const struct engine_ops *ops, const char *opt)
{
	const char *const *o;

	for (o = ops ? ops->options : NULL; o && *o; o++)
		if (!strcmp(*o, opt))
			return true;
	return false;
}

bool engine_decl_known(const char *name)
{
	return decl_find(name) != NULL;
}

unsigned int engine_decl_flags(const char *name)
{
	const struct engine_ops *ops = decl_find(name);

	return ops ? ops->flags : 0;
}

bool engine_decl_has(const char *name, const char *opt)
{
	return engine_has_option(decl_find(name), opt);
}

static bool decl_named(const struct engine_ops *ops, const char *opt,
		       unsigned int flags)
{
	return opt ? engine_has_option(ops, opt) : (ops->flags & flags) != 0;
}

unsigned int engine_decl_names(const char *opt, unsigned int flags,
			       const char *last, struct strbuf *out)
{
	unsigned int n = 0, k = 0;
	size_t i;

	for (i = 0; engine_table[i]; i++)
		n += decl_named(engine_table[i], opt, flags);
	for (i = 0; engine_table[i]; i++) {
		if (!decl_named(engine_table[i], opt, flags))
			continue;
		if (k++)
			strbuf_addstr(out, k == n && last ? last : ", ");
		strbuf_addstr(out, engine_table[i]->name);
	}
	return n;
}

int engine_decl_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct engine_ops *ops = decl_find(p->o.ioengine);

	return ops && ops->plan_check ? ops->plan_check(p, err) : 0;
}

#define NOT_BUILT(n, pkg) \
	{ n, "ioengine '" n "' is not available in this build: install " \
	     pkg " and rebuild" }
#define UNSUPPORTED(n) { n, "ioengine '" n "' is not supported" }
/* refused on purpose: the reason from opt/refused.h */
#define REFUSED(n, why) { n, "ioengine '" n "' is not supported: " why }

/*
 * Engines fio has (Linux builds and the common external ones) and what to
 * tell a user who asks this build for one it lacks. An engine in the table
 * is found by engine_find() before this list is read, so an optional
 * engine's entry only speaks when its library was missing at build time.
 */
static const struct {
	const char *name;
	const char *msg;
} engine_missing[] = {
#ifdef HAVE_LIBAIO
	UNSUPPORTED("libaio"),
#else
	NOT_BUILT("libaio", "libaio-dev"),
#endif
#ifdef HAVE_LIBURING
	UNSUPPORTED("io_uring"),
	UNSUPPORTED("io_uring_cmd"),
#else
	NOT_BUILT("io_uring", "liburing-dev"),
	NOT_BUILT("io_uring_cmd", "liburing-dev"),
#endif
	UNSUPPORTED("splice"),
	/* engines of fio after 3.33 that need only the kernel */
	UNSUPPORTED("page_fault"),
	UNSUPPORTED("filesetxattr"),
	UNSUPPORTED("filelistxattr"),
	REFUSED("sg", REFUSE_SG),
	REFUSED("rdma", REFUSE_RDMA),
	REFUSED("mtd", REFUSE_MTD),
	REFUSED("pmemblk", REFUSE_PMEMBLK),
	REFUSED("gfapi", REFUSE_GLUSTER),
	REFUSED("gfapi_async", REFUSE_GLUSTER),
	REFUSED("libhdfs", REFUSE_HDFS),
#ifndef HAVE_LIBNFS
	NOT_BUILT("nfs", "libnfs-dev"),
#endif
	REFUSED("libcufile", REFUSE_GPU),
	REFUSED("dfs", REFUSE_DAOS),
	REFUSED("xnvme", REFUSE_USERDRV),
	REFUSED("libblkio", REFUSE_USERDRV),
	REFUSED("ime_psync", REFUSE_IME),
	REFUSED("ime_psyncv", REFUSE_IME),
	REFUSED("ime_aio", REFUSE_IME),
	REFUSED("windowsaio", REFUSE_OTHER_OS),
	REFUSED("solarisaio", REFUSE_OTHER_OS),
	REFUSED("guasi", REFUSE_REMOVED),
	REFUSED("binject", REFUSE_REMOVED),
	REFUSED("syslet-rw", REFUSE_REMOVED),
	REFUSED("external", REFUSE_EXTERNAL),
	REFUSED("libzbc", REFUSE_ZONED),
	REFUSED("spdk", REFUSE_USERDRV),
	REFUSED("spdk_bdev", REFUSE_USERDRV),
	REFUSED("librpma_apm_client", REFUSE_RDMA),
	REFUSED("librpma_apm_server", REFUSE_RDMA),
	REFUSED("librpma_gpspm_client", REFUSE_RDMA),
	REFUSED("librpma_gpspm_server", REFUSE_RDMA),
	REFUSED("libhipfile", REFUSE_GPU),
	REFUSED("cpp_null", REFUSE_CPP),
#ifdef HAVE_LIBNBD
	UNSUPPORTED("nbd"),
#else
	NOT_BUILT("nbd", "libnbd-dev"),
#endif
#ifdef HAVE_LIBISCSI
	UNSUPPORTED("libiscsi"),
#else
	NOT_BUILT("libiscsi", "libiscsi-dev"),
#endif
#ifndef HAVE_LIBCURL
	NOT_BUILT("http", "libcurl4-openssl-dev"),
#endif
#ifndef HAVE_LIBRADOS
	NOT_BUILT("rados", "librados-dev"),
#endif
#ifndef HAVE_LIBRBD
	NOT_BUILT("rbd", "librbd-dev"),
#endif
};

const char *engine_missing_hint(const char *name)
{
	size_t i;

	if (!name || engine_find(name))
		return NULL;
	name = unalias(name);
	/* fio loads "external:/path/engine.so" or a bare .so path */
	if (!strncmp(name, "external:", 9) || strchr(name, '/'))
		name = "external";
	for (i = 0; i < ARRAY_SIZE(engine_missing); i++)
		if (!strcmp(name, engine_missing[i].name))
			return engine_missing[i].msg;
	return NULL;
}

void engine_list(struct strbuf *out)
{
	size_t i;

	for (i = 0; engine_table[i]; i++)
		if (engine_table[i]->init)
			strbuf_addf(out, "\t%-10s %s\n", engine_table[i]->name,
				    engine_table[i]->help);
}

/* One option's line: its row's help, the one text an option has. */
static void option_line(const char *opt, struct strbuf *out)
{
	const struct opt_def *def = opt_lookup(opt);

	strbuf_addf(out, "%-24s: %s\n", opt, def ? def->help : "");
}

int engine_help(const char *name, struct strbuf *out)
{
	const struct engine_ops *ops = engine_find(name);
	const char *const *opt;

	if (!ops) {
		const char *hint = engine_missing_hint(name);

		if (hint)
			strbuf_addstr(out, hint);
		else
			strbuf_addf(out, "unknown ioengine '%s'", name);
		return -1;
	}
	for (opt = ops->options; opt && *opt; opt++)
		option_line(*opt, out);
	if (!ops->options || !*ops->options)
		strbuf_addf(out, "ioengine '%s' has no options\n", ops->name);
	return 0;
}

bool engine_help_option(const struct engine_ops *ops, const char *opt,
			struct strbuf *out)
{
	if (!engine_has_option(ops, opt))
		return false;
	option_line(opt, out);
	return true;
}

int engine_open_fd(struct engine *e, struct engine_file *f,
		   struct strbuf *err)
{
	const struct job_plan *p = e->plan;
	int flags = O_CLOEXEC | engine_nofollow(f);
	int fd, ret;

	/*
	 * Read-only when the job only reads: a read job then works on files
	 * and devices it may not write, and cannot modify them by mistake.
	 * Trims need write access, and plan->writes counts them.
	 */
	flags |= p->writes ? O_RDWR : O_RDONLY;
	if (p->o.direct)
		flags |= O_DIRECT;
	if (p->o.sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (p->o.sync == SYNC_DSYNC)
		flags |= O_DSYNC;

	/*
	 * files.c has created and laid out every file but create_on_open's
	 * missing ones, which the open creates (fio's mode, 0600), never
	 * through a symlink put there since
	 */
	if (f->flags & EF_CREATE)
		flags |= O_CREAT | O_NOFOLLOW;
	do {
		fd = open(f->path, flags, 0600);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		int saved = errno;

		if (saved == EINVAL && (flags & O_DIRECT))
			strbuf_addf(err, "cannot open '%s' with O_DIRECT "
				    "(direct=1): the filesystem does not "
				    "support direct I/O", f->path);
		else
			strbuf_addf(err, "cannot open '%s': %s", f->path,
				    strerror(saved));
		return -saved;
	}
	f->fd = fd;
	/* write_hint: set once per open (uncached, atomic: target/files.c) */
	ret = rwflags_open(p, f, fd, err);
	if (ret) {
		close(fd);
		f->fd = -1;
	}
	return ret;
}

int engine_sync_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	return 0;
}

struct io_u *engine_sync_event(struct engine *e, unsigned int i)
{
	BUG("engine '%s' completes every I/O in queue(): no events",
	    e->plan && e->plan->o.ioengine ? e->plan->o.ioengine : "?");
}

int engine_close_fd(struct engine *e, struct engine_file *f)
{
	int ret = 0;

	if (f->fd < 0)
		return 0;
	if (close(f->fd))
		ret = -errno;
	f->fd = -1;
	return ret;
}

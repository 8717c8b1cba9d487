/* SPDX-License-Identifier: MIT */
/*
 * File system metadata rates: the operation measured is one per file,
 * done when the file is opened (ENGINE_F_FILE_OP):
 *
 *   filecreate  open(O_CREAT | O_RDWR, 0600); the file stays
 *   filestat    stat(2), lstat(2) or statx(2) (stat_type) of a laid-out file
 *   filedelete  unlink(2) of a laid-out file
 *   dircreate   mkdir(2), mode 0700; the directory stays
 *   dirstat     stat_type of a directory, every one made (0700) first
 *   dirdelete   rmdir(2), every directory made (0700) first
 *
 * As in fio, the job's I/Os do nothing but are counted (with their bytes:
 * the size says how many there are per file), and each operation's
 * duration is a completion latency of the job's direction; every pass
 * over the files (loops, time_based) opens them again and so repeats the
 * operation (a second pass of filedelete fails with ENOENT, as in fio).
 * filecreate and the dir engines make their files themselves
 * (ENGINE_F_NOLAYOUT); filestat and filedelete need them laid out, and
 * touch regular files only. unlink=1 removes what filecreate, dircreate
 * and dirstat leave.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engines.h"
#include "opt/engine_opts.h"
#include "util/log.h"

enum fsmeta_op {
	OP_CREATE, OP_STAT, OP_DELETE, OP_MKDIR, OP_DIRSTAT, OP_RMDIR,
};

struct fsmeta_engine {
	struct engine e;
	enum fsmeta_op op;
	bool dirs_made;		/* dirstat, dirdelete: done at first open */
	/* durations: filled in one, handed out from the other */
	uint64_t *lat[2];
	unsigned int nr[2], cap[2];
	unsigned int cur;
};

static inline struct fsmeta_engine *to_fm(struct engine *e)
{
	return (struct fsmeta_engine *)e;
}

static void add_lat(struct fsmeta_engine *fm, uint64_t ns)
{
	unsigned int c = fm->cur;

	if (fm->nr[c] == fm->cap[c]) {
		fm->cap[c] = fm->cap[c] ? fm->cap[c] * 2 : 64;
		fm->lat[c] = xrealloc(fm->lat[c],
				      fm->cap[c] * sizeof(*fm->lat[c]));
	}
	fm->lat[c][fm->nr[c]++] = ns;
}

static unsigned int fsmeta_take_lat(struct engine *e, const uint64_t **ns)
{
	struct fsmeta_engine *fm = to_fm(e);
	unsigned int c = fm->cur, n = fm->nr[c];

	*ns = fm->lat[c];
	fm->cur ^= 1;
	fm->nr[fm->cur] = 0;
	return n;
}

static int init_op(const struct job_plan *plan, enum fsmeta_op op,
		   struct engine **out)
{
	struct fsmeta_engine *fm = xcalloc(1, sizeof(*fm));

	fm->e.plan = plan;
	fm->e.depth = 1;
	fm->op = op;
	*out = &fm->e;
	return 0;
}

#define INIT(fn, op)							\
static int fn(const struct job_plan *plan, unsigned int depth,		\
	      struct engine **out, struct strbuf *err)			\
{									\
	return init_op(plan, op, out);					\
}
INIT(create_init, OP_CREATE)
INIT(stat_init, OP_STAT)
INIT(delete_init, OP_DELETE)
INIT(mkdir_init, OP_MKDIR)
INIT(dirstat_init, OP_DIRSTAT)
INIT(rmdir_init, OP_RMDIR)

static void fsmeta_cleanup(struct engine *e)
{
	struct fsmeta_engine *fm = to_fm(e);

	free(fm->lat[0]);
	free(fm->lat[1]);
	free(fm);
}

static int do_stat(enum stat_type type, const char *path)
{
	struct statx stx;
	struct stat st;

	switch (type) {
	case STAT_TYPE_LSTAT:
		return lstat(path, &st);
	case STAT_TYPE_STATX:
		return statx(AT_FDCWD, path, AT_STATX_SYNC_AS_STAT, STATX_ALL,
			     &stx);
	default:
		return stat(path, &st);
	}
}

/* dirstat, dirdelete: every directory exists before the first is timed */
static int make_dirs(struct engine *e, struct strbuf *err)
{
	unsigned int i;

	for (i = 0; i < e->nr_files; i++) {
		struct engine_file *f = &e->files[i];

		if (mkdir(f->path, 0700) && errno != EEXIST) {
			int saved = errno;

			strbuf_addf(err, "cannot make directory '%s': %s",
				    f->path, strerror(saved));
			return -saved;
		}
		f->flags |= EF_DIR;
	}
	return 0;
}

/* The operation itself, between two clock reads: 0 or -errno. */
static int timed_op(struct fsmeta_engine *fm, struct engine_file *f,
		    int *fd)
{
	uint64_t t0 = engine_mono_ns(), t1;
	int ret;

	switch (fm->op) {
	case OP_CREATE:
		*fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC |
			   engine_nofollow(f), 0600);
		ret = *fd < 0 ? -1 : 0;
		break;
	case OP_STAT:
	case OP_DIRSTAT:
		ret = do_stat(fm->e.plan->o.stat_type, f->path);
		break;
	case OP_DELETE:
		ret = unlink(f->path);
		break;
	case OP_MKDIR:
		ret = mkdir(f->path, 0700);
		break;
	default:
		ret = rmdir(f->path);
		break;
	}
	t1 = engine_mono_ns();
	if (ret)
		return -errno;
	add_lat(fm, t1 - t0);
	return 0;
}

static const char *const op_engine[] = {
	"filecreate", "filestat", "filedelete", "dircreate", "dirstat",
	"dirdelete",
};

static const char *const op_verb[] = {
	"create", "stat", "delete", "make directory", "stat directory",
	"remove directory",
};

static int fsmeta_open(struct engine *e, struct engine_file *f,
		       struct strbuf *err)
{
	struct fsmeta_engine *fm = to_fm(e);
	struct stat st;
	int fd = -1, ret;

	/* filestat, filedelete: a device node is never touched */
	if ((fm->op == OP_STAT || fm->op == OP_DELETE) &&
	    !(f->flags & EF_REGULAR)) {
		strbuf_addf(err, "ioengine '%s' works on regular files only, "
			    "and '%s' is not one", op_engine[fm->op], f->path);
		return -EINVAL;
	}
	if ((fm->op == OP_DIRSTAT || fm->op == OP_RMDIR) && !fm->dirs_made) {
		ret = make_dirs(e, err);
		if (ret)
			return ret;
		fm->dirs_made = true;
	}
	ret = timed_op(fm, f, &fd);
	if (ret) {
		strbuf_addf(err, "cannot %s '%s': %s", op_verb[fm->op],
			    f->path, strerror(-ret));
		return ret;
	}
	if (fm->op == OP_CREATE) {
		/* an existing name may be anything: only a file is kept */
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			strbuf_addf(err, "'%s' exists and is not a regular "
				    "file", f->path);
			return -EINVAL;
		}
		f->fd = fd;
		f->flags |= EF_REGULAR;	/* unlink=1 removes it */
	} else if (fm->op == OP_MKDIR) {
		f->flags |= EF_DIR;
	}
	return 0;
}

static int fsmeta_close(struct engine *e, struct engine_file *f)
{
	int ret = 0;

	if (f->fd >= 0 && close(f->fd))
		ret = -errno;
	f->fd = -1;
	return ret;
}

/* Nothing to do: the file operation was the measured work. */
static enum engine_q fsmeta_queue(struct engine *e, struct io_u *u)
{
	u->error = 0;
	u->resid = 0;
	return ENGINE_Q_DONE;
}

static const char *const stat_options[] = { "stat_type", NULL };

#define FSMETA_OPS(var, nm, hlp, fl, in, opts, rule)			\
const struct engine_ops var = {						\
	.name = nm,							\
	.help = hlp,							\
	.flags = ENGINE_F_SYNC | ENGINE_F_NO_ODIRECT |			\
		 ENGINE_F_FILE_OP | (fl),				\
	.options = opts,						\
	.plan_check = rule,						\
	.init = in,							\
	.cleanup = fsmeta_cleanup,					\
	.open_file = fsmeta_open,					\
	.close_file = fsmeta_close,					\
	.queue = fsmeta_queue,						\
	.getevents = engine_sync_getevents,				\
	.event = engine_sync_event,					\
	.take_lat = fsmeta_take_lat,					\
}

FSMETA_OPS(engine_filecreate_ops, "filecreate",
	   "creates each file (open O_CREAT); measures the creates",
	   ENGINE_F_NOLAYOUT, create_init, NULL, fsmeta_plan_check);
FSMETA_OPS(engine_filestat_ops, "filestat",
	   "stats each file (stat_type); measures the lookups", 0,
	   stat_init, stat_options, filestat_plan_check);
FSMETA_OPS(engine_filedelete_ops, "filedelete",
	   "unlinks each file; measures the deletes", 0, delete_init, NULL,
	   filedelete_plan_check);
FSMETA_OPS(engine_dircreate_ops, "dircreate",
	   "makes each directory; measures the mkdirs", ENGINE_F_NOLAYOUT,
	   mkdir_init, NULL, fsmeta_plan_check);
FSMETA_OPS(engine_dirstat_ops, "dirstat",
	   "stats each directory (stat_type); measures the lookups",
	   ENGINE_F_NOLAYOUT, dirstat_init, stat_options, fsmeta_plan_check);
FSMETA_OPS(engine_dirdelete_ops, "dirdelete",
	   "removes each directory; measures the rmdirs", ENGINE_F_NOLAYOUT,
	   rmdir_init, NULL, fsmeta_plan_check);

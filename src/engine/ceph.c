/* SPDX-License-Identifier: MIT */
/*
 * rados and rbd: I/O to a Ceph cluster through its client libraries,
 * fio's engines of the same names.
 *
 *   rados  each of the job's files is an object of pool=, named as the
 *          file (jobname.N.M unless filename= names them), of size=
 *          divided among them; touch_objects (default on) creates each
 *          one empty when the job starts. Reads, writes and trims (a
 *          zeroing of the range, as fio) go through rados_aio_*. A read
 *          past an object's end, which RADOS answers short, counts as
 *          whole with zeros after the end: an object is read as a sparse
 *          file is. Objects are left in the pool (fio 3.33 leaves them).
 *   rbd    the job's file is the image rbdname= of pool= (named as
 *          any file: jobname.N.M unless filename= says, as fio 3.33); the
 *          image's size is the file's (files_resolve() asks
 *          remote_probe() before the run; every file is the image).
 *          Reads, writes, trims (discards) and syncs (flushes) go through
 *          rbd_aio_*. The configuration is $CEPH_CONF or
 *          /etc/ceph/ceph.conf, as in fio (rbd has no conf= option).
 *
 * The connection is made at init (clustername, clientname: "admin" and
 * client.admin by default, as librados), its failure the job's error
 * with the library's reason. So that a cluster that does not answer ends
 * the job rather than hang it, client_mount_timeout and
 * rados_osd_op_timeout are 30 s unless the configuration sets them (a
 * monitor that is not there: ETIMEDOUT at connect; an OSD that stops:
 * ETIMEDOUT for each I/O it held). Completions arrive on librados'
 * threads, which queue them here under a lock; getevents() waits on a
 * condition variable, or spins with busy_poll.
 *
 * Without librados (librbd) the engines are declared all the same, for
 * their options, and ioengine= names the package to install.
 */
#include "engine/engines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opt/plan.h"
#include "util/strbuf.h"

/* The plan rule, with or without the library: refused before the run. */
static int ceph_plan_check(struct job_plan *p, bool rbd, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *eng = rbd ? "rbd" : "rados";

	if (!o->pool || !*o->pool)
		return plan_fail(p, err, "option 'pool': ioengine '%s' needs "
				 "pool= (the Ceph pool to use)", eng);
	if (rbd && (!o->rbdname || !*o->rbdname))
		return plan_fail(p, err, "option 'rbdname': ioengine 'rbd' "
				 "needs rbdname= (the image to use)");
	if (!rbd && (o->fsync || o->fdatasync))
		return plan_fail(p, err, "option '%s': ioengine 'rados' has "
				 "no sync (RADOS writes are durable when they "
				 "complete)", o->fsync ? "fsync" : "fdatasync");
	if (rbd && o->fdatasync)
		return plan_fail(p, err, "option 'fdatasync': ioengine 'rbd' "
				 "syncs with fsync= (a flush of the image)");
	return 0;
}

static int ceph_rados_plan_check(struct job_plan *p, struct strbuf *err)
{
	return ceph_plan_check(p, false, err);
}

static int ceph_rbd_plan_check(struct job_plan *p, struct strbuf *err)
{
	return ceph_plan_check(p, true, err);
}

#ifdef HAVE_LIBRADOS
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include <rados/librados.h>
#ifdef HAVE_LIBRBD
#include <rbd/librbd.h>
#endif

#include "engine/dl/dl.h"
#include "util/log.h"

/*
 * The libraries are loaded when a job first needs them (dl/dl.h), not
 * linked: librados and librbd bring some 35 C++ libraries, whose loading
 * would cost every run of iolite ~25 ms and ~17 MiB, and each of its
 * threads their thread-local storage. The functions used, called
 * through ceph_fn (the macros after the loader):
 */
#define RADOS_FNS(X) X(rados_create2) X(rados_conf_read_file) \
	X(rados_conf_set) X(rados_conf_get) X(rados_connect) \
	X(rados_ioctx_create) X(rados_ioctx_destroy) X(rados_shutdown) \
	X(rados_write) X(rados_aio_create_completion) X(rados_aio_write) \
	X(rados_aio_read) X(rados_create_write_op) X(rados_write_op_zero) \
	X(rados_aio_write_op_operate) X(rados_aio_release) \
	X(rados_release_write_op) X(rados_aio_get_return_value)
#ifdef HAVE_LIBRBD
#define RBD_FNS(X) X(rbd_open) X(rbd_open_read_only) X(rbd_close) \
	X(rbd_flush) X(rbd_stat) X(rbd_aio_create_completion) \
	X(rbd_aio_write) X(rbd_aio_read) X(rbd_aio_discard) X(rbd_aio_flush) \
	X(rbd_aio_release) X(rbd_aio_get_return_value)
#else
#define RBD_FNS(X)
#endif

struct ceph_fns {
	RADOS_FNS(DL_FN_PTR)
	RBD_FNS(DL_FN_PTR)
};
static struct ceph_fns ceph_fn;

#ifndef LIBRADOS_SONAME
#define LIBRADOS_SONAME "librados.so.2"
#endif
#define CEPH_SYM(f) DL_SYM(struct ceph_fns, f)
static const struct dl_sym rados_syms[] = { RADOS_FNS(CEPH_SYM) };
static struct dl_lib rados_lib = DL_LIB(LIBRADOS_SONAME, rados_syms,
					&ceph_fn);
#ifdef HAVE_LIBRBD
#ifndef LIBRBD_SONAME
#define LIBRBD_SONAME "librbd.so.1"
#endif
static const struct dl_sym rbd_syms[] = { RBD_FNS(CEPH_SYM) };
static struct dl_lib rbd_lib = DL_LIB(LIBRBD_SONAME, rbd_syms, &ceph_fn);
#endif

/* Loads the libraries once (dl/dl.h): 0, or -1 with the reason in err. */
static int ceph_load(bool rbd, struct strbuf *err)
{
	if (dl_load(&rados_lib, err))
		return -1;
#ifdef HAVE_LIBRBD
	if (rbd && dl_load(&rbd_lib, err))
		return -1;
#endif
	return 0;
}

static int ceph_rados_load(struct strbuf *err)
{
	return ceph_load(false, err);
}

static int ceph_rbd_load(struct strbuf *err)
{
	return ceph_load(true, err);
}

/* From here on, a library function is called through its pointer. */
#define CEPH_CALL(f) (*ceph_fn.f)
#define rados_create2 CEPH_CALL(rados_create2)
#define rados_conf_read_file CEPH_CALL(rados_conf_read_file)
#define rados_conf_set CEPH_CALL(rados_conf_set)
#define rados_conf_get CEPH_CALL(rados_conf_get)
#define rados_connect CEPH_CALL(rados_connect)
#define rados_ioctx_create CEPH_CALL(rados_ioctx_create)
#define rados_ioctx_destroy CEPH_CALL(rados_ioctx_destroy)
#define rados_shutdown CEPH_CALL(rados_shutdown)
#define rados_write CEPH_CALL(rados_write)
#define rados_aio_create_completion CEPH_CALL(rados_aio_create_completion)
#define rados_aio_write CEPH_CALL(rados_aio_write)
#define rados_aio_read CEPH_CALL(rados_aio_read)
#define rados_create_write_op CEPH_CALL(rados_create_write_op)
#define rados_write_op_zero CEPH_CALL(rados_write_op_zero)
#define rados_aio_write_op_operate CEPH_CALL(rados_aio_write_op_operate)
#define rados_aio_release CEPH_CALL(rados_aio_release)
#define rados_release_write_op CEPH_CALL(rados_release_write_op)
#define rados_aio_get_return_value CEPH_CALL(rados_aio_get_return_value)
#define rbd_open CEPH_CALL(rbd_open)
#define rbd_open_read_only CEPH_CALL(rbd_open_read_only)
#define rbd_close CEPH_CALL(rbd_close)
#define rbd_flush CEPH_CALL(rbd_flush)
#define rbd_stat CEPH_CALL(rbd_stat)
#define rbd_aio_create_completion CEPH_CALL(rbd_aio_create_completion)
#define rbd_aio_write CEPH_CALL(rbd_aio_write)
#define rbd_aio_read CEPH_CALL(rbd_aio_read)
#define rbd_aio_discard CEPH_CALL(rbd_aio_discard)
#define rbd_aio_flush CEPH_CALL(rbd_aio_flush)
#define rbd_aio_release CEPH_CALL(rbd_aio_release)
#define rbd_aio_get_return_value CEPH_CALL(rbd_aio_get_return_value)

/* client_mount_timeout and rados_osd_op_timeout unless configured */
#define CEPH_TIMEOUT "30"

struct ceph_engine;

/* One io_u's request (engine_data), on the done list once complete. */
struct ceph_io {
	struct ceph_engine *ce;
	struct io_u *u;
	rados_completion_t rc;
	rados_write_op_t wop;
#ifdef HAVE_LIBRBD
	rbd_completion_t bc;
#endif
	struct ceph_io *next;
	struct ceph_io *all;	/* every request of the engine, to free */
};

struct ceph_engine {
	struct engine e;
	bool rbd;
	bool busy_poll;
	rados_t cluster;
	rados_ioctx_t ioctx;
#ifdef HAVE_LIBRBD
	rbd_image_t image;
#endif
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* completed, not yet reaped: under lock */
	struct ceph_io *done_head, *done_tail;
	unsigned int nr_done;
	unsigned int inflight;		/* submitted, not reaped */
	struct io_u **events;		/* the last getevents()' */
	unsigned int cap;
	struct ceph_io *all;		/* prep()'s, to free */
};

static inline struct ceph_engine *to_ceph(struct engine *e)
{
	return (struct ceph_engine *)e;
}

/* The entity name fio gives librados: "client.NAME", or as given. */
static char *ceph_entity(const struct job_options *o)
{
	const char *c = o->clientname && *o->clientname ? o->clientname :
			"admin";
	struct strbuf sb = STRBUF_INIT;

	if (o->clustername && *o->clustername && strchr(c, '.'))
		strbuf_addstr(&sb, c);
	else
		strbuf_addf(&sb, "client.%s", c);
	return strbuf_detach(&sb);
}

/* Sets option opt to val when the configuration left it at def. */
static void ceph_default(rados_t c, const char *opt, double def,
			 const char *val)
{
	char buf[64];

	if (!rados_conf_get(c, opt, buf, sizeof(buf)) &&
	    strtod(buf, NULL) == def)
		rados_conf_set(c, opt, val);
}

/*
 * Connects to the cluster and opens pool= in *cl, *io: 0, or -errno with
 * the message in err (the configuration file, the user, the pool and
 * the library's reason).
 */
static int ceph_connect(const struct job_plan *p, bool rbd, rados_t *cl,
			rados_ioctx_t *io, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *cluster = o->clustername && *o->clustername ?
			      o->clustername : "ceph";
	const char *conf = rbd ? NULL : o->ceph_conf;
	char *who = ceph_entity(o);
	int r;

	*cl = NULL;
	*io = NULL;
	r = ceph_load(rbd, err) ? -ENOENT : 0;
	if (r < 0)
		goto out;
	r = rados_create2(cl, cluster, who, 0);
	if (r < 0) {
		strbuf_addf(err, "cannot set up a Ceph client %s of cluster "
			    "'%s': %s", who, cluster, strerror(-r));
		goto out;
	}
	r = rados_conf_read_file(*cl, conf);
	if (r < 0) {
		strbuf_addf(err, "cannot read the Ceph configuration '%s': %s",
			    conf ? conf : getenv("CEPH_CONF") ?
			    getenv("CEPH_CONF") : "/etc/ceph/ceph.conf",
			    strerror(-r));
		goto out;
	}
	/* the library's own log lines stay out of iolite's stderr */
	rados_conf_set(*cl, "log_to_stderr", "false");
	rados_conf_set(*cl, "err_to_stderr", "false");
	ceph_default(*cl, "client_mount_timeout", 300, CEPH_TIMEOUT);
	ceph_default(*cl, "rados_osd_op_timeout", 0, CEPH_TIMEOUT);
	if (rbd && o->direct)
		rados_conf_set(*cl, "rbd_cache", "false");
	r = rados_connect(*cl);
	if (r < 0) {
		strbuf_addf(err, "cannot connect to Ceph cluster '%s' as %s: "
			    "%s", cluster, who, strerror(-r));
		goto out;
	}
	r = rados_ioctx_create(*cl, o->pool, io);
	if (r < 0)
		strbuf_addf(err, "cannot open Ceph pool '%s': %s", o->pool,
			    strerror(-r));
out:
	if (r < 0 && *cl) {
		rados_shutdown(*cl);
		*cl = NULL;
	}
	free(who);
	return r < 0 ? r : 0;
}

static void ceph_disconnect(rados_t cl, rados_ioctx_t io)
{
	if (io)
		rados_ioctx_destroy(io);
	if (cl)
		rados_shutdown(cl);
}

static int ceph_init(const struct job_plan *plan, unsigned int depth,
		     bool rbd, struct engine **out, struct strbuf *err)
{
	struct ceph_engine *ce = xcalloc(1, sizeof(*ce));
	int r;

	ce->e.plan = plan;
	ce->e.depth = depth ? depth : 1;
	ce->rbd = rbd;
	ce->busy_poll = plan->o.busy_poll;
	/* the worker may hold one io_u more than the depth, for syncs */
	ce->cap = ce->e.depth + 1;
	ce->events = xcalloc(ce->cap, sizeof(*ce->events));
	pthread_mutex_init(&ce->lock, NULL);
	pthread_cond_init(&ce->cond, NULL);
	r = ceph_connect(plan, rbd, &ce->cluster, &ce->ioctx, err);
#ifdef HAVE_LIBRBD
	if (!r && rbd) {
		r = rbd_open(ce->ioctx, plan->o.rbdname, &ce->image, NULL);
		if (r < 0)
			strbuf_addf(err, "cannot open RBD image '%s/%s': %s",
				    plan->o.pool, plan->o.rbdname,
				    strerror(-r));
		/* fio's: the cache starts in writeback mode, if it has one */
		else if (!plan->o.direct)
			rbd_flush(ce->image);
	}
#endif
	*out = &ce->e;
	return r;
}

static int ceph_rados_init(const struct job_plan *plan, unsigned int depth,
		      struct engine **out, struct strbuf *err)
{
	return ceph_init(plan, depth, false, out, err);
}

static void ceph_cleanup(struct engine *e)
{
	struct ceph_engine *ce = to_ceph(e);

	/* nothing may complete into freed memory: wait for what is out */
	pthread_mutex_lock(&ce->lock);
	while (ce->inflight > ce->nr_done)
		pthread_cond_wait(&ce->cond, &ce->lock);
	pthread_mutex_unlock(&ce->lock);
#ifdef HAVE_LIBRBD
	if (ce->image)
		rbd_close(ce->image);
#endif
	ceph_disconnect(ce->cluster, ce->ioctx);
	while (ce->all) {
		struct ceph_io *io = ce->all;

		ce->all = io->all;
		free(io);
	}
	pthread_mutex_destroy(&ce->lock);
	pthread_cond_destroy(&ce->cond);
	free(ce->events);
	free(ce);
}

/* rados: touch_objects creates the object, empty, as fio does */
static int ceph_rados_open(struct engine *e, struct engine_file *f,
		      struct strbuf *err)
{
	struct ceph_engine *ce = to_ceph(e);
	int r;

	if (!e->plan->o.touch_objects)
		return 0;
	r = rados_write(ce->ioctx, f->path, "", 0, 0);
	if (r < 0)
		strbuf_addf(err, "cannot create object '%s' in Ceph pool "
			    "'%s': %s", f->path, e->plan->o.pool,
			    strerror(-r));
	return r < 0 ? r : 0;
}

static int ceph_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

/* rbd: the image was opened at init */
static int ceph_open_noop(struct engine *e, struct engine_file *f,
			  struct strbuf *err)
{
	return 0;
}

static int ceph_prep(struct engine *e, struct io_u *u)
{
	struct ceph_io *io = xcalloc(1, sizeof(*io));

	io->ce = to_ceph(e);
	io->u = u;
	io->all = io->ce->all;
	io->ce->all = io;
	u->engine_data = io;
	return 0;
}

/* Called on a librados thread: the request is done, queue it. */
static void ceph_complete(struct ceph_io *io)
{
	struct ceph_engine *ce = io->ce;

	pthread_mutex_lock(&ce->lock);
	io->next = NULL;
	if (ce->done_tail)
		ce->done_tail->next = io;
	else
		ce->done_head = io;
	ce->done_tail = io;
	ce->nr_done++;
	pthread_cond_signal(&ce->cond);
	pthread_mutex_unlock(&ce->lock);
}

static void ceph_rados_cb(rados_completion_t c, void *arg)
{
	ceph_complete(arg);
}

/*
 * A completed request's result in u: -errno, else the bytes moved
 * (reads) or 0. A short read of an object is zeros to the end.
 */
static void ceph_result(struct io_u *u, long r, bool rbd)
{
	if (r < 0) {
		u->error = (int32_t)-r;
		u->resid = u->len;
		return;
	}
	u->error = 0;
	u->resid = 0;
	if (u->ddir != DDIR_READ || (uint64_t)r >= u->len)
		return;
	if (rbd)
		u->resid = u->len - (uint32_t)r;
	else
		memset((char *)u->buf + r, 0, u->len - (size_t)r);
}

static enum engine_q ceph_rados_queue(struct engine *e, struct io_u *u)
{
	struct ceph_engine *ce = to_ceph(e);
	struct ceph_io *io = u->engine_data;
	const char *obj = e->files[u->file].path;
	int r;

	r = rados_aio_create_completion(io, ceph_rados_cb, NULL, &io->rc);
	if (r < 0)
		goto fail;
	switch (u->ddir) {
	case DDIR_WRITE:
		r = rados_aio_write(ce->ioctx, obj, io->rc, u->buf, u->len,
				    u->offset);
		break;
	case DDIR_READ:
		r = rados_aio_read(ce->ioctx, obj, io->rc, u->buf, u->len,
				   u->offset);
		break;
	case DDIR_TRIM:
		io->wop = rados_create_write_op();
		rados_write_op_zero(io->wop, u->offset, u->len);
		r = rados_aio_write_op_operate(io->wop, ce->ioctx, io->rc, obj,
					       NULL, 0);
		break;
	default:
		r = -EINVAL;	/* refused by the plan rule: no syncs */
	}
	if (r < 0) {
		rados_aio_release(io->rc);
		io->rc = NULL;
		if (io->wop)
			rados_release_write_op(io->wop);
		io->wop = NULL;
		goto fail;
	}
	ce->inflight++;
	return ENGINE_Q_QUEUED;
fail:
	ceph_result(u, r, false);
	return ENGINE_Q_DONE;
}

/* Takes a completed request off the list's head (under lock). */
static struct ceph_io *ceph_pop(struct ceph_engine *ce)
{
	struct ceph_io *io = ce->done_head;

	ce->done_head = io->next;
	if (!ce->done_head)
		ce->done_tail = NULL;
	ce->nr_done--;
	return io;
}

/* Its result in its io_u, the library's request released. */
static void ceph_finish(struct ceph_engine *ce, struct ceph_io *io)
{
	struct io_u *u = io->u;

#ifdef HAVE_LIBRBD
	if (ce->rbd) {
		ceph_result(u, (long)rbd_aio_get_return_value(io->bc), true);
		rbd_aio_release(io->bc);
		io->bc = NULL;
		return;
	}
#endif
	ceph_result(u, rados_aio_get_return_value(io->rc), false);
	rados_aio_release(io->rc);
	io->rc = NULL;
	if (io->wop)
		rados_release_write_op(io->wop);
	io->wop = NULL;
}

/* Waits (lock held) until a completion arrives or the deadline passes. */
static void ceph_wait(struct ceph_engine *ce, const struct timespec *deadline)
{
	if (ce->busy_poll) {
		pthread_mutex_unlock(&ce->lock);
		sched_yield();
		pthread_mutex_lock(&ce->lock);
	} else if (deadline) {
		pthread_cond_timedwait(&ce->cond, &ce->lock, deadline);
	} else {
		pthread_cond_wait(&ce->cond, &ce->lock);
	}
}

static bool ceph_past(const struct timespec *deadline)
{
	struct timespec now;

	if (!deadline)
		return false;
	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec > deadline->tv_sec ||
	       (now.tv_sec == deadline->tv_sec &&
		now.tv_nsec >= deadline->tv_nsec);
}

static int ceph_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	struct ceph_engine *ce = to_ceph(e);
	struct timespec deadline, *dl = NULL;
	unsigned int n = 0, i;

	if (max > ce->cap)
		max = ce->cap;
	/* never wait for more than is out */
	if (min > ce->inflight)
		min = ce->inflight;
	if (min > max)
		min = max;
	if (timeout) {
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += timeout->tv_sec;
		deadline.tv_nsec += timeout->tv_nsec;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		dl = &deadline;
	}
	pthread_mutex_lock(&ce->lock);
	for (;;) {
		while (n < max && ce->done_head) {
			struct ceph_io *io = ceph_pop(ce);

			ce->events[n++] = io->u;
			ce->inflight--;
			/* released outside the lock: see below */
		}
		if (n >= min || ceph_past(dl))
			break;
		ceph_wait(ce, dl);
	}
	pthread_mutex_unlock(&ce->lock);
	for (i = 0; i < n; i++)
		ceph_finish(ce, ce->events[i]->engine_data);
	return (int)n;
}

static struct io_u *ceph_event(struct engine *e, unsigned int i)
{
	return to_ceph(e)->events[i];
}

#ifdef HAVE_LIBRBD
static int ceph_rbd_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	return ceph_init(plan, depth, true, out, err);
}

static void ceph_rbd_cb(rbd_completion_t c, void *arg)
{
	ceph_complete(arg);
}

static enum engine_q ceph_rbd_queue(struct engine *e, struct io_u *u)
{
	struct ceph_engine *ce = to_ceph(e);
	struct ceph_io *io = u->engine_data;
	int r;

	r = rbd_aio_create_completion(io, ceph_rbd_cb, &io->bc);
	if (r < 0)
		goto fail;
	switch (u->ddir) {
	case DDIR_WRITE:
		r = rbd_aio_write(ce->image, u->offset, u->len, u->buf,
				  io->bc);
		break;
	case DDIR_READ:
		r = rbd_aio_read(ce->image, u->offset, u->len, u->buf, io->bc);
		break;
	case DDIR_TRIM:
		r = rbd_aio_discard(ce->image, u->offset, u->len, io->bc);
		break;
	case DDIR_SYNC:
		r = rbd_aio_flush(ce->image, io->bc);
		break;
	default:
		r = -EINVAL;	/* refused by the plan rule */
	}
	if (r < 0) {
		rbd_aio_release(io->bc);
		io->bc = NULL;
		goto fail;
	}
	ce->inflight++;
	return ENGINE_Q_QUEUED;
fail:
	ceph_result(u, r, true);
	return ENGINE_Q_DONE;
}

/*
 * rbd: the image's size, asked before the run (files_resolve()); a
 * cluster that cannot be reached, a missing pool or image are refused.
 */
static int ceph_rbd_probe(const struct job_plan *p, const char *name,
			  struct engine_remote *rem, struct strbuf *err)
{
	rados_t cl;
	rados_ioctx_t io;
	rbd_image_t img;
	rbd_image_info_t info;
	int r = ceph_connect(p, true, &cl, &io, err);

	rem->what = "RBD image";
	rem->name = p->o.rbdname;
	if (r)
		return -1;
	r = rbd_open_read_only(io, p->o.rbdname, &img, NULL);
	if (r < 0) {
		rem->opt = "rbdname";
		strbuf_addf(err, "cannot open RBD image '%s/%s': %s",
			    p->o.pool, p->o.rbdname, strerror(-r));
	} else {
		r = rbd_stat(img, &info, sizeof(info));
		if (r < 0)
			strbuf_addf(err, "cannot read the size of RBD image "
				    "'%s/%s': %s", p->o.pool, p->o.rbdname,
				    strerror(-r));
		else if (!info.size) {
			strbuf_addf(err, "RBD image '%s/%s' is empty (size 0)",
				    p->o.pool, p->o.rbdname);
			r = -EINVAL;
		}
		rem->size = info.size;
		rbd_close(img);
	}
	ceph_disconnect(cl, io);
	return r < 0 ? -1 : 0;
}
#endif	/* HAVE_LIBRBD */
#endif	/* HAVE_LIBRADOS */

/* in fio's order (--enghelp=rados, --enghelp=rbd) */
static const char *const ceph_rados_options[] = {
	"clustername", "pool", "clientname", "conf", "busy_poll",
	"touch_objects", NULL,
};
static const char *const ceph_rbd_options[] = {
	"clustername", "rbdname", "pool", "clientname", "busy_poll", NULL,
};

const struct engine_ops engine_rados_ops = {
	.name = "rados",
	.help = "objects of a Ceph pool through librados",
	.flags = ENGINE_F_NOFILEIO,
	.options = ceph_rados_options,
	.plan_check = ceph_rados_plan_check,
#ifdef HAVE_LIBRADOS
	.load = ceph_rados_load,
	.init = ceph_rados_init,
	.cleanup = ceph_cleanup,
	.open_file = ceph_rados_open,
	.close_file = ceph_close,
	.prep = ceph_prep,
	.queue = ceph_rados_queue,
	.getevents = ceph_getevents,
	.event = ceph_event,
#endif
};

const struct engine_ops engine_rbd_ops = {
	.name = "rbd",
	.help = "a Ceph RBD image through librbd",
	.flags = ENGINE_F_NOFILEIO,
	.options = ceph_rbd_options,
	.plan_check = ceph_rbd_plan_check,
#ifdef HAVE_LIBRBD
	.load = ceph_rbd_load,
	.init = ceph_rbd_init,
	.cleanup = ceph_cleanup,
	.open_file = ceph_open_noop,
	.close_file = ceph_close,
	.prep = ceph_prep,
	.queue = ceph_rbd_queue,
	.getevents = ceph_getevents,
	.event = ceph_event,
	.remote_probe = ceph_rbd_probe,
#endif
};

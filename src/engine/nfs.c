/* SPDX-License-Identifier: MIT */
/*
 * nfs: reads and writes a server's files through libnfs, NFS in user
 * space (fio 3.42's nfs engine; Debian's fio 3.33 lacks it).
 *
 * Contract. nfs_url=nfs://SERVER/EXPORT[?arg=val&...] names the server
 * and export; libnfs reads the arguments (nfsport=, mountport= instead
 * of asking the portmapper, uid=, gid=, version=, autoreconnect= ...).
 * The job's files are named as for a local job (filename=, directory=,
 * nrfiles, jobname.N.M) but live in the export, relative to its root:
 * nothing local is looked at or created (ENGINE_F_REMOTE). A job that
 * writes opens them with O_CREAT, as fio's; one that only reads opens
 * them read-only and needs them there (fio's engine lays nothing out
 * either). Sizes come from size=/filesize=, as for null.
 *
 * One libnfs context per job, mounted in init; every I/O is async
 * (nfs_pread_async, nfs_pwrite_async, nfs_fsync_async: fsync and
 * fdatasync are both the NFSv3 COMMIT), up to iodepth in flight on the
 * one connection. commit() pushes what queue() handed libnfs onto the
 * socket; getevents() runs the service loop (poll on nfs_get_fd() for
 * nfs_which_events(), then nfs_service()), in 100 ms slices.
 *
 * Errors: an I/O the server fails carries libnfs's errno and its text
 * (nfs_get_error(), which holds the server's status), which
 * error_detail() gives the worker's message with the export's URL. A
 * connection that breaks fails everything in flight at once:
 * autoreconnect is off unless the URL asks for it (libnfs would retry
 * for ever). A server that stops answering holds the job only until it
 * is stopped (a signal, an error) or its runtime is over: then what is
 * still in flight after STALL_GRACE_MS fails with ETIMEDOUT and the connection is dropped.
 * Mount, open and close wait at most SETUP_MS.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dl/nfs.h"
#include "engine/engines.h"
#include "opt/plan.h"
#include "util/log.h"

#ifdef HAVE_LIBNFS

#define SLICE_MS 100
#define SETUP_MS 30000ULL
#define STALL_GRACE_MS 5000ULL
#define MS 1000000ULL
#define WHY_LEN 160	/* libnfs's error texts, as kept */

/* An io_u's state while libnfs has it (by u->index). */
struct nfs_slot {
	struct nfs_engine *ne;
	struct io_u *u;
	bool busy;		/* libnfs holds it */
	bool abandoned;		/* given back on a stall: ignore its callback */
	char why[WHY_LEN];		/* the failure libnfs reported */
};

/* An open, close or mount in progress (sync over the async calls). */
struct nfs_wait {
	bool done;
	int res;
	void *data;
	char why[WHY_LEN];
};

struct nfs_engine {
	struct engine e;
	struct nfs_context *nfs;
	char *where;		/* "nfs://server/export", for messages */
	/*
	 * By io_u index, each allocated apart: libnfs holds a slot's
	 * address while its I/O is in flight, so growing the array must
	 * not move the slots.
	 */
	struct nfs_slot **slots;
	unsigned int nr_slots;
	struct io_u **done;	/* completions, oldest first */
	unsigned int nr_done, handed, cap_done;
	unsigned int inflight;
	bool dead;		/* the connection is gone: no more RPCs */
	char dead_why[WHY_LEN];
	/*
	 * When the job's runtime is over, on the engine's clock (from
	 * init, with startdelay and ramp_time: no earlier than the
	 * worker's end), for a server that stops answering; 0: none.
	 */
	uint64_t end_ns;
	/*
	 * The mount, open or close waited for: one at a time, and here
	 * rather than on the stack, as libnfs runs the callback of one
	 * given up on (no answer) when its context is destroyed.
	 */
	struct nfs_wait wait;
};


static inline struct nfs_engine *to_nfs(struct engine *e)
{
	return (struct nfs_engine *)e;
}

static void copy_why(char *dst, size_t n, struct nfs_context *nfs)
{
	const char *s = nfs_get_error(nfs);

	snprintf(dst, n, "%s", s && *s ? s : "no reason given");
}

static void go_dead(struct nfs_engine *ne, const char *why)
{
	if (!ne->dead)
		snprintf(ne->dead_why, sizeof(ne->dead_why), "%s", why);
	ne->dead = true;
}

/*
 * One turn of the service loop: waits up to ms for the socket, then lets
 * libnfs read and write (and run the callbacks). -1 when the connection
 * broke: libnfs keeps what was in flight, which abandon() fails.
 */
static int service(struct nfs_engine *ne, int ms)
{
	struct pollfd pfd;
	int n;

	if (ne->dead)
		return -1;
	pfd.fd = nfs_get_fd(ne->nfs);
	pfd.events = (short)nfs_which_events(ne->nfs);
	pfd.revents = 0;
	if (pfd.fd < 0) {
		go_dead(ne, "not connected");
		return -1;
	}
	n = poll(&pfd, 1, ms);
	if (n < 0 && errno != EINTR) {
		go_dead(ne, strerror(errno));
		return -1;
	}
	if (n < 0)
		return 0;
	if (nfs_service(ne->nfs, pfd.revents) < 0) {
		char why[WHY_LEN];

		copy_why(why, sizeof(why), ne->nfs);
		go_dead(ne, why);
		return -1;
	}
	return 0;
}

static void wait_cb(int res, struct nfs_context *nfs, void *data,
		    void *priv)
{
	struct nfs_wait *w = priv;

	w->done = true;
	w->res = res;
	w->data = data;
	if (res < 0)
		copy_why(w->why, sizeof(w->why), nfs);
}

/* The engine's wait, cleared for a call about to start. */
static struct nfs_wait *wait_start(struct nfs_engine *ne)
{
	memset(&ne->wait, 0, sizeof(ne->wait));
	return &ne->wait;
}

/*
 * After the async call that returned queued (0: its callback is to
 * come), runs the loop until w is done: 0, or -errno (w->why says why).
 */
static int wait_for(struct nfs_engine *ne, struct nfs_wait *w, int queued)
{
	uint64_t give_up = engine_mono_ns() + SETUP_MS * MS;

	if (queued) {
		copy_why(w->why, sizeof(w->why), ne->nfs);
		return -EIO;
	}
	while (!w->done) {
		if (service(ne, SLICE_MS) < 0 && !w->done) {
			snprintf(w->why, sizeof(w->why), "%s", ne->dead_why);
			return -EIO;
		}
		if (!w->done && engine_mono_ns() > give_up) {
			snprintf(w->why, sizeof(w->why), "no answer from the "
				 "server in %llu s", SETUP_MS / 1000);
			go_dead(ne, w->why);
			return -ETIMEDOUT;
		}
	}
	/* libnfs's -EFAULT is an RPC that failed: the connection's fault */
	return w->res == -EFAULT ? -EIO : w->res < 0 ? w->res : 0;
}

static struct nfs_slot *slot_of(struct nfs_engine *ne, struct io_u *u)
{
	if (u->index >= ne->nr_slots) {
		unsigned int n = u->index + 1, i;

		ne->slots = xrealloc(ne->slots, n * sizeof(*ne->slots));
		for (i = ne->nr_slots; i < n; i++)
			ne->slots[i] = xcalloc(1, sizeof(**ne->slots));
		ne->nr_slots = n;
	}
	return ne->slots[u->index];
}

static void push_done(struct nfs_engine *ne, struct io_u *u)
{
	if (ne->nr_done == ne->cap_done) {
		ne->cap_done = ne->cap_done ? 2 * ne->cap_done : 16;
		ne->done = xrealloc(ne->done, ne->cap_done * sizeof(*ne->done));
	}
	ne->done[ne->nr_done++] = u;
}

static void io_cb(int res, struct nfs_context *nfs, void *data, void *priv)
{
	struct nfs_slot *s = priv;
	struct nfs_engine *ne = s->ne;
	struct io_u *u = s->u;

	s->busy = false;
	if (s->abandoned) {
		s->abandoned = false;
		return;
	}
	ne->inflight--;
	if (res < 0) {
		/* an RPC that failed (-EFAULT in libnfs) is an I/O error */
		u->error = res == -EFAULT ? EIO : -res;
		u->resid = u->len;
		copy_why(s->why, sizeof(s->why), nfs);
	} else {
		uint32_t n = (uint32_t)res > u->len ? u->len : (uint32_t)res;

		if (u->ddir == DDIR_READ && n)
			memcpy(u->buf, data, n);
		u->error = 0;
		u->resid = u->ddir == DDIR_READ || u->ddir == DDIR_WRITE ?
			   u->len - n : 0;
	}
	push_done(ne, u);
}

/* Fails u at once (the connection is gone, or libnfs refused it). */
static enum engine_q fail_now(struct nfs_engine *ne, struct nfs_slot *s,
			      int err, const char *why)
{
	s->u->error = err;
	s->u->resid = s->u->len;
	snprintf(s->why, sizeof(s->why), "%s", why);
	(void)ne;
	return ENGINE_Q_DONE;
}

static enum engine_q nfs_queue(struct engine *e, struct io_u *u)
{
	struct nfs_engine *ne = to_nfs(e);
	struct nfs_slot *s = slot_of(ne, u);
	struct nfsfh *fh = e->files[u->file].engine_data;
	int ret;

	s->ne = ne;
	s->u = u;
	if (ne->dead)
		return fail_now(ne, s, EIO, ne->dead_why);
	switch (u->ddir) {
	case DDIR_READ:
		ret = nfs_pread_async(ne->nfs, fh, u->offset, u->len, io_cb, s);
		break;
	case DDIR_WRITE:
		ret = nfs_pwrite_async(ne->nfs, fh, u->offset, u->len, u->buf,
				       io_cb, s);
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		ret = nfs_fsync_async(ne->nfs, fh, io_cb, s);
		break;
	default:	/* refused by the plan rule */
		return fail_now(ne, s, EOPNOTSUPP, "not an NFS operation");
	}
	if (ret) {
		char why[WHY_LEN];

		copy_why(why, sizeof(why), ne->nfs);
		return fail_now(ne, s, EIO, why);
	}
	s->busy = true;
	ne->inflight++;
	return ENGINE_Q_QUEUED;
}

/* Puts what queue() handed libnfs on the wire, without waiting. */
static int nfs_commit(struct engine *e)
{
	struct nfs_engine *ne = to_nfs(e);

	if (ne->inflight)
		service(ne, 0);
	return 0;
}

/*
 * What is in flight fails with err: EIO when the connection broke and
 * libnfs kept them, ETIMEDOUT when the server stopped answering and the
 * job is over. The connection is not used again (libnfs may still hold
 * the buffers of the writes; it never sends them now).
 */
static void abandon(struct nfs_engine *ne, int err)
{
	unsigned int i;

	go_dead(ne, "no answer from the server after the job's end");
	for (i = 0; i < ne->nr_slots; i++) {
		struct nfs_slot *s = ne->slots[i];

		if (!s->busy || s->abandoned)
			continue;
		s->abandoned = true;
		s->u->error = err;
		s->u->resid = s->u->len;
		snprintf(s->why, sizeof(s->why), "%s", ne->dead_why);
		ne->inflight--;
		push_done(ne, s->u);
	}
}

static int nfs_getevents(struct engine *e, unsigned int min,
			 unsigned int max, const struct timespec *timeout)
{
	struct nfs_engine *ne = to_nfs(e);
	uint64_t stalled = 0;
	unsigned int have;

	(void)timeout;
	/* what the last call handed out has been taken */
	if (ne->handed) {
		memmove(ne->done, ne->done + ne->handed,
			(ne->nr_done - ne->handed) * sizeof(*ne->done));
		ne->nr_done -= ne->handed;
		ne->handed = 0;
	}
	if (!ne->nr_done && ne->inflight)
		service(ne, 0);
	while (ne->nr_done < min && ne->inflight) {
		have = ne->nr_done;
		if (service(ne, SLICE_MS) < 0) {
			if (ne->inflight)	/* libnfs kept them */
				abandon(ne, EIO);
			break;
		}
		if (ne->nr_done > have || !(engine_stopping(e) ||
		    (ne->end_ns && engine_mono_ns() > ne->end_ns))) {
			stalled = 0;
			continue;
		}
		if (!stalled)
			stalled = engine_mono_ns();
		else if (engine_mono_ns() - stalled > STALL_GRACE_MS * MS)
			abandon(ne, ETIMEDOUT);
	}
	ne->handed = ne->nr_done < max ? ne->nr_done : max;
	return (int)ne->handed;
}

static struct io_u *nfs_event(struct engine *e, unsigned int i)
{
	return to_nfs(e)->done[i];
}

static const char *nfs_error_detail(struct engine *e, const struct io_u *u,
				    char *buf, size_t n)
{
	struct nfs_engine *ne = to_nfs(e);

	if (u->index >= ne->nr_slots)
		return NULL;
	snprintf(buf, n, "%s (%s)", ne->slots[u->index]->why, ne->where);
	return buf;
}

static int nfs_open_file(struct engine *e, struct engine_file *f,
			 struct strbuf *err)
{
	struct nfs_engine *ne = to_nfs(e);
	struct nfs_wait *w = wait_start(ne);
	int flags = e->plan->writes ? O_RDWR | O_CREAT : O_RDONLY;
	int ret;

	if (ne->dead) {
		strbuf_addf(err, "nfs: cannot open '%s' on %s: %s", f->path,
			    ne->where, ne->dead_why);
		return -EIO;
	}
	ret = wait_for(ne, w, nfs_open2_async(ne->nfs, f->path, flags, 0644,
					      wait_cb, w));
	if (ret) {
		strbuf_addf(err, "nfs: cannot open '%s' on %s: %s", f->path,
			    ne->where, w->why);
		return ret;
	}
	f->engine_data = w->data;
	/* open for the worker's checks; never a descriptor of ours */
	f->fd = nfs_get_fd(ne->nfs);
	return 0;
}

static int nfs_close_file(struct engine *e, struct engine_file *f)
{
	struct nfs_engine *ne = to_nfs(e);
	struct nfs_wait *w;
	int ret = 0;

	/*
	 * libnfs COMMITs a file written to as it closes it (NFSv3), and
	 * frees the handle then; on a dead connection that COMMIT is
	 * cancelled (and the handle freed) with the context, unwaited.
	 */
	if (f->engine_data) {
		w = wait_start(ne);
		if (ne->dead)
			nfs_close_async(ne->nfs, f->engine_data, wait_cb, w);
		else
			ret = wait_for(ne, w, nfs_close_async(ne->nfs,
					f->engine_data, wait_cb, w));
	}
	f->engine_data = NULL;
	f->fd = -1;
	return ret;
}

static void nfs_cleanup(struct engine *e)
{
	struct nfs_engine *ne = to_nfs(e);
	unsigned int i;

	if (ne->nfs) {
		struct nfs_wait *w = wait_start(ne);

		if (!ne->dead)
			wait_for(ne, w, nfs_umount_async(ne->nfs, wait_cb, w));
		/* what libnfs still holds is cancelled: no completions now */
		for (i = 0; i < ne->nr_slots; i++)
			if (ne->slots[i]->busy)
				ne->slots[i]->abandoned = true;
		nfs_destroy_context(ne->nfs);
	}
	for (i = 0; i < ne->nr_slots; i++)
		free(ne->slots[i]);
	free(ne->where);
	free(ne->slots);
	free(ne->done);
	free(ne);
}

static int mount_export(struct nfs_engine *ne, const char *url,
			struct strbuf *err)
{
	struct nfs_url *nu;
	struct nfs_wait *w = wait_start(ne);
	struct strbuf where = STRBUF_INIT;
	int ret;

	/* a benchmark fails on a lost server; the URL may say otherwise */
	nfs_set_autoreconnect(ne->nfs, 0);
	nu = nfs_parse_url_dir(ne->nfs, url);
	if (!nu || !nu->server || !nu->path) {
		strbuf_addf(err, "option 'nfs_url': '%s': %s", url,
			    nu ? "no server or export" :
			    nfs_get_error(ne->nfs));
		if (nu)
			nfs_destroy_url(nu);
		return -EINVAL;
	}
	strbuf_addf(&where, "nfs://%s%s", nu->server, nu->path);
	ne->where = strbuf_detach(&where);
	ret = wait_for(ne, w, nfs_mount_async(ne->nfs, nu->server, nu->path,
					      wait_cb, w));
	if (ret)
		strbuf_addf(err, "nfs: cannot mount export '%s' of %s: %s",
			    nu->path, nu->server, w->why);
	nfs_destroy_url(nu);
	return ret;
}

static int nfs_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	struct nfs_engine *ne = xcalloc(1, sizeof(*ne));
	int ret;

	ne->e.ops = &engine_nfs_ops;
	ne->e.plan = plan;
	ne->e.depth = depth;
	ne->nfs = nfs_init_context();
	if (!ne->nfs) {
		strbuf_addstr(err, "nfs: cannot make a libnfs context");
		nfs_cleanup(&ne->e);
		return -ENOMEM;
	}
	if ((ret = mount_export(ne, plan->o.nfs_url, err))) {
		ne->dead = true;	/* no umount of what is not mounted */
		nfs_cleanup(&ne->e);
		return ret;
	}
	if (plan->o.runtime_us)
		ne->end_ns = engine_mono_ns() + (plan->o.startdelay_us +
			     plan->o.ramp_time_us + plan->o.runtime_us) * 1000;
	*out = &ne->e;
	return 0;
}

static void nfs_describe(struct engine *e, struct strbuf *out)
{
	struct nfs_engine *ne = to_nfs(e);

	strbuf_addf(out, "nfs: %s, the server's largest read %llu bytes, "
		    "write %llu bytes", ne->where,
		    (unsigned long long)nfs_get_readmax(ne->nfs),
		    (unsigned long long)nfs_get_writemax(ne->nfs));
}

#endif	/* HAVE_LIBNFS */

/*
 * What a job on a server's files cannot do here: the options that act on
 * local files (unlink, pre_read, fsync_on_close: fsync(2) of a local
 * descriptor), and trims and sync_file_range, which NFS does not have.
 */
static int nfs_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *url = o->nfs_url;
	const char *local = o->unlink ? "unlink" :
			    o->unlink_each_loop ? "unlink_each_loop" :
			    o->pre_read ? "pre_read" :
			    o->fsync_on_close ? "fsync_on_close" : NULL;

	if (!url || !*url)
		return plan_fail(p, err, "option 'nfs_url': ioengine 'nfs' "
				 "needs the server and export, "
				 "nfs_url=nfs://SERVER/EXPORT");
	if (strncmp(url, "nfs://", 6) || url[6] == '/' || !url[6] ||
	    !strchr(url + 6, '/'))
		return plan_fail(p, err, "option 'nfs_url': '%s' is not "
				 "nfs://SERVER/EXPORT[?ARG=VALUE...]", url);
	if (ddir_used(p, DDIR_TRIM))
		return plan_fail(p, err, "option 'rw': NFS has no trims");
	if (o->sync_file_range)
		return plan_fail(p, err, "option 'sync_file_range': not with "
				 "ioengine nfs (fsync= and fdatasync= send "
				 "COMMITs)");
	if (local)
		return plan_fail(p, err, "option '%s': not with ioengine nfs "
				 "(it acts on local files)", local);
	return 0;
}

static const char *const nfs_options[] = { "nfs_url", NULL };

const struct engine_ops engine_nfs_ops = {
	.name = "nfs",
	.help = "a server's files over NFS, through libnfs (user space, "
		"async)",
	.flags = ENGINE_F_REMOTE | ENGINE_F_NO_ODIRECT,
	.options = nfs_options,
	.plan_check = nfs_plan_check,
#ifdef HAVE_LIBNFS
	.load = dl_nfs_load,
	.init = nfs_init,
	.cleanup = nfs_cleanup,
	.open_file = nfs_open_file,
	.close_file = nfs_close_file,
	.queue = nfs_queue,
	.commit = nfs_commit,
	.getevents = nfs_getevents,
	.event = nfs_event,
	.describe = nfs_describe,
	.error_detail = nfs_error_detail,
#endif
};

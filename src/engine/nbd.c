/* SPDX-License-Identifier: MIT */
/*
 * nbd: a Network Block Device export through libnbd, fio's nbd engine.
 * uri= names the server (nbd://host:port/export, nbd+unix:///export?
 * socket=PATH, nbds:// with TLS); the job's file stands for the export
 * (named as any job's file, as fio's, which write_iolog records) and
 * its size is the export's: remote_probe() connects once before
 * anything runs, and refuses a job the export cannot serve (a read-only
 * export written to, trims the server does not take, blocks above its
 * largest request). A server it cannot reach fails the job as it starts
 * (open_file), its report kept, as fio's.
 *
 * One connection per job (as fio), opened with the file at the job's
 * setup. queue() hands each read, write, trim or flush (every sync
 * direction: NBD has one) to libnbd's asynchronous calls, which send it
 * as the socket allows; getevents() runs libnbd's state machine
 * (nbd_poll) until enough replies are in, each completion callback
 * filling its io_u and retiring the command.
 *
 * The network's errors: a server that closes the connection or dies
 * fails every command in flight and every later one, with the library's
 * reason (error_detail()), so the job ends with it and the report is
 * still written. The waits are in slices: once the job is stopped
 * (runtime over, a signal), a server that has not answered within
 * REMOTE_STALL_MS (engine/remote.h) has its commands failed
 * (ETIMEDOUT) and the connection dropped, so a stalled server cannot
 * hold the run forever.
 *
 * Without libnbd the engine is declared all the same (its option, its
 * flags) but has no functions: ioengine=nbd is then refused with the
 * package to install.
 */
#include "engine/dl/nbd.h"
#include "engine/engines.h"
#include "engine/remote.h"

#ifdef HAVE_LIBNBD
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

struct nbd_engine;

/* What a completion callback is handed: one per io_u, by index. */
struct nbd_cmd {
	struct nbd_engine *ne;
	struct io_u *u;
	bool sent;		/* in flight: its callback is due */
};

struct nbd_engine {
	struct engine e;
	struct nbd_handle *h;
	const char *uri;
	struct nbd_cmd *cmds;	/* by io_u index (q.cap of them) */
	struct remote_q q;
	struct remote_wait wait;
	struct remote_link link;	/* why, in libnbd's words */
};

static inline struct nbd_engine *to_nbd(struct engine *e)
{
	return (struct nbd_engine *)e;
}

/* libnbd's last error of this thread, or what errno says. */
static const char *lib_error(void)
{
	const char *s = nbd_get_error();

	return s && *s ? s : strerror(nbd_get_errno() ? nbd_get_errno() : EIO);
}

/* A new handle connected to uri, or NULL with the reason in err. */
static struct nbd_handle *nbd_connect(const char *uri, struct strbuf *err)
{
	struct nbd_handle *h = nbd_create();

	if (!h) {
		strbuf_addf(err, "nbd: %s", lib_error());
		return NULL;
	}
	if (nbd_connect_uri(h, uri) == -1) {
		strbuf_addf(err, "cannot connect to '%s': %s", uri,
			    lib_error());
		nbd_close(h);
		return NULL;
	}
	return h;
}

/* The export's answers checked against what the job asks of it. */
static int probe_checks(const struct job_plan *p, struct nbd_handle *h,
			struct engine_remote *r, struct strbuf *err)
{
	int64_t size = nbd_get_size(h), max;

	if (size < 0) {
		strbuf_addf(err, "'%s': no size: %s", p->o.uri, lib_error());
		return -1;
	}
	r->size = (uint64_t)size;
	if (p->writes && nbd_is_read_only(h) == 1) {
		strbuf_addf(err, "'%s' is a read-only export: the job %s",
			    p->o.uri, ddir_used(p, DDIR_WRITE) ? "writes" :
			    "trims");
		return -1;
	}
	if (ddir_used(p, DDIR_TRIM) && nbd_can_trim(h) != 1) {
		strbuf_addf(err, "the server of '%s' does not take trims",
			    p->o.uri);
		return -1;
	}
	max = nbd_get_block_size(h, LIBNBD_SIZE_MAXIMUM);
	if (max > 0 && (p->dir_max_bs[DDIR_READ] > (uint64_t)max ||
			p->dir_max_bs[DDIR_WRITE] > (uint64_t)max)) {
		r->opt = "bs";
		strbuf_addf(err, "the server of '%s' takes requests of at most "
			    "%lld bytes", p->o.uri, (long long)max);
		return -1;
	}
	return 0;
}

static int nbd_probe(const struct job_plan *p, const char *name,
		     struct engine_remote *r, struct strbuf *err)
{
	struct nbd_handle *h;
	int ret;

	r->what = "NBD export";
	r->opt = "uri";
	r->name = p->o.uri;
	if (!p->o.uri || !*p->o.uri) {
		strbuf_addstr(err, "ioengine 'nbd' needs the server's URI "
			      "(uri=nbd://host:port/export)");
		return -1;
	}
	h = nbd_connect(p->o.uri, err);
	if (!h) {
		r->unreachable = true;
		return -1;
	}
	ret = probe_checks(p, h, r, err);
	nbd_shutdown(h, 0);
	nbd_close(h);
	return ret;
}

static int nbd_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	struct nbd_engine *ne = xcalloc(1, sizeof(*ne));

	ne->e.plan = plan;
	ne->e.depth = depth ? depth : 1;
	ne->uri = plan->o.uri;
	remote_q_init(&ne->q, ne->e.depth);
	ne->cmds = xcalloc(ne->q.cap, sizeof(*ne->cmds));
	*out = &ne->e;
	return 0;
}

static void nbd_cleanup(struct engine *e)
{
	struct nbd_engine *ne = to_nbd(e);

	if (ne->h) {
		/* a clean goodbye to a server that still answers */
		if (!ne->link.dead && !ne->q.queued)
			nbd_shutdown(ne->h, 0);
		nbd_close(ne->h);
	}
	remote_q_free(&ne->q);
	free(ne->cmds);
	free(ne);
}

/*
 * The export holds the job's region: checked before the run, unless the
 * server could not be reached then (remote_probe()).
 */
static int check_size(struct nbd_engine *ne, struct engine_file *f,
		      struct strbuf *err)
{
	int64_t size = nbd_get_size(ne->h);

	if (size >= 0 && (uint64_t)size >= f->real_size)
		return 0;
	if (size < 0)
		strbuf_addf(err, "'%s': no size: %s", ne->uri, lib_error());
	else
		strbuf_addf(err, "'%s' is an export of %lld bytes: the job's "
			    "region ends at %llu", ne->uri, (long long)size,
			    (unsigned long long)f->real_size);
	return -EINVAL;
}

/* One connection per job: made with the first file, kept to the end. */
static int nbd_open(struct engine *e, struct engine_file *f,
		    struct strbuf *err)
{
	struct nbd_engine *ne = to_nbd(e);

	f->fd = -1;
	if (!ne->h && !(ne->h = nbd_connect(ne->uri, err)))
		return -ECONNREFUSED;
	remote_wait_start(&ne->wait, e->plan);
	return check_size(ne, f, err);
}

/* The connection stays up to the job's end (cleanup). */
static int nbd_close_file(struct engine *e, struct engine_file *f)
{
	return 0;
}

static void complete_cmd(struct nbd_cmd *c, int error)
{
	c->sent = false;
	remote_q_done(&c->ne->q, c->u, error);
}

/*
 * libnbd's completion callback, from inside its calls on this thread:
 * *error is the server's errno for the command (0: done), or the
 * library's when the connection failed. Returns 1: the command is
 * retired. A command given up already (stalled) is let go.
 */
static int cmd_done(void *data, int *error)
{
	struct nbd_cmd *c = data;

	if (!c->sent)
		return 1;
	if (*error && (c->ne->link.dead || nbd_aio_is_dead(c->ne->h) == 1))
		remote_link_break(&c->ne->link, lib_error());
	complete_cmd(c, *error);
	return 1;
}

/* A command libnbd did not take: its errno, the reason kept. */
static enum engine_q refused(struct nbd_engine *ne, struct io_u *u)
{
	int err = nbd_get_errno();

	if (!ne->link.dead && (nbd_aio_is_dead(ne->h) == 1 ||
			  nbd_aio_is_closed(ne->h) == 1 || err == ENOTCONN))
		remote_link_break(&ne->link, lib_error());
	u->error = err ? err : EIO;
	u->resid = u->len;
	return ENGINE_Q_DONE;
}

static enum engine_q nbd_queue(struct engine *e, struct io_u *u)
{
	struct nbd_engine *ne = to_nbd(e);
	struct nbd_cmd *c;
	nbd_completion_callback cb;
	int64_t r;

	if (ne->link.dead) {
		u->error = ENOTCONN;
		u->resid = u->len;
		return ENGINE_Q_DONE;
	}
	if (ne->q.queued >= e->depth)
		return ENGINE_Q_BUSY;
	if (u->index >= ne->q.cap)
		BUG("nbd: io_u %u beyond the depth's %u", u->index, ne->q.cap);
	c = &ne->cmds[u->index];
	c->ne = ne;
	c->u = u;
	cb = (nbd_completion_callback){ .callback = cmd_done, .user_data = c };
	switch (u->ddir) {
	case DDIR_READ:
		r = nbd_aio_pread(ne->h, u->buf, u->len, u->offset, cb, 0);
		break;
	case DDIR_WRITE:
		r = nbd_aio_pwrite(ne->h, u->buf, u->len, u->offset, cb, 0);
		break;
	case DDIR_TRIM:
		r = nbd_aio_trim(ne->h, u->len, u->offset, cb, 0);
		break;
	default:	/* fsync, fdatasync, sync_file_range: NBD's flush */
		r = nbd_aio_flush(ne->h, cb, 0);
		break;
	}
	if (r == -1)
		return refused(ne, u);
	c->sent = true;
	ne->q.queued++;
	return ENGINE_Q_QUEUED;
}

/* The connection broke (or stalled): what is in flight fails. */
static void fail_inflight(struct nbd_engine *ne, const char *why, int error)
{
	unsigned int i;

	remote_link_break(&ne->link, why);
	for (i = 0; i < ne->q.cap; i++)
		if (ne->cmds[i].sent)
			complete_cmd(&ne->cmds[i], error);
}

static int nbd_getevents(struct engine *e, unsigned int min, unsigned int max,
			 const struct timespec *timeout)
{
	struct nbd_engine *ne = to_nbd(e);
	struct remote_q *q = &ne->q;

	if (min > q->nr_done + q->queued)
		min = q->nr_done + q->queued;
	/* what is there already, without waiting */
	while (q->queued && !ne->link.dead) {
		int r = nbd_poll(ne->h, 0);

		if (r == -1)
			fail_inflight(ne, lib_error(), ENOTCONN);
		if (r != 1)
			break;
	}
	while (q->nr_done < min) {
		int r = nbd_poll(ne->h, REMOTE_SLICE_MS);

		if (r == -1)
			fail_inflight(ne, lib_error(), ENOTCONN);
		else if (remote_wait_stalled(&ne->wait, e, r == 1))
			fail_inflight(ne, "no reply from the server within "
				      "5 s of the job's end", ETIMEDOUT);
	}
	return remote_q_take(q, max);
}

static struct io_u *nbd_event(struct engine *e, unsigned int i)
{
	return to_nbd(e)->q.out[i];
}

/* A failed I/O on a lost connection: the URI and the library's reason. */
static const char *nbd_error_detail(struct engine *e, const struct io_u *u,
				    char *buf, size_t n)
{
	struct nbd_engine *ne = to_nbd(e);

	if (ne->link.dead)
		snprintf(buf, n, "'%s': %s (%s)", ne->uri, ne->link.reason,
			 strerrorname_np(u->error) ? strerrorname_np(u->error) :
			 "?");
	else
		snprintf(buf, n, "the server of '%s' said %s (%s)", ne->uri,
			 strerror(u->error), strerrorname_np(u->error) ?
			 strerrorname_np(u->error) : "?");
	return buf;
}

/* uri= is required (fio: "uri parameter was not specified"). */
static int nbd_plan_check(struct job_plan *p, struct strbuf *err)
{
	if (!p->o.uri || !*p->o.uri)
		return plan_fail(p, err, "option 'uri': ioengine 'nbd' needs "
				 "the server's URI (uri=nbd://host:port/export "
				 "or nbd+unix:///export?socket=PATH)");
	return 0;
}
#endif	/* HAVE_LIBNBD */

static const char *const nbd_options[] = { "uri", NULL };

const struct engine_ops engine_nbd_ops = {
	.name = "nbd",
	.help = "a Network Block Device export (libnbd; uri=)",
	.flags = ENGINE_F_NOFILEIO,
	.options = nbd_options,
#ifdef HAVE_LIBNBD
	.plan_check = nbd_plan_check,
	.load = dl_nbd_load,
	.init = nbd_init,
	.cleanup = nbd_cleanup,
	.open_file = nbd_open,
	.close_file = nbd_close_file,
	.queue = nbd_queue,
	.getevents = nbd_getevents,
	.event = nbd_event,
	.error_detail = nbd_error_detail,
	.remote_probe = nbd_probe,
#endif
};

/* SPDX-License-Identifier: MIT */
/*
 * libiscsi: an iSCSI LUN through libiscsi's user-space initiator, fio's
 * libiscsi engine. Each of the job's files is a LUN, named by its URL
 * (filename=iscsi\://host\:port/iqn.../LUN: the colons escaped, as in
 * any list of files; iscsi://user%password@host/... logs in with CHAP)
 * and the session logs in as initiator= (fio's default IQN).
 * remote_probe() logs in once before anything runs and sizes each file
 * from READ CAPACITY(16): the job's blocks and region must be whole
 * blocks of the LUN, within its end. A target it cannot log in to fails
 * the job as it starts (open_file), its report kept.
 *
 * One session per file, opened at the job's setup. queue() sends READ(16),
 * WRITE(16) or, for every sync direction, SYNCHRONIZE CACHE(16) of the
 * whole LUN, as fio's engine does; the data moves straight to and from
 * the job's buffers. getevents() polls the sessions' sockets and runs
 * libiscsi until enough commands are done. Trims are refused: fio's
 * engine has none (it would be UNMAP).
 *
 * The network's errors: a SCSI status other than GOOD fails the I/O with
 * the target's sense in libiscsi's words (error_detail()); a session
 * that breaks (the target gone: libiscsi's reconnection is switched
 * off, so that it fails rather than retries forever) fails what is in
 * flight and every later I/O of that LUN. A target that stops
 * answering is given up after the job's end (engine/remote.h).
 *
 * Without libiscsi the engine is declared all the same (its option, its
 * flags) but has no functions: ioengine=libiscsi is then refused with
 * the package to install.
 */
#include "engine/dl/iscsi.h"
#include "engine/engines.h"
#include "engine/remote.h"

#ifdef HAVE_LIBISCSI
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

struct iscsi_engine;

/* One LUN: a file of the job. */
struct lun {
	struct iscsi_context *iscsi;
	struct iscsi_url *url;
	unsigned int block;	/* bytes */
	uint64_t blocks;
	struct remote_link link;	/* the session, broken or not */
	bool unreachable;	/* lun_open() could not log in */
};

/* A command in flight, one per io_u (by index). */
struct lun_cmd {
	struct iscsi_engine *ie;
	struct io_u *u;
	struct scsi_iovec iov;
	bool sent;		/* its callback is due */
	char sense[160];	/* the target's answer when it failed */
};

struct iscsi_engine {
	struct engine e;
	struct lun *luns;	/* by file index */
	struct pollfd *pfd;
	struct lun_cmd *cmds;	/* by io_u index (q.cap of them) */
	struct remote_q q;
	struct remote_wait wait;
};

static inline struct iscsi_engine *to_iscsi(struct engine *e)
{
	return (struct iscsi_engine *)e;
}

static void lun_close(struct lun *l)
{
	if (l->iscsi) {
		if (!l->link.dead && iscsi_is_logged_in(l->iscsi))
			iscsi_logout_sync(l->iscsi);
		iscsi_destroy_context(l->iscsi);
	}
	if (l->url)
		iscsi_destroy_url(l->url);
	l->iscsi = NULL;
	l->url = NULL;
}

/*
 * Why a login failed at the TCP level, which libiscsi words as a failed
 * reconnection: connects to the portal ("host[:port]", "[v6][:port]")
 * itself. 0 when it could connect (libiscsi's reason stands).
 */
static int portal_errno(const char *portal)
{
	char host[256], *port = NULL;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	int err = 0;

	snprintf(host, sizeof(host), "%s", portal);
	if (host[0] == '[') {
		char *end = strchr(host, ']');

		if (!end)
			return 0;
		*end = 0;
		port = end[1] == ':' ? end + 2 : NULL;
		memmove(host, host + 1, strlen(host + 1) + 1);
	} else if ((port = strrchr(host, ':'))) {
		*port++ = 0;
	}
	if (getaddrinfo(host, port ? port : "3260", &hints, &ai))
		return 0;
	for (a = ai; a; a = a->ai_next) {
		int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			continue;
		err = connect(fd, a->ai_addr, a->ai_addrlen) ? errno : 0;
		close(fd);
		if (!err)
			break;
	}
	freeaddrinfo(ai);
	return err;
}

/*
 * url for a message: a CHAP password in it (iscsi://user%password@host/)
 * shown as "***".
 */
static const char *shown(const char *url, char *buf, size_t n)
{
	const char *host = strstr(url, "://"), *at, *pct;

	host = host ? host + 3 : url;
	at = strchr(host, '@');
	pct = strchr(host, '%');
	if (!at || !pct || pct > at || (strchr(host, '/') &&
					strchr(host, '/') < at))
		return url;
	snprintf(buf, n, "%.*s***%s", (int)(pct + 1 - url), url, at);
	return buf;
}

/* Logs in to the LUN at url and reads its capacity; 0 or -1 with err. */
static int lun_open(struct lun *l, const char *url, const char *initiator,
		    struct strbuf *err)
{
	struct scsi_task *t;
	struct scsi_readcapacity16 *rc;
	char buf[512];

	memset(l, 0, sizeof(*l));
	l->iscsi = iscsi_create_context(initiator);
	if (!l->iscsi) {
		strbuf_addstr(err, "libiscsi: cannot create a context");
		return -1;
	}
	l->url = iscsi_parse_full_url(l->iscsi, url);
	if (!l->url) {
		strbuf_addf(err, "'%s' is not an iSCSI URL "
			    "(iscsi://host[:port]/target-iqn/lun): %s",
			    shown(url, buf, sizeof(buf)),
			    iscsi_get_error(l->iscsi));
		goto fail;
	}
	iscsi_set_targetname(l->iscsi, l->url->target);
	iscsi_set_session_type(l->iscsi, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(l->iscsi, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	if (iscsi_full_connect_sync(l->iscsi, l->url->portal, l->url->lun)) {
		int e = portal_errno(l->url->portal);

		strbuf_addf(err, "cannot log in to '%s': %s",
			    shown(url, buf, sizeof(buf)),
			    e ? strerror(e) : iscsi_get_error(l->iscsi));
		l->unreachable = true;
		goto fail;
	}
	/* once in: a broken session fails, never retried (set before, it
	 * words a refused connection as a reconnection's failure) */
	iscsi_set_noautoreconnect(l->iscsi, 1);
	t = iscsi_readcapacity16_sync(l->iscsi, l->url->lun);
	rc = t && t->status == SCSI_STATUS_GOOD ? scsi_datain_unmarshall(t) :
		NULL;
	if (!rc || !rc->block_length) {
		strbuf_addf(err, "'%s': READ CAPACITY(16) failed: %s",
			    shown(url, buf, sizeof(buf)),
			    iscsi_get_error(l->iscsi));
		if (t)
			scsi_free_scsi_task(t);
		goto fail;
	}
	l->block = rc->block_length;
	l->blocks = rc->returned_lba + 1;
	scsi_free_scsi_task(t);
	return 0;
fail:
	lun_close(l);
	return -1;
}

static int iscsi_probe(const struct job_plan *p, const char *name,
		       struct engine_remote *r, struct strbuf *err)
{
	struct lun l;

	r->what = "iSCSI LUN";
	r->opt = "filename";
	r->name = name;
	if (lun_open(&l, name, p->o.initiator, err)) {
		r->unreachable = l.unreachable;
		return -1;
	}
	r->size = l.blocks * l.block;
	r->lbs = l.block;
	lun_close(&l);
	return 0;
}

static int iscsi_init(const struct job_plan *plan, unsigned int depth,
		      struct engine **out, struct strbuf *err)
{
	struct iscsi_engine *ie = xcalloc(1, sizeof(*ie));

	ie->e.plan = plan;
	ie->e.depth = depth ? depth : 1;
	remote_q_init(&ie->q, ie->e.depth);
	ie->cmds = xcalloc(ie->q.cap, sizeof(*ie->cmds));
	*out = &ie->e;
	return 0;
}

static void iscsi_cleanup(struct engine *e)
{
	struct iscsi_engine *ie = to_iscsi(e);
	unsigned int i;

	for (i = 0; ie->luns && i < e->nr_files; i++)
		lun_close(&ie->luns[i]);
	free(ie->luns);
	free(ie->pfd);
	free(ie->cmds);
	remote_q_free(&ie->q);
	free(ie);
}

/* Each file is a session of its own, opened at the job's setup. */
static int iscsi_open(struct engine *e, struct engine_file *f,
		      struct strbuf *err)
{
	struct iscsi_engine *ie = to_iscsi(e);
	unsigned int i = (unsigned int)(f - e->files);
	uint64_t size;

	if (!ie->luns) {
		ie->luns = xcalloc(e->nr_files, sizeof(*ie->luns));
		ie->pfd = xcalloc(e->nr_files, sizeof(*ie->pfd));
	}
	f->fd = -1;
	if (ie->luns[i].iscsi)
		return 0;
	if (lun_open(&ie->luns[i], f->path, e->plan->o.initiator, err))
		return -ECONNREFUSED;
	remote_wait_start(&ie->wait, e->plan);
	/* checked before the run, unless the target was not reached then */
	size = ie->luns[i].blocks * ie->luns[i].block;
	if (size >= f->real_size)
		return 0;
	strbuf_addf(err, "'%s' is a LUN of %llu bytes: the job's region ends "
		    "at %llu", f->path, (unsigned long long)size,
		    (unsigned long long)f->real_size);
	return -EINVAL;
}

/* The sessions stay up to the job's end (cleanup). */
static int iscsi_close_file(struct engine *e, struct engine_file *f)
{
	return 0;
}

static void complete_cmd(struct lun_cmd *c, int error)
{
	c->sent = false;
	remote_q_done(&c->ie->q, c->u, error);
}

/*
 * libiscsi's callback, from inside iscsi_service(): the command's SCSI
 * status. The task is freed here, also for a command given up already.
 */
static void cmd_done(struct iscsi_context *iscsi, int status, void *data,
		     void *priv)
{
	struct lun_cmd *c = priv;
	struct scsi_task *t = data;
	int error = 0;

	if (c->sent) {
		if (status == SCSI_STATUS_CANCELLED ||
		    status == SCSI_STATUS_ERROR) {
			/* the session broke: libiscsi's error says why */
			remote_link_break(&c->ie->luns[c->u->file].link,
					  iscsi_get_error(iscsi));
			error = ENOTCONN;
		} else if (status != SCSI_STATUS_GOOD) {
			error = EIO;
			snprintf(c->sense, sizeof(c->sense), "%s",
				 iscsi_get_error(iscsi));
		}
		complete_cmd(c, error);
		if (!error && t && t->residual_status ==
		    SCSI_RESIDUAL_UNDERFLOW)
			c->u->resid = (uint32_t)t->residual;
	}
	if (t)
		scsi_free_scsi_task(t);
}

static struct scsi_task *send_cmd(struct lun *l, struct lun_cmd *c,
				  struct io_u *u)
{
	int lun = l->url->lun, bs = (int)l->block;
	uint64_t lba = u->offset / l->block;

	c->iov.iov_base = u->buf;
	c->iov.iov_len = u->len;
	switch (u->ddir) {
	case DDIR_READ:
		return iscsi_read16_iov_task(l->iscsi, lun, lba, u->len, bs,
					     0, 0, 0, 0, 0, cmd_done, c,
					     &c->iov, 1);
	case DDIR_WRITE:
		return iscsi_write16_iov_task(l->iscsi, lun, lba, NULL, u->len,
					      bs, 0, 0, 0, 0, 0, cmd_done, c,
					      &c->iov, 1);
	default:	/* fsync, fdatasync, sync_file_range: the LUN's cache */
		return iscsi_synchronizecache16_task(l->iscsi, lun, 0, 0, 0, 0,
						     cmd_done, c);
	}
}

static enum engine_q iscsi_queue(struct engine *e, struct io_u *u)
{
	struct iscsi_engine *ie = to_iscsi(e);
	struct lun *l = &ie->luns[u->file];
	struct lun_cmd *c;

	if (l->link.dead || !l->iscsi) {
		u->error = ENOTCONN;
		u->resid = u->len;
		return ENGINE_Q_DONE;
	}
	if (ie->q.queued >= e->depth)
		return ENGINE_Q_BUSY;
	if (u->index >= ie->q.cap)
		BUG("libiscsi: io_u %u beyond the depth's %u", u->index,
		    ie->q.cap);
	c = &ie->cmds[u->index];
	c->ie = ie;
	c->u = u;
	c->sense[0] = 0;
	c->sent = true;
	ie->q.queued++;
	if (!send_cmd(l, c, u)) {
		snprintf(c->sense, sizeof(c->sense), "%s",
			 iscsi_get_error(l->iscsi));
		ie->q.queued--;
		c->sent = false;
		u->error = EIO;
		u->resid = u->len;
		return ENGINE_Q_DONE;
	}
	return ENGINE_Q_QUEUED;
}

/* Fails what is in flight on file i (every file: i < 0). */
static void fail_inflight(struct iscsi_engine *ie, int i, int error)
{
	unsigned int k;

	for (k = 0; k < ie->q.cap; k++)
		if (ie->cmds[k].sent &&
		    (i < 0 || ie->cmds[k].u->file == (unsigned int)i))
			complete_cmd(&ie->cmds[k], error);
}

/* One wait of at most ms on every live session; whether any moved. */
static bool poll_once(struct iscsi_engine *ie, int ms)
{
	unsigned int i, n = ie->e.nr_files;
	bool moved = false;
	int r;

	for (i = 0; i < n; i++) {
		struct lun *l = &ie->luns[i];

		ie->pfd[i].fd = l->iscsi && !l->link.dead ?
			iscsi_get_fd(l->iscsi) : -1;
		ie->pfd[i].events = ie->pfd[i].fd >= 0 ?
			(short)iscsi_which_events(l->iscsi) : 0;
		ie->pfd[i].revents = 0;
	}
	r = poll(ie->pfd, n, ms);
	if (r < 0)
		return false;
	for (i = 0; i < n; i++) {
		struct lun *l = &ie->luns[i];
		unsigned int before = ie->q.nr_done;

		if (ie->pfd[i].fd < 0 || !ie->pfd[i].revents)
			continue;
		if (iscsi_service(l->iscsi, ie->pfd[i].revents) < 0) {
			remote_link_break(&l->link, iscsi_get_error(l->iscsi));
			fail_inflight(ie, (int)i, ENOTCONN);
		}
		moved |= ie->q.nr_done != before;
	}
	return moved || r > 0;
}

static int iscsi_getevents(struct engine *e, unsigned int min,
			   unsigned int max, const struct timespec *timeout)
{
	struct iscsi_engine *ie = to_iscsi(e);
	struct remote_q *q = &ie->q;
	unsigned int i;

	if (min > q->nr_done + q->queued)
		min = q->nr_done + q->queued;
	if (q->queued)
		poll_once(ie, 0);
	while (q->nr_done < min) {
		if (!remote_wait_stalled(&ie->wait, e,
					 poll_once(ie, REMOTE_SLICE_MS)))
			continue;
		for (i = 0; i < e->nr_files; i++)
			remote_link_break(&ie->luns[i].link, "no reply from "
					  "the target within 5 s of the job's "
					  "end");
		fail_inflight(ie, -1, ETIMEDOUT);
	}
	return remote_q_take(q, max);
}

static struct io_u *iscsi_event(struct engine *e, unsigned int i)
{
	return to_iscsi(e)->q.out[i];
}

/* A failed I/O: the target's sense, or why the session broke. */
static const char *iscsi_error_detail(struct engine *e, const struct io_u *u,
				      char *buf, size_t n)
{
	struct iscsi_engine *ie = to_iscsi(e);
	const struct lun_cmd *c = u->index < ie->q.cap ?
				  &ie->cmds[u->index] : NULL;
	const struct lun *l = &ie->luns[u->file];
	const char *name = strerrorname_np(u->error);

	if (c && c->sense[0] && c->u == u)
		snprintf(buf, n, "the target said: %s (%s)", c->sense,
			 name ? name : "?");
	else if (l->link.dead)
		snprintf(buf, n, "the session broke: %s (%s)", l->link.reason,
			 name ? name : "?");
	else
		return NULL;
	return buf;
}

/* fio's engine has no trim (it would be UNMAP). */
static int iscsi_plan_check(struct job_plan *p, struct strbuf *err)
{
	if (ddir_used(p, DDIR_TRIM))
		return plan_fail(p, err, "option 'rw': ioengine 'libiscsi' "
				 "does not trim (fio's neither)");
	if (!p->o.filename || !*p->o.filename)
		return plan_fail(p, err, "option 'filename': ioengine "
				 "'libiscsi' needs the LUN's URL "
				 "(filename=iscsi\\://host\\:port/iqn/lun)");
	return 0;
}
#endif	/* HAVE_LIBISCSI */

static const char *const iscsi_options[] = { "initiator", NULL };

const struct engine_ops engine_libiscsi_ops = {
	.name = "libiscsi",
	.help = "an iSCSI LUN (libiscsi; filename=iscsi\\://host\\:port/"
		"iqn/lun)",
	.flags = ENGINE_F_NOFILEIO,
	.options = iscsi_options,
#ifdef HAVE_LIBISCSI
	.plan_check = iscsi_plan_check,
	.load = dl_iscsi_load,
	.init = iscsi_init,
	.cleanup = iscsi_cleanup,
	.open_file = iscsi_open,
	.close_file = iscsi_close_file,
	.queue = iscsi_queue,
	.getevents = iscsi_getevents,
	.event = iscsi_event,
	.error_detail = iscsi_error_detail,
	.remote_probe = iscsi_probe,
#endif
};

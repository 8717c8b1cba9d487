/* SPDX-License-Identifier: MIT */
/*
 * openfiles and lockfile in the worker: see wfiles.h. Everything here is
 * off the common path: a job without these options has no struct wfiles
 * and pays one predictable branch per hook.
 */
#include "run/wfiles.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "target/filelock.h"
#include "util/log.h"

struct wfiles {
	struct file_cycle *fc;		/* opens and closes (run/fcycle.h) */
	struct engine *e;
	struct workload *wl;
	const void *owner;
	unsigned int nr_files;
	bool limit;			/* openfiles below the file count */
	enum lockfile_mode mode;
	struct filelock **locks;	/* [nr_files], or NULL */
	unsigned int *busy;		/* [nr_files]: holds in flight */
	bool *closing;			/* [nr_files]: close when not busy */
	bool *is_open;			/* [nr_files] */
	unsigned int open_limit;	/* openfiles, 0: none */
	unsigned int *held;		/* [nr_ios]: file + 1 held, or 0 */
	unsigned int nr_ios;
	unsigned int nr_open, max_open;
};

int wfiles_init(struct wfiles **out, const struct job_plan *p,
		struct workload *wl, struct file_cycle *fc,
		unsigned int nr_ios, const void *owner, struct strbuf *err)
{
	struct engine *e = fc->e;
	struct wfiles *wf;
	unsigned int i;
	bool limit = workload_open_limit(wl) != 0;

	*out = NULL;
	if (!limit && p->o.lockfile == LOCKFILE_NONE)
		return 0;
	wf = xcalloc(1, sizeof(*wf));
	wf->fc = fc;
	wf->e = e;
	wf->wl = wl;
	wf->owner = owner;
	wf->nr_files = e->nr_files;
	wf->limit = limit;
	wf->open_limit = workload_open_limit(wl);
	wf->is_open = xcalloc(e->nr_files ? e->nr_files : 1,
			      sizeof(*wf->is_open));
	wf->mode = p->o.lockfile;
	wf->busy = xcalloc(e->nr_files ? e->nr_files : 1, sizeof(*wf->busy));
	wf->closing = xcalloc(e->nr_files ? e->nr_files : 1,
			      sizeof(*wf->closing));
	wf->held = xcalloc(nr_ios, sizeof(*wf->held));
	wf->nr_ios = nr_ios;
	if (wf->mode != LOCKFILE_NONE) {
		wf->locks = xcalloc(e->nr_files ? e->nr_files : 1,
				    sizeof(*wf->locks));
		for (i = 0; i < e->nr_files; i++)
			wf->locks[i] = filelock_get(e->files[i].path);
	}
	/* FILE_OP engines open the files in use when the run starts */
	wfiles_restart(wf, fc->ops->flags & ENGINE_F_FILE_OP);
	*out = wf;
	(void)err;
	return 0;
}

bool wfiles_open_at_start(const struct wfiles *wf, unsigned int file)
{
	return !wf || !wf->limit || workload_file_in_use(wf->wl, file);
}

bool wfiles_limited(const struct wfiles *wf)
{
	return wf && wf->limit;
}

void wfiles_restart(struct wfiles *wf, bool in_use_open)
{
	unsigned int i;

	wf->nr_open = 0;
	for (i = 0; i < wf->nr_files; i++) {
		wf->closing[i] = false;
		wf->is_open[i] = in_use_open && wfiles_open_at_start(wf, i);
		wf->nr_open += wf->is_open[i];
	}
	if (wf->nr_open > wf->max_open)
		wf->max_open = wf->nr_open;
}

static void close_now(struct wfiles *wf, unsigned int file)
{
	wf->closing[file] = false;
	if (!wf->is_open[file])
		return;
	fcycle_close(wf->fc, file);
	wf->is_open[file] = false;
	wf->nr_open--;
}

void wfiles_close_all(struct wfiles *wf)
{
	unsigned int i;

	for (i = 0; i < wf->nr_files; i++)
		close_now(wf, i);
}

int wfiles_open(struct wfiles *wf, unsigned int file, struct strbuf *err)
{
	int ret = fcycle_open(wf->fc, file, err);

	if (ret)
		return ret;
	wf->is_open[file] = true;
	if (++wf->nr_open > wf->max_open)
		wf->max_open = wf->nr_open;
	return 0;
}

/*
 * A file brought in: opened before its first I/O is queued, once the
 * files retired before it are closed (their I/O has completed), so that
 * no more than openfiles are ever open. 0, or 1: reap first.
 */
static int open_lazily(struct wfiles *wf, unsigned int file,
		       unsigned int inflight)
{
	struct strbuf err = STRBUF_INIT;

	if (wf->nr_open >= wf->open_limit && inflight)
		return 1;
	if (fcycle_open(wf->fc, file, &err))
		/* the I/O then fails (EBADF) and stops the job */
		error("%s", strbuf_str(&err));
	else
		wf->is_open[file] = true;
	strbuf_release(&err);
	if (wf->is_open[file] && ++wf->nr_open > wf->max_open)
		wf->max_open = wf->nr_open;
	return 0;
}

int wfiles_events(struct wfiles *wf, struct strbuf *err)
{
	unsigned int file;
	bool open;

	if (!wf->limit)
		return 0;
	while (workload_file_event(wf->wl, &file, &open)) {
		if (!open) {
			if (wf->busy[file])
				wf->closing[file] = true;
			else
				close_now(wf, file);
		} else {
			/* back in use before its last I/O completed, or
			 * opened by wfiles_hold() */
			wf->closing[file] = false;
		}
	}
	(void)err;
	return 0;
}

int wfiles_hold(struct wfiles *wf, struct io_u *u, unsigned int inflight)
{
	bool write = u->ddir != DDIR_READ;

	if (wf->held[u->index])
		return 0;	/* the rest of a short transfer, or a retry */
	if (wf->limit && !wf->is_open[u->file] &&
	    open_lazily(wf, u->file, inflight))
		return 1;
	if (wf->locks && filelock_acquire(wf->locks[u->file], wf->owner,
					  wf->mode, write, false)) {
		if (inflight)
			return 1;
		filelock_acquire(wf->locks[u->file], wf->owner, wf->mode,
				 write, true);
	}
	wf->held[u->index] = u->file + 1;
	wf->busy[u->file]++;
	return 0;
}

void wfiles_done(struct wfiles *wf, const struct io_u *u)
{
	unsigned int file = u->file;

	if (!wf->held[u->index])
		return;
	/* a short transfer whose rest is issued again keeps its hold */
	if (u->ddir < DDIR_RWDIR_CNT && !u->error && u->resid &&
	    u->resid < u->len)
		return;
	wf->held[u->index] = 0;
	if (wf->locks)
		filelock_release(wf->locks[file], wf->owner, wf->mode);
	if (!--wf->busy[file] && wf->closing[file])
		close_now(wf, file);
}

unsigned int wfiles_max_open(const struct wfiles *wf)
{
	return wf ? wf->max_open : 0;
}

void wfiles_free(struct wfiles *wf)
{
	unsigned int i;

	if (!wf)
		return;
	/* an I/O taken but never queued (the job stopped before its retry) */
	for (i = 0; i < wf->nr_ios; i++)
		if (wf->held[i] && wf->locks)
			filelock_release(wf->locks[wf->held[i] - 1], wf->owner,
					 wf->mode);
	if (wf->locks) {
		for (i = 0; i < wf->nr_files; i++)
			filelock_put(wf->locks[i]);
		free(wf->locks);
	}
	free(wf->busy);
	free(wf->closing);
	free(wf->is_open);
	free(wf->held);
	free(wf);
}

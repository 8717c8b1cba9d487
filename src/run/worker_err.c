/* SPDX-License-Identifier: MIT */
/*
 * The worker's faults: an I/O error, a short transfer, a block that
 * failed verification (worker_int.h declares them, worker.c calls them
 * from its completions, out of the I/O loop's way: they are cold).
 */
#include "run/worker_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verify/verify.h"
#include "workload/workload.h"

/*
 * An I/O error, a transfer that made no progress, or a block that failed
 * verification: counted, reported with job, direction, file, offset and
 * errno, and the job goes on when continue_on_error / ignore_error let it
 * (verify_fatal stops it at a bad block whatever they say). The error
 * that stops a job is its errmsg, printed by main after the run; errors
 * continued past are counted for the report's notes, the first
 * RUN_CONT_ERRS with their messages (I/O errors only with error_dump, the
 * default). Returns non-zero
 * when the job must stop.
 */
static void count_error(struct worker_stats *st, int err)
{
	st->total_err++;
	if (!st->first_error)
		st->first_error = err;
}

/* "job 'x': write of N bytes at offset O of 'f' failed: why" into buf */
static void describe_error(const struct worker *w, const struct io_u *u,
			   int err, uint32_t done, char *buf, size_t size)
{
	static const char *const dn[DDIR_CNT] = {
		"read", "write", "trim", "fsync", "fdatasync",
		"sync_file_range",
	};
	const struct run_job *rj = w->rj;
	char detail[384];
	const char *path = rj->files->nr_files ?
			   rj->files->files[u->file].path : "";
	int n = snprintf(buf, size,
			 "job '%s': %s of %u bytes at offset %llu of '%s' failed: ",
			 w->p->o.name, dn[u->ddir], u->len,
			 (unsigned long long)u->offset, path);

	if (n <= 0 || (size_t)n >= size)
		return;
	if (u->error && w->ops->error_detail &&
	    w->ops->error_detail(w->e, u, detail, sizeof(detail)))
		snprintf(buf + n, size - (size_t)n, "%s", detail);
	else if (u->error)
		snprintf(buf + n, size - (size_t)n, "%s (%s)", strerror(err),
			 strerrorname_np(err) ? strerrorname_np(err) : "?");
	else if (done)
		snprintf(buf + n, size - (size_t)n,
			 "short %s: %u of %u bytes, then no more (%s)",
			 dn[u->ddir], done, u->len, strerrorname_np(err));
	else
		snprintf(buf + n, size - (size_t)n,
			 "short %s: no bytes transferred (%s)",
			 dn[u->ddir], strerrorname_np(err));
}

int worker_io_error(struct worker *w, struct io_u *u, int err,
		    enum fault_class cls, const char *msg)
{
	struct run_job *rj = w->rj;
	char buf[sizeof(rj->errmsg)];
	uint32_t done = w->xfer_done[u->index];
	bool counted;
	int cont;

	if (done)
		short_restore(w, u);
	/* fill_device: a full device is where the job ends, not an error */
	if (w->p->o.fill_device && cls == FAULT_WRITE &&
	    (err == ENOSPC || err == EDQUOT))
		return 1;
	if (w->vf && cls != FAULT_VERIFY)
		verify_failed(w->vf, u);
	/*
	 * end_fsync's and fsync_on_close's syncs (quiet_sync) are outside
	 * the I/O, as in fio: a failed one stops the job whatever
	 * continue_on_error and ignore_error say, and is not counted
	 */
	cont = !w->quiet_sync && fault_non_fatal(&w->fp, cls, err) &&
	       !(cls == FAULT_VERIFY && w->p->o.verify_fatal);
	/*
	 * counted when continue_on_error covers the class (fault.h), as
	 * fio counts: an error that stops the job only when it came from
	 * queue() (a completion event's goes uncounted), and none once
	 * the job has stopped. A failed verify it does not cover is the
	 * read's error where it covers reads (first_error 1, as fio).
	 */
	counted = !w->st->error && !w->quiet_sync && (cont || !w->in_event);
	if (counted && fault_counted(&w->fp, cls))
		count_error(w->st, err);
	else if (counted && cls == FAULT_VERIFY &&
		 fault_counted(&w->fp, FAULT_READ))
		count_error(w->st, 1);
	/* number_ios counts the I/Os that succeeded (fio) */
	if (cont && cls != FAULT_VERIFY && u->ddir < DDIR_RWDIR_CNT)
		workload_nios_refund(w->wl);
	if (!msg) {
		describe_error(w, u, err, done, buf, sizeof(buf));
		msg = buf;
	}
	if (!cont) {
		w->st->error = err;
		if (!rj->errmsg[0])
			snprintf(rj->errmsg, sizeof(rj->errmsg), "%s", msg);
		return 1;
	}
	/*
	 * Errors let through belong in the report, not on stderr (the run
	 * may well succeed): the first and the count become a note
	 * (error_dump=0: I/O errors go unsaid, fio's rule)
	 */
	if (!w->p->o.error_dump && cls != FAULT_VERIFY)
		return 0;
	if (rj->nr_cont_errs < RUN_CONT_ERRS)
		snprintf(rj->cont_err[rj->nr_cont_errs],
			 sizeof(rj->cont_err[0]), "%s", msg);
	rj->nr_cont_errs++;
	return 0;
}

/*
 * A short transfer: as fio, the rest is issued again (counted as short);
 * a piece that moves nothing is an error (EIO) when it completed in
 * queue() (complete_empty() has the events'). Returns 1 when the rest
 * was queued for reissue, 0 when the error was let through, -1 to stop
 * the job.
 */
int worker_short_xfer(struct worker *w, struct io_u *u)
{
	uint32_t done = u->len - u->resid;

	if (!done) {
		u->error = 0;
		return worker_io_error(w, u, EIO, fault_class_of(u->ddir), NULL) ?
		       -1 : 0;
	}
	w->st->dir[u->ddir].short_ios++;
	w->st->issued_short[u->ddir]++;
	if (!w->xfer_done[u->index])
		w->nr_split++;
	w->xfer_done[u->index] += done;
	u->buf = (char *)u->buf + done;
	u->offset += done;
	u->len = u->resid;
	u->resid = 0;
	/* reap() put it on the free list: it is not free yet (loop_sync
	 * has no list and resets nr_free after each I/O) */
	w->nr_free--;
	w->requeue[w->nr_requeue++] = u->index;
	return 1;
}


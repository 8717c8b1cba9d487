/* SPDX-License-Identifier: MIT */
/*
 * The file service of the workload's general path: which file takes the
 * next I/O (file_service_type: roundrobin, sequential, random as fio
 * draws it, the skewed types through fsrv.c), and with openfiles which
 * files are in use, retired when done and brought in, each change an
 * event for the worker (workload_file_event()). Split out of workload.c,
 * whose passes call wl_pick_file(), wl_file_done(), wl_act_refill() and
 * wl_skew_restart() (workload_int.h).
 */
#include "workload/workload_int.h"

#include <limits.h>
#include <math.h>

#include "workload/fsrv.h"

static void event_add(struct workload *w, unsigned int file, bool open)
{
	struct wl_event *e;

	/* a worker that never takes events (no limit) loses nothing */
	if (w->ev_nr == w->ev_cap)
		return;
	e = &w->ev[(w->ev_head + w->ev_nr++) % w->ev_cap];
	e->file = file;
	e->open = open;
}

/* openfiles: puts file fi in slot s of the files in use. */
static void file_bring_in(struct workload *w, unsigned int fi, unsigned int s)
{
	w->act[s] = fi;
	w->files[fi].open = true;
	w->files[fi].slot = s;
	event_add(w, fi, true);
}

/* The next file not in use and not done, or nr_files. */
static unsigned int next_unused(struct workload *w)
{
	while (w->next_unused < w->nr_files &&
	       (w->files[w->next_unused].open ||
		w->files[w->next_unused].done))
		w->next_unused++;
	return w->next_unused;
}

/* One file not in use and not done, uniformly (a few draws, then a scan). */
static unsigned int unused_at_random(struct workload *w)
{
	unsigned int i, fi, nr = 0, k;

	for (i = 0; i < SKEW_TRIES; i++) {
		fi = (unsigned int)prng_scale32(prng_taus_next(&w->r_file),
						w->nr_files);
		if (!w->files[fi].open && !w->files[fi].done)
			return fi;
	}
	for (fi = 0; fi < w->nr_files; fi++)
		nr += !w->files[fi].open && !w->files[fi].done;
	if (!nr)
		return w->nr_files;
	k = (unsigned int)prng_scale32(prng_taus_next(&w->r_file), nr);
	for (fi = 0; fi < w->nr_files; fi++)
		if (!w->files[fi].open && !w->files[fi].done && !k--)
			break;
	return fi;
}

/*
 * The file a free slot takes: the first not in use and not done, or the
 * file a draw picks. fio draws a file for each I/O among all of them and
 * opens the one drawn while fewer than openfiles are open (random: a file
 * not done, uniformly; skewed: by the distribution, falling back to a
 * uniform pick after a few tries), and keeps the open ones until done.
 */
static unsigned int refill_pick(struct workload *w)
{
	unsigned int i, fi;

	if (w->fsrv == FSRV_RANDOM)
		return unused_at_random(w);
	if (!w->skewed)
		return next_unused(w);
	for (i = 0; i < SKEW_TRIES; i++) {
		fi = fsrv_skew_next(&w->fskew, &w->r_file64);
		if (!w->files[fi].open && !w->files[fi].done)
			return fi;
	}
	return unused_at_random(w);
}

/*
 * openfiles, at the start of a pass: the files still in use stay, the
 * free slots take the first files not in use (refill_pick).
 */
void wl_act_refill(struct workload *w)
{
	unsigned int i, n = 0, fi;

	if (!w->limited)
		return;
	for (i = 0; i < w->nact; i++)
		if (w->files[w->act[i]].open) {
			w->act[n] = w->act[i];
			w->files[w->act[n]].slot = n;
			n++;
		}
	w->nact = n;
	w->next_unused = 0;
	/* random: none, a draw opens the file it picks (random_file()) */
	while (w->fsrv != FSRV_RANDOM && w->nact < w->max_open &&
	       (fi = refill_pick(w)) < w->nr_files) {
		file_bring_in(w, fi, w->nact);
		w->nact++;
	}
}

/* File fi has nothing left for this pass. */
void wl_file_done(struct workload *w, unsigned int fi)
{
	struct wl_file *f = &w->files[fi];
	unsigned int nf;

	f->done = true;
	f->later = true;
	w->nr_done++;
	if (!w->limited)
		return;
	f->open = false;
	event_add(w, fi, false);
	/*
	 * sequential: wl_pick_file() brings in the file whose turn it is;
	 * random: the file a later draw picks (random_file())
	 */
	if (w->fsrv == FSRV_SEQUENTIAL || w->fsrv == FSRV_RANDOM)
		return;
	nf = refill_pick(w);
	if (nf < w->nr_files)
		file_bring_in(w, nf, f->slot);
}

/*
 * A skewed file_service_type never ends a file: fio closes a used-up
 * one, starts it over and draws the next file anew. With openfiles its
 * slot takes the file a draw picks (this one again, maybe).
 */
void wl_skew_restart(struct workload *w, unsigned int fi)
{
	struct wl_file *f = &w->files[fi];
	unsigned int nf;

	/*
	 * reopened, but at the offset it had: fio takes a percentage
	 * offset again only for a new pass (its loop's clear_io_state) or
	 * a zone's wrap, not when the service reopens a file (offset=75%
	 * zipf:1.2 over 5333-byte files: each reopen reads blocks 0-9)
	 */
	wl_file_reset(w, f);
	w->fs_left = 0;
	if (!w->limited)
		return;
	f->open = false;
	event_add(w, fi, false);
	nf = refill_pick(w);
	file_bring_in(w, nf < w->nr_files ? nf : fi, f->slot);
}

/*
 * sequential with openfiles: the file after fi in order that is not done
 * takes the turn, as in fio (not the file brought into fi's slot); one
 * not in use comes into fi's slot. Returns its slot.
 */
static unsigned int seq_turn(struct workload *w, unsigned int fi,
			     unsigned int s)
{
	unsigned int i, nf;

	for (i = 1; i <= w->nr_files; i++) {
		nf = (fi + i) % w->nr_files;
		if (w->files[nf].done)
			continue;
		if (w->files[nf].open)
			return w->files[nf].slot;
		file_bring_in(w, nf, s);
		return s;
	}
	return s;
}

/* fio's file number for file_service_type=random: its stream, its scaling */
static unsigned int file_draw(struct workload *w)
{
	/* the draw over fio's rand_max + 1.0: 2^64, or 2^32 */
	double r = w->bs64 ? ldexp((double)prng_taus64_next(&w->r_file64), -64)
			   : ldexp((double)prng_taus_next(&w->r_file), -32);
	unsigned int fi = (unsigned int)((double)w->nr_files * r);

	return fi < w->nr_files ? fi : w->nr_files - 1;
}

/* openfiles: a slot whose file is closed (retired), or a new one */
static unsigned int free_slot(struct workload *w)
{
	unsigned int s;

	for (s = 0; s < w->nact; s++)
		if (!w->files[w->act[s]].open)
			return s;
	return w->nact < w->max_open ? w->nact++ : UINT_MAX;
}

/* Can file fi take the I/O (fio: not done; open, or opened now)? */
static bool file_takes(struct workload *w, unsigned int fi)
{
	unsigned int s;

	if (w->files[fi].done)
		return false;
	if (w->files[fi].open)
		return true;
	if ((s = free_slot(w)) == UINT_MAX)
		return false;
	file_bring_in(w, fi, s);
	return true;
}

/*
 * file_service_type=random as fio picks: a file drawn over all of them,
 * drawn again while it is done or, with openfiles, closed with openfiles
 * open (fio: EBUSY, and it draws again); one closed with room is opened.
 * fio draws until it finds one; after many draws, the first that can.
 */
static unsigned int random_file(struct workload *w)
{
	unsigned int i, fi, tries = 16 * w->nr_files + 64;

	for (i = 0; i < tries; i++)
		if (file_takes(w, fi = file_draw(w)))
			return fi;
	for (fi = 0; fi < w->nr_files; fi++)
		if (file_takes(w, fi))
			return fi;
	return w->nr_files;
}

/*
 * The file for the next I/O; only called while some file is not done.
 * The file in turn keeps it for file_service_type's N I/Os (sequential:
 * until it is done); then roundrobin takes the next slot, random a slot
 * at random, and the skewed types a file by their distribution, each
 * moving on to the next slot whose file is not done.
 */
unsigned int wl_pick_file(struct workload *w)
{
	unsigned int s = w->cur_slot, fi = w->act[s], i;

	/* one file: nothing to choose (the draws below only pick files) */
	if (w->nr_files == 1 && w->nact == 1 && !w->files[fi].done)
		return fi;
	if (w->fs_left && !w->files[fi].done) {
		w->fs_left--;
		return fi;
	}
	switch (w->fsrv) {
	case FSRV_ROUNDROBIN:
		s = s + 1 == w->nact ? 0 : s + 1;
		break;
	case FSRV_SEQUENTIAL:
		if (w->limited && w->files[fi].done)
			s = seq_turn(w, fi, s);
		break;
	case FSRV_RANDOM:
		fi = random_file(w);
		if (fi < w->nr_files) {
			w->cur_slot = w->files[fi].slot;
			w->fs_left = w->fs_nr - 1;
			return fi;
		}
		break;
	case FSRV_ZIPF:
	case FSRV_PARETO:
	case FSRV_NORMAL:
		/* a file not in use (openfiles) is drawn again, as fio */
		for (i = 0; i < SKEW_TRIES; i++) {
			fi = fsrv_skew_next(&w->fskew, &w->r_file64);
			if (!w->files[fi].done && w->files[fi].open)
				return fi;
		}
		/* none of the few drawn: the next slot that has work */
		break;
	}
	for (i = 0; i < w->nact && w->files[w->act[s]].done; i++)
		s = s + 1 == w->nact ? 0 : s + 1;
	w->cur_slot = s;
	w->fs_left = w->fs_nr - 1;
	return w->act[s];
}

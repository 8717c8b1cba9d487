/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_WORKLOAD_H
#define IOLITE_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "io/io_u.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The workload says WHAT the next I/O is: file, offset, length and
 * direction. Decisions that don't change per I/O (rw mode, fixed bs,
 * random map or not, distribution) are made in workload_init() by picking
 * specialised functions; workload_next() is then a few integer operations
 * (one PRNG step for random offsets without a map, O(1) with the map).
 */

struct workload;

/*
 * Builds the workload for one job instance over its files (regions in
 * engine_file io_offset/io_size). Seeds follow randrepeat/randseed: with
 * randrepeat=1 (default) the same job gives the same sequence run to run.
 * Returns 0 or -1 with a message in err. Allocates; workload_free() frees.
 */
int workload_init(struct workload **out, const struct job_plan *p,
		  const struct engine_file *files, unsigned int nr_files,
		  struct strbuf *err);
void workload_free(struct workload *w);

/*
 * What workload_init() would refuse that is known before the run: the
 * zone options against each other and the block sizes, and regions
 * smaller than a direction's block size. Touches nothing, allocates
 * nothing: files_resolve() calls it so that a bad job stops before any
 * file is created. Returns 0 or -1 with "file:line: ..." in err.
 */
int workload_check(const struct job_plan *p,
		   const struct engine_file *files, unsigned int nr_files,
		   struct strbuf *err);

/*
 * Fills u->file, u->offset, u->len, u->ddir for the next I/O (nothing
 * else in u is touched). Returns 0, or 1 when this pass is complete; u is
 * then left alone and every later call returns 1 until workload_rewind().
 * The worker then stops, or rewinds for the next loop or, for time_based
 * jobs, to wrap around.
 *
 * A pass, as in fio: I/Os are issued while fewer than the budget's bytes
 * are done (io_size, else the sum of the regions; the last I/O may cross
 * it; loops=N: N times as many over the job, and with a queueing engine
 * the budget in each pass, workload_loops_queued()) and fewer than
 * number_ios x loops I/Os over the job; it also ends once every file is
 * used up (sequential: at its end; random map or lfsr: every block done),
 * unless io_size exceeds the regions, in which case the files start
 * over. Random offsets without a map never use a file up. The files are
 * served as file_service_type says (round robin, one I/O each, by
 * default). With rw=trimwrite each block is returned twice, trim then
 * write, counted once.
 *
 * zonemode=strided, as fio 3.33: each file's I/O starts inside its zone
 * of zonerange bytes; after zonesize bytes of the job (over all its
 * files) the file taking the next I/O moves its zone zonerange +
 * zoneskip further on, back to the region start past the target's end.
 * A sequential I/O may run past the zone's end; a random one is drawn
 * over the whole zone, and a draw past the region end (or a random map
 * used up before zonesize bytes) has used the file up.
 */
int workload_next(struct workload *w, struct io_u *u);

/*
 * The file a sync due before the next I/O goes to (fsync=N, fdatasync=N,
 * sync_file_range=flags:N): in fio the sync takes an I/O's place, so it
 * takes that file's turn in file_service_type's order (roundrobin over
 * two files with fsync=3: every sync lands on the second file).
 * UINT_MAX when there is no turn to take (one file) or the next I/O's
 * file is not the workload's to say (no I/O left in the pass, a write
 * trimwrite owes, read_iolog): the sync then goes to the next I/O's
 * file. pass_end: the sync at the end of a loop that another follows,
 * which takes the turn after the pass's last I/O.
 */
unsigned int workload_sync_file(struct workload *w, bool pass_end);

/*
 * Starts a new pass: sequential offsets back to the start, a new random
 * map order (an lfsr repeats its order, as fio's does), the budgets full.
 */
void workload_rewind(struct workload *w);

/*
 * zonemode=zbd moved u (to a write pointer, to a zone with data): the
 * sequential offsets go on from where u ends, as fio's do.
 */
void workload_moved(struct workload *w, const struct io_u *u);

/*
 * zonemode=zbd found no room for u: its bytes go back to the pass and
 * the sequential offsets go on from u->offset (its region's end: the
 * next draw ends the file, or starts it over as fio does with io_size).
 */
void workload_skip(struct workload *w, const struct io_u *u);

/*
 * An I/O failed and the job goes on: as in fio, number_ios counts the
 * I/Os that succeeded, so the workload owes one more (with errors let
 * through its general path counts them: pick_fast_path()).
 */
void workload_nios_refund(struct workload *w);

/*
 * An I/O the workload did not choose took one of number_ios's (a verify
 * read-back of verify_backlog: fio counts every I/O it issues).
 */
void workload_nios_take(struct workload *w);

/*
 * The pass just started issues at most n I/Os (a failed pre_read: one;
 * what number_ios leaves of a job whose read-backs used some).
 */
void workload_cap_pass(struct workload *w, uint64_t n);

/*
 * The pass just started issues at most n more bytes (the last I/O may
 * cross them): the extra loop fio runs while a job is short of io_size
 * ends where the job's bytes reach it, not a whole budget later.
 */
void workload_cap_bytes(struct workload *w, uint64_t n);

/*
 * loops=N (without io_size, not time_based), as fio 3.33 runs them: the
 * job issues loops x the budget's bytes (and number_ios x loops I/Os at
 * most) over all its loops, so a loop goes on past the budget until its
 * files are used up, and the next starts every file over. An engine that
 * queues its I/O also ends each loop at the budget's bytes (fio counts
 * the bytes it queued in a loop): workload_loops_queued(), once, before
 * the first I/O. workload_spent(): at the end of a pass, true when
 * another loop would do nothing (fio then ends the job).
 */
void workload_loops_queued(struct workload *w);
bool workload_spent(const struct workload *w);

/*
 * Does the job keep a log of its writes to read back (verify= without
 * experimental_verify)? Its passes never wrap (fio): see workload.c.
 */
bool workload_verifies(const struct job_options *o);

/*
 * fio's io_bytes_exceeded, for the pass under way: true once its budget
 * (the bytes above, number_ios) is spent, after which fio asks for no
 * other I/O, so a sync that fsync=N has due is not made. A pass that
 * ends with the budget unspent ran out of I/O (its files are used up
 * short of it: a region that is not whole blocks, earlier loops); fio
 * asks once more, makes the sync, then finds the files done. read_iolog:
 * true.
 */
bool workload_pass_spent(const struct workload *w);

/*
 * time_based random jobs: the file the last workload_next() started over
 * in place (its map used up; fio drops its cache then), else UINT_MAX.
 */
bool workload_drops_in_place(const struct workload *w);
unsigned int workload_take_dropped(struct workload *w);

/*
 * io_size beyond the regions (not time_based): may a pass start its
 * used-up files over? fio runs each start as a new loop of the job (its
 * files closed, end_fsync's and fsync_on_close's syncs made, the files
 * opened again). workload_take_wrap(): did the last workload_next() do
 * so (its I/O is the first of the new sweep)? It clears the flag.
 */
bool workload_may_wrap(const struct workload *w);
bool workload_take_wrap(struct workload *w);

/*
 * Bytes one pass issues: exact for one file with one block size, else the
 * budget (io_size, or the sum of the regions), which is an upper bound
 * unless the last I/O crosses it.
 */
uint64_t workload_pass_bytes(const struct workload *w);
/*
 * The most bytes one pass writes: workload_pass_bytes(), or with io_size
 * in a job that verifies, loops x io_size up to the regions' sum.
 */
uint64_t workload_pass_max(const struct workload *w);

/*
 * read_iolog (workload/iolog.h): when workload_next() returned 1 to
 * pause before a logged I/O whose time has not come (or before a sync),
 * and the worker has let its I/O in flight complete, this sleeps until
 * the I/O is due (at most max_ns, less when *stop is set) and returns
 * true: the pass goes on. False for every other workload and at the
 * real end of a pass.
 */
bool workload_wait(struct workload *w, volatile int *stop, uint64_t max_ns);

/*
 * Rated mixed jobs (rw=rw, randrw): run/pace.c names the direction the
 * next I/Os take (DDIR_READ or DDIR_WRITE) while one of them is ahead of
 * its rate, and -1 to go back to rwmixread's draw. Other jobs ignore it.
 */
void workload_want_ddir(struct workload *w, int d);
/*
 * A mixed job's read drawn is made a write when ok(arg) says there is
 * nothing to read (zonemode=zbd on empty zones, as fio 3.33); the draw
 * is made all the same, so the directions after it stay fio's.
 */
void workload_read_gate(struct workload *w, bool (*ok)(void *), void *arg);

/*
 * openfiles: with openfiles below the number of files, only that many of
 * the job's files are in use at once; when one is done for the pass it
 * is retired and the next one not yet used takes its place (as fio
 * closes a finished file and opens another). file_service_type picks
 * among the files in use.
 *
 * workload_open_limit() is that limit, or 0 when every file stays in use
 * for the whole job (the default: the worker opens them all at start).
 * With a limit the worker opens at start only the files for which
 * workload_file_in_use() is true, and after every workload_next() that
 * returns 0 it calls workload_file_event() until it returns false, before
 * it queues the I/O: *open false means close *file once its I/O in
 * flight has completed, true means open *file (the I/O just returned may
 * be the first one to it). A retired file's last I/O has already been
 * handed out. The events of one workload_next() (or workload_rewind())
 * are kept until taken; without a limit there are none.
 */
unsigned int workload_open_limit(const struct workload *w);
bool workload_file_in_use(const struct workload *w, unsigned int file);
bool workload_file_event(struct workload *w, unsigned int *file, bool *open);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_VERIFY_H
#define IOLITE_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "io/io_u.h"
#include "opt/plan.h"
#include "util/strbuf.h"
#include "workload/workload.h"

/*
 * Verification of one job instance (verify=, fio's semantics).
 *
 * The worker hands its I/O choice to verify_next() instead of
 * workload_next() when the job verifies. Writes get a sequence number
 * there and are stamped by verify_prep_write() (a header per chunk with a
 * checksum, or the pattern); when a write completes, verify_complete()
 * logs it. When a pass is over (verify_pass_end(), nothing in flight),
 * or every verify_backlog logged writes, verify_next() hands out reads of
 * the logged blocks, and verify_complete() checks each as it completes.
 * Reads of a job that only reads are checked as they come (the header
 * must be sound and name the offset read). verify_only replays the
 * workload without writing and then reads back what it would have
 * written, so a later run (or a later job with the same verify
 * settings) can check an earlier one's data: as in fio, each block must
 * be sound, of this verify mode and length, and name its offset; which
 * job wrote it, with which seed and when is checked only against a
 * loaded verify state (verify_state_load).
 *
 * Cost on the I/O path: a stamp (data fill and one checksum) per write,
 * one checksum per verify read; no allocation, no syscalls, no locks.
 * The log of written blocks is allocated at init: 24 bytes per block of
 * a pass (or of the backlog), mapped lazily.
 *
 * The per-worker state is owned by the worker: verify_init() allocates,
 * verify_free() frees.
 */

struct verify;

/*
 * Sets up verification for a job instance whose plan has verify= set
 * (else *out = NULL and 0 is returned). nr_ios: the worker's io_u count
 * (io_u->index < nr_ios). wl is the job's workload (borrowed: verify_next
 * drives it). Loads the verify state when verify_state_load=1. Returns 0
 * or -1 with a message in err (no job name: the worker adds it).
 */
int verify_init(struct verify **out, const struct job_plan *p,
		const struct engine_file *files, unsigned int nr_files,
		unsigned int nr_ios, struct workload *wl, struct strbuf *err);
void verify_free(struct verify *v);

/*
 * The engine moves no data (ENGINE_F_FAKEIO, the null engine): reads are
 * issued as a verify job issues them, and never checked (fio).
 */
void verify_fake_io(struct verify *v);

/* As workload_next(): 0 with u filled, 1 when the pass is done. */
int verify_next(struct verify *v, struct io_u *u);

/* Fills a write's buffer (after verify_next() chose it). */
void verify_prep_write(struct verify *v, struct io_u *u);

/*
 * A read or write that transferred all its bytes. Returns 0, or EILSEQ
 * when a read's data failed verification; verify_errmsg() then says
 * where and how ("job 'x': verify of 4096 bytes at offset 8192 of 'f'
 * failed: crc32c mismatch: expected ..., received ...").
 */
int verify_complete(struct verify *v, struct io_u *u);
/*
 * ... or VERIFY_QUEUED with verify_async: the check is the threads'
 * (verify/async.h), and so is u until verify_async_reap() gives it back
 * with the result.
 */
#define VERIFY_QUEUED (-1)
struct verify_async *verify_async_of(const struct verify *v);
const char *verify_errmsg(const struct verify *v);

/* An I/O that failed: its write is not logged as written. */
void verify_failed(struct verify *v, struct io_u *u);

/*
 * The pass is over and nothing is in flight. Returns 1 when a verify
 * phase over the pass's writes has started (the worker goes on calling
 * verify_next), 0 when there is nothing (more) to verify.
 */
int verify_pass_end(struct verify *v);

/*
 * A new loop begins; last: no other follows. fio's last loop ends on the
 * bytes its workload issued, so a verify_backlog round due after the
 * last write is left to the read-back phase (earlier loops make it).
 */
void verify_new_loop(struct verify *v, bool last);

/*
 * Will verify_next() hand out a read-back before the workload's next
 * I/O (a verify_backlog round is due or going on)? A sync due then
 * waits for the round, as in fio.
 */
bool verify_round_due(const struct verify *v);

/* True while reading back (the status line's 'V'). */
bool verify_reading(const struct verify *v);

/*
 * End of the job: saves the verify state when verify_state_save=1 and the
 * job wrote. Returns 0 or -1 with a message in err.
 */
int verify_finish(struct verify *v, struct strbuf *err);

/* local-NAME-INDEX-verify.state, as fio names it (heap string). */
char *verify_state_path(const struct job_plan *p);

/* --aux-path: the directory of state files and verify_dump files. */
void verify_set_aux_path(const char *dir);

#endif

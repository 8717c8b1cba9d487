/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_ASYNC_H
#define IOLITE_VERIFY_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "io/io_u.h"
#include "util/strbuf.h"

/*
 * verify_async=N (fio): the reads a job checks are checked by N threads
 * of their own instead of the job's, and the job goes on with its I/O
 * meanwhile. The checks and their messages are verify.c's: the same
 * blocks fail with the same words as inline.
 *
 * The worker's side is lock-free: verify_complete() hands a read to the
 * threads in turn, through a single-producer ring per thread (a store,
 * a release, one atomic add; a futex wake only when that thread
 * sleeps), and the io_u is the threads' until verify_async_reap() gives
 * it back. Results come back in the order the reads were handed over
 * (one single-producer ring per thread, read in the same turn), so a
 * job stops at the first bad block in its own order, whatever thread
 * found it. A thread spins a little, then sleeps on a futex.
 *
 * verify_async_cpus: the threads' CPUs (a cpu list as cpus_allowed).
 */

struct verify;
struct verify_async;

/*
 * N threads checking for v (v's settings, each its own hash state).
 * nr_ios: the worker's io_u count. Returns 0 or -1 with err.
 */
int verify_async_new(struct verify_async **out, const struct verify *v,
		     unsigned int nr, const char *cpus, unsigned int nr_ios,
		     struct strbuf *err);
/* Stops and joins the threads (after the worker has reaped them all). */
void verify_async_free(struct verify_async *a);

/* verify.c: u's read, to be checked (kind: verify.c's vio kind). */
void verify_async_submit(struct verify_async *a, struct io_u *u,
			 uint64_t seq, unsigned int kind);

/*
 * The next check done, in submission order: true with its io_u index,
 * 0 or EILSEQ, and the message of a failure; false when none is done
 * (wait: blocks until the next one is, unless none is pending).
 */
bool verify_async_reap(struct verify_async *a, bool wait,
		       unsigned int *index, int *ret, const char **msg);
/* Reads handed over and not reaped yet. */
unsigned int verify_async_pending(const struct verify_async *a);

/* verify.c's checker, for the threads: a copy of v with its own state. */
struct verify *verify_checker_new(const struct verify *v);
void verify_checker_free(struct verify *c);
/* Checks u's data as verify_complete() would; 0 or EILSEQ. */
int verify_checker_run(struct verify *c, struct io_u *u, uint64_t seq,
		       unsigned int kind);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_LOG_H
#define IOLITE_UTIL_LOG_H

/*
 * Messages to stderr, prefixed "iolite: ". A successful run prints nothing
 * here: notes about a run belong in the report. error() is for failures the
 * caller then turns into a non-zero exit; die() (main only) exits 1; BUG()
 * marks a broken invariant and aborts.
 */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/*
 * A program that runs as one of many processes (iolite-mpi) takes over
 * die(): fn gets the message (without "iolite: ") and must not return.
 * NULL restores printing it and exit(1).
 */
void set_die_routine(void (*fn)(const char *msg));
void bug_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif

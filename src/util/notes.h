/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_NOTES_H
#define IOLITE_UTIL_NOTES_H

/*
 * The run's notes: sentences for the report (never stderr) about what
 * makes its figures mislead or what an option did not do. Collected
 * before and after the run (run/checks.c, the process and target sides,
 * the sweep's tables) and read by the report writers, so the list lives
 * here, below both. Zero-initialised is an empty list; notes_release()
 * frees it.
 */
struct notes {
	char **v;
	unsigned int nr;
};

/* Adds a note, unless the very same text is there already (a sweep's
 * points repeat the notes about the job options). */
void notes_add(struct notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void notes_release(struct notes *n);

#endif

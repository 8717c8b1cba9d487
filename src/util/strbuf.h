/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_STRBUF_H
#define IOLITE_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated string. Zero-initialised (STRBUF_INIT)
 * is a valid empty buffer. The owner calls strbuf_release() to free it.
 * Allocation failure aborts: these buffers are never on the I/O path.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Returns the buffer's text; "" for an empty never-grown buffer. */
const char *strbuf_str(const struct strbuf *sb);
/* Hands the heap string to the caller (who frees it) and resets sb. */
char *strbuf_detach(struct strbuf *sb);

/* Appends the whole file at path: 0, or -errno (sb keeps what was read). */
int strbuf_read_file(struct strbuf *sb, const char *path);

/* xmalloc family: abort with a message on allocation failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif

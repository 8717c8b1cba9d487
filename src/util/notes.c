/* SPDX-License-Identifier: MIT */
#include "util/notes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void notes_add(struct notes *n, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	unsigned int i;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], sb.buf)) {
			strbuf_release(&sb);
			return;
		}
	n->v = xrealloc(n->v, (n->nr + 1) * sizeof(*n->v));
	n->v[n->nr++] = strbuf_detach(&sb);
}

void notes_release(struct notes *n)
{
	unsigned int i;

	for (i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->nr = 0;
}

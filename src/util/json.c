/* SPDX-License-Identifier: MIT */
/*
 * Streaming JSON writer with fio's layout (see json.h). Reports are
 * written once after the run, so plain stdio is fine here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "util/json.h"
#include "util/log.h"

void json_init(struct json_writer *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->started = false;
	w->compact = false;
}

void json_init_compact(struct json_writer *w, FILE *f)
{
	json_init(w, f);
	w->compact = true;
}

void json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				putc(*p, f);
		}
	}
	putc('"', f);
}

static void indent(struct json_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/*
 * Everything before a value: the separator after the previous member,
 * the indentation and the key. Checks that a key is given exactly where
 * one belongs.
 */
static void member(struct json_writer *w, const char *key)
{
	if (!w->depth) {
		if (w->started || key)
			BUG("json: a second or keyed top-level value");
		w->started = true;
		return;
	}
	if (w->is_array[w->depth - 1] == !!key)
		BUG("json: key '%s' %s", key ? key : "(none)",
		    key ? "inside an array" : "missing in an object");
	if (w->has_items[w->depth - 1])
		putc(',', w->f);
	w->has_items[w->depth - 1] = true;
	if (!w->compact) {
		putc('\n', w->f);
		indent(w);
	}
	if (key) {
		json_write_string(w->f, key);
		fputs(w->compact ? ":" : " : ", w->f);
	}
}

static void open_container(struct json_writer *w, const char *key,
			   bool array)
{
	member(w, key);
	if (w->depth == JSON_MAX_DEPTH)
		BUG("json: nesting deeper than %d", JSON_MAX_DEPTH);
	putc(array ? '[' : '{', w->f);
	w->is_array[w->depth] = array;
	w->has_items[w->depth] = false;
	w->depth++;
}

static void close_container(struct json_writer *w, bool array)
{
	if (!w->depth || w->is_array[w->depth - 1] != array)
		BUG("json: closing a %s that is not open",
		    array ? "array" : "object");
	w->depth--;
	if (!w->compact) {
		putc('\n', w->f);
		indent(w);
	}
	putc(array ? ']' : '}', w->f);
}

void json_begin_object(struct json_writer *w, const char *key)
{
	open_container(w, key, false);
}

void json_end_object(struct json_writer *w)
{
	close_container(w, false);
}

void json_begin_array(struct json_writer *w, const char *key)
{
	open_container(w, key, true);
}

void json_end_array(struct json_writer *w)
{
	close_container(w, true);
}

void json_str(struct json_writer *w, const char *key, const char *val)
{
	member(w, key);
	json_write_string(w->f, val ? val : "");
}

void json_u64(struct json_writer *w, const char *key, uint64_t val)
{
	member(w, key);
	fprintf(w->f, "%" PRIu64, val);
}

void json_i64(struct json_writer *w, const char *key, int64_t val)
{
	member(w, key);
	fprintf(w->f, "%" PRId64, val);
}

void json_double(struct json_writer *w, const char *key, double val)
{
	member(w, key);
	if (!isfinite(val))
		val = 0.0;
	/* -0.0 would print as "-0.000000": fio never shows that */
	if (val == 0.0)
		val = 0.0;
	fprintf(w->f, "%f", val);
}

void json_bool(struct json_writer *w, const char *key, bool val)
{
	member(w, key);
	fputs(val ? "true" : "false", w->f);
}

int json_finish(struct json_writer *w)
{
	if (w->depth)
		BUG("json: %u containers left open", w->depth);
	putc('\n', w->f);
	return ferror(w->f) ? -EIO : 0;
}

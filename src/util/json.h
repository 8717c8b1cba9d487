/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_JSON_H
#define IOLITE_UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A small streaming JSON writer with fio's layout, so that iolite's JSON
 * reads like fio's line for line:
 *
 *	{
 *	  "key" : "value",
 *	  "obj" : {
 *	    "n" : 1,
 *	    "x" : 0.500000
 *	  },
 *	  "list" : [
 *	    {
 *	      ...
 *	    }
 *	  ]
 *	}
 *
 * Two spaces per level, " : " between key and value, every member on a
 * line of its own. Integers print as integers, doubles with six decimals
 * ("%f", as fio prints them; a NaN or infinity, which JSON cannot carry,
 * prints as 0.000000). Strings are escaped properly: '"', '\\' and every
 * control character (fio passes tabs and control bytes through raw, which
 * makes its JSON invalid); bytes >= 0x80 pass through unchanged.
 *
 * Usage: json_init(), then json_begin_object(w, NULL) for the top-level
 * object, members with a key inside objects (key NULL inside arrays),
 * json_end_*() to close, json_finish() to end the document with a
 * newline. Nothing is allocated; the writer holds no resources. The
 * nesting depth is limited to JSON_MAX_DEPTH; misuse (a key inside an
 * array, none inside an object, closing what is not open) is a BUG().
 */

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *f;
	unsigned int depth;		/* open containers */
	bool is_array[JSON_MAX_DEPTH];	/* per open container */
	bool has_items[JSON_MAX_DEPTH];	/* a member was written */
	bool started;			/* a top-level value was written */
	bool compact;			/* one line, no spaces */
};

void json_init(struct json_writer *w, FILE *f);
/* The same on one line ("key":value, no indentation): JSON Lines. */
void json_init_compact(struct json_writer *w, FILE *f);

void json_begin_object(struct json_writer *w, const char *key);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w, const char *key);
void json_end_array(struct json_writer *w);

void json_str(struct json_writer *w, const char *key, const char *val);
void json_u64(struct json_writer *w, const char *key, uint64_t val);
void json_i64(struct json_writer *w, const char *key, int64_t val);
void json_double(struct json_writer *w, const char *key, double val);
void json_bool(struct json_writer *w, const char *key, bool val);

/*
 * Ends the document (a newline after the closing bracket) and returns 0,
 * or -EIO when the stream reported a write error. Every container must be
 * closed.
 */
int json_finish(struct json_writer *w);

/* Appends s to f as a JSON string literal, quotes included. */
void json_write_string(FILE *f, const char *s);

#endif

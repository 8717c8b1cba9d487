/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_OPT_H
#define IOLITE_OPT_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "opt/options.h"
#include "util/strbuf.h"

/*
 * The option table: the single source of truth for job options. Each row
 * names an option, its type, where its value lives in struct job_options,
 * its default (as text, parsed by the same code as user input), limits,
 * enum values, a help line and a category. --cmdhelp, doc/options.md and
 * the --parse-only dump are all generated from it.
 */

enum opt_type {
	OPT_STR,	/* char *, heap copy */
	OPT_BOOL,	/* bool; a bare name (no '=') means true */
	OPT_UINT,	/* unsigned int, plain integer */
	OPT_U64,	/* uint64_t, plain integer */
	OPT_SIZE,	/* uint64_t bytes, fio size grammar, kb_base applies */
	OPT_SIZE_PCT,	/* struct size_pct: bytes or N% */
	OPT_SIZE_DIR,	/* uint64_t[3]: "4k" or "4k,64k" or "4k,64k,8k" */
	OPT_RANGE,	/* struct bs_range: "4k-64k" or "4k:64k" or "4k" */
	OPT_RANGE_DIR,	/* struct bs_range[3], per-direction list of ranges */
	OPT_TIME,	/* uint64_t microseconds; .unit_us is the default unit */
	OPT_ENUM,	/* int, one of .enums */
	OPT_CALLBACK,	/* only .cb parses; .format formats */
	OPT_UNSUPPORTED,/* a fio option iolite does not implement yet */
	OPT_TOOL,	/* fio's command-line tool options (not job options) */
};

enum opt_category {
	OPT_CAT_DESC, OPT_CAT_FILE, OPT_CAT_IO, OPT_CAT_ENGINE, OPT_CAT_TIME,
	OPT_CAT_RANDOM, OPT_CAT_BUFFER, OPT_CAT_GROUP, OPT_CAT_CPU,
	OPT_CAT_STAT, OPT_CAT_ERROR, OPT_CAT_UNITS, OPT_CAT_VERIFY,
	OPT_CAT_PROC,		/* the job's process: credentials, cgroup ... */
	OPT_CAT_UNSUPPORTED,	/* fio options iolite does not implement yet */
	OPT_CAT_NR,
};

enum {
	OPT_F_NODUMP = 1,	/* not shown in --parse-only dumps */
	OPT_F_GLOBAL_ONLY = 2,
	OPT_F_NEGATE = 4,	/* OPT_BOOL stored inverted (buffered=) */
	OPT_F_OPTVAL = 8,	/* a bare name is the value "" (write_bw_log, profile) */
	OPT_F_ORDERED = 16,	/* OPT_RANGE: low end first, never swapped */
	/*
	 * An engine's own (fio's engine options): refused with an engine
	 * that does not list it in its ops (engine/engine.h's options)
	 */
	OPT_F_ENGINE = 32,
};

struct opt_enum {
	const char *name;
	int value;
	const char *help;
};

struct opt_def;

/*
 * Typed callback: parse val (never NULL) into o; return 0 or -1 with a
 * message in err, without location or option name: opt_set_def() adds
 * "option 'x': " and the job reader adds "file:line: ". During the call
 * o->kb_base holds the kb_base passed to opt_set_def().
 */
typedef int (*opt_cb_fn)(const struct opt_def *def, struct job_options *o,
			 const char *val, struct strbuf *err);
/* Appends the canonical text of the option's current value. */
typedef void (*opt_fmt_fn)(const struct opt_def *def,
			   const struct job_options *o, struct strbuf *out);

struct opt_def {
	const char *name;
	const char *alias;	/* NULL or "a" or "a,b" for several */
	enum opt_type type;
	size_t off;		/* offsetof(struct job_options, field) */
	const char *def;	/* default as text, NULL = zero */
	uint64_t min, max;	/* for integers; max 0 = no limit */
	uint64_t unit_us;	/* OPT_TIME default unit */
	const struct opt_enum *enums;	/* NULL-name terminated */
	unsigned int flags;
	opt_cb_fn cb;		/* OPT_BOOL: optional, runs after the store */
	opt_fmt_fn format;
	enum opt_category category;
	const char *help;
	const char *typestr;	/* OPT_CALLBACK: value syntax for help */
};

extern const struct opt_def opt_table[];
extern const size_t opt_table_size;

const char *opt_category_name(enum opt_category c);

/* Finds a row by name or alias (case-sensitive, as fio), or NULL. */
const struct opt_def *opt_lookup(const char *name);
/*
 * Closest name or alias for "did you mean" (edit distance, ignoring
 * case), or NULL when nothing is close. The string is a static buffer,
 * valid until the next call (parsing is single-threaded).
 */
const char *opt_suggest(const char *name);

/* Sets every option to its table default; set[] all clear. */
void opt_defaults(struct job_options *o);

/*
 * Parses one option. val is NULL for a bare flag (only OPT_BOOL rows take
 * one). kb_base is the job's kb_base (resolved before other options, so
 * order does not matter). Marks the row in o->set[].
 *
 * Returns 0, or -1 with a complete message in err that names the option
 * as the user wrote it but carries no location; the caller prefixes
 * "file:line: ". Examples:
 *   unknown option 'bss' (did you mean 'bs'?)
 *   option 'verify' is not supported yet
 *   option 'bs' needs a value
 *   option 'bs': invalid size 'abc'
 *   option 'rwmixread': 150 is out of range (0..100)
 * On error o may be partly updated (per-direction lists); the job is
 * rejected anyway.
 */
int opt_set(struct job_options *o, const char *name, const char *val,
	    unsigned int kb_base, struct strbuf *err);
/* Same for a row already looked up; messages name def->name. */
int opt_set_def(const struct opt_def *def, struct job_options *o,
		const char *val, unsigned int kb_base, struct strbuf *err);

/*
 * Appends the canonical value text of one option. The canonical form
 * parses back to the same value (with any kb_base):
 *   sizes and integers: plain decimal ("1048576"); percentages "N%"
 *   bools "0"/"1"; enums the first name of the value ("none")
 *   times: the largest of s, ms, us that is exact ("10s", "1500ms")
 *   per-direction lists: "r" when all three agree, "r,w" when write and
 *   trim agree, else "r,w,t"; ranges "min-max"
 * OPT_UNSUPPORTED and OPT_TOOL rows append nothing.
 */
void opt_format(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out);
/*
 * Appends "name=value\n" for every explicitly set option (o->set[]), in
 * table order, skipping OPT_F_NODUMP rows. This is --parse-only's dump.
 */
void opt_dump(const struct job_options *o, struct strbuf *out);

/* Row index of def in opt_table (for job_options.set[]). */
static inline size_t opt_index(const struct opt_def *def)
{
	return (size_t)(def - opt_table);
}

/* True when the option was given explicitly (looked up by name). */
int opt_is_set(const struct job_options *o, const char *name);

/*
 * set[] holds 1 for an option given in the job's own section (or its
 * command-line job) and OPT_SET_INHERITED for one only inherited from
 * [global]: job_build() calls opt_mark_inherited() once [global]'s
 * entries are in. opt_set_by_job() tells them apart (fio drops the
 * options [global] gives for an engine the job does not use).
 */
#define OPT_SET_INHERITED 2

/*
 * fio knows an engine's own options only with that engine: NULL when
 * ioengine 'engine' (NULL: the default) may take option 'opt' (its
 * name, not an alias), else the engines that may, as a list for a
 * message ("net, netsplice"), valid until the next call.
 * opt/validate.c, from the engines' table (opt/engine_decl.h).
 */
const char *opt_engine_owners(const char *opt, const char *engine);
void opt_mark_inherited(struct job_options *o);
int opt_set_by_job(const struct job_options *o, const char *name);

/*
 * Checks a table: names and aliases unique and well-formed, every row has
 * help, defaults parse, min <= max, enum tables terminated and non-empty,
 * offsets in range, callbacks with formatters. Returns 0, or -1 with one
 * line per problem in err. opt_table_selfcheck() checks opt_table.
 */
int opt_table_check(const struct opt_def *table, size_t n,
		    struct strbuf *err);
int opt_table_selfcheck(struct strbuf *err);

/*
 * --cmdhelp: name NULL or "all" lists every option by category; a name
 * (or alias) shows that option's details. Returns -1 (and appends
 * nothing) for an unknown name.
 */
int opt_cmdhelp(const char *name, struct strbuf *out);

/* doc/options.md, generated from the table (--cmdhelp=markdown). */
void opt_doc_markdown(struct strbuf *out);

/*
 * The table for programs (--cmdhelp=table): a header line, then one
 * tab-separated line per implemented row: name, aliases, kind (bool,
 * int, size, size_pct, size_dir, range, range_dir, time, enum, str,
 * cb), default, min, max (0: none), the time unit in microseconds, the
 * enum values (comma list), the category, and the engines that own the
 * option ("-": any engine). Empty fields are "-". The side-by-side
 * generator (t/sbs-gen) draws its jobs from it.
 */
void opt_table_tsv(struct strbuf *out);

/*
 * Splits a filename= value at ':' ("\:" is a literal colon; empty names
 * are dropped). Returns a NULL-terminated array of *n heap strings; free
 * it with opt_free_filenames().
 */
char **opt_split_filenames(const char *s, unsigned int *n);
void opt_free_filenames(char **names);

#endif

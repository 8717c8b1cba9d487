/* SPDX-License-Identifier: MIT */
/*
 * Everything generated from the option table: lookup, "did you mean",
 * defaults, dumps, the table self-check, --cmdhelp and doc/options.md.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"
#include "util/log.h"
#include "util/num.h"

/* Calls fn for every name of a row (the name, then each alias). */
static int for_each_name(const struct opt_def *def,
			 int (*fn)(const char *name, size_t len, void *ctx),
			 void *ctx)
{
	const char *a = def->alias;
	int ret = fn(def->name, strlen(def->name), ctx);

	while (!ret && a && *a) {
		size_t len = strcspn(a, ",");

		ret = fn(a, len, ctx);
		a += len;
		if (*a == ',')
			a++;
	}
	return ret;
}

static int name_matches(const char *name, size_t len, void *ctx)
{
	const char *want = ctx;

	return strlen(want) == len && !strncmp(name, want, len);
}

static const struct opt_def *lookup_in(const struct opt_def *table,
				       size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (for_each_name(&table[i], name_matches, (void *)name))
			return &table[i];
	return NULL;
}

const struct opt_def *opt_lookup(const char *name)
{
	return lookup_in(opt_table, opt_table_size, name);
}

int opt_is_set(const struct job_options *o, const char *name)
{
	const struct opt_def *def = opt_lookup(name);

	return def && o->set[opt_index(def)];
}

void opt_mark_inherited(struct job_options *o)
{
	size_t i;

	for (i = 0; i < opt_table_size; i++)
		if (o->set[i])
			o->set[i] = OPT_SET_INHERITED;
}

int opt_set_by_job(const struct job_options *o, const char *name)
{
	const struct opt_def *def = opt_lookup(name);

	return def && o->set[opt_index(def)] &&
	       o->set[opt_index(def)] != OPT_SET_INHERITED;
}

/* Optimal string alignment distance, ignoring case. */
static size_t edit_distance(const char *a, size_t la, const char *b,
			    size_t lb)
{
	size_t *rows = xcalloc(3 * (lb + 1), sizeof(*rows));
	size_t *pp = rows, *p = rows + lb + 1, *c = rows + 2 * (lb + 1);
	size_t i, j, d;

	for (j = 0; j <= lb; j++)
		p[j] = j;
	for (i = 1; i <= la; i++) {
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) ==
				   tolower((unsigned char)b[j - 1]);
			size_t best = p[j - 1] + !same;

			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (c[j - 1] + 1 < best)
				best = c[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			c[j] = best;
		}
		{
			size_t *t = pp;

			pp = p;
			p = c;
			c = t;
		}
	}
	d = p[lb];
	free(rows);
	return d;
}

struct suggest {
	const char *want;
	size_t want_len;
	const char *best;
	size_t best_len;
	size_t dist;
};

static int suggest_name(const char *name, size_t len, void *ctx)
{
	struct suggest *s = ctx;
	size_t d;

	/*
	 * The distance is at least the difference in length, and over 3
	 * is never suggested: skip the quadratic work (a long mistyped
	 * name would otherwise cost it for every row).
	 */
	if ((len > s->want_len ? len - s->want_len : s->want_len - len) > 3)
		return 0;
	d = edit_distance(s->want, s->want_len, name, len);

	if (d < s->dist) {
		s->dist = d;
		s->best = name;
		s->best_len = len;
	}
	return 0;
}

const char *opt_suggest(const char *name)
{
	static char buf[64];
	struct suggest s = { name, strlen(name), NULL, 0, SIZE_MAX };
	size_t i, limit;

	/* short names tolerate one typo, longer ones a few */
	limit = s.want_len <= 3 ? 1 : s.want_len <= 7 ? 2 : 3;
	for (i = 0; i < opt_table_size; i++)
		for_each_name(&opt_table[i], suggest_name, &s);
	if (!s.best || s.dist > limit || s.dist >= s.want_len ||
	    s.best_len >= sizeof(buf))
		return NULL;
	memcpy(buf, s.best, s.best_len);
	buf[s.best_len] = '\0';
	return buf;
}

void opt_defaults(struct job_options *o)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < opt_table_size; i++) {
		const struct opt_def *def = &opt_table[i];

		if (!def->def)
			continue;
		/* the self-check proves every default parses */
		if (opt_set_def(def, o, def->def, 1024, &err))
			BUG("default of '%s': %s", def->name,
			    strbuf_str(&err));
	}
	strbuf_release(&err);
	memset(o->set, 0, sizeof(o->set));
}

int opt_set(struct job_options *o, const char *name, const char *val,
	    unsigned int kb_base, struct strbuf *err)
{
	const struct opt_def *def = opt_lookup(name);
	const char *hint;

	if (!def) {
		/* iolite-mpi takes ranks= out before the table sees it */
		if (!strcmp(name, "ranks")) {
			strbuf_addstr(err, "option 'ranks' is iolite-mpi's (the MPI ranks that run the job): run the job file with mpirun -np N iolite-mpi");
			return -1;
		}
		strbuf_addf(err, "unknown option '%s'", name);
		hint = opt_suggest(name);
		if (hint)
			strbuf_addf(err, " (did you mean '%s'?)", hint);
		return -1;
	}
	return opt_set_named(def, name, o, val, kb_base, err);
}

void opt_dump(const struct job_options *o, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < opt_table_size; i++) {
		const struct opt_def *def = &opt_table[i];

		if (!o->set[i] || (def->flags & OPT_F_NODUMP))
			continue;
		/*
		 * [global]'s option for an engine the job does not use: fio
		 * drops it, and written in the job it would be refused
		 */
		if (!opt_set_by_job(o, def->name) &&
		    opt_engine_owners(def->name, o->ioengine))
			continue;
		strbuf_addf(out, "%s=", def->name);
		opt_format(def, o, out);
		strbuf_addch(out, '\n');
	}
}

/* --- self-check ------------------------------------------------------ */

struct check_ctx {
	const struct opt_def *table;
	size_t n, row;
	struct strbuf *err;
	int bad;
};

static int check_name(const char *name, size_t len, void *vctx)
{
	struct check_ctx *c = vctx;
	size_t i, k;
	char *copy;

	if (!len) {
		strbuf_addf(c->err, "row %zu ('%s'): empty name or alias\n",
			    c->row, c->table[c->row].name);
		c->bad = 1;
		return 0;
	}
	for (k = 0; k < len; k++) {
		if (!isalnum((unsigned char)name[k]) && name[k] != '_' &&
		    name[k] != '-') {
			strbuf_addf(c->err, "row %zu: bad character in "
				    "'%.*s'\n", c->row, (int)len, name);
			c->bad = 1;
			break;
		}
	}
	copy = xstrndup(name, len);
	for (i = 0; i < c->n; i++) {
		if (i == c->row ||
		    !for_each_name(&c->table[i], name_matches, copy))
			continue;
		/* report each clash once, at the later row */
		if (i < c->row) {
			strbuf_addf(c->err, "'%s' is defined twice (rows %zu "
				    "and %zu)\n", copy, i, c->row);
			c->bad = 1;
		}
		break;
	}
	free(copy);
	return 0;
}

static size_t type_size(const struct opt_def *def)
{
	switch (def->type) {
	case OPT_STR:
		return sizeof(char *);
	case OPT_BOOL:
		return sizeof(bool);
	case OPT_UINT:
		return sizeof(unsigned int);
	case OPT_U64:
	case OPT_SIZE:
	case OPT_TIME:
		return sizeof(uint64_t);
	case OPT_SIZE_PCT:
		return sizeof(struct size_pct);
	case OPT_SIZE_DIR:
		return DDIR_RWDIR_CNT * sizeof(uint64_t);
	case OPT_RANGE:
		return sizeof(struct bs_range);
	case OPT_RANGE_DIR:
		return DDIR_RWDIR_CNT * sizeof(struct bs_range);
	case OPT_ENUM:
		return sizeof(int);
	case OPT_CALLBACK:
	case OPT_UNSUPPORTED:
	case OPT_TOOL:
		break;
	}
	return 0;
}

static void check_row(struct check_ctx *c, const struct opt_def *def)
{
	struct strbuf e = STRBUF_INIT;
	struct job_options *o;
	size_t k;

#define BAD(...) do { \
		strbuf_addf(c->err, "option '%s': ", def->name); \
		strbuf_addf(c->err, __VA_ARGS__); \
		strbuf_addch(c->err, '\n'); \
		c->bad = 1; \
	} while (0)

	if (!def->help || !*def->help)
		BAD("no help text");
	if ((unsigned int)def->category >= OPT_CAT_NR)
		BAD("bad category %d", (int)def->category);
	if (def->max && def->min > def->max)
		BAD("min %" PRIu64 " > max %" PRIu64, def->min, def->max);
	if (def->off + type_size(def) > sizeof(struct job_options))
		BAD("field offset %zu outside struct job_options", def->off);
	if (def->type == OPT_ENUM && (!def->enums || !def->enums[0].name))
		BAD("enum without values");
	if (def->enums) {
		for (k = 0; def->enums[k].name; k++) {
			if (k > 64) {
				BAD("enum values not NULL-terminated");
				break;
			}
		}
	}
	if (def->type == OPT_CALLBACK && (!def->cb || !def->format))
		BAD("callback row without cb or format");
	if (def->type == OPT_TIME && !def->unit_us)
		BAD("time without a default unit");
	if ((def->type == OPT_UNSUPPORTED || def->type == OPT_TOOL) &&
	    def->def)
		BAD("a default on a row that cannot be parsed");
	if ((def->flags & OPT_F_NEGATE) && def->type != OPT_BOOL)
		BAD("OPT_F_NEGATE on a non-bool");
	if (!def->def || def->type == OPT_UNSUPPORTED || def->type == OPT_TOOL)
		goto out;

	/* the default parses, and formats to text that parses the same */
	o = xcalloc(1, sizeof(*o));
	if (opt_set_def(def, o, def->def, 1024, &e)) {
		BAD("default '%s' does not parse: %s", def->def,
		    strbuf_str(&e));
	} else {
		struct job_options *o2 = xcalloc(1, sizeof(*o2));
		struct strbuf f1 = STRBUF_INIT, f2 = STRBUF_INIT;

		opt_format(def, o, &f1);
		strbuf_reset(&e);
		if (opt_set_def(def, o2, strbuf_str(&f1), 1024, &e))
			BAD("canonical default '%s' does not parse: %s",
			    strbuf_str(&f1), strbuf_str(&e));
		opt_format(def, o2, &f2);
		if (strcmp(strbuf_str(&f1), strbuf_str(&f2)))
			BAD("default formats as '%s' then '%s'",
			    strbuf_str(&f1), strbuf_str(&f2));
		strbuf_release(&f1);
		strbuf_release(&f2);
		job_options_release(o2);
		free(o2);
	}
	job_options_release(o);
	free(o);
out:
	strbuf_release(&e);
#undef BAD
}

int opt_table_check(const struct opt_def *table, size_t n,
		    struct strbuf *err)
{
	struct check_ctx c = { table, n, 0, err, 0 };

	if (n > OPT_TABLE_MAX) {
		strbuf_addf(err, "%zu rows, more than OPT_TABLE_MAX %d\n", n,
			    OPT_TABLE_MAX);
		c.bad = 1;
	}
	for (c.row = 0; c.row < n; c.row++) {
		if (!table[c.row].name) {
			strbuf_addf(err, "row %zu: no name\n", c.row);
			c.bad = 1;
			continue;
		}
		for_each_name(&table[c.row], check_name, &c);
		check_row(&c, &table[c.row]);
	}
	return c.bad ? -1 : 0;
}

int opt_table_selfcheck(struct strbuf *err)
{
	return opt_table_check(opt_table, opt_table_size, err);
}

/* --- help and docs --------------------------------------------------- */

static void add_default(const struct opt_def *def, struct strbuf *out)
{
	if (def->type == OPT_UNSUPPORTED || def->type == OPT_TOOL)
		strbuf_addstr(out, "-");
	else if (def->def && *def->def)
		strbuf_addstr(out, def->def);
	else if (def->type == OPT_STR)
		strbuf_addstr(out, "(none)");
	else
		strbuf_addstr(out, "(none)");
}

static void add_range(const struct opt_def *def, struct strbuf *out)
{
	if (def->max)
		strbuf_addf(out, "%" PRIu64 "..%" PRIu64, def->min, def->max);
	else
		strbuf_addf(out, "at least %" PRIu64, def->min);
}

static bool has_range(const struct opt_def *def)
{
	return def->min || def->max;
}

static void cmdhelp_one(const struct opt_def *def, struct strbuf *out)
{
	const struct opt_enum *e;

	strbuf_addf(out, "%s: %s\n", def->name, def->help);
	if (def->alias)
		strbuf_addf(out, "  alias:    %s\n", def->alias);
	strbuf_addf(out, "  type:     %s\n", opt_type_name(def));
	if (def->type == OPT_UNSUPPORTED)
		return;
	strbuf_addstr(out, "  default:  ");
	add_default(def, out);
	strbuf_addch(out, '\n');
	if (has_range(def)) {
		strbuf_addstr(out, "  range:    ");
		add_range(def, out);
		strbuf_addch(out, '\n');
	}
	if (def->type == OPT_TIME || def->unit_us)
		strbuf_addf(out, "  unit:     %s when none is given\n",
			    def->unit_us == 1000000 ? "seconds" :
			    def->unit_us == 1000 ? "milliseconds" :
			    "microseconds");
	for (e = def->enums; e && e->name; e++)
		strbuf_addf(out, "  %-9s %-14s %s\n",
			    e == def->enums ? "values:" : "", e->name,
			    e->help ? e->help : "");
	strbuf_addf(out, "  category: %s\n", opt_category_name(def->category));
}

/* Appends names as a comma-separated list wrapped at ~76 columns. */
static void add_wrapped(struct strbuf *out, const char *indent,
			const char *word, size_t *col)
{
	size_t len = strlen(word);

	if (*col && *col + len + 2 > 76) {
		strbuf_addf(out, ",\n%s", indent);
		*col = strlen(indent);
	} else if (*col > strlen(indent)) {
		strbuf_addstr(out, ", ");
		*col += 2;
	} else if (!*col) {
		strbuf_addstr(out, indent);
		*col = strlen(indent);
	}
	strbuf_addstr(out, word);
	*col += len;
}

int opt_cmdhelp(const char *name, struct strbuf *out)
{
	int cat;
	size_t i, col = 0;

	if (name && strcmp(name, "all")) {
		const struct opt_def *def = opt_lookup(name);

		if (!def)
			return -1;
		cmdhelp_one(def, out);
		return 0;
	}
	for (cat = 0; cat < OPT_CAT_UNSUPPORTED; cat++) {
		strbuf_addf(out, "%s%s:\n", cat ? "\n" : "",
			    opt_category_name((enum opt_category)cat));
		for (i = 0; i < opt_table_size; i++) {
			const struct opt_def *def = &opt_table[i];

			if (def->category != (enum opt_category)cat ||
			    def->type == OPT_UNSUPPORTED)
				continue;
			strbuf_addf(out, "  %-24s: %s\n", def->name, def->help);
		}
	}
	strbuf_addf(out, "\n%s (accepted names, rejected with a clear "
		    "message):\n", opt_category_name(OPT_CAT_UNSUPPORTED));
	for (i = 0; i < opt_table_size; i++)
		if (opt_table[i].type == OPT_UNSUPPORTED)
			add_wrapped(out, "  ", opt_table[i].name, &col);
	strbuf_addch(out, '\n');
	return 0;
}

static const char *const kind_names[] = {
	[OPT_STR] = "str", [OPT_BOOL] = "bool", [OPT_UINT] = "int",
	[OPT_U64] = "int", [OPT_SIZE] = "size", [OPT_SIZE_PCT] = "size_pct",
	[OPT_SIZE_DIR] = "size_dir", [OPT_RANGE] = "range",
	[OPT_RANGE_DIR] = "range_dir", [OPT_TIME] = "time",
	[OPT_ENUM] = "enum", [OPT_CALLBACK] = "cb",
};

static void tsv_field(struct strbuf *out, const char *s, bool last)
{
	strbuf_addstr(out, s && *s ? s : "-");
	strbuf_addch(out, last ? '\n' : '\t');
}

static void tsv_row(const struct opt_def *def, struct strbuf *out)
{
	const struct opt_enum *e;
	struct strbuf enums;

	strbuf_init(&enums);
	for (e = def->enums; e && e->name; e++)
		strbuf_addf(&enums, "%s%s", e == def->enums ? "" : ",", e->name);
	tsv_field(out, def->name, false);
	tsv_field(out, def->alias, false);
	tsv_field(out, kind_names[def->type], false);
	tsv_field(out, def->def, false);
	strbuf_addf(out, "%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", def->min,
		    def->max, def->unit_us);
	tsv_field(out, strbuf_str(&enums), false);
	tsv_field(out, opt_category_name(def->category), false);
	tsv_field(out, opt_engine_owners(def->name, NULL), true);
	strbuf_release(&enums);
}

void opt_table_tsv(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "name\talias\tkind\tdefault\tmin\tmax\tunit_us"
		      "\tvalues\tcategory\tengines\n");
	for (i = 0; i < opt_table_size; i++)
		if (opt_table[i].type != OPT_UNSUPPORTED &&
		    opt_table[i].type != OPT_TOOL)
			tsv_row(&opt_table[i], out);
}

/* Markdown table cells: '|' would end the cell. */
static void md_cell(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			strbuf_addstr(out, "\\|");
		else
			strbuf_addch(out, *s);
	}
}

static void md_code(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '`');
	md_cell(out, s);
	strbuf_addch(out, '`');
}

static void md_row(const struct opt_def *def, struct strbuf *out)
{
	const struct opt_enum *e;

	strbuf_addstr(out, "| ");
	md_code(out, def->name);
	if (def->alias) {
		strbuf_addstr(out, " (");
		md_cell(out, def->alias);
		strbuf_addch(out, ')');
	}
	strbuf_addstr(out, " | ");
	md_cell(out, opt_type_name(def));
	if (has_range(def)) {
		strbuf_addstr(out, ", ");
		add_range(def, out);
	}
	strbuf_addstr(out, " | ");
	if (def->def && *def->def)
		md_code(out, def->def);
	else
		strbuf_addstr(out, "-");
	strbuf_addstr(out, " | ");
	md_cell(out, def->help);
	for (e = def->enums; e && e->name; e++) {
		strbuf_addstr(out, e == def->enums ? "<br>values: " : ", ");
		md_code(out, e->name);
		if (e->help) {
			strbuf_addstr(out, " ");
			md_cell(out, e->help);
		}
	}
	strbuf_addstr(out, " |\n");
}

/* The page's head: where it comes from, the counts, the value syntax */
static void md_intro(struct strbuf *out)
{
	size_t i, nr_sup = 0, nr_unsup = 0;

	for (i = 0; i < opt_table_size; i++) {
		if (opt_table[i].type == OPT_UNSUPPORTED)
			nr_unsup++;
		else
			nr_sup++;
	}
	strbuf_addstr(out,
"<!-- Generated by `iolite --cmdhelp=markdown` from src/opt/table.c;\n"
"     edit the table, not this file. -->\n"
"# iolite job options\n"
"\n"
"iolite reads fio's job options: in job files (`name=value` lines in\n"
"`[job]` sections, `[global]` for shared ones) and on the command line\n"
"(`--name=value`). ");
	strbuf_addf(out, "This page lists the %zu options iolite implements "
		    "and the\n%zu other names fio 3.33 knows, which iolite "
		    "accepts as names but rejects\nwith \"not supported yet\".\n",
		    nr_sup, nr_unsup);
	strbuf_addstr(out,
"\n"
"`iolite --cmdhelp` lists them, `iolite --cmdhelp=NAME` shows one.\n"
"\n"
"## Value syntax\n"
"\n"
"- **integer**, **size**: decimal, optionally followed by a unit prefix\n"
"  `k`, `m`, `g`, `t`, `p` and an optional `B` (any case), or `0x` hex\n"
"  without a unit.\n"
"  With `kb_base=1024` (the default, as fio) `4k` and `4kB` are 4096 and\n"
"  `4KiB` is 4000; with `kb_base=1000` it is the other way round. As in\n"
"  fio, a lone `Ki` means the same as `K`. Integers take the same\n"
"  suffixes (`iodepth=1k` is 1024). Fractions, signs and trailing junk\n"
"  are errors.\n"
"- **size or percentage**: a size, or `N%` of the file or device (1-100).\n"
"- **range**: `min-max` or `min:max`; a single size means min = max;\n"
"  a reversed range is swapped, as fio does.\n"
"- **per direction** (`r,w,t`): one value applies to reads, writes and\n"
"  trims; `8k,32k` gives reads 8k and writes and trims 32k; `8k,32k,`\n"
"  leaves trims at the default; `,8k` leaves reads at the default.\n"
"- **time**: an integer with an optional unit `d`, `h`, `m`, `s`, `ms`,\n"
"  `us`, `ns` (also `min`, `sec`, `msec`, `usec`, `nsec`); without one,\n"
"  the option's default unit (seconds for every time option here).\n"
"- **bool**: `1` or `0` (also `true`/`false`, `yes`/`no`, `on`/`off`); a\n"
"  bare name (`direct` on a line of its own, `--direct`) means `1`.\n"
"\n"
"`--parse-only` prints each job's explicitly set options in a canonical\n"
"form that parses back to the same values: sizes in bytes, times in the\n"
"largest exact unit of `s`, `ms`, `us`, per-direction lists shortened\n"
"when directions agree.\n");
}

/* A table per category of the options iolite implements */
static void md_supported(struct strbuf *out)
{
	size_t i;
	int cat;

	for (cat = 0; cat < OPT_CAT_UNSUPPORTED; cat++) {
		strbuf_addf(out, "\n## %s\n\n",
			    opt_category_name((enum opt_category)cat));
		strbuf_addstr(out, "| option (aliases) | type | default | "
			      "description |\n|---|---|---|---|\n");
		for (i = 0; i < opt_table_size; i++) {
			const struct opt_def *def = &opt_table[i];

			if (def->category == (enum opt_category)cat &&
			    def->type != OPT_UNSUPPORTED)
				md_row(def, out);
		}
	}
}

/* The names fio knows and iolite refuses, as a list */
static void md_unsupported(struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "\n## %s\n\n", opt_category_name(OPT_CAT_UNSUPPORTED));
	strbuf_addstr(out, "iolite knows these fio option names and stops with "
		      "`option 'NAME' is not\nsupported yet` when a job uses "
		      "one, rather than ignoring it.\n\n");
	for (i = 0; i < opt_table_size; i++) {
		const struct opt_def *def = &opt_table[i];

		if (def->type != OPT_UNSUPPORTED)
			continue;
		strbuf_addstr(out, "- ");
		md_code(out, def->name);
		if (def->alias) {
			strbuf_addstr(out, " (");
			md_code(out, def->alias);
			strbuf_addch(out, ')');
		}
		strbuf_addch(out, '\n');
	}
}

void opt_doc_markdown(struct strbuf *out)
{
	md_intro(out);
	md_supported(out);
	md_unsupported(out);
}

/* --- filename lists -------------------------------------------------- */

char **opt_split_filenames(const char *s, unsigned int *n)
{
	char **v = xcalloc(1, sizeof(*v));
	struct strbuf cur = STRBUF_INIT;
	unsigned int nr = 0;

	for (;; s++) {
		if (*s == '\\' && s[1] == ':') {
			strbuf_addch(&cur, ':');
			s++;
			continue;
		}
		if (*s && *s != ':') {
			strbuf_addch(&cur, *s);
			continue;
		}
		if (cur.len) {
			v = xrealloc(v, (nr + 2) * sizeof(*v));
			v[nr++] = strbuf_detach(&cur);
			v[nr] = NULL;
		}
		if (!*s)
			break;
	}
	strbuf_release(&cur);
	*n = nr;
	return v;
}

void opt_free_filenames(char **names)
{
	char **p;

	if (!names)
		return;
	for (p = names; *p; p++)
		free(*p);
	free(names);
}

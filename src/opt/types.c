/* SPDX-License-Identifier: MIT */
/*
 * Option types: one parser and one formatter per enum opt_type, shared by
 * every row of that type. Rows with odd syntax use OPT_CALLBACK instead.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"
#include "opt/refused.h"
#include "util/num.h"

bool opt_in_table(const struct opt_def *def)
{
	uintptr_t p = (uintptr_t)def, lo = (uintptr_t)opt_table;

	return p >= lo && p < lo + opt_table_size * sizeof(*def);
}

int opt_parse_size_msg(const char *s, unsigned int kb_base, uint64_t *out,
		       struct strbuf *err)
{
	int ret = num_parse_size(s, kb_base, out);

	if (ret == -ERANGE)
		strbuf_addf(err, "'%s' is too large", s);
	else if (ret)
		strbuf_addf(err, "invalid size '%s'", s);
	return ret ? -1 : 0;
}

int opt_check_range(const struct opt_def *def, uint64_t v, uint64_t cap,
		    struct strbuf *err)
{
	uint64_t max = def->max;

	if (cap && (!max || max > cap))
		max = cap;
	if (v >= def->min && (!max || v <= max))
		return 0;
	/* a bare type limit is noise when the value is below the minimum */
	if (def->max || (v > max && def->min))
		strbuf_addf(err, "%" PRIu64 " is out of range (%" PRIu64
			    "..%" PRIu64 ")", v, def->min, max);
	else if (v < def->min)
		strbuf_addf(err, "%" PRIu64 " is out of range (minimum %"
			    PRIu64 ")", v, def->min);
	else
		strbuf_addf(err, "%" PRIu64 " is out of range (maximum %"
			    PRIu64 ")", v, max);
	return -1;
}

int opt_enum_lookup(const struct opt_enum *e, const char *s, int *val)
{
	for (; e && e->name; e++) {
		if (!strcmp(e->name, s)) {
			*val = e->value;
			return 0;
		}
	}
	return -1;
}

const char *opt_enum_name(const struct opt_enum *e, int val)
{
	for (; e && e->name; e++)
		if (e->value == val)
			return e->name;
	return NULL;
}

void opt_enum_list(const struct opt_enum *e, struct strbuf *out)
{
	const char *sep = "";

	for (; e && e->name; e++) {
		strbuf_addf(out, "%s%s", sep, e->name);
		sep = ", ";
	}
}

int opt_parse_dirs(const char *val, opt_dir_fn one, void *ctx,
		   struct strbuf *err)
{
	char *copy = xstrdup(val), *parts[DDIR_RWDIR_CNT], *p = copy;
	unsigned int n = 0, d;
	int ret = 0;

	for (;;) {
		char *comma = strchr(p, ',');

		if (n == DDIR_RWDIR_CNT) {
			strbuf_addf(err, "too many values in '%s' (at most "
				    "read,write,trim)", val);
			free(copy);
			return -1;
		}
		parts[n++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	for (d = 0; d < n && !ret; d++)
		if (*parts[d])
			ret = one(parts[d], d, ctx, err);
	/* "8k,32k" also sets trim to 32k; "8k,32k," leaves it alone */
	for (d = n; d < DDIR_RWDIR_CNT && !ret && *parts[n - 1]; d++)
		ret = one(parts[n - 1], d, ctx, err);
	free(copy);
	return ret ? -1 : 0;
}

void opt_format_dirs(opt_dir_fmt_fn one, const void *ctx, struct strbuf *out)
{
	struct strbuf v[DDIR_RWDIR_CNT];
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		strbuf_init(&v[d]);
		one(d, ctx, &v[d]);
	}
	strbuf_addstr(out, strbuf_str(&v[0]));
	if (strcmp(strbuf_str(&v[1]), strbuf_str(&v[2]))) {
		strbuf_addf(out, ",%s,%s", strbuf_str(&v[1]),
			    strbuf_str(&v[2]));
	} else if (strcmp(strbuf_str(&v[0]), strbuf_str(&v[1]))) {
		strbuf_addf(out, ",%s", strbuf_str(&v[1]));
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		strbuf_release(&v[d]);
}

int opt_parse_range(const struct opt_def *def, const char *s,
		    unsigned int kb_base, struct bs_range *r,
		    struct strbuf *err)
{
	const char *sep = strpbrk(s, "-:");
	uint64_t lo, hi;

	if (!sep) {
		if (opt_parse_size_msg(s, kb_base, &lo, err))
			return -1;
		hi = lo;
	} else {
		char *first = xstrndup(s, (size_t)(sep - s));
		int ret = opt_parse_size_msg(first, kb_base, &lo, err);

		free(first);
		if (ret || opt_parse_size_msg(sep + 1, kb_base, &hi, err))
			return -1;
	}
	if (lo > hi && (def->flags & OPT_F_ORDERED)) {
		/*
		 * fio swaps an inverted bsrange but takes an inverted
		 * filesize as written: a file of size= bytes, all of
		 * size= in one file, or no I/O at all
		 */
		strbuf_addf(err, "range '%s' runs from %" PRIu64 " down to %"
			    PRIu64 ": give the smaller size first", s, lo, hi);
		return -1;
	}
	if (lo > hi) {
		uint64_t t = lo;

		lo = hi;
		hi = t;
	}
	if (opt_check_range(def, lo, 0, err) ||
	    opt_check_range(def, hi, 0, err))
		return -1;
	r->min = lo;
	r->max = hi;
	return 0;
}

void opt_format_time(uint64_t us, struct strbuf *out)
{
	if (us && us % 1000000 == 0)
		strbuf_addf(out, "%" PRIu64 "s", us / 1000000);
	else if (us && us % 1000 == 0)
		strbuf_addf(out, "%" PRIu64 "ms", us / 1000);
	else
		strbuf_addf(out, "%" PRIu64 "us", us);
}

const char *opt_type_name(const struct opt_def *def)
{
	switch (def->type) {
	case OPT_STR:
		return "string";
	case OPT_BOOL:
		return "bool (0 or 1; a bare name means 1)";
	case OPT_UINT:
	case OPT_U64:
		return "integer";
	case OPT_SIZE:
		return "size";
	case OPT_SIZE_PCT:
		return "size or percentage (N%)";
	case OPT_SIZE_DIR:
		return "size[,size][,size] (read,write,trim)";
	case OPT_RANGE:
		return "size range (min-max)";
	case OPT_RANGE_DIR:
		return "size range[,range][,range] (read,write,trim)";
	case OPT_TIME:
		return "time";
	case OPT_ENUM:
		return "one of the values below";
	case OPT_CALLBACK:
		return def->typestr ? def->typestr : "string";
	case OPT_UNSUPPORTED:
		return "not supported yet";
	case OPT_TOOL:
		return "command-line option";
	}
	return "?";
}

struct dir_ctx {
	const struct opt_def *def;
	void *field;
	unsigned int kb_base;
};

static int parse_size_dir(const char *part, unsigned int d, void *vctx,
			  struct strbuf *err)
{
	struct dir_ctx *c = vctx;
	uint64_t v;

	if (opt_parse_size_msg(part, c->kb_base, &v, err) ||
	    opt_check_range(c->def, v, 0, err))
		return -1;
	((uint64_t *)c->field)[d] = v;
	return 0;
}

static int parse_range_dir(const char *part, unsigned int d, void *vctx,
			   struct strbuf *err)
{
	struct dir_ctx *c = vctx;

	return opt_parse_range(c->def, part, c->kb_base,
			       &((struct bs_range *)c->field)[d], err);
}

static int parse_size_pct(const struct opt_def *def, const char *val,
			  unsigned int kb_base, struct size_pct *sp,
			  struct strbuf *err)
{
	size_t n = strlen(val);
	uint64_t v;

	while (n && (val[n - 1] == ' ' || val[n - 1] == '\t'))
		n--;
	if (n && val[n - 1] == '%') {
		char *num = xstrndup(val, n - 1);
		int ret = num_parse_u64(num, &v);

		free(num);
		if (ret || v < 1 || v > 100) {
			strbuf_addf(err, "invalid percentage '%s' (1%%..100%%)",
				    val);
			return -1;
		}
		sp->bytes = 0;
		sp->pct = (unsigned int)v;
		return 0;
	}
	if (opt_parse_size_msg(val, kb_base, &v, err) ||
	    opt_check_range(def, v, 0, err))
		return -1;
	sp->bytes = v;
	sp->pct = 0;
	return 0;
}

static int parse_bool(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	bool b;

	if (num_parse_bool(val, &b)) {
		strbuf_addf(err, "invalid boolean '%s' (use 0 or 1)", val);
		return -1;
	}
	*OPT_PTR(o, def, bool) = (def->flags & OPT_F_NEGATE) ? !b : b;
	/* a bool row's cb applies its side effects (gtod_reduce) */
	if (def->cb && def->cb(def, o, val, err))
		return -1;
	return 0;
}

static int parse_time(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	uint64_t v;
	int e = num_parse_time_us(val, def->unit_us, &v);

	if (e == -ERANGE) {
		strbuf_addf(err, "'%s' is too large", val);
		return -1;
	}
	if (e) {
		strbuf_addf(err, "invalid time '%s'", val);
		return -1;
	}
	if (opt_check_range(def, v, 0, err))
		return -1;
	*OPT_PTR(o, def, uint64_t) = v;
	return 0;
}

static int parse_enum(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	int e;

	if (opt_enum_lookup(def->enums, val, &e)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", val);
		opt_enum_list(def->enums, err);
		strbuf_addch(err, ')');
		return -1;
	}
	*OPT_PTR(o, def, int) = e;
	return 0;
}

static int parse_callback(const struct opt_def *def, struct job_options *o,
			  const char *val, unsigned int kb_base,
			  struct strbuf *err)
{
	/* callbacks read the kb_base in effect from o */
	unsigned int saved = o->kb_base;
	int e;

	o->kb_base = kb_base;
	e = def->cb(def, o, val, err);
	o->kb_base = saved;
	return e ? -1 : 0;
}

/* Parses val (never NULL) for every type but UNSUPPORTED and TOOL. */
static int parse_value(const struct opt_def *def, struct job_options *o,
		       const char *val, unsigned int kb_base,
		       struct strbuf *err)
{
	struct dir_ctx dc = { def, NULL, kb_base };
	uint64_t v;

	switch (def->type) {
	case OPT_STR: {
		char **field = OPT_PTR(o, def, char *);

		free(*field);
		*field = xstrdup(val);
		return 0;
	}
	case OPT_BOOL:
		return parse_bool(def, o, val, err);
	case OPT_UINT:
		if (opt_parse_size_msg(val, kb_base, &v, err) ||
		    opt_check_range(def, v, UINT_MAX, err))
			return -1;
		*OPT_PTR(o, def, unsigned int) = (unsigned int)v;
		return 0;
	case OPT_U64:
	case OPT_SIZE:
		if (opt_parse_size_msg(val, kb_base, &v, err) ||
		    opt_check_range(def, v, 0, err))
			return -1;
		*OPT_PTR(o, def, uint64_t) = v;
		return 0;
	case OPT_SIZE_PCT:
		return parse_size_pct(def, val, kb_base,
				      OPT_PTR(o, def, struct size_pct), err);
	case OPT_SIZE_DIR:
		dc.field = OPT_PTR(o, def, uint64_t);
		return opt_parse_dirs(val, parse_size_dir, &dc, err);
	case OPT_RANGE:
		return opt_parse_range(def, val, kb_base,
				       OPT_PTR(o, def, struct bs_range), err);
	case OPT_RANGE_DIR:
		dc.field = OPT_PTR(o, def, struct bs_range);
		return opt_parse_dirs(val, parse_range_dir, &dc, err);
	case OPT_TIME:
		return parse_time(def, o, val, err);
	case OPT_ENUM:
		return parse_enum(def, o, val, err);
	case OPT_CALLBACK:
		return parse_callback(def, o, val, kb_base, err);
	case OPT_UNSUPPORTED:
	case OPT_TOOL:
		break;
	}
	strbuf_addstr(err, "cannot be parsed");
	return -1;
}

int opt_set_named(const struct opt_def *def, const char *shown,
		  struct job_options *o, const char *val,
		  unsigned int kb_base, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;

	if (def->type == OPT_UNSUPPORTED) {
		const char *engines, *why = opt_refused_why(def->name, &engines);

		if (why)
			strbuf_addf(err, "option '%s' is not supported: an "
				    "option of %s (%s)", shown, engines, why);
		else if ((why = opt_unsup_why(def->name)))
			strbuf_addf(err, "option '%s' is not supported yet: "
				    "%s", shown, why);
		else
			strbuf_addf(err, "option '%s' is not supported yet",
				    shown);
		return -1;
	}
	if (def->type == OPT_TOOL) {
		strbuf_addf(err, "'%s' is a command-line option, not a job "
			    "option", shown);
		return -1;
	}
	if (!val && def->type == OPT_BOOL)
		val = "1";
	if (!val && (def->flags & OPT_F_OPTVAL))
		val = "";
	/* as fio, whose every option fails on an empty value */
	if (!val || (!*val && !(def->flags & OPT_F_OPTVAL))) {
		strbuf_addf(err, "option '%s' needs a value", shown);
		return -1;
	}
	if (parse_value(def, o, val, kb_base, &msg)) {
		strbuf_addf(err, "option '%s': %s", shown, strbuf_str(&msg));
		strbuf_release(&msg);
		return -1;
	}
	strbuf_release(&msg);
	if (opt_in_table(def))
		o->set[opt_index(def)] = 1;
	return 0;
}

int opt_set_def(const struct opt_def *def, struct job_options *o,
		const char *val, unsigned int kb_base, struct strbuf *err)
{
	return opt_set_named(def, def->name, o, val, kb_base, err);
}

/*
 * A direction left at 0 was not given ("ba=,8k"): it formats as an empty
 * element, which parses back to the same, where "0" may be out of range.
 */
static void fmt_size_dir(unsigned int d, const void *field,
			 struct strbuf *out)
{
	uint64_t v = ((const uint64_t *)field)[d];

	if (v)
		strbuf_addf(out, "%" PRIu64, v);
}

static void fmt_range(const struct bs_range *r, struct strbuf *out)
{
	strbuf_addf(out, "%" PRIu64 "-%" PRIu64, r->min, r->max);
}

static void fmt_range_dir(unsigned int d, const void *field,
			  struct strbuf *out)
{
	const struct bs_range *r = &((const struct bs_range *)field)[d];

	if (r->min || r->max)	/* as fmt_size_dir */
		fmt_range(r, out);
}

/* No direction given at all: "0" where that is in range, else ",". */
static void fmt_dirs(const struct opt_def *def, opt_dir_fmt_fn one,
		     const void *field, struct strbuf *out)
{
	size_t start = out->len;

	opt_format_dirs(one, field, out);
	if (out->len == start)
		strbuf_addstr(out, def->min ? "," : "0");
}

void opt_format(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out)
{
	const struct size_pct *sp;
	const char *s;

	switch (def->type) {
	case OPT_STR:
		s = *OPT_CPTR(o, def, char *);
		strbuf_addstr(out, s ? s : "");
		break;
	case OPT_BOOL:
		strbuf_addch(out, (*OPT_CPTR(o, def, bool) ^
				   !!(def->flags & OPT_F_NEGATE)) ? '1' : '0');
		break;
	case OPT_UINT:
		strbuf_addf(out, "%u", *OPT_CPTR(o, def, unsigned int));
		break;
	case OPT_U64:
	case OPT_SIZE:
		strbuf_addf(out, "%" PRIu64, *OPT_CPTR(o, def, uint64_t));
		break;
	case OPT_SIZE_PCT:
		sp = OPT_CPTR(o, def, struct size_pct);
		if (sp->pct)
			strbuf_addf(out, "%u%%", sp->pct);
		else
			strbuf_addf(out, "%" PRIu64, sp->bytes);
		break;
	case OPT_SIZE_DIR:
		fmt_dirs(def, fmt_size_dir, OPT_CPTR(o, def, uint64_t), out);
		break;
	case OPT_RANGE:
		fmt_range(OPT_CPTR(o, def, struct bs_range), out);
		break;
	case OPT_RANGE_DIR:
		fmt_dirs(def, fmt_range_dir,
			 OPT_CPTR(o, def, struct bs_range), out);
		break;
	case OPT_TIME:
		opt_format_time(*OPT_CPTR(o, def, uint64_t), out);
		break;
	case OPT_ENUM:
		s = opt_enum_name(def->enums, *OPT_CPTR(o, def, int));
		if (s)
			strbuf_addstr(out, s);
		else
			strbuf_addf(out, "%d", *OPT_CPTR(o, def, int));
		break;
	case OPT_CALLBACK:
		if (def->format)
			def->format(def, o, out);
		break;
	case OPT_UNSUPPORTED:
	case OPT_TOOL:
		break;
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Option callbacks for random distributions (random_distribution, zoned
 * and zoned_abs), percentage_random and file_service_type: split out of
 * table.c, which lists the rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opt/internal.h"
#include "opt/verify_opts.h"
#include "util/cpu.h"
#include "util/num.h"

#define OFF(field) offsetof(struct job_options, field)
const struct opt_enum opt_rdist_enums[] = {
	{ "random", RDIST_RANDOM, "uniform" },
	{ "zipf", RDIST_ZIPF, "zipf:theta (theta > 0, not 1; default 1.1)" },
	{ "pareto", RDIST_PARETO, "pareto:h (0 < h < 1; default 0.2)" },
	{ "normal", RDIST_NORMAL,
	  "normal:sigma, sigma in percent of the range (0 <= sigma < 100)" },
	{ "zoned", RDIST_ZONED, "zoned:access/range:... with both in "
	  "percent, e.g. zoned:60/10:30/20:10/ (a blank range: the rest)" },
	{ "zoned_abs", RDIST_ZONED_ABS, "zoned_abs:access/size:..., e.g. "
	  "zoned_abs:60/20g:40/ (a blank size: the rest)" },
	{ NULL, 0, NULL },
};

static int parse_float(const char *s, double *out, struct strbuf *err)
{
	if (num_parse_double(s, out)) {
		strbuf_addf(err, "invalid number '%s'", s);
		return -1;
	}
	return 0;
}

/* random_distribution=zoned and zoned_abs: one zone list per direction */

struct rzone_ctx {
	struct job_options *o;
	bool abs;
	const char *name;
};

/* Strips a repeated "zoned:" / "zoned_abs:" (fio's per-part form). */
static const char *rzone_strip(const char *part, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(part, name, n) && part[n] == ':')
		return part + n + 1;
	return part;
}

static int rzone_parse_range(struct rzone_ctx *c, const char *s,
			     struct rdist_zone *z, struct strbuf *err)
{
	uint64_t v;

	if (!*s) {
		z->rest = true;
		return 0;
	}
	if (c->abs)
		return opt_parse_size_msg(s, c->o->kb_base, &z->size, err);
	if (num_parse_u64(s, &v) || v > 100) {
		strbuf_addf(err, "invalid range percentage '%s' (0..100)", s);
		return -1;
	}
	z->size = v;
	return 0;
}

/* One direction: "60/10:30/20:10/" -- access/range, blank range = rest. */
/* What rzone_one() sums over a list's zones. */
struct rzone_sums {
	unsigned int n, nblank, access;
	uint64_t range;
};

/* The "access/range" entries of list (cut in place) into tmp. */
static int rzone_parse_list(struct rzone_ctx *c, char *list,
			    struct rdist_zone *tmp, struct rzone_sums *sum,
			    struct strbuf *err)
{
	char *p, *next;

	for (p = list; p; p = next) {
		struct rdist_zone *z = &tmp[sum->n];
		char *slash;
		uint64_t v;

		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		if (!*p)
			continue;
		if (sum->n == RDIST_ZONES_MAX) {
			strbuf_addf(err, "more than %d zones", RDIST_ZONES_MAX);
			return -1;
		}
		slash = strchr(p, '/');
		if (!slash) {
			strbuf_addf(err, "zone '%s' is not access/range", p);
			return -1;
		}
		*slash++ = '\0';
		if (num_parse_u64(p, &v) || v > 100) {
			strbuf_addf(err, "invalid access percentage '%s' "
				    "(0..100)", p);
			return -1;
		}
		z->access = (uint8_t)v;
		sum->access += (unsigned int)v;
		if (rzone_parse_range(c, slash, z, err))
			return -1;
		if (z->rest)
			sum->nblank++;
		else
			sum->range += z->size;
		sum->n++;
	}
	return 0;
}

/*
 * The sums checked, and the zones without a range given what is left
 * of 100% (zoned; zoned_abs has no percentages to share).
 */
static int rzone_settle(const struct rzone_ctx *c, const char *part,
			struct rdist_zone *tmp, struct rzone_sums *sum,
			struct strbuf *err)
{
	unsigned int i;

	if (!sum->n) {
		strbuf_addf(err, "no zones in '%s'", part);
		return -1;
	}
	if (sum->access != 100) {
		strbuf_addf(err, "access percentages in '%s' add up to %u, "
			    "not 100", part, sum->access);
		return -1;
	}
	if (!c->abs && sum->range > 100) {
		strbuf_addf(err, "range percentages in '%s' add up to %" PRIu64
			    ", more than 100", part, sum->range);
		return -1;
	}
	for (i = 0; i < sum->n && !c->abs; i++) {
		uint64_t left = 100 - sum->range;

		if (!tmp[i].rest)
			continue;
		/* as bssplit: the rounding remainder goes to the first */
		tmp[i].size = left / sum->nblank + (left % sum->nblank ? 1 : 0);
		tmp[i].rest = false;
		sum->range += tmp[i].size;
		sum->nblank--;
	}
	for (i = 0; i < sum->n; i++) {
		if (tmp[i].access && !tmp[i].rest && !tmp[i].size) {
			strbuf_addf(err, "zone %u of '%s' gets %u%% of the "
				    "accesses but has no range", i + 1, part,
				    tmp[i].access);
			return -1;
		}
	}
	return 0;
}

static int rzone_one(const char *part, unsigned int d, void *vctx,
		     struct strbuf *err)
{
	struct rzone_ctx *c = vctx;
	struct job_options *o = c->o;
	struct rdist_zone *tmp = xcalloc(RDIST_ZONES_MAX, sizeof(*tmp));
	char *copy = xstrdup(rzone_strip(part, c->name));
	struct rzone_sums sum = { 0, 0, 0, 0 };
	int ret = -1;

	if (!rzone_parse_list(c, copy, tmp, &sum, err) &&
	    !rzone_settle(c, part, tmp, &sum, err)) {
		memcpy(o->rdist_zones[d], tmp, sum.n * sizeof(*tmp));
		o->nr_rdist_zones[d] = sum.n;
		ret = 0;
	}
	free(tmp);
	free(copy);
	return ret;
}

static void rzone_fmt_one(unsigned int d, const void *vo, struct strbuf *out)
{
	const struct job_options *o = vo;
	unsigned int i;

	for (i = 0; i < o->nr_rdist_zones[d]; i++) {
		const struct rdist_zone *z = &o->rdist_zones[d][i];

		strbuf_addf(out, "%s%u/", i ? ":" : "", z->access);
		if (!z->rest)
			strbuf_addf(out, "%" PRIu64, z->size);
	}
}

int opt_check_dist_param(char kind, double p, struct strbuf *err)
{
	if (kind == 'z' && (p <= 0 || p == 1.0)) {
		strbuf_addf(err, "zipf theta must be above 0 and not 1, "
			    "not %g", p);
		return -1;
	}
	if (kind == 'p' && (p <= 0 || p >= 1.0)) {
		strbuf_addf(err, "pareto h must be between 0 and 1, not %g", p);
		return -1;
	}
	if (kind == 'n' && (p < 0 || p >= 100.0)) {
		strbuf_addf(err, "normal sigma must be in 0..100 (exclusive), "
			    "not %g", p);
		return -1;
	}
	return 0;
}

/*
 * The centre after zipf:theta, pareto:h or normal:dev (fio's "base" of
 * the distribution): a float in [0, 1] mapped onto the region.
 */
static int rdist_center(int v, const char *s, double *out,
			struct strbuf *err)
{
	if (v != RDIST_ZIPF && v != RDIST_PARETO && v != RDIST_NORMAL) {
		strbuf_addf(err, "a centre ('%s') is for zipf, pareto and "
			    "normal only", s);
		return -1;
	}
	if (num_parse_double(s, out) || !(*out >= 0.0 && *out <= 1.0)) {
		strbuf_addf(err, "invalid centre '%s' (a number from 0 to 1)",
			    s);
		return -1;
	}
	return 0;
}

int opt_rdist_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err)
{
	const char *colon = strchr(val, ':');
	char *name = colon ? xstrndup(val, (size_t)(colon - val)) : xstrdup(val);
	double p = 0, center = -1;
	int v;

	if (!strcmp(name, "zoned") || !strcmp(name, "zoned_abs")) {
		struct rzone_ctx c = { o, name[5] == '_', name };

		if (!colon || !colon[1]) {
			strbuf_addf(err, "distribution '%s' needs its zones, "
				    "e.g. %s:60/10:40/", name, name);
			goto fail;
		}
		memset(o->nr_rdist_zones, 0, sizeof(o->nr_rdist_zones));
		if (opt_parse_dirs(colon + 1, rzone_one, &c, err))
			goto fail;
		/* "zoned:," names no zone in any direction */
		if (!o->nr_rdist_zones[DDIR_READ] &&
		    !o->nr_rdist_zones[DDIR_WRITE] &&
		    !o->nr_rdist_zones[DDIR_TRIM]) {
			strbuf_addf(err, "distribution '%s' needs its zones, "
				    "e.g. %s:60/10:40/", name, name);
			goto fail;
		}
		o->random_distribution = c.abs ? RDIST_ZONED_ABS : RDIST_ZONED;
		o->rdist_param = 0;
		o->rdist_centred = false;
		free(name);
		return 0;
	}
	if (strchr(val, ',')) {
		strbuf_addstr(err, "per-direction distributions are not "
			      "supported yet (except zoned and zoned_abs)");
		goto fail;
	}
	if (opt_enum_lookup(opt_rdist_enums, name, &v)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", name);
		opt_enum_list(opt_rdist_enums, err);
		strbuf_addch(err, ')');
		goto fail;
	}
	/* fio's defaults when no parameter is given */
	if (v == RDIST_ZIPF)
		p = 1.1;
	else if (v == RDIST_PARETO)
		p = 0.2;
	if (colon && colon[1]) {
		const char *c2 = strchr(colon + 1, ':');
		char *num;
		int ret;

		num = c2 ? xstrndup(colon + 1, (size_t)(c2 - colon - 1)) :
			   xstrdup(colon + 1);
		ret = parse_float(num, &p, err);
		free(num);
		if (ret || (c2 && rdist_center(v, c2 + 1, &center, err)))
			goto fail;
	}
	if (opt_check_dist_param(v == RDIST_ZIPF ? 'z' :
				 v == RDIST_PARETO ? 'p' :
				 v == RDIST_NORMAL ? 'n' : 0, p, err))
		goto fail;
	if (v == RDIST_RANDOM)
		p = 0;
	free(name);
	o->random_distribution = (enum random_dist)v;
	o->rdist_param = p;
	o->rdist_centred = center >= 0;
	o->rdist_center = center >= 0 ? center : 0;
	memset(o->nr_rdist_zones, 0, sizeof(o->nr_rdist_zones));
	return 0;
fail:
	free(name);
	return -1;
}

/* ":v", the shortest of %.15g..%.17g that reads back exactly */
static void add_float(struct strbuf *out, double v)
{
	char buf[64];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	strbuf_addf(out, ":%s", buf);
}

void opt_rdist_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out)
{
	strbuf_addstr(out, opt_enum_name(opt_rdist_enums,
					 (int)o->random_distribution));
	if (o->random_distribution == RDIST_ZONED ||
	    o->random_distribution == RDIST_ZONED_ABS) {
		strbuf_addch(out, ':');
		opt_format_dirs(rzone_fmt_one, o, out);
	} else if (o->random_distribution != RDIST_RANDOM) {
		add_float(out, o->rdist_param);
		if (o->rdist_centred)
			add_float(out, o->rdist_center);
	}
}

/* --- offsets and file service ---------------------------------------- */

/* percentage_random=r[,w[,t]] */
static int perc_rand_one(const char *part, unsigned int d, void *vctx,
			 struct strbuf *err)
{
	struct job_options *o = vctx;
	uint64_t v;

	if (num_parse_u64(part, &v) || v > 100) {
		strbuf_addf(err, "invalid percentage '%s' (0..100)", part);
		return -1;
	}
	o->perc_rand[d] = (unsigned int)v;
	return 0;
}

int opt_perc_rand_cb(const struct opt_def *def, struct job_options *o,
			const char *val, struct strbuf *err)
{
	return opt_parse_dirs(val, perc_rand_one, o, err);
}

static void perc_rand_fmt_one(unsigned int d, const void *vo,
			      struct strbuf *out)
{
	strbuf_addf(out, "%u", ((const struct job_options *)vo)->perc_rand[d]);
}

void opt_perc_rand_fmt(const struct opt_def *def,
			  const struct job_options *o, struct strbuf *out)
{
	opt_format_dirs(perc_rand_fmt_one, o, out);
}

const struct opt_enum opt_fsrv_enums[] = {
	{ "roundrobin", FSRV_ROUNDROBIN,
	  "one file after the other, switching every N I/Os (default 1)" },
	{ "sequential", FSRV_SEQUENTIAL,
	  "finish a file before moving to the next" },
	{ "random", FSRV_RANDOM,
	  "a file picked at random every N I/Os (default 1)" },
	{ "zipf", FSRV_ZIPF, "zipf:theta over the files, a hot one drawn at "
	  "random; files start over when done (default 1.1)" },
	{ "pareto", FSRV_PARETO, "pareto:h over the files, a hot one drawn "
	  "at random; files start over when done (default 0.2)" },
	{ "normal", FSRV_NORMAL, "normal:dev, a bell over the files centred "
	  "on the middle, dev percent wider; files start over when done" },
	{ "gauss", FSRV_NORMAL, "same as normal" },
	{ NULL, 0, NULL },
};

/* file_service_type=name[:N] -- N I/Os per switch, or a skew parameter */
int opt_fsrv_cb(const struct opt_def *def, struct job_options *o,
		   const char *val, struct strbuf *err)
{
	const char *colon = strchr(val, ':');
	char *name = colon ? xstrndup(val, (size_t)(colon - val)) :
			     xstrdup(val);
	const char *arg = colon && colon[1] ? colon + 1 : NULL;
	double p = 0;
	uint64_t nr = 1;
	int v, ret = -1;

	if (opt_enum_lookup(opt_fsrv_enums, name, &v)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", name);
		opt_enum_list(opt_fsrv_enums, err);
		strbuf_addch(err, ')');
		goto out;
	}
	if (v == FSRV_ZIPF)
		p = 1.1;
	else if (v == FSRV_PARETO)
		p = 0.2;
	if (v <= FSRV_RANDOM && arg) {
		if (num_parse_u64(arg, &nr) || !nr || nr > UINT32_MAX) {
			strbuf_addf(err, "invalid switch count '%s' (1 or "
				    "more I/Os)", arg);
			goto out;
		}
	} else if (arg && parse_float(arg, &p, err)) {
		goto out;
	}
	if (opt_check_dist_param(v == FSRV_ZIPF ? 'z' :
				 v == FSRV_PARETO ? 'p' :
				 v == FSRV_NORMAL ? 'n' : 0, p, err))
		goto out;
	o->file_service_type = (enum file_service)v;
	o->file_service_nr = (unsigned int)nr;
	o->file_service_param = p;
	ret = 0;
out:
	free(name);
	return ret;
}

/* The shortest of %.15g..%.17g that reads back exactly. */
static void add_exact_double(struct strbuf *out, double v)
{
	char buf[64];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	strbuf_addstr(out, buf);
}

void opt_fsrv_fmt(const struct opt_def *def, const struct job_options *o,
		     struct strbuf *out)
{
	strbuf_addstr(out, opt_enum_name(opt_fsrv_enums,
					 (int)o->file_service_type));
	if (o->file_service_type <= FSRV_RANDOM) {
		if (o->file_service_nr > 1)
			strbuf_addf(out, ":%u", o->file_service_nr);
	} else {
		strbuf_addch(out, ':');
		add_exact_double(out, o->file_service_param);
	}
}


/* SPDX-License-Identifier: MIT */
/*
 * I/O priority options: parsing, the plan rule and struct prio_plan (see
 * prio_opts.h). fio reads cmdprio_bssplit when the engine starts and
 * clamps what is out of range; iolite reads it with the other options,
 * so a mistake is an error naming file:line before anything runs.
 */
#include "opt/prio_opts.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"
#include "util/log.h"
#include "util/num.h"

/* --- cmdprio_percentage, cmdprio_class, cmdprio: r[,w[,t]] ---------------- */

struct dir_uint_ctx {
	const struct opt_def *def;
	struct job_options *o;
	unsigned int *v;
};

static int dir_uint_one(const char *part, unsigned int d, void *vctx,
			struct strbuf *err)
{
	struct dir_uint_ctx *c = vctx;
	uint64_t v;

	if (opt_parse_size_msg(part, c->o->kb_base, &v, err) ||
	    opt_check_range(c->def, v, UINT_MAX, err))
		return -1;
	c->v[d] = (unsigned int)v;
	return 0;
}

int prio_cmdprio_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err)
{
	struct dir_uint_ctx c = { def, o, OPT_PTR(o, def, unsigned int) };

	return opt_parse_dirs(val, dir_uint_one, &c, err);
}

static void dir_uint_fmt_one(unsigned int d, const void *v, struct strbuf *out)
{
	strbuf_addf(out, "%u", ((const unsigned int *)v)[d]);
}

void prio_cmdprio_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out)
{
	opt_format_dirs(dir_uint_fmt_one, OPT_CPTR(o, def, unsigned int), out);
}

/* --- cmdprio_bssplit ------------------------------------------------------ */

/* One "bs/perc[/class/level[/hint]]" entry (fio 3.42's forms). */
static int split_entry(char *s, unsigned int kb_base, struct cmdprio_split *e,
		       struct strbuf *err)
{
	static const char *const what[] = {
		"block size", "percentage", "class", "level", "hint",
	};
	static const uint64_t max[] = { 0, 100, 3, 7, 1023 };
	char *field[6];
	uint64_t v[5] = { 0, 0, 0, 0, 0 };
	unsigned int n = 0, i;

	for (;;) {
		char *slash = strchr(s, '/');

		if (n == 6)
			break;
		field[n++] = s;
		if (!slash)
			break;
		*slash = '\0';
		s = slash + 1;
	}
	/* "4k/" is fio's "4k": no share */
	if (n == 2 && !*field[1])
		n = 1;
	if (n == 3 || n == 6) {
		strbuf_addf(err, n == 3 ? "entry '%s/%s/%s': a class needs a "
			    "level (bs/percentage/class/level[/hint])" :
			    "entry '%s/%s/%s/...': more than five fields "
			    "(bs/percentage/class/level/hint)",
			    field[0], field[1], field[2]);
		return -1;
	}
	for (i = 0; i < n; i++) {
		int bad = i ? num_parse_u64(field[i], &v[i]) :
			  num_parse_size(field[i], kb_base, &v[i]);

		if (bad || (i && v[i] > max[i])) {
			strbuf_addf(err, "invalid %s '%s'", what[i], field[i]);
			if (i)
				strbuf_addf(err, " (0..%" PRIu64 ")", max[i]);
			return -1;
		}
	}
	if (!v[0]) {
		strbuf_addstr(err, "block size 0 is not allowed");
		return -1;
	}
	e->bs = v[0];
	e->perc = (uint8_t)v[1];
	e->prio = n >= 4 ? prio_value_hint((unsigned int)v[2],
					   (unsigned int)v[4],
					   (unsigned int)v[3]) : -1;
	return 0;
}

struct split_ctx {
	struct job_options *o;
};

/* One direction: entries by block size, given order kept within a size. */
static int split_one(const char *part, unsigned int d, void *vctx,
		     struct strbuf *err)
{
	struct job_options *o = ((struct split_ctx *)vctx)->o;
	struct cmdprio_split tmp[BSSPLIT_MAX];
	char *copy = xstrdup(part), *p = copy, *next;
	unsigned int n = 0, i, j, sum;
	int ret = -1;

	for (; p; p = next) {
		struct cmdprio_split e;

		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		if (!*p)
			continue;
		if (split_entry(p, o->kb_base, &e, err))
			goto out;
		if (!e.perc)	/* as fio: a 0% entry changes nothing */
			continue;
		if (n == BSSPLIT_MAX) {
			strbuf_addf(err, "more than %d entries", BSSPLIT_MAX);
			goto out;
		}
		/* insertion: stable, so equal sizes keep their order */
		for (i = n; i && tmp[i - 1].bs > e.bs; i--)
			tmp[i] = tmp[i - 1];
		tmp[i] = e;
		n++;
	}
	for (i = 0; i < n; i = j) {
		for (j = i, sum = 0; j < n && tmp[j].bs == tmp[i].bs; j++)
			sum += tmp[j].perc;
		if (sum > 100) {
			strbuf_addf(err, "the percentages for block size %"
				    PRIu64 " add up to %u, more than 100",
				    tmp[i].bs, sum);
			goto out;
		}
	}
	memcpy(o->cmdprio_bssplit[d], tmp, n * sizeof(tmp[0]));
	o->nr_cmdprio_bssplit[d] = n;
	ret = 0;
out:
	free(copy);
	return ret;
}

int prio_bssplit_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err)
{
	struct split_ctx c = { o };
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		o->nr_cmdprio_bssplit[d] = 0;
	return opt_parse_dirs(val, split_one, &c, err);
}

static void split_fmt_one(unsigned int d, const void *vo, struct strbuf *out)
{
	const struct job_options *o = vo;
	unsigned int i;

	for (i = 0; i < o->nr_cmdprio_bssplit[d]; i++) {
		const struct cmdprio_split *e = &o->cmdprio_bssplit[d][i];

		strbuf_addf(out, "%s%" PRIu64 "/%u", i ? ":" : "", e->bs,
			    e->perc);
		if (e->prio >= 0)
			strbuf_addf(out, "/%u/%u",
				    prio_class_of((uint16_t)e->prio),
				    prio_level_of((uint16_t)e->prio));
		if (e->prio >= 0 && prio_hint_of((uint16_t)e->prio))
			strbuf_addf(out, "/%u",
				    prio_hint_of((uint16_t)e->prio));
	}
}

void prio_bssplit_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out)
{
	opt_format_dirs(split_fmt_one, o, out);
}

/* --- the plan ------------------------------------------------------------- */

/* The statistics' index of value v in direction pd, added if new. */
static uint8_t val_index(struct prio_dir *pd, uint16_t v)
{
	unsigned int i;

	for (i = 0; i < pd->nr_vals; i++)
		if (pd->vals[i] == v)
			return (uint8_t)i;
	if (pd->nr_vals == PRIO_VALS_MAX)
		BUG("more than %d priority values", PRIO_VALS_MAX);
	pd->vals[pd->nr_vals] = v;
	return (uint8_t)pd->nr_vals++;
}

static void dir_bssplit(struct prio_dir *pd, const struct job_options *o,
			unsigned int d, uint16_t implicit)
{
	const struct cmdprio_split *e = o->cmdprio_bssplit[d];
	unsigned int n = o->nr_cmdprio_bssplit[d], i;

	pd->mode = PRIO_MODE_BSSPLIT;
	for (i = 0; i < n; i++) {
		struct prio_choice *c = &pd->choice[i];
		struct prio_bs *b = &pd->bs[pd->nr_bs ? pd->nr_bs - 1 : 0];

		if (!pd->nr_bs || b->bs != e[i].bs) {
			b = &pd->bs[pd->nr_bs++];
			b->bs = e[i].bs;
			b->total = 0;
			b->first = (uint8_t)i;
			b->nr = 0;
		}
		b->total = (uint8_t)(b->total + e[i].perc);
		b->nr++;
		c->upto = b->total;
		c->ioprio = e[i].prio >= 0 ? (uint16_t)e[i].prio : implicit;
		c->idx = val_index(pd, c->ioprio);
	}
}

static void dir_plan(struct prio_plan *pp, const struct job_plan *p,
		     unsigned int d)
{
	const struct job_options *o = &p->o;
	struct prio_dir *pd = &pp->dir[d];
	/* as fio: cmdprio_class not given is the real-time class */
	uint16_t implicit = prio_value_hint(o->cmdprio_class[d] ?
					    o->cmdprio_class[d] : PRIO_CLASS_RT,
					    o->cmdprio_hint[d], o->cmdprio[d]);

	pd->nr_vals = 1;
	pd->vals[0] = pp->def;
	if (!ddir_used(p, (enum ddir)d))
		return;
	if (o->cmdprio_percentage[d]) {
		pd->mode = PRIO_MODE_PERC;
		pd->perc.upto = (uint8_t)o->cmdprio_percentage[d];
		pd->perc.ioprio = implicit;
		pd->perc.idx = val_index(pd, implicit);
	} else if (o->nr_cmdprio_bssplit[d]) {
		dir_bssplit(pd, o, d, implicit);
	}
	if (pd->mode != PRIO_MODE_NONE)
		pp->cmdprio = true;
}

int prio_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	bool perc = false, split = false;
	struct prio_plan *pp;
	unsigned int d;

	p->prio = NULL;
	for (d = 0; d < 2; d++) {
		perc |= o->cmdprio_percentage[d] != 0;
		split |= o->nr_cmdprio_bssplit[d] != 0;
	}
	if (perc && split)
		return plan_fail(p, err, "options 'cmdprio_percentage' and "
			    "'cmdprio_bssplit' are mutually exclusive");

	pp = xcalloc(1, sizeof(*pp));
	pp->thread = opt_is_set(o, "prio") || opt_is_set(o, "prioclass") ||
		     opt_is_set(o, "priohint");
	if (pp->thread)
		pp->def = prio_value_hint(o->prioclass, o->priohint, o->prio);
	for (d = 0; d < 2; d++)
		dir_plan(pp, p, d);
	if (!pp->thread && !pp->cmdprio) {
		free(pp);
		return 0;
	}
	p->prio = pp;
	return 0;
}

void prio_plan_free(struct prio_plan *pp)
{
	free(pp);
}

bool prio_plan_uses_rt(const struct job_plan *p, const char **rt_opt)
{
	const struct prio_plan *pp = p->prio;
	unsigned int d, i;

	if (!pp)
		return false;
	if (pp->thread && prio_class_of(pp->def) == PRIO_CLASS_RT) {
		*rt_opt = "prioclass";
		return true;
	}
	for (d = 0; d < 2; d++) {
		const struct prio_dir *pd = &pp->dir[d];

		for (i = 1; i < pd->nr_vals; i++) {
			if (prio_class_of(pd->vals[i]) != PRIO_CLASS_RT)
				continue;
			*rt_opt = pd->mode == PRIO_MODE_BSSPLIT ?
				  "cmdprio_bssplit" : "cmdprio_percentage";
			return true;
		}
	}
	return false;
}

const char *prio_plan_hint_opt(const struct job_plan *p)
{
	const struct prio_plan *pp = p->prio;
	unsigned int d, i;

	if (!pp)
		return NULL;
	if (pp->thread && prio_hint_of(pp->def))
		return "priohint";
	for (d = 0; d < 2; d++) {
		const struct prio_dir *pd = &pp->dir[d];

		for (i = 1; i < pd->nr_vals; i++)
			if (prio_hint_of(pd->vals[i]))
				return pd->mode == PRIO_MODE_BSSPLIT &&
				       !p->o.cmdprio_hint[d] ?
				       "cmdprio_bssplit" : "cmdprio_hint";
	}
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * Jobs as text (struct job_list), command-line jobs, and turning a job's
 * entries into struct job_options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/job_internal.h"
#include "opt/opt.h"
#include "opt/plan.h"

#define CMDLINE_FILE "<cmdline>"

void job_list_init(struct job_list *jl)
{
	memset(jl, 0, sizeof(*jl));
}

void job_desc_release(struct job_desc *jd)
{
	size_t i;

	for (i = 0; i < jd->nr; i++) {
		free(jd->ents[i].key);
		free(jd->ents[i].val);
		free(jd->ents[i].file);
	}
	free(jd->ents);
	free(jd->name);
	free(jd->file);
	memset(jd, 0, sizeof(*jd));
}

void job_list_release(struct job_list *jl)
{
	size_t i;

	for (i = 0; i < jl->nr; i++)
		job_desc_release(&jl->jobs[i]);
	free(jl->jobs);
	job_desc_release(&jl->global);
	job_list_init(jl);
}

static void entry_init(struct job_entry *e, const char *key, const char *val,
		       const char *file, int line)
{
	e->key = xstrdup(key);
	e->val = val ? xstrdup(val) : NULL;
	e->file = xstrdup(file);
	e->line = line;
}

static struct job_entry *desc_grow(struct job_desc *jd)
{
	if (jd->nr == jd->alloc) {
		jd->alloc = jd->alloc ? 2 * jd->alloc : 16;
		jd->ents = xrealloc(jd->ents, jd->alloc * sizeof(*jd->ents));
	}
	return &jd->ents[jd->nr++];
}

void job_desc_add(struct job_desc *jd, const char *key, const char *val,
		  const char *file, int line)
{
	entry_init(desc_grow(jd), key, val, file, line);
}

struct job_desc *job_list_new_job(struct job_list *jl, const char *name,
				  const struct job_desc *global,
				  const char *file, int line)
{
	struct job_desc *jd;
	size_t i;

	if (jl->nr == jl->alloc) {
		jl->alloc = jl->alloc ? 2 * jl->alloc : 8;
		jl->jobs = xrealloc(jl->jobs, jl->alloc * sizeof(*jl->jobs));
	}
	jd = &jl->jobs[jl->nr++];
	memset(jd, 0, sizeof(*jd));
	jd->name = xstrdup(name);
	jd->file = xstrdup(file);
	jd->line = line;
	for (i = 0; global && i < global->nr; i++) {
		const struct job_entry *e = &global->ents[i];

		job_desc_add(jd, e->key, e->val, e->file, e->line);
	}
	jd->inherited = jd->nr;
	return jd;
}

/*
 * A global option from the command line goes after the command line's
 * earlier ones but before any [global] entries of job files already read,
 * so that the next job file still starts from the command line's part.
 */
static void add_cmdline_global(struct job_list *jl, const char *key,
			       const char *val, int argi)
{
	struct job_desc *g = &jl->global;
	size_t at = jl->cmdline_nr++;

	desc_grow(g);
	memmove(&g->ents[at + 1], &g->ents[at],
		(g->nr - 1 - at) * sizeof(*g->ents));
	entry_init(&g->ents[at], key, val, CMDLINE_FILE, argi);
}

int job_cmdline_add(struct job_list *jl, const char *key, const char *val,
		    int argi, struct strbuf *err)
{
	struct job_desc cmd_global = { 0 };

	if (!strcmp(key, "name")) {
		if (!val || !*val) {
			strbuf_addf(err, "%s:%d: option 'name' requires a value",
				    CMDLINE_FILE, argi);
			return -1;
		}
		if (!strcmp(val, "global")) {
			jl->cmdline_job = 0;
			return 0;
		}
		cmd_global.ents = jl->global.ents;
		cmd_global.nr = jl->cmdline_nr;
		job_list_new_job(jl, val, &cmd_global, CMDLINE_FILE, argi);
		jl->cmdline_job = jl->nr;
		return 0;
	}
	if (jl->cmdline_job)
		job_desc_add(&jl->jobs[jl->cmdline_job - 1], key, val,
			     CMDLINE_FILE, argi);
	else
		add_cmdline_global(jl, key, val, argi);
	return 0;
}

int job_list_check_globals(const struct job_list *jl, struct strbuf *err)
{
	struct job_desc g = jl->global;
	struct job_options o;
	size_t i;
	int ret;

	for (i = 0; i < jl->nr; i++)
		if (jl->jobs[i].inherited >= jl->cmdline_nr)
			return 0;
	g.name = (char *)"global";
	g.nr = jl->cmdline_nr;
	ret = job_build(&g, &o, err);
	job_options_release(&o);
	return ret;
}

static void add_location(struct strbuf *err, const struct job_entry *e)
{
	strbuf_addf(err, "%s:%d: ", e->file, e->line);
}

/* Sets one entry; on error, err gets "file:line: " and the message. */
static int set_entry(struct job_options *o, const struct job_entry *e,
		     unsigned int kb_base, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	int ret;

	ret = opt_set(o, e->key, e->val, kb_base, &msg);
	if (ret) {
		add_location(err, e);
		strbuf_addstr(err, strbuf_str(&msg));
	}
	strbuf_release(&msg);
	return ret ? -1 : 0;
}

/*
 * The kb_base of ents[0 .. nr): the last kb_base entry among them,
 * parsed as any other option (1024 when none).
 */
static int resolve_kb_base(const struct job_entry *ents, size_t nr,
			   unsigned int *kb_base, struct strbuf *err)
{
	const struct opt_def *kb = opt_lookup("kb_base");
	const struct job_entry *last = NULL;
	struct job_options tmp;
	size_t i;
	int ret;

	for (i = 0; kb && i < nr; i++)
		if (opt_lookup(ents[i].key) == kb)
			last = &ents[i];
	*kb_base = 1024;
	if (!last)
		return 0;
	memset(&tmp, 0, sizeof(tmp));
	opt_defaults(&tmp);
	ret = set_entry(&tmp, last, 1024, err);
	if (!ret)
		*kb_base = tmp.kb_base;
	job_options_release(&tmp);
	return ret;
}

/*
 * [global]'s entries are in (o->ioengine is [global]'s): as fio, an
 * engine's own option there must be one of [global]'s engine, and it
 * then goes to the jobs that keep that engine only (opt_set_by_job()).
 */
static int check_inherited(const struct job_desc *jd, struct job_options *o,
			   struct strbuf *err)
{
	size_t i;

	opt_mark_inherited(o);
	for (i = 0; i < jd->inherited; i++) {
		const struct opt_def *def = opt_lookup(jd->ents[i].key);
		const char *list = def ? opt_engine_owners(def->name,
							   o->ioengine) : NULL;

		if (!list)
			continue;
		add_location(err, &jd->ents[i]);
		strbuf_addf(err, "option '%s' is not valid with ioengine '%s' "
			    "(only %s)", jd->ents[i].key,
			    o->ioengine ? o->ioengine : "psync", list);
		return -1;
	}
	return 0;
}

static const struct job_entry *entry_of(const struct job_desc *jd,
					const char *name, size_t len);

/*
 * filename=a:b:c and nrfiles=N: fio counts the list's names as it reads
 * them and nrfiles= sets the count again, so the one read last wins: on
 * the command line the later one, in a job file the later section's (fio
 * reads a section's options in its own order, nrfiles= first: there the
 * list wins). o->nrfiles_cuts says nrfiles= keeps the list's first names.
 */
static void nrfiles_order(const struct job_desc *jd, struct job_options *o)
{
	const struct job_entry *f = entry_of(jd, "filename", 8);
	const struct job_entry *n = entry_of(jd, "nrfiles", 7);
	size_t fi, ni;

	o->nrfiles_cuts = false;
	if (!f || !n || n < f)
		return;
	fi = (size_t)(f - jd->ents);
	ni = (size_t)(n - jd->ents);
	o->nrfiles_cuts = !strcmp(n->file, "<cmdline>") ||
			  strcmp(f->file, n->file) ||
			  (fi < jd->inherited && ni >= jd->inherited);
}

/*
 * As fio, [global]'s entries are read with [global]'s kb_base, and the
 * job's own with the job's (its own kb_base entry, else the one it
 * inherits); within each part, kb_base applies wherever it stands.
 */
int job_build(const struct job_desc *jd, struct job_options *o,
	      struct strbuf *err)
{
	unsigned int kb_global, kb_job;
	size_t i;

	memset(o, 0, sizeof(*o));
	opt_defaults(o);
	free(o->name);
	o->name = xstrdup(jd->name);
	if (resolve_kb_base(jd->ents, jd->inherited, &kb_global, err) ||
	    resolve_kb_base(jd->ents, jd->nr, &kb_job, err))
		return -1;
	for (i = 0; i < jd->nr; i++) {
		if (i == jd->inherited && check_inherited(jd, o, err))
			return -1;
		if (set_entry(o, &jd->ents[i],
			      i < jd->inherited ? kb_global : kb_job, err))
			return -1;
	}
	if (jd->nr == jd->inherited && check_inherited(jd, o, err))
		return -1;
	nrfiles_order(jd, o);
	return 0;
}

/* The entry that set option NAME (or an alias of it) last, or NULL. */
static const struct job_entry *entry_of(const struct job_desc *jd,
					const char *name, size_t len)
{
	const struct opt_def *want, *def;
	char *key = xstrndup(name, len);
	size_t i;

	want = opt_lookup(key);
	free(key);
	for (i = jd->nr; want && i-- > 0;) {
		def = opt_lookup(jd->ents[i].key);
		if (def && (def == want || !strcmp(def->name, want->name)))
			return &jd->ents[i];
	}
	return NULL;
}

/*
 * Moves "FILE:LINE: option 'NAME': ..." from jd's section line to the
 * line that set NAME. Returns false (out untouched) when msg is not
 * that shape or nothing in jd set NAME.
 */
static bool relocate(const struct job_desc *jd, const char *msg,
		     struct strbuf *out)
{
	struct strbuf at = STRBUF_INIT;
	const struct job_entry *e = NULL;
	const char *rest = msg, *name;

	strbuf_addf(&at, "%s:%d: ", jd->file, jd->line);
	if (!strncmp(rest, strbuf_str(&at), at.len)) {
		rest += at.len;
		if (!strncmp(rest, "option '", 8)) {
			name = rest + 8;
			e = entry_of(jd, name, strcspn(name, "'"));
		}
	}
	strbuf_release(&at);
	if (e)
		strbuf_addf(out, "%s:%d: %s", e->file, e->line, rest);
	return e != NULL;
}

/* The job's name: its section's, unless a name= entry says otherwise. */
static const char *name_of(const struct job_desc *jd)
{
	const struct job_entry *e = entry_of(jd, "name", 4);

	return e && e->val ? e->val : jd->name;
}

int job_list_check_wait_for(const struct job_list *jl, struct strbuf *err)
{
	size_t i, k;

	for (i = 0; i < jl->nr; i++) {
		const struct job_entry *e = entry_of(&jl->jobs[i], "wait_for",
						     8);
		const char *w = e ? e->val : NULL;

		if (!w || !*w)
			continue;
		add_location(err, e);
		if (!strcmp(w, name_of(&jl->jobs[i]))) {
			strbuf_addf(err, "option 'wait_for': job '%s' cannot "
				    "wait for itself", w);
			return -1;
		}
		for (k = 0; k < i && strcmp(name_of(&jl->jobs[k]), w); k++)
			;
		if (k < i) {
			strbuf_reset(err);
			continue;
		}
		for (k = i + 1; k < jl->nr && strcmp(name_of(&jl->jobs[k]), w);
		     k++)
			;
		if (k < jl->nr)
			strbuf_addf(err, "option 'wait_for': job '%s' comes "
				    "after job '%s': wait_for names an earlier "
				    "job (jobs waiting for later ones could "
				    "wait for each other for ever)", w,
				    name_of(&jl->jobs[i]));
		else
			strbuf_addf(err, "option 'wait_for': no job '%s' "
				    "(wait_for names an earlier job)", w);
		return -1;
	}
	return 0;
}

int job_plan_build(struct job_plan *p, const struct job_options *o,
		   const struct job_desc *jd, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	int ret;

	/* plan_build() writes "FILE:LINE: " of the section first */
	ret = plan_build(p, o, jd->file, jd->line, &msg);
	if (ret && !relocate(jd, strbuf_str(&msg), err))
		strbuf_addstr(err, strbuf_str(&msg));
	strbuf_release(&msg);
	return ret;
}

void job_list_relocate(const struct job_list *jl, struct strbuf *msg)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < jl->nr; i++)
		if (relocate(&jl->jobs[i], strbuf_str(msg), &out)) {
			strbuf_reset(msg);
			strbuf_addstr(msg, strbuf_str(&out));
			break;
		}
	strbuf_release(&out);
}

int job_list_dump(const struct job_list *jl, struct strbuf *out,
		  struct strbuf *err)
{
	size_t i;

	for (i = 0; i < jl->nr; i++) {
		struct job_options o;
		int ret;

		ret = job_build(&jl->jobs[i], &o, err);
		if (!ret) {
			if (i)
				strbuf_addch(out, '\n');
			strbuf_addf(out, "[%s]\n", jl->jobs[i].name);
			opt_dump(&o, out);
		}
		job_options_release(&o);
		if (ret)
			return -1;
	}
	return 0;
}

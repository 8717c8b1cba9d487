/* SPDX-License-Identifier: MIT */
/*
 * The run's plans from its job list (run/plans.h): each description
 * built and checked, numjobs clones expanded, and the run's clock
 * chosen from what the plans ask.
 */
#include "run/plans.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "machine/clock.h"
#include "opt/opt.h"
#include "opt/steady_opts.h"
#include "run/runner.h"
#include "util/log.h"
#include "workload/iolog.h"

struct plan_set {
	struct job_plan *plans;
	unsigned int n, alloc;
};

static void set_free(struct plan_set *ps)
{
	unsigned int i;

	for (i = 0; i < ps->n; i++)
		plan_release(&ps->plans[i]);
	free(ps->plans);
	ps->plans = NULL;
}

/*
 * The job's engine, its client library loaded (engine_load: a missing
 * one is refused now, before anything is made), or an error at the line
 * that names it.
 */
static int find_engine(const struct job_list *jl, const struct job_desc *jd,
		       const struct job_options *o, struct strbuf *err)
{
	const struct engine_ops *ops = engine_find(o->ioengine);
	struct strbuf why = STRBUF_INIT;
	const char *hint = NULL;

	if (ops && !engine_load(ops, &why))
		return 0;
	if (!ops)
		hint = engine_missing_hint(o->ioengine);
	strbuf_addf(err, "%s:%d: option 'ioengine': ", jd->file, jd->line);
	if (ops)
		strbuf_addstr(err, strbuf_str(&why));
	else if (hint)
		strbuf_addstr(err, hint);
	else
		strbuf_addf(err, "unknown engine '%s' (see --enghelp)",
			    o->ioengine);
	strbuf_release(&why);
	job_list_relocate(jl, err);
	return -1;
}

/* What --readonly refuses of a built plan. */
static int check_readonly(const struct job_list *jl,
			  const struct job_desc *jd, const struct job_plan *p,
			  struct strbuf *err)
{
	if (p->runs) {
		strbuf_addf(err, "%s:%d: option '%s': --readonly refuses "
			    "running '%s': a program could change anything",
			    jd->file, jd->line, p->runs_opt, p->runs);
		job_list_relocate(jl, err);
		return -1;
	}
	if (p->writes) {
		strbuf_addf(err, "%s:%d: job '%s' writes, and --readonly "
			    "refuses jobs that write", jd->file, jd->line,
			    p->o.name);
		return -1;
	}
	return 0;
}

/* Clone k of description i (options o), appended to ps. */
static int add_clone(struct plan_set *ps, const struct job_list *jl,
		     size_t i, const struct job_options *o, unsigned int k,
		     unsigned int groupid, bool readonly, struct strbuf *err)
{
	const struct job_desc *jd = &jl->jobs[i];
	struct job_plan *p;

	if (ps->n == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 8;
		ps->plans = xrealloc(ps->plans,
				     ps->alloc * sizeof(*ps->plans));
	}
	p = &ps->plans[ps->n];
	memset(p, 0, sizeof(*p));
	if (job_plan_build(p, o, jd, err))
		return -1;
	ps->n++;
	p->clone = k;
	p->job_index = ps->n - 1;
	plan_draw_startdelay(p);
	p->desc_index = (unsigned int)i;
	p->groupid = groupid;
	/* read_iolog: files, directions and sizes from the log */
	if (iolog_plan(ps->plans, ps->n - 1, err)) {
		job_list_relocate(jl, err);
		return -1;
	}
	return readonly ? check_readonly(jl, jd, p, err) : 0;
}

int plans_build(const struct job_list *jl, unsigned long max_jobs,
		bool readonly, struct job_plan **out, unsigned int *nr,
		struct strbuf *err)
{
	struct plan_set ps = { NULL, 0, 0 };
	unsigned int groupid = 0;
	size_t i;

	for (i = 0; i < jl->nr; i++) {
		const struct job_desc *jd = &jl->jobs[i];
		struct job_options o;
		unsigned int k, clones;
		int ret = 0;

		if (job_build(jd, &o, err)) {
			/* what it set before the error */
			job_options_release(&o);
			goto fail;
		}
		if (ps.n && (o.stonewall || o.new_group))
			groupid++;
		clones = o.numjobs ? o.numjobs : 1;
		if (find_engine(jl, jd, &o, err))
			ret = -1;
		else if (runner_jobs_check(ps.n, clones, max_jobs, err))
			ret = -2;
		for (k = 0; !ret && k < clones; k++)
			ret = add_clone(&ps, jl, i, &o, k, groupid, readonly,
					err);
		job_options_release(&o);
		if (ret == -2) {
			/* runner_jobs_check says what; the job says where */
			struct strbuf msg = STRBUF_INIT;

			strbuf_addf(&msg, "%s:%d: %s", jd->file, jd->line,
				    strbuf_str(err));
			strbuf_reset(err);
			strbuf_addstr(err, strbuf_str(&msg));
			strbuf_release(&msg);
		}
		if (ret)
			goto fail;
	}
	if (steady_plans_check(ps.plans, ps.n, err)) {
		job_list_relocate(jl, err);
		goto fail;
	}
	*out = ps.plans;
	*nr = ps.n;
	return 0;
fail:
	set_free(&ps);
	return -1;
}

int plans_clock_init(const struct job_plan *plans, unsigned int nr,
		     struct strbuf *note)
{
	const struct opt_def *def = opt_lookup("clocksource");
	int source = 0;
	unsigned int i;

	for (i = 0; i < nr && def; i++) {
		if (!plans[i].o.set[opt_index(def)])
			continue;
		if (plans[i].o.clocksource == CLOCK_SRC_CPU)
			source = 2;
		else if (source == 0)
			source = 1;
	}
	return clock_init(source, note);
}

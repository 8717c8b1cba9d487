/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_PRIO_OPTS_H
#define IOLITE_OPT_PRIO_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * I/O priorities, fio's options and semantics:
 *
 *   prio=L, prioclass=C   the job's priority: its thread's
 *                         (ioprio_set(2)), and io_uring's every request
 *   cmdprio_percentage=r[,w]        this share of the reads / writes get
 *                                   the priority of cmdprio_class and
 *                                   cmdprio (io_uring, libaio only)
 *   cmdprio_class=r[,w], cmdprio=r[,w]   that priority (default 1/0:
 *                                   real time, level 0)
 *   cmdprio_bssplit=bs/perc[/class/level]:...[,...]   per block size
 *
 *   priohint=H, cmdprio_hint=r[,w]  fio 3.42's hints (0 none, to 1023),
 *                         in the job's and the cmdprio values
 *
 * A priority value is the kernel's: class << 13 | hint << 3 | level
 * (the hint since Linux 6.10; older kernels refuse a value with one,
 * EINVAL). As fio, class 0
 * is taken as best effort (2) wherever a value is made from a class and
 * a level, and cmdprio_bssplit's class and level are clamped to 3 and 7.
 *
 * This file has the option callbacks (rows in opt/table.c), the plan
 * rule and the derived struct prio_plan (job_plan.prio): what the
 * engines draw from per I/O (engine/cmdprio.c), which priorities the
 * statistics keep apart (one index per distinct value and direction, 0
 * being the job's own), and what the run checks first (proc/prio.c).
 */

#define PRIO_CLASS_SHIFT 13
#define PRIO_CLASS_RT 1
#define PRIO_CLASS_BE 2
#define PRIO_CLASS_IDLE 3

#define PRIO_HINT_SHIFT 3

static inline uint16_t prio_value(unsigned int cls, unsigned int level)
{
	if (!cls)
		cls = PRIO_CLASS_BE;
	return (uint16_t)(cls << PRIO_CLASS_SHIFT | level);
}

static inline uint16_t prio_value_hint(unsigned int cls, unsigned int hint,
				       unsigned int level)
{
	return (uint16_t)(prio_value(cls, level) | hint << PRIO_HINT_SHIFT);
}

static inline unsigned int prio_class_of(uint16_t v)
{
	return v >> PRIO_CLASS_SHIFT;
}

static inline unsigned int prio_level_of(uint16_t v)
{
	return v & ((1u << PRIO_HINT_SHIFT) - 1);
}

static inline unsigned int prio_hint_of(uint16_t v)
{
	return (v & ((1u << PRIO_CLASS_SHIFT) - 1)) >> PRIO_HINT_SHIFT;
}

/*
 * Distinct values a direction can use: the job's own, then one per
 * cmdprio_bssplit entry at most.
 */
#define PRIO_VALS_MAX (BSSPLIT_MAX + 1)

enum prio_mode { PRIO_MODE_NONE, PRIO_MODE_PERC, PRIO_MODE_BSSPLIT };

/* What an I/O may get: below 'upto' of a draw in 0..99, value vals[idx]. */
struct prio_choice {
	uint8_t upto;
	uint8_t idx;
	uint16_t ioprio;
};

/* cmdprio_bssplit's entries of one block size, in the order given. */
struct prio_bs {
	uint64_t bs;
	uint8_t total;		/* percent of I/Os of this size that get one */
	uint8_t first, nr;	/* choice[first .. first + nr) */
};

struct prio_dir {
	enum prio_mode mode;	/* NONE: every I/O has the job's priority */
	struct prio_choice perc;	/* PERC: upto is the percentage */
	unsigned int nr_bs;	/* BSSPLIT: sorted by block size */
	struct prio_bs bs[BSSPLIT_MAX];
	struct prio_choice choice[BSSPLIT_MAX];
	/* the values the statistics keep apart; vals[0] is the job's */
	unsigned int nr_vals;
	uint16_t vals[PRIO_VALS_MAX];
};

struct prio_plan {
	bool thread;		/* prio, prioclass or priohint: set on the
				 * job's thread */
	uint16_t def;		/* the job's priority; 0: the kernel's default */
	bool cmdprio;		/* some direction has per-I/O priorities */
	struct prio_dir dir[2];	/* read, write (trims have none, as fio) */
};

/* opt_cb_fn / opt_fmt_fn of the rows */
int prio_cmdprio_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err);
void prio_cmdprio_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out);
int prio_bssplit_cb(const struct opt_def *def, struct job_options *o,
		    const char *val, struct strbuf *err);
void prio_bssplit_fmt(const struct opt_def *def, const struct job_options *o,
		      struct strbuf *out);

/*
 * The rule of one job (plan_build): the cmdprio options only with
 * io_uring and libaio (fio has them as those engines' options),
 * cmdprio_percentage and cmdprio_bssplit not together, at most 100% per
 * block size. Fills p->prio when the job has priorities (NULL: none);
 * plan_release() frees it with prio_plan_free(). Returns 0 or -1 with
 * "file:line: option 'x': ..." in err.
 */
int prio_plan_check(struct job_plan *p, struct strbuf *err);
void prio_plan_free(struct prio_plan *pp);

/*
 * Whether a direction of the plan has per-I/O priorities, and whether
 * the job uses the real-time class (prioclass=1, or a cmdprio value of a
 * direction it does: the kernel wants CAP_SYS_NICE or CAP_SYS_ADMIN).
 * rt_opt names the option that asks for it (for messages).
 */
static inline bool prio_dir_on(const struct prio_plan *pp, unsigned int d)
{
	return pp && d < 2 && pp->dir[d].mode != PRIO_MODE_NONE;
}
bool prio_plan_uses_rt(const struct job_plan *p, const char **rt_opt);

/*
 * The option that gives the plan's I/O a priority hint (priohint,
 * cmdprio_hint, cmdprio_bssplit), or NULL when none does.
 */
const char *prio_plan_hint_opt(const struct job_plan *p);

#endif

/* SPDX-License-Identifier: MIT */
/* Plan rules for io_submit_mode, log compression, openfiles, time_based. */
#include "opt/misc_opts.h"

#include <stdbool.h>
#include <string.h>

#include "opt/engine_decl.h"
#include "opt/internal.h"
#include "opt/opt.h"
#include "util/num.h"

static int check_offload(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *engine = o->ioengine ? o->ioengine : "";
	const unsigned int offload = ENGINE_F_OFFLOAD_SHARED |
				     ENGINE_F_OFFLOAD_OWN;

	if (o->io_submit_mode != IO_SUBMIT_OFFLOAD)
		return 0;
	if (!(engine_decl_flags(engine) & offload)) {
		struct strbuf list = STRBUF_INIT;

		engine_decl_names(NULL, offload, " or ", &list);
		plan_fail(p, err, "option 'io_submit_mode': offload works "
			  "with ioengine %s, not '%s'", strbuf_str(&list),
			  engine);
		strbuf_release(&list);
		return -1;
	}
	/* one ring per submission thread: one table or poller per ring */
	if ((engine_decl_flags(engine) & ENGINE_F_URING) &&
	    (o->registerfiles || o->sqthread_poll))
		return plan_fail(p, err, "option 'io_submit_mode': offload "
				 "gives each submission thread a ring of its "
				 "own, which rules out '%s'",
				 o->registerfiles ? "registerfiles" :
				 "sqthread_poll");
	return 0;
}

/* fio 3.42's rule: the issue times go with the latency logs' offsets */
static int check_log_issue_time(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (o->log_issue_time && (!o->write_lat_log || !o->log_offset))
		return plan_fail(p, err, "option 'log_issue_time': needs "
				 "write_lat_log and log_offset=1 (as fio "
				 "3.42)");
	return 0;
}

static int check_log_compression(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const char *opt = o->log_compression ? "log_compression" :
			  "log_store_compressed";

	if (!opt_is_set(o, "log_compression") && !o->log_store_compressed)
		return 0;
	if (o->log_window_value == LOGWIN_BOTH)
		return plan_fail(p, err, "option '%s': log_window_value=both "
				 "lines (two values) cannot be compressed "
				 "yet", opt);
	if (o->log_issue_time)
		return plan_fail(p, err, "option '%s': log_issue_time's "
				 "column cannot be compressed yet", opt);
	/* as fio: a chunk of less than 1KiB (0 included) is refused */
	if (opt_is_set(o, "log_compression") && o->log_compression < 1024)
		return plan_fail(p, err, "option 'log_compression': %llu is "
				 "out of range (minimum 1024)",
				 (unsigned long long)o->log_compression);
#ifndef HAVE_ZLIB
	return plan_fail(p, err, "option '%s': this build has no zlib: "
			 "install zlib1g-dev (or zlib-devel) and rebuild", opt);
#else
	if (o->log_store_compressed && o->write_hist_log)
		return plan_fail(p, err, "option 'log_store_compressed': "
				 "histogram logs (write_hist_log) cannot be "
				 "stored compressed");
	(void)opt;
	return 0;
#endif
}

/*
 * Files the job names: nrfiles, or filename's ':'-separated list (its
 * first nrfiles names when nrfiles= came after it, as files.c).
 */
static unsigned int nr_named_files(const struct job_options *o)
{
	unsigned int n = 1;
	const char *s;

	if (!o->filename || !*o->filename)
		return o->nrfiles ? o->nrfiles : 1;
	for (s = o->filename; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == ':')
			n++;
	}
	return o->nrfiles_cuts && o->nrfiles < n ? o->nrfiles : n;
}

static int check_openfiles(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (!o->openfiles || o->openfiles >= nr_named_files(o))
		return 0;
	if (o->registerfiles &&
	    (engine_decl_flags(o->ioengine) & ENGINE_F_URING))
		return plan_fail(p, err, "option 'openfiles': %u of %u files "
				 "open at once cannot be used with "
				 "registerfiles (registered once at start)",
				 o->openfiles, nr_named_files(o));
	return 0;
}

/*
 * time_based repeats the workload until the runtime ends: without a
 * runtime nothing would end the job (fio says so too, and drops
 * time_based; iolite refuses rather than ignore an option). The engines
 * without I/O set it themselves, so only the user's is checked.
 */
static int check_time_based(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (!o->time_based || o->runtime_us || !opt_is_set(o, "time_based"))
		return 0;
	return plan_fail(p, err, "option 'time_based': needs a runtime "
			 "(runtime=): without one the job would never end");
}

/*
 * num_range (fio 3.42): ranges per trim, which io_uring_cmd sends as one
 * Dataset Management command (workload/ranges.c draws them). fio 3.42
 * refuses more than one with trimwrite ("trimwrite cannot be used with
 * multiple ranges") and with any other engine ("can't use multiple
 * ranges with IO engine libaio"), and ignores it without trims, which
 * is refused here rather than ignored. The trims that are not the
 * workload's (a replayed log's, verify's trim_backlog) and zonemode=zbd
 * (where a trim resets a zone) keep one range: refused as not supported.
 */
static int check_num_range(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int n = o->num_range;

	if (n <= 1)
		return 0;
	if (!(p->ddir_mask & (1u << DDIR_TRIM)))
		return plan_fail(p, err, "option 'num_range': %u ranges per "
				 "trim, but the job issues no trims (fio "
				 "3.42 ignores it)", n);
	if (o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE)
		return plan_fail(p, err, "option 'num_range': %u ranges per "
				 "trim, not with rw=trimwrite (fio 3.42 "
				 "refuses it too)", n);
	if (!(engine_decl_flags(o->ioengine) & ENGINE_F_MULTI_TRIM))
		return plan_fail(p, err, "option 'num_range': %u ranges per "
				 "trim need io_uring_cmd (one Dataset "
				 "Management command): ioengine=%s trims one "
				 "range at a time (fio 3.42 refuses it too)",
				 n, o->ioengine);
	if (o->zonemode == ZONE_MODE_ZBD || o->read_iolog ||
	    (o->trim_backlog && o->verify != VERIFY_NONE))
		return plan_fail(p, err, "option 'num_range': %u ranges per "
				 "trim are not supported yet with %s", n,
				 o->zonemode == ZONE_MODE_ZBD ? "zonemode=zbd" :
				 o->read_iolog ? "read_iolog (a replayed trim "
				 "is one range)" : "trim_backlog (verify's "
				 "trims are one range)");
	if ((uint64_t)n * p->dir_max_bs[DDIR_TRIM] > UINT32_MAX)
		return plan_fail(p, err, "option 'num_range': %u ranges of "
				 "up to %llu bytes are more than one I/O "
				 "takes (4 GiB)", n, (unsigned long long)
				 p->dir_max_bs[DDIR_TRIM]);
	return 0;
}

/* fio 3.42: "cannot specify both ramp_time and ramp_size" */
static int check_ramp(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (o->ramp_size && o->ramp_time_us)
		return plan_fail(p, err, "option 'ramp_size': not with "
				 "ramp_time (one ramp or the other, as fio "
				 "3.42)");
	return 0;
}

int misc_plan_check(struct job_plan *p, struct strbuf *err)
{
	if (check_offload(p, err) || check_log_compression(p, err) ||
	    check_log_issue_time(p, err) || check_ramp(p, err) ||
	    check_num_range(p, err) ||
	    check_openfiles(p, err) || check_time_based(p, err))
		return -1;
	return 0;
}

static const char *const profile_names[] = { "none", "cpu", "system" };

int profile_cb(const struct opt_def *def, struct job_options *o,
	       const char *val, struct strbuf *err)
{
	if (!strcmp(val, "0") || !strcmp(val, "none")) {
		o->profile = JOB_PROFILE_NONE;
	} else if (!*val || !strcmp(val, "1") || !strcmp(val, "cpu")) {
		o->profile = JOB_PROFILE_CPU;
	} else if (!strcmp(val, "system")) {
		o->profile = JOB_PROFILE_SYSTEM;
	} else if (!strcmp(val, "tiobench") || !strcmp(val, "act")) {
		strbuf_addf(err, "fio's workload profile '%s' is not supported "
			    "yet (iolite's profile= is a CPU profile: none, "
			    "cpu or system)", val);
		return -1;
	} else {
		strbuf_addf(err, "invalid value '%s' (valid: none, cpu, system)",
			    val);
		return -1;
	}
	return 0;
}

void profile_fmt(const struct opt_def *def, const struct job_options *o,
		 struct strbuf *out)
{
	strbuf_addstr(out, profile_names[o->profile]);
}

int ratio_cb(const struct opt_def *def, struct job_options *o,
	     const char *val, struct strbuf *err)
{
	double v;

	if (num_parse_double(val, &v) || !(v >= 0 && v <= 1)) {
		strbuf_addf(err, "invalid ratio '%s' (0..1)", val);
		return -1;
	}
	memcpy((char *)o + def->off, &v, sizeof(v));
	return 0;
}

void ratio_fmt(const struct opt_def *def, const struct job_options *o,
	       struct strbuf *out)
{
	double v;

	memcpy(&v, (const char *)o + def->off, sizeof(v));
	strbuf_addf(out, "%.17g", v);
}

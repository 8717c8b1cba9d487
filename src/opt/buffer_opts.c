/* SPDX-License-Identifier: MIT */
/*
 * The buffer-content options: buffer_pattern's parser (util/pattern.c's
 * grammar, which verify_pattern uses too, without the %o piece: fio only
 * pastes offsets into verification patterns) and the rule that checks
 * dedupe_mode=working_set before anything is created.
 */
#include <string.h>

#include "opt/buffer_opts.h"
#include "opt/internal.h"
#include "util/pattern.h"

int buffer_pattern_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	if (pattern_parse(val, &o->buffer_pattern, err))
		return -1;
	if (o->buffer_pattern.nr_fmt) {
		memset(&o->buffer_pattern, 0, sizeof(o->buffer_pattern));
		strbuf_addf(err, "invalid pattern '%s': %%o (the block's offset) is for verify_pattern only",
			    val);
		return -1;
	}
	/*
	 * As fio, where it stands (a later option wins): no scrambling, no
	 * zeroes, and refills only when reads could spoil the pattern
	 * (workload/buffer.c decides, once the job's directions are known).
	 */
	o->scramble_buffers = false;
	o->zero_buffers = false;
	o->refill_buffers = false;
	o->pattern_refill = true;
	return 0;
}

/* refill_buffers given: it, not an earlier buffer_pattern, decides */
int refill_buffers_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	o->pattern_refill = false;
	return 0;
}

/*
 * fio's dedupe_percentage turns refill_buffers on where it stands, even
 * at 0 (every write new random data): a later refill_buffers=0 wins. The
 * row has no default text, so this runs for a given value only.
 */
int dedupe_percentage_cb(const struct opt_def *def, struct job_options *o,
			 const char *val, struct strbuf *err)
{
	uint64_t v;

	if (opt_parse_size_msg(val, o->kb_base, &v, err) ||
	    opt_check_range(def, v, 0, err))
		return -1;
	o->dedupe_percentage = (unsigned int)v;
	o->refill_buffers = true;
	o->pattern_refill = false;
	return 0;
}

void dedupe_percentage_fmt(const struct opt_def *def,
			   const struct job_options *o, struct strbuf *out)
{
	strbuf_addf(out, "%u", o->dedupe_percentage);
}

void buffer_pattern_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out)
{
	pattern_format(&o->buffer_pattern, out);
}

int buffer_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int nr = 0;
	char **names;

	if (!o->dedupe_percentage || o->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	/* the working set is a share of the size: it must be known now */
	if (!o->size.bytes || o->size.pct)
		return plan_fail(p, err, "option 'dedupe_mode': 'working_set' needs size= in bytes (the working set is dedupe_working_set_percentage of it)");
	if (o->filename) {
		names = opt_split_filenames(o->filename, &nr);
		opt_free_filenames(names);
	}
	if (o->nrfiles > 1 || nr > 1)
		return plan_fail(p, err, "option 'dedupe_mode': 'working_set' works on one file per job (nrfiles=1, one filename)");
	if (!o->dedupe_working_set_percentage)
		return plan_fail(p, err, "option 'dedupe_working_set_percentage': 0%% leaves no block to repeat");
	/* fio's rule: the working set is unique blocks written first */
	if (o->dedupe_percentage + o->dedupe_working_set_percentage > 100)
		return plan_fail(p, err, "option 'dedupe_percentage': %u%% cannot be reached with dedupe_working_set_percentage=%u (the working set's blocks are written once each: at most %u%%)",
				 o->dedupe_percentage,
				 o->dedupe_working_set_percentage,
				 100 - o->dedupe_working_set_percentage);
	return 0;
}

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_INTERNAL_H
#define IOLITE_OPT_INTERNAL_H

/*
 * Helpers shared by the files of opt/ (types.c, table.c, opt.c). Not for
 * other modules: they go through opt.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include "opt/opt.h"

/* The field a row describes, as a typed pointer. */
#define OPT_PTR(o, def, type) ((type *)(void *)((char *)(o) + (def)->off))
#define OPT_CPTR(o, def, type) \
	((const type *)(const void *)((const char *)(o) + (def)->off))

/*
 * Tail messages: the parse helpers below write only the part after
 * "option 'x': " into err, e.g. "invalid size 'abc'".
 */
int opt_parse_size_msg(const char *s, unsigned int kb_base, uint64_t *out,
		       struct strbuf *err);
/* Checks v against def's min/max and the field width (cap, 0 = none). */
int opt_check_range(const struct opt_def *def, uint64_t v, uint64_t cap,
		    struct strbuf *err);

/* Enum tables are terminated by a NULL name. */
int opt_enum_lookup(const struct opt_enum *e, const char *s, int *val);
const char *opt_enum_name(const struct opt_enum *e, int val);
/* Appends "a, b, c". */
void opt_enum_list(const struct opt_enum *e, struct strbuf *out);

/*
 * Per-direction values "r[,w[,t]]" as fio reads them: an empty part
 * leaves that direction alone; when the value does not end in a comma,
 * its last part also applies to the directions after it. one() parses
 * one part for direction d (0 read, 1 write, 2 trim).
 */
typedef int (*opt_dir_fn)(const char *part, unsigned int d, void *ctx,
			  struct strbuf *err);
int opt_parse_dirs(const char *val, opt_dir_fn one, void *ctx,
		   struct strbuf *err);
/* The inverse: "r" when all agree, "r,w" when write and trim agree. */
typedef void (*opt_dir_fmt_fn)(unsigned int d, const void *ctx,
			       struct strbuf *out);
void opt_format_dirs(opt_dir_fmt_fn one, const void *ctx,
		     struct strbuf *out);

/* "4k-64k", "4k:64k" or "4k"; swapped when min > max, as fio does. */
int opt_parse_range(const struct opt_def *def, const char *s,
		    unsigned int kb_base, struct bs_range *r,
		    struct strbuf *err);

/* Canonical time: the largest exact unit of s, ms, us. */
void opt_format_time(uint64_t us, struct strbuf *out);

/* Short description of the value syntax, for --cmdhelp and the docs. */
const char *opt_type_name(const struct opt_def *def);

/* plan_fail(): opt/plan.h */

/*
 * The smallest and largest block size slot d (read, write, trim) gives:
 * from bssplit, else bsrange, else bs (validate.c).
 */
void opt_slot_sizes(const struct job_options *o, unsigned int d,
		    uint64_t *lo, uint64_t *hi);

/*
 * Checks a distribution's parameter: kind 'z' (zipf theta), 'p' (pareto
 * h) or 'n' (normal sigma, percent). 0, or -1 with the message in err.
 */
int opt_check_dist_param(char kind, double p, struct strbuf *err);

/* table_dist.c: distributions, percentage_random, file_service_type */
extern const struct opt_enum opt_rdist_enums[];
extern const struct opt_enum opt_fsrv_enums[];
int opt_rdist_cb(const struct opt_def *def, struct job_options *o,
		 const char *val, struct strbuf *err);
void opt_rdist_fmt(const struct opt_def *def, const struct job_options *o,
		   struct strbuf *out);
int opt_perc_rand_cb(const struct opt_def *def, struct job_options *o,
		     const char *val, struct strbuf *err);
void opt_perc_rand_fmt(const struct opt_def *def,
		       const struct job_options *o, struct strbuf *out);
int opt_fsrv_cb(const struct opt_def *def, struct job_options *o,
		const char *val, struct strbuf *err);
void opt_fsrv_fmt(const struct opt_def *def, const struct job_options *o,
		  struct strbuf *out);

/* iolog_opts.c: replay_skip */
int opt_replay_skip_cb(const struct opt_def *def, struct job_options *o,
		       const char *val, struct strbuf *err);
void opt_replay_skip_fmt(const struct opt_def *def,
			 const struct job_options *o, struct strbuf *out);

/* table_cb.c: rw, rwmixwrite, bssplit, startdelay, gtod_reduce,
 * percentile_list */
extern const struct opt_enum opt_rw_enums[];
int opt_rw_cb(const struct opt_def *def, struct job_options *o,
	      const char *val, struct strbuf *err);
void opt_rw_fmt(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out);
int opt_rwmixwrite_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err);
void opt_rwmixwrite_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out);
int opt_bssplit_cb(const struct opt_def *def, struct job_options *o,
		   const char *val, struct strbuf *err);
void opt_bssplit_fmt(const struct opt_def *def,
		     const struct job_options *o, struct strbuf *out);
int opt_startdelay_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err);
void opt_startdelay_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out);
int opt_gtod_reduce_cb(const struct opt_def *def, struct job_options *o,
		       const char *val, struct strbuf *err);
int opt_percentile_list_cb(const struct opt_def *def,
			   struct job_options *o, const char *val,
			   struct strbuf *err);
void opt_percentile_list_fmt(const struct opt_def *def,
			     const struct job_options *o,
			     struct strbuf *out);

/* sfr_opts.c: sync_file_range=flags[:N] */
int opt_sfr_cb(const struct opt_def *def, struct job_options *o,
	       const char *val, struct strbuf *err);
void opt_sfr_fmt(const struct opt_def *def, const struct job_options *o,
		 struct strbuf *out);

/* pi_opts.c: pi_chk=GUARD,REFTAG,APPTAG */
int opt_pi_chk_cb(const struct opt_def *def, struct job_options *o,
		  const char *val, struct strbuf *err);
void opt_pi_chk_fmt(const struct opt_def *def, const struct job_options *o,
		    struct strbuf *out);

/* Whether def is a row of opt_table (mini-tables in tests are not). */
bool opt_in_table(const struct opt_def *def);

/* Parses with messages naming the option as shown (name or alias). */
int opt_set_named(const struct opt_def *def, const char *shown,
		  struct job_options *o, const char *val,
		  unsigned int kb_base, struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_ENGINE_OPTS_H
#define IOLITE_OPT_ENGINE_OPTS_H

#include "opt/opt.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * The options of the engines that need nothing but the kernel: filestat
 * and dirstat (stat_type), cpuio, exec, net and netsplice, e4defrag. The
 * rows are in opt/engine_rows.h (part of opt/table.c's table); the value
 * lists and the plan rule are here; engine/fsmeta.c, falloc.c, cpuio.c,
 * exec.c, net.c and e4defrag.c carry them out.
 */

extern const struct opt_enum stat_type_enums[];
extern const struct opt_enum cpu_mode_enums[];
extern const struct opt_enum net_proto_enums[];

/*
 * The engines' rules on a job's plan (engine_ops.plan_check, which
 * plan_build() runs through opt/engine_decl.h). They refuse what these
 * engines cannot do (their options with another engine are refused with
 * the others, in opt/validate.c): a verify with an engine that moves no
 * data, reads with ftruncate and e4defrag (fio fails them with EINVAL at
 * run time), cpuio without cpuload, exec without a program it can run,
 * the network combinations fio refuses when the job starts (a port with
 * unix sockets, listen with udp, random offsets...). They fill in what
 * fio's engines set for themselves: cpuio's and exec's think time and
 * endless run, one block per file for the metadata engines without a
 * size (fsmeta: filecreate, dircreate, dirstat, dirdelete), bandwidth in
 * bits for net (not netsplice), and whether the job changes the file
 * system (plan->writes: --readonly refuses it). Each returns 0, or -1
 * with "file:line: ..." in err.
 */
int fsmeta_plan_check(struct job_plan *p, struct strbuf *err);
int filestat_plan_check(struct job_plan *p, struct strbuf *err);
int filedelete_plan_check(struct job_plan *p, struct strbuf *err);
int falloc_plan_check(struct job_plan *p, struct strbuf *err);
int ftruncate_plan_check(struct job_plan *p, struct strbuf *err);
int cpuio_plan_check(struct job_plan *p, struct strbuf *err);
int exec_plan_check(struct job_plan *p, struct strbuf *err);
int net_plan_check(struct job_plan *p, struct strbuf *err);
int netsplice_plan_check(struct job_plan *p, struct strbuf *err);
int ucmd_plan_check(struct job_plan *p, struct strbuf *err);
int e4defrag_plan_check(struct job_plan *p, struct strbuf *err);

#endif

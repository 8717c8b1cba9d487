/* SPDX-License-Identifier: MIT */
/*
 * The "CPU profile" block of each profiled group (--profile): in the
 * normal report the split by area and the top functions, in JSON the
 * whole table under the run's "iolite" object, where fio's tools do not
 * look. Shares are of the samples of the measured phase; when the
 * kernel side could not be sampled (perf_event_paranoid) its time, from
 * the event's count, is a share of its own.
 */
#include "report/profile.h"

#include <inttypes.h>
#include <string.h>

#include "profile/profile.h"
#include "util/log.h"

#define TOP_FUNCTIONS 15

static uint64_t all_samples(const struct profile_result *p)
{
	return p->samples + p->area[PA_K_HIDDEN];
}

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

static bool kernel_area(unsigned int a)
{
	return a >= PA_K_IO_URING && a <= PA_K_HIDDEN;
}

static void show_split(FILE *f, const struct profile_result *p)
{
	uint64_t all = all_samples(p), k = 0;
	unsigned int a;
	const char *sep = "";

	for (a = 0; a < PA_NR; a++)
		if (kernel_area(a))
			k += p->area[a];
	fprintf(f, "  split: iolite %.1f%%, libraries %.1f%%, kernel %.1f%%",
		pct(p->area[PA_IOLITE], all), pct(p->area[PA_LIBS], all),
		pct(k, all));
	if (p->area[PA_OTHER_PROC])
		fprintf(f, ", other processes %.1f%%",
			pct(p->area[PA_OTHER_PROC], all));
	fputc('\n', f);
	if (!k)
		return;
	fputs("  kernel: ", f);
	for (a = 0; a < PA_NR; a++) {
		if (!kernel_area(a) || !p->area[a])
			continue;
		fprintf(f, "%s%s %.1f%%", sep, profile_area_name(a),
			pct(p->area[a], all));
		sep = ", ";
	}
	fputc('\n', f);
}

#define TOP_TASKS 8

/* The call tree's threads (node 0's children), busiest first. */
static unsigned int tasks_sorted(const struct profile_result *p,
				 unsigned int *idx, unsigned int max)
{
	unsigned int c, n = 0, i;

	if (!p->nr_node)
		return 0;
	for (c = p->node[0].child; c && n < max; c = p->node[c].sibling) {
		for (i = n; i > 0 && p->node[idx[i - 1]].count <
				     p->node[c].count; i--)
			idx[i] = idx[i - 1];
		idx[i] = c;
		n++;
	}
	return n;
}

void report_profile_tasks(struct strbuf *sb, const struct profile_result *p,
			  unsigned int top)
{
	unsigned int idx[1024], n = tasks_sorted(p, idx, ARRAY_SIZE(idx)), i;
	uint64_t all = p->nr_node ? p->node[0].count : 0, rest = 0;

	for (i = 0; i < n; i++) {
		const struct profile_node *t = &p->node[idx[i]];

		if (i < top) {
			strbuf_addf(sb, "%s%s %.1f%%", i ? ", " : "", t->name,
				    pct(t->count, all));
			continue;
		}
		rest += t->count;
	}
	if (n > top)
		strbuf_addf(sb, ", %u more %.1f%%", n - top, pct(rest, all));
}

void report_profile_normal(FILE *f, const struct run_result *rr)
{
	unsigned int i, k;

	for (i = 0; i < rr->nr_profiles; i++) {
		const struct profile_result *p = &rr->profiles[i];
		uint64_t all = all_samples(p);

		bool sys = !strcmp(p->mode, "system");

		fprintf(f, "\nCPU profile, group %u", p->groupid);
		if (p->run)
			fprintf(f, ", run %u", p->run);
		fprintf(f, " (measured phase %.2fs, %s, "
			"%u %s%s, %.0f Hz):\n",
			(double)p->wall_ns / 1e9, p->mode, p->threads,
			sys ? "CPU" : "thread", p->threads == 1 ? "" :
			sys ? "s" : "s at the start",
			p->period_ns ? 1e9 / (double)p->period_ns : 0.0);
		fprintf(f, "  samples=%" PRIu64 ", lost=%" PRIu64
			", cpu=%.3fs, profiler cost=%.2f%% (%.1fus a sample, "
			"%.1fms reading)\n", p->samples, p->lost,
			(double)p->cpu_ns / 1e9, p->cost_pct,
			(double)p->per_sample_ns / 1e3, (double)p->read_ns / 1e6);
		if (!all) {
			fputs("  no samples: the phase was too short\n", f);
			continue;
		}
		show_split(f, p);
		if (sys) {
			struct strbuf t = STRBUF_INIT;

			report_profile_tasks(&t, p, TOP_TASKS);
			fprintf(f, "  tasks: %s\n", strbuf_str(&t));
			strbuf_release(&t);
		}
		fputs("     self    total  function\n", f);
		for (k = 0; k < p->nr_fn && k < TOP_FUNCTIONS; k++)
			fprintf(f, "  %6.2f%%  %6.2f%%  %s (%s)\n",
				pct(p->fn[k].self, all), pct(p->fn[k].total, all),
				p->fn[k].name, p->fn[k].module);
	}
}

/* "tasks": the samples by thread name (every task, system mode) */
static void tasks_json(struct json_writer *w, const struct profile_result *p)
{
	unsigned int idx[1024], n = tasks_sorted(p, idx, ARRAY_SIZE(idx)), i;

	json_begin_array(w, "tasks");
	for (i = 0; i < n; i++) {
		const struct profile_node *t = &p->node[idx[i]];

		json_begin_object(w, NULL);
		json_str(w, "name", t->name);
		json_u64(w, "samples", t->count);
		json_double(w, "pct", pct(t->count, p->node[0].count));
		json_end_object(w);
	}
	json_end_array(w);
}

void report_profile_json(struct json_writer *w, const struct run_result *rr)
{
	unsigned int i, k, a;

	if (!rr->nr_profiles)
		return;
	json_begin_array(w, "cpu_profile");
	for (i = 0; i < rr->nr_profiles; i++) {
		const struct profile_result *p = &rr->profiles[i];
		uint64_t all = all_samples(p);

		json_begin_object(w, NULL);
		json_u64(w, "groupid", p->groupid);
		if (p->run)
			json_u64(w, "run", p->run);
		json_str(w, "mode", p->mode);
		json_u64(w, "period_ns", p->period_ns);
		json_u64(w, "samples", p->samples);
		json_u64(w, "lost", p->lost);
		json_u64(w, "cpu_ns", p->cpu_ns);
		json_u64(w, "wall_ns", p->wall_ns);
		json_u64(w, "threads", p->threads);
		json_u64(w, "per_sample_ns", p->per_sample_ns);
		json_u64(w, "read_ns", p->read_ns);
		json_double(w, "cost_pct", p->cost_pct);
		json_begin_array(w, "areas");
		for (a = 0; a < PA_NR; a++) {
			json_begin_object(w, NULL);
			json_str(w, "area", profile_area_name(a));
			json_str(w, "side", kernel_area(a) ? "kernel" : "user");
			json_u64(w, "samples", p->area[a]);
			json_double(w, "pct", pct(p->area[a], all));
			json_end_object(w);
		}
		json_end_array(w);
		if (!strcmp(p->mode, "system"))
			tasks_json(w, p);
		json_begin_array(w, "functions");
		for (k = 0; k < p->nr_fn; k++) {
			json_begin_object(w, NULL);
			json_str(w, "name", p->fn[k].name);
			json_str(w, "module", p->fn[k].module);
			json_str(w, "area", profile_area_name(p->fn[k].area));
			json_u64(w, "self", p->fn[k].self);
			json_u64(w, "total", p->fn[k].total);
			json_double(w, "self_pct", pct(p->fn[k].self, all));
			json_double(w, "total_pct", pct(p->fn[k].total, all));
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
}

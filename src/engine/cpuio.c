/* SPDX-License-Identifier: MIT */
/*
 * cpuio: no I/O, a CPU load. Each I/O burns one cycle of cpuchunks
 * microseconds on the job's CPU, and the job's think time (set by
 * opt/engine_opts.c: cpuchunks * (100 - cpuload) / cpuload, after every
 * I/O) sleeps the rest, so the job keeps cpuload percent of one CPU busy
 * until its runtime ends (or for ever, or until the jobs that do I/O are
 * done with exit_on_io_done), as fio's. numjobs loads more CPUs.
 *
 * cpumode=noop spins on the clock; cpumode=qsort sorts pieces of a 1 MiB
 * array of pseudo-random numbers, refilled before each sort, until the
 * cycle is over: more work per cycle (more power), the same duty cycle.
 * (fio's qsort mode instead makes each cycle one round of four sorts of
 * the whole array and stretches its sleep to keep the load: fewer,
 * longer cycles.)
 *
 * An I/O moves no bytes (ENGINE_F_NOIO: u->len is set to 0); its latency
 * is the cycle's length.
 */
#include <stdlib.h>
#include <time.h>

#include "engine/engines.h"
#include "opt/engine_opts.h"
#include "util/log.h"

#define QSORT_NR (256 * 1024)	/* 1 MiB of int32 */
#define QSORT_PIECE 8192	/* sorted at a time: ~0.5 ms */

struct cpu_engine {
	struct engine e;
	uint64_t cycle_ns;
	int32_t *data;		/* qsort: the array */
	unsigned int piece;	/* qsort: the next piece to sort */
	uint64_t rnd;
	uint64_t cycles;
};

static inline struct cpu_engine *to_cpu(struct engine *e)
{
	return (struct cpu_engine *)e;
}

static int cpu_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	struct cpu_engine *ce = xcalloc(1, sizeof(*ce));

	ce->e.plan = plan;
	ce->e.depth = 1;
	ce->cycle_ns = (uint64_t)plan->o.cpuchunks_us * 1000;
	ce->rnd = 0x9E3779B97F4A7C15ULL ^ plan->job_index;
	if (plan->o.cpumode == CPU_MODE_QSORT)
		ce->data = xmalloc(QSORT_NR * sizeof(*ce->data));
	*out = &ce->e;
	return 0;
}

static void cpu_cleanup(struct engine *e)
{
	free(to_cpu(e)->data);
	free(e);
}

static int cpu_open(struct engine *e, struct engine_file *f,
		    struct strbuf *err)
{
	return 0;
}

static int cpu_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* xorshift64*: the numbers to sort */
static uint32_t next_rnd(struct cpu_engine *ce)
{
	uint64_t x = ce->rnd;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	ce->rnd = x;
	return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

static void sort_piece(struct cpu_engine *ce)
{
	int32_t *p = ce->data + (size_t)ce->piece * QSORT_PIECE;
	unsigned int i;

	for (i = 0; i < QSORT_PIECE; i++)
		p[i] = (int32_t)next_rnd(ce);
	qsort(p, QSORT_PIECE, sizeof(*p), cmp_i32);
	ce->piece = (ce->piece + 1) % (QSORT_NR / QSORT_PIECE);
}

/* One cycle: busy until cycle_ns has passed (or the job stops). */
static enum engine_q cpu_queue(struct engine *e, struct io_u *u)
{
	struct cpu_engine *ce = to_cpu(e);
	uint64_t end = engine_mono_ns() + ce->cycle_ns;

	do {
		if (ce->data)
			sort_piece(ce);
	} while (engine_mono_ns() < end && !engine_stopping(e));
	ce->cycles++;
	u->len = 0;
	u->error = 0;
	u->resid = 0;
	return ENGINE_Q_DONE;
}

static void cpu_describe(struct engine *e, struct strbuf *out)
{
	const struct job_options *o = &e->plan->o;

	strbuf_addf(out, "cpuio: %u%% of a CPU in cycles of %uus (%s), %llu "
		    "cycles", o->cpuload, o->cpuchunks_us,
		    o->cpumode == CPU_MODE_QSORT ? "qsort" : "noop",
		    (unsigned long long)to_cpu(e)->cycles);
}

static const char *const cpu_options[] = {
	"cpuload", "cpuchunks", "cpumode", "exit_on_io_done", NULL,
};

const struct engine_ops engine_cpuio_ops = {
	.name = "cpuio",
	.help = "no I/O: burns cpuload percent of a CPU",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILEIO | ENGINE_F_NOIO,
	.options = cpu_options,
	.plan_check = cpuio_plan_check,
	.init = cpu_init,
	.cleanup = cpu_cleanup,
	.open_file = cpu_open,
	.close_file = cpu_close,
	.queue = cpu_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.describe = cpu_describe,
};

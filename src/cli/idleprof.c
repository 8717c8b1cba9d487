/* SPDX-License-Identifier: MIT */
/*
 * fio's idle profiling (--idle-prof=system|percpu|calibrate): how idle
 * the CPUs were while the jobs ran. Before the run, a thread pinned to
 * each CPU times a fixed unit of work (IDLE_SAMPLES times, at normal
 * priority: the median is the unit's cost on an idle CPU). It then drops
 * to SCHED_IDLE, which the kernel runs only when nothing else wants the
 * CPU, and counts the units it completes until the run ends. A CPU's idleness is the
 * time those units take, by the calibration, over the run's time.
 *
 * As in fio, the spinning threads keep the CPUs out of their sleep
 * states, so the jobs run on CPUs that never sleep: the price of the
 * measurement, paid only when asked for.
 */
#include "cli/cli.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "machine/clock.h"
#include "stats/results.h"
#include "util/log.h"

#define IDLE_LOOPS 8192		/* one unit: ~16 us at 2 GHz */
#define IDLE_SAMPLES 200	/* calibration units per CPU */

struct idle_cpu {
	struct idle_prof *ip;
	int cpu;
	pthread_t tid;
	double mean_ns, m2;	/* calibration (Welford) */
	unsigned int n;
	double median_ns;	/* what a unit costs, preemptions left out */
	uint64_t units;		/* counted while the jobs ran */
	uint64_t sink;
};

struct idle_prof {
	enum idle_prof_mode mode;
	struct idle_cpu *cpus;
	unsigned int nr;
	int ready, go, stop;	/* atomics */
	uint64_t t0, t1;
	int *cpu_ids;
	double *pct;
};

/* A fixed amount of work the compiler cannot drop or shorten. */
static uint64_t unit_work(uint64_t x)
{
	unsigned int i;

	for (i = 0; i < IDLE_LOOPS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ __volatile__("" : "+r"(x));
	}
	return x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The mean and stddev are fio's figures; a unit's cost in the idle
 * arithmetic is the median, which a sample cut by another task's time
 * slice does not move.
 */
static void calibrate(struct idle_cpu *c)
{
	double sample[IDLE_SAMPLES];
	unsigned int k;

	for (k = 0; k < IDLE_SAMPLES; k++) {
		uint64_t t = clock_mono_ns();
		double d, delta;

		c->sink = unit_work(c->sink);
		d = (double)(clock_mono_ns() - t);
		sample[k] = d;
		c->n++;
		delta = d - c->mean_ns;
		c->mean_ns += delta / c->n;
		c->m2 += delta * (d - c->mean_ns);
	}
	qsort(sample, IDLE_SAMPLES, sizeof(sample[0]), cmp_double);
	c->median_ns = sample[IDLE_SAMPLES / 2];
}

static void *idle_thread(void *arg)
{
	struct idle_cpu *c = arg;
	struct idle_prof *ip = c->ip;
	struct sched_param sp = { 0 };
	cpu_set_t one;

	cli_block_run_signals();
	CPU_ZERO(&one);
	CPU_SET(c->cpu, &one);
	pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	calibrate(c);
	__atomic_add_fetch(&ip->ready, 1, __ATOMIC_ACQ_REL);
	if (ip->mode == IDLE_PROF_CALIBRATE)
		return NULL;
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	while (!__atomic_load_n(&ip->go, __ATOMIC_ACQUIRE))
		sched_yield();
	while (!__atomic_load_n(&ip->stop, __ATOMIC_RELAXED)) {
		c->sink = unit_work(c->sink);
		c->units++;
	}
	return NULL;
}

static struct idle_prof *idle_begin(enum idle_prof_mode mode)
{
	static int ids[CPU_SETSIZE];
	struct idle_prof *ip = xcalloc(1, sizeof(*ip));
	unsigned int i;

	ip->mode = mode;
	ip->nr = (unsigned int)cli_cpus(ids);
	if (!ip->nr)
		ip->nr = 1, ids[0] = sched_getcpu();
	ip->cpus = xcalloc(ip->nr, sizeof(*ip->cpus));
	for (i = 0; i < ip->nr; i++) {
		ip->cpus[i].ip = ip;
		ip->cpus[i].cpu = ids[i];
		ip->cpus[i].sink = i + 1;
		if (pthread_create(&ip->cpus[i].tid, NULL, idle_thread,
				   &ip->cpus[i]))
			die("--idle-prof: cannot start a thread for cpu %d",
			    ids[i]);
	}
	while (__atomic_load_n(&ip->ready, __ATOMIC_ACQUIRE) < (int)ip->nr)
		sched_yield();
	return ip;
}

/* Every calibration sample of every CPU taken as one set, in us. */
static void unit_stats(const struct idle_prof *ip, double *mean,
		       double *stddev)
{
	double n = 0, m = 0, m2 = 0;
	unsigned int i;

	/* Chan's merge of the per-CPU Welford moments */
	for (i = 0; i < ip->nr; i++) {
		const struct idle_cpu *c = &ip->cpus[i];
		double nn = n + c->n, d = c->mean_ns - m;

		m += d * c->n / nn;
		m2 += c->m2 + d * d * n * c->n / nn;
		n = nn;
	}
	*mean = m / 1000.0;
	*stddev = n > 1 ? sqrt(m2 / (n - 1)) / 1000.0 : 0.0;
}

struct idle_prof *idle_prof_start(enum idle_prof_mode mode)
{
	struct idle_prof *ip;

	if (mode != IDLE_PROF_SYSTEM && mode != IDLE_PROF_PERCPU)
		return NULL;
	ip = idle_begin(mode);
	ip->t0 = clock_mono_ns();
	__atomic_store_n(&ip->go, 1, __ATOMIC_RELEASE);
	return ip;
}

void idle_prof_stop(struct idle_prof *ip, struct idle_result *r)
{
	double sum = 0;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (!ip)
		return;
	__atomic_store_n(&ip->stop, 1, __ATOMIC_RELAXED);
	ip->t1 = clock_mono_ns();
	for (i = 0; i < ip->nr; i++)
		pthread_join(ip->cpus[i].tid, NULL);
	ip->cpu_ids = xcalloc(ip->nr, sizeof(*ip->cpu_ids));
	ip->pct = xcalloc(ip->nr, sizeof(*ip->pct));
	for (i = 0; i < ip->nr; i++) {
		const struct idle_cpu *c = &ip->cpus[i];
		double busy = (double)c->units * c->median_ns;
		double span = (double)(ip->t1 - ip->t0);

		ip->cpu_ids[i] = c->cpu;
		ip->pct[i] = span > 0 ? 100.0 * busy / span : 0.0;
		if (ip->pct[i] > 100.0)
			ip->pct[i] = 100.0;
		sum += ip->pct[i];
	}
	r->system = sum / ip->nr;
	r->nr_cpus = ip->nr;
	r->cpu = ip->cpu_ids;
	r->pct = ip->pct;
	r->percpu = ip->mode == IDLE_PROF_PERCPU;
	unit_stats(ip, &r->unit_mean_us, &r->unit_stddev_us);
}

void idle_prof_free(struct idle_prof *ip)
{
	if (!ip)
		return;
	free(ip->cpus);
	free(ip->cpu_ids);
	free(ip->pct);
	free(ip);
}

int cli_idle_calibrate(FILE *out)
{
	struct idle_prof *ip = idle_begin(IDLE_PROF_CALIBRATE);
	double mean, stddev;
	unsigned int i;

	for (i = 0; i < ip->nr; i++)
		pthread_join(ip->cpus[i].tid, NULL);
	unit_stats(ip, &mean, &stddev);
	fprintf(out, "CPU idleness:\n  unit work: mean=%3.2fus, stddev=%3.2f\n",
		mean, stddev);
	idle_prof_free(ip);
	return 0;
}

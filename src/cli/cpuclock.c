/* SPDX-License-Identifier: MIT */
/*
 * --cpuclock-test: is the TSC, iolite's clock, usable on every CPU? Like
 * fio's test: the clock is calibrated (machine/clock.c: invariant TSC, rate
 * against CLOCK_MONOTONIC, every CPU checked), then one thread per CPU
 * takes turns under a lock, each turn reading the TSC and a shared
 * sequence number. In sequence order the readings must not go back by
 * more than CS_TOLERANCE_NS, whichever CPU made them. Output in fio's
 * "cs: " lines; exit 0 when it passes, 1 when not.
 */
#include "cli/cli.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "machine/clock.h"
#include "util/log.h"

#define CS_TURNS 20000		/* per CPU */
#define CS_TOLERANCE_NS 1000	/* a migration's worth of error at most */
#define CS_SHOW 10		/* mismatches printed */

struct cs_shared {
	uint64_t *tsc;		/* [seq] */
	int *cpu;		/* [seq] */
	unsigned int seq;
	char lock;
	unsigned int ready;
	unsigned int nr;
};

struct cs_thread {
	struct cs_shared *sh;
	int cpu;
	uint64_t first;
	bool pinned;
};

static void *cs_run(void *arg)
{
	struct cs_thread *t = arg;
	struct cs_shared *sh = t->sh;
	cpu_set_t one;
	unsigned int k;

	CPU_ZERO(&one);
	CPU_SET(t->cpu, &one);
	t->pinned = !pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < sh->nr)
		;
	for (k = 0; k < CS_TURNS; k++) {
		unsigned int seq;

		while (__atomic_test_and_set(&sh->lock, __ATOMIC_ACQUIRE))
			;
		seq = sh->seq++;
		sh->tsc[seq] = clock_rdtsc();
		sh->cpu[seq] = t->cpu;
		__atomic_clear(&sh->lock, __ATOMIC_RELEASE);
		if (!k)
			t->first = sh->tsc[seq];
	}
	return NULL;
}

static uint64_t ticks_ns(uint64_t ticks)
{
	return (uint64_t)(((unsigned __int128)ticks * clock_state.mult) >>
			  CLOCK_TSC_SHIFT);
}

/* Readings in sequence order: how many went back too far, and the worst. */
static unsigned int cs_check(const struct cs_shared *sh, unsigned int total,
			     FILE *out, uint64_t *worst_ns, unsigned int *turns)
{
	unsigned int s, bad = 0;

	*worst_ns = 0;
	*turns = 0;
	for (s = 1; s < total; s++) {
		uint64_t back;

		*turns += sh->cpu[s] != sh->cpu[s - 1];
		if (sh->tsc[s] >= sh->tsc[s - 1])
			continue;
		back = ticks_ns(sh->tsc[s - 1] - sh->tsc[s]);
		if (back > *worst_ns)
			*worst_ns = back;
		if (back <= CS_TOLERANCE_NS)
			continue;
		if (bad++ < CS_SHOW)
			fprintf(out, "cs: CPU clock mismatch (diff=%llu ns):\n"
				"\t CPU %2d: TSC=%llu, SEQ=%u\n"
				"\t CPU %2d: TSC=%llu, SEQ=%u\n",
				(unsigned long long)back, sh->cpu[s - 1],
				(unsigned long long)sh->tsc[s - 1], s - 1,
				sh->cpu[s], (unsigned long long)sh->tsc[s], s);
	}
	return bad;
}

int cli_cpus(int *cpus)
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int cli_cpuclock_test(FILE *out)
{
	static int cpus[CPU_SETSIZE];
	struct strbuf note = STRBUF_INIT;
	struct cs_shared sh;
	struct cs_thread *th;
	pthread_t *tid;
	unsigned int i, total, bad, turns;
	uint64_t worst;
	int n, ret = 0;

	if (!CLOCK_HAVE_TSC || clock_init(2, &note)) {
		fprintf(out, "cs: reliable_tsc: no\ncs: %s\ncs: Failed\n",
			note.len ? strbuf_str(&note) : "no TSC on this architecture");
		strbuf_release(&note);
		return 1;
	}
	strbuf_release(&note);
	fprintf(out, "cs: reliable_tsc: yes\n"
		"cs: TSC at %.3f GHz, calibrated against CLOCK_MONOTONIC\n",
		clock_state.tsc_ghz);
	n = cli_cpus(cpus);
	if (n < 1)
		n = 1, cpus[0] = sched_getcpu();
	fprintf(out, "cs: Testing %d CPU%s\n", n, n == 1 ? "" : "s");
	fflush(out);

	memset(&sh, 0, sizeof(sh));
	sh.nr = (unsigned int)n;
	total = sh.nr * CS_TURNS;
	sh.tsc = xcalloc(total, sizeof(*sh.tsc));
	sh.cpu = xcalloc(total, sizeof(*sh.cpu));
	th = xcalloc(sh.nr, sizeof(*th));
	tid = xcalloc(sh.nr, sizeof(*tid));
	for (i = 0; i < sh.nr; i++) {
		th[i].sh = &sh;
		th[i].cpu = cpus[i];
		if (pthread_create(&tid[i], NULL, cs_run, &th[i]))
			die("cannot start a thread for cpu %d", cpus[i]);
	}
	for (i = 0; i < sh.nr; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < sh.nr; i++) {
		fprintf(out, "cs: cpu %2d: %u clocks seen, first %llu%s\n",
			th[i].cpu, CS_TURNS, (unsigned long long)th[i].first,
			th[i].pinned ? "" : " (could not pin the thread)");
		if (!th[i].pinned)
			ret = 1;
	}
	bad = cs_check(&sh, total, out, &worst, &turns);
	fprintf(out, "cs: %u handovers between CPUs, largest step back %llu ns (tolerance %u ns)\n",
		turns, (unsigned long long)worst, CS_TOLERANCE_NS);
	/* CPUs that never took turns compared nothing */
	if (sh.nr > 1 && !turns) {
		fprintf(out, "cs: the CPUs never took turns: nothing was compared\n");
		ret = 1;
	}
	if (bad || ret) {
		fprintf(out, "cs: Failed: %u\n", bad);
		ret = 1;
	} else {
		fprintf(out, "cs: Passed\n");
	}
	free(sh.tsc);
	free(sh.cpu);
	free(th);
	free(tid);
	return ret;
}

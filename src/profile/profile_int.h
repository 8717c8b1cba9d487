/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PROFILE_PROFILE_INT_H
#define IOLITE_PROFILE_PROFILE_INT_H

/*
 * What sample.c (the events, the rings, the table of call chains) and
 * symbols.c (names, areas, the results, folded stacks) share.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "profile/profile.h"

/* Kernel addresses have the top bit set on every 64-bit Linux port. */
#define PF_KERNEL_ADDR(a) ((int64_t)(a) < 0)

/* The deepest call chain kept (the kernel's part and the user's). */
#define PF_MAX_STACK 64
#define PF_STACK_MAX (PF_MAX_STACK + 8)

/* One distinct call chain of one thread name: leaf first. */
struct pf_stack {
	uint32_t hash;
	uint32_t comm;		/* index into profile.comm */
	uint32_t nr;		/* frames */
	uint32_t next;		/* hash chain; UINT32_MAX ends it */
	uint64_t off;		/* first frame in pf_table.ips */
	uint64_t count;
	bool own;		/* a thread of this process */
};

struct pf_table {
	struct pf_stack *st;
	unsigned int nr, alloc;
	uint32_t *bucket;	/* nb heads */
	unsigned int nb;
	uint64_t *ips;
	size_t nr_ips, alloc_ips;
};

struct pf_group {
	unsigned int groupid;
	struct pf_table tab;
	uint64_t samples, lost, cpu_ns, wall_ns, read_ns, setup_ns;
	uint64_t since_ns;	/* when the phase last began or resumed */
	unsigned int threads;
	bool on;
};

struct pf_ring {
	int fd;
	void *base;
	size_t len;
};

struct pf_tid {
	pid_t tid;
	uint32_t comm;
};

struct pf_syms;
struct pf_unwind;

/* The user stack a sample copies, for unwind.c: its first frame. */
#define PF_STACK_BYTES 128

struct profile {
	enum profile_mode mode;
	bool kernel;		/* kernel frames are sampled */
	uint64_t period_ns, per_sample_ns;
	int *cpus;
	unsigned int nr_cpus;
	pid_t pid;
	/* the group being sampled */
	int *fds;
	unsigned int nr_fds, alloc_fds;
	struct pf_ring *ring;	/* [nr_cpus] */
	pthread_t reader;
	int wake;		/* eventfd: the reader stops */
	bool reading;
	_Atomic int stop;
	uint64_t reader_ns;	/* the reader thread's CPU time */
	struct pf_group *cur;
	struct pf_group *groups;
	unsigned int nr_groups;
	bool fd_limited;
	bool ring_failed;	/* a CPU's ring could not be mapped */
	/* thread names */
	char **comm;
	unsigned int nr_comm;
	struct pf_tid *tids;
	unsigned int nr_tids, alloc_tids;
	/* results (symbols.c) */
	struct profile_result *res;
	unsigned int nr_res;
	bool built;
	struct pf_syms *syms;
	struct pf_unwind *unw;	/* NULL: the samples carry no stack */
};

/* unwind.c */
struct pf_unwind *pf_unwind_new(void);
void pf_unwind_free(struct pf_unwind *u);
/* CFA - SP at user address a when no frame pointer is set there, else 0 */
int pf_unwind_cfa_sp(struct pf_unwind *u, uint64_t a);

/* symbols.c */
void pf_results_build(struct profile *p, struct strbuf *note);
void pf_syms_free(struct pf_syms *s);
void pf_results_free(struct profile *p);

#endif

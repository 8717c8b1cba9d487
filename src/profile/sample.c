/* SPDX-License-Identifier: MIT */
/*
 * The sampling half of --profile (see profile.h for the contract): the
 * permission probe and its notes, the cost of one sample, the events of
 * a group's measured phase, the reader thread and the table of distinct
 * call chains it fills.
 *
 * The rate: a cpu-clock sample is a timer interrupt that walks the call
 * chain and writes ~0.3 KiB into a ring. It is measured before the run
 * (calibrate()) and the rate set so that the samples take at most 0.5%
 * of the CPU time they watch: 997 Hz (not 1000, so that the samples do
 * not fall in step with the reporter's 10 ms tick or other periodic
 * work) where a sample costs 5 us or less, down to 50 Hz.
 */
#include "profile/profile_int.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "util/log.h"

#define PF_PERIOD_NS 1003009ull		/* 997 Hz, the most */
#define PF_PERIOD_MAX_NS 20000000ull	/* 50 Hz, the least */
#define PF_COST_PCT 0.5			/* the samples' share, at most */
#define PF_CAL_NS 10000000ull		/* the calibration loop's CPU time */
#define PF_CAL_PERIOD_NS 100000ull	/* and its sampling period */
#define PF_RING_PAGES 64		/* data pages per CPU (2^n) */
#define PF_READ_MS 250			/* the reader's period */
#define PF_REG_SP 7			/* x86-64's perf register of the SP */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * perf_event_open(2). IOLITE_PERF_REFUSE=all (or =kernel: events that
 * include the kernel) stands in for a kernel that refuses, for the tests.
 */
static int pf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	const char *refuse = getenv("IOLITE_PERF_REFUSE");
	long fd;

	if (refuse && (!strcmp(refuse, "all") ||
		       (!strcmp(refuse, "kernel") && !a->exclude_kernel))) {
		errno = EACCES;
		return -1;
	}
	fd = syscall(SYS_perf_event_open, a, pid, cpu, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL &&
	    (a->sample_type & PERF_SAMPLE_STACK_USER)) {
		/* a kernel without user stacks in samples: chains as walked */
		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_REGS_USER |
					      PERF_SAMPLE_STACK_USER);
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
		fd = syscall(SYS_perf_event_open, a, pid, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0 && (errno == EINVAL || errno == EOVERFLOW) &&
	    a->sample_max_stack) {
		/*
		 * before Linux 4.8 (EINVAL), or kernel.perf_event_max_stack
		 * below ours (EOVERFLOW): the system's limit
		 */
		a->sample_max_stack = 0;
		fd = syscall(SYS_perf_event_open, a, pid, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
	}
	return (int)fd;
}

static void pf_attr(const struct profile *p, struct perf_event_attr *a,
		    bool kernel)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = p->period_ns;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_CALLCHAIN;
	if (p->unw) {
		/* the first frame's caller, when it set no frame (unwind.c) */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = 1ull << PF_REG_SP;
		a->sample_stack_user = PF_STACK_BYTES;
	}
	a->exclude_kernel = !kernel;
	a->exclude_hv = 1;
	a->comm = 1;
	a->task = p->mode == PROFILE_SYSTEM;	/* forks: the children's names */
	a->sample_max_stack = PF_MAX_STACK;
}

static int read_int_file(const char *path, int *v)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path);

	if (!ret)
		*v = atoi(sb.buf);
	strbuf_release(&sb);
	return ret;
}

static void paranoid_text(struct strbuf *sb)
{
	int v;

	if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &v))
		strbuf_addstr(sb, "kernel.perf_event_paranoid unreadable");
	else
		strbuf_addf(sb, "kernel.perf_event_paranoid=%d", v);
}

/* Why no event could be opened at all, and what to change. */
static void note_refused(struct strbuf *note, int err)
{
	int v = 99;

	read_int_file("/proc/sys/kernel/perf_event_paranoid", &v);
	strbuf_addstr(note, "CPU profile not taken: perf events are refused (");
	paranoid_text(note);
	strbuf_addf(note, ", perf_event_open: %s); ", strerror(err));
	if (err == ENOSYS || err == ENOENT || err == EOPNOTSUPP)
		strbuf_addstr(note, "this kernel lacks perf events "
			      "(CONFIG_PERF_EVENTS)");
	else if (v > 2)
		strbuf_addstr(note, "as root, `sysctl kernel.perf_event_paranoid=2` "
			      "lets a user profile its own threads (1: their "
			      "kernel side too), or run iolite as root or with "
			      "CAP_PERFMON");
	else
		strbuf_addstr(note, "a container's seccomp policy or a "
			      "security module blocks perf_event_open: allow "
			      "it, or run iolite outside the container");
}

/*
 * May this process sample itself, and its kernel side? Sets p->kernel;
 * -errno when not even user space may be sampled.
 */
static int probe(struct profile *p, struct strbuf *note)
{
	struct perf_event_attr a;
	int fd;

	pf_attr(p, &a, true);
	fd = pf_open(&a, 0, -1);
	if (fd >= 0) {
		p->kernel = true;
		close(fd);
		return 0;
	}
	if (errno != EACCES && errno != EPERM) {
		note_refused(note, errno);
		return -errno;
	}
	pf_attr(p, &a, false);
	fd = pf_open(&a, 0, -1);
	if (fd < 0) {
		note_refused(note, errno);
		return -errno;
	}
	close(fd);
	p->kernel = false;
	strbuf_addstr(note, "CPU profile: the kernel side is not sampled (");
	paranoid_text(note);
	strbuf_addstr(note, " allows a normal user its own threads in user "
		      "space only; `sysctl kernel.perf_event_paranoid=1`, "
		      "CAP_PERFMON or root shows it): the profile's \"kernel, "
		      "not sampled\" share is that time");
	return 0;
}

/* System mode needs every task of the CPUs: root or paranoid <= 0. */
static void probe_system(struct profile *p, struct strbuf *note)
{
	struct perf_event_attr a;
	int fd;

	pf_attr(p, &a, p->kernel);
	fd = pf_open(&a, -1, p->cpus[0]);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (note->len)
		strbuf_addch(note, '\n');
	strbuf_addstr(note, "CPU profile: --profile=system is refused (");
	paranoid_text(note);
	strbuf_addf(note, ", perf_event_open: %s; it needs root, CAP_PERFMON "
		    "or kernel.perf_event_paranoid=0 or less): the run's own "
		    "threads are profiled instead", strerror(errno));
	p->mode = PROFILE_THREADS;
}

static uint64_t spin(unsigned long n)
{
	volatile uint64_t x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i ^ (x >> 3);
	return x;
}

static uint64_t spin_ns(unsigned long n)
{
	uint64_t t0 = thread_cpu_ns();

	spin(n);
	return thread_cpu_ns() - t0;
}

/*
 * The cost of one sample, measured, and the period from it: a loop's
 * CPU time without an event and with one at a short period (so that the
 * samples' cost stands out of the noise), the least of three runs each.
 * The timer interrupt is charged to the thread it interrupts. A sample
 * costs 1-3 us on bare metal and tens of microseconds in some virtual
 * machines, where the timer is emulated: the period keeps the samples'
 * cost near PF_COST_PCT of the CPU time they watch.
 */
static void calibrate(struct profile *p)
{
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (1 + 8);
	unsigned long n = 1 << 16;
	uint64_t best_off = UINT64_MAX, best_on = UINT64_MAX, count = 0;
	void *ring;
	int fd, i;

	while (n < (1ul << 30) && spin_ns(n) < PF_CAL_NS)
		n <<= 1;
	pf_attr(p, &a, p->kernel);
	a.sample_period = PF_CAL_PERIOD_NS;
	a.disabled = 1;
	fd = pf_open(&a, 0, -1);
	if (fd < 0)
		return;
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	for (i = 0; i < 3; i++) {
		uint64_t t, c0 = 0, c1 = 0;

		t = spin_ns(n);
		if (t < best_off)
			best_off = t;
		if (read(fd, &c0, sizeof(c0)) != sizeof(c0))
			break;
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		t = spin_ns(n);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &c1, sizeof(c1)) != sizeof(c1))
			break;
		if (t < best_on) {
			best_on = t;
			count = c1 - c0;
		}
	}
	if (ring != MAP_FAILED)
		munmap(ring, len);
	close(fd);
	if (best_on != UINT64_MAX && best_on > best_off &&
	    count >= PF_CAL_PERIOD_NS)
		p->per_sample_ns = (best_on - best_off) /
				   (count / PF_CAL_PERIOD_NS);
	if (p->per_sample_ns * (100 / PF_COST_PCT) > p->period_ns)
		p->period_ns = p->per_sample_ns * (100 / PF_COST_PCT);
	if (p->period_ns > PF_PERIOD_MAX_NS)
		p->period_ns = PF_PERIOD_MAX_NS;
}

static int online_cpus(struct profile *p)
{
	long n = sysconf(_SC_NPROCESSORS_CONF), c;
	cpu_set_t set;

	if (n < 1)
		n = 1;
	if (cpulist_read("/sys/devices/system/cpu/online", &set))
		CPU_ZERO(&set);
	p->cpus = xcalloc((size_t)n, sizeof(*p->cpus));
	for (c = 0; c < n; c++)
		if (!CPU_COUNT(&set) || CPU_ISSET((int)c, &set))
			p->cpus[p->nr_cpus++] = (int)c;
	return 0;
}

struct profile *profile_new(enum profile_mode mode, unsigned int hz,
			    const int *cpus, unsigned int nr_cpus,
			    struct strbuf *note)
{
	struct profile *p;

	if (mode == PROFILE_OFF)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->mode = mode;
	p->pid = getpid();
	p->period_ns = PF_PERIOD_NS;
	if (mode == PROFILE_SYSTEM && nr_cpus) {
		p->cpus = xcalloc(nr_cpus, sizeof(*p->cpus));
		memcpy(p->cpus, cpus, nr_cpus * sizeof(*cpus));
		p->nr_cpus = nr_cpus;
	} else {
		online_cpus(p);
	}
	p->unw = pf_unwind_new();
	if (probe(p, note)) {
		profile_free(p);
		return NULL;
	}
	if (mode == PROFILE_SYSTEM)
		probe_system(p, note);
	if (p->mode == PROFILE_THREADS && mode == PROFILE_SYSTEM) {
		free(p->cpus);
		p->cpus = NULL;
		p->nr_cpus = 0;
		online_cpus(p);
	}
	calibrate(p);
	if (hz)
		p->period_ns = 1000000000ull / hz;
	return p;
}

/* --- the table of call chains --------------------------------------- */

static uint32_t hash_chain(uint32_t comm, const uint64_t *ips, uint32_t nr)
{
	uint64_t h = 0xcbf29ce484222325ull ^ comm;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		h ^= ips[i];
		h *= 0x100000001b3ull;
		h ^= h >> 29;
	}
	return (uint32_t)(h ^ (h >> 32));
}

static void table_grow(struct pf_table *t)
{
	unsigned int i, nb = t->nb ? t->nb * 2 : 256;

	free(t->bucket);
	t->bucket = xmalloc(nb * sizeof(*t->bucket));
	memset(t->bucket, 0xff, nb * sizeof(*t->bucket));
	t->nb = nb;
	for (i = 0; i < t->nr; i++) {
		uint32_t b = t->st[i].hash & (nb - 1);

		t->st[i].next = t->bucket[b];
		t->bucket[b] = i;
	}
}

static void table_add(struct pf_table *t, uint32_t comm, bool own,
		      const uint64_t *ips, uint32_t nr)
{
	uint32_t h = hash_chain(comm, ips, nr), i;
	struct pf_stack *s;

	if (t->nb)
		for (i = t->bucket[h & (t->nb - 1)]; i != UINT32_MAX;
		     i = t->st[i].next) {
			s = &t->st[i];
			if (s->hash == h && s->comm == comm && s->nr == nr &&
			    !memcmp(&t->ips[s->off], ips, nr * sizeof(*ips))) {
				s->count++;
				return;
			}
		}
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 256;
		t->st = xrealloc(t->st, t->alloc * sizeof(*t->st));
	}
	if (t->nr_ips + nr > t->alloc_ips) {
		while (t->nr_ips + nr > t->alloc_ips)
			t->alloc_ips = t->alloc_ips ? t->alloc_ips * 2 : 4096;
		t->ips = xrealloc(t->ips, t->alloc_ips * sizeof(*t->ips));
	}
	s = &t->st[t->nr];
	s->hash = h;
	s->comm = comm;
	s->nr = nr;
	s->off = t->nr_ips;
	s->count = 1;
	s->own = own;
	memcpy(&t->ips[t->nr_ips], ips, nr * sizeof(*ips));
	t->nr_ips += nr;
	t->nr++;
	if (t->nr > t->nb)
		table_grow(t);
	else {
		uint32_t b = h & (t->nb - 1);

		s->next = t->bucket[b];
		t->bucket[b] = t->nr - 1;
	}
}

static void table_release(struct pf_table *t)
{
	free(t->st);
	free(t->bucket);
	free(t->ips);
	memset(t, 0, sizeof(*t));
}

/* --- thread names ----------------------------------------------------- */

/* "iou-wrk-1234" -> "iou-wrk": one root per kind of thread */
static uint32_t comm_intern(struct profile *p, const char *name)
{
	char buf[32];
	size_t n;
	unsigned int i;

	snprintf(buf, sizeof(buf), "%s", name);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	while (n && buf[n - 1] >= '0' && buf[n - 1] <= '9')
		n--;
	if (n > 1 && n < strlen(buf) && (buf[n - 1] == '-' || buf[n - 1] == '/'))
		buf[n - 1] = '\0';
	if (!buf[0])
		snprintf(buf, sizeof(buf), "?");
	for (i = 0; i < p->nr_comm; i++)
		if (!strcmp(p->comm[i], buf))
			return i;
	p->comm = xrealloc(p->comm, (p->nr_comm + 1) * sizeof(*p->comm));
	p->comm[p->nr_comm] = xstrdup(buf);
	return p->nr_comm++;
}

static void tid_set(struct profile *p, pid_t tid, uint32_t comm)
{
	unsigned int i;

	for (i = 0; i < p->nr_tids; i++)
		if (p->tids[i].tid == tid) {
			p->tids[i].comm = comm;
			return;
		}
	if (p->nr_tids == p->alloc_tids) {
		p->alloc_tids = p->alloc_tids ? p->alloc_tids * 2 : 64;
		p->tids = xrealloc(p->tids, p->alloc_tids * sizeof(*p->tids));
	}
	p->tids[p->nr_tids].tid = tid;
	p->tids[p->nr_tids++].comm = comm;
}

static uint32_t tid_comm(struct profile *p, pid_t pid, pid_t tid)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64];
	uint32_t c;
	unsigned int i;

	for (i = p->nr_tids; i-- > 0;)
		if (p->tids[i].tid == tid)
			return p->tids[i].comm;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
		 (int)tid);
	if (strbuf_read_file(&sb, path)) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, tid ? "[exited]" : "swapper");
	}
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	/* another run of this program (system mode): not this run's */
	if (pid != p->pid && !strncmp(sb.buf, program_invocation_short_name,
				       15))
		strbuf_addstr(&sb, " (another)");
	c = comm_intern(p, sb.buf);
	strbuf_release(&sb);
	tid_set(p, tid, c);
	return c;
}

/* --- the rings -------------------------------------------------------- */

/*
 * The caller a frame-pointer walk skips when the first user frame set no
 * frame (unwind.c), put after it; r: the words past the call chain (the
 * user registers, then the stack), words of them.
 */
static void unwind_first(struct profile *p, uint64_t *ips, uint32_t *n,
			 uint32_t u0, const uint64_t *r, size_t words)
{
	uint64_t size, dyn, sp, ret;
	int off;

	if (words < 3 || !r[0])		/* PERF_SAMPLE_REGS_ABI_NONE */
		return;
	sp = r[1];
	size = r[2];
	if (size / 8 + 4 > words)
		return;
	dyn = r[3 + size / 8];
	off = pf_unwind_cfa_sp(p->unw, ips[u0]);
	if (!off || (uint64_t)off > dyn || (uint64_t)off > size || !sp)
		return;
	memcpy(&ret, (const char *)(r + 3) + off - 8, sizeof(ret));
	if (!ret || PF_KERNEL_ADDR(ret) || *n >= PF_STACK_MAX)
		return;
	memmove(&ips[u0 + 2], &ips[u0 + 1], (*n - u0 - 1) * sizeof(*ips));
	ips[u0 + 1] = ret;
	(*n)++;
}

static void on_sample(struct profile *p, const uint64_t *r, size_t words)
{
	uint64_t ips[PF_STACK_MAX];
	uint32_t pid, tid, n = 0, u0 = UINT32_MAX;
	uint64_t nr, i;
	bool own;

	if (words < 3)
		return;
	pid = (uint32_t)r[1];
	tid = (uint32_t)(r[1] >> 32);
	nr = r[2];
	if (nr > words - 3)
		nr = words - 3;
	for (i = 0; i < nr && n < ARRAY_SIZE(ips) - 1; i++) {
		if (r[3 + i] >= PERF_CONTEXT_MAX)
			continue;
		if (u0 == UINT32_MAX && !PF_KERNEL_ADDR(r[3 + i]))
			u0 = n;
		ips[n++] = r[3 + i];
	}
	if (!n)
		ips[n++] = r[0];
	own = (pid_t)pid == p->pid;
	if (p->unw && own && u0 != UINT32_MAX)
		unwind_first(p, ips, &n, u0, r + 3 + nr, words - 3 - nr);
	p->cur->samples++;
	table_add(&p->cur->tab, tid_comm(p, (pid_t)pid, (pid_t)tid), own,
		  ips, n);
}

/* rec: a whole record, 8-byte aligned: the header, then its body */
static void on_record(struct profile *p, const uint64_t *rec)
{
	struct perf_event_header hdr, *h = &hdr;
	const uint64_t *body = rec + 1;
	size_t words;

	memcpy(&hdr, rec, sizeof(hdr));
	words = (h->size - sizeof(*h)) / 8;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(p, body, words);
		break;
	case PERF_RECORD_LOST:
		if (words >= 2)
			p->cur->lost += body[1];
		break;
	case PERF_RECORD_FORK: {
		/* a child not yet exec'd: its parent's name (it may end soon) */
		const uint32_t *ids = (const uint32_t *)body;

		if (words >= 2 && ids[2] != ids[3])
			tid_set(p, (pid_t)ids[2],
				tid_comm(p, (pid_t)ids[1], (pid_t)ids[3]));
		break;
	}
	case PERF_RECORD_COMM: {
		const uint32_t *ids = (const uint32_t *)body;

		if (h->size > sizeof(*h) + 8)
			tid_set(p, (pid_t)ids[1],
				comm_intern(p, (const char *)(ids + 2)));
		break;
	}
	default:
		break;
	}
}

static void drain(struct profile *p, struct pf_ring *r)
{
	struct perf_event_mmap_page *mp = r->base;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = r->len - page;
	const unsigned char *data = (const unsigned char *)r->base + page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	uint64_t rec[(65536 + 7) / 8];

	while (tail < head) {
		struct perf_event_header h;
		size_t at = tail & (size - 1), first;

		memcpy(&h, data + at, sizeof(h));	/* 8 bytes: never split */
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		first = size - at < h.size ? size - at : h.size;
		memcpy(rec, data + at, first);
		memcpy((unsigned char *)rec + first, data, h.size - first);
		on_record(p, rec);
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain_all(struct profile *p)
{
	unsigned int c;

	for (c = 0; c < p->nr_cpus; c++)
		if (p->ring[c].base)
			drain(p, &p->ring[c]);
}

static void *reader_main(void *arg)
{
	struct profile *p = arg;

	struct pollfd pfd = { .fd = p->wake, .events = POLLIN };

	/* the eventfd cuts the wait short at the phase's end */
	while (!atomic_load_explicit(&p->stop, memory_order_acquire)) {
		poll(&pfd, 1, PF_READ_MS);
		drain_all(p);
	}
	p->reader_ns = thread_cpu_ns();
	return NULL;
}

/* --- a group's events ------------------------------------------------- */

static void fd_add(struct profile *p, int fd)
{
	if (p->nr_fds == p->alloc_fds) {
		p->alloc_fds = p->alloc_fds ? p->alloc_fds * 2 : 64;
		p->fds = xrealloc(p->fds, p->alloc_fds * sizeof(*p->fds));
	}
	p->fds[p->nr_fds++] = fd;
}

/*
 * The CPU's ring, or the output of fd set to it. A normal user's rings
 * count against kernel.perf_event_mlock_kb (and RLIMIT_MEMLOCK beyond
 * it): smaller ones are tried before the CPU goes without.
 */
static void attach_output(struct profile *p, unsigned int c, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pf_ring *r = &p->ring[c];
	size_t pages;

	if (r->base) {
		ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd);
		return;
	}
	for (pages = PF_RING_PAGES; pages >= 4; pages /= 4) {
		r->len = (size_t)page * (1 + pages);
		r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);
		if (r->base != MAP_FAILED) {
			r->fd = fd;
			return;
		}
	}
	r->base = NULL;
	p->ring_failed = true;
}

/* Keeps room for the run's own files: events may take half of the rest. */
static bool fds_left(struct profile *p)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return true;
	return p->nr_fds + p->nr_cpus < rl.rlim_cur / 2;
}

/* One event per thread of the process and CPU, inherited. */
static void open_threads(struct profile *p)
{
	struct perf_event_attr a;
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");
	unsigned int c;

	if (!d)
		return;
	pf_attr(p, &a, p->kernel);
	a.inherit = 1;
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);
		bool any = false;

		if (tid <= 0)
			continue;
		if (!fds_left(p)) {
			p->fd_limited = true;
			break;
		}
		for (c = 0; c < p->nr_cpus; c++) {
			int fd = pf_open(&a, tid, p->cpus[c]);

			if (fd < 0)
				continue;	/* gone, or a CPU offline */
			fd_add(p, fd);
			attach_output(p, c, fd);
			any = true;
		}
		if (any) {
			p->cur->threads++;
			tid_comm(p, p->pid, tid);
		}
	}
	closedir(d);
}

static void open_system(struct profile *p)
{
	struct perf_event_attr a;
	unsigned int c;

	pf_attr(p, &a, p->kernel);
	for (c = 0; c < p->nr_cpus; c++) {
		int fd = pf_open(&a, -1, p->cpus[c]);

		if (fd < 0)
			continue;
		fd_add(p, fd);
		attach_output(p, c, fd);
	}
}

static void phase_begin(struct profile *p, unsigned int groupid)
{
	p->groups = xrealloc(p->groups, (p->nr_groups + 1) * sizeof(*p->groups));
	p->cur = &p->groups[p->nr_groups++];
	memset(p->cur, 0, sizeof(*p->cur));
	p->cur->groupid = groupid;
	p->ring = xcalloc(p->nr_cpus, sizeof(*p->ring));
	atomic_store(&p->stop, 0);
	p->reader_ns = 0;
	if (p->mode == PROFILE_SYSTEM) {
		open_system(p);
		p->cur->threads = p->nr_cpus;
	} else {
		open_threads(p);
	}
	/* started by a sampled thread: it inherits its events */
	p->wake = eventfd(0, EFD_CLOEXEC);
	p->reading = p->wake >= 0 &&
		     !pthread_create(&p->reader, NULL, reader_main, p);
	if (!p->reading && p->wake >= 0)
		close(p->wake);
	p->cur->on = true;
	p->cur->since_ns = mono_ns();
}

static void set_all(struct profile *p, bool on)
{
	unsigned int i;

	for (i = 0; i < p->nr_fds; i++)
		ioctl(p->fds[i], on ? PERF_EVENT_IOC_ENABLE :
		      PERF_EVENT_IOC_DISABLE, 0);
	if (on) {
		p->cur->since_ns = mono_ns();
	} else if (p->cur->on) {
		p->cur->wall_ns += mono_ns() - p->cur->since_ns;
	}
	p->cur->on = on;
}

static void phase_end(struct profile *p)
{
	struct pf_group *g = p->cur;
	unsigned int i;

	set_all(p, false);
	atomic_store_explicit(&p->stop, 1, memory_order_release);
	if (p->reading) {
		uint64_t one = 1;

		if (write(p->wake, &one, sizeof(one)) != sizeof(one))
			BUG("eventfd write failed");
		pthread_join(p->reader, NULL);
		close(p->wake);
	}
	p->reading = false;
	g->read_ns += p->reader_ns;
	drain_all(p);
	for (i = 0; i < p->nr_fds; i++) {
		uint64_t v;

		if (read(p->fds[i], &v, sizeof(v)) == sizeof(v))
			g->cpu_ns += v;
	}
	for (i = 0; i < p->nr_cpus; i++)
		if (p->ring[i].base)
			munmap(p->ring[i].base, p->ring[i].len);
	for (i = 0; i < p->nr_fds; i++)
		close(p->fds[i]);
	free(p->ring);
	p->ring = NULL;
	p->nr_fds = 0;
	p->cur = NULL;
}

void profile_phase(struct profile *p, unsigned int groupid,
		   enum profile_phase what)
{
	uint64_t t0;

	if (!p || (what != PROFILE_BEGIN && !p->cur))
		return;
	if (what == PROFILE_BEGIN && p->cur)
		phase_end(p);
	t0 = thread_cpu_ns();
	switch (what) {
	case PROFILE_BEGIN:
		phase_begin(p, groupid);
		p->cur->setup_ns += thread_cpu_ns() - t0;
		return;
	case PROFILE_PAUSE:
		set_all(p, false);
		break;
	case PROFILE_RESUME:
		set_all(p, true);
		break;
	case PROFILE_END: {
		struct pf_group *g = p->cur;

		phase_end(p);
		g->setup_ns += thread_cpu_ns() - t0;
		return;
	}
	}
	p->cur->setup_ns += thread_cpu_ns() - t0;
}

void profile_free(struct profile *p)
{
	unsigned int i;

	if (!p)
		return;
	if (p->cur)
		phase_end(p);
	pf_results_free(p);
	pf_syms_free(p->syms);
	pf_unwind_free(p->unw);
	for (i = 0; i < p->nr_groups; i++)
		table_release(&p->groups[i].tab);
	for (i = 0; i < p->nr_comm; i++)
		free(p->comm[i]);
	free(p->comm);
	free(p->tids);
	free(p->groups);
	free(p->fds);
	free(p->cpus);
	free(p);
}

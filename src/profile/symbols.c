/* SPDX-License-Identifier: MIT */
/*
 * The naming half of --profile: addresses to functions, call chains to
 * the per-group tables of profile_result, and folded stacks.
 *
 * Kernel addresses are looked up in /proc/kallsyms (read once, after the
 * run). User-space addresses of this process are looked up in its
 * mappings (/proc/self/maps) and, when iolite is built with elfutils'
 * libdw, named by libdwfl from the binaries' symbol tables; without it
 * they stay "module+offset" (the offset in the file, which `addr2line
 * -f -e FILE` reads). User-space chains past the leaf follow frame
 * pointers: a frame outside an executable mapping ends the chain, since
 * code built without frame pointers leaves other values there.
 */
#include "profile/profile_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

#include "util/log.h"

struct ksym {
	uint64_t addr;
	const char *name;
	const char *mod;	/* NULL: the kernel image */
};

struct umap {
	uint64_t start, end, pgoff;
	char *path;
	const char *base;	/* file name, "[vdso]" */
	bool exe;		/* the iolite executable */
};

struct pf_syms {
	char *ktext;		/* /proc/kallsyms, names point into it */
	struct ksym *k;
	size_t nr_k;
	bool k_hidden;		/* every address read as 0 */
	struct umap *maps;
	unsigned int nr_maps;
#ifdef HAVE_LIBDW
	Dwfl *dwfl;
#endif
};

/* --- kernel ----------------------------------------------------------- */

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "ffffffff81000000 T _stext" or "... t name\t[module]" */
static void load_kallsyms(struct pf_syms *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	size_t alloc = 0;
	bool any_addr = false;

	/* IOLITE_KALLSYMS: a stand-in file, for the tests */
	if (strbuf_read_file(&sb, getenv("IOLITE_KALLSYMS") ?
			     getenv("IOLITE_KALLSYMS") : "/proc/kallsyms"))
		return;
	s->ktext = strbuf_detach(&sb);
	for (line = s->ktext; line && *line; line = next) {
		char *type, *name, *mod, *end;
		uint64_t addr;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		addr = strtoull(line, &end, 16);
		if (*end != ' ')
			continue;
		type = end + 1;
		if ((*type != 't' && *type != 'T' && *type != 'w' &&
		     *type != 'W') || type[1] != ' ')
			continue;
		if (addr)
			any_addr = true;
		name = type + 2;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[')
				mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		if (s->nr_k == alloc) {
			alloc = alloc ? alloc * 2 : 65536;
			s->k = xrealloc(s->k, alloc * sizeof(*s->k));
		}
		s->k[s->nr_k].addr = addr;
		s->k[s->nr_k].name = name;
		s->k[s->nr_k++].mod = mod;
	}
	s->k_hidden = s->nr_k && !any_addr;
	if (s->k_hidden)
		s->nr_k = 0;
	qsort(s->k, s->nr_k, sizeof(*s->k), ksym_cmp);
}

static const struct ksym *ksym_find(const struct pf_syms *s, uint64_t a)
{
	size_t lo = 0, hi = s->nr_k;

	if (!s->nr_k || a < s->k[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->k[mid].addr <= a)
			lo = mid;
		else
			hi = mid;
	}
	return &s->k[lo];
}

/* --- user space ------------------------------------------------------- */

static void load_maps(struct pf_syms *s)
{
	struct strbuf sb = STRBUF_INIT;
	char exe[4096], *line, *next;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	if (strbuf_read_file(&sb, "/proc/self/maps"))
		return;
	for (line = sb.buf; line && *line; line = next) {
		unsigned long long start, end, off;
		char perms[8];
		int pos = 0;
		struct umap *m;
		const char *path;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &off, &pos) < 4 || !pos || perms[2] != 'x')
			continue;
		path = line + pos;
		if (!*path)
			continue;
		s->maps = xrealloc(s->maps, (s->nr_maps + 1) * sizeof(*s->maps));
		m = &s->maps[s->nr_maps++];
		m->start = start;
		m->end = end;
		m->pgoff = off;
		m->path = xstrdup(path);
		m->base = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 :
			  m->path;
		m->exe = exe[0] && !strcmp(path, exe);
	}
	strbuf_release(&sb);
}

static const struct umap *umap_find(const struct pf_syms *s, uint64_t a)
{
	unsigned int i;

	for (i = 0; i < s->nr_maps; i++)
		if (a >= s->maps[i].start && a < s->maps[i].end)
			return &s->maps[i];
	return NULL;
}

#ifdef HAVE_LIBDW
/* Separate debug files only from the disk, never from a debuginfod. */
static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname,
			  Dwarf_Addr base, const char *file,
			  const char *debuglink, GElf_Word crc, char **name)
{
	if (getenv("DEBUGINFOD_URLS"))
		return -1;
	return dwfl_standard_find_debuginfo(mod, ud, modname, base, file,
					    debuglink, crc, name);
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = find_debuginfo,
};

static void load_dwfl(struct pf_syms *s)
{
	s->dwfl = dwfl_begin(&dwfl_cbs);
	if (!s->dwfl)
		return;
	dwfl_report_begin(s->dwfl);
	if (dwfl_linux_proc_report(s->dwfl, getpid()) ||
	    dwfl_report_end(s->dwfl, NULL, NULL)) {
		dwfl_end(s->dwfl);
		s->dwfl = NULL;
	}
}

static const char *dwfl_name(struct pf_syms *s, uint64_t a)
{
	Dwfl_Module *m;

	if (!s->dwfl)
		return NULL;
	m = dwfl_addrmodule(s->dwfl, a);
	return m ? dwfl_module_addrname(m, a) : NULL;
}
#else
static void load_dwfl(struct pf_syms *s)
{
}

static const char *dwfl_name(struct pf_syms *s, uint64_t a)
{
	return NULL;
}
#endif

void pf_syms_free(struct pf_syms *s)
{
	unsigned int i;

	if (!s)
		return;
#ifdef HAVE_LIBDW
	if (s->dwfl)
		dwfl_end(s->dwfl);
#endif
	for (i = 0; i < s->nr_maps; i++)
		free(s->maps[i].path);
	free(s->maps);
	free(s->k);
	free(s->ktext);
	free(s);
}

/* --- one frame -------------------------------------------------------- */

struct frame {
	char name[256];
	const char *module;
	enum profile_area area;
	bool kernel;
};

/*
 * Names the frame at a (leaf: the sampled instruction; else a return
 * address, looked up one byte back so that a call at a function's end
 * is not given to the next one). False: not a frame to keep.
 */
static bool name_frame(struct pf_syms *s, uint64_t a, bool leaf, bool own,
		       const char *comm, struct frame *f)
{
	uint64_t q = leaf ? a : a - 1;

	f->kernel = PF_KERNEL_ADDR(a);
	if (f->kernel) {
		const struct ksym *k = ksym_find(s, q);

		f->module = k && k->mod ? k->mod : "kernel";
		if (k)
			snprintf(f->name, sizeof(f->name), "%s", k->name);
		else
			snprintf(f->name, sizeof(f->name), "[kernel]");
		f->area = profile_kernel_area(f->name, k ? k->mod : NULL);
		return true;
	}
	if (!own) {
		if (!leaf)
			return false;
		/* another process's user space: named by its thread */
		snprintf(f->name, sizeof(f->name), "[user]");
		f->module = comm;
		f->area = PA_OTHER_PROC;
		return true;
	}
	{
		const struct umap *m = umap_find(s, q);
		const char *fn;

		if (!m) {
			if (!leaf)
				return false;
			snprintf(f->name, sizeof(f->name), "[unknown]");
			f->module = "?";
			f->area = PA_LIBS;
			return true;
		}
		f->module = m->exe ? "iolite" : m->base;
		f->area = m->exe ? PA_IOLITE : PA_LIBS;
		fn = dwfl_name(s, q);
		if (fn)
			snprintf(f->name, sizeof(f->name), "%s", fn);
		else
			snprintf(f->name, sizeof(f->name), "%s+0x%" PRIx64,
				 f->module, q - m->start + m->pgoff);
	}
	return true;
}

/* --- a group's table -------------------------------------------------- */

struct fn_index {
	uint32_t *slot;		/* fn index + 1; 0: empty */
	unsigned int size;	/* power of 2 */
};

static uint32_t str_hash(const char *a, const char *b)
{
	uint32_t h = 2166136261u;

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 16777619u;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 16777619u;
	return h;
}

static unsigned int fn_get(struct profile_result *r, struct fn_index *ix,
			   const struct frame *f)
{
	uint32_t h = str_hash(f->name, f->module);
	unsigned int i, k;

	if (r->nr_fn * 2 >= ix->size) {
		unsigned int size = ix->size ? ix->size * 2 : 1024;

		free(ix->slot);
		ix->slot = xcalloc(size, sizeof(*ix->slot));
		ix->size = size;
		for (k = 0; k < r->nr_fn; k++) {
			i = str_hash(r->fn[k].name, r->fn[k].module) & (size - 1);
			while (ix->slot[i])
				i = (i + 1) & (size - 1);
			ix->slot[i] = k + 1;
		}
	}
	for (i = h & (ix->size - 1); ix->slot[i]; i = (i + 1) & (ix->size - 1)) {
		const struct profile_fn *fn = &r->fn[ix->slot[i] - 1];

		if (!strcmp(fn->name, f->name) && !strcmp(fn->module, f->module))
			return ix->slot[i] - 1;
	}
	r->fn = xrealloc(r->fn, (r->nr_fn + 1) * sizeof(*r->fn));
	memset(&r->fn[r->nr_fn], 0, sizeof(r->fn[0]));
	r->fn[r->nr_fn].name = xstrdup(f->name);
	r->fn[r->nr_fn].module = xstrdup(f->module);
	r->fn[r->nr_fn].area = f->area;
	ix->slot[i] = r->nr_fn + 1;
	return r->nr_fn++;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct profile_fn *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * A kernel leaf of no known area (a generic helper: kfree, xas_load, the
 * irq enable where a deferred timer interrupt lands) gives its sample to
 * the area of its nearest caller that has one, up to this many frames
 * up. The function table keeps the leaf's own name and area.
 */
#define AREA_UP 4

/* The flame graph's tree stops growing here (a big enough picture). */
#define NODES_MAX 50000

static unsigned int node_child(struct profile_result *r, unsigned int parent,
			       const char *name, const char *module,
			       enum profile_area area, bool kernel)
{
	unsigned int c, last = 0;
	struct profile_node *n;

	for (c = r->node[parent].child; c; last = c, c = r->node[c].sibling)
		if (r->node[c].name == name && r->node[c].module == module)
			return c;
	if (r->nr_node >= NODES_MAX)
		return 0;
	r->node = xrealloc(r->node, (r->nr_node + 1) * sizeof(*r->node));
	n = &r->node[r->nr_node];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->module = module;
	n->area = area;
	n->kernel = kernel;
	if (last)
		r->node[last].sibling = r->nr_node;
	else
		r->node[parent].child = r->nr_node;
	return r->nr_node++;
}

/*
 * The chain's path from the root; fn[] may move while the table grows,
 * so the frames are function indexes until every stack is in and the
 * names are fixed (tree_names()).
 */
static void tree_add(struct profile_result *r, const char *comm,
		     const unsigned int *fns, unsigned int nr, uint64_t count)
{
	unsigned int at;

	r->node[0].count += count;
	at = node_child(r, 0, comm, NULL, PA_NR, false);
	while (at) {
		r->node[at].count += count;
		if (!nr)
			break;
		nr--;
		/* module NULL marks a thread; a frame's is its fn index + 1 */
		at = node_child(r, at, NULL, (const char *)(uintptr_t)(fns[nr] + 1),
				PA_NR, false);
	}
}

static void add_stack(struct profile *p, struct profile_result *r,
		      struct fn_index *ix, const struct pf_stack *st,
		      const uint64_t *ips)
{
	unsigned int seen[PF_STACK_MAX], nr_seen = 0, i, k;
	unsigned int chain[PF_STACK_MAX], nr_chain = 0;
	enum profile_area area = PA_NR;
	bool user = false;

	for (i = 0; i < st->nr && nr_seen < PF_STACK_MAX; i++) {
		struct frame f;
		unsigned int idx;

		if (!PF_KERNEL_ADDR(ips[i])) {
			if (user && !umap_find(p->syms, ips[i] - 1))
				break;	/* not a frame pointer's chain */
		}
		if (!name_frame(p->syms, ips[i], i == 0, st->own,
				p->comm[st->comm], &f))
			break;
		user = user || !f.kernel;
		idx = fn_get(r, ix, &f);
		chain[nr_chain++] = idx;
		if (i == 0) {
			r->fn[idx].self += st->count;
			area = f.area;
		} else if (area == PA_K_OTHER && f.kernel && f.area != PA_K_OTHER &&
			   i <= AREA_UP) {
			/* a helper (kfree, irq enable) counts for its caller */
			area = f.area;
		}
		for (k = 0; k < nr_seen && seen[k] != idx; k++)
			;
		if (k == nr_seen) {
			seen[nr_seen++] = idx;
			r->fn[idx].total += st->count;
		}
	}
	if (area < PA_NR)
		r->area[area] += st->count;
	tree_add(r, p->comm[st->comm], chain, nr_chain, st->count);
}

/* The frames' function indexes become their names, before fn[] sorts. */
static void tree_names(struct profile_result *r)
{
	unsigned int i;

	for (i = 1; i < r->nr_node; i++) {
		struct profile_node *n = &r->node[i];
		const struct profile_fn *fn;

		if (n->name)
			continue;	/* a thread */
		fn = &r->fn[(uintptr_t)n->module - 1];
		n->name = fn->name;
		n->module = fn->module;
		n->area = fn->area;
		n->kernel = fn->area >= PA_K_IO_URING && fn->area <= PA_K_HIDDEN;
	}
}

static void build_group(struct profile *p, const struct pf_group *g,
			struct profile_result *r)
{
	struct fn_index ix = { NULL, 0 };
	unsigned int i;
	uint64_t cost;

	memset(r, 0, sizeof(*r));
	r->groupid = g->groupid;
	r->mode = p->mode == PROFILE_SYSTEM ? "system" : "threads";
	r->period_ns = p->period_ns;
	r->samples = g->samples;
	r->lost = g->lost;
	r->cpu_ns = g->cpu_ns;
	r->wall_ns = g->wall_ns;
	r->threads = g->threads;
	r->node = xcalloc(1, sizeof(*r->node));
	r->node[0].name = "all";
	r->node[0].area = PA_NR;
	r->nr_node = 1;
	for (i = 0; i < g->tab.nr; i++)
		add_stack(p, r, &ix, &g->tab.st[i], &g->tab.ips[g->tab.st[i].off]);
	free(ix.slot);
	tree_names(r);
	qsort(r->fn, r->nr_fn, sizeof(*r->fn), fn_cmp);
	/* what the event counted but could not sample: the kernel side */
	if (!p->kernel && p->period_ns &&
	    g->cpu_ns / p->period_ns > g->samples + g->lost)
		r->area[PA_K_HIDDEN] = g->cpu_ns / p->period_ns - g->samples -
				       g->lost;
	r->per_sample_ns = p->per_sample_ns;
	r->read_ns = g->read_ns + g->setup_ns;
	cost = g->samples * p->per_sample_ns + r->read_ns;
	r->cost_pct = g->cpu_ns ? 100.0 * (double)cost / (double)g->cpu_ns : 0;
}

/*
 * --repeat: the profiler spans every run, so a group comes once a run;
 * its k-th phase is run k (all 0 when no group came twice).
 */
static void number_runs(struct profile_result *r, unsigned int nr)
{
	unsigned int i, j, twice = 0;

	for (i = 0; i < nr; i++) {
		r[i].run = 1;
		for (j = 0; j < i; j++)
			if (r[j].groupid == r[i].groupid)
				r[i].run++;
		if (r[i].run > 1)
			twice = 1;
	}
	for (i = 0; !twice && i < nr; i++)
		r[i].run = 0;
}

void pf_results_build(struct profile *p, struct strbuf *note)
{
	unsigned int i;
	bool kernel = false, user = false;

	p->syms = xcalloc(1, sizeof(*p->syms));
	for (i = 0; i < p->nr_groups; i++) {
		const struct pf_table *t = &p->groups[i].tab;
		size_t k;

		for (k = 0; k < t->nr_ips; k++) {
			if (PF_KERNEL_ADDR(t->ips[k]))
				kernel = true;
			else
				user = true;
		}
	}
	if (kernel)
		load_kallsyms(p->syms);
	if (user) {
		load_maps(p->syms);
		load_dwfl(p->syms);
	}
	p->res = xcalloc(p->nr_groups ? p->nr_groups : 1, sizeof(*p->res));
	for (i = 0; i < p->nr_groups; i++)
		build_group(p, &p->groups[i], &p->res[i]);
	p->nr_res = p->nr_groups;
	number_runs(p->res, p->nr_res);
	if (kernel && p->syms->k_hidden) {
		struct strbuf v = STRBUF_INIT;

		if (note->len)
			strbuf_addch(note, '\n');
		strbuf_read_file(&v, "/proc/sys/kernel/kptr_restrict");
		strbuf_addf(note, "CPU profile: kernel symbols are hidden "
			    "(kernel.kptr_restrict=%d): kernel frames show as "
			    "[kernel]; `sysctl kernel.kptr_restrict=0` (or 1 "
			    "and root or CAP_SYSLOG) names them",
			    v.len ? atoi(v.buf) : -1);
		strbuf_release(&v);
	}
#ifndef HAVE_LIBDW
	if (user) {
		if (note->len)
			strbuf_addch(note, '\n');
		strbuf_addstr(note, "CPU profile: user-space functions show as "
			      "module+offset: this iolite was built without "
			      "elfutils' libdw (apt-get install libdw-dev, "
			      "then rebuild)");
	}
#endif
	if (p->ring_failed) {
		if (note->len)
			strbuf_addch(note, '\n');
		strbuf_addstr(note, "CPU profile: the samples of some CPUs are "
			      "missing: their ring buffer could not be mapped "
			      "(kernel.perf_event_mlock_kb, ulimit -l)");
	}
	if (p->fd_limited) {
		if (note->len)
			strbuf_addch(note, '\n');
		strbuf_addstr(note, "CPU profile: not every thread is sampled: "
			      "the events would take more than half of the "
			      "open files limit (ulimit -n)");
	}
}

void pf_results_free(struct profile *p)
{
	unsigned int i, k;

	for (i = 0; i < p->nr_res; i++) {
		for (k = 0; k < p->res[i].nr_fn; k++) {
			free(p->res[i].fn[k].name);
			free(p->res[i].fn[k].module);
		}
		free(p->res[i].fn);
		free(p->res[i].node);
	}
	free(p->res);
	p->res = NULL;
	p->nr_res = 0;
}

const struct profile_result *profile_results(struct profile *p,
					     unsigned int *nr,
					     struct strbuf *note)
{
	*nr = 0;
	if (!p)
		return NULL;
	if (!p->built) {
		pf_results_build(p, note);
		p->built = true;
	}
	*nr = p->nr_res;
	return p->res;
}

/* --- folded stacks ---------------------------------------------------- */

/*
 * One line per path of the call tree that has samples of its own (its
 * count less its children's), root first, kernel functions marked
 * "_[k]" as flame graph tools colour them.
 */
static void folded_node(FILE *f, const struct profile_result *r,
			unsigned int n, unsigned int *path, unsigned int depth,
			const char *root)
{
	uint64_t self = r->node[n].count;
	unsigned int c, k;

	if (depth >= PF_STACK_MAX + 2)
		return;
	path[depth] = n;
	for (c = r->node[n].child; c; c = r->node[c].sibling) {
		self -= r->node[c].count;
		folded_node(f, r, c, path, depth + 1, root);
	}
	if (!self || !depth)
		return;
	fputs(root, f);
	for (k = 1; k <= depth; k++) {
		const struct profile_node *nd = &r->node[path[k]];
		const char *ch;

		if (k > 1)
			fputc(';', f);
		for (ch = nd->name; *ch; ch++)
			fputc(*ch == ' ' || *ch == ';' ? '_' : *ch, f);
		if (nd->kernel)
			fputs("_[k]", f);
	}
	fprintf(f, " %" PRIu64 "\n", self);
}

int profile_write_folded(struct profile *p, FILE *f)
{
	struct strbuf note = STRBUF_INIT;
	unsigned int path[PF_STACK_MAX + 2], nr, i;
	const struct profile_result *r = profile_results(p, &nr, &note);

	strbuf_release(&note);
	for (i = 0; i < nr; i++) {
		char root[32] = "";

		if (r[i].run)
			snprintf(root, sizeof(root), "group %u run %u;",
				 r[i].groupid, r[i].run);
		else if (nr > 1)
			snprintf(root, sizeof(root), "group %u;", r[i].groupid);
		folded_node(f, &r[i], 0, path, 0, root);
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

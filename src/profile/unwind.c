/* SPDX-License-Identifier: MIT */
/*
 * The first user frame of a sample, for the call chains of --profile.
 *
 * Contract. The kernel walks a sample's user-space chain by frame
 * pointers: from the sampled instruction it follows the frame pointer
 * register. A function that has not set its frame up where it was
 * sampled (a leaf, a fast path the compiler keeps without a frame, the
 * instructions before its prologue or after its epilogue, code built
 * without frame pointers: libc's) still holds its caller's frame
 * pointer there, so the walk skips its caller: worker_run's callees
 * showed beside it instead of under it. For such a sample this file
 * finds the return address the walk missed: the function's CFI
 * (.eh_frame, read with elfutils' libelf and libdw) says where the
 * canonical frame address is; when it is the stack pointer plus N (no
 * frame pointer
 * set), the return address is the word at N - 8 above the stack
 * pointer, in the few bytes of user stack the sample copies
 * (PERF_SAMPLE_STACK_USER, PF_STACK_BYTES). One lookup per distinct
 * address, cached; used by the reader thread only, never on the I/O
 * path (the mappings are read by pf_unwind_new(), before the run).
 * Without libdw, or off x86-64, pf_unwind_new() returns NULL and the
 * samples carry no stack (the chains then miss those callers).
 */
#include "profile/profile_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#if defined(HAVE_LIBDW) && defined(__x86_64__)
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>

#define DW_REG_SP 7		/* x86-64's DWARF register numbers */

/* An executable mapping of a file, and that file's CFI once read. */
struct umod {
	uint64_t start, end, pgoff;
	char *path;
	bool tried;
	int fd;
	Elf *elf;
	Dwarf_CFI *cfi;
};

struct pf_unwind {
	struct umod *mod;
	unsigned int nr_mod;
	uint64_t *key;		/* address + 1; 0: empty */
	int16_t *val;		/* CFA - SP, or 0: frame set up, unknown */
	unsigned int nr, size;
};

/*
 * The process's executable mappings, read before the run (the reader
 * stays light); each file is opened at its first lookup, with libelf
 * and libdw alone: a libdwfl session of its own here made the symbols'
 * session after the run lose libc's names in one run of five.
 */
struct pf_unwind *pf_unwind_new(void)
{
	struct pf_unwind *u;
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    strbuf_read_file(&sb, "/proc/self/maps"))
		return NULL;
	u = xcalloc(1, sizeof(*u));
	for (line = sb.buf; line && *line; line = next) {
		unsigned long long start, end, off;
		char perms[8];
		int pos = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &off, &pos) < 4 || !pos || perms[2] != 'x' ||
		    line[pos] != '/')
			continue;
		u->mod = xrealloc(u->mod, (u->nr_mod + 1) * sizeof(*u->mod));
		memset(&u->mod[u->nr_mod], 0, sizeof(*u->mod));
		u->mod[u->nr_mod].start = start;
		u->mod[u->nr_mod].end = end;
		u->mod[u->nr_mod].pgoff = off;
		u->mod[u->nr_mod].fd = -1;
		u->mod[u->nr_mod++].path = xstrdup(line + pos);
	}
	strbuf_release(&sb);
	if (!u->nr_mod) {
		free(u);
		return NULL;	/* nothing to unwind: the samples carry no stack */
	}
	return u;
}

void pf_unwind_free(struct pf_unwind *u)
{
	unsigned int i;

	if (!u)
		return;
	for (i = 0; i < u->nr_mod; i++) {
		if (u->mod[i].cfi)
			dwarf_cfi_end(u->mod[i].cfi);
		if (u->mod[i].elf)
			elf_end(u->mod[i].elf);
		if (u->mod[i].fd >= 0)
			close(u->mod[i].fd);
		free(u->mod[i].path);
	}
	free(u->mod);
	free(u->key);
	free(u->val);
	free(u);
}

static void open_mod(struct umod *m)
{
	m->tried = true;
	m->fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (m->fd < 0)
		return;
	m->elf = elf_begin(m->fd, ELF_C_READ, NULL);
	if (m->elf)
		m->cfi = dwarf_getcfi_elf(m->elf);
}

/* The file's address of a, by its program headers; false: none. */
static bool file_vaddr(const struct umod *m, uint64_t a, uint64_t *v)
{
	uint64_t off = a - m->start + m->pgoff;
	size_t n, i;

	if (elf_getphdrnum(m->elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(m->elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*v = off - ph.p_offset + ph.p_vaddr;
			return true;
		}
	}
	return false;
}

/* CFA - SP at a, when the CFA is the stack pointer plus a constant. */
static int16_t lookup(struct pf_unwind *u, uint64_t a)
{
	struct umod *m = NULL;
	Dwarf_Frame *fr = NULL;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t v;
	unsigned int i;
	int16_t r = 0;

	for (i = 0; i < u->nr_mod && !m; i++)
		if (a >= u->mod[i].start && a < u->mod[i].end)
			m = &u->mod[i];
	if (!m)
		return 0;
	if (!m->tried)
		open_mod(m);
	if (!m->cfi || !file_vaddr(m, a, &v) ||
	    dwarf_cfi_addrframe(m->cfi, v, &fr))
		return 0;
	if (!dwarf_frame_cfa(fr, &ops, &nops) && nops == 1) {
		int64_t off = -1;

		if (ops[0].atom == DW_OP_bregx && ops[0].number == DW_REG_SP)
			off = (int64_t)ops[0].number2;
		else if (ops[0].atom == DW_OP_breg0 + DW_REG_SP)
			off = (int64_t)ops[0].number;
		if (off >= 8 && off <= PF_STACK_BYTES)
			r = (int16_t)off;
	}
	free(fr);
	return r;
}

static void grow(struct pf_unwind *u)
{
	unsigned int size = u->size ? u->size * 2 : 4096, i, k;
	uint64_t *key = xcalloc(size, sizeof(*key));
	int16_t *val = xcalloc(size, sizeof(*val));

	for (i = 0; i < u->size; i++) {
		if (!u->key[i])
			continue;
		for (k = (unsigned int)(u->key[i] * 0x9e3779b97f4a7c15ull >> 40) &
			 (size - 1); key[k]; k = (k + 1) & (size - 1))
			;
		key[k] = u->key[i];
		val[k] = u->val[i];
	}
	free(u->key);
	free(u->val);
	u->key = key;
	u->val = val;
	u->size = size;
}

int pf_unwind_cfa_sp(struct pf_unwind *u, uint64_t a)
{
	unsigned int k;

	if (u->nr * 2 >= u->size)
		grow(u);
	for (k = (unsigned int)((a + 1) * 0x9e3779b97f4a7c15ull >> 40) &
		 (u->size - 1); u->key[k]; k = (k + 1) & (u->size - 1))
		if (u->key[k] == a + 1)
			return u->val[k];
	u->key[k] = a + 1;
	u->val[k] = lookup(u, a);
	u->nr++;
	return u->val[k];
}
#else
struct pf_unwind *pf_unwind_new(void)
{
	return NULL;
}

void pf_unwind_free(struct pf_unwind *u)
{
}

int pf_unwind_cfa_sp(struct pf_unwind *u, uint64_t a)
{
	return 0;
}
#endif

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
 * (.eh_frame, read by elfutils' libdw) says where the canonical frame
 * address is; when it is the stack pointer plus N (no frame pointer
 * set), the return address is the word at N - 8 above the stack
 * pointer, in the few bytes of user stack the sample copies
 * (PERF_SAMPLE_STACK_USER, PF_STACK_BYTES). One lookup per distinct
 * address, cached; used by the reader thread only, never on the I/O
 * path (the modules are read by pf_unwind_new(), before the run).
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

#define DW_REG_SP 7		/* x86-64's DWARF register numbers */

struct pf_unwind {
	Dwfl *dwfl;
	uint64_t *key;		/* address + 1; 0: empty */
	int16_t *val;		/* CFA - SP, or 0: frame set up, unknown */
	unsigned int nr, size;
};

/* The ELF files only: no separate debug files, no debuginfod. */
static int no_debuginfo(Dwfl_Module *mod, void **ud, const char *modname,
			Dwarf_Addr base, const char *file,
			const char *debuglink, GElf_Word crc, char **name)
{
	return -1;
}

static const Dwfl_Callbacks unw_cbs = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = no_debuginfo,
};

struct pf_unwind *pf_unwind_new(void)
{
	struct pf_unwind *u = xcalloc(1, sizeof(struct pf_unwind));

	/* the process's modules, read before the run: the reader stays light */
	u->dwfl = pf_dwfl_self(&unw_cbs);
	if (!u->dwfl) {
		free(u);
		return NULL;	/* no CFI: the samples carry no stack */
	}
	return u;
}

void pf_unwind_free(struct pf_unwind *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u->key);
	free(u->val);
	free(u);
}

/* CFA - SP at a, when the CFA is the stack pointer plus a constant. */
static int16_t lookup(struct pf_unwind *u, uint64_t a)
{
	Dwfl_Module *m;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	Dwarf_Op *ops;
	size_t nops;
	int16_t r = 0;

	if (!u->dwfl)
		return 0;
	m = dwfl_addrmodule(u->dwfl, a);
	if (!m)
		return 0;
	cfi = dwfl_module_eh_cfi(m, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, a - bias, &fr))
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

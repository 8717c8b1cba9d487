/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_STATE_H
#define IOLITE_VERIFY_STATE_H

#include <stdint.h>

#include "opt/options.h"
#include "util/strbuf.h"

/*
 * The verify state a writing job leaves behind (verify_state_save) so a
 * later verify_only run (verify_state_load) checks only what was written:
 * writes 0 .. writes-1 of the job completed. A small text file:
 *
 *   iolite verify state 1
 *   job NAME
 *   index N
 *   verify MODE
 *   seed 0xHEX
 *   writes N
 */
struct verify_state {
	char job[256];
	unsigned int index;
	enum verify_mode mode;
	uint64_t seed;
	uint64_t writes;
};

/* Writes st to path (replacing it). 0 or -1 with a message in err. */
int verify_state_save(const char *path, const struct verify_state *st,
		      struct strbuf *err);
/* Reads path into st. 0 or -1 with a message naming path in err. */
int verify_state_load(const char *path, struct verify_state *st,
		      struct strbuf *err);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * --crctest[=list]: how fast each checksum of verify= runs here, one line
 * each in fio's layout ("crc32c:\t\t 3085.90 MiB/sec"). The list is the
 * verify module's (vhash_next), so a checksum added there shows up here.
 * Each one hashes a 1 MiB buffer of random bytes, a block at a time as a
 * verifying job does, for at least CRC_MIN_NS.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "machine/clock.h"
#include "opt/verify_opts.h"
#include "util/log.h"
#include "util/prng.h"
#include "verify/hash.h"

#define CRC_BUF (1u << 20)
#define CRC_BLOCK (64u << 10)
#define CRC_MIN_NS 150000000ull

/* Every name of the list must be a checksum this build has. */
static int check_list(const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		enum verify_mode m;
		bool found = false;

		for (m = VERIFY_NONE + 1; m < VERIFY_MODE_NR && !found; m++) {
			const char *name = verify_mode_name(m);

			if (!verify_csum_size(m) || strlen(name) != n ||
			    strncmp(p, name, n))
				continue;
			found = true;
			if (verify_mode_missing_lib(m)) {
				error("option '--crctest': '%s' is not available in this build: install %s and rebuild",
				      name, verify_mode_missing_lib(m));
				return -1;
			}
		}
		if (!found) {
			struct strbuf all = STRBUF_INIT;

			for (m = vhash_next(VERIFY_NONE); m < VERIFY_MODE_NR;
			     m = vhash_next(m))
				strbuf_addf(&all, "%s%s", all.len ? ", " : "",
					    verify_mode_name(m));
			error("option '--crctest': unknown checksum '%.*s' (available: %s)",
			      (int)n, p, strbuf_str(&all));
			strbuf_release(&all);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

static double measure(enum verify_mode m, const unsigned char *buf)
{
	unsigned char out[VHASH_MAX];
	struct vhash *h = vhash_new(m);
	uint64_t start, now, bytes = 0;

	start = clock_mono_ns();
	do {
		size_t off;

		for (off = 0; off < CRC_BUF; off += CRC_BLOCK)
			vhash_sum(h, buf + off, 0, buf + off, CRC_BLOCK, out);
		bytes += CRC_BUF;
		now = clock_mono_ns();
	} while (now - start < CRC_MIN_NS);
	vhash_free(h);
	return (double)bytes / (1024.0 * 1024.0) /
	       ((double)(now - start) / 1e9);
}

int cli_crctest(const char *list, FILE *out)
{
	unsigned char *buf;
	uint64_t seed = 0x637263746573ull;
	enum verify_mode m;
	size_t i;

	if (list && *list && check_list(list))
		return 1;
	buf = xmalloc(CRC_BUF);
	for (i = 0; i < CRC_BUF; i += 8) {
		uint64_t v = prng_splitmix64(&seed);

		memcpy(buf + i, &v, 8);
	}
	for (m = vhash_next(VERIFY_NONE); m < VERIFY_MODE_NR; m = vhash_next(m)) {
		const char *name = verify_mode_name(m);

		if (list && *list && !cli_list_has(list, name))
			continue;
		/* fio's columns: names under 7 characters get two tabs */
		fprintf(out, "%s:%s%8.2f MiB/sec\n", name,
			strlen(name) < 7 ? "\t\t" : "\t", measure(m, buf));
		fflush(out);
	}
	free(buf);
	return 0;
}

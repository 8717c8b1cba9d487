/* SPDX-License-Identifier: MIT */
#include "verify/state.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt/opt.h"
#include "opt/verify_opts.h"
#include "util/safefile.h"

#define STATE_MAGIC "iolite verify state 1"

int verify_state_save(const char *path, const struct verify_state *st,
		      struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT, text = STRBUF_INIT;
	int fd, ret = -1;

	/*
	 * A crash while saving leaves the old state, not half a new one; the
	 * new one is made under a fresh O_EXCL name beside it and renamed
	 * over it, so no symlink or link planted there redirects the write.
	 */
	fd = sf_replace_open(path, 0644, &tmp);
	if (fd < 0) {
		strbuf_addf(err, "cannot save verify state '%s': %s", path,
			    strerror(errno));
		goto out;
	}
	strbuf_addf(&text, STATE_MAGIC "\njob %s\nindex %u\nverify %s\nseed "
		    "0x%" PRIx64 "\nwrites %" PRIu64 "\n", st->job, st->index,
		    verify_mode_name(st->mode), st->seed, st->writes);
	errno = 0;	/* a short write sets none */
	if (write(fd, text.buf, text.len) != (ssize_t)text.len) {
		if (!errno)
			errno = ENOSPC;
		strbuf_addf(err, "cannot save verify state '%s': %s", path,
			    strerror(errno));
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (sf_replace_commit(fd, tmp.buf, path)) {
		strbuf_addf(err, "cannot save verify state '%s': %s", path,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&tmp);
	strbuf_release(&text);
	return ret;
}

int verify_state_load(const char *path, struct verify_state *st,
		      struct strbuf *err)
{
	char line[512], mode[64];
	unsigned int seen = 0;
	FILE *f;
	int n = 0;

	memset(st, 0, sizeof(*st));
	f = fopen(path, "r");
	if (!f) {
		strbuf_addf(err, "cannot read verify state '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		n++;
		if (n == 1) {
			if (strcmp(line, STATE_MAGIC))
				goto bad;
			continue;
		}
		if (!strncmp(line, "job ", 4)) {
			size_t len = strlen(line + 4);

			if (len >= sizeof(st->job))
				goto bad;
			memcpy(st->job, line + 4, len + 1);
			seen |= 1;
		} else if (sscanf(line, "index %u", &st->index) == 1) {
			seen |= 2;
		} else if (sscanf(line, "verify %63s", mode) == 1) {
			const struct opt_enum *e;

			for (e = verify_mode_enums; e->name; e++)
				if (!strcmp(e->name, mode))
					break;
			if (!e->name)
				goto bad;
			st->mode = (enum verify_mode)e->value;
			seen |= 4;
		} else if (sscanf(line, "seed %" SCNx64, &st->seed) == 1) {
			seen |= 8;
		} else if (sscanf(line, "writes %" SCNu64, &st->writes) == 1) {
			seen |= 16;
		} else {
			goto bad;
		}
	}
	fclose(f);
	if (seen != 31 || n < 6) {
		strbuf_addf(err, "verify state '%s' is incomplete", path);
		return -1;
	}
	return 0;
bad:
	fclose(f);
	strbuf_addf(err, "verify state '%s': line %d is not what iolite writes",
		    path, n);
	return -1;
}

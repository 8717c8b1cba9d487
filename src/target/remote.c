/* SPDX-License-Identifier: MIT */
/*
 * Targets on a server (nbd's export, libiscsi's LUN): the engine's probe
 * (engine_ops.remote_probe) connects before anything is created or run
 * and says the target's size and block size, which files_resolve() then
 * takes as a device's: the region is checked against its end, the
 * blocks against its block size. Nothing here touches a local file.
 */
#include "target/files_priv.h"

#include <string.h>

#include "engine/engine.h"

int remote_target(const struct job_plan *p, const struct engine_ops *ops,
		  const char *name, struct target *t, struct strbuf *err)
{
	struct engine_remote r = { .size = 0 };
	struct strbuf why = STRBUF_INIT;

	memset(t, 0, sizeof(*t));
	if (ops->remote_probe(p, name, &r, &why)) {
		if (p->src_file)
			strbuf_addf(err, "%s:%d: job '%s': ", p->src_file,
				    p->src_line, p->o.name);
		else
			strbuf_addf(err, "job '%s': ", p->o.name);
		if (r.opt)
			strbuf_addf(err, "option '%s': ", r.opt);
		strbuf_addstr(err, strbuf_str(&why));
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	t->path = (char *)(r.name ? r.name : name);
	t->exists = true;
	t->kind = EF_CHARDEV;
	t->sized = true;
	t->cur_size = r.size;
	t->lbs = r.lbs;
	t->remote = r.what;
	return 0;
}

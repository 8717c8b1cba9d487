/* SPDX-License-Identifier: MIT */
/*
 * Targets on a server (nbd's export, libiscsi's LUN, rbd's image): the
 * engine's probe (engine_ops.remote_probe) connects before anything is
 * created or run and says the target's size and block size, which
 * files_resolve() then takes as a device's: the region is checked
 * against its end, the blocks against its block size. A server the
 * probe could not reach (refused, no such export or LUN; r.unreachable)
 * is not a refusal: the job runs and fails as it starts, with the
 * server's reason and its report, as fio's. Nothing here touches a
 * local file.
 */
#include "target/files_priv.h"

#include <string.h>

#include "engine/engine.h"

/*
 * A server not reached: no size to check the region against. What the
 * job asks for stands (its offset and size, else one block), the end
 * unchecked; the engine checks the real size when it connects.
 */
static void unknown_size(const struct job_plan *p, struct target *t)
{
	const struct job_options *o = &p->o;

	t->unknown = true;
	t->cur_size = o->offset.bytes + (uint64_t)p->clone *
		      o->offset_increment.bytes +
		      (o->size.bytes ? o->size.bytes : p->max_bs);
}

int remote_target(const struct job_plan *p, const struct engine_ops *ops,
		  const char *name, struct target *t, struct strbuf *err)
{
	struct engine_remote r = { .size = 0 };
	struct strbuf why = STRBUF_INIT;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = ops->remote_probe(p, name, &r, &why);
	if (ret && r.unreachable) {
		/* the job fails as it starts, its report kept */
		unknown_size(p, t);
	} else if (ret) {
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
	if (!t->unknown) {
		t->cur_size = r.size;
		t->lbs = r.lbs;
	}
	t->remote = r.what;
	return 0;
}

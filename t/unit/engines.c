/* SPDX-License-Identifier: MIT */
/*
 * Drives each engine directly, without the worker: a fake plan, a scratch
 * file, then queue / commit / getevents by hand, checking the bytes on
 * disk and the error / resid of each io_u.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "opt/opt.h"
#include "tap.h"

#define FSIZE (64 * 1024)
#define BS 4096

static char scratch[4096];
static char path[4200];

static void make_plan(struct job_plan *p, bool writes)
{
	memset(p, 0, sizeof(*p));
	p->o.name = (char *)"unit";
	p->ddir_mask = 1u << DDIR_READ | (writes ? 1u << DDIR_WRITE |
					  1u << DDIR_TRIM : 0);
	p->writes = writes;
	p->min_bs = p->max_bs = BS;
	p->src_file = "unit.fio";
	p->src_line = 1;
}

/* A FSIZE file of bytes (i & 0xff) ^ 0x5a. */
static void make_file(void)
{
	unsigned char buf[FSIZE];
	int fd, i;

	for (i = 0; i < FSIZE; i++)
		buf[i] = (unsigned char)(i ^ 0x5a);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || write(fd, buf, FSIZE) != FSIZE) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static void on_disk(void *buf, size_t len, off_t off)
{
	int fd = open(path, O_RDONLY);

	memset(buf, 0, len);
	if (fd < 0 || pread(fd, buf, len, off) < 0)
		perror(path);
	close(fd);
}

struct rig {
	const struct engine_ops *ops;
	struct engine *e;
	struct job_plan plan;
	struct engine_file f;
	struct strbuf err;
};

/* Sets up the plan and finds the engine; rig_start() inits and opens. */
static void rig_setup(struct rig *r, const char *name, bool writes)
{
	memset(r, 0, sizeof(*r));
	make_plan(&r->plan, writes);
	r->plan.o.ioengine = (char *)name;
	r->ops = engine_find(name);
	r->f.path = path;
	r->f.fd = -1;
	r->f.flags = EF_REGULAR;
	r->f.real_size = FSIZE;
	r->f.io_size = FSIZE;
}

static int rig_start(struct rig *r, unsigned int depth)
{
	if (!r->ops)
		return -1;
	if (r->ops->init(&r->plan, depth, &r->e, &r->err))
		return -1;
	r->e->files = &r->f;
	r->e->nr_files = 1;
	return r->ops->open_file(r->e, &r->f, &r->err);
}

static int rig_open(struct rig *r, const char *name, unsigned int depth,
		    bool writes)
{
	rig_setup(r, name, writes);
	return rig_start(r, depth);
}

static void rig_close(struct rig *r)
{
	if (r->e) {
		r->ops->close_file(r->e, &r->f);
		r->ops->cleanup(r->e);
	}
	strbuf_release(&r->err);
}

static void set_io(struct io_u *u, void *buf, enum ddir d, uint64_t off,
		   uint32_t len)
{
	memset(u, 0, sizeof(*u));
	u->buf = buf;
	u->ddir = (uint8_t)d;
	u->offset = off;
	u->len = len;
	u->error = -1;
	u->resid = 12345;
}

/* Runs one I/O to completion whatever the engine's style. */
static int run_io(struct rig *r, struct io_u *u)
{
	enum engine_q q = r->ops->queue(r->e, u);
	int n;

	if (q == ENGINE_Q_DONE)
		return 0;
	if (q != ENGINE_Q_QUEUED)
		return -1;
	if (r->ops->commit && r->ops->commit(r->e))
		return -1;
	n = r->ops->getevents(r->e, 1, 1, NULL);
	return n == 1 && r->ops->event(r->e, 0) == u ? 0 : -1;
}

static void test_file_engine(const char *name, unsigned int depth)
{
	struct rig r = { 0 };	/* the message below is read before open */
	struct io_u u;
	unsigned char wbuf[BS], rbuf[2 * BS], disk[BS];
	struct stat st;
	int i, rc;

	make_file();
	if (!ok(rig_open(&r, name, depth, true) == 0, "%s: open (%s)", name,
		strbuf_str(&r.err))) {
		rig_close(&r);
		return;
	}
	for (i = 0; i < BS; i++)
		wbuf[i] = (unsigned char)(i * 7 + 1);

	set_io(&u, wbuf, DDIR_WRITE, 2 * BS, BS);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == 0,
	   "%s: write 4k at 8k completes (error %d resid %u)", name,
	   u.error, u.resid);
	on_disk(disk, BS, 2 * BS);
	ok(!memcmp(disk, wbuf, BS), "%s: written bytes are on disk", name);

	set_io(&u, rbuf, DDIR_READ, 2 * BS, BS);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == 0 &&
	   !memcmp(rbuf, wbuf, BS), "%s: read back 4k at 8k", name);

	set_io(&u, rbuf, DDIR_READ, 0, BS);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && rbuf[1] == (1 ^ 0x5a) &&
	   rbuf[BS - 1] == (unsigned char)((BS - 1) ^ 0x5a),
	   "%s: read at 0 after a read elsewhere (position)", name);

	set_io(&u, rbuf, DDIR_READ, FSIZE - BS, 2 * BS);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == BS,
	   "%s: read across EOF is short: resid %u", name, u.resid);

	set_io(&u, rbuf, DDIR_READ, FSIZE + BS, BS);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == BS,
	   "%s: read past EOF transfers nothing", name);

	set_io(&u, NULL, DDIR_SYNC, 0, 0);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == 0,
	   "%s: fsync", name);
	set_io(&u, NULL, DDIR_DATASYNC, 0, 0);
	rc = run_io(&r, &u);
	ok(rc == 0 && u.error == 0 && u.resid == 0,
	   "%s: fdatasync", name);

	set_io(&u, NULL, DDIR_TRIM, 4 * BS, 2 * BS);
	if (run_io(&r, &u) == 0 && u.error == EOPNOTSUPP) {
		skip("the scratch file system cannot punch holes",
		     "%s: trim punches a hole", name);
	} else {
		memset(disk, 0xff, sizeof(disk));
		on_disk(disk, BS, 5 * BS);
		stat(path, &st);
		ok(u.error == 0 && u.resid == 0 && disk[0] == 0 &&
		   disk[BS - 1] == 0 && st.st_size == FSIZE,
		   "%s: trim punches a hole and keeps the size (error %d)",
		   name, u.error);
	}
	rig_close(&r);

	/* a job that only reads opens read-only: writes fail with EBADF */
	if (rig_open(&r, name, depth, false) == 0) {
		int fl = fcntl(r.f.fd, F_GETFL);

		ok((fl & O_ACCMODE) == O_RDONLY, "%s: read-only job opens "
		   "O_RDONLY", name);
		set_io(&u, wbuf, DDIR_WRITE, 0, BS);
		rc = run_io(&r, &u);
	ok(rc == 0 && u.error == EBADF && u.resid == BS,
		   "%s: error result: error %d resid %u", name, u.error,
		   u.resid);
	} else {
		ok(0, "%s: read-only open (%s)", name, strbuf_str(&r.err));
	}
	rig_close(&r);
}

static void test_vsync_coalesce(void)
{
	struct rig r;
	struct io_u u[4];
	unsigned char buf[4][BS], disk[3 * BS];
	int i, n, found = 0;

	make_file();
	if (!ok(rig_open(&r, "vsync", 4, true) == 0, "vsync depth 4: open")) {
		rig_close(&r);
		return;
	}
	for (i = 0; i < 4; i++) {
		memset(buf[i], 'a' + i, BS);
		set_io(&u[i], buf[i], DDIR_WRITE, (uint64_t)(i + 1) * BS, BS);
		u[i].index = (uint32_t)i;
	}
	ok(r.ops->queue(r.e, &u[0]) == ENGINE_Q_QUEUED &&
	   r.ops->queue(r.e, &u[1]) == ENGINE_Q_QUEUED &&
	   r.ops->queue(r.e, &u[2]) == ENGINE_Q_QUEUED,
	   "vsync: contiguous writes are queued");
	u[3].offset = 10 * BS;
	ok(r.ops->queue(r.e, &u[3]) == ENGINE_Q_BUSY,
	   "vsync: a non-contiguous write waits (BUSY)");
	on_disk(disk, BS, BS);
	ok(disk[0] == 0x5a, "vsync: nothing written before commit");
	ok(r.ops->commit(r.e) == 0, "vsync: commit");
	n = r.ops->getevents(r.e, 1, 4, NULL);
	for (i = 0; i < n; i++) {
		struct io_u *e = r.ops->event(r.e, (unsigned int)i);

		if (e->error == 0 && e->resid == 0)
			found |= 1 << e->index;
	}
	ok(n == 3 && found == 7, "vsync: three completions from one writev");
	on_disk(disk, 3 * BS, BS);
	ok(disk[0] == 'a' && disk[BS] == 'b' && disk[2 * BS] == 'c' &&
	   disk[3 * BS - 1] == 'c', "vsync: the run landed in order");
	ok(r.ops->queue(r.e, &u[3]) == ENGINE_Q_QUEUED,
	   "vsync: after reaping, the other write queues");
	ok(r.ops->getevents(r.e, 1, 4, NULL) == 1 &&
	   r.ops->event(r.e, 0) == &u[3], "vsync: getevents submits what "
	   "was not committed");

	/* a coalesced read across EOF: the last I/Os come back short */
	for (i = 0; i < 3; i++)
		set_io(&u[i], buf[i], DDIR_READ, FSIZE - BS + (uint64_t)i * BS,
		       BS);
	for (i = 0; i < 3; i++)
		r.ops->queue(r.e, &u[i]);
	r.ops->commit(r.e);
	n = r.ops->getevents(r.e, 3, 4, NULL);
	ok(n == 3 && u[0].resid == 0 && u[1].resid == BS && u[2].resid == BS &&
	   !u[0].error && !u[2].error, "vsync: short coalesced read: resid "
	   "%u %u %u", u[0].resid, u[1].resid, u[2].resid);
	rig_close(&r);
}

static void test_null(void)
{
	struct rig r;
	struct io_u u[5];
	int i, n;
	unsigned int seen = 0;

	ok(rig_open(&r, "null", 1, true) == 0, "null: open opens nothing");
	ok(r.f.fd == -1, "null: no file descriptor");
	set_io(&u[0], NULL, DDIR_WRITE, 1ULL << 40, BS);
	ok(r.ops->queue(r.e, &u[0]) == ENGINE_Q_DONE && u[0].error == 0 &&
	   u[0].resid == 0, "null depth 1: completes inline");
	rig_close(&r);

	rig_open(&r, "null", 4, true);
	for (i = 0; i < 4; i++) {
		set_io(&u[i], NULL, i & 1 ? DDIR_WRITE : DDIR_READ,
		       (uint64_t)i * BS, BS);
		u[i].index = (uint32_t)i;
	}
	ok(r.ops->queue(r.e, &u[0]) == ENGINE_Q_QUEUED &&
	   r.ops->queue(r.e, &u[1]) == ENGINE_Q_QUEUED &&
	   r.ops->queue(r.e, &u[2]) == ENGINE_Q_QUEUED &&
	   r.ops->queue(r.e, &u[3]) == ENGINE_Q_QUEUED,
	   "null depth 4: queue returns QUEUED");
	ok(r.ops->commit(r.e) == 0, "null: commit");
	/* fio's null: busy while a committed batch is not reaped */
	set_io(&u[4], NULL, DDIR_READ, 4 * BS, BS);
	u[4].index = 4;
	ok(r.ops->queue(r.e, &u[4]) == ENGINE_Q_BUSY,
	   "null: busy until the batch is reaped");
	/* ... and a reap hands back the whole batch, past max */
	n = r.ops->getevents(r.e, 1, 2, NULL);
	for (i = 0; i < n; i++) {
		struct io_u *e = r.ops->event(r.e, (unsigned int)i);

		seen |= 1u << e->index;
		ok(e->error == 0 && e->resid == 0, "null: io %u succeeded",
		   e->index);
	}
	ok(n == 4 && seen == 0xf, "null: the whole batch, each once (%d)", n);
	ok(r.ops->getevents(r.e, 0, 4, NULL) == 0, "null: then nothing");
	ok(r.ops->queue(r.e, &u[4]) == ENGINE_Q_QUEUED,
	   "null: reaped, it takes more");
	rig_close(&r);
}

static void test_pvsync2_flags(void)
{
	struct rig r;
	struct io_u u;
	unsigned char buf[BS];
	int fd, rc;

	make_file();
	/* drop the file from the page cache so RWF_NOWAIT would block */
	fd = open(path, O_RDONLY);
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);

	rig_setup(&r, "pvsync2", false);
	r.plan.o.nowait = true;
	if (!ok(rig_start(&r, 1) == 0, "pvsync2 nowait: open")) {
		rig_close(&r);
		return;
	}
	set_io(&u, buf, DDIR_READ, 8 * BS, BS);
	rc = run_io(&r, &u);
	ok(rc == 0, "pvsync2 nowait: read returns");
	ok((u.error == 0 && u.resid == 0) ||
	   ((u.error == EAGAIN || u.error == EOPNOTSUPP) && u.resid == BS),
	   "pvsync2 nowait: done or an error result, never a retry "
	   "(error %d resid %u)", u.error, u.resid);
	rig_close(&r);
}

static void test_open_flags(void)
{
	struct rig r;
	struct engine_file f = { .fd = -1 };
	struct strbuf err = STRBUF_INIT;
	int fl;

	make_file();
	rig_open(&r, "psync", 1, true);
	fl = fcntl(r.f.fd, F_GETFL);
	ok((fl & O_ACCMODE) == O_RDWR && !(fl & O_DIRECT) &&
	   (fl & O_SYNC) != O_SYNC, "open: buffered read-write by default");
	r.ops->close_file(r.e, &r.f);
	ok(r.f.fd == -1, "close: fd back to -1");

	r.plan.o.sync = SYNC_SYNC;
	r.ops->open_file(r.e, &r.f, &r.err);
	fl = fcntl(r.f.fd, F_GETFL);
	ok((fl & O_SYNC) == O_SYNC, "open: sync=sync adds O_SYNC");
	r.ops->close_file(r.e, &r.f);

	r.plan.o.sync = SYNC_DSYNC;
	r.ops->open_file(r.e, &r.f, &r.err);
	fl = fcntl(r.f.fd, F_GETFL);
	ok((fl & O_DSYNC) && (fl & O_SYNC) != O_SYNC,
	   "open: sync=dsync adds O_DSYNC");
	r.ops->close_file(r.e, &r.f);
	r.plan.o.sync = SYNC_NONE;

	r.plan.o.direct = true;
	if (r.ops->open_file(r.e, &r.f, &r.err) == 0) {
		fl = fcntl(r.f.fd, F_GETFL);
		ok(fl & O_DIRECT, "open: direct=1 adds O_DIRECT");
		r.ops->close_file(r.e, &r.f);
	} else {
		ok(strstr(strbuf_str(&r.err), "O_DIRECT") != NULL,
		   "open: O_DIRECT refused with a clear message: %s",
		   strbuf_str(&r.err));
	}

	f.path = xmalloc(strlen(path) + 16);
	strcpy(f.path, path);
	strcat(f.path, ".missing");
	fl = engine_open_fd(r.e, &f, &err);
	ok(fl == -ENOENT && f.fd == -1 &&
	   strstr(strbuf_str(&err), ".missing'") &&
	   access(f.path, F_OK) != 0,
	   "open: a missing file is an error and is not created: %s",
	   strbuf_str(&err));
	free(f.path);
	strbuf_release(&err);
	rig_close(&r);
}

static void test_table(void)
{
	static const char *const names[] = { "sync", "psync", "vsync",
		"pvsync", "pvsync2", "null" };
	struct strbuf sb = STRBUF_INIT;
	const char *h;
	size_t i;
	int n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct engine_ops *ops = engine_find(names[i]);

		ok(ops && !strcmp(ops->name, names[i]) && ops->init &&
		   ops->queue && ops->getevents && ops->event &&
		   ops->open_file && ops->close_file && ops->cleanup &&
		   ops->help, "table: %s is complete", names[i]);
	}
	ok(engine_find("nosuch") == NULL && engine_find(NULL) == NULL,
	   "table: unknown names are not found");
	ok(engine_find("PSYNC") == NULL, "table: names are case-sensitive");

	h = engine_missing_hint("io_uring");
	if (engine_find("io_uring"))
		ok(h == NULL, "hint: none for an engine this build has");
	else
#ifdef HAVE_LIBURING
		ok(h && !strcmp(h, "ioengine 'io_uring' is not supported"),
		   "hint: io_uring (liburing present, engine not yet): %s", h);
#else
		ok(h && !strcmp(h, "ioengine 'io_uring' is not available in "
				"this build: install liburing-dev and rebuild"),
		   "hint: io_uring without liburing: %s", h);
#endif
	h = engine_missing_hint("splice");
	ok(h && !strcmp(h, "ioengine 'splice' is not supported"),
	   "hint: splice is not supported: %s", h);
	ok(engine_missing_hint("psync") == NULL, "hint: none for psync");
	ok(engine_missing_hint("nosuch") == NULL,
	   "hint: none for a name fio does not know");
	h = engine_missing_hint("external:/x/y.so");
	ok(h && strstr(h, "'external'"), "hint: external engines: %s", h);

	engine_list(&sb);
	ok(strstr(sb.buf, "\tpsync ") && strstr(sb.buf, "\tpvsync2 ") &&
	   strstr(sb.buf, "\tnull "), "list: one line per engine");
	strbuf_reset(&sb);
	n = engine_help("pvsync2", &sb);
	ok(n == 0 && !strncmp(sb.buf, "hipri ", 6) &&
	   strstr(sb.buf, "\nnowait "), "help: pvsync2 lists hipri, nowait");
	strbuf_reset(&sb);
	ok(engine_help("psync", &sb) == 0 && strstr(sb.buf, "no options"),
	   "help: psync has no options");
	strbuf_reset(&sb);
	n = engine_help("nosuch", &sb);
	ok(n == -1 && !strcmp(strbuf_str(&sb), "unknown ioengine 'nosuch'"),
	   "help: unknown engine: %s", strbuf_str(&sb));
	strbuf_reset(&sb);
	n = engine_help("splice", &sb);
	ok(n == -1 && !strcmp(strbuf_str(&sb), "ioengine 'splice' is not "
			      "supported"), "help: an engine fio has: %s",
	   strbuf_str(&sb));
	strbuf_release(&sb);
}

/* One engine's declaration against the option table. */
static void check_decl(const struct engine_ops *ops)
{
	const unsigned int both = ENGINE_F_OFFLOAD_SHARED |
				  ENGINE_F_OFFLOAD_OWN;
	const char *const *n, *const *m;
	const char *h;
	bool rows = true, once = true, own = true;

	for (n = ops->options; n && *n; n++) {
		const struct opt_def *def = opt_lookup(*n);

		rows &= def && !strcmp(def->name, *n) &&
			def->type != OPT_UNSUPPORTED && def->help;
		/* fio refuses an engine's option with another engine */
		own &= def && (def->flags & OPT_F_ENGINE);
		if (def && !(def->flags & OPT_F_ENGINE))
			diag("%s: '%s' is not flagged OPT_F_ENGINE", ops->name,
			     *n);
		for (m = ops->options; m != n; m++)
			once &= strcmp(*m, *n) != 0;
	}
	ok(rows && once, "decl: %s's options are rows of the table, once each",
	   ops->name);
	ok(own, "decl: %s's options are refused with other engines",
	   ops->name);
	ok((ops->flags & both) != both, "decl: %s has one offload kind",
	   ops->name);
	ok(engine_find(ops->name) == (ops->init ? ops : NULL) &&
	   engine_decl_flags(ops->name) == ops->flags,
	   "decl: %s is found %s", ops->name,
	   ops->init ? "by engine_find() too" : "as declared only");
	if (ops->init)
		return;
	h = engine_missing_hint(ops->name);
	ok(h && strstr(h, "install ") && !ops->queue && !ops->open_file,
	   "decl: %s, not built, names its package: %s", ops->name, h);
}

/*
 * What the engines declare is what the option checks and --enghelp
 * read: every option an engine lists is a row, every row flagged as an
 * engine's own has an engine, aliases answer as their engine.
 */
static void test_declarations(void)
{
	const unsigned int offload = ENGINE_F_OFFLOAD_SHARED |
				     ENGINE_F_OFFLOAD_OWN;
	struct strbuf sb = STRBUF_INIT;
	const char *bad = NULL, *last;
	unsigned int n, want;
	size_t i, j;

	for (i = 0; engine_table[i]; i++)
		check_decl(engine_table[i]);
	for (i = 0; i < opt_table_size; i++) {
		bool owned = false;

		if (!(opt_table[i].flags & OPT_F_ENGINE))
			continue;
		for (j = 0; engine_table[j]; j++)
			owned |= engine_has_option(engine_table[j],
						   opt_table[i].name);
		if (!owned)
			bad = opt_table[i].name;
	}
	ok(!bad, "decl: every engine-only row has an engine (%s)",
	   bad ? bad : "all");

	ok(engine_decl_flags("aio") == engine_decl_flags("libaio") &&
	   (engine_decl_flags("linuxaio") & ENGINE_F_AIO_CTX) &&
	   engine_decl_has("aio", "nowait") &&
	   !engine_decl_has("psync", "nowait") &&
	   !engine_decl_flags("nosuch") && !engine_decl_has(NULL, "nowait"),
	   "decl: aliases answer as libaio, unknown names own nothing");
	n = engine_decl_names("nowait", 0, NULL, &sb);
	ok(n == 4 && !strcmp(strbuf_str(&sb),
			       "pvsync2, io_uring, io_uring_cmd, libaio"),
	   "decl: nowait's engines, in the table's order: %s",
	   strbuf_str(&sb));
	strbuf_reset(&sb);
	/* one per engine flagged, the last after " or " */
	for (i = 0, want = 0; engine_table[i]; i++)
		want += (engine_table[i]->flags & offload) != 0;
	n = engine_decl_names(NULL, offload, " or ", &sb);
	last = strrchr(strbuf_str(&sb), ' ');
	ok(n == want && n > 2 && !strncmp(strbuf_str(&sb), "psync, pvsync, ", 15) &&
	   strstr(strbuf_str(&sb), " or ") == last - 3 &&
	   engine_decl_flags(last + 1) & offload,
	   "decl: offload's %u engines: %s", want, strbuf_str(&sb));
	strbuf_reset(&sb);
	ok(engine_decl_names("no_such_option", 0, " or ", &sb) == 0 &&
	   !sb.len, "decl: an option no engine owns names none");

	/* --enghelp=NAME: each option's help is its row's */
	engine_help("pvsync2", &sb);
	ok(strstr(strbuf_str(&sb), opt_lookup("hipri_percentage")->help) != NULL,
	   "help: pvsync2's hipri_percentage line is the row's help");
	strbuf_reset(&sb);
	ok(engine_help_option(engine_find("pvsync2"), "nowait", &sb) &&
	   !strncmp(strbuf_str(&sb), "nowait ", 7) &&
	   !engine_help_option(engine_find("pvsync2"), "thp", &sb),
	   "help: one option of an engine, and none it does not own");
	strbuf_release(&sb);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	static const char *const file_engines[] = { "sync", "psync", "vsync",
		"pvsync", "pvsync2" };
	size_t i;

	snprintf(scratch, sizeof(scratch), "%s/iolite-engines.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/data", scratch);
	diag("scratch file %s", path);

	test_table();
	test_declarations();
	for (i = 0; i < sizeof(file_engines) / sizeof(file_engines[0]); i++)
		test_file_engine(file_engines[i], 1);
	test_file_engine("vsync", 4);
	test_vsync_coalesce();
	test_null();
	test_pvsync2_flags();
	test_open_flags();

	unlink(path);
	rmdir(scratch);
	return done_testing();
}

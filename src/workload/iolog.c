/* SPDX-License-Identifier: MIT */
/*
 * read_iolog: fio's I/O logs (version 2 and 3), read, checked and
 * replayed.
 *
 * The log is read three times at most, never held whole unless asked:
 * iolog_plan() reads it once when the job is built, checking every line
 * (so a bad line stops the job with its log file:line before any file is
 * created) and noting the files, the directions and sizes (a log an
 * earlier stonewall group writes: when the job starts instead, checked
 * against what its writers may do); the replay
 * then loads it at init (all of it), or a block of REPLAY_CHUNK I/Os at
 * a time with read_iolog_chunked, so memory stays bounded however long
 * the log is.
 *
 * Timing: each I/O is due at its log time (scaled by replay_time_scale)
 * after the replay started. One due within REPLAY_SLACK_NS goes at
 * once; a later one makes the source pause: the worker lets the I/O in
 * flight complete (their latencies do not include the wait) and sleeps
 * until it is due. A replay that falls behind (a slower device) issues
 * what is due without waiting until it has caught up.
 */
#include "workload/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "util/log.h"
#include "util/safefile.h"

#define READ_BLOCK (64u * 1024)
#define LINE_MAX_LEN (READ_BLOCK - 1)
#define REPLAY_CHUNK 4096
#define REPLAY_SLACK_NS 100000ULL
#define REPLAY_SLICE_NS 10000000ULL
#define V2_WAIT_MIN_US 100	/* fio's rule: shorter waits are dropped */

enum { F_ADDED = 1, F_OPEN = 2 };

static const char *const header[] = {
	[2] = "fio version 2 iolog",
	[3] = "fio version 3 iolog",
};

__attribute__((format(printf, 3, 4)))
static int rd_fail(const struct iolog_reader *r, struct strbuf *err,
		   const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(err, "%s:%u: ", r->name, r->line);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- lines ---------------------------------------------------------- */

/* More bytes into the block buffer; -errno on a read error. */
static int rd_fill(struct iolog_reader *r)
{
	ssize_t n;

	if (r->fd < 0 || r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	do {
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		r->eof = true;
	r->len += (size_t)n;
	return 0;
}

/*
 * The next line, without its newline: [*line, *line + *len) in the
 * buffer, valid until the next call. Returns 1, 0 at the end, -1 on
 * error.
 */
static int rd_line(struct iolog_reader *r, char **line, size_t *len,
		   struct strbuf *err)
{
	for (;;) {
		char *s = r->buf + r->pos;
		char *nl = memchr(s, '\n', r->len - r->pos);
		int e;

		if (nl || (r->eof && r->pos < r->len) ||
		    (r->fd < 0 && r->pos < r->len)) {
			size_t l = nl ? (size_t)(nl - s) : r->len - r->pos;

			r->pos += l + (nl ? 1 : 0);
			r->line++;
			*line = s;
			*len = l;
			return 1;
		}
		if (r->fd < 0 || r->eof)
			return 0;
		if (r->len - r->pos >= LINE_MAX_LEN) {
			r->line++;
			return rd_fail(r, err, "line longer than %u bytes",
				       LINE_MAX_LEN);
		}
		e = rd_fill(r);
		if (e < 0) {
			strbuf_addf(err, "%s: cannot read: %s", r->name,
				    strerror(-e));
			return -1;
		}
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A token: [s, s + n). */
struct tok {
	const char *s;
	size_t n;
};

/* The last token of [s, s + *len); *len shrinks to what is before it. */
static struct tok last_tok(const char *s, size_t *len)
{
	size_t e = *len, b;

	while (e && is_space(s[e - 1]))
		e--;
	b = e;
	while (b && !is_space(s[b - 1]))
		b--;
	*len = b;
	return (struct tok){ s + b, e - b };
}

static bool tok_is(struct tok t, const char *word)
{
	return t.n == strlen(word) && !memcmp(t.s, word, t.n);
}

static bool tok_num(struct tok t, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!t.n || t.n > 20)
		return false;
	for (i = 0; i < t.n; i++) {
		unsigned int d = (unsigned int)(t.s[i] - '0');

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* ---- the file table ------------------------------------------------- */

static int file_find(const struct iolog_reader *r, struct tok name)
{
	unsigned int i;

	for (i = r->nr_files; i-- > 0;)
		if (strlen(r->files[i]) == name.n &&
		    !memcmp(r->files[i], name.s, name.n))
			return (int)i;
	return -1;
}

static const struct {
	const char *name;
	enum ddir ddir;
} io_actions[] = {
	{ "read", DDIR_READ }, { "write", DDIR_WRITE },
	{ "trim", DDIR_TRIM }, { "sync", DDIR_SYNC },
	{ "datasync", DDIR_DATASYNC },
};

/* The actions of I/O lines, which take an offset and a length. */
static bool io_action(struct tok act)
{
	size_t k;

	for (k = 0; k < sizeof(io_actions) / sizeof(io_actions[0]); k++)
		if (tok_is(act, io_actions[k].name))
			return true;
	return tok_is(act, "wait") || tok_is(act, "sync_file_range");
}

static int file_action(struct iolog_reader *r, struct tok name,
		       struct tok act, struct strbuf *err)
{
	int i = file_find(r, name);

	if (tok_is(act, "add")) {
		if (i < 0) {
			r->files = xrealloc(r->files, (r->nr_files + 1) *
					    sizeof(*r->files));
			r->state = xrealloc(r->state, r->nr_files + 1);
			r->files[r->nr_files] = xstrndup(name.s, name.n);
			r->state[r->nr_files] = 0;	/* realloc'd: not zeroed */
			i = (int)r->nr_files++;
		}
		r->state[i] |= F_ADDED;
		return 0;
	}
	if (io_action(act))
		return rd_fail(r, err, "'%.*s' needs an offset and a length%s",
			       (int)act.n, act.s, tok_is(act, "sync") ||
			       tok_is(act, "datasync") ? " (0 0, as "
			       "write_iolog writes it)" : "");
	if (!tok_is(act, "open") && !tok_is(act, "close"))
		return rd_fail(r, err, "unknown action '%.*s' (valid: add, "
			       "open, close, read, write, trim, sync, "
			       "datasync%s)", (int)act.n, act.s,
			       r->version == 2 ? ", wait" : "");
	if (i < 0)
		return rd_fail(r, err, "'%.*s' is %sed before an 'add' line "
			       "names it", (int)name.n, name.s,
			       tok_is(act, "open") ? "open" : "clos");
	if (tok_is(act, "open"))
		r->state[i] |= F_OPEN;
	else
		r->state[i] &= (uint8_t)~F_OPEN;
	return 0;
}

/* ---- header and I/O lines ------------------------------------------- */

/* The version a header line names, or 0. */
static int header_version(const char *s, size_t len)
{
	int v;

	while (len && is_space(s[len - 1]))
		len--;
	for (v = 2; v <= 3; v++)
		if (len == strlen(header[v]) && !memcmp(s, header[v], len))
			return v;
	return 0;
}

static bool blktrace_magic(const unsigned char *b, size_t len)
{
	uint32_t le, be;

	if (len < 4)
		return false;
	le = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	     (uint32_t)b[3] << 24;
	be = (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 |
	     (uint32_t)b[0] << 24;
	return (le & 0xffffff00u) == 0x65617400u ||
	       (be & 0xffffff00u) == 0x65617400u;
}

static int rd_header(struct iolog_reader *r, struct strbuf *err)
{
	char *line;
	size_t len;
	int ret;

	if (blktrace_magic((const unsigned char *)r->buf + r->pos,
			   r->len - r->pos)) {
		r->line = 1;
		return rd_fail(r, err, "a blktrace binary file: blktrace "
			       "replay is not supported (only fio's iolog "
			       "versions 2 and 3)");
	}
	ret = rd_line(r, &line, &len, err);
	if (ret < 0)
		return -1;
	if (!ret) {
		r->line = 1;
		return rd_fail(r, err, "empty file, not an iolog");
	}
	r->version = header_version(line, len);
	if (!r->version)
		return rd_fail(r, err, "not a fio iolog: the first line must "
			       "be '%s' or '%s'%s", header[2], header[3],
			       len && (line[0] == '0' || line[0] == '1') ?
			       " (the version 1 format is not supported, as "
			       "in fio)" : "");
	return 0;
}

/*
 * "[ts] name action offset length": 1 with io filled, 0 for a line that
 * is no I/O (a v2 wait), -1 on error.
 */
static int io_line(struct iolog_reader *r, struct tok name, struct tok act,
		   uint64_t ts, struct tok t_off, struct tok t_len,
		   struct iolog_io *io, struct strbuf *err)
{
	uint64_t off, len;
	size_t k;
	int i;

	if (!tok_num(t_off, &off) || !tok_num(t_len, &len))
		return rd_fail(r, err, "invalid offset or length '%.*s %.*s' "
			       "(decimal bytes)", (int)t_off.n, t_off.s,
			       (int)t_len.n, t_len.s);
	if (tok_is(act, "wait")) {
		if (r->version != 2)
			return rd_fail(r, err, "'wait' is not allowed in a "
				       "version 3 log (its timestamps give "
				       "the time)");
		if (off >= V2_WAIT_MIN_US)
			r->wait_us += off;
		return 0;
	}
	/* sync_file_range=: write_iolog logs its syncs, fio replays none */
	if (tok_is(act, "sync_file_range"))
		return 0;
	for (k = 0; k < sizeof(io_actions) / sizeof(io_actions[0]); k++)
		if (tok_is(act, io_actions[k].name))
			break;
	if (k == sizeof(io_actions) / sizeof(io_actions[0]))
		return file_action(r, name, act, err) ? -1 :
		       rd_fail(r, err, "'%.*s' takes no offset and length",
			       (int)act.n, act.s);
	i = file_find(r, name);
	if (i < 0 || !(r->state[i] & F_OPEN))
		return rd_fail(r, err, "I/O to '%.*s', which %s", (int)name.n,
			       name.s, i < 0 ? "no 'add' line names" :
			       "is not open (no 'open' line before)");
	io->ddir = (uint8_t)io_actions[k].ddir;
	if (io->ddir < DDIR_RWDIR_CNT) {
		if (!len || len > UINT32_MAX)
			return rd_fail(r, err, "length %" PRIu64 " is out of "
				       "range (1..4294967295)", len);
		if (off > UINT64_MAX - len)
			return rd_fail(r, err, "offset %" PRIu64 " plus length "
				       "%" PRIu64 " is past 2^64", off, len);
	} else {
		off = len = 0;	/* fio writes "sync 0 0" */
	}
	io->offset = off;
	io->len = (uint32_t)len;
	io->file = (uint32_t)i;
	io->time_us = r->version == 2 ? r->wait_us : ts;
	return 1;
}

/* One line: 1 with an I/O, 0 for a line without one, -1 on error. */
static int parse_line(struct iolog_reader *r, char *s, size_t len,
		      struct iolog_io *io, struct strbuf *err)
{
	struct tok t1, t2, act, name, tts;
	uint64_t ts = 0, dummy;
	size_t rest = len;
	int v;

	t1 = last_tok(s, &rest);
	if (!t1.n)
		return 0;	/* blank line */
	v = header_version(s, len);
	if (v) {
		/* a log appended to this one: its times follow on */
		if (v != r->version)
			return rd_fail(r, err, "a version %d header in a "
				       "version %d log", v, r->version);
		r->base_us = r->last_us;
		return 0;
	}
	if (tok_num(t1, &dummy)) {
		t2 = last_tok(s, &rest);
		act = last_tok(s, &rest);
	} else {
		t2 = t1;
		act = t1;
		t1.n = 0;
	}
	if (r->version == 3) {
		size_t b = 0;

		while (b < rest && is_space(s[b]))
			b++;
		tts.s = s + b;
		tts.n = 0;
		while (b + tts.n < rest && !is_space(s[b + tts.n]))
			tts.n++;
		if (!tok_num(tts, &ts))
			return rd_fail(r, err, "a version 3 line starts with "
				       "its timestamp (decimal "
				       "microseconds), not '%.*s'",
				       (int)tts.n, tts.s);
		if (ts > UINT64_MAX - r->base_us)
			return rd_fail(r, err, "timestamp %" PRIu64 " is too "
				       "large", ts);
		ts += r->base_us;
		if (ts > r->last_us)
			r->last_us = ts;
		s += b + tts.n;
		rest -= b + tts.n;
	}
	while (rest && is_space(s[0])) {
		s++;
		rest--;
	}
	while (rest && is_space(s[rest - 1]))
		rest--;
	name.s = s;
	name.n = rest;
	if (!name.n || !act.n)
		return rd_fail(r, err, "expected '%sfilename action [offset "
			       "length]'", r->version == 3 ? "timestamp " :
			       "");
	if (!t1.n)
		return file_action(r, name, act, err);
	return io_line(r, name, act, ts, t2, t1, io, err);
}

int iolog_reader_next(struct iolog_reader *r, struct iolog_io *io,
		      struct strbuf *err)
{
	for (;;) {
		char *line;
		size_t len;
		int ret = rd_line(r, &line, &len, err);

		if (ret <= 0)
			return ret;
		ret = parse_line(r, line, len, io, err);
		if (ret)
			return ret;
	}
}

static void rd_init(struct iolog_reader *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->name = xstrdup(name);
}

int iolog_reader_open(struct iolog_reader *r, const char *path,
		      struct strbuf *err)
{
	int e;

	rd_init(r, path);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	r->cap = READ_BLOCK;
	r->buf = xmalloc(r->cap);
	e = rd_fill(r);
	if (e < 0) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(-e));
		return -1;
	}
	return rd_header(r, err);
}

int iolog_reader_mem(struct iolog_reader *r, const char *name,
		     const char *text, size_t len, struct strbuf *err)
{
	rd_init(r, name);
	/* parsing never writes into the buffer */
	r->buf = (char *)(uintptr_t)text;
	r->len = len;
	r->eof = true;
	return rd_header(r, err);
}

void iolog_reader_close(struct iolog_reader *r)
{
	unsigned int i;

	if (r->fd >= 0) {
		close(r->fd);
		free(r->buf);
	}
	for (i = 0; i < r->nr_files; i++)
		free(r->files[i]);
	free(r->files);
	free(r->state);
	free(r->name);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

/* ---- read_iolog at plan time ----------------------------------------- */

__attribute__((format(printf, 3, 4)))
static int pl_fail(const struct job_plan *p, struct strbuf *err,
		   const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(err, "%s:%d: ", p->src_file, p->src_line);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

static bool o_redirect(const struct job_options *o)
{
	return o->replay_redirect && *o->replay_redirect;
}

/* What a replay does to a logged I/O: skip it (false) or move it. */
static bool replay_map(const struct job_options *o, struct iolog_io *io)
{
	unsigned int bit = io->ddir < DDIR_RWDIR_CNT ? 1u << io->ddir :
			   1u << DDIR_SYNC;

	if (o->replay_skip & bit)
		return false;
	if (io->ddir >= DDIR_RWDIR_CNT)
		return true;
	if (o->replay_scale > 1)
		io->offset /= o->replay_scale;
	if (o->replay_align)
		io->offset &= ~(o->replay_align - 1);
	return true;
}

static const char *const replay_opts[] = {
	"read_iolog_chunked", "replay_no_stall", "replay_redirect",
	"replay_align", "replay_scale", "replay_time_scale", "replay_skip",
};

/* The options around the log, before reading it. */
static int check_opts(const struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	bool replay = o->read_iolog && *o->read_iolog;
	size_t i;

	if (o->write_iolog && *o->write_iolog) {
		const char *slash = strrchr(o->write_iolog, '/');
		char *dir = !slash ? xstrdup(".") :
			    xstrndup(o->write_iolog, slash == o->write_iolog ?
				     1 : (size_t)(slash - o->write_iolog));
		struct stat st;
		int bad = stat(dir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 :
			  ENOTDIR;
		const char *why;

		if (bad)
			pl_fail(p, err, "option 'write_iolog': cannot write "
				"'%s': '%s': %s", o->write_iolog, dir,
				strerror(bad));
		free(dir);
		if (bad)
			return -1;
		if (sf_check(o->write_iolog, true, SF_NAMED, &why))
			return pl_fail(p, err, "option 'write_iolog': '%s': %s",
				       o->write_iolog, why);
		if (replay && !strcmp(o->write_iolog, o->read_iolog))
			return pl_fail(p, err, "option 'write_iolog': '%s' is "
				       "also the log read_iolog replays",
				       o->write_iolog);
	}
	if (!replay) {
		for (i = 0; i < sizeof(replay_opts) / sizeof(*replay_opts); i++)
			if (opt_is_set(o, replay_opts[i]))
				return pl_fail(p, err, "option '%s' needs "
					       "read_iolog", replay_opts[i]);
		return 0;
	}
	if (o->verify != VERIFY_NONE)
		return pl_fail(p, err, "option 'verify' with read_iolog is not "
			       "supported yet");
	if (o->replay_align & (o->replay_align - 1))
		return pl_fail(p, err, "option 'replay_align': %" PRIu64 " is "
			       "not a power of 2", o->replay_align);
	return 0;
}

/* The log clone p->clone replays: the N-th of the list, wrapping. */
static char *pick_log(const struct job_plan *p, struct strbuf *err)
{
	unsigned int n = 0;
	char **v = opt_split_filenames(p->o.read_iolog, &n);
	char *log = n ? xstrdup(v[p->clone % n]) : NULL;

	opt_free_filenames(v);
	if (!log)
		pl_fail(p, err, "option 'read_iolog': no log named");
	else if (!strcmp(log, "-"))
		pl_fail(p, err, "option 'read_iolog': '-' (stdin) is not "
			"supported");
	else
		return log;
	free(log);
	return NULL;
}

struct scan {
	uint64_t *ends;		/* per reader file */
	unsigned int nr_ends;
	uint64_t min[DDIR_RWDIR_CNT], max[DDIR_RWDIR_CNT];
	unsigned int mask;
	uint64_t nr_ios, bytes;
};

static void scan_add(struct scan *sc, const struct iolog_reader *rd,
		     const struct iolog_io *io)
{
	if (rd->nr_files > sc->nr_ends) {
		sc->ends = xrealloc(sc->ends, rd->nr_files * sizeof(*sc->ends));
		memset(sc->ends + sc->nr_ends, 0,
		       (rd->nr_files - sc->nr_ends) * sizeof(*sc->ends));
		sc->nr_ends = rd->nr_files;
	}
	sc->nr_ios++;
	if (io->ddir >= DDIR_RWDIR_CNT)
		return;
	if (!(sc->mask & 1u << io->ddir) || io->len < sc->min[io->ddir])
		sc->min[io->ddir] = io->len;
	if (io->len > sc->max[io->ddir])
		sc->max[io->ddir] = io->len;
	sc->mask |= 1u << io->ddir;
	sc->bytes += io->len;
	if (io->offset + io->len > sc->ends[io->file])
		sc->ends[io->file] = io->offset + io->len;
}

/* The plan's directions and block sizes: what the log does. */
static void plan_from_scan(struct job_plan *p, const struct scan *sc)
{
	bool first = true;
	unsigned int d;

	p->ddir_mask = sc->mask;
	p->writes = sc->mask & (1u << DDIR_WRITE | 1u << DDIR_TRIM);
	p->mixed = (sc->mask & (sc->mask - 1)) != 0;
	p->bs_fixed = true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!(sc->mask & 1u << d))
			continue;
		p->dir_min_bs[d] = p->dir_align[d] = sc->min[d];
		p->dir_max_bs[d] = sc->max[d];
		if (sc->min[d] != sc->max[d] ||
		    (!first && (sc->min[d] != p->min_bs ||
				sc->max[d] != p->max_bs)))
			p->bs_fixed = false;
		if (first || sc->min[d] < p->min_bs)
			p->min_bs = sc->min[d];
		if (first || sc->max[d] > p->max_bs)
			p->max_bs = sc->max[d];
		if (d != DDIR_TRIM && sc->max[d] > p->replay_buf_bs)
			p->replay_buf_bs = sc->max[d];
		first = false;
	}
}

/* The files the replay's I/O goes to, each checked to exist. */
static int plan_files(struct job_plan *p, struct plan_replay *pr,
		      const struct iolog_reader *rd, const struct scan *sc,
		      struct strbuf *err)
{
	const char *redirect = p->o.replay_redirect;
	unsigned int i;

	if (redirect && *redirect) {
		pr->nr_files = 1;
		pr->files = xcalloc(1, sizeof(*pr->files));
		pr->ends = xcalloc(1, sizeof(*pr->ends));
		pr->files[0] = xstrdup(redirect);
		for (i = 0; i < sc->nr_ends; i++)
			if (sc->ends[i] > pr->ends[0])
				pr->ends[0] = sc->ends[i];
		return 0;
	}
	pr->nr_files = rd->nr_files;
	pr->files = xcalloc(rd->nr_files, sizeof(*pr->files));
	pr->ends = xcalloc(rd->nr_files, sizeof(*pr->ends));
	for (i = 0; i < rd->nr_files; i++) {
		struct stat st;

		pr->files[i] = xstrdup(rd->files[i]);
		pr->ends[i] = i < sc->nr_ends ? sc->ends[i] : 0;
		if (stat(rd->files[i], &st) && errno == ENOENT)
			return pl_fail(p, err, "option 'read_iolog': '%s' "
				       "(named in '%s') does not exist; "
				       "iolite does not create the files a "
				       "log names (replay_redirect= sends "
				       "the I/O to a file of your choice)",
				       rd->files[i], pr->log);
	}
	return 0;
}

/* Reads the whole log once: every line checked, the totals noted. */
static int scan_log(struct job_plan *p, struct plan_replay *pr,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct iolog_reader rd;
	struct scan sc;
	struct iolog_io io;
	int ret;

	memset(&sc, 0, sizeof(sc));
	ret = iolog_reader_open(&rd, pr->log, &why);
	while (!ret && (ret = iolog_reader_next(&rd, &io, &why)) > 0) {
		ret = 0;
		if (replay_map(&p->o, &io))
			scan_add(&sc, &rd, &io);
	}
	if (ret < 0)
		pl_fail(p, err, "option 'read_iolog': %s", strbuf_str(&why));
	else if (!sc.mask)
		ret = pl_fail(p, err, "option 'read_iolog': '%s' has no "
			      "reads, writes or trims to replay%s", pr->log,
			      p->o.replay_skip ? " (after replay_skip)" : "");
	else
		ret = plan_files(p, pr, &rd, &sc, err);
	if (!ret) {
		plan_from_scan(p, &sc);
		pr->nr_ios = sc.nr_ios;
		pr->bytes = sc.bytes;
	}
	iolog_reader_close(&rd);
	free(sc.ends);
	strbuf_release(&why);
	return ret;
}

/*
 * A path spelled for comparison: absolute (relative ones from the current
 * directory), with "." components and repeated slashes dropped. Lexical
 * only: the log may not exist yet, so nothing is resolved on disk.
 */
static void path_norm(const char *in, char *out, size_t size)
{
	char cwd[PATH_MAX];
	size_t n = 0;
	const char *p;

	if (in[0] != '/' && getcwd(cwd, sizeof(cwd)))
		n = (size_t)snprintf(out, size, "%s/", cwd);
	if (n >= size)
		n = 0;
	for (p = in; *p && n + 1 < size; ) {
		if (*p == '/') {
			if (!n || out[n - 1] != '/')
				out[n++] = '/';
			p++;
		} else if (p[0] == '.' && (p[1] == '/' || !p[1]) &&
			   (p == in || p[-1] == '/')) {
			p++;	/* a "." component */
		} else {
			out[n++] = *p++;
		}
	}
	while (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = 0;
}

static bool same_path(const char *a, const char *b)
{
	char na[PATH_MAX], nb[PATH_MAX];

	if (!strcmp(a, b))
		return true;
	path_norm(a, na, sizeof(na));
	path_norm(b, nb, sizeof(nb));
	return !strcmp(na, nb);
}

bool iolog_writes_before(const struct job_plan *plans, unsigned int i,
			 unsigned int k)
{
	const char *w = plans[k].o.write_iolog;
	unsigned int s = i;

	/* where plans[i]'s group starts: the runner's segments */
	while (s > 0 && !(plans[s].o.stonewall && plans[s].clone == 0))
		s--;
	return k < s && w && plans[i].replay && plans[i].replay->log &&
	       same_path(w, plans[i].replay->log);
}

/*
 * An earlier group writes the log: its content is only known when the
 * job starts (iolog_plan_start()). Until then the job may do what its
 * writers do (replay_skip applied): the directions and block sizes that
 * the checks before the run (--readonly, device safety) go by.
 */
static bool plan_deferred(struct job_plan *plans, unsigned int i)
{
	struct job_plan *p = &plans[i];
	struct scan sc;
	unsigned int k, d;
	bool any = false;

	memset(&sc, 0, sizeof(sc));
	for (k = 0; k < i; k++) {
		const struct job_plan *w = &plans[k];

		if (!iolog_writes_before(plans, i, k))
			continue;
		any = true;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!(w->ddir_mask & ~p->o.replay_skip & 1u << d))
				continue;
			if (!(sc.mask & 1u << d) || w->dir_min_bs[d] < sc.min[d])
				sc.min[d] = w->dir_min_bs[d];
			if (w->dir_max_bs[d] > sc.max[d])
				sc.max[d] = w->dir_max_bs[d];
			sc.mask |= 1u << d;
		}
	}
	if (!any)
		return false;
	p->replay->deferred = true;
	plan_from_scan(p, &sc);
	return true;
}

int iolog_plan(struct job_plan *plans, unsigned int i, struct strbuf *err)
{
	struct job_plan *p = &plans[i];
	struct plan_replay *pr;

	if (check_opts(p, err))
		return -1;
	if (!p->o.read_iolog || !*p->o.read_iolog)
		return 0;
	pr = xcalloc(1, sizeof(*pr));
	p->replay = pr;
	pr->log = pick_log(p, err);
	if (!pr->log)
		return -1;
	if (plan_deferred(plans, i))
		return 0;
	if (access(pr->log, F_OK) && errno == ENOENT)
		return pl_fail(p, err, "option 'read_iolog': '%s' does not "
			       "exist, and no job of an earlier stonewall "
			       "group writes it (write_iolog)", pr->log);
	return scan_log(p, pr, err);
}

/* ---- a deferred log, read when the job starts ------------------------ */

struct start_scan {
	struct job_plan *p;
	const uint64_t *sizes;
	struct scan sc;
	uint32_t *map;
	unsigned int nr_map;
	unsigned int wline;	/* the first line that writes or trims */
};

/* io's file in the job's files, mapping the log's files as they come. */
static int start_map(struct start_scan *ss, const struct iolog_reader *rd,
		     struct iolog_io *io, struct strbuf *err)
{
	const struct plan_replay *pr = ss->p->replay;
	unsigned int k;

	if (rd->nr_files > ss->nr_map) {
		ss->map = xrealloc(ss->map, rd->nr_files * sizeof(*ss->map));
		for (k = ss->nr_map; k < rd->nr_files; k++) {
			ss->map[k] = UINT32_MAX;
			for (unsigned int f = 0; f < pr->nr_files; f++)
				if (!strcmp(rd->files[k], pr->files[f]))
					ss->map[k] = f;
		}
		ss->nr_map = rd->nr_files;
	}
	if (o_redirect(&ss->p->o))
		return 0;
	if (ss->map[io->file] == UINT32_MAX)
		return rd_fail(rd, err, "I/O to '%s', which is not a file of "
			       "the jobs that write the log (the files "
			       "checked before the run)", rd->files[io->file]);
	return 0;
}

/* One I/O of a deferred log, checked against what was checked before. */
static int start_io(struct start_scan *ss, const struct iolog_reader *rd,
		    struct iolog_io *io, struct strbuf *err)
{
	const struct plan_replay *pr = ss->p->replay;
	unsigned int f;

	if (start_map(ss, rd, io, err))
		return -1;
	f = o_redirect(&ss->p->o) ? 0 : ss->map[io->file];
	if (io->ddir < DDIR_RWDIR_CNT &&
	    io->offset + io->len > ss->sizes[f])
		return rd_fail(rd, err, "I/O up to byte %" PRIu64 " of '%s', "
			       "which has %" PRIu64 " bytes",
			       io->offset + io->len, pr->files[f],
			       ss->sizes[f]);
	if ((io->ddir == DDIR_WRITE || io->ddir == DDIR_TRIM) && !ss->wline)
		ss->wline = rd->line;
	scan_add(&ss->sc, rd, io);
	return 0;
}

int iolog_plan_start(struct job_plan *p, const uint64_t *sizes,
		     struct strbuf *err)
{
	struct plan_replay *pr = p->replay;
	struct strbuf why = STRBUF_INIT;
	struct start_scan ss;
	struct iolog_reader rd;
	struct iolog_io io;
	int ret;

	memset(&ss, 0, sizeof(ss));
	ss.p = p;
	ss.sizes = sizes;
	ret = iolog_reader_open(&rd, pr->log, &why);
	while (!ret && (ret = iolog_reader_next(&rd, &io, &why)) > 0)
		ret = replay_map(&p->o, &io) ? start_io(&ss, &rd, &io, &why) :
		      0;
	if (ret < 0)
		pl_fail(p, err, "option 'read_iolog': %s", strbuf_str(&why));
	else if (!ss.sc.mask)
		ret = pl_fail(p, err, "option 'read_iolog': '%s' has no "
			      "reads, writes or trims to replay%s", pr->log,
			      p->o.replay_skip ? " (after replay_skip)" : "");
	else if (ss.wline && !p->writes)
		ret = pl_fail(p, err, "option 'read_iolog': %s:%u: a write, "
			      "but the jobs that write the log do not write "
			      "(the checks before the run allowed reads "
			      "only)", pr->log, ss.wline);
	if (!ret) {
		plan_from_scan(p, &ss.sc);
		pr->nr_ios = ss.sc.nr_ios;
		pr->bytes = ss.sc.bytes;
		pr->map = ss.map;
		pr->nr_map = ss.nr_map;
		ss.map = NULL;
	}
	iolog_reader_close(&rd);
	free(ss.sc.ends);
	free(ss.map);
	strbuf_release(&why);
	return ret;
}

int iolog_region(const struct job_plan *p, unsigned int i, uint64_t dev_size,
		 uint64_t *off, uint64_t *len, struct strbuf *err)
{
	const struct plan_replay *pr = p->replay;

	*off = 0;
	*len = pr->ends[i];
	if (dev_size && *len > dev_size)
		return pl_fail(p, err, "option 'read_iolog': '%s' does I/O up "
			       "to byte %" PRIu64 " of block device '%s', "
			       "which has %" PRIu64 " bytes", pr->log, *len,
			       pr->files[i], dev_size);
	return 0;
}

/* ---- the replay ----------------------------------------------------- */

struct iolog_replay {
	const struct job_plan *p;
	const struct job_options *o;
	const struct plan_replay *pr;
	struct iolog_reader rd;	/* chunked: open while the job runs */
	bool chunked, eof;
	struct iolog_io *ios;
	size_t nr, cap, pos;
	bool redirect, no_stall;
	unsigned int tscale;	/* percent of the logged rate */
	bool started, paused, sync_ok;
	uint64_t t0_ns, due_ns;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Whether io is within what was checked before the run: a job file, a
 * direction the job does, a block its buffers hold. Only a log that
 * changed since it was read (written to at the same time) can fail.
 */
static bool replay_fits(const struct iolog_replay *r, struct iolog_io *io)
{
	const struct plan_replay *pr = r->pr;

	if (r->redirect)
		io->file = 0;
	else if (pr->map)
		io->file = io->file < pr->nr_map ? pr->map[io->file] :
			   UINT32_MAX;
	if (io->file >= pr->nr_files)
		return false;
	return io->ddir >= DDIR_RWDIR_CNT ||
	       ((r->p->ddir_mask & 1u << io->ddir) &&
		io->len <= r->p->dir_max_bs[io->ddir]);
}

/*
 * Loads the next I/Os: up to REPLAY_CHUNK (chunked) or all. A line the
 * check before passed cannot fail unless the log changed since; the
 * replay then ends there. Returns 0 or -1 with err.
 */
static int replay_load(struct iolog_replay *r, struct strbuf *err)
{
	struct iolog_io io;
	int ret = 0;

	r->nr = r->pos = 0;
	while (!r->eof && (!r->chunked || r->nr < REPLAY_CHUNK)) {
		ret = iolog_reader_next(&r->rd, &io, err);
		if (ret <= 0) {
			r->eof = true;
			break;
		}
		ret = 0;
		if (!replay_map(r->o, &io))
			continue;
		if (!replay_fits(r, &io)) {
			r->eof = true;
			break;
		}
		if (r->nr == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 256;
			r->ios = xrealloc(r->ios, r->cap * sizeof(*r->ios));
		}
		r->ios[r->nr++] = io;
	}
	return ret < 0 ? -1 : 0;
}

static int replay_open(struct iolog_replay *r, struct strbuf *err)
{
	r->eof = false;
	if (iolog_reader_open(&r->rd, r->pr->log, err) ||
	    replay_load(r, err))
		return -1;
	if (!r->chunked)
		iolog_reader_close(&r->rd);
	return 0;
}

int iolog_replay_init(struct iolog_replay **out, const struct job_plan *p,
		      struct strbuf *err)
{
	struct iolog_replay *r;

	if (p->replay->error) {	/* a deferred log, refused at start */
		strbuf_addstr(err, p->replay->error);
		*out = NULL;
		return -1;
	}
	r = xcalloc(1, sizeof(*r));
	r->rd.fd = -1;
	r->p = p;
	r->o = &p->o;
	r->pr = p->replay;
	r->chunked = p->o.read_iolog_chunked;
	r->redirect = p->o.replay_redirect && *p->o.replay_redirect;
	r->no_stall = p->o.replay_no_stall;
	r->tscale = p->o.replay_time_scale ? p->o.replay_time_scale : 100;
	if (replay_open(r, err)) {
		iolog_replay_free(r);
		*out = NULL;
		return -1;
	}
	*out = r;
	return 0;
}

/* The next block of a chunked log; false at its end. */
static bool replay_refill(struct iolog_replay *r)
{
	struct strbuf err = STRBUF_INIT;

	if (!r->chunked || r->eof)
		return false;
	replay_load(r, &err);
	strbuf_release(&err);
	return r->nr > 0;
}

int iolog_replay_next(struct iolog_replay *r, struct io_u *u)
{
	const struct iolog_io *io;

	if (r->paused || (r->pos == r->nr && !replay_refill(r)))
		return 1;
	io = &r->ios[r->pos];
	if (io->ddir >= DDIR_RWDIR_CNT && !r->sync_ok) {
		/* a sync covers what was issued before: drain first */
		r->paused = true;
		r->due_ns = 0;
		return 1;
	}
	if (!r->no_stall) {
		uint64_t now = mono_ns(), due;

		if (!r->started) {
			r->started = true;
			r->t0_ns = now;
		}
		due = r->t0_ns + io->time_us * 1000 / r->tscale * 100;
		if (due > now + REPLAY_SLACK_NS) {
			r->paused = true;
			r->due_ns = due;
			return 1;
		}
	}
	r->sync_ok = false;
	r->pos++;
	u->file = io->file;
	u->offset = io->offset;
	u->len = io->len;
	u->ddir = io->ddir;
	return 0;
}

bool iolog_replay_wait(struct iolog_replay *r, volatile int *stop,
		       uint64_t max_ns)
{
	uint64_t now, limit;

	if (!r->paused)
		return false;
	r->paused = false;
	r->sync_ok = true;
	now = mono_ns();
	limit = max_ns > UINT64_MAX - now ? UINT64_MAX : now + max_ns;
	while (now < r->due_ns && now < limit && !*stop) {
		uint64_t ns = r->due_ns - now;
		struct timespec ts;

		if (ns > REPLAY_SLICE_NS)
			ns = REPLAY_SLICE_NS;
		if (ns > limit - now)
			ns = limit - now;
		ts.tv_sec = (time_t)(ns / 1000000000ULL);
		ts.tv_nsec = (long)(ns % 1000000000ULL);
		nanosleep(&ts, NULL);
		now = mono_ns();
	}
	return true;
}

void iolog_replay_rewind(struct iolog_replay *r)
{
	struct strbuf err = STRBUF_INIT;

	r->started = r->paused = r->sync_ok = false;
	if (r->chunked) {
		iolog_reader_close(&r->rd);
		if (replay_open(r, &err))
			r->nr = r->pos = 0;	/* gone since: nothing more */
	} else {
		r->pos = 0;
	}
	strbuf_release(&err);
}

uint64_t iolog_replay_bytes(const struct iolog_replay *r)
{
	return r->pr->bytes;
}

void iolog_replay_free(struct iolog_replay *r)
{
	if (!r)
		return;
	iolog_reader_close(&r->rd);
	free(r->ios);
	free(r);
}

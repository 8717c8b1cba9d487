/* SPDX-License-Identifier: MIT */
/*
 * The job-file reader: fio's INI dialect (see job_file_read() in job.h).
 *
 * Each file is read line by line into the job list. Jobs copy the global
 * entries in effect when their section starts, so a later [global] does not
 * change earlier jobs. Nothing is interpreted here beyond the file's shape:
 * job_build() turns the entries into options once everything is read.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "job/job_internal.h"
#include "util/debug.h"


enum reader_in {
	IN_NONE,	/* before the first section */
	IN_GLOBAL,	/* in a [global] section */
	IN_JOB,		/* in jl->jobs[r->job] */
	IN_SKIP,	/* in a job --section did not select */
};

/*
 * What one job_file_read() takes, includes and all: job files are a few
 * kilobytes, generated ones a few megabytes. The caps stop a path that
 * is no job file (/dev/zero, a disk, a log) before it fills memory.
 */
#define JOB_READ_MAX_BYTES (16u << 20)
#define JOB_READ_MAX_LINES 1000000u

struct reader {
	struct job_list *jl;
	const char *const *sections;
	struct strbuf *err;
	struct job_desc gl;	/* this file's global entries so far */
	size_t gl_inherited;	/* of them, in effect when a job began */
	enum reader_in in;
	size_t job;
	size_t bytes;		/* read so far, includes and all */
	unsigned int lines;
	/*
	 * The files being read, outermost first, to catch include loops.
	 * No depth limit of its own: as in fio, each level keeps its file
	 * open, so the open-file limit (ulimit -n) bounds a chain.
	 */
	struct reader_file {
		dev_t dev;
		ino_t ino;
		const char *path;
	} *stack;
	int depth, cap;
};

static int read_file(struct reader *r, const char *path, const char *from,
		     int from_line);

/* Trims whitespace in place, returning the new start. */
static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

static bool selected(const struct reader *r, const char *name)
{
	const char *const *s;

	if (!r->sections)
		return true;
	for (s = r->sections; *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static int section(struct reader *r, char *line, const char *file, int lnum)
{
	size_t len = strlen(line);
	char *name;

	if (r->depth > 1) {
		strbuf_addf(r->err,
			    "%s:%d: section '%s' not allowed in an included file",
			    file, lnum, line);
		return -1;
	}
	name = line + 1;
	if (len < 3 || line[len - 1] != ']' ||
	    strcspn(name, "[]") != len - 2) {
		strbuf_addf(r->err, "%s:%d: malformed section header '%s'",
			    file, lnum, line);
		return -1;
	}
	line[len - 1] = '\0';
	if (!strcmp(name, "global")) {
		r->in = IN_GLOBAL;
	} else if (!selected(r, name)) {
		r->in = IN_SKIP;
	} else {
		job_list_new_job(r->jl, name, &r->gl, file, lnum);
		r->gl_inherited = r->gl.nr;
		r->job = r->jl->nr - 1;
		r->in = IN_JOB;
	}
	return 0;
}

/* "include x" reads x, relative to the including file, into this section. */
static int include(struct reader *r, const char *arg, const char *file,
		   int lnum)
{
	const char *slash = strrchr(file, '/');
	struct strbuf path = STRBUF_INIT;
	int ret;

	if (!*arg) {
		strbuf_addf(r->err, "%s:%d: 'include' needs a file name",
			    file, lnum);
		return -1;
	}
	if (r->in == IN_NONE) {
		strbuf_addf(r->err,
			    "%s:%d: 'include %s' outside of any job section",
			    file, lnum, arg);
		return -1;
	}
	if (arg[0] != '/' && slash)
		strbuf_add(&path, file, (size_t)(slash - file) + 1);
	strbuf_addstr(&path, arg);
	ret = read_file(r, path.buf, file, lnum);
	strbuf_release(&path);
	return ret;
}

/* An "include" directive: the word, then whitespace or '=', then a path. */
static const char *include_arg(const char *line)
{
	if (strncmp(line, "include", 7))
		return NULL;
	if (!line[7])
		return line + 7;
	if (!isspace((unsigned char)line[7]) && line[7] != '=')
		return NULL;
	line += 8;
	while (isspace((unsigned char)*line))
		line++;
	return line;
}

static int option(struct reader *r, char *line, const char *file, int lnum)
{
	struct strbuf val = STRBUF_INIT;
	char *eq = strchr(line, '='), *key;
	struct job_desc *jd;

	if (eq)
		*eq = '\0';
	key = trim(line);
	if (!*key) {
		strbuf_addf(r->err, "%s:%d: missing option name before '='",
			    file, lnum);
		return -1;
	}
	if (r->in == IN_NONE) {
		strbuf_addf(r->err,
			    "%s:%d: option '%s' outside of any job section",
			    file, lnum, key);
		return -1;
	}
	jd = r->in == IN_GLOBAL ? &r->gl : &r->jl->jobs[r->job];
	if (eq) {
		job_expand_keywords(trim(eq + 1), &val);
		dbg(DBG_PARSE, "%s:%d: [%s] %s=%s", file, lnum,
		    r->in == IN_GLOBAL ? "global" : jd->name, key,
		    strbuf_str(&val));
		job_desc_add(jd, key, strbuf_str(&val), file, lnum);
	} else {
		job_desc_add(jd, key, NULL, file, lnum);
	}
	strbuf_release(&val);
	return 0;
}

static int parse_line(struct reader *r, char *raw, const char *file, int lnum)
{
	struct strbuf line = STRBUF_INIT;
	const char *arg;
	char *s;
	int ret = 0;

	/* as in fio, ';' and '#' start a comment anywhere on the line */
	raw[strcspn(raw, ";#")] = '\0';
	s = trim(raw);
	if (!*s)
		return 0;
	if (*s == '[')
		return section(r, s, file, lnum);
	if (r->in == IN_SKIP)
		return 0;
	if (job_expand_env(s, &line)) {
		strbuf_addf(r->err, "%s:%d: unterminated '${' in '%s'",
			    file, lnum, s);
		strbuf_release(&line);
		return -1;
	}
	if (!line.len) {
		/* fio refuses it too ("Bad option") */
		strbuf_addf(r->err,
			    "%s:%d: '%s' expands to nothing (environment variable not set)",
			    file, lnum, s);
		return -1;
	}
	s = trim(line.buf);
	arg = include_arg(s);
	if (arg)
		ret = include(r, arg, file, lnum);
	else if (*s)
		ret = option(r, s, file, lnum);
	strbuf_release(&line);
	return ret;
}

static int open_error(struct reader *r, const char *path, const char *from,
		      int from_line, const char *what, int errnum)
{
	if (from)
		strbuf_addf(r->err, "%s:%d: include file '%s' cannot be %s: %s",
			    from, from_line, path, what, strerror(errnum));
	else
		strbuf_addf(r->err, "job file '%s' cannot be %s: %s",
			    path, what, strerror(errnum));
	return -1;
}

/* An include loop: the chain from the file read again to the include. */
static void include_loop(struct reader *r, int first, const char *path,
			 const char *from, int from_line)
{
	int i;

	strbuf_addf(r->err, "%s:%d: include loop: '%s' is already being read (",
		    from, from_line, path);
	for (i = first; i < r->depth; i++)
		strbuf_addf(r->err, "'%s' includes ", r->stack[i].path);
	strbuf_addf(r->err, "'%s')", path);
}

/*
 * Past the caps: the file (and the include that named it) and which cap,
 * into err; -1.
 */
static int too_large(struct reader *r, const char *path, const char *from,
		     int from_line)
{
	if (from)
		strbuf_addf(r->err, "%s:%d: include file '%s'", from, from_line,
			    path);
	else
		strbuf_addf(r->err, "job file '%s'", path);
	if (r->lines > JOB_READ_MAX_LINES)
		strbuf_addf(r->err, " goes past %u lines", JOB_READ_MAX_LINES);
	else
		strbuf_addf(r->err, " goes past %u MiB",
			    JOB_READ_MAX_BYTES >> 20);
	strbuf_addstr(r->err, ", the most iolite reads of a job file and "
		      "its includes");
	return -1;
}

/*
 * getline() with the caps: a line without an end (/dev/zero) stops at
 * the byte cap instead of growing with it. 1 with a line in *buf, 0 at
 * the end of the file, -1 past a cap.
 */
static int read_line(struct reader *r, FILE *f, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF) {
		if (++r->bytes > JOB_READ_MAX_BYTES)
			return -1;
		if (len + 2 > *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*buf = xrealloc(*buf, *cap);
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (!len)
		return 0;
	(*buf)[len] = '\0';
	return ++r->lines > JOB_READ_MAX_LINES ? -1 : 1;
}

static int read_file(struct reader *r, const char *path, const char *from,
		     int from_line)
{
	char *buf = NULL;
	size_t cap = 0;
	struct stat st;
	int lnum = 0, i, ret = 0, got;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		open_error(r, path, from, from_line, "opened", e);
		/* the one bound on a chain of includes, as in fio */
		if (e == EMFILE)
			strbuf_addf(r->err, " (includes nested %d deep reach the open-file limit, ulimit -n)",
				    r->depth);
		return -1;
	}
	if (fstat(fileno(f), &st)) {
		ret = open_error(r, path, from, from_line, "read", errno);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = open_error(r, path, from, from_line, "read", EISDIR);
		goto out;
	}
	for (i = 0; i < r->depth; i++) {
		if (r->stack[i].dev == st.st_dev &&
		    r->stack[i].ino == st.st_ino) {
			include_loop(r, i, path, from, from_line);
			ret = -1;
			goto out;
		}
	}
	if (r->depth == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->stack = xrealloc(r->stack, (size_t)r->cap * sizeof(*r->stack));
	}
	r->stack[r->depth].dev = st.st_dev;
	r->stack[r->depth].ino = st.st_ino;
	r->stack[r->depth].path = path;
	r->depth++;
	if (from)
		dbg(DBG_PARSE, "%s:%d: include '%s' (depth %d)", from, from_line,
		    path, r->depth - 1);
	errno = 0;
	while ((got = read_line(r, f, &buf, &cap)) > 0) {
		ret = parse_line(r, buf, path, ++lnum);
		if (ret)
			break;
	}
	if (got < 0 && !ret)
		ret = too_large(r, path, from, from_line);
	if (!ret && ferror(f))
		ret = open_error(r, path, from, from_line, "read",
				 errno ? errno : EIO);
	r->depth--;
out:
	free(buf);
	fclose(f);
	return ret;
}

/*
 * [global] entries no job of the file took (a [global] after the last
 * job, or in a file without jobs) would never be parsed: they are built
 * as a job of their own, so that "rw=frob" there is refused as in fio.
 */
static int check_global(struct reader *r)
{
	struct job_desc jd = r->gl;
	struct job_options o;
	int ret;

	jd.name = (char *)"global";
	ret = job_build(&jd, &o, r->err);
	job_options_release(&o);
	return ret;
}

int job_file_read(struct job_list *jl, const char *path,
		  const char *const *sections, struct strbuf *err)
{
	struct reader r;
	size_t i;
	int ret;

	memset(&r, 0, sizeof(r));
	r.jl = jl;
	r.sections = sections;
	r.err = err;
	for (i = 0; i < jl->cmdline_nr; i++) {
		const struct job_entry *e = &jl->global.ents[i];

		job_desc_add(&r.gl, e->key, e->val, e->file, e->line);
	}
	ret = read_file(&r, path, NULL, 0);
	if (!ret && r.gl.nr > r.gl_inherited && r.gl.nr > jl->cmdline_nr)
		ret = check_global(&r);
	/* jl->global also shows this file's [global] entries */
	for (i = jl->cmdline_nr; !ret && i < r.gl.nr; i++) {
		const struct job_entry *e = &r.gl.ents[i];

		job_desc_add(&jl->global, e->key, e->val, e->file, e->line);
	}
	job_desc_release(&r.gl);
	free(r.stack);
	return ret ? -1 : 0;
}

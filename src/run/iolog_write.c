/* SPDX-License-Identifier: MIT */
/*
 * write_iolog: the I/O a job issues, as fio's version 3 iolog lines
 * ("usec file action offset length"), through a per-job buffer.
 */
#include "run/iolog_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt/options.h"
#include "util/debug.h"
#include "util/log.h"
#include "util/safefile.h"
#include "util/numfmt.h"

#define WBUF_SIZE (64u * 1024)
/* a line: 3 numbers of up to 20 digits, the action, spaces, newline */
#define LINE_EXTRA 80

struct iolog_writer {
	int fd;			/* -1: no log, only --debug=io's lines */
	bool dbg_io;
	int err;		/* first write error, -errno */
	uint64_t start_ns;
	char **names;		/* the files' paths (borrowed) */
	size_t *name_len;
	bool *open;		/* logged open, not closed since */
	unsigned int nr_files;
	size_t len, cap, max_line;
	char buf[];
};

static const char *const actions[DDIR_CNT] = {
	[DDIR_READ] = "read", [DDIR_WRITE] = "write", [DDIR_TRIM] = "trim",
	[DDIR_SYNC] = "sync", [DDIR_DATASYNC] = "datasync",
	[DDIR_SYNC_FILE_RANGE] = "sync_file_range",
};

static void wr_flush(struct iolog_writer *w)
{
	size_t done = 0;

	while (done < w->len && !w->err) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->err = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	w->len = 0;
}

static inline char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* "usec file action[ offset length]\n" */
static void wr_line(struct iolog_writer *w, uint64_t now_ns,
		    unsigned int file, const char *act, const uint64_t *ol)
{
	char *p;

	if (w->cap - w->len < w->max_line)
		wr_flush(w);
	p = w->buf + w->len;
	p = numfmt_put_u64(p, now_ns > w->start_ns ?
		       (now_ns - w->start_ns) / 1000 : 0);
	*p++ = ' ';
	p = put_str(p, w->names[file], w->name_len[file]);
	*p++ = ' ';
	p = put_str(p, act, strlen(act));
	if (ol) {
		*p++ = ' ';
		p = numfmt_put_u64(p, ol[0]);
		*p++ = ' ';
		p = numfmt_put_u64(p, ol[1]);
	}
	*p++ = '\n';
	w->len = (size_t)(p - w->buf);
}

__attribute__((noinline))
void iolog_writer_io(struct iolog_writer *w, const struct io_u *u,
		     uint64_t now_ns)
{
	uint64_t ol[2] = { u->offset, u->len };

	if (u->ddir >= DDIR_CNT || u->file >= w->nr_files)
		return;
	if (w->dbg_io)
		iolog_writer_dbg(w, "queue", u);
	if (w->fd >= 0)
		wr_line(w, now_ns, u->file, actions[u->ddir], ol);
}

void iolog_writer_dbg(const struct iolog_writer *w, const char *what,
		      const struct io_u *u)
{
	dbg_print(DBG_IO, "%s: io_u %u: off=0x%llx,len=0x%llx,ddir=%u,file=%s",
		  what, u->index, (unsigned long long)u->offset,
		  (unsigned long long)u->len, (unsigned int)u->ddir,
		  u->file < w->nr_files ? w->names[u->file] : "?");
}

void iolog_writer_file(struct iolog_writer *w, unsigned int file, bool open,
		       uint64_t now_ns)
{
	if (file >= w->nr_files || w->fd < 0)
		return;
	wr_line(w, now_ns, file, open ? "open" : "close", NULL);
	w->open[file] = open;
}

int iolog_writer_open(struct iolog_writer **out, const char *path,
		      const struct engine_file *files, unsigned int nr_files,
		      uint64_t start_ns, bool dbg_io, struct strbuf *err)
{
	static const char head[] = "fio version 3 iolog\n";
	struct iolog_writer *w;
	const char *why;
	size_t longest = 0;
	unsigned int i;

	*out = NULL;
	for (i = 0; i < nr_files; i++)
		if (strlen(files[i].path) > longest)
			longest = strlen(files[i].path);
	w = xcalloc(1, sizeof(*w) + WBUF_SIZE + longest + LINE_EXTRA);
	w->cap = WBUF_SIZE + longest + LINE_EXTRA;
	w->max_line = longest + LINE_EXTRA;
	w->start_ns = start_ns;
	w->nr_files = nr_files;
	w->names = xcalloc(nr_files ? nr_files : 1, sizeof(*w->names));
	w->name_len = xcalloc(nr_files ? nr_files : 1, sizeof(*w->name_len));
	w->open = xcalloc(nr_files ? nr_files : 1, sizeof(*w->open));
	for (i = 0; i < nr_files; i++) {
		w->names[i] = files[i].path;
		w->name_len[i] = strlen(files[i].path);
	}
	w->dbg_io = dbg_io;
	w->fd = -1;
	if (!path) {
		*out = w;
		return 0;
	}
	w->fd = sf_open(path, O_WRONLY | O_APPEND, 0644, SF_NAMED | SF_CREATE,
			&why);
	if (w->fd < 0) {
		strbuf_addf(err, "option 'write_iolog': cannot open '%s': %s",
			    path, why);
		free(w->names);
		free(w->name_len);
		free(w->open);
		free(w);
		return -1;
	}
	memcpy(w->buf, head, sizeof(head) - 1);
	w->len = sizeof(head) - 1;
	for (i = 0; i < nr_files; i++)
		wr_line(w, start_ns, i, "add", NULL);
	*out = w;
	return 0;
}

int iolog_writer_close(struct iolog_writer *w, uint64_t now_ns)
{
	unsigned int i;
	int ret;

	if (!w)
		return 0;
	ret = 0;
	if (w->fd >= 0) {
		for (i = 0; i < w->nr_files; i++)
			if (w->open[i])
				wr_line(w, now_ns, i, "close", NULL);
		wr_flush(w);
		ret = w->err;
		if (close(w->fd) && !ret)
			ret = -errno;
	}
	free(w->names);
	free(w->name_len);
	free(w->open);
	free(w);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * `iolite compare --run A.fio B.fio --repeat=N`: the sides' job files
 * run here, taking turns (A1 B1 A2 B2 ...), so that drift, warm-up and
 * whatever else the machine does over time fall on every side alike.
 * Each run is a child iolite (this very binary, /proc/self/exe) writing
 * JSON to a pipe: compare reads results, as it does from files, and
 * never reaches into the runner. Every job file is parsed (a child with
 * --parse-only) before the first run, so a typo costs no I/O; a run
 * that fails stops the comparison, its own message on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare/internal.h"

/*
 * Runs iolite with args (and the user's "--" ones) before file; its
 * stdout into capture (NULL: /dev/null). Returns its exit status, or
 * -errno when it could not be started.
 */
static int run_child(const struct cmp_args *a, const char *const *args,
		     unsigned int nr_args, const char *file,
		     struct strbuf *capture, struct strbuf *err)
{
	const char **argv = xcalloc(nr_args + a->nr_child_args + 3,
				    sizeof(*argv));
	unsigned int n = 0, i;
	int fds[2], status, saved;
	pid_t pid;
	ssize_t got;

	argv[n++] = "iolite";
	for (i = 0; i < nr_args; i++)
		argv[n++] = args[i];
	for (i = 0; i < a->nr_child_args; i++)
		argv[n++] = a->child_args[i];
	argv[n++] = file;
	if (pipe2(fds, O_CLOEXEC)) {
		saved = errno;
		strbuf_addf(err, "compare: cannot make a pipe: %s",
			    strerror(saved));
		free(argv);
		return -saved;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		saved = errno;
		strbuf_addf(err, "compare: cannot start iolite: %s",
			    strerror(saved));
		close(fds[0]);
		close(fds[1]);
		free(argv);
		return -saved;
	}
	if (!pid) {
		int fd = capture ? fds[1] : open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (capture) {
			strbuf_grow(capture, 65536);
			got = read(fds[0], capture->buf + capture->len,
				   capture->alloc - capture->len - 1);
		} else {
			char sink[4096];

			got = read(fds[0], sink, sizeof(sink));
		}
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (capture) {
			capture->len += (size_t)got;
			capture->buf[capture->len] = '\0';
		}
	}
	close(fds[0]);
	free(argv);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static char *save_path(const struct cmp_args *a, char label, unsigned int r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%c-%u.json", a->save_dir, label, r);
	return strbuf_detach(&sb);
}

/* --save: the directory is there and no file would be overwritten. */
static int check_save(const struct cmp_args *a, const struct cmp_side *sides,
		      unsigned int nr, struct strbuf *err)
{
	struct stat st;
	unsigned int s, r;

	/* a directory not there yet is made (its parent must be) */
	if (lstat(a->save_dir, &st) && errno == ENOENT &&
	    mkdir(a->save_dir, 0777) && errno != EEXIST) {
		strbuf_addf(err, "compare: --save: cannot make the directory "
			    "'%s': %s", a->save_dir, strerror(errno));
		return -errno;
	}
	if (stat(a->save_dir, &st) || !S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "compare: --save: '%s' is not a directory",
			    a->save_dir);
		return -ENOTDIR;
	}
	for (r = 1; r <= a->repeat; r++) {
		for (s = 0; s < nr; s++) {
			char *p = save_path(a, sides[s].label, r);
			bool there = !lstat(p, &st);

			if (there)
				strbuf_addf(err, "compare: --save: '%s' exists "
					    "(iolite does not overwrite results)",
					    p);
			free(p);
			if (there)
				return -EEXIST;
		}
	}
	return 0;
}

static int save_run(const struct cmp_args *a, char label, unsigned int r,
		    const struct strbuf *json, struct strbuf *err)
{
	char *p = save_path(a, label, r);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t off = 0;
	int ret = 0;

	if (fd < 0) {
		ret = -errno;
		strbuf_addf(err, "compare: cannot create '%s': %s", p,
			    strerror(errno));
		free(p);
		return ret;
	}
	while (off < json->len) {
		ssize_t n = write(fd, json->buf + off, json->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		strbuf_addf(err, "compare: cannot write '%s': %s", p,
			    strerror(-ret));
	free(p);
	return ret;
}

int cmp_run_sides(const struct cmp_args *args, struct cmp_side *sides,
		  unsigned int nr, struct strbuf *err)
{
	static const char *const parse_args[] = { "--parse-only" };
	static const char *const json_args[] = { "--output-format=json+" };
	struct strbuf json = STRBUF_INIT, name = STRBUF_INIT;
	unsigned int s, r;
	int ret;

	for (s = 0; s < nr; s++) {
		ret = run_child(args, parse_args, 1, sides[s].spec, NULL, err);
		if (ret < 0)
			return ret;
		if (ret) {
			strbuf_addf(err, "compare: side %c: '%s' does not "
				    "parse", sides[s].label, sides[s].spec);
			return -EINVAL;
		}
	}
	if (args->save_dir && (ret = check_save(args, sides, nr, err)))
		return ret;
	for (r = 1; r <= args->repeat; r++) {
		for (s = 0; s < nr; s++) {
			strbuf_reset(&json);
			ret = run_child(args, json_args, 1, sides[s].spec, &json,
					err);
			if (ret > 0) {
				strbuf_addf(err, "compare: side %c: run %u of "
					    "'%s' failed (exit status %d)",
					    sides[s].label, r, sides[s].spec,
					    ret);
				ret = -EIO;
			}
			if (!ret && args->save_dir)
				ret = save_run(args, sides[s].label, r, &json,
					       err);
			strbuf_reset(&name);
			strbuf_addf(&name, "%s (run %u)", sides[s].spec, r);
			if (!ret)
				ret = rio_read_buf(&sides[s].doc, name.buf,
						   strbuf_str(&json), json.len,
						   err);
			if (ret)
				goto out;
		}
	}
out:
	strbuf_release(&json);
	strbuf_release(&name);
	return ret;
}

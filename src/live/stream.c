/* SPDX-License-Identifier: MIT */
/*
 * The interval stream (--interval-output): one JSON object a line per
 * interval and reported job, in json+'s words where json+ has them
 * ("io_bytes", "total_ios", "clat_ns" with "percentile" and "bins"), so
 * that a script summing the lines gets the report's figures; and the
 * writer thread that writes the lines, so that a reader who stops
 * reading holds up nothing but the thread (the lines wait in memory).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/live_int.h"
#include "machine/clock.h"
#include "util/json.h"
#include "util/log.h"

static const char *const dir_key[RES_DIR_NR] = {
	"read", "write", "trim", "mixed",
};

/* A latency block, as json+'s, with its bins whenever it has samples. */
static void write_lat(struct json_writer *w, const char *key,
		      const struct job_result *j, const struct welford *s,
		      const struct hist *h, const struct pct_result *pr)
{
	char pkey[32];
	unsigned int i;

	if (!s->n)
		return;
	json_begin_object(w, key);
	json_u64(w, "min", s->min);
	json_u64(w, "max", s->max);
	json_double(w, "mean", s->mean);
	json_double(w, "stddev", welford_stdev(s));
	json_u64(w, "N", s->n);
	if (pr->on) {
		json_begin_object(w, "percentile");
		for (i = 0; i < j->nr_pct; i++) {
			snprintf(pkey, sizeof(pkey), "%f", j->pct_list[i]);
			json_u64(w, pkey, pr->val[i]);
		}
		json_end_object(w);
	}
	hist_json_bins(w, h);
	json_end_object(w);
}

static void write_dir(struct json_writer *w, const struct live_rec *r,
		      unsigned int d, uint64_t dur_ns)
{
	const struct job_result *j = r->j;
	const struct dir_result *dr = &j->dir[d];
	double s = dur_ns ? (double)dur_ns / 1e9 : 0.0;

	json_begin_object(w, dir_key[d]);
	json_u64(w, "io_bytes", dr->bytes);
	/* the report's words: the I/Os issued, failed ones too */
	json_u64(w, "total_ios", results_issued(j, d, 0));
	json_u64(w, "short_ios", results_issued(j, d, 1));
	json_u64(w, "drop_ios", results_issued(j, d, 2));
	/* over the interval's own length, not fio's whole-msec runtime */
	json_u64(w, "bw_bytes", s > 0 ? (uint64_t)((double)dr->bytes / s) : 0);
	json_double(w, "bw", s > 0 ? (double)dr->bytes / 1024.0 / s : 0.0);
	json_double(w, "iops", s > 0 ? (double)dr->ios / s : 0.0);
	write_lat(w, "slat_ns", j, &dr->slat, &dr->slat_hist, &dr->slat_pct);
	write_lat(w, "clat_ns", j, &dr->clat, &dr->clat_hist, &dr->clat_pct);
	write_lat(w, "lat_ns", j, &dr->lat, &dr->lat_hist, &dr->lat_pct);
	json_end_object(w);
}

static double ms_of(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void write_rec(struct json_writer *w, const struct live_rec *r)
{
	const struct job_result *j = r->j;
	uint64_t dur = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	unsigned int d;

	json_begin_object(w, NULL);
	json_str(w, "type", "interval");
	json_u64(w, "seq", r->seq);
	json_str(w, "jobname", j->name);
	json_u64(w, "jobid", r->jobid);
	json_u64(w, "groupid", j->groupid);
	json_u64(w, "members", j->members);
	if (r->ranks)
		json_u64(w, "ranks", r->ranks);
	if (r->round)
		json_u64(w, "round", r->round);
	json_double(w, "start_ms", ms_of(r->start_ns - r->t0_ns));
	json_double(w, "end_ms", ms_of(r->end_ns - r->t0_ns));
	json_double(w, "duration_ms", ms_of(dur));
	json_double(w, "elapsed_ms", ms_of(r->end_ns - r->count_ns));
	json_u64(w, "timestamp_ms",
		 (uint64_t)(((int64_t)r->end_ns + r->wall_off_ns) / 1000000));
	/* the job's last interval, cut short by its end */
	json_bool(w, "last", r->last);
	for (d = 0; d < RES_DIR_NR; d++) {
		if (d == RES_MIXED && !j->unified)
			break;
		if (d < RES_MIXED && !j->dir[d].ios && !j->dir[d].bytes &&
		    !j->issued[d] &&
		    !(j->plan && ddir_used(j->plan, (enum ddir)d)))
			continue;
		write_dir(w, r, d, dur);
	}
	if (j->sync_ios) {
		json_begin_object(w, "sync");
		json_u64(w, "total_ios", j->sync_ios);
		write_lat(w, "lat_ns", j, &j->sync_lat, &j->sync_hist,
			  &j->sync_pct);
		json_end_object(w);
	}
	if (j->total_err)
		json_u64(w, "total_err", j->total_err);
	json_double(w, "usr_cpu", dur ? (double)j->usr_ms * 1e8 / (double)dur :
		    0.0);
	json_double(w, "sys_cpu", dur ? (double)j->sys_ms * 1e8 / (double)dur :
		    0.0);
	json_u64(w, "ctx", j->ctx);
	json_u64(w, "majf", j->majf);
	json_u64(w, "minf", j->minf);
	json_begin_object(w, "iolite");
	json_double(w, "usr_ns_per_io", j->usr_ns_per_io);
	json_double(w, "iowq_cpu_ms", (double)j->iowq_cpu_ns / 1e6);
	/* what the intervals before this one took on the reporter thread */
	json_double(w, "live_cpu_ms", (double)r->cpu_ns / 1e6);
	json_end_object(w);
	json_end_object(w);
}

void live_rec_json(struct strbuf *sb, const struct live_rec *r)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die("out of memory");
	json_init_compact(&w, f);
	write_rec(&w, r);
	json_finish(&w);
	fclose(f);
	strbuf_add(sb, buf, len);
	free(buf);
}

/* --- the writer thread ----------------------------------------------- */

struct chunk {
	struct chunk *next;
	char *text;
	size_t len;
};

struct live_out {
	int fd;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk *head, **tail;
	bool closing;
	bool busy;		/* the thread is writing a chunk */
	uint64_t busy_since;	/* clock_now_ns() then */
	uint64_t wait_ns;	/* the longest stall of a write seen */
	int error;		/* the first write error, -errno */
};

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void *out_main(void *arg)
{
	struct live_out *o = arg;
	struct chunk *c;
	int e;

	pthread_mutex_lock(&o->lock);
	for (;;) {
		while (!o->head && !o->closing)
			pthread_cond_wait(&o->cond, &o->lock);
		c = o->head;
		if (!c)
			break;
		o->head = c->next;
		if (!o->head)
			o->tail = &o->head;
		o->busy = true;
		o->busy_since = clock_now_ns();
		pthread_mutex_unlock(&o->lock);
		e = o->error ? 0 : write_all(o->fd, c->text, c->len);
		free(c->text);
		free(c);
		pthread_mutex_lock(&o->lock);
		o->busy = false;
		if (e && !o->error)
			o->error = e;
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

struct live_out *live_out_new(int fd)
{
	struct live_out *o = xcalloc(1, sizeof(*o));

	o->fd = fd;
	o->tail = &o->head;
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->cond, NULL);
	if (pthread_create(&o->thread, NULL, out_main, o))
		die("cannot start the interval stream's writer thread");
	return o;
}

void live_out_put(struct live_out *o, char *text, size_t len)
{
	struct chunk *c = xmalloc(sizeof(*c));
	uint64_t now;

	c->next = NULL;
	c->text = text;
	c->len = len;
	pthread_mutex_lock(&o->lock);
	/* the longest the writer was seen stuck in one write */
	now = clock_now_ns();
	if (o->busy && now - o->busy_since > o->wait_ns)
		o->wait_ns = now - o->busy_since;
	*o->tail = c;
	o->tail = &c->next;
	pthread_cond_signal(&o->cond);
	pthread_mutex_unlock(&o->lock);
}

int live_out_close(struct live_out *o, uint64_t *wait_ns)
{
	int e;

	pthread_mutex_lock(&o->lock);
	o->closing = true;
	pthread_cond_signal(&o->cond);
	pthread_mutex_unlock(&o->lock);
	pthread_join(o->thread, NULL);
	e = o->error;
	if (o->fd != STDOUT_FILENO && close(o->fd) && !e)
		e = -errno;
	if (wait_ns)
		*wait_ns = o->wait_ns;
	pthread_mutex_destroy(&o->lock);
	pthread_cond_destroy(&o->cond);
	free(o);
	return e;
}

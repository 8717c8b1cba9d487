/* SPDX-License-Identifier: MIT */
/*
 * iolite-mpi's messages: point to point along a binomial tree rooted at
 * rank 0 (a rank's parent clears its lowest set bit; log2(N) levels), a
 * wait that polls with a deadline, the stop message every rank listens
 * for, and the clocks' offsets to rank 0.
 */
#include <errno.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/mpi_int.h"
#include "stats/results.h"
#include "util/log.h"

void mpi_lock(struct mpi_run *m)
{
	pthread_mutex_lock(&m->lock);
}

void mpi_unlock(struct mpi_run *m)
{
	pthread_mutex_unlock(&m->lock);
}

double mpi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int64_t mpi_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A nap between two polls, 50 us doubling up to 1 ms (MPI_NAP_MAX_NS):
 * quick answers stay quick, a long wait (a rank done before the others)
 * costs little CPU.
 */
static void nap(unsigned int *n)
{
	long ns = 50000L << (*n < 5 ? *n : 5);
	struct timespec ts = { 0, ns < MPI_NAP_MAX_NS ? ns : MPI_NAP_MAX_NS };

	(*n)++;
	nanosleep(&ts, NULL);
}

int mpi_parent(const struct mpi_run *m)
{
	return m->rank ? m->rank & (m->rank - 1) : -1;
}

unsigned int mpi_children(const struct mpi_run *m, int *out, unsigned int max)
{
	unsigned int n = 0;
	int bit;

	/* the children add a bit below the lowest one set in the rank */
	for (bit = 1; bit < m->nranks; bit <<= 1) {
		if (m->rank & bit)
			break;
		if (m->rank + bit < m->nranks && n < max)
			out[n++] = m->rank + bit;
	}
	return n;
}

/* A wait past its time-out marks the run: MPI_Finalize would wait too. */
static bool expired(struct mpi_run *m, double start, double timeout)
{
	if (timeout <= 0 || mpi_now() - start <= timeout)
		return false;
	m->timed_out = true;
	return true;
}

/*
 * The message goes from a copy of buf: a send that times out may still
 * be read by the library after the caller freed buf (MPI_Cancel of a
 * send need not succeed), so the copy is then left to it, never freed.
 */
int mpi_send(struct mpi_run *m, int to, int tag, const void *buf, size_t len,
	     double timeout)
{
	MPI_Request req;
	double start = mpi_now();
	unsigned int naps = 0;
	int done = 0;
	void *copy = xmalloc(len ? len : 1);

	memcpy(copy, buf, len);
	mpi_lock(m);
	MPI_Isend(copy, (int)len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
	mpi_unlock(m);
	for (;;) {
		mpi_lock(m);
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (!done && expired(m, start, timeout)) {
			MPI_Cancel(&req);
			MPI_Request_free(&req);
		}
		mpi_unlock(m);
		if (done) {
			free(copy);
			return 0;
		}
		if (expired(m, start, timeout))
			return -1;	/* copy: the library's now */
		nap(&naps);
	}
}

int mpi_recv(struct mpi_run *m, int from, int tag, void **buf, size_t *len,
	     double timeout, bool stoppable)
{
	double start = mpi_now();
	unsigned int naps = 0;
	MPI_Status st;
	int found = 0, count;

	*buf = NULL;
	*len = 0;
	for (;;) {
		mpi_lock(m);
		MPI_Iprobe(from, tag, MPI_COMM_WORLD, &found, &st);
		mpi_unlock(m);
		if (found)
			break;
		if (expired(m, start, timeout))
			return -1;
		if (stoppable && mpi_stop_test(m))
			return -1;
		nap(&naps);
	}
	MPI_Get_count(&st, MPI_BYTE, &count);
	*buf = xmalloc(count ? (size_t)count : 1);
	*len = (size_t)count;
	mpi_lock(m);
	MPI_Recv(*buf, count, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	mpi_unlock(m);
	return 0;
}

/* Every rank listens for one stop message from any other, all run long. */
void mpi_post_stop(struct mpi_run *m)
{
	MPI_Request *req = xmalloc(sizeof(*req));

	mpi_lock(m);
	MPI_Irecv(&m->stop_buf, 1, MPI_INT32_T, MPI_ANY_SOURCE, TAG_STOP,
		  MPI_COMM_WORLD, req);
	mpi_unlock(m);
	m->stop_req = req;
}

bool mpi_stop_test(struct mpi_run *m)
{
	MPI_Status st;
	int flag = 0;

	bool seen;

	mpi_lock(m);
	if (!m->stop_seen && m->stop_req) {
		MPI_Test(m->stop_req, &flag, &st);
		if (flag) {
			m->stop_seen = true;
			m->stop_from = st.MPI_SOURCE;
		}
	}
	seen = m->stop_seen;
	mpi_unlock(m);
	return seen;
}

/*
 * Asks every other rank to stop (once): a message each, small enough to
 * go eagerly, so the sends complete without the others' help.
 */
void mpi_send_stop(struct mpi_run *m)
{
	int32_t me = m->rank;
	int r;

	mpi_lock(m);
	if (m->stop_sent || m->stop_seen) {
		mpi_unlock(m);
		return;
	}
	m->stop_sent = true;
	for (r = 0; r < m->nranks; r++) {
		MPI_Request req;

		if (r == m->rank)
			continue;
		MPI_Isend(&me, 1, MPI_INT32_T, r, TAG_STOP, MPI_COMM_WORLD,
			  &req);
		MPI_Request_free(&req);
	}
	mpi_unlock(m);
}

int mpi_allreduce(struct mpi_run *m, int tag_up, void *buf, size_t len,
		  void (*fn)(void *acc, const void *in),
		  void (*root)(struct mpi_run *m, void *buf), double timeout,
		  bool stoppable)
{
	int kids[64];
	unsigned int n = mpi_children(m, kids, 64), i;
	int parent = mpi_parent(m);
	void *in;
	size_t got;

	for (i = 0; i < n; i++) {
		m->waiting_on = kids[i];
		if (mpi_recv(m, kids[i], tag_up, &in, &got, timeout, stoppable))
			return -1;
		if (got == len)
			fn(buf, in);
		free(in);
	}
	if (parent < 0 && root)
		root(m, buf);
	if (parent >= 0) {
		m->waiting_on = parent;
		if (mpi_send(m, parent, tag_up, buf, len, timeout))
			return -1;
		if (mpi_recv(m, parent, tag_up + 1, &in, &got, timeout,
			     stoppable))
			return -1;
		if (got == len)
			memcpy(buf, in, len);
		free(in);
	}
	for (i = 0; i < n; i++)
		if (mpi_send(m, kids[i], tag_up + 1, buf, len, timeout))
			return -1;
	return 0;
}

void mpi_fault_merge(void *acc, const void *in)
{
	struct mpi_fault *a = acc;
	const struct mpi_fault *b = in;

	if (b->nr && (!a->nr || b->rank < a->rank)) {
		int32_t nr = a->nr;

		*a = *b;
		a->nr = nr;
	}
	a->nr += b->nr;
}

/*
 * Cristian's method, once per rank at start: rank 0 sends its time,
 * the rank answers with its own, rank 0 takes the round trip with the
 * least delay of a few and tells the rank its offset (its clock minus
 * rank 0's, at the middle of the round trip; the error is at most half
 * the round trip). Rank 0 talks to one rank at a time: a few hundred
 * microseconds per rank on a cluster network, once.
 */
#define CLOCK_ROUNDS 8

struct clock_msg {
	int64_t t;
	int64_t rtt;
	char host[64];
};

static int clock_rank0(struct mpi_run *m, struct strbuf *err)
{
	char (*hosts)[64] = xcalloc((size_t)m->nranks, 64);
	struct clock_msg msg;
	int r, k;

	m->off_min_ns = m->off_max_ns = 0;
	m->rtt_max_ns = 0;
	snprintf(hosts[0], 64, "%s", m->host);
	m->nr_hosts = 1;
	free(m->clocks);
	m->clocks = xcalloc((size_t)m->nranks, sizeof(*m->clocks));
	snprintf(m->clocks[0].host, sizeof(m->clocks[0].host), "%s", m->host);
	for (r = 1; r < m->nranks; r++) {
		int64_t best_rtt = INT64_MAX, best_off = 0;

		for (k = 0; k < CLOCK_ROUNDS; k++) {
			int64_t t0 = mpi_realtime_ns(), t1;
			void *in;
			size_t len;

			msg.t = t0;
			if (mpi_send(m, r, TAG_CLOCK, &msg, sizeof(msg),
				     m->timeout_s) ||
			    mpi_recv(m, r, TAG_CLOCK, &in, &len, m->timeout_s,
				     false))
				goto timeout;
			t1 = mpi_realtime_ns();
			if (len == sizeof(msg)) {
				memcpy(&msg, in, sizeof(msg));
				if (t1 - t0 < best_rtt) {
					best_rtt = t1 - t0;
					best_off = msg.t - (t0 + t1) / 2;
				}
			}
			free(in);
		}
		msg.t = best_off;
		msg.rtt = best_rtt;
		if (mpi_send(m, r, TAG_CLOCK, &msg, sizeof(msg), m->timeout_s))
			goto timeout;
		if (best_off < m->off_min_ns)
			m->off_min_ns = best_off;
		if (best_off > m->off_max_ns)
			m->off_max_ns = best_off;
		if ((uint64_t)best_rtt > m->rtt_max_ns)
			m->rtt_max_ns = (uint64_t)best_rtt;
		msg.host[sizeof(msg.host) - 1] = '\0';
		m->clocks[r].offset_ns = best_off;
		m->clocks[r].rtt_ns = (uint64_t)best_rtt;
		snprintf(m->clocks[r].host, sizeof(m->clocks[r].host), "%s",
			 msg.host);
		for (k = 0; k < (int)m->nr_hosts; k++)
			if (!strcmp(hosts[k], msg.host))
				break;
		if (k == (int)m->nr_hosts)
			snprintf(hosts[m->nr_hosts++], 64, "%s", msg.host);
	}
	free(hosts);
	return 0;
timeout:
	free(hosts);
	strbuf_addf(err, "rank %d did not answer the clock exchange within %g s",
		    r, m->timeout_s);
	return -1;
}

static int clock_other(struct mpi_run *m, struct strbuf *err)
{
	struct clock_msg msg;
	void *in;
	size_t len;
	int k;

	for (k = 0; k <= CLOCK_ROUNDS; k++) {
		if (mpi_recv(m, 0, TAG_CLOCK, &in, &len, m->timeout_s, false)) {
			strbuf_addf(err, "rank 0 did not start the clock exchange within %g s",
				    m->timeout_s);
			return -1;
		}
		if (len == sizeof(msg))
			memcpy(&msg, in, sizeof(msg));
		free(in);
		if (k == CLOCK_ROUNDS)
			break;
		msg.t = mpi_realtime_ns();
		snprintf(msg.host, sizeof(msg.host), "%s", m->host);
		if (mpi_send(m, 0, TAG_CLOCK, &msg, sizeof(msg), m->timeout_s))
			return -1;
	}
	m->offset_ns = msg.t;
	m->rtt_ns = (uint64_t)msg.rtt;
	return 0;
}

int mpi_clock_sync(struct mpi_run *m, struct strbuf *err)
{
	return m->rank ? clock_other(m, err) : clock_rank0(m, err);
}

void mpi_sleep_until(struct mpi_run *m, int64_t t_ns)
{
	int64_t local = t_ns + m->offset_ns, now;

	while ((now = mpi_realtime_ns()) < local) {
		int64_t left = local - now;
		struct timespec ts = { left / 1000000000, left % 1000000000 };

		nanosleep(&ts, NULL);
	}
	now -= local;
	if ((uint64_t)now > m->late_ns)
		m->late_ns = (uint64_t)now;
}

double mpi_wait_s(struct mpi_run *m, double dflt, double at)
{
	double left;

	if (m->hurry_start <= 0)
		return dflt;
	left = m->hurry_start + at - mpi_now();
	return left > 0.001 ? left : 0.001;	/* 0 would be no time-out */
}

void mpi_lost(struct mpi_run *m, const char *fmt, ...)
{
	size_t n = strlen(m->lost);
	va_list ap;

	if (n + 3 >= sizeof(m->lost))
		return;
	if (n) {
		strcpy(m->lost + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(m->lost + n, sizeof(m->lost) - n, fmt, ap);
	va_end(ap);
}

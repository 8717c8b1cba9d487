/* SPDX-License-Identifier: MIT */
/*
 * The metrics endpoint and the push. The endpoint is a thread with
 * non-blocking sockets and one poll(): GET (or HEAD) /metrics gets the
 * text the reporter last set (OpenMetrics when the Accept header asks
 * for it, else Prometheus text 0.0.4), anything else a 404 (a method other than
 * GET or HEAD a 405); every connection closes after its answer, and one
 * that has not sent its request and read the answer within CONN_NS is
 * cut, so a client that connects and never reads holds one of MAX_CONN
 * slots for that long and nothing else. No other HTTP surface: no
 * keep-alive, no other path, no body read.
 *
 * The push is one HTTP/1.1 PUT to a Pushgateway (http:// only), with a
 * deadline on the connect and on the answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "live/live_int.h"
#include "machine/clock.h"
#include "util/log.h"

#define MAX_CONN 16
#define CONN_NS 2000000000ull		/* a connection's whole life */
#define REQ_MAX 4096			/* the request head we read */
#define PUSH_MS 3000			/* the push's connect and answer */

struct conn {
	int fd;				/* -1: free */
	uint64_t deadline;
	char req[REQ_MAX];
	size_t rlen;
	char *out;			/* the answer, once the request is in */
	size_t olen, off;
};

struct live_srv {
	int lfd;
	unsigned int port;
	int wake[2];			/* a byte ends the thread */
	pthread_t thread;
	pthread_mutex_t lock;
	char *text[2];			/* the metrics, owned: Prometheus
					 * text, OpenMetrics */
	size_t len[2];
	struct conn c[MAX_CONN];
	uint64_t scrapes, dropped;
};

/* --- addresses ------------------------------------------------------- */

/*
 * ADDR:PORT, [V6]:PORT or :PORT (the loopback). The address must be
 * numeric or a name the resolver knows; the port 0 to 65535 (0: any).
 */
int live_addr_parse(const char *spec, struct sockaddr_storage *ss,
		    unsigned int *len, struct strbuf *err)
{
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints, *res = NULL;
	char host[256], *end;
	unsigned long port;
	size_t hl;
	int e;

	if (!colon)
		goto bad;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || port > 65535)
		goto bad;
	hl = (size_t)(colon - spec);
	if (hl && spec[0] == '[' && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, spec, hl);
	host[hl] = '\0';
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	e = getaddrinfo(hl ? host : "127.0.0.1", colon + 1, &hints, &res);
	if (e || !res) {
		strbuf_addf(err, "option '--metrics-listen': cannot resolve '%s': %s",
			    host, gai_strerror(e));
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = (unsigned int)res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
bad:
	strbuf_addf(err, "option '--metrics-listen': invalid address '%s' (ADDR:PORT, [ADDR]:PORT or :PORT)",
		    spec);
	return -1;
}

/* --- the server ------------------------------------------------------ */

static void conn_close(struct live_srv *s, struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	free(c->out);
	c->out = NULL;
}

/*
 * Whether the request's Accept header asks for OpenMetrics text (any
 * version, a weight above 0): Prometheus from 2.5 on lists it first.
 */
static bool wants_om(const char *req)
{
	const char *h = req, *v, *eol, *om;

	while ((h = strchr(h, '\n'))) {
		h++;
		if (strncasecmp(h, "accept:", 7))
			continue;
		v = h + 7;
		eol = strchr(v, '\n');
		if (!eol)
			eol = v + strlen(v);
		for (om = v; (om = strcasestr(om, "application/openmetrics-text")) &&
			     om < eol; om++) {
			const char *end = memchr(om, ',', (size_t)(eol - om));
			const char *q = strstr(om, "q=");

			if (!end)
				end = eol;
			/* q=0, q=0.0, ...: not acceptable */
			if (q && q < end && strtod(q + 2, NULL) <= 0.0)
				continue;
			return true;
		}
	}
	return false;
}

static void answer(struct live_srv *s, struct conn *c)
{
	struct strbuf sb = STRBUF_INIT;
	bool get = !strncmp(c->req, "GET ", 4), head = !strncmp(c->req, "HEAD ", 5);
	const char *path = c->req + (get ? 4 : 5);
	bool metrics = (get || head) && !strncmp(path, "/metrics", 8) &&
		       (path[8] == ' ' || path[8] == '?');

	if (metrics) {
		unsigned int f = wants_om(c->req) ? 1 : 0;

		pthread_mutex_lock(&s->lock);
		strbuf_addf(&sb, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
			    f ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
			    "text/plain; version=0.0.4; charset=utf-8",
			    s->len[f]);
		if (get)
			strbuf_add(&sb, s->text[f] ? s->text[f] : "",
				   s->len[f]);
		pthread_mutex_unlock(&s->lock);
		s->scrapes++;
	} else if (get || head) {
		strbuf_addstr(&sb, "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: close\r\n\r\nnot found\n");
	} else {
		strbuf_addstr(&sb, "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	}
	c->olen = sb.len;
	c->off = 0;
	c->out = strbuf_detach(&sb);
}

static void conn_read(struct live_srv *s, struct conn *c)
{
	ssize_t n = recv(c->fd, c->req + c->rlen, REQ_MAX - 1 - c->rlen, 0);

	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		conn_close(s, c);
		return;
	}
	c->rlen += (size_t)n;
	c->req[c->rlen] = '\0';
	if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n") ||
	    c->rlen == REQ_MAX - 1)
		answer(s, c);
}

static void conn_write(struct live_srv *s, struct conn *c)
{
	ssize_t n = send(c->fd, c->out + c->off, c->olen - c->off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			conn_close(s, c);
		return;
	}
	c->off += (size_t)n;
	if (c->off == c->olen) {
		shutdown(c->fd, SHUT_WR);
		conn_close(s, c);
	}
}

static void srv_accept(struct live_srv *s)
{
	unsigned int i;
	int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (i = 0; i < MAX_CONN && s->c[i].fd >= 0; i++)
		;
	if (i == MAX_CONN) {
		close(fd);
		s->dropped++;
		return;
	}
	s->c[i].fd = fd;
	s->c[i].rlen = 0;
	s->c[i].deadline = clock_now_ns() + CONN_NS;
}

/* One poll round: the listening socket, the wake pipe, the connections. */
static bool srv_round(struct live_srv *s)
{
	struct pollfd pf[MAX_CONN + 2];
	unsigned int map[MAX_CONN], n = 2, i;
	uint64_t now;

	pf[0] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
	for (i = 0; i < MAX_CONN; i++) {
		if (s->c[i].fd < 0)
			continue;
		map[n - 2] = i;
		pf[n++] = (struct pollfd){ .fd = s->c[i].fd,
			.events = s->c[i].out ? POLLOUT : POLLIN };
	}
	if (poll(pf, n, 100) < 0 && errno != EINTR)
		return false;
	if (pf[0].revents)
		return false;
	if (pf[1].revents & POLLIN)
		srv_accept(s);
	for (i = 2; i < n; i++) {
		struct conn *c = &s->c[map[i - 2]];

		if (c->fd < 0 || !pf[i].revents)
			continue;
		if (c->out)
			conn_write(s, c);
		else
			conn_read(s, c);
	}
	now = clock_now_ns();
	for (i = 0; i < MAX_CONN; i++) {
		if (s->c[i].fd >= 0 && now >= s->c[i].deadline) {
			conn_close(s, &s->c[i]);
			s->dropped++;
		}
	}
	return true;
}

static void *srv_main(void *arg)
{
	struct live_srv *s = arg;

	while (srv_round(s))
		;
	return NULL;
}

static int srv_bind(struct live_srv *s, const char *spec, struct strbuf *err)
{
	struct sockaddr_storage ss;
	unsigned int len;
	int one = 1;

	if (live_addr_parse(spec, &ss, &len, err))
		return -1;
	s->lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	if (s->lfd < 0)
		goto fail;
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s->lfd, (struct sockaddr *)&ss, len) ||
	    listen(s->lfd, MAX_CONN))
		goto fail;
	len = sizeof(ss);
	getsockname(s->lfd, (struct sockaddr *)&ss, (socklen_t *)&len);
	s->port = ntohs(ss.ss_family == AF_INET6 ?
			((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	return 0;
fail:
	strbuf_addf(err, "option '--metrics-listen': cannot listen on '%s': %s",
		    spec, strerror(errno));
	if (s->lfd >= 0)
		close(s->lfd);
	return -1;
}

struct live_srv *live_srv_start(const char *spec, struct strbuf *err)
{
	struct live_srv *s = xcalloc(1, sizeof(*s));
	unsigned int i;

	s->lfd = -1;
	for (i = 0; i < MAX_CONN; i++)
		s->c[i].fd = -1;
	if (srv_bind(s, spec, err))
		goto fail;
	if (pipe2(s->wake, O_CLOEXEC)) {
		strbuf_addf(err, "option '--metrics-listen': %s", strerror(errno));
		close(s->lfd);
		goto fail;
	}
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, srv_main, s))
		die("cannot start the metrics endpoint's thread");
	return s;
fail:
	free(s);
	return NULL;
}

unsigned int live_srv_port(const struct live_srv *s)
{
	return s->port;
}

void live_srv_set(struct live_srv *s, char *text, size_t len, char *om,
		  size_t om_len)
{
	char *old[2];

	pthread_mutex_lock(&s->lock);
	old[0] = s->text[0];
	old[1] = s->text[1];
	s->text[0] = text;
	s->len[0] = len;
	s->text[1] = om;
	s->len[1] = om_len;
	pthread_mutex_unlock(&s->lock);
	free(old[0]);
	free(old[1]);
}

void live_srv_stop(struct live_srv *s, uint64_t linger_ms, uint64_t *scrapes,
		   uint64_t *dropped)
{
	unsigned int i;

	if (linger_ms)
		clock_sleep_us(linger_ms * 1000, NULL);
	if (write(s->wake[1], "x", 1) < 0)
		BUG("the metrics endpoint's wake pipe");
	pthread_join(s->thread, NULL);
	for (i = 0; i < MAX_CONN; i++)
		if (s->c[i].fd >= 0)
			conn_close(s, &s->c[i]);
	close(s->lfd);
	close(s->wake[0]);
	close(s->wake[1]);
	*scrapes = s->scrapes;
	*dropped = s->dropped;
	pthread_mutex_destroy(&s->lock);
	free(s->text[0]);
	free(s->text[1]);
	free(s);
}

/* --- the push -------------------------------------------------------- */

/* http://HOST[:PORT]/PATH into host, port and path. */
static int url_split(const char *url, char *host, size_t hsz, char *port,
		     const char **path)
{
	const char *h, *slash, *colon;
	size_t hl;

	if (strncmp(url, "http://", 7))
		return -1;
	h = url + 7;
	slash = strchr(h, '/');
	if (!slash || slash == h)
		return -1;
	*path = slash;
	colon = memchr(h, ':', (size_t)(slash - h));
	if (h[0] == '[')
		colon = memchr(h, ']', (size_t)(slash - h)) ?
			memchr(memchr(h, ']', (size_t)(slash - h)), ':',
			       (size_t)(slash - h)) : NULL;
	hl = (size_t)((colon ? colon : slash) - h);
	if (!hl || hl >= hsz)
		return -1;
	memcpy(host, h[0] == '[' ? h + 1 : h, h[0] == '[' ? hl - 2 : hl);
	host[h[0] == '[' ? hl - 2 : hl] = '\0';
	if (colon) {
		size_t pl = (size_t)(slash - colon - 1);

		if (!pl || pl > 5 || strspn(colon + 1, "0123456789") < pl)
			return -1;
		memcpy(port, colon + 1, pl);
		port[pl] = '\0';
	} else {
		strcpy(port, "80");
	}
	return 0;
}

int live_push_check(const char *url, struct strbuf *err)
{
	char host[256], port[8];
	const char *path;

	if (url_split(url, host, sizeof(host), port, &path) ||
	    strpbrk(url, " \r\n")) {
		strbuf_addf(err, "option '--metrics-push': invalid URL '%s' (http://HOST:PORT/metrics/job/NAME, a Pushgateway's)",
			    url);
		return -1;
	}
	return 0;
}

/* Waits for fd to be ready for ev; 0, or -1 (errno ETIMEDOUT). */
static int wait_fd(int fd, short ev, uint64_t deadline)
{
	struct pollfd pf = { .fd = fd, .events = ev };
	uint64_t now = clock_now_ns();
	int n;

	if (now >= deadline) {
		errno = ETIMEDOUT;
		return -1;
	}
	n = poll(&pf, 1, (int)((deadline - now) / 1000000 + 1));
	if (n <= 0) {
		errno = n ? errno : ETIMEDOUT;
		return -1;
	}
	return 0;
}

static int push_connect(const char *host, const char *port, uint64_t deadline)
{
	struct addrinfo hints, *res = NULL;
	int fd, e = 0;
	socklen_t el = sizeof(e);

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) || !res) {
		errno = EHOSTUNREACH;
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) &&
	    errno != EINPROGRESS) {
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return -1;
	if (wait_fd(fd, POLLOUT, deadline) ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) || e) {
		if (e)
			errno = e;
		close(fd);
		return -1;
	}
	return fd;
}

static int send_all(int fd, const char *p, size_t len, uint64_t deadline)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if ((errno != EAGAIN && errno != EINTR) ||
			    wait_fd(fd, POLLOUT, deadline))
				return -1;
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The answer's status code, or -1. */
static int read_status(int fd, uint64_t deadline)
{
	char buf[256];
	size_t got = 0;
	int code;

	while (got < sizeof(buf) - 1 && !memchr(buf, '\n', got)) {
		ssize_t n;

		if (wait_fd(fd, POLLIN, deadline))
			return -1;
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, MSG_DONTWAIT);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	if (sscanf(buf, "HTTP/%*d.%*d %d", &code) != 1) {
		errno = EPROTO;
		return -1;
	}
	return code;
}

int live_push(const char *url, const char *text, size_t len,
	      struct strbuf *err)
{
	uint64_t deadline = clock_now_ns() + PUSH_MS * 1000000ull;
	struct strbuf req = STRBUF_INIT;
	char host[256], port[8];
	const char *path;
	int fd, code = -1;

	if (url_split(url, host, sizeof(host), port, &path)) {
		strbuf_addf(err, "invalid URL '%s'", url);
		return -1;
	}
	fd = push_connect(host, port, deadline);
	if (fd >= 0) {
		strbuf_addf(&req, "PUT %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
			    path, host, port, len);
		strbuf_add(&req, text, len);
		if (!send_all(fd, req.buf, req.len, deadline))
			code = read_status(fd, deadline);
		close(fd);
	}
	strbuf_release(&req);
	if (code >= 200 && code < 300)
		return 0;
	if (code > 0)
		strbuf_addf(err, "'%s' answered %d", url, code);
	else
		strbuf_addf(err, "cannot push to '%s': %s", url,
			    strerror(errno));
	return -1;
}

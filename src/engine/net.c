/* SPDX-License-Identifier: MIT */
/*
 * net and netsplice: I/O over a socket, fio's network engines. One job
 * writes (sends), another reads (receives), in one run or on two hosts:
 *
 *   tcp, tcpv6   the job with listen accepts one connection on port (every
 *                address), the other connects to hostname:port
 *   udp, udpv6   the reader binds port (hostname: a multicast group to
 *                join), the writer sends datagrams to hostname:port
 *   unix         the reader binds and listens on the socket at filename=,
 *                the writer connects to it
 *
 * numjobs clones use the ports after port (clone N: port + N). Each I/O
 * is one send or receive of the block; a short one is issued again for
 * the rest, as any short transfer. pingpong sends each block back: the
 * writer's latency is a round trip. netsplice sends with vmsplice(2) and
 * splice(2) through a pipe, and receives the same way back, over TCP
 * (udp and unix use plain send and receive, as in fio).
 *
 * fio's wire conventions are kept, so iolite and fio can talk to each
 * other: a UDP writer announces itself with an 8-byte "link open"
 * message, every writer ends with an 8-byte "link close" message (which
 * ends the reader: ENGINE_ERR_END, as does the end of a stream), and a
 * UDP writer stamps each datagram's last 24 bytes with a sequence number
 * (unless verify is on) from which the reader counts the datagrams lost
 * (the job's dropped count).
 *
 * Everything that waits on the peer (accept, connect, receive, send)
 * waits in slices of 100 ms and gives up when the job is stopped; a
 * writer whose listener is not there yet retries for 5 s (jobs of one run
 * start together; fio fails at once). The unix socket is created by the
 * reader (an existing socket there is replaced, anything else refused)
 * and removed at the end.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "engine/engines.h"
#include "opt/engine_opts.h"
#include "util/log.h"

#define SLICE_MS 100
#define CONNECT_RETRY_MS 5000

/* fio's messages (byte order as fio writes them: see the callers) */
#define LINK_MAGIC 0x6c696e6bU	/* "link" */
#define LINK_CLOSE 0x89U
#define LINK_OPEN 0x98U
#define UDP_SEQ_MAGIC 0x657375716e556563ULL

struct udp_seq {		/* the last bytes of a UDP datagram */
	uint64_t magic;
	uint64_t seq;
	uint64_t bs;
};

struct net_engine {
	struct engine e;
	enum net_proto proto;
	bool tcp, udp, v6, unix_sock, splice, listens;
	int listen_fd;
	int pipe[2];		/* netsplice */
	unsigned int pipe_size;
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} addr;			/* the peer (a UDP reader: the last sender) */
	socklen_t addr_len;
	bool bound_unix;	/* the reader made the socket file */
	uint64_t send_seq, recv_seq, dropped;
	bool seq_off;		/* the sender does not stamp: no counting */
	const char *host;	/* hostname=, else filename= (the plan's) */
};

static inline struct net_engine *to_net(struct engine *e)
{
	return (struct net_engine *)e;
}

static const char *proto_name(const struct net_engine *ne)
{
	static const char *const n[] = { "tcp", "tcpv6", "udp", "udpv6",
					 "unix" };

	return n[ne->proto];
}

/* Waits for events on fd: 1 ready, 0 the job is stopping, -errno. */
static int wait_fd(struct net_engine *ne, int fd, short events)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = events };
		int n = poll(&pfd, 1, SLICE_MS);

		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (engine_stopping(&ne->e))
			return 0;
	}
}

static int sockopt(int fd, int level, int name, int val, const char *what,
		   struct strbuf *err)
{
	if (!setsockopt(fd, level, name, &val, sizeof(val)))
		return 0;
	strbuf_addf(err, "cannot set %s: %s", what, strerror(errno));
	return -errno;
}

/* nodelay, window_size, mss: on the socket data goes through */
static int tune(struct net_engine *ne, int fd, struct strbuf *err)
{
	const struct job_options *o = &ne->e.plan->o;
	int ret = 0;

	if (o->nodelay && ne->tcp)
		ret = sockopt(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY",
			      err);
	if (!ret && o->window_size && (ne->listens || o->pingpong))
		ret = sockopt(fd, SOL_SOCKET, SO_RCVBUF, (int)o->window_size,
			      "SO_RCVBUF (window_size)", err);
	if (!ret && o->window_size && (!ne->listens || o->pingpong))
		ret = sockopt(fd, SOL_SOCKET, SO_SNDBUF, (int)o->window_size,
			      "SO_SNDBUF (window_size)", err);
	if (!ret && o->mss && ne->tcp)
		ret = sockopt(fd, IPPROTO_TCP, TCP_MAXSEG, (int)o->mss,
			      "TCP_MAXSEG (mss)", err);
	return ret;
}

static bool is_multicast4(const char *host)
{
	struct in_addr a;

	return host && inet_pton(AF_INET, host, &a) == 1 &&
	       IN_MULTICAST(ntohl(a.s_addr));
}

/* The peer's address: hostname (or filename) and port, or the path. */
static int resolve(struct net_engine *ne, const char *host, unsigned int port,
		   struct strbuf *err)
{
	struct addrinfo hints, *res = NULL;
	int ret;

	memset(&ne->addr, 0, sizeof(ne->addr));
	if (ne->unix_sock) {
		if (strlen(host) >= sizeof(ne->addr.un.sun_path)) {
			strbuf_addf(err, "unix socket path '%s' is too long",
				    host);
			return -ENAMETOOLONG;
		}
		ne->addr.un.sun_family = AF_UNIX;
		strcpy(ne->addr.un.sun_path, host);
		ne->addr_len = sizeof(ne->addr.un);
		return 0;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = ne->v6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = ne->udp ? SOCK_DGRAM : SOCK_STREAM;
	ret = getaddrinfo(host, NULL, &hints, &res);
	if (ret || !res) {
		strbuf_addf(err, "cannot resolve '%s' (%s): %s", host,
			    ne->v6 ? "IPv6" : "IPv4",
			    ret == EAI_SYSTEM ? strerror(errno) :
			    gai_strerror(ret));
		return -EINVAL;
	}
	memcpy(&ne->addr, res->ai_addr, res->ai_addrlen);
	ne->addr_len = res->ai_addrlen;
	freeaddrinfo(res);
	if (ne->v6)
		ne->addr.in6.sin6_port = htons((uint16_t)port);
	else
		ne->addr.in.sin_port = htons((uint16_t)port);
	return 0;
}

/* A unix socket path the reader may take: free, or an old socket. */
static int take_unix_path(const char *path, struct strbuf *err)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (!S_ISSOCK(st.st_mode)) {
		strbuf_addf(err, "'%s' exists and is not a socket: refusing to "
			    "replace it", path);
		return -EEXIST;
	}
	unlink(path);
	return 0;
}

static int bind_listen(struct net_engine *ne, const char *host,
		       unsigned int port, struct strbuf *err)
{
	int fd, ret;

	if (ne->unix_sock) {
		ret = take_unix_path(host, err);
		if (ret || (ret = resolve(ne, host, 0, err)))
			return ret;
	} else {
		memset(&ne->addr, 0, sizeof(ne->addr));
		if (ne->v6) {
			ne->addr.in6.sin6_family = AF_INET6;
			ne->addr.in6.sin6_addr = in6addr_any;
			ne->addr.in6.sin6_port = htons((uint16_t)port);
			ne->addr_len = sizeof(ne->addr.in6);
		} else {
			ne->addr.in.sin_family = AF_INET;
			ne->addr.in.sin_addr.s_addr = htonl(INADDR_ANY);
			ne->addr.in.sin_port = htons((uint16_t)port);
			ne->addr_len = sizeof(ne->addr.in);
		}
	}
	fd = socket(ne->addr.sa.sa_family, (ne->udp ? SOCK_DGRAM :
		    SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		strbuf_addf(err, "cannot make a %s socket: %s",
			    proto_name(ne), strerror(errno));
		return -errno;
	}
	ne->listen_fd = fd;
	if (!ne->unix_sock &&
	    ((ret = sockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR",
			    err)) ||
	     (ret = sockopt(fd, SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT",
			    err))))
		return ret;
	if ((ne->udp && (ret = tune(ne, fd, err))))
		return ret;
	if (ne->udp && is_multicast4(host)) {
		struct ip_mreq mr;
		const char *ifc = ne->e.plan->o.interface;

		inet_pton(AF_INET, host, &mr.imr_multiaddr);
		mr.imr_interface.s_addr = htonl(INADDR_ANY);
		if (ifc && inet_pton(AF_INET, ifc, &mr.imr_interface) != 1) {
			strbuf_addf(err, "interface '%s' is not an IPv4 address",
				    ifc);
			return -EINVAL;
		}
		if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
			       sizeof(mr))) {
			strbuf_addf(err, "cannot join multicast group '%s': %s",
				    host, strerror(errno));
			return -errno;
		}
		ne->addr.in.sin_addr = mr.imr_multiaddr;
	}
	if (bind(fd, &ne->addr.sa, ne->addr_len)) {
		ret = -errno;
		if (ne->unix_sock)
			strbuf_addf(err, "cannot bind '%s': %s", host,
				    strerror(-ret));
		else
			strbuf_addf(err, "cannot bind %s port %u: %s",
				    proto_name(ne), port, strerror(-ret));
		return ret;
	}
	ne->bound_unix = ne->unix_sock;
	if (!ne->udp && listen(fd, 10)) {
		strbuf_addf(err, "cannot listen: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int net_init_common(const struct job_plan *plan, bool splice,
			   struct engine **out, struct strbuf *err)
{
	struct net_engine *ne = xcalloc(1, sizeof(*ne));
	const struct job_options *o = &plan->o;
	const char *host = o->hostname ? o->hostname : o->filename;
	unsigned int port = o->port ? o->port + plan->clone : 0;

	ne->e.plan = plan;
	ne->e.depth = 1;
	ne->listen_fd = -1;
	ne->pipe[0] = ne->pipe[1] = -1;
	ne->proto = o->protocol;
	ne->tcp = ne->proto == NET_PROTO_TCP || ne->proto == NET_PROTO_TCPV6;
	ne->udp = ne->proto == NET_PROTO_UDP || ne->proto == NET_PROTO_UDPV6;
	ne->v6 = ne->proto == NET_PROTO_TCPV6 || ne->proto == NET_PROTO_UDPV6;
	ne->unix_sock = ne->proto == NET_PROTO_UNIX;
	ne->splice = splice && ne->tcp;
	ne->listens = ne->tcp ? o->listen : ddir_used(plan, DDIR_READ);
	ne->host = host ? host : "";
	*out = &ne->e;
	if (ne->splice) {
		if (pipe2(ne->pipe, O_CLOEXEC)) {
			strbuf_addf(err, "cannot make a pipe: %s",
				    strerror(errno));
			return -errno;
		}
		ne->pipe_size = (unsigned int)fcntl(ne->pipe[0], F_GETPIPE_SZ);
	}
	if (ne->listens)
		return bind_listen(ne, host, port, err);
	return resolve(ne, host, port, err);
}

static int net_init(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err)
{
	return net_init_common(plan, false, out, err);
}

static int netsplice_init(const struct job_plan *plan, unsigned int depth,
			  struct engine **out, struct strbuf *err)
{
	return net_init_common(plan, true, out, err);
}

static void net_cleanup(struct engine *e)
{
	struct net_engine *ne = to_net(e);

	if (ne->listen_fd >= 0)
		close(ne->listen_fd);
	if (ne->pipe[0] >= 0) {
		close(ne->pipe[0]);
		close(ne->pipe[1]);
	}
	if (ne->bound_unix)
		unlink(ne->addr.un.sun_path);
	free(ne);
}

/* A receive or send that the job's stop can cut short. */
static void slice_timeouts(int fd)
{
	struct timeval tv = { 0, SLICE_MS * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int accept_peer(struct net_engine *ne, struct engine_file *f,
		       struct strbuf *err)
{
	int ret = wait_fd(ne, ne->listen_fd, POLLIN), fd;

	if (ret <= 0) {
		strbuf_addf(err, "%s while waiting for a connection",
			    ret ? strerror(-ret) : "stopped");
		return ret ? ret : -EINTR;
	}
	fd = accept4(ne->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "cannot accept a connection: %s",
			    strerror(errno));
		return -errno;
	}
	f->fd = fd;
	return tune(ne, fd, err);
}

static int connect_peer(struct net_engine *ne, struct engine_file *f,
			struct strbuf *err)
{
	uint64_t give_up = engine_mono_ns() + CONNECT_RETRY_MS * 1000000ULL;
	int fd, ret;

	for (;;) {
		fd = socket(ne->addr.sa.sa_family, SOCK_STREAM | SOCK_CLOEXEC,
			    0);
		if (fd < 0) {
			strbuf_addf(err, "cannot make a %s socket: %s",
				    proto_name(ne), strerror(errno));
			return -errno;
		}
		if ((ret = tune(ne, fd, err))) {
			close(fd);
			return ret;
		}
		if (!connect(fd, &ne->addr.sa, ne->addr_len))
			break;
		ret = -errno;
		close(fd);
		/* the listener of this run may not be there yet */
		if ((ret != -ECONNREFUSED && ret != -ENOENT) ||
		    engine_mono_ns() >= give_up || engine_stopping(&ne->e)) {
			strbuf_addf(err, "cannot connect to %s%s%u: %s",
				    ne->host, ne->unix_sock ? "" : " port ",
				    ne->unix_sock ? 0 : ne->e.plan->o.port +
				    ne->e.plan->clone, strerror(-ret));
			return ret;
		}
		poll(NULL, 0, 20);
	}
	f->fd = fd;
	return 0;
}

/* fio sends "link open" in network byte order, "link close" little-endian */
static int send_link(int fd, struct net_engine *ne, uint32_t cmd)
{
	uint32_t msg[2] = {
		cmd == LINK_OPEN ? htonl(LINK_MAGIC) : htole32(LINK_MAGIC),
		cmd == LINK_OPEN ? htonl(cmd) : htole32(cmd),
	};

	if (ne->udp)
		return sendto(fd, msg, sizeof(msg), MSG_NOSIGNAL, &ne->addr.sa,
			      ne->addr_len) < 0 ? -errno : 0;
	return send(fd, msg, sizeof(msg), MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static bool is_link(const void *buf, long len, uint32_t cmd)
{
	uint32_t msg[2];

	if (len != (long)sizeof(msg))
		return false;
	memcpy(msg, buf, sizeof(msg));
	if (cmd == LINK_OPEN)
		return ntohl(msg[0]) == LINK_MAGIC && ntohl(msg[1]) == cmd;
	return le32toh(msg[0]) == LINK_MAGIC && le32toh(msg[1]) == cmd;
}

/* UDP writer: a socket, multicast settings, and the "link open" message. */
static int udp_sender(struct net_engine *ne, struct engine_file *f,
		      struct strbuf *err)
{
	const struct job_options *o = &ne->e.plan->o;
	int fd = socket(ne->addr.sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int ret;

	if (fd < 0) {
		strbuf_addf(err, "cannot make a %s socket: %s",
			    proto_name(ne), strerror(errno));
		return -errno;
	}
	f->fd = fd;
	if ((ret = tune(ne, fd, err)))
		return ret;
	if (!ne->v6 && IN_MULTICAST(ntohl(ne->addr.in.sin_addr.s_addr))) {
		struct in_addr ifa;

		if (o->interface &&
		    (inet_pton(AF_INET, o->interface, &ifa) != 1 ||
		     setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa,
				sizeof(ifa)))) {
			strbuf_addf(err, "cannot send multicast from "
				    "interface '%s'", o->interface);
			return -EINVAL;
		}
		if ((ret = sockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL,
				   (int)o->ttl, "IP_MULTICAST_TTL", err)))
			return ret;
	}
	ret = send_link(fd, ne, LINK_OPEN);
	if (ret)
		strbuf_addf(err, "cannot send to %s: %s", ne->host,
			    strerror(-ret));
	return ret;
}

/*
 * UDP reader: waits for the writer's first datagram; a "link open" is
 * taken, anything else left for the first read (the writer started
 * first and its open was lost).
 */
static int udp_receiver(struct net_engine *ne, struct engine_file *f,
			struct strbuf *err)
{
	uint32_t msg[2];
	int ret;
	long n;

	f->fd = dup(ne->listen_fd);
	if (f->fd < 0) {
		strbuf_addf(err, "cannot dup a socket: %s", strerror(errno));
		return -errno;
	}
	ret = wait_fd(ne, f->fd, POLLIN);
	if (ret <= 0) {
		strbuf_addf(err, "%s while waiting for the writer",
			    ret ? strerror(-ret) : "stopped");
		return ret ? ret : -EINTR;
	}
	ne->addr_len = sizeof(ne->addr);
	n = recvfrom(f->fd, msg, sizeof(msg), MSG_PEEK, &ne->addr.sa,
		     &ne->addr_len);
	if (is_link(msg, n, LINK_OPEN))
		recv(f->fd, msg, sizeof(msg), 0);
	return 0;
}

static int net_open(struct engine *e, struct engine_file *f,
		    struct strbuf *err)
{
	struct net_engine *ne = to_net(e);
	int ret;

	if (ne->udp)
		ret = ne->listens ? udp_receiver(ne, f, err) :
				    udp_sender(ne, f, err);
	else
		ret = ne->listens ? accept_peer(ne, f, err) :
				    connect_peer(ne, f, err);
	if (!ret && f->fd >= 0)
		slice_timeouts(f->fd);
	if (ret && f->fd >= 0) {
		close(f->fd);
		f->fd = -1;
	}
	return ret;
}

/* Every writer ends with fio's "link close" message. */
static int net_close(struct engine *e, struct engine_file *f)
{
	struct net_engine *ne = to_net(e);

	if (f->fd < 0)
		return 0;
	if (ddir_used(e->plan, DDIR_WRITE))
		send_link(f->fd, ne, LINK_CLOSE);
	return engine_close_fd(e, f);
}

/* UDP writer: the datagram's last 24 bytes carry its sequence number. */
static void stamp(struct net_engine *ne, struct io_u *u)
{
	struct udp_seq s;

	if (u->len < sizeof(s) || ne->e.plan->o.verify != VERIFY_NONE)
		return;
	s.magic = htole64(UDP_SEQ_MAGIC);
	s.seq = htole64(ne->send_seq++);
	s.bs = htole64(u->len);
	memcpy((char *)u->buf + u->len - sizeof(s), &s, sizeof(s));
}

/* UDP reader: a gap in the sequence is datagrams lost on the way. */
static void check_seq(struct net_engine *ne, const void *buf, long len)
{
	struct udp_seq s;
	uint64_t seq;

	if (ne->seq_off || len < (long)sizeof(s) ||
	    ne->e.plan->o.verify != VERIFY_NONE)
		return;
	memcpy(&s, (const char *)buf + len - sizeof(s), sizeof(s));
	if (le64toh(s.magic) != UDP_SEQ_MAGIC)
		return;
	if (le64toh(s.bs) != (uint64_t)len) {
		ne->seq_off = true;
		return;
	}
	seq = le64toh(s.seq);
	if (seq > ne->recv_seq)
		ne->dropped += seq - ne->recv_seq;
	ne->recv_seq = seq + 1;
}

/* netsplice over TCP: the block through the pipe, a pipeful at a time */
static long splice_send(struct net_engine *ne, int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t chunk = len - done < ne->pipe_size ? len - done :
			       ne->pipe_size;
		struct iovec iov = { (char *)buf + done, chunk };
		long in = vmsplice(ne->pipe[1], &iov, 1, 0), out = 0;

		if (in <= 0)
			return done ? (long)done : (in < 0 ? -errno : 0);
		while (out < in) {
			long n = splice(ne->pipe[0], NULL, fd, NULL,
					(size_t)(in - out), SPLICE_F_MOVE);

			if (n <= 0)
				return n < 0 && !done && !out ? -errno :
				       (long)(done + (size_t)out);
			out += n;
		}
		done += (size_t)in;
	}
	return (long)done;
}

static long splice_recv(struct net_engine *ne, int fd, void *buf, size_t len)
{
	size_t chunk = len < ne->pipe_size ? len : ne->pipe_size;
	long in = splice(fd, NULL, ne->pipe[1], NULL, chunk, SPLICE_F_MOVE);
	long out = 0;

	if (in <= 0)
		return in < 0 ? -errno : 0;
	while (out < in) {
		struct iovec iov = { (char *)buf + out, (size_t)(in - out) };
		long n = vmsplice(ne->pipe[0], &iov, 1, 0);

		if (n <= 0)
			return n < 0 ? -errno : out;
		out += n;
	}
	return out;
}

/*
 * One send or receive of at most len bytes: the count moved, -errno, or
 * NET_END at the end of the stream or when the job is stopping.
 */
#define NET_END (-100000L)

static long xfer(struct net_engine *ne, int fd, int dir, void *buf,
		 uint32_t len, bool more)
{
	for (;;) {
		long n;

		if (dir == DDIR_WRITE) {
			if (ne->splice)
				n = splice_send(ne, fd, buf, len);
			else if (ne->udp)
				n = sendto(fd, buf, len, MSG_NOSIGNAL,
					   &ne->addr.sa, ne->addr_len);
			else
				n = send(fd, buf, len, MSG_NOSIGNAL |
					 (more ? MSG_MORE : 0));
		} else if (ne->splice) {
			n = splice_recv(ne, fd, buf, len);
		} else if (ne->udp && ne->listens) {
			/* the reader answers (pingpong) whoever sent */
			ne->addr_len = sizeof(ne->addr);
			n = recvfrom(fd, buf, len, 0, &ne->addr.sa,
				     &ne->addr_len);
		} else if (ne->udp) {
			/*
			 * the writer's pingpong answer: its destination (a
			 * multicast group) stays, whoever answered
			 */
			n = recv(fd, buf, len, 0);
		} else {
			n = recv(fd, buf, len, MSG_WAITALL);
		}
		if (n > 0 || (n == 0 && dir == DDIR_WRITE))
			return n;
		if (n == 0)
			return NET_END;		/* end of the stream */
		if ((errno == EAGAIN || errno == EINTR) &&
		    !engine_stopping(&ne->e))
			continue;		/* a slice passed */
		if (errno == EAGAIN || errno == EINTR)
			return NET_END;
		return -errno;
	}
}

static enum engine_q net_queue(struct engine *e, struct io_u *u)
{
	struct net_engine *ne = to_net(e);
	struct engine_file *f = &e->files[u->file];
	const struct job_options *o = &e->plan->o;
	bool more;
	long n;

	if (u->ddir > DDIR_WRITE) {	/* a sync: nothing to do */
		engine_io_result(u, (long)u->len);
		return ENGINE_Q_DONE;
	}
	if (u->ddir == DDIR_WRITE && ne->udp)
		stamp(ne, u);
	more = !o->pingpong &&
	       u->offset + u->len < f->io_offset + f->io_size;
	n = xfer(ne, f->fd, u->ddir, u->buf, u->len, more);
	if (n > 0 && u->ddir == DDIR_READ) {
		if (is_link(u->buf, n, LINK_CLOSE))
			n = NET_END;
		else if (ne->udp)
			check_seq(ne, u->buf, n);
	}
	/* pingpong: the block goes back (reader) or comes back (writer) */
	if (n == (long)u->len && o->pingpong) {
		long m = xfer(ne, f->fd, u->ddir == DDIR_READ ? DDIR_WRITE :
			      DDIR_READ, u->buf, u->len, false);

		if (m < 0)
			n = m;
	}
	if (n == NET_END) {
		u->error = ENGINE_ERR_END;
		return ENGINE_Q_DONE;
	}
	engine_io_result(u, n);
	return ENGINE_Q_DONE;
}

static uint64_t net_dropped(struct engine *e)
{
	return to_net(e)->dropped;
}

static const char *const net_options[] = {
	"hostname", "port", "protocol", "nodelay", "listen", "pingpong",
	"interface", "ttl", "window_size", "mss", NULL,
};

#define NET_OPS(var, nm, hlp, in, rule)					\
const struct engine_ops var = {						\
	.name = nm,							\
	.help = hlp,							\
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILEIO,			\
	.options = net_options,						\
	.plan_check = rule,						\
	.init = in,							\
	.cleanup = net_cleanup,						\
	.open_file = net_open,						\
	.close_file = net_close,					\
	.queue = net_queue,						\
	.getevents = engine_sync_getevents,				\
	.event = engine_sync_event,					\
	.dropped = net_dropped,						\
}

NET_OPS(engine_net_ops, "net",
	"sends or receives over TCP, UDP or a unix socket", net_init,
	net_plan_check);
NET_OPS(engine_netsplice_ops, "netsplice",
	"net, moving data with splice(2) and vmsplice(2)", netsplice_init,
	netsplice_plan_check);

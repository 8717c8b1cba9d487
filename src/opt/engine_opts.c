/* SPDX-License-Identifier: MIT */
/*
 * The kernel-only engines' options (see engine_opts.h): value lists and
 * the plan rule. fio checks most of this when an engine starts, after
 * other jobs may have run; here it is refused before anything runs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt/engine_opts.h"
#include "opt/internal.h"

const struct opt_enum stat_type_enums[] = {
	{ "stat", STAT_TYPE_STAT, "stat(2): follows a symbolic link" },
	{ "lstat", STAT_TYPE_LSTAT, "lstat(2): the link itself" },
	{ "statx", STAT_TYPE_STATX, "statx(2), every field asked for" },
	{ NULL, 0, NULL },
};

const struct opt_enum cpu_mode_enums[] = {
	{ "noop", CPU_MODE_NOOP, "spin on the clock" },
	{ "qsort", CPU_MODE_QSORT,
	  "sort 1MiB of random numbers over and over (more power)" },
	{ NULL, 0, NULL },
};

const struct opt_enum net_proto_enums[] = {
	{ "tcp", NET_PROTO_TCP, "TCP over IPv4" },
	{ "tcpv6", NET_PROTO_TCPV6, "TCP over IPv6" },
	{ "udp", NET_PROTO_UDP, "UDP over IPv4" },
	{ "udpv6", NET_PROTO_UDPV6, "UDP over IPv6" },
	{ "unix", NET_PROTO_UNIX,
	  "a UNIX domain stream socket; filename= is its path" },
	{ NULL, 0, NULL },
};

/* exec: fio's pause between two looks at the program */
#define EXEC_POLL_US 50000

/* Engines that move no data have nothing for verify= to check. */
static int check_no_verify(struct job_plan *p, struct strbuf *err)
{
	if (p->o.verify == VERIFY_NONE)
		return 0;
	return plan_fail(p, err, "option 'verify': ioengine '%s' moves no "
			 "data, so there is nothing to verify", p->o.ioengine);
}

/* ftruncate and e4defrag act on writes only; fio fails the rest (EINVAL). */
static int check_writes_only(struct job_plan *p, const char *what,
			     struct strbuf *err)
{
	if (p->ddir_mask == 1u << DDIR_WRITE)
		return 0;
	return plan_fail(p, err, "option 'rw': ioengine '%s' only writes "
			 "(%s): use rw=write or rw=randwrite", p->o.ioengine,
			 what);
}

/*
 * A job that does no I/O (cpuio, exec): no file, one block is enough to
 * name the I/Os, and it runs until its runtime (or for ever), whatever
 * size says, as in fio.
 */
static void no_io_job(struct job_plan *p, uint64_t think_us)
{
	struct job_options *o = &p->o;

	p->no_io = true;
	o->time_based = true;
	if (!o->size.bytes && !o->size.pct)
		o->size.bytes = p->min_bs;
	o->nrfiles = 1;
	o->thinktime_us = think_us;
	o->thinktime_spin_us = 0;
	o->thinktime_blocks = 1;
	o->thinktime_blocks_type = THINKTIME_COMPLETE;
}

/*
 * The metadata engines: fio's size each file at one block when nothing
 * says (but filestat's and filedelete's, which work on files laid out
 * for them), and all but filestat change the file system.
 */
static int check_fsmeta(struct job_plan *p, bool sized, bool writes,
			struct strbuf *err)
{
	struct job_options *o = &p->o;

	if (sized && !o->size.bytes && !o->size.pct && !o->filesize.min) {
		o->filesize.min = p->min_bs;
		o->filesize.max = p->min_bs;
	}
	if (writes)
		p->writes = true;	/* creates or deletes */
	return check_no_verify(p, err);
}

int fsmeta_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_fsmeta(p, true, true, err);
}

int filestat_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_fsmeta(p, false, false, err);
}

int filedelete_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_fsmeta(p, false, true, err);
}

int falloc_plan_check(struct job_plan *p, struct strbuf *err)
{
	p->writes = true;	/* every direction changes allocation */
	return check_no_verify(p, err);
}

int ftruncate_plan_check(struct job_plan *p, struct strbuf *err)
{
	p->writes = true;
	return check_writes_only(p, "each write sets the file's size to its "
				 "offset", err) ||
	       check_no_verify(p, err);
}

int cpuio_plan_check(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;
	uint64_t think;

	if (!o->cpuload)
		return plan_fail(p, err, "option 'cpuload': ioengine 'cpuio' "
				 "needs cpuload= (the percentage of a CPU to "
				 "use, 1..100)");
	if (o->cpuload > 100)
		o->cpuload = 100;	/* fio's cap */
	if (!o->cpuchunks_us)
		return plan_fail(p, err, "option 'cpuchunks': 0 is not a "
				 "burn cycle (microseconds, at least 1)");
	/* a cycle burns cpuchunks, then sleeps for the rest of the load */
	think = (uint64_t)o->cpuchunks_us * (100 - o->cpuload) / o->cpuload;
	no_io_job(p, think);
	return check_no_verify(p, err);
}

/* Whether name runs: a path, or found on PATH as execvp(3) looks. */
static bool runnable(const char *name)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	bool ok = false;

	if (strchr(name, '/'))
		return !access(name, X_OK);
	if (!path)
		path = "/bin:/usr/bin";
	while (!ok && *path) {
		const char *end = strchrnul(path, ':');
		struct stat st;

		strbuf_reset(&sb);
		if (end == path)
			strbuf_addstr(&sb, ".");
		else
			strbuf_add(&sb, path, (size_t)(end - path));
		strbuf_addf(&sb, "/%s", name);
		ok = !access(strbuf_str(&sb), X_OK) &&
		     !stat(strbuf_str(&sb), &st) && S_ISREG(st.st_mode);
		path = *end ? end + 1 : end;
	}
	strbuf_release(&sb);
	return ok;
}

int exec_plan_check(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;

	if (!o->program || !*o->program)
		return plan_fail(p, err, "option 'program': ioengine 'exec' "
				 "needs program= (what to run)");
	if (!runnable(o->program))
		return plan_fail(p, err, "option 'program': '%s' %s",
				 o->program, strchr(o->program, '/') ?
				 "is not an executable file" :
				 "is not found on PATH");
	no_io_job(p, EXEC_POLL_US);
	p->runs_opt = "ioengine";
	p->runs = o->program;
	return check_no_verify(p, err);
}

static bool proto_tcp(enum net_proto pr)
{
	return pr == NET_PROTO_TCP || pr == NET_PROTO_TCPV6;
}

static int check_net(struct job_plan *p, bool bits, struct strbuf *err)
{
	struct job_options *o = &p->o;
	bool reads = ddir_used(p, DDIR_READ);
	bool unix_sock = o->protocol == NET_PROTO_UNIX;
	bool listens = proto_tcp(o->protocol) ? o->listen : reads;
	const char *host = o->hostname ? o->hostname : o->filename;

	if (p->random)
		return plan_fail(p, err, "option 'rw': network I/O cannot be "
				 "random");
	if (ddir_used(p, DDIR_TRIM))
		return plan_fail(p, err, "option 'rw': network I/O has no "
				 "trims");
	if (unix_sock && o->port)
		return plan_fail(p, err, "option 'port': not valid with "
				 "protocol=unix (filename= is the socket's path)");
	if (!unix_sock && !o->port)
		return plan_fail(p, err, "option 'port': protocol=%s needs "
				 "port=", opt_enum_name(net_proto_enums,
							(int)o->protocol));
	if (!proto_tcp(o->protocol)) {
		if (o->listen)
			return plan_fail(p, err, "option 'listen': only TCP "
					 "listens (with udp and unix the "
					 "reading job waits for the writer)");
		if (p->mixed)
			return plan_fail(p, err, "option 'rw': a %s job reads "
					 "or writes, not both",
					 unix_sock ? "unix socket" : "UDP");
	}
	if (unix_sock && (!host || !*host))
		return plan_fail(p, err, "option 'filename': protocol=unix "
				 "needs the socket's path in filename=");
	if (!unix_sock && !listens && (!host || !*host))
		return plan_fail(p, err, "option 'hostname': a job that "
				 "connects needs hostname=%s",
				 reads ? " (or listen, to wait for the writer)" :
				 "");
	if (!unix_sock && listens && host && *host &&
	    proto_tcp(o->protocol))
		return plan_fail(p, err, "option 'hostname': a listening job "
				 "takes no hostname (it accepts on every "
				 "address)");
	if (o->window_size > 0x7fffffff)
		return plan_fail(p, err, "option 'window_size': %llu is too "
				 "large for a socket buffer",
				 (unsigned long long)o->window_size);
	if (o->protocol == NET_PROTO_UDP || o->protocol == NET_PROTO_UDPV6) {
		struct in_addr a;

		if (p->max_bs > 65507)
			return plan_fail(p, err, "option 'bs': a UDP datagram "
					 "holds at most 65507 bytes, not %llu",
					 (unsigned long long)p->max_bs);
		if (listens && host && *host &&
		    (o->protocol == NET_PROTO_UDPV6 ||
		     inet_pton(AF_INET, host, &a) != 1 ||
		     !IN_MULTICAST(ntohl(a.s_addr))))
			return plan_fail(p, err, "option 'hostname': a UDP "
					 "reader takes no hostname but an IPv4 "
					 "multicast group to join ('%s' is not "
					 "one)", host);
	}
	if (o->mss && !proto_tcp(o->protocol))
		return plan_fail(p, err, "option 'mss': only TCP has a maximum "
				 "segment size");
	if (o->verify != VERIFY_NONE)
		return plan_fail(p, err, "option 'verify': not with ioengine "
				 "'%s' (a block is checked by the job that "
				 "wrote it, and a network writer never reads "
				 "its data back)", o->ioengine);
	/* fio's net engine counts bandwidth in bits unless told otherwise */
	if (bits && !opt_is_set(o, "unit_base"))
		o->unit_base = 1;
	return 0;
}

int net_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_net(p, true, err);
}

int netsplice_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_net(p, false, err);
}

int e4defrag_plan_check(struct job_plan *p, struct strbuf *err)
{
	p->writes = true;
	if (!p->o.donorname || !*p->o.donorname)
		return plan_fail(p, err, "option 'donorname': ioengine "
				 "'e4defrag' needs donorname= (the file that "
				 "lends its blocks)");
	return check_writes_only(p, "each write moves the block's extents "
				 "to the donor file", err) ||
	       check_no_verify(p, err);
}

/*
 * io_uring_cmd: what NVMe passthrough here does not do (yet) is refused
 * by name, and the write modes that move no data are refused where data
 * is needed. The device's own limits (block size, metadata) are
 * checked when it is opened (engine/uring_cmd.c).
 */
int ucmd_plan_check(struct job_plan *p, struct strbuf *err)
{
	static const char *const unsupported[] = {
		"hipri", "cmdprio_percentage", "cmdprio_class",
		"cmdprio_hint", "cmdprio", "cmdprio_bssplit", "nowait",
		"uncached",
	};
	struct job_options *o = &p->o;

	for (size_t i = 0; i < sizeof(unsupported) / sizeof(*unsupported); i++)
		if (opt_is_set(o, unsupported[i]))
			return plan_fail(p, err, "option '%s': not supported yet with ioengine io_uring_cmd",
					 unsupported[i]);
	if (o->deac && o->write_mode != UCMD_ZEROES)
		return plan_fail(p, err, "option 'deac': only with write_mode=zeroes (it is the Deallocate bit of Write Zeroes)");
	if (o->write_mode != UCMD_WRITE && o->verify != VERIFY_NONE)
		return plan_fail(p, err, "option 'verify': write_mode=%s writes no data of the job's, so there is nothing to verify",
				 o->write_mode == UCMD_UNCOR ? "uncor" :
				 o->write_mode == UCMD_ZEROES ? "zeroes" :
				 "verify");
	return 0;
}

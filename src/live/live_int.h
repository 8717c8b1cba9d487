/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_LIVE_LIVE_INT_H
#define IOLITE_LIVE_LIVE_INT_H

/* The live module's own: what its files share (live.h has the contract). */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "live/live.h"
#include "stats/results.h"


/* stream.c: the JSON line of one interval, appended to sb. */
void live_rec_json(struct strbuf *sb, const struct live_rec *r);

/*
 * A writer thread over an fd: live_out_put() queues text (never
 * blocks), the thread writes it; live_out_close() drains, joins and
 * closes (not fd 1). It returns the write error (-errno) or 0, and the
 * time the queue waited for the reader in *wait_ns.
 */
struct live_out;
struct live_out *live_out_new(int fd);
void live_out_put(struct live_out *o, char *text, size_t len);
int live_out_close(struct live_out *o, uint64_t *wait_ns);

/*
 * metrics.c: the counters of every reported job, added up from the
 * intervals; live_metrics_text() the exposition: Prometheus text 0.0.4,
 * or OpenMetrics 1.0 text when om.
 */
struct live_metrics;
struct live_metrics *live_metrics_new(void);
void live_metrics_add(struct live_metrics *m, const struct live_rec *r);
void live_metrics_text(const struct live_metrics *m, struct strbuf *sb,
		       bool om);
void live_metrics_free(struct live_metrics *m);

/*
 * http.c: the endpoint and the push. The server thread serves the texts
 * last given to live_srv_set() (malloc'd, it takes them: the Prometheus
 * text, and the OpenMetrics one for a scraper whose Accept asks for
 * it); live_srv_stop() ends it (after
 * linger_ms, in which a scrape may come) and counts in *dropped the
 * connections it cut at their deadline.
 */
struct live_srv;
int live_addr_parse(const char *spec, struct sockaddr_storage *ss,
		    unsigned int *len, struct strbuf *err);
struct live_srv *live_srv_start(const char *spec, struct strbuf *err);
unsigned int live_srv_port(const struct live_srv *s);
void live_srv_set(struct live_srv *s, char *text, size_t len, char *om,
		  size_t om_len);
void live_srv_stop(struct live_srv *s, uint64_t linger_ms,
		   uint64_t *scrapes, uint64_t *dropped);
/* The push URL checked: http://HOST:PORT/PATH. 0, or -1 said in err. */
int live_push_check(const char *url, struct strbuf *err);
/* One PUT of text to url (a Pushgateway's group). 0, or -1 said in err. */
int live_push(const char *url, const char *text, size_t len,
	      struct strbuf *err);

#endif

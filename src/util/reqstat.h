/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_REQSTAT_H
#define IOLITE_UTIL_REQSTAT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Requests to a server by kind (the HTTP methods of the http engine):
 * how many, their bytes, their errors, and two latency tables each, the
 * whole request and its time to first byte. Plain data below both sides:
 * the engine that talks to the server fills one per job, the results
 * merge them (a group, numjobs clones) and the reports print them. The
 * tables are log-linear, 32 buckets per power of two (a value is known
 * to within 1/64 of itself), from 1 ns to 2^45 ns (nearly 10 hours;
 * the top bucket takes what is above); min, max and the sum are exact.
 */
enum req_kind { REQ_PUT, REQ_GET, REQ_HEAD, REQ_DELETE, REQ_NR };

#define REQ_LAT_BITS 5
#define REQ_LAT_NR (41u << REQ_LAT_BITS)

struct req_lat {
	uint64_t n, sum, min, max;
	uint64_t bucket[REQ_LAT_NR];	/* the top one takes what is above */
};

struct req_kind_stat {
	uint64_t requests;	/* answered with success */
	uint64_t errors;	/* failed: the transfer or the status */
	uint64_t not_found;	/* 404 taken as success (fio's rule) */
	uint64_t bytes;		/* body bytes sent or received */
	struct req_lat lat;	/* whole request, ns */
	struct req_lat ttfb;	/* to the first byte of the answer, ns */
};

struct reqstats {
	char name[16];		/* the report's heading: "http" */
	struct req_kind_stat k[REQ_NR];
};

/* "PUT", "GET", "HEAD", "DELETE". */
const char *req_kind_name(enum req_kind k);
/* A zeroed table set named name (xmalloc: never NULL). */
struct reqstats *reqstats_new(const char *name);
void req_lat_add(struct req_lat *l, uint64_t ns);
/* dst += src, exactly (counts, extremes, sums, buckets). */
void reqstats_merge(struct reqstats *dst, const struct reqstats *src);
/* A copy (NULL for NULL). */
struct reqstats *reqstats_dup(const struct reqstats *s);
/*
 * The value below which pct percent of l's samples lie: the middle of
 * the bucket of that rank, kept within min and max; 0 without samples.
 */
uint64_t req_lat_pct(const struct req_lat *l, double pct);
/* Whether any kind saw a request (successful or not). */
bool reqstats_any(const struct reqstats *s);

#endif

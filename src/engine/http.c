/* SPDX-License-Identifier: MIT */
/*
 * http: reads and writes objects on a WebDAV server, an S3 or a Swift
 * object store with libcurl, as fio's http engine does. One request per
 * I/O, one at a time (ENGINE_F_SYNC: fio's engine is synchronous; scale
 * with numjobs):
 *   write  PUT of the block, to FILENAME_OFFSET_LENGTH (http_object_mode=
 *          block, the default) or to FILENAME itself (range: the object
 *          becomes the block, as in fio)
 *   read   GET of that object (range: a Range: bytes= GET of FILENAME);
 *          404 reads as zeros and succeeds, fio's rule (counted and
 *          noted); in range mode a job that reads first sends HEAD to
 *          FILENAME and fails when it is missing
 *   trim   DELETE of that object (404 is success)
 *   fsync  nothing: an object store has no cache to flush
 * The URL is http[s]://http_host + the path as given (filename= begins
 * with '/'). S3 requests are signed with AWS signature v4
 * (engine/http_sign.h), Swift ones carry the auth token and the body's
 * MD5. A failed request fails its I/O with an errno for its kind
 * (ECONNREFUSED, EACCES for 401/403, ENOENT, ETIMEDOUT, EIO) and
 * error_detail() gives the method, the URL and the server's status
 * line or curl's message. A request in flight when the job is told to
 * stop, or past the job's startdelay + ramp_time + runtime from its
 * start (a server that stopped answering), is cut short by the progress
 * callback and ends the job (ENGINE_ERR_END: not counted). Each request's latency and time to
 * first byte go to per-method tables (util/reqstat.h) the worker hands
 * to the results (engine_ops.reqstats).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engines.h"
#include "engine/http_sign.h"
#include "opt/http_opts.h"
#include "util/reqstat.h"
#include "util/strbuf.h"

static const char *const http_options[] = {
	"https", "http_host", "http_user", "http_pass", "http_s3_key",
	"http_s3_keyid", "http_s3_security_token", "http_swift_auth_token",
	"http_s3_region", "http_s3_sse_customer_key",
	"http_s3_sse_customer_algorithm", "http_s3_storage_class",
	"http_mode", "http_verbose", "http_object_mode", NULL,
};

#ifdef HAVE_LIBCURL
#include <curl/curl.h>

struct http_engine {
	struct engine e;
	CURL *curl;
	const struct job_options *o;
	struct reqstats *rs;
	struct strbuf url, obj;	/* the request's URL and object path */
	char curl_err[CURL_ERROR_SIZE];
	char status[96];	/* the answer's status line */
	char detail[512];	/* the last failure, for error_detail() */
	/* the transfer: the I/O buffer sent or filled */
	char *buf;
	size_t pos, max;
	bool receiving;		/* a GET: the body goes into buf */
	bool overflow;		/* the body was larger than the buffer */
	/* past it a request is cut short: the job's time is over (0: none) */
	uint64_t deadline_ns;
	uint64_t answered;	/* requests the server answered */
	char cut[320];		/* the request cut short at the deadline */
};

static inline struct http_engine *to_http(struct engine *e)
{
	return (struct http_engine *)e;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_global_rc;

/* curl_global_init is not thread-safe: once, for every job's thread. */
static void curl_global(void)
{
	curl_global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* PUT's body from the buffer. */
static size_t body_out(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct http_engine *he = arg;
	size_t n = size * nmemb;

	if (n > he->max - he->pos)
		n = he->max - he->pos;
	memcpy(ptr, he->buf + he->pos, n);
	he->pos += n;
	return n;
}

/* GET's body into the buffer; any other answer's body is dropped. */
static size_t body_in(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct http_engine *he = arg;
	size_t n = size * nmemb;

	if (!he->receiving)
		return n;
	if (n > he->max - he->pos) {
		he->overflow = true;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	memcpy(he->buf + he->pos, ptr, n);
	he->pos += n;
	return n;
}

/* A PUT sent again (a redirect, an auth round): from the start. */
static int body_seek(void *arg, curl_off_t off, int origin)
{
	struct http_engine *he = arg;

	if (origin != SEEK_SET || off < 0 || (size_t)off > he->max)
		return CURL_SEEKFUNC_FAIL;
	he->pos = (size_t)off;
	return CURL_SEEKFUNC_OK;
}

/* Keeps the last status line ("HTTP/1.1 404 Not Found"), trimmed. */
static size_t header_in(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct http_engine *he = arg;
	size_t n = size * nmemb, l = n;

	if (n > 5 && !memcmp(ptr, "HTTP/", 5)) {
		while (l && (ptr[l - 1] == '\r' || ptr[l - 1] == '\n'))
			l--;
		snprintf(he->status, sizeof(he->status), "%.*s", (int)l, ptr);
	}
	return n;
}

/*
 * Stops a request when the job is to stop (a signal, another job's
 * error) or its time is over (curl calls this at least once a second
 * while it waits for a slow server).
 */
static int progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
		    curl_off_t un)
{
	struct http_engine *he = arg;

	return engine_stopping(&he->e) ||
	       (he->deadline_ns && engine_mono_ns() > he->deadline_ns);
}

/* http_verbose=2: the headers both ways and the data's sizes. */
static int trace(CURL *c, curl_infotype t, char *data, size_t n, void *arg)
{
	static const char *const what[] = {
		[CURLINFO_TEXT] = "*", [CURLINFO_HEADER_IN] = "<",
		[CURLINFO_HEADER_OUT] = ">",
	};

	if (t == CURLINFO_DATA_IN || t == CURLINFO_DATA_OUT)
		fprintf(stderr, "%s %zu bytes of data\n",
			t == CURLINFO_DATA_IN ? "<" : ">", n);
	else if (t <= CURLINFO_HEADER_OUT)
		fprintf(stderr, "%s %.*s%s", what[t], (int)n, data,
			n && data[n - 1] == '\n' ? "" : "\n");
	return 0;
}

static void set_common(struct http_engine *he)
{
	const struct job_options *o = he->o;
	CURL *c = he->curl;

	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, he->curl_err);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_READFUNCTION, body_out);
	curl_easy_setopt(c, CURLOPT_READDATA, he);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, body_in);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, he);
	curl_easy_setopt(c, CURLOPT_SEEKFUNCTION, body_seek);
	curl_easy_setopt(c, CURLOPT_SEEKDATA, he);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, header_in);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, he);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, he);
	if (o->https == HTTP_TLS_INSECURE) {
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (o->http_user && *o->http_user) {
		curl_easy_setopt(c, CURLOPT_USERNAME, o->http_user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, o->http_pass);
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_ANY);
	}
	if (o->http_verbose)
		curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	if (o->http_verbose > 1)
		curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, trace);
}

static int http_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	struct http_engine *he;

	pthread_once(&curl_once, curl_global);
	if (curl_global_rc != CURLE_OK) {
		strbuf_addf(err, "libcurl: %s",
			    curl_easy_strerror(curl_global_rc));
		return -EIO;
	}
	he = xcalloc(1, sizeof(*he));
	he->e.plan = plan;
	he->e.depth = 1;
	he->o = &plan->o;
	he->curl = curl_easy_init();
	if (!he->curl) {
		free(he);
		strbuf_addstr(err, "libcurl: curl_easy_init failed");
		return -ENOMEM;
	}
	he->rs = reqstats_new("http");
	/* runtime= holds with a server that stops answering */
	if (plan->o.runtime_us)
		he->deadline_ns = engine_mono_ns() + 1000 *
			(plan->o.startdelay_us + plan->o.ramp_time_us +
			 plan->o.runtime_us);
	set_common(he);
	*out = &he->e;
	return 0;
}

static void http_cleanup(struct engine *e)
{
	struct http_engine *he = to_http(e);

	curl_easy_cleanup(he->curl);
	strbuf_release(&he->url);
	strbuf_release(&he->obj);
	free(he->rs);
	free(he);
}

/* The object of u (or of the file, u NULL) and its URL. */
static void make_url(struct http_engine *he, const struct engine_file *f,
		     const struct io_u *u)
{
	strbuf_reset(&he->obj);
	strbuf_reset(&he->url);
	strbuf_addstr(&he->obj, f->path);
	if (u && he->o->http_object_mode == HTTP_OBJ_BLOCK)
		strbuf_addf(&he->obj, "_%llu_%u",
			    (unsigned long long)u->offset, u->len);
	strbuf_addf(&he->url, "%s://%s%s",
		    he->o->https == HTTP_TLS_OFF ? "http" : "https",
		    he->o->http_host, strbuf_str(&he->obj));
}

static struct curl_slist *add(struct curl_slist *l, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static struct curl_slist *add(struct curl_slist *l, const char *f, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, f);
	strbuf_vaddf(&sb, f, ap);
	va_end(ap);
	l = curl_slist_append(l, strbuf_str(&sb));
	strbuf_release(&sb);
	return l;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static char *fmt(const char *f, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, f);
	strbuf_vaddf(&sb, f, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

/* "YYYYMMDDTHHMMSSZ" now. */
static void amz_now(char out[17])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

/* The x-amz- headers S3 gets (fio's set), as "name:value" lines. */
static unsigned int s3_headers(const struct job_options *o, const char *host,
			       const char *sha, const char *date, char **lines)
{
	unsigned int n = 0;
	struct strbuf key = STRBUF_INIT, md5 = STRBUF_INIT;

	lines[n++] = fmt("host:%s", host);
	lines[n++] = fmt("x-amz-content-sha256:%s", sha);
	lines[n++] = fmt("x-amz-date:%s", date);
	if (o->http_s3_sse_customer_key && *o->http_s3_sse_customer_key) {
		const char *k = o->http_s3_sse_customer_key;

		http_base64(k, strlen(k), &key);
		http_md5_base64(k, strlen(k), &md5);
		lines[n++] = fmt("x-amz-server-side-encryption-customer-"
				     "algorithm:%s",
				     o->http_s3_sse_customer_algorithm);
		lines[n++] = fmt("x-amz-server-side-encryption-customer-"
				     "key:%s", strbuf_str(&key));
		lines[n++] = fmt("x-amz-server-side-encryption-customer-"
				     "key-md5:%s", strbuf_str(&md5));
	}
	if (o->http_s3_security_token && *o->http_s3_security_token)
		lines[n++] = fmt("x-amz-security-token:%s",
				     o->http_s3_security_token);
	lines[n++] = fmt("x-amz-storage-class:%s",
			     o->http_s3_storage_class);
	lines[n] = NULL;
	strbuf_release(&key);
	strbuf_release(&md5);
	return n;
}

/* S3: the signed headers and the Authorization line. */
static struct curl_slist *s3_sign(struct http_engine *he,
				  struct curl_slist *l, const char *method,
				  const void *body, size_t len)
{
	const struct job_options *o = he->o;
	char sha[65], date[17];
	char *lines[10];
	struct strbuf auth = STRBUF_INIT;
	unsigned int i, n;
	struct sigv4_req r = {
		.method = method, .path = strbuf_str(&he->obj), .query = "",
		.payload_sha256 = sha, .amz_date = date,
		.region = o->http_s3_region, .service = "s3",
		.keyid = o->http_s3_keyid, .secret = o->http_s3_key,
	};

	http_sha256_hex(body, len, sha);
	amz_now(date);
	n = s3_headers(o, o->http_host, sha, date, lines);
	r.headers = (const char *const *)lines;
	sigv4_sign(&r, &auth, NULL, NULL);
	l = curl_slist_append(l, "Accept:");
	for (i = 1; i < n; i++) {	/* curl sends host itself */
		char *c = strchr(lines[i], ':');

		l = add(l, "%.*s: %s", (int)(c - lines[i]), lines[i], c + 1);
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	l = add(l, "Authorization: %s", strbuf_str(&auth));
	strbuf_release(&auth);
	return l;
}

/* Swift: the token and, for a PUT, the body's MD5 as its etag. */
static struct curl_slist *swift_sign(struct http_engine *he,
				     struct curl_slist *l, bool put,
				     const void *body, size_t len)
{
	char md5[33];

	l = curl_slist_append(l, "Accept:");
	if (put && !http_md5_hex(body, len, md5))
		l = add(l, "etag: %s", md5);
	return add(l, "x-auth-token: %s", he->o->http_swift_auth_token);
}

/* The errno of a failed request. */
static int curl_errno(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
		return ECONNREFUSED;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return EHOSTUNREACH;
	case CURLE_OPERATION_TIMEDOUT:
		return ETIMEDOUT;
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
		return ECONNRESET;
	case CURLE_LOGIN_DENIED:
		return EACCES;
	default:
		return EIO;
	}
}

static int status_errno(long st)
{
	if (st == 401 || st == 403)
		return EACCES;
	if (st == 404 || st == 410)
		return ENOENT;
	if (st == 507 || st == 413)
		return ENOSPC;
	return EIO;
}

struct req {
	enum req_kind kind;
	const char *method;
	void *buf;
	size_t len;
	bool range;		/* a ranged GET: 206 is success */
	uint64_t range_lo, range_hi;	/* inclusive */
};

/*
 * A request the progress callback stopped: the job was told to stop, or
 * its time is over with the server silent. That ends the job without an
 * error (the note says so), unless the server never answered at all.
 */
static int cut_short(struct http_engine *he, const struct req *q, uint64_t t)
{
	if (engine_stopping(&he->e))
		return ENGINE_ERR_END;
	snprintf(he->cut, sizeof(he->cut), "%s %.200s: no answer in %.1f s, "
		 "cut at the job's end", q->method, strbuf_str(&he->url),
		 (double)t / 1e9);
	if (he->answered)
		return ENGINE_ERR_END;
	he->rs->k[q->kind].errors++;
	snprintf(he->detail, sizeof(he->detail), "%s", he->cut);
	return ETIMEDOUT;
}

/*
 * Sends one request; returns 0, an errno (the detail in he->detail),
 * or ENGINE_ERR_END when the job is stopping. *status: the answer's.
 */
static int perform(struct http_engine *he, const struct req *q, long *status)
{
	const struct job_options *o = he->o;
	struct curl_slist *l = NULL;
	bool put = q->kind == REQ_PUT;
	uint64_t t0, t;
	curl_off_t ttfb = 0;
	CURLcode rc;
	CURL *c = he->curl;

	he->buf = q->buf;
	he->max = q->len;
	he->pos = 0;
	he->overflow = false;
	he->receiving = q->kind == REQ_GET;
	he->status[0] = he->curl_err[0] = 0;
	*status = 0;

	curl_easy_setopt(c, CURLOPT_URL, strbuf_str(&he->url));
	curl_easy_setopt(c, CURLOPT_UPLOAD, put ? 1L : 0L);
	curl_easy_setopt(c, CURLOPT_NOBODY, q->kind == REQ_HEAD ? 1L : 0L);
	if (!put && q->kind != REQ_HEAD)
		curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST,
			 q->kind == REQ_DELETE ? "DELETE" : NULL);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE,
			 put ? (curl_off_t)q->len : (curl_off_t)-1);
	if (q->range)
		l = add(l, "Range: bytes=%llu-%llu",
			(unsigned long long)q->range_lo,
			(unsigned long long)q->range_hi);
	if (o->http_mode == HTTP_MODE_S3)
		l = s3_sign(he, l, q->method, put ? q->buf : "",
			    put ? q->len : 0);
	else if (o->http_mode == HTTP_MODE_SWIFT)
		l = swift_sign(he, l, put, q->buf, q->len);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, l);

	t0 = engine_mono_ns();
	rc = curl_easy_perform(c);
	t = engine_mono_ns() - t0;
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
	curl_slist_free_all(l);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_getinfo(c, CURLINFO_STARTTRANSFER_TIME_T, &ttfb);
	if (rc == CURLE_ABORTED_BY_CALLBACK)
		return cut_short(he, q, t);
	if (rc != CURLE_OK) {
		he->rs->k[q->kind].errors++;
		snprintf(he->detail, sizeof(he->detail), "%s %.200s: %.250s",
			 q->method, strbuf_str(&he->url), he->overflow ?
			 "the object is larger than the block" :
			 he->curl_err[0] ? he->curl_err :
			 curl_easy_strerror(rc));
		return he->overflow ? EIO : curl_errno(rc);
	}
	he->answered++;
	req_lat_add(&he->rs->k[q->kind].lat, t);
	req_lat_add(&he->rs->k[q->kind].ttfb, (uint64_t)ttfb * 1000);
	return 0;
}

/* Whether status is success for the request; counts it. */
static bool answer_ok(struct http_engine *he, const struct req *q, long st)
{
	struct req_kind_stat *ks = &he->rs->k[q->kind];
	bool ok;

	switch (q->kind) {
	case REQ_PUT:
		ok = st == 100 || (st >= 200 && st <= 204);
		break;
	case REQ_GET:
		ok = st == 200 || (q->range && st == 206) || st == 404;
		break;
	case REQ_DELETE:
		ok = st == 200 || st == 202 || st == 204 || st == 404;
		break;
	default:
		ok = st >= 200 && st < 300;
	}
	if (!ok) {
		ks->errors++;
		snprintf(he->detail, sizeof(he->detail), "%s %.200s: %s",
			 q->method, strbuf_str(&he->url), he->status[0] ? he->status :
			 "no status line");
		return false;
	}
	ks->requests++;
	if (st == 404)
		ks->not_found++;
	ks->bytes += q->kind == REQ_PUT ? q->len : q->kind == REQ_GET &&
		     st != 404 ? he->pos : 0;
	return true;
}

/* Sends q and sets u's result. */
static void do_request(struct http_engine *he, struct io_u *u,
		       const struct req *q)
{
	long st;
	int ret = perform(he, q, &st);

	if (!ret && !answer_ok(he, q, st))
		ret = status_errno(st);
	u->error = ret;
	u->resid = ret ? u->len : 0;
	/* a missing object, or a short one: zeros, as fio reads them */
	if (!ret && q->kind == REQ_GET)
		memset((char *)u->buf + (st == 404 ? 0 : he->pos), 0,
		       st == 404 ? u->len : u->len - he->pos);
}

static enum engine_q http_queue(struct engine *e, struct io_u *u)
{
	struct http_engine *he = to_http(e);
	const struct engine_file *f = &e->files[u->file];
	struct req q = { .buf = u->buf, .len = u->len };

	make_url(he, f, u);
	switch (u->ddir) {
	case DDIR_WRITE:
		q.kind = REQ_PUT;
		q.method = "PUT";
		break;
	case DDIR_READ:
		q.kind = REQ_GET;
		q.method = "GET";
		if (he->o->http_object_mode == HTTP_OBJ_RANGE) {
			q.range = true;
			q.range_lo = u->offset;
			q.range_hi = u->offset + u->len - 1;
		}
		break;
	case DDIR_TRIM:
		q.kind = REQ_DELETE;
		q.method = "DELETE";
		q.len = 0;
		break;
	default:		/* fsync: nothing to flush */
		u->error = 0;
		u->resid = 0;
		return ENGINE_Q_DONE;
	}
	do_request(he, u, &q);
	return ENGINE_Q_DONE;
}

/*
 * One object per file (http_object_mode=range) read by the job: HEAD
 * says that it is there before the first read, not a run of zeros.
 */
static int http_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	struct http_engine *he = to_http(e);
	struct req q = { .kind = REQ_HEAD, .method = "HEAD" };
	long st;
	int ret;

	if (he->o->http_object_mode != HTTP_OBJ_RANGE ||
	    !ddir_used(e->plan, DDIR_READ) || e->plan->writes)
		return 0;
	make_url(he, f, NULL);
	ret = perform(he, &q, &st);
	if (ret == ENGINE_ERR_END)
		return 0;
	if (!ret && !answer_ok(he, &q, st))
		ret = status_errno(st);
	if (ret)
		strbuf_addf(err, "object '%s': %s", f->path, he->detail);
	return ret ? -ret : 0;
}

static int http_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

static const char *http_error_detail(struct engine *e, const struct io_u *u,
				     char *buf, size_t n)
{
	struct http_engine *he = to_http(e);

	if (!he->detail[0])
		return NULL;
	snprintf(buf, n, "%s", he->detail);
	return buf;
}

static void http_describe(struct engine *e, struct strbuf *out)
{
	struct http_engine *he = to_http(e);
	uint64_t nf = he->rs->k[REQ_GET].not_found;

	if (nf)
		strbuf_addf(out, "http: %llu GET%s answered 404 Not Found: "
			    "read as zeros, as fio does",
			    (unsigned long long)nf, nf == 1 ? "" : "s");
	if (he->cut[0] && he->answered)
		strbuf_addf(out, "%shttp: %s", nf ? "; " : "", he->cut);
}

static struct reqstats *http_reqstats(struct engine *e)
{
	return reqstats_dup(to_http(e)->rs);
}
#define HTTP_INIT http_init
#else
#define HTTP_INIT NULL
#define http_cleanup NULL
#define http_open NULL
#define http_close NULL
#define http_queue NULL
#define http_error_detail NULL
#define http_describe NULL
#define http_reqstats NULL
#endif

const struct engine_ops engine_http_ops = {
	.name = "http",
	.help = "PUT, GET and DELETE of objects on a WebDAV, S3 or Swift "
		"server (libcurl)",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILEIO,
	.options = http_options,
	.plan_check = http_plan_check,
	.init = HTTP_INIT,
	.cleanup = http_cleanup,
	.open_file = http_open,
	.close_file = http_close,
	.queue = http_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.error_detail = http_error_detail,
	.describe = http_describe,
	.reqstats = http_reqstats,
};

/* SPDX-License-Identifier: MIT */
/*
 * http: reads and writes objects on a WebDAV server, an S3 or a Swift
 * object store with libcurl, as fio's http engine does. One request per
 * I/O: at iodepth=1 (fio's only depth: its engine is synchronous) each
 * is sent and answered in queue(); deeper, up to iodepth requests are in
 * flight at once, each on an easy handle of its own, driven by one multi
 * handle (commit() sends, getevents() waits on curl_multi_poll in 100 ms
 * slices and hands back what has finished):
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
 * (engine/http_sign.h), with SSE-C's headers when a key is given; Swift
 * ones carry the auth token and the body's MD5. A failed request fails
 * its I/O with an errno for its kind (ECONNREFUSED, EACCES for 401/403,
 * ENOENT, ECONNRESET, ETIMEDOUT, EIO) and error_detail() gives the
 * method, the URL and the server's status line with the reason in the
 * answer's body (server_reason()), or curl's message. A request in
 * flight when the job is told to stop, or past the job's startdelay +
 * ramp_time + runtime from its start (a server that stopped answering),
 * is cut short (the progress callback, or getevents' slices) and ends
 * the job (ENGINE_ERR_END: not counted), or fails it with ETIMEDOUT
 * when the server answered none.
 * Each request's latency and time to first byte go to per-method tables
 * (util/reqstat.h) the worker hands to the results
 * (engine_ops.reqstats).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/dl/curl.h"
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

struct req {
	enum req_kind kind;
	const char *method;
	void *buf;
	size_t len;
	bool range;		/* a ranged GET: 206 is success */
	uint64_t range_lo, range_hi;	/* inclusive */
};

struct http_engine;

/* One request and its easy handle: what its callbacks fill. */
struct xfer {
	struct http_engine *he;
	CURL *curl;
	struct io_u *u;		/* NULL: open_file's HEAD */
	struct req q;
	struct curl_slist *hdrs;
	struct strbuf url, obj;	/* the request's URL and object path */
	char curl_err[CURL_ERROR_SIZE];
	char status[96];	/* the answer's status line */
	long code;		/* its status code */
	char errbody[384];	/* the start of an error answer's body */
	size_t errlen;
	char detail[512];	/* its failure, for error_detail() */
	char *buf;		/* the I/O buffer sent or filled */
	size_t pos, max;
	bool overflow;		/* the body was larger than the buffer */
	uint64_t t0;		/* when it was sent */
};

struct http_engine {
	struct engine e;
	const struct job_options *o;
	struct reqstats *rs;
	/*
	 * depth + 1 transfers: at depth 1 the first does every I/O with
	 * curl_easy_perform(); deeper, up to depth go through the multi
	 * handle at once. The last is open_file's HEAD.
	 */
	struct xfer *x;
	unsigned int nx;
	CURLM *multi;		/* depth > 1 */
	unsigned int *idle;	/* free transfers (depth > 1) */
	unsigned int nr_idle;
	struct io_u **done;	/* completed, for event() */
	unsigned int nr_done;
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
	struct xfer *x = arg;
	size_t n = size * nmemb;

	if (n > x->max - x->pos)
		n = x->max - x->pos;
	memcpy(ptr, x->buf + x->pos, n);
	x->pos += n;
	return n;
}

/*
 * GET's body into the buffer; an error answer's first bytes kept for
 * its reason; any other body dropped.
 */
static size_t body_in(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	size_t n = size * nmemb;

	if (x->code >= 300) {
		size_t k = sizeof(x->errbody) - 1 - x->errlen;

		memcpy(x->errbody + x->errlen, ptr, n < k ? n : k);
		x->errlen += n < k ? n : k;
		x->errbody[x->errlen] = 0;
		return n;
	}
	if (x->q.kind != REQ_GET)
		return n;
	if (n > x->max - x->pos) {
		x->overflow = true;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	memcpy(x->buf + x->pos, ptr, n);
	x->pos += n;
	return n;
}

/* A PUT sent again (a redirect, an auth round): from the start. */
static int body_seek(void *arg, curl_off_t off, int origin)
{
	struct xfer *x = arg;

	if (origin != SEEK_SET || off < 0 || (size_t)off > x->max)
		return CURL_SEEKFUNC_FAIL;
	x->pos = (size_t)off;
	return CURL_SEEKFUNC_OK;
}

/*
 * Keeps the last status line ("HTTP/1.1 404 Not Found"), trimmed, and
 * its code; the body that follows is this answer's.
 */
static size_t header_in(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	size_t n = size * nmemb, l = n;
	const char *sp;

	if (n > 5 && !memcmp(ptr, "HTTP/", 5)) {
		while (l && (ptr[l - 1] == '\r' || ptr[l - 1] == '\n'))
			l--;
		snprintf(x->status, sizeof(x->status), "%.*s", (int)l, ptr);
		sp = strchr(x->status, ' ');
		x->code = sp ? strtol(sp + 1, NULL, 10) : 0;
		x->errlen = 0;
		x->errbody[0] = 0;
	}
	return n;
}

/* The job is to stop, or its time is over. */
static bool time_up(const struct http_engine *he)
{
	return engine_stopping(&he->e) ||
	       (he->deadline_ns && engine_mono_ns() > he->deadline_ns);
}

/*
 * Stops a request when the job is to stop (a signal, another job's
 * error) or its time is over (curl calls this at least once a second
 * while it waits for a slow server).
 */
static int progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
		    curl_off_t un)
{
	return time_up(((struct xfer *)arg)->he);
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

/* One easy handle's settings, its callbacks writing into x. */
static int xfer_init(struct http_engine *he, struct xfer *x)
{
	const struct job_options *o = he->o;
	CURL *c = curl_easy_init();

	if (!c)
		return -1;
	x->he = he;
	x->curl = c;
	curl_easy_setopt(c, CURLOPT_PRIVATE, x);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->curl_err);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_READFUNCTION, body_out);
	curl_easy_setopt(c, CURLOPT_READDATA, x);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, body_in);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(c, CURLOPT_SEEKFUNCTION, body_seek);
	curl_easy_setopt(c, CURLOPT_SEEKDATA, x);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, header_in);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, x);
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
	return 0;
}

static void http_cleanup(struct engine *e)
{
	struct http_engine *he = to_http(e);
	unsigned int i;

	for (i = 0; i < he->nx; i++) {
		struct xfer *x = &he->x[i];

		if (he->multi && x->curl)
			curl_multi_remove_handle(he->multi, x->curl);
		if (x->curl)
			curl_easy_cleanup(x->curl);
		curl_slist_free_all(x->hdrs);
		strbuf_release(&x->url);
		strbuf_release(&x->obj);
	}
	if (he->multi)
		curl_multi_cleanup(he->multi);
	free(he->x);
	free(he->idle);
	free(he->done);
	free(he->rs);
	free(he);
}

static int http_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	struct http_engine *he;
	unsigned int i;

	pthread_once(&curl_once, curl_global);
	if (curl_global_rc != CURLE_OK) {
		strbuf_addf(err, "libcurl: %s",
			    curl_easy_strerror(curl_global_rc));
		return -EIO;
	}
	he = xcalloc(1, sizeof(*he));
	he->e.plan = plan;
	he->e.depth = depth ? depth : 1;
	he->o = &plan->o;
	he->rs = reqstats_new("http");
	he->nx = he->e.depth + 1;
	he->x = xcalloc(he->nx, sizeof(*he->x));
	he->done = xcalloc(he->nx, sizeof(*he->done));
	he->idle = xcalloc(he->nx, sizeof(*he->idle));
	for (i = 0; i < he->nx; i++) {
		if (xfer_init(he, &he->x[i])) {
			http_cleanup(&he->e);
			strbuf_addstr(err, "libcurl: curl_easy_init failed");
			return -ENOMEM;
		}
		if (i < he->e.depth)
			he->idle[he->nr_idle++] = i;
	}
	if (he->e.depth > 1 && !(he->multi = curl_multi_init())) {
		http_cleanup(&he->e);
		strbuf_addstr(err, "libcurl: curl_multi_init failed");
		return -ENOMEM;
	}
	/* runtime= holds with a server that stops answering */
	if (plan->o.runtime_us)
		he->deadline_ns = engine_mono_ns() + 1000 *
			(plan->o.startdelay_us + plan->o.ramp_time_us +
			 plan->o.runtime_us);
	*out = &he->e;
	return 0;
}

/* The object of u (or of the file, u NULL) and its URL. */
static void make_url(struct xfer *x, const struct engine_file *f,
		     const struct io_u *u)
{
	const struct job_options *o = x->he->o;

	strbuf_reset(&x->obj);
	strbuf_reset(&x->url);
	strbuf_addstr(&x->obj, f->path);
	if (u && o->http_object_mode == HTTP_OBJ_BLOCK)
		strbuf_addf(&x->obj, "_%llu_%u",
			    (unsigned long long)u->offset, u->len);
	strbuf_addf(&x->url, "%s://%s%s",
		    o->https == HTTP_TLS_OFF ? "http" : "https",
		    o->http_host, strbuf_str(&x->obj));
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
		/* fio's key: the option's first 32 bytes, zeros after it */
		char k[32] = { 0 };

		memcpy(k, o->http_s3_sse_customer_key,
		       strnlen(o->http_s3_sse_customer_key, sizeof(k)));
		http_base64(k, sizeof(k), &key);
		http_md5_base64(k, sizeof(k), &md5);
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
static struct curl_slist *s3_sign(const struct xfer *x, struct curl_slist *l,
				  const void *body, size_t len)
{
	const struct job_options *o = x->he->o;
	char sha[65], date[17];
	char *lines[10];
	struct strbuf auth = STRBUF_INIT;
	unsigned int i, n;
	struct sigv4_req r = {
		.method = x->q.method, .path = strbuf_str(&x->obj),
		.query = "", .payload_sha256 = sha, .amz_date = date,
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
static struct curl_slist *swift_sign(const struct xfer *x,
				     struct curl_slist *l, bool put,
				     const void *body, size_t len)
{
	char md5[33];

	l = curl_slist_append(l, "Accept:");
	if (put && !http_md5_hex(body, len, md5))
		l = add(l, "etag: %s", md5);
	return add(l, "x-auth-token: %s", x->he->o->http_swift_auth_token);
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

/* x's request on its handle: method, URL, headers, body. */
static void xfer_start(struct xfer *x)
{
	const struct job_options *o = x->he->o;
	const struct req *q = &x->q;
	struct curl_slist *l = NULL;
	bool put = q->kind == REQ_PUT;
	CURL *c = x->curl;

	x->buf = q->buf;
	x->max = q->len;
	x->pos = 0;
	x->overflow = false;
	x->status[0] = x->curl_err[0] = x->detail[0] = x->errbody[0] = 0;
	x->code = 0;
	x->errlen = 0;
	curl_easy_setopt(c, CURLOPT_URL, strbuf_str(&x->url));
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
		l = s3_sign(x, l, put ? q->buf : "", put ? q->len : 0);
	else if (o->http_mode == HTTP_MODE_SWIFT)
		l = swift_sign(x, l, put, q->buf, q->len);
	curl_slist_free_all(x->hdrs);
	x->hdrs = l;
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, l);
	x->t0 = engine_mono_ns();
}

/*
 * A request stopped short: the job was told to stop, or its time is
 * over with the server silent. That ends the job without an error (the
 * note says so), unless the server never answered at all.
 */
static int cut_short(struct xfer *x, uint64_t t)
{
	struct http_engine *he = x->he;

	if (engine_stopping(&he->e))
		return ENGINE_ERR_END;
	snprintf(he->cut, sizeof(he->cut), "%s %.200s: no answer in %.1f s, "
		 "cut at the job's end", x->q.method, strbuf_str(&x->url),
		 (double)t / 1e9);
	if (he->answered)
		return ENGINE_ERR_END;
	he->rs->k[x->q.kind].errors++;
	snprintf(x->detail, sizeof(x->detail), "%s", he->cut);
	return ETIMEDOUT;
}

/* The text of <tag>...</tag> in s (to its end if cut off); its length. */
static int xml_elem(const char *s, const char *tag, const char **val)
{
	char open[16], close[16];
	const char *b, *e;

	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	b = strstr(s, open);
	if (!b)
		return 0;
	b += strlen(open);
	e = strstr(b, close);
	*val = b;
	return (int)(e ? (size_t)(e - b) : strlen(b));
}

/*
 * n bytes of p onto out, printable ASCII: a control character as a
 * space, any other byte as '?' (the message goes to stderr and JSON).
 */
static void add_text(struct strbuf *out, const char *p, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		strbuf_addch(out, c < ' ' ? ' ' : c >= 0x7f ? '?' : (char)c);
	}
}

/*
 * The server's reason in an error answer's body, as " (...)": an S3
 * error's Code and Message (AWS, radosgw, MinIO), or the first line of
 * a plain-text body (radosgw's Swift: "AccessDenied"); nothing for an
 * HTML page, whose status line says as much.
 */
static void server_reason(const struct xfer *x, struct strbuf *out)
{
	const char *b = x->errbody, *code, *msg;
	int nc, nm;

	while (*b == ' ' || *b == '\t' || *b == '\r' || *b == '\n')
		b++;
	if (!*b)
		return;
	if ((nc = xml_elem(b, "Code", &code)) > 0) {
		strbuf_addstr(out, " (");
		add_text(out, code, nc < 64 ? nc : 64);
		nm = xml_elem(b, "Message", &msg);
		if (nm > 0) {
			strbuf_addstr(out, ": ");
			add_text(out, msg, nm < 200 ? nm : 200);
		}
		strbuf_addch(out, ')');
	} else if (*b != '<') {
		nc = (int)strcspn(b, "\r\n");
		strbuf_addstr(out, " (");
		add_text(out, b, nc < 120 ? nc : 120);
		strbuf_addch(out, ')');
	}
}

/* Whether status st is success for x's request; counts it. */
static bool answer_ok(struct xfer *x, long st)
{
	const struct req *q = &x->q;
	struct req_kind_stat *ks = &x->he->rs->k[q->kind];
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
		struct strbuf why = STRBUF_INIT;

		ks->errors++;
		server_reason(x, &why);
		snprintf(x->detail, sizeof(x->detail), "%s %.160s: %s%s",
			 q->method, strbuf_str(&x->url),
			 x->status[0] ? x->status : "no status line",
			 strbuf_str(&why));
		strbuf_release(&why);
		return false;
	}
	ks->requests++;
	if (st == 404)
		ks->not_found++;
	ks->bytes += q->kind == REQ_PUT ? q->len :
		     q->kind == REQ_GET && st != 404 ? x->pos : 0;
	return true;
}

/*
 * x's request ended with rc: its figures counted, the answer judged.
 * Returns 0, an errno (why in x->detail) or ENGINE_ERR_END; a GET that
 * succeeded has its buffer's tail (all of it on 404) zeroed, as fio
 * reads a missing object.
 */
static int xfer_finish(struct xfer *x, CURLcode rc)
{
	struct http_engine *he = x->he;
	uint64_t t = engine_mono_ns() - x->t0;
	curl_off_t ttfb = 0;
	long st = 0;

	curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &st);
	curl_easy_getinfo(x->curl, CURLINFO_STARTTRANSFER_TIME_T, &ttfb);
	if (rc == CURLE_ABORTED_BY_CALLBACK)
		return cut_short(x, t);
	if (rc != CURLE_OK) {
		he->rs->k[x->q.kind].errors++;
		snprintf(x->detail, sizeof(x->detail), "%s %.200s: %.250s",
			 x->q.method, strbuf_str(&x->url), x->overflow ?
			 "the object is larger than the block" :
			 x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc));
		return x->overflow ? EIO : curl_errno(rc);
	}
	he->answered++;
	req_lat_add(&he->rs->k[x->q.kind].lat, t);
	req_lat_add(&he->rs->k[x->q.kind].ttfb, (uint64_t)ttfb * 1000);
	if (!answer_ok(x, st))
		return status_errno(st);
	if (x->q.kind == REQ_GET)
		memset(x->buf + (st == 404 ? 0 : x->pos), 0,
		       st == 404 ? x->max : x->max - x->pos);
	return 0;
}

static void set_result(struct io_u *u, int ret)
{
	u->error = ret;
	u->resid = ret ? u->len : 0;
}

/* u's request into x (its URL, method, range). false: nothing to send. */
static bool xfer_prepare(struct xfer *x, struct io_u *u,
			 const struct engine_file *f)
{
	struct req *q = &x->q;

	memset(q, 0, sizeof(*q));
	q->buf = u->buf;
	q->len = u->len;
	switch (u->ddir) {
	case DDIR_WRITE:
		q->kind = REQ_PUT;
		q->method = "PUT";
		break;
	case DDIR_READ:
		q->kind = REQ_GET;
		q->method = "GET";
		if (x->he->o->http_object_mode == HTTP_OBJ_RANGE) {
			q->range = true;
			q->range_lo = u->offset;
			q->range_hi = u->offset + u->len - 1;
		}
		break;
	case DDIR_TRIM:
		q->kind = REQ_DELETE;
		q->method = "DELETE";
		q->len = 0;
		break;
	default:		/* fsync: an object store has nothing to flush */
		return false;
	}
	x->u = u;
	u->engine_data = x;
	make_url(x, f, u);
	return true;
}

static enum engine_q http_queue(struct engine *e, struct io_u *u)
{
	struct http_engine *he = to_http(e);
	struct xfer *x;
	CURLMcode mc;

	if (!he->multi) {
		x = &he->x[0];
		if (!xfer_prepare(x, u, &e->files[u->file])) {
			set_result(u, 0);
			return ENGINE_Q_DONE;
		}
		xfer_start(x);
		set_result(u, xfer_finish(x, curl_easy_perform(x->curl)));
		return ENGINE_Q_DONE;
	}
	if (!he->nr_idle)
		return ENGINE_Q_BUSY;
	x = &he->x[he->idle[he->nr_idle - 1]];
	if (!xfer_prepare(x, u, &e->files[u->file])) {
		set_result(u, 0);
		return ENGINE_Q_DONE;
	}
	xfer_start(x);
	mc = curl_multi_add_handle(he->multi, x->curl);
	if (mc != CURLM_OK) {
		snprintf(x->detail, sizeof(x->detail), "%s %.200s: %s",
			 x->q.method, strbuf_str(&x->url),
			 curl_multi_strerror(mc));
		set_result(u, EIO);
		return ENGINE_Q_DONE;
	}
	he->nr_idle--;
	return ENGINE_Q_QUEUED;
}

/* Starts what queue() added: the multi handle sends what it can. */
static int http_commit(struct engine *e)
{
	struct http_engine *he = to_http(e);
	int running;

	if (he->multi)
		curl_multi_perform(he->multi, &running);
	return 0;
}

/* The transfers the multi handle finished, up to max, into done[]. */
static void reap_finished(struct http_engine *he, unsigned int max)
{
	CURLMsg *m;
	int left;

	while (he->nr_done < max &&
	       (m = curl_multi_info_read(he->multi, &left))) {
		struct xfer *x;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &x);
		set_result(x->u, xfer_finish(x, m->data.result));
		curl_multi_remove_handle(he->multi, x->curl);
		he->idle[he->nr_idle++] = (unsigned int)(x - he->x);
		he->done[he->nr_done++] = x->u;
	}
}

/*
 * The job is to stop, or its time is over: every transfer in flight is
 * stopped and completes as cut short.
 */
static void stop_all(struct http_engine *he, unsigned int max)
{
	unsigned int i;

	for (i = 0; i + 1 < he->nx && he->nr_done < max; i++) {
		struct xfer *x = &he->x[i];
		bool idle = false;
		unsigned int k;

		for (k = 0; k < he->nr_idle; k++)
			idle |= he->idle[k] == i;
		if (idle)
			continue;
		curl_multi_remove_handle(he->multi, x->curl);
		set_result(x->u, xfer_finish(x, CURLE_ABORTED_BY_CALLBACK));
		he->idle[he->nr_idle++] = i;
		he->done[he->nr_done++] = x->u;
	}
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

static int http_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout)
{
	struct http_engine *he = to_http(e);
	uint64_t end = timeout ? engine_mono_ns() + ts_ns(timeout) : 0;
	int running;

	if (!he->multi)
		return 0;
	he->nr_done = 0;
	for (;;) {
		curl_multi_perform(he->multi, &running);
		reap_finished(he, max);
		if (he->nr_done >= min || he->nr_done >= max)
			break;
		if (time_up(he)) {
			stop_all(he, max);
			break;
		}
		if (end && engine_mono_ns() >= end)
			break;
		/* in slices: time_up() is looked at every 100 ms */
		curl_multi_poll(he->multi, NULL, 0, 100, NULL);
	}
	return (int)he->nr_done;
}

static struct io_u *http_event(struct engine *e, unsigned int i)
{
	return to_http(e)->done[i];
}

/*
 * One object per file (http_object_mode=range) read by the job: HEAD
 * says that it is there before the first read, not a run of zeros.
 */
static int http_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	struct http_engine *he = to_http(e);
	struct xfer *x = &he->x[he->nx - 1];
	int ret;

	if (he->o->http_object_mode != HTTP_OBJ_RANGE ||
	    !ddir_used(e->plan, DDIR_READ) || e->plan->writes)
		return 0;
	memset(&x->q, 0, sizeof(x->q));
	x->q.kind = REQ_HEAD;
	x->q.method = "HEAD";
	x->u = NULL;
	make_url(x, f, NULL);
	xfer_start(x);
	ret = xfer_finish(x, curl_easy_perform(x->curl));
	if (ret == ENGINE_ERR_END)
		return 0;
	if (ret)
		strbuf_addf(err, "object '%s': %s", f->path, x->detail);
	return ret ? -ret : 0;
}

static int http_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

static const char *http_error_detail(struct engine *e, const struct io_u *u,
				     char *buf, size_t n)
{
	const struct xfer *x = u->engine_data;

	if (!x || !x->detail[0])
		return NULL;
	snprintf(buf, n, "%s", x->detail);
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
	struct http_engine *he = to_http(e);
	struct reqstats *c = reqstats_dup(he->rs);

	memset(he->rs->k, 0, sizeof(he->rs->k));
	return c;
}
#define HTTP_INIT http_init
#else
#define HTTP_INIT NULL
#define http_cleanup NULL
#define http_open NULL
#define http_close NULL
#define http_queue NULL
#define http_commit NULL
#define http_getevents NULL
#define http_event NULL
#define http_error_detail NULL
#define http_describe NULL
#define http_reqstats NULL
#endif

const struct engine_ops engine_http_ops = {
	.name = "http",
	.help = "PUT, GET and DELETE of objects on a WebDAV, S3 or Swift "
		"server (libcurl)",
	.flags = ENGINE_F_NOFILEIO | ENGINE_F_INLINE_DEPTH1,
	.options = http_options,
	.plan_check = http_plan_check,
	.load = dl_curl_load,
	.init = HTTP_INIT,
	.cleanup = http_cleanup,
	.open_file = http_open,
	.close_file = http_close,
	.queue = http_queue,
	.commit = http_commit,
	.getevents = http_getevents,
	.event = http_event,
	.error_detail = http_error_detail,
	.describe = http_describe,
	.reqstats = http_reqstats,
};

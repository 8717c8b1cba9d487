/* SPDX-License-Identifier: MIT */
/*
 * The http engine's signing (engine/http_sign.h) against AWS's published
 * examples: the S3 GET of examplebucket/test.txt from "Signature
 * Calculations for the Authorization Header" (its signature), and the
 * get-vanilla-query case of AWS's signature v4 test suite (its canonical
 * request, its hash, the signature); base64 and S3's path encoding. And
 * the request tables (util/reqstat.h): percentiles against exact order
 * statistics, a merge of parts equal to the whole.
 */
#include <stdlib.h>
#include <string.h>

#include "unit/tap.h"
#include "engine/http_sign.h"
#include "util/reqstat.h"

#ifdef HAVE_LIBCRYPTO
static const char empty_sha[] =
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

static void test_s3_example(void)
{
	const char *h[] = {
		"x-amz-date:20130524T000000Z", "range:bytes=0-9",
		"host:examplebucket.s3.amazonaws.com",
		"x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e"
		"4649b934ca495991b7852b855", NULL,
	};
	struct sigv4_req r = {
		.method = "GET", .path = "/test.txt", .query = "",
		.headers = h, .payload_sha256 = empty_sha,
		.amz_date = "20130524T000000Z", .region = "us-east-1",
		.service = "s3", .keyid = "AKIAIOSFODNN7EXAMPLE",
		.secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	};
	struct strbuf auth = STRBUF_INIT;

	ok(!sigv4_sign(&r, &auth, NULL, NULL), "S3 example: signed");
	ok(!strcmp(strbuf_str(&auth), "AWS4-HMAC-SHA256 Credential="
		   "AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
		   "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
		   "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48"
		   "dd91039c6036bdb41"), "S3 example: AWS's signature (%s)",
	   strbuf_str(&auth));
	strbuf_release(&auth);
}

static void test_suite_vanilla_query(void)
{
	const char *h[] = {
		"host:host.foo.com", "date:Mon, 09 Sep 2011 23:36:00 GMT",
		NULL,
	};
	struct sigv4_req r = {
		.method = "GET", .path = "/", .query = "foo=Zoo&foo=aha",
		.headers = h, .payload_sha256 = empty_sha,
		.amz_date = "20110909T233600Z", .region = "us-east-1",
		.service = "host", .keyid = "AKIDEXAMPLE",
		.secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
	};
	struct strbuf auth = STRBUF_INIT, creq = STRBUF_INIT, sts = STRBUF_INIT;
	char sha[65];

	ok(!sigv4_sign(&r, &auth, &creq, &sts), "test suite: signed");
	ok(!strcmp(strbuf_str(&creq), "GET\n/\nfoo=Zoo&foo=aha\n"
		   "date:Mon, 09 Sep 2011 23:36:00 GMT\nhost:host.foo.com\n\n"
		   "date;host\n"
		   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		   "7852b855"), "test suite: the canonical request, headers "
	   "sorted");
	http_sha256_hex(creq.buf, creq.len, sha);
	ok(!strcmp(sha, "e25f777ba161a0f1baf778a87faf057187cf5987f17953320e"
		   "3ca399feb5f00d"), "test suite: its hash (%s)", sha);
	ok(!strcmp(strbuf_str(&sts), "AWS4-HMAC-SHA256\n20110909T233600Z\n"
		   "20110909/us-east-1/host/aws4_request\ne25f777ba161a0f1ba"
		   "f778a87faf057187cf5987f17953320e3ca399feb5f00d"),
	   "test suite: the string to sign");
	ok(strstr(strbuf_str(&auth), "SignedHeaders=date;host,Signature="
		  "be7148d34ebccdc6423b19085378aa0bee970bdc61d144bd1a8c48c"
		  "33079ab09") != NULL, "test suite: the signature (%s)",
	   strbuf_str(&auth));
	strbuf_release(&auth);
	strbuf_release(&creq);
	strbuf_release(&sts);
}

#endif

static void test_encodings(void)
{
	static const char *const b64[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" },
		{ "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
	};
	struct strbuf sb = STRBUF_INIT;
	unsigned int i;
	bool all = true;

	for (i = 0; i < sizeof(b64) / sizeof(b64[0]); i++) {
		strbuf_reset(&sb);
		http_base64(b64[i][0], strlen(b64[i][0]), &sb);
		all &= !strcmp(strbuf_str(&sb), b64[i][1]);
	}
	ok(all, "base64: RFC 4648's examples");
	strbuf_reset(&sb);
	sigv4_uri_encode("/b/a b+c/\xc3\xbc~x_y-z.1", &sb);
	ok(!strcmp(strbuf_str(&sb), "/b/a%20b%2Bc/%C3%BC~x_y-z.1"),
	   "S3 path encoding: '/' kept, the rest as %%XX (%s)",
	   strbuf_str(&sb));
	strbuf_release(&sb);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_reqstat(void)
{
	enum { N = 20000 };
	static const double pcts[] = { 1, 10, 50, 90, 99, 99.9 };
	uint64_t *v = malloc(N * sizeof(*v)), r = 88172645463325252ull;
	struct reqstats *a = reqstats_new("t"), *b = reqstats_new("t");
	struct reqstats *whole = reqstats_new("t");
	unsigned int i, bad = 0;

	for (i = 0; i < N; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		/* 10 us to 100 ms, log-uniform-ish */
		v[i] = 10000 + (r % 1000) * (1ull << (r >> 60) % 14);
		req_lat_add(&whole->k[REQ_GET].lat, v[i]);
		req_lat_add(&(i & 1 ? a : b)->k[REQ_GET].lat, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t exact = v[(size_t)((N * pcts[i] + 99.0) / 100.0) - 1];
		uint64_t got = req_lat_pct(&whole->k[REQ_GET].lat, pcts[i]);
		double rel = (double)got / (double)exact - 1.0;

		if (rel > 1.0 / 32 || rel < -1.0 / 32) {
			bad++;
			diag("p%g: %llu, exact %llu", pcts[i],
			     (unsigned long long)got,
			     (unsigned long long)exact);
		}
	}
	ok(!bad, "percentiles within a bucket of the exact ones");
	reqstats_merge(a, b);
	ok(!memcmp(&a->k[REQ_GET].lat, &whole->k[REQ_GET].lat,
		   sizeof(a->k[REQ_GET].lat)), "merged halves equal the whole");
	ok(req_lat_pct(&whole->k[REQ_GET].lat, 100) ==
	   whole->k[REQ_GET].lat.max && req_lat_pct(&whole->k[REQ_PUT].lat,
						    50) == 0,
	   "p100 is the max; no samples: 0");
	free(v);
	free(a);
	free(b);
	free(whole);
}

int main(void)
{
#ifdef HAVE_LIBCRYPTO
	test_s3_example();
	test_suite_vanilla_query();
#else
	skip(WITHOUT_LIBCRYPTO, "AWS signature v4 examples");
#endif
	test_encodings();
	test_reqstat();
	return done_testing();
}

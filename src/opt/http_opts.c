/* SPDX-License-Identifier: MIT */
/* The http engine's value lists and plan rule (opt/http_opts.h). */
#include <string.h>

#include "opt/http_opts.h"
#include "opt/internal.h"

const struct opt_enum http_tls_enums[] = {
	{ "off", HTTP_TLS_OFF, "plain HTTP (port 80 unless http_host says)" },
	{ "on", HTTP_TLS_ON, "HTTPS, the server's certificate checked" },
	{ "insecure", HTTP_TLS_INSECURE,
	  "HTTPS, the server's certificate not checked" },
	{ NULL, 0, NULL },
};

const struct opt_enum http_mode_enums[] = {
	{ "webdav", HTTP_MODE_WEBDAV, "WebDAV: plain PUT, GET, DELETE" },
	{ "s3", HTTP_MODE_S3, "S3: requests signed with AWS signature v4" },
	{ "swift", HTTP_MODE_SWIFT, "OpenStack Swift: an auth token" },
	{ NULL, 0, NULL },
};

const struct opt_enum http_object_enums[] = {
	{ "block", HTTP_OBJ_BLOCK,
	  "an object per block, named FILENAME_OFFSET_LENGTH" },
	{ "range", HTTP_OBJ_RANGE,
	  "one object per file; reads GET a byte range of it" },
	{ NULL, 0, NULL },
};

static bool empty(const char *s)
{
	return !s || !*s;
}

/*
 * Every name of filename= (':' between them), or else filename_format,
 * begins with '/'.
 */
static int check_paths(struct job_plan *p, struct strbuf *err)
{
	const char *s = p->o.filename;

	if (empty(s)) {
		s = p->o.filename_format;
		if (empty(s) || *s != '/' || p->o.directory)
			return plan_fail(p, err, "option 'filename': ioengine "
					 "'http' needs filename=/PATH (or "
					 "filename_format=/...), the object's "
					 "path on the server (after http_host)");
		return 0;
	}
	while (s && *s) {
		if (*s != '/')
			return plan_fail(p, err, "option 'filename': '%s' is "
					 "not an object path: it must begin "
					 "with '/' (http_host and filename are "
					 "joined as they are)", s);
		s = strchr(s, ':');
		if (s)
			s++;
	}
	return 0;
}

static int check_mode(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

#ifndef HAVE_LIBCRYPTO
	if (o->http_mode != HTTP_MODE_WEBDAV)
		return plan_fail(p, err, "option 'http_mode': %s needs "
				 "libcrypto, which this build lacks: install "
				 "libssl-dev and rebuild",
				 opt_enum_name(http_mode_enums,
					       (int)o->http_mode));
#endif
	if (o->http_mode == HTTP_MODE_S3 &&
	    (empty(o->http_s3_keyid) || empty(o->http_s3_key)))
		return plan_fail(p, err, "option 'http_s3_keyid': "
				 "http_mode=s3 needs http_s3_keyid and "
				 "http_s3_key (the access key's id and "
				 "secret)");
	if (o->http_mode == HTTP_MODE_SWIFT && empty(o->http_swift_auth_token))
		return plan_fail(p, err, "option 'http_swift_auth_token': "
				 "http_mode=swift needs the token");
	if (empty(o->http_user) != empty(o->http_pass))
		return plan_fail(p, err, "option '%s': http_user and "
				 "http_pass go together",
				 empty(o->http_user) ? "http_user" :
				 "http_pass");
	return 0;
}

int http_plan_check(struct job_plan *p, struct strbuf *err)
{
	if (check_paths(p, err) || check_mode(p, err))
		return -1;
	if (empty(p->o.http_host))
		return plan_fail(p, err, "option 'http_host': empty");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The JSON writer (layout, escaping, numbers) and the json, json+ and
 * terse report writers on a hand-built results model: the output must be
 * valid JSON (checked by a small strict parser below), have fio's shape
 * where it matters to tools, and terse lines fio's field count.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "unit/tap.h"
#include "util/json.h"

/* Runs fn on a memory stream and returns what it wrote (caller frees). */
#define CAPTURE(buf, stmts) do {					\
	size_t len_;							\
	FILE *f = open_memstream(&(buf), &len_);			\
	stmts;								\
	fclose(f);							\
} while (0)

/* ---- a strict JSON checker: RFC 8259 values, no extensions ---- */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *parse_value(const char *p, int depth);

static const char *parse_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20)
			return NULL;	/* raw control character */
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *parse_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p > s ? p : NULL;
}

static const char *parse_members(const char *p, int depth, char close,
				 bool keyed)
{
	p = skip_ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		p = skip_ws(p);
		if (keyed) {
			p = parse_string(p);
			if (!p)
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = parse_value(p, depth + 1);
		if (!p)
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *parse_value(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	p = skip_ws(p);
	if (*p == '{')
		return parse_members(p + 1, depth, '}', true);
	if (*p == '[')
		return parse_members(p + 1, depth, ']', false);
	if (*p == '"')
		return parse_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	return parse_number(p);
}

static bool json_valid(const char *s)
{
	const char *p = parse_value(s, 0);

	return p && !*skip_ws(p);
}

/* ---- the writer ---- */

static void test_layout(void)
{
	struct json_writer w;
	char *out;
	const char *want =
		"{\n"
		"  \"a\" : 1,\n"
		"  \"o\" : {\n"
		"    \"s\" : \"x\"\n"
		"  },\n"
		"  \"e\" : {\n"
		"  },\n"
		"  \"l\" : [\n"
		"    {\n"
		"      \"n\" : -3\n"
		"    },\n"
		"    2\n"
		"  ]\n"
		"}\n";
	int ret = -1;

	CAPTURE(out, {
		json_init(&w, f);
		json_begin_object(&w, NULL);
		json_u64(&w, "a", 1);
		json_begin_object(&w, "o");
		json_str(&w, "s", "x");
		json_end_object(&w);
		json_begin_object(&w, "e");
		json_end_object(&w);
		json_begin_array(&w, "l");
		json_begin_object(&w, NULL);
		json_i64(&w, "n", -3);
		json_end_object(&w);
		json_u64(&w, NULL, 2);
		json_end_array(&w);
		json_end_object(&w);
		ret = json_finish(&w);
	});
	ok(ret == 0, "json_finish returns 0");
	ok(!strcmp(out, want), "fio's layout: braces, indent, ' : ', commas");
	if (strcmp(out, want))
		diag("got:\n%s", out);
	ok(json_valid(out), "the layout is valid JSON");
	free(out);
}

static void check_str(const char *in, const char *want, const char *what)
{
	char *out;

	CAPTURE(out, json_write_string(f, in));
	ok(!strcmp(out, want), "escape %s: %s (got %s)", what, want, out);
	free(out);
}

static void test_escape(void)
{
	check_str("plain", "\"plain\"", "nothing");
	check_str("a\"b", "\"a\\\"b\"", "quote");
	check_str("back\\slash", "\"back\\\\slash\"", "backslash");
	check_str("t\tn\nr\rb\bf\f", "\"t\\tn\\nr\\rb\\bf\\f\"", "short forms");
	check_str("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"",
		  "other control characters");
	check_str("a/b \xc3\xa9", "\"a/b \xc3\xa9\"", "slash and UTF-8 kept");
	check_str("", "\"\"", "empty string");
}

static void check_num(double d, const char *want)
{
	struct json_writer w;
	char *out;

	CAPTURE(out, {
		json_init(&w, f);
		json_double(&w, NULL, d);
	});
	ok(!strcmp(out, want), "double %g -> %s (got %s)", d, want, out);
	free(out);
}

static void test_numbers(void)
{
	struct json_writer w;
	char *out;

	check_num(0.5, "0.500000");
	check_num(5461333.333333333, "5461333.333333");
	check_num(100.0, "100.000000");
	check_num(-0.0, "0.000000");
	check_num(NAN, "0.000000");
	check_num(INFINITY, "0.000000");

	CAPTURE(out, {
		json_init(&w, f);
		json_begin_array(&w, NULL);
		json_u64(&w, NULL, UINT64_MAX);
		json_i64(&w, NULL, INT64_MIN);
		json_end_array(&w);
	});
	ok(strstr(out, "18446744073709551615,\n") != NULL,
	   "u64 max as an integer");
	ok(strstr(out, "-9223372036854775808\n") != NULL,
	   "i64 min as an integer");
	free(out);
}

/* ---- the report writers on a hand-built model ---- */

static void fill_dir(struct dir_result *dr, uint64_t ios, uint64_t bs,
		     uint64_t base_ns)
{
	uint64_t i;

	dr->ios = ios;
	dr->bytes = ios * bs;
	dr->runtime_ms = 1000;
	dr->bw = dr->bytes;
	dr->iops = (double)ios;
	for (i = 0; i < ios; i++) {
		uint64_t clat = base_ns + i * 37 % 5000;

		welford_add(&dr->clat, clat);
		hist_add(&dr->clat_hist, clat);
		welford_add(&dr->lat, clat + 50);
		hist_add(&dr->lat_hist, clat + 50);
	}
	dr->clat_pct.on = true;
	hist_percentiles(&dr->clat_hist, dr->clat.min, dr->clat.max,
			 hist_default_pct, hist_default_pct_nr,
			 dr->clat_pct.val);
	welford_add(&dr->bw_samples, 4000);
	welford_add(&dr->bw_samples, 4100);
	welford_add(&dr->iops_samples, 1000);
	welford_add(&dr->iops_samples, 1025);
	dr->bw_agg_pct = 100.0;
}

static struct result_opt gopts[] = {
	{ "ioengine", "null" }, { "thread", NULL }, { "size", "1m" },
};
static struct result_opt jopts[] = {
	{ "name", "a \"quoted\"" }, { "rw", "randrw" },
};

static void build(struct run_result *rr, struct job_result *j,
		  struct disk_result *dk)
{
	unsigned int i;

	memset(rr, 0, sizeof(*rr));
	memset(j, 0, sizeof(*j));
	memset(dk, 0, sizeof(*dk));
	j->name = (char *)"a";
	j->members = 1;
	j->kb_base = 1024;
	j->unit_base = 8;
	j->sig_figs = 4;
	j->nr_pct = hist_default_pct_nr;
	memcpy(j->pct_list, hist_default_pct,
	       hist_default_pct_nr * sizeof(double));
	j->pct_precision = 2;
	j->clat_pct_opt = true;
	j->latency_depth = 1;
	j->latency_percentile = 100.0;
	j->elapsed_ms = 1500;
	j->run_ms = 1000;
	j->usr_cpu = 12.5;
	fill_dir(&j->dir[DDIR_READ], 300, 4096, 1000);
	/* one sample beyond the top bucket: still in the bins */
	hist_add(&j->dir[DDIR_READ].clat_hist, UINT64_C(1) << 40);
	welford_add(&j->dir[DDIR_READ].clat, UINT64_C(1) << 40);
	fill_dir(&j->dir[DDIR_WRITE], 100, 8192, 20000);
	for (i = 0; i < 3; i++) {
		welford_add(&j->sync_lat, 5000 + i * 1000);
		hist_add(&j->sync_hist, 5000 + i * 1000);
	}
	j->sync_ios = 3;
	j->sync_pct.on = true;
	hist_percentiles(&j->sync_hist, j->sync_lat.min, j->sync_lat.max,
			 j->pct_list, j->nr_pct, j->sync_pct.val);
	j->issued[DDIR_READ] = 301;
	j->issued[DDIR_WRITE] = 100;
	j->ddir_mask = 3;
	j->depth[1] = 401;
	j->lat_us[0] = 300;
	j->lat_us[5] = 101;
	j->lat_ns[9] = 0;
	j->opts = jopts;
	j->nr_opts = 2;
	rr->jobs = j;
	rr->nr_jobs = 1;
	rr->timestamp = 1700000000;
	rr->timestamp_ms = 1700000000123ull;
	rr->global_opts = gopts;
	rr->nr_global_opts = 3;
	strcpy(dk->name, "loop0");
	dk->ios[0] = 10;
	dk->util = 50.0;
}

/* Sum of the counts in the "bins" object that follows from, or -1. */
static long long bins_sum(const char *from)
{
	const char *p = strstr(from, "\"bins\" : {");
	long long sum = 0;

	if (!p)
		return -1;
	p = strchr(p, '{') + 1;
	while (*p && *p != '}') {
		const char *colon = strstr(p, " : ");

		if (!colon)
			return -1;
		sum += strtoll(colon + 3, (char **)&p, 10);
		while (*p == ',' || *p == '\n' || *p == ' ')
			p++;
	}
	return sum;
}

static unsigned int count_fields(const char *line)
{
	unsigned int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ';';
	return n;
}

static void test_json_report(void)
{
	struct run_result rr;
	struct job_result j;
	struct disk_result dk;
	char *out, *plus;
	const char *p, *q;
	int ret = -1, ret2 = -1;

	build(&rr, &j, &dk);
	ok(report_find("json") == &report_json &&
	   report_find("json+") == &report_json_plus &&
	   report_find("terse") == &report_terse &&
	   report_find("jsonx") == NULL, "report_find knows the writers");

	CAPTURE(out, ret = report_json.write(&rr, f));
	ok(ret == 0, "json writer returns 0");
	ok(json_valid(out), "json output is valid JSON");
	ok(!strncmp(out, "{\n", 2) && strlen(out) > 2 &&
	   !strcmp(out + strlen(out) - 3, "\n}\n"),
	   "'{' and '}' alone on the first and last lines");
	ok(strstr(out, "  \"global options\" : {\n"
		       "    \"ioengine\" : \"null\",\n"
		       "    \"size\" : \"1m\"\n  },\n") != NULL,
	   "global options in order, bare flag left out");
	ok(strstr(out, "\"name\" : \"a \\\"quoted\\\"\"") != NULL,
	   "job options escaped");
	ok(strstr(out, "\"time\" : \"") != NULL &&
	   strstr(out, "\"timestamp_ms\" : 1700000000123,") != NULL,
	   "timestamps");
	ok(strstr(out, "\"elapsed\" : 2,") != NULL, "elapsed rounds up");
	ok(strstr(out, "\"total_ios\" : 301,") != NULL,
	   "total_ios counts issued I/Os");
	ok(strstr(out, "\"percentile\" : {\n            \"1.000000\" : ") != NULL,
	   "percentile keys with six decimals");
	ok(strstr(out, "\"99.990000\" : ") != NULL, "99.99th percentile key");
	ok(strstr(out, "\"bins\"") == NULL, "no bins in plain json");
	ok(strstr(out, "\"disk_util\"") == NULL, "no disk_util without disks");
	ok(strstr(out, "\"desc\"") == NULL && strstr(out, "total_err") == NULL,
	   "no desc, no total_err unless asked for");
	p = strstr(out, "\"trim\" : {");
	q = p ? strstr(p, "\"percentile\"") : NULL;
	ok(p && strstr(p, "\"clat_ns\" : {") &&
	   (!q || q > strstr(p, "\"sync\"")),
	   "no percentiles for a direction without samples");
	p = strstr(out, "\"usr_cpu\" : 12.500000,");
	ok(p != NULL, "usr_cpu as a double");
	ok(strstr(out, "\"iodepth_level\" : {\n        \"1\" : 100.000000,") &&
	   strstr(out, "\">=64\" : 0.000000\n      },\n      \"iodepth_submit\""),
	   "iodepth_level keys");
	ok(strstr(out, "\"latency_ms\" : {") &&
	   strstr(out, "\">=2000\" : 0.000000\n      },\n      \"latency_depth\""),
	   "latency_ms keys");
	free(out);

	CAPTURE(plus, ret2 = report_json_plus.write(&rr, f));
	ok(ret2 == 0 && json_valid(plus), "json+ output is valid JSON");
	p = strstr(plus, "\"read\" : {");
	ok(p && bins_sum(p) == 301, "read clat bins add up to N (overflow too)");
	ok(p && strstr(p, "\"17112760320\" : 1") != NULL,
	   "overflow sample in the top bucket");
	p = strstr(plus, "\"write\" : {");
	ok(p && bins_sum(p) == 100, "write clat bins add up to N");
	ok(p && strstr(p, "\"bins\"") < strstr(p, "\"lat_ns\""),
	   "bins under clat_ns");
	p = strstr(plus, "\"sync\" : {");
	ok(p && strstr(p, "\"percentile\" : {") && bins_sum(p) == 3,
	   "sync latency: percentiles and bins");
	free(plus);

	/* a disk, a description, continue_on_error */
	rr.disks = &dk;
	rr.nr_disks = 1;
	j.description = (char *)"two\tlines\n";
	CAPTURE(out, report_json.write(&rr, f));
	ok(json_valid(out), "with disk and description: valid JSON");
	ok(strstr(out, "\"desc\" : \"two\\tlines\\n\",\n"
		       "      \"iolite\" : {\n") != NULL,
	   "desc last of fio's keys, escaped, then iolite's");
	ok(strstr(out, "  \"disk_util\" : [\n    {\n      \"name\" : \"loop0\",")
	   != NULL, "disk_util array");
	ok(strstr(out, "\"util\" : 50.000000\n    }\n  ],\n"
		       "  \"iolite\" : {\n") != NULL,
	   "disk_util is fio's last key, iolite's follows");
	free(out);
}

/* Text of the object under key after from (up to its closing brace). */
static char *object_at(const char *from, const char *key)
{
	const char *p = from ? strstr(from, key) : NULL, *q;
	int depth = 0;

	if (!p || !(p = strchr(p, '{')))
		return NULL;
	for (q = p; *q; q++) {
		depth += *q == '{';
		depth -= *q == '}';
		if (!depth)
			return strndup(p, (size_t)(q - p + 1));
	}
	return NULL;
}

/*
 * slat, clat and lat percentiles each appear under their own block when
 * on; sync ones follow clat/lat; iolite's own keys carry the cost, the
 * clock and the notes; an empty list is an empty map, as fio's.
 */
static void test_json_pct_kinds(void)
{
	static const char *const notes[] = { "clock \"tsc\" fell back" };
	static const double list[] = { 50, 99.9 };
	struct run_result rr;
	struct job_result j;
	struct disk_result dk;
	struct dir_result *dr;
	char *out, *blk;
	const char *rd;
	unsigned int i;

	build(&rr, &j, &dk);
	dr = &j.dir[DDIR_READ];
	for (i = 0; i < 300; i++) {
		welford_add(&dr->slat, 100 + i);
		hist_add(&dr->slat_hist, 100 + i);
	}
	memcpy(j.pct_list, list, sizeof(list));
	j.nr_pct = 2;
	j.lat_pct_opt = j.slat_pct_opt = true;
	dr->slat_pct.on = dr->lat_pct.on = true;
	dr->slat_pct.val[0] = 250;
	dr->slat_pct.val[1] = 399;
	dr->lat_pct.val[0] = 3333;
	dr->lat_pct.val[1] = 4444;
	j.usr_ns_per_io = 17.25;
	j.iowq_cpu_ns = 2500000;
	j.iowq_threads = 9;
	j.iowq_max_threads = 4;
	j.run_delay_known = true;
	j.run_delay_ns = 25000000;	/* 25 ms of run_ms 1000: 2.5% */
	j.nivcsw = 7;
	rr.clock = "clock_gettime";
	rr.notes = notes;
	rr.nr_notes = 1;

	CAPTURE(out, report_json_plus.write(&rr, f));
	ok(json_valid(out), "three percentile kinds: valid JSON");
	rd = strstr(out, "\"read\" : {");
	blk = object_at(rd, "\"slat_ns\"");
	ok(blk && strstr(blk, "\"percentile\" : {\n            \"50.000000\" : 250,"
			      "\n            \"99.900000\" : 399\n") &&
	   bins_sum(blk) == 300, "slat_ns: percentile map and bins");
	free(blk);
	blk = object_at(rd, "\"lat_ns\"");
	ok(blk && strstr(blk, "\"50.000000\" : 3333,") &&
	   strstr(blk, "\"bins\""), "lat_ns: percentile map and bins");
	free(blk);
	blk = object_at(rd, "\"clat_ns\"");
	ok(blk && strstr(blk, "\"percentile\"") &&
	   !strstr(blk, "\"1.000000\""), "clat_ns: the job's list only");
	free(blk);
	blk = object_at(strstr(out, "\"write\" : {"), "\"slat_ns\"");
	ok(blk && !strstr(blk, "percentile"),
	   "no slat percentiles for a block without samples");
	free(blk);
	blk = object_at(rd, "\"iolite\"");
	ok(blk && !strcmp(blk, "{\n        \"usr_ns_per_io\" : 17.250000,\n"
			       "        \"iowq_cpu_ms\" : 2.500000,\n"
			       "        \"iowq_threads\" : 9,\n"
			       "        \"iowq_max_threads\" : 4,\n"
			       "        \"run_delay_ms\" : 25.000000,\n"
			       "        \"run_delay_pct\" : 2.500000,\n"
			       "        \"nivcsw\" : 7\n      }"),
	   "job's iolite object: cost per I/O, io-wq and stall figures");
	free(blk);
	ok(strstr(out, "\n  \"iolite\" : {\n    \"clock\" : \"clock_gettime\",\n"
		       "    \"notes\" : [\n      \"clock \\\"tsc\\\" fell back\"\n"
		       "    ]\n  }\n}\n") != NULL,
	   "run's iolite object: clock and escaped notes, last");
	free(out);

	/* "percentile_list=0": on, but an empty map */
	j.nr_pct = 0;
	rr.nr_notes = 0;
	CAPTURE(out, report_json.write(&rr, f));
	ok(json_valid(out), "empty list: valid JSON");
	blk = object_at(strstr(out, "\"read\" : {"), "\"percentile\"");
	ok(blk && !strchr(blk, ':'), "empty list: an empty percentile map");
	free(blk);
	ok(strstr(out, "\"notes\" : [\n    ]") ||
	   strstr(out, "\"notes\" : []"), "no notes: an empty array");
	free(out);
}

static void test_terse(void)
{
	struct run_result rr;
	struct job_result j;
	struct disk_result dk;
	char *out, *dup, *field[200], *save = NULL, *t;
	unsigned int n = 0;
	int ret = -1;

	build(&rr, &j, &dk);
	CAPTURE(out, ret = report_terse.write(&rr, f));
	ok(ret == 0, "terse writer returns 0");
	ok(count_fields(out) == 121, "121 fields as fio's (got %u)",
	   count_fields(out));
	ok(strchr(out, '\n') == out + strlen(out) - 1, "one line");

	dup = strdup(out);
	for (t = strtok_r(dup, ";\n", &save); t && n < 200;
	     t = strtok_r(NULL, ";\n", &save))
		field[n++] = t;
	ok(n == 121 && !strcmp(field[0], "3") &&
	   !strncmp(field[1], "iolite-", 7) && !strcmp(field[2], "a"),
	   "version, program, job name");
	ok(n == 121 && !strcmp(field[5], "1200") && !strcmp(field[6], "1200") &&
	   !strcmp(field[7], "300") && !strcmp(field[8], "1000"),
	   "read kb, bw, iops, runtime");
	ok(n == 121 && !strcmp(field[13], "1") &&
	   !strncmp(field[17], "1.000000%=", 10) &&
	   !strcmp(field[34], "0%=0") && !strcmp(field[36], "0%=0"),
	   "clat in usec, 17 percentiles then fillers");
	ok(n == 121 && !strcmp(field[41], "4000") && !strcmp(field[42], "4100") &&
	   !strcmp(field[43], "100.000000%"), "bw min, max, agg");
	ok(n == 121 && !strcmp(field[46], "800"), "write kb");
	ok(n == 121 && !strcmp(field[87], "12.500000%") &&
	   !strcmp(field[92], "100.0%"), "cpu and io depth");
	ok(n == 121 && !strcmp(field[99], "74.81%") &&
	   !strcmp(field[104], "25.19%") && !strcmp(field[120], "0.00%"),
	   "latency buckets");
	free(dup);
	free(out);

	rr.disks = &dk;
	rr.nr_disks = 1;
	j.description = (char *)"desc";
	CAPTURE(out, report_terse.write(&rr, f));
	ok(count_fields(out) == 131, "a disk and a description: 131 fields");
	ok(strstr(out, ";loop0;10;0;0;0;0;0;0;50.00%;desc\n") != NULL,
	   "disk fields, then the description");
	free(out);

	/* lat_percentiles=1 puts lat's in the clat fields, as fio */
	j.lat_pct_opt = true;
	j.dir[DDIR_READ].lat_pct.on = true;
	j.dir[DDIR_READ].lat_pct.val[0] = 123456;
	j.dir[DDIR_WRITE].lat_pct.on = false;
	CAPTURE(out, report_terse.write(&rr, f));
	ok(strstr(out, ";1.000000%=123;5.000000%=") != NULL &&
	   count_fields(out) == 131, "lat_percentiles=1: lat values");
	ok(strstr(out, ";1.000000%=0;5.000000%=0;") != NULL,
	   "a block without lat percentiles lists zeros");
	free(out);
	j.lat_pct_opt = j.clat_pct_opt = false;
	CAPTURE(out, report_terse.write(&rr, f));
	ok(!strstr(out, "1.000000%=") && count_fields(out) == 131,
	   "percentiles off: 20 fillers, same field count");
	free(out);
}

int main(void)
{
	test_layout();
	test_escape();
	test_numbers();
	test_json_report();
	test_json_pct_kinds();
	test_terse();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* fio-format log files read back for `iolite plot`: see logread.h. */
#include "plot/logread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
	[LOG_LAT] = "lat", [LOG_CLAT] = "clat", [LOG_SLAT] = "slat",
	[LOG_BW] = "bw", [LOG_IOPS] = "iops", [LOG_HIST] = "clat_hist",
};

const char *log_kind_name(enum log_kind k)
{
	return k < LOG_KIND_NR ? kind_names[k] : "?";
}

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);

	return len >= n && !memcmp(s + len - n, tail, n);
}

size_t log_name_base(const char *name, bool *fz)
{
	size_t len = strlen(name), k;

	*fz = ends_with(name, len, ".fz");
	if (*fz)
		len -= 3;
	if (!ends_with(name, len, ".log"))
		return 0;
	len -= 4;
	/* ".N": the job's number */
	k = len;
	while (k && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	if (k < len && k && name[k - 1] == '.')
		len = k - 1;
	return len;
}

/*
 * The kind from the name: "_KIND" before ".log" (after dropping ".fz"
 * and a ".N" job number). Returns 0, or -1 with a message.
 */
static int kind_of(const char *name, bool *fz, enum log_kind *kind,
		   struct strbuf *err)
{
	size_t len = log_name_base(name, fz), k;

	if (!len)
		goto unknown;
	for (k = 0; k < LOG_KIND_NR; k++) {
		char tail[16];

		if (k == LOG_HIST)
			continue;
		snprintf(tail, sizeof(tail), "_%s", kind_names[k]);
		if (ends_with(name, len, tail) ||
		    (k == LOG_BW && !strncmp(name, "agg-", 4) &&
		     ends_with(name, len, "_bw"))) {
			*kind = (enum log_kind)k;
			return 0;
		}
	}
unknown:
	strbuf_addf(err, "'%s': cannot tell what it logs: fio names its logs "
		    "NAME_lat.N.log, _clat, _slat, _bw, _iops or _clat_hist (.fz when "
		    "compressed)", name);
	return -1;
}

static void grow(struct log_data *ld)
{
	if (ld->n < ld->alloc)
		return;
	ld->alloc = ld->alloc ? ld->alloc * 2 : 4096;
	ld->t_ms = xrealloc(ld->t_ms, ld->alloc * sizeof(*ld->t_ms));
	ld->value = xrealloc(ld->value, ld->alloc * sizeof(*ld->value));
	ld->bs = xrealloc(ld->bs, ld->alloc * sizeof(*ld->bs));
	ld->offset = xrealloc(ld->offset, ld->alloc * sizeof(*ld->offset));
	ld->ddir = xrealloc(ld->ddir, ld->alloc * sizeof(*ld->ddir));
}

static int add_entry(void *arg, const struct log_entry *e)
{
	struct log_data *ld = arg;

	grow(ld);
	ld->t_ms[ld->n] = e->t_ms;
	ld->value[ld->n] = e->value;
	ld->bs[ld->n] = e->bs;
	ld->offset[ld->n] = e->offset;
	ld->ddir[ld->n] = (uint8_t)(e->ddir < DDIR_RWDIR_CNT ? e->ddir : 0);
	ld->has_offset |= e->has_offset;
	ld->n++;
	return 0;
}

int log_field(const char **p, const char *end, uint64_t *v, bool *hex)
{
	const char *s = *p;
	uint64_t x = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	*hex = end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (*hex) {
		char *q;

		x = strtoull(s + 2, &q, 16);
		if (q == s + 2)
			return -1;
		s = q;
	} else {
		const char *d = s;

		for (; s < end && *s >= '0' && *s <= '9'; s++)
			x = x * 10 + (uint64_t)(*s - '0');
		if (s == d)
			return -1;
	}
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s < end && *s != ',')
		return -1;
	*p = s < end ? s + 1 : s;
	*v = x;
	return 0;
}

/*
 * One line into e; the number of fields (4 to 7), or -1. Five fields
 * are bs then prio or offset: decided for the whole file afterwards;
 * seven are offset, prio and fio 3.42's issue time (log_issue_time).
 */
static int parse_line(const char *s, const char *end, uint64_t f[7],
		      bool *hex_last)
{
	int n = 0;

	while (s < end && n < 7) {
		if (log_field(&s, end, &f[n], hex_last))
			return -1;
		n++;
	}
	return s < end || n < 4 ? -1 : n;
}

static int read_text(struct log_data *ld, const char *buf, size_t len,
		     struct strbuf *err)
{
	const char *p = buf, *end = buf + len;
	unsigned long line = 0;
	bool five_offsets = false, any_five = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		struct log_entry en;
		uint64_t f[7];
		bool hex = false;
		int n;

		line++;
		if (e == p || (e == p + 1 && *p == '\r')) {
			p = e + 1;
			continue;
		}
		n = parse_line(p, e, f, &hex);
		if (n < 0) {
			strbuf_addf(err, "%s:%lu: not a log line: expected "
				    "'time, value, direction, block size"
				    "[, offset], priority'", ld->name, line);
			return -1;
		}
		memset(&en, 0, sizeof(en));
		en.t_ms = f[0];
		en.value = f[1];
		en.ddir = (unsigned int)f[2];
		en.bs = f[3];
		en.has_offset = n >= 6;
		en.offset = n >= 6 ? f[4] : 0;
		if (n == 5) {
			/* an old fio's offset, unless it reads as a prio */
			any_five = true;
			five_offsets |= !hex && f[4] > 1;
			en.offset = f[4];
		}
		add_entry(ld, &en);
		p = e + 1;
	}
	if (any_five && !five_offsets)
		memset(ld->offset, 0, ld->n * sizeof(*ld->offset));
	ld->has_offset |= any_five && five_offsets;
	return 0;
}

int log_data_read(struct log_data *ld, const char *path, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	bool fz;
	uint64_t i;
	int ret;

	memset(ld, 0, sizeof(*ld));
	ld->path = xstrdup(path);
	ld->name = xstrdup(slash ? slash + 1 : path);
	if (kind_of(ld->name, &fz, &ld->kind, err))
		goto fail;
	if (fz) {
		if (log_fz_each(path, add_entry, ld, err))
			goto fail;
	} else {
		ret = strbuf_read_file(&buf, path);
		if (ret) {
			strbuf_addf(err, "cannot read '%s': %s", path,
				    strerror(-ret));
			goto fail;
		}
		if (read_text(ld, buf.buf ? buf.buf : "", buf.len, err))
			goto fail;
	}
	/* windows (log_avg_msec) and aggregate lines have bs 0 */
	for (i = 0; i < ld->n && !ld->per_io; i++)
		ld->per_io = ld->bs[i] != 0;
	strbuf_release(&buf);
	return 0;
fail:
	strbuf_release(&buf);
	log_data_release(ld);
	return -1;
}

void log_data_release(struct log_data *ld)
{
	free(ld->path);
	free(ld->name);
	free(ld->t_ms);
	free(ld->value);
	free(ld->bs);
	free(ld->offset);
	free(ld->ddir);
	memset(ld, 0, sizeof(*ld));
}

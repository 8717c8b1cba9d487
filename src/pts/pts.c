/* SPDX-License-Identifier: MIT */
/*
 * `iolite pts TEST TARGET [options]` (pts/pts.h): the command line, the
 * variant's settings and whether each holds here, and the order of the
 * phases: checks, purge, preconditioning, the test loop to steady state
 * (or WSAT's one long run), the reports.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "main.h"
#include "pts/pts_int.h"
#include "util/log.h"
#include "util/num.h"
#include "util/safefile.h"

volatile sig_atomic_t pts_stop;

static void on_signal(int sig)
{
	pts_stop = sig;
}

/* SIGINT and SIGTERM between runs: stop, and report the rounds done */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static const char usage[] =
"usage: iolite pts TEST TARGET [options]\n"
"  SNIA's Solid State Storage Performance Test Specification (doc/pts.md)\n"
"  TEST: iops, tp (throughput), lat (latency): test loops to steady\n"
"        state; wsat (write saturation); hir (host idle recovery);\n"
"        xsr (cross-stimulus recovery); dirth (demand intensity /\n"
"        response time histogram)\n"
"  TARGET: a block device (all of it is overwritten) or a file\n"
"  --variant=enterprise|client  QD32 x 4 threads, 100% range; or QD16 x\n"
"                               2 threads, 75% range (enterprise)\n"
"  --destroy-data               agree that TARGET, a block device, is\n"
"                               overwritten whole\n"
"  --allow-mounted-write        also when it holds a signature (as the job\n"
"                               option allow_mounted_write=1)\n"
"  --purge=auto|format|sanitize|secure-erase|discard|none  the purge\n"
"                               (auto: the first of them the device takes)\n"
"  --precondition=spec|sprandom|none  2 x capacity of 128 KiB sequential\n"
"                               writes (spec); sprandom deviates from it\n"
"  --output=FILE --output-format=normal|json --html=FILE\n"
"  --ioengine=NAME              (libaio, else io_uring, else psync)\n"
"  scaled runs, marked as no PTS result:\n"
"  --round-time=TIME            each cell of a round (60s)\n"
"  --max-rounds=N               5 .. 100 (25)\n"
"  --capacity-limit=SIZE        test the first SIZE bytes only\n"
"  --bs=LIST --mix=LIST         a part of the matrix (4k and 0/100 stay)\n"
"  --wsat-time=TIME             WSAT's limit (24h; or 4 x the range)\n"
"  --hir-cycles=N               HIR's access + wait pairs per state (360)\n"
"  --xsr-time=TIME              XSR's 1st and 3rd access groups (8h; the\n"
"                               2nd 3/4 of it)\n"
"  --max-threads=N              DIRTH: thread counts up to N only (32)\n";

/* "--name=value": value when arg is that option, else NULL */
static const char *opt_val(const char *arg, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n) || arg[n] != '=')
		return NULL;
	return arg + n + 1;
}

static int bad(struct strbuf *err, const char *opt, const char *v,
	       const char *why)
{
	strbuf_addf(err, "pts: option '%s': %s '%s'", opt, why, v);
	return -1;
}

/* --bs=4k,128k / --mix=0/100,65/35: bits of the matrix's indexes */
static int parse_list(const char *opt, const char *v, bool mix,
		      unsigned int *mask, struct strbuf *err)
{
	char *dup = xstrdup(v), *save = NULL, *tok;
	unsigned int k, n = mix ? PTS_NR_MIX : PTS_NR_BS;
	int ret = 0;

	*mask = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char name[16];

		for (k = 0; k < n; k++) {
			if (mix)
				snprintf(name, sizeof(name), "%u/%u",
					 pts_mix_read[k], 100 - pts_mix_read[k]);
			if (!strcmp(tok, mix ? name : pts_bs_name[k]))
				break;
		}
		if (k == n)
			ret = bad(err, opt, tok, mix ? "not one of the spec's "
				  "mixes (100/0 95/5 65/35 50/50 35/65 5/95 "
				  "0/100)" : "not one of the spec's sizes "
				  "(1024k 128k 64k 32k 16k 8k 4k 0.5k)");
		else
			*mask |= 1u << k;
	}
	free(dup);
	return ret;
}

static int parse_time(const char *opt, const char *v, uint64_t *ms,
		      struct strbuf *err)
{
	uint64_t us;

	if (num_parse_time_us(v, 1000000, &us) || us < 1000)
		return bad(err, opt, v, "not a time of 1ms or more");
	*ms = us / 1000;
	return 0;
}

/* --purge=auto|format|sanitize|secure-erase|discard|none */
static int parse_purge(struct pts_cfg *c, const char *v, struct strbuf *err)
{
	static const struct { const char *name; unsigned int bits; } m[] = {
		{ "auto", PURGE_AUTO }, { "format", PURGE_FORMAT },
		{ "sanitize", PURGE_SANITIZE }, { "secure-erase", PURGE_ERASE },
		{ "discard", PURGE_DISCARD }, { "none", 0 },
	};
	unsigned int k;

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		if (!strcmp(v, m[k].name)) {
			c->purge = m[k].bits;
			return 0;
		}
	}
	return bad(err, "--purge", v, "not auto, format, sanitize, "
		   "secure-erase, discard or none:");
}

static int parse_opt(struct pts_cfg *c, const char *a, struct strbuf *err)
{
	const char *v;
	uint64_t n;

	if (!strcmp(a, "--destroy-data"))
		c->destroy = true;
	else if (!strcmp(a, "--allow-mounted-write"))
		c->allow_mounted = true;
	else if ((v = opt_val(a, "--variant"))) {
		if (strcmp(v, "enterprise") && strcmp(v, "client"))
			return bad(err, "--variant", v, "not enterprise or "
				   "client:");
		c->client = !strcmp(v, "client");
	} else if ((v = opt_val(a, "--round-time")))
		return parse_time("--round-time", v, &c->round_ms, err);
	else if ((v = opt_val(a, "--wsat-time")))
		return parse_time("--wsat-time", v, &c->wsat_ms, err);
	else if ((v = opt_val(a, "--xsr-time")))
		return parse_time("--xsr-time", v, &c->xsr_ms, err);
	else if ((v = opt_val(a, "--hir-cycles"))) {
		if (num_parse_u64(v, &n) || n < 1 || n > 100000)
			return bad(err, "--hir-cycles", v, "not a count from 1 "
				   "to 100000:");
		c->hir_cycles = n;
	} else if ((v = opt_val(a, "--max-threads"))) {
		if (num_parse_u64(v, &n) || n < 1 || n > 32)
			return bad(err, "--max-threads", v, "not a count from 1 "
				   "to 32:");
		c->max_threads = n;
	} else if ((v = opt_val(a, "--max-rounds"))) {
		if (num_parse_u64(v, &n) || n < PTS_SS_WINDOW ||
		    n > PTS_MAX_ROUNDS)
			return bad(err, "--max-rounds", v, "not a count from 5 "
				   "to 100:");
		c->max_rounds = n;
	} else if ((v = opt_val(a, "--capacity-limit"))) {
		if (num_parse_size(v, 1024, &n) || n < 1024 * 1024)
			return bad(err, "--capacity-limit", v, "not a size of "
				   "1MiB or more:");
		c->cap_limit = n;
	} else if ((v = opt_val(a, "--precondition"))) {
		c->precond_given = true;
		if (!strcmp(v, "spec"))
			c->precond = PRECOND_SPEC;
		else if (!strcmp(v, "sprandom"))
			c->precond = PRECOND_SPRANDOM;
		else if (!strcmp(v, "none"))
			c->precond = PRECOND_NONE;
		else
			return bad(err, "--precondition", v, "not spec, "
				   "sprandom or none:");
	} else if ((v = opt_val(a, "--purge"))) {
		return parse_purge(c, v, err);
	} else if ((v = opt_val(a, "--output")))
		c->output = v;
	else if ((v = opt_val(a, "--output-format"))) {
		if (strcmp(v, "normal") && strcmp(v, "json"))
			return bad(err, "--output-format", v, "not normal or "
				   "json:");
		c->json = !strcmp(v, "json");
	} else if ((v = opt_val(a, "--html")))
		c->html = v;
	else if ((v = opt_val(a, "--ioengine")))
		c->engine = v;
	else if ((v = opt_val(a, "--bs")))
		return parse_list("--bs", v, false, &c->bs_mask, err);
	else if ((v = opt_val(a, "--mix")))
		return parse_list("--mix", v, true, &c->mix_mask, err);
	else {
		strbuf_addf(err, "pts: unknown option '%s' (iolite pts "
			    "--help)", a);
		return -1;
	}
	return 0;
}

static const char *default_engine(void)
{
#if defined(HAVE_LIBAIO)
	return "libaio";
#elif defined(HAVE_LIBURING)
	return "io_uring";
#else
	return "psync";
#endif
}

static int parse_args(struct pts_cfg *c, int argc, char **argv,
		      struct strbuf *err)
{
	int k, pos = 0;

	memset(c, 0, sizeof(*c));
	c->round_ms = 60000;
	c->max_rounds = PTS_SS_MAX_ROUNDS;
	c->wsat_ms = 24ull * 3600 * 1000;
	c->engine = default_engine();
	c->purge = PURGE_AUTO;
	c->hir_cycles = 360;
	c->xsr_ms = 8ull * 3600 * 1000;
	c->max_threads = 32;
	for (k = 1; k < argc; k++) {
		if (!strncmp(argv[k], "--", 2)) {
			if (parse_opt(c, argv[k], err))
				return -1;
		} else if (pos == 0) {
			c->test_name = argv[k];
			pos++;
		} else if (pos == 1) {
			c->target = argv[k];
			pos++;
		} else {
			strbuf_addf(err, "pts: one TEST and one TARGET, then "
				    "options: '%s' is one too many", argv[k]);
			return -1;
		}
	}
	if (!c->target) {
		strbuf_addstr(err, "pts: a TEST and a TARGET are needed "
			      "(iolite pts --help)");
		return -1;
	}
	if (!strcmp(c->test_name, "iops")) {
		c->test = PTS_IOPS;
	} else if (!strcmp(c->test_name, "tp") ||
		   !strcmp(c->test_name, "throughput")) {
		c->test = PTS_TP;
	} else if (!strcmp(c->test_name, "lat") ||
		   !strcmp(c->test_name, "latency")) {
		c->test = PTS_LAT;
	} else if (!strcmp(c->test_name, "wsat")) {
		c->test = PTS_WSAT;
	} else if (!strcmp(c->test_name, "hir")) {
		c->test = PTS_HIR;
	} else if (!strcmp(c->test_name, "xsr")) {
		c->test = PTS_XSR;
	} else if (!strcmp(c->test_name, "dirth")) {
		c->test = PTS_DIRTH;
	} else {
		strbuf_addf(err, "pts: unknown test '%s' (iops, tp, lat, "
			    "wsat, hir, xsr, dirth)", c->test_name);
		return -1;
	}
	if (c->max_threads != 32 && c->test != PTS_DIRTH) {
		strbuf_addstr(err, "pts: option '--max-threads': only for "
			      "dirth");
		return -1;
	}
	/* WSAT starts from the purged device: no preconditioning */
	if (PTS_NO_WIPC(c->test) && !c->precond_given)
		c->precond = PRECOND_NONE;
	c->threads = c->client ? 2 : 4;
	c->qd = c->client ? 16 : 32;
	c->range_pct = c->client ? 75 : 100;
	return 0;
}

static void setting(struct pts_run *r, const char *name, const char *want,
		    const char *used, bool honoured)
{
	struct pts_setting *s = &r->set[r->nr_set++];

	s->name = name;
	snprintf(s->want, sizeof(s->want), "%s", want);
	snprintf(s->used, sizeof(s->used), "%s", used);
	s->honoured = honoured;
}

/* every loop purged (spec: by a format, sanitize or secure erase) */
static bool all_purged(const struct pts_run *r, bool spec)
{
	unsigned int k;

	for (k = 0; k < r->nr_loops; k++)
		if (!(spec ? r->loop[k].spec_purge : r->loop[k].purged))
			return false;
	return r->nr_loops > 0;
}

/* DIRTH's: the matrix of thread counts by queue depths */
static void dirth_settings(struct pts_run *r, bool async)
{
	char used[256];

	snprintf(used, sizeof(used), "1 to 32 (%s)", r->cfg.engine);
	setting(r, "outstanding I/O per thread", "1 to 32", async ? used :
		"1 (a synchronous engine)", async);
	snprintf(used, sizeof(used), "1 to %u", pts_dirth_n[r->dirth_nr_tc - 1]);
	setting(r, "threads", "1 to 32", used, r->dirth_nr_tc == PTS_DIRTH_NR);
}

/*
 * The settings the spec asks for, and whether each held here. The
 * queue depth and threads are the first loop's (the latency test's are
 * 1 and 1 whatever the variant; WSAT's the variant's).
 */
static void settings(struct pts_run *r)
{
	const struct pts_cfg *c = &r->cfg;
	const struct pts_loop *l = &r->loop[0];
	char want[64], used[256];
	bool async = strcmp(c->engine, "psync") && strcmp(c->engine, "sync") &&
		     strcmp(c->engine, "pvsync") && strcmp(c->engine, "pvsync2");
	bool tp = c->test == PTS_TP || c->test == PTS_XSR;

	if (c->test == PTS_DIRTH) {
		dirth_settings(r, async);
		goto range;
	}
	snprintf(want, sizeof(want), tp ? "operator's choice" : "%u", l->qd);
	snprintf(used, sizeof(used), "%u (%s)", async ? l->qd : 1, c->engine);
	setting(r, "outstanding I/O per thread", want, used,
		async || l->qd == 1);
	snprintf(want, sizeof(want), tp ? "operator's choice" : "%u",
		 l->threads);
	snprintf(used, sizeof(used), "%u", l->threads);
	setting(r, "threads", want, used, true);
range:
	snprintf(want, sizeof(want), "%u%%%s", c->range_pct, c->client ?
		 ": 8 GiB in 2048 segments" : "");
	snprintf(used, sizeof(used), "%u%% of %llu bytes", c->range_pct,
		 (unsigned long long)r->cap);
	if (c->client)
		snprintf(used + strlen(used), sizeof(used) - strlen(used),
			 ": %u segments of %llu bytes, at random, apart",
			 r->seg_n, (unsigned long long)r->seg_size);
	setting(r, "active range", want, used, !c->cap_limit &&
		(!c->client || (r->seg_n == PTS_SEGS &&
				r->seg_size == PTS_SEG_AMOUNT / PTS_SEGS)));
	if (r->dev.cache_set)
		snprintf(used, sizeof(used), "%s", r->dev.cache_how);
	else if (!r->dev.blockdev)
		snprintf(used, sizeof(used), "unknown (a file)");
	else if (r->dev.cache[0])
		snprintf(used, sizeof(used), "%s (not changed: %.200s)",
			 r->dev.cache, r->dev.cache_how[0] ? r->dev.cache_how :
			 "iolite switches an NVMe namespace's and a SCSI or "
			 "SATA disk's");
	else
		snprintf(used, sizeof(used), "unknown");
	setting(r, "write cache", c->client ? "on" : "off", used,
		r->dev.cache_set || (r->dev.blockdev &&
				     !strcmp(r->dev.cache, c->client ?
					     "write back" : "write through")));
	setting(r, "data pattern", "random", "random (iolite's default "
		"buffers)", true);
	setting(r, "direct I/O", "yes", "yes (direct=1)", true);
	setting(r, "purge", "secure erase, sanitize or format",
		r->nr_loops && r->loop[0].method ? r->loop[0].method : "none",
		all_purged(r, true));
}

/*
 * The client's ActiveRange segments: 2048 of 4 MiB (8 GiB) where the
 * range has room for them apart; else (a scaled run) segments of the
 * test's largest block or of a 2 x 2048th of the range, whichever is
 * more, and as many of them as fit apart. Each a multiple of every
 * block size the test runs (powers of two up to its largest).
 */
static void segments_setup(struct pts_run *r)
{
	uint64_t size = PTS_SEG_AMOUNT / PTS_SEGS, maxbs = 4096, fit;
	unsigned int k, b;

	if (!r->cfg.client)
		return;
	if (r->cfg.test == PTS_XSR)	/* its 8k random writes */
		maxbs = 8192;
	for (k = 0; k < r->nr_loops; k++)
		for (b = 0; b < PTS_NR_BS; b++)
			if (r->loop[k].bs_mask & 1u << b && pts_bs[b] > maxbs)
				maxbs = pts_bs[b];
	if (r->range / size < 2 * PTS_SEGS - 1) {
		size = r->range / (2 * PTS_SEGS) / maxbs * maxbs;
		if (size < maxbs)
			size = maxbs;
	}
	fit = (r->range / size + 1) / 2;
	r->seg_n = fit < PTS_SEGS ? (unsigned int)fit : PTS_SEGS;
	r->seg_size = size;
}

/* Why this run is no PTS result, for every report. */
static void scaled_reasons(struct pts_run *r)
{
	const struct pts_cfg *c = &r->cfg;

	if (c->round_ms != 60000)
		notes_add(&r->scaled, "--round-time: each cell ran %.3f s "
			  "(the spec: 60 s)", c->round_ms / 1000.0);
	if (c->max_rounds != PTS_SS_MAX_ROUNDS)
		notes_add(&r->scaled, "--max-rounds=%u (the spec: 25)",
			  c->max_rounds);
	if (c->cap_limit)
		notes_add(&r->scaled, "--capacity-limit: %llu of the target's "
			  "%llu bytes", (unsigned long long)r->cap,
			  (unsigned long long)r->dev.size);
	if (c->mix_mask || c->bs_mask)
		notes_add(&r->scaled, "--bs/--mix: a part of the matrix");
	if (!r->dev.blockdev)
		notes_add(&r->scaled, "the target is a file, not a device");
	if (!all_purged(r, false))
		notes_add(&r->scaled, "the device was not purged");
	else if (!all_purged(r, true))
		notes_add(&r->scaled, "purged by a discard, not the spec's "
			  "secure erase, sanitize or format");
	if (!PTS_NO_WIPC(c->test) ? c->precond != PRECOND_SPEC :
	    c->precond != PRECOND_NONE)
		notes_add(&r->scaled, "--precondition=%s", c->precond ==
			  PRECOND_NONE ? "none" : c->precond == PRECOND_SPEC ?
			  "spec" : "sprandom");
	if (c->test == PTS_HIR && c->hir_cycles != 360)
		notes_add(&r->scaled, "--hir-cycles=%u (the spec: 360)",
			  c->hir_cycles);
	if (c->test == PTS_XSR && c->xsr_ms != 8ull * 3600 * 1000)
		notes_add(&r->scaled, "--xsr-time: %.3f s (the spec: 8 h, then "
			  "6 h and 8 h)", c->xsr_ms / 1000.0);
	if (c->client && r->seg_size != PTS_SEG_AMOUNT / PTS_SEGS)
		notes_add(&r->scaled, "ActiveRange segments: %u of %llu bytes "
			  "(the spec: 2048 of 4 MiB, 8 GiB)", r->seg_n,
			  (unsigned long long)r->seg_size);
	if (c->test == PTS_DIRTH && c->max_threads != 32)
		notes_add(&r->scaled, "--max-threads=%u: thread counts up to "
			  "%u (the spec: 32)", c->max_threads,
			  pts_dirth_n[r->dirth_nr_tc - 1]);
	if (c->test == PTS_WSAT && c->wsat_ms != 24ull * 3600 * 1000)
		notes_add(&r->scaled, "--wsat-time: %.3f s (the spec: 24 h or "
			  "4 x the capacity)", c->wsat_ms / 1000.0);
}

static FILE *open_out(const char *path, const char *opt, const char *target)
{
	const char *why;
	FILE *f;

	if (sf_same_file(path, target))
		die("pts: option '%s': '%s' is the target", opt, path);
	f = sf_fopen_w(path, SF_NAMED, &why);
	if (!f)
		die("pts: option '%s': cannot open '%s': %s", opt, path, why);
	return f;
}

/*
 * A test loop: its purge and preconditioning, then rounds until steady
 * state or the limit.
 */
static int test_loop(struct pts_run *r, struct pts_loop *l, pts_run_fn run,
		     struct strbuf *err)
{
	unsigned int round;

	pts_purge(r, l);
	pts_cache_apply(r);	/* after the purge: a format may reset it */
	if (pts_precondition(r, l, run, err))
		return -1;
	if (r->cfg.test == PTS_WSAT)
		return pts_wsat(r, run, err);
	if (r->cfg.test == PTS_XSR)
		return pts_xsr(r, run, err);
	l->cell = xcalloc(r->cfg.max_rounds, sizeof(*l->cell));
	if (l->dirth) {
		r->dcell = xcalloc(r->cfg.max_rounds, sizeof(*r->dcell));
		l->dirth_tc = pts_dirth_n[r->dirth_nr_tc - 1];
	}
	for (round = 1; round <= r->cfg.max_rounds; round++) {
		if (pts_round(r, l, run, round, err)) {
			pts_window_avg(l);
			if (l->dirth)
				pts_dirth_avg(r, l);
			return -1;
		}
		if (pts_ss_done(l->track, round, r->cfg.max_rounds, &l->ss)) {
			l->have_ss = true;
			break;
		}
	}
	pts_window_avg(l);
	if (l->dirth) {
		pts_dirth_avg(r, l);
		return pts_dirth_runs(r, run, err);
	}
	if (r->cfg.test == PTS_HIR)
		return pts_hir(r, run, err);
	return 0;
}

static struct pts_loop *add_loop(struct pts_run *r, const char *name,
				 unsigned int mixes, unsigned int sizes,
				 enum pts_metric m, unsigned int track_bs)
{
	struct pts_loop *l = &r->loop[r->nr_loops++];

	l->name = name;
	l->mix_mask = mixes;
	l->bs_mask = sizes;
	l->metric = m;
	l->track_mix = PTS_MIX_W100;
	l->track_bs = track_bs;
	l->qd = r->cfg.qd;
	l->threads = r->cfg.threads;
	return l;
}

#define BIT(n) (1u << (n))

/*
 * The test's loops, cut to --bs and --mix. The throughput test runs one
 * loop per block size, sequential, one thread (several would each start
 * at the range's start: no longer one sequential stream); the latency
 * test one outstanding I/O on one thread.
 */
static int loops_setup(struct pts_run *r, struct strbuf *err)
{
	const struct pts_cfg *c = &r->cfg;
	unsigned int all = BIT(PTS_NR_MIX) - 1, k, n = 0;
	struct pts_loop *l;

	switch (c->test) {
	case PTS_IOPS:
		add_loop(r, "IOPS", all, BIT(PTS_NR_BS) - 1, MET_IOPS,
			 PTS_BS_4K);
		break;
	case PTS_TP:
		l = add_loop(r, "throughput 1024k", BIT(PTS_MIX_R100) |
			     BIT(PTS_MIX_W100), BIT(PTS_BS_1M), MET_BW,
			     PTS_BS_1M);
		l->seq = true;
		l->threads = 1;
		l = add_loop(r, "throughput 128k", l->mix_mask,
			     BIT(PTS_BS_128K), MET_BW, PTS_BS_128K);
		l->seq = true;
		l->threads = 1;
		break;
	case PTS_LAT:
		l = add_loop(r, "latency", BIT(PTS_MIX_R100) |
			     BIT(PTS_MIX_6535) | BIT(PTS_MIX_W100),
			     BIT(PTS_BS_8K) | BIT(PTS_BS_4K) | BIT(PTS_BS_512),
			     MET_LAT, PTS_BS_4K);
		l->qd = l->threads = 1;
		break;
	case PTS_WSAT:
		add_loop(r, "WSAT", 0, 0, MET_IOPS, 0);
		return 0;
	case PTS_XSR:	/* one thread, as the throughput test */
		l = add_loop(r, "XSR", 0, 0, MET_BW, 0);
		l->threads = 1;
		return 0;
	case PTS_DIRTH:	/* 4k random 65:35: TC x QD, tracking TC32/QD32 */
		l = add_loop(r, "DIRTH", BIT(PTS_MIX_6535), BIT(PTS_BS_4K),
			     MET_IOPS, PTS_BS_4K);
		l->track_mix = PTS_MIX_6535;
		l->dirth = true;
		break;
	case PTS_HIR:	/* 4k random writes to steady state, then HIR */
		add_loop(r, "HIR: 4k random write to steady state",
			 BIT(PTS_MIX_W100), BIT(PTS_BS_4K), MET_IOPS,
			 PTS_BS_4K);
		break;
	}
	for (k = 0; k < r->nr_loops; k++) {
		l = &r->loop[k];
		if (c->mix_mask)
			l->mix_mask &= c->mix_mask;
		if (c->bs_mask)
			l->bs_mask &= c->bs_mask;
		if (!(l->bs_mask & BIT(l->track_bs)))
			continue;	/* a size --bs left out */
		if (!(l->mix_mask & BIT(l->track_mix))) {
			strbuf_addf(err, "pts: option '--mix': the matrix "
				    "must keep %s, the tracked mix",
				    l->dirth ? "65/35" : "0/100");
			return -1;
		}
		r->loop[n++] = *l;
	}
	r->nr_loops = n;
	if (!n) {
		strbuf_addf(err, "pts: option '--bs': the matrix must keep "
			    "the tracked block size (%s)", c->test == PTS_TP ?
			    "1024k or 128k" : "4k");
		return -1;
	}
	return 0;
}

static int prepare(struct pts_run *r, int argc, char **argv, pts_run_fn run)
{
	struct strbuf err = STRBUF_INIT;
	struct pts_cfg *c = &r->cfg;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (parse_args(c, argc, argv, &err) || loops_setup(r, &err) ||
	    pts_dev_open(r, &err))
		die("%s", err.buf);
	r->cap = r->dev.size;
	if (c->cap_limit && (!r->cap || c->cap_limit < r->cap))
		r->cap = c->cap_limit;
	/* whole MiBs, so that every block size of the matrix fits */
	r->range = r->cap * c->range_pct / 100 / (1 << 20) * (1 << 20);
	if (r->range < (1 << 20))
		die("pts: '%s': %llu bytes are too few to test (1 MiB at "
		    "least)", c->target, (unsigned long long)r->cap);
	r->wsat_interval_ms = c->round_ms;
	segments_setup(r);
	while (r->dirth_nr_tc < PTS_DIRTH_NR &&
	       pts_dirth_n[r->dirth_nr_tc] <= c->max_threads)
		r->dirth_nr_tc++;
	/* HIR's access period: 5 s of the spec's 60 s rounds */
	r->hir_access_ms = c->round_ms / 12 ? c->round_ms / 12 : 1;
	if (pts_dev_safety(r, &err) || pts_check_jobs(r, run, &err))
		die("%s", err.buf);
	strbuf_release(&err);
	return 1;
}

int pts_main(int argc, char **argv,
	     int (*run)(int argc, char **argv, const struct main_hooks *h))
{
	struct pts_run r;
	struct strbuf err = STRBUF_INIT;
	FILE *out = stdout, *html = NULL;
	time_t now = time(NULL);
	unsigned int k;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	if (!prepare(&r, argc, argv, run))
		return 0;
	if (r.cfg.output)
		out = open_out(r.cfg.output, "--output", r.cfg.target);
	if (r.cfg.html)
		html = open_out(r.cfg.html, "--html", r.cfg.target);
	strftime(r.when, sizeof(r.when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	catch_signals();
	r.dev.cache_was = -1;
	r.dev.guard = -1;
	for (k = 0; k < r.nr_loops && !ret; k++)
		if (test_loop(&r, &r.loop[k], run, &err))
			ret = 1;
	pts_cache_restore(&r);
	settings(&r);
	scaled_reasons(&r);
	if (r.later_notes)
		notes_add(&r.notes, "the runs after the first round made %u "
			  "more notes, not listed: each runs jobs like the "
			  "first round's", r.later_notes);
	if (r.interrupted)
		notes_add(&r.notes, "interrupted: the report covers the rounds "
			  "done");
	if ((r.cfg.json ? pts_report_json(&r, out) : pts_report_text(&r, out)) ||
	    (html && pts_report_html(&r, html)))
		ret = 1;
	if ((out != stdout && fclose(out)) || (html && fclose(html))) {
		error("pts: cannot write the report: %s", strerror(errno));
		ret = 1;
	}
	if (ret && err.len && !r.interrupted)
		error("%s", err.buf);
	strbuf_release(&err);
	notes_release(&r.notes);
	notes_release(&r.scaled);
	for (k = 0; k < r.nr_loops; k++)
		free(r.loop[k].cell);
	free(r.dcell);
	/* interrupted: 128 + the signal, as a run's */
	return r.interrupted ? 128 + (pts_stop ? (int)pts_stop : SIGINT) :
			       ret;
}

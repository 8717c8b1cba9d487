/* SPDX-License-Identifier: MIT */
/*
 * `iolite plot FILE... [-o report.html] [--format=html|svg] [--top=N]`:
 * the command line of plot/logplot.h. main() hands over argv from
 * "plot" on; the exit status is 0, or 1 after a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "plot/logplot.h"
#include "util/log.h"

static const char plot_usage[] =
"usage: iolite plot [options] FILE...\n"
"\n"
"Pictures from saved results: fio's and iolite's JSON and json+ reports\n"
"(the charts of --output-format=html; a sweep's figures against the swept\n"
"value; repeats), iolite's interval streams (--interval-output: IOPS,\n"
"bandwidth and each interval's clat percentiles over time), and\n"
"fio-format latency, bandwidth and IOPS log files\n"
"(write_lat_log, write_bw_log, write_iops_log; iolite's or fio's, plain or\n"
".fz) as time series, latency by percentile and the slowest I/Os, and\n"
"histogram logs (write_hist_log) as each window's percentiles over time.\n"
"Several files of any kind make one page. JSON needs jansson\n"
"(libjansson-dev).\n"
"\n"
"  -o, --output=FILE   the page (html: default stdout); with svg, the\n"
"                      directory for the charts, one .svg file each\n"
"  --format=FORMAT     html (one self-contained page) or svg\n"
"  --top=N             the slowest I/Os listed and marked (20)\n"
"  -h, --help          this text\n";

/* "--name=value" or "--name value" (and -o value): the value, or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (!strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (!strcmp(a, name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse(int argc, char **argv, struct plot_opts *o,
		 const char **files, unsigned int *nr)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if ((v = opt_value(argc, argv, &i, "--output")) ||
		    (v = opt_value(argc, argv, &i, "-o"))) {
			o->out = v;
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			if (strcmp(v, "html") && strcmp(v, "svg")) {
				error("plot: option '--format': unknown format '%s' (valid: html, svg)", v);
				return -1;
			}
			o->format = strcmp(v, "svg") ? PLOT_HTML : PLOT_SVG;
		} else if ((v = opt_value(argc, argv, &i, "--top"))) {
			char *end;
			unsigned long n = strtoul(v, &end, 10);

			if (*end || !*v || n > 100000) {
				error("plot: option '--top': '%s' is not a count (0 to 100000)", v);
				return -1;
			}
			o->top = (unsigned int)n;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(plot_usage, stdout);
			exit(0);
		} else if (a[0] == '-' && a[1]) {
			error("plot: unknown option '%s' (see iolite plot --help)", a);
			return -1;
		} else {
			files[(*nr)++] = a;
		}
	}
	return 0;
}

int cli_plot(int argc, char **argv)
{
	struct plot_opts o = { PLOT_HTML, NULL, 20 };
	const char **files = xcalloc((size_t)argc + 1, sizeof(*files));
	struct strbuf err = STRBUF_INIT;
	unsigned int nr = 0;
	struct stat st;
	int ret = 1;

	if (parse(argc, argv, &o, files, &nr))
		goto out;
	if (!nr) {
		error("plot: no files to plot (see iolite plot --help)");
		goto out;
	}
	if (o.format == PLOT_SVG && (!o.out || stat(o.out, &st) ||
				      !S_ISDIR(st.st_mode))) {
		error("plot: option '--format=svg' writes a file per chart into "
		      "the directory -o names%s%s%s", o.out ? ": '" : "",
		      o.out ? o.out : "", o.out ? "' is not a directory" : "");
		goto out;
	}
	if (plot_files(files, nr, &o, &err))
		error("plot: %s", strbuf_str(&err));
	else
		ret = 0;
out:
	free(files);
	strbuf_release(&err);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-report.c - `ukbench report BASE OTHER [OTHER...] [PATTERN...]` and
 * `ukbench report --history [PATTERN...]`: a comparison or a history as a
 * page that stands alone (HTML, gnuplot's plots inline) or as markdown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "filter-opts.h"
#include "cmp-floor.h"
#include "comparison.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "runref.h"
#include "series-load.h"

enum {
	O_FORMAT = 1,
};

struct report_opts {
	const char *output, *gnuplot, *db;
	int markdown, history, no_plots, all;
	struct cmp_opts c;
	double floor_pct;
	int no_floor;
	struct store_filter f;
	unsigned long window;
	const char *cmp_only, *hist_only; /* an option given that one mode takes */
};

static const struct opt report_opts_table[] = {
	OPT_STRING(
	    "output", 'o', "FILE",
	    "write the report to FILE ('-': standard output; an HTML\nreport is not written to a "
	    "terminal)",
	    struct report_opts, output),
	OPT_CALL("format", 'f', "html|markdown", "html (default) or markdown", O_FORMAT),
	OPT_BOOL("history", 0,
		 "each matching path over the stored runs, per host,\nwith change points",
		 struct report_opts, history),
	OPT_STRING("gnuplot", 0, "PROGRAM", "the gnuplot to draw with (default: gnuplot in PATH)",
		   struct report_opts, gnuplot),
	OPT_BOOL("no-plots", 0, "tables only", struct report_opts, no_plots),
	OPT_PERCENT("threshold", 't', "PCT", "noise threshold, or smallest step, in %", 0, 1000,
		    struct report_opts, c.threshold, OPT_DEF(CMP_DEF_TEXT(CMP_THRESHOLD_PCT))),
	OPT_DOUBLE("alpha", 0, "P", "significance level of a comparison", 1e-9, 0.5,
		   struct report_opts, c.alpha, OPT_DEF(CMP_DEF_TEXT(CMP_ALPHA_DEF)),
		   OPT_NAMED(struct report_opts, cmp_only)),
	OPT_BOOL("all", 0, "pool every run of a label (one observation per boot)",
		 struct report_opts, all, OPT_NAMED(struct report_opts, cmp_only)),
	OPT_DOUBLE("floor", 0, "PCT", "variation between runs to add to each interval, in %", 0,
		   100, struct report_opts, floor_pct, OPT_NAMED(struct report_opts, cmp_only)),
	OPT_BOOL("no-floor", 0, "add no floor", struct report_opts, no_floor,
		 OPT_NAMED(struct report_opts, cmp_only)),
	OPT_BOOL("force", 0, "compare paths whose settings differ, marked", struct report_opts,
		 c.force, OPT_NAMED(struct report_opts, cmp_only)),
	OPT_BOOL("raw", 0, "compare the measured means (no reference)", struct report_opts, c.raw,
		 OPT_NAMED(struct report_opts, cmp_only)),
	FILTER_OPTS(struct report_opts, f, "--history: "),
	OPT_ULONG("window", 'w', "N", "--history: runs on each side of a boundary", 1, 1000,
		  struct report_opts, window, OPT_DEF("5"),
		  OPT_NAMED(struct report_opts, hist_only)),
	OPT_STRING("db", 0, "PATH", "the results database", struct report_opts, db),
	OPT_END,
};

const struct command cmd_report_def = {
	.name = "report",
	.fn = cmd_report,
	.summary = "a comparison or a history as a page with plots, or markdown",
	.synopsis = "[options] -o FILE BASE OTHER [OTHER...] [PATTERN...]\n"
		    "       ukbench report [options] -o FILE --history [PATTERN...]",
	.about = "Writes one HTML page that stands alone (it opens from disk, without a\n"
		 "network; the plots are inline) or, with --format markdown, a document for\n"
		 "a mail or a review.\n"
		 "\n"
		 "A comparison (runs named as for compare) shows both sides, the method, a\n"
		 "table of every path (change, 95% CI, MDE, p, verdict, as compare prints\n"
		 "them), the two environments line by line with the lines that differ\n"
		 "highlighted (kernel, command line, mitigations, clocksource, governor, CPU,\n"
		 "C library, compiler, ukbench), and for each path a plot of each side's\n"
		 "process means: a box, the points, the mean with its 95% CI.\n"
		 "\n"
		 "--history plots each matching path over the stored runs, one series a\n"
		 "host, each run's mean with its CI, change points marked as history finds\n"
		 "them.\n"
		 "\n"
		 "The plots are drawn by gnuplot (Debian's gnuplot-nox); without it the\n"
		 "report has its tables and says what the plots need. Markdown has text\n"
		 "plots instead. Every string from a run is escaped.",
	.opts = report_opts_table,
	.old = (const struct opt_old[]){ FILTER_OLD, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench report -o report.html before after\n"
		  "  ukbench report -o vdso.html before after 'time.*/vdso'\n"
		  "  ukbench report -f markdown before after > report.md\n"
		  "  ukbench report --history -o history.html syscall.null\n",
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct report_opts *o = ctx;

	if (id != O_FORMAT)
		return -1;
	if (!strcmp(arg, "html") || !strcmp(arg, "markdown") || !strcmp(arg, "md")) {
		o->markdown = arg[0] == 'm';
		return 0;
	}
	error("unknown format '%s': html or markdown", arg);
	return -1;
}

/* Where the report goes: -o, else standard output unless HTML to a terminal. */
static int check_output(struct report_opts *o)
{
	if (o->output && !o->output[0]) {
		error("--output needs a file name, got an empty one ('-o -' is standard output)");
		return -1;
	}
	if (o->output)
		return 0;
	if (!o->markdown && isatty(STDOUT_FILENO)) {
		error("an HTML report is a file: name it with -o (ukbench report -o report.html "
		      "...), or '-o -' for standard output");
		return -1;
	}
	o->output = "-";
	return 0;
}

/* Writes @text to o->output whole; 0 or -1 (printed). */
static int deliver(const struct report_opts *o, char *text, size_t len)
{
	struct outfile of;

	if (outfile_open_shared(&of, o->output, "--output", "the report") ||
	    outfile_commit(&of, text, len))
		return -1;
	return 0;
}

static void plots_warning(const struct report_plots *p, int markdown)
{
	if (!markdown && p->why[0] && !p->off)
		warning("the report has no plots: %s", p->why);
}

static int report_compare(struct report_opts *o, struct store *st, int argc, char **argv, FILE *m)
{
	struct rec_run *runs = calloc((size_t)argc, sizeof(*runs));
	char(*desc)[256] = calloc((size_t)argc, sizeof(*desc));
	struct report_cmp *cmps = calloc((size_t)argc, sizeof(*cmps));
	struct floor_choice *fc = calloc((size_t)argc, sizeof(*fc));
	char(*floor_text)[512] = calloc((size_t)argc, sizeof(*floor_text));
	struct cmp_opts *co = calloc((size_t)argc, sizeof(*co));
	struct report_plots p = { .gnuplot = o->gnuplot, .off = o->no_plots };
	int nrun = 2, ret = UKB_EXIT_USAGE, loaded = 0;

	if (!runs || !desc || !cmps || !fc || !co || !floor_text) {
		error("%s", strerror(ENOMEM));
		goto out;
	}
	while (nrun < argc && runref_names_run(st, argv[nrun]))
		nrun++;
	for (; loaded < nrun; loaded++)
		if (runref_load(st, argv[loaded], o->all ? RUNREF_ALL : RUNREF_BOOT, &runs[loaded],
				desc[loaded], sizeof(desc[loaded])))
			goto out;
	ret = UKB_EXIT_OK;
	for (int i = 1; i < nrun; i++) {
		struct report_cmp *r = &cmps[i - 1];
		struct cmp_row *rows;
		size_t n;

		fc[i] = (struct floor_choice){ .pct = o->floor_pct, .none = o->no_floor };
		cmp_choose_floor(&fc[i], st, &runs[0], &runs[i]);
		if (fc[i].error[0])
			warning("%s", fc[i].error);
		cmp_floor_describe(&fc[i], floor_text[i], sizeof(floor_text[i]));
		co[i] = o->c;
		co[i].floor = 0; /* each path carries its own */
		compare_runs(&runs[0], &runs[i], &co[i], &rows, &n);
		if (!rows) {
			error("out of memory comparing the runs");
			ret = UKB_EXIT_FAIL;
			goto out;
		}
		n = cmp_keep_matching(rows, n, argv + nrun, argc - nrun);
		*r = (struct report_cmp){ .a = &runs[0],
					  .b = &runs[i],
					  .desc_a = desc[0],
					  .desc_b = desc[i],
					  .rows = rows,
					  .n = n,
					  .o = &co[i],
					  .floor_from = floor_text[i] };
		{
			size_t both = 0;

			for (size_t k = 0; k < n; k++)
				both += rows[k].ok;
			if (!both) {
				error("%s and %s share no measured benchmark path%s", desc[0],
				      desc[i], argc > nrun ? " that matches" : "");
				ret = UKB_EXIT_USAGE;
			}
		}
	}
	if (ret == UKB_EXIT_OK) {
		int w = o->markdown ? report_md_compare(m, cmps, (size_t)nrun - 1)
				    : report_html_compare(m, cmps, (size_t)nrun - 1, &p);

		if (w) {
			error("writing the report: %s", strerror(ENOMEM));
			ret = UKB_EXIT_FAIL;
		}
		plots_warning(&p, o->markdown);
	}
out:
	for (int i = 0; cmps && i + 1 < nrun; i++)
		free((void *)cmps[i].rows);
	for (int i = 0; runs && i < loaded; i++)
		rec_run_release(&runs[i]);
	free(runs);
	free(desc);
	free(cmps);
	free(fc);
	free(floor_text);
	free(co);
	return ret;
}

static int report_history(struct report_opts *o, struct store *st, const char *path, int argc,
			  char **argv, FILE *m)
{
	struct series_set set;
	struct series_opts so = { .filter = &o->f,
				  .pats = argv,
				  .npats = argc,
				  .window = o->window,
				  .alpha = 0.01,
				  .threshold = o->c.threshold };
	struct report_hist h = { .set = &set,
				 .pats = argv,
				 .npats = argc,
				 .label = o->f.label,
				 .host = o->f.host,
				 .window = o->window,
				 .alpha = so.alpha,
				 .threshold = so.threshold };
	struct report_plots p = { .gnuplot = o->gnuplot, .off = o->no_plots };
	char err[1024];
	int ret = UKB_EXIT_OK;

	if (series_load(st, &so, &set, err, sizeof(err)) ||
	    floor_series(st, &set, &so, err, sizeof(err))) {
		error("%s", err);
		series_release(&set);
		return UKB_EXIT_FAIL;
	}
	if (!set.n) {
		if (argc)
			error("no stored result matches '%s'%s", argv[0],
			      argc > 1 ? " or the other patterns" : "");
		else
			error("no stored results in %s; 'ukbench run' stores them", path);
		ret = UKB_EXIT_USAGE;
	} else if (o->markdown ? report_md_history(m, &h) : report_html_history(m, &h, &p)) {
		error("writing the report: %s", strerror(ENOMEM));
		ret = UKB_EXIT_FAIL;
	} else {
		plots_warning(&p, o->markdown);
	}
	series_release(&set);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .c = cmp_defaults(), .floor_pct = -1 };
	struct store *st = NULL;
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *m;
	int first, ret;

	ret = opts_parse(&cmd_report_def, argc, argv, 0, set_option, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (o.history && o.cmp_only) {
		error("--%s is for a comparison; --history does not take it", o.cmp_only);
		return UKB_EXIT_USAGE;
	}
	/* the runs --history selects: a comparison names its own */
	if (o.f.label || o.f.host || o.f.kernel || o.f.since || o.f.until)
		o.hist_only = o.f.label	   ? "with-label"
			      : o.f.host   ? "host"
			      : o.f.kernel ? "kernel"
			      : o.f.since  ? "since"
					   : "until";
	if (!o.history && o.hist_only) {
		error("--%s selects runs for --history; a comparison names its runs", o.hist_only);
		return UKB_EXIT_USAGE;
	}
	if (!o.history && argc - first < 2) {
		error("'ukbench report' needs a base run and at least one other, or --history; see "
		      "'ukbench report --help'");
		return UKB_EXIT_USAGE;
	}
	if (check_output(&o))
		return UKB_EXIT_USAGE;
	ret = store_open_cli_reader(o.db, path, sizeof(path), &st);
	if (ret < 0 || (ret > 0 && o.history)) {
		if (ret > 0)
			error("no stored results in %s; 'ukbench run' stores them", path);
		return UKB_EXIT_USAGE;
	}
	m = open_memstream(&text, &len);
	if (!m) {
		error("%s", strerror(ENOMEM));
		store_close(st);
		return UKB_EXIT_FAIL;
	}
	if (o.history)
		ret = report_history(&o, st, path, argc - first, argv + first, m);
	else
		ret = report_compare(&o, st, argc - first, argv + first, m);
	if (fclose(m) && ret == UKB_EXIT_OK) {
		error("writing the report: %s", strerror(ENOMEM));
		ret = UKB_EXIT_FAIL;
	}
	if (ret == UKB_EXIT_OK && deliver(&o, text, len))
		ret = UKB_EXIT_FAIL;
	free(text);
	store_close(st);
	return ret;
}

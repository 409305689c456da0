// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-history.c - `ukbench history [PATTERN...]`: each benchmark path over
 * the stored runs, per host, oldest first, with change points marked and
 * the size of each step.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmp-floor.h"
#include "filter-opts.h"
#include "json-write.h"
#include "kcidb-opts.h"
#include "options.h"
#include "output.h"
#include "rows.h"
#include "width.h"
#include "runref.h"
#include "series-load.h"
#include "series-plot.h"

/* --format: the rows' formats, then KCIDB's */
#define HIST_FORMATS ROWS_FORMATS "|kcidb"
#define HIST_KCIDB   (ROWS_CSV + 1)

/* Without a pattern, more series than this are summarised a line each (-v: all). */
#define SUMMARY_OVER 4

struct history_opts {
	struct store_filter f;
	const char *db;
	unsigned long window;
	double threshold;
	int fmt; /* enum rows_fmt, or HIST_KCIDB */
	struct kcidb_ids kcidb;
	int wide, plot, verbose;
};

static const struct opt history_opts[] = {
	FILTER_OPTS(struct history_opts, f, ""),
	OPT_ULONG("window", 'w', "N", "runs on each side of a boundary", 1, 1000,
		  struct history_opts, window, OPT_DEF("5")),
	OPT_PERCENT("threshold", 't', "PCT", "smallest step to mark, in %", 0, 1000,
		    struct history_opts, threshold, OPT_DEF("1")),
	OPT_STRING("db", 0, "PATH", "the results database", struct history_opts, db),
	OPT_CHOICE("format", 'f', HIST_FORMATS,
		   "table (default), json or csv: one row per point;\nkcidb: a KCIDB v5 test per "
		   "point (the run's own,\nits change point under misc)",
		   struct history_opts, fmt),
	KCIDB_OPTS(struct history_opts, kcidb),
	OPT_BOOL(
	    "wide", 'W',
	    "every column (the CI, the full time) on one line a run;\notherwise the table fits "
	    "the terminal, or 80 columns",
	    struct history_opts, wide),
	OPT_BOOL("plot", 0,
		 "a sparkline of each series instead of the table, change\npoints marked under it",
		 struct history_opts, plot),
	OPT_BOOL(
	    "verbose", 'v',
	    "every series in full; without a pattern, more than four\nare otherwise a line each",
	    struct history_opts, verbose),
	OPT_END,
};

const struct command cmd_history_def = {
	.name = "history",
	.fn = cmd_history,
	.summary = "a benchmark over the stored runs, with change points",
	.synopsis = "[options] [PATTERN...]",
	.about = "Prints the series of each matching benchmark path over the stored runs,\n"
		 "one series per host, oldest first: run, time, label, kernel, mean ns per\n"
		 "call and its CI, the change from the previous run, and change points.\n"
		 "\n"
		 "Change points: at each boundary between two runs with a full window of\n"
		 "runs on each side, the run means of the window before it are compared with\n"
		 "those of the window after it (Mann-Whitney, exact); a boundary is marked\n"
		 "when p < 0.01, the step between the windows' median run means is at least\n"
		 "the threshold, and no such boundary within a window separates the means of\n"
		 "its windows more (the medians size a step, the means place it). One run\n"
		 "that stands out moves one rank, and is not a step; the last window-1 runs\n"
		 "cannot show one yet.",
	.opts = history_opts,
	.old = (const struct opt_old[]){ FILTER_OLD, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench history time.clock_gettime.monotonic/vdso\n"
		  "  ukbench history --with-label 'nightly-*' syscall.null\n"
		  "  ukbench history --plot 'syscall.*'\n"
		  "  ukbench history --format csv syscall.null > series.csv\n",
};

/*
 * A line a series: where it starts and ends, and its change points;
 * @compact (under 80 columns): without the host and the first figure.
 */
static void print_summary(const struct series_set *set, int compact)
{
	printf("%zu series over %zu runs; a pattern (or -v) shows each in full:\n\n", set->n,
	       set->nruns);
	if (compact)
		printf("%-30s %4s %9s %8s %5s\n", "benchmark/path", "runs", "last ns", "change",
		       "steps");
	else
		printf("%-30s %-8s %4s %9s %9s %8s %5s\n", "benchmark/path", "host", "runs",
		       "first ns", "last ns", "change", "steps");
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->s[i];
		double a = s->pts[0].p->mean, b = s->pts[s->n - 1].p->mean;
		char name[300], vn[600], vh[300], fa[32], fb[32], ch[32];

		snprintf(name, sizeof(name), "%s/%s", s->name, s->path);
		vis(name, vn, sizeof(vn));
		vis(s->host, vh, sizeof(vh));
		format_ns(fa, sizeof(fa), a);
		format_ns(fb, sizeof(fb), b);
		if (a > 0 && isfinite(b))
			snprintf(ch, sizeof(ch), "%+.2f%%", 100 * (b / a - 1));
		else
			snprintf(ch, sizeof(ch), "-");
		/* a name longer than its column keeps its end, where the path is;
		 * cut with …, since ~ marks another state of the machine */
		if (compact)
			printf("%s%-*s %4zu %9s %8s %5zu\n", strlen(vn) > 30 ? "…" : "",
			       strlen(vn) > 30 ? 29 : 30,
			       strlen(vn) > 30 ? vn + strlen(vn) - 29 : vn, s->n, fb, ch,
			       s->nchange);
		else
			printf("%s%-*s %-8.8s %4zu %9s %9s %8s %5zu\n", strlen(vn) > 30 ? "…" : "",
			       strlen(vn) > 30 ? 29 : 30,
			       strlen(vn) > 30 ? vn + strlen(vn) - 29 : vn, vh, s->n, fa, fb, ch,
			       s->nchange);
	}
}

/* One series as rows of JSON or CSV. */
static void series_rows(const struct series *s, struct rows *out)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_point *r = s->pts[i].p, *run = r;
		const struct ukb_step *st = &s->steps[i];

		rows_str(out, s->name);
		rows_str(out, s->path);
		/* what makes it a series of its own, as the text's heading says it */
		rows_str(out, s->params[0] ? s->params : NULL);
		rows_str(out, s->host);
		rows_int(out, run->run);
		rows_str(out, run->started);
		rows_str(out, run->label[0] ? run->label : NULL);
		rows_str(out, run->kernel_release);
		rows_num(out, r->mean);
		rows_num(out, r->ci95_rel);
		rows_num(out, i ? r->mean / s->pts[i - 1].p->mean - 1 : NAN);
		rows_bool(out, st->change_point);
		rows_num(out, st->change_point ? st->step : NAN);
		rows_num(out, st->change_point ? st->p : NAN);
		rows_bool(out, s->state && s->state[i]);
	}
}

struct hist_run {
	int64_t id;
	struct rec_run run;
	struct kcidb_src src;
};

static int by_run_id(const void *a, const void *b)
{
	const struct hist_run *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The description of every run the points come from (one load a run), so
 * that a point's build is the one its run's own document names.
 */
static struct hist_run *history_runs(struct store *st, const struct series_set *set, size_t *n,
				     char *err, size_t len)
{
	struct hist_run *h = calloc(set->npoints ? set->npoints : 1, sizeof(*h));
	size_t k = 0;

	*n = 0;
	if (!h) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < set->npoints; i++)
		if (!k || h[k - 1].id != set->points[i].run)
			h[k++].id = set->points[i].run;
	qsort(h, k, sizeof(*h), by_run_id);
	for (size_t i = 0; i < k; i++) {
		if (i && h[i].id == h[*n - 1].id)
			continue;
		h[*n].id = h[i].id;
		if (store_load_meta(st, h[*n].id, &h[*n].run, err, len)) {
			if (!err[0])
				snprintf(err, len, "run #%lld is gone from the store",
					 (long long)h[*n].id);
			return h;
		}
		kcidb_src_of(&h[*n].run, &h[*n].src);
		(*n)++;
	}
	err[0] = '\0';
	return h;
}

static void history_runs_free(struct hist_run *h, size_t n)
{
	for (size_t i = 0; h && i < n; i++) {
		rec_run_release(&h[i].run);
	}
	free(h);
}

/*
 * Every point as a KCIDB test: the id, the build and the figure its run's
 * own document gives it (run UUID, place in the run), so that a history
 * submitted after the runs adds to the same tests what the series says.
 */
static int history_kcidb(struct store *st, const struct series_set *set,
			 const struct kcidb_ids *ids)
{
	struct kcidb_test *t;
	struct hist_run *runs;
	size_t n = 0, k = 0, nruns;
	char err[1024] = "";
	int ret = -1;

	runs = history_runs(st, set, &nruns, err, sizeof(err));
	if (!runs || err[0]) {
		error("%s", err);
		history_runs_free(runs, nruns);
		return -1;
	}
	for (size_t i = 0; i < set->n; i++)
		n += set->s[i].n;
	t = calloc(n ? n : 1, sizeof(*t));
	if (!t)
		goto out;
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->s[i];

		for (size_t j = 0; j < s->n; j++, k++) {
			const struct rec_point *p = s->pts[j].p;
			const struct ukb_step *step = &s->steps[j];
			struct hist_run key = { .id = p->run }, *hr;
			struct jw w;

			hr = bsearch(&key, runs, nruns, sizeof(*runs), by_run_id);
			if (!hr)
				goto out;
			t[k] = (struct kcidb_test){ .src = &hr->src,
						    .name = p->name,
						    .path = p->path,
						    .started = p->started,
						    .status = "DONE",
						    .seconds = p->mean * 1e-9 };
			if (p->uuid[0])
				snprintf(t[k].id, sizeof(t[k].id), "%s.%zu", p->uuid, p->seq);
			else
				snprintf(t[k].id, sizeof(t[k].id), "%s.%s.%zu", p->host, p->started,
					 p->seq);
			jw_init(&w, 0);
			jw_obj_begin(&w, NULL);
			if (p->uuid[0])
				jw_str(&w, "run", p->uuid);
			if (p->label[0])
				jw_str(&w, "label", p->label);
			jw_str(&w, "name", p->name);
			jw_str(&w, "path", p->path);
			if (s->params[0])
				jw_str(&w, "params", s->params);
			kcidb_num(&w, "mean_ns", p->mean);
			kcidb_num(&w, "ci95_rel", p->ci95_rel);
			if (j)
				kcidb_num(&w, "change_vs_previous",
					  p->mean / s->pts[j - 1].p->mean - 1);
			jw_bool(&w, "change_point", step->change_point);
			if (step->change_point) {
				kcidb_num(&w, "step", step->step);
				kcidb_num(&w, "p", step->p);
			}
			jw_bool(&w, "other_state", s->state && s->state[j]);
			jw_obj_end(&w);
			t[k].misc = jw_finish(&w, NULL);
			if (!t[k].misc)
				goto out;
		}
	}
	ret = kcidb_print(stdout, ids, t, n);
	if (ret)
		error("writing the KCIDB document: %s", strerror(errno ? errno : EIO));
out:
	if (ret && !t)
		error("out of memory");
	kcidb_tests_free(t, n);
	history_runs_free(runs, nruns);
	return ret;
}

static void print_step(const struct ukb_step *st, int narrow)
{
	printf("%s<< change point: step %+.2f%% (p %s%.3g)", narrow ? "\n       " : "  ",
	       100 * st->step, st->p < 0.001 ? "< " : "", st->p < 0.001 ? 0.001 : st->p);
}

/* @narrow: 0 every column, 1 to fit 80 columns, 2 to fit 60. */
static void print_series(const struct series *s, size_t window, int narrow)
{
	char a[512], b[512], c[512], d[512];

	/* names and settings may come from any pusher of a shared store */
	printf("%s/%s on %s%s%s%s, %zu run%s\n", vis(s->name, a, sizeof(a)),
	       vis(s->path, b, sizeof(b)), vis(s->host, c, sizeof(c)), s->params[0] ? " (" : "",
	       vis(s->params, d, sizeof(d)), s->params[0] ? ")" : "", s->n, s->n == 1 ? "" : "s");
	int one_kernel = 1;

	for (size_t i = 1; i < s->n; i++)
		one_kernel =
		    one_kernel && !strcmp(s->pts[i].p->kernel_release, s->pts[0].p->kernel_release);
	/* under 76 columns: one kernel is said once, above its runs */
	if (narrow == 2 && one_kernel && s->n)
		printf("  Linux %s throughout\n", vis(s->pts[0].p->kernel_release, a, sizeof(a)));
	if (narrow == 2 && one_kernel)
		printf("%5s  %-11s  %-16s %10s %9s\n", "run", "UTC", "label", "mean ns", "vs prev");
	else if (narrow == 2)
		printf("%5s  %-11s  %-8s %-12s %9s %8s\n", "run", "UTC", "label", "kernel",
		       "mean ns", "vs prev");
	else if (narrow)
		printf("%5s  %-16s  %-12s  %-16s %10s %9s\n", "run", "started (UTC)", "label",
		       "kernel", "mean ns", "vs prev");
	else
		printf("%7s  %-20s  %-16s  %-22s %10s %s %9s\n", "run", "started (UTC)", "label",
		       "kernel", "mean ns", "   ±CI95", "vs prev");
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_point *r = s->pts[i].p, *run = r;
		char mean[32], prev[32] = "";

		format_ns(mean, sizeof(mean), r->mean);
		if (i)
			snprintf(prev, sizeof(prev), "%+.2f%%",
				 100 * (r->mean / s->pts[i - 1].p->mean - 1));
		if (narrow == 2) {
			char when[12], label[17], kernel[13];

			/* "2026-11-30T08:16:18Z" as 11-30 08:16 */
			vis(run->started, a, sizeof(a));
			snprintf(when, sizeof(when), "%.5s %.5s", strlen(a) > 5 ? a + 5 : "",
				 strlen(a) > 11 ? a + 11 : "");
			cut_text(label, one_kernel ? sizeof(label) : 9,
				 run->label[0] ? vis(run->label, b, sizeof(b)) : "-");
			cut_text(kernel, sizeof(kernel), vis(run->kernel_release, c, sizeof(c)));
			if (one_kernel)
				printf("%5lld  %-11s  %-16s %10s %9s", (long long)run->run, when,
				       label, mean, prev);
			else
				printf("%5lld  %-11s  %-8s %-12s %9s %8s", (long long)run->run,
				       when, label, kernel, mean, prev);
		} else if (narrow) {
			char when[17], label[13], kernel[17];

			/* "2026-11-30T08:16:18Z" to the minute, long names cut with ~ */
			vis(run->started, a, sizeof(a));
			snprintf(when, sizeof(when), "%.10s %.5s", a, strlen(a) > 11 ? a + 11 : "");
			cut_text(label, sizeof(label),
				 run->label[0] ? vis(run->label, b, sizeof(b)) : "-");
			cut_text(kernel, sizeof(kernel), vis(run->kernel_release, c, sizeof(c)));
			printf("%5lld  %-16s  %-12s  %-16s %10s %9s", (long long)run->run, when,
			       label, kernel, mean, prev);
		} else {
			printf("%7lld  %-20s  %-16s  %-22s %10s %7.2f%% %9s", (long long)run->run,
			       vis(run->started, a, sizeof(a)),
			       run->label[0] ? vis(run->label, b, sizeof(b)) : "-",
			       vis(run->kernel_release, c, sizeof(c)), mean, 100 * r->ci95_rel,
			       prev);
		}
		if (s->steps[i].change_point)
			print_step(&s->steps[i], narrow);
		else if (s->state && s->state[i])
			printf("  ~");
		printf("\n");
	}
	if (s->nstate)
		put_folded(stdout,
			   "~ made in another state of the machine (its reference far from this "
			   "host's usual, or its processes spreading twice as much as usual): no "
			   "change point is taken from it",
			   0, 2,
			   narrow == 2 ? 60
			   : narrow    ? 80
				       : 100);
	printf("%zu change point%s%s%s\n\n", s->nchange, s->nchange == 1 ? "" : "s",
	       s->n < 2 * window && narrow == 2 ? "\n " : "",
	       s->n < 2 * window ? " (a step needs a full window of runs on each side)" : "");
}

/*
 * --plot: the series as a sparkline with its range, the change points
 * marked under it, each named on a line of its own.
 */
static int plot_series(const struct series *s, int cols)
{
	struct series_spark sp;
	char head[512], a[32], b[32], last[32];

	if (series_spark(s, cols - 2, &sp))
		return -1;
	format_ns(a, sizeof(a), sp.lo);
	format_ns(b, sizeof(b), sp.hi);
	format_ns(last, sizeof(last), s->pts[s->n - 1].p->mean);
	snprintf(head, sizeof(head),
		 "%s/%s on %s: %zu run%s%s, %s to %s ns (range %.2f%%), last %s ns", s->name,
		 s->path, s->host, s->n, s->n == 1 ? "" : "s",
		 s->n > (size_t)sp.cols ? " (a column is the mean of several)" : "", a, b,
		 100 * (sp.hi / sp.lo - 1), last);
	put_folded(stdout, head, 0, 2, cols);
	printf("  %s\n", sp.line);
	if (!s->nchange) {
		printf("  no change point\n\n");
		return 0;
	}
	printf("  %s\n", sp.marks);
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_point *run = s->pts[i].p;
		char label[32];

		if (!s->steps[i].change_point)
			continue;
		char shown[512];

		cut_text(label, sizeof(label), run->label[0] ? run->label : "-");
		printf("  ^ step %+.2f%% at run #%lld (%s, %.10s)\n", 100 * s->steps[i].step,
		       (long long)run->run, vis(label, shown, sizeof(shown)), run->started);
	}
	printf("\n");
	return 0;
}

/* The columns of --format json and csv. */
static const char *const hist_keys[] = {
	"name",
	"path",
	"params",
	"host",
	"run",
	"started",
	"label",
	"kernel_release",
	"mean_ns",
	"ci95_rel",
	"change_vs_previous",
	"change_point",
	"step",
	"p",
	"other_state",
	NULL,
};

/*
 * A store with nothing in it yet: an answer, not an error (as runs says
 * it); a filter or pattern that matches nothing is one (exit 2).
 */
static int nothing_stored(int fmt, const char *path)
{
	struct rows r;

	if (fmt == HIST_KCIDB) {
		error("no stored results in %s; 'ukbench run' stores them", path);
		return UKB_EXIT_USAGE;
	}
	if (fmt == ROWS_TABLE) {
		printf("(no results in %s yet; 'ukbench run' stores them)\n", path);
		return UKB_EXIT_OK;
	}
	rows_begin(&r, stdout, (enum rows_fmt)fmt, hist_keys);
	return rows_end(&r) ? UKB_EXIT_FAIL : UKB_EXIT_OK;
}

int cmd_history(int argc, char **argv)
{
	struct history_opts o = { 0 };
	struct series_set set = { 0 };
	struct series_opts so;
	struct store *st;
	char path[4096], err[1024];
	int first, ret, cols;

	ret = opts_parse(&cmd_history_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (o.plot && o.fmt != ROWS_TABLE) {
		error("--plot draws in the terminal; it does not go with --format %s",
		      o.fmt == ROWS_JSON  ? "json"
		      : o.fmt == ROWS_CSV ? "csv"
					  : "kcidb");
		return UKB_EXIT_USAGE;
	}
	ret = store_open_cli_reader(o.db, path, sizeof(path), &st);
	if (ret > 0 && first == argc && !filter_given(&o.f))
		return nothing_stored(o.fmt, path);
	if (ret) {
		if (ret > 0)
			error("no stored result matches the %s given: %s holds none",
			      first < argc ? "patterns" : "filter", path);
		return UKB_EXIT_USAGE;
	}
	so = (struct series_opts){ .filter = &o.f,
				   .pats = argv + first,
				   .npats = argc - first,
				   .window = o.window,
				   .alpha = 0.01,
				   .threshold = o.threshold };
	if (series_load(st, &so, &set, err, sizeof(err)) ||
	    floor_series(st, &set, &so, err, sizeof(err))) {
		error("%s", err);
		ret = UKB_EXIT_FAIL;
		goto out;
	}
	ret = UKB_EXIT_USAGE;
	if (!set.n) {
		if (first < argc) {
			error("no stored result matches '%s'%s", argv[first],
			      argc - first > 1 ? " or the other patterns" : "");
		} else if (filter_given(&o.f)) {
			error("no stored result in %s matches the filter (" FILTER_OPT_NAMES ")",
			      path);
		} else {
			ret = nothing_stored(o.fmt, path);
		}
		goto out;
	}
	ret = UKB_EXIT_OK;
	if (o.fmt == HIST_KCIDB) {
		if (history_kcidb(st, &set, &o.kcidb))
			ret = UKB_EXIT_FAIL;
		goto out;
	}
	if (o.fmt != ROWS_TABLE) {
		struct rows r;

		rows_begin(&r, stdout, (enum rows_fmt)o.fmt, hist_keys);
		for (size_t i = 0; i < set.n; i++)
			series_rows(&set.s[i], &r);
		if (rows_end(&r))
			ret = UKB_EXIT_FAIL;
		goto out;
	}
	cols = out_columns(stdout, o.wide);
	if (first == argc && set.n > SUMMARY_OVER && !o.verbose && !o.plot) {
		print_summary(&set, cols && cols < 80);
		goto out;
	}
	for (size_t i = 0; i < set.n; i++) {
		if (!o.plot)
			print_series(&set.s[i], o.window,
				     cols && cols < 76	  ? 2
				     : cols && cols < 102 ? 1
							  : 0);
		else if (plot_series(&set.s[i], cols ? cols : 80)) {
			error("drawing %s/%s: %s", set.s[i].name, set.s[i].path, strerror(ENOMEM));
			ret = UKB_EXIT_FAIL;
		}
	}
out:
	series_release(&set);
	store_close(st);
	return ret;
}

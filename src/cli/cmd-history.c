// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-history.c - `ukbench history [PATTERN...]`: each benchmark path over
 * the stored runs, per host, oldest first, with change points marked and
 * the size of each step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "cli.h"
#include "options.h"
#include "output.h"
#include "rows.h"
#include "width.h"
#include "runref.h"

enum { O_LABEL = 1, O_HOST, O_WINDOW, O_THRESHOLD, O_DB, O_FORMAT, O_WIDE };

static const struct opt history_opts[] = {
	{ "label", 'l', "GLOB", "only runs whose label matches", O_LABEL },
	{ "host", 0, "HOST", "only runs of this host", O_HOST },
	{ "window", 'w', "N", "runs on each side of a boundary (default 5)", O_WINDOW },
	{ "threshold", 't', "PCT", "smallest step to mark, in % (default 1)", O_THRESHOLD },
	{ "db", 0, "PATH", "the results database", O_DB },
	{ "format", 'f', "FMT", "table (default), json or csv: one row per point", O_FORMAT },
	{ "wide", 'W', NULL,
	  "every column (the CI, the full time) on one line a run;\notherwise the table fits "
	  "the terminal, or 80 columns",
	  O_WIDE },
	{ NULL },
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
		 "the threshold, and no boundary within a window has a larger step. One run\n"
		 "that stands out moves one rank, and is not a step; the last window-1 runs\n"
		 "cannot show one yet.",
	.opts = history_opts,
	.footer = "examples:\n"
		  "  ukbench history time.clock_gettime.monotonic/vdso\n"
		  "  ukbench history --label 'nightly-*' syscall.null\n"
		  "  ukbench history --format csv syscall.null > series.csv\n",
};

struct history_opts {
	struct store_filter f;
	const char *db;
	unsigned long window;
	double threshold;
	enum rows_fmt fmt;
	int wide;
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct history_opts *o = ctx;

	switch (id) {
	case O_LABEL:
		o->f.label = arg;
		return 0;
	case O_HOST:
		o->f.host = arg;
		return 0;
	case O_WINDOW:
		return parse_uint("--window", arg, 1, 1000, &o->window);
	case O_THRESHOLD:
		if (parse_double("--threshold", arg, 0, 1000, &o->threshold))
			return -1;
		o->threshold /= 100;
		return 0;
	case O_DB:
		o->db = arg;
		return 0;
	case O_WIDE:
		o->wide = 1;
		return 0;
	case O_FORMAT:
		return parse_rows_format(arg, &o->fmt);
	}
	return -1;
}

struct point {
	const struct store_run *run;
	struct rec_result *r;
};

struct series {
	char host[128], name[128], path[32];
	struct point *pts;
	size_t n;
};

static struct series *find_series(struct series **all, size_t *n, const char *host,
				  const struct rec_result *r)
{
	struct series *s;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*all)[i].host, host) && !strcmp((*all)[i].name, r->name) &&
		    !strcmp((*all)[i].path, r->path))
			return &(*all)[i];
	s = realloc(*all, (*n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	*all = s;
	s = &s[(*n)++];
	memset(s, 0, sizeof(*s));
	snprintf(s->host, sizeof(s->host), "%s", host);
	snprintf(s->name, sizeof(s->name), "%s", r->name);
	snprintf(s->path, sizeof(s->path), "%s", r->path);
	return s;
}

static int print_series(const struct series *s, size_t window, double threshold, struct rows *out,
			int narrow)
{
	struct ukb_point *pts = calloc(s->n, sizeof(*pts));
	struct ukb_step *steps = calloc(s->n, sizeof(*steps));
	size_t ncp = 0;

	if (!pts || !steps) {
		free(pts);
		free(steps);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		pts[i].mean = s->pts[i].r->stats.mean;
	}
	if (ukb_changepoints(pts, s->n, window, 0.01, threshold, steps)) {
		free(pts);
		free(steps);
		return -1;
	}
	if (out) {
		for (size_t i = 0; i < s->n; i++) {
			const struct rec_result *r = s->pts[i].r;
			const struct store_run *run = s->pts[i].run;

			rows_str(out, s->name);
			rows_str(out, s->path);
			rows_str(out, s->host);
			rows_int(out, run->id);
			rows_str(out, run->started);
			rows_str(out, run->label[0] ? run->label : NULL);
			rows_str(out, run->kernel_release);
			rows_num(out, r->stats.mean);
			rows_num(out, r->stats.ci95_rel);
			rows_num(out, i ? r->stats.mean / s->pts[i - 1].r->stats.mean - 1 : NAN);
			rows_bool(out, steps[i].change_point);
			rows_num(out, steps[i].change_point ? steps[i].step : NAN);
			rows_num(out, steps[i].change_point ? steps[i].p : NAN);
		}
		free(pts);
		free(steps);
		return 0;
	}
	printf("%s/%s on %s, %zu runs\n", s->name, s->path, s->host, s->n);
	if (narrow)
		printf("%5s  %-16s  %-12s  %-16s %10s %9s\n", "run", "started (UTC)", "label",
		       "kernel", "mean ns", "vs prev");
	else
		printf("%7s  %-20s  %-16s  %-22s %10s %s %9s\n", "run", "started (UTC)", "label",
		       "kernel", "mean ns", "   ±CI95", "vs prev");
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_result *r = s->pts[i].r;
		const struct store_run *run = s->pts[i].run;
		char mean[32], prev[32] = "";

		format_ns(mean, sizeof(mean), r->stats.mean);
		if (i)
			snprintf(prev, sizeof(prev), "%+.2f%%",
				 100 * (r->stats.mean / s->pts[i - 1].r->stats.mean - 1));
		if (narrow) {
			char when[17], label[13], kernel[17];

			/* "2026-11-30T08:16:18Z" to the minute, long names cut with ~ */
			snprintf(when, sizeof(when), "%.10s %.5s", run->started, run->started + 11);
			cut_text(label, sizeof(label), run->label[0] ? run->label : "-");
			cut_text(kernel, sizeof(kernel), run->kernel_release);
			printf("%5lld  %-16s  %-12s  %-16s %10s %9s", (long long)run->id, when,
			       label, kernel, mean, prev);
		} else {
			printf("%7lld  %-20s  %-16s  %-22s %10s %7.2f%% %9s", (long long)run->id,
			       run->started, run->label[0] ? run->label : "-", run->kernel_release,
			       mean, 100 * r->stats.ci95_rel, prev);
		}
		if (steps[i].change_point) {
			printf("%s<< change point: step %+.2f%% (p %s%.3g)",
			       narrow ? "\n       " : "  ", 100 * steps[i].step,
			       steps[i].p < 0.001 ? "< " : "",
			       steps[i].p < 0.001 ? 0.001 : steps[i].p);
			ncp++;
		}
		printf("\n");
	}
	printf("%zu change point%s%s\n\n", ncp, ncp == 1 ? "" : "s",
	       s->n < 2 * window ? " (a step needs a full window of runs on each side)" : "");
	free(pts);
	free(steps);
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct history_opts o = { .window = 5, .threshold = 0.01 };
	struct store_run *list = NULL;
	struct rec_run *runs = NULL;
	struct series *all = NULL;
	struct store *st;
	char path[4096], err[1024];
	size_t n = 0, nseries = 0;
	int first, ret;

	ret = opts_parse(&cmd_history_def, argc, argv, 0, set_option, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	ret = store_open_cli_reader(o.db, path, sizeof(path), &st);
	if (ret) {
		if (ret > 0)
			error("no stored results in %s; 'ukbench run' stores them", path);
		return UKB_EXIT_USAGE;
	}
	ret = UKB_EXIT_USAGE;
	if (store_list(st, &o.f, &list, &n, err, sizeof(err))) {
		error("%s", err);
		ret = UKB_EXIT_FAIL;
		goto out;
	}
	runs = calloc(n + 1, sizeof(*runs));
	if (!runs)
		goto out;
	/* oldest first: the list is newest first */
	for (size_t k = 0; k < n; k++) {
		struct store_run *sr = &list[n - 1 - k];
		struct rec_run *run = &runs[k];

		if (store_load(st, sr->id, run, err, sizeof(err))) {
			error("%s", err);
			ret = UKB_EXIT_FAIL;
			goto out;
		}
		for (size_t i = 0; i < run->nresults; i++) {
			struct rec_result *r = &run->results[i];
			struct series *s;
			int hit = first == argc;

			for (int a = first; a < argc && !hit; a++)
				hit = pattern_matches(argv[a], r->name, r->benchmark, r->path);
			if (!hit || r->status != UKB_OK || !r->nsamples || run->interrupted)
				continue;
			s = find_series(&all, &nseries, sr->host, r);
			if (!s)
				goto out;
			struct point *p = realloc(s->pts, (s->n + 1) * sizeof(*p));

			if (!p)
				goto out;
			s->pts = p;
			s->pts[s->n].run = sr;
			s->pts[s->n++].r = r;
		}
	}
	if (!nseries) {
		if (first < argc)
			error("no stored result matches '%s'%s", argv[first],
			      argc - first > 1 ? " or the other patterns" : "");
		else
			error("no stored results in %s; 'ukbench run' stores them", path);
		goto out;
	}
	ret = UKB_EXIT_OK;
	if (o.fmt != ROWS_TABLE) {
		static const char *const keys[] = {
			"name",
			"path",
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
			NULL,
		};
		struct rows r;

		rows_begin(&r, stdout, o.fmt, keys);
		for (size_t i = 0; i < nseries; i++)
			if (print_series(&all[i], o.window, o.threshold, &r, 0))
				ret = UKB_EXIT_FAIL;
		if (rows_end(&r))
			ret = UKB_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < nseries; i++)
		if (print_series(&all[i], o.window, o.threshold, NULL,
				 out_columns(stdout, o.wide) && out_columns(stdout, o.wide) < 102))
			ret = UKB_EXIT_FAIL;
out:
	for (size_t i = 0; i < nseries; i++)
		free(all[i].pts);
	free(all);
	for (size_t k = 0; runs && k < n; k++)
		rec_run_release(&runs[k]);
	free(runs);
	free(list);
	store_close(st);
	return ret;
}

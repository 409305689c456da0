// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-history.c - `ukbench history [PATTERN...]`: each benchmark path over
 * the stored runs, per host, oldest first, with change points marked and
 * the size of each step.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "cli.h"
#include "output.h"
#include "runref.h"

static const char history_usage[] =
    "usage: ukbench history [options] [PATTERN...]\n"
    "\n"
    "Prints the series of each matching benchmark path over the stored runs,\n"
    "one series per host, oldest first: run, time, label, kernel, mean ns per\n"
    "call and its CI, the change from the previous run, and change points.\n"
    "\n"
    "Change points: at each boundary between two runs, the runs of a window\n"
    "before it and of a window after it are compared (Welch's t-test on their\n"
    "samples); a boundary is marked when p < 0.01, the step between the mean\n"
    "run means is at least the threshold, and no boundary within a window has\n"
    "a larger step (the windowed t-test of Apache Otava).\n"
    "\n"
    "options:\n"
    "  -l, --label GLOB     only runs whose label matches\n"
    "      --host HOST      only runs of this host\n"
    "  -w, --window N       runs on each side of a boundary (default 5)\n"
    "  -t, --threshold PCT  smallest step to mark, in % (default 1)\n"
    "      --db PATH        the results database\n"
    "\n"
    "examples:\n"
    "  ukbench history time.clock_gettime.monotonic/vdso\n"
    "  ukbench history --label 'nightly-*' syscall.null\n";

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

static int print_series(const struct series *s, size_t window, double threshold)
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
		pts[i].samples = s->pts[i].r->samples;
		pts[i].n = s->pts[i].r->nsamples;
		pts[i].mean = s->pts[i].r->stats.mean;
	}
	if (ukb_changepoints(pts, s->n, window, 0.01, threshold, steps)) {
		free(pts);
		free(steps);
		return -1;
	}
	printf("%s/%s on %s, %zu runs\n", s->name, s->path, s->host, s->n);
	printf("%7s  %-20s  %-16s  %-22s %10s %8s %9s\n", "run", "started (UTC)", "label", "kernel",
	       "mean ns", "±CI95", "vs prev");
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_result *r = s->pts[i].r;
		const struct store_run *run = s->pts[i].run;
		char mean[32], prev[32] = "";

		format_ns(mean, sizeof(mean), r->stats.mean);
		if (i)
			snprintf(prev, sizeof(prev), "%+.2f%%",
				 100 * (r->stats.mean / s->pts[i - 1].r->stats.mean - 1));
		printf("%7lld  %-20s  %-16s  %-22s %10s %7.2f%% %9s", (long long)run->id,
		       run->started, run->label[0] ? run->label : "-", run->kernel_release, mean,
		       100 * r->stats.ci95_rel, prev);
		if (steps[i].change_point) {
			printf("  << change point: step %+.2f%% (p %s%.3g)", 100 * steps[i].step,
			       steps[i].p < 0.001 ? "< " : "",
			       steps[i].p < 0.001 ? 0.001 : steps[i].p);
			ncp++;
		}
		printf("\n");
	}
	printf("%zu change point%s\n\n", ncp, ncp == 1 ? "" : "s");
	free(pts);
	free(steps);
	return 0;
}

int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "host", required_argument, NULL, 'H' },
		{ "window", required_argument, NULL, 'w' },
		{ "threshold", required_argument, NULL, 't' },
		{ "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct store_filter f = { 0 };
	struct store_run *list = NULL;
	struct rec_run *runs = NULL;
	struct series *all = NULL;
	struct store *st;
	const char *db = NULL;
	char path[4096], err[1024];
	unsigned long window = 5;
	double threshold = 0.01;
	size_t n = 0, nseries = 0;
	int c, ret = UKB_EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:w:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			f.label = optarg;
			break;
		case 'H':
			f.host = optarg;
			break;
		case 'w':
			if (parse_uint("--window", optarg, 1, 1000, &window))
				return UKB_EXIT_USAGE;
			break;
		case 't':
			if (parse_double("--threshold", optarg, 0, 1000, &threshold))
				return UKB_EXIT_USAGE;
			threshold /= 100;
			break;
		case 'D':
			db = optarg;
			break;
		case 'h':
			fputs(history_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench history --help'",
			      argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	st = store_open_cli(db, path, sizeof(path));
	if (!st)
		return UKB_EXIT_USAGE;
	if (store_list(st, &f, &list, &n, err, sizeof(err))) {
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
			int hit = optind == argc;

			for (int a = optind; a < argc && !hit; a++)
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
		if (optind < argc)
			error("no stored result matches '%s'%s", argv[optind],
			      argc - optind > 1 ? " or the other patterns" : "");
		else
			error("no stored results in %s; 'ukbench run' stores them", path);
		goto out;
	}
	ret = UKB_EXIT_OK;
	for (size_t i = 0; i < nseries; i++)
		if (print_series(&all[i], window, threshold))
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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-compare.c - `ukbench compare A B [C...]`: the change of each path
 * against the base run A, with its 95% CI, p-values of both tests, and a
 * verdict; a geometric mean of the ratios; an exit status for CI.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "comparison.h"
#include "options.h"
#include "output.h"
#include "runref.h"

struct compare_opts {
	struct cmp_opts c;
	double fail_pct; /* < 0: off */
	int all;
	const char *db;
};

enum { O_THRESHOLD = 1, O_TEST, O_ALPHA, O_FAIL, O_ALL, O_DB };

static const struct opt compare_opts_table[] = {
	{ "threshold", 't', "PCT", "noise threshold in % (default 1)", O_THRESHOLD },
	{ "test", 0, "welch|mwu", "the test behind the verdict (default welch)", O_TEST },
	{ "alpha", 0, "P", "significance level (default 0.05)", O_ALPHA },
	{ "fail-on-regression", 0, "PCT", "exit 1 when a path regressed by more than PCT%",
	  O_FAIL },
	{ "all", 0, NULL, "pool every run of a label", O_ALL },
	{ "db", 0, "PATH", "the results database", O_DB },
	{ NULL },
};

const struct command cmd_compare_def = {
	.name = "compare",
	.fn = cmd_compare,
	.summary = "compare runs: change, 95% CI, p-value, verdict",
	.synopsis = "[options] BASE OTHER [OTHER...]",
	.about = "Compares each benchmark path of OTHER with BASE: both figures (mean ns per\n"
		 "call), the change in % with its 95% confidence interval, the p-values of\n"
		 "Welch's t-test and of the Mann-Whitney U test, and a verdict:\n"
		 "  improved / regressed   significant (p < alpha) and beyond the threshold\n"
		 "  within noise           significant but smaller than the threshold\n"
		 "  no change              not significant\n"
		 "A '*' marks a significant change. The last line is the geometric mean of\n"
		 "the ratios over the paths measured in both runs.\n"
		 "\n"
		 "A run is an id (12, #12), a label (the latest run with it; --all pools\n"
		 "every run with it), or a ukbench JSON file.",
	.opts = compare_opts_table,
	.footer = "exit status: 0, or 1 with --fail-on-regression when a path regressed beyond\n"
		  "it or when the runs share no path; 2 for bad usage or an unreadable run.\n"
		  "\n"
		  "examples:\n"
		  "  ukbench compare before after\n"
		  "  ukbench compare 12 13 14 --threshold 2\n"
		  "  ukbench compare baseline.json after --fail-on-regression 5\n",
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct compare_opts *o = ctx;
	double d;

	switch (id) {
	case O_THRESHOLD:
		if (parse_double("--threshold", arg, 0, 1000, &d))
			return -1;
		o->c.threshold = d / 100;
		return 0;
	case O_TEST:
		if (strcmp(arg, "welch") && strcmp(arg, "mwu")) {
			error("unknown test '%s': use welch or mwu", arg);
			return -1;
		}
		o->c.test = strcmp(arg, "welch") ? CMP_MWU : CMP_WELCH;
		return 0;
	case O_ALPHA:
		return parse_double("--alpha", arg, 1e-9, 0.5, &o->c.alpha);
	case O_FAIL:
		return parse_double("--fail-on-regression", arg, 0, 1000, &o->fail_pct);
	case O_ALL:
		o->all = 1;
		return 0;
	case O_DB:
		o->db = arg;
		return 0;
	}
	return -1;
}

/* 0, 1 after --help, -1 on bad usage; *@first the first run. */
static int parse(int argc, char **argv, struct compare_opts *o, int *first)
{
	int rc;

	o->c.test = CMP_WELCH;
	o->c.alpha = 0.05;
	o->c.threshold = 0.01;
	o->fail_pct = -1;
	rc = opts_parse(&cmd_compare_def, argc, argv, 0, set_option, o, first);
	if (rc)
		return rc;
	if (argc - *first < 2) {
		error("'ukbench compare' needs a base run and at least one other; see 'ukbench "
		      "compare --help'");
		return -1;
	}
	return 0;
}

static void pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%+.2f%%", 100 * v);
}

static void pvalue(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

/* Prints one comparison; returns the number of paths regressed beyond @fail. */
static size_t print_block(const struct rec_run *a, const char *da, const struct rec_run *b,
			  const char *db, const struct compare_opts *o, int color, size_t *both)
{
	struct cmp_row *rows;
	size_t n, bad = 0, ng = 0, npp = 0;
	double *changes;

	*both = compare_runs(a, b, &o->c, &rows, &n);
	printf("base  %s: %s, %s, Linux %s\n", da, a->started, a->host, a->kernel_release);
	printf("other %s: %s, %s, Linux %s\n", db, b->started, b->host, b->kernel_release);
	printf("verdict by %s (p < %g), noise threshold %g%%; change = other/base - 1,\n"
	       "95%% CI by the delta method on the ratio of means\n\n",
	       cmp_test_name(o->c.test), o->c.alpha, 100 * o->c.threshold);
	printf("%-35s %-8s %11s %11s %10s  %-21s %8s %8s  %s\n", "benchmark", "path", "base ns",
	       "other ns", "change", "95% CI", "p(welch)", "p(mwu)", "verdict");
	changes = calloc(n + 1, sizeof(*changes));
	for (size_t i = 0; i < n && changes; i++) {
		const struct cmp_row *r = &rows[i];
		const struct rec_result *x = r->a ? r->a : r->b;
		char fa[32], fb[32], ch[32], lo[32], hi[32], ci[80], pw[16], pm[16];
		const char *col = "", *end = "";

		if (!r->ok) {
			const char *why = !r->a			   ? "only in the other run"
					  : !r->b		   ? "not in the other run"
					  : r->a->status != UKB_OK ? "base not measured"
					  : r->b->status != UKB_OK ? "other not measured"
								   : "too few samples";

			printf("%-35s %-8s %11s %11s %10s  %s\n", x->name, x->path, "-", "-", "-",
			       why);
			continue;
		}
		format_ns(fa, sizeof(fa), r->c.mean_a);
		format_ns(fb, sizeof(fb), r->c.mean_b);
		pct(ch, sizeof(ch), r->c.change);
		pct(lo, sizeof(lo), r->c.ci_lo);
		pct(hi, sizeof(hi), r->c.ci_hi);
		snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		pvalue(pw, sizeof(pw), r->c.p_welch);
		pvalue(pm, sizeof(pm), r->c.p_mwu);
		if (color && r->verdict == UKB_IMPROVED) {
			col = "\033[32m";
			end = "\033[0m";
		} else if (color && r->verdict == UKB_REGRESSED) {
			col = "\033[31m";
			end = "\033[0m";
		}
		printf("%-35s %-8s %11s %11s %9s%s  %-21s %8s %8s  %s%s%s\n", x->name, x->path, fa,
		       fb, ch, r->p < o->c.alpha ? "*" : " ", ci, pw, pm, col,
		       ukb_verdict_name(r->verdict), end);
		changes[ng++] = r->c.change;
		npp += r->per_process;
		if (o->fail_pct >= 0 && r->verdict == UKB_REGRESSED &&
		    100 * r->c.change > o->fail_pct)
			bad++;
	}
	if (npp)
		printf("\n%zu path%s compared on per-process means (runs repeated in fresh "
		       "processes with --runs), %zu on batch samples\n",
		       npp, npp > 1 ? "s" : "", ng - npp);
	if (ng)
		printf("\ngeometric mean of other/base over %zu paths: %.4f (%+.2f%%)\n", ng,
		       ukb_geomean_ratio(changes, ng), 100 * (ukb_geomean_ratio(changes, ng) - 1));
	free(changes);
	free(rows);
	return bad;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct rec_run *runs;
	struct store *st;
	char path[4096], (*desc)[256];
	int nrun, first, ret = UKB_EXIT_USAGE;
	size_t bad = 0, both;

	ret = parse(argc, argv, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	ret = UKB_EXIT_USAGE;
	nrun = argc - first;
	runs = calloc((size_t)nrun, sizeof(*runs));
	desc = calloc((size_t)nrun, sizeof(*desc));
	if (!runs || !desc) {
		free(runs);
		free(desc);
		return UKB_EXIT_FAIL;
	}
	st = store_open_cli(o.db, path, sizeof(path));
	if (!st)
		goto out;
	for (int i = 0; i < nrun; i++)
		if (runref_load(st, argv[first + i], o.all, &runs[i], desc[i], sizeof(desc[i])))
			goto out;
	ret = UKB_EXIT_OK;
	for (int i = 1; i < nrun; i++) {
		if (i > 1)
			printf("\n");
		bad += print_block(&runs[0], desc[0], &runs[i], desc[i], &o, isatty(STDOUT_FILENO),
				   &both);
		if (!both) {
			error("%s and %s share no measured benchmark path", desc[0], desc[i]);
			ret = UKB_EXIT_FAIL;
		}
	}
	if (bad) {
		fprintf(stderr, "%zu path%s regressed by more than %g%%\n", bad, bad > 1 ? "s" : "",
			o.fail_pct);
		ret = UKB_EXIT_FAIL;
	}
out:
	for (int i = 0; i < nrun; i++)
		rec_run_release(&runs[i]);
	free(runs);
	free(desc);
	store_close(st);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-calibrate.c - `ukbench calibrate`: what does `compare` achieve on
 * this machine?
 *
 * It measures what `compare` does, the way a patch author's runs are made:
 * each round makes five separate runs of lab.spin, each in fresh processes
 * as `run` makes them, one after another and in a shuffled order, so that
 * the variation between processes and between moments enters as it does
 * for real runs. Two runs are unchanged (A and A': a verdict other than
 * "no change" or "within noise" is a false alarm), three are slowed by
 * exactly 2%, 5% and 10% of work (a "regressed" verdict is a detection).
 * The comparisons go through the same code as `compare`.
 *
 * The unchanged runs also measure what one run cannot see of itself: how
 * much a run's mean moves between runs made at different times beyond
 * what its processes show. That floor is stored for this host, and
 * `compare` adds it to every interval it gives for runs of this host.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "comparison.h"
#include "env.h"
#include "options.h"
#include "runner.h"
#include "runref.h"
#include "stats.h"
#include "store.h"

enum { O_ROUNDS = 1, O_BUDGET, O_RUNS, O_THRESHOLD, O_DB, O_NO_STORE };

static const struct opt calibrate_opts[] = {
	{ "rounds", 'r', "N", "rounds (default 10)", O_ROUNDS },
	{ "budget", 'b', "SEC", "measuring time per run, as run's --budget (default 0.75)",
	  O_BUDGET },
	{ "runs", 0, "N", "fresh processes per run, as run's --runs (default 5)", O_RUNS },
	{ "threshold", 't', "PCT", "noise threshold of the verdict, in % (default 1)",
	  O_THRESHOLD },
	{ "db", 0, "PATH", "the store the host's floor is kept in", O_DB },
	{ "no-store", 0, NULL, "do not store the floor", O_NO_STORE },
	{ NULL },
};

const struct command cmd_calibrate_def = {
	.name = "calibrate",
	.fn = cmd_calibrate,
	.summary = "measure what compare achieves here: false alarms, detection",
	.synopsis = "[--rounds N] [--budget SEC] [--runs N] [--threshold PCT]",
	.about = "Measures what 'compare' achieves on this machine. Each round makes five\n"
		 "runs of lab.spin as 'run' makes them (fresh processes), one after another\n"
		 "in a shuffled order: two unchanged (A/A: a verdict of improved or\n"
		 "regressed is a false alarm) and three slowed by exactly 2%, 5% and 10% of\n"
		 "work (a 'regressed' verdict is a detection), compared with the same code\n"
		 "as 'compare'. It reports the false-alarm rate, the detection rate of each\n"
		 "size and the minimum detectable effect, and measures how much a run's mean\n"
		 "moves between runs beyond what its processes show: that floor is stored\n"
		 "for this host and 'compare' adds it to its intervals.",
	.opts = calibrate_opts,
	.footer = "examples:\n"
		  "  ukbench calibrate\n"
		  "  ukbench calibrate --rounds 30\n",
};

struct calibrate_cli {
	unsigned long rounds, runs;
	double budget_s, threshold;
	const char *db;
	int no_store;
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct calibrate_cli *c = ctx;

	switch (id) {
	case O_ROUNDS:
		return parse_uint("--rounds", arg, 2, 1000, &c->rounds);
	case O_BUDGET:
		return parse_double("--budget", arg, 0.01, 3600, &c->budget_s);
	case O_RUNS:
		return parse_uint("--runs", arg, 2, 100, &c->runs);
	case O_THRESHOLD:
		if (parse_double("--threshold", arg, 0, 100, &c->threshold))
			return -1;
		c->threshold /= 100;
		return 0;
	case O_DB:
		c->db = arg;
		return 0;
	case O_NO_STORE:
		c->no_store = 1;
		return 0;
	}
	return -1;
}

/* The five runs of a round: A, A' and the planted changes. */
enum { A1, A2, S2, S5, S10, NRUNS };
static const char *const run_variant[NRUNS] = { "base", "base", "slow2", "slow5", "slow10" };
static const char *const run_label[NRUNS] = { "", "A/A", "+2%", "+5%", "+10%" };

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* One run of lab.spin.@variant in fresh processes; 0, or -1 (printed). */
static int one_run(const struct calibrate_cli *c, const char *variant, struct rec_run *out)
{
	static const char *const self_argv[] = { "ukbench", "worker" };
	const struct worker self = { "/proc/self/exe", self_argv, 2, "", NULL };
	struct run_ctl ctl = { .stop = &stop_signal };
	char pattern[64], *pats[1] = { pattern }, err[1024];
	struct ukb_selection sel;
	struct run_plan p = { 0 };
	struct ukb_err e;
	int rc;

	snprintf(pattern, sizeof(pattern), "lab.spin.%s/loop", variant);
	if (ukb_select(&sel, 1, pats, 0, NULL, 1, &e)) {
		error_hint(&e);
		ukb_selection_release(&sel);
		return -1;
	}
	ukb_measure_opts_init(&p.m);
	p.procs = (unsigned)c->runs;
	p.cases = sel.cases;
	p.ncases = sel.n;
	p.m.budget_s = p.m.min_time_s = c->budget_s / (double)c->runs;
	p.m.warmup_s = 0.01;
	memset(out, 0, sizeof(*out));
	rc = run_procs(&p, &self, out, &ctl, err, sizeof(err));
	ukb_selection_release(&sel);
	if (rc < 0)
		error("%s", err);
	if (!rc && (out->nresults != 1 || out->results[0].status != UKB_OK)) {
		error("cannot measure lab.spin: %s",
		      out->nresults ? out->results[0].reason : "no result");
		rc = -1;
	}
	/* the comparisons pair results by name: make A' and the others A's */
	if (!rc)
		snprintf(out->results[0].name, sizeof(out->results[0].name), "lab.spin");
	return rc;
}

struct tally {
	size_t flagged[NRUNS];
	double *mde;
	size_t nmde;
};

/* Compares the runs of one round, as `compare` would, into @t. */
static void tally_round(const struct rec_run *runs, const struct cmp_opts *o, struct tally *t)
{
	for (int k = A2; k < NRUNS; k++) {
		struct cmp_row *rows;
		size_t n;

		compare_runs(&runs[A1], &runs[k], o, &rows, &n);
		if (n && rows[0].ok) {
			int aa = k == A2;

			t->flagged[k] +=
			    aa ? rows[0].verdict == UKB_IMPROVED || rows[0].verdict == UKB_REGRESSED
			       : rows[0].verdict == UKB_REGRESSED;
			if (aa)
				t->mde[t->nmde++] = rows[0].c.mde;
		}
		free(rows);
	}
}

/*
 * The floor: the variance of the unchanged runs' log means between runs,
 * beyond the variance of each run's mean that its processes show.
 */
static double floor_of(struct rec_run (*all)[NRUNS], size_t rounds)
{
	double lm[2 * rounds], within[2 * rounds];
	size_t n = 0;

	for (size_t r = 0; r < rounds; r++)
		for (int k = A1; k <= A2; k++) {
			const struct rec_result *x = all[r][k].nresults ? all[r][k].results : NULL;
			double rel;

			if (!x || x->status != UKB_OK || !(x->stats.mean > 0) || !x->nproc)
				continue;
			rel = x->between_sd / x->stats.mean;
			lm[n] = log(x->stats.mean);
			within[n++] = rel * rel / (double)x->nproc;
		}
	return ukb_between_runs_sd(lm, within, n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The rates of every change without and with the floor, and the MDE with it. */
static void print_rates(const struct calibrate_cli *c, struct tally *t, double floor)
{
	qsort(t[1].mde, t[1].nmde, sizeof(double), cmp_double);
	printf("%-8s %8s %14s %14s\n", "change", "rounds", "flagged", "with the floor");
	for (int k = A2; k < NRUNS; k++)
		printf("%-8s %8lu %8zu %4.0f%% %8zu %4.0f%%  %s\n", run_label[k], c->rounds,
		       t[0].flagged[k], 100.0 * (double)t[0].flagged[k] / (double)c->rounds,
		       t[1].flagged[k], 100.0 * (double)t[1].flagged[k] / (double)c->rounds,
		       k == A2 ? "(false alarms)" : "(detections)");
	printf("\nbetween runs at different times, a run's mean moves by %.2f%% (SD) beyond what "
	       "its\nprocesses show: the floor run and compare add for this host\n",
	       100 * floor);
	printf("minimum detectable effect of one run against another (80%% power, the floor "
	       "added),\nmedian over rounds: %.2f%%\n",
	       t[1].nmde ? 100 * t[1].mde[t[1].nmde / 2] : NAN);
}

static int store_floor(const struct calibrate_cli *c, double floor)
{
	struct store_floor f = { .floor = floor, .rounds = (unsigned)c->rounds };
	char path[4096], err[1024];
	struct ukb_env env;
	struct store *st;
	time_t now = time(NULL);
	int ret;

	if (c->no_store)
		return 0;
	st = store_open_cli(c->db, path, sizeof(path));
	if (!st)
		return -1;
	ukb_env_capture(&env);
	strftime(f.started, sizeof(f.started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	ret = store_floor_put(st, env.hostname, &f, err, sizeof(err));
	if (ret)
		error("%s", err);
	else
		printf("stored for host '%s' in %s\n", env.hostname, path);
	store_close(st);
	return ret;
}

/* Every round: five runs in a shuffled order, kept in @all. */
static int measure_rounds(const struct calibrate_cli *c, struct rec_run (*all)[NRUNS])
{
	uint64_t seed = (uint64_t)time(NULL);

	for (unsigned long r = 0; r < c->rounds && !stop_signal; r++) {
		size_t order[NRUNS];

		ukb_shuffle(order, NRUNS, &seed);
		for (int i = 0; i < NRUNS; i++)
			if (one_run(c, run_variant[order[i]], &all[r][order[i]]))
				return stop_signal ? 128 + (int)stop_signal : -1;
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\rround %lu/%lu", r + 1, c->rounds);
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	return stop_signal ? 128 + (int)stop_signal : 0;
}

/* The comparisons of every round, without the floor and with it; 0 or -1. */
static int tally_all(const struct calibrate_cli *c, struct rec_run (*all)[NRUNS], double floor,
		     struct tally *t)
{
	for (int pass = 0; pass < 2; pass++) {
		struct cmp_opts o = { .alpha = 0.05,
				      .threshold = c->threshold,
				      .limit = -1,
				      .floor = pass ? floor : 0 };

		t[pass].mde = calloc(c->rounds, sizeof(double));
		if (!t[pass].mde)
			return -1;
		for (size_t r = 0; r < c->rounds; r++)
			tally_round(all[r], &o, &t[pass]);
	}
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_cli c = { .rounds = 10, .runs = 5, .budget_s = 0.75, .threshold = 0.01 };
	struct rec_run(*all)[NRUNS];
	struct tally t[2] = { 0 };
	int first, rc;

	rc = opts_parse(&cmd_calibrate_def, argc, argv, 0, set_option, &c, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (first < argc) {
		error("'ukbench calibrate' takes no arguments, got '%s'", argv[first]);
		return UKB_EXIT_USAGE;
	}
	all = calloc(c.rounds, sizeof(*all));
	if (!all)
		return UKB_EXIT_FAIL;
	run_catch_stops(on_signal);
	printf("calibrate: lab.spin, %lu rounds of 5 runs, each %lu fresh processes and %g s, "
	       "verdict at p < 0.05 and beyond %g%%\n\n",
	       c.rounds, c.runs, c.budget_s, 100 * c.threshold);
	rc = measure_rounds(&c, all);
	if (!rc) {
		double floor = floor_of(all, c.rounds);

		rc = tally_all(&c, all, floor, t);
		if (!rc) {
			print_rates(&c, t, floor);
			rc = store_floor(&c, floor);
		}
	} else if (rc > 0) {
		error("interrupted by signal %d; nothing stored", rc - 128);
	}
	for (size_t r = 0; r < c.rounds; r++)
		for (int k = 0; k < NRUNS; k++)
			rec_run_release(&all[r][k]);
	free(all);
	free(t[0].mde);
	free(t[1].mde);
	return rc > 0 ? rc : rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
}

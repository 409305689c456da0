// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-calibrate.c - `ukbench calibrate`: what does `compare` achieve on
 * this machine?
 *
 * It measures what `compare` does, the way a patch author's runs are made:
 * each round makes five separate runs in fresh processes as `run` makes
 * them, one after another and in a shuffled order, so that the variation
 * between processes and between moments enters as it does for real runs.
 * Two runs are unchanged (A and A': lab.spin and the paths named, by
 * default a vDSO call and a system call; a verdict other than "no change"
 * or "within noise" is a false alarm), three are lab.spin slowed by
 * exactly 2%, 5% and 10% of work (a "regressed" verdict is a detection).
 * The comparisons go through the same code as `compare`.
 *
 * The unchanged runs also measure what one run cannot see of itself: how
 * much a path's mean moves between runs of the same thing beyond what its
 * processes show, learned by the code compare learns with (learn.h). They
 * are stored as repeated runs of the label "calibrate", which teach run
 * and compare like any of the host's runs; the largest floor is kept with
 * the calibration, as a record. A calibration on a busy machine (load, or
 * time its paths waited, store.h) measures that machine's floor, not a
 * quiet one's: it is refused unless --busy says that is what is wanted,
 * and marked.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "busy.h"
#include "cmp-floor.h"
#include "comparison.h"
#include "describe.h"
#include "env.h"
#include "learn.h"
#include "options.h"
#include "runner.h"
#include "runref.h"
#include "stats.h"
#include "store.h"
#include "progress.h"
#include "width.h"

struct calibrate_cli {
	unsigned long rounds, runs;
	double budget_s, threshold;
	const char *db;
	int no_store, busy, reset, yes;
	char **pats; /* the paths of the A/A runs besides lab.spin */
	int npats;
	long *sizes; /* --size: the request sizes of the sized paths of A */
};

static const struct opt calibrate_opts[] = {
	OPT_ULONG("rounds", 0, "N", "rounds", 2, 1000, struct calibrate_cli, rounds, OPT_DEF("8")),
	OPT_DOUBLE(
	    "budget", 'b', "SEC",
	    "measuring time per path, as run's --budget (default:\nrun's for the paths of A)", 0.01,
	    3600, struct calibrate_cli, budget_s),
	OPT_ULONG("processes", 'r', "N",
		  "fresh processes per run, as run's -r (default:\nchosen per path, as run does)",
		  2, 100, struct calibrate_cli, runs),
	OPT_FUNC("size", 's', "LIST",
		 "request sizes of the sized paths of A, as run's --size:\n"
		 "calibrate the settings you compare",
		 opt_parse_sizes, long *, struct calibrate_cli, sizes),
	OPT_PERCENT("threshold", 't', "PCT", "noise threshold of the verdict, in %", 0, 100,
		    struct calibrate_cli, threshold, OPT_DEF(CMP_DEF_TEXT(CMP_THRESHOLD_PCT))),
	OPT_STRING("db", 0, "PATH", "the store the runs and the host's floor are kept in",
		   struct calibrate_cli, db),
	OPT_BOOL("no-store", 0, "store nothing", struct calibrate_cli, no_store),
	OPT_BOOL(
	    "busy", 0,
	    "store a calibration made on a busy machine (marked so);\nwithout it, one is refused",
	    struct calibrate_cli, busy),
	OPT_BOOL("reset", 0,
		 "forget what calibrate learned of this host: its floors\nand its runs labelled "
		 "'calibrate' (measures nothing)",
		 struct calibrate_cli, reset),
	OPT_BOOL("yes", 'y', "--reset without asking", struct calibrate_cli, yes),
	OPT_END,
};

const struct command cmd_calibrate_def = {
	.name = "calibrate",
	.fn = cmd_calibrate,
	.summary = "measure what compare achieves here: false alarms, detection",
	.synopsis = "[--rounds N] [--budget SEC] [-r N] [-s LIST]\n"
		    "                         [--threshold PCT] [--db PATH] [--no-store] [--busy]\n"
		    "                         [PATTERN...]\n"
		    "   or: ukbench calibrate --reset [--yes]",
	.about = "Measures what 'compare' achieves on this machine. Each round makes five\n"
		 "runs as 'run' makes them (fresh processes), one after another in a shuffled\n"
		 "order: two unchanged (A/A: lab.spin and the paths PATTERN names, by default\n"
		 "time.clock_gettime.monotonic/vdso and syscall.null/syscall; a verdict of\n"
		 "improved or regressed is a false alarm) and three of lab.spin slowed by\n"
		 "exactly 2%, 5% and 10% of work (a 'regressed' verdict is a detection),\n"
		 "compared with the same code as 'compare'. It reports the false-alarm rate,\n"
		 "the detection rate of each size and the minimum detectable effect, and how\n"
		 "much each path's mean moves between runs beyond what its processes show:\n"
		 "the unchanged runs are stored as repeated runs of the label 'calibrate',\n"
		 "which teach run and compare each path's floor as any of this host's runs\n"
		 "do. A calibration made on a\n"
		 "busy machine (load average of a CPU or more, or its paths' threads\n"
		 "waiting 7% of the time or more) is refused unless --busy.",
	.opts = calibrate_opts,
	.old = (const struct opt_old[]){ { "runs", 0, "processes" }, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench calibrate\n"
		  "  ukbench calibrate --rounds 30\n"
		  "  ukbench calibrate 'time.*/vdso' syscall.null\n"
		  "  ukbench calibrate -s 4k,64k copy.read_zero/read syscall.null\n",
};

/* The five runs of a round: A, A' and the planted changes. */
enum { A1, A2, S2, S5, S10, NRUNS };
static const char *const run_variant[NRUNS] = { "base", "base", "slow2", "slow5", "slow10" };
static const char *const run_label[NRUNS] = { "", "A/A", "+2%", "+5%", "+10%" };

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const char *const default_paths[] = { "time.clock_gettime.monotonic/vdso",
					     "syscall.null/syscall" };

/* The progress line on a terminal: round, run of the round, the time so far and left. */
struct cal_progress {
	uint64_t t0;
	unsigned long round, rounds;
	int run;	      /* 0 .. NRUNS - 1 */
	int said_unavailable; /* the paths this machine lacks were named */
};

static void cal_tick(void *arg)
{
	const struct cal_progress *pg = arg;
	double elapsed = (double)(ukb_now_ns() - pg->t0) / 1e9;
	double done = (double)pg->round * NRUNS + pg->run, all = (double)pg->rounds * NRUNS;
	char where[64];

	if (!isatty(STDERR_FILENO))
		return;
	snprintf(where, sizeof(where), "round %lu/%lu, run %d/%d", pg->round + 1, pg->rounds,
		 pg->run + 1, NRUNS);
	progress_draw(where, elapsed, done > 0 ? elapsed / done * (all - done) : -1, NULL);
}

/*
 * One run of lab.spin.@variant in fresh processes, with the paths named
 * when it is the unchanged one; a record as run makes it. 0, or -1
 * (printed).
 */
static int one_run(const struct calibrate_cli *c, const char *variant, struct rec_run *out,
		   struct cal_progress *pg)
{
	static const char *const self_argv[] = { "ukbench", "worker" };
	const struct worker self = { "/proc/self/exe", self_argv, 2, "", NULL };
	struct run_ctl ctl = { .stop = &stop_signal, .arg = pg, .tick = cal_tick };
	int base = !strcmp(variant, "base"), npats = 1;
	char pattern[64], *pats[64] = { pattern }, err[1024];
	struct ukb_selection sel;
	struct ukb_clock_info clk;
	struct run_plan p = { 0 };
	struct ukb_env env;
	struct ukb_err e;
	int rc;

	snprintf(pattern, sizeof(pattern), "lab.spin.%s/loop", variant);
	for (int i = 0; base && i < c->npats && npats < 64; i++)
		pats[npats++] = c->pats[i];
	/* the sizes are A's: lab.spin's slowed runs take none */
	p.sel.sizes = base ? c->sizes : NULL;
	if (ukb_select(&sel, npats, pats, 0, base ? &p.sel : NULL, 1, &e)) {
		error_hint(&e);
		ukb_selection_release(&sel);
		return -1;
	}
	ukb_measure_opts_init(&p.m);
	p.cases = sel.cases;
	p.ncases = sel.n;
	/* as run makes them: the same budget a path, the same processes */
	p.m.budget_s = c->budget_s > 0 ? c->budget_s : plan_default_budget((size_t)c->npats + 1);
	if (c->runs) {
		p.procs = (unsigned)c->runs;
		p.m.budget_s = p.m.min_time_s = p.m.budget_s / (double)c->runs;
		p.m.warmup_s = 0.01;
	} else {
		plan_choose_processes(&p, 0);
	}
	ukb_env_capture(&env);
	rec_run_begin(out, &env, time(NULL), "calibrate");
	snprintf(out->source, sizeof(out->source), "calibrate");
	rc = ukb_clock_probe(&clk);
	if (!rc && describe_run(out, &env, &p.m, p.procs, &clk))
		rc = -ENOMEM;
	if (!rc) {
		uint64_t t0 = ukb_now_ns();

		rc = run_procs(&p, &self, out, &ctl, err, sizeof(err));
		out->duration_s = (double)(ukb_now_ns() - t0) / 1e9;
		if (rc < 0)
			error("%s", err);
	} else {
		error("cannot describe the run: %s", strerror(-rc));
		rc = -1;
	}
	ukb_selection_release(&sel);
	/* a path this machine does not have (a vDSO symbol it lacks) is left out, once said */
	if (!rc) {
		size_t k = 0;

		for (size_t i = 0; i < out->nresults; i++) {
			struct rec_result *r = &out->results[i];

			if (r->status == UKB_UNSUPPORTED || r->status == UKB_SKIPPED) {
				char why[300];

				if (!pg->said_unavailable)
					fprintf(stderr,
						"note: %s/%s is not available here (%s): not "
						"calibrated\n",
						r->name, r->path, vis(r->reason, why, sizeof(why)));
				rec_result_release(r);
				continue;
			}
			if (k != i)
				out->results[k] = *r;
			k++;
		}
		out->nresults = k;
		pg->said_unavailable = 1;
	}
	for (size_t i = 0; !rc && i < out->nresults; i++)
		if (out->results[i].status != UKB_OK) {
			error("cannot measure %s/%s: %s", out->results[i].name,
			      out->results[i].path, out->results[i].reason);
			rc = -1;
		}
	if (!rc && !out->nresults) {
		error("cannot measure lab.spin: no result");
		rc = -1;
	}
	/* the comparisons pair results by name: the slowed runs stand for A's */
	if (!rc && !base)
		snprintf(out->results[0].name, sizeof(out->results[0].name), "lab.spin.base");
	return rc;
}

struct tally {
	size_t flagged[NRUNS];
	size_t aa_rows; /* path comparisons of A against A' */
	double *mde;	/* of lab.spin, A against A' */
	size_t nmde;
};

/* Compares the runs of one round, as `compare` would, into @t. */
static void tally_round(const struct rec_run *runs, const struct cmp_opts *o, struct tally *t)
{
	for (int k = A2; k < NRUNS; k++) {
		struct cmp_row *rows;
		size_t n;

		compare_runs(&runs[A1], &runs[k], o, &rows, &n);
		for (size_t i = 0; i < n; i++) {
			int spin = rows[i].a && !strcmp(rows[i].a->name, "lab.spin.base");

			if (!rows[i].ok || (k != A2 && !spin))
				continue;
			if (k == A2) {
				/* every path of A and A': a verdict either way is a false alarm */
				t->aa_rows++;
				t->flagged[k] += rows[i].verdict == UKB_IMPROVED ||
						 rows[i].verdict == UKB_REGRESSED;
				if (spin)
					t->mde[t->nmde++] = rows[i].c.mde;
			} else {
				t->flagged[k] += rows[i].verdict == UKB_REGRESSED;
			}
		}
		free(rows);
	}
}

/*
 * What the unchanged runs teach of path @i: its floors and its slope, by
 * the code compare learns with (learn.h), the runs of one calibration
 * being one group.
 */
static void floor_of(struct rec_run (*all)[NRUNS], size_t rounds, size_t i, struct learn_model *m)
{
	struct learn_run lr[2 * rounds];
	size_t n = 0;

	learn_model(NULL, 0, NULL, 0, m);
	if (i >= all[0][A1].nresults || !all[0][A1].results)
		return;
	for (size_t r = 0; r < rounds; r++)
		for (int k = A1; k <= A2; k++) {
			const struct rec_result *x =
			    i < all[r][k].nresults ? &all[r][k].results[i] : NULL;

			if (!x || x->status != UKB_OK ||
			    strcmp(x->name, all[0][A1].results[i].name) ||
			    strcmp(x->path, all[0][A1].results[i].path) ||
			    learn_run_of(x->proc_means, x->proc_ref, x->nproc, &lr[n]))
				continue;
			lr[n].id = (int64_t)n + 1;
			lr[n].group = 0;
			n++;
		}
	learn_model(lr, n, NULL, 0, m);
}

/* Each path's floors, printed; the largest of each kind returned. */
static void floors(struct rec_run (*all)[NRUNS], size_t rounds, struct learn_model *each,
		   double *most, double *most_adj)
{
	*most = *most_adj = 0;
	printf("\nbetween runs at different times, a path's mean moves beyond what its "
	       "processes show\n(SD, the floor): of the measured means, and at one speed of "
	       "the machine, as\ncompare takes them (the path's slope on the reference "
	       "beside it taken out):\n");
	printf("  %-36s %8s %8s %6s\n", "", "measured", "adjusted", "slope");
	for (size_t i = 0; i < all[0][A1].nresults; i++) {
		floor_of(all, rounds, i, &each[i]);
		printf("  %-36s %7.2f%% %7.2f%% %6.2f\n", all[0][A1].results[i].name,
		       100 * each[i].raw.learned, 100 * each[i].adj.learned, each[i].beta);
		if (each[i].raw.learned > *most)
			*most = each[i].raw.learned;
		if (each[i].adj.learned > *most_adj)
			*most_adj = each[i].adj.learned;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The rates of every change without and with the floor, and the MDE with it. */
static void print_rates(const struct calibrate_cli *c, struct tally *t)
{
	qsort(t[1].mde, t[1].nmde, sizeof(double), cmp_double);
	printf("%-8s %8s %14s %14s\n", "change", "compared", "flagged", "with the floor");
	for (int k = A2; k < NRUNS; k++) {
		size_t n = k == A2 ? t[0].aa_rows : c->rounds;

		printf("%-8s %8zu %8zu %4.0f%% %8zu %4.0f%%  %s\n", run_label[k], n,
		       t[0].flagged[k], n ? 100.0 * (double)t[0].flagged[k] / (double)n : 0,
		       t[1].flagged[k], n ? 100.0 * (double)t[1].flagged[k] / (double)n : 0,
		       k == A2 ? "(false alarms, every path)" : "(detections, lab.spin)");
	}
	printf("\nminimum detectable effect of lab.spin, one run against another (80%% power, "
	       "the floor\nadded), median over rounds: %.2f%%\n",
	       t[1].nmde ? 100 * t[1].mde[t[1].nmde / 2] : NAN);
}

/*
 * The conditions of the unchanged runs: median load per CPU, share of the
 * time waited and disturbed share (busy.h).
 */
static int rounds_busy(struct rec_run (*all)[NRUNS], size_t rounds, double *load, double *waited,
		       double *dist)
{
	double l[2 * rounds], w[2 * rounds], d[2 * rounds];
	size_t n = 0;

	for (size_t r = 0; r < rounds; r++)
		for (int k = A1; k <= A2; k++, n++)
			run_busy(&all[r][k], &l[n], &w[n], &d[n]);
	*load = ukb_median_finite(l, n);
	*waited = ukb_median_finite(w, n);
	*dist = ukb_median_finite(d, n);
	return cmp_busy(*load, *waited, *dist);
}

/* Stores the unchanged runs and the host's floor; 0 or -1. */
static int store_calibration(const struct calibrate_cli *c, struct rec_run (*all)[NRUNS],
			     double floor, double floor_adj, double load, double waited,
			     double dist)
{
	struct store_floor f = { .floor = floor,
				 .adjusted = floor_adj,
				 .rounds = (unsigned)c->rounds,
				 .load = load,
				 .disturbed = dist,
				 .waited = waited };
	char path[4096], err[1024];
	struct store *st;
	time_t now = time(NULL);
	int ret = 0;

	if (c->no_store)
		return 0;
	st = store_open_cli(c->db, path, sizeof(path));
	if (!st)
		return -1;
	for (size_t r = 0; r < c->rounds && !ret; r++)
		for (int k = A1; k <= A2 && !ret; k++)
			if ((ret = store_save(st, &all[r][k], err, sizeof(err))))
				error("%s", err);
	strftime(f.started, sizeof(f.started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (!ret && (ret = store_floor_put(st, all[0][A1].host, &f, err, sizeof(err))))
		error("%s", err);
	if (!ret)
		printf("stored for host '%s' in %s: %lu runs labelled 'calibrate', the host's "
		       "floor %.2f%%\n(%.2f%% at one speed of the machine)\n",
		       all[0][A1].host, path, 2 * c->rounds, 100 * floor, 100 * floor_adj);
	store_close(st);
	return ret;
}

/* Every round: five runs in a shuffled order, kept in @all. */
static int measure_rounds(const struct calibrate_cli *c, struct rec_run (*all)[NRUNS])
{
	uint64_t seed = (uint64_t)time(NULL);
	struct cal_progress pg = { .t0 = ukb_now_ns(), .rounds = c->rounds };

	for (unsigned long r = 0; r < c->rounds && !stop_signal; r++) {
		size_t order[NRUNS];

		ukb_shuffle(order, NRUNS, &seed);
		for (int i = 0; i < NRUNS; i++) {
			pg.round = r;
			pg.run = i;
			cal_tick(&pg);
			if (one_run(c, run_variant[order[i]], &all[r][order[i]], &pg))
				return stop_signal ? 128 + (int)stop_signal : -1;
		}
	}
	if (isatty(STDERR_FILENO))
		progress_clear();
	return stop_signal ? 128 + (int)stop_signal : 0;
}

/* The comparisons of every round, without the floor and with it; 0 or -1. */
static int tally_all(const struct calibrate_cli *c, struct rec_run (*all)[NRUNS],
		     const struct learn_model *each, struct tally *t)
{
	for (int pass = 0; pass < 2; pass++) {
		struct cmp_opts o = cmp_defaults();

		o.threshold = c->threshold;
		t[pass].mde = calloc(c->rounds, sizeof(double));
		if (!t[pass].mde)
			return -1;
		for (size_t r = 0; r < c->rounds; r++) {
			/* the slowed runs stand for A's path: they get its floor */
			for (int k = 0; k < NRUNS; k++)
				for (size_t i = 0; i < all[r][k].nresults; i++) {
					struct rec_result *x = &all[r][k].results[i];
					struct floor_pick p = { .source = FLOOR_LEARNED };

					if (i >= all[0][A1].nresults)
						continue;
					p.m = each[i];
					floor_apply(&p, x);
					if (!pass)
						x->fl.raw = x->fl.adj = 0;
				}
			tally_round(all[r], &o, &t[pass]);
		}
	}
	return 0;
}

/* --reset: this host's calibrations and calibrate's runs go. */
static int reset(const struct calibrate_cli *c)
{
	char path[4096], err[1024], line[16];
	struct ukb_env env;
	struct store *st;
	size_t n;
	int ret = UKB_EXIT_OK;

	ukb_env_capture(&env);
	if (!c->yes) {
		if (!isatty(STDIN_FILENO)) {
			error("--reset forgets every floor calibrate learned of '%s': add --yes to "
			      "say so",
			      env.hostname);
			return UKB_EXIT_FAIL;
		}
		fprintf(stderr, "forget every floor calibrate learned of '%s'? [y/N] ",
			env.hostname);
		if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y')) {
			fprintf(stderr, "nothing changed\n");
			return UKB_EXIT_FAIL;
		}
	}
	st = store_open_cli(c->db, path, sizeof(path));
	if (!st)
		return UKB_EXIT_USAGE;
	if (store_floor_reset(st, env.hostname, &n, err, sizeof(err))) {
		error("%s", err);
		ret = UKB_EXIT_FAIL;
	} else {
		printf("forgot the calibrations of '%s' and its %zu run%s labelled 'calibrate' in "
		       "%s\n",
		       env.hostname, n, n == 1 ? "" : "s", path);
	}
	store_close(st);
	return ret;
}

/* The paths and sizes of A, refused before anything is measured when wrong. */
static int check_paths(struct calibrate_cli *c)
{
	struct select_opts so = { .sizes = c->sizes };
	struct ukb_selection sel;
	struct ukb_err e;
	int rc = ukb_select(&sel, c->npats, c->pats, 0, &so, 1, &e);

	if (rc)
		error_hint(&e);
	ukb_selection_release(&sel);
	return rc;
}

/* cmd_calibrate() with its options parsed (@first: the first pattern in @argv). */
static int calibrate(struct calibrate_cli *cp, int argc, char **argv, int first)
{
	struct calibrate_cli c = *cp;
	struct rec_run(*all)[NRUNS];
	struct tally t[2] = { 0 };
	struct learn_model *each = NULL;
	int rc;

	if (c.reset) {
		if (first < argc) {
			error("--reset takes no pattern, got '%s'", argv[first]);
			return UKB_EXIT_USAGE;
		}
		return reset(&c);
	}
	if (c.yes) {
		error("--yes goes with --reset");
		return UKB_EXIT_USAGE;
	}
	c.pats = first < argc ? argv + first : (char **)default_paths;
	c.npats = first < argc ? argc - first : 2;
	if (check_paths(&c))
		return UKB_EXIT_USAGE;
	all = calloc(c.rounds, sizeof(*all));
	if (!all)
		return UKB_EXIT_FAIL;
	run_catch_stops(on_signal);
	{
		char procs[32];

		if (c.runs)
			snprintf(procs, sizeof(procs), "%lu", c.runs);
		else
			snprintf(procs, sizeof(procs), "chosen");
		printf("calibrate: %lu rounds of 5 runs, each in fresh processes (%s) and %g s a "
		       "path;\nverdict at p < 0.05 and beyond %g%%\n",
		       c.rounds, procs,
		       c.budget_s > 0 ? c.budget_s : plan_default_budget((size_t)c.npats + 1),
		       100 * c.threshold);
	}
	rc = measure_rounds(&c, all);
	if (!rc) {
		double floor = 0, floor_adj = 0, load, waited, dist;
		int busy;

		each = calloc(all[0][A1].nresults + 1, sizeof(*each));
		if (each)
			floors(all, c.rounds, each, &floor, &floor_adj);
		rc = each ? tally_all(&c, all, each, t) : -1;
		busy = rounds_busy(all, c.rounds, &load, &waited, &dist);
		if (!rc) {
			printf("\n");
			print_rates(&c, t);
			printf("measured at a load of %.2f per CPU, %.1f%% of batches disturbed, "
			       "%.1f%% of their time waited%s\n",
			       load, 100 * dist, 100 * waited, busy ? ": a busy machine" : "");
		}
		if (!rc && busy && !c.busy && !c.no_store) {
			error("not stored: this machine was busy while calibrating (load %.2f per "
			      "CPU, %.1f%% of batches disturbed, %.1f%% of their time waited), and "
			      "its floor would stand for quiet runs too; calibrate when it is "
			      "quiet, or pass --busy to keep it, marked",
			      load, 100 * dist, 100 * waited);
			rc = -1;
		} else if (!rc) {
			rc = store_calibration(&c, all, floor, floor_adj, load, waited, dist);
		}
	} else if (rc > 0) {
		error("interrupted by signal %d; nothing stored", rc - 128);
	}
	for (size_t r = 0; r < c.rounds; r++)
		for (int k = 0; k < NRUNS; k++)
			rec_run_release(&all[r][k]);
	free(all);
	free(each);
	free(t[0].mde);
	free(t[1].mde);
	return rc > 0 ? rc : rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_cli c = { 0 };
	int first, rc;

	rc = opts_parse(&cmd_calibrate_def, argc, argv, 0, NULL, &c, &first);
	if (!rc)
		rc = calibrate(&c, argc, argv, first);
	else
		rc = rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	free(c.sizes);
	return rc;
}

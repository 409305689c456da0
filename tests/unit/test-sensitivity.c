// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sensitivity.c - what makes a comparison sensitive, on fixed data:
 * the judgement of a disturbed batch, the statistics that leave those
 * batches out, the floor learned within labels and after the reference,
 * the allocation of processes, and the comparison at one speed of the
 * machine. Nothing here depends on the machine it runs on.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "alloc.h"
#include "cmp-floor.h"
#include "comparison.h"
#include "disturb.h"
#include "measure.h"
#include "record.h"
#include "reference.h"
#include "stats.h"
#include "store.h"

/* ------------------------------------------------------------------ */
/* The judgement of a batch                                            */

static void test_disturbed_judgement(void **state)
{
	struct ukb_disturb d = { .have_cpu = 1, .have_rusage = 1 };
	struct ukb_mark a = { .cpu_ns = 1000000, .switches = 7 }, b = a;
	double cpu;

	(void)state;
	/* ran throughout: CPU time a little over wall time (the clock reads) */
	b.cpu_ns = a.cpu_ns + 1000500;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 1000000, &cpu), 0);
	assert_true(fabs(cpu - 1000500) < 1e-9);
	/* switched out: whatever the times say */
	b.switches = 8;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 1000000, &cpu), UKB_DIST_SWITCHED);
	/* off the CPU for more than 0.5% of a 1 ms batch: 5 us */
	b.switches = 7;
	b.cpu_ns = a.cpu_ns + 1000000 - 5001;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 1000000, &cpu), UKB_DIST_OFFCPU);
	b.cpu_ns = a.cpu_ns + 1000000 - 4999;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 1000000, &cpu), 0);
	/* a long batch: 0.5% of 10 ms is 50 us */
	b.cpu_ns = a.cpu_ns + 10000000 - 40000;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 10000000, &cpu), 0);
	b.cpu_ns = a.cpu_ns + 10000000 - 60000;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 10000000, &cpu), UKB_DIST_OFFCPU);
	/*
	 * which CPU clocks judge: one of scheduler ticks (4 ms, standing
	 * still between reads) not; one of nanoseconds read cheaply, or read
	 * through a system call of 1.4 us (it advances at every read), does;
	 * one that stands still between reads and steps by 1.4 us does not
	 */
	assert_false(ukb_cpu_clock_fine(4e6, 100000));
	assert_true(ukb_cpu_clock_fine(40, 3));
	assert_true(ukb_cpu_clock_fine(1400, 0));
	assert_false(ukb_cpu_clock_fine(1400, 5));
	assert_false(ukb_cpu_clock_fine(20000, 0));
	assert_false(ukb_cpu_clock_fine(0, 0));
	/* a coarse CPU clock is not used to judge; the switches still are */
	d.have_cpu = 0;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 10000000, &cpu), 0);
	b.switches = 9;
	assert_int_equal(ukb_disturbed(&d, &a, &b, 10000000, &cpu), UKB_DIST_SWITCHED);
}

/* The figure leaves the marked batches out, keeps them when told, and
 * falls back to every batch when fewer than two ran undisturbed. */
static void test_figure_stats(void **state)
{
	const double x[] = { 10, 11, 50, 12, 90 };
	uint8_t d[] = { 0, 0, UKB_DIST_SWITCHED, 0, UKB_DIST_OFFCPU };
	struct ukb_stats st;

	(void)state;
	assert_int_equal(ukb_figure_stats(x, d, 5, 0, &st), 1);
	assert_int_equal(st.n, 3);
	assert_true(fabs(st.mean - 11) < 1e-12);
	assert_int_equal(ukb_figure_stats(x, d, 5, 1, &st), 0);
	assert_int_equal(st.n, 5);
	assert_int_equal(ukb_figure_stats(x, NULL, 5, 0, &st), 0);
	assert_int_equal(st.n, 5);
	d[0] = d[1] = UKB_DIST_SWITCHED;
	assert_int_equal(ukb_figure_stats(x, d, 5, 0, &st), 0);
	assert_int_equal(st.n, 5);
}

/* ------------------------------------------------------------------ */
/* Floors                                                               */

/* Groups shifted far apart do not enter: only the spread within each. */
static void test_floor_within_groups(void **state)
{
	const double lm[] = { 0.00, 0.02, -0.02, 1.00, 1.02, 0.98, 5.0 };
	const double w[7] = { 0 };
	const size_t g[] = { 0, 0, 0, 1, 1, 1, 2 };
	size_t df;
	double f;

	(void)state;
	f = ukb_between_runs_sd_grouped(lm, w, g, 7, &df);
	/* the lone run of group 2 adds nothing; SD 0.02 within each group */
	assert_int_equal(df, 4);
	assert_true(fabs(f - 0.02) < 1e-9);
	/* ignoring the groups, the change between them would be the floor */
	assert_true(ukb_between_runs_sd(lm, w, 6) > 0.4);
}

/* A uniform draw in [-0.5, 0.5) from the LCG state *@x, which moves on. */
static double centred_uniform(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*x >> 11) / 9007199254740992.0 - 0.5;
}

/* A slope known by construction is found, and the floor is what is left. */
static void test_floor_adjusted_recovers_slope(void **state)
{
	struct ukb_run_pair p[40];
	struct ukb_adjust a;
	double f;
	uint64_t x = 12345;

	(void)state;
	for (int i = 0; i < 40; i++) {
		double drift, noise;

		drift = 0.1 * centred_uniform(&x);
		noise = 0.004 * centred_uniform(&x);
		p[i] =
		    (struct ukb_run_pair){ .lx = drift, .ly = 3 + 0.8 * drift + noise, .group = 0 };
	}
	f = ukb_floor_adjusted(p, 40, &a);
	assert_int_equal(a.df, 38);
	assert_true(fabs(a.beta - 0.8) < 0.02);
	assert_true(a.se_beta > 0 && a.se_beta < 0.02);
	/* uniform noise of width 0.004 has an SD of 0.0012; none grows with the move */
	assert_true(f > 0.0008 && f < 0.0016);
	assert_true(a.tau < 0.025);
	/* what the runs' own processes show is taken off */
	for (int i = 0; i < 40; i++)
		p[i].vyy = 0.0012 * 0.0012;
	assert_true(ukb_floor_adjusted(p, 40, &a) < f / 3);
	/* too few runs: nothing */
	assert_true(ukb_floor_adjusted(p, 4, &a) == 0 && a.df == 0 && a.beta == 0);
}

/*
 * The reference of each run is measured with noise as large as the
 * machine's move: least squares would find half the slope; with the noise
 * each run's processes show taken out, the slope is found.
 */
static void test_floor_adjusted_noisy_reference(void **state)
{
	struct ukb_run_pair p[400];
	struct ukb_adjust a;
	double sxx = 0, sxy = 0, mx = 0, my = 0;
	uint64_t x = 4242;

	(void)state;
	for (int i = 0; i < 400; i++) {
		double drift, noise;

		drift = 0.02 * centred_uniform(&x);
		noise = 0.02 * centred_uniform(&x);
		/* uniform of width 0.02: a variance of 0.02^2 / 12 */
		p[i] = (struct ukb_run_pair){ .lx = drift + noise,
					      .ly = 3 + 0.9 * drift,
					      .vxx = 0.02 * 0.02 / 12,
					      .group = 0 };
		mx += p[i].lx / 400;
		my += p[i].ly / 400;
	}
	for (int i = 0; i < 400; i++) {
		sxx += (p[i].lx - mx) * (p[i].lx - mx);
		sxy += (p[i].lx - mx) * (p[i].ly - my);
	}
	/* what least squares alone gives: about half */
	assert_true(sxy / sxx > 0.35 && sxy / sxx < 0.55);
	ukb_floor_adjusted(p, 400, &a);
	assert_true(fabs(a.beta - 0.9) < 0.1);
	assert_true(a.se_beta > 0 && a.se_beta < 0.1);
	/* a path that does not move with the machine: no slope */
	for (int i = 0; i < 400; i++)
		p[i].ly = 3;
	ukb_floor_adjusted(p, 400, &a);
	assert_true(a.beta < 0.25);
}

/* Each run's own slope strays from the common one: tau says by how much. */
static void test_floor_adjusted_slope_noise(void **state)
{
	struct ukb_run_pair p[60];
	struct ukb_adjust a;
	uint64_t x = 777;

	(void)state;
	for (int i = 0; i < 60; i++) {
		double drift, slope;

		drift = 0.3 * centred_uniform(&x);
		/* a slope of 0.8 +- 0.2 (uniform): its SD is 0.115 */
		slope = 0.8 + 0.4 * centred_uniform(&x);
		p[i] = (struct ukb_run_pair){ .lx = drift, .ly = slope * drift, .group = 0 };
	}
	ukb_floor_adjusted(p, 60, &a);
	assert_true(fabs(a.beta - 0.8) < 0.05);
	/* the pair's difference strays by about sqrt(2)/2 of it per unit of move */
	assert_true(a.tau > 0.04 && a.tau < 0.2);
	assert_true(a.floor < 0.01);
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

static void test_alloc_time_follows_components(void **state)
{
	struct alloc_path a = { 0 };
	double t_spread, t_quiet;

	(void)state;
	/* processes differ by 5% while each knows its mean to 0.1%: short ones */
	for (int i = 0; i < 6; i++)
		alloc_add(&a, 100 * (1 + 0.05 * (i % 2 ? 1 : -1)), 0.1, NAN, NAN, 0.1);
	t_spread = alloc_process_time(&a, 1, 0.01, ALLOC_T_MAX);
	/* processes agree within their own noise: long ones */
	memset(&a, 0, sizeof(a));
	for (int i = 0; i < 6; i++)
		alloc_add(&a, 100 * (1 + 0.001 * (i % 2 ? 1 : -1)), 1.0, NAN, NAN, 0.1);
	t_quiet = alloc_process_time(&a, 1, 0.01, ALLOC_T_MAX);
	assert_true(t_spread < 0.02);
	assert_true(t_quiet == ALLOC_T_MAX);
	/* with the reference, the machine's drift is not processes' spread */
	memset(&a, 0, sizeof(a));
	for (int i = 0; i < 6; i++) {
		double drift = 1 + 0.05 * (i % 2 ? 1 : -1);

		alloc_add(&a, 100 * drift, 1.0, 2 * drift, 0.001, 0.1);
	}
	assert_true(alloc_process_time(&a, 1, 0.01, ALLOC_T_MAX) == ALLOC_T_MAX);
}

static void test_alloc_enough(void **state)
{
	struct alloc_path a = { 0 };

	(void)state;
	for (int i = 0; i < ALLOC_MIN_PROCS - 1; i++)
		alloc_add(&a, 100, 0.01, NAN, NAN, 0.1);
	/* identical processes, but fewer than the minimum */
	assert_false(alloc_enough(&a, 0.01, 10));
	alloc_add(&a, 100, 0.01, NAN, NAN, 0.1);
	assert_true(alloc_enough(&a, 0.01, 10));
	/* a spread of 10%: not within 1%, until the budget is spent */
	memset(&a, 0, sizeof(a));
	for (int i = 0; i < 8; i++)
		alloc_add(&a, 100 * (1 + 0.1 * (i % 2 ? 1 : -1)), 0.01, NAN, NAN, 0.1);
	assert_false(alloc_enough(&a, 0.01, 10));
	a.spent_s = 10;
	assert_true(alloc_enough(&a, 0.01, 10));
	/* the pilots run whatever the budget: a figure needs a spread */
	memset(&a, 0, sizeof(a));
	a.spent_s = 100;
	for (int i = 0; i < ALLOC_PILOT - 1; i++) {
		alloc_add(&a, 100, 0.01, NAN, NAN, 0.1);
		assert_false(alloc_enough(&a, 0.01, 10));
	}
	alloc_add(&a, 100, 0.01, NAN, NAN, 0.1);
	assert_true(alloc_enough(&a, 0.01, 10));
}

/* ------------------------------------------------------------------ */
/* The comparison at one speed of the machine                          */

/* A side of @n processes: the machine's speed moves by @drift[i], the path
 * by @slope times as much in logs, and by @change on side B. */
static void side(struct rec_result *r, size_t n, const double *drift, double slope, double change,
		 double *pm, double *pr, double *se)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "p");
	snprintf(r->path, sizeof(r->path), "x");
	r->status = UKB_OK;
	r->nsamples = 1;
	for (size_t i = 0; i < n; i++) {
		pr[i] = 2 * exp(drift[i]);
		pm[i] = 100 * (1 + change) * exp(slope * drift[i]);
		se[i] = 0.05;
	}
	r->proc_means = pm;
	r->proc_ref = pr;
	r->proc_se = se;
	r->nproc = n;
	r->stats.mean = pm[0];
}

static void test_compare_at_one_speed(void **state)
{
	/* B ran while the machine was 8% slower; within each run it moved too */
	double da[8], db[8], pma[8], pra[8], sea[8], pmb[8], prb[8], seb[8];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row = { 0 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		double wiggle = 0.01 * ((i * 37) % 7 - 3) + 0.001 * (i % 3);

		da[i] = wiggle;
		db[i] = log(1.08) + wiggle * 0.9 + 0.0005 * (i % 2);
	}
	side(&a, 8, da, 0.9, 0, pma, pra, sea);
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.ok && row.adjusted);
	/* measured: about +7%; at one speed: nothing */
	assert_true(row.raw.change > 0.05);
	assert_true(fabs(row.c.change) < 0.002);
	assert_int_equal(row.verdict, UKB_NO_CHANGE);
	assert_true(fabs(row.beta - 0.9) < 0.05);
	/* the figures shown are the measured means */
	assert_true(fabs(row.c.mean_b / row.c.mean_a - 1 - row.raw.change) < 1e-12);

	/* a real 5% change on B is still seen, at one speed */
	side(&b, 8, db, 0.9, 0.05, pmb, prb, seb);
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.adjusted && fabs(row.c.change - 0.05) < 0.005);
	assert_int_equal(row.verdict, UKB_REGRESSED);

	/* --raw: as measured */
	o.raw = 1;
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_false(row.adjusted);
	assert_true(fabs(row.c.change - row.raw.change) < 1e-12);
}

/*
 * Where the machine moved between the runs beyond its speeds in any stored
 * run the slope was learned with, the move is not taken out at that slope
 * alone: the part beyond those speeds stays in the interval. Two runs both
 * made at a new speed keep theirs.
 */
static void test_compare_beyond_seen_speeds(void **state)
{
	double da[8], db[8], pma[8], pra[8], sea[8], pmb[8], prb[8], seb[8];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;
	/*
	 * the stored runs' reference SD: unknown, 1% (B is 7.7% out), 5%,
	 * and 1% with both sides 7.7% out
	 */
	const double sd[4] = { 0, 0.01, 0.05, 0.01 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		double wiggle = 0.002 * ((i * 37) % 7 - 3);

		da[i] = wiggle;
		db[i] = log(1.08) + wiggle;
	}
	for (int k = 0; k < 4; k++) {
		side(&a, 8, k == 3 ? db : da, 0.9, 0, pma, pra, sea);
		/* 2% more than the slope gives: a change, or the slope's limit */
		side(&b, 8, db, 0.9, 0.02, pmb, prb, seb);
		for (struct rec_result *r = &a; r; r = r == &a ? &b : NULL) {
			r->ref_beta = 0.9;
			r->ref_beta_se = 0.01;
			r->floor_rel = r->floor_adj = 0.002;
			r->ref_level = log(2);
			r->ref_sd = sd[k];
		}
		memset(&row, 0, sizeof(row));
		row.a = &a;
		row.b = &b;
		compare_row(&row, &o);
		assert_true(row.ok && row.adjusted);
		assert_true(fabs(row.c.change - 0.02) < 0.003);
		if (k == 1) {
			/* 7.7% - 3 x 1% of the move kept, at the slope */
			assert_true(fabs(row.beyond - (log(1.08) - 0.03)) < 0.002);
			assert_true(row.floor > 0.9 * 0.045);
			assert_int_equal(row.verdict, UKB_NO_CHANGE);
		} else {
			assert_true(row.beyond < 1e-9);
			assert_true(row.floor < 0.01);
			assert_int_equal(row.verdict, UKB_REGRESSED);
		}
	}
}

/*
 * A side pooled from 4 runs of 6 processes (compare's label of one boot):
 * each run's processes around 100 ns times exp(@off[run] + @change), a
 * little apart; the floor 0.5% a run, learned from 20 runs.
 */
static void pooled_side(struct rec_result *r, const double *off, double change, int with_runs,
			double *pm, size_t *run)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "p");
	snprintf(r->path, sizeof(r->path), "x");
	r->status = UKB_OK;
	r->nsamples = 1;
	for (size_t i = 0; i < 24; i++) {
		run[i] = i / 6;
		pm[i] = 100 * exp(off[i / 6] + change + 0.003 * ((double)((i * 5) % 6) - 2.5));
	}
	r->proc_means = pm;
	r->proc_run = with_runs ? run : NULL;
	r->nproc = 24;
	r->pooled = 4;
	r->floor_rel = r->floor_adj = 0.005;
	r->floor_df = 20;
	r->stats.mean = pm[0];
}

/*
 * The floor counts once a run of a pooled side. Where that side's runs
 * agree as the floor says they would, it stands; where they disagree far
 * beyond it (a machine that moved between them), the side is judged by
 * its runs' own spread, and a change the size of their disagreement is not
 * called.
 */
static void test_compare_pooled_runs_spread(void **state)
{
	const double calm[4] = { 0.002, -0.003, 0.004, -0.001 };
	const double apart[4] = { -0.03, 0.03, -0.025, 0.025 };
	double pma[24], pmb[24];
	size_t ra[24], rb[24];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;

	(void)state;
	/* runs that agree: the model holds, a 2.5% change is seen */
	pooled_side(&a, calm, 0, 1, pma, ra);
	pooled_side(&b, calm, 0.025, 1, pmb, rb);
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.ok);
	assert_int_equal(row.spread[0].runs, 4);
	assert_false(row.spread[0].judged || row.spread[1].judged);
	assert_int_equal(row.verdict, UKB_REGRESSED);

	/* the base's runs 3% apart: as the floor has it, still "regressed" */
	pooled_side(&a, apart, 0, 0, pma, ra);
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.ok);
	assert_int_equal(row.spread[0].runs, 0);
	assert_int_equal(row.verdict, UKB_REGRESSED);

	/* ... as they show themselves: judged by their spread, not called */
	pooled_side(&a, apart, 0, 1, pma, ra);
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.ok);
	assert_true(row.spread[0].judged);
	assert_false(row.spread[1].judged);
	assert_int_equal(row.spread[0].runs, 4);
	assert_true(fabs(row.spread[0].sd - 0.0321) < 0.002);
	assert_true(row.spread[0].allowed < 0.01);
	assert_true(fabs(row.spread[0].df - 3) < 1e-12);
	assert_int_equal(row.verdict, UKB_NO_CHANGE);
	assert_true(row.c.ci_lo < 0 && row.c.ci_hi > 0.05);
	{
		char note[512];

		assert_int_equal(
		    cmp_spread_note(&row, 1, "'before'", "'after'", note, sizeof(note)), 1);
		if (!strstr(note, "the 4 runs of 'before' by 3.19%, where 0.55% was allowed"))
			fail_msg("%s", note);
	}
}

/*
 * A side measured busy whose floor was learned from quiet runs only: the
 * change and its interval are shown, no change is claimed (automation
 * cannot tell), and "no change" stays what it is.
 */
static void test_compare_busy_without_busy_floor(void **state)
{
	const double calm[4] = { 0.002, -0.003, 0.004, -0.001 };
	double pma[24], pmb[24];
	size_t ra[24], rb[24];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = 0.01 };
	struct cmp_row row;

	(void)state;
	pooled_side(&a, calm, 0, 1, pma, ra);
	pooled_side(&b, calm, 0.05, 1, pmb, rb);
	b.floor_unfit = 1;
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(row.ok && row.unfit);
	assert_int_equal(row.verdict, UKB_REGRESSED);
	assert_string_equal(cmp_verdict_name(&row), "no busy floor");
	assert_false(cmp_claims(&row));
	assert_int_equal(row.outcome, CMP_CANNOT_TELL);
	assert_int_equal(cmp_exit_status(&row, 1), 125);
	/* no change claimed is no change */
	pooled_side(&b, calm, 0, 1, pmb, rb);
	b.floor_unfit = 1;
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_string_equal(cmp_verdict_name(&row), "no change");
	/* the same run with a floor of its load: regressed */
	pooled_side(&b, calm, 0.05, 1, pmb, rb);
	memset(&row, 0, sizeof(row));
	row.a = &a;
	row.b = &b;
	compare_row(&row, &o);
	assert_true(cmp_claims(&row));
	assert_string_equal(cmp_verdict_name(&row), "regressed");
	assert_int_equal(cmp_exit_status(&row, 1), 1);
}

/* ------------------------------------------------------------------ */
/* A run's own interval at the machine's speed of the moment          */

/*
 * One run of path p/x in @run: 5 processes whose reference took 2 ns times
 * exp(@speed) and the path 100 ns times exp(@slope speed + @noise), each
 * process off by a little of its own.
 */
static void speed_run(struct rec_run *run, int seq, double speed, double slope, double noise)
{
	struct rec_result *r;

	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "rep");
	snprintf(run->host, sizeof(run->host), "testhost");
	snprintf(run->started, sizeof(run->started), "2026-01-01T00:%02d:%02dZ", seq / 60,
		 seq % 60);
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.18.0-test");
	snprintf(run->ukbench_version, sizeof(run->ukbench_version), "test");
	run->environment = strdup("{}");
	run->settings = strdup("{\"reference\":\"" UKB_REF_KIND "@0\"}");
	r = rec_add_result(run);
	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "p");
	snprintf(r->benchmark, sizeof(r->benchmark), "p");
	snprintf(r->path, sizeof(r->path), "x");
	r->status = UKB_OK;
	r->nproc = r->nsamples = 5;
	r->samples = malloc(5 * sizeof(double));
	r->proc_means = malloc(5 * sizeof(double));
	r->proc_se = malloc(5 * sizeof(double));
	r->proc_ref = malloc(5 * sizeof(double));
	assert_true(r->samples && r->proc_means && r->proc_se && r->proc_ref);
	for (int i = 0; i < 5; i++) {
		double own = 0.001 * (i - 2) + 1e-6 * seq;

		r->proc_ref[i] = 2 * exp(speed + own);
		r->proc_means[i] = r->samples[i] = 100 * exp(slope * (speed + own) + noise);
		r->proc_se[i] = 0.05;
	}
	r->batch_iters = 1000;
	rec_result_restat(r);
}

/* A new SQLite store at @path (a mkstemp() template), to be unlinked after */
static struct store *scratch_store(char *path)
{
	struct store *st;
	char err[256];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	return st;
}

static void test_run_floor_at_speed(void **state)
{
	char path[] = "/tmp/ukbench-test-speed-XXXXXX", err[256];
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 7;
	double d, usual, fast;

	(void)state;
	/* 20 runs of one label: the machine's speed moves by 2% (SD), the path with it */
	for (int k = 0; k < 20; k++) {
		double speed = 0.07 * centred_uniform(&x), noise = 0.002 * centred_uniform(&x);

		speed_run(&run, k, speed, 1.0, noise);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	/* a run at the machine's usual speed: narrower than the floor measured */
	speed_run(&run, 30, 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_LABELS);
	assert_true(p.floor > 0.01);
	assert_true(fabs(p.adj.beta - 1) < 0.15);
	assert_int_equal(p.adj.ref_runs, STORE_REF_RUNS);
	usual = floor_of_run(&p, &run.results[0], &d);
	assert_true(fabs(d) < 0.01);
	assert_true(usual < p.floor / 2);
	rec_run_release(&run);
	/* one made while the machine ran 4% slow holds the 4% */
	speed_run(&run, 31, log(1.04), 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	fast = floor_of_run(&p, &run.results[0], &d);
	assert_true(d > 0.03 && d < 0.05);
	assert_true(fast > 0.9 * d && fast > p.floor);
	rec_run_release(&run);
	/* no slope learned (another reference work): the floor measured */
	speed_run(&run, 32, log(1.04), 1.0, 0);
	free(run.settings);
	run.settings = strdup("{\"reference\":\"other\"}");
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_true(floor_of_run(&p, &run.results[0], &d) == p.floor);
	assert_true(isnan(d));
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * speed_run() made on a busy machine (@busy: two of its five batches
 * disturbed) or a quiet one; the load average is low in both, since it
 * trails and is not what judges.
 */
static void loaded_speed_run(struct rec_run *run, int seq, double speed, double slope, double noise,
			     int busy)
{
	struct rec_result *r;

	speed_run(run, seq, speed, slope, noise);
	r = &run->results[0];
	free(run->environment);
	run->environment = strdup("{\"loadavg\":[0.2,0.2,0.2],\"online_cpus\":2}");
	r->disturbed = calloc(r->nsamples, 1);
	assert_true(run->environment && r->disturbed);
	if (busy)
		r->disturbed[1] = r->disturbed[3] = 1;
	rec_result_restat(r);
}

static void loaded_run(struct rec_run *run, int seq, double noise, int busy)
{
	loaded_speed_run(run, seq, 0, 1.0, noise, busy);
}

/*
 * A floor learned from the runs made as the run it is for was: busy runs
 * of the label that move by 2% and quiet ones by 0.06%; a quiet run gets
 * the quiet runs' floor, a busy one the busy runs'. Where none were made
 * so, all of them teach it, and the floor says it was measured quiet.
 */
static void test_floor_by_conditions(void **state)
{
	char path[] = "/tmp/ukbench-test-cond-XXXXXX", err[256];
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 11;

	(void)state;
	for (int k = 0; k < 10; k++) {
		loaded_run(&run, k, 0.002 * centred_uniform(&x), 0);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	/* only quiet runs known: a busy run learns from them, and is told so */
	loaded_run(&run, 40, 0, 1);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_LABELS);
	assert_int_equal(p.est.runs, 10);
	assert_true(p.floor < 0.005);
	assert_false(floor_pick_busy(&p));
	rec_run_release(&run);
	for (int k = 10; k < 20; k++) {
		loaded_run(&run, k, 0.07 * centred_uniform(&x), 1);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	loaded_run(&run, 41, 0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.est.runs, 10);
	assert_true(p.floor < 0.005);
	assert_false(floor_pick_busy(&p));
	rec_run_release(&run);
	loaded_run(&run, 42, 0, 1);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.est.runs, 10);
	assert_true(p.floor > 0.01);
	assert_true(floor_pick_busy(&p));
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * loaded_run() whose thread ran @ran of its batches' wall time, as its
 * CPU time says: that, not the marks, judges it busy or quiet.
 */
static void ran_run(struct rec_run *run, int seq, double noise, int marks, double ran)
{
	struct rec_result *r;

	loaded_run(run, seq, noise, marks);
	r = &run->results[0];
	r->cpu_samples = malloc(r->nsamples * sizeof(double));
	assert_non_null(r->cpu_samples);
	for (size_t i = 0; i < r->nsamples; i++)
		r->cpu_samples[i] = ran * r->samples[i];
}

/*
 * The share of the time a run's thread waited judges its conditions where
 * its CPU time is known: quiet runs with two batches in five marked (the
 * host took the vCPU for a moment) that waited 1% stay quiet; runs under
 * load that waited 30% with none marked are busy. A run that waited 1%
 * with none marked learns from the quiet ones, one that waited 30% with
 * two marked from the busy ones: by the marks, each would learn from the
 * others.
 */
static void test_floor_by_time_waited(void **state)
{
	char path[] = "/tmp/ukbench-test-waited-XXXXXX", err[256];
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 13;

	(void)state;
	ran_run(&run, 50, 0, 1, 0.99);
	assert_true(fabs(rec_waited_share(&run.results[0]) - 0.01) < 1e-9);
	/* threaded: the CPU time is every thread's, and says nothing of waiting */
	run.results[0].threads = 2;
	assert_true(isnan(rec_waited_share(&run.results[0])));
	rec_run_release(&run);
	for (int k = 0; k < 10; k++) {
		ran_run(&run, k, 0.002 * centred_uniform(&x), 1, 0.99);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	for (int k = 10; k < 20; k++) {
		ran_run(&run, k, 0.07 * centred_uniform(&x), 0, 0.7);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	ran_run(&run, 41, 0, 0, 0.99);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.est.runs, 10);
	assert_true(p.floor < 0.005);
	assert_false(floor_pick_busy(&p));
	rec_run_release(&run);
	ran_run(&run, 42, 0, 1, 0.7);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.est.runs, 10);
	assert_true(p.floor > 0.01);
	assert_true(floor_pick_busy(&p));
	assert_true(fabs(p.est.waited - 0.3) < 1e-9);
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * A run's own interval at the speed of the moment, set against the runs
 * made as it was: on a busy machine the reference slows by 15% and the
 * path by 4% (slope 0.28). A busy run with only quiet runs known gets the
 * floor measured, not 15% times the quiet slope, and is compared as
 * measured; with busy runs known, its speed is set against theirs alone.
 */
static void test_run_floor_speed_by_conditions(void **state)
{
	char path[] = "/tmp/ukbench-test-cspeed-XXXXXX", err[256];
	const double busy = log(1.15), slope = log(1.04) / log(1.15);
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 13;
	double d, f;

	(void)state;
	for (int k = 0; k < 20; k++) {
		loaded_speed_run(&run, k, 0.07 * centred_uniform(&x), 1.0,
				 0.002 * centred_uniform(&x), 0);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	loaded_speed_run(&run, 40, busy, slope, 0, 1);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_LABELS);
	assert_true(p.other_cond);
	/* the quiet runs' slope is not carried to it: compared as measured */
	assert_true(p.adj.beta > 0.8);
	assert_true(p.beta == 0);
	assert_true(p.adjusted == p.floor);
	f = floor_of_run(&p, &run.results[0], &d);
	assert_true(isnan(d));
	assert_true(f == p.floor);
	assert_true(f < 0.05);
	rec_run_release(&run);
	for (int k = 20; k < 30; k++) {
		double speed = busy + 0.02 * centred_uniform(&x);

		loaded_speed_run(&run, k, speed, slope, 0.002 * centred_uniform(&x), 1);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	loaded_speed_run(&run, 41, busy, slope, 0, 1);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_false(p.other_cond);
	assert_int_equal(p.est.runs, 10);
	assert_int_equal(p.adj.ref_runs, 10);
	f = floor_of_run(&p, &run.results[0], &d);
	assert_true(fabs(d) < 0.01);
	assert_true(f < 0.01);
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * The reference work a run records: its kind and a digest of its code as
 * this binary holds it, the same at every call; two kinds that differ only
 * in the digest are different work (compared as measured).
 */
static void test_reference_kind(void **state)
{
	const char *k = ukb_ref_kind(), *at = strchr(k, '@');
	char a[128], b[128];
	struct rec_run x = { 0 }, y = { 0 };

	(void)state;
	assert_non_null(at);
	assert_int_equal((int)(at - k), (int)strlen(UKB_REF_KIND));
	assert_memory_equal(k, UKB_REF_KIND, strlen(UKB_REF_KIND));
	assert_int_equal((int)strlen(at + 1), 8);
	assert_int_equal((int)strspn(at + 1, "0123456789abcdef"), 8);
	assert_string_equal(ukb_ref_kind(), k);
	snprintf(a, sizeof(a), "{\"reference\":\"%s\"}", k);
	snprintf(b, sizeof(b), "{\"reference\":\"%s@%s\"}", UKB_REF_KIND,
		 strcmp(at + 1, "00000000") ? "00000000" : "11111111");
	x.settings = a;
	y.settings = a;
	assert_true(rec_same_ref(&x, &y));
	y.settings = b;
	assert_false(rec_same_ref(&x, &y));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disturbed_judgement),
		cmocka_unit_test(test_figure_stats),
		cmocka_unit_test(test_floor_within_groups),
		cmocka_unit_test(test_floor_adjusted_recovers_slope),
		cmocka_unit_test(test_floor_adjusted_noisy_reference),
		cmocka_unit_test(test_floor_adjusted_slope_noise),
		cmocka_unit_test(test_alloc_time_follows_components),
		cmocka_unit_test(test_alloc_enough),
		cmocka_unit_test(test_compare_at_one_speed),
		cmocka_unit_test(test_compare_beyond_seen_speeds),
		cmocka_unit_test(test_compare_pooled_runs_spread),
		cmocka_unit_test(test_compare_busy_without_busy_floor),
		cmocka_unit_test(test_run_floor_at_speed),
		cmocka_unit_test(test_floor_by_conditions),
		cmocka_unit_test(test_floor_by_time_waited),
		cmocka_unit_test(test_run_floor_speed_by_conditions),
		cmocka_unit_test(test_reference_kind),
	};

	return cmocka_run_group_tests_name("sensitivity", tests, NULL, NULL);
}

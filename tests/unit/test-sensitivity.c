// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sensitivity.c - what makes a comparison sensitive and honest, on
 * fixed data: the judgement of a disturbed batch, the statistics that
 * leave those batches out, the floor and slope learned from a host's runs
 * (learn.c, cmp-floor.c), the allocation of processes, and the comparison
 * as measured and at one speed of the machine. Nothing here depends on the
 * machine it runs on.
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
#include "desc.h"
#include "learn.h"
#include "disturb.h"
#include "measure.h"
#include "record.h"
#include "reference.h"
#include "stats.h"
#include "store.h"

/* ------------------------------------------------------------------ */
/* The judgement of a batch                                            */

/* The geometric mean and its interval, as if the paths moved together. */
static void test_geomean(void **state)
{
	struct cmp_row r[3] = { { .ok = 1, .c = { .change = 0.21, .ci_lo = 0.1, .ci_hi = 0.331 } },
				{ .ok = 0 },
				{ .ok = 1,
				  .c = { .change = -0.1736, .ci_lo = -0.2, .ci_hi = -0.1 } } };
	double g = sqrt(1.21 * 0.8264), h;
	char buf[256], want[256];

	(void)state;
	/* each row's wider side in logs, averaged */
	h = (fmax(log(1.331 / 1.21), log(1.21 / 1.1)) +
	     fmax(log(0.9 / 0.8264), log(0.8264 / 0.8))) /
	    2;
	assert_int_equal(cmp_geomean_text(r, 3, 0.05, buf, sizeof(buf)), 2);
	snprintf(want, sizeof(want),
		 "geometric mean of other/base over 2 paths: %.4f (%+.2f%%), 95%% CI [%+.2f%%, "
		 "%+.2f%%] if they move together",
		 g, 100 * (g - 1), 100 * (g * exp(-h) - 1), 100 * (g * exp(h) - 1));
	assert_string_equal(buf, want);
	/* a row without a finite interval: no interval for the mean */
	r[2].c.ci_hi = INFINITY;
	cmp_geomean_text(r, 3, 0.05, buf, sizeof(buf));
	assert_null(strstr(buf, "CI"));
	assert_int_equal(cmp_geomean_text(r + 1, 1, 0.05, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

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
/* What a host's runs teach                                            */

/* A uniform draw in [-0.5, 0.5) from the LCG state *@x, which moves on. */
static double centred_uniform(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*x >> 11) / 9007199254740992.0 - 0.5;
}

/* A learned run: log mean @y, reference @x (NAN: none), nothing from its processes. */
static struct learn_run lrun(int64_t id, size_t group, double y, double x)
{
	return (struct learn_run){ .id = id, .group = group, .y = y, .x = x, .spread = 0.01 };
}

/* Nothing learned: the prior, on its own degrees of freedom. */
static void test_learn_prior(void **state)
{
	struct learn_model m;
	double df, v;

	(void)state;
	learn_model(NULL, 0, NULL, 0, &m);
	assert_true(fabs(m.raw.sd - LEARN_PRIOR_FLOOR) < 1e-12);
	assert_true(fabs(m.raw.df - LEARN_PRIOR_DF) < 1e-12);
	assert_true(m.raw.learned_df == 0 && m.beta == 0 && m.runs == 0);
	assert_true(m.adj.sd == m.raw.sd);
	/* a side of 5 runs whose own spread is 0.4%: moderated toward it */
	v = learn_moderate(&m.raw, 0.004 * 0.004, 5, &df);
	assert_true(fabs(df - (LEARN_PRIOR_DF + 4)) < 1e-12);
	assert_true(
	    fabs(v - (LEARN_PRIOR_DF * LEARN_PRIOR_FLOOR * LEARN_PRIOR_FLOOR + 4 * 0.004 * 0.004) /
			 df) < 1e-15);
	/* one run a side: the floor alone */
	assert_true(fabs(learn_moderate(&m.raw, 1, 1, &df) - m.raw.sd * m.raw.sd) < 1e-15);
}

/* The degrees of freedom of the mean square of @m successive differences. */
static double mssd_df(double m)
{
	return 2 * m * m / (3 * m - 1);
}

/*
 * Groups shifted far apart do not enter: only neighbours within each; a
 * lone run teaches nothing, and an excluded one is left out.
 */
static void test_learn_within_groups(void **state)
{
	const double y[] = { 0.00, 0.02, -0.02, 1.00, 1.02, 0.98, 5.0, 3.0 };
	const size_t g[] = { 0, 0, 0, 1, 1, 1, 2, 0 };
	struct learn_run r[8];
	struct learn_model m;
	const int64_t ex[] = { 8 };

	(void)state;
	for (int i = 0; i < 8; i++)
		r[i] = lrun(i + 1, g[i], y[i], NAN);
	learn_model(r, 8, ex, 1, &m);
	assert_int_equal(m.runs, 6);
	assert_int_equal(m.groups, 2);
	assert_true(fabs(m.raw.learned_df - 2 * mssd_df(2)) < 1e-12);
	/* differences of 0.02 and 0.04 in each group: (0.02^2 + 0.04^2) / 2 / 2 */
	assert_true(fabs(m.raw.learned - sqrt(0.0005)) < 1e-9);
	assert_true(fabs(m.raw.df - (LEARN_PRIOR_DF + 2 * mssd_df(2))) < 1e-12);
	/* no reference: no slope */
	assert_true(m.beta == 0 && m.adj.sd == m.raw.sd);
	/*
	 * The excluded run, 3 off in group 0 (its label given again after a
	 * change), would have been most of it: its difference lies beyond
	 * LEARN_CLIP robust SDs of the five and is left out.
	 */
	learn_model(r, 8, NULL, 0, &m);
	assert_true(m.raw.learned < 0.03);
	assert_int_equal(m.runs, 6);
}

/*
 * A label given again after a real change: the shift enters one difference
 * of neighbours, not every run's deviation from the group's mean, and
 * beyond LEARN_CLIP robust SDs it is left out; a floor learned from a
 * group of twelve runs, six of them 13% slower, is the floor of the
 * others.
 */
static void test_learn_shift_in_group(void **state)
{
	struct learn_run r[12];
	struct learn_model m, clean;
	uint64_t x = 11;

	(void)state;
	for (int i = 0; i < 12; i++)
		r[i] = lrun(i + 1, 0, 0.01 * centred_uniform(&x) * sqrt(12), NAN);
	learn_model(r, 12, NULL, 0, &clean);
	for (int i = 6; i < 12; i++)
		r[i].y += log(1.13);
	learn_model(r, 12, NULL, 0, &m);
	assert_true(clean.raw.learned > 0.005 && clean.raw.learned < 0.02);
	assert_true(fabs(m.raw.learned - clean.raw.learned) < 0.1 * clean.raw.learned);
	/* pooled about the group's mean, the shift would have been 6.5% a run */
	assert_true(m.raw.learned < 0.02);
}

/*
 * A slope known by construction is found, and the floor is what is left;
 * where the reference explains little of the path's move it is not used.
 */
static void test_learn_slope(void **state)
{
	struct learn_run r[200];
	struct learn_model m;
	uint64_t x = 3;

	(void)state;
	for (int i = 0; i < 200; i++) {
		double drift = 0.06 * centred_uniform(&x), noise = 0.004 * centred_uniform(&x);

		r[i] = lrun(i + 1, 0, 3 + 0.8 * drift + noise, drift);
	}
	learn_model(r, 200, NULL, 0, &m);
	assert_true(fabs(m.beta - 0.8) < 0.05);
	assert_true(m.se_beta > 0 && m.se_beta < 0.05);
	/* the noise left: uniform of width 0.4%, SD 0.115% */
	assert_true(fabs(m.adj.learned - 0.004 / sqrt(12)) < 0.0002);
	assert_true(m.raw.learned > 3 * m.adj.learned);
	/* 199 differences, one degree of freedom to the slope */
	assert_true(fabs(m.adj.learned_df - (mssd_df(199) - 1)) < 1e-9);
	/* a slope of 0.1 over noise of 2%: the reference does not pay */
	for (int i = 0; i < 200; i++) {
		double drift = 0.06 * centred_uniform(&x), noise = 0.07 * centred_uniform(&x);

		r[i] = lrun(i + 1, 0, 3 + 0.1 * drift + noise, drift);
	}
	learn_model(r, 200, NULL, 0, &m);
	assert_true(m.beta == 0 && m.se_beta == 0);
	assert_true(m.adj.sd == m.raw.sd && m.adj.learned == m.raw.learned);
	/* the reference's usual level and spread, whatever the groups */
	assert_int_equal(m.ref_runs, LEARN_LEVEL_RUNS);
	assert_true(fabs(m.ref_level) < 0.01);
	assert_true(m.ref_sd > 0.01 && m.ref_sd < 0.03);
}

/*
 * A run whose processes spread more than the path's usually do moves
 * between runs by more: its floor scales, and it weighs less in what is
 * learned.
 */
static void test_learn_disorder(void **state)
{
	struct learn_run r[20];
	struct learn_model m, plain;

	(void)state;
	for (int i = 0; i < 20; i++)
		r[i] = lrun(i + 1, 0, 0.005 * (i % 2 ? 1 : -1), NAN);
	/* one run 4% off, whose processes spread 5 times as much as usual */
	r[0].y = 0.04;
	learn_model(r, 20, NULL, 0, &plain);
	r[0].spread = 0.05;
	learn_model(r, 20, NULL, 0, &m);
	assert_true(fabs(m.usual_spread - 0.01) < 1e-12);
	assert_true(fabs(learn_scale(&m, 0.05) - 5) < 1e-12);
	assert_true(learn_scale(&m, 0.005) == 1);
	/*
	 * weighed a 25th, it hardly moves the floor of the usual runs: their
	 * differences of 1% alone give 0.71%
	 */
	assert_true(plain.raw.learned > 0.0085);
	assert_true(m.raw.learned < 0.0075);
	/* too few runs to know what is usual: no scaling */
	learn_model(r, 4, NULL, 0, &m);
	assert_true(m.usual_spread == 0 && learn_scale(&m, 0.05) == 1);
}

/*
 * Many runs made one after another (calibrate's) move less among
 * themselves than runs spread over a session: pooled, they would hide it;
 * the floor is the larger group's.
 */
static void test_learn_group_max(void **state)
{
	struct learn_run r[26];
	struct learn_model m;

	(void)state;
	/* 16 runs 0.2% apart, then 10 runs 1% apart: an SD of 0.2% and of about 1% */
	for (int i = 0; i < 16; i++)
		r[i] = lrun(i + 1, 0, 0.002 * (i % 2 ? 1 : -1), NAN);
	for (int i = 16; i < 26; i++)
		r[i] = lrun(i + 1, 1, 0.01 * (i % 2 ? 1 : -1), NAN);
	learn_model(r, 26, NULL, 0, &m);
	assert_int_equal(m.groups, 2);
	/* neighbours 2% apart: an SD of 2% / sqrt(2) */
	assert_true(fabs(m.raw.learned - 0.02 / sqrt(2)) < 1e-9);
	assert_true(fabs(m.raw.learned_df - mssd_df(9)) < 1e-12);
	/* a group of too few runs to stand alone enters the pooled floor only */
	learn_model(r, 20, NULL, 0, &m);
	assert_true(m.raw.learned < 0.0065);
	assert_true(fabs(m.raw.learned_df - mssd_df(15) - mssd_df(3)) < 1e-12);
}

/* ------------------------------------------------------------------ */
/* The comparison, as measured and at one speed of the machine         */

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
	/* learned: a floor of 0.3% at one speed, 2% as measured, slope 0.9 */
	r->fl = (struct rec_floor){ .raw = 0.02,
				    .raw_df = 20,
				    .adj = 0.003,
				    .adj_df = 19,
				    .beta = 0.9,
				    .se_beta = 0.01,
				    .scale = 1 };
}

/* Neither a change nor its absence shown: the interval reaches past the threshold. */
static int untold(enum ukb_verdict v)
{
	return v == UKB_NOT_SIGNIFICANT || v == UKB_CANNOT_TELL;
}

static void compare2(struct cmp_row *row, struct rec_result *a, struct rec_result *b,
		     const struct cmp_opts *o)
{
	memset(row, 0, sizeof(*row));
	row->a = a;
	row->b = b;
	compare_row(row, o);
}

/* The machine's moves over 8 processes of side A, and of B 8% slower. */
static void eight_percent_slower(double *da, double *db)
{
	for (int i = 0; i < 8; i++) {
		double wiggle = 0.01 * ((i * 37) % 7 - 3) + 0.001 * (i % 3);

		da[i] = wiggle;
		db[i] = log(1.08) + wiggle * 0.9 + 0.0005 * (i % 2);
	}
}

/*
 * B ran while the machine was 8% slower. The change printed is the
 * figures' ratio; a change is called only where it stands both as
 * measured and at one speed of the machine, and p and the interval agree.
 */
static void test_compare_at_one_speed(void **state)
{
	double da[8], db[8], pma[8], pra[8], sea[8], pmb[8], prb[8], seb[8];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;

	(void)state;
	eight_percent_slower(da, db);
	side(&a, 8, da, 0.9, 0, pma, pra, sea);
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	compare2(&row, &a, &b, &o);
	assert_true(row.ok && row.adjusted);
	/* the figures' ratio: about +7% */
	assert_true(fabs(row.c.change - (row.c.mean_b / row.c.mean_a - 1)) < 1e-12);
	assert_true(row.c.change > 0.06);
	assert_true(row.c.change == row.raw.change);
	/* at one speed: nothing; the interval holds both, so no change */
	assert_true(fabs(row.adj.change) < 0.002);
	assert_true(row.c.ci_lo < 0 && row.c.ci_hi > row.c.change);
	assert_true(untold(row.verdict));
	assert_true(row.c.p_welch >= o.alpha);
	assert_true(fabs(row.beta - 0.9) < 1e-12);
	assert_true(row.ref.change > 0.07);
	/* the MDE holds the distance between the two */
	assert_true(row.c.mde > row.c.change);

	/* a real 5% slowdown on B stands both ways */
	side(&b, 8, db, 0.9, 0.05, pmb, prb, seb);
	compare2(&row, &a, &b, &o);
	assert_true(fabs(row.adj.change - 0.05) < 0.005);
	assert_true(row.c.change > 0.12);
	assert_true(row.c.ci_lo > 0 && row.c.ci_lo < row.adj.change);
	assert_int_equal(row.verdict, UKB_REGRESSED);
	assert_true(row.c.p_welch < o.alpha);
	assert_true(row.c.p_welch == fmax(row.raw.p_welch, row.adj.p_welch));

	/* a 7% speedup the machine's slowdown hides: it does not stand as measured */
	side(&b, 8, db, 0.9, -0.07, pmb, prb, seb);
	compare2(&row, &a, &b, &o);
	assert_true(row.adj.change < -0.06 && row.adj.ci_hi < 0);
	assert_true(row.c.ci_lo < 0 && row.c.ci_hi > 0);
	assert_true(row.c.p_welch >= o.alpha);
	assert_true(untold(row.verdict));

	/*
	 * the real 5% slowdown, B's run made in a disordered state of the
	 * machine: shown, not claimed
	 */
	side(&b, 8, db, 0.9, 0.05, pmb, prb, seb);
	b.fl.run_disorder = LEARN_DISORDER;
	compare2(&row, &a, &b, &o);
	assert_true(row.other_state && row.verdict == UKB_REGRESSED);
	assert_string_equal(cmp_verdict_name(&row), "other state");
	assert_false(cmp_claims(&row));
	assert_int_equal(row.outcome, CMP_CANNOT_TELL);
	b.fl.run_disorder = 1.5;
	compare2(&row, &a, &b, &o);
	assert_false(row.other_state);
	assert_string_equal(cmp_verdict_name(&row), "regressed");

	/* --raw: as measured, with the floor as measured */
	o.raw = 1;
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	compare2(&row, &a, &b, &o);
	assert_false(row.adjusted);
	assert_true(row.c.change == row.raw.change);
	assert_true(row.floor > 0.02);
}

/*
 * The same sides where the host's runs have shown how far the reference
 * moves between them (4% a run): B's 8% is within that, so the verdict,
 * p and MDE are those at one speed, the change still the figures' ratio
 * and inside its interval. Busy, or the reference moved beyond its
 * spread: both ways again.
 */
static void test_compare_trusts_one_speed(void **state)
{
	double da[8], db[8], pma[8], pra[8], sea[8], pmb[8], prb[8], seb[8];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;

	(void)state;
	eight_percent_slower(da, db);
#define KNOWN(r) ((r).fl.ref_runs = 20, (r).fl.ref_sd = 0.04, (r).fl.ref_level = log(2.0))
	side(&a, 8, da, 0.9, 0, pma, pra, sea);
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	KNOWN(a), KNOWN(b);
	compare2(&row, &a, &b, &o);
	assert_true(row.ok && row.adjusted && !row.ref_moved);
	/* the machine moved the path by +7%: shown, inside the interval, not called */
	assert_true(row.c.change == row.raw.change && row.c.change > 0.06);
	assert_true(row.c.ci_lo <= row.adj.ci_lo && row.c.ci_hi == row.c.change);
	assert_true(untold(row.verdict));
	assert_true(row.c.p_welch == row.adj.p_welch && row.c.mde == row.adj.mde);
	assert_true(row.c.mde < row.c.change);

	/* a real 5% slowdown: called at one speed, its MDE that of one speed */
	side(&b, 8, db, 0.9, 0.05, pmb, prb, seb);
	KNOWN(b);
	compare2(&row, &a, &b, &o);
	assert_int_equal(row.verdict, UKB_REGRESSED);
	assert_true(row.c.p_welch == row.adj.p_welch && row.c.mde == row.adj.mde);
	assert_true(row.c.ci_lo == row.adj.ci_lo && row.c.ci_hi == row.c.change);

	/* a 5% speedup the machine's move turns into +1.8% as measured: no verdict */
	side(&b, 8, db, 0.9, -0.05, pmb, prb, seb);
	KNOWN(b);
	compare2(&row, &a, &b, &o);
	assert_true(row.c.change > 0 && row.adj.change < -0.04 && row.adj.p_welch < o.alpha);
	assert_true(row.c.p_welch == 1);
	assert_true(untold(row.verdict));

	/* measured busy: both ways */
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	KNOWN(b);
	b.fl.busy = 1;
	compare2(&row, &a, &b, &o);
	assert_true(row.c.p_welch == fmax(row.raw.p_welch, row.adj.p_welch));
	assert_true(row.c.mde > row.c.change);

	/* the reference moved beyond its spread (1% a run): both ways, and said */
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	KNOWN(a), KNOWN(b);
	a.fl.ref_sd = b.fl.ref_sd = 0.01;
	compare2(&row, &a, &b, &o);
	assert_true(row.ref_moved);
	assert_true(row.c.p_welch == fmax(row.raw.p_welch, row.adj.p_welch));
	assert_true(row.c.mde > row.c.change);

	/*
	 * a process whose every reference batch was disturbed (its reference
	 * unknown): taken at its run's mean reference, the side still at one speed
	 */
	side(&a, 8, da, 0.9, 0, pma, pra, sea);
	side(&b, 8, db, 0.9, 0, pmb, prb, seb);
	KNOWN(a), KNOWN(b);
	prb[3] = NAN;
	compare2(&row, &a, &b, &o);
	assert_true(row.ok && row.adjusted && !row.ref_moved);
	assert_true(fabs(row.adj.change) < 0.01);
	assert_true(untold(row.verdict));
	assert_true(row.c.mde < row.c.change);
	/* more than half unknown: not at one speed */
	for (int i = 0; i < 5; i++)
		prb[i] = NAN;
	compare2(&row, &a, &b, &o);
	assert_true(row.ok && !row.adjusted);
#undef KNOWN
}

/*
 * A side pooled from 4 runs of 6 processes (compare's label of one boot):
 * each run's processes around 100 ns times exp(@off[run] + @change), a
 * little apart; the floor 0.5% a run, learned on 20 degrees of freedom.
 */
static void pooled_side(struct rec_result *r, const double *off, double change, double *pm,
			size_t *run)
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
	r->proc_run = run;
	r->nproc = 24;
	r->pooled = 4;
	r->fl = (struct rec_floor){ .raw = 0.005, .raw_df = 20, .adj = 0.005, .adj_df = 20 };
	r->stats.mean = pm[0];
}

/*
 * The floor counts once a run of a pooled side, moderated by what the
 * side's own runs show: runs that agree make its interval narrower than
 * one run's; runs 3% apart widen it, on more degrees of freedom than
 * their own three, and a change the size of their disagreement is not
 * called. More runs a side never give a wider interval where they agree.
 */
static void test_compare_pooled_runs(void **state)
{
	const double calm[4] = { 0.002, -0.003, 0.004, -0.001 };
	const double apart[4] = { -0.03, 0.03, -0.025, 0.025 };
	double pma[24], pmb[24];
	size_t ra[24], rb[24];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;
	double pooled_mde, one_mde, calm_width;

	(void)state;
	pooled_side(&a, calm, 0, pma, ra);
	pooled_side(&b, calm, 0.025, pmb, rb);
	compare2(&row, &a, &b, &o);
	assert_true(row.ok);
	assert_int_equal(row.runs[0], 4);
	assert_int_equal(row.runs[1], 4);
	assert_int_equal(row.verdict, UKB_REGRESSED);
	pooled_mde = row.c.mde;
	/* one run a side of the same processes: the floor whole */
	a.proc_run = b.proc_run = NULL;
	compare2(&row, &a, &b, &o);
	one_mde = row.c.mde;
	assert_true(pooled_mde < one_mde);

	/* the base's runs 3% apart, as they show themselves: a wider interval */
	pooled_side(&b, calm, 0.025, pmb, rb);
	pooled_side(&a, calm, 0, pma, ra);
	compare2(&row, &a, &b, &o);
	calm_width = row.c.ci_hi - row.c.ci_lo;
	pooled_side(&a, apart, 0, pma, ra);
	compare2(&row, &a, &b, &o);
	assert_true(row.ok);
	assert_true(row.c.ci_hi - row.c.ci_lo > 1.5 * calm_width);
	/* moderated, not judged by their three degrees of freedom alone */
	assert_true(row.c.df > 10 && row.c.df < 47);
	/* a side's floor: (20 x 0.5%^2 + 3 s^2) / 23, s their own spread, a run */
	{
		double s2 = 0, lm = 0, v = 0, df;
		struct learn_floor f = { .sd = 0.005, .df = 20 };

		for (int k = 0; k < 4; k++)
			lm += apart[k] / 4;
		for (int k = 0; k < 4; k++)
			s2 += (apart[k] - lm) * (apart[k] - lm) / 3;
		v = learn_moderate(&f, s2, 4, &df) / 4 + 0.005 * 0.005 / 4;
		assert_true(fabs(row.floor - sqrt(v)) < 0.0005);
	}
}

/* Sides whose runs started at @ta and @tb (newest first): alternated? */
static int alternated(const char (*ta)[32], size_t na, const char (*tb)[32], size_t nb)
{
	struct rec_run a = { .npooled = na }, b = { .npooled = nb };
	char(*ca)[32] = calloc(na, 32), (*cb)[32] = calloc(nb, 32);
	int r;

	assert_non_null(ca);
	assert_non_null(cb);
	memcpy(ca, ta, na * 32);
	memcpy(cb, tb, nb * 32);
	a.pooled_started = ca;
	b.pooled_started = cb;
	r = cmp_alternated(&a, &b);
	free(ca);
	free(cb);
	return r;
}

/* A B A B, or B A B A: alternated; A A B B, a tie, or a side longer: not. */
static void test_alternated(void **state)
{
	const char t[6][32] = { "2026-01-01T00:00:06Z", "2026-01-01T00:00:05Z",
				"2026-01-01T00:00:04Z", "2026-01-01T00:00:03Z",
				"2026-01-01T00:00:02Z", "2026-01-01T00:00:01Z" };
	char a[3][32], b[3][32];

	(void)state;
	for (int i = 0; i < 3; i++) {
		memcpy(a[i], t[2 * i + 1], 32); /* A: 5, 3, 1 */
		memcpy(b[i], t[2 * i], 32);	/* B: 6, 4, 2 */
	}
	assert_true(alternated((const char(*)[32])a, 3, (const char(*)[32])b, 3));
	assert_true(alternated((const char(*)[32])b, 3, (const char(*)[32])a, 3));
	assert_false(alternated((const char(*)[32])a, 3, (const char(*)[32])b, 2));
	assert_false(alternated((const char(*)[32])a, 1, (const char(*)[32])b, 1));
	/* A A A B B B */
	assert_false(alternated(t + 3, 3, t, 3));
	/* a tie: two runs of one second */
	memcpy(b[1], a[1], 32);
	assert_false(alternated((const char(*)[32])a, 3, (const char(*)[32])b, 3));
}

/* Four runs a side, @off[k] the machine's move at run k, @change on top. */
static void paired_side(struct rec_result *r, const double *off, double change, double *pm,
			size_t *run)
{
	pooled_side(r, off, change, pm, run);
	/* the floor assumed where nothing taught it */
	r->fl =
	    (struct rec_floor){ .raw = 0.015, .raw_df = 2, .adj = 0.015, .adj_df = 2, .scale = 1 };
}

/*
 * The machine drifted by 6% over the runs, the two sides alternating
 * through it, B 2% slower: as two groups each side spreads with the drift
 * and 2% is not told; run against run the drift cancels and it is, on the
 * floor moderated by the pairs' own spread (two runs' floor a pair).
 */
static void test_compare_paired_drift(void **state)
{
	const double drift[4] = { 0.03, 0.01, -0.01, -0.03 };
	const double drift_b[4] = { 0.032, 0.009, -0.008, -0.031 };
	double pma[24], pmb[24];
	size_t ra[24], rb[24];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;
	double unpaired_mde;

	(void)state;
	paired_side(&a, drift, 0, pma, ra);
	paired_side(&b, drift_b, 0.02, pmb, rb);
	compare2(&row, &a, &b, &o);
	assert_true(row.ok);
	assert_false(row.paired);
	assert_true(untold(row.verdict));
	unpaired_mde = row.c.mde;

	o.pair = 1;
	compare2(&row, &a, &b, &o);
	assert_true(row.ok);
	assert_true(row.paired);
	assert_int_equal(row.verdict, UKB_REGRESSED);
	assert_true(row.c.mde < unpaired_mde / 2);
	assert_true(row.c.ci_lo < row.c.change && row.c.change < row.c.ci_hi);
	{
		double d[4], dm = 0, s2 = 0, df;
		struct learn_floor f = { .sd = 0.015 * M_SQRT2, .df = 2 };

		for (int k = 0; k < 4; k++)
			dm += (d[k] = drift_b[k] - drift[k]) / 4;
		for (int k = 0; k < 4; k++)
			s2 += (d[k] - dm) * (d[k] - dm) / 3;
		/* the processes add little to the pairs' spread: within 0.05 points */
		assert_true(fabs(row.floor - sqrt(learn_moderate(&f, s2, 4, &df) / 4)) < 0.0005);
	}
	/* a side in a disordered state is not paired: its state is no drift */
	b.fl.scale = 2;
	compare2(&row, &a, &b, &o);
	assert_false(row.paired);
	/* a run that lacks the path: not paired */
	b.fl.scale = 1;
	b.nproc = 18;
	compare2(&row, &a, &b, &o);
	assert_false(row.paired);
}

/*
 * Four runs a side whose processes spread four times as much as the path's
 * usually do: a state of the machine they shared, which their mean does
 * not average out; four calm ones average their floor down by two.
 */
static void test_compare_shared_disorder(void **state)
{
	const double calm[4] = { 0.002, -0.003, 0.004, -0.001 };
	double pma[24], pmb[24];
	size_t ra[24], rb[24];
	struct rec_result a, b;
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct cmp_row row;
	double quiet, busy;

	(void)state;
	pooled_side(&a, calm, 0, pma, ra);
	pooled_side(&b, calm, 0, pmb, rb);
	/* the usual spread of these processes, so that each run's scale is 1 */
	a.fl.usual = b.fl.usual = 0.006;
	a.fl.raw_df = b.fl.raw_df = 1e9;
	compare2(&row, &a, &b, &o);
	quiet = row.floor;
	/* both sides' floors of 0.5% a run, over 4 runs a side */
	assert_true(fabs(quiet - 0.005 * sqrt(2.0 / 4)) < 0.0005);
	/* b's paths spread four times as much as usual (the median over them: cmp-floor.c) */
	b.fl.scale = 4;
	compare2(&row, &a, &b, &o);
	busy = row.floor;
	/* the other side's: 0.5% x 4 whole, not halved */
	assert_true(busy > 0.019 && busy < 0.022);
}

/*
 * A side measured busy whose floor was learned from quiet runs only gets
 * at least the prior's floor, and says so; what it claims stands.
 */
static void test_floor_busy_from_quiet(void **state)
{
	struct floor_pick p = { .source = FLOOR_LEARNED, .busy = 1 };
	struct rec_result r;
	double pm[4] = { 100, 101, 99, 100 };

	(void)state;
	memset(&r, 0, sizeof(r));
	r.proc_means = pm;
	r.nproc = 4;
	learn_model(NULL, 0, NULL, 0, &p.m);
	p.m.raw.sd = p.m.adj.sd = 0.002;
	p.m.runs = p.m.quiet = 10;
	floor_apply(&p, &r);
	assert_true(r.fl.wide & REC_WIDE_BUSY);
	assert_true(fabs(r.fl.raw - LEARN_PRIOR_FLOOR) < 1e-12);
	/* with busy runs among those learned from: as learned */
	p.m.busy = 3;
	floor_apply(&p, &r);
	assert_false(r.fl.wide);
	assert_true(fabs(r.fl.raw - 0.002) < 1e-12);
}

/* ------------------------------------------------------------------ */
/* The floor from the store, and a run's own interval                 */

/*
 * One run of path p/x in @run labelled @label: 5 processes whose reference
 * took 2 ns times exp(@speed) and the path 100 ns times exp(@slope speed +
 * @noise), each process off by a little of its own.
 */
static void speed_run(struct rec_run *run, int seq, const char *label, double speed, double slope,
		      double noise)
{
	struct rec_result *r;

	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "testhost");
	snprintf(run->started, sizeof(run->started), "2026-01-01T00:%02d:%02dZ", seq / 60,
		 seq % 60);
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.18.0-test");
	snprintf(run->ukbench_version, sizeof(run->ukbench_version), "test");
	run->environment = strdup("{\"boot_id\":\"b1\",\"kernel_version\":\"#1\"}");
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

static void save_runs(struct store *st, int from, int to, const char *label, double speed_sd,
		      double noise_sd, uint64_t *x)
{
	char err[256];
	struct rec_run run;

	for (int k = from; k < to; k++) {
		speed_run(&run, k, label, speed_sd * centred_uniform(x), 1.0,
			  noise_sd * centred_uniform(x));
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
}

/* @run's own interval as `run` states it: its floor picked from @st, applied, held. */
static void own_interval(struct store *st, struct rec_run *run, struct floor_pick *p, double *d)
{
	floor_pick(st, run, &run->results[0], NULL, 0, p);
	floor_apply(p, &run->results[0]);
	floor_of_run(&run->results[0], d);
}

/*
 * The runs of one label on one kernel, boot and build teach the floor;
 * a new run's interval holds the machine's state of the moment.
 */
static void test_run_floor_at_speed(void **state)
{
	char path[] = "/tmp/ukbench-test-speed-XXXXXX";
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 7;
	double d, usual;

	(void)state;
	/* a fresh store: the prior */
	speed_run(&run, 29, "new", 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_PRIOR);
	assert_true(fabs(p.m.raw.sd - LEARN_PRIOR_FLOOR) < 1e-12);
	rec_run_release(&run);
	/* 20 runs of one label: the machine's speed moves by 2% (SD), the path with it */
	save_runs(st, 0, 20, "same", 0.07, 0.002, &x);
	speed_run(&run, 30, "new", 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_LEARNED);
	assert_int_equal(p.m.runs, 20);
	assert_int_equal(p.m.groups, 1);
	assert_true(p.m.raw.learned > 0.01);
	assert_true(fabs(p.m.beta - 1) < 0.15);
	assert_true(p.m.adj.learned < 0.002);
	assert_int_equal(p.m.ref_runs, 20);
	/* at the machine's usual speed: narrower than the floor as measured */
	floor_apply(&p, &run.results[0]);
	floor_of_run(&run.results[0], &d);
	assert_true(fabs(d) < 0.01);
	usual = run.results[0].stats.ci95_rel - run.results[0].state_rel;
	assert_true(run.results[0].floor_rel < p.m.raw.sd / 2);
	assert_true(run.results[0].state_rel < 0.01);
	rec_run_release(&run);
	/* one made while the machine ran 4% slow holds the 4% */
	speed_run(&run, 31, "new", log(1.04), 1.0, 0);
	own_interval(st, &run, &p, &d);
	assert_true(d > 0.03 && d < 0.05);
	assert_true(run.results[0].state_rel > 0.9 * d);
	assert_true(fabs(run.results[0].stats.ci95_rel - usual - run.results[0].state_rel) < 0.002);
	rec_run_release(&run);
	/* another reference work: no slope, the floor as measured */
	speed_run(&run, 32, "new", log(1.04), 1.0, 0);
	free(run.settings);
	run.settings = strdup("{\"reference\":\"other\"}");
	own_interval(st, &run, &p, &d);
	assert_true(isnan(d) && run.results[0].state_rel == 0);
	assert_true(fabs(run.results[0].floor_rel - p.m.raw.sd) < 1e-12);
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * The host's first runs know neither its usual speed nor the path's
 * slope: a run's interval holds how far its reference moved from theirs,
 * at a slope of 1, and a process whose reference went unmeasured does not
 * hide it.
 */
static void test_run_floor_first_runs(void **state)
{
	char path[] = "/tmp/ukbench-test-first-XXXXXX";
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 11;
	double d;

	(void)state;
	/* nothing stored: nothing to hold */
	speed_run(&run, 1, "new", log(1.05), 1.0, 0);
	own_interval(st, &run, &p, &d);
	assert_true(isnan(d) && run.results[0].state_rel == 0);
	rec_run_release(&run);
	save_runs(st, 0, 2, "a", 0, 0.001, &x);
	/* 5% slower than the two before it: held */
	speed_run(&run, 3, "new", log(1.05), 1.0, 0);
	run.results[0].proc_ref[2] = NAN;
	own_interval(st, &run, &p, &d);
	assert_true(isnan(d));
	assert_true(fabs(run.results[0].state_rel - 0.05) < 0.003);
	assert_true(run.results[0].stats.ci95_rel > 0.05);
	rec_run_release(&run);
	/* as fast as they were: nothing added */
	speed_run(&run, 4, "new", 0, 1.0, 0);
	own_interval(st, &run, &p, &d);
	assert_true(run.results[0].state_rel < 0.002);
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * A pooled side's unknown reference takes the mean of its own run's, not
 * of the side's; a run of it with none known leaves the side unknown.
 */
static void test_proc_refs_per_run(void **state)
{
	double ref[6] = { 2, NAN, 4, 10, 0, 14 }, out[6];
	size_t run[6] = { 0, 0, 0, 1, 1, 1 };
	struct rec_result r = { .nproc = 6, .proc_ref = ref, .proc_run = run };

	(void)state;
	assert_int_equal(rec_proc_refs(&r, out), 0);
	assert_true(out[1] == 3 && out[4] == 12);
	assert_true(out[0] == 2 && out[5] == 14);
	r.proc_run = NULL;
	assert_int_equal(rec_proc_refs(&r, out), 0);
	assert_true(out[1] == 7.5);
	ref[3] = ref[5] = NAN;
	r.proc_run = run;
	assert_int_equal(rec_proc_refs(&r, out), -1);
	r.proc_ref = NULL;
	assert_int_equal(rec_proc_refs(&r, out), -1);
}

/* One run of two paths whose 8 processes spread by @spread about 100 ns times exp(@off). */
static void spread_run(struct rec_run *run, double spread, double off)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->host, sizeof(run->host), "testhost");
	for (int k = 0; k < LEARN_STATE_PATHS; k++) {
		struct rec_result *r = rec_add_result(run);

		assert_non_null(r);
		snprintf(r->name, sizeof(r->name), "p%d", k);
		snprintf(r->path, sizeof(r->path), "x");
		r->status = UKB_OK;
		r->nproc = r->nsamples = 8;
		r->samples = malloc(8 * sizeof(double));
		r->proc_means = malloc(8 * sizeof(double));
		assert_true(r->samples && r->proc_means);
		for (int i = 0; i < 8; i++)
			r->proc_means[i] = r->samples[i] =
			    100 * exp(off + spread * 1.2 * ((double)((i * 3) % 8) - 3.5) / 3.5);
		r->batch_iters = 1000;
		rec_result_restat(r);
	}
}

/*
 * A store that has shown no usual spread yet: a side whose processes
 * spread several times as much as the other's was made in another state of
 * the machine, and its 14% is shown, not called; twice as much is needed.
 */
static void test_compare_sides_disorder(void **state)
{
	struct cmp_opts o = { .alpha = 0.05, .threshold = 0.01, .limit = -1 };
	struct floor_choice fc = { .pct = -1 };
	struct rec_run a, b;
	struct cmp_row *rows = NULL;
	size_t n = 0;

	(void)state;
	spread_run(&a, 0.10, 0);
	spread_run(&b, 0.01, -0.15);
	cmp_choose_floor(&fc, NULL, &a, &b);
	assert_true(a.results[0].fl.run_disorder >= LEARN_DISORDER);
	assert_true(b.results[0].fl.run_disorder < LEARN_DISORDER);
	compare_runs(&a, &b, &o, &rows, &n);
	assert_int_equal(n, LEARN_STATE_PATHS);
	assert_true(rows[0].ok && rows[0].other_state);
	assert_string_equal(cmp_verdict_name(&rows[0]), "other state");
	free(rows);
	rec_run_release(&b);
	/* 10% against 7%: one state, the change called */
	spread_run(&b, 0.07, -0.15);
	cmp_choose_floor(&fc, NULL, &a, &b);
	compare_runs(&a, &b, &o, &rows, &n);
	assert_true(rows[0].ok && !rows[0].other_state);
	assert_string_equal(cmp_verdict_name(&rows[0]), "improved");
	free(rows);
	rec_run_release(&b);
	/*
	 * One path alone spreading ten times as much (exec of a longer
	 * command, a path a filter slows): the path's own change, not the
	 * machine's state; the change is called
	 */
	spread_run(&b, 0.01, -0.15);
	a.nresults = b.nresults = 1;
	cmp_choose_floor(&fc, NULL, &a, &b);
	assert_true(a.results[0].fl.run_disorder < LEARN_DISORDER);
	compare_runs(&a, &b, &o, &rows, &n);
	assert_true(rows[0].ok && !rows[0].other_state);
	assert_string_equal(cmp_verdict_name(&rows[0]), "improved");
	a.nresults = b.nresults = LEARN_STATE_PATHS;
	free(rows);
	rec_run_release(&a);
	rec_run_release(&b);
}

/*
 * A label given to several runs is a group of its own: runs of 'slow',
 * 5% above the others, teach no floor of that 5%; runs of another kernel
 * build are another group; the runs compared are left out.
 */
static void test_floor_groups_by_label(void **state)
{
	char path[] = "/tmp/ukbench-test-groups-XXXXXX", err[256];
	struct floor_pick p;
	struct store *st = scratch_store(path);
	struct rec_run run;
	uint64_t x = 11;
	int64_t ex[2];

	(void)state;
	save_runs(st, 0, 10, "base", 0, 0.004, &x);
	for (int k = 10; k < 20; k++) {
		speed_run(&run, k, "slow", 0, 1.0, log(1.05) + 0.004 * centred_uniform(&x));
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		if (k < 12)
			ex[k - 10] = run.id;
		rec_run_release(&run);
	}
	speed_run(&run, 40, "new", 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.m.groups, 2);
	assert_int_equal(p.m.runs, 20);
	assert_true(p.m.raw.learned < 0.004);
	floor_pick(st, &run, &run.results[0], ex, 2, &p);
	assert_int_equal(p.m.runs, 18);
	rec_run_release(&run);
	/* runs of one label on another kernel build: a group of their own */
	for (int k = 50; k < 55; k++) {
		speed_run(&run, k, "b2", 0, 1.0, log(1.2) + 0.004 * centred_uniform(&x));
		free(run.environment);
		run.environment = strdup("{\"boot_id\":\"b2\",\"kernel_version\":\"#2\"}");
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	speed_run(&run, 60, "new", 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.m.groups, 3);
	assert_int_equal(p.m.runs, 25);
	assert_true(p.m.raw.learned < 0.004);
	/* another setting of the path measures another thing: not learned from */
	snprintf(run.results[0].params, sizeof(run.results[0].params), "n=2");
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	assert_int_equal(p.source, FLOOR_PRIOR);
	assert_int_equal(p.m.runs, 0);
	rec_run_release(&run);
	store_close(st);
	unlink(path);
}

/*
 * A store that grows sharper with use: before/after pairs under labels
 * given once, each after a real change (a filter, a sysctl) of 3% to 13%,
 * teach no floor; the floor is the one the same store gives without them,
 * learned from the runs of one label given again, unlabelled runs
 * included among the ones that teach nothing.
 */
static void test_floor_labels_given_once(void **state)
{
	char path[] = "/tmp/ukbench-test-once-XXXXXX", path2[] = "/tmp/ukbench-test-once2-XXXXXX";
	static const double shift[] = { 0.03, 0.07, 0.13 };
	struct floor_pick p, clean;
	struct store *st = scratch_store(path), *st2 = scratch_store(path2);
	struct rec_run run;
	uint64_t x = 5, x2 = 5;

	(void)state;
	save_runs(st, 0, 6, "calibrate", 0, 0.006, &x);
	save_runs(st2, 0, 6, "calibrate", 0, 0.006, &x2);
	for (int k = 0; k < 24; k++) {
		char lb[16], la[16];

		snprintf(lb, sizeof(lb), "b%d", k);
		snprintf(la, sizeof(la), "a%d", k);
		save_runs(st, 100 + 2 * k, 101 + 2 * k, lb, 0, 0.006, &x);
		speed_run(&run, 101 + 2 * k, la, 0, 1.0, log1p(shift[k % 3]));
		{
			char err[256];

			assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		}
		rec_run_release(&run);
		save_runs(st, 200 + k, 201 + k, "", 0, 0.006, &x);
	}
	speed_run(&run, 300, "new", 0, 1.0, 0);
	floor_pick(st, &run, &run.results[0], NULL, 0, &p);
	floor_pick(st2, &run, &run.results[0], NULL, 0, &clean);
	assert_int_equal(p.source, FLOOR_LEARNED);
	assert_int_equal(p.m.runs, 6);
	assert_int_equal(p.m.groups, 1);
	/*
	 * the same runs teach it; the path's usual spread, which weighs them,
	 * is learned from every run of the host and moves a little
	 */
	assert_true(fabs(p.m.raw.sd / clean.m.raw.sd - 1) < 0.1);
	assert_true(p.m.raw.learned < 0.006);
	rec_run_release(&run);
	store_close(st);
	store_close(st2);
	unlink(path);
	unlink(path2);
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

/*
 * The reference work a run records: its kind and a digest of its code as
 * this binary holds it, the same at every call; two kinds that differ only
 * in the digest are different work (compared as measured).
 */
static void test_reference_kind(void **state)
{
	const char *k = ukb_ref_kind(), *at = strchr(k, '@');
	char a[128], b[128];
	struct rec_run x = { 0 }, y = { 0 }, z = { 0 };

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
	x.settings = strdup(a);
	y.settings = strdup(a);
	z.settings = strdup(b);
	assert_true(rec_same_ref(&x, &y));
	assert_false(rec_same_ref(&x, &z));
	/* a run that records no kind timed the reference of before kinds were kept */
	assert_string_equal(rec_ref_kind(&y), k);
	rec_run_release(&y);
	assert_string_equal(rec_ref_kind(&y), UKB_REF_KIND_BEFORE);
	rec_run_release(&x);
	rec_run_release(&y);
	rec_run_release(&z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_disturbed_judgement),
		cmocka_unit_test(test_figure_stats),
		cmocka_unit_test(test_learn_prior),
		cmocka_unit_test(test_learn_within_groups),
		cmocka_unit_test(test_learn_shift_in_group),
		cmocka_unit_test(test_learn_slope),
		cmocka_unit_test(test_learn_disorder),
		cmocka_unit_test(test_learn_group_max),
		cmocka_unit_test(test_compare_shared_disorder),
		cmocka_unit_test(test_compare_at_one_speed),
		cmocka_unit_test(test_compare_trusts_one_speed),
		cmocka_unit_test(test_run_floor_first_runs),
		cmocka_unit_test(test_compare_sides_disorder),
		cmocka_unit_test(test_proc_refs_per_run),
		cmocka_unit_test(test_compare_pooled_runs),
		cmocka_unit_test(test_alternated),
		cmocka_unit_test(test_compare_paired_drift),
		cmocka_unit_test(test_floor_busy_from_quiet),
		cmocka_unit_test(test_run_floor_at_speed),
		cmocka_unit_test(test_floor_groups_by_label),
		cmocka_unit_test(test_floor_labels_given_once),
		cmocka_unit_test(test_alloc_time_follows_components),
		cmocka_unit_test(test_alloc_enough),
		cmocka_unit_test(test_reference_kind),
	};

	return cmocka_run_group_tests_name("sensitivity", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-compare.c - the comparison statistics against independent
 * computations: Welch's t-test with GSL's t distribution, the Mann-Whitney
 * U statistic by counting pairs (not by ranks) with GSL's normal
 * distribution, the CI of the change, the verdicts, and change points on
 * series with and without a step.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "changepoint.h"
#include "twosample.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fmax(fabs(want), 1e-300)))
		fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

static double *draw(gsl_rng *r, size_t n, double mean, double sd)
{
	double *x = malloc(n * sizeof(*x));

	assert_non_null(x);
	for (size_t i = 0; i < n; i++)
		x[i] = mean + gsl_ran_gaussian(r, sd);
	return x;
}

/*
 * Welch's t on the log ratio of the means by the textbook formula (each
 * side's variance of the mean relative to its mean, the delta method),
 * p from GSL.
 */
static double welch_ref(const double *a, size_t na, const double *b, size_t nb, double *df)
{
	double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
	double va = gsl_stats_variance(a, 1, na) / (double)na / (ma * ma);
	double vb = gsl_stats_variance(b, 1, nb) / (double)nb / (mb * mb);
	double t = log(mb / ma) / sqrt(va + vb);

	*df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	return 2 * gsl_cdf_tdist_Q(fabs(t), *df);
}

/* U by counting pairs, tie correction by counting tie groups, p from GSL. */
static double mwu_ref(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	size_t n = na + nb;
	double *all = malloc(n * sizeof(*all)), ties = 0, mu, sigma, z, d;

	assert_non_null(all);
	*u = 0;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < na; j++)
			*u += b[i] > a[j] ? 1 : b[i] == a[j] ? 0.5 : 0;
	for (size_t i = 0; i < na; i++)
		all[i] = a[i];
	for (size_t i = 0; i < nb; i++)
		all[na + i] = b[i];
	for (size_t i = 0; i < n; i++) {
		size_t same = 0, first = 1;

		for (size_t j = 0; j < n; j++) {
			if (all[j] == all[i]) {
				same++;
				if (j < i)
					first = 0;
			}
		}
		if (first)
			ties += (double)(same * same * same - same);
	}
	free(all);
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)n + 1 - ties / ((double)n * ((double)n - 1))));
	d = *u - mu;
	d -= d > 0 ? 0.5 : d < 0 ? -0.5 : 0;
	z = d / sigma;
	return 2 * gsl_cdf_ugaussian_Q(fabs(z));
}

static void test_welch_vs_reference(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t sizes[][2] = { { 5, 7 }, { 30, 30 }, { 100, 17 }, { 1000, 800 } };

	(void)state;
	gsl_rng_set(r, 3);
	for (size_t k = 0; k < 4; k++) {
		size_t na = sizes[k][0], nb = sizes[k][1];
		double *a = draw(r, na, 100, 5), *b = draw(r, nb, 101, 9), dfr;
		struct ukb_cmp c;

		/* what compare tests, without a floor */
		assert_int_equal(ukb_compare(a, na, b, nb, 0, 0.05, &c), 0);
		assert_close(c.p_welch, welch_ref(a, na, b, nb, &dfr), 1e-8);
		assert_close(c.df, dfr, 1e-9);
		free(a);
		free(b);
	}
	gsl_rng_free(r);
}

static void test_mann_whitney_vs_reference(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	gsl_rng_set(r, 5);
	for (int k = 0; k < 6; k++) {
		size_t na = 8 + 40 * (size_t)k, nb = 11 + 25 * (size_t)k;
		double *a = draw(r, na, 50, 3), *b = draw(r, nb, 50.5 + k, 3), u, z, uref, p;

		/* round to create ties, as batch times on a coarse clock do */
		for (size_t i = 0; i < na; i++)
			a[i] = round(a[i]);
		for (size_t i = 0; i < nb; i++)
			b[i] = round(b[i]);
		p = ukb_mann_whitney(a, na, b, nb, &u, &z);
		assert_close(p, mwu_ref(a, na, b, nb, &uref), 1e-9);
		assert_close(u, uref, 0);
		free(a);
		free(b);
	}
	gsl_rng_free(r);
}

static void test_mann_whitney_r_example(void **state)
{
	/* R: wilcox.test(x, y, exact = FALSE): W = 58, p-value = 0.1329 */
	double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
	double u, z, p;

	(void)state;
	/* our U counts pairs where the second sample is larger: W = 81 - U */
	p = ukb_mann_whitney(y, 9, x, 9, &u, &z);
	assert_close(u, 58, 0);
	assert_close(p, 0.1329, 0.001);
}

static void test_change_and_ci(void **state)
{
	double a[] = { 100, 101, 99, 100, 102, 98 }, b[] = { 110, 111, 109, 110, 112, 108 };
	struct ukb_cmp c, f;

	(void)state;
	assert_int_equal(ukb_compare(a, 6, b, 6, 0, 0.05, &c), 0);
	assert_close(c.mean_a, 100, 1e-12);
	assert_close(c.mean_b, 110, 1e-12);
	assert_close(c.change, 0.10, 1e-12);
	assert_true(c.ci_lo < 0.10 && c.ci_hi > 0.10);
	assert_true(c.ci_lo > 0.05 && c.ci_hi < 0.15);
	assert_true(c.p_welch < 1e-6);
	/* the interval is around the ratio on the log scale */
	assert_close(log1p(c.ci_lo) + log1p(c.ci_hi), 2 * log(1.1), 1e-12);
	assert_int_equal(ukb_compare(a, 1, b, 6, 0, 0.05, &c), -EINVAL);
	/* identical samples: no change, p = 1 */
	assert_int_equal(ukb_compare(a, 6, a, 6, 0, 0.05, &c), 0);
	assert_close(c.change, 0, 0);
	assert_close(c.p_welch, 1, 1e-12);
	/* a floor widens the interval and the MDE, and weakens p */
	assert_int_equal(ukb_compare(a, 6, b, 6, 0, 0.05, &c), 0);
	assert_int_equal(ukb_compare(a, 6, b, 6, 2 * 0.03 * 0.03, 0.05, &f), 0);
	assert_true(f.ci_hi - f.ci_lo > c.ci_hi - c.ci_lo);
	assert_true(f.mde > c.mde && f.p_welch > c.p_welch);
	assert_close(f.se, sqrt(c.se * c.se + 2 * 0.03 * 0.03), 1e-12);
}

/*
 * One method: over many random pairs, the interval excludes 0 exactly
 * when p < alpha, and a verdict of improved or regressed never comes with
 * an interval that holds 0.
 */
static void test_interval_and_verdict_agree(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t disagree = 0;

	(void)state;
	gsl_rng_set(r, 3);
	for (int k = 0; k < 2000; k++) {
		size_t na = 2 + (size_t)k % 9, nb = 2 + (size_t)(k / 9) % 9;
		double *a = draw(r, na, 100, 1 + k % 13), *b = draw(r, nb, 100 + k % 7, 1 + k % 5);
		struct ukb_cmp c;
		enum ukb_verdict v;

		assert_int_equal(ukb_compare(a, na, b, nb, k % 3 ? 0 : 1e-4, 0.05, &c), 0);
		v = ukb_verdict_of(&c, 0.05, 0.01);
		if ((c.p_welch < 0.05) != (c.ci_lo > 0 || c.ci_hi < 0))
			disagree++;
		if ((v == UKB_IMPROVED || v == UKB_REGRESSED) && c.ci_lo <= 0 && c.ci_hi >= 0)
			disagree++;
		/* no change only where the interval lies inside the threshold */
		if (v == UKB_NO_CHANGE && (c.ci_lo <= -0.01 || c.ci_hi >= 0.01))
			disagree++;
		/* the point always inside its interval */
		if (c.change < c.ci_lo || c.change > c.ci_hi)
			disagree++;
		/* the MDE is a change the interval of this se would exclude */
		assert_true(c.mde > 0 && log1p(c.mde) > log1p(c.ci_hi) - log1p(c.change));
		free(a);
		free(b);
	}
	assert_int_equal(disagree, 0);
	gsl_rng_free(r);
}

/* R: wilcox.test(c(1,2,3,4,5), c(6,7,8,9,10))$p.value = 0.007937 (exact) */
static void test_mann_whitney_exact(void **state)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, c2[] = { 1.5, 2.5, 6.5, 9.5 };
	struct ukb_cmp c;

	(void)state;
	assert_int_equal(ukb_compare(a, 5, b, 5, 0, 0.05, &c), 0);
	assert_true(c.mwu_exact);
	assert_close(c.p_mwu, 2.0 / 252, 1e-12);
	/* U = 13 of 4 against 5: 70 of the 126 orderings are as extreme */
	assert_close(ukb_mann_whitney_exact_p(13, 4, 5), 70.0 / 126, 1e-12);
	assert_int_equal(ukb_compare(c2, 4, a, 5, 0, 0.05, &c), 0);
	assert_true(c.mwu_exact);
	/* ties: the normal approximation, said so */
	assert_int_equal(ukb_compare(a, 5, a, 5, 0, 0.05, &c), 0);
	assert_false(c.mwu_exact);
}

/* A comparison of @change in [@lo, @hi], p @p, MDE @mde. */
static struct ukb_cmp cmp_of(double change, double lo, double hi, double p, double mde)
{
	return (
	    struct ukb_cmp){ .change = change, .ci_lo = lo, .ci_hi = hi, .p_welch = p, .mde = mde };
}

/*
 * Each verdict word, at alpha 0.05 and a 1% threshold: "no change" only
 * where the interval lies inside +-1%; a wide interval that says nothing is
 * "not significant", and "cannot tell" where it reaches past the MDE.
 */
static void test_verdicts(void **state)
{
	struct ukb_cmp c;

	(void)state;
	c = cmp_of(0.002, -0.006, 0.009, 0.6, 0.012);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_NO_CHANGE);
	c = cmp_of(0.005, 0.002, 0.008, 0.001, 0.004);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_WITHIN_NOISE);
	c = cmp_of(-0.03, -0.04, -0.02, 0.001, 0.01);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_IMPROVED);
	c = cmp_of(0.03, 0.02, 0.04, 0.001, 0.01);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_REGRESSED);
	/* p 0.2, the interval past 1% but inside the MDE of 12% */
	c = cmp_of(0.02, -0.03, 0.07, 0.2, 0.12);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_NOT_SIGNIFICANT);
	/* the round: +19.97% [-4.5%, +50.8%], MDE 38.4% */
	c = cmp_of(0.1997, -0.045, 0.508, 0.1, 0.384);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_CANNOT_TELL);
	/* past the MDE below: -30% lies past 1 / 1.384 - 1 */
	c = cmp_of(-0.1, -0.3, 0.1, 0.3, 0.384);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_CANNOT_TELL);
	/* significant, below the threshold, its interval past it: not bounded */
	c = cmp_of(0.0078, 0.0078, 0.135, 0.01, 0.1);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_CANNOT_TELL);
	c = cmp_of(0.03, NAN, NAN, NAN, NAN);
	assert_int_equal(ukb_verdict_of(&c, 0.05, 0.01), UKB_CANNOT_TELL);
	assert_string_equal(ukb_verdict_name(UKB_WITHIN_NOISE), "within noise");
	assert_string_equal(ukb_verdict_name(UKB_NOT_SIGNIFICANT), "not significant");
	assert_string_equal(ukb_verdict_name(UKB_CANNOT_TELL), "cannot tell");
}

/* A series of @n run means around 100 (0.5% noise), stepping by @step at run @at. */
static void series(gsl_rng *r, size_t n, double step, size_t at, struct ukb_point *pts)
{
	for (size_t k = 0; k < n; k++)
		pts[k].mean = (k < at ? 100 : 100 * (1 + step)) * (1 + gsl_ran_gaussian(r, 0.005));
}

static size_t count_points(const struct ukb_step *st, size_t n)
{
	size_t found = 0;

	for (size_t k = 0; k < n; k++)
		found += st[k].change_point;
	return found;
}

static void test_changepoints(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct ukb_point pts[20];
	struct ukb_step st[20];
	size_t found = 0;

	(void)state;
	gsl_rng_set(r, 11);
	/* a 5% step in the middle: found, where it is */
	series(r, 12, 0.05, 6, pts);
	assert_int_equal(ukb_changepoints(pts, 12, 5, 0.01, 0.01, st), 0);
	for (int k = 0; k < 12; k++)
		assert_int_equal(st[k].change_point, k == 6);
	assert_close(st[6].step, 0.05, 0.2);
	/*
	 * flat, with noise half the threshold: over 50 series of 20 runs
	 * (550 boundaries with full windows), at most one false point
	 */
	for (int i = 0; i < 50; i++) {
		series(r, 20, 0, 20, pts);
		assert_int_equal(ukb_changepoints(pts, 20, 5, 0.01, 0.01, st), 0);
		found += count_points(st, 20);
	}
	print_message("# flat series: %zu false change points in 50 series of 20 runs\n", found);
	assert_true(found <= 1);
	assert_true(isnan(st[0].step));
	/* one outlier run is not a step, wherever it is */
	for (size_t at = 0; at < 20; at++) {
		series(r, 20, 0, 20, pts);
		pts[at].mean *= 1.3;
		assert_int_equal(ukb_changepoints(pts, 20, 5, 0.01, 0.01, st), 0);
		assert_int_equal(count_points(st, 20), 0);
	}
	/*
	 * a clean step whose neighbouring boundary shows the same step (the
	 * windows share the runs their medians are) and the same p: one point,
	 * the first
	 */
	{
		static const double v[12] = { 1.00, 1.04, 1.02, 1.03, 1.01, 1.025,
					      1.20, 1.24, 1.22, 1.23, 1.25, 1.21 };

		for (int k = 0; k < 12; k++)
			pts[k].mean = v[k];
		assert_int_equal(ukb_changepoints(pts, 12, 5, 0.01, 0.01, st), 0);
		assert_true(st[7].step == st[6].step && st[7].p == st[6].p);
		for (int k = 0; k < 12; k++)
			assert_int_equal(st[k].change_point, k == 6);
	}
	/* a step with fewer than a window of runs after it: not called yet */
	series(r, 12, 0.10, 9, pts);
	assert_int_equal(ukb_changepoints(pts, 12, 5, 0.01, 0.01, st), 0);
	assert_int_equal(count_points(st, 12), 0);
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_vs_reference),
		cmocka_unit_test(test_mann_whitney_vs_reference),
		cmocka_unit_test(test_mann_whitney_r_example),
		cmocka_unit_test(test_change_and_ci),
		cmocka_unit_test(test_interval_and_verdict_agree),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_changepoints),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}

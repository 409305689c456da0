// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-stats.c - the statistics of the core against GSL, an independent
 * implementation: descriptive statistics, quantiles, the incomplete beta
 * function and the Student t distribution (quantiles and CDF).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

static void assert_close(double got, double want, double rel)
{
	double tol = rel * fmax(fabs(want), 1e-300);

	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

static double *sample(gsl_rng *r, size_t n, int kind)
{
	double *x = malloc(n * sizeof(*x));

	assert_non_null(x);
	for (size_t i = 0; i < n; i++) {
		/* skewed like timings: lognormal, sometimes with a slow tail */
		x[i] = 20 + gsl_ran_lognormal(r, 0, 0.3);
		if (kind && gsl_rng_uniform(r) < 0.05)
			x[i] += gsl_ran_exponential(r, 50);
	}
	return x;
}

static void test_descriptive_vs_gsl(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t sizes[] = { 2, 3, 7, 10, 31, 100, 1001, 20000 };

	(void)state;
	gsl_rng_set(r, 42);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (int kind = 0; kind < 2; kind++) {
			size_t n = sizes[k], keep, lo = 0, hi = 0, sev = 0;
			double *x = sample(r, n, kind), *s = malloc(n * sizeof(*s)), q1, q3,
			       sum = 0;
			struct ukb_stats st;

			assert_non_null(s);
			assert_int_equal(ukb_stats_compute(x, n, &st), 0);
			memcpy(s, x, n * sizeof(*s));
			gsl_sort(s, 1, n);

			assert_int_equal(st.n, n);
			assert_close(st.mean, gsl_stats_mean(x, 1, n), 1e-12);
			assert_close(st.stddev, gsl_stats_sd(x, 1, n), 1e-10);
			assert_close(st.cv, gsl_stats_sd(x, 1, n) / gsl_stats_mean(x, 1, n), 1e-10);
			assert_close(st.median, gsl_stats_median_from_sorted_data(s, 1, n), 1e-12);
			q1 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.25);
			q3 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.75);
			assert_close(st.q1, q1, 1e-12);
			assert_close(st.q3, q3, 1e-12);
			assert_close(st.min, s[0], 0);
			assert_close(st.max, s[n - 1], 0);
			assert_close(st.ci95,
				     gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) *
					 gsl_stats_sd(x, 1, n) / sqrt((double)n),
				     1e-9);

			keep = (size_t)ceil(0.95 * (double)n);
			for (size_t i = 0; i < keep; i++)
				sum += s[i];
			assert_close(st.trimmed_mean, sum / (double)keep, 1e-12);

			for (size_t i = 0; i < n; i++) {
				lo += s[i] < q1 - 1.5 * (q3 - q1);
				hi += s[i] > q3 + 1.5 * (q3 - q1);
				sev += s[i] < q1 - 3 * (q3 - q1) || s[i] > q3 + 3 * (q3 - q1);
			}
			assert_int_equal(st.outliers_low, lo);
			assert_int_equal(st.outliers_high, hi);
			assert_int_equal(st.outliers_severe, sev);
			free(x);
			free(s);
		}
	}
	gsl_rng_free(r);
}

/* The median of what is finite: NANs left out, the middle two averaged */
static void test_median_finite(void **state)
{
	double odd[] = { 3, NAN, 1, 2 }, even[] = { 4, 1, NAN, 3, 2 }, none[] = { NAN, NAN };

	(void)state;
	assert_true(ukb_median_finite(odd, 4) == 2);
	assert_true(ukb_median_finite(even, 5) == 2.5);
	assert_true(isnan(ukb_median_finite(none, 2)));
	assert_true(isnan(ukb_median_finite(none, 0)));
}

/* Unknown values (not positive, not finite) take the mean of the known; too few known: -1 */
static void test_fill_unknown(void **state)
{
	double x[] = { 2, NAN, 4, 0 }, out[4] = { -1, -1, -1, -1 }, few[] = { 1, NAN, NAN };

	(void)state;
	assert_int_equal(ukb_fill_unknown(x, 4, out), 0);
	assert_true(out[0] == 2 && out[1] == 3 && out[2] == 4 && out[3] == 3);
	out[0] = -1;
	assert_int_equal(ukb_fill_unknown(few, 3, out), -1);
	assert_true(out[0] == -1);
	assert_int_equal(ukb_fill_unknown(few + 1, 2, out), -1);
	assert_int_equal(ukb_fill_unknown(few, 1, out), 0);
	assert_true(out[0] == 1);
}

static void test_outliers_counted_not_dropped(void **state)
{
	double x[] = { 8, 9, 10, 10, 11, 12, 9, 10, 11, 10, 1000 };
	struct ukb_stats st;

	(void)state;
	assert_int_equal(ukb_stats_compute(x, 11, &st), 0);
	assert_int_equal(st.outliers_high, 1);
	assert_int_equal(st.outliers_severe, 1);
	assert_int_equal(st.outliers_low, 0);
	/* Q1 9.5, Q3 11: the fences are 7.25 and 13.25, 5 and 15.5 */
	assert_close(st.q1, 9.5, 1e-15);
	assert_close(st.q3, 11, 1e-15);
	/* the mean keeps the outlier: 1100 / 11 */
	assert_close(st.mean, 100, 1e-15);
}

static void test_degenerate_inputs(void **state)
{
	double one = 5, same[4] = { 3, 3, 3, 3 };
	struct ukb_stats st;

	(void)state;
	assert_int_equal(ukb_stats_compute(&one, 0, &st), -EINVAL);
	assert_int_equal(ukb_stats_compute(&one, 1, &st), 0);
	assert_close(st.mean, 5, 0);
	assert_close(st.median, 5, 0);
	assert_true(isnan(st.stddev));
	assert_true(isnan(st.ci95));
	assert_int_equal(ukb_stats_compute(same, 4, &st), 0);
	assert_close(st.stddev, 0, 0);
	assert_close(st.ci95, 0, 0);
	assert_int_equal(st.outliers_low + st.outliers_high, 0);
}

static void test_betai_vs_gsl(void **state)
{
	double as[] = { 0.5, 1, 2.5, 10, 300, 5e4 };
	double bs[] = { 0.5, 1, 3, 40 };
	double xs[] = { 1e-6, 0.01, 0.3, 0.5, 0.77, 0.999 };

	(void)state;
	for (size_t i = 0; i < 6; i++)
		for (size_t j = 0; j < 4; j++)
			for (size_t k = 0; k < 6; k++) {
				double want = gsl_sf_beta_inc(as[i], bs[j], xs[k]);

				if (want < 1e-280)
					continue;
				assert_close(ukb_betai(as[i], bs[j], xs[k]), want, 1e-9);
			}
	assert_close(ukb_betai(2, 3, 0), 0, 0);
	assert_close(ukb_betai(2, 3, 1), 1, 0);
	assert_true(isnan(ukb_betai(-1, 3, 0.5)));
}

static void test_t_distribution_vs_gsl(void **state)
{
	double dfs[] = { 1, 1.5, 2, 3, 4.7, 9, 29, 100, 1000, 1e5, 1e6 };
	double ps[] = { 0.6, 0.9, 0.95, 0.975, 0.995, 0.9995, 0.1, 0.025 };
	double ts[] = { -30, -2.5, -0.3, 0, 0.7, 1.96, 4, 12 };

	(void)state;
	for (size_t i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		for (size_t j = 0; j < sizeof(ps) / sizeof(ps[0]); j++)
			assert_close(ukb_t_quantile(ps[j], dfs[i]),
				     gsl_cdf_tdist_Pinv(ps[j], dfs[i]), 1e-8);
		for (size_t j = 0; j < sizeof(ts) / sizeof(ts[0]); j++) {
			double want = gsl_cdf_tdist_P(ts[j], dfs[i]);

			if (want < 1e-250)
				continue;
			/* far tails (p < 1e-20) are where the two methods part a little */
			assert_close(ukb_t_cdf(ts[j], dfs[i]), want, want < 1e-20 ? 1e-5 : 1e-9);
		}
	}
	/* the textbook values */
	assert_close(ukb_t_quantile(0.975, 9), 2.2621571627409915, 1e-10);
	assert_close(ukb_t_quantile(0.975, 1), 12.706204736174698, 1e-10);
	assert_close(ukb_t_quantile(0.5, 7), 0, 0);
	assert_true(isnan(ukb_t_quantile(1, 7)));
	assert_true(isnan(ukb_t_quantile(0.9, 0)));
}

static void test_f_distribution_vs_gsl(void **state)
{
	double ds[] = { 1, 2, 2.5, 4, 9, 30, 200 };
	double fs[] = { 0.01, 0.3, 1, 1.7, 4, 19, 99 };

	(void)state;
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
		for (size_t j = 0; j < sizeof(ds) / sizeof(ds[0]); j++)
			for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
				double want = gsl_cdf_fdist_Q(fs[k], ds[i], ds[j]);

				if (want < 1e-250)
					continue;
				assert_close(ukb_f_sf(fs[k], ds[i], ds[j]), want, 1e-9);
			}
	/* F(2, 2): P(F > f) = 1 / (1 + f) */
	assert_close(ukb_f_sf(4, 2, 2), 0.2, 1e-12);
	assert_close(ukb_f_sf(0, 3, 5), 1, 0);
	assert_true(isnan(ukb_f_sf(1, 0, 5)));
}

static void test_running_matches_batch(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct ukb_running run = { 0 };
	struct ukb_stats st;
	double *x;

	(void)state;
	gsl_rng_set(r, 7);
	x = sample(r, 500, 1);
	assert_true(isinf(ukb_running_ci95_rel(&run)));
	for (size_t i = 0; i < 500; i++)
		ukb_running_add(&run, x[i]);
	assert_int_equal(ukb_stats_compute(x, 500, &st), 0);
	assert_close(run.mean, st.mean, 1e-12);
	assert_close(ukb_running_ci95_rel(&run), st.ci95_rel, 1e-9);
	free(x);
	gsl_rng_free(r);
}

static void test_quantile_type7(void **state)
{
	double s[] = { 1, 2, 3, 4 };

	(void)state;
	/* R: quantile(1:4, c(0, .1, .25, .5, .9, 1)) = 1, 1.3, 1.75, 2.5, 3.7, 4 */
	assert_close(ukb_quantile_sorted(s, 4, 0), 1, 0);
	assert_close(ukb_quantile_sorted(s, 4, 0.1), 1.3, 1e-12);
	assert_close(ukb_quantile_sorted(s, 4, 0.25), 1.75, 1e-12);
	assert_close(ukb_quantile_sorted(s, 4, 0.5), 2.5, 1e-12);
	assert_close(ukb_quantile_sorted(s, 4, 0.9), 3.7, 1e-12);
	assert_close(ukb_quantile_sorted(s, 4, 1), 4, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive_vs_gsl),
		cmocka_unit_test(test_median_finite),
		cmocka_unit_test(test_fill_unknown),
		cmocka_unit_test(test_outliers_counted_not_dropped),
		cmocka_unit_test(test_degenerate_inputs),
		cmocka_unit_test(test_betai_vs_gsl),
		cmocka_unit_test(test_t_distribution_vs_gsl),
		cmocka_unit_test(test_f_distribution_vs_gsl),
		cmocka_unit_test(test_running_matches_batch),
		cmocka_unit_test(test_quantile_type7),
	};

	/* GSL reports underflow in its tails as an error: we want the value */
	gsl_set_error_handler_off();
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}

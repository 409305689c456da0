/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - descriptive statistics of a sample and the distributions that
 * confidence intervals and tests need.
 *
 * Everything here is pure computation on arrays the caller owns: no I/O,
 * no globals. Quantiles use linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of R and numpy), so figures can be
 * checked against either.
 */
#ifndef UKB_CORE_STATS_H
#define UKB_CORE_STATS_H

#include <stddef.h>
#include <stdint.h>

struct ukb_stats {
	size_t n;
	double mean;
	double median;
	double stddev; /* sample standard deviation (n - 1) */
	double cv;     /* stddev / mean */
	double min, max;
	double q1, q3;
	double ci95;	 /* half-width of the 95% CI of the mean (Student t) */
	double ci95_rel; /* ci95 / mean */
	/*
	 * Mean of the lowest 95% of the samples: mmtests' "mean95", which
	 * drops the slow tail that interrupts and preemption add.
	 */
	double trimmed_mean;
	/* Tukey fences: beyond 1.5 IQR (mild) and 3 IQR (severe) of Q1/Q3. */
	size_t outliers_low, outliers_high, outliers_severe;
};

/*
 * Fills @st from @x[0..n). Outliers are counted, never dropped: the mean
 * is the mean of every sample. With n == 1 the spread figures are NAN.
 * Returns 0, -EINVAL for n == 0, -ENOMEM.
 */
int ukb_stats_compute(const double *x, size_t n, struct ukb_stats *st);

/* Quantile @p in [0, 1] of an ascending array, type 7. */
double ukb_quantile_sorted(const double *sorted, size_t n, double p);

/* The median of the finite values of @v[0..n) (reordered); NAN when none. */
double ukb_median_finite(double *v, size_t n);

/*
 * @x[0..n) into @out, each value that is not positive and finite replaced
 * by the mean of those that are (mean imputation). -1, @out untouched,
 * when none is known or fewer than half of them.
 */
int ukb_fill_unknown(const double *x, size_t n, double *out);

/* Regularized incomplete beta function I_x(a, b). */
double ukb_betai(double a, double b, double x);

/* Student t distribution with @df degrees of freedom (df may be fractional). */
double ukb_t_cdf(double t, double df);
double ukb_t_quantile(double p, double df);

/* The F distribution on @d1 and @d2 degrees of freedom: P(F > @f). */
double ukb_f_sf(double f, double d1, double d2);

/*
 * A random permutation of 0..n-1 into @idx (Fisher-Yates), drawn from the
 * xorshift generator state *@state, which moves on (never 0).
 */
void ukb_shuffle(size_t *idx, size_t n, uint64_t *state);

/* Welford's running mean and variance, for stopping rules. */
struct ukb_running {
	size_t n;
	double mean, m2;
};

static inline void ukb_running_add(struct ukb_running *r, double x)
{
	double d = x - r->mean;

	r->n++;
	r->mean += d / (double)r->n;
	r->m2 += d * (x - r->mean);
}

/* Relative half-width of the 95% CI of the running mean; INFINITY if n < 2. */
double ukb_running_ci95_rel(const struct ukb_running *r);

#endif

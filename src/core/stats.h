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

/* Regularized incomplete beta function I_x(a, b). */
double ukb_betai(double a, double b, double x);

/* Student t distribution with @df degrees of freedom (df may be fractional). */
double ukb_t_cdf(double t, double df);
double ukb_t_quantile(double p, double df);

/*
 * The upper tail of the F distribution with @d1 and @d2 degrees of freedom
 * (either fractional): P(F > @f). NAN for a bad argument.
 */
double ukb_f_sf(double f, double d1, double d2);

/*
 * How much runs move between one another beyond what each shows of itself:
 * sqrt(max(0, var(@log_means) - mean(@within))), @within[i] being run i's
 * own variance of its log mean (its processes' spread over their count).
 * A relative SD; 0 for fewer than two runs.
 */
double ukb_between_runs_sd(const double *log_means, const double *within, size_t n);

/*
 * The same, from groups of runs known to measure the same thing (repeated
 * runs of one label): each run's log mean against its own group's mean,
 * so that a difference between groups never enters. @group[i] numbers
 * run i's group. *@df gets the degrees of freedom (runs less groups of
 * two or more); 0 below two.
 */
double ukb_between_runs_sd_grouped(const double *log_means, const double *within,
				   const size_t *group, size_t n, size_t *df);

/*
 * One run for ukb_floor_adjusted(): the log of its mean and of its
 * reference's mean, and what its processes show of them: the variances of
 * those logs and their covariance (each over the process count), so that
 * the variance of log mean - beta log ref within the run is
 * vyy - 2 beta vxy + beta^2 vxx.
 */
struct ukb_run_pair {
	double ly, lx;
	double vyy, vxy, vxx;
	size_t group; /* runs of one group measure the same thing */
};

/* What ukb_floor_adjusted() learns of a path. */
struct ukb_adjust {
	double beta;	/* slope of ly on lx within groups, held to [0, 2] */
	double se_beta; /* its standard error */
	/*
	 * How far the slope of one pair of runs strays from beta: the part of
	 * the difference of two adjusted runs that grows with how far the
	 * machine moved between them (a residual of tau * (lx_i - lx_j)).
	 */
	double tau;
	double floor; /* the rest: the SD of ly - beta lx of a run, beyond its processes */
	size_t df;    /* runs less groups less one; below 3, all of it is 0 */
};

/*
 * The floor after taking out what the reference explains: beta by least
 * squares within groups, less what each run's own noise (vxx, vxy) adds
 * to the sums, since a reference measured with noise draws a least
 * squares slope toward 0; then over every pair of runs of a group, the
 * squared difference of their adjusted log means less what their own
 * processes show, fitted as 2 floor^2 + tau^2 (lx_i - lx_j)^2. Returns
 * a->floor.
 */
double ukb_floor_adjusted(const struct ukb_run_pair *p, size_t n, struct ukb_adjust *a);

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

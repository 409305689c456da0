/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - is B different from A? Two-sample tests and the confidence
 * interval of the relative change, on per-call times (lower is better).
 *
 * Welch's t-test compares means without assuming equal variances; the
 * Mann-Whitney U test compares distributions by ranks and does not care
 * about the slow tail. Both are two-sided. The 95% CI of the change in %
 * uses the delta method on the ratio of means with Welch's degrees of
 * freedom: change = mB/mA - 1, se = (mB/mA) * sqrt(vA/(nA mA^2) + vB/(nB mB^2)).
 */
#ifndef UKB_CORE_COMPARE_H
#define UKB_CORE_COMPARE_H

#include <stddef.h>

struct ukb_cmp {
	double mean_a, mean_b;
	double change;	     /* mean_b / mean_a - 1 */
	double ci_lo, ci_hi; /* 95% CI of change */
	double t, df, p_welch;
	double u, z, p_mwu; /* U of sample B; normal approximation */
};

/*
 * Compares @a (base) and @b; each needs two values or more. Returns 0, or
 * -EINVAL when a sample is too small or a mean is not positive.
 */
int ukb_compare(const double *a, size_t na, const double *b, size_t nb, struct ukb_cmp *out);

/* Welch's t-test alone: two-sided p, with t and df. */
double ukb_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df);

/*
 * Mann-Whitney U test, two-sided, normal approximation with tie and
 * continuity correction (the large-sample form R's wilcox.test uses with
 * exact = FALSE). U counts the pairs in which b exceeds a (ties count 1/2).
 */
double ukb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
			double *z);

enum ukb_verdict {
	UKB_NO_CHANGE,	  /* not significant */
	UKB_WITHIN_NOISE, /* significant, but smaller than the noise threshold */
	UKB_IMPROVED,	  /* significantly faster by at least the threshold */
	UKB_REGRESSED,	  /* significantly slower by at least the threshold */
};

/* The verdict for @change with p-value @p, significance @alpha, @threshold. */
enum ukb_verdict ukb_verdict_of(double change, double p, double alpha, double threshold);
const char *ukb_verdict_name(enum ukb_verdict v);

/* Geometric mean of ratios (1 + change); NAN when n == 0. */
double ukb_geomean_ratio(const double *changes, size_t n);

#endif

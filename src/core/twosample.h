/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * twosample.h - is B different from A? One method gives the change, its
 * interval, the p-value and so the verdict, so that they never disagree.
 *
 * The observations are the per-process means of each side (or, for a run
 * that was not replicated, its batch means). The change is the ratio of
 * the two means, r = mB/mA, and its logarithm has, by the delta method,
 *   se^2 = vA/(nA mA^2) + vB/(nB mB^2) + floor
 * where floor is the variance of a run's log mean between runs made at
 * different times that the processes of one run do not show (measured by
 * `ukbench calibrate`; 0 when unknown). t = log(r)/se has Welch's degrees
 * of freedom; the interval is r * exp(+-t_q se) - 1, so it excludes 0
 * exactly when p < alpha. The minimum detectable effect is the change that
 * this se detects with 80% power: exp((t_{1-alpha/2} + t_{0.8}) se) - 1.
 *
 * The Mann-Whitney U test is printed beside it, exact for small samples
 * without ties (R's wilcox.test with exact = TRUE), else by the normal
 * approximation.
 */
#ifndef UKB_CORE_TWOSAMPLE_H
#define UKB_CORE_TWOSAMPLE_H

#include <stddef.h>

struct ukb_cmp {
	double mean_a, mean_b;
	double change;	     /* mean_b / mean_a - 1 */
	double ci_lo, ci_hi; /* its (1 - alpha) interval */
	double se;	     /* of log(mean_b / mean_a), floor included */
	double t, df, p_welch;
	double mde; /* the change detected with 80% power at alpha */
	double u, z, p_mwu;
	int mwu_exact; /* p_mwu is exact (small samples, no ties) */
};

/*
 * Compares @a (base) and @b, each of two values or more, at level @alpha,
 * with @floor (a variance of the log ratio, >= 0) added. Returns 0, or
 * -EINVAL when a sample is too small or a mean is not positive.
 */
int ukb_compare(const double *a, size_t na, const double *b, size_t nb, double floor, double alpha,
		struct ukb_cmp *out);

/*
 * The same, the floor itself an estimate on @floor_df degrees of freedom
 * (learned from that many runs beyond their groups): it enters the
 * Welch-Satterthwaite degrees of freedom, so that a floor learned from few
 * runs widens the interval as a spread seen in few processes does.
 * INFINITY: a floor known exactly.
 */
int ukb_compare_df(const double *a, size_t na, const double *b, size_t nb, double floor,
		   double floor_df, double alpha, struct ukb_cmp *out);

/*
 * The same from what is known of each side's log mean: means @ma and @mb
 * (positive), and the variance of log(mb / ma) in @nparts parts @var, each
 * on its degrees of freedom @df (INFINITY: known exactly), which
 * Welch-Satterthwaite combines. The Mann-Whitney fields are left 0
 * (ukb_cmp_mwu()). Returns 0, or -EINVAL.
 */
int ukb_compare_log(double ma, double mb, const double *var, const double *df, size_t nparts,
		    double alpha, struct ukb_cmp *out);

/* The Mann-Whitney U test of @a against @b into @c's u, z, p_mwu, mwu_exact. */
void ukb_cmp_mwu(const double *a, size_t na, const double *b, size_t nb, struct ukb_cmp *c);

/*
 * Mann-Whitney U test, two-sided, normal approximation with tie and
 * continuity correction (the large-sample form R's wilcox.test uses with
 * exact = FALSE). U counts the pairs in which b exceeds a (ties count 1/2).
 */
double ukb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
			double *z);

/*
 * The exact two-sided p of U for samples of @na and @nb without ties
 * (the permutation distribution of U); NAN when na * nb > 2500.
 */
double ukb_mann_whitney_exact_p(double u, size_t na, size_t nb);

/*
 * The same in two steps, for many tests of one pair of sizes (a history's
 * windows): the counts of each U from 0 to na * nb, a new array the caller
 * frees (NULL without memory or when na * nb > 2500), then the p of @u.
 */
double *ukb_mann_whitney_counts(size_t na, size_t nb);
double ukb_mann_whitney_p_of(const double *counts, size_t na, size_t nb, double u);

/*
 * What a comparison may claim. "no change" is a claim of equivalence: the
 * whole interval lies within the threshold. Where the interval reaches
 * past it and p says nothing, the runs did not bound the change: "not
 * significant", or "cannot tell" where the interval reaches past the
 * change they could have detected (the MDE) too, so that a reader never
 * takes "no change" for a change the runs could not see.
 */
enum ukb_verdict {
	UKB_NO_CHANGE,	     /* the interval within +-threshold, not significant */
	UKB_WITHIN_NOISE,    /* significant, the interval within +-threshold */
	UKB_IMPROVED,	     /* significantly faster by at least the threshold */
	UKB_REGRESSED,	     /* significantly slower by at least the threshold */
	UKB_NOT_SIGNIFICANT, /* not significant, the interval past the threshold */
	/*
	 * not significant, the interval past the MDE; or significant but
	 * smaller than the threshold with the interval past it
	 */
	UKB_CANNOT_TELL,
};

/* The verdict of @c at significance @alpha and @threshold (fractions). */
enum ukb_verdict ukb_verdict_of(const struct ukb_cmp *c, double alpha, double threshold);
const char *ukb_verdict_name(enum ukb_verdict v);

#endif

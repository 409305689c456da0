/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * changepoint.h - steps in a series of runs.
 *
 * A windowed test on run-level figures, after the method Apache Otava
 * (formerly Hunter) describes for performance histories: at each boundary
 * between run k-1 and run k, the means of a full window of runs before it
 * are set against the means of a full window after it. The boundary is a
 * change point when
 *   - both windows are full (no step is called at the ends of the series,
 *     where one side holds fewer runs than a window),
 *   - the Mann-Whitney U test on the two windows' run means gives
 *     p < alpha (exact at these sizes: a rank test, so that one outlier run
 *     moves it by one rank, not by its size),
 *   - the step, the after-window's median run mean over the before-window's
 *     minus one, is at least the noise threshold, and
 *   - no other boundary within one window of it that passes the two
 *     tests above separates its windows' means more (then: a smaller p,
 *     then the earlier). The medians size a step; the means place it: the
 *     boundary one run late has the same medians, but its window before
 *     holds a run of the new level, which its mean shows.
 * The unit is the run, as in `compare`: a run's batches are not
 * independent observations of the machine.
 */
#ifndef UKB_CORE_CHANGEPOINT_H
#define UKB_CORE_CHANGEPOINT_H

#include <stddef.h>

struct ukb_point {
	double mean; /* the run's figure: the mean of its process means */
};

struct ukb_step {
	double step; /* relative, at the boundary before this point; NAN at 0 */
	double p;
	int change_point;
};

/* Fills @out[0..n); window 0 means 1. Returns 0 or -ENOMEM. */
int ukb_changepoints(const struct ukb_point *pts, size_t n, size_t window, double alpha,
		     double threshold, struct ukb_step *out);

#endif

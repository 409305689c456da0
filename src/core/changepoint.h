/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * changepoint.h - steps in a series of runs.
 *
 * A windowed t-test, after the method Apache Otava (formerly Hunter)
 * describes for performance histories: at each boundary between run k-1
 * and run k, the runs of a window before it are set against the runs of a
 * window after it. The boundary is a change point when
 *   - Welch's t-test on the two windows' samples gives p < alpha, and
 *   - the step, the mean of the after-window's run means over the mean of
 *     the before-window's minus one, is at least the noise threshold, and
 *   - no boundary within one window of it has a larger step.
 * Runs weigh equally in the step; samples give the test its power. With a
 * window of 1 this compares neighbouring runs, as `compare` would.
 */
#ifndef UKB_CORE_CHANGEPOINT_H
#define UKB_CORE_CHANGEPOINT_H

#include <stddef.h>

struct ukb_point {
	const double *samples; /* ns per call of one run */
	size_t n;
	double mean;
};

struct ukb_step {
	double step; /* relative, at the boundary before this point; NAN at 0 */
	double p;
	int change_point;
};

/* Fills @out[0..n). Returns 0 or -ENOMEM. */
int ukb_changepoints(const struct ukb_point *pts, size_t n, size_t window, double alpha,
		     double threshold, struct ukb_step *out);

#endif

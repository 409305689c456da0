// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * changepoint.c - the windowed t-test over a series of runs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "twosample.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the run means [lo, hi), in @tmp. */
static double median_of(const struct ukb_point *pts, size_t lo, size_t hi, double *tmp)
{
	size_t n = hi - lo;

	for (size_t i = 0; i < n; i++)
		tmp[i] = pts[lo + i].mean;
	if (n > 32) {
		qsort(tmp, n, sizeof(*tmp), cmp_double);
	} else { /* a window: a few values, at every boundary of every host */
		for (size_t i = 1; i < n; i++) {
			double x = tmp[i];
			size_t j = i;

			for (; j > 0 && tmp[j - 1] > x; j--)
				tmp[j] = tmp[j - 1];
			tmp[j] = x;
		}
	}
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/*
 * The Mann-Whitney p of the run means [lo, k) against [k, hi); @counts is
 * U's exact distribution for these sizes, made once for the whole series
 * (NULL where it is too large: the normal approximation).
 */
static double window_p(const struct ukb_point *pts, size_t lo, size_t k, size_t hi, double *a,
		       double *b, const double *counts)
{
	double u, z, p;

	for (size_t i = lo; i < k; i++)
		a[i - lo] = pts[i].mean;
	for (size_t i = k; i < hi; i++)
		b[i - k] = pts[i].mean;
	p = ukb_mann_whitney(a, k - lo, b, hi - k, &u, &z);
	/*
	 * Exact, unless a run mean of one window equals one of the other: ties
	 * within a window (a quiet machine's equal figures) leave U as it is.
	 */
	for (size_t i = 0; i < k - lo; i++)
		for (size_t j = 0; j < hi - k; j++)
			if (a[i] == b[j])
				return p;
	return counts ? ukb_mann_whitney_p_of(counts, k - lo, hi - k, u) : p;
}

/* The mean of the run means [lo, hi). */
static double mean_of(const struct ukb_point *pts, size_t lo, size_t hi)
{
	double s = 0;

	for (size_t i = lo; i < hi; i++)
		s += pts[i].mean;
	return s / (double)(hi - lo);
}

/*
 * Does boundary @j outrank boundary @k, its neighbour? The one whose
 * windows' means differ more (the medians that size a step are robust,
 * and so blind to where it is: the boundary one run after a step has the
 * same medians when its window before holds one run of the new level,
 * which its mean shows); then the smaller p; then the earlier boundary.
 */
static int beats(const double *mstep, const struct ukb_step *out, size_t j, size_t k)
{
	if (fabs(mstep[j]) != fabs(mstep[k]))
		return fabs(mstep[j]) > fabs(mstep[k]);
	if (out[j].p != out[k].p)
		return out[j].p < out[k].p;
	return j < k;
}

int ukb_changepoints(const struct ukb_point *pts, size_t n, size_t window, double alpha,
		     double threshold, struct ukb_step *out)
{
	double *a, *b, *mstep, *counts;

	if (!window)
		window = 1;
	/* every full window pair has the same sizes: one distribution */
	counts = n >= 2 * window ? ukb_mann_whitney_counts(window, window) : NULL;
	a = calloc(window + 1, sizeof(*a));
	b = calloc(window + 1, sizeof(*b));
	mstep = calloc(n + 1, sizeof(*mstep));
	if (!a || !b || !mstep) {
		free(a);
		free(b);
		free(mstep);
		free(counts);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		out[k].step = NAN;
		out[k].p = NAN;
		out[k].change_point = 0;
		if (k == 0)
			continue;
		/* the step shown beside every run: against the previous one */
		out[k].step = pts[k].mean / pts[k - 1].mean - 1;
		if (k < window || k + window > n)
			continue;
		out[k].step =
		    median_of(pts, k, k + window, a) / median_of(pts, k - window, k, b) - 1;
		mstep[k] = mean_of(pts, k, k + window) / mean_of(pts, k - window, k) - 1;
		out[k].p = window_p(pts, k - window, k, k + window, a, b, counts);
	}
	for (size_t k = 1; k < n; k++) {
		int best = out[k].p < alpha && fabs(out[k].step) >= threshold;

		for (size_t j = k > window ? k - window : 1; best && j < n && j <= k + window; j++)
			if (j != k && out[j].p < alpha && fabs(out[j].step) >= threshold &&
			    beats(mstep, out, j, k))
				best = 0;
		out[k].change_point = best;
	}
	free(a);
	free(b);
	free(mstep);
	free(counts);
	return 0;
}

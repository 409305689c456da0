// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * changepoint.c - the windowed t-test over a series of runs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "compare.h"

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
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* The Mann-Whitney p of the run means [lo, k) against [k, hi). */
static double window_p(const struct ukb_point *pts, size_t lo, size_t k, size_t hi, double *a,
		       double *b)
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
	z = ukb_mann_whitney_exact_p(u, k - lo, hi - k);
	return isfinite(z) ? z : p;
}

/*
 * Does boundary @j's step outrank boundary @k's? The larger step; of
 * equal steps (neighbouring windows share runs, so their medians are
 * often the same run), the smaller p; of those, the earlier boundary.
 */
static int beats(const struct ukb_step *sj, size_t j, const struct ukb_step *sk, size_t k)
{
	if (fabs(sj->step) != fabs(sk->step))
		return fabs(sj->step) > fabs(sk->step);
	if (sj->p != sk->p)
		return sj->p < sk->p;
	return j < k;
}

int ukb_changepoints(const struct ukb_point *pts, size_t n, size_t window, double alpha,
		     double threshold, struct ukb_step *out)
{
	double *a, *b;

	if (!window)
		window = 1;
	a = calloc(window + 1, sizeof(*a));
	b = calloc(window + 1, sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
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
		out[k].p = window_p(pts, k - window, k, k + window, a, b);
	}
	for (size_t k = 1; k < n; k++) {
		int best = out[k].p < alpha && fabs(out[k].step) >= threshold;

		for (size_t j = k > window ? k - window : 1; best && j < n && j <= k + window; j++)
			if (j != k && out[j].p < alpha && beats(&out[j], j, &out[k], k))
				best = 0;
		out[k].change_point = best;
	}
	free(a);
	free(b);
	return 0;
}

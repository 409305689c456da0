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

/* Concatenates the samples of points [lo, hi) into a new array. */
static double *pool(const struct ukb_point *pts, size_t lo, size_t hi, size_t *n)
{
	size_t total = 0, k = 0;
	double *out;

	for (size_t i = lo; i < hi; i++)
		total += pts[i].n;
	out = malloc((total ? total : 1) * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = lo; i < hi; i++) {
		memcpy(out + k, pts[i].samples, pts[i].n * sizeof(*out));
		k += pts[i].n;
	}
	*n = total;
	return out;
}

static double mean_of_means(const struct ukb_point *pts, size_t lo, size_t hi)
{
	double s = 0;

	for (size_t i = lo; i < hi; i++)
		s += pts[i].mean;
	return s / (double)(hi - lo);
}

int ukb_changepoints(const struct ukb_point *pts, size_t n, size_t window, double alpha,
		     double threshold, struct ukb_step *out)
{
	if (!window)
		window = 1;
	for (size_t k = 0; k < n; k++) {
		size_t lo = k > window ? k - window : 0, hi = k + window < n ? k + window : n;
		size_t na, nb;
		double *a, *b, t, df, before;

		out[k].step = NAN;
		out[k].p = NAN;
		out[k].change_point = 0;
		if (k == 0)
			continue;
		before = mean_of_means(pts, lo, k);
		out[k].step = mean_of_means(pts, k, hi) / before - 1;
		a = pool(pts, lo, k, &na);
		b = pool(pts, k, hi, &nb);
		if (!a || !b) {
			free(a);
			free(b);
			return -ENOMEM;
		}
		if (na >= 2 && nb >= 2)
			out[k].p = ukb_welch(a, na, b, nb, &t, &df);
		free(a);
		free(b);
	}
	for (size_t k = 1; k < n; k++) {
		int best = out[k].p < alpha && fabs(out[k].step) >= threshold;

		for (size_t j = k > window ? k - window : 1; best && j < n && j <= k + window; j++)
			if (j != k && out[j].p < alpha && fabs(out[j].step) > fabs(out[k].step))
				best = 0;
		out[k].change_point = best;
	}
	return 0;
}

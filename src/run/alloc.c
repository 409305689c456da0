// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloc.c - the allocation of processes and time to a path (see alloc.h).
 */
#include <math.h>
#include <stdlib.h>

#include "alloc.h"
#include "stats.h"

static void series_add(struct alloc_series *a, double l, double r2, double measure_s)
{
	a->sum += l;
	a->sumsq += l * l;
	a->r2 += r2;
	a->r2t += r2 * measure_s;
	a->n++;
}

void alloc_add(struct alloc_path *a, double mean, double se, double ref, double ref_se,
	       double measure_s)
{
	double r = isfinite(se) && se >= 0 && mean > 0 ? se / mean : 0;
	double q = isfinite(ref_se) && ref_se >= 0 && ref > 0 ? ref_se / ref : 0;

	if (!(mean > 0))
		return;
	series_add(&a->mean, log(mean), r * r, measure_s);
	if (ref > 0 && isfinite(ref))
		series_add(&a->adjusted, log(mean / ref), r * r + q * q, measure_s);
}

/* The variance of a series; NAN below two. */
static double log_var(const struct alloc_series *a)
{
	double n = (double)a->n, v;

	if (a->n < 2)
		return NAN;
	v = (a->sumsq - a->sum * a->sum / n) / (n - 1);
	return v > 0 ? v : 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double alloc_process_time(const struct alloc_path *a, size_t n, double overhead_s, double max_s)
{
	double *t = malloc((n ? n : 1) * sizeof(*t)), best;
	size_t k = 0;

	if (max_s < ALLOC_T_MIN)
		max_s = ALLOC_T_MIN;
	if (!t)
		return max_s;
	for (size_t i = 0; i < n; i++) {
		const struct alloc_series *x =
		    a[i].adjusted.n == a[i].mean.n ? &a[i].adjusted : &a[i].mean;
		double v = log_var(x), sw, sb;

		if (!isfinite(v))
			continue;
		/* one process's own variance, per second of measuring */
		sw = x->r2t / (double)x->n;
		/* the spread between processes beyond what their own batches add */
		sb = v - x->r2 / (double)x->n;
		t[k++] = sb > 0 ? sqrt(overhead_s * sw / sb) : max_s;
	}
	if (!k) {
		free(t);
		return max_s;
	}
	qsort(t, k, sizeof(*t), cmp_double);
	best = k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2;
	free(t);
	return best < ALLOC_T_MIN ? ALLOC_T_MIN : best > max_s ? max_s : best;
}

int alloc_enough(const struct alloc_path *a, double precision, double budget_s)
{
	double v;

	/* the pilots always run: a figure of one process has no spread to show */
	if (a->mean.n < ALLOC_PILOT)
		return 0;
	if (a->spent_s >= budget_s)
		return 1;
	if (a->mean.n < ALLOC_MIN_PROCS)
		return 0;
	v = log_var(&a->mean);
	/* the CI of the mean of the logs: the relative CI of the mean */
	return isfinite(v) &&
	       ukb_t_quantile(0.975, (double)(a->mean.n - 1)) * sqrt(v / (double)a->mean.n) <=
		   precision;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - two-sample tests for comparing runs.
 *
 * Samples are batch means of one process; they are not independent of
 * each other in the strict sense (the machine drifts), so p-values on
 * thousands of samples are small for tiny differences. That is why a
 * verdict also needs the change to exceed a noise threshold, and why
 * repeating a run in fresh processes (--runs) and comparing the
 * per-process figures is the stronger test.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

static void mean_var(const double *x, size_t n, double *m, double *v)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*m = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? ss / (double)(n - 1) : NAN;
}

double ukb_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df)
{
	double ma, va, mb, vb, sa, sb, se;

	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se = sqrt(sa + sb);
	if (se == 0) {
		*t = ma == mb ? 0 : copysign(INFINITY, mb - ma);
		*df = (double)(na + nb - 2);
		return ma == mb ? 1 : 0;
	}
	*t = (mb - ma) / se;
	*df = (sa + sb) * (sa + sb) / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	return 2 * ukb_t_cdf(-fabs(*t), *df);
}

struct tagged {
	double v;
	int from_b;
};

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;

	return a < b ? -1 : a > b;
}

double ukb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
			double *z)
{
	size_t n = na + nb;
	struct tagged *all = malloc(n * sizeof(*all));
	double rank_b = 0, ties = 0, mu, sigma, nn = (double)n, d;

	if (!all)
		return NAN;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct tagged){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct tagged){ b[i], 1 };
	qsort(all, n, sizeof(*all), cmp_tagged);
	/* average ranks over runs of equal values */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double r, t;

		while (j < n && all[j].v == all[i].v)
			j++;
		r = ((double)i + 1 + (double)j) / 2;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (all[k].from_b)
				rank_b += r;
		i = j;
	}
	free(all);
	*u = rank_b - (double)nb * ((double)nb + 1) / 2;
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 * ((nn + 1) - ties / (nn * (nn - 1))));
	if (sigma == 0) {
		*z = 0;
		return 1;
	}
	d = *u - mu;
	/* continuity correction towards the mean */
	d -= d > 0 ? 0.5 : d < 0 ? -0.5 : 0;
	*z = d / sigma;
	return erfc(fabs(*z) / M_SQRT2);
}

int ukb_compare(const double *a, size_t na, const double *b, size_t nb, struct ukb_cmp *c)
{
	double va, vb, r, se, q;

	memset(c, 0, sizeof(*c));
	if (na < 2 || nb < 2)
		return -EINVAL;
	mean_var(a, na, &c->mean_a, &va);
	mean_var(b, nb, &c->mean_b, &vb);
	if (!(c->mean_a > 0) || !(c->mean_b > 0))
		return -EINVAL;
	c->p_welch = ukb_welch(a, na, b, nb, &c->t, &c->df);
	c->p_mwu = ukb_mann_whitney(a, na, b, nb, &c->u, &c->z);
	r = c->mean_b / c->mean_a;
	c->change = r - 1;
	se = r * sqrt(va / ((double)na * c->mean_a * c->mean_a) +
		      vb / ((double)nb * c->mean_b * c->mean_b));
	q = c->df > 0 && isfinite(c->df) ? ukb_t_quantile(0.975, c->df) : 1.959963984540054;
	c->ci_lo = c->change - q * se;
	c->ci_hi = c->change + q * se;
	return 0;
}

enum ukb_verdict ukb_verdict_of(double change, double p, double alpha, double threshold)
{
	if (!(p < alpha))
		return UKB_NO_CHANGE;
	if (fabs(change) < threshold)
		return UKB_WITHIN_NOISE;
	return change < 0 ? UKB_IMPROVED : UKB_REGRESSED;
}

const char *ukb_verdict_name(enum ukb_verdict v)
{
	switch (v) {
	case UKB_NO_CHANGE:
		return "no change";
	case UKB_WITHIN_NOISE:
		return "within noise";
	case UKB_IMPROVED:
		return "improved";
	case UKB_REGRESSED:
		return "regressed";
	}
	return "?";
}

double ukb_geomean_ratio(const double *changes, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += log1p(changes[i]);
	return exp(s / (double)n);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * twosample.c - two-sample tests for comparing runs (see twosample.h).
 *
 * Batch means of one process are not independent of each other (the
 * process's layout and placement are shared by all of them), so a test on
 * thousands of them finds tiny differences "significant" that another
 * process would not reproduce. The observations compared are therefore
 * per-process means; a run of one process is compared on its batches only
 * with a warning (the front end's).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "twosample.h"
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

struct tagged {
	double v;
	int from_b;
};

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;

	return a < b ? -1 : a > b;
}

/* In order of value; by insertion where there are few (a history's windows hold ten). */
static void sort_tagged(struct tagged *t, size_t n)
{
	if (n > 32) {
		qsort(t, n, sizeof(*t), cmp_tagged);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct tagged x = t[i];
		size_t j = i;

		for (; j > 0 && t[j - 1].v > x.v; j--)
			t[j] = t[j - 1];
		t[j] = x;
	}
}

double ukb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
			double *z)
{
	size_t n = na + nb;
	/* a history's windows are ten values, asked for at every boundary of every host */
	struct tagged few[32], *all = n <= 32 ? few : malloc(n * sizeof(*all));
	double rank_b = 0, ties = 0, mu, sigma, nn = (double)n, d;

	if (!all)
		return NAN;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct tagged){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct tagged){ b[i], 1 };
	sort_tagged(all, n);
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
	if (all != few)
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

/* Does any value of @x occur in @y or twice in @x? */
static int has_ties(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double *all = malloc(n * sizeof(*all));
	int ties = 0;

	if (!all)
		return 1;
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	for (size_t i = 0; i < n && !ties; i++)
		for (size_t j = i + 1; j < n && !ties; j++)
			ties = all[i] == all[j];
	free(all);
	return ties;
}

double *ukb_mann_whitney_counts(size_t na, size_t nb)
{
	size_t max = na * nb, m, k;
	double *f, *g, *counts;

	if (!na || !nb || max > 2500)
		return NULL;
	/*
	 * f[k][u] for a sample of k from m: the number of orderings of the
	 * first m + k values with U = u, built a value at a time; here in two
	 * rows, over m, for each k (Mann & Whitney's recursion
	 * c(m, k, u) = c(m, k - 1, u - m) + c(m - 1, k, u)).
	 */
	f = calloc((nb + 1) * (max + 1), sizeof(*f));
	g = calloc((nb + 1) * (max + 1), sizeof(*g));
	counts = calloc(max + 1, sizeof(*counts));
	if (!f || !g || !counts) {
		free(f);
		free(g);
		free(counts);
		return NULL;
	}
#define C(t, kk, uu) (t)[(kk) * (max + 1) + (uu)]
	/* m = 0: only U = 0 */
	for (k = 0; k <= nb; k++)
		C(f, k, 0) = 1;
	for (m = 1; m <= na; m++) {
		memset(g, 0, (nb + 1) * (max + 1) * sizeof(*g));
		for (k = 0; k <= nb; k++)
			for (size_t uu = 0; uu <= m * k; uu++) {
				double v = C(f, k, uu); /* the last value from the first sample */

				if (k && uu >= m)
					v += C(g, k - 1, uu - m); /* the last from the second */
				C(g, k, uu) = v;
			}
		memcpy(f, g, (nb + 1) * (max + 1) * sizeof(*f));
	}
	for (size_t uu = 0; uu <= max; uu++)
		counts[uu] = C(f, nb, uu);
#undef C
	free(f);
	free(g);
	return counts;
}

double ukb_mann_whitney_p_of(const double *counts, size_t na, size_t nb, double u)
{
	double total = 0, lo = 0, hi = 0, p;

	for (size_t uu = 0; uu <= na * nb; uu++) {
		double c = counts[uu];

		total += c;
		if ((double)uu <= u + 1e-9)
			lo += c;
		if ((double)uu >= u - 1e-9)
			hi += c;
	}
	p = 2 * (lo < hi ? lo : hi) / total;
	return p > 1 ? 1 : p;
}

double ukb_mann_whitney_exact_p(double u, size_t na, size_t nb)
{
	double *counts = ukb_mann_whitney_counts(na, nb), p;

	if (!counts)
		return NAN;
	p = ukb_mann_whitney_p_of(counts, na, nb, u);
	free(counts);
	return p;
}

int ukb_compare(const double *a, size_t na, const double *b, size_t nb, double floor, double alpha,
		struct ukb_cmp *c)
{
	return ukb_compare_df(a, na, b, nb, floor, INFINITY, alpha, c);
}

int ukb_compare_log(double ma, double mb, const double *var, const double *df, size_t nparts,
		    double alpha, struct ukb_cmp *c)
{
	double v = 0, den = 0, exact = 0, lr, q;

	memset(c, 0, sizeof(*c));
	if (!(ma > 0) || !(mb > 0) || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t i = 0; i < nparts; i++) {
		if (!(var[i] >= 0))
			return -EINVAL;
		v += var[i];
		/* a part known exactly adds no uncertainty of its own */
		if (isfinite(df[i]) && df[i] > 0)
			den += var[i] * var[i] / df[i];
		else
			exact += var[i];
	}
	c->mean_a = ma;
	c->mean_b = mb;
	c->se = sqrt(v);
	lr = log(mb / ma);
	c->change = mb / ma - 1;
	c->df = den > 0 ? (v - exact) * (v - exact) / den : INFINITY;
	if (c->se == 0) {
		c->t = lr == 0 ? 0 : copysign(INFINITY, lr);
		c->p_welch = lr == 0 ? 1 : 0;
		q = 0;
	} else {
		c->t = lr / c->se;
		c->p_welch = 2 * ukb_t_cdf(-fabs(c->t), c->df);
		q = ukb_t_quantile(1 - alpha / 2, c->df);
	}
	c->ci_lo = exp(lr - q * c->se) - 1;
	c->ci_hi = exp(lr + q * c->se) - 1;
	c->mde = exp((q + ukb_t_quantile(0.8, c->df)) * c->se) - 1;
	return 0;
}

void ukb_cmp_mwu(const double *a, size_t na, const double *b, size_t nb, struct ukb_cmp *c)
{
	c->mwu_exact = 0;
	c->p_mwu = ukb_mann_whitney(a, na, b, nb, &c->u, &c->z);
	if (na * nb <= 2500 && !has_ties(a, na, b, nb)) {
		double p = ukb_mann_whitney_exact_p(c->u, na, nb);

		if (isfinite(p)) {
			c->p_mwu = p;
			c->mwu_exact = 1;
		}
	}
}

int ukb_compare_df(const double *a, size_t na, const double *b, size_t nb, double floor,
		   double floor_df, double alpha, struct ukb_cmp *c)
{
	double ma, va, mb, vb, var[3], df[3];
	int rc;

	memset(c, 0, sizeof(*c));
	if (na < 2 || nb < 2 || !(floor >= 0))
		return -EINVAL;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	if (!(ma > 0) || !(mb > 0))
		return -EINVAL;
	var[0] = va / ((double)na * ma * ma);
	df[0] = (double)(na - 1);
	var[1] = vb / ((double)nb * mb * mb);
	df[1] = (double)(nb - 1);
	var[2] = floor;
	df[2] = floor_df;
	rc = ukb_compare_log(ma, mb, var, df, 3, alpha, c);
	if (rc)
		return rc;
	/* both parts' spreads nil and the floor exact: the processes' own count */
	if (!isfinite(c->df) && var[0] + var[1] == 0)
		c->df = (double)(na + nb - 2);
	ukb_cmp_mwu(a, na, b, nb, c);
	return 0;
}

enum ukb_verdict ukb_verdict_of(const struct ukb_cmp *c, double alpha, double threshold)
{
	/* an equivalence test (two one-sided): both bounds inside +-threshold */
	int inside = c->ci_lo > -threshold && c->ci_hi < threshold;
	int sig = c->p_welch < alpha;

	if (!isfinite(c->change) || !isfinite(c->ci_lo) || !isfinite(c->ci_hi))
		return UKB_CANNOT_TELL;
	if (sig && fabs(c->change) >= threshold)
		return c->change < 0 ? UKB_IMPROVED : UKB_REGRESSED;
	if (inside)
		return sig ? UKB_WITHIN_NOISE : UKB_NO_CHANGE;
	if (sig || !(c->mde > 0) || c->ci_hi > c->mde || c->ci_lo < -c->mde / (1 + c->mde))
		return UKB_CANNOT_TELL;
	return UKB_NOT_SIGNIFICANT;
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
	case UKB_NOT_SIGNIFICANT:
		return "not significant";
	case UKB_CANNOT_TELL:
		return "cannot tell";
	}
	return "?";
}

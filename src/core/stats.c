// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - descriptive statistics and the Student t distribution.
 *
 * The t quantile is computed, not looked up in a table: adaptive sampling
 * asks for it at every sample count, and compare needs p-values for
 * fractional (Welch) degrees of freedom. The distribution function goes
 * through the regularized incomplete beta function, evaluated with its
 * continued fraction (modified Lentz), and the quantile inverts it with a
 * safeguarded Newton iteration.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double ukb_median_finite(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

int ukb_fill_unknown(const double *x, size_t n, double *out)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0 && isfinite(x[i])) {
			sum += x[i];
			k++;
		}
	if (!k || 2 * k < n)
		return -1;
	for (size_t i = 0; i < n; i++)
		out[i] = x[i] > 0 && isfinite(x[i]) ? x[i] : sum / (double)k;
	return 0;
}

double ukb_quantile_sorted(const double *s, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (n == 0)
		return NAN;
	if (p <= 0)
		return s[0];
	if (p >= 1)
		return s[n - 1];
	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

int ukb_stats_compute(const double *x, size_t n, struct ukb_stats *st)
{
	double *s, sum = 0, m2 = 0, iqr, lo, hi, slo, shi;
	size_t keep;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);

	st->n = n;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	st->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		m2 += (s[i] - st->mean) * (s[i] - st->mean);

	st->min = s[0];
	st->max = s[n - 1];
	st->median = ukb_quantile_sorted(s, n, 0.5);
	st->q1 = ukb_quantile_sorted(s, n, 0.25);
	st->q3 = ukb_quantile_sorted(s, n, 0.75);

	if (n > 1) {
		st->stddev = sqrt(m2 / (double)(n - 1));
		st->cv = st->mean != 0 ? st->stddev / st->mean : NAN;
		st->ci95 = ukb_t_quantile(0.975, (double)(n - 1)) * st->stddev / sqrt((double)n);
		st->ci95_rel = st->mean != 0 ? st->ci95 / st->mean : NAN;
	} else {
		st->stddev = st->cv = st->ci95 = st->ci95_rel = NAN;
	}

	/* mean95: ceil so that small samples keep at least one value */
	keep = (size_t)ceil(0.95 * (double)n);
	sum = 0;
	for (size_t i = 0; i < keep; i++)
		sum += s[i];
	st->trimmed_mean = sum / (double)keep;

	iqr = st->q3 - st->q1;
	lo = st->q1 - 1.5 * iqr;
	hi = st->q3 + 1.5 * iqr;
	slo = st->q1 - 3 * iqr;
	shi = st->q3 + 3 * iqr;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < lo)
			st->outliers_low++;
		else if (s[i] > hi)
			st->outliers_high++;
		if (s[i] < slo || s[i] > shi)
			st->outliers_severe++;
	}
	free(s);
	return 0;
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 20000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double ukb_betai(double a, double b, double x)
{
	double lbt;

	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* the fraction converges fast on this side of the mean of the beta */
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double ukb_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * ukb_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double ukb_f_sf(double f, double d1, double d2)
{
	if (isnan(f) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	if (f <= 0)
		return 1;
	if (isinf(f))
		return 0;
	/* P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2) */
	return ukb_betai(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

static double t_pdf(double t, double df)
{
	double lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);

	return exp(lc - (df + 1) / 2 * log1p(t * t / df));
}

static double t_quantile(double p, double df);

/*
 * The last few asked, remembered per thread: a comparison asks the same
 * quantile for each path and each run its floor reads, and each answer is
 * a root found by dozens of incomplete beta functions.
 */
#define TQ_KEPT 16
double ukb_t_quantile(double p, double df)
{
	static __thread struct {
		double p, df, t;
	} kept[TQ_KEPT];
	static __thread unsigned next;
	double t;

	for (unsigned i = 0; i < TQ_KEPT; i++)
		if (kept[i].p == p && kept[i].df == df && p != 0)
			return kept[i].t;
	t = t_quantile(p, df);
	kept[next % TQ_KEPT].p = p;
	kept[next % TQ_KEPT].df = df;
	kept[next % TQ_KEPT].t = t;
	next++;
	return t;
}

static double t_quantile(double p, double df)
{
	double lo, hi, t;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -t_quantile(1 - p, df);

	/* bracket the root, then Newton steps kept inside the bracket */
	lo = 0;
	hi = 2;
	while (ukb_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 4;
	t = (lo + hi) / 2;
	for (int i = 0; i < 200; i++) {
		double f = ukb_t_cdf(t, df) - p, next;

		if (f > 0)
			hi = t;
		else
			lo = t;
		next = t - f / t_pdf(t, df);
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2;
		if (fabs(next - t) <= 1e-13 * fabs(next))
			return next;
		t = next;
	}
	return t;
}

double ukb_running_ci95_rel(const struct ukb_running *r)
{
	double sd;

	if (r->n < 2 || r->mean == 0)
		return INFINITY;
	sd = sqrt(r->m2 / (double)(r->n - 1));
	return ukb_t_quantile(0.975, (double)(r->n - 1)) * sd / sqrt((double)r->n) / fabs(r->mean);
}

void ukb_shuffle(size_t *idx, size_t n, uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
	*state = x;
}

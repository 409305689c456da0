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
	return ukb_betai(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

static double t_pdf(double t, double df)
{
	double lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);

	return exp(lc - (df + 1) / 2 * log1p(t * t / df));
}

double ukb_t_quantile(double p, double df)
{
	double lo, hi, t;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -ukb_t_quantile(1 - p, df);

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

double ukb_between_runs_sd(const double *log_means, const double *within, size_t n)
{
	double s = 0, ss = 0, w = 0, f;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++) {
		s += log_means[i];
		w += within[i];
	}
	for (size_t i = 0; i < n; i++)
		ss += (log_means[i] - s / (double)n) * (log_means[i] - s / (double)n);
	f = ss / (double)(n - 1) - w / (double)n;
	return f > 0 ? sqrt(f) : 0;
}

double ukb_between_runs_sd_grouped(const double *log_means, const double *within,
				   const size_t *group, size_t n, size_t *df)
{
	double ss = 0, w = 0, f;
	size_t used = 0, groups = 0;

	*df = 0;
	for (size_t i = 0; i < n; i++) {
		double s = 0;
		size_t k = 0, first = 1;

		/* each group once, at its first member */
		for (size_t j = 0; j < i && first; j++)
			first = group[j] != group[i];
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (group[j] == group[i]) {
				s += log_means[j];
				k++;
			}
		if (k < 2)
			continue;
		for (size_t j = i; j < n; j++)
			if (group[j] == group[i]) {
				double d = log_means[j] - s / (double)k;

				ss += d * d;
				w += within[j];
			}
		used += k;
		groups++;
	}
	if (used - groups < 2)
		return 0;
	*df = used - groups;
	f = ss / (double)*df - w / (double)used;
	return f > 0 ? sqrt(f) : 0;
}

double ukb_floor_adjusted(const struct ukb_run_pair *p, size_t n, struct ukb_adjust *a)
{
	double sxx = 0, sxy = 0, syy = 0, exx = 0, exy = 0, b, rss, sxx_true;
	double s_y = 0, s_d = 0, s_dd = 0, s_yd = 0, f2, t2;
	size_t used = 0, groups = 0, pairs = 0;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < n; i++) {
		double mx = 0, my = 0;
		size_t k = 0, first = 1;

		for (size_t j = 0; j < i && first; j++)
			first = p[j].group != p[i].group;
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (p[j].group == p[i].group) {
				mx += p[j].lx;
				my += p[j].ly;
				k++;
			}
		if (k < 2)
			continue;
		mx /= (double)k;
		my /= (double)k;
		for (size_t j = i; j < n; j++)
			if (p[j].group == p[i].group) {
				sxx += (p[j].lx - mx) * (p[j].lx - mx);
				sxy += (p[j].lx - mx) * (p[j].ly - my);
				syy += (p[j].ly - my) * (p[j].ly - my);
				/* what the runs' own noise adds to those sums */
				exx += p[j].vxx * (double)(k - 1) / (double)k;
				exy += p[j].vxy * (double)(k - 1) / (double)k;
			}
		used += k;
		groups++;
	}
	if (used < groups + 4 || !(sxx > 0))
		return 0;
	a->df = used - groups - 1;
	/*
	 * Each run's reference mean is itself measured, with the variance its
	 * processes show: least squares on it would draw the slope toward 0
	 * by the share of the reference's spread that is that noise
	 * (regression dilution), most where the machine moved least. The
	 * moment estimate takes the noise out of both sums (errors in
	 * variables with known error variances); where the noise is most of
	 * the spread, no more than four fifths of it is taken out, and the
	 * slope's error grows as what is left shrinks.
	 */
	sxx_true = sxx - exx > sxx / 5 ? sxx - exx : sxx / 5;
	b = (sxy - exy) / sxx_true;
	b = b < 0 ? 0 : b > 2 ? 2 : b;
	a->beta = b;
	rss = (syy - 2 * b * sxy + b * b * sxx) / (double)a->df;
	a->se_beta = sqrt((rss > 0 ? rss : 0) / sxx_true);
	/* every pair of a group: its adjusted difference against the machine's move */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double e, d, y;

			if (p[i].group != p[j].group)
				continue;
			e = (p[i].ly - b * p[i].lx) - (p[j].ly - b * p[j].lx);
			d = (p[i].lx - p[j].lx) * (p[i].lx - p[j].lx);
			y = e * e - (p[i].vyy - 2 * b * p[i].vxy + b * b * p[i].vxx) -
			    (p[j].vyy - 2 * b * p[j].vxy + b * b * p[j].vxx);
			s_y += y;
			s_d += d;
			s_dd += d * d;
			s_yd += y * d;
			pairs++;
		}
	if (!pairs)
		return 0;
	/* y = 2 f^2 + t^2 d by least squares, neither negative */
	t2 = s_dd * pairs - s_d * s_d > 0 ? (s_yd * pairs - s_y * s_d) / (s_dd * pairs - s_d * s_d)
					  : 0;
	if (t2 < 0)
		t2 = 0;
	f2 = (s_y - t2 * s_d) / (double)pairs / 2;
	if (f2 < 0) {
		f2 = 0;
		t2 = s_dd > 0 && s_yd > 0 ? s_yd / s_dd : 0;
	}
	a->tau = sqrt(t2);
	a->floor = sqrt(f2);
	return a->floor;
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

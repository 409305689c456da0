// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pair.c - sides whose runs alternated in time, compared pair by pair.
 *
 * Where a machine drifts slowly and the two sides alternate, the
 * difference of neighbours cancels the drift that pooled sides carry in
 * their spread. Where neighbours move as much as runs further apart it
 * gains nothing (docs/validation.md): compare --paired asks for it.
 */
#include <math.h>
#include <string.h>

#include "comparison.h"
#include "learn.h"
#include "side.h"

int cmp_alternated(const struct rec_run *a, const struct rec_run *b)
{
	size_t n = a->npooled, i = 0, j = 0;
	int last = -1;

	if (n < 2 || b->npooled != n || !a->pooled_started || !b->pooled_started)
		return 0;
	/* both newest first, merged: the side must change at every step */
	while (i < n || j < n) {
		int c = i < n && j < n ? strcmp(a->pooled_started[i], b->pooled_started[j])
				       : (i < n ? 1 : -1);
		int side = c > 0 ? 0 : 1;

		if (!c || side == last)
			return 0;
		last = side;
		if (side)
			j++;
		else
			i++;
	}
	return 1;
}

/* One run of a side: the mean of its processes, its variance (relative), their count. */
struct pair_run {
	double m, wr, c;
};

/* @r's runs by their index (proc_run), each of @n present once; 0, or -1. */
static int runs_of(const struct rec_result *r, const double *x, size_t n, struct pair_run *u)
{
	memset(u, 0, n * sizeof(*u));
	if (!r->proc_run || r->fl.scale > 1)
		return -1;
	for (size_t i = 0, j; i < r->nproc; i = j) {
		struct pair_run *p = r->proc_run[i] < n ? &u[r->proc_run[i]] : NULL;

		j = rec_run_end(r, i);
		if (!p || p->c || side_run_of(x + i, j - i, &p->m, &p->wr))
			return -1;
		p->c = (double)(j - i);
	}
	for (size_t k = 0; k < n; k++)
		if (!u[k].c)
			return -1;
	return 0;
}

/* A side's mean and processes' part, its runs weighed by @w (summing to 1). */
static void side_of(const struct pair_run *u, const double *w, size_t n, struct side_est *e)
{
	double den = 0;

	memset(e, 0, sizeof(*e));
	for (size_t k = 0; k < n; k++) {
		double v = w[k] * w[k] * u[k].wr;

		e->mean += w[k] * u[k].m;
		e->var_proc += v;
		if (u[k].c >= 2)
			den += v * v / (u[k].c - 1);
	}
	e->df_proc = den > 0 ? e->var_proc * e->var_proc / den : INFINITY;
	e->runs = n;
}

int pair_est(const struct rec_result *a, const double *xa, const struct rec_result *b,
	     const double *xb, size_t npairs, double f, double fdf, struct side_est *ea,
	     struct side_est *eb)
{
	struct pair_run ua[npairs + 1], ub[npairs + 1];
	double dbar = 0, s2 = 0, wbar = 0, fv = 2 * f * f, df = INFINITY, w[npairs + 1], sw = 0,
	       w2 = 0;

	if (npairs < 2 || !xa || !xb || runs_of(a, xa, npairs, ua) || runs_of(b, xb, npairs, ub))
		return -1;
	for (size_t k = 0; k < npairs; k++) {
		dbar += (log(ub[k].m) - log(ua[k].m)) / (double)npairs;
		wbar += (ua[k].wr + ub[k].wr) / (double)npairs;
	}
	for (size_t k = 0; k < npairs; k++) {
		double d = log(ub[k].m) - log(ua[k].m) - dbar;

		s2 += d * d / (double)(npairs - 1);
	}
	if (fdf > 0) {
		/* a pair's difference moves by two runs' floor */
		struct learn_floor fl = { .sd = f * M_SQRT2, .df = fdf };

		fv = learn_moderate(&fl, s2 - wbar, npairs, &df);
	}
	/*
	 * each pair weighs by the inverse of what it leaves unknown, as a
	 * pooled side's runs do: a pair made in a noisy stretch ran more
	 * processes and would otherwise carry the difference
	 */
	for (size_t k = 0; k < npairs; k++) {
		double v = ua[k].wr + ub[k].wr + fv;

		w[k] = v > 0 && isfinite(v) ? 1 / v : 1;
		sw += w[k];
	}
	for (size_t k = 0; k < npairs; k++) {
		w[k] /= sw;
		w2 += w[k] * w[k];
	}
	side_of(ua, w, npairs, ea);
	side_of(ub, w, npairs, eb);
	ea->var_floor = eb->var_floor = fv * w2 / 2;
	ea->df_floor = eb->df_floor = df;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn.c - what a host's stored runs teach of a path (see learn.h).
 *
 * The floor is a variance component: the differences between neighbouring
 * runs of a group (the mean square of successive differences, von
 * Neumann's), pooled over the groups, less what the runs' own processes
 * already show of them. Each run is weighed by its disorder
 * (learn_scale()): a difference between runs whose floor is twice the
 * host's counts a quarter. At one speed of the machine the same after the
 * path's slope on the reference, fitted within the groups (ANCOVA's pooled
 * slope, weighed alike), on one degree fewer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "learn.h"
#include "stats.h"

int learn_run_of(const double *m, const double *ref, size_t n, struct learn_run *r)
{
	double my = 0, mx = 0, syy = 0, sxx = 0, sxy = 0, x[n + 1];
	/* a process whose reference went unmeasured at the run's mean (ukb_fill_unknown()) */
	int have_x = ref && !ukb_fill_unknown(ref, n, x);

	memset(r, 0, sizeof(*r));
	r->x = NAN;
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(m[i] > 0) || !isfinite(m[i]))
			return -1;
		my += m[i] / (double)n;
		mx += have_x ? x[i] / (double)n : 0;
	}
	/* relative deviations: the delta method's variance of the log of a mean */
	for (size_t i = 0; i < n; i++) {
		double dy = m[i] / my - 1, dx = have_x ? x[i] / mx - 1 : 0;

		syy += dy * dy;
		sxx += dx * dx;
		sxy += dx * dy;
	}
	r->y = log(my);
	r->spread = sqrt(syy / (double)(n - 1));
	r->w = syy / (double)(n - 1) / (double)n;
	if (have_x) {
		r->x = log(mx);
		r->wx = sxx / (double)(n - 1) / (double)n;
		r->xspread = sqrt(sxx / (double)(n - 1));
		r->wxy = sxy / (double)(n - 1) / (double)n;
	}
	return 0;
}

static int excluded(int64_t id, const int64_t *ex, size_t nex)
{
	for (size_t i = 0; i < nex; i++)
		if (ex[i] == id)
			return 1;
	return 0;
}

/* The prior @prior moderated by @learned on @df degrees of freedom (0: none). */
static void moderate(struct learn_floor *f, double prior, double learned, double df)
{
	f->learned = df > 0 ? learned : 0;
	f->learned_df = df > 0 ? df : 0;
	f->df = LEARN_PRIOR_DF + f->learned_df;
	f->sd = sqrt((LEARN_PRIOR_DF * prior * prior + f->learned_df * f->learned * f->learned) /
		     f->df);
}

/*
 * The median relative SD of the newest runs kept, of their process means
 * (@ref 0) or of the references beside them (@ref 1); 0 where fewer than
 * LEARN_USUAL_MIN runs tell it.
 */
static double usual_spread(const struct learn_run *r, size_t n, const int *keep, int ref)
{
	double v[LEARN_LEVEL_RUNS];
	size_t k = 0;

	for (size_t i = 0; i < n && k < LEARN_LEVEL_RUNS; i++)
		if (keep[i] && (ref ? r[i].xspread : r[i].spread) > 0)
			v[k++] = ref ? r[i].xspread : r[i].spread;
	return k >= LEARN_USUAL_MIN ? ukb_median_finite(v, k) : 0;
}

/*
 * The machine's usual speed and the path's usual spread, from the newest
 * runs kept: the median and robust SD of the references' log means, and
 * the median of the process spreads.
 */
static void usual(const struct learn_run *r, size_t n, const int *keep, struct learn_model *m)
{
	double v[LEARN_LEVEL_RUNS];
	size_t k = 0;

	m->usual_spread = usual_spread(r, n, keep, 0);
	m->usual_ref_spread = usual_spread(r, n, keep, 1);
	for (size_t i = 0; i < n && k < LEARN_LEVEL_RUNS; i++)
		if (keep[i] && isfinite(r[i].x))
			v[k++] = r[i].x;
	m->ref_runs = k;
	if (!k)
		return;
	m->ref_level = ukb_median_finite(v, k);
	for (size_t i = 0; i < k; i++)
		v[i] = fabs(v[i] - m->ref_level);
	/* the median absolute deviation, scaled to an SD for normal data */
	m->ref_sd = 1.4826 * ukb_median_finite(v, k);
}

/*
 * What the runs @use[] marks teach, weighed by @wt[]: the group means of
 * their log means and references into @my, @mx (indexed by group, below
 * @n), the weight of each group into @gw and its runs into @cnt; the
 * groups of two runs or more counted.
 */
static size_t group_means(const struct learn_run *r, size_t n, const int *use, const double *wt,
			  double *my, double *mx, double *gw, size_t *cnt)
{
	size_t groups = 0;

	for (size_t g = 0; g < n; g++) {
		my[g] = mx[g] = gw[g] = 0;
		cnt[g] = 0;
	}
	for (size_t i = 0; i < n; i++)
		if (use[i] && r[i].group < n) {
			size_t g = r[i].group;

			cnt[g]++;
			gw[g] += wt[i];
			my[g] += wt[i] * r[i].y;
			mx[g] += wt[i] * (isfinite(r[i].x) ? r[i].x : 0);
		}
	for (size_t g = 0; g < n; g++) {
		if (gw[g] > 0) {
			my[g] /= gw[g];
			mx[g] /= gw[g];
		}
		groups += cnt[g] >= 2;
	}
	return groups;
}

/* The arrays learn_model() works in, @n of each. */
struct work {
	double *my, *mx, *gw, *wt, *ss, *within;
	size_t *cnt;
	int *keep, *use;
};

static int work_init(struct work *w, size_t n)
{
	w->my = malloc(n * sizeof(double));
	w->mx = malloc(n * sizeof(double));
	w->gw = malloc(n * sizeof(double));
	w->wt = malloc(n * sizeof(double));
	w->ss = malloc(n * sizeof(double));
	w->within = malloc(n * sizeof(double));
	w->cnt = malloc(n * sizeof(size_t));
	w->keep = malloc(n * sizeof(int));
	w->use = malloc(n * sizeof(int));
	return w->my && w->mx && w->gw && w->wt && w->ss && w->within && w->cnt && w->keep && w->use
		   ? 0
		   : -1;
}

static void work_release(struct work *w)
{
	free(w->my);
	free(w->mx);
	free(w->gw);
	free(w->wt);
	free(w->ss);
	free(w->within);
	free(w->cnt);
	free(w->keep);
	free(w->use);
}

/* What entered a floor: runs, of them made busy, and groups. */
struct entered {
	size_t runs, busy, groups;
};

/*
 * A difference beyond this is a change, not noise: LEARN_CLIP robust SDs
 * of the differences @z[0..k) (the median absolute one, scaled to an SD
 * for normal data); reorders @z.
 */
static double clip_of(double *z, size_t k)
{
	return LEARN_CLIP * ukb_median_finite(z, k) / 0.6745;
}

/*
 * The floor from successive runs within each group (@res: each run's log
 * mean, or its residual at one speed; @wv: the variance its processes
 * show of it; the runs in the order given, newest first): each pair of
 * neighbours in a group differs by d, whose variance is the floor times
 * both runs' scales squared plus what their processes show. Neighbours,
 * not the group's mean: a real shift inside a group (a label given again
 * after a change) enters one difference, not every run's deviation; and
 * a difference beyond clip_of() them all, or of its group's where that is
 * wider, is left out where there are LEARN_CLIP_MIN or more to judge it
 * by. The pooled floor, or the largest of a group of LEARN_GROUP_DF
 * differences or more where that is larger (learn.h). The mean square of
 * successive differences of m pairs is worth 2 m^2 / (3 m - 1) degrees of
 * freedom (von Neumann's estimator, normal data). Into *@f and *@df; *@in
 * gets the runs with a difference kept, and their groups.
 */
static void successive_floor(const struct learn_run *r, size_t n, const int *use, const double *wt,
			     const double *res, const double *wv, double *f, double *df,
			     struct entered *in)
{
	double *z = malloc((n + 1) * sizeof(*z)), *q = malloc((n + 1) * sizeof(*q));
	double *c = malloc((n + 1) * sizeof(*c)), clip = INFINITY, pq = 0, pc = 0, pdf = 0;
	double best = -1, bdf = 0;
	size_t *pg = malloc((n + 1) * sizeof(*pg)), *last = malloc((n + 1) * sizeof(*last));
	size_t *pair = malloc(2 * (n + 1) * sizeof(*pair)), m = 0, kept = 0;
	int *entered = calloc(n + 1, sizeof(*entered));

	*f = *df = 0;
	memset(in, 0, sizeof(*in));
	if (!z || !q || !c || !pg || !last || !pair || !entered)
		goto out;
	for (size_t g = 0; g < n; g++)
		last[g] = n;
	for (size_t i = 0; i < n; i++) {
		size_t g = r[i].group, j;
		double s2;

		if (!use[i] || g >= n)
			continue;
		j = last[g];
		last[g] = i;
		if (j == n)
			continue;
		/* the scales squared of the two runs: 1 / weight */
		s2 = 1 / wt[i] + 1 / wt[j];
		q[m] = (res[i] - res[j]) * (res[i] - res[j]) / s2;
		c[m] = (wv[i] + wv[j]) / s2;
		z[m] = sqrt(q[m]);
		pair[2 * m] = i;
		pair[2 * m + 1] = j;
		pg[m++] = g;
	}
	if (m >= LEARN_CLIP_MIN) {
		double v[m];

		memcpy(v, z, m * sizeof(*v));
		clip = clip_of(v, m);
	}
	for (size_t g = 0; g < n; g++) {
		double gq = 0, gc = 0, gdf, v, gclip = clip, u[m + 1];
		size_t gm = 0;

		/* a group that tells its own noise is judged by it where it is wider */
		for (size_t k = 0; k < m; k++)
			if (pg[k] == g)
				u[gm++] = z[k];
		if (gm >= LEARN_CLIP_MIN)
			gclip = fmax(clip, clip_of(u, gm));
		gm = 0;
		for (size_t k = 0; k < m; k++)
			if (pg[k] == g && !(z[k] > gclip)) {
				gq += q[k];
				gc += c[k];
				gm++;
				entered[pair[2 * k]] = entered[pair[2 * k + 1]] = 1;
			}
		if (!gm)
			continue;
		in->groups++;
		kept += gm;
		pq += gq;
		pc += gc;
		gdf = 2.0 * (double)(gm * gm) / (3.0 * (double)gm - 1);
		pdf += gdf;
		v = (gq - gc) / (double)gm;
		if (gm >= LEARN_GROUP_DF && v > best) {
			best = v;
			bdf = gdf;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (entered[i]) {
			in->runs++;
			in->busy += r[i].busy != 0;
		}
	if (!kept)
		goto out;
	*f = (pq - pc) / (double)kept;
	*df = pdf;
	if (best > *f) {
		*f = best;
		*df = bdf;
	}
	*f = sqrt(fmax(0, *f));
out:
	free(z);
	free(q);
	free(c);
	free(pg);
	free(last);
	free(pair);
	free(entered);
}

/* The floor as measured: successive runs within groups, beyond their processes. */
static void learn_raw(const struct learn_run *r, size_t n, struct work *w, struct learn_model *m)
{
	struct entered in;
	double f, df;

	for (size_t i = 0; i < n; i++) {
		w->ss[i] = r[i].y;
		w->within[i] = r[i].w;
	}
	successive_floor(r, n, w->keep, w->wt, w->ss, w->within, &f, &df, &in);
	m->runs = in.runs;
	m->groups = in.groups;
	m->busy = in.busy;
	m->quiet = in.runs - in.busy;
	if (df > 0)
		moderate(&m->raw, m->prior, f, df);
	m->adj = m->raw;
}

/* At one speed of the machine: the runs with a reference, the slope within groups. */
static void learn_adj(const struct learn_run *r, size_t n, struct work *w, struct learn_model *m)
{
	double sxx = 0, sxy = 0, syy = 0;
	size_t runs = 0, groups;

	for (size_t i = 0; i < n; i++)
		w->use[i] = w->keep[i] && isfinite(r[i].x);
	groups = group_means(r, n, w->use, w->wt, w->my, w->mx, w->gw, w->cnt);
	for (size_t i = 0; i < n; i++) {
		double dx, dy;

		if (!w->use[i] || r[i].group >= n || w->cnt[r[i].group] < 2)
			continue;
		dx = r[i].x - w->mx[r[i].group];
		dy = r[i].y - w->my[r[i].group];
		sxx += w->wt[i] * dx * dx;
		sxy += w->wt[i] * dx * dy;
		syy += w->wt[i] * dy * dy;
		runs++;
	}
	/*
	 * Least squares on the runs' measured means: each reference mean has
	 * an error of its own, which draws the slope toward 0, but a moment
	 * correction for it (errors in variables) multiplied the slope of the
	 * system-call paths, whose reference moves by 10% between processes,
	 * by up to five, and their intervals with it (docs/validation.md).
	 */
	if (runs >= groups + 3 && sxx > 0) {
		double b = sxy / sxx, f, df;
		struct entered in;

		b = fmin(fmax(b, 0), LEARN_MAX_BETA);
		m->slope_judged = 1;
		m->beta = b;
		m->se_beta = sqrt(fmax(0, syy - 2 * b * sxy + b * b * sxx) /
				  (double)(runs - groups - 1) / sxx);
		/* the floor at one speed, as learn_raw() takes it */
		for (size_t i = 0; i < n; i++) {
			w->ss[i] = r[i].y - b * (isfinite(r[i].x) ? r[i].x : 0);
			w->within[i] = r[i].w - 2 * b * r[i].wxy + b * b * r[i].wx;
		}
		successive_floor(r, n, w->use, w->wt, w->ss, w->within, &f, &df, &in);
		/* the slope fitted takes one degree of freedom */
		if (df > 1)
			moderate(&m->adj, m->prior, f * sqrt(df / (df - 1)), df - 1);
		/* the reference is used where it pays (learn.h) */
		if (!(m->adj.learned < LEARN_SLOPE_PAYS * m->raw.learned)) {
			m->beta = m->se_beta = 0;
			m->adj = m->raw;
		}
	}
}

void learn_model(const struct learn_run *r, size_t n, const int64_t *exclude, size_t nex,
		 struct learn_model *m)
{
	struct work w;

	memset(m, 0, sizeof(*m));
	m->prior = LEARN_PRIOR_FLOOR;
	moderate(&m->raw, m->prior, 0, 0);
	m->adj = m->raw;
	m->ref_level = m->ref_sd = NAN;
	if (!n || work_init(&w, n)) {
		if (n)
			work_release(&w);
		return;
	}
	for (size_t i = 0; i < n; i++)
		w.keep[i] = !excluded(r[i].id, exclude, nex) && isfinite(r[i].y);
	usual(r, n, w.keep, m);
	for (size_t i = 0; i < n; i++) {
		double s = learn_scale(m, r[i].spread);

		w.wt[i] = 1 / (s * s);
	}
	learn_raw(r, n, &w, m);
	learn_adj(r, n, &w, m);
	work_release(&w);
}

double learn_scale(const struct learn_model *m, double spread)
{
	if (!(m->usual_spread > 0) || !(spread > 0))
		return 1;
	return fmax(1, spread / m->usual_spread);
}

double learn_moderate(const struct learn_floor *f, double s2, size_t k, double *df)
{
	double d = k >= 2 ? (double)(k - 1) : 0;

	*df = f->df + d;
	return (f->df * f->sd * f->sd + d * fmax(0, s2)) / *df;
}

double learn_offset(const struct learn_model *m, double x)
{
	if (m->ref_runs < LEARN_USUAL_MIN || !isfinite(m->ref_level) || !isfinite(x))
		return NAN;
	return x - m->ref_level;
}

int learn_other_state(const struct learn_model *m, double d)
{
	return isfinite(d) && fabs(d) > fmax(LEARN_STATE_SDS * m->ref_sd, LEARN_STATE_MIN);
}

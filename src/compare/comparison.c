// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * comparison.c - pairing the paths of two runs and comparing each pair
 * (see comparison.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp-floor.h"
#include "comparison.h"
#include "desc.h"
#include "learn.h"
#include "match.h"
#include "side.h"
#include "stats.h"

/*
 * Each process's mean at one speed of the machine: its mean over its
 * reference's (reference.h) to the power @beta, the path's slope on what
 * moves the reference (ANCOVA on the logs with a known slope). 0 (nothing
 * in *@out) unless @r's references are known (rec_proc_refs()).
 */
static size_t adjusted(const struct rec_result *r, double beta, double **out)
{
	*out = NULL;
	if (r->nproc < 2 || !r->proc_ref || !(beta > 0))
		return 0;
	*out = malloc(r->nproc * sizeof(**out));
	if (!*out)
		return 0;
	if (rec_proc_refs(r, *out)) {
		free(*out);
		*out = NULL;
		return 0;
	}
	for (size_t i = 0; i < r->nproc; i++)
		(*out)[i] = r->proc_means[i] / pow((*out)[i], beta);
	return r->nproc;
}

/*
 * What is known of one side's log mean, on the scale compared (@x, its
 * process values, @r's processes): the mean of the run means, the
 * variance their processes show and the floor's (each on its own degrees
 * of freedom). Each run the side pools moves by the floor @f (relative
 * SD, learned on @fdf degrees of freedom; 0: given, exact), times the
 * side's scale (how much more its paths' processes spread than usual, the
 * median over its paths: cmp-floor.c): what that state adds is shared by
 * the side's runs and does not average out over them. A side pooled from
 * runs of one boot shows how far its own runs moved: their spread beyond their
 * processes, on runs - 1 degrees of freedom, moderates the floor
 * (learn_moderate()), so that more runs a side add what they show, and
 * never judge by their few degrees of freedom alone. The runs are weighed
 * by what is known of each (the inverse of its variance): a run made in a
 * disordered stretch ran more processes, being noisier, and weighed by its
 * processes it would carry the side; weighed by what it tells, more runs
 * a side narrow the interval.
 */
int side_run_of(const double *x, size_t c, double *m, double *wr)
{
	double sum = 0, ss = 0;

	for (size_t q = 0; q < c; q++)
		sum += x[q];
	*m = sum / (double)c;
	if (!(*m > 0) || !isfinite(*m))
		return -1;
	for (size_t q = 0; q < c; q++)
		ss += (x[q] / *m - 1) * (x[q] / *m - 1);
	*wr = c >= 2 ? ss / (double)(c - 1) / (double)c : 0;
	return 0;
}

/* One run of a side: its mean, within variance (relative), excess, processes, weight. */
struct side_run {
	double m, wr, x2, c, w;
};

static int side_est(const struct rec_result *r, const double *x, double f, double fdf,
		    struct side_est *e)
{
	size_t cap = r->nproc ? r->nproc : 1, k = 0;
	struct side_run *u = calloc(cap, sizeof(*u));
	double s2 = 0, wbar = 0, lbar = 0, den = 0, fv, shared = INFINITY, sw = 0, wf = 0;
	int ret = -1;

	memset(e, 0, sizeof(*e));
	if (!u || r->nproc < 2)
		goto out;
	/* the processes of one run lie together (runref.c); one run without proc_run */
	for (size_t i = 0, j; i < r->nproc; i = j, k++) {
		j = rec_run_end(r, i);
		u[k].c = (double)(j - i);
		if (side_run_of(x + i, j - i, &u[k].m, &u[k].wr))
			goto out;
		/* its disorder: the run's, read from all its paths (cmp-floor.c) */
		if (r->fl.scale > 1)
			u[k].x2 = r->fl.scale * r->fl.scale - 1;
		shared = fmin(shared, u[k].x2);
	}
	e->runs = k;
	fv = f * f;
	e->df_floor = fdf > 0 ? fdf : INFINITY;
	if (k >= 2 && fdf > 0) {
		struct learn_floor fl = { .sd = f, .df = fdf };

		for (size_t i = 0; i < k; i++) {
			lbar += log(u[i].m) / (double)k;
			wbar += u[i].wr / (double)k;
		}
		for (size_t i = 0; i < k; i++)
			s2 += (log(u[i].m) - lbar) * (log(u[i].m) - lbar) / (double)(k - 1);
		fv = learn_moderate(&fl, s2 - wbar, k, &e->df_floor);
	}
	/* each run's weight: the inverse of what it leaves unknown */
	for (size_t i = 0; i < k; i++) {
		double v = u[i].wr + fv * (1 + u[i].x2 - shared);

		u[i].w = v > 0 && isfinite(v) ? 1 / v : 0;
		sw += u[i].w;
	}
	for (size_t i = 0; i < k; i++) {
		/* nothing known of a run's variance: its processes weigh */
		u[i].w = sw > 0 ? u[i].w / sw : u[i].c / (double)r->nproc;
		e->mean += u[i].w * u[i].m;
	}
	for (size_t i = 0; i < k; i++) {
		double w2 = u[i].w * u[i].w;

		e->var_proc += w2 * u[i].wr;
		if (u[i].c >= 2)
			den += pow(w2 * u[i].wr, 2) / (u[i].c - 1);
		wf += w2 * (1 + u[i].x2 - shared);
	}
	e->df_proc = den > 0 ? e->var_proc * e->var_proc / den : INFINITY;
	e->var_floor = fv * (wf + shared);
	ret = e->mean > 0 && isfinite(e->mean) ? 0 : -1;
out:
	free(u);
	return ret;
}

/*
 * @a against @b from what is known of each (floors included where
 * @floors), with @extra (a variance known exactly) added: into @c,
 * Mann-Whitney on @xa, @xb. 0 or -1.
 */
static int compare_est(const struct side_est *a, const struct side_est *b, int floors, double extra,
		       const double *xa, size_t na, const double *xb, size_t nb, double alpha,
		       struct ukb_cmp *c)
{
	/*
	 * the two sides' floors are most often one estimate, learned from the
	 * same runs of the host: one part, on the fewer degrees of freedom
	 */
	double var[4] = { a->var_proc, b->var_proc, floors ? a->var_floor + b->var_floor : 0,
			  extra };
	double df[4] = { a->df_proc, b->df_proc, fmin(a->df_floor, b->df_floor), INFINITY };

	if (ukb_compare_log(a->mean, b->mean, var, df, 4, alpha, c))
		return -1;
	/* nothing estimated at all: the processes' own count */
	if (!isfinite(c->df))
		c->df = (double)(na + nb - 2);
	ukb_cmp_mwu(xa, na, xb, nb, c);
	return 0;
}

/* Welch-Satterthwaite over two variances and their degrees of freedom. */
static double sat_df(double va, double dfa, double vb, double dfb)
{
	double den = (isfinite(dfa) && dfa > 0 ? va * va / dfa : 0) +
		     (isfinite(dfb) && dfb > 0 ? vb * vb / dfb : 0);

	return den > 0 ? (va + vb) * (va + vb) / den : INFINITY;
}

/*
 * The hull of @m (as measured) and @j (at one speed of the machine) into
 * @c: the change as measured, the interval holding both, p the larger of
 * the two (1 where they point apart: neither direction stands both ways),
 * the MDE a change needs to stand both ways. @alpha as compared.
 */
static void hull(const struct ukb_cmp *m, const struct ukb_cmp *j, double alpha, struct ukb_cmp *c)
{
	double df = fmin(m->df, j->df), q = ukb_t_quantile(1 - alpha / 2, df);

	*c = *m;
	c->ci_lo = fmin(m->ci_lo, j->ci_lo);
	c->ci_hi = fmax(m->ci_hi, j->ci_hi);
	c->se = fmax(m->se, j->se);
	c->df = df;
	c->p_welch = (m->change >= 0) == (j->change >= 0) ? fmax(m->p_welch, j->p_welch) : 1;
	c->mde =
	    exp((q + ukb_t_quantile(0.8, df)) * c->se + fabs(log1p(j->change) - log1p(m->change))) -
	    1;
}

/*
 * Where the reference stayed within how far it moves between the host's
 * runs, the machine's move is taken out: @c holds the change as measured
 * (the figures' ratio), and the interval, p and MDE of the change at one
 * speed (@j), the interval widened to hold the change as measured too.
 * Measured on a 2-vCPU Intel guest whose runs' means moved 3-4% with the
 * reference (correlation 0.96-1.00 across runs), the hull's MDE was 6-10%
 * where the change at one speed moved by 0.4-1.1% (docs/validation.md).
 */
static void one_speed(const struct ukb_cmp *m, const struct ukb_cmp *j, struct ukb_cmp *c)
{
	*c = *m;
	c->ci_lo = fmin(j->ci_lo, m->change);
	c->ci_hi = fmax(j->ci_hi, m->change);
	c->se = j->se;
	c->t = j->t;
	c->df = j->df;
	/* the verdict names the change printed: none where the two point apart */
	c->p_welch = (m->change >= 0) == (j->change >= 0) ? j->p_welch : 1;
	c->mde = j->mde;
	c->u = j->u;
	c->z = j->z;
	c->p_mwu = j->p_mwu;
	c->mwu_exact = j->mwu_exact;
}

/*
 * Did the reference move between the sides beyond how far it moves
 * between this host's runs (learned from every run alike)? Then a kernel
 * change may have moved it (cmp_ref_note()).
 */
static int ref_moved(const struct cmp_row *row)
{
	struct learn_model m = { .ref_sd = row->a->fl.ref_sd };

	if (!(row->ref.mean_a > 0) || row->a->fl.ref_runs < 5)
		return -1;
	return learn_other_state(&m, log1p(row->ref.change));
}

/*
 * May the verdict rest on taking the machine's move out (one_speed())?
 * Where the reference stayed within its spread, and neither side was
 * measured busy: there the reference waits beside its path in ways the
 * slope learned does not hold (under 2x oversubscription a quiet run
 * against a loaded one was called changed in 5.2% of comparisons at one
 * speed, against 0.8% both ways: docs/validation.md).
 */
static int at_one_speed(const struct cmp_row *row)
{
	return !row->a->fl.busy && !row->b->fl.busy && ref_moved(row) == 0;
}

/* The side's reference against the machine's usual speed (log), NAN unknown. */
static double state_of(const struct rec_result *r)
{
	if (r->fl.ref_runs < 5 || !isfinite(r->fl.ref_level))
		return NAN;
	return floor_ref_log(r) - r->fl.ref_level;
}

/* The two sides' process means compared on their batches, not replicated. */
static void compare_batches(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;
	double fa = a->fl.raw > 0 ? a->fl.raw * fmax(a->fl.scale, 1) : o->floor;
	double fb = b->fl.raw > 0 ? b->fl.raw * fmax(b->fl.scale, 1) : o->floor;
	double va = fa * fa, vb = fb * fb;
	double df = sat_df(va, a->fl.raw_df, vb, b->fl.raw_df);

	row->ok =
	    !ukb_compare_df(a->samples, a->nsamples, b->samples, b->nsamples, va + vb, df, o->alpha,
			    &row->c) &&
	    !ukb_compare(a->samples, a->nsamples, b->samples, b->nsamples, 0, o->alpha, &row->c0);
	row->raw = row->c;
	row->floor = sqrt(va + vb);
}

/*
 * Where the host's runs taught no slope: the slope of the log process
 * means on their reference's within each side, pooled (ANCOVA's
 * estimate), when the processes show it clearly (t above 2): a run that
 * spans several states of the machine sees its own slope in its
 * processes. 0 otherwise, *@se its standard error.
 */
static double within_beta(const struct rec_result *a, const struct rec_result *b, double *se)
{
	const struct rec_result *side[2] = { a, b };
	double sxx = 0, sxy = 0, syy = 0, beta, rss;
	size_t n = 0;

	*se = 0;
	for (int k = 0; k < 2; k++) {
		const struct rec_result *r = side[k];
		double mx = 0, my = 0, x[r->nproc + 1];

		if (r->nproc < 3 || rec_proc_refs(r, x))
			return 0;
		for (size_t i = 0; i < r->nproc; i++) {
			if (!(r->proc_means[i] > 0))
				return 0;
			mx += log(x[i]) / (double)r->nproc;
			my += log(r->proc_means[i]) / (double)r->nproc;
		}
		for (size_t i = 0; i < r->nproc; i++) {
			double dx = log(x[i]) - mx, dy = log(r->proc_means[i]) - my;

			sxx += dx * dx;
			sxy += dx * dy;
			syy += dy * dy;
		}
		n += r->nproc;
	}
	if (n < 10 || !(sxx > 0))
		return 0;
	beta = sxy / sxx;
	rss = (syy - beta * sxy) / (double)(n - 3);
	*se = rss > 0 ? sqrt(rss / sxx) : 0;
	if (!(beta > 2 * *se) || beta > 2)
		return 0;
	return beta;
}

/* The references beside the two sides' processes, where known (rec_proc_refs()). */
static void compare_refs(const struct rec_result *a, const struct rec_result *b, double alpha,
			 struct ukb_cmp *c)
{
	double *xa = a->nproc ? malloc(a->nproc * sizeof(*xa)) : NULL;
	double *xb = b->nproc ? malloc(b->nproc * sizeof(*xb)) : NULL;

	if (xa && xb && !rec_proc_refs(a, xa) && !rec_proc_refs(b, xb))
		ukb_compare(xa, a->nproc, xb, b->nproc, 0, alpha, c);
	free(xa);
	free(xb);
}

/*
 * Both replicated: on process means; where a slope is known, at one speed
 * of the machine as well. The interval as measured is then the interval
 * at one speed moved by the machine's move at that slope: conditional on
 * the references the processes met, each process's spread is what is left
 * at one speed, and the mean as measured is off by the slope times the
 * move. Their hull holds every slope from none to the one used.
 */
static void compare_procs(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;
	double *xa = NULL, *xb = NULL, fa, fb, dfa, dfb, se = 0;
	struct side_est ea = { 0 }, eb = { 0 }, ja = { 0 }, jb = { 0 };
	struct ukb_cmp raw0 = { 0 }, adj0 = { 0 };
	size_t na = 0, nb = 0;

	if (!o->raw && a->fl.beta > 0 && b->fl.beta > 0) {
		row->beta = (a->fl.beta + b->fl.beta) / 2;
		se = fmax(a->fl.se_beta, b->fl.se_beta);
	} else if (!o->raw && !a->fl.slope_judged && !b->fl.slope_judged) {
		row->beta = within_beta(a, b, &se);
	}
	na = adjusted(a, row->beta, &xa);
	nb = adjusted(b, row->beta, &xb);
	row->adjusted = na && nb;
	/* the floor at one speed of the machine where the host's runs taught it */
	fa = a->fl.beta > 0 && row->adjusted ? a->fl.adj : a->fl.raw;
	fb = b->fl.beta > 0 && row->adjusted ? b->fl.adj : b->fl.raw;
	dfa = a->fl.beta > 0 && row->adjusted ? a->fl.adj_df : a->fl.raw_df;
	dfb = b->fl.beta > 0 && row->adjusted ? b->fl.adj_df : b->fl.raw_df;
	fa = fa > 0 ? fa : o->floor;
	fb = fb > 0 ? fb : o->floor;
	row->ok =
	    !side_est(a, a->proc_means, fa, dfa, &ea) && !side_est(b, b->proc_means, fb, dfb, &eb);
	if (row->ok && row->adjusted)
		row->adjusted = !side_est(a, xa, fa, dfa, &ja) && !side_est(b, xb, fb, dfb, &jb);
	/* sides that alternated: each run against its neighbour, on both scales or neither */
	if (row->ok && o->pair && ea.runs == eb.runs) {
		struct side_est pa, pb, qa = ja, qb = jb;
		double f = fmax(fa, fb), fdf = fmin(dfa, dfb);

		row->paired =
		    !pair_est(a, a->proc_means, b, b->proc_means, ea.runs, f, fdf, &pa, &pb) &&
		    (!row->adjusted || !pair_est(a, xa, b, xb, ea.runs, f, fdf, &qa, &qb));
		if (row->paired) {
			ea = pa;
			eb = pb;
			ja = qa;
			jb = qb;
		}
	}
	if (row->ok)
		compare_refs(a, b, o->alpha, &row->ref);
	if (row->ok && row->adjusted) {
		/*
		 * The slope is itself an estimate: the further the machine
		 * moved between the sides, the more its error weighs (ANCOVA's
		 * term for it).
		 */
		double dx = log1p(row->ref.change), vs = dx * dx * se * se;
		struct side_est ma = ja, mb = jb;

		ma.mean = ea.mean;
		mb.mean = eb.mean;
		row->ok = !compare_est(&ja, &jb, 1, vs, xa, na, xb, nb, o->alpha, &row->adj) &&
			  !compare_est(&ja, &jb, 0, 0, xa, na, xb, nb, o->alpha, &adj0) &&
			  !compare_est(&ma, &mb, 1, vs, a->proc_means, a->nproc, b->proc_means,
				       b->nproc, o->alpha, &row->raw) &&
			  !compare_est(&ma, &mb, 0, 0, a->proc_means, a->nproc, b->proc_means,
				       b->nproc, o->alpha, &raw0);
		if (row->ok && at_one_speed(row)) {
			one_speed(&row->raw, &row->adj, &row->c);
			one_speed(&raw0, &adj0, &row->c0);
		} else if (row->ok) {
			hull(&row->raw, &row->adj, o->alpha, &row->c);
			hull(&raw0, &adj0, o->alpha, &row->c0);
		}
		row->floor = sqrt(ja.var_floor + jb.var_floor + vs);
	} else if (row->ok) {
		row->ok = !compare_est(&ea, &eb, 1, 0, a->proc_means, a->nproc, b->proc_means,
				       b->nproc, o->alpha, &row->raw) &&
			  !compare_est(&ea, &eb, 0, 0, a->proc_means, a->nproc, b->proc_means,
				       b->nproc, o->alpha, &raw0);
		row->c = row->raw;
		row->c0 = raw0;
		row->floor = sqrt(ea.var_floor + eb.var_floor);
	}
	row->runs[0] = ea.runs;
	row->runs[1] = eb.runs;
	free(xa);
	free(xb);
}

/*
 * Was a side made in another state of the machine, which the host's runs
 * do not tell how far it moved the path (cmp_row.other_state)? Its run's
 * processes spread twice as much as usual (the median over its paths); or,
 * where the path follows the reference, its reference lay far from the
 * usual and from the other side's. Measured on a cloud guest, runs made
 * in such states moved by 6-15% where the others moved by 1-2%, at slopes
 * on the reference two to three times those the other runs showed
 * (docs/validation.md).
 */
static int other_state(const struct cmp_row *row)
{
	for (int s = 0; s < 2; s++) {
		const struct rec_result *r = s ? row->b : row->a;
		struct learn_model m = { .ref_sd = r->fl.ref_sd };

		if (r->fl.run_disorder >= LEARN_DISORDER)
			return 1;
		if (row->adjusted && learn_other_state(&m, row->state[s]) &&
		    learn_other_state(&m, row->state[s] - row->state[!s]))
			return 1;
	}
	return 0;
}

void compare_row(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;

	if (!a || !b || a->status != UKB_OK || b->status != UKB_OK)
		return;
	row->state[0] = row->state[1] = NAN;
	row->runs[0] = row->runs[1] = 1;
	/* each process is one observation; batches of one process are not */
	row->replicated = a->nproc >= 2 && b->nproc >= 2;
	if (row->replicated)
		compare_procs(row, o);
	else
		compare_batches(row, o);
	if (!row->ok)
		return;
	row->state[0] = state_of(a);
	row->state[1] = state_of(b);
	row->ref_moved = ref_moved(row) == 1;
	row->other_state = other_state(row);
	row->verdict = ukb_verdict_of(&row->c, o->alpha, o->threshold);
	if (!row->replicated || row->other_state)
		row->outcome = CMP_CANNOT_TELL;
	else if (o->limit < 0 || row->c.ci_hi < o->limit)
		row->outcome = CMP_NOT_REGRESSED;
	else if (row->verdict == UKB_REGRESSED && row->c.change > o->limit)
		row->outcome = CMP_REGRESSED;
	else
		row->outcome = CMP_CANNOT_TELL;
}

/* Were @a and @b measured the same way: what makes two figures comparable. */
int cmp_same_settings(const struct rec_result *a, const struct rec_result *b)
{
	if (!a || !b)
		return 1;
	return !strcmp(a->params, b->params) && a->threads == b->threads && a->bytes == b->bytes;
}

void cmp_settings_diff(const struct cmp_row *r, char *buf, size_t len)
{
	const struct rec_result *a = r->a, *b = r->b;

	buf[0] = 0;
	if (!a || !b || cmp_same_settings(a, b))
		return;
	if (strcmp(a->params, b->params))
		snprintf(buf, len, "%s against %s", a->params[0] ? a->params : "no parameters",
			 b->params[0] ? b->params : "no parameters");
	else if (a->threads != b->threads)
		snprintf(buf, len, "%u threads against %u", a->threads, b->threads);
	else
		snprintf(buf, len, "%ld bytes a call against %ld", a->bytes, b->bytes);
}

int cmp_settings_note(const struct cmp_row *rows, size_t n, int force, char *buf, size_t len)
{
	char diff[512];
	size_t k = 0, first = n;

	for (size_t i = 0; i < n; i++)
		if (rows[i].differ) {
			k++;
			first = first < n ? first : i;
		}
	buf[0] = 0;
	if (!k)
		return 0;
	cmp_settings_diff(&rows[first], diff, sizeof(diff));
	snprintf(buf, len,
		 force ? "warning: %zu path%s compared although measured with other settings "
			 "(--force), as %s/%s: %s"
		       : "warning: %zu path%s not compared: measured with other settings, as "
			 "%s/%s: %s; --force compares them",
		 k, k > 1 ? "s" : "", rows[first].a->name, rows[first].a->path, diff);
	return 1;
}

int cmp_state_note(const struct cmp_row *rows, size_t n, const char *da, const char *db, char *buf,
		   size_t len)
{
	const struct cmp_row *at = NULL;
	double most = 0, moves = 0;
	int side = 0;

	for (size_t i = 0; i < n; i++) {
		if (!rows[i].ok)
			continue;
		for (int s = 0; s < 2; s++) {
			const struct rec_result *r = s ? rows[i].b : rows[i].a;
			struct learn_model m = { .ref_sd = r->fl.ref_sd };
			double d = rows[i].state[s], b = rows[i].adjusted ? rows[i].beta : 0;

			if (!learn_other_state(&m, d))
				continue;
			/* the farthest by what it moves the path, where that is known */
			if (!at || fabs(b * d) > fabs(moves) || (!moves && fabs(d) > fabs(most))) {
				most = d;
				moves = b * d;
				at = &rows[i];
				side = s;
			}
		}
	}
	buf[0] = 0;
	if (!at)
		return 0;
	{
		char move[160] = "";

		if (moves)
			snprintf(move, sizeof(move),
				 ", which moves the path by about %.1f%% at its slope on it",
				 100 * fabs(expm1(moves)));
		snprintf(buf, len,
			 "note: %s was measured while the machine ran %.1f%% %s than this host's "
			 "runs usually do, by the reference beside %s/%s%s; where marked ~ the "
			 "interval holds the change at the usual speed too",
			 side ? db : da, 100 * fabs(expm1(most)), most > 0 ? "slower" : "faster",
			 at->a->name, at->a->path, move);
	}
	return 1;
}

int cmp_other_note(const struct cmp_row *rows, size_t n, char *buf, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += rows[i].ok && rows[i].other_state;
	buf[0] = 0;
	if (!k)
		return 0;
	snprintf(buf, len,
		 "note: for %zu path%s a side was made in another state of the machine than the "
		 "other (its processes spreading twice as much as usual, or as the other side's "
		 "where this host has no usual yet, or its reference far from its usual level): "
		 "how far that state moved %s is not known, so no verdict of a change is given "
		 "('other state'); run that side again",
		 k, k == 1 ? "" : "s", k == 1 ? "the path" : "them");
	return 1;
}

int cmp_tell_note(const struct cmp_row *rows, size_t n, char *buf, size_t len)
{
	double most = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].ok && rows[i].verdict == UKB_CANNOT_TELL && !rows[i].other_state) {
			k++;
			most = fmax(most, rows[i].c.mde);
		}
	buf[0] = 0;
	if (!k)
		return 0;
	snprintf(buf, len,
		 "note: for %zu path%s these runs cannot tell a change from noise ('cannot "
		 "tell'): a change below %.1f%% (the MDE) cannot be told from them; more runs a "
		 "side narrow it",
		 k, k == 1 ? "" : "s", 100 * most);
	return 1;
}

int cmp_ref_note(const struct cmp_row *rows, size_t n, char *buf, size_t len)
{
	const struct cmp_row *at = NULL;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].ok && rows[i].adjusted && rows[i].ref_moved) {
			k++;
			if (!at || fabs(rows[i].ref.change) > fabs(at->ref.change))
				at = &rows[i];
		}
	buf[0] = 0;
	if (!at)
		return 0;
	snprintf(buf, len,
		 "note: for %zu path%s the reference moved between the sides beyond how far it "
		 "moves between this host's runs (%s/%s: %+.1f%%, where its runs spread by "
		 "%.1f%%): a kernel change can move it too (a mitigation on the way back to user "
		 "space), so no verdict rests on taking it out: a change is called where it "
		 "stands as measured as well",
		 k, k == 1 ? "" : "s", at->a->name, at->a->path, 100 * at->ref.change,
		 100 * at->a->fl.ref_sd);
	return 1;
}

size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n)
{
	size_t both = 0, k = 0;
	struct cmp_opts same = *o;

	/* references that did other work say nothing of one another */
	same.raw = o->raw || !rec_same_ref(a, b);
	same.pair = o->paired && cmp_alternated(a, b);
	o = &same;
	*rows = calloc(a->nresults + b->nresults + 1, sizeof(**rows));
	*n = 0;
	if (!*rows)
		return 0;
	for (size_t i = 0; i < a->nresults; i++) {
		struct cmp_row *row = &(*rows)[k++];

		row->a = &a->results[i];
		row->b = rec_find(b, row->a->name, row->a->path);
		row->differ = row->b && !cmp_same_settings(row->a, row->b);
		if (!row->differ || o->force)
			compare_row(row, o);
		both += row->ok;
	}
	for (size_t i = 0; i < b->nresults; i++) {
		if (rec_find(a, b->results[i].name, b->results[i].path))
			continue;
		(*rows)[k].a = NULL;
		(*rows)[k++].b = &b->results[i];
	}
	*n = k;
	return both;
}

void cmp_replication(const struct rec_run *r, char *buf, size_t len)
{
	size_t procs = 0, boots = 0;

	for (size_t i = 0; i < r->nresults; i++) {
		if (r->results[i].nproc > procs)
			procs = r->results[i].nproc;
		if (r->results[i].boots > boots)
			boots = r->results[i].boots;
	}
	if (boots >= 2)
		snprintf(buf, len, "%zu boots", boots);
	else
		snprintf(buf, len, "%zu process%s", procs ? procs : 1, procs > 1 ? "es" : "");
}

size_t cmp_keep_matching(struct cmp_row *rows, size_t n, char **pats, int npats)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rec_result *x = rows[i].a ? rows[i].a : rows[i].b;
		int hit = !npats;

		for (int p = 0; p < npats && !hit; p++)
			hit = pattern_matches(pats[p], x->name, x->benchmark, x->path);
		if (hit)
			rows[k++] = rows[i];
	}
	return k;
}

const char *cmp_why_not(const struct cmp_row *r)
{
	return !r->a			? "only in the other run"
	       : !r->b			? "not in the other run"
	       : r->a->status != UKB_OK ? "base not measured"
	       : r->b->status != UKB_OK ? "other not measured"
	       : r->differ		? "settings differ (--force compares them)"
					: "too few samples";
}

size_t cmp_geomean_text(const struct cmp_row *rows, size_t n, double alpha, char *buf, size_t len)
{
	double l = 0, h = 0, g;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ukb_cmp *c = &rows[i].c;
		double x;

		if (!rows[i].ok || !(1 + c->change > 0))
			continue;
		x = log1p(c->change);
		l += x;
		/* the interval's half-width in logs, its wider side: exact for
		 * paths that move as one, too wide where they move apart */
		h += 1 + c->ci_lo > 0 && isfinite(c->ci_hi)
			 ? fmax(log1p(c->ci_hi) - x, x - log1p(c->ci_lo))
			 : INFINITY;
		k++;
	}
	if (len)
		buf[0] = 0;
	if (!k)
		return 0;
	l /= (double)k;
	h /= (double)k;
	g = exp(l);
	if (isfinite(h))
		snprintf(buf, len,
			 "geometric mean of other/base over %zu path%s: %.4f (%+.2f%%), %g%% CI "
			 "[%+.2f%%, %+.2f%%] if they move together",
			 k, k == 1 ? "" : "s", g, 100 * (g - 1), 100 * (1 - alpha),
			 100 * expm1(l - h), 100 * expm1(l + h));
	else
		snprintf(buf, len, "geometric mean of other/base over %zu path%s: %.4f (%+.2f%%)",
			 k, k == 1 ? "" : "s", g, 100 * (g - 1));
	return k;
}

const char *cmp_verdict_name(const struct cmp_row *r)
{
	if (!r->replicated && (r->verdict == UKB_IMPROVED || r->verdict == UKB_REGRESSED))
		return "unreplicated";
	if (r->other_state && (r->verdict == UKB_IMPROVED || r->verdict == UKB_REGRESSED))
		return "other state";
	return ukb_verdict_name(r->verdict);
}

int cmp_exit_status(const struct cmp_row *rows, size_t n)
{
	int cannot = 0;

	for (size_t i = 0; i < n; i++) {
		if (!rows[i].ok)
			continue;
		if (rows[i].outcome == CMP_REGRESSED)
			return 1;
		cannot |= rows[i].outcome == CMP_CANNOT_TELL;
	}
	return cannot ? 125 : 0;
}

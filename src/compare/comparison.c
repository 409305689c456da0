// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * comparison.c - pairing the paths of two runs and comparing each pair
 * (see comparison.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "select.h"
#include "stats.h"

/*
 * Each process's mean at one speed of the machine: its mean over its
 * reference's (reference.h) to the power @beta, the path's sensitivity to
 * what moves the reference (ANCOVA on the logs with a known slope). 0
 * (nothing in *@out) unless every process of @r has a reference.
 */
static size_t adjusted(const struct rec_result *r, double beta, double **out)
{
	*out = NULL;
	if (r->nproc < 2 || !r->proc_ref || !(beta > 0))
		return 0;
	for (size_t i = 0; i < r->nproc; i++)
		if (!(r->proc_ref[i] > 0) || !isfinite(r->proc_ref[i]))
			return 0;
	*out = malloc(r->nproc * sizeof(**out));
	if (!*out)
		return 0;
	for (size_t i = 0; i < r->nproc; i++)
		(*out)[i] = r->proc_means[i] / pow(r->proc_ref[i], beta);
	return r->nproc;
}

/*
 * Where no slope was learned from repeated runs: the slope of the log
 * process means on their reference's within each side, pooled (ANCOVA's
 * estimate), when the processes show it clearly (t above 2). 0 otherwise,
 * *@se its standard error.
 */
static double within_beta(const struct rec_result *a, const struct rec_result *b, double *se)
{
	const struct rec_result *side[2] = { a, b };
	double sxx = 0, sxy = 0, syy = 0, beta, rss;
	size_t n = 0;

	*se = 0;
	for (int k = 0; k < 2; k++) {
		const struct rec_result *r = side[k];
		double mx = 0, my = 0;

		if (r->nproc < 3 || !r->proc_ref)
			return 0;
		for (size_t i = 0; i < r->nproc; i++) {
			if (!(r->proc_ref[i] > 0) || !(r->proc_means[i] > 0))
				return 0;
			mx += log(r->proc_ref[i]) / (double)r->nproc;
			my += log(r->proc_means[i]) / (double)r->nproc;
		}
		for (size_t i = 0; i < r->nproc; i++) {
			double dx = log(r->proc_ref[i]) - mx, dy = log(r->proc_means[i]) - my;

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

/*
 * The slope both sides share: the mean of those learned, else the
 * processes'. *@se gets how far the slope of these two runs may be from it:
 * its standard error, and how far a pair of runs strays (ref_tau).
 */
static double shared_beta(const struct rec_result *a, const struct rec_result *b, double *se)
{
	double sa = sqrt(a->ref_beta_se * a->ref_beta_se + a->ref_tau * a->ref_tau);
	double sb = sqrt(b->ref_beta_se * b->ref_beta_se + b->ref_tau * b->ref_tau);

	*se = sa > sb ? sa : sb;
	if (a->ref_beta > 0 && b->ref_beta > 0)
		return (a->ref_beta + b->ref_beta) / 2;
	if (a->ref_beta > 0 || b->ref_beta > 0)
		return a->ref_beta > 0 ? a->ref_beta : b->ref_beta;
	return within_beta(a, b, se);
}

/*
 * How much of the machine's move between @a and @b lies beyond the speeds
 * of the stored runs its slope was learned at: of the span between the two
 * sides' reference log means, the part outside the stored runs' level
 * +- CMP_SEEN_SDS of their SDs (either side's); 0 within them, or where
 * they are not known. Beyond them, how the path follows the reference is
 * not known (on an AMD EPYC guest, one run made while the machine ran
 * 7.9% slower than the 19 others, their SD 1.5%, lay 2.1% off at the
 * slope, 0.90, that held them to an SD of 0.23%); two runs both made at a
 * new speed are not taken far, and keep their interval.
 */
static double beyond_seen(const struct rec_result *a, const struct rec_result *b)
{
	const struct rec_result *side[2] = { a, b };
	struct ukb_run_pair pa, pb;
	double lo = INFINITY, hi = -INFINITY, x0, x1, in;

	for (int k = 0; k < 2; k++) {
		double w = CMP_SEEN_SDS * side[k]->ref_sd;

		if (!(side[k]->ref_sd > 0))
			continue;
		lo = fmin(lo, side[k]->ref_level - w);
		hi = fmax(hi, side[k]->ref_level + w);
	}
	if (!(hi > lo) || rec_run_pair(a, &pa) || rec_run_pair(b, &pb))
		return 0;
	x0 = fmin(pa.lx, pb.lx);
	x1 = fmax(pa.lx, pb.lx);
	in = fmin(x1, hi) - fmax(x0, lo);
	return x1 - x0 - (in > 0 ? in : 0);
}

/*
 * The runs pooled on a side (@r, its process values @x on the scale
 * compared) against the model the floor makes of them: each run's log mean
 * moving by its processes' error and the floor (@fvar a run, learned on
 * @fdf degrees of freedom; 0: exact). The floor comes from other runs;
 * these runs show how this side moved. Where their log means spread more
 * than the model allows, beyond chance (F test at CMP_SPREAD_ALPHA), the
 * model does not hold for this side, and the runs, its unit of
 * replication, judge it by their own spread: the variance of the pooled
 * mean they show (the variance of a run's log mean, weighted as the mean
 * of every process weights them), on runs - 1 degrees of freedom. On an
 * AMD EPYC guest under PVM, two of 20 A/A runs, made 5 s apart, lay 4-5%
 * below the others at one speed of the machine, their SD 1.7%: pooled as
 * labels of four runs made one after another, the label that held them
 * was called changed against each of the four others, with a floor of
 * 0.86% learned from the others; judged so, against none. Runs that share
 * such a state all through a label, its spread cannot show.
 */
static void runs_spread(const struct rec_result *r, const double *x, double fvar, double fdf,
			struct cmp_spread *out)
{
	double *lm, mall = 0, vall = 0, wsum = 0, wdf = 0, lbar = 0, s2 = 0, n2 = 0, model, den,
		    df2, f;
	size_t k = 0, nw = 0, n = r->nproc;

	memset(out, 0, sizeof(*out));
	if (!r->proc_run || n < 3 || !(lm = malloc(n * sizeof(*lm))))
		return;
	/* the processes of one run lie together (runref.c) */
	for (size_t i = 0, j; i < n; i = j, k++) {
		double sum = 0, ss = 0, m;

		for (j = i; j < n && r->proc_run[j] == r->proc_run[i]; j++)
			sum += x[j];
		m = sum / (double)(j - i);
		for (size_t q = i; q < j; q++)
			ss += (x[q] - m) * (x[q] - m);
		if (!(m > 0) || !isfinite(m)) {
			free(lm);
			return;
		}
		lm[k] = log(m);
		n2 += (double)(j - i) * (double)(j - i) / ((double)n * (double)n);
		if (j - i >= 2) {
			wsum += ss / (double)(j - i - 1) / ((double)(j - i) * m * m);
			wdf += (double)(j - i - 1);
			nw++;
		}
	}
	/* runs of one process each: their processes' spread is theirs already */
	if (k < 3 || !nw) {
		free(lm);
		return;
	}
	for (size_t i = 0; i < k; i++)
		lbar += lm[i] / (double)k;
	for (size_t i = 0; i < k; i++)
		s2 += (lm[i] - lbar) * (lm[i] - lbar) / (double)(k - 1);
	free(lm);
	model = wsum / (double)nw + fvar;
	/* Satterthwaite over the model's two parts */
	den = (wsum / (double)nw) * (wsum / (double)nw) / wdf +
	      (fdf > 0 && isfinite(fdf) ? fvar * fvar / fdf : 0);
	df2 = den > 0 ? fmin(model * model / den, 1e4) : 1e4;
	f = model > 0 ? s2 / model : s2 > 0 ? INFINITY : 0;
	out->runs = k;
	out->sd = sqrt(s2);
	out->allowed = sqrt(model);
	if (!(ukb_f_sf(f, (double)(k - 1), df2) < CMP_SPREAD_ALPHA))
		return;
	/* what the processes alone give the pooled mean, as ukb_compare() has it */
	for (size_t i = 0; i < n; i++)
		mall += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		vall += (x[i] - mall) * (x[i] - mall) / (double)(n - 1);
	out->judged = 1;
	out->var = fmax(0, s2 * n2 - vall / ((double)n * mall * mall));
	out->df = (double)(k - 1);
}

/*
 * The floor variance of a comparison: each side's, over the runs it pools
 * (or what its runs' own spread showed beyond its processes, where they
 * judged it: @sa, @sb, NULL when not looked at); *@df its degrees of
 * freedom (Satterthwaite over the two sides' parts, each floor learned
 * from floor_df runs; INFINITY where both are exact).
 */
static double floor_var(const struct rec_result *a, const struct rec_result *b, double fa,
			double fb, double dflt, const struct cmp_spread *sa,
			const struct cmp_spread *sb, double *df)
{
	double ka = a->pooled > 1 ? (double)a->pooled : 1;
	double kb = b->pooled > 1 ? (double)b->pooled : 1;
	double va, vb, dfa = a->floor_df, dfb = b->floor_df, den = 0;

	fa = fa > 0 ? fa : dflt;
	fb = fb > 0 ? fb : dflt;
	va = fa * fa / ka;
	vb = fb * fb / kb;
	if (sa && sa->judged) {
		va = sa->var;
		dfa = sa->df;
	}
	if (sb && sb->judged) {
		vb = sb->var;
		dfb = sb->df;
	}
	if (dfa > 0)
		den += va * va / dfa;
	if (dfb > 0)
		den += vb * vb / dfb;
	*df = den > 0 ? (va + vb) * (va + vb) / den : INFINITY;
	return va + vb;
}

/* The floor's variance a run of @r, as floor_var() takes it. */
static double run_fvar(double f, double dflt)
{
	f = f > 0 ? f : dflt;
	return f * f;
}

void compare_row(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;
	double *xa = NULL, *xb = NULL, raw, adj, floor, se = 0, raw_df, adj_df;
	struct cmp_spread sp[2] = { { 0 }, { 0 } };
	size_t na, nb;

	if (!a || !b || a->status != UKB_OK || b->status != UKB_OK)
		return;
	/* each process is one observation; batches of one process are not */
	row->replicated = a->nproc >= 2 && b->nproc >= 2;
	/*
	 * What each run cannot see of itself, on the scale compared: the
	 * floor of its path (cmp-floor.h), else the caller's; a side pooled
	 * from runs whose means disagree beyond it, what they show
	 */
	memset(row->spread, 0, sizeof(row->spread));
	if (row->replicated) {
		runs_spread(a, a->proc_means, run_fvar(a->floor_rel, o->floor), a->floor_df,
			    &sp[0]);
		runs_spread(b, b->proc_means, run_fvar(b->floor_rel, o->floor), b->floor_df,
			    &sp[1]);
		row->spread[0] = sp[0];
		row->spread[1] = sp[1];
	}
	raw = floor_var(a, b, a->floor_rel, b->floor_rel, o->floor, &sp[0], &sp[1], &raw_df);
	if (!row->replicated) {
		row->ok = !ukb_compare_df(a->samples, a->nsamples, b->samples, b->nsamples, raw,
					  raw_df, o->alpha, &row->c) &&
			  !ukb_compare(a->samples, a->nsamples, b->samples, b->nsamples, 0,
				       o->alpha, &row->c0);
		row->raw = row->c;
		floor = raw;
	} else {
		row->ok = !ukb_compare_df(a->proc_means, a->nproc, b->proc_means, b->nproc, raw,
					  raw_df, o->alpha, &row->raw);
		row->beta = o->raw ? 0 : shared_beta(a, b, &se);
		na = adjusted(a, row->beta, &xa);
		nb = adjusted(b, row->beta, &xb);
		/*
		 * Where both sides timed the reference, the change is taken at
		 * the same speed of the machine: the machine's own drift
		 * between the runs, which moves every path alike, leaves it.
		 */
		row->adjusted = na && nb && row->ok &&
				!ukb_compare(a->proc_ref, a->nproc, b->proc_ref, b->nproc, 0,
					     o->alpha, &row->ref);
		if (row->adjusted) {
			/*
			 * The slope is itself an estimate: the further the
			 * machine moved between the runs, the more its error
			 * weighs (ANCOVA's term for it).
			 */
			double dx = log(row->ref.mean_b / row->ref.mean_a);

			/*
			 * and the part of the move beyond the speeds the slope
			 * was learned at is not taken out: it stays in, at the
			 * slope
			 */
			row->beyond = beyond_seen(a, b);
			runs_spread(a, xa, run_fvar(a->floor_adj, o->floor), a->floor_df, &sp[0]);
			runs_spread(b, xb, run_fvar(b->floor_adj, o->floor), b->floor_df, &sp[1]);
			row->spread[0] = sp[0];
			row->spread[1] = sp[1];
			adj = floor_var(a, b, a->floor_adj, b->floor_adj, o->floor, &sp[0], &sp[1],
					&adj_df);
			floor = adj + dx * dx * se * se +
				row->beta * row->beta * row->beyond * row->beyond;
			row->ok =
			    !ukb_compare_df(xa, na, xb, nb, floor, adj_df, o->alpha, &row->c) &&
			    !ukb_compare(xa, na, xb, nb, 0, o->alpha, &row->c0);
			/* the figures stay the measured ones */
			row->c.mean_a = row->c0.mean_a = row->raw.mean_a;
			row->c.mean_b = row->c0.mean_b = row->raw.mean_b;
		} else {
			floor = raw;
			row->c = row->raw;
			row->ok = row->ok && !ukb_compare(a->proc_means, a->nproc, b->proc_means,
							  b->nproc, 0, o->alpha, &row->c0);
		}
		free(xa);
		free(xb);
	}
	if (!row->ok)
		return;
	row->floor = sqrt(floor);
	row->verdict = ukb_verdict_of(row->c.change, row->c.p_welch, o->alpha, o->threshold);
	row->unfit = row->replicated && (a->floor_unfit || b->floor_unfit);
	if (!row->replicated || row->unfit)
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

int cmp_beyond_note(const struct cmp_row *rows, size_t n, char *buf, size_t len)
{
	size_t k = 0;
	double most = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].ok && rows[i].beyond > 0) {
			k++;
			most = rows[i].beyond > most ? rows[i].beyond : most;
		}
	buf[0] = 0;
	if (!k)
		return 0;
	snprintf(buf, len,
		 "note: for %zu path%s the machine moved between the runs up to %.1f%% beyond "
		 "its speeds in the stored runs %s slope on the reference was learned from (%g "
		 "of their SDs): that part of the move is not taken out, and stays in %s "
		 "interval",
		 k, k == 1 ? "" : "s", 100 * expm1(most), k == 1 ? "its" : "their", CMP_SEEN_SDS,
		 k == 1 ? "its" : "their");
	return 1;
}

int cmp_spread_note(const struct cmp_row *rows, size_t n, const char *da, const char *db, char *buf,
		    size_t len)
{
	const struct cmp_spread *most = NULL;
	const struct cmp_row *at = NULL;
	int side = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!rows[i].ok || !(rows[i].spread[0].judged || rows[i].spread[1].judged))
			continue;
		k++;
		for (int s = 0; s < 2; s++) {
			const struct cmp_spread *p = &rows[i].spread[s];

			if (p->judged && (!most || p->sd / p->allowed > most->sd / most->allowed)) {
				most = p;
				at = &rows[i];
				side = s;
			}
		}
	}
	buf[0] = 0;
	if (!k || !most)
		return 0;
	snprintf(buf, len,
		 "note: for %zu path%s, the runs pooled on a side moved between them more than "
		 "their processes and the floor allow (%s/%s: the %zu runs of %s by %.2f%%, "
		 "where %.2f%% was allowed): such a side is judged by its runs' own spread, a "
		 "wider interval on fewer degrees of freedom",
		 k, k == 1 ? "" : "s", at->a->name, at->a->path, most->runs, side ? db : da,
		 100 * most->sd, 100 * most->allowed);
	return 1;
}

size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n)
{
	size_t both = 0, k = 0;
	struct cmp_opts same = *o;

	/* references that did other work say nothing of one another */
	same.raw = o->raw || !rec_same_ref(a, b);
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

const char *cmp_verdict_name(const struct cmp_row *r)
{
	if (!r->replicated && (r->verdict == UKB_IMPROVED || r->verdict == UKB_REGRESSED))
		return "unreplicated";
	if (r->unfit && r->verdict != UKB_NO_CHANGE)
		return "no busy floor";
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

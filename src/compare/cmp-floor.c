// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-floor.c - which floor a path gets, and why (see cmp-floor.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "busy.h"
#include "cmp-floor.h"
#include "stats.h"

/*
 * The conditions @r was measured in: busy or quiet by the share of time its
 * thread waited (else of its disturbed batches), as the store judges its
 * runs. A path that keeps its disturbed batches is quiet: its figure holds
 * them.
 */
static int result_busy(const struct rec_result *r)
{
	double dist = r->nsamples ? (double)rec_disturbed_count(r) / (double)r->nsamples : NAN;

	return !r->keeps_disturbed && cmp_busy_during(rec_waited_share(r), dist);
}

/* Do two stored runs measure the same thing, as far as their identity says? */
static int same_key(const struct store_path_run *a, const struct store_path_run *b)
{
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->build, b->build) &&
	       !strcmp(a->boot, b->boot) && !strcmp(a->version, b->version);
}

/*
 * Groups of runs known to measure the same thing (learn.h): the runs of one
 * label given twice or more on one kernel build, boot and ukbench build.
 * A run whose label no other run of its boot shares (or that has none) is
 * a group of its own and teaches nothing: users change things within a
 * boot (a filter, a tracer, a sysctl) between labels given once, and a
 * floor learned across them holds those changes.
 */
static void group_runs(const struct store_path_run *p, struct learn_run *lr, size_t n)
{
	size_t next = 0;

	for (size_t i = 0; i < n; i++) {
		lr[i].group = n;
		/* the group of an earlier run of the same label and boot */
		for (size_t j = 0; j < i && lr[i].group == n; j++)
			if (p[i].label[0] && same_key(&p[i], &p[j]) &&
			    !strcmp(p[i].label, p[j].label))
				lr[i].group = lr[j].group;
		if (lr[i].group == n)
			lr[i].group = next++;
	}
}

/*
 * The stored runs @p[0..n) of one setting of a path (@params, @threads,
 * @bytes) as learn_run()s into @lr, grouped (group_runs()); references of
 * another kind than @kind left out. @p is reordered, the runs of the
 * setting first. Returns how many.
 */
static size_t learn_rows(struct store_path_run *p, size_t n, const char *params, unsigned threads,
			 long bytes, const char *kind, struct learn_run *lr)
{
	size_t k = 0;

	/* the same setting of the path only: other parameters measure another thing */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(p[i].params, params) || p[i].threads != threads || p[i].bytes != bytes)
			continue;
		if (k != i) {
			struct store_path_run t = p[k];

			p[k] = p[i];
			p[i] = t;
		}
		k++;
	}
	group_runs(p, lr, k);
	for (size_t i = 0; i < k; i++) {
		/* a reference that did other work says nothing of this run's */
		int ref = p[i].refs && !strcmp(p[i].ref_kind, kind);
		size_t g = lr[i].group;

		if (learn_run_of(p[i].means, ref ? p[i].refs : NULL, p[i].n, &lr[i]))
			lr[i].y = NAN;
		lr[i].group = g;
		lr[i].id = p[i].id;
		lr[i].busy = cmp_busy_during(p[i].waited, p[i].disturbed);
	}
	return k;
}

void floor_pick(struct store *st, const struct rec_run *run, const struct rec_result *r,
		const int64_t *exclude, size_t nex, struct floor_pick *out)
{
	struct store_path_run *p = NULL;
	struct learn_run *lr = NULL;
	char err[256];
	size_t n = 0, k = 0;

	memset(out, 0, sizeof(*out));
	learn_model(NULL, 0, NULL, 0, &out->m);
	out->source = FLOOR_PRIOR;
	out->busy = result_busy(r);
	if (!st || r->status != UKB_OK)
		return;
	if (store_path_runs(st, run->host, r->name, r->path, FLOOR_RUNS, &p, &n, err,
			    sizeof(err))) {
		snprintf(out->error, sizeof(out->error), "%s", err);
		return;
	}
	lr = calloc(n + 1, sizeof(*lr));
	if (!lr) {
		snprintf(out->error, sizeof(out->error), "learning a floor: out of memory");
		store_path_runs_free(p, n);
		return;
	}
	k = learn_rows(p, n, r->params, r->threads, r->bytes, rec_ref_kind(run), lr);
	learn_model(lr, k, exclude, nex, &out->m);
	if (out->m.raw.learned_df > 0)
		out->source = FLOOR_LEARNED;
	free(lr);
	store_path_runs_free(p, n);
}

void floor_apply(const struct floor_pick *p, struct rec_result *r)
{
	const struct learn_model *m = &p->m;
	struct rec_floor *f = &r->fl;
	double ref_spread = floor_ref_spread(r);

	memset(f, 0, sizeof(*f));
	f->scale = learn_scale(m, floor_spread(r));
	f->usual = m->usual_spread;
	if (m->usual_ref_spread > 0 && ref_spread > 0) {
		f->ref_usual = m->usual_ref_spread;
		f->ref_scale = fmax(1, ref_spread / m->usual_ref_spread);
	}
	f->raw = m->raw.sd;
	f->raw_df = m->raw.df;
	f->adj = m->adj.sd;
	f->adj_df = m->adj.df;
	f->beta = m->beta;
	f->se_beta = m->se_beta;
	f->slope_judged = m->slope_judged;
	f->ref_level = m->ref_level;
	f->ref_sd = m->ref_sd;
	f->ref_runs = m->ref_runs;
	f->busy = p->busy;
	/*
	 * Measured busy, the floor learned from quiet runs only: a busy
	 * machine moves a path between runs by more than a quiet one, so the
	 * floor is at least the one assumed of a host that taught none.
	 */
	if (p->source == FLOOR_LEARNED && p->busy && !m->busy)
		floor_widen(r, m->prior, REC_WIDE_BUSY);
}

/* The relative SD of @v[0..r->nproc), within each run pooled into @r. */
static double spread_of(const struct rec_result *r, const double *v)
{
	double ss = 0;
	size_t df = 0;

	/* within each run pooled (runref.c), not across them */
	for (size_t i = 0, j; i < r->nproc; i = j) {
		double m = 0;

		j = rec_run_end(r, i);
		for (size_t q = i; q < j; q++)
			m += v[q] / (double)(j - i);
		for (size_t q = i; q < j && m > 0; q++)
			ss += (v[q] / m - 1) * (v[q] / m - 1);
		df += j - i - 1;
	}
	return df ? sqrt(ss / (double)df) : NAN;
}

double floor_ref_spread(const struct rec_result *r)
{
	double x[r->nproc + 1];

	if (r->nproc < 2 || rec_proc_refs(r, x))
		return NAN;
	return spread_of(r, x);
}

double floor_spread(const struct rec_result *r)
{
	if (r->nproc < 2 || !r->proc_means)
		return NAN;
	return spread_of(r, r->proc_means);
}

void floor_widen(struct rec_result *r, double prior, int why)
{
	r->fl.wide |= why;
	r->fl.raw = fmax(r->fl.raw, prior);
	r->fl.adj = fmax(r->fl.adj, prior);
}

int floor_run_state(const struct rec_run *run, double *most, const struct rec_result **at)
{
	int other = 0;

	*most = 0;
	*at = NULL;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		struct learn_model m = { .ref_sd = r->fl.ref_sd };
		double d;

		if (r->status != UKB_OK || r->fl.ref_runs < 5 || !isfinite(r->fl.ref_level))
			continue;
		d = floor_ref_log(r) - r->fl.ref_level;
		if (!learn_other_state(&m, d))
			continue;
		other = 1;
		if (fabs(d) > fabs(*most)) {
			*most = d;
			*at = r;
		}
	}
	return other;
}

static size_t ids_of(const struct rec_run *r, int64_t *ids, size_t max);

double floor_run_disorder(const struct rec_run *run)
{
	double scale[run->nresults + 1], ref[run->nresults + 1], dp = 0, dr = 0;
	size_t k = 0, kr = 0;

	/*
	 * The median over its paths, of LEARN_STATE_PATHS or more: a change
	 * to one path (a filter, a longer command) can make its processes
	 * spread more without the machine moving at all. And where the
	 * references timed beside them are known, no more than they say: a
	 * kernel change can make every path spread more, never the
	 * user-space work beside them.
	 */
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		if (r->status != UKB_OK)
			continue;
		if (r->fl.usual > 0 && r->fl.scale > 0)
			scale[k++] = r->fl.scale;
		if (r->fl.ref_usual > 0 && r->fl.ref_scale > 0)
			ref[kr++] = r->fl.ref_scale;
	}
	if (k >= LEARN_STATE_PATHS)
		dp = ukb_median_finite(scale, k);
	if (kr)
		dr = ukb_median_finite(ref, kr);
	if (dp > 0 && dr > 0)
		return fmin(dp, dr);
	return dr > 0 ? dr : dp;
}

/*
 * Every path of @run gets the run's disorder as its scale (each path's own
 * spread over its usual in, the median of them out): the machine's state is
 * read from all paths at once, never from one.
 */
static void run_scale(struct rec_run *run)
{
	double d = floor_run_disorder(run);

	for (size_t i = 0; i < run->nresults; i++)
		if (run->results[i].status == UKB_OK)
			run->results[i].fl.scale = d > 1 ? d : 1;
}

int floor_state_note(const struct rec_run *run, char *buf, size_t len)
{
	const struct rec_result *at = NULL;
	double most, disorder = floor_run_disorder(run);
	int other = floor_run_state(run, &most, &at), n = 0;

	buf[0] = 0;
	other = other && at;
	if (other)
		n = snprintf(
		    buf, len,
		    "this run was made in another state of the machine: the reference timed "
		    "beside %s/%s ran %.1f%% %s than its median over this host's newest %zu "
		    "runs",
		    at->name, at->path, 100 * fabs(expm1(most)), most > 0 ? "slower" : "faster",
		    at->fl.ref_runs);
	if (disorder >= LEARN_DISORDER && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      "%s its paths' processes spread %.1f times as much as this host's "
			      "usually do (the median over its paths)",
			      other ? ", and"
				    : "this run was made in an unusual state of the machine:",
			      disorder);
	if (!n)
		return 0;
	if ((size_t)n < len)
		snprintf(
		    buf + n, len - (size_t)n,
		    "; its figures carry that state, and its intervals hold what it moves each "
		    "path as far as this host's runs have shown");
	return 1;
}

void floor_learn_run(struct store *st, struct rec_run *run, char *err, size_t len)
{
	int64_t ex[128];
	size_t nex = ids_of(run, ex, sizeof(ex) / sizeof(ex[0]));

	err[0] = 0;
	for (size_t i = 0; i < run->nresults; i++) {
		struct rec_result *r = &run->results[i];
		struct floor_pick p;

		if (r->status != UKB_OK || r->nproc < 2)
			continue;
		floor_pick(st, run, r, ex, nex, &p);
		if (p.error[0] && !err[0])
			snprintf(err, len, "%s", p.error);
		floor_apply(&p, r);
	}
	run_scale(run);
}

double floor_ref_log(const struct rec_result *r)
{
	double s = 0, x[r->nproc + 1];

	if (rec_proc_refs(r, x))
		return NAN;
	for (size_t i = 0; i < r->nproc; i++)
		s += x[i];
	return log(s / (double)r->nproc);
}

void floor_of_run(struct rec_result *r, double *offset)
{
	const struct rec_floor *f = &r->fl;
	/* the run's reference against the runs before it, where any is known */
	double e = f->ref_runs && isfinite(f->ref_level) ? floor_ref_log(r) - f->ref_level : NAN;
	double d = f->ref_runs >= LEARN_USUAL_MIN ? e : NAN;

	*offset = d;
	if (f->beta > 0 && isfinite(d)) {
		r->floor_rel = f->adj * f->scale;
		r->floor_df = f->adj_df;
		r->state_rel = expm1(f->beta * fabs(d));
	} else {
		r->floor_rel = f->raw * f->scale;
		r->floor_df = f->raw_df;
		r->state_rel = 0;
	}
	/*
	 * The host's first runs know neither its usual speed nor the path's
	 * slope: the path is taken to have moved as far as its reference did
	 * from the runs before it (slope 1; 0.6-1.2 learned later on a cloud guest).
	 * On one whose runs moved 2-11% at once in their second and third runs
	 * this held 6 of the 12 misses of 192 (docs/validation.md).
	 */
	if (f->ref_runs < LEARN_USUAL_MIN && isfinite(e))
		r->state_rel = fabs(expm1(e));
	rec_result_restat(r);
}

int run_busy(const struct rec_run *run, double *load, double *waited, double *disturbed)
{
	const struct rec_env *e = rec_env(run);
	size_t all = 0, left = 0, nw = 0;
	double w = 0;

	*load = *waited = *disturbed = NAN;
	if (e->nload && e->online_cpus > 0)
		*load = e->load[0] / (double)e->online_cpus;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		double rw;

		/* no marks kept: none was disturbed */
		if (r->status != UKB_OK || r->keeps_disturbed)
			continue;
		rw = rec_waited_share(r);
		all += r->nsamples;
		left += rec_disturbed_count(r);
		if (isfinite(rw)) {
			w += rw;
			nw++;
		}
	}
	if (all)
		*disturbed = (double)left / (double)all;
	if (nw)
		*waited = w / (double)nw;
	return cmp_busy(*load, *waited, *disturbed);
}

/* The ids of the stored runs behind @r: its own, or those pooled into it. */
static size_t ids_of(const struct rec_run *r, int64_t *ids, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->npooled && n < max; i++)
		ids[n++] = r->pooled_ids[i];
	if (!n && r->id && n < max)
		ids[n++] = r->id;
	return n;
}

/* One run's results: each gets its floor, counted by source. */
static void set_run(struct floor_choice *fc, struct store *st, struct rec_run *run,
		    const int64_t *ex, size_t nex)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct rec_result *r = &run->results[i];
		struct floor_pick p;
		enum floor_source src;

		if (r->status != UKB_OK)
			continue;
		memset(&r->fl, 0, sizeof(r->fl));
		/* boots pooled: each boot one observation, which moves as runs do */
		if (r->boots >= 2) {
			fc->paths[FLOOR_NONE]++;
			fc->boots++;
			continue;
		}
		if (fc->none || fc->pct >= 0) {
			r->fl.raw = r->fl.adj = fc->none ? 0 : fc->pct / 100;
			r->fl.scale = 1;
			src = fc->none ? FLOOR_NONE : FLOOR_GIVEN;
		} else {
			floor_pick(st, run, r, ex, nex, &p);
			if (p.error[0] && !fc->error[0])
				snprintf(fc->error, sizeof(fc->error), "%s", p.error);
			floor_apply(&p, r);
			src = p.source;

			if (p.m.runs > fc->runs) {
				fc->runs = p.m.runs;
				fc->groups = p.m.groups;
			}
		}
		fc->paths[src]++;
		if (src == FLOOR_NONE)
			continue;
		/* what the header shows: the floor of what is compared */
		{
			double f = r->fl.beta > 0 ? r->fl.adj : r->fl.raw;

			fc->lo = fmin(fc->lo, f);
			fc->hi = fmax(fc->hi, f);
		}
	}
	run_scale(run);
}

/*
 * How much more a side's processes spread than the other's, @sa over @sb
 * on @na and @nb processes, where an F test tells it at SPREAD_ALPHA (two
 * sides); 1 where it does not. Three boots a side spread twice as much as
 * the other three in 40% of the pairs of one kernel (F on 2 and 2 degrees
 * of freedom): no state of the machine is read from so few.
 */
#define SPREAD_ALPHA 0.01
static double shown(double sa, size_t na, double sb, size_t nb)
{
	double f = sa * sa / (sb * sb);
	double p = f > 1 ? ukb_f_sf(f, (double)na - 1, (double)nb - 1)
			 : ukb_f_sf(1 / f, (double)nb - 1, (double)na - 1);

	return 2 * p < SPREAD_ALPHA ? sa / sb : 1;
}

/*
 * Where the host has shown no usual spread of a path yet (a new store),
 * the sides are each other's yardstick: the median over their paths of
 * how much more @a's processes spread than @b's (floor_spread()); NAN
 * where no path tells. On a cloud guest whose runs' processes usually
 * spread by 10%, three runs made in a quiet stretch (1-5%) ran a vDSO
 * path through libc 7% faster than three made before them, its reference
 * unmoved. A path's ratio counts where its processes show it (shown()).
 */
static double sides_disorder(const struct rec_run *a, const struct rec_run *b)
{
	double v[a->nresults + 1], x[a->nresults + 1], dp, dx;
	size_t k = 0, kx = 0;

	for (size_t i = 0; i < a->nresults; i++) {
		const struct rec_result *ra = &a->results[i];
		const struct rec_result *rb = rec_find(b, ra->name, ra->path);
		double sa, sb;

		if (ra->status != UKB_OK || !rb || rb->status != UKB_OK || ra->fl.usual > 0 ||
		    rb->fl.usual > 0)
			continue;
		sa = floor_spread(ra);
		sb = floor_spread(rb);
		if (sa > 0 && sb > 0)
			v[k++] = shown(sa, ra->nproc, sb, rb->nproc);
		sa = floor_ref_spread(ra);
		sb = floor_ref_spread(rb);
		if (sa > 0 && sb > 0)
			x[kx++] = shown(sa, ra->nproc, sb, rb->nproc);
	}
	/* as floor_run_disorder(): no further than the references say */
	dp = k >= LEARN_STATE_PATHS ? ukb_median_finite(v, k) : NAN;
	dx = kx ? ukb_median_finite(x, kx) : NAN;
	if (isfinite(dp) && isfinite(dx))
		return fabs(log(dp)) < fabs(log(dx)) ? dp : dx;
	return isfinite(dx) ? dx : dp;
}

void cmp_choose_floor(struct floor_choice *fc, struct store *st, struct rec_run *a,
		      struct rec_run *b)
{
	int64_t ex[128];
	size_t nex;
	double rel;

	memset(fc->paths, 0, sizeof(fc->paths));
	fc->wide_busy = fc->runs = fc->groups = 0;
	fc->lo = INFINITY;
	fc->hi = 0;
	fc->error[0] = 0;
	/* the runs compared never teach their own floor */
	nex = ids_of(a, ex, sizeof(ex) / sizeof(ex[0]));
	nex += ids_of(b, ex + nex, sizeof(ex) / sizeof(ex[0]) - nex);
	set_run(fc, st, a, ex, nex);
	set_run(fc, st, b, ex, nex);
	rel = sides_disorder(a, b);
	for (int k = 0; k < 2; k++) {
		struct rec_run *run = k ? b : a;
		double disorder = floor_run_disorder(run);
		double against = k ? 1 / rel : rel;

		for (size_t i = 0; i < run->nresults; i++) {
			struct rec_result *r = &run->results[i];

			r->fl.run_disorder = disorder;
			/* against the other side, where the host has shown no usual */
			if (!(r->fl.usual > 0) && against > disorder)
				r->fl.run_disorder = against;
			if (r->status != UKB_OK || !r->fl.wide)
				continue;
			fc->wide_busy += !!(r->fl.wide & REC_WIDE_BUSY);
			fc->hi = fmax(fc->hi, r->fl.beta > 0 ? r->fl.adj : r->fl.raw);
		}
	}
	if (!isfinite(fc->lo))
		fc->lo = 0;
}

void cmp_floor_describe(const struct floor_choice *fc, char *buf, size_t len)
{
	char span[64];

	if (fc->lo == fc->hi)
		snprintf(span, sizeof(span), "%.2f%%", 100 * fc->hi);
	else
		snprintf(span, sizeof(span), "%.2f%% to %.2f%%", 100 * fc->lo, 100 * fc->hi);
	if (fc->none)
		snprintf(buf, len, "none (--no-floor)");
	else if (fc->boots && fc->boots == fc->paths[FLOOR_NONE] && !fc->paths[FLOOR_GIVEN] &&
		 !fc->paths[FLOOR_PRIOR] && !fc->paths[FLOOR_LEARNED])
		/* every side pools boots: their spread is the between-run variation itself */
		snprintf(buf, len,
			 "none added: each side's boots are its observations, and their spread "
			 "is how far a run moves");
	else if (fc->pct >= 0)
		snprintf(buf, len, "%s a run (--floor %g)", span, fc->pct);
	else if (fc->paths[FLOOR_LEARNED] && !fc->paths[FLOOR_PRIOR])
		snprintf(buf, len,
			 "%s a run (learned from up to %zu runs of %zu label%s given again on this "
			 "host)",
			 span, fc->runs, fc->groups, fc->groups == 1 ? "" : "s");
	else if (fc->paths[FLOOR_LEARNED])
		snprintf(
		    buf, len,
		    "%s a run (learned from up to %zu runs of labels given again on this host; "
		    "assumed where none taught it)",
		    span, fc->runs);
	else
		snprintf(
		    buf, len,
		    "%s a run (assumed: no other label given twice on this host teaches it yet)",
		    span);
}

/* One series against its host's runs: the states marked, the steps found again. */
static int series_one(struct store *st, struct series *s, const struct series_opts *o, char *err,
		      size_t len)
{
	struct store_path_run *p = NULL;
	struct learn_run *lr = NULL;
	struct learn_model m;
	double *adj = NULL;
	int *state = NULL, ret = -1;
	size_t n = 0, k = 0;

	if (store_path_runs(st, s->host, s->name, s->path, FLOOR_RUNS, &p, &n, err, len))
		return -1;
	lr = calloc(n + 1, sizeof(*lr));
	adj = calloc(s->n + 1, sizeof(*adj));
	state = calloc(s->n + 1, sizeof(*state));
	if (!lr || !adj || !state) {
		snprintf(err, len, "reading the history: out of memory");
		goto out;
	}
	/* the reference work of the newest run: older builds' differs */
	k = learn_rows(p, n, s->params, n ? p[0].threads : 0, n ? p[0].bytes : 0,
		       n ? p[0].ref_kind : "", lr);
	learn_model(lr, k, NULL, 0, &m);
	for (size_t j = 0; j < s->n; j++) {
		adj[j] = s->pts[j].p->mean;
		for (size_t i = 0; i < k; i++) {
			double d;

			if (lr[i].id != s->pts[j].p->run || !isfinite(lr[i].y))
				continue;
			d = learn_offset(&m, lr[i].x);
			state[j] = learn_other_state(&m, d) ||
				   learn_scale(&m, lr[i].spread) >= LEARN_DISORDER;
			if (m.beta > 0 && isfinite(d))
				adj[j] = s->pts[j].p->mean * exp(-m.beta * d);
			break;
		}
	}
	if (series_restep(s, state, m.beta > 0 ? adj : NULL, o)) {
		snprintf(err, len, "reading the history: out of memory");
		goto out;
	}
	state = NULL;
	ret = 0;
out:
	free(lr);
	free(adj);
	free(state);
	store_path_runs_free(p, n);
	return ret;
}

static int by_path(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	int d = strcmp(x->name, y->name);

	if (!d)
		d = strcmp(x->path, y->path);
	return d ? d : strcmp(x->host, y->host);
}

static int by_host(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	int d = strcmp(x->host, y->host);

	return d ? d : by_path(a, b);
}

/*
 * The series are learned path by path when they span more hosts than
 * paths (history of a path over a fleet), else host by host: a store
 * reads a host's runs, or a path's, in one go when asked in that order.
 */
int floor_series(struct store *st, struct series_set *set, const struct series_opts *o, char *err,
		 size_t len)
{
	struct series **v = calloc(set->n + 1, sizeof(*v));
	size_t hosts = 0, paths = 0;
	int ret = 0;

	if (!v) {
		snprintf(err, len, "reading the history: out of memory");
		return -1;
	}
	for (size_t i = 0; i < set->n; i++)
		v[i] = &set->s[i];
	qsort(v, set->n, sizeof(*v), by_host);
	for (size_t i = 0; i < set->n; i++)
		hosts += !i || strcmp(v[i]->host, v[i - 1]->host);
	qsort(v, set->n, sizeof(*v), by_path);
	for (size_t i = 0; i < set->n; i++)
		paths +=
		    !i || strcmp(v[i]->name, v[i - 1]->name) || strcmp(v[i]->path, v[i - 1]->path);
	if (hosts <= paths)
		qsort(v, set->n, sizeof(*v), by_host);
	for (size_t i = 0; i < set->n && !ret; i++)
		ret = series_one(st, v[i], o, err, len);
	free(v);
	return ret;
}

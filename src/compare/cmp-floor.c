// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-floor.c - which floor a path gets, and why (see cmp-floor.h).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmp-floor.h"

/*
 * The conditions @r was measured in: busy or quiet by the share of time its
 * thread waited (else of its disturbed batches), as the store judges its
 * runs; any, for a path that keeps its disturbed batches (its figure holds
 * them).
 */
static int result_cond(const struct rec_result *r)
{
	double dist = r->nsamples ? (double)rec_disturbed_count(r) / (double)r->nsamples : NAN;

	if (r->keeps_disturbed)
		return STORE_ANY;
	return store_busy_during(rec_waited_share(r), dist) ? STORE_BUSY : STORE_QUIET;
}

void floor_pick(struct store *st, const struct rec_run *run, const struct rec_result *r,
		const int64_t *exclude, size_t nex, struct floor_pick *out)
{
	char err[256], kind[96];
	struct store_floor_est *adj = &out->adj;
	int cond, rc;

	memset(out, 0, sizeof(*out));
	out->source = FLOOR_NONE;
	if (!st || r->status != UKB_OK)
		return;
	/*
	 * Learned from the runs made as this one was, busy or quiet (store.h),
	 * where they are enough; else from all, as a floor learned in other
	 * conditions (the header warns).
	 */
	cond = result_cond(r);
	rc = store_label_floor(st, run->host, run->kernel_release, r->name, r->path, NULL, cond,
			       exclude, nex, &out->est, err, sizeof(err));
	if (!rc && out->est.df < 2 && cond != STORE_ANY) {
		cond = STORE_ANY;
		out->other_cond = 1;
		rc = store_label_floor(st, run->host, run->kernel_release, r->name, r->path, NULL,
				       cond, exclude, nex, &out->est, err, sizeof(err));
	}
	if (!rc)
		rc = store_label_floor(st, run->host, run->kernel_release, r->name, r->path,
				       rec_ref_kind(run->settings, kind, sizeof(kind)), cond,
				       exclude, nex, adj, err, sizeof(err));
	if (rc)
		snprintf(out->error, sizeof(out->error), "%s", err);
	else if (out->est.df >= 2) {
		out->floor = out->est.floor;
		/*
		 * too few runs with the reference: compared as measured; the
		 * reference is used where it pays, a smaller floor than
		 * without; and not at a slope learned in other conditions:
		 * under 2x oversubscription the system call's slope on it
		 * fell from 1.05 to 0.40 on an Intel Xeon guest, and a busy
		 * run's move adjusted at the quiet slope is not what the
		 * quiet floor at that slope measured
		 */
		out->beta =
		    !out->other_cond && adj->df >= 3 && adj->floor < out->est.floor ? adj->beta : 0;
		out->se_beta = out->beta > 0 ? adj->se_beta : 0;
		out->tau = out->beta > 0 ? adj->tau : 0;
		out->adjusted = out->beta > 0 ? adj->floor : out->floor;
		out->df = (double)(out->beta > 0 ? adj->df : out->est.df);
		out->source = FLOOR_LABELS;
		return;
	}
	if (!store_floor_get(st, run->host, &out->cal, err, sizeof(err))) {
		out->floor = out->cal.floor;
		/* no slope of this path learned: it is compared as measured */
		out->adjusted = out->floor;
		out->df = 2.0 * out->cal.rounds - 1;
		out->source = FLOOR_CALIBRATE;
	}
}

double floor_of_run(const struct floor_pick *p, const struct rec_result *r, double *offset)
{
	const struct store_floor_est *a = &p->adj;
	struct ukb_run_pair run;
	double d, n;

	*offset = NAN;
	if (p->source != FLOOR_LABELS || p->other_cond || a->df < 3 || !(a->beta > 0) ||
	    a->ref_runs < 3 || rec_run_pair(r, &run))
		return p->floor;
	d = run.lx - a->ref_level;
	n = (double)a->ref_runs;
	*offset = d;
	return sqrt(a->floor * a->floor + a->beta * a->beta * (d * d + a->ref_sd * a->ref_sd / n) +
		    a->se_beta * a->se_beta * d * d);
}

int floor_pick_busy(const struct floor_pick *p)
{
	if (p->source == FLOOR_LABELS)
		return store_busy(p->est.load, p->est.waited, p->est.disturbed);
	if (p->source == FLOOR_CALIBRATE)
		return store_busy(p->cal.load, p->cal.waited, p->cal.disturbed);
	return 0;
}

int run_busy(const struct rec_run *run, double *load, double *waited, double *disturbed)
{
	struct json_object *e = json_tokener_parse(run->environment ? run->environment : "{}");
	struct json_object *l, *c;
	size_t all = 0, left = 0, nw = 0;
	double w = 0;

	*load = *waited = *disturbed = NAN;
	if (json_object_object_get_ex(e, "loadavg", &l) &&
	    json_object_is_type(l, json_type_array) && json_object_array_length(l) >= 1 &&
	    json_object_object_get_ex(e, "online_cpus", &c) && json_object_get_int(c) > 0)
		*load = json_object_get_double(json_object_array_get_idx(l, 0)) /
			json_object_get_int(c);
	json_object_put(e);
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
	return store_busy(*load, *waited, *disturbed);
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
		    const int64_t *ex, size_t nex, struct floor_pick *labels, int *have_labels)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct rec_result *r = &run->results[i];
		struct floor_pick p;

		if (r->status != UKB_OK)
			continue;
		/* boots pooled: each boot one observation, which moves as runs do */
		if (r->boots >= 2) {
			r->floor_rel = r->floor_adj = 0;
			continue;
		}
		if (fc->none || fc->pct >= 0) {
			r->floor_rel = r->floor_adj = fc->none ? 0 : fc->pct / 100;
			r->floor_df = 0;
			fc->paths[FLOOR_GIVEN]++;
			fc->lo = fc->hi = r->floor_rel;
			continue;
		}
		floor_pick(st, run, r, ex, nex, &p);
		if (p.error[0] && !fc->error[0])
			snprintf(fc->error, sizeof(fc->error), "%s", p.error);
		/*
		 * a busy run whose floor was learned from quiet runs only: under
		 * 2x oversubscription on an AMD EPYC guest under PVM, one run a
		 * side against calibrate's quiet floor, 72 of 380 A/A path
		 * comparisons were called changed as measured (the runs moved
		 * by 1.4-1.7%, the floor said 0.6-0.8%); at the quiet slope, on
		 * another day, 95 of 380: no verdict of a change is given
		 * (comparison.c). Where no floor is known at all, the header
		 * warns and the verdicts stand, as for a quiet run.
		 */
		r->floor_unfit = result_cond(r) == STORE_BUSY &&
				 (p.source == FLOOR_CALIBRATE || p.other_cond) &&
				 !floor_pick_busy(&p);
		r->floor_rel = p.floor;
		r->floor_adj = p.adjusted;
		r->floor_df = p.df;
		r->ref_beta = p.beta;
		r->ref_beta_se = p.se_beta;
		r->ref_tau = p.tau;
		r->ref_level = p.adj.ref_level;
		r->ref_sd = p.beta > 0 && p.adj.ref_runs >= 3 ? p.adj.ref_sd : 0;
		fc->paths[p.source]++;
		if (p.source == FLOOR_NONE)
			continue;
		fc->busy_floor |= floor_pick_busy(&p);
		/* what the header shows: the floor of what is compared */
		if (p.adjusted < fc->lo)
			fc->lo = p.adjusted;
		if (p.adjusted > fc->hi)
			fc->hi = p.adjusted;
		if (p.source == FLOOR_LABELS) {
			/* the widest span of dates and the most runs, for the header */
			if (!*have_labels || p.est.runs > labels->est.runs)
				*labels = p;
			*have_labels = 1;
		} else {
			*labels = *have_labels ? *labels : p;
		}
	}
}

void cmp_choose_floor(struct floor_choice *fc, struct store *st, struct rec_run *a,
		      struct rec_run *b)
{
	int64_t ex[128];
	size_t nex = 0;
	struct floor_pick shown = { 0 };
	int have_labels = 0;
	double load, waited, dist;
	char when[128] = "";

	memset(fc->paths, 0, sizeof(fc->paths));
	fc->unfit = 0;
	fc->lo = INFINITY;
	fc->hi = 0;
	fc->busy_floor = 0;
	fc->busy_runs = run_busy(a, &load, &waited, &dist) | run_busy(b, &load, &waited, &dist);
	if (fc->none) {
		snprintf(fc->from, sizeof(fc->from), "--no-floor");
	} else if (fc->pct >= 0) {
		snprintf(fc->from, sizeof(fc->from), "--floor %g", fc->pct);
	}
	/* the runs compared never teach their own floor */
	nex = ids_of(a, ex, sizeof(ex) / sizeof(ex[0]));
	nex += ids_of(b, ex + nex, sizeof(ex) / sizeof(ex[0]) - nex);
	set_run(fc, st, a, ex, nex, &shown, &have_labels);
	set_run(fc, st, b, ex, nex, &shown, &have_labels);
	/* the paths either of whose sides has no floor for its load */
	for (size_t i = 0; i < b->nresults; i++) {
		const struct rec_result *x = &b->results[i], *y = rec_find(a, x->name, x->path);

		fc->unfit += x->floor_unfit || (y && y->floor_unfit);
	}
	for (size_t i = 0; i < a->nresults; i++)
		fc->unfit += a->results[i].floor_unfit &&
			     !rec_find(b, a->results[i].name, a->results[i].path);
	if (!isfinite(fc->lo))
		fc->lo = 0;
	if (fc->none || fc->pct >= 0)
		return;
	if (shown.source == FLOOR_LABELS)
		snprintf(when, sizeof(when),
			 "repeated runs of a label, up to %zu runs of %zu, %.10s..%.10s",
			 shown.est.runs, shown.est.labels, shown.est.first, shown.est.last);
	else if (shown.source == FLOOR_CALIBRATE)
		snprintf(when, sizeof(when), "ukbench calibrate, %s, %u rounds", shown.cal.started,
			 shown.cal.rounds);
	snprintf(fc->from, sizeof(fc->from), "%s%s%s%s", when,
		 fc->busy_floor ? when[0] ? ", measured on a busy machine" : "measured busy" : "",
		 !when[0] ? "'ukbench calibrate' measures it, or repeated runs of one label" : "",
		 strcmp(a->host, b->host) ? "; the runs are of two hosts, each with its own" : "");
}

void cmp_floor_describe(const struct floor_choice *fc, char *buf, size_t len)
{
	size_t known =
	    fc->paths[FLOOR_LABELS] + fc->paths[FLOOR_CALIBRATE] + fc->paths[FLOOR_GIVEN];

	if (!known)
		snprintf(buf, len, "none known (%s)", fc->from);
	else if (fc->lo == fc->hi)
		snprintf(buf, len, "%.2f%% a side (%s)", 100 * fc->hi, fc->from);
	else
		snprintf(buf, len, "%.2f%% to %.2f%% a side (%s)", 100 * fc->lo, 100 * fc->hi,
			 fc->from);
}

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

void compare_row(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;
	/*
	 * What each run cannot see of itself: its own floor where its history
	 * measured one, else the host's from calibrate.
	 */
	double fa = a && a->floor_rel > 0 ? a->floor_rel : o->floor;
	double fb = b && b->floor_rel > 0 ? b->floor_rel : o->floor;
	double floor = fa * fa + fb * fb;

	if (!a || !b || a->status != UKB_OK || b->status != UKB_OK)
		return;
	/* each process is one observation; batches of one process are not */
	row->replicated = a->nproc >= 2 && b->nproc >= 2;
	if (row->replicated)
		row->ok = !ukb_compare(a->proc_means, a->nproc, b->proc_means, b->nproc, floor,
				       o->alpha, &row->c);
	else
		row->ok = !ukb_compare(a->samples, a->nsamples, b->samples, b->nsamples, floor,
				       o->alpha, &row->c);
	if (!row->ok)
		return;
	row->verdict = ukb_verdict_of(row->c.change, row->c.p_welch, o->alpha, o->threshold);
	if (!row->replicated)
		row->outcome = CMP_CANNOT_TELL;
	else if (o->limit < 0 || row->c.ci_hi < o->limit)
		row->outcome = CMP_NOT_REGRESSED;
	else if (row->verdict == UKB_REGRESSED && row->c.change > o->limit)
		row->outcome = CMP_REGRESSED;
	else
		row->outcome = CMP_CANNOT_TELL;
}

size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n)
{
	size_t both = 0, k = 0;

	*rows = calloc(a->nresults + b->nresults + 1, sizeof(**rows));
	*n = 0;
	if (!*rows)
		return 0;
	for (size_t i = 0; i < a->nresults; i++) {
		struct cmp_row *row = &(*rows)[k++];

		row->a = &a->results[i];
		row->b = rec_find(b, row->a->name, row->a->path);
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
					: "too few samples";
}

const char *cmp_verdict_name(const struct cmp_row *r)
{
	if (!r->replicated && (r->verdict == UKB_IMPROVED || r->verdict == UKB_REGRESSED))
		return "unreplicated";
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

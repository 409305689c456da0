// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * comparison.c - pairing the paths of two runs and comparing each pair.
 */
#include <stdlib.h>
#include <string.h>

#include "comparison.h"

const char *cmp_test_name(enum cmp_test t)
{
	return t == CMP_MWU ? "Mann-Whitney U test" : "Welch's t-test";
}

static void compare_one(struct cmp_row *row, const struct cmp_opts *o)
{
	const struct rec_result *a = row->a, *b = row->b;

	if (!a || !b || a->status != UKB_OK || b->status != UKB_OK)
		return;
	/* runs repeated in fresh processes: each process is one observation */
	row->per_process = a->nproc >= 2 && b->nproc >= 2;
	if (row->per_process)
		row->ok = !ukb_compare(a->proc_means, a->nproc, b->proc_means, b->nproc, &row->c);
	else
		row->ok = !ukb_compare(a->samples, a->nsamples, b->samples, b->nsamples, &row->c);
	if (!row->ok)
		return;
	row->p = o->test == CMP_MWU ? row->c.p_mwu : row->c.p_welch;
	row->verdict = ukb_verdict_of(row->c.change, row->p, o->alpha, o->threshold);
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
		compare_one(row, o);
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

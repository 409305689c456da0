/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * comparison.h - one run against a base, path by path: the figures, the
 * change with its CI, both tests' p-values and a verdict. Shared by
 * `compare`, `run --baseline` and `calibrate`.
 */
#ifndef UKB_CLI_COMPARISON_H
#define UKB_CLI_COMPARISON_H

#include <stddef.h>

#include "compare.h"
#include "record.h"

enum cmp_test { CMP_WELCH, CMP_MWU };

struct cmp_opts {
	enum cmp_test test;
	double alpha;	  /* significance level, 0.05 */
	double threshold; /* noise threshold as a fraction, 0.01 */
};

struct cmp_row {
	const struct rec_result *a, *b; /* b NULL: missing in the other run */
	int ok;				/* both measured: the figures below hold */
	int per_process;		/* compared on per-process means (--runs) */
	struct ukb_cmp c;
	double p; /* of the chosen test */
	enum ukb_verdict verdict;
};

/*
 * Pairs every path of @a with the same path of @b (in @a's order, then
 * @b's paths that @a lacks) and compares them. The caller frees *@rows.
 * Returns the number of paths measured in both.
 */
size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n);

const char *cmp_test_name(enum cmp_test t);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * side.h - what is known of one side of a comparison: comparison.c makes
 * it from a side's runs alone, pair.c from runs set against their
 * neighbours of the other side.
 */
#ifndef UKB_COMPARE_SIDE_H
#define UKB_COMPARE_SIDE_H

#include <stddef.h>

#include "record.h"

/* One side's log mean and what moves it, each part on its own degrees of freedom. */
struct side_est {
	double mean;
	double var_proc, df_proc;   /* of the log mean, from the processes within runs */
	double var_floor, df_floor; /* from the floor */
	size_t runs;
};

/*
 * One run's processes @x[0..c): their mean into *@m, and the variance of
 * that mean relative to it (0 for one process) into *@wr. -1 where the
 * mean is not positive and finite.
 */
int side_run_of(const double *x, size_t c, double *m, double *wr);

/*
 * @a's and @b's runs (@x the process values on the scale compared, of
 * each side) paired with their neighbours, the i-th newest of each side
 * (cmp_alternated()): each side's mean the weighed mean of its runs'; the
 * floor's part of the difference read from the spread of the pairs'
 * differences beyond their processes, on pairs - 1 degrees of freedom,
 * moderated by the floor @f learned on @fdf (0: given, exact), as two
 * runs' worth; split evenly between the sides. Each pair weighs by the
 * inverse of its variance (its processes' and the floor's), alike on
 * both sides, so that the figures' ratio is the pairs' change. -1
 * (nothing set) where a run lacks the path, a side was made in a
 * disordered state (its floor scaled: a state is no drift) or fewer than
 * two pairs.
 */
int pair_est(const struct rec_result *a, const double *xa, const struct rec_result *b,
	     const double *xb, size_t npairs, double f, double fdf, struct side_est *ea,
	     struct side_est *eb);

#endif

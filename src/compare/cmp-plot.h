/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-plot.h - a comparison drawn: each side's observations (the process
 * means, or the batch means of a side measured in one process), in the
 * terminal as two box plots on one scale (`compare --plot`).
 */
#ifndef UKB_COMPARE_CMP_PLOT_H
#define UKB_COMPARE_CMP_PLOT_H

#include <stdio.h>

#include "comparison.h"

/*
 * The observations of @r a comparison uses: its process means, or its
 * batch means when it was measured in one process (*@batches set). The
 * count; 0 when there are none.
 */
size_t cmp_observations(const struct rec_result *r, const double **v, int *batches);

/*
 * One compared path in at most @cols columns (80 when 0): its name, the
 * change, interval and verdict, then a box plot a side on a shared scale
 * and the scale's ends. A path not compared gets its name and why. No
 * blank line before or after: the caller separates rows.
 */
void cmp_plot_row(FILE *f, const struct cmp_row *r, int cols);

#endif

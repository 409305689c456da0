/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h - the plots of a report, as gnuplot scripts (gnuplot.h):
 *
 *   a compared path: each side's observations (process means, or batch
 *   means) as a box plot with the points over it, and beside each box its
 *   mean with the 95% CI of the mean;
 *   a series: each run's mean with its 95% CI, oldest first, joined by a
 *   line, each change point a dashed line at its boundary with the step.
 */
#ifndef UKB_PLOT_FIGURES_H
#define UKB_PLOT_FIGURES_H

#include "comparison.h"
#include "gnuplot.h"
#include "series.h"

#define FIG_CMP_W  360
#define FIG_CMP_H  240
#define FIG_HIST_W 820
#define FIG_HIST_H 280

/* Adds the plot of @r (compared: r->ok) to @g. */
void fig_compare(struct gnuplot *g, const struct cmp_row *r);

/* Adds the plot of @s to @g. */
void fig_series(struct gnuplot *g, const struct series *s);

#endif

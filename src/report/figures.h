/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h - the plots of a report, as gnuplot scripts (gnuplot.h):
 *
 *   a compared path: each side's observations (process means, or batch
 *   means) as a box plot with the points over it, and beside each box its
 *   mean with the 95% CI of the mean;
 *   a series: each run's mean with its 95% CI, oldest first, joined by a
 *   line, each change point a dashed line at its boundary with the step;
 *   every compared path at once: its change and interval (a forest plot);
 *   lab.align's sweep: ns per iteration against the loop's offset.
 */
#ifndef UKB_REPORT_FIGURES_H
#define UKB_REPORT_FIGURES_H

#include "comparison.h"
#include "gnuplot.h"
#include "series.h"

#define FIG_CMP_W  360
#define FIG_CMP_H  240
#define FIG_HIST_W 820
#define FIG_HIST_H 280

#define FIG_FOREST_W 820

/*
 * Adds the plot of @r (compared: r->ok) to @g, its sides named by the
 * runs' labels where they are plain words (else base and other).
 */
void fig_compare(struct gnuplot *g, const struct cmp_row *r, const char *label_a,
		 const char *label_b);

/*
 * Adds one plot of every compared path of @rows: its change and 95% CI
 * on a line each, regressions red, improvements green, 0 marked (a
 * forest plot), to @g. Its height for @paths lines:
 */
void fig_forest(struct gnuplot *g, const struct cmp_row *rows, size_t n);
int fig_forest_height(size_t paths);

/*
 * lab.align's sweep: the loops (paths, as "store" or "add@32") of which
 * @rows hold offsets, at most @max in @paths, how many; and the plot of
 * one, each side's ns per iteration against the offset, with its CI.
 */
size_t fig_sweep_paths(const struct cmp_row *rows, size_t n, const char **paths, size_t max);
void fig_sweep(struct gnuplot *g, const struct cmp_row *rows, size_t n, const char *path,
	       const char *label_a, const char *label_b);

/* Adds the plot of @s to @g. */
void fig_series(struct gnuplot *g, const struct series *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * textplot.h - plots for the terminal, one line each, in UTF-8: a box plot
 * of a sample on a scale shared with another (compare --plot), and a
 * sparkline of a series (history --plot).
 *
 * A box plot line, from the minimum to the maximum:
 *       ├───▓▓▓┃▓▓▓▓──────┤
 *   whiskers ─ from the least to the greatest value, ├ and ┤ at the ends,
 *   the box ▓ from the first to the third quartile, ┃ the median.
 * A sparkline draws each point as one of ▁▂▃▄▅▆▇█ between the series'
 * minimum and maximum; a series longer than the line puts several
 * consecutive points in a column, as their mean.
 */
#ifndef UKB_OUTPUT_TEXTPLOT_H
#define UKB_OUTPUT_TEXTPLOT_H

#include <stddef.h>

/* The most columns a plot takes, whatever the width of the terminal. */
#define TP_MAX_WIDTH 60

/*
 * The least, first quartile, median, third quartile and greatest of
 * @v[0..n) (quantiles of type 7, as R's default) into @q; 0, or -1 when n
 * is 0 or memory is short.
 */
int tp_five(const double *v, size_t n, double q[5]);

/*
 * The box plot of @v[0..n) (n >= 1) on the scale [@lo, @hi] over @width
 * columns, into @buf (UTF-8, of @len bytes; 4 * width + 1 is enough).
 * Returns 0, or -1 when it does not fit or the arguments are unusable.
 */
int tp_box(char *buf, size_t len, const double *v, size_t n, double lo, double hi, int width);

/*
 * The sparkline of @v[0..n) in at most @width columns into @buf (4 *
 * width + 1 bytes are enough). Returns the columns used, or -1.
 * tp_column() gives the column that point @i falls in.
 */
int tp_spark(char *buf, size_t len, const double *v, size_t n, int width);
int tp_column(size_t i, size_t n, int width);

#endif
